//! page-analytics' native time-series design (issue 20, item 2): every hit stored as a
//! measurement `{_id, time, page}` in a time-series collection (field pattern `measurements`)
//! against the article's pre-allocated 6-hour counter documents. The lesson's comparison is
//! asserted on the engine's numbers, and the bucket's exact size is checked against pymongo.
#![cfg(not(target_arch = "wasm32"))]

use bson::oid::ObjectId;
use bson::{DateTime, Document};
use squillion::design::place::{measurements_per_bucket, BUCKET_MAX_COUNT, BUCKET_MAX_SIZE};
use squillion::design::CommandKind;
use squillion::eval::{evaluate, CollectionEval, Design, EvalOptions, Evaluation, OperationEval};
use squillion::model::design::Granularity;
use squillion::size::document_size;
use squillion::size::timeseries::{bucket_document, compressed_size};

const HIT: &str = "count a hit (minute, hour, total)";
const CHART: &str = "chart of a page's 6 hours";
const BUCKETS: &str = "system.buckets.hit";

/// Evaluates page-analytics under one of its designs, as `squillion eval --preset` does.
fn eval(design: &str) -> Evaluation {
    let p = squillion::presets::find("page-analytics").unwrap_or_else(|e| panic!("{e}"));
    let m = p.model().unwrap_or_else(|e| panic!("{e}"));
    let o = squillion::eval::offer::offer(&m, design)
        .unwrap_or_else(|| panic!("page-analytics offers no design {design}"));
    let mut e = evaluate(&o.model, &Design::Model, &EvalOptions::default())
        .unwrap_or_else(|e| panic!("{design}: {e}"));
    e.design = o.id;
    e
}

fn op<'a>(e: &'a Evaluation, unit: &str) -> &'a OperationEval {
    e.operations
        .iter()
        .find(|o| o.unit == unit)
        .unwrap_or_else(|| panic!("{}: no unit {unit}", e.design))
}

fn coll<'a>(e: &'a Evaluation, name: &str) -> &'a CollectionEval {
    e.collections
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("{}: no collection {name}", e.design))
}

/// A page's 6-hour chart of `n` hits, one every 5 s from 2024-03-01 10:00:30 (720 an hour,
/// as 20,000 hits a second over 100,000 pages), with the preset's 60-byte page URL.
fn hits(n: usize) -> Vec<Document> {
    let page = format!("{:<60}", "https://example.com/magna/grommet");
    let start = 1_709_287_230_000_i64;
    (0..n)
        .map(|i| {
            let mut id = [3u8; 12];
            id[8..].copy_from_slice(&(i as u32).to_be_bytes());
            bson::doc! {
                "_id": ObjectId::from_bytes(id),
                "time": DateTime::from_millis(start + 5_000 * i as i64),
                "page": page.clone(),
            }
        })
        .collect()
}

#[test]
fn one_write_a_hit_either_way_but_an_insert_instead_of_an_inc() {
    let pre = eval("preallocated");
    let ts = eval("time-series");
    for e in [&pre, &ts] {
        let hit = op(e, HIT);
        assert_eq!(hit.queries, 1, "{}", e.design);
        assert_eq!(hit.typical.total.docs_written.value, 1.0, "{}", e.design);
        assert_eq!(hit.typical.total.docs_examined.value, 1.0, "{}", e.design);
    }
    // The article's $inc of three counters in place …
    let c = &op(&pre, HIT).typical.commands[0];
    assert_eq!(
        (c.collection.as_str(), c.kind),
        ("pageview", CommandKind::Update)
    );
    assert!(c.mongosh.contains("$inc"), "{}", c.mongosh);
    // … against a new measurement appended to the page's open bucket (the server's upsert of
    // the bucket, control.min/max following the measurement), found by its meta: the URL.
    let c = &op(&ts, HIT).typical.commands[0];
    assert_eq!(
        (c.collection.as_str(), c.kind),
        (BUCKETS, CommandKind::Update)
    );
    assert!(!c.mongosh.contains("$inc"), "{}", c.mongosh);
    assert!(c.mongosh.contains("$max"), "{}", c.mongosh);
    assert!(c.mongosh.contains("meta: \"https://"), "{}", c.mongosh);
}

#[test]
fn buckets_stored_are_the_hits_of_a_year_by_the_servers_rules() {
    let pre = eval("preallocated");
    let ts = eval("time-series");
    assert_eq!(coll(&pre, "pageview").stats.count, 146_000_000.0);
    // 20,000 hits a second for the 365 days the 6-hour documents cover: 630,720,000,000
    // measurements; a page gets 17,280 a day, 720 in an hour, so a `seconds` bucket closes at
    // its span (an hour) before the count (1,000) or size (128,000 bytes) rule.
    let hits_a_year = 20_000.0 * 86_400.0 * 365.0;
    assert_eq!(hits_a_year, 630_720_000_000.0);
    let measurement = document_size(&hits(1)[0]);
    assert_eq!(measurement, 107);
    assert!(BUCKET_MAX_SIZE / measurement > BUCKET_MAX_COUNT);
    let p = squillion::presets::find("page-analytics").unwrap_or_else(|e| panic!("{e}"));
    let o =
        squillion::eval::offer::offer(&p.model().unwrap_or_else(|e| panic!("{e}")), "time-series")
            .unwrap_or_else(|| panic!("no time-series"));
    let r = o
        .model
        .relationship("hits")
        .unwrap_or_else(|| panic!("no hits"));
    assert_eq!(r.growth_typical(), 17_280.0);
    let per_bucket = measurements_per_bucket(r, Granularity::Seconds, measurement);
    assert_eq!(per_bucket, 720);
    let buckets = coll(&ts, BUCKETS).stats.count;
    assert_eq!(buckets, hits_a_year / 720.0);
    assert_eq!(buckets, 876_000_000.0);
    // 6 times as many documents as the 146,000,000 6-hour documents.
    assert_eq!(buckets / 146_000_000.0, 6.0);
}

#[test]
fn the_bucket_size_is_exact_and_pymongo_agrees() {
    let ts = eval("time-series");
    let shape = &coll(&ts, BUCKETS).stats.shapes[0];
    assert!(shape.p50.exact && shape.max.exact);
    let ms = hits(720);
    let b = bucket_document(&ms, "time", "page", 60).unwrap_or_else(|| panic!("no bucket"));
    let ours = b.to_vec().unwrap_or_else(|e| panic!("{e}"));
    // The layout's arithmetic on the bucket shape = the bytes of a real bucket of 720 hits.
    assert_eq!(shape.p50.bytes, ours.len() as u64);
    assert_eq!(shape.max.bytes, 21_614);
    // The pre-allocated document is 3,321 bytes for a page's 6 hours; the same 6 hours as
    // measurements are 6 of these buckets: 39 times the bytes, uncompressed.
    let pre = eval("preallocated");
    let pre_doc = coll(&pre, "pageview").stats.shapes[0].max.bytes;
    assert_eq!(pre_doc, 3_321);
    assert_eq!(6 * shape.max.bytes / pre_doc, 39);
    // Compressed (bucket version 2, MongoDB 5.2+: the BSONColumn encoding of docs/metrics.md):
    // hits 5 s apart and ids whose counters follow one another are runs of delta-of-delta 0
    // (RLE words), so a bucket is 425 bytes, as the preset's explanation says, and a page's 6
    // buckets are less than the 6-hour counters' document.
    let est = compressed_size(&b);
    assert_eq!(est, 425);
    assert!(6 * est < pre_doc, "{est}");
    let mut input = Vec::new();
    for m in &ms {
        input.extend(m.to_vec().unwrap_or_else(|e| panic!("{e}")));
    }
    let hex: String = input.iter().map(|b| format!("{b:02x}")).collect();
    // The server's bucket built by pymongo from the same measurements (as tests/suite/time_series.rs does,
    // here with a string meta): control.min/max per field, time rounded down to 60 s, _id
    // timestamp = that time, data column by column.
    let script = r#"
import sys, bson, datetime
from bson import ObjectId, SON
ms = bson.decode_all(bytes.fromhex(sys.stdin.read().strip()), bson.CodecOptions(document_class=SON, tz_aware=True))
cols, mn, mx = SON(), SON(), SON()
for i, m in enumerate(ms):
    for k, v in m.items():
        if k == 'page': continue
        cols.setdefault(k, SON())[str(i)] = v
        if k not in mn or v < mn[k]: mn[k] = v
        if k not in mx or v > mx[k]: mx[k] = v
t = mn['time']
epoch = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
secs = int((t - epoch).total_seconds()) // 60 * 60
mn['time'] = epoch + datetime.timedelta(seconds=secs)
oid = ObjectId(secs.to_bytes(4, 'big') + bytes(8))
b = SON([('_id', oid), ('control', SON([('version', 1), ('min', mn), ('max', mx)])), ('meta', ms[0]['page']), ('data', cols)])
print(bson.encode(b).hex())
"#;
    // The measurements go on stdin: 720 of them are more hex than one argument may hold.
    let run = || -> std::io::Result<std::process::Output> {
        use std::io::Write;
        let mut child = std::process::Command::new("python3")
            .args(["-c", script])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()?;
        if let Some(mut stdin) = child.stdin.take() {
            stdin.write_all(hex.as_bytes())?;
        }
        child.wait_with_output()
    };
    match run() {
        Ok(out) if out.status.success() => {
            let theirs = String::from_utf8_lossy(&out.stdout).trim().to_string();
            let ours_hex: String = ours.iter().map(|b| format!("{b:02x}")).collect();
            assert_eq!(theirs.len() / 2, 21_614, "pymongo's size");
            assert_eq!(theirs, ours_hex);
        }
        Ok(out) => panic!("python3: {}", String::from_utf8_lossy(&out.stderr)),
        Err(_) => eprintln!("python3 with pymongo not available: checked against bson-rust only"),
    }
}

#[test]
fn the_chart_reads_one_document_or_the_buckets_of_six_hours() {
    let pre = eval("preallocated");
    let ts = eval("time-series");
    let chart = op(&pre, CHART);
    assert_eq!(chart.queries, 1);
    assert_eq!(chart.typical.total.docs_examined.value, 1.0);
    assert_eq!(chart.typical.total.docs_returned.value, 1.0);
    // A page's 6 hours are 4,320 hits in 720-hit buckets: the 7 buckets that overlap them
    // (⌈4,320 ÷ 720⌉ + 1), read in 1 query by the page's URL (no page document to read
    // first), 5,040 measurements unpacked for the 4,320 the aggregation groups by minute.
    let chart = op(&ts, CHART);
    assert_eq!(chart.queries, 1);
    let cmds = &chart.typical.commands;
    assert_eq!(cmds.len(), 1);
    assert_eq!(cmds[0].collection, BUCKETS);
    assert!(cmds[0].mongosh.contains(".limit(7)"), "{}", cmds[0].mongosh);
    assert_eq!(chart.typical.total.docs_examined.value, 7.0);
    assert_eq!(chart.typical.total.docs_returned.value, 7.0);
    assert_eq!(chart.typical.total.keys_examined.value, 7.0);
    // The bytes a chart reads: 7 buckets of 21,614 bytes against one 3,321-byte document.
    assert_eq!(chart.typical.total.bytes_returned.value, 7.0 * 21_614.0);
    assert_eq!(op(&pre, CHART).typical.total.bytes_returned.value, 3_321.0);
}

#[test]
fn validation_refuses_a_measurements_pattern_it_cannot_lower() {
    let text =
        std::fs::read_to_string("presets/page-analytics.json").unwrap_or_else(|e| panic!("{e}"));
    let v: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    assert!(squillion::model::parse_model(&text).is_ok());
    let pattern = "/preset/custom_designs/time-series/fields/0";
    for (key, value, path, says) in [
        ("meta", serde_json::json!("url"), "meta", "url"),
        (
            "measurement",
            serde_json::json!("pageview"),
            "measurement",
            "already an entity",
        ),
        (
            "measurement",
            serde_json::json!("page"),
            "measurement",
            "must differ",
        ),
        ("series", serde_json::json!(0), "series", ""),
        (
            "granularity",
            serde_json::json!("days"),
            "granularity",
            "seconds",
        ),
    ] {
        let mut bad = v.clone();
        *bad.pointer_mut(&format!("{pattern}/{key}"))
            .unwrap_or_else(|| panic!("no {key}")) = value;
        let errors = squillion::model::parse_model(&bad.to_string())
            .err()
            .unwrap_or_else(|| panic!("{key} accepted"));
        let listed = errors.to_string();
        assert!(
            listed.contains(&format!("time-series.fields[0].{path}")) && listed.contains(says),
            "{key}: {listed}"
        );
    }
}
