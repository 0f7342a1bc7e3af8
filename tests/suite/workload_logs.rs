//! `squillion infer --log`: mongod logs (text before 4.4, JSON from 4.4, gzipped or not) and
//! profiler exports become the workload. Real logs of mongod 2.2, 2.6 and 4.0 from mtools'
//! test files (tests/fixtures/mongod-logs/README.md) give their shapes, counts and figures as
//! grep reads them in the files; a JSON log written after the manual's *Log Messages* page
//! gives its shapes, bad lines and skipped operations; a preset's workload written out as
//! JSON "Slow query" lines at its rates gives back its operations and rates.
#![cfg(not(target_arch = "wasm32"))]

use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use squillion::eval::logged::beside_predicted;
use squillion::eval::{evaluate_offered, EvalOptions};
use squillion::model::{parse_model, Model, Relationship};
use squillion::workload_log::model::{model_from_logs, with_logged_workload, LogReport};
use squillion::workload_log::{LogReading, LogWorkload};

use crate::common::infer_json::{squillion, squillion_json};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/mongod-logs")
        .join(name)
}

/// Reads the logs named (fixtures) into a workload.
fn read(names: &[&str]) -> LogWorkload {
    let mut reading = LogReading::new();
    for name in names {
        let file = std::fs::File::open(fixture(name)).unwrap();
        reading.read(name, file).unwrap();
    }
    reading.finish()
}

/// The report of a log alone.
fn report_of(names: &[&str]) -> LogReport {
    model_from_logs(&read(names)).unwrap().1
}

/// The shape row (as its JSON) of `command` on `namespace` whose filter is `filter`.
fn shape(r: &LogReport, command: &str, namespace: &str, filter: Value) -> Value {
    let rows: Vec<Value> = r
        .shapes
        .iter()
        .map(|s| serde_json::to_value(s).unwrap())
        .collect();
    rows.iter()
        .find(|s| s["namespace"] == namespace && s["command"] == command && s["filter"] == filter)
        .cloned()
        .unwrap_or_else(|| panic!("no {command} {namespace} {filter} in {rows:#?}"))
}

/// `(reason, namespace, command) → count` of the skipped operations.
fn skipped(r: &LogReport) -> Vec<(String, String, String, u64)> {
    r.skipped_operations
        .iter()
        .map(|s| {
            (
                s.reason.name().to_string(),
                s.namespace.clone(),
                s.command.clone(),
                s.count,
            )
        })
        .collect()
}

#[test]
fn a_2_6_log_gives_its_shapes_counts_and_figures() {
    let r = report_of(&["mongod_26_corrupt.log"]);
    // grep -c "query toothsome.dimgray.jambul query: { _id: ObjectId" → 6, each nreturned:1,
    // planSummary: IDHACK.
    let jambul = shape(
        &r,
        "find",
        "toothsome.dimgray.jambul",
        json!({"_id": "?objectId"}),
    );
    assert_eq!(jambul["count"], 6);
    assert_eq!(jambul["nreturned"], 1.0);
    assert_eq!(jambul["plans"], json!([{"plan": "IDHACK", "count": 6}]));
    assert_eq!(jambul["unit"], "read dimgray.jambul by _id");
    // The log runs from 23:16:20.437 to 23:28:38.076 (its first and last lines): 737.639 s.
    assert_eq!(r.span_seconds, 737.639);
    assert!((jambul["rate_per_sec"].as_f64().unwrap() - 6.0 / 737.639).abs() < 1e-12);
    // `$query`/`$orderby`, ntoreturn:20 as its limit, the compound plan kept whole.
    let goose = shape(
        &r,
        "find",
        "toothsome.dimgray.gooseberry",
        json!({"groupId": "?objectId", "active": "?bool"}),
    );
    assert_eq!(goose["sort"], json!({"name": 1}));
    assert_eq!(goose["limit"], 20);
    assert_eq!(goose["plans"][0]["plan"], "IXSCAN { groupId: 1, name: 1 }");
    assert_eq!(
        goose["unit"],
        "list dimgray.gooseberry by groupId sorted by name"
    );
    // The legacy update: `nscanned:1 nscannedObjects:1`, 294ms, six fields `$set`.
    let update = shape(
        &r,
        "update",
        "toothsome.dimgray.huckleberry",
        json!({"_id": "?string"}),
    );
    assert_eq!(
        (
            update["keys_examined"].as_f64(),
            update["docs_examined"].as_f64()
        ),
        (Some(1.0), Some(1.0))
    );
    assert_eq!(update["duration_ms"]["max"], 294);
    assert_eq!(update["unit"], "update dimgray.huckleberry cid");
    // 18 operations on the application's collections, 11 shapes.
    assert_eq!((r.operations, r.shapes.len()), (18, 11));
    // Line 190 is cut short ("2014-04-0 [conn48] buil"): reported, the rest read.
    assert_eq!(r.bad_lines, 1);
    assert_eq!(r.bad[0].line, 190);
    assert!(
        r.bad[0].reason.contains("no ISO-8601 or ctime timestamp"),
        "{:?}",
        r.bad
    );
    // grep -c "command admin.\$cmd command: replSetUpdatePosition" → 4.
    let s = skipped(&r);
    assert!(
        s.contains(&(
            "internal_database".into(),
            "admin.$cmd".into(),
            "replSetUpdatePosition".into(),
            4
        )),
        "{s:?}"
    );
    assert!(
        s.contains(&(
            "internal_database".into(),
            "local.oplog.rs".into(),
            "getMore".into(),
            2
        )),
        "{s:?}"
    );
    // The update's envelope on toothsome.$cmd is not counted twice.
    assert!(
        s.contains(&(
            "write_batch".into(),
            "toothsome.cf61573f3f20d6df92095da0475f1d9e".into(),
            "update".into(),
            1
        )),
        "{s:?}"
    );
}

#[test]
fn a_2_2_ctime_log_gives_durations_and_its_span() {
    let r = report_of(&["mongod_225.log"]);
    // grep "insert test.docs": 15 lines of 106ms … 386ms, the 8th of them 129ms.
    let inserts = shape(&r, "insert", "test.docs", json!({}));
    assert_eq!(inserts["count"], 15);
    let d = &inserts["duration_ms"];
    assert_eq!(
        (d["min"].as_u64(), d["p50"].as_u64(), d["max"].as_u64()),
        (Some(106), Some(129), Some(386))
    );
    // Mon Aug  5 20:21:42 to 21:04:52 (ctime has no year): 2,590 s.
    assert_eq!(r.span_seconds, 2590.0);
    let removes = shape(&r, "delete", "test.docs", json!({}));
    assert_eq!(removes["duration_ms"]["max"], 56331);
    assert_eq!(r.bad.iter().map(|b| b.line).collect::<Vec<_>>(), [397]);
    let s = skipped(&r);
    assert!(
        s.contains(&(
            "internal_database".into(),
            "local.oplog.rs".into(),
            "getMore".into(),
            7
        )),
        "{s:?}"
    );
}

#[test]
fn a_4_0_log_of_the_servers_own_traffic_gives_no_workload() {
    let log = read(&["mongod_4.0.10_allowdiskuse.log"]);
    assert!(log.groups.shapes.is_empty());
    let r = squillion::workload_log::model::empty_report(&log);
    let s = skipped(&r);
    // grep -c listIndexes → 18 (all on config.system.sessions); isMaster 22: 5 on admin,
    // 14 on local, 3 on test (a command on a database, not a collection).
    assert!(
        s.contains(&(
            "internal_database".into(),
            "config.system.sessions".into(),
            "listIndexes".into(),
            18
        )),
        "{s:?}"
    );
    assert!(
        s.contains(&(
            "internal_database".into(),
            "local.$cmd".into(),
            "isMaster".into(),
            14
        )),
        "{s:?}"
    );
    assert!(
        s.contains(&(
            "not_expressible".into(),
            "test.$cmd".into(),
            "isMaster".into(),
            3
        )),
        "{s:?}"
    );
    assert!(
        s.contains(&(
            "internal_database".into(),
            "local.myCollection".into(),
            "find".into(),
            1
        )),
        "{s:?}"
    );
    // The command line exits 1: nothing to infer.
    let out = squillion(&[
        "infer",
        "--log",
        fixture("mongod_4.0.10_allowdiskuse.log").to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn json_slow_queries_as_the_manual_documents_them() {
    let (model, r) = model_from_logs(&read(&["mongod-7.0-slow-queries.log"])).unwrap();
    let users = shape(&r, "find", "shop.users", json!({"email": "?string"}));
    assert_eq!(users["count"], 3);
    assert_eq!(
        users["rate_per_sec"], 0.03,
        "3 over the 100 s from 10:00:00 to 10:01:40"
    );
    let d = &users["duration_ms"];
    assert_eq!(
        (d["min"].as_u64(), d["p50"].as_u64(), d["max"].as_u64()),
        (Some(120), Some(140), Some(310))
    );
    let orders = shape(
        &r,
        "find",
        "shop.orders",
        json!({"customerId": "?objectId"}),
    );
    assert_eq!(orders["docs_examined"], 24010.0, "(20 + 48,000) / 2");
    assert_eq!(orders["plans"].as_array().map(Vec::len), Some(2));
    let agg = shape(
        &r,
        "aggregate",
        "shop.products",
        json!({"category": "?string"}),
    );
    assert_eq!(agg["pipeline"], json!(["$match", "$group"]));
    assert!(agg["assumed"][0].as_str().unwrap().contains("aggregation"));
    // Line 16 is cut in the middle of a string, line 17 is another tool's JSON.
    let bad: Vec<(u64, bool)> = r
        .bad
        .iter()
        .map(|b| (b.line, b.reason.starts_with("not JSON")))
        .collect();
    assert_eq!(bad, [(16, true), (17, false)]);
    let s = skipped(&r);
    for row in [
        ("internal_database", "admin.$cmd", "hello"),
        ("cursor", "shop.orders", "getMore"),
        ("write_batch", "shop.users", "update"),
        ("write_batch", "shop.carts", "delete"),
    ] {
        assert!(
            s.contains(&(row.0.into(), row.1.into(), row.2.into(), 1)),
            "{row:?} in {s:?}"
        );
    }
    // The model: an entity per collection with the fields used; the largest collection scan
    // of orders examined 48,000 documents.
    let orders = model.entity("orders").unwrap();
    assert_eq!(orders.count, 48_000.0);
    assert!(orders.fields.iter().any(|(n, _)| n == "customerId"));
    let steps: Vec<Value> = model
        .workload
        .iter()
        .map(|u| {
            json!([
                u.rate_per_sec,
                serde_json::to_value(&u.steps[0]).unwrap()["op"]
            ])
        })
        .collect();
    assert_eq!(
        steps,
        [
            json!([0.03, "read"]),
            json!([0.02, "list"]),
            json!([0.01, "insert"]),
            json!([0.01, "update"]),
            json!([0.01, "read"]),
            json!([0.01, "delete"])
        ]
    );
}

#[test]
fn a_gzipped_log_reads_as_the_plain_one() {
    let dir = tempfile::tempdir().unwrap();
    let gz = dir.path().join("mongod.log.gz");
    let plain = std::fs::read(fixture("mongod_26_corrupt.log")).unwrap();
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(&plain).unwrap();
    std::fs::write(&gz, encoder.finish().unwrap()).unwrap();
    let mut reading = LogReading::new();
    let source = reading
        .read("mongod_26_corrupt.log", std::fs::File::open(&gz).unwrap())
        .unwrap();
    assert!(source.gzip);
    let zipped = model_from_logs(&reading.finish()).unwrap();
    let unzipped = model_from_logs(&read(&["mongod_26_corrupt.log"])).unwrap();
    assert_eq!(zipped.0, unzipped.0);
    let mut r = zipped.1;
    r.sources[0].gzip = false;
    assert_eq!(r, unzipped.1);
    // A gzip stream cut short: the lines before the cut are read, the cut reported.
    let cut = std::fs::read(&gz).unwrap();
    let mut reading = LogReading::new();
    reading.read("cut.gz", &cut[..cut.len() / 2]).unwrap();
    let log = reading.finish();
    assert!(
        log.bad.last().unwrap().reason.contains("cannot decompress"),
        "{:?}",
        log.bad
    );
    assert!(log.groups.shapes.len() < 11 && log.sources[0].lines > 100);
}

/// Writes `units` as JSON "Slow query" lines of mongod 7.0 over `seconds` (each unit's
/// `rate × seconds` runs, evenly spread), between a first and a last line of the log;
/// `relationships` are the preset's, for the finds of parents by a child's field and of a
/// read's children: a `read` with children is its find and then, on the same connection a
/// millisecond later each, one find of each relationship's children by their reference to
/// the parent, as an application joins them.
/// `figures` gives each step's `keysExamined`, `docsExamined` and `nreturned`.
fn slow_query_log(
    units: &[Value],
    relationships: &[Relationship],
    seconds: u64,
    figures: &dyn Fn(&Value) -> [f64; 3],
) -> String {
    let t0 = 1_709_287_200_000i64; // 2024-03-01T10:00:00Z
    let end = seconds as i64 * 1000;
    let at = |ms: i64| json!({"$date": squillion::date::format_rfc3339(t0 + ms).unwrap()});
    let mut lines: Vec<(i64, String)> = vec![
        (
            0,
            json!({"t": at(0), "s": "I", "c": "NETWORK", "id": 23016, "ctx": "listener",
            "msg": "Waiting for connections", "attr": {"port": 27017}})
            .to_string(),
        ),
        (
            end,
            json!({"t": at(end), "s": "I", "c": "NETWORK", "id": 22944, "ctx": "conn1",
            "msg": "Connection ended", "attr": {}})
            .to_string(),
        ),
    ];
    for unit in units {
        let n = (unit["rate_per_sec"].as_f64().unwrap() * seconds as f64).round() as i64;
        let step = &unit["steps"][0];
        let [keys, docs, returned] = figures(step);
        for i in 0..n {
            let ms = 1 + i * (end - 2) / n.max(1);
            let mut collection = step["entity"].as_str().unwrap_or_default().to_string();
            let (kind, command) = match step["op"].as_str().unwrap() {
                "read" => {
                    let by = step["by"].as_str().unwrap_or("_id");
                    for (k, child) in step["children"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .enumerate()
                    {
                        let name = child["relationship"].as_str().unwrap();
                        let r = relationships.iter().find(|r| r.name == name).unwrap();
                        let mut find = json!({"find": r.child,
                            "filter": {r.parent_ref(): {"$oid": format!("{i:024x}")}}});
                        if let Some(limit) = child.get("limit") {
                            find["limit"] = limit.clone();
                        }
                        if let Some(sort) = child.get("sort") {
                            find["sort"] = json!({sort["field"].as_str().unwrap(): sort["order"]});
                        }
                        if let Some(fields) = child.get("fields").and_then(Value::as_array) {
                            let p: serde_json::Map<String, Value> = fields
                                .iter()
                                .map(|f| (f.as_str().unwrap().to_string(), json!(1)))
                                .collect();
                            find["projection"] = Value::Object(p);
                        }
                        let at_ms = ms + 1 + k as i64;
                        let line = json!({"t": at(at_ms), "s": "I", "c": "COMMAND", "id": 51803,
                            "ctx": format!("conn{}", 100 + i % 8), "msg": "Slow query",
                            "attr": {"type": "command", "ns": format!("app.{}", r.child),
                            "command": find, "planSummary": "IXSCAN { page: 1 }",
                            "keysExamined": keys, "docsExamined": docs, "nreturned": returned,
                            "durationMillis": 100}});
                        lines.push((at_ms, line.to_string()));
                    }
                    (
                        "command",
                        json!({"find": collection, "filter": {by: format!("v{i}")}, "limit": 1}),
                    )
                }
                "update" => {
                    let increment = step["increment"] == true;
                    let mut fields = serde_json::Map::new();
                    let names = std::iter::once(&step["field"])
                        .chain(step["also"].as_array().into_iter().flatten());
                    for f in names {
                        // An increment of a counter's slot (`minutes.180`), or a field set.
                        let path = match increment {
                            true => format!("{}.{}", f.as_str().unwrap(), i % 360),
                            false => f.as_str().unwrap().to_string(),
                        };
                        fields.insert(path, json!(1));
                    }
                    let op = if increment { "$inc" } else { "$set" };
                    let q = json!({"_id": {"$oid": format!("{i:024x}")}});
                    (
                        "update",
                        json!({"q": q, "u": {op: fields}, "multi": false, "upsert": false}),
                    )
                }
                "insert" => ("command", json!({"insert": collection, "ordered": true})),
                "find_parents" => {
                    // The parents holding a child with the value in the relationship's array.
                    let r = step["relationship"].as_str().unwrap();
                    let r = relationships.iter().find(|x| x.name == r).unwrap();
                    collection = r.parent.clone();
                    let path = format!("{}.{}", r.array_field(), step["by"].as_str().unwrap());
                    (
                        "command",
                        json!({"find": collection, "filter": {path: format!("v{i}")}}),
                    )
                }
                other => panic!("no log line for {other}"),
            };
            let ctx = format!("conn{}", 100 + i % 8);
            let line = json!({"t": at(ms), "s": "I", "c": "COMMAND", "id": 51803, "ctx": ctx,
                "msg": "Slow query", "attr": {"type": kind, "ns": format!("app.{collection}"),
                "command": command, "planSummary": "IXSCAN { page: 1 }", "keysExamined": keys,
                "docsExamined": docs, "nreturned": returned, "durationMillis": 100 + i % 7}});
            lines.push((ms, line.to_string()));
        }
    }
    lines.sort_by_key(|(ms, _)| *ms);
    lines.into_iter().map(|(_, l)| l + "\n").collect()
}

/// A unit's steps (as JSON text) and rate.
type UnitRate = (String, f64);

/// Writes the units of `preset` named `written` as a log of `seconds` (each step's figures
/// from `figures`), reads it into the preset's model, and returns the model with the logs'
/// workload, the report and the units written.
fn logged_preset(
    preset: &Model,
    seconds: u64,
    written: &[&str],
    figures: &dyn Fn(&Value) -> [f64; 3],
) -> (Model, LogReport, Vec<Value>) {
    let units: Vec<Value> = preset
        .workload
        .iter()
        .filter(|u| written.contains(&u.name.as_str()))
        .map(|u| serde_json::to_value(u).unwrap())
        .collect();
    assert_eq!(units.len(), written.len());
    let log_text = slow_query_log(&units, &preset.relationships, seconds, figures);
    let mut reading = LogReading::new();
    reading.read("preset.log", log_text.as_bytes()).unwrap();
    let log = reading.finish();
    assert_eq!(log.span_seconds, seconds as f64);
    let mut model = preset.clone();
    let report = with_logged_workload(&mut model, &log).unwrap();
    assert!(report.refused.is_empty(), "{:?}", report.refused);
    (model, report, units)
}

/// Writes the units of `preset` named `written` as a log of `seconds`, reads it into the
/// preset's model, and returns the model's workload and the units written as `(steps, rate)`.
fn round_trip(preset: &str, seconds: u64, written: &[&str]) -> (Vec<UnitRate>, Vec<UnitRate>) {
    let preset = parse_model(preset).unwrap();
    let (model, _, units) = logged_preset(&preset, seconds, written, &|_| [1.0; 3]);
    let pairs = |w: Vec<Value>| {
        let mut p: Vec<UnitRate> = w
            .iter()
            .map(|u| (u["steps"].to_string(), u["rate_per_sec"].as_f64().unwrap()))
            .collect();
        p.sort_by(|a, b| a.0.cmp(&b.0));
        p
    };
    let got = model
        .workload
        .iter()
        .map(|u| serde_json::to_value(u).unwrap())
        .collect();
    (pairs(got), pairs(units))
}

#[test]
fn a_presets_workload_written_as_a_log_comes_back_with_its_rates() {
    // page-analytics, all of it: an increment of three counters at 20,000/s, a read by page.
    let all = [
        "count a hit (minute, hour, total)",
        "chart of a page's 6 hours",
    ];
    let (got, written) = round_trip(include_str!("../../presets/page-analytics.json"), 2, &all);
    assert_eq!(got, written);
    assert_eq!(got.len(), 2);
    // product-parts: the parents found by a child's field and the two renames (the product
    // page also reads its parts, which one find does not say).
    let some = ["products using a part", "rename part", "rename product"];
    let (got, written) = round_trip(include_str!("../../presets/product-parts.json"), 10, &some);
    assert_eq!(got, written);
    assert_eq!(got.len(), 3);
}

#[test]
fn a_read_and_its_childrens_find_on_one_connection_come_back_as_one_read_with_children() {
    // blog's post page: the post by its slug, then its oldest 50 comments by postId; the
    // product-parts page: the product, then its parts' names by the parts' array of products
    // (many-to-many). Each written as two finds on one connection 1 ms apart.
    let pages = ["post page", "author page"];
    let (got, written) = round_trip(include_str!("../../presets/blog.json"), 10, &pages);
    assert_eq!(got, written);
    assert!(
        got.iter().any(|(steps, _)| steps.contains("\"children\"")),
        "{got:?}"
    );
    let all = [
        "product page with part names",
        "products using a part",
        "rename part",
        "rename product",
    ];
    let (got, written) = round_trip(include_str!("../../presets/product-parts.json"), 10, &all);
    assert_eq!(got, written);
    assert_eq!(got.len(), 4);
}

#[test]
fn a_read_followed_by_its_childrens_find_on_its_connection_is_one_unit() {
    // tests/fixtures/mongod-logs/shop/joins.log (JSON, 4.4 on) and joins-4.0.log (the same
    // operations as mongod 4.0's text): 12 pages read a user by email and, on the same
    // connection 8–19 ms later, the user's newest 10 orders; one user read and two order
    // lists stand alone.
    let dir = fixture("shop");
    let file = |name: &str| dir.join(name).to_str().unwrap().to_string();
    for log in ["joins.log", "joins-4.0.log"] {
        let args = [
            "infer",
            &file("users.json"),
            &file("orders.json"),
            "--log",
            &file(log),
            "--json",
        ];
        let v = squillion_json(&args);
        let workload = v["model"]["workload"].as_array().unwrap();
        assert_eq!(
            workload[0],
            json!({"name": "read users by email with orders", "rate_per_sec": 0.186,
            "steps": [{"op": "read", "entity": "users", "by": "email", "children": [
                {"relationship": "orders", "limit": 10, "sort": {"field": "date", "order": -1}}
            ]}]}),
            "{log}"
        );
        let names: Vec<&str> = workload
            .iter()
            .map(|u| u["name"].as_str().unwrap())
            .collect();
        assert_eq!(
            names,
            ["read users by email with orders", "update users name"],
            "{log}"
        );
        // The orders' shape is the read's children, said with its counts.
        let shapes = v["log"]["shapes"].as_array().unwrap();
        let orders = shapes
            .iter()
            .find(|s| s["namespace"] == "shop.orders")
            .unwrap();
        assert_eq!(orders["filter"], json!({"customerId": "?objectId"}));
        assert_eq!(orders["unit"], "read users by email with orders");
        assert_eq!(orders["children_of"]["joined"], 12);
        let note = orders["assumed"][0].as_str().unwrap();
        assert!(
            note.contains("12 of its 14 finds followed a find of shop.users"),
            "{note}"
        );
        assert!(note.ends_with("the other 2 are not in the model"), "{note}");
        // Measured per page: the user's find and 12/13 of an orders' find (3 keys each).
        let row = &v["log"]["measured_beside_predicted"]["rows"][0];
        let m = &row["measured"];
        assert_eq!(m["operations"], 13);
        let keys = m["keys_examined"].as_f64().unwrap();
        assert!((keys - (1.0 + 3.0 * 12.0 / 13.0)).abs() < 1e-9, "{keys}");
        assert!((m["round_trips"].as_f64().unwrap() - 25.0 / 13.0).abs() < 1e-9);
        assert_eq!(row["predicted"]["round_trips"], 2);
    }
}

#[test]
fn infer_documents_with_a_log_replaces_the_starter_workload() {
    let dir = tempfile::tempdir().unwrap();
    let users = dir.path().join("users.json");
    let orders = dir.path().join("orders.json");
    let mut u = String::new();
    let mut o = String::new();
    for i in 0..30 {
        u += &format!("{{\"_id\":{{\"$oid\":\"65e1a0c2f1d2c3b4a59687{i:02x}\"}},\"email\":\"u{i}@example.com\",\"name\":\"User {i}\"}}\n");
    }
    for i in 0..60 {
        o += &format!("{{\"_id\":{{\"$oid\":\"75e1a0c2f1d2c3b4a59687{i:02x}\"}},\"customerId\":{{\"$oid\":\"65e1a0c2f1d2c3b4a59687{:02x}\"}},\"date\":{{\"$date\":\"2024-01-{:02}T00:00:00Z\"}}}}\n", i % 30, i % 28 + 1);
    }
    std::fs::write(&users, u).unwrap();
    std::fs::write(&orders, o).unwrap();
    let log = fixture("mongod-7.0-slow-queries.log");
    let args = [
        "infer",
        users.to_str().unwrap(),
        orders.to_str().unwrap(),
        "--log",
        log.to_str().unwrap(),
        "--json",
    ];
    let out = squillion(&args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let workload = &v["model"]["workload"];
    let names: Vec<&str> = workload
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "read users by email",
            "list orders by customerId sorted by date",
            "insert into orders",
            "update users name"
        ]
    );
    // The orders reference users: the logged insert is a child's insert.
    assert_eq!(
        workload[2]["steps"][0],
        json!({"op": "insert_child", "relationship": "orders"})
    );
    assert_eq!(workload[0]["rate_per_sec"], 0.03);
    // No starter unit is left, and the collections no document shows are refused by name.
    assert!(v["report"].get("workload").is_none(), "{:#}", v["report"]);
    let refused: Vec<&str> = v["log"]["refused"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["unit"].as_str().unwrap())
        .collect();
    assert_eq!(refused.len(), 2, "{refused:?}");
    assert!(v["model"]["description"]
        .as_str()
        .unwrap()
        .contains("measured from mongod logs"));
    // The bad lines are said on standard error with their line numbers.
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("mongod-7.0-slow-queries.log: line 16: not JSON"),
        "{stderr}"
    );
    assert!(
        stderr.contains("line 17: a JSON object that is neither"),
        "{stderr}"
    );
    // The summary (on stdout with --out) says each shape's unit and each unit refused.
    let out_path = dir.path().join("model.json");
    let mut text_args = args[..5].to_vec();
    text_args.extend(["--out", out_path.to_str().unwrap()]);
    let out = squillion(&text_args);
    let summary = String::from_utf8_lossy(&out.stdout);
    let lines = [
        "shape find shop.users filter {\"email\":\"?string\"}: 3 operations, 0.0300/s",
        "→ workload \"read users by email\"",
        "log refused: \"delete carts\": steps[0].entity: unknown entity \"carts\"",
        "log skipped: 1 hello on admin.$cmd (internal_database)",
    ];
    for line in lines {
        assert!(summary.contains(line), "{line} in {summary}");
    }
}

#[test]
fn a_system_profile_export_gives_its_shapes() {
    let (model, r) = model_from_logs(&read(&["system.profile.json"])).unwrap();
    assert_eq!(
        r.sources[0].formats,
        [squillion::workload_log::Format::Profile]
    );
    // ts from 10:00:00 to 10:00:10 (the last line, canonical: 1709287210000 ms).
    assert_eq!(r.span_seconds, 10.0);
    let users = shape(&r, "find", "shop.users", json!({"email": "?string"}));
    assert_eq!(
        (users["count"].as_u64(), users["rate_per_sec"].as_f64()),
        (Some(2), Some(0.2))
    );
    assert_eq!(users["duration_ms"]["max"], 2);
    let stock = shape(&r, "update", "shop.products", json!({"sku": "?string"}));
    assert_eq!(stock["update"], json!({"$inc": {"stock": "?number"}}));
    assert_eq!(stock["unit"], "update products stock");
    // Canonical Extended JSON figures.
    let carts = shape(&r, "delete", "shop.carts", json!({"sessionId": "?string"}));
    assert_eq!(
        (
            carts["keys_examined"].as_f64(),
            carts["duration_ms"]["p50"].as_u64()
        ),
        (Some(1.0), Some(5))
    );
    // A count is a shape with its figures, but no unit.
    let count = shape(&r, "count", "shop.users", json!({"verified": "?bool"}));
    assert_eq!(count["docs_examined"], 800.0);
    assert!(count["not_mapped"].as_str().unwrap().contains("count"));
    assert!(count.get("unit").is_none());
    let s = skipped(&r);
    assert!(
        s.contains(&("cursor".into(), "shop.orders".into(), "getMore".into(), 1)),
        "{s:?}"
    );
    assert!(
        s.contains(&(
            "system_collection".into(),
            "shop.system.profile".into(),
            "find".into(),
            1
        )),
        "{s:?}"
    );
    assert_eq!(r.bad.iter().map(|b| b.line).collect::<Vec<_>>(), [8]);
    let increment = model
        .workload
        .iter()
        .find(|u| u.name == "update products stock")
        .unwrap();
    assert!(
        matches!(&increment.steps[0], squillion::model::Step::Update { increment: true, field, .. } if field == "stock")
    );
}

#[test]
fn a_log_on_standard_input_reads_as_the_file() {
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_squillion"))
        .args(["infer", "--log", "-", "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let text = std::fs::read(fixture("mongod_225.log")).unwrap();
    child.stdin.take().unwrap().write_all(&text).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["log"]["sources"][0]["source"], "(stdin)");
    assert_eq!(v["log"]["shapes"][0]["count"], 15);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("(stdin): line 397: not a mongod log line"),
        "{stderr}"
    );
    let twice = squillion(&["infer", "--log", "-", "-"]);
    assert_eq!(twice.status.code(), Some(2));
    let both = squillion(&["infer", "-", "--log", "-"]);
    assert_eq!(both.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&both.stderr).contains("read once"));
}

#[test]
fn a_presets_workload_logged_with_its_evaluations_figures_has_ratios_of_one() {
    // The log's units in page-analytics, evaluated under its own design; then the same units
    // logged with the evaluation's figures per operation: measured equals predicted.
    let preset = parse_model(include_str!("../../presets/page-analytics.json")).unwrap();
    let all = [
        "count a hit (minute, hour, total)",
        "chart of a page's 6 hours",
    ];
    let (model, _, _) = logged_preset(&preset, 2, &all, &|_| [1.0; 3]);
    let e = evaluate_offered(&model, "custom", &EvalOptions::default()).unwrap();
    let figures = |step: &Value| {
        let unit = model
            .workload
            .iter()
            .find(|u| serde_json::to_value(&u.steps[0]).unwrap() == *step)
            .unwrap();
        let op = e.operations.iter().find(|o| o.unit == unit.name).unwrap();
        let t = &op.typical.total;
        [
            t.keys_examined.value,
            t.docs_examined.value,
            t.docs_returned.value,
        ]
    };
    let (again, report, _) = logged_preset(&preset, 2, &all, &figures);
    assert_eq!(again, model, "the figures change nothing of the model");
    let c = beside_predicted(&report, &e);
    assert_eq!(c.rows.len(), 2);
    for row in &c.rows {
        let r = &row.ratio;
        assert_eq!(
            (r.keys_examined, r.docs_examined, r.returned),
            (Some(1.0), Some(1.0), Some(1.0)),
            "{row:#?}"
        );
        assert_eq!(row.reading, None, "{row:#?}");
        assert_eq!(row.predicted.as_ref().unwrap().round_trips, 1);
    }
}

#[test]
fn a_collection_scan_beside_an_indexed_prediction_reads_as_a_missing_index() {
    // tests/fixtures/mongod-logs/shop: 40 users, 120 orders, and a log whose finds by email
    // scan the 40 users where the design indexes email; the orders' list agrees.
    let dir = fixture("shop");
    let file = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let (users, orders, log) = (file("users.json"), file("orders.json"), file("mongod.log"));
    let out = squillion(&["infer", &users, &orders, "--log", &log, "--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let c = &v["log"]["measured_beside_predicted"];
    assert_eq!(c["factor"], 4.0);
    let row = |unit: &str| {
        c["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["unit"] == unit)
            .cloned()
            .unwrap_or_else(|| panic!("no {unit} in {c:#}"))
    };
    let read = row("read users by email");
    assert_eq!(read["measured"]["docs_examined"], 40.0);
    assert_eq!(read["predicted"]["docs_examined"], 1.0);
    assert_eq!(read["predicted"]["plans"], json!(["email_1"]));
    assert_eq!(
        read["ratio"],
        json!({"keys_examined": null, "docs_examined": 40.0, "returned": 1.0})
    );
    assert_eq!(
        read["reading"],
        "mongod examined 40× the documents Squillion predicts: a missing index or a different \
         plan (COLLSCAN logged)"
    );
    let list = row("list orders by customerId sorted by date");
    assert_eq!(
        list["ratio"],
        json!({"keys_examined": 1.0, "docs_examined": 1.0, "returned": 1.0})
    );
    assert_eq!(list["reading"], Value::Null);
    // The update logs no nreturned: its ratio is "—".
    let update = row("update users name");
    assert_eq!(update["ratio"]["returned"], Value::Null);
    // The text summary says it per unit, with the reading under it.
    let tmp = tempfile::tempdir().unwrap();
    let out_path = tmp.path().join("model.json");
    let out = squillion(&[
        "infer",
        &users,
        &orders,
        "--log",
        &log,
        "--out",
        out_path.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    for line in [
        "log measured beside predicted (design ",
        "docs examined 40.0 / 1.0 (40×)",
        "plans COLLSCAN ×4 / email_1",
        "    reading: mongod examined 40× the documents Squillion predicts",
        "returned — / 0.0 (—)",
    ] {
        assert!(text.contains(line), "{line} in {text}");
    }
    // A log alone has no prediction: the summary says it needs the documents.
    let out = squillion(&["infer", "--log", &log, "--out", out_path.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("log measured beside predicted: needs the documents"),
        "{text}"
    );
    let out = squillion(&["infer", "--log", &log, "--json"]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["log"].get("measured_beside_predicted").is_none());
}

#[test]
fn query_stats_entries_give_shapes_with_their_counts_rates_and_figures() {
    // The manual's two entries (a find of test.products by item, an aggregation's $match on
    // qty), the same find from another client, and a line cut short; then a JSON array on
    // one line (canonical Extended JSON) with a sorted find of orders and an admin find.
    let (model, r) =
        model_from_logs(&read(&["query-stats.json", "query-stats-array.json"])).unwrap();
    assert_eq!(
        r.sources
            .iter()
            .map(|s| s.formats.clone())
            .collect::<Vec<_>>(),
        [[squillion::workload_log::Format::QueryStats]; 2]
    );
    assert_eq!((r.sources[0].operations, r.sources[1].operations), (8, 602));
    let find = shape(&r, "find", "test.products", json!({"item": "?string"}));
    // execCount 1 seen once (over a second) and 4 over 40 s: 5 operations, 1 + 0.1 a second.
    assert_eq!(find["count"], 5);
    assert!((find["rate_per_sec"].as_f64().unwrap() - 1.1).abs() < 1e-12);
    // docsReturned sums 1 and 4 over 5 runs; keysExamined only in the second entry: 4 over 4.
    assert_eq!(
        (find["nreturned"].as_f64(), find["keys_examined"].as_f64()),
        (Some(1.0), Some(1.0))
    );
    // totalExecMicros: min 600, max 4,254, sum 4,254 + 4,000 over 5: no percentiles.
    assert_eq!(
        find["grouped_ms"],
        json!({"min": 0.6, "max": 4.254, "mean": 1.6508})
    );
    assert!(find.get("duration_ms").is_none());
    assert_eq!(find["unit"], "read products by item");
    let agg = shape(
        &r,
        "aggregate",
        "test.products",
        json!({"qty": {"$gt": "?number"}}),
    );
    assert_eq!(agg["count"], 3);
    // 3 runs from 21:16:17.796 to 21:17:12.385: 54.589 s.
    assert!((agg["rate_per_sec"].as_f64().unwrap() - 3.0 / 54.589).abs() < 1e-12);
    // The limit is a parameter: the most a run returned (docsReturned.max 20) stands for it.
    let orders = shape(
        &r,
        "find",
        "shop.orders",
        json!({"customerId": "?objectId"}),
    );
    assert_eq!(
        (orders["limit"].as_u64(), orders["rate_per_sec"].as_f64()),
        (Some(20), Some(1.0))
    );
    assert_eq!(orders["unit"], "list orders by customerId sorted by date");
    assert_eq!(orders["docs_examined"], 10.0);
    let s = skipped(&r);
    assert!(
        s.contains(&(
            "internal_database".into(),
            "admin.system.version".into(),
            "find".into(),
            2
        )),
        "{s:?}"
    );
    assert_eq!(r.bad.iter().map(|b| b.line).collect::<Vec<_>>(), [4]);
    assert!(r
        .assumed
        .iter()
        .any(|a| a.contains("execCount over its first to latest seen")));
    let list = model
        .workload
        .iter()
        .find(|u| u.name.starts_with("list orders"))
        .unwrap();
    assert_eq!(list.rate_per_sec, 1.0);
}
