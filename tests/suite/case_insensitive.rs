//! Case-insensitive queries: the engine's collations (find and index), the plans mongod makes
//! for a case-insensitive regex and for a collated equality, the model's `case_insensitive`
//! read and `case_insensitive_index` pattern, and the CASE_INSENSITIVE_WITHOUT_INDEX warning.
//! The folding is checked against ICU itself (Node's `Intl.Collator`, which mongod's collation
//! also runs on) where Node is installed.
#![cfg(not(target_arch = "wasm32"))]

use bson::{doc, Bson, Document};
use squillion::engine::collation::Collation;
use squillion::engine::{Command, Database, FindCommand, IndexOptions};

fn users() -> Database {
    let mut db = Database::new();
    let names = [
        "alice", "Bob", "CAROL", "dave", "Eve", "Zoë", "zoe", "ALICE",
    ];
    let docs: Vec<Document> = names
        .iter()
        .enumerate()
        .map(|(i, n)| doc! { "_id": i as i32, "username": *n })
        .collect();
    db.run(
        "users",
        Command::Insert {
            documents: docs,
            ordered: true,
        },
    )
    .unwrap();
    db
}

fn find(
    db: &Database,
    filter: Document,
    collation: Option<Document>,
) -> (Vec<i32>, String, u64, u64) {
    let r = db
        .find(
            "users",
            &FindCommand {
                filter,
                collation,
                ..Default::default()
            },
        )
        .unwrap();
    let ids = r
        .documents
        .iter()
        .map(|d| d.get_i32("_id").unwrap())
        .collect();
    let plan = r.plan.map(|p| p.to_string()).unwrap_or_default();
    (
        ids,
        plan,
        r.stats.exec.keys_examined,
        r.stats.exec.docs_examined,
    )
}

fn ci() -> Document {
    doc! { "locale": "en", "strength": 2 }
}

fn regex_i(p: &str) -> Bson {
    Bson::RegularExpression(bson::Regex {
        pattern: p.try_into().unwrap(),
        options: "i".try_into().unwrap(),
    })
}

#[test]
fn a_case_insensitive_regex_scans_every_key_or_every_document() {
    let mut db = users();
    // No index on the field: a COLLSCAN of all 8 documents.
    let (ids, plan, keys, docs) = find(&db, doc! { "username": regex_i("^alice$") }, None);
    assert_eq!(ids, vec![0, 7]);
    assert!(plan.contains("COLLSCAN"), "{plan}");
    assert_eq!((keys, docs), (0, 8));
    // An index on the field: an IXSCAN over every string key, ["", {}), and the regex point.
    db.create_index("users", doc! { "username": 1 }, IndexOptions::default())
        .unwrap();
    let (ids, plan, keys, docs) = find(&db, doc! { "username": regex_i("^alice$") }, None);
    assert_eq!(ids.len(), 2);
    assert!(plan.contains("IXSCAN"), "{plan}");
    assert!(plan.contains("[\"\", {})"), "{plan}");
    assert_eq!((keys, docs), (8, 8));
    // A simple prefix regex keeps its tight bounds.
    let (_, plan, keys, _) = find(&db, doc! { "username": regex_i("^ali").clone() }, None);
    assert!(plan.contains("IXSCAN"), "{plan}");
    assert_eq!(keys, 8, "case-insensitive: no prefix bounds");
    let prefix = Bson::RegularExpression(bson::Regex {
        pattern: "^ali".try_into().unwrap(),
        options: "".try_into().unwrap(),
    });
    // ["ali", "alj"): "alice" and the key that ends the range, as mongod counts them.
    let (ids, _, keys, _) = find(&db, doc! { "username": prefix }, None);
    assert_eq!((ids, keys), (vec![0], 2));
}

#[test]
fn a_collated_equality_uses_only_the_index_with_its_collation() {
    let mut db = users();
    db.create_index("users", doc! { "username": 1 }, IndexOptions::default())
        .unwrap();
    // Under the collation, the plain index cannot bound strings: a COLLSCAN.
    let (ids, plan, _, docs) = find(&db, doc! { "username": "ALICE" }, Some(ci()));
    assert_eq!(ids, vec![0, 7]);
    assert!(plan.contains("COLLSCAN"), "{plan}");
    assert_eq!(docs, 8);
    let opts = IndexOptions {
        name: Some("username_ci".into()),
        collation: Some(Collation::parse(&ci()).unwrap()),
        ..Default::default()
    };
    db.create_index("users", doc! { "username": 1 }, opts)
        .unwrap();
    let (ids, plan, keys, docs) = find(&db, doc! { "username": "ALICE" }, Some(ci()));
    assert_eq!(ids, vec![0, 7]);
    assert!(plan.contains("username_ci"), "{plan}");
    assert_eq!((keys, docs), (2, 2));
    // Without the collation, the plain index answers exactly (case-sensitive).
    let (ids, plan, keys, _) = find(&db, doc! { "username": "ALICE" }, None);
    assert_eq!(ids, vec![7]);
    assert!(plan.contains("username_1"), "{plan}");
    assert_eq!(keys, 1);
    // Strength 2 keeps accents; strength 1 drops them (no index at strength 1: a scan).
    let (ids, _, _, _) = find(&db, doc! { "username": "ZOE" }, Some(ci()));
    assert_eq!(ids, vec![6]);
    let (ids, _, _, _) = find(
        &db,
        doc! { "username": "ZOE" },
        Some(doc! { "locale": "en", "strength": 1 }),
    );
    assert_eq!(ids, vec![5, 6]);
    // A case-insensitive unique index refuses a name that differs only by case.
    let unique = IndexOptions {
        name: Some("u".into()),
        unique: true,
        collation: Some(Collation::parse(&ci()).unwrap()),
        ..Default::default()
    };
    let mut fresh = Database::new();
    fresh
        .create_index("users", doc! { "username": 1 }, unique)
        .unwrap();
    fresh
        .insert_one("users", doc! { "username": "Alice" })
        .unwrap();
    let e = fresh
        .insert_one("users", doc! { "username": "ALICE" })
        .unwrap_err();
    assert_eq!(e.code, 11000);
}

#[test]
fn the_console_reads_collations() {
    let mut db = users();
    let run = |db: &mut Database, code: &str| {
        squillion::console::execute(db, code).unwrap_or_else(|e| panic!("{code}: {e}"))
    };
    run(
        &mut db,
        "db.users.createIndex({ username: 1 }, { name: 'ci', collation: { locale: 'en', strength: 2 } })",
    );
    let out = format!(
        "{:?}",
        run(&mut db, "db.users.find({ username: 'bob' }).collation({ locale: 'en', strength: 2 }).explain('executionStats')")
    );
    assert!(out.contains("ci"), "{out}");
    let n = format!(
        "{:?}",
        run(&mut db, "db.users.find({ username: 'carol' }, {}, { collation: { locale: 'en', strength: 2 } }).count()")
    );
    assert!(n.contains('1'), "{n}");
}

#[test]
fn the_model_validates_case_insensitive_reads() {
    let model = |step: &str, pattern: &str| {
        format!(
            r#"{{"name": "m", "entities": [{{"name": "user", "count": 100, "fields": {{"username": {{"type": "string"}}}}}}],
            "workload": [{{"name": "sign in", "rate_per_sec": 1, "steps": [{step}]}}],
            "design": {{"fields": [{pattern}]}}}}"#
        )
    };
    let ok = model(
        r#"{"op": "read", "entity": "user", "by": "username", "case_insensitive": true}"#,
        r#"{"pattern": "case_insensitive_index", "entity": "user", "field": "username"}"#,
    );
    squillion::model::parse_model(&ok).unwrap();
    let by_id = model(
        r#"{"op": "read", "entity": "user", "case_insensitive": true}"#,
        "",
    );
    let e = squillion::model::parse_model(&by_id)
        .unwrap_err()
        .to_string();
    assert!(e.contains("case_insensitive"), "{e}");
    let no_field = model(
        r#"{"op": "read", "entity": "user", "by": "username", "case_insensitive": "yes"}"#,
        r#"{"pattern": "case_insensitive_index", "entity": "user", "field": "nickname"}"#,
    );
    let e = squillion::model::parse_model(&no_field)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("case_insensitive") && e.contains("nickname"),
        "{e}"
    );
}

/// Strings whose equality under strength 1 and 2 ICU decides (Node's `Intl.Collator` with
/// sensitivity `base` and `accent`), compared with the engine's folding.
const CORPUS: &[&str] = &[
    "alice",
    "ALICE",
    "Alice",
    "alicé",
    "ALICÉ",
    "resume",
    "Résumé",
    "RÉSUMÉ",
    "naïve",
    "NAIVE",
    "Zoë",
    "zoe",
    "ÇA",
    "ça",
    "ca",
    "Ñandú",
    "nandu",
    "ΑΒΓ",
    "αβγ",
    "МОСКВА",
    "москва",
    "Øre",
    "ore",
    "Straße",
    "STRASSE",
    "İstanbul",
    "istanbul",
    "ǅ",
    "dž",
];

/// Pairs where the simple folding departs from ICU, with the reason (docs/engine.md).
const ICU_DEPARTURES: &[(&str, &str, &str)] = &[
    (
        "ǅ",
        "dž",
        "ICU decomposes the digraph ǅ into d + ž; to_lowercase gives the one letter ǆ",
    ),
    (
        "Straße",
        "STRASSE",
        "at strength 1 ICU compares ß as ss; to_lowercase keeps ß",
    ),
    (
        "İstanbul",
        "istanbul",
        "at strength 1 ICU compares İ as i (the dot an accent); to_lowercase gives i + U+0307",
    ),
];

#[test]
fn folding_agrees_with_icu_except_the_listed_departures() {
    let script = format!(
        "const c = {corpus}; const out = [];
         for (const s of ['base', 'accent']) {{ const k = new Intl.Collator('en', {{ sensitivity: s }});
           for (const a of c) for (const b of c) out.push(k.compare(a, b) === 0 ? 1 : 0); }}
         console.log(JSON.stringify(out));",
        corpus = serde_json::to_string(CORPUS).unwrap()
    );
    let Ok(out) = std::process::Command::new("node")
        .arg("-e")
        .arg(&script)
        .output()
    else {
        eprintln!("node not found: ICU comparison skipped");
        return;
    };
    let icu: Vec<u8> = serde_json::from_slice(&out.stdout).expect("node output");
    let mut i = 0;
    let mut disagreements = Vec::new();
    for strength in [1, 2] {
        let c = Collation::parse(&doc! { "locale": "en", "strength": strength }).unwrap();
        for a in CORPUS {
            for b in CORPUS {
                let ours = c.fold_str(a) == c.fold_str(b);
                let theirs = icu[i] == 1;
                i += 1;
                let listed = ICU_DEPARTURES
                    .iter()
                    .any(|(x, y, _)| (x == a && y == b) || (x == b && y == a));
                if ours != theirs && !listed {
                    disagreements.push(format!(
                        "strength {strength}: {a:?} vs {b:?}: ICU {theirs}, engine {ours}"
                    ));
                }
            }
        }
    }
    assert!(disagreements.is_empty(), "{disagreements:#?}");
}

/// Runs `squillion export --preset P --design D` into a temporary folder; returns its setup.js.
fn exported_setup(preset: &str, design: &str) -> (String, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_squillion"))
        .args([
            "export",
            "--preset",
            preset,
            "--design",
            design,
            "--max-documents",
            "300",
        ])
        .arg("--out")
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let setup = std::fs::read_to_string(dir.path().join("setup.js")).unwrap();
    (setup, dir)
}

#[test]
fn export_creates_the_time_series_and_the_case_insensitive_index() {
    let (ts, ts_dir) = exported_setup("host-logs", "time-series");
    assert!(
        ts.contains(r#"db.createCollection("logmsg", {"timeseries":{"timeField":"time","metaField":"meta","granularity":"seconds"}});"#),
        "{ts}"
    );
    assert!(!ts.contains("createCollection(\"system."), "{ts}");
    let (ci, ci_dir) = exported_setup("game-inventory", "case_insensitive");
    assert!(
        ci.contains(r#"db.getCollection("player").createIndex({"username":1}, { name: "username_1_ci", collation: {"locale":"en","strength":2} });"#),
        "{ci}"
    );
    // What mongod would accept, checked without a server by scripts/export-check.mjs (npm bson,
    // ajv, and setup.js run against a stand-in db), where Node and the npm packages are.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    if !root.join("node_modules/bson").exists() {
        eprintln!("node_modules missing: export-check skipped");
        return;
    }
    let out = std::process::Command::new("node")
        .arg(root.join("scripts/export-check.mjs"))
        .arg(ts_dir.path())
        .arg(ci_dir.path())
        .current_dir(root)
        .output();
    if let Ok(out) = out {
        assert!(
            out.status.success(),
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
