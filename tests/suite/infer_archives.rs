//! `squillion infer` of compressed and archived mongodump output: `mongodump --gzip`'s
//! `.bson.gz` and `.metadata.json.gz` files, and `mongodump --archive` (gzipped or not, from a
//! file or standard input) give the model the same documents give as mongoexport files. The
//! archives are written by a peer, `tests/suite/common/mongodump_archive.py` (pymongo's `bson` and a
//! CRC-64 of its own, after mongo-tools' archive spec); the gzip files by Debian's `gzip`.
#![cfg(not(target_arch = "wasm32"))]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use bson::{doc, oid::ObjectId, Bson, Document};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use crate::common::dump_files;
use crate::common::squillion_cli as cli;
use dump_files::{write_bson, write_json};

fn bin() -> PathBuf {
    env!("CARGO_BIN_EXE_squillion").into()
}

fn path(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

/// Returns users (with arrays of items) and orders referencing them.
fn shop(seed: u64) -> (Vec<Document>, Vec<Document>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut oid = || {
        let mut id = [0u8; 12];
        rng.fill(&mut id);
        ObjectId::from_bytes(id)
    };
    let users: Vec<Document> = (0..60)
        .map(|i| {
            let items: Vec<Bson> = (0..i % 5)
                .map(|k| Bson::Document(doc! {"sku": format!("s{k}"), "qty": k}))
                .collect();
            doc! {"_id": oid(), "name": format!("user{i}"), "items": items}
        })
        .collect();
    let orders: Vec<Document> = (0..240)
        .map(|i| {
            let user = users[(i * 7) % users.len()].get("_id").cloned();
            doc! {"_id": oid(), "user": user, "total": i as f64 * 1.25}
        })
        .collect();
    (users, orders)
}

/// One line of the peer's input: `{"ns", key: value}` as canonical Extended JSON.
fn line(ns: &str, key: &str, value: Bson) -> String {
    let mut d = doc! {"ns": ns};
    d.insert(key, value);
    Bson::Document(d).into_canonical_extjson().to_string() + "\n"
}

/// The metadata mongodump writes for `users`: its indexes.
fn users_metadata() -> Document {
    doc! {"indexes": [
        {"v": 2, "key": {"_id": 1}, "name": "_id_"},
        {"v": 2, "key": {"name": 1}, "name": "name_1", "unique": true},
    ], "collectionName": "users", "type": "collection"}
}

/// Returns the peer's input for the shop in database `db`, with a `system.views` collection
/// (MongoDB's own, passed over).
fn archive_input(db: &str, users: &[Document], orders: &[Document]) -> String {
    let mut s = line(
        &format!("{db}.users"),
        "metadata",
        Bson::Document(users_metadata()),
    );
    for u in users {
        s += &line(&format!("{db}.users"), "doc", Bson::Document(u.clone()));
    }
    for o in orders {
        s += &line(&format!("{db}.orders"), "doc", Bson::Document(o.clone()));
    }
    s += &line(
        &format!("{db}.system.views"),
        "doc",
        Bson::Document(doc! {"_id": format!("{db}.v"), "viewOn": "users", "pipeline": []}),
    );
    s
}

/// Writes an archive at `out` with the peer, from `input` and its `options`.
fn write_archive(out: &Path, input: &str, options: &[&str]) {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/suite/common/mongodump_archive.py"
    );
    let mut child = Command::new("python3")
        .arg(script)
        .arg(out)
        .args(options)
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("python3 with pymongo is needed (scripts/setup.sh): {e}"));
    let mut stdin = child.stdin.take().unwrap_or_else(|| panic!("stdin"));
    stdin
        .write_all(input.as_bytes())
        .unwrap_or_else(|e| panic!("{e}"));
    drop(stdin);
    let done = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
    assert!(
        done.status.success(),
        "the archive peer failed: {}",
        String::from_utf8_lossy(&done.stderr)
    );
}

/// Compresses `file` with Debian's gzip, keeping it; returns `file.gz`.
fn gzip(file: &Path) -> PathBuf {
    let status = Command::new("gzip")
        .args(["-k", "-f"])
        .arg(file)
        .status()
        .unwrap_or_else(|e| panic!("gzip: {e}"));
    assert!(status.success());
    PathBuf::from(format!("{}.gz", file.display()))
}

/// Runs `squillion infer ARGS --json` (exit 0); returns the report and standard error.
fn report(args: &[String]) -> (Value, String) {
    let mut all = vec!["infer".to_string()];
    all.extend_from_slice(args);
    all.push("--json".to_string());
    let out = cli::run(&bin(), &all, &[0]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
    (v["report"].clone(), stderr(&out))
}

/// Returns the collection of each source of an inference's report, in order.
fn collections(report: &Value) -> Vec<&str> {
    report["sources"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s["collection"].as_str())
        .collect()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Returns the model of the shop as mongoexport files.
fn from_json(dir: &Path, users: &[Document], orders: &[Document]) -> squillion::model::Model {
    let (u, o) = (dir.join("users.json"), dir.join("orders.json"));
    write_json(&u, users);
    write_json(&o, orders);
    cli::infer(&bin(), [path(&u), path(&o)], dir).0
}

#[test]
fn an_archive_gives_the_model_of_the_same_documents_as_json() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let (users, orders) = shop(1);
    let want = from_json(dir.path(), &users, &orders);
    let input = archive_input("shop", &users, &orders);
    let archive = dir.path().join("shop.archive");
    write_archive(&archive, &input, &[]);
    let (archived, summary) = cli::infer(&bin(), [path(&archive)], dir.path());
    let mut got = archived.clone();
    // The archive carries users' metadata, the mongoexport files none: its starter workload
    // also reads users by the unique index name_1 (and its description counts one unit
    // more); the rest is the JSON files' model.
    let extra: Vec<&str> = got
        .workload
        .iter()
        .filter(|u| !want.workload.contains(u))
        .map(|u| u.name.as_str())
        .collect();
    assert_eq!(extra, ["read users by name"]);
    got.workload.retain(|u| want.workload.contains(u));
    got.description.clone_from(&want.description);
    assert_eq!(got, want, "the archive's model is the JSON files' model");
    assert!(
        summary.contains("index name_1 on users {name: 1} unique"),
        "{summary}"
    );

    let (r, err) = report(&[path(&archive)]);
    assert!(err.is_empty(), "nothing reported: {err}");
    assert_eq!(r["skipped_lines"], 0, "every CRC matches the peer's");
    let sources: Vec<(String, u64)> = r["sources"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|s| {
            (
                s["collection"].as_str().unwrap_or_default().to_string(),
                s["documents"].as_u64().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        sources,
        [("users".to_string(), 60), ("orders".to_string(), 240)],
        "system.views passed over"
    );

    // Gzipped (mongodump --archive --gzip), and from standard input.
    let zipped = dir.path().join("shop.archive.gz");
    write_archive(&zipped, &input, &["--gzip", "--block", "50"]);
    assert_eq!(cli::infer(&bin(), [path(&zipped)], dir.path()).0, archived);
    let bytes = std::fs::read(&zipped).unwrap_or_else(|e| panic!("{e}"));
    let out_path = dir.path().join("stdin.json");
    let mut child = Command::new(bin())
        .args(["infer", "-", "--out", &path(&out_path)])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    let mut stdin = child.stdin.take().unwrap_or_else(|| panic!("stdin"));
    let writer = std::thread::spawn(move || stdin.write_all(&bytes));
    let out = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
    writer
        .join()
        .unwrap_or_else(|_| panic!("writer"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(&out_path).unwrap_or_else(|e| panic!("{e}"));
    let from_stdin = squillion::model::parse_model(&text).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(
        from_stdin, archived,
        "mongodump --archive --gzip | squillion infer -"
    );
}

#[test]
fn a_gzipped_dump_directory_reads_as_the_plain_one() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let (users, orders) = shop(2);
    let plain = dir.path().join("plain");
    let zipped = dir.path().join("zipped");
    for d in [&plain, &zipped] {
        std::fs::create_dir(d).unwrap_or_else(|e| panic!("{e}"));
        write_bson(&d.join("users.bson"), &users);
        write_bson(&d.join("orders.bson"), &orders);
        let meta = Bson::Document(users_metadata())
            .into_canonical_extjson()
            .to_string();
        std::fs::write(d.join("users.metadata.json"), meta).unwrap_or_else(|e| panic!("{e}"));
    }
    for f in ["users.bson", "orders.bson", "users.metadata.json"] {
        gzip(&zipped.join(f));
        std::fs::remove_file(zipped.join(f)).unwrap_or_else(|e| panic!("{e}"));
    }
    let (a, _) = report(&[path(&plain)]);
    let (b, _) = report(&[path(&zipped)]);
    assert_eq!(a["entities"], b["entities"]);
    assert_eq!(a["relationships"], b["relationships"]);
    assert_eq!(b["indexes"].as_array().map(Vec::len), Some(2), "{b}");
    assert_eq!(b["indexes"][1]["name"], "name_1");
    let names = collections(&b);
    assert_eq!(names, ["orders", "users"], "named without .bson.gz");
    // One gzipped mongoexport file, named without .json.gz.
    let json = dir.path().join("users.json");
    write_json(&json, &users);
    let zipped_json = gzip(&json);
    let (r, _) = report(&[path(&zipped_json)]);
    assert_eq!(r["sources"][0]["collection"], "users");
    assert_eq!(r["sources"][0]["documents"], 60);
    // Cut in half (an interrupted download): the lines before the cut kept, the cut reported.
    let bytes = std::fs::read(&zipped_json).unwrap_or_else(|e| panic!("{e}"));
    let cut = dir.path().join("cut.json.gz");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap_or_else(|e| panic!("{e}"));
    let (r, err) = report(&[path(&cut)]);
    let read = r["sources"][0]["documents"].as_u64().unwrap_or_default();
    assert!(read > 0 && read < 60, "{r}");
    assert_eq!(r["skipped_lines"], 1, "{r}");
    assert!(
        r["skipped"][0]["message"]
            .as_str()
            .unwrap_or_default()
            .starts_with("cannot decompress ("),
        "{r}"
    );
    assert!(err.contains("cut.json.gz: line "), "{err}");
}

#[test]
fn collections_two_databases_share_are_named_with_their_database() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let (users, orders) = shop(3);
    let (users2, _) = shop(4);
    let mut input = archive_input("shop", &users, &orders);
    for u in &users2 {
        input += &line("crm.users", "doc", Bson::Document(u.clone()));
    }
    let archive = dir.path().join("all.archive");
    write_archive(&archive, &input, &[]);
    let (r, _) = report(&[path(&archive)]);
    let names = collections(&r);
    assert_eq!(names, ["shop.users", "orders", "crm.users"]);
}

#[test]
fn a_damaged_archive_is_reported_at_its_byte_and_the_rest_kept() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let (users, orders) = shop(5);
    let input = archive_input("shop", &users, &orders);

    // A CRC that does not match: reported, every document still read.
    let bad = dir.path().join("bad.archive");
    write_archive(&bad, &input, &["--bad-crc", "shop.orders"]);
    let (r, err) = report(&[path(&bad)]);
    assert_eq!(r["skipped_lines"], 1, "{r}");
    let message = r["skipped"][0]["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with("the CRC of shop.orders's documents is ")
            && message.ends_with("some document is damaged (mongorestore refuses this archive)"),
        "{message}"
    );
    assert!(err.contains("bad.archive: byte "), "{err}");
    assert_eq!(r["sources"][1]["documents"], 240);

    // Cut in the middle: the documents before the cut kept, the cut and the unfinished
    // collections reported at the byte where it ends.
    let whole = dir.path().join("whole.archive");
    write_archive(&whole, &input, &[]);
    let bytes = std::fs::read(&whole).unwrap_or_else(|e| panic!("{e}"));
    let cut = dir.path().join("cut.archive");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap_or_else(|e| panic!("{e}"));
    let (r, err) = report(&[path(&cut)]);
    let documents: u64 = r["sources"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s["documents"].as_u64())
        .sum();
    assert!(documents > 0 && documents < 300, "{documents}");
    assert!(
        err.contains("the archive ends before shop.orders's end"),
        "{err}"
    );
    let at = r["skipped"][0]["byte"].as_u64().unwrap_or_default();
    assert!(at > 0 && at < bytes.len() as u64 / 2, "{at}");

    // The same cut of its gzip (an interrupted download): still no panic, the rest kept.
    let zipped = gzip(&whole);
    let zbytes = std::fs::read(&zipped).unwrap_or_else(|e| panic!("{e}"));
    let zcut = dir.path().join("cut.archive.gz");
    std::fs::write(&zcut, &zbytes[..zbytes.len() / 2]).unwrap_or_else(|e| panic!("{e}"));
    let (r, err) = report(&[path(&zcut)]);
    assert!(r["skipped_lines"].as_u64().unwrap_or_default() >= 1, "{r}");
    assert!(err.contains("cut.archive.gz: byte "), "{err}");

    // No archive at all: an error at byte 0, exit 2, nothing written.
    let not = dir.path().join("not.archive");
    std::fs::write(&not, "{\"a\": 1}\n").unwrap_or_else(|e| panic!("{e}"));
    let out = cli::run(&bin(), ["infer".to_string(), path(&not)], &[2]);
    assert!(
        stderr(&out).contains("not.archive: byte 0: not a mongodump archive"),
        "{}",
        stderr(&out)
    );
    // An archive names its own collections.
    let out = cli::run(
        &bin(),
        ["infer".to_string(), format!("{}:x", path(&whole))],
        &[2],
    );
    assert!(
        stderr(&out).contains("an archive's collections are named inside it: drop :x"),
        "{}",
        stderr(&out)
    );
}

/// The peer's archive of the shop (written once for the property test).
fn peer_archive() -> &'static [u8] {
    static BYTES: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    BYTES.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let (users, orders) = shop(6);
        let file = dir.path().join("shop.archive");
        write_archive(
            &file,
            &archive_input("shop", &users, &orders),
            &["--block", "7"],
        );
        std::fs::read(&file).unwrap_or_else(|e| panic!("{e}"))
    })
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(96))]

    /// An archive cut anywhere, with up to 4 bytes changed, is read without a panic: what is
    /// kept is never more than the archive holds, every skip is inside the bytes given, and
    /// the whole archive unchanged reads every document with nothing skipped.
    #[test]
    fn a_damaged_archive_never_panics(
        cut in 0.0f64..=1.0,
        flips in proptest::collection::vec((0.0f64..1.0, 1u8..=255), 0..4),
    ) {
        let whole = peer_archive();
        let mut bytes = whole[..(whole.len() as f64 * cut) as usize].to_vec();
        let len = bytes.len();
        for (at, x) in &flips {
            if let Some(b) = bytes.get_mut((*at * len as f64) as usize) {
                *b ^= x;
            }
        }
        let mut inference = squillion::infer::Inference::new();
        if let Ok(read) = inference.read_archive("p", &bytes[..], &mut |_, _| {}) {
            let documents: u64 = read.iter().map(|s| s.documents).sum();
            proptest::prop_assert!(documents <= 300);
            for s in inference.skipped().0 {
                proptest::prop_assert!(s.byte.unwrap_or_default() <= len as u64);
            }
            if flips.is_empty() && len == whole.len() {
                proptest::prop_assert_eq!(inference.skipped().1, 0);
                proptest::prop_assert_eq!(documents, 300);
            }
        }
        let _ = inference.finish(&std::collections::BTreeMap::new());
    }
}

/// A reader that gives one byte a read, as a slow pipe may.
struct Trickle<'a>(&'a [u8]);

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match (self.0.split_first(), buf.first_mut()) {
            (Some((b, rest)), Some(out)) => {
                *out = *b;
                self.0 = rest;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}

#[test]
fn an_archive_read_a_byte_at_a_time_reads_whole() {
    let mut inference = squillion::infer::Inference::new();
    let read = inference
        .read_archive("trickle", Trickle(peer_archive()), &mut |_, _| {})
        .unwrap_or_else(|e| panic!("{e}"));
    let documents: u64 = read.iter().map(|s| s.documents).sum();
    assert_eq!((documents, inference.skipped().1), (300, 0));
}
