//! Evaluation on the engine: hand-computed query counts, documents examined and written per
//! strategy, determinism, sizes of the materialized sample, and the `eval`/`compare` CLI.
#![cfg(not(target_arch = "wasm32"))]

use std::process::Command;

use squillion::design::{layout_named, DesignName};
use squillion::eval::{compare, evaluate, Basis, Design, EvalOptions, Evaluation, OperationEval};
use squillion::generate::generate;
use squillion::model::{parse_model, Model};
use squillion::size::document_size;

fn model(text: &str) -> Model {
    parse_model(text).unwrap_or_else(|e| panic!("{e}"))
}

/// Returns the model of a built-in preset, as `squillion eval --preset` reads it.
fn preset(name: &str) -> Model {
    let p = squillion::presets::find(name).unwrap_or_else(|e| panic!("{e}"));
    p.model().unwrap_or_else(|e| panic!("{e}"))
}

fn eval(m: &Model, d: DesignName) -> Evaluation {
    evaluate(m, &Design::Named(d), &EvalOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn op<'a>(e: &'a Evaluation, unit: &str) -> &'a OperationEval {
    e.operations
        .iter()
        .find(|o| o.unit == unit)
        .unwrap_or_else(|| panic!("no unit {unit}"))
}

/// 1,000 customers with exactly 3 orders each, read as "an order page".
const ORDERS: &str = include_str!("../models/orders.json");

#[test]
fn normalized_order_page_is_two_queries_embedded_is_one() {
    let m = model(ORDERS);
    let n = eval(&m, DesignName::Normalized);
    let page = op(&n, "order page");
    // find the customer by _id, then its orders by customerId.
    assert_eq!(page.queries, 2);
    let c = &page.typical.commands;
    assert_eq!(c[0].plan, "_id_");
    assert_eq!(c[0].sample.docs_examined, 1);
    assert_eq!(c[0].sample.n_returned, 1);
    assert_eq!(c[1].plan, "customerId_1");
    // Exactly 3 children per customer at full scale: 3 keys, 3 documents, 3 returned.
    assert_eq!(c[1].full.docs_examined.value, 3.0);
    assert_eq!(c[1].full.docs_examined.basis, Basis::FullScale);
    assert_eq!(c[1].full.docs_returned.value, 3.0);
    assert_eq!(page.typical.total.docs_examined.value, 4.0);
    // 10 runs/s × 2 round trips.
    assert_eq!(n.totals.queries_per_sec, 20.0);

    let d = eval(&m, DesignName::Denormalized);
    let page = op(&d, "order page");
    assert_eq!(page.queries, 1);
    let c = &page.typical.commands[0];
    assert_eq!((c.sample.docs_examined, c.sample.n_returned), (1, 1));
    // Bytes returned are the exact BSON size of the returned customer with its 3 orders.
    assert_eq!(c.full.bytes_returned.basis, Basis::Sample);
    assert!(c.sample.bytes_returned > 0);
}

#[test]
fn bytes_returned_are_exact_bson_sizes() {
    let m = model(ORDERS);
    let layout = layout_named(&m, DesignName::Denormalized).unwrap_or_else(|e| panic!("{e}"));
    let data = generate(&m, &layout);
    let e = eval(&m, DesignName::Denormalized);
    let c = &op(&e, "order page").largest.commands[0];
    let doc0 = &data.collections[0].documents[0];
    assert_eq!(c.sample.bytes_returned, document_size(doc0));
    assert_eq!(
        c.sample.bytes_returned,
        doc0.to_vec().map_or(0, |v| v.len() as u64)
    );
}

/// A feed where every user has exactly 3 followers.
const FEED: &str = include_str!("../models/feed.json");

#[test]
fn fan_out_on_write_of_three_followers_writes_three_documents() {
    let m = model(FEED);
    let e = eval(&m, DesignName::Denormalized);
    let post = op(&e, "post");
    assert_eq!(post.queries, 1);
    let c = &post.typical.commands[0];
    assert_eq!(c.sample.docs_written, 3);
    assert_eq!(c.full.docs_written.value, 3.0);
    let f = c.fan_out.as_ref().unwrap_or_else(|| panic!("no fan-out"));
    assert_eq!((f.full_scale, f.written, f.capped), (3, 3, false));
    // Every copy has _id and owner: 3 documents × 2 index keys (_id_, owner_1_date_-1).
    assert_eq!(c.sample.index_keys_written, 6);
    // 2 posts/s × 3 copies.
    assert_eq!(e.totals.per_sec.docs_written.value, 6.0);
    // The read is targeted: equality on the shard key.
    let read = &op(&e, "read feed").typical.commands[0];
    assert_eq!(read.shards.touched, 1);
    assert_eq!(read.shards.routing, squillion::eval::Routing::Targeted);
}

#[test]
fn fan_out_cap_is_reported_and_full_scale_counted() {
    let m = model(&FEED.replace(r#""value": 3 }"#, r#""value": 40 }"#));
    let opts = EvalOptions {
        fan_out_cap: 10,
        ..EvalOptions::default()
    };
    let e = evaluate(&m, &Design::Named(DesignName::Denormalized), &opts)
        .unwrap_or_else(|e| panic!("{e}"));
    let c = &op(&e, "post").typical.commands[0];
    let f = c.fan_out.as_ref().unwrap_or_else(|| panic!("no fan-out"));
    assert_eq!(
        (f.full_scale, f.written, f.cap, f.capped),
        (40, 10, 10, true)
    );
    assert_eq!(c.sample.docs_written, 10);
    assert_eq!(c.full.docs_written.value, 40.0);
    assert_eq!(c.full.docs_written.basis, Basis::FullScale);
}

#[test]
fn fan_out_on_read_is_scatter_gather_and_bucketed_reads_two_buckets() {
    let m = model(FEED);
    let n = eval(&m, DesignName::Normalized);
    let read = &op(&n, "read feed").typical.commands[0];
    assert_eq!(read.shards.touched, 4);
    assert!(n.warnings.iter().any(|w| w.code == "SCATTER_GATHER"));
    // The warning's arithmetic reads like the rest of the report, with thousands separators.
    let busy = model(&FEED.replace(r#""rate_per_sec": 100"#, r#""rate_per_sec": 2500"#));
    let w = eval(&busy, DesignName::Normalized)
        .warnings
        .into_iter()
        .find(|w| w.code == "SCATTER_GATHER")
        .unwrap_or_else(|| panic!("no SCATTER_GATHER"));
    assert!(
        w.message
            .contains("all 4 shards (2,500/s × 4 = 10,000 shard requests/s)"),
        "{}",
        w.message
    );
    // The post is one insert whose `to` lists the 3 followers.
    let post = &op(&n, "post").typical.commands[0];
    assert_eq!(post.sample.docs_written, 1);

    let b = eval(&m, DesignName::Bucketed);
    // A page of 50 from buckets of 50, as the article reads it: the newest (partial) bucket,
    // then the one before it: two queries, two documents, one shard each.
    let read = op(&b, "read feed");
    assert_eq!(read.queries, 2);
    let [newest, older] = &read.typical.commands[..] else {
        panic!("{:?}", read.typical.commands)
    };
    assert!(
        newest.mongosh.ends_with(".sort({ sequence: -1 }).limit(1)"),
        "{}",
        newest.mongosh
    );
    assert_eq!(newest.sample.n_returned, 1);
    assert!(
        older.mongosh.contains("sequence: { $lt: "),
        "{}",
        older.mongosh
    );
    assert!(older.sample.n_returned <= 1);
    // Posting: each of the 3 followers' item counters is incremented (the bucket number), then
    // the item is appended to its newest bucket by { owner, sequence }: 2 bulk writes, 3
    // documents each.
    let post = op(&b, "post");
    assert_eq!(post.queries, 2);
    let [counter, append] = &post.typical.commands[..] else {
        panic!("{:?}", post.typical.commands)
    };
    assert!(
        counter.mongosh.contains("$inc: { activityCount: 1 }"),
        "{}",
        counter.mongosh
    );
    assert_eq!(counter.sample.docs_written, 3);
    assert!(
        append
            .mongosh
            .starts_with("db.activity_buckets.bulkWrite([{ updateOne: { filter: { owner: "),
        "{}",
        append.mongosh
    );
    assert!(append.mongosh.contains("sequence: "), "{}", append.mongosh);
    assert_eq!(append.sample.docs_written, 3);
}

/// Renaming a product rewrites every line that copies its name (live), not a snapshot.
const PRODUCTS: &str = include_str!("../models/products.json");

#[test]
fn live_copy_counts_the_documents_a_rename_rewrites() {
    let m = model(PRODUCTS);
    let e = evaluate(&m, &Design::Model, &EvalOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let rename = op(&e, "rename");
    assert_eq!(rename.queries, 2);
    let copy = &rename.typical.commands[1];
    assert!(copy.note.starts_with("live copy"), "{}", copy.note);
    // Every product has exactly 4 lines.
    assert_eq!(copy.full.docs_written.value, 4.0);
    assert_eq!(copy.full.docs_written.basis, Basis::FullScale);
    // 50 renames/s × 4 = 200 writes/s against 1 read/s.
    let w = e
        .warnings
        .iter()
        .find(|w| w.code == "LIVE_COPY_AMPLIFICATION")
        .unwrap_or_else(|| panic!("{:?}", e.warnings));
    assert!(
        w.message.contains("200.0 document writes/s"),
        "{}",
        w.message
    );

    let m = model(&PRODUCTS.replace(r#""copies": "live""#, r#""copies": "snapshot""#));
    let e = evaluate(&m, &Design::Model, &EvalOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(op(&e, "rename").queries, 1);
    assert!(!e
        .warnings
        .iter()
        .any(|w| w.code == "LIVE_COPY_AMPLIFICATION"));
}

#[test]
fn writes_do_not_change_the_materialized_data() {
    let m = model(FEED);
    let a = eval(&m, DesignName::Bucketed);
    let b = eval(&m, DesignName::Bucketed);
    // Typical and largest runs start from the same data, and so does the next evaluation.
    assert_eq!(a, b);
    // Reading after the posts (undone) sees what reading alone sees.
    let mut alone = m.clone();
    alone.workload.retain(|u| u.name == "read feed");
    let c = eval(&alone, DesignName::Bucketed);
    assert_eq!(op(&a, "read feed"), op(&c, "read feed"));
    let n = eval(&m, DesignName::Denormalized);
    let d = eval(&alone, DesignName::Denormalized);
    assert_eq!(op(&n, "read feed"), op(&d, "read feed"));
}

#[test]
fn evaluation_is_deterministic() {
    let m = preset("social-feed");
    let opts = EvalOptions {
        max_documents: Some(100),
        ..EvalOptions::default()
    };
    let one = serde_json::to_string(&compare(&m, &opts).unwrap_or_else(|e| panic!("{e}")))
        .unwrap_or_default();
    let two = serde_json::to_string(&compare(&m, &opts).unwrap_or_else(|e| panic!("{e}")))
        .unwrap_or_default();
    assert!(!one.is_empty());
    assert_eq!(one, two);
}

#[test]
fn full_sizes_of_materialized_documents_match_the_engine() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/presets");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .map(|r| r.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    paths.sort();
    let mut checked = 0;
    for p in paths {
        let m = model(&std::fs::read_to_string(&p).unwrap_or_default());
        for d in [
            DesignName::Normalized,
            DesignName::Denormalized,
            DesignName::Bucketed,
        ] {
            let layout = layout_named(&m, d).unwrap_or_else(|e| panic!("{e}"));
            let data = generate(&m, &layout);
            let db = squillion::eval::materialize(&layout, &data).unwrap_or_else(|e| panic!("{e}"));
            for c in &data.collections {
                let engine_docs: Vec<_> = db
                    .collection(&c.name)
                    .map(|x| x.decoded_documents())
                    .unwrap_or_default();
                assert_eq!(engine_docs.len(), c.documents.len(), "{}", c.name);
                for (i, doc) in c.documents.iter().enumerate() {
                    let id = doc.get("_id");
                    let stored = engine_docs
                        .iter()
                        .find(|x| x.get("_id") == id)
                        .unwrap_or_else(|| panic!("{} {i} not in the engine", c.name));
                    let (full, _) = data.full_size(&c.name, i).unwrap_or((0, false));
                    if c.truncated.iter().any(|t| t.document == i) {
                        assert!(full > document_size(stored));
                    } else {
                        assert_eq!(full, document_size(stored), "{} {i}", c.name);
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 1000);
}

fn squillion(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_squillion"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn cli_eval_and_compare_on_social_feed() {
    let model = "presets/social-feed.json";
    let (code, out, err) = squillion(&["eval", model, "--design", "denormalized", "--scale", "50"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Operations"), "{out}");
    assert!(out.contains("db.activity.find("), "{out}");

    let (code, out, err) = squillion(&[
        "eval",
        model,
        "--design",
        "normalized",
        "--json",
        "--scale",
        "50",
    ]);
    // The normalized feed item's `to` array is over 16 MiB for the largest author.
    assert_eq!(code, 1, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(v["design"], "normalized");
    assert!(
        v["operations"][0]["typical"]["commands"][0]["full"]["docs_written"]["basis"].is_string()
    );

    let (code, out, err) = squillion(&["compare", model, "--json", "--scale", "50"]);
    assert_eq!(code, 1, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(v["designs"].as_array().map_or(0, Vec::len), 3);
    assert_eq!(v["best"]["shard_requests_per_sec"], "denormalized");

    let (code, out, _) = squillion(&["compare", model, "--scale", "50"]);
    assert_eq!(code, 1);
    assert!(out.contains('*'), "{out}");
}

#[test]
fn cli_reports_model_problems_with_exit_2() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{ \"entities\": [ { \"name\": 3 } ] }").unwrap_or_else(|e| panic!("{e}"));
    let p = bad.to_string_lossy().to_string();
    let (code, _, err) = squillion(&["eval", &p]);
    assert_eq!(code, 2);
    assert!(err.contains("$.entities[0]"), "{err}");
    std::fs::write(&bad, "{ \"entities\": [ ").unwrap_or_else(|e| panic!("{e}"));
    let (code, _, err) = squillion(&["compare", &p]);
    assert_eq!(code, 2);
    assert!(err.contains("line 1, column"), "{err}");
    let (code, _, _) = squillion(&["eval", "presets/blog.json", "--design", "nope.json"]);
    assert_eq!(code, 2);
}

#[test]
fn a_full_scale_write_over_16_mib_is_an_error() {
    let m = preset("social-feed");
    let opts = EvalOptions {
        max_documents: Some(50),
        ..EvalOptions::default()
    };
    let e = evaluate(&m, &Design::Named(DesignName::Normalized), &opts)
        .unwrap_or_else(|e| panic!("{e}"));
    let post = op(&e, "post");
    // The largest author has 1,000,000 followers: one item whose `to` lists them all.
    let c = &post.largest.commands[0];
    let f = c.fan_out.as_ref().unwrap_or_else(|| panic!("no fan-out"));
    assert_eq!(
        (f.full_scale, f.written, f.capped),
        (1_000_000, 1_000, true)
    );
    // 1,000,000 ObjectIds cost 12 + 2 + index digits each: far over the limit.
    assert!(c.full.bytes_written.value > 16_777_216.0);
    assert_eq!(c.full.bytes_written.basis, Basis::FullScale);
    let err = c.error.as_deref().unwrap_or_default();
    assert!(err.contains("10334"), "{err}");
    // The typical author's 100 followers fit.
    assert!(post.typical.commands[0].error.is_none());
    assert!(e.has_errors());
}

#[test]
fn compare_a_preset_puts_its_own_designs_side_by_side() {
    // social-feed: a page of 20 reaches all 8 shards under fan-out on read (sharded by
    // author) and 1 under fan-out on write (sharded by owner); posting writes one copy per
    // follower (100 for the median user) under fan-out on write.
    let (code, out, _) = squillion(&["compare", "--preset", "social-feed", "--json"]);
    assert_eq!(
        code, 1,
        "fan-out on read's celebrity item is over 16 MiB: an error"
    );
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let designs: Vec<&str> = v["designs"]
        .as_array()
        .expect("designs")
        .iter()
        .map(|d| d["design"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(designs, ["normalized", "denormalized", "bucketed"]);
    let shard_requests = &v["metrics"]["shard_requests_per_sec"];
    // 1,000 posts + 50,000 pages × 8 shards + 5,000 pages × 8 shards = 441,000 under fan-out
    // on read; 1,000 posts × 8 + 55,000 reads × 1 = 63,000 under fan-out on write.
    assert_eq!(shard_requests[0].as_f64(), Some(441_000.0));
    assert_eq!(shard_requests[1].as_f64(), Some(63_000.0));
    assert_eq!(
        v["metrics"]["docs_written_per_sec"][1].as_f64(),
        Some(100_000.0)
    );
    let (code, _, err) = squillion(&["compare", "--preset", "no-such-preset"]);
    assert_eq!(code, 2);
    assert!(err.contains("known presets"), "{err}");
}

#[test]
fn image_board_keys_examined_grow_with_the_page_under_skip_not_under_a_range() {
    // Article 001 #3: page 50 of 20 images. For the busiest thread (2,000,000 images), the
    // skip walks past 49 × 20 = 980 index keys before returning 20: 1,000 examined; the range
    // on {threadId: 1, date: 1} starts at the page: 20 examined, as on page 1.
    let (code, out, _) = squillion(&["eval", "--preset", "image-board", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let keys = |unit: &str, subject: &str| {
        v["operations"]
            .as_array()
            .expect("operations")
            .iter()
            .find(|o| o["unit"] == unit)
            .and_then(|o| o[subject]["commands"][0]["full"]["keys_examined"]["value"].as_f64())
            .unwrap_or_else(|| panic!("no figure for {unit}"))
    };
    assert_eq!(keys("thread page 1", "largest"), 20.0);
    assert_eq!(keys("thread page 50 by date range", "largest"), 20.0);
    assert_eq!(keys("thread page 50 by skip", "largest"), 1_000.0);
    // A typical thread (about 100 images) has no page 50: the range finds nothing at once,
    // the skip walks every key of the thread to learn that.
    assert_eq!(keys("thread page 50 by date range", "typical"), 0.0);
    assert!(keys("thread page 50 by skip", "typical") > 20.0);
}

/// A reader that stops early (`squillion compare … | head -1`) closes the pipe: the command
/// stops quietly with exit 0 instead of panicking on the failed write.
#[test]
fn a_closed_output_pipe_is_not_a_panic() {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_squillion"))
        .args(["compare", "--preset", "social-graph", "--json"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    let stdout = child.stdout.take().unwrap_or_else(|| panic!("no stdout"));
    let mut first = String::new();
    BufReader::new(stdout)
        .read_line(&mut first)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(first.starts_with('{'), "{first}");
    // The read end is dropped here: every later write fails with EPIPE.
    let out = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(out.status.code(), Some(0), "{err}");
}

/// The page's progress bar: every step reported once, in order, counted to the end; the
/// evaluation is the one `squillion eval` prints.
#[test]
fn progress_counts_every_step_in_order() {
    let m = preset("social-feed");
    let opts = EvalOptions {
        max_documents: Some(40),
        ..EvalOptions::default()
    };
    let mut seen = Vec::new();
    let e = squillion::eval::evaluate_offered_with(&m, "denormalized", &opts, &mut |p| {
        seen.push(p.clone())
    })
    .unwrap_or_else(|e| panic!("{e}"));
    let of = 4 + e.operations.len();
    assert_eq!(seen.len(), of);
    for (i, p) in seen.iter().enumerate() {
        assert_eq!((p.step, p.of), (i + 1, of), "{p:?}");
    }
    assert_eq!(seen[0].what, "generating the sample documents");
    assert!(seen[1].what.starts_with("inserting "), "{:?}", seen[1]);
    assert_eq!(seen[3].what, format!("running “{}”", e.operations[0].unit));
    // Each step is also a message, for the page to say in its language.
    let zh = squillion::lang::Lang::ZhCn;
    assert_eq!(seen[0].text.render(zh), "正在生成样本文档");
    assert_eq!(
        seen[3].text.render(zh),
        format!("正在运行“{}”", e.operations[0].unit)
    );
    for p in &seen {
        assert_eq!(p.text.render(squillion::lang::Lang::En), p.what);
        assert!(p.text.is_translated(zh), "{p:?}");
    }
    let plain = squillion::eval::evaluate_offered(&m, "denormalized", &opts).unwrap();
    assert_eq!(
        serde_json::to_string(&plain).unwrap(),
        serde_json::to_string(&e).unwrap()
    );
}

/// `--design custom` is the model's own design, what the page's Custom shows and what `eval`
/// runs without `--design`.
#[test]
fn design_custom_is_the_models_own_design() {
    let (code, own, err) = squillion(&["eval", "--preset", "blog", "--scale", "40", "--json"]);
    assert!(code == 0 || code == 1, "{err}");
    let (code, custom, err) = squillion(&[
        "eval", "--preset", "blog", "--design", "custom", "--scale", "40", "--json",
    ]);
    assert!(code == 0 || code == 1, "{err}");
    assert_eq!(own, custom);
}
