//! Peer check of `squillion infer` against npm `mongodb-schema` (the analyzer behind Compass's
//! schema tab): on the same few thousand seeded documents (several types per field, missing
//! fields and nulls, nested objects, arrays of values and of sub-documents, arrays in arrays'
//! sub-documents), every field path both report has the same presence, the same types with
//! the same probabilities, and the same array lengths (smallest, largest, elements in all).
//!
//! Needs Node.js and `npm ci --prefix tests/differential`.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use bson::{doc, oid::ObjectId, Binary, Bson, DateTime, Decimal128, Document};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

/// Documents generated.
const DOCUMENTS: usize = 3000;

/// Returns a random document: each field present, missing or of another type by chance.
fn document(rng: &mut ChaCha8Rng) -> Document {
    let mut d = Document::new();
    let mut id = [0u8; 12];
    rng.fill(&mut id);
    d.insert("_id", ObjectId::from_bytes(id));
    let roll: f64 = rng.random();
    if roll < 0.55 {
        d.insert("n", rng.random_range(0..1000i32));
    } else if roll < 0.8 {
        d.insert("n", rng.random_range(0.0..1.0f64));
    } else if roll < 0.92 {
        d.insert("n", "seven");
    }
    let roll: f64 = rng.random();
    if roll < 0.85 {
        let len = rng.random_range(0..20usize);
        d.insert("name", "x".repeat(len));
    } else if roll < 0.93 {
        d.insert("name", Bson::Null);
    }
    if rng.random_bool(0.5) {
        d.insert("big", rng.random_range(0..i64::MAX / 2));
    }
    if rng.random_bool(0.3) {
        let price: Decimal128 = format!(
            "{}.{:02}",
            rng.random_range(0..500),
            rng.random_range(0..100)
        )
        .parse()
        .unwrap_or_else(|e| panic!("{e}"));
        d.insert("price", price);
    }
    if rng.random_bool(0.8) {
        d.insert("flag", rng.random_bool(0.5));
    }
    if rng.random_bool(0.7) {
        d.insert(
            "at",
            DateTime::from_millis(1_700_000_000_000 + rng.random_range(0..10_000_000_000i64)),
        );
    }
    if rng.random_bool(0.2) {
        let len = rng.random_range(0..64usize);
        d.insert(
            "bin",
            Binary {
                subtype: bson::spec::BinarySubtype::Generic,
                bytes: vec![7; len],
            },
        );
    }
    let roll: f64 = rng.random();
    if roll < 0.8 {
        let tags: Vec<Bson> = (0..rng.random_range(0..7))
            .map(|i| {
                if rng.random_bool(0.7) {
                    Bson::String(format!("t{i}"))
                } else {
                    Bson::Int32(i)
                }
            })
            .collect();
        d.insert("tags", tags);
    } else if roll < 0.85 {
        d.insert("tags", "solo");
    }
    let roll: f64 = rng.random();
    if roll < 0.65 {
        let mut meta = doc! {"a": rng.random_range(0..10i32)};
        if rng.random_bool(0.6) {
            meta.insert("b", "bee");
        }
        if rng.random_bool(0.5) {
            let mut inner = Document::new();
            if rng.random_bool(0.7) {
                inner.insert("c", rng.random_bool(0.5));
            }
            meta.insert("inner", inner);
        }
        d.insert("meta", meta);
    } else if roll < 0.72 {
        d.insert("meta", Bson::Null);
    }
    if rng.random_bool(0.6) {
        let items: Vec<Bson> = (0..rng.random_range(1..5))
            .map(|_| {
                let mut item = doc! {"sku": format!("s{}", rng.random_range(0..99))};
                if rng.random_bool(0.75) {
                    item.insert("qty", rng.random_range(1..9i32));
                }
                if rng.random_bool(0.5) {
                    let opts: Vec<Bson> = (0..rng.random_range(0..4)).map(Bson::Int32).collect();
                    item.insert("opts", opts);
                }
                Bson::Document(item)
            })
            .collect();
        d.insert("items", items);
    }
    d
}

/// Runs `squillion infer FILE --json --out model.json` and returns the report's field rows of
/// the one collection, by path.
fn ours(file: &Path, dir: &Path) -> BTreeMap<String, Value> {
    let out = Command::new(env!("CARGO_BIN_EXE_squillion"))
        .arg("infer")
        .arg(file)
        .arg("--json")
        .arg("--out")
        .arg(dir.join("model.json"))
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
    let entity = &v["report"]["entities"][0];
    assert_eq!(entity["documents"], DOCUMENTS as u64);
    entity["fields"]
        .as_array()
        .unwrap_or_else(|| panic!("no fields"))
        .iter()
        .map(|f| {
            (
                f["path"].as_str().unwrap_or_default().to_string(),
                f.clone(),
            )
        })
        .collect()
}

/// Runs mongodb-schema on FILE (tests/differential/schema.mjs) and returns its fields by path.
fn theirs(file: &Path) -> BTreeMap<String, Value> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/differential");
    assert!(
        dir.join("node_modules/mongodb-schema").exists(),
        "mongodb-schema is not installed: run `npm ci --prefix tests/differential` (needs Node.js)"
    );
    let out = Command::new("node")
        .arg(dir.join("schema.mjs"))
        .arg(file)
        .output()
        .unwrap_or_else(|e| panic!("cannot run node ({e}): install Node.js and run `npm ci --prefix tests/differential`"));
    assert!(
        out.status.success(),
        "node failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(v["count"], DOCUMENTS as u64);
    v["fields"]
        .as_object()
        .unwrap_or_else(|| panic!("no fields"))
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// Returns true when two probabilities are equal but for floating-point rounding.
fn same(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn field_types_and_probabilities_match_mongodb_schema() {
    let mut rng = ChaCha8Rng::seed_from_u64(18);
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let file = dir.path().join("peer.json");
    let lines: Vec<String> = (0..DOCUMENTS)
        .map(|_| {
            Bson::Document(document(&mut rng))
                .into_canonical_extjson()
                .to_string()
        })
        .collect();
    std::fs::write(&file, lines.join("\n") + "\n").unwrap_or_else(|e| panic!("{e}"));
    let ours = ours(&file, dir.path());
    let theirs = theirs(&file);
    let mut problems = Vec::new();
    let mut checked = 0;
    for (path, t) in &theirs {
        let Some(o) = ours.get(path) else {
            problems.push(format!(
                "{path}: mongodb-schema reports it, squillion does not"
            ));
            continue;
        };
        checked += 1;
        let presence = o["presence"].as_f64().unwrap_or(f64::NAN);
        let probability = t["probability"].as_f64().unwrap_or(f64::NAN);
        if !same(presence, probability) {
            problems.push(format!(
                "{path}: presence {presence} vs probability {probability}"
            ));
        }
        // mongodb-schema's type probability is of the enclosing documents; ours is a share
        // of the values seen: times the presence.
        let our_types: BTreeMap<String, f64> = o["types"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|s| {
                let share = s["share"].as_f64().unwrap_or(f64::NAN);
                (
                    s["type"].as_str().unwrap_or_default().to_string(),
                    share * presence,
                )
            })
            .collect();
        let their_types: BTreeMap<String, f64> = t["types"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(k, v)| (k.clone(), v.as_f64().unwrap_or(f64::NAN)))
            .collect();
        let names = |m: &BTreeMap<String, f64>| m.keys().cloned().collect::<Vec<_>>();
        if names(&our_types) != names(&their_types) {
            problems.push(format!(
                "{path}: types {:?} vs {:?}",
                names(&our_types),
                names(&their_types)
            ));
        }
        for (ty, p) in &their_types {
            if let Some(q) = our_types.get(ty) {
                if !same(*p, *q) {
                    problems.push(format!("{path}: {ty} probability {q} vs {p}"));
                }
            }
        }
        if let Some(l) = t.get("lengths") {
            let c = &o["count"];
            let (values, mean) = (
                c["values"].as_f64().unwrap_or(0.0),
                c["mean"].as_f64().unwrap_or(0.0),
            );
            let total = l["total"].as_f64().unwrap_or(f64::NAN);
            // An array moved out into a child entity counts its missing arrays as 0 elements:
            // compare the elements in all, and the extremes of the arrays themselves.
            if (values * mean - total).abs() > 1e-6 * total.max(1.0) {
                problems.push(format!("{path}: {} elements vs {total}", values * mean));
            }
            if c["max"] != l["max"] {
                problems.push(format!(
                    "{path}: longest array {} vs {}",
                    c["max"], l["max"]
                ));
            }
            if values == l["arrays"].as_f64().unwrap_or(f64::NAN) && c["min"] != l["min"] {
                problems.push(format!(
                    "{path}: shortest array {} vs {}",
                    c["min"], l["min"]
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} of {checked} paths differ:\n{}",
        problems.len(),
        problems.join("\n")
    );
    assert!(checked >= 20, "only {checked} paths compared");
}
