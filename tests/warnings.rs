//! Warnings fire at their documented thresholds, with exact numbers.
#![cfg(not(target_arch = "wasm32"))]

use squillion::design::layout_model;
use squillion::model::parse_model;
use squillion::warning::{check, Severity, Warning};

fn warnings(text: &str) -> Vec<Warning> {
    let m = parse_model(text).unwrap_or_else(|e| panic!("{e}"));
    let l = layout_model(&m).unwrap_or_else(|e| panic!("{e}"));
    check(&m, &l)
}

fn find<'a>(w: &'a [Warning], code: &str) -> Option<&'a Warning> {
    w.iter().find(|x| x.code == code)
}

/// The wil document (article 000) with followers as ids on the user: the break point is
/// 844,411 (checked with pymongo, see tests/arith.rs); the largest parent has 800,000 and gains
/// 1,000 a day: 44,411 more take 45 days → 2025-02-15. A median parent (400,000, 10 a day)
/// needs 44,442 days.
const WIL: &str = r#"{
      "start_date": "2025-01-01",
      "entities": [ { "name": "user", "count": 1000, "fields": {
          "username": { "type": "string", "length": { "shape": "fixed", "value": 3 } },
          "email": { "type": "string", "length": { "shape": "fixed", "value": 15 } },
          "tbc": { "type": "array", "items": "objectId", "count": { "shape": "fixed", "value": 2 } } } } ],
      "relationships": [ { "name": "followers", "parent": "user", "child": "user", "many_to_many": true,
          "cardinality": { "shape": "uniform", "min": 0, "max": 800000 },
          "growth_per_day": { "typical": 10, "largest": 1000 } } ],
      "design": { "relationships": { "followers": { "strategy": "reference_in_parent" } } }
    }"#;

#[test]
fn break_point_with_dates() {
    let w = warnings(WIL);
    let bp = find(&w, "ARRAY_BREAK_POINT").unwrap_or_else(|| panic!("{w:?}"));
    assert_eq!(bp.severity, Severity::Info);
    assert_eq!(bp.path, "followers");
    assert!(
        bp.message
            .contains("844,411 elements (exact, 12 B per element)"),
        "{}",
        bp.message
    );
    assert!(
        bp.message.contains("reaches it on 2025-02-15 (in 45 days)"),
        "{}",
        bp.message
    );
    assert!(
        // 44,442 days (10 a day from 400,000): past 2125, so no calendar day is given.
        bp.message
            .ends_with("a typical parent not within 100 years"),
        "{}",
        bp.message
    );
    let ub = find(&w, "UNBOUNDED_ARRAY").unwrap_or_else(|| panic!("{w:?}"));
    assert!(ub.message.contains("800,000"));
    // 800,000 ids: 5 + 800,000×14 + 4,688,890 key digits = 15,888,895 bytes, plus the other
    // 118 bytes of the wil document = 15,889,013 (pymongo: len(bson.encode(wil with 800,000
    // followers)) == 15,889,013).
    let near = find(&w, "DOC_NEAR_LIMIT").unwrap_or_else(|| panic!("{w:?}"));
    assert!(
        near.message.contains("15.15 MiB (exact)"),
        "{}",
        near.message
    );
    // The message rounds; the exact size it rounds is the shape's largest document.
    let m = parse_model(WIL).unwrap_or_else(|e| panic!("{e}"));
    let l = layout_model(&m).unwrap_or_else(|e| panic!("{e}"));
    let stats = squillion::arith::collection_stats(&l.collections[0], &m.start_date);
    assert_eq!(stats.shapes[0].max.bytes, 15_889_013);
    assert!(find(&w, "BLOATED_DOCUMENT").is_some());
    assert!(find(&w, "DOC_OVER_LIMIT").is_none());
}

#[test]
fn over_the_limit_by_one_byte() {
    // {_id, b: binData(n)}: 4 + 17 + (1+1+1 + 4+1+n) + 1 = 30 + n. n = 16,777,187 → 16,777,217.
    let doc = |n: u64| {
        format!(
            r#"{{ "entities": [ {{ "name": "x", "count": 1, "fields": {{ "b": {{ "type": "binData", "length": {{ "shape": "fixed", "value": {n} }} }} }} }} ] }}"#
        )
    };
    let w = warnings(&doc(16_777_186));
    assert!(
        find(&w, "DOC_OVER_LIMIT").is_none(),
        "exactly 16 MiB is accepted"
    );
    assert!(find(&w, "DOC_NEAR_LIMIT").is_some());
    let w = warnings(&doc(16_777_187));
    let e = find(&w, "DOC_OVER_LIMIT").unwrap_or_else(|| panic!("{w:?}"));
    assert_eq!(e.severity, Severity::Error);
    assert!(
        e.message
            .contains("16.000001 MiB (exact), 1 B over the 16 MiB limit"),
        "{}",
        e.message
    );
}

#[test]
fn near_limit_threshold_is_80_percent() {
    // 30 + n ≥ 13,421,773 ⇔ n ≥ 13,421,743.
    let doc = |n: u64| {
        format!(
            r#"{{ "entities": [ {{ "name": "x", "count": 1, "fields": {{ "b": {{ "type": "binData", "length": {{ "shape": "fixed", "value": {n} }} }} }} }} ] }}"#
        )
    };
    assert!(find(&warnings(&doc(13_421_742)), "DOC_NEAR_LIMIT").is_none());
    assert!(find(&warnings(&doc(13_421_743)), "DOC_NEAR_LIMIT").is_some());
}

#[test]
fn scatter_gather_on_fan_out_on_read() {
    let m =
        parse_model(include_str!("../presets/social-feed.json")).unwrap_or_else(|e| panic!("{e}"));
    let l = squillion::design::layout_named(&m, squillion::design::DesignName::Normalized)
        .unwrap_or_else(|e| panic!("{e}"));
    let w = check(&m, &l);
    let sg = find(&w, "SCATTER_GATHER").unwrap_or_else(|| panic!("{w:?}"));
    assert!(sg.message.contains("all 8 shards"), "{}", sg.message);
    // Fan-out on write sharded by owner: reads are targeted.
    let l = squillion::design::layout_named(&m, squillion::design::DesignName::Denormalized)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(find(&check(&m, &l), "SCATTER_GATHER").is_none());
}

#[test]
fn live_copies_that_cost_more_than_they_save() {
    let text = include_str!("../presets/product-parts.json")
        .replace("\"rate_per_sec\": 2,", "\"rate_per_sec\": 500,");
    let w = warnings(&text);
    let lc = find(&w, "LIVE_COPY_AMPLIFICATION").unwrap_or_else(|| panic!("{w:?}"));
    assert_eq!(lc.path, "parts.name");
    assert!(find(
        &warnings(include_str!("../presets/product-parts.json")),
        "LIVE_COPY_AMPLIFICATION"
    )
    .is_none());
}

#[test]
fn unindexed_queries_against_edited_indexes() {
    let m =
        parse_model(include_str!("../presets/image-board.json")).unwrap_or_else(|e| panic!("{e}"));
    let l = layout_model(&m).unwrap_or_else(|e| panic!("{e}"));
    assert!(find(&check(&m, &l), "UNINDEXED_QUERY").is_none());
    let w = squillion::warning::check_with_indexes(&m, &l, &[]);
    let u = find(&w, "UNINDEXED_QUERY").unwrap_or_else(|| panic!("{w:?}"));
    assert_eq!(u.collection, "image");
}

#[test]
fn warnings_serialize() {
    let w = warnings(include_str!("../presets/page-analytics.json"));
    let json = serde_json::to_value(&w).unwrap_or_default();
    assert_eq!(json[0]["code"], "MMAPV1_PREALLOCATION");
    assert_eq!(json[0]["severity"], "info");
    assert!(json[0]["message"]
        .as_str()
        .is_some_and(|m| m.contains("WiredTiger")));
}

#[test]
fn declared_arrays_at_250_are_unbounded() {
    let doc = |n: u64| {
        format!(
            r#"{{ "entities": [ {{ "name": "x", "count": 1, "fields": {{ "tags": {{ "type": "array", "items": "string", "count": {{ "shape": "uniform", "min": 0, "max": {n} }} }} }} }} ] }}"#
        )
    };
    assert!(find(&warnings(&doc(249)), "UNBOUNDED_ARRAY").is_none());
    let w = warnings(&doc(250));
    assert_eq!(
        find(&w, "UNBOUNDED_ARRAY").map(|w| w.path.as_str()),
        Some("tags")
    );
}
