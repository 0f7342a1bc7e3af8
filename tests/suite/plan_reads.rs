//! Plans that read what they need (issue #15, deliverable 6), on the engine: every read the
//! plan sends projects to the fields its step uses, a read with nothing to fetch is not sent
//! (and counts no round trip), and the bytes returned at full scale are those of the projected
//! documents.
#![cfg(not(target_arch = "wasm32"))]

use bson::Bson;
use squillion::design::CommandKind;
use squillion::engine::FindCommand;
use squillion::eval::{
    evaluate_offered, materialize, offered_layout, EvalOptions, Evaluation, OperationEval,
};
use squillion::generate::generate;
use squillion::model::Model;
use squillion::size::document_size;

fn social_graph() -> Model {
    squillion::presets::find("social-graph")
        .unwrap()
        .model()
        .unwrap()
}

fn op<'a>(e: &'a Evaluation, unit: &str) -> &'a OperationEval {
    e.operations.iter().find(|o| o.unit == unit).unwrap()
}

const NOTIFY: &str = "notify all followers";

/// The size of `{_id: ObjectId(…)}`: 4 + (1 + 4 + 12) + 1.
const ID_ONLY: u64 = 22;

#[test]
fn following_notify_reads_only_the_followers_ids() {
    let m = social_graph();
    let offered = offered_layout(&m, "following").unwrap();
    let unit = offered
        .layout
        .plan
        .units
        .iter()
        .find(|u| u.unit == NOTIFY)
        .unwrap();
    // The user (the step reads the entity), then its followers, projected to their `_id`.
    let followers = &unit.commands[1];
    assert_eq!(followers.kind, CommandKind::Find);
    assert!(followers.filter.contains_key("following"), "{followers:?}");
    assert_eq!(
        followers.projection,
        Some(bson::doc! { "_id": 1 }),
        "{}",
        followers.mongosh()
    );
    assert!(followers.mongosh().ends_with("}, { _id: 1 })"));

    // On the engine: every document that find returns is an `_id` and nothing else.
    let data = generate(&offered.model, &offered.layout);
    let db = materialize(&offered.layout, &data).unwrap();
    let users = data.collection("user").unwrap();
    let celebrity = users.documents[0].get("_id").unwrap().clone();
    let r = db
        .find(
            "user",
            &FindCommand {
                filter: bson::doc! { "following": celebrity },
                projection: followers.projection.clone(),
                ..Default::default()
            },
        )
        .unwrap();
    assert!(!r.documents.is_empty());
    for d in &r.documents {
        assert_eq!(d.keys().collect::<Vec<_>>(), ["_id"], "{d}");
        assert!(matches!(d.get("_id"), Some(Bson::ObjectId(_))));
        assert_eq!(document_size(d), ID_ONLY);
    }

    // The evaluation's bytes are those ids: 22 bytes a follower, at full scale too (the
    // celebrity's 50,000,000 followers are 1.1 GB of ids, not 50,000,000 whole users).
    let e = evaluate_offered(&m, "following", &EvalOptions::default()).unwrap();
    let o = op(&e, NOTIFY);
    for run in [&o.typical, &o.largest] {
        let c = &run.commands[1];
        assert_eq!(c.sample.bytes_returned, c.sample.n_returned * ID_ONLY);
        let per = c.full.bytes_returned.value / c.full.docs_returned.value;
        assert!((per - ID_ONLY as f64).abs() < 0.5, "{per}");
    }
    assert_eq!(o.largest.commands[1].full.docs_returned.value, 50_000_000.0);
}

#[test]
fn tbc_typical_user_makes_one_round_trip_the_celebrity_two() {
    let m = social_graph();
    let e = evaluate_offered(&m, "tbc", &EvalOptions::default()).unwrap();
    let o = op(&e, NOTIFY);
    // A typical user has no continuation documents: `{_id: {$in: []}}` is not sent.
    assert_eq!(o.typical.queries, 1);
    assert_eq!(o.queries, 1);
    let unsent = &o.typical.commands[1];
    assert_eq!(unsent.queries, 0);
    assert!(unsent.not_sent.is_some(), "{unsent:?}");
    assert!(unsent.mongosh.contains("$in: []"), "{}", unsent.mongosh);
    assert_eq!(unsent.full.docs_examined.value, 0.0);
    assert_eq!(unsent.full.bytes_returned.value, 0.0);
    assert_eq!(unsent.shards.touched, 0);
    // The celebrity: its document, then its 499 continuation documents.
    assert_eq!(o.largest.queries, 2);
    assert!(o.largest.commands.iter().all(|c| c.not_sent.is_none()));
    assert_eq!(o.largest.commands[1].full.docs_returned.value, 499.0);
    // Round trips per second follow the typical subject: 500/s × 1.
    assert_eq!(o.queries_per_sec(), 500.0);
    // Each continuation document is full at 100,000 ids: 1,888,928 bytes at full scale (not
    // the sample's shortened ones).
    let per = o.largest.commands[1].full.bytes_returned.value / 499.0;
    assert!((per - 1_888_928.0).abs() < 1.0, "{per}");
}

#[test]
fn an_empty_list_from_a_small_sample_is_still_sent() {
    // Product page under a link collection: the sample holds none of the largest product's
    // links, but at full scale it has 1,000: its parts are fetched (1,000 of them).
    let m = squillion::presets::find("product-parts")
        .unwrap()
        .model()
        .unwrap();
    let e = evaluate_offered(&m, "normalized", &EvalOptions::default()).unwrap();
    let o = op(&e, "product page with part names");
    let parts = &o.largest.commands[2];
    assert!(parts.not_sent.is_none(), "{parts:?}");
    assert_eq!(o.largest.queries, 3);
    assert_eq!(parts.full.docs_returned.value, 1_000.0);
}

#[test]
fn find_parents_projects_the_lookups_and_leaves_the_id_arrays_out() {
    let m = social_graph();
    let whom = "whom I follow (for the activities of the users I follow)";
    for design in ["following", "followers", "tbc"] {
        let e = evaluate_offered(&m, design, &EvalOptions::default()).unwrap();
        let o = op(&e, whom);
        let first = &o.typical.commands[0];
        assert!(
            first.mongosh.contains("}, {"),
            "{design}: {}",
            first.mongosh
        );
        // The users found come without the arrays that found them: a user's own fields are
        // well under 200 bytes, whatever their follower count.
        let last = o.typical.commands.last().unwrap();
        let per = last.full.bytes_returned.value / last.full.docs_returned.value;
        assert!(per < 200.0, "{design}: {per} bytes per user");
    }
}
