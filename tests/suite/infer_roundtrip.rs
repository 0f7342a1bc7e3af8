//! The round trip of issue 18: for every preset, `squillion export` of a sample of its
//! normalized design, then `squillion infer` of those files with `--count` set to the preset's
//! full-scale counts, gives a model whose full-scale figures match the original's: every
//! collection's documents and average size within 2%, every relationship found with the right
//! parent, child and many-to-many, and its children per parent (median, p99, largest) within
//! 5%.
//!
//! A scaled export's sample is what sampled parents hold in the data: each parent its
//! quantile's children, the largest parent all of its own ([`squillion::export::Scale`]). Two
//! runs:
//!
//! - [`every_preset_round_trips_through_export_and_infer`] (in `cargo test`) keeps every
//!   collection to [`MAX_DOCUMENTS`] documents and arrays to 10,000 elements, so a heavy
//!   tail's largest parent (a user with 50,000,000 followers) is cut; the checks that cut
//!   moves are listed in [`CAPPED`] (11), each with what was cut. A listed check that passes fails
//!   the test, so the list stays true.
//! - [`every_preset_round_trips_whole`] (`--ignored`; `scripts/roundtrip-full.sh` runs it
//!   with the release binary, 15 to 35 minutes and 25 GB of files) cuts nothing: every
//!   preset, every check, no exception.
#![cfg(not(target_arch = "wasm32"))]

use crate::common::squillion_cli as cli;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use squillion::design::layout_model;
use squillion::eval::offer::offer;
use squillion::model::design::DesignSpec;
use squillion::model::Model;
use squillion::stats::collection_stats;

/// Sizes (documents, average document size) may differ by this share.
const SIZE_TOLERANCE: f64 = 0.02;

/// Cardinality quantiles (median, p99, largest) may differ by this share.
const QUANTILE_TOLERANCE: f64 = 0.05;

/// Root documents exported per preset (`--scale`, whose documents sit at evenly spaced
/// quantiles): 1,000, enough for the largest document (the export's first, at the 100th
/// percentile) to move a mean by less than 2%, and for the p99 parent to be the p99 of the
/// parents (of 20, the p99 read back is nearly the largest).
const SCALE: u64 = 1_000;

/// Presets exported at another scale in `cargo test`, and that scale: their children per
/// root run to hundreds or thousands (or their documents to megabytes), so 1,000 roots would
/// export millions of documents.
const SMALL_SCALE: &[(&str, u64)] = &[
    ("host-logs", 20),
    ("image-board", 20),
    ("message-attachments", 5),
    ("social-feed", 20),
    ("social-graph", 20),
];

/// The scale of the whole run, where it is not [`SCALE`]: 100 roots where the largest
/// parent's children dominate the sample anyway (enough for the p99 parent to read back as
/// the p99); shopping-cart's 50,000 customers for 1,000 of its products (the largest product,
/// every length at its maximum, moves the mean of 20 by a third); sensor-readings' 10 sensors
/// of 3,153,600 readings each; social-feed's 50 users for 5,000 activities (of 2,000, the p99 recipients read back 3% low, and the mean with them).
const WHOLE_SCALE: &[(&str, u64)] = &[
    ("host-logs", 100),
    ("image-board", 100),
    ("message-attachments", 100),
    ("social-feed", 50),
    ("social-graph", 100),
    ("shopping-cart", 50_000),
    ("sensor-readings", 10),
];

/// The most documents exported per collection in `cargo test` (`--max-documents`).
const MAX_DOCUMENTS: u64 = 100_000;

/// Presets exported with fewer documents per collection in `cargo test`: message-attachments'
/// GridFS chunks are 255 KiB each (its 5 conversations' 102,000 messages would write 20 GB).
const SMALL_CAP: &[(&str, u64)] = &[("message-attachments", 500)];

/// (preset, check that fails, what `cargo test`'s caps cut). A check is `size <collection>`,
/// `found <relationship>` or `cardinality <relationship>`. Each passes in the whole run.
const CAPPED: &[(&str, &str, &str)] = &[
    (
        "social-graph",
        "cardinality followers",
        "the largest of 20 users has 50,000,000 followers: the links are cut to 100,000, dealt in proportion",
    ),
    (
        "social-graph",
        "size followers",
        "the links cut to 100,000 read back as a cardinality whose mean is not the model's",
    ),
    (
        "social-graph",
        "cardinality activities",
        "the largest of 20 users has 200,000 activities: cut to 100,000",
    ),
    (
        "shopping-cart",
        "size product",
        "20 products for 1,000 customers: the largest product, every length at its maximum, moves the mean of 20 by a third",
    ),
    (
        "blog",
        "cardinality comments",
        "the 1,000 authors' posts have over 100,000 comments: cut to 100,000",
    ),
    (
        "image-board",
        "cardinality images",
        "the largest of 20 threads has 2,000,000 images: cut to 100,000",
    ),
    (
        "host-logs",
        "cardinality logs",
        "the largest of 20 hosts has 2,000,000 log lines: cut to 100,000",
    ),
    (
        "social-feed",
        "size activity",
        "`to` arrays (the author's followers, up to 1,000,000) cut at 10,000 elements",
    ),
    (
        "social-feed",
        "cardinality feed",
        "`to` arrays (the author's followers: p99 10,000, largest 1,000,000) cut at 10,000 elements",
    ),
    (
        "message-attachments",
        "cardinality messages",
        "the largest of 5 conversations has 100,000 messages: cut to 500 for all 5 (their attachments' chunks are 255 KiB each)",
    ),
    (
        "sensor-readings",
        "cardinality readings",
        "3,153,600 readings a sensor: cut to 100,000 for 1,000 sensors",
    ),
];

/// How a round trip exports.
struct Run {
    /// The `squillion` binary.
    bin: PathBuf,
    /// Scales other than [`SCALE`].
    scales: &'static [(&'static str, u64)],
    /// `--max-documents`.
    max_documents: u64,
    /// Presets with another `--max-documents`.
    caps: &'static [(&'static str, u64)],
    /// `--max-elements`.
    max_elements: u64,
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
fn round_trip(name: &str, dir: &Path, run: &Run) -> Vec<(String, String)> {
    let original = squillion::presets::find(name)
        .unwrap_or_else(|e| panic!("{e}"))
        .model()
        .unwrap_or_else(|e| panic!("{e:?}"));
    let scale = run
        .scales
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(SCALE, |(_, s)| *s);
    let max_documents = run
        .caps
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(run.max_documents, |(_, c)| *c);
    // Exit 1: written, and some document is over 16 MiB, as the model says (social-feed's
    // activity to a million followers, written whole).
    cli::run(
        &run.bin,
        [
            "export",
            "--preset",
            name,
            "--design",
            "normalized",
            "--scale",
            &scale.to_string(),
            "--max-documents",
            &max_documents.to_string(),
            "--max-elements",
            &run.max_elements.to_string(),
            "--max-bytes",
            "1TiB",
            "--out",
            &dir.to_string_lossy(),
        ],
        &[0, 1],
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
    let (inferred, _) = cli::infer(&run.bin, &args, dir);
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
    let run = Run {
        bin: env!("CARGO_BIN_EXE_squillion").into(),
        scales: SMALL_SCALE,
        max_documents: MAX_DOCUMENTS,
        caps: SMALL_CAP,
        max_elements: 10_000,
    };
    let mut unexpected = Vec::new();
    let mut listed_but_passing: Vec<&(&str, &str, &str)> = CAPPED.iter().collect();
    for p in squillion::presets::all() {
        for (check, measured) in timed(p.name, &run) {
            match CAPPED.iter().find(|(n, c, _)| *n == p.name && *c == check) {
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
        "capped checks that now pass (remove them): {listed_but_passing:?}"
    );
}

/// The whole round trip: nothing cut, no exception. `SQUILLION_BIN` names the binary (the
/// release build; this test's own is unoptimized, ten times slower); `SQUILLION_PRESETS`
/// (comma-separated) limits the presets.
#[test]
#[ignore = "15 to 35 minutes and 25 GB of files: scripts/roundtrip-full.sh"]
fn every_preset_round_trips_whole() {
    let run = Run {
        bin: std::env::var_os("SQUILLION_BIN")
            .map_or_else(|| env!("CARGO_BIN_EXE_squillion").into(), PathBuf::from),
        scales: WHOLE_SCALE,
        max_documents: 1_000_000_000_000,
        caps: &[],
        max_elements: 100_000_000,
    };
    let only = std::env::var("SQUILLION_PRESETS").unwrap_or_default();
    let mut failed = Vec::new();
    for p in squillion::presets::all() {
        if !only.is_empty() && !only.split(',').any(|o| o == p.name) {
            continue;
        }
        for (check, measured) in timed(p.name, &run) {
            failed.push(format!("{}: {check}: {measured}", p.name));
        }
    }
    assert!(
        failed.is_empty(),
        "round trip failed:\n{}",
        failed.join("\n")
    );
}

/// Returns the failed checks of preset `name`'s round trip, printing them and the time taken.
fn timed(name: &str, run: &Run) -> Vec<(String, String)> {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let started = std::time::Instant::now();
    let failed = round_trip(name, dir.path(), run);
    eprintln!("{name}: {:.1}s", started.elapsed().as_secs_f64());
    for (check, measured) in &failed {
        eprintln!("  {check}: {measured}");
    }
    failed
}
