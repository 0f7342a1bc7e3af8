//! The 16 MiB document limit and the nesting limit, enforced as mongod does.
#![cfg(not(target_arch = "wasm32"))]

use bson::{doc, Document};
use squillion::engine::Database;
use squillion::size::{document_size, MAX_BSON_SIZE};

/// `{_id: 1, s: <n bytes>}` is 22 + n bytes.
fn doc_of_size(size: u64) -> Document {
    let n = usize::try_from(size - 22).unwrap_or(0);
    doc! {"_id": 1, "s": "x".repeat(n)}
}

#[test]
fn exactly_16_mib_is_accepted_one_more_byte_is_not() {
    let ok = doc_of_size(MAX_BSON_SIZE);
    assert_eq!(document_size(&ok), MAX_BSON_SIZE);
    let mut db = Database::new();
    let r = db.insert_one("c", ok);
    assert!(r.is_ok(), "{r:?}");
    assert_eq!(
        r.map(|r| r.stats.write.bytes_written).ok(),
        Some(MAX_BSON_SIZE)
    );

    let mut db = Database::new();
    let too_big = doc_of_size(MAX_BSON_SIZE + 1);
    let e = db.insert_one("c", too_big).err();
    assert_eq!(e.as_ref().map(|e| e.code), Some(10334), "{e:?}");
    assert_eq!(db.collection("c").map(|c| c.len()).unwrap_or(0), 0);
}

#[test]
fn an_update_past_the_limit_fails_with_17419_and_changes_nothing() {
    let mut db = Database::new();
    let start = doc_of_size(MAX_BSON_SIZE - 10);
    assert!(db.insert_one("c", start.clone()).is_ok());
    // $set of a 1-byte longer string: still within; then $push past the limit.
    let r = db.update_one("c", doc! {"_id": 1}, doc! {"$set": {"t": "abc"}}, false);
    assert_eq!(
        r.err().map(|e| e.code),
        Some(17419),
        "t adds 1+2+4+4 = 11 bytes > 10"
    );
    assert_eq!(db.find_one("c", doc! {}).ok().flatten(), Some(start));
}

#[test]
fn nesting_deeper_than_100_levels_is_refused() {
    let mut nested = doc! {"v": 1};
    for _ in 0..99 {
        nested = doc! {"a": nested};
    }
    let mut db = Database::new();
    assert!(
        db.insert_one("c", nested.clone()).is_ok(),
        "100 levels are allowed"
    );
    let deeper = doc! {"a": nested};
    assert_eq!(db.insert_one("c", deeper).err().map(|e| e.code), Some(15));
}

#[test]
fn ordered_insert_many_reports_how_many_went_in() {
    let mut db = Database::new();
    let e = db
        .insert_many(
            "c",
            vec![
                doc! {"_id": 1},
                doc! {"_id": 2},
                doc! {"_id": 1},
                doc! {"_id": 3},
            ],
            true,
        )
        .err();
    assert_eq!(
        e.as_ref().map(|e| (e.code, e.n_inserted)),
        Some((11000, Some(2)))
    );
    assert!(e.map(|e| e.message).unwrap_or_default().starts_with(
        "E11000 duplicate key error collection: test.c index: _id_ dup key: { _id: 1 }"
    ));
}

#[test]
fn generated_ids_are_object_ids_and_unique() {
    let mut db = Database::new();
    let r = db
        .insert_many("c", vec![doc! {"a": 1}, doc! {"a": 2}], true)
        .ok();
    let ids = r.map(|r| r.inserted_ids).unwrap_or_default();
    assert_eq!(ids.len(), 2);
    assert!(ids.iter().all(|i| matches!(i, bson::Bson::ObjectId(_))));
    assert_ne!(ids.first(), ids.get(1));
}
