//! Export and cluster figures: the exported documents are the evaluation's (same sizes),
//! stream in order, carry validators; shard targeting and spread on the social-feed preset
//! follow article 004; hot shards, monotonic keys and the WiredTiger cache are reported.
#![cfg(not(target_arch = "wasm32"))]

use std::process::Command;

use squillion::design::layout_model;
use squillion::eval::{evaluate, Design, EvalOptions, Evaluation, Routing};
use squillion::export::{write_collection, Scale};
use squillion::generate::generate;
use squillion::model::{parse_model, Model};
use squillion::size::document_size;

/// Returns the preset's model under one of its designs, with that design's sharding.
fn design(name: &str) -> Model {
    let p = squillion::presets::find("social-feed").unwrap_or_else(|e| panic!("{e}"));
    let m = p.model().unwrap_or_else(|e| panic!("{e}"));
    squillion::eval::offer::offer(&m, name)
        .map(|o| o.model)
        .unwrap_or_else(|| panic!("no design {name}"))
}

fn eval(m: &Model) -> Evaluation {
    evaluate(m, &Design::Model, &EvalOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn exported_documents_are_the_evaluations_sample() {
    let m = design("bucketed");
    let layout = layout_model(&m).unwrap_or_else(|e| panic!("{e}"));
    let data = generate(&m, &layout);
    let scale = Scale::new(&m, None, u64::MAX);
    for c in &layout.collections {
        let mut out = Vec::new();
        let mut calls = 0;
        let ce = write_collection(&m, &layout, c, &scale, &mut out, &mut |_| calls += 1)
            .unwrap_or_else(|e| panic!("{e}"));
        let text = String::from_utf8(out).unwrap_or_default();
        let docs: Vec<_> = text
            .lines()
            .map(|l| squillion::ejson::parse_document(l).unwrap_or_else(|e| panic!("{e}")))
            .collect();
        let sample = &data
            .collection(&c.name)
            .unwrap_or_else(|| panic!("no {}", c.name))
            .documents;
        assert_eq!(&docs, sample, "{}", c.name);
        let bytes: u64 = sample.iter().map(document_size).sum();
        assert_eq!(ce.bson_bytes, bytes, "{}", c.name);
        assert_eq!(ce.documents, sample.len() as u64);
        assert_eq!(ce.file_bytes, text.len() as u64);
        assert!(
            ce.compressed_bytes > 0 && ce.compressed_bytes < bytes,
            "{}",
            c.name
        );
        assert!(calls >= 1);
    }
}

#[test]
fn scale_counts_root_entities_and_caps_collections() {
    let m = design("denormalized");
    let layout = layout_model(&m).unwrap_or_else(|e| panic!("{e}"));
    let scale = Scale::new(&m, Some(1000), 50_000);
    assert_eq!(scale.root, "user");
    let planned = squillion::export::planned_documents(&m, &layout, &scale);
    assert_eq!(
        planned,
        vec![("user".to_string(), 1000), ("activity".to_string(), 50_000)]
    );
    // 1,000 of 10,000,000 users: the feed copies scale by the same 1e-4, before the cap.
    let activity = layout
        .collection("activity")
        .unwrap_or_else(|| panic!("no activity"));
    let uncapped = scale.uncapped(&m, activity.count());
    assert_eq!(uncapped, (activity.count() * 1e-4).ceil() as u64);
    // References point into the 1,000 exported users.
    let mut out = Vec::new();
    let small = Scale::new(&m, Some(1000), 2000);
    write_collection(&m, &layout, activity, &small, &mut out, &mut |_| {})
        .unwrap_or_else(|e| panic!("{e}"));
    let users: std::collections::HashSet<_> = (0..1000u64)
        .map(|i| squillion::generate::entity_oid(m.seed, "user", i))
        .collect();
    let text = String::from_utf8(out).unwrap_or_default();
    assert_eq!(text.lines().count(), 2000);
    for l in text.lines() {
        let d = squillion::ejson::parse_document(l).unwrap_or_else(|e| panic!("{e}"));
        let owner = d.get_object_id("owner").unwrap_or_else(|e| panic!("{e}"));
        assert!(users.contains(&owner), "{owner}");
    }
}

#[test]
fn social_feed_targeting_follows_the_article() {
    // Fan-out on read sharded by author: reading a feed reaches every shard.
    let read = eval(&design("normalized"));
    // Fan-out on write sharded by owner: one.
    let write = eval(&design("denormalized"));
    let bucket = eval(&design("bucketed"));
    for (e, routing, touched) in [
        (&read, Routing::ScatterGather, 8),
        (&write, Routing::Targeted, 1),
        (&bucket, Routing::Targeted, 1),
    ] {
        for unit in ["read a page of 20", "read 50 activities"] {
            let o = e
                .operations
                .iter()
                .find(|o| o.unit == unit)
                .unwrap_or_else(|| panic!("{unit}"));
            for c in &o.typical.commands {
                assert_eq!(c.shards.routing, routing, "{} {unit}", e.design);
                assert_eq!(c.shards.touched, touched, "{} {unit}", e.design);
            }
        }
    }
    // The shard-key report says the same in shares of the reads.
    assert_eq!(read.sharding[0].key.reads.scatter_gather, 1.0);
    assert_eq!(write.sharding[0].key.reads.single_shard, 1.0);
    assert_eq!(write.sharding[0].key.writes.multi_shard, 1.0);
    assert_eq!(bucket.sharding[0].key.reads.single_shard, 1.0);
    for e in [&read, &write, &bucket] {
        let s = &e.sharding[0];
        assert_eq!(s.per_shard.len(), 8);
        let c = e
            .collections
            .iter()
            .find(|c| c.name == s.collection)
            .unwrap_or_else(|| panic!("no collection"));
        let docs: f64 = s.per_shard.iter().map(|p| p.documents.value).sum();
        assert!(
            (docs - c.stats.count).abs() / c.stats.count < 1e-6,
            "{}: {docs}",
            e.design
        );
        assert!(!s.key.monotonicity.monotonic, "{}", e.design);
        assert!(
            e.warnings.iter().all(|w| w.code != "HOT_SHARD"),
            "{}",
            e.design
        );
        assert!(e.storage.disk_bytes.value < e.storage.data_bytes.value);
        assert!(!e.storage.fits_in_cache, "{}", e.design);
    }
}

/// 1,000 hosts whose log counts follow a zipf law with a 5,000,000-message giant.
const LOGS: &str = include_str!("../models/logs.json");

#[test]
fn a_giant_parent_makes_a_hot_shard_and_jumbo_chunks() {
    let m = parse_model(LOGS).unwrap_or_else(|e| panic!("{e}"));
    let e = eval(&m);
    let s = e
        .sharding
        .iter()
        .find(|s| s.collection == "log")
        .unwrap_or_else(|| panic!("no log spread: {:?}", e.sharding));
    assert!(s.imbalance > 1.5, "{}", s.imbalance);
    assert!(s.per_shard[0].bytes.value > s.per_shard[1].bytes.value);
    assert!(s.jumbo_chunks.value >= 1.0);
    for code in ["HOT_SHARD", "JUMBO_CHUNK"] {
        assert!(e.warnings.iter().any(|w| w.code == code), "{code}");
    }
}

#[test]
fn monotonic_keys_are_flagged_unless_hashed() {
    let ranged = LOGS.replace(r#"{ "host": 1 }"#, r#"{ "_id": 1 }"#);
    let e = eval(&parse_model(&ranged).unwrap_or_else(|e| panic!("{e}")));
    assert!(e.sharding[0].key.monotonicity.monotonic);
    assert!(e.warnings.iter().any(|w| w.code == "MONOTONIC_SHARD_KEY"));
    let hashed = LOGS.replace(r#"{ "host": 1 }"#, r#"{ "_id": "hashed" }"#);
    let e = eval(&parse_model(&hashed).unwrap_or_else(|e| panic!("{e}")));
    let s = &e.sharding[0];
    assert!(s.hashed && !s.key.monotonicity.monotonic);
    assert!(e.warnings.iter().all(|w| w.code != "MONOTONIC_SHARD_KEY"));
    // Every _id distinct: full-scale cardinality is the collection's count.
    assert_eq!(s.key.cardinality.value, 10_000_000.0);
}

#[test]
fn working_set_is_compared_to_the_cache_of_the_given_ram() {
    let m = parse_model(LOGS).unwrap_or_else(|e| panic!("{e}"));
    let opts = |ram: u64| EvalOptions {
        ram_bytes: Some(ram),
        ..EvalOptions::default()
    };
    let small = evaluate(&m, &Design::Model, &opts(2 << 30)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(small.storage.cache_bytes, 512 << 20);
    let big = evaluate(&m, &Design::Model, &opts(1 << 40)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(big.storage.cache_bytes, ((1u64 << 40) - (1 << 30)) / 2);
    assert!(big.storage.fits_in_cache);
    // The model's ram_gb when no RAM is given; the default 16 GiB without either.
    let with = parse_model(&LOGS.replace(r#""workload": [],"#, r#""workload": [], "ram_gb": 4,"#))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(eval(&with).storage.cache_bytes, (3 << 30) / 2);
    assert_eq!(eval(&m).storage.cache_bytes, (15 << 30) / 2);
    assert!(
        parse_model(&LOGS.replace(r#""workload": [],"#, r#""workload": [], "ram_gb": 0,"#))
            .is_err()
    );
}

#[test]
fn cli_export_writes_every_file_and_its_manifest() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let out = Command::new(env!("CARGO_BIN_EXE_squillion"))
        .args([
            "export",
            "--preset",
            "social-feed",
            "--design",
            "normalized",
            "--scale",
            "200",
            "--max-documents",
            "300",
            "--json",
            "--out",
        ])
        .arg(dir.path())
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Not a terminal and no --progress: no progress bar.
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let manifest: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
    for f in [
        "user.json",
        "activity.json",
        "setup.js",
        "workload.js",
        "README.md",
        "manifest.json",
    ] {
        assert!(dir.path().join(f).exists(), "{f}");
    }
    assert_eq!(manifest["collections"][0]["documents"], 200);
    assert_eq!(manifest["collections"][1]["documents"], 300);
    let setup = std::fs::read_to_string(dir.path().join("setup.js")).unwrap_or_default();
    assert!(
        setup.contains(r#"sh.shardCollection(db.getName() + "." + "activity", {"author":1});"#),
        "{setup}"
    );
    assert!(setup.contains("$jsonSchema"));
    let workload = std::fs::read_to_string(dir.path().join("workload.js")).unwrap_or_default();
    assert!(
        workload.contains("db.activity.find({ to: ObjectId("),
        "{workload}"
    );
    let bad = Command::new(env!("CARGO_BIN_EXE_squillion"))
        .args(["export", "--preset", "no-such-preset", "--out"])
        .arg(dir.path())
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(bad.status.code(), Some(2));
}

/// Returns the files of zip archive `zip`, read back by Python's zipfile (CRCs checked).
fn unzip(zip: &[u8]) -> Vec<(String, Vec<u8>)> {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join("export.zip");
    std::fs::write(&path, zip).unwrap_or_else(|e| panic!("{e}"));
    let script = [
        "import sys, zipfile",
        "z = zipfile.ZipFile(sys.argv[1])",
        "assert z.testzip() is None",
        "z.extractall(sys.argv[2])",
        "print('\\n'.join(z.namelist()))",
    ]
    .join("\n");
    let out = Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(&path)
        .arg(dir.path().join("files"))
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|name| {
            let bytes = std::fs::read(dir.path().join("files").join(name))
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            (name.to_string(), bytes)
        })
        .collect()
}

/// The page's archive holds exactly the files `squillion export` writes for the same design
/// and sample, byte for byte: one core function writes both.
#[test]
fn the_page_archive_holds_the_files_the_cli_writes() {
    let p = squillion::presets::find("social-feed").unwrap_or_else(|e| panic!("{e}"));
    let m = p.model().unwrap_or_else(|e| panic!("{e}"));
    let archive = squillion::export::export_offered_zip(
        &m,
        "denormalized",
        &EvalOptions::default(),
        squillion::export::PAGE_ARCHIVE_LIMIT,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let files = unzip(&archive.bytes);
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    let mut expected: Vec<String> = archive
        .manifest
        .collections
        .iter()
        .map(|c| c.file.clone())
        .collect();
    expected.extend(squillion::export::SCRIPT_FILES.map(str::to_string));
    assert_eq!(names, expected);
    assert_eq!(archive.manifest.design, "denormalized");
    assert!(archive.manifest.documents() > 0);

    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let out = Command::new(env!("CARGO_BIN_EXE_squillion"))
        .args([
            "export",
            "--preset",
            "social-feed",
            "--design",
            "denormalized",
            "--out",
        ])
        .arg(dir.path())
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for (name, bytes) in &files {
        let written = std::fs::read(dir.path().join(name)).unwrap_or_else(|e| panic!("{e}"));
        assert!(written == *bytes, "{name} differs from the CLI's");
        if name.ends_with(".json") && name != "manifest.json" {
            let lines = String::from_utf8_lossy(bytes);
            let c = archive
                .manifest
                .collections
                .iter()
                .find(|c| c.file == *name)
                .unwrap_or_else(|| panic!("{name} not in the manifest"));
            assert_eq!(lines.lines().count() as u64, c.documents, "{name}");
            assert_eq!(bytes.len() as u64, c.file_bytes, "{name}");
        }
    }
}

/// The page's export is bounded: by the evaluation's memory budget (an explicit sample too
/// big is refused before anything is generated), and by the archive's byte limit.
#[test]
fn the_page_archive_is_bounded() {
    let p = squillion::presets::find("social-feed").unwrap_or_else(|e| panic!("{e}"));
    let m = p.model().unwrap_or_else(|e| panic!("{e}"));
    let huge = EvalOptions {
        max_documents: Some(1_000_000),
        ..EvalOptions::default()
    };
    let e = squillion::export::export_offered_zip(&m, "normalized", &huge, u64::MAX)
        .map(|_| ())
        .unwrap_err();
    assert!(e.to_string().contains("too big to evaluate"), "{e}");
    let e =
        squillion::export::export_offered_zip(&m, "normalized", &EvalOptions::default(), 10_000)
            .map(|_| ())
            .unwrap_err();
    assert!(e.to_string().contains("the archive would pass"), "{e}");
    let e = squillion::export::export_offered_zip(&m, "no-such", &EvalOptions::default(), 1 << 30)
        .map(|_| ())
        .unwrap_err();
    assert!(e.to_string().contains("unknown design"), "{e}");
}

/// Runs `squillion export` with `args` into a fresh folder `out` inside a temporary one;
/// returns the exit code, stderr, and whether `out` exists.
fn export_cli(args: &[&str]) -> (Option<i32>, String, bool, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let out_dir = dir.path().join("out");
    let out = Command::new(env!("CARGO_BIN_EXE_squillion"))
        .arg("export")
        .args(args)
        .arg("--out")
        .arg(&out_dir)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code(), stderr, out_dir.exists(), dir)
}

#[test]
fn the_estimate_is_close_to_what_an_export_writes() {
    // social-feed's designs (buckets of 50 activities, `to` arrays of followers cut at 10,000
    // ids, one copy per follower) and social-graph's followers arrays (zipf up to 50,000,000,
    // cut at 10,000): the estimate within 10% of the bytes really written.
    let graph = squillion::presets::find("social-graph")
        .unwrap_or_else(|e| panic!("{e}"))
        .model()
        .unwrap_or_else(|e| panic!("{e}"));
    for (name, roots, cap) in [
        ("bucketed", Some(1000), 3000),
        ("denormalized", Some(200), 5000),
        ("normalized", Some(1000), 3000),
        ("social-graph", None, 1_000_000),
    ] {
        let m = if name == "social-graph" {
            graph.clone()
        } else {
            design(name)
        };
        let layout = layout_model(&m).unwrap_or_else(|e| panic!("{e}"));
        let scale = Scale::new(&m, roots, cap);
        let est = squillion::export::estimate::estimate(&m, &layout, &scale);
        for (c, e) in layout.collections.iter().zip(&est.collections) {
            let mut sink = std::io::sink();
            let ce = write_collection(&m, &layout, c, &scale, &mut sink, &mut |_| {})
                .unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(e.documents, ce.documents, "{name} {}", c.name);
            let off = e.file_bytes / ce.file_bytes as f64;
            assert!(
                (0.9..=1.1).contains(&off),
                "{name} {}: estimated {} file bytes, wrote {} ({off})",
                c.name,
                e.file_bytes,
                ce.file_bytes
            );
            assert!(e.ejson_per_bson > 1.0, "{}", e.ejson_per_bson);
        }
    }
}

#[test]
fn an_export_past_the_limit_is_refused_before_anything_is_written() {
    // Issue #15: this wrote 13 GB without a word.
    let (code, stderr, written, _dir) = export_cli(&[
        "--preset",
        "social-feed",
        "--design",
        "bucketed",
        "--scale",
        "1000",
    ]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(!written, "the folder was created");
    assert!(
        stderr.contains("the files would take about 12.")
            && stderr.contains(" GiB (1,001,000 documents")
            && stderr.contains("over the limit of 1 GiB a run")
            && stderr.contains("--max-bytes 13GiB"),
        "{stderr}"
    );
    // A small export under the limit is written; a lower limit refuses it, the flag raises
    // it again.
    let small = [
        "--preset",
        "social-feed",
        "--design",
        "bucketed",
        "--scale",
        "100",
        "--max-documents",
        "400",
    ];
    let (code, stderr, written, _dir) = export_cli(&small);
    assert_eq!((code, written), (Some(0), true), "{stderr}");
    let (code, stderr, written, _dir) =
        export_cli(&[&small[..], &["--max-bytes", "64KiB"]].concat());
    assert_eq!((code, written), (Some(2), false), "{stderr}");
    assert!(
        stderr.contains("over the limit of 64 KiB a run"),
        "{stderr}"
    );
    let (code, stderr, written, _dir) =
        export_cli(&[&small[..], &["--max-bytes", "5GiB"]].concat());
    assert_eq!((code, written), (Some(0), true), "{stderr}");
    // A size the flag cannot read is a usage error.
    let (code, stderr, _, _dir) = export_cli(&[&small[..], &["--max-bytes", "lots"]].concat());
    assert_eq!(code, Some(2));
    assert!(stderr.contains("'lots' is not a size"), "{stderr}");
}
