//! The lifecycle patterns of issue #20 (approximation, archive, document versioning, schema
//! versioning): what lowering makes of a model, what validation refuses, and the sizes of the
//! new document shapes (history documents, both versions of a migration) checked against
//! pymongo's `bson`.
#![cfg(not(target_arch = "wasm32"))]

use bson::{Bson, Document};
use squillion::design::Layout;
use squillion::eval::offer::offer;
use squillion::generate::generate;
use squillion::model::{parse_model, Model};
use squillion::size::document_size;
use squillion::stats::collection_stats;

/// The sensor-readings preset under its design `id`, lowered and laid out.
fn offered(id: &str) -> (Model, Layout) {
    let p = squillion::presets::find("sensor-readings").unwrap_or_else(|e| panic!("{e}"));
    let m = p.model().unwrap_or_else(|e| panic!("{e}"));
    let o = offer(&m, id).unwrap_or_else(|| panic!("no design {id}"));
    let l = o.layout().unwrap_or_else(|e| panic!("{e}"));
    (o.model, l)
}

fn hex(d: &Document) -> String {
    d.to_vec()
        .unwrap_or_else(|e| panic!("{e}"))
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Runs `script` with python3 on `args`; `None` when python3 with pymongo is missing.
fn python(script: &str, args: &[String]) -> Option<String> {
    match std::process::Command::new("python3")
        .arg("-c")
        .arg(script)
        .args(args)
        .output()
    {
        Ok(out) if out.status.success() => Some(String::from_utf8_lossy(&out.stdout).to_string()),
        Ok(out) => {
            let err = String::from_utf8_lossy(&out.stderr);
            if err.contains("No module named 'bson'") {
                eprintln!("pymongo not available: checked against bson-rust only");
                return None;
            }
            panic!("python3: {err}")
        }
        Err(_) => None,
    }
}

/// pymongo's size of each document (given as BSON hex), one per line.
const SIZES: &str = r#"
import sys, bson
from bson import SON
for h in sys.argv[1:]:
    d = bson.decode(bytes.fromhex(h), bson.CodecOptions(document_class=SON))
    print(len(bson.encode(d)))
"#;

fn pymongo_sizes(docs: &[&Document]) -> Option<Vec<u64>> {
    let args: Vec<String> = docs.iter().map(|d| hex(d)).collect();
    let out = python(SIZES, &args)?;
    Some(out.lines().map(|l| l.trim().parse().unwrap_or(0)).collect())
}

fn sample<'a>(data: &'a squillion::generate::Dataset, coll: &str) -> Vec<&'a Document> {
    data.collections
        .iter()
        .find(|c| c.name == coll)
        .map(|c| c.documents.iter().take(40).collect())
        .unwrap_or_default()
}

#[test]
fn history_documents_are_the_document_and_its_doc_id() {
    let (m, l) = offered("versioned");
    let data = generate(&m, &l);
    let history = sample(&data, "sensor_history");
    let sensors = sample(&data, "sensor");
    assert!(!history.is_empty() && !sensors.is_empty());
    for h in &history {
        let keys: Vec<&str> = h.keys().map(String::as_str).collect();
        assert_eq!(&keys[..2], ["_id", "docId"], "{h}");
        assert!(h.contains_key("revision"));
    }
    // The arithmetic: a history document is the sensor plus `docId` (1 + 6 + 12 bytes).
    let stats = |c: &str| {
        collection_stats(
            l.collection(c).unwrap_or_else(|| panic!("{c}")),
            &m.start_date,
        )
    };
    let (s, hs) = (stats("sensor"), stats("sensor_history"));
    assert_eq!(hs.shapes[0].max.bytes, s.shapes[0].max.bytes + 19);
    assert_eq!(hs.shapes[0].p50.bytes, s.shapes[0].p50.bytes + 19);
    // pymongo: the same sizes for every sample document, and 19 bytes for docId added to a
    // sensor document.
    let mine: Vec<u64> = history
        .iter()
        .chain(&sensors)
        .map(|d| document_size(d))
        .collect();
    let all: Vec<&Document> = history.iter().chain(&sensors).copied().collect();
    if let Some(theirs) = pymongo_sizes(&all) {
        assert_eq!(mine, theirs);
    }
    let script = r#"
import sys, bson
from bson import SON, ObjectId
d = bson.decode(bytes.fromhex(sys.argv[1]), bson.CodecOptions(document_class=SON))
h = SON([('_id', ObjectId()), ('docId', d['_id'])] + [(k, v) for k, v in d.items() if k != '_id'])
print(len(bson.encode(h)) - len(bson.encode(d)))
"#;
    if let Some(out) = python(script, &[hex(sensors[0])]) {
        assert_eq!(out.trim(), "19");
    }
}

#[test]
fn a_migration_holds_both_versions_each_sized() {
    let (m, l) = offered("migrating");
    let c = l
        .collection("sensor")
        .unwrap_or_else(|| panic!("no sensor"));
    let labels: Vec<&str> = c.shapes.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(labels, ["sensor", "sensor v1"]);
    assert_eq!(c.shapes[0].count, 4_000.0);
    assert_eq!(c.shapes[1].count, 6_000.0);
    let data = generate(&m, &l);
    let docs: Vec<&Document> = data
        .collections
        .iter()
        .filter(|c| c.name == "sensor")
        .flat_map(|c| &c.documents)
        .collect();
    let version = |v: i32| -> Vec<&Document> {
        docs.iter()
            .copied()
            .filter(|d| d.get("schema_version") == Some(&Bson::Int32(v)))
            .take(20)
            .collect()
    };
    let (v1, v2) = (version(1), version(2));
    assert!(!v1.is_empty() && !v2.is_empty());
    for d in &v2 {
        assert!(d.contains_key("location") && !d.contains_key("site"), "{d}");
    }
    for d in &v1 {
        assert!(d.contains_key("site") && !d.contains_key("location"), "{d}");
    }
    // The per-version statistics bound every sample document of that version.
    let st = collection_stats(c, &m.start_date);
    for (shape, docs) in st.shapes.iter().zip([&v2, &v1]) {
        for d in docs.iter() {
            assert!(
                document_size(d) <= shape.max.bytes,
                "{} {}",
                shape.label,
                document_size(d)
            );
        }
    }
    // Version 1 is the unversioned sensor plus `schema_version` (an int: 1 + 15 + 4 bytes).
    let (em, el) = offered("exact");
    let exact = collection_stats(
        el.collection("sensor").unwrap_or_else(|| panic!("sensor")),
        &em.start_date,
    );
    assert_eq!(st.shapes[1].max.bytes, exact.shapes[0].max.bytes + 20);
    let all: Vec<&Document> = v1.iter().chain(&v2).copied().collect();
    if let Some(theirs) = pymongo_sizes(&all) {
        let mine: Vec<u64> = all.iter().map(|d| document_size(d)).collect();
        assert_eq!(mine, theirs);
    }
    // pymongo migrates a version-1 document to version 2: drop `site`, add the GeoJSON point;
    // the size difference is the layout's difference of the two shapes' fixed parts.
    let script = r#"
import sys, bson
from bson import SON
d = bson.decode(bytes.fromhex(sys.argv[1]), bson.CodecOptions(document_class=SON))
n = SON((k, 2 if k == 'schema_version' else v) for k, v in d.items() if k != 'site')
n['location'] = SON([('type', 'Point'), ('coordinates', [1.5, -2.5])])
print(len(bson.encode(n)) - len(bson.encode(d)) + len(d['site']) + 1 + len('site') + 1 + 4 + 1)
"#;
    if let Some(out) = python(script, &[hex(v1[0])]) {
        // + location: 1 + 9 + an object of 4 + type (1 + 5 + 4 + 6) + coordinates
        // (1 + 12 + an array of 4 + 2 × (1 + 2 + 8) + 1) + 1.
        let location = 1 + 9 + 4 + (1 + 5 + 4 + 6) + (1 + 12 + 4 + 2 * (1 + 2 + 8) + 1) + 1;
        assert_eq!(out.trim(), location.to_string());
        let v2_doc = v2[0];
        let loc = v2_doc
            .get_document("location")
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(document_size(loc) + 1 + 9, location as u64);
    }
}

#[test]
fn lowering_splits_the_units_and_the_entity() {
    let (m, _) = offered("approximate");
    let names: Vec<(&str, f64)> = m
        .workload
        .iter()
        .map(|u| (u.name.as_str(), u.rate_per_sec))
        .collect();
    assert!(names.contains(&("record a reading", 1000.0)));
    assert!(names.contains(&("record a reading: readingCount (1 in 100 written)", 10.0)));
    let (a, _) = offered("archive");
    let count = |m: &Model, e: &str| m.entity(e).map(|e| e.count);
    assert_eq!(count(&a, "reading"), Some(2_592_000_000.0));
    assert_eq!(count(&a, "reading_archive"), Some(28_944_000_000.0));
    let (v, _) = offered("versioned");
    assert_eq!(count(&v, "sensor_history"), Some(43_200.0 * 365.0));
}

fn with_pattern(pattern: serde_json::Value) -> Result<Model, String> {
    let mut v: serde_json::Value =
        serde_json::from_str(include_str!("../../presets/sensor-readings.json"))
            .unwrap_or_else(|e| panic!("{e}"));
    v["design"] = serde_json::json!({ "fields": [pattern] });
    parse_model(&v.to_string()).map_err(|e| e.to_string())
}

#[test]
fn validation_refuses_what_cannot_be_laid_out() {
    let e = with_pattern(serde_json::json!({"pattern": "archive", "entity": "reading", "field": "value", "after_days": 30})).unwrap_err();
    assert!(e.contains("no top-level date field \"value\""), "{e}");
    let e = with_pattern(serde_json::json!({"pattern": "archive", "entity": "reading", "field": "at", "after_days": 30, "old_share": 2})).unwrap_err();
    assert!(e.contains("old_share"), "{e}");
    let e = with_pattern(serde_json::json!({"pattern": "approximate", "entity": "sensor", "field": "readingCount", "every": 1})).unwrap_err();
    assert!(e.contains("every"), "{e}");
    let e = with_pattern(serde_json::json!({"pattern": "schema_versioning", "entity": "sensor", "field": "site", "from": 1, "to": 1, "migrated_share": 0.5, "removed": ["nope"]})).unwrap_err();
    assert!(e.contains("already has a field \"site\""), "{e}");
    assert!(e.contains("another version"), "{e}");
    assert!(e.contains("removed[0]"), "{e}");
    assert!(with_pattern(serde_json::json!({"pattern": "document_versioning", "entity": "sensor", "field": "revision"})).is_ok());
}

#[test]
fn a_too_coarse_approximation_is_warned() {
    let mut m = with_pattern(serde_json::json!({"pattern": "approximate", "entity": "sensor", "field": "readingCount", "every": 100000})).unwrap_or_else(|e| panic!("{e}"));
    m.preset = None;
    let e =
        squillion::eval::evaluate_offered(&m, "custom", &squillion::eval::EvalOptions::default())
            .unwrap_or_else(|e| panic!("{e}"));
    let w = e
        .warnings
        .iter()
        .find(|w| w.code == "APPROXIMATION_TOO_COARSE");
    assert!(
        w.is_some_and(|w| w.message.contains("8,640")),
        "{:?}",
        e.warnings
    );
}

#[test]
fn an_archive_of_young_data_is_warned_empty() {
    let mut m = with_pattern(serde_json::json!({"pattern": "archive", "entity": "reading", "field": "at", "after_days": 400})).unwrap_or_else(|e| panic!("{e}"));
    m.preset = None;
    let o = offer(&m, "custom").unwrap_or_else(|| panic!("custom"));
    let l = o.layout().unwrap_or_else(|e| panic!("{e}"));
    let w = squillion::warning::check(&o.model, &l);
    assert!(w.iter().any(|w| w.code == "ARCHIVE_EMPTY"), "{w:?}");
}
