//! `$out`: replacement, kept indexes, generated `_id`, all-or-nothing failures, parse errors.

use crate::engine::{Database, IndexOptions};
use bson::{doc, Bson, Document};

fn db() -> Database {
    let mut db = Database::new();
    let docs = vec![
        doc! {"_id": 1, "a": 1, "g": "x"},
        doc! {"_id": 2, "a": 2, "g": "y"},
        doc! {"_id": 3, "a": 3, "g": "x"},
    ];
    assert!(db.insert_many("src", docs, true).is_ok());
    db
}

fn all(db: &Database, c: &str) -> Vec<Document> {
    db.collection(c)
        .map(|c| c.decoded_documents())
        .unwrap_or_default()
}

fn code(r: crate::engine::error::Result<crate::engine::CommandResult>) -> i32 {
    r.err().map(|e| e.code).unwrap_or(0)
}

#[test]
fn out_replaces_the_target_and_reports_the_inserts() {
    let mut db = db();
    assert!(db.insert_one("t", doc! {"_id": 9, "old": true}).is_ok());
    let r = db.run_aggregate("src", &[doc! {"$match": {"g": "x"}}, doc! {"$out": "t"}]);
    let r = r.unwrap_or_default();
    assert!(r.documents.is_empty());
    assert_eq!(r.stats.write.n_inserted, 2);
    assert_eq!(r.stats.write.docs_written, 2);
    assert_eq!(r.stats.write.index_keys_written, 2);
    let expected = crate::size::document_size(&doc! {"_id": 1, "a": 1, "g": "x"}) * 2;
    assert_eq!(r.stats.write.bytes_written, expected);
    assert_eq!(
        all(&db, "t"),
        vec![
            doc! {"_id": 1, "a": 1, "g": "x"},
            doc! {"_id": 3, "a": 3, "g": "x"}
        ]
    );
    // The plan shows the stage on top, with its specification.
    let plan = r.plan.map(|p| p.to_json()).unwrap_or_default();
    assert_eq!(plan["stage"], "$out");
}

#[test]
fn out_object_form_and_other_databases() {
    let mut db = db();
    let r = db.run_aggregate("src", &[doc! {"$out": {"db": "test", "coll": "t"}}]);
    assert!(r.is_ok());
    assert_eq!(all(&db, "t").len(), 3);
    let e = db.run_aggregate("src", &[doc! {"$out": {"db": "other", "coll": "t"}}]);
    assert_eq!(code(e), 20);
    let e = db.run_aggregate("src", &[doc! {"$out": {"coll": "t"}}]);
    assert_eq!(code(e), 40414);
    let e = db.run_aggregate("src", &[doc! {"$out": {"db": "test"}}]);
    assert_eq!(code(e), 40414);
    let e = db.run_aggregate("src", &[doc! {"$out": {"db": "test", "coll": "t", "x": 1}}]);
    assert_eq!(code(e), 40415);
    let e = db.run_aggregate("src", &[doc! {"$out": 1}]);
    assert_eq!(code(e), 16990);
    let e = db.run_aggregate("src", &[doc! {"$out": ""}]);
    assert_eq!(code(e), 73);
    let e = db.run_aggregate("src", &[doc! {"$out": "system.x"}]);
    assert_eq!(code(e), 17385);
}

#[test]
fn out_keeps_the_target_indexes() {
    let mut db = db();
    assert!(db.insert_one("t", doc! {"_id": 9, "a": 9}).is_ok());
    let unique = IndexOptions {
        unique: true,
        ..Default::default()
    };
    assert!(db.create_index("t", doc! {"a": 1}, unique).is_ok());
    let r = db
        .run_aggregate("src", &[doc! {"$out": "t"}])
        .unwrap_or_default();
    // Three documents, two indexes: six keys.
    assert_eq!(r.stats.write.index_keys_written, 6);
    let names: Vec<String> = db.list_indexes("t").into_iter().map(|i| i.name).collect();
    assert_eq!(names, vec!["_id_", "a_1"]);
    assert!(db.list_indexes("t")[1].unique);
    // A key the kept unique index refuses fails the stage and leaves the target as it was.
    let before = all(&db, "t");
    let e = db.run_aggregate("src", &[doc! {"$set": {"a": 0}}, doc! {"$out": "t"}]);
    assert_eq!(code(e), 11000);
    assert_eq!(all(&db, "t"), before);
    assert_eq!(db.list_indexes("t").len(), 2);
}

#[test]
fn out_duplicate_id_fails_the_whole_stage() {
    let mut db = db();
    assert!(db.insert_one("t", doc! {"_id": 9}).is_ok());
    let e = db.run_aggregate("src", &[doc! {"$set": {"_id": "same"}}, doc! {"$out": "t"}]);
    assert_eq!(code(e), 11000);
    assert_eq!(all(&db, "t"), vec![doc! {"_id": 9}]);
    // A target that did not exist is not created by a failed $out.
    let e = db.run_aggregate(
        "src",
        &[doc! {"$set": {"_id": "same"}}, doc! {"$out": "new"}],
    );
    assert_eq!(code(e), 11000);
    assert!(db.collection("new").is_none());
}

#[test]
fn out_adds_missing_ids_first_and_may_replace_its_source() {
    let mut db = db();
    let r = db.run_aggregate(
        "src",
        &[
            doc! {"$group": {"_id": "$g", "n": {"$sum": 1}}},
            doc! {"$project": {"_id": 0, "g": "$_id", "n": 1}},
            doc! {"$out": "t"},
        ],
    );
    assert!(r.is_ok());
    let docs = all(&db, "t");
    assert_eq!(docs.len(), 2);
    for d in &docs {
        assert!(matches!(d.get("_id"), Some(Bson::ObjectId(_))));
        assert_eq!(d.keys().next().map(String::as_str), Some("_id"));
    }
    // $out into the collection it reads replaces it with the output.
    let r = db.run_aggregate("src", &[doc! {"$match": {"a": 2}}, doc! {"$out": "src"}]);
    assert!(r.is_ok());
    assert_eq!(all(&db, "src"), vec![doc! {"_id": 2, "a": 2, "g": "y"}]);
    // An empty output leaves an empty collection.
    assert!(db
        .run_aggregate("src", &[doc! {"$match": {"a": 99}}, doc! {"$out": "e"}])
        .is_ok());
    assert!(db.collection("e").is_some_and(|c| c.is_empty()));
}

#[test]
fn out_only_last_and_never_on_the_read_only_path() {
    let mut db = db();
    let e = db.run_aggregate("src", &[doc! {"$out": "t"}, doc! {"$match": {}}]);
    let e = e.err();
    assert_eq!(e.as_ref().map(|e| e.code), Some(40601));
    assert_eq!(
        e.map(|e| e.message).unwrap_or_default(),
        "$out can only be the final stage in the pipeline"
    );
    let e = db.aggregate("src", &[doc! {"$out": "t"}]).err();
    assert_eq!(e.as_ref().map(|e| e.code), Some(20));
    assert!(e
        .map(|e| e.message)
        .unwrap_or_default()
        .contains("run_aggregate"));
    assert!(db.collection("t").is_none());
    // Database::run routes an aggregate command to the writing path.
    let r = db.run(
        "src",
        crate::engine::Command::Aggregate {
            pipeline: vec![doc! {"$out": "t"}],
        },
    );
    assert!(r.is_ok());
    assert_eq!(all(&db, "t").len(), 3);
}
