//! Each expected text is what Node 20's `util.inspect` prints for the same value with
//! mongosh's options (`depth: 6`, explain output `depth: Infinity`; Node's defaults
//! `breakLength: 80`, `compact: 3`), as mongosh's `format-output.ts` calls it. They were
//! produced by running `util.inspect` on the JavaScript values written in each comment.

use bson::{doc, oid::ObjectId, Bson, DateTime};

use super::*;

fn d(doc: bson::Document) -> Bson {
    Bson::Document(doc)
}

#[test]
fn short_documents_stay_on_one_line_with_quoted_keys() {
    // { _id: 1, name: 'alice', 'customer._id': 1, tags: ['a', 'b'] }
    assert_eq!(
        inspect(&d(
            doc! { "_id": 1, "name": "alice", "customer._id": 1, "tags": ["a", "b"] }
        )),
        "{ _id: 1, name: 'alice', 'customer._id': 1, tags: [ 'a', 'b' ] }"
    );
    // A key pattern is valid mongosh: { 'customer._id': 1, date: -1 }
    assert_eq!(
        inspect(&d(doc! { "customer._id": 1, "date": -1 })),
        "{ 'customer._id': 1, date: -1 }"
    );
}

#[test]
fn more_than_three_levels_break_even_when_short() {
    // { a: { b: { c: { d: 1 } } } }
    assert_eq!(
        inspect(&d(doc! { "a": { "b": { "c": { "d": 1 } } } })),
        "{\n  a: { b: { c: { d: 1 } } }\n}"
    );
}

#[test]
fn long_documents_take_one_field_per_line() {
    let v = d(doc! {
        "_id": "celebrity-1", "name": "Celebrity One", "email": "celebrity1@example.com",
        "followers": ["alice", "bob", "carol"],
    });
    assert_eq!(inspect(&v), "{\n  _id: 'celebrity-1',\n  name: 'Celebrity One',\n  email: 'celebrity1@example.com',\n  followers: [ 'alice', 'bob', 'carol' ]\n}");
}

#[test]
fn long_arrays_are_laid_out_in_columns() {
    // [1, 2, …, 20, 100, 2000]: numbers right-aligned
    let mut nums: Vec<Bson> = (1..=20).map(Bson::Int32).collect();
    nums.push(Bson::Int32(100));
    nums.push(Bson::Int32(2000));
    assert_eq!(inspect(&Bson::Array(nums)), "[\n   1,  2,   3,    4,  5,  6,\n   7,  8,   9,   10, 11, 12,\n  13, 14,  15,   16, 17, 18,\n  19, 20, 100, 2000\n]");
    // ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace']: strings left-aligned
    let names = ["alice", "bob", "carol", "dave", "erin", "frank", "grace"];
    let strs = Bson::Array(names.iter().map(|s| Bson::String(s.to_string())).collect());
    assert_eq!(
        inspect(&strs),
        "[\n  'alice', 'bob',\n  'carol', 'dave',\n  'erin',  'frank',\n  'grace'\n]"
    );
}

#[test]
fn strings_choose_their_quotes() {
    // { a: "it's", b: 'say "hi"', c: `both ' and "` }
    let v = d(doc! { "a": "it's", "b": "say \"hi\"", "c": "both ' and \"" });
    assert_eq!(
        inspect(&v),
        "{ a: \"it's\", b: 'say \"hi\"', c: `both ' and \"` }"
    );
}

#[test]
fn results_stop_at_depth_six_explain_does_not() {
    let deep =
        d(doc! { "l1": { "l2": { "l3": { "l4": { "l5": { "l6": { "l7": { "l8": 1 } } } } } } } });
    assert_eq!(inspect(&deep), "{\n  l1: {\n    l2: {\n      l3: {\n        l4: { l5: { l6: { l7: [Object] } } }\n      }\n    }\n  }\n}");
    assert!(inspect_all(&deep).contains("l8: 1"));
}

#[test]
fn an_explain_document_prints_as_in_mongosh() {
    let v = d(doc! {
        "explainVersion": "1",
        "queryPlanner": {
            "namespace": "test.users",
            "winningPlan": {
                "stage": "FETCH",
                "inputStage": {
                    "stage": "IXSCAN", "keyPattern": { "followers": 1 }, "indexName": "followers_1",
                    "isMultiKey": true, "direction": "forward",
                    "indexBounds": { "followers": ["[\"grace\", \"grace\"]"] },
                },
            },
            "rejectedPlans": [],
        },
        "ok": 1,
    });
    assert_eq!(inspect_all(&v), "{\n  explainVersion: '1',\n  queryPlanner: {\n    namespace: 'test.users',\n    winningPlan: {\n      stage: 'FETCH',\n      inputStage: {\n        stage: 'IXSCAN',\n        keyPattern: { followers: 1 },\n        indexName: 'followers_1',\n        isMultiKey: true,\n        direction: 'forward',\n        indexBounds: { followers: [ '[\"grace\", \"grace\"]' ] }\n      }\n    },\n    rejectedPlans: []\n  },\n  ok: 1\n}");
}

#[test]
fn bson_values_print_as_mongosh_prints_them() {
    // mongosh's printers (printable-bson.ts, format-output.ts): Long for 64-bit integers,
    // plain numbers for 32-bit integers and doubles.
    let id = ObjectId::parse_str("66d21b961b2e738600000024").unwrap();
    let v = d(doc! {
        "_id": id, "n": 12_i64, "i": 12, "x": 1.0, "y": 1.5,
        "at": DateTime::from_millis(0),
    });
    assert_eq!(
        inspect(&v),
        "{\n  _id: ObjectId('66d21b961b2e738600000024'),\n  n: Long('12'),\n  i: 12,\n  x: 1,\n  y: 1.5,\n  at: ISODate('1970-01-01T00:00:00.000Z')\n}"
    );
    assert_eq!(inspect(&Bson::Double(1e21)), "1e+21");
    assert_eq!(inspect(&Bson::Double(-0.0)), "-0");
    assert_eq!(inspect(&Bson::Int32(12)), "12");
}
