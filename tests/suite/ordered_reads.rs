//! Reads of the newest or oldest N children of an embedded array return exactly those: the
//! children are added through the plan's own write commands (in time order, and shuffled),
//! on the engine, then the plan's own read runs and its array is compared with the N wanted.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;

use bson::{doc, oid::ObjectId, Bson, DateTime, Document};
use squillion::design::{layout_model, Command, CommandKind, Layout};
use squillion::engine::command::{FindCommand, UpdateCommand};
use squillion::engine::Command as EngineCommand;
use squillion::engine::Database;
use squillion::model::{parse_model, Model};

/// An article with remarks; reads of the newest 10 and of the oldest 3, and adding a remark.
fn model(strategy: &str) -> Model {
    let text = format!(
        r#"{{
        "entities": [
          {{ "name": "article", "count": 10, "fields": {{ "title": {{ "type": "string" }} }} }},
          {{ "name": "remark", "count": 1000, "fields": {{ "at": {{ "type": "date" }}, "text": {{ "type": "string" }} }} }}
        ],
        "relationships": [
          {{ "name": "remarks", "parent": "article", "child": "remark", "cardinality": {{ "shape": "fixed", "value": 100 }} }}
        ],
        "workload": [
          {{ "name": "newest 10", "rate_per_sec": 1, "steps": [{{ "op": "read", "entity": "article", "by": "title",
             "children": [{{ "relationship": "remarks", "limit": 10, "sort": {{ "field": "at", "order": -1 }} }}] }}] }},
          {{ "name": "oldest 3", "rate_per_sec": 1, "steps": [{{ "op": "read", "entity": "article", "by": "title",
             "children": [{{ "relationship": "remarks", "limit": 3, "sort": {{ "field": "at", "order": 1 }} }}] }}] }},
          {{ "name": "remark", "rate_per_sec": 1, "steps": [{{ "op": "insert_child", "relationship": "remarks" }}] }}
        ],
        "design": {{ "relationships": {{ "remarks": {strategy} }} }}
    }}"#
    );
    parse_model(&text).unwrap_or_else(|e| panic!("{e}"))
}

/// Returns `v` with every `{ $param: name }` replaced by its value in `params`.
fn bind(v: &Bson, params: &BTreeMap<&str, Bson>) -> Bson {
    match v {
        Bson::Document(d) => {
            if let Some(Bson::String(name)) = d.get("$param") {
                return params
                    .get(name.as_str())
                    .cloned()
                    .unwrap_or_else(|| panic!("unbound {name}"));
            }
            Bson::Document(
                d.iter()
                    .map(|(k, v)| (k.clone(), bind(v, params)))
                    .collect(),
            )
        }
        Bson::Array(a) => Bson::Array(a.iter().map(|v| bind(v, params)).collect()),
        v => v.clone(),
    }
}

fn bind_doc(d: &Document, params: &BTreeMap<&str, Bson>) -> Document {
    match bind(&Bson::Document(d.clone()), params) {
        Bson::Document(d) => d,
        _ => unreachable!(),
    }
}

fn commands<'a>(l: &'a Layout, unit: &str) -> &'a [Command] {
    &l.plan
        .units
        .iter()
        .find(|u| u.unit == unit)
        .unwrap_or_else(|| panic!("no unit {unit}"))
        .commands
}

/// Returns a database holding one article with no remarks embedded, then one remark added per
/// time in `times` by the plan's `remark` unit, and the article's `_id`.
fn article_with_remarks(l: &Layout, times: &[i64]) -> (Database, Bson) {
    let mut db = Database::new();
    let article = Bson::ObjectId(ObjectId::new());
    db.insert_one(
        "article",
        doc! { "_id": article.clone(), "title": "a", "remarks": [] },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    add_remarks(&mut db, l, &article, times);
    (db, article)
}

/// Runs the plan's `remark` unit once per time in `times` (epoch seconds) on `db`.
fn add_remarks(db: &mut Database, l: &Layout, article: &Bson, times: &[i64]) {
    for &t in times {
        let child = doc! { "_id": ObjectId::new(), "article": article.clone(), "at": DateTime::from_millis(t * 1000), "text": format!("r{t}") };
        let params: BTreeMap<&str, Bson> = [
            ("child", Bson::Document(child.clone())),
            ("child._id", child.get("_id").cloned().unwrap_or(Bson::Null)),
            ("article._id", article.clone()),
        ]
        .into_iter()
        .collect();
        for c in commands(l, "remark") {
            let r = match c.kind {
                CommandKind::Insert => db.insert_one(&c.collection, child.clone()),
                CommandKind::Update => db.run(
                    &c.collection,
                    EngineCommand::Update(UpdateCommand {
                        filter: bind_doc(&c.filter, &params),
                        update: bind_doc(c.update.as_ref().unwrap_or(&Document::new()), &params),
                        upsert: c.upsert,
                        multi: c.multi,
                        ..Default::default()
                    }),
                ),
                k => panic!("unexpected {k:?} in {}", c.mongosh()),
            };
            r.unwrap_or_else(|e| panic!("{}: {e}", c.mongosh()));
        }
    }
}

/// Runs the first command of read unit `unit` (the article with its sliced remarks) and
/// returns the times of the remarks it returns, with the command's mongosh code.
fn read_times(db: &Database, l: &Layout, unit: &str) -> (Vec<i64>, String) {
    let c = commands(l, unit)
        .first()
        .unwrap_or_else(|| panic!("{unit}: no command"));
    assert_eq!(c.kind, CommandKind::Find, "{}", c.mongosh());
    let params: BTreeMap<&str, Bson> = [("article.title", Bson::String("a".into()))]
        .into_iter()
        .collect();
    let found = db
        .find(
            &c.collection,
            &FindCommand {
                filter: bind_doc(&c.filter, &params),
                projection: c.projection.clone(),
                sort: c.sort.clone(),
                limit: c.limit,
                ..Default::default()
            },
        )
        .unwrap_or_else(|e| panic!("{}: {e}", c.mongosh()));
    let doc = found
        .documents
        .first()
        .unwrap_or_else(|| panic!("no article"));
    let times = doc
        .get_array("remarks")
        .unwrap_or_else(|e| panic!("{e}: {doc}"))
        .iter()
        .map(|r| match r {
            Bson::Document(d) => d
                .get_datetime("at")
                .map(|t| t.timestamp_millis() / 1000)
                .unwrap_or(-1),
            _ => -1,
        })
        .collect();
    (times, c.mongosh())
}

/// Times 1..=n, in time order and in a fixed shuffled order.
fn orders(n: i64) -> [Vec<i64>; 2] {
    let in_order: Vec<i64> = (1..=n).collect();
    // A fixed permutation (multiplication by a unit modulo a prime above n).
    let p = 53;
    let shuffled = (1..p).map(|i| (i * 17) % p).filter(|&t| t <= n).collect();
    [in_order, shuffled]
}

#[test]
fn embedded_reads_return_the_newest_and_oldest() {
    let m = model(r#"{ "strategy": "embed" }"#);
    let l = layout_model(&m).unwrap_or_else(|e| panic!("{e}"));
    for times in orders(40) {
        let (db, _) = article_with_remarks(&l, &times);
        // The newest 10, newest first, as the step's sort says.
        let (newest, code) = read_times(&db, &l, "newest 10");
        assert_eq!(newest, (31..=40).rev().collect::<Vec<_>>(), "{code}");
        // The oldest 3: the other end of the same order, which the application reverses.
        let (mut oldest, code) = read_times(&db, &l, "oldest 3");
        assert!(code.contains("$slice: -3"), "{code}");
        oldest.reverse();
        assert_eq!(oldest, vec![1, 2, 3], "{code}");
    }
}

#[test]
fn embedded_subset_keeps_and_reads_the_newest() {
    let m = model(r#"{ "strategy": "embed_subset", "k": 20 }"#);
    let l = layout_model(&m).unwrap_or_else(|e| panic!("{e}"));
    for times in orders(40) {
        let (db, article) = article_with_remarks(&l, &times);
        // The subset holds exactly the newest 20, newest first.
        let stored = db
            .find_one("article", doc! { "_id": article.clone() })
            .unwrap_or_else(|e| panic!("{e}"))
            .unwrap_or_else(|| panic!("no article"));
        let kept = stored.get_array("remarks").map_or(0, Vec::len);
        assert_eq!(kept, 20);
        let (newest, code) = read_times(&db, &l, "newest 10");
        assert_eq!(newest, (31..=40).rev().collect::<Vec<_>>(), "{code}");
        // The oldest are not in the subset: the read goes to the remarks' own collection.
        let oldest = commands(&l, "oldest 3");
        assert_eq!(oldest.len(), 2);
        assert_eq!(oldest.get(1).map(|c| c.collection.as_str()), Some("remark"));
    }
}
