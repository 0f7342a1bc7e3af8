//! The storage estimate's snappy ratio follows what generated values are made of: binary
//! data without a textual kind is random (an attachment, an image: ratio near 1), text
//! compresses as it always has, and generation stays deterministic.
#![cfg(not(target_arch = "wasm32"))]

use bson::Bson;
use squillion::design::layout_model;
use squillion::eval::{evaluate, Design, EvalOptions};
use squillion::generate::generate;
use squillion::model::{parse_model, Model};

/// A `message` entity with a lognormal 2 KB–64 KB payload of `ty`, `kind` as given.
fn messages(ty: &str, kind: Option<&str>) -> Model {
    let kind = kind.map_or(String::new(), |k| format!(r#""kind": "{k}", "#));
    parse_model(&format!(
        r#"{{ "entities": [ {{ "name": "message", "count": 1000000,
              "fields": {{ "at": {{ "type": "date" }},
                           "payload": {{ "type": "{ty}", {kind}"length": {{ "shape": "lognormal", "typical": 2000, "p99": 30000, "max": 64000 }} }} }} }} ],
            "sample": {{ "max_documents": 400 }} }}"#
    ))
    .unwrap_or_else(|e| panic!("{e:?}"))
}

/// Returns the snappy ratio the evaluation's storage estimate gives the collection `message`.
fn ratio(m: &Model) -> f64 {
    let e = evaluate(m, &Design::Model, &EvalOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    e.storage
        .collections
        .iter()
        .find(|c| c.collection == "message")
        .map(|c| c.compression_ratio)
        .unwrap_or_else(|| panic!("no message storage"))
}

#[test]
fn binary_attachments_barely_compress_text_does() {
    // Random bytes: snappy stores them as literals (a few bytes of framing per 64 KiB).
    let bin = ratio(&messages("binData", None));
    assert!(bin > 0.98 && bin <= 1.01, "binData ratio {bin}");
    // Text (a string, or binData whose kind says it holds text): lorem words, as before.
    let text = ratio(&messages("string", Some("text")));
    assert!(text < 0.2, "string ratio {text}");
    let text_bin = ratio(&messages("binData", Some("text")));
    assert!(text_bin < 0.2, "binData of text ratio {text_bin}");
    // A numeric kind means nothing for bytes: still random.
    let counter = ratio(&messages("binData", Some("counter")));
    assert!(counter > 0.98, "binData of counter ratio {counter}");
}

#[test]
fn image_board_thumbnails_are_incompressible() {
    let p = squillion::presets::find("image-board").unwrap_or_else(|e| panic!("{e}"));
    let m = p.model().unwrap_or_else(|e| panic!("{e}"));
    let e = evaluate(&m, &Design::Model, &EvalOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let images = e
        .storage
        .collections
        .iter()
        .find(|c| c.collection == "image")
        .unwrap_or_else(|| panic!("no image storage"));
    // Thumbnails are 2–8 KB of the ~5 KB documents: most of the bytes do not compress.
    assert!(
        images.compression_ratio > 0.9,
        "{}",
        images.compression_ratio
    );
}

#[test]
fn binary_data_is_seeded_random_and_deterministic() {
    let m = messages("binData", None);
    let layout = layout_model(&m).unwrap_or_else(|e| panic!("{e}"));
    let payloads = |m: &Model| -> Vec<Vec<u8>> {
        generate(m, &layout)
            .collection("message")
            .unwrap_or_else(|| panic!("no message"))
            .documents
            .iter()
            .filter_map(|d| match d.get("payload") {
                Some(Bson::Binary(b)) => Some(b.bytes.clone()),
                _ => None,
            })
            .collect()
    };
    let a = payloads(&m);
    assert_eq!(a.len(), 400);
    // The same seed gives the same bytes.
    assert_eq!(a, payloads(&m));
    // No value repeats a block: the first 64 bytes of a value do not come back in it.
    for p in a.iter().filter(|p| p.len() >= 128) {
        let head = p.get(..64).unwrap_or_default();
        assert!(!p
            .get(64..)
            .unwrap_or_default()
            .windows(64)
            .any(|w| w == head));
    }
    // Values differ from one another, and another seed gives other bytes.
    assert_ne!(a.first(), a.get(2));
    let mut other = m.clone();
    other.seed = m.seed.wrapping_add(1);
    assert_ne!(a.get(2), payloads(&other).get(2));
}
