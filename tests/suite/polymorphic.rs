//! The polymorphic pattern (issue #20 item 3): books, movies and albums in one collection
//! (`tests/models/media.json`, design `polymorphic: {product: [book, movie, album]}`), every
//! document tagged with its type. Checked here: the layout (one collection, three shapes,
//! `type` after `_id`), the queries naming their type, the partial indexes per type that hold
//! only their type's documents (smaller than a full index on the same field), the engine's
//! partial-index semantics as mongod documents them (a query that does not imply the filter
//! cannot use the index), sizes against pymongo, the export's `partialFilterExpression`, and
//! validation of the groups.
#![cfg(not(target_arch = "wasm32"))]

use crate::common::pymongo;

use bson::{doc, Document};
use squillion::design::Layout;
use squillion::engine::{Database, FindCommand, IndexOptions};
use squillion::eval::{evaluate, Design, EvalOptions};
use squillion::generate::generate;
use squillion::model::{parse_model, Model};
use squillion::size::document_size;
use std::process::Command;

fn media() -> Model {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/models/media.json"
    ))
    .unwrap_or_else(|e| panic!("{e}"));
    parse_model(&text).unwrap_or_else(|e| panic!("{e:?}"))
}

#[test]
fn three_entities_share_one_collection_each_tagged_with_its_type() {
    let m = media();
    let layout = Layout::build(&m, &m.design).unwrap();
    let names: Vec<&str> = layout.collections.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["product"]);
    let c = layout.collection("product").unwrap();
    let labels: Vec<&str> = c.shapes.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(labels, ["book", "movie", "album"]);
    for s in &c.shapes {
        let first: Vec<&str> = s.fields.iter().take(2).map(|(n, _)| n.as_str()).collect();
        assert_eq!(first, ["_id", "type"], "{}", s.label);
        assert_eq!(s.fields.get("type").unwrap().values, vec![s.label.clone()]);
    }
    assert_eq!(c.count(), 1_000_000.0);
    // Every query on one type's own fields names the type; each index is partial on it.
    for u in &layout.plan.units {
        for cmd in u.commands.iter().filter(|c| !c.filter.is_empty()) {
            assert!(
                cmd.filter.contains_key("type"),
                "{}: {}",
                u.unit,
                cmd.mongosh()
            );
        }
    }
    let partial: Vec<(Document, Option<Document>)> = c
        .indexes
        .iter()
        .map(|i| (i.keys.clone(), i.partial.clone()))
        .collect();
    assert_eq!(
        partial,
        [
            (doc! { "isbn": 1 }, Some(doc! { "type": "book" })),
            (
                doc! { "director": 1, "title": 1 },
                Some(doc! { "type": "movie" })
            ),
            (
                doc! { "artist": 1, "title": 1 },
                Some(doc! { "type": "album" })
            ),
        ]
    );
    assert_eq!(
        c.indexes[0].mongosh(),
        "db.product.createIndex({ isbn: 1 }, { partialFilterExpression: { type: \"book\" } })"
    );
    // The generated documents: each type with its own fields only.
    let data = generate(&m, &layout);
    let docs = &data.collection("product").unwrap().documents;
    for d in docs {
        match d.get_str("type").unwrap() {
            "book" => assert!(d.contains_key("isbn") && !d.contains_key("director")),
            "movie" => assert!(d.contains_key("director") && !d.contains_key("isbn")),
            "album" => assert!(d.contains_key("artist") && !d.contains_key("isbn")),
            other => panic!("type {other}"),
        }
    }
}

#[test]
fn a_partial_index_holds_only_its_type_and_answers_only_queries_that_name_it() {
    let m = media();
    let e = evaluate(&m, &Design::Model, &EvalOptions::default()).unwrap();
    let c = &e.collections[0];
    let isbn = c.indexes.iter().find(|i| i.name == "isbn_1").unwrap();
    let id = c.indexes.iter().find(|i| i.name == "_id_").unwrap();
    // At full scale: the 600,000 books, not the 1,000,000 documents the `_id` index holds.
    assert_eq!(isbn.keys_full.value, 600_000.0);
    assert_eq!(id.keys_full.value, 1_000_000.0);
    assert_eq!(isbn.partial, Some(serde_json::json!({ "type": "book" })));
    // The read uses it, examining one key.
    let read = e
        .operations
        .iter()
        .find(|o| o.unit == "book by isbn")
        .unwrap();
    assert_eq!(read.typical.commands[0].plan, "isbn_1");
    assert_eq!(read.typical.total.keys_examined.value, 1.0);
    // On the engine, against a full index on the same field of the same documents: the
    // partial one holds the books' keys only (a full one a null key for every movie and
    // album too), and a query that does not name the type cannot use it (mongod: the query
    // must imply the partialFilterExpression).
    let layout = Layout::build(&m, &m.design).unwrap();
    let data = generate(&m, &layout);
    let docs = data.collection("product").unwrap().documents.clone();
    let books = docs
        .iter()
        .filter(|d| d.get_str("type").ok() == Some("book"))
        .count();
    let mut db = Database::new();
    db.create_index(
        "p",
        doc! { "isbn": 1 },
        IndexOptions {
            partial_filter_expression: Some(doc! { "type": "book" }),
            ..Default::default()
        },
    )
    .unwrap();
    db.create_index("f", doc! { "isbn": 1 }, IndexOptions::default())
        .unwrap();
    db.insert_many("p", docs.clone(), true).unwrap();
    db.insert_many("f", docs.clone(), true).unwrap();
    let entries = |coll: &str| {
        db.collection(coll)
            .unwrap()
            .indexes()
            .iter()
            .find(|i| i.spec.name == "isbn_1")
            .unwrap()
            .entries
            .len()
    };
    assert_eq!(entries("p"), books);
    assert_eq!(entries("f"), docs.len());
    assert!(books * 3 < docs.len() * 2);
    let isbn = docs
        .iter()
        .find(|d| d.get_str("type").ok() == Some("book"))
        .and_then(|d| d.get("isbn"))
        .cloned()
        .unwrap();
    let find = |filter: Document| {
        db.find(
            "p",
            &FindCommand {
                filter,
                ..Default::default()
            },
        )
        .unwrap()
    };
    let typed = find(doc! { "isbn": isbn.clone(), "type": "book" });
    assert_eq!(typed.plan.as_ref().unwrap().access(), "isbn_1");
    assert_eq!(typed.documents.len(), 1);
    let untyped = find(doc! { "isbn": isbn });
    assert_ne!(untyped.plan.as_ref().unwrap().access(), "isbn_1");
    assert_eq!(untyped.documents.len(), 1);
}

#[test]
fn polymorphic_document_sizes_equal_pymongo() {
    let m = media();
    let layout = Layout::build(&m, &m.design).unwrap();
    let data = generate(&m, &layout);
    let docs = &data.collection("product").unwrap().documents;
    let mut picked: Vec<Document> = Vec::new();
    for t in ["book", "movie", "album"] {
        picked.extend(
            docs.iter()
                .filter(|d| d.get_str("type").ok() == Some(t))
                .take(2)
                .cloned(),
        );
    }
    let ours: Vec<u64> = picked.iter().map(document_size).collect();
    assert_eq!(pymongo::sizes(&picked), ours);
}

#[test]
fn the_export_creates_the_partial_indexes() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let out_dir = dir.path().join("out");
    let out = Command::new(env!("CARGO_BIN_EXE_squillion"))
        .args([
            "export",
            concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/media.json"),
        ])
        .arg("--out")
        .arg(&out_dir)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let setup = std::fs::read_to_string(out_dir.join("setup.js")).unwrap_or_default();
    assert!(
        setup.contains(r#"createIndex({"isbn":1}, { partialFilterExpression: {"type":"book"} });"#),
        "{setup}"
    );
    // The documents carry their type.
    let docs = std::fs::read_to_string(out_dir.join("product.json")).unwrap_or_default();
    assert!(docs.contains(r#""type":"movie""#) || docs.contains(r#""type": "movie""#));
}

#[test]
fn a_polymorphic_group_names_two_entities_once_each() {
    let text = |groups: &str| {
        format!(
            r#"{{
      "name": "t", "entities": [{{"name": "a", "count": 10, "fields": {{}}}}, {{"name": "b", "count": 10, "fields": {{}}}}, {{"name": "c", "count": 10, "fields": {{}}}}],
      "relationships": [], "workload": [],
      "design": {{"polymorphic": {groups}}}
    }}"#
        )
    };
    assert!(parse_model(&text(r#"{"ab": ["a", "b"]}"#)).is_ok());
    for (groups, why) in [
        (r#"{"x": ["a"]}"#, "at least two distinct entities"),
        (r#"{"x": ["a", "a"]}"#, "at least two distinct entities"),
        (r#"{"x": ["a", "z"]}"#, "unknown entity \\\"z\\\""),
        (
            r#"{"x": ["a", "b"], "y": ["b", "c"]}"#,
            "is in two polymorphic collections",
        ),
        (
            r#"{"c": ["a", "b"]}"#,
            "is the name of an entity it does not hold",
        ),
    ] {
        let errs = match parse_model(&text(groups)) {
            Ok(_) => panic!("accepted {groups}"),
            Err(e) => format!("{e:?}"),
        };
        assert!(errs.contains(why), "{groups}: {errs}");
    }
}
