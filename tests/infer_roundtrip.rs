//! The round trip of issue 18: for every preset, `squillion export` of a sample of its
//! normalized design, then `squillion infer` of those files with `--count` set to the preset's
//! full-scale counts, gives a model whose full-scale figures match the original's: every
//! collection's documents and average size within 2%, every relationship found with the right
//! parent, child and many-to-many, and its children per parent (median, p99, largest) within
//! 5%. What a preset cannot meet for a reason inherent in its data is listed in [`EXCEPTIONS`]
//! with the reason; an exception that no longer fails fails the test, so the list stays true.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use squillion::arith::collection_stats;
use squillion::design::layout_model;
use squillion::eval::offer::offer;
use squillion::model::design::DesignSpec;
use squillion::model::{parse_model, Model};

/// Sizes (documents, average document size) may differ by this share.
const SIZE_TOLERANCE: f64 = 0.02;

/// Cardinality quantiles (median, p99, largest) may differ by this share.
const QUANTILE_TOLERANCE: f64 = 0.05;

/// Root documents exported per preset (the sample: `--scale`, whose documents sit at evenly
/// spaced quantiles): 1,000, enough for the largest document (the export's first, at the
/// 100th percentile) to move a mean by less than 2%, except where that many roots would take
/// minutes ([`SMALL_SCALE`]).
const SCALE: u64 = 1_000;

/// Presets exported at a smaller scale, and that scale: their children per root run to
/// hundreds or thousands (or their documents to megabytes), so 1,000 roots would export
/// millions of documents. (blog's 1,000 authors export 20,000 posts and 50,000 of 400,000
/// comments in about 15 s: fewer authors let the largest author and post, each every length
/// at its maximum, move the means by over 2%.)
const SMALL_SCALE: &[(&str, u64)] = &[
    ("host-logs", 20),
    ("image-board", 20),
    ("message-attachments", 5),
    ("social-feed", 20),
    ("social-graph", 20),
];

/// The most documents exported per collection (`--max-documents`), to keep the test short.
const MAX_DOCUMENTS: u64 = 50_000;

/// (preset, check that fails, why it cannot pass). A check is `size <collection>`,
/// `found <relationship>` or `cardinality <relationship>`.
const EXCEPTIONS: &[(&str, &str, &str)] = &[
    (
        "social-graph",
        "cardinality followers",
        "heavy tail in a small sample: the export deals the sample's children to its parents in proportion to their quantiles (the first parent at the largest, the second at p99), so a distribution whose largest parent holds more children than the whole sample cannot be measured back from it (followers: zipf up to 50,000,000 in 20 users: every pair repeats)",
    ),
    (
        "social-graph",
        "size followers",
        "the link collection's documents are the users' count times the fitted mean of followers per user, and 20 users cannot show a zipf whose tail runs to 50,000,000: the largest user (quantile 1) is dealt 24,073 of the sample's 24,076 links and the others none (median 0, mean 1,204 as the model's), which no shape fitted through a median of 0 keeps (the uniform over 0 to 24,073 has a mean of 12,036)",
    ),
    (
        "social-graph",
        "cardinality activities",
        "heavy tail in a small sample: the export deals the sample's children to its parents in proportion to their quantiles (the first parent at the largest, the second at p99), so a distribution whose largest parent holds more children than the whole sample cannot be measured back from it (zipf up to 200,000 in 20 users)",
    ),
    (
        "shopping-cart",
        "size product",
        "20 products in the sample (100,000 products for 5,000,000 customers, at 1,000 customers): the export's first document is the largest (every length at its maximum: the 100th percentile the export promises), which alone moves the mean of 20 by a third (702 B read for 520); 1,000 products would take 50,000 customers, 600,000 orders and 2,400,000 items",
    ),
    (
        "shopping-cart",
        "cardinality orders",
        "the preset's 12 orders per customer (60,000,000 ÷ 5,000,000) is less than its cardinality's mean (lognormal 8/120/5,000: 15.75), and the largest customer (5,000) takes its share of the 1,000 customers' 12,000 orders, so each is dealt about 0.6 of its quantile (inferred median 5, p99 69, largest 2,952): the counts and the cardinality cannot both hold in one sample",
    ),
    (
        "blog",
        "cardinality posts",
        "the preset's 20 posts per author (1,000,000 ÷ 50,000) is less than its cardinality's mean (lognormal 10/400/5,000: about 35), so the export deals each of the 1,000 authors about 0.57 of its quantile (inferred median 5, p99 206, largest 2,646): the counts and the cardinality cannot both hold in one sample",
    ),
    (
        "blog",
        "cardinality comments",
        "the 1,000 authors' 20,000 posts have 400,000 comments, which the test's --max-documents keeps to 50,000, so each post is dealt an eighth of its quantile (inferred median 1, p99 26, largest 1,707 for 5, 300, 20,000); all 400,000 would take minutes",
    ),
    (
        "image-board",
        "cardinality images",
        "heavy tail in a small sample: the export deals the sample's children to its parents in proportion to their quantiles (the first parent at the largest, the second at p99), so a distribution whose largest parent holds more children than the whole sample cannot be measured back from it (zipf up to 2,000,000 in 20 threads)",
    ),
    (
        "host-logs",
        "cardinality logs",
        "heavy tail in a small sample: the export deals the sample's children to its parents in proportion to their quantiles (the first parent at the largest, the second at p99), so a distribution whose largest parent holds more children than the whole sample cannot be measured back from it (at least 1,000 and up to 2,000,000 log lines per host; 20 hosts, capped at 50,000 lines)",
    ),
    (
        "person-tasks",
        "cardinality tasks",
        "the preset's 30 tasks per person (30,000,000 ÷ 1,000,000) exceed its cardinality's mean (lognormal 20/150/200: 28.8), so each person is dealt about 3% above its quantile, and the median person's 20.6 tasks come out whole as 21, 5% above 20 (p99 154, largest 209 pass); the counts and the cardinality cannot both hold in one sample",
    ),
    (
        "social-feed",
        "size activity",
        "the export cuts arrays at 10,000 elements (docs/cli.md; `truncated_arrays` 19 of the 2,000 activities of 20 users): the fan-out-on-read `to` holds the author's followers (zipf, p99 10,000, largest 1,000,000), and the recipients past 10,000 of that 1% of activities are half the mean, so the activities read back at under half their size",
    ),
    (
        "social-feed",
        "cardinality feed",
        "the export cuts arrays at 10,000 elements (docs/cli.md): the fan-out-on-read `to` holds the author's followers (zipf, p99 10,000, largest 1,000,000), so recipients per activity read back at most 10,000 (median 100 as the original's, p99 9,704, largest 10,000)",
    ),
    (
        "message-attachments",
        "cardinality messages",
        "heavy tail in a small sample: the export deals the sample's children to its parents in proportion to their quantiles (the first parent at the largest, the second at p99), so a distribution whose largest parent holds more children than the whole sample cannot be measured back from it (zipf up to 100,000 in 5 conversations)",
    ),
    (
        "sensor-readings",
        "cardinality readings",
        "a year of readings, 3,153,600 per sensor, is more than the whole exported sample: the export deals its readings evenly to its sensors (about 50 each), so the count per sensor cannot be measured back from it",
    ),
    (
        "product-catalog",
        "cardinality reviews",
        "the preset's 12 reviews per product (2,400,000 ÷ 200,000) is less than its cardinality's mean (lognormal 8/120/2,000: 15.75), so the export deals each of the 1,000 products about 0.7 of its quantile (inferred median 6, p99 82, largest 1,385), as shopping-cart's orders: the counts and the cardinality cannot both hold in one sample",
    ),
];

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_squillion"))
}

/// Returns `model` laid out in `design`: collection → (documents, average document bytes).
fn sizes(model: &Model, design: &DesignSpec) -> BTreeMap<String, (f64, f64)> {
    let mut m = model.clone();
    m.design = design.clone();
    let layout = layout_model(&m).unwrap_or_else(|e| panic!("{e}"));
    layout
        .collections
        .iter()
        .map(|c| {
            let s = collection_stats(c, &m.start_date);
            (c.name.clone(), (s.count, s.total_bytes / s.count.max(1.0)))
        })
        .collect()
}

fn off(a: f64, b: f64) -> f64 {
    if a == b {
        0.0
    } else {
        (a - b).abs() / b.abs().max(1.0)
    }
}

/// Returns the checks that fail for preset `name`, with what was measured.
fn round_trip(name: &str, dir: &Path) -> Vec<(String, String)> {
    let original = squillion::presets::find(name)
        .unwrap_or_else(|e| panic!("{e}"))
        .model()
        .unwrap_or_else(|e| panic!("{e:?}"));
    let out = bin()
        .args([
            "export",
            "--preset",
            name,
            "--design",
            "normalized",
            "--scale",
        ])
        .arg(
            SMALL_SCALE
                .iter()
                .find(|(n, _)| *n == name)
                .map_or(SCALE, |(_, s)| *s)
                .to_string(),
        )
        .args(["--max-documents", &MAX_DOCUMENTS.to_string()])
        .arg("--out")
        .arg(dir)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut args: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .filter(|p| p.file_name().is_some_and(|f| f != "manifest.json"))
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    args.sort();
    let read: BTreeSet<String> = args
        .iter()
        .filter_map(|a| {
            Path::new(a)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
        })
        .collect();
    for e in &original.entities {
        if read.contains(&e.name) {
            args.push("--count".to_string());
            args.push(format!("{}={}", e.name, e.count));
        }
    }
    let path = dir.join("inferred.json");
    let out = bin()
        .arg("infer")
        .args(&args)
        .arg("--out")
        .arg(&path)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
    let inferred = parse_model(&text).unwrap_or_else(|e| panic!("{e:?}"));
    let mut failed = Vec::new();
    // The original as export laid it out (its field patterns kept), the inferred model in its
    // own design (the data's layout).
    let exported = offer(&original, "normalized").unwrap_or_else(|| panic!("normalized"));
    let (want, got) = (
        sizes(&original, &exported.design),
        sizes(&inferred, &inferred.design),
    );
    for (c, &(docs, avg)) in &want {
        match got.get(c) {
            Some(&(d, a)) if off(d, docs) <= SIZE_TOLERANCE && off(a, avg) <= SIZE_TOLERANCE => {}
            other => failed.push((
                format!("size {c}"),
                format!("original {docs} documents of {avg:.1} B, inferred {other:?}"),
            )),
        }
    }
    for r in &original.relationships {
        let found = inferred.relationships.iter().find(|i| {
            i.parent == r.parent && i.child == r.child && i.many_to_many == r.many_to_many
        });
        let Some(i) = found else {
            let seen: Vec<String> = inferred
                .relationships
                .iter()
                .map(|i| format!("{} → {} (m2m {})", i.parent, i.child, i.many_to_many))
                .collect();
            failed.push((format!("found {}", r.name), format!("inferred {seen:?}")));
            continue;
        };
        let q = |d: &squillion::model::Distribution| [d.quantile(0.5), d.quantile(0.99), d.max()];
        let (a, b) = (q(&i.cardinality), q(&r.cardinality));
        if a.iter()
            .zip(&b)
            .any(|(x, y)| off(*x, *y) > QUANTILE_TOLERANCE)
        {
            failed.push((
                format!("cardinality {}", r.name),
                format!("median, p99, largest: original {b:?}, inferred {a:?}"),
            ));
        }
    }
    failed
}

#[test]
fn every_preset_round_trips_through_export_and_infer() {
    let mut unexpected = Vec::new();
    let mut listed_but_passing: Vec<&(&str, &str, &str)> = EXCEPTIONS.iter().collect();
    for p in squillion::presets::all() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let started = std::time::Instant::now();
        let failed = round_trip(p.name, dir.path());
        eprintln!("{}: {:.1}s", p.name, started.elapsed().as_secs_f64());
        for (check, measured) in failed {
            eprintln!("  {check}: {measured}");
            match EXCEPTIONS
                .iter()
                .find(|(n, c, _)| *n == p.name && *c == check)
            {
                Some(e) => listed_but_passing.retain(|l| !std::ptr::eq(*l, e)),
                None => unexpected.push(format!("{}: {check}: {measured}", p.name)),
            }
        }
    }
    assert!(
        unexpected.is_empty(),
        "round trip failed:\n{}",
        unexpected.join("\n")
    );
    assert!(
        listed_but_passing.is_empty(),
        "exceptions that now pass (remove them): {listed_but_passing:?}"
    );
}
