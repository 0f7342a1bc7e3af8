//! The starter workload `squillion infer` proposes (a dump holds no operations): a read by
//! each index of a mongodump's `.metadata.json`, a read of each parent with its children, an
//! insert of each child, every unit listed as assumed in the report; on MongoDB's
//! sample_analytics shape (`tests/fixtures/infer/sample_analytics`) as mongoexport and as a
//! mongodump directory, and on a SQL dump made by sqlite3.
#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};

use crate::common::infer_json;
use infer_json::{infer, squillion};
use serde_json::Value;
use squillion::model::Step;

use crate::common::dump_files;
use dump_files::write_bson;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/infer/sample_analytics")
}

fn path(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

/// The report's assumed units as `(unit, reason, index)`.
fn assumed(report: &Value) -> Vec<(String, String, Option<String>)> {
    report["workload"]
        .as_array()
        .unwrap_or_else(|| panic!("no workload in {report:#}"))
        .iter()
        .map(|u| {
            (
                u["unit"].as_str().unwrap_or_default().to_string(),
                u["reason"].as_str().unwrap_or_default().to_string(),
                u["index"].as_str().map(str::to_string),
            )
        })
        .collect()
}

/// Evaluates `model_path` under its own design: exit 0 and one report row per unit.
fn evaluates(model_path: &Path, units: usize) {
    let p = path(model_path);
    let out = squillion(&["eval", &p, "--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
    let ops = v["units"]
        .as_array()
        .or_else(|| v["operations"].as_array())
        .map_or(0, Vec::len);
    assert_eq!(ops, units, "{v:#}");
}

fn sample_analytics_json() -> Vec<String> {
    ["accounts.json", "customers.json", "transactions.json"]
        .iter()
        .map(|n| path(&fixture().join(n)))
        .collect()
}

#[test]
fn every_parent_is_read_with_its_children_and_every_child_inserted() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let (report, model) = infer(&sample_analytics_json(), dir.path());
    // Every relationship the data has (tests/suite/infer_keys.rs checks them against the data): a
    // parent read per parent entity, its children through each of its relationships.
    let mut parents: Vec<&str> = model
        .relationships
        .iter()
        .map(|r| r.parent.as_str())
        .collect();
    parents.sort_unstable();
    parents.dedup();
    assert_eq!(parents, ["accounts", "customers", "transactions"]);
    for p in &parents {
        let unit = model
            .workload
            .iter()
            .find(|u| u.name == format!("read {p} with its children"))
            .unwrap_or_else(|| panic!("no read of {p}: {:#?}", model.workload));
        assert_eq!(unit.rate_per_sec, 10.0);
        let Some(Step::Read {
            entity,
            by,
            children,
            ..
        }) = unit.steps.first()
        else {
            panic!("{unit:?}")
        };
        assert_eq!((entity.as_str(), by.as_str()), (*p, "_id"));
        let mut got: Vec<&str> = children.iter().map(|c| c.relationship.as_str()).collect();
        let mut want: Vec<&str> = model
            .relationships
            .iter()
            .filter(|r| r.parent == *p)
            .map(|r| r.name.as_str())
            .collect();
        got.sort_unstable();
        want.sort_unstable();
        assert_eq!(got, want, "{p}");
    }
    // customers → tier_and_detail (the map) and → accounts (by account_id).
    let customers = model
        .workload
        .iter()
        .find(|u| u.name == "read customers with its children")
        .unwrap_or_else(|| panic!("customers"));
    assert!(
        matches!(customers.steps.first(), Some(Step::Read { children, .. }) if children.len() == 2)
    );
    for r in &model.relationships {
        let unit = model
            .workload
            .iter()
            .find(|u| {
                matches!(u.steps.first(), Some(Step::InsertChild { relationship }) if *relationship == r.name)
            })
            .unwrap_or_else(|| panic!("no insert into {}", r.name));
        assert_eq!(unit.rate_per_sec, 1.0);
    }
    // No index in a mongoexport: no read by index. Every unit is listed as assumed.
    let rows = assumed(&report);
    assert_eq!(rows.len(), model.workload.len());
    assert!(rows.iter().all(|(_, why, _)| why != "index"), "{rows:?}");
    for (u, (name, ..)) in model.workload.iter().zip(&rows) {
        assert_eq!(&u.name, name);
    }
    assert!(model
        .description
        .as_deref()
        .is_some_and(|d| d.contains("workload (7 units) is assumed")));
    evaluates(&dir.path().join("model.json"), model.workload.len());
}

/// mongodump's `.metadata.json` as mongodump 100.x writes it (canonical Extended JSON).
fn metadata(collection: &str, indexes: &[(&str, &str, bool)]) -> String {
    let mut all = vec![
        r#"{"v":{"$numberInt":"2"},"key":{"_id":{"$numberInt":"1"}},"name":"_id_"}"#.to_string(),
    ];
    for (name, field, unique) in indexes {
        let unique = if *unique { r#","unique":true"# } else { "" };
        all.push(format!(
            r#"{{"v":{{"$numberInt":"2"}},"key":{{"{field}":{{"$numberInt":"1"}}}},"name":"{name}"{unique}}}"#
        ));
    }
    format!(
        r#"{{"indexes":[{}],"uuid":"0f0e0d0c0b0a09080706050403020100","collectionName":"{collection}","type":"collection"}}"#,
        all.join(",")
    )
}

#[test]
fn a_dump_directory_gives_one_read_per_index_of_its_metadata() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let db = dir.path().join("sample_analytics");
    std::fs::create_dir(&db).unwrap_or_else(|e| panic!("{e}"));
    for name in ["accounts", "customers", "transactions"] {
        let text = std::fs::read_to_string(fixture().join(format!("{name}.json")))
            .unwrap_or_else(|e| panic!("{e}"));
        let docs: Vec<bson::Document> = text
            .lines()
            .map(|l| squillion::ejson::parse_document(l).unwrap_or_else(|e| panic!("{e}")))
            .collect();
        write_bson(&db.join(format!("{name}.bson")), &docs);
    }
    let write = |name: &str, text: String| {
        std::fs::write(db.join(format!("{name}.metadata.json")), text)
            .unwrap_or_else(|e| panic!("{e}"))
    };
    write(
        "accounts",
        metadata("accounts", &[("account_id_1", "account_id", true)]),
    );
    write(
        "customers",
        metadata(
            "customers",
            &[
                ("username_1", "username", true),
                ("email_1", "email", false),
            ],
        ),
    );
    // An index on a reference: the field became the relationship (read with the parent).
    write(
        "transactions",
        metadata("transactions", &[("account_id_1", "account_id", false)]),
    );
    let (report, model) = infer(&[path(&db)], dir.path());
    let rows = assumed(&report);
    let by_index: Vec<(&str, Option<&str>)> = rows
        .iter()
        .filter(|(_, why, _)| why == "index")
        .map(|(u, _, i)| (u.as_str(), i.as_deref()))
        .collect();
    assert_eq!(
        by_index,
        [
            ("read accounts by account_id", Some("account_id_1")),
            ("read customers by username", Some("username_1")),
            ("read customers by email", Some("email_1")),
        ]
    );
    let email = model
        .workload
        .iter()
        .find(|u| u.name == "read customers by email")
        .unwrap_or_else(|| panic!("email"));
    assert!(matches!(
        email.steps.first(),
        Some(Step::Read { entity, by, children, .. })
            if entity == "customers" && by == "email" && children.is_empty()
    ));
    // The relationships are those of the mongoexport: 3 reads with children, 4 inserts.
    assert_eq!(rows.len(), 3 + 3 + 4, "{rows:?}");
    evaluates(&dir.path().join("model.json"), rows.len());
    // The summary says so.
    let p = path(&db);
    let out = squillion(&["infer", &p]);
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(
        text.contains(
            "assumed workload: read customers by username, 10/s (the query index username_1 serves;"
        ),
        "{text}"
    );
    let out = squillion(&["infer", &p, "--lang", "zh-CN"]);
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(
        text.contains(
            "假设的工作负载：按 username 读取 customers，10/s（索引 username_1 所服务的查询；"
        ),
        "{text}"
    );
}

#[test]
fn a_sqlite3_dump_gets_the_same_starter_workload() {
    // Made by sqlite3 `.dump` (tests/fixtures/sql): customers → orders → order_items,
    // products → order_items, actor ↔ film through film_actor.
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let dump =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sql/sqlite-store.dump.sql");
    let (report, model) = infer(&[path(&dump)], dir.path());
    let rows = assumed(&report);
    let reads: Vec<&str> = rows
        .iter()
        .filter(|(_, why, _)| why == "parent_with_children")
        .map(|(u, ..)| u.as_str())
        .collect();
    assert_eq!(
        reads,
        [
            "read customers with its children",
            "read products with its children",
            "read orders with its children",
            "read actor with its children",
        ]
    );
    let inserts = rows
        .iter()
        .filter(|(_, why, _)| why == "insert_child")
        .count();
    assert_eq!(inserts, model.relationships.len());
    assert_eq!(model.workload.len(), rows.len());
    evaluates(&dir.path().join("model.json"), rows.len());
}
