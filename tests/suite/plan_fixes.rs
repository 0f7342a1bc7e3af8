//! Plans that write what an application writes (issue 19's findings), measured on the engine:
//! a continuation append for a full parent falls back to the last continuation document, or
//! to a new one linked from the parent's `tbc`; `embed_subset` on a many-to-many relationship
//! links the child that exists instead of inserting it again.
#![cfg(not(target_arch = "wasm32"))]

use squillion::design::{CommandKind, When};
use squillion::eval::{evaluate_offered, EvalOptions, Evaluation, OperationEval, RunEval};
use squillion::model::{parse_model, Model};

const FOLLOW: &str = "follow someone";

fn social_graph() -> Model {
    squillion::presets::find("social-graph")
        .unwrap()
        .model()
        .unwrap()
}

/// Returns social-graph with its JSON changed by `edit`.
fn edited(edit: impl FnOnce(&mut serde_json::Value)) -> Model {
    let mut v = serde_json::to_value(social_graph()).unwrap();
    edit(&mut v);
    parse_model(&v.to_string()).unwrap_or_else(|e| panic!("{e}"))
}

fn op<'a>(e: &'a Evaluation, unit: &str) -> &'a OperationEval {
    e.operations.iter().find(|o| o.unit == unit).unwrap()
}

fn written(r: &RunEval) -> f64 {
    r.total.docs_written.value
}

fn no_errors(r: &RunEval) {
    for c in &r.commands {
        assert!(c.error.is_none(), "{}: {:?}", c.mongosh, c.error);
    }
}

#[test]
fn a_continuation_append_writes_the_parent_while_it_has_room() {
    let e = evaluate_offered(&social_graph(), "tbc", &EvalOptions::default()).unwrap();
    let o = op(&e, FOLLOW);
    // A typical user (about 50 followers of 100,000): one update of its own document; the
    // fallbacks are the application's `if (r.matchedCount === 0)`, not sent.
    no_errors(&o.typical);
    assert_eq!(o.typical.queries, 1);
    assert_eq!(o.queries, 1);
    assert_eq!(written(&o.typical), 1.0);
    let [first, rest @ ..] = o.typical.commands.as_slice() else {
        panic!("no commands")
    };
    assert_eq!(first.full.docs_written.value, 1.0);
    assert!(first
        .mongosh
        .contains("\"followers.99999\": { $exists: false }"));
    assert_eq!(rest.len(), 3);
    for c in rest {
        assert_eq!(c.queries, 0);
        assert!(c.not_sent.is_some(), "{c:?}");
        assert!(
            c.mongosh.starts_with("if (r.matchedCount === 0) "),
            "{}",
            c.mongosh
        );
        assert_eq!(c.full.docs_written.value, 0.0);
    }
}

#[test]
fn a_full_parent_and_full_last_continuation_document_create_a_new_one() {
    // The celebrity: 50,000,000 followers = 500 × 100,000, so the parent and all 499
    // continuation documents are full: the parent's check and the last continuation
    // document's match nothing, then a new continuation document (holding the follower) and
    // its id pushed on the parent's `tbc`: 4 round trips, 2 documents written.
    let e = evaluate_offered(&social_graph(), "tbc", &EvalOptions::default()).unwrap();
    let r = &op(&e, FOLLOW).largest;
    no_errors(r);
    assert_eq!(r.queries, 4);
    assert_eq!(written(r), 2.0);
    let c = &r.commands;
    assert!(c.iter().all(|c| c.not_sent.is_none()));
    // The parent's room check finds the parent by `_id` (1 key, 1 document) and writes nothing.
    assert_eq!(c[0].full.docs_written.value, 0.0);
    assert_eq!(c[0].full.keys_examined.value, 1.0);
    assert_eq!(c[0].full.docs_examined.value, 1.0);
    assert_eq!(c[1].full.docs_written.value, 0.0);
    assert_eq!(c[1].full.docs_examined.value, 1.0);
    assert!(
        c[1].mongosh
            .contains("r = db.user.updateOne({ _id: ObjectId("),
        "{}",
        c[1].mongosh
    );
    // The new continuation document: `{_id, followers: [the follower]}`, 4 + 17 + (11 + 5 +
    // 14 + 1) + 1 = 53 bytes.
    assert_eq!(c[2].kind, CommandKind::Insert);
    assert_eq!(c[2].full.docs_written.value, 1.0);
    assert_eq!(c[2].full.bytes_written.value, 53.0);
    // Its id on the parent, rewritten whole at full scale (100,000 ids and 499 in `tbc`).
    assert!(
        c[3].mongosh.contains("$push: { tbc: ObjectId("),
        "{}",
        c[3].mongosh
    );
    assert_eq!(c[3].full.docs_written.value, 1.0);
    assert!(c[3].full.bytes_written.value > 1_800_000.0);
}

#[test]
fn a_full_parent_appends_to_its_last_continuation_document_while_it_has_room() {
    // 50,000,050 followers: the last of 500 continuation documents holds 50 ids, so the
    // follower goes there: 2 round trips, 1 document written (51 ids: 844 bytes, as
    // pymongo's `len(bson.encode({"_id": ObjectId(), "followers": [ObjectId()] * 51}))`).
    let m = edited(|v| {
        v["relationships"][0]["cardinality"]["max"] = 50_000_050.into();
    });
    let e = evaluate_offered(&m, "tbc", &EvalOptions::default()).unwrap();
    let o = op(&e, FOLLOW);
    let r = &o.largest;
    no_errors(r);
    assert_eq!(r.queries, 2);
    assert_eq!(written(r), 1.0);
    assert_eq!(r.commands[0].full.docs_written.value, 0.0);
    assert_eq!(r.commands[1].full.docs_written.value, 1.0);
    assert_eq!(r.commands[1].full.bytes_written.value, 844.0);
    assert!(r.commands[2..].iter().all(|c| c.not_sent.is_some()));
    // The typical user still writes its own document once.
    assert_eq!(o.typical.queries, 1);
    assert_eq!(written(&o.typical), 1.0);
}

#[test]
fn the_plan_marks_the_fallbacks_conditional() {
    let offered = squillion::eval::offered_layout(&social_graph(), "tbc").unwrap();
    let unit = offered
        .layout
        .plan
        .units
        .iter()
        .find(|u| u.unit == FOLLOW)
        .unwrap();
    let when: Vec<Option<When>> = unit.commands.iter().map(|c| c.when).collect();
    assert_eq!(
        when,
        [
            None,
            Some(When::NoneMatched),
            Some(When::NoneMatched),
            Some(When::NoneMatched)
        ]
    );
    assert_eq!(
        unit.commands[1].mongosh(),
        "if (r.matchedCount === 0) r = db.user.updateOne({ _id: user.tbc.at(-1), \"followers.99999\": { $exists: false } }, { $push: { followers: child._id } })"
    );
    assert_eq!(
        unit.commands[3].mongosh(),
        "if (r.matchedCount === 0) r = db.user.updateOne({ _id: user._id }, { $push: { tbc: continuation._id } })"
    );
}

#[test]
fn embed_subset_on_many_to_many_links_the_follower_who_exists() {
    // Following someone under `embed_subset`: the follower exists, so the plan links them
    // (no insert, which mongod refused with E11000, the follower's `_id` being taken): the
    // follower gains the followee's id in their references (the child side every
    // embed_subset keeps), and their copy goes into the followee's newest k. Two updates.
    let m = edited(|v| {
        v["design"] = serde_json::json!({
            "base": "normalized",
            "relationships": { "followers": { "strategy": "embed_subset", "k": 20 } }
        });
    });
    let e = evaluate_offered(&m, "custom", &EvalOptions::default()).unwrap();
    let o = op(&e, FOLLOW);
    for r in [&o.typical, &o.largest] {
        no_errors(r);
        assert_eq!(r.queries, 2, "{:?}", r.subject);
        assert_eq!(written(r), 2.0);
        let [link, c] = r.commands.as_slice() else {
            panic!("{:?}", r.commands)
        };
        assert_eq!(link.kind, CommandKind::Update);
        assert!(
            link.note
                .contains("add the parent to the child's references"),
            "{}",
            link.note
        );
        assert_eq!(c.kind, CommandKind::Update);
        assert!(
            c.mongosh.contains("$slice: -20") || c.mongosh.contains("$slice: 20"),
            "{}",
            c.mongosh
        );
    }
}

#[test]
fn two_way_on_many_to_many_updates_both_sides() {
    // Under `two_way` both sides keep references: following someone pushes the follower's id
    // into the followee's array and the followee's id into the follower's (2 documents; the
    // plan used to update only the followee, leaving the follower's array stale).
    let m = edited(|v| {
        v["design"] = serde_json::json!({
            "base": "normalized",
            "relationships": { "followers": { "strategy": "two_way" } }
        });
    });
    let e = evaluate_offered(&m, "custom", &EvalOptions::default()).unwrap();
    let r = &op(&e, FOLLOW).typical;
    no_errors(r);
    assert_eq!(r.queries, 2, "{:?}", r.commands);
    assert_eq!(written(r), 2.0);
    assert!(r.commands.iter().all(|c| c.kind == CommandKind::Update));
}
