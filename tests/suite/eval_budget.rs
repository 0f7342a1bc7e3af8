//! The evaluation's memory budget: a sample too big to materialize is refused up front, with
//! a message naming the limit and the sample size that fits; every preset fits as shipped.
#![cfg(not(target_arch = "wasm32"))]

use squillion::design::{layout_model, layout_named, DesignName};
use squillion::eval::budget::{check, fit, footprint};
use squillion::eval::{evaluate, Design, EvalError, EvalOptions};
use squillion::generate::{generate, GenOptions};
use squillion::model::{parse_model, Model};
use std::time::{Duration, Instant};

fn preset(name: &str) -> Model {
    let p = squillion::presets::find(name).unwrap_or_else(|e| panic!("{e}"));
    p.model().unwrap_or_else(|e| panic!("{e}"))
}

/// Every preset, under every design it offers and the three named designs, fits (at the
/// largest default sample that fits, when it has no sample size of its own): the budget
/// refuses nothing the product ships.
#[test]
fn every_preset_fits_at_its_own_sample() {
    let opts = GenOptions::default();
    for p in squillion::presets::all() {
        let model = p.model().unwrap_or_else(|e| panic!("{e}"));
        let explicit = model.sample.max_documents.is_some();
        let mut layouts = Vec::new();
        for o in squillion::eval::offer::compared(&model) {
            if let Ok(l) = o.layout() {
                layouts.push((o.id, o.model, l));
            }
        }
        for d in [
            DesignName::Normalized,
            DesignName::Denormalized,
            DesignName::Bucketed,
        ] {
            if let Ok(l) = layout_named(&model, d) {
                layouts.push((format!("{d:?}"), model.clone(), l));
            }
        }
        for (name, mut m, l) in layouts {
            let f = fit(&mut m, &l, &opts, explicit)
                .unwrap_or_else(|e| panic!("preset {} design {name}: {e}", p.name));
            assert!(check(&m, &l, &opts).is_ok());
            assert!(
                f.documents > 0 && f.bytes > 0,
                "preset {} design {name}",
                p.name
            );
        }
    }
}

/// The estimate counts the documents generation makes, exactly (a debug build generates one
/// preset's designs in a few seconds, so one preset stands for the rest).
#[test]
fn the_estimate_counts_what_generation_makes() {
    let m = preset("blog");
    for d in [
        DesignName::Normalized,
        DesignName::Denormalized,
        DesignName::Bucketed,
    ] {
        let l = layout_named(&m, d).unwrap_or_else(|e| panic!("{e}"));
        let f = footprint(&m, &l, &GenOptions::default());
        let data = generate(&m, &l);
        let made: u64 = data
            .collections
            .iter()
            .map(|c| c.documents.len() as u64)
            .sum();
        assert_eq!(f.documents, made + data.omitted_documents, "{d:?}");
        assert_eq!(data.omitted_documents, 0, "{d:?}");
    }
}

/// The largest preset with the sample at its cap (1,000,000 per entity) is refused before
/// anything is generated: fast, and the message says which limit and what fits.
#[test]
fn largest_preset_at_the_sample_cap_is_refused_up_front() {
    let m = preset("image-board");
    let opts = EvalOptions {
        max_documents: Some(1_000_000),
        ..EvalOptions::default()
    };
    let t = Instant::now();
    let e = evaluate(&m, &Design::Model, &opts).err();
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    let Some(EvalError::TooBig(e)) = e else {
        panic!("expected TooBig, got {e:?}")
    };
    let msg = e.to_string();
    assert!(msg.contains("over the limit of 200,000"), "{msg}");
    assert!(msg.contains("--scale N"), "{msg}");
    assert!(msg.contains("documents per entity fit"), "{msg}");
    assert!(msg.contains("computed"), "{msg}");
    assert!(e.footprint.documents > 200_000);
}

/// The size the message suggests really fits: evaluating with it succeeds.
#[test]
fn the_suggested_sample_size_fits() {
    let m = preset("image-board");
    let too_big = EvalOptions {
        max_documents: Some(1_000_000),
        ..EvalOptions::default()
    };
    let Some(EvalError::TooBig(e)) = evaluate(&m, &Design::Model, &too_big).err() else {
        panic!("expected TooBig")
    };
    let n: u64 = e
        .fits
        .trim_start_matches(": at most ")
        .split(' ')
        .next()
        .unwrap_or_default()
        .replace(',', "")
        .parse()
        .unwrap_or_else(|x| panic!("{x}: {}", e.fits));
    let l = layout_model(&m).unwrap_or_else(|e| panic!("{e}"));
    let mut sized = m.clone();
    sized.sample.max_documents = Some(n);
    assert!(check(&sized, &l, &GenOptions::default()).is_ok());
    sized.sample.max_documents = Some(n + 1);
    assert!(check(&sized, &l, &GenOptions::default()).is_err());
}

/// Entities of 10^15 at full scale with the whole scale and the sample at its cap; and
/// documents of 16 MiB strings: refused by documents, then by bytes.
#[test]
fn hostile_scales_are_refused_by_documents_and_by_bytes() {
    let huge = parse_model(
        r#"{ "entities": [
          { "name": "a", "count": 1e15, "fields": { "x": { "type": "int" } } },
          { "name": "b", "count": 1e15, "fields": { "y": { "type": "int" } } } ],
          "relationships": [ { "name": "ab", "parent": "a", "child": "b", "cardinality": { "shape": "fixed", "value": 1 } } ],
          "sample": { "scale": 1, "max_documents": 1000000 } }"#,
    );
    let huge = huge.unwrap_or_else(|e| panic!("{e}"));
    let e = evaluate(
        &huge,
        &Design::Named(DesignName::Normalized),
        &EvalOptions::default(),
    );
    let msg = e.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(msg.contains("about 2,000,000 documents"), "{msg}");

    let big_strings = parse_model(
        r#"{ "entities": [ { "name": "a", "count": 1000,
          "fields": { "s": { "type": "string", "length": { "shape": "fixed", "value": 16000000 } } } } ],
          "sample": { "max_documents": 500 } }"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let e = evaluate(
        &big_strings,
        &Design::Named(DesignName::Normalized),
        &EvalOptions::default(),
    );
    let msg = e.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(
        msg.contains("MiB in memory, over the limit of 64 MiB"),
        "{msg}"
    );
    // Each 16,000,000-byte string is materialized as half of 16 MiB (the rest of its bytes are
    // given back in closed form): 8 MiB + 64 bytes a document, 7 fit in 64 MiB.
    assert!(msg.contains("at most 7 documents per entity fit"), "{msg}");
    let l = layout_named(&big_strings, DesignName::Normalized).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        footprint(&big_strings, &l, &GenOptions::default()).documents,
        500
    );
}

/// A default sample too big for the budget is lowered, not refused: host-logs embedded keeps
/// 10,000 log lines in each host document (2.7 MB each), so fewer hosts fit than the default
/// 500 (`Evaluation::max_documents` reports the size used).
#[test]
fn a_default_sample_is_lowered_to_fit() {
    let m = preset("host-logs");
    assert!(m.sample.max_documents.is_none());
    let embed = squillion::eval::offer::offer(&m, "embed-all")
        .map(|o| o.model)
        .unwrap_or_else(|| panic!("host-logs has no embed-all"));
    // What `evaluate` does first (evaluating it all takes a minute in a debug build).
    let l = layout_model(&embed).unwrap_or_else(|e| panic!("{e}"));
    let mut lowered = embed.clone();
    let f = fit(&mut lowered, &l, &GenOptions::default(), false).unwrap_or_else(|e| panic!("{e}"));
    let n = lowered.sample.max_documents.unwrap_or_default();
    assert!(n < 500 && n > 10, "{n}");
    assert!(f.bytes <= GenOptions::default().max_total_bytes);
    // Asked for explicitly, the same size is refused with the size that fits.
    let asked = EvalOptions {
        max_documents: Some(500),
        ..EvalOptions::default()
    };
    let msg = evaluate(&embed, &Design::Model, &asked)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        msg.contains(&format!("at most {n} documents per entity fit")),
        "{msg}"
    );
}
