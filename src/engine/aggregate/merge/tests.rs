//! `$merge`: every whenMatched and whenNotMatched mode, `on` with its index, `let` and
//! `$$new`, the write statistics and every parse and write error.

use crate::engine::error::Result;
use crate::engine::{CommandResult, Database, IndexOptions};
use bson::{doc, Bson, Document};

fn db() -> Database {
    let mut db = Database::new();
    let src = vec![
        doc! {"_id": 1, "k": "a", "v": 10},
        doc! {"_id": 2, "k": "b", "v": 20},
    ];
    assert!(db.insert_many("src", src, true).is_ok());
    let t = vec![
        doc! {"_id": 1, "k": "a", "v": 1, "old": true},
        doc! {"_id": 3, "k": "c", "v": 3},
    ];
    assert!(db.insert_many("t", t, true).is_ok());
    db
}

fn all(db: &Database, c: &str) -> Vec<Document> {
    db.collection(c)
        .map(|c| c.decoded_documents())
        .unwrap_or_default()
}

fn merge(db: &mut Database, spec: Document) -> Result<CommandResult> {
    db.run_aggregate("src", &[doc! {"$merge": spec}])
}

fn code(r: Result<CommandResult>) -> i32 {
    r.err().map(|e| e.code).unwrap_or(0)
}

#[test]
fn default_merges_matches_and_inserts_the_rest() {
    let mut db = db();
    let r = db
        .run_aggregate("src", &[doc! {"$merge": "t"}])
        .unwrap_or_default();
    assert!(r.documents.is_empty());
    assert_eq!(
        all(&db, "t"),
        vec![
            doc! {"_id": 1, "k": "a", "v": 10, "old": true},
            doc! {"_id": 3, "k": "c", "v": 3},
            doc! {"_id": 2, "k": "b", "v": 20},
        ]
    );
    let w = r.stats.write;
    assert_eq!((w.n_matched, w.n_modified, w.n_inserted), (1, 1, 1));
    assert_eq!(w.docs_written, 2);
    let sizes = crate::size::document_size(&doc! {"_id": 1, "k": "a", "v": 10, "old": true})
        + crate::size::document_size(&doc! {"_id": 2, "k": "b", "v": 20});
    assert_eq!(w.bytes_written, sizes);
    // One `_id_` key for the insert; the update changed no indexed field.
    assert_eq!(w.index_keys_written, 1);
    let plan = r.plan.map(|p| p.to_json()).unwrap_or_default();
    assert_eq!(plan["stage"], "$merge");
}

#[test]
fn into_object_form() {
    let mut db = db();
    assert!(merge(&mut db, doc! {"into": {"db": "test", "coll": "n"}}).is_ok());
    assert_eq!(all(&db, "n").len(), 2);
    assert!(merge(&mut db, doc! {"into": {"coll": "n2"}}).is_ok());
    assert_eq!(all(&db, "n2").len(), 2);
    assert_eq!(
        code(merge(&mut db, doc! {"into": {"db": "x", "coll": "n"}})),
        20
    );
    assert_eq!(code(merge(&mut db, doc! {"into": {"db": "test"}})), 40414);
    assert_eq!(code(merge(&mut db, doc! {"into": 3})), 14);
    assert_eq!(code(merge(&mut db, doc! {"on": "_id"})), 40414);
    assert_eq!(code(merge(&mut db, doc! {"into": "t", "nope": 1})), 40415);
    assert_eq!(code(db.run_aggregate("src", &[doc! {"$merge": 1}])), 51182);
}

#[test]
fn replace_keeps_the_id_and_drops_old_fields() {
    let mut db = db();
    let r = merge(&mut db, doc! {"into": "t", "whenMatched": "replace"});
    assert!(r.is_ok());
    assert_eq!(all(&db, "t")[0], doc! {"_id": 1, "k": "a", "v": 10});
    assert_eq!(all(&db, "t").len(), 3);
}

#[test]
fn keep_existing_leaves_matches() {
    let mut db = db();
    let r = merge(&mut db, doc! {"into": "t", "whenMatched": "keepExisting"}).unwrap_or_default();
    assert_eq!(
        all(&db, "t")[0],
        doc! {"_id": 1, "k": "a", "v": 1, "old": true}
    );
    assert_eq!(r.stats.write.n_modified, 0);
    assert_eq!(r.stats.write.n_inserted, 1);
}

#[test]
fn fail_on_a_match_is_a_duplicate_key_after_the_earlier_writes() {
    let mut db = db();
    let e = merge(&mut db, doc! {"into": "t", "whenMatched": "fail"}).err();
    assert_eq!(e.as_ref().map(|e| e.code), Some(11000));
    assert!(e
        .map(|e| e.message)
        .unwrap_or_default()
        .starts_with("$merge with whenMatched: fail found an existing document"));
    // Without a match it inserts.
    let mut db = db_without_matches();
    assert!(merge(&mut db, doc! {"into": "t", "whenMatched": "fail"}).is_ok());
    assert_eq!(all(&db, "t").len(), 3);
}

fn db_without_matches() -> Database {
    let mut db = db();
    assert!(db.delete_one("t", doc! {"_id": 1}).is_ok());
    db
}

#[test]
fn when_not_matched_discard_and_fail() {
    let mut db = db();
    assert!(merge(&mut db, doc! {"into": "t", "whenNotMatched": "discard"}).is_ok());
    assert_eq!(all(&db, "t").len(), 2);
    assert_eq!(all(&db, "t")[0].get_i32("v").ok(), Some(10));
    let mut db = self::db();
    let e = merge(
        &mut db,
        doc! {"into": "t", "whenMatched": "replace", "whenNotMatched": "fail"},
    );
    assert_eq!(code(e), 13113);
    // The document before the failing one was written (mongod does not roll back).
    assert_eq!(all(&db, "t")[0], doc! {"_id": 1, "k": "a", "v": 10});
    for (m, n) in [
        ("keepExisting", "discard"),
        ("keepExisting", "fail"),
        ("fail", "discard"),
        ("fail", "fail"),
    ] {
        let e = merge(
            &mut db,
            doc! {"into": "t", "whenMatched": m, "whenNotMatched": n},
        );
        assert_eq!(code(e), 51181, "{m} {n}");
    }
    assert_eq!(
        code(merge(&mut db, doc! {"into": "t", "whenMatched": "x"})),
        2
    );
    assert_eq!(
        code(merge(&mut db, doc! {"into": "t", "whenNotMatched": "x"})),
        2
    );
    assert_eq!(
        code(merge(&mut db, doc! {"into": "t", "whenMatched": 1})),
        14
    );
    assert_eq!(
        code(merge(&mut db, doc! {"into": "t", "whenNotMatched": 1})),
        14
    );
}

#[test]
fn on_fields_need_a_unique_index() {
    let mut db = db();
    let spec = doc! {"into": "t", "on": "k", "whenMatched": "replace"};
    assert_eq!(code(merge(&mut db, spec.clone())), 51183);
    assert_eq!(
        code(merge(&mut db, doc! {"into": "none", "on": "k"})),
        51183
    );
    // A non-unique or partial index does not do.
    assert!(db
        .create_index("t", doc! {"k": 1}, IndexOptions::default())
        .is_ok());
    assert_eq!(code(merge(&mut db, spec.clone())), 51183);
    let unique = IndexOptions {
        unique: true,
        name: Some("k_unique".into()),
        ..Default::default()
    };
    assert!(db.create_index("t", doc! {"k": -1}, unique).is_ok());
    assert!(db
        .insert_one("src", doc! {"_id": 4, "k": "c", "v": 30})
        .is_ok());
    // The output's _id differs from the target's: mongod refuses to change it.
    let e = merge(&mut db, spec.clone()).err();
    assert_eq!(e.as_ref().map(|e| e.code), Some(66));
    assert!(e
        .map(|e| e.message)
        .unwrap_or_default()
        .starts_with("$merge failed to update the matching document"));
    // Without _id in the output, the target keeps its _id.
    let mut db = self::db();
    assert!(db
        .insert_one("src", doc! {"_id": 4, "k": "c", "v": 30})
        .is_ok());
    let unique = IndexOptions {
        unique: true,
        ..Default::default()
    };
    assert!(db.create_index("t", doc! {"k": 1}, unique).is_ok());
    let r = db.run_aggregate(
        "src",
        &[
            doc! {"$project": {"_id": 0}},
            doc! {"$merge": {"into": "t", "on": ["k"], "whenMatched": "merge"}},
        ],
    );
    let w = r.map(|r| r.stats.write).unwrap_or_default();
    assert_eq!((w.n_matched, w.n_inserted), (2, 1));
    let docs = all(&db, "t");
    assert_eq!(docs[0], doc! {"_id": 1, "k": "a", "v": 10, "old": true});
    assert_eq!(docs[1], doc! {"_id": 3, "k": "c", "v": 30});
    assert!(matches!(docs[2].get("_id"), Some(Bson::ObjectId(_))));
}

#[test]
fn on_errors() {
    let mut db = db();
    assert_eq!(code(merge(&mut db, doc! {"into": "t", "on": 1})), 51186);
    assert_eq!(code(merge(&mut db, doc! {"into": "t", "on": []})), 51187);
    assert_eq!(code(merge(&mut db, doc! {"into": "t", "on": [1]})), 51134);
    assert_eq!(
        code(merge(&mut db, doc! {"into": "t", "on": ["a", "a"]})),
        31465
    );
    let unique = IndexOptions {
        unique: true,
        ..Default::default()
    };
    assert!(db.create_index("e", doc! {"m": 1}, unique.clone()).is_ok());
    assert!(db.create_index("e", doc! {"arr": 1}, unique).is_ok());
    assert_eq!(code(merge(&mut db, doc! {"into": "e", "on": "m"})), 51132);
    assert!(db.insert_one("src", doc! {"_id": 5, "arr": [1]}).is_ok());
    let r = db.run_aggregate(
        "src",
        &[
            doc! {"$match": {"_id": 5}},
            doc! {"$merge": {"into": "e", "on": "arr"}},
        ],
    );
    assert_eq!(code(r), 51185);
}

#[test]
fn pipeline_with_new_and_let() {
    let mut db = db();
    let r = merge(
        &mut db,
        doc! {"into": "t", "whenMatched": [
            {"$set": {"v": {"$add": ["$v", "$$new.v"]}, "from": "$$new._id"}},
            {"$unset": "old"},
        ]},
    );
    let w = r.map(|r| r.stats.write).unwrap_or_default();
    assert_eq!((w.n_matched, w.n_modified, w.n_inserted), (1, 1, 1));
    assert_eq!(
        all(&db, "t")[0],
        doc! {"_id": 1, "k": "a", "v": 11, "from": 1}
    );
    assert_eq!(all(&db, "t")[2], doc! {"_id": 2, "k": "b", "v": 20});
    // let: variables computed on the output document; `$$new` stays available.
    let mut db = self::db();
    let r = merge(
        &mut db,
        doc! {"into": "t", "let": {"twice": {"$multiply": ["$v", 2]}},
        "whenMatched": [{"$replaceWith": {"k": "$k", "t": "$$twice", "n": "$$new.k"}}]},
    );
    assert!(r.is_ok());
    assert_eq!(
        all(&db, "t")[0],
        doc! {"_id": 1, "k": "a", "t": 20, "n": "a"}
    );
    // With discard, `$$new` is only there by default.
    let mut db = self::db();
    let r = merge(
        &mut db,
        doc! {"into": "t", "let": {"x": 1}, "whenNotMatched": "discard",
        "whenMatched": [{"$set": {"n": "$$new"}}]},
    );
    assert_eq!(code(r), 17276);
    let r = merge(
        &mut db,
        doc! {"into": "t", "whenNotMatched": "discard",
        "whenMatched": [{"$project": {"k": 1, "w": "$$new.v"}}]},
    );
    assert!(r.is_ok());
    assert_eq!(all(&db, "t")[0], doc! {"_id": 1, "k": "a", "w": 10});
    assert_eq!(all(&db, "t").len(), 2);
    // whenNotMatched fail with a pipeline.
    let r = merge(
        &mut db,
        doc! {"into": "t", "whenNotMatched": "fail", "whenMatched": [{"$set": {"z": 1}}]},
    );
    assert_eq!(code(r), 13113);
}

#[test]
fn pipeline_and_let_errors() {
    let mut db = db();
    let bad = |stage: Document| doc! {"into": "t", "whenMatched": [stage]};
    assert_eq!(
        code(merge(&mut db, bad(doc! {"$group": {"_id": null}}))),
        72
    );
    assert_eq!(code(merge(&mut db, bad(doc! {"$match": {}}))), 72);
    assert_eq!(
        code(merge(&mut db, bad(doc! {"$set": {"a": "$$nope"}}))),
        17276
    );
    assert_eq!(
        code(merge(&mut db, doc! {"into": "t", "whenMatched": [1]})),
        14
    );
    assert_eq!(
        code(merge(&mut db, doc! {"into": "t", "let": {"x": 1}})),
        51199
    );
    let with_let = |l: Document| doc! {"into": "t", "let": l, "whenMatched": [{"$set": {"a": 1}}]};
    assert_eq!(code(merge(&mut db, with_let(doc! {"new": "$v"}))), 51273);
    assert_eq!(code(merge(&mut db, with_let(doc! {"Bad": 1}))), 16870);
    assert_eq!(code(merge(&mut db, with_let(doc! {"a-b": 1}))), 16871);
    assert!(merge(&mut db, with_let(doc! {"new": "$$ROOT"})).is_ok());
    assert_eq!(
        code(merge(
            &mut db,
            doc! {"into": "t", "let": 1, "whenMatched": []}
        )),
        14
    );
}

#[test]
fn merge_into_its_own_source_and_position() {
    let mut db = db();
    let r = db.run_aggregate(
        "src",
        &[
            doc! {"$set": {"v": {"$multiply": ["$v", 2]}}},
            doc! {"$merge": {"into": "src"}},
        ],
    );
    assert!(r.is_ok());
    assert_eq!(
        all(&db, "src"),
        vec![
            doc! {"_id": 1, "k": "a", "v": 20},
            doc! {"_id": 2, "k": "b", "v": 40}
        ]
    );
    let e = db
        .run_aggregate("src", &[doc! {"$merge": "t"}, doc! {"$limit": 1}])
        .err();
    assert_eq!(e.as_ref().map(|e| e.code), Some(40601));
    assert_eq!(
        e.map(|e| e.message).unwrap_or_default(),
        "$merge can only be the final stage in the pipeline"
    );
    assert_eq!(code(db.aggregate("src", &[doc! {"$merge": "t"}])), 20);
    // Other unique indexes of the target refuse as usual, with $merge's context.
    let unique = IndexOptions {
        unique: true,
        ..Default::default()
    };
    assert!(db.create_index("t", doc! {"v": 1}, unique).is_ok());
    let e = db
        .run_aggregate("src", &[doc! {"$set": {"v": 3}}, doc! {"$merge": "t"}])
        .err();
    assert_eq!(e.as_ref().map(|e| e.code), Some(11000));
    assert!(e
        .map(|e| e.message)
        .unwrap_or_default()
        .starts_with("$merge failed due to a DuplicateKey error :: caused by :: E11000"));
}

#[test]
fn explain_shows_the_stage_checks_on_and_writes_nothing() {
    let db = db();
    let before = all(&db, "t");
    let r = db.explain_aggregate(
        "src",
        &[doc! {"$merge": {"into": "t", "whenMatched": "replace"}}],
    );
    let r = r.unwrap_or_default();
    assert!(r.documents.is_empty());
    assert_eq!(r.stats.write, Default::default());
    let e = r.explain();
    assert_eq!(e["queryPlanner"]["winningPlan"]["stage"], "$merge");
    assert_eq!(
        e["queryPlanner"]["winningPlan"]["inputStage"]["stage"],
        "COLLSCAN"
    );
    assert_eq!(all(&db, "t"), before);
    assert_eq!(
        code(db.explain_aggregate("src", &[doc! {"$merge": {"into": "t", "on": "k"}}])),
        51183
    );
    // Without a writing stage it is the read-only aggregate.
    let r = db.explain_aggregate("src", &[doc! {"$match": {"v": 10}}]);
    assert_eq!(r.map(|r| r.documents.len()).ok(), Some(1));
}
