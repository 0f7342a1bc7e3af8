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
/// 844,411 (checked with pymongo, see tests/suite/arith.rs); the largest parent has 800,000 and gains
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
    // The finding names the figure that passes 80%: the largest of the 1,000 users expected at
    // full scale (the 0.999 quantile of the follower count, exact), 15.14 MiB, just below the
    // bound's 15.15 MiB.
    let near = find(&w, "DOC_NEAR_LIMIT").unwrap_or_else(|| panic!("{w:?}"));
    assert!(
        near.message.starts_with(
            "the largest user document expected among 1,000 at full scale is 15.14 MiB (exact)"
        ),
        "{}",
        near.message
    );
    // The message rounds; the exact size it rounds is the shape's largest document.
    let m = parse_model(WIL).unwrap_or_else(|e| panic!("{e}"));
    let l = layout_model(&m).unwrap_or_else(|e| panic!("{e}"));
    let stats = squillion::stats::collection_stats(&l.collections[0], &m.start_date);
    assert_eq!(stats.shapes[0].max.bytes, 15_889_013);
    let expected = stats.shapes[0].largest_expected;
    assert!(expected.exact && expected.bytes < 15_889_013);
    assert_eq!(squillion::human::binary_size(expected.bytes), "15.14 MiB");
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
    let m = parse_model(include_str!("../../presets/social-feed.json"))
        .unwrap_or_else(|e| panic!("{e}"));
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
    let text = include_str!("../../presets/product-parts.json")
        .replace("\"rate_per_sec\": 2,", "\"rate_per_sec\": 500,");
    let w = warnings(&text);
    let lc = find(&w, "LIVE_COPY_AMPLIFICATION").unwrap_or_else(|| panic!("{w:?}"));
    assert_eq!(lc.path, "parts.name");
    assert!(find(
        &warnings(include_str!("../../presets/product-parts.json")),
        "LIVE_COPY_AMPLIFICATION"
    )
    .is_none());
}

#[test]
fn unindexed_queries_against_edited_indexes() {
    let m = parse_model(include_str!("../../presets/image-board.json"))
        .unwrap_or_else(|e| panic!("{e}"));
    let l = layout_model(&m).unwrap_or_else(|e| panic!("{e}"));
    assert!(find(&check(&m, &l), "UNINDEXED_QUERY").is_none());
    let w = squillion::warning::check_with_indexes(&m, &l, &[]);
    let u = find(&w, "UNINDEXED_QUERY").unwrap_or_else(|| panic!("{w:?}"));
    assert_eq!(u.collection, "image");
}

#[test]
fn warnings_serialize() {
    let w = warnings(include_str!("../../presets/page-analytics.json"));
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

fn named(text: &str, name: squillion::design::DesignName) -> Vec<Warning> {
    let m = parse_model(text).unwrap_or_else(|e| panic!("{e}"));
    let l = squillion::design::layout_named(&m, name).unwrap_or_else(|e| panic!("{e}"));
    check(&m, &l)
}

/// Person and addresses normalized: the profile read (500/s) fetches one to four addresses in
/// a second round trip, though the denormalized design embeds them. MongoDB's "separating data
/// that is accessed together".
#[test]
fn separated_read_fires_for_a_bounded_child_read_apart() {
    use squillion::design::DesignName::{Denormalized, Normalized};
    let text = include_str!("../../presets/person-addresses.json");
    let w = named(text, Normalized);
    let s = find(&w, "SEPARATED_READ").unwrap_or_else(|| panic!("{w:?}"));
    assert_eq!(s.severity, Severity::Warning);
    assert_eq!(s.collection, "address");
    assert_eq!(
        s.message,
        "\"show person with addresses\" (500/s) reads person by ssn with its addresses in 2 round trips, 1 of them for the address documents in collection address: read together, stored apart, though no person has more than 4 (bounded, not growing) and no workload step reads, lists, inserts or deletes address documents on their own. Embedded, the read is 1 round trip: 500 round trips a second fewer"
    );
    assert!(s.fix.contains("embed address in person"), "{}", s.fix);
    assert!(s.fix.contains("extended_reference"), "{}", s.fix);
    // Embedded, the read is one round trip: nothing to say.
    assert!(find(&named(text, Denormalized), "SEPARATED_READ").is_none());
}

/// Where embedding is refused the warning is silent: a child with a life of its own (listed on
/// its own), children with no bound (250 or more, or growing).
#[test]
fn separated_read_is_silent_where_embedding_is_refused() {
    use squillion::design::DesignName::Normalized;
    let text = include_str!("../../presets/person-addresses.json");
    let listed = text.replace(
        r#""workload": ["#,
        r#""workload": [ { "name": "addresses by city", "rate_per_sec": 1, "steps": [ { "op": "list", "entity": "address", "sort": { "field": "city", "order": 1 } } ] },"#,
    );
    assert_ne!(listed, text);
    let w = named(&listed, Normalized);
    assert!(find(&w, "SEPARATED_READ").is_none(), "{w:?}");
    let many = text.replace(r#""max": 4"#, r#""max": 250"#);
    assert_ne!(many, text);
    assert!(find(&named(&many, Normalized), "SEPARATED_READ").is_none());
    let growing = text.replace(
        r#""parent_field": "personId","#,
        r#""parent_field": "personId", "growth_per_day": { "typical": 0.01, "largest": 0.1 },"#,
    );
    assert_ne!(growing, text);
    assert!(find(&named(&growing, Normalized), "SEPARATED_READ").is_none());
    // Unbounded logs read by host (host-logs normalized): a reference is right there.
    let logs = include_str!("../../presets/host-logs.json");
    assert!(find(&named(logs, Normalized), "SEPARATED_READ").is_none());
}

/// The evaluation of `layout` of `m` with the default options.
fn evaluate(m: &squillion::model::Model, layout: squillion::design::Layout) -> Vec<Warning> {
    squillion::eval::evaluate_layout(m, layout, &squillion::eval::EvalOptions::default())
        .unwrap_or_else(|e| panic!("{e}"))
        .warnings
}

/// An index the workload never scans (here one added by hand on address.city, as the page's
/// index editor might): the evaluation says so, with its size and the keys the 5/s address
/// inserts write into it. Every index of the layout's own is scanned by some winning plan.
#[test]
fn unused_index_fires_on_an_index_no_plan_scans() {
    let m = parse_model(include_str!("../../presets/person-addresses.json"))
        .unwrap_or_else(|e| panic!("{e}"));
    let layout = squillion::design::layout_named(&m, squillion::design::DesignName::Normalized)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(find(&evaluate(&m, layout.clone()), "UNUSED_INDEX").is_none());
    let mut edited = layout;
    for c in edited
        .collections
        .iter_mut()
        .filter(|c| c.name == "address")
    {
        c.indexes.push(squillion::design::Index {
            collection: "address".into(),
            keys: bson::doc! { "city": 1 },
            multikey: false,
            collation: None,
            reason: "added by hand".into(),
            partial: None,
        });
    }
    let w = evaluate(&m, edited);
    let u = find(&w, "UNUSED_INDEX").unwrap_or_else(|| panic!("{w:?}"));
    assert_eq!(u.severity, Severity::Warning);
    assert_eq!(u.collection, "address");
    // 5 inserts/s of one address each, one key each (city is always present): 5 keys/s.
    assert!(
        u.message.starts_with("Index { city: 1 } (≈"),
        "{}",
        u.message
    );
    assert!(
        u.message.ends_with(
            ", ≈5 keys written/s) is scanned by no command of the workload (no winning plan nor $lookup uses it); 5 documents written/s in address maintain it (estimate)"
        ),
        "{}",
        u.message
    );
    assert!(u.fix.contains("db.address.dropIndex(name)"), "{}", u.fix);
    assert_eq!(
        w.iter().filter(|x| x.code == "UNUSED_INDEX").count(),
        1,
        "{w:?}"
    );
}

/// Indexes kept for another reason are not judged: GridFS's (the unique `fs.chunks` one and
/// the `fs.files` one a driver creates, which no read by `_id` scans) and shard keys'.
#[test]
fn unused_index_is_silent_on_gridfs_and_shard_key_indexes() {
    for (preset, design) in [
        ("message-attachments", "gridfs"),
        ("social-feed", "normalized"),
        ("social-feed", "denormalized"),
        ("social-feed", "bucketed"),
    ] {
        let p = squillion::presets::find(preset).unwrap_or_else(|e| panic!("{e}"));
        let m = p.model().unwrap_or_else(|e| panic!("{e}"));
        let e =
            squillion::eval::evaluate_offered(&m, design, &squillion::eval::EvalOptions::default())
                .unwrap_or_else(|e| panic!("{e}"));
        assert!(
            find(&e.warnings, "UNUSED_INDEX").is_none(),
            "{preset} {design}: {:?}",
            e.warnings
        );
    }
}

/// Returns the warnings of design `design` offered by the preset written `text`.
fn offered(text: &str, design: &str) -> Vec<Warning> {
    let m = parse_model(text).unwrap_or_else(|e| panic!("{e}"));
    squillion::analysis::analyze_offered(&m)
        .unwrap_or_else(|e| panic!("{e}"))
        .into_iter()
        .find(|(n, _)| n == design)
        .map(|(_, a)| a.warnings)
        .unwrap_or_else(|| panic!("no design {design}"))
}

/// Product parts joined by `$lookup` (article 002's part ids, `joins: lookup`): the product page
/// (300/s) joins part on every call, and parts are renamed 2 times a second: a read/write ratio
/// of 150, the case for copying the part names into the product (extended reference).
#[test]
fn excessive_lookup_fires_on_a_hot_join_of_rarely_written_data() {
    let text = include_str!("../../presets/product-parts.json");
    let w = offered(text, "part-ids-lookup");
    let l = find(&w, "EXCESSIVE_LOOKUP").unwrap_or_else(|| panic!("{w:?}"));
    assert_eq!(l.severity, Severity::Warning);
    assert_eq!(l.collection, "part");
    assert!(
        l.message.starts_with(
            "\"product page with part names\" (300/s) joins part with $lookup on every call: 300 $lookups/s into part, which the workload writes 2 times/s (read/write ratio 150)"
        ),
        "{}",
        l.message
    );
    assert!(l.fix.contains("extended_reference"), "{}", l.fix);
    // The same ids joined by the application: no $lookup to warn about.
    assert!(find(&offered(text, "part-ids"), "EXCESSIVE_LOOKUP").is_none());
}

/// Silent where the join is not hot: parts written as often as they are joined, or a join
/// below once a second.
#[test]
fn excessive_lookup_is_silent_for_rare_joins_or_busy_data() {
    let text = include_str!("../../presets/product-parts.json");
    let busy = text.replace("\"rate_per_sec\": 2,", "\"rate_per_sec\": 300,");
    assert_ne!(busy, text);
    assert!(find(&offered(&busy, "part-ids-lookup"), "EXCESSIVE_LOOKUP").is_none());
    let rare = text.replace("\"rate_per_sec\": 300,", "\"rate_per_sec\": 0.5,");
    assert_ne!(rare, text);
    assert!(find(&offered(&rare, "part-ids-lookup"), "EXCESSIVE_LOOKUP").is_none());
}
