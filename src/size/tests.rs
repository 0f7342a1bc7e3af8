//! Unit tests of the size arithmetic against bson's encoder.

use bson::{doc, oid::ObjectId, spec::BinarySubtype, Binary, Bson, Document};

use super::*;

fn encoded(doc: &Document) -> u64 {
    doc.to_vec().unwrap().len() as u64
}

#[test]
fn empty_document_is_five_bytes() {
    assert_eq!(document_size(&Document::new()), 5);
}

#[test]
fn every_type_matches_the_encoder() {
    let pointer = crate::ejson::db_pointer("db.coll", ObjectId::from_bytes([7; 12])).unwrap();
    let d = doc! {
        "double": 1.5, "string": "héllo", "doc": {"a": 1}, "array": [1, "two", [3]],
        "bin": Binary { subtype: BinarySubtype::Generic, bytes: vec![1, 2, 3] },
        "old": Binary { subtype: BinarySubtype::BinaryOld, bytes: vec![1, 2, 3] },
        "undefined": Bson::Undefined, "oid": ObjectId::from_bytes([1; 12]), "bool": true,
        "date": bson::DateTime::from_millis(5), "null": Bson::Null,
        "regex": Bson::RegularExpression(bson::Regex { pattern: "a+".to_string().try_into().unwrap(), options: "i".to_string().try_into().unwrap() }),
        "pointer": pointer, "code": Bson::JavaScriptCode("f()".into()), "symbol": Bson::Symbol("s".into()),
        "scoped": Bson::JavaScriptCodeWithScope(bson::JavaScriptCodeWithScope { code: "f(x)".into(), scope: doc! {"x": 1} }),
        "int": 1, "ts": bson::Timestamp { time: 1, increment: 2 }, "long": Bson::Int64(1),
        "dec": Bson::Decimal128("1.5".parse().unwrap()), "min": Bson::MinKey, "max": Bson::MaxKey,
    };
    assert_eq!(document_size(&d), encoded(&d));
    for (key, value) in &d {
        let single = doc! { key.clone(): value.clone() };
        assert_eq!(document_size(&single), encoded(&single), "{key}");
        assert_eq!(
            value_size(value),
            encoded(&single) - 5 - 2 - key.len() as u64,
            "{key}"
        );
    }
}

#[test]
fn array_index_digits_cross_their_boundaries() {
    for n in [0usize, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 1001, 10_001] {
        let d = doc! { "a": (0..n as i32).collect::<Vec<i32>>() };
        assert_eq!(document_size(&d), encoded(&d), "{n} elements");
    }
    assert_eq!(decimal_digits(0), 1);
    assert_eq!(decimal_digits(9), 1);
    assert_eq!(decimal_digits(10), 2);
    assert_eq!(decimal_digits(usize::MAX), 20);
}

#[test]
fn analysis_lists_every_field_in_pre_order() {
    let d = doc! { "a": 1, "b": { "c": "x", "d": [true, null] } };
    let a = analyze(&d);
    assert_eq!(a.size, encoded(&d));
    let paths: Vec<&str> = a.fields.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, vec!["a", "b", "b.c", "b.d", "b.d.0", "b.d.1"]);
    assert_eq!(a.depth, 3);
    assert_eq!(a.field_name_bytes, 2 + 2 + 2 + 2);
    assert_eq!(a.array_index_bytes, 2 + 2);
    // Six type bytes, and 4 + 1 for each of the three containers (top, b, b.d).
    assert_eq!(a.framing_bytes, 6 + 3 * 5);
    // What is left are the values: int32 4, "x" 4 + 1 + 1, true 1, null 0.
    assert_eq!(
        a.size - a.field_name_bytes - a.array_index_bytes - a.framing_bytes,
        11
    );
    assert_eq!(a.status, LimitStatus::Ok);
    let b = &a.fields[1];
    assert_eq!(
        (b.bson_type, b.key_bytes, b.elements, b.depth),
        ("object", 3, Some(2), 1)
    );
    assert_eq!(b.value_bytes, value_size(d.get("b").unwrap()));
    let top: u64 = a
        .fields
        .iter()
        .filter(|f| f.depth == 1)
        .map(|f| f.key_bytes + f.value_bytes)
        .sum();
    assert_eq!(top + 5, a.size);
    assert_eq!(a.fields[4].depth, 3);
}

#[test]
fn analysis_row_limit_keeps_totals_exact() {
    let d = doc! { "big": (0..5000).collect::<Vec<i32>>(), "after": 1 };
    let full = analyze(&d);
    let limited = analyze_with_limit(&d, 10);
    assert_eq!(limited.fields.len(), 10);
    assert_eq!(limited.fields_omitted, full.fields.len() - 10);
    assert_eq!(
        (
            limited.size,
            limited.array_index_bytes,
            limited.field_name_bytes
        ),
        (full.size, full.array_index_bytes, full.field_name_bytes)
    );
    assert_eq!(limited.fields[0].value_bytes, full.fields[0].value_bytes);
}

#[test]
fn limit_status_thresholds() {
    assert_eq!(LimitStatus::of(MAX_BSON_SIZE, 1), LimitStatus::Warning);
    assert_eq!(
        LimitStatus::of(MAX_BSON_SIZE + 1, 1),
        LimitStatus::OverLimit
    );
    assert_eq!(LimitStatus::of(13_421_773, 1), LimitStatus::Warning);
    assert_eq!(LimitStatus::of(13_421_772, 1), LimitStatus::Ok);
    assert_eq!(LimitStatus::of(100, 100), LimitStatus::Ok);
    assert_eq!(LimitStatus::of(100, 101), LimitStatus::TooDeep);
    assert_eq!(
        LimitStatus::of(MAX_BSON_SIZE + 1, 101),
        LimitStatus::OverLimit
    );
    assert_eq!(share_of_limit(MAX_BSON_SIZE / 4), 0.25);
}

#[test]
fn depth_counts_documents_and_arrays() {
    let mut d = doc! { "leaf": 1 };
    for _ in 0..100 {
        d = doc! { "n": d };
    }
    assert_eq!(analyze(&d).depth, 101);
    assert_eq!(analyze(&d).status, LimitStatus::TooDeep);
    assert_eq!(analyze(&doc! {"a": []}).depth, 2);
}

#[test]
fn an_element_limit_lists_the_first_elements_and_the_fields_after_the_array() {
    let followers: Vec<Bson> = (0..1000).map(|i| bson::bson!({ "id": i })).collect();
    let d = doc! { "_id": 1, "followers": followers, "name": "celebrity" };
    let full = analyze(&d);
    let short = analyze_with_limits(&d, 100, 3);
    let paths: Vec<&str> = short.fields.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "_id",
            "followers",
            "followers.0",
            "followers.0.id",
            "followers.1",
            "followers.1.id",
            "followers.2",
            "followers.2.id",
            "name"
        ]
    );
    // Totals, the array's own row and the omitted count stay exact.
    assert_eq!(short.size, full.size);
    assert_eq!(short.size, document_size(&d));
    assert_eq!(short.array_index_bytes, full.array_index_bytes);
    assert_eq!(short.fields[1], full.fields[1]);
    assert_eq!(short.fields[1].elements, Some(1000));
    assert_eq!(short.fields_omitted, full.fields.len() - short.fields.len());
}

#[test]
fn an_analysis_reads_back_from_its_json() {
    // One value of every BSON type: each alias reads back.
    let d = doc! {
        "_id": ObjectId::new(), "tags": ["a", "b"], "at": bson::DateTime::from_millis(0),
        "n": 5_i64, "i": 5, "x": 1.5, "ok": true, "none": Bson::Null, "u": Bson::Undefined,
        "min": Bson::MinKey, "max": Bson::MaxKey, "sub": { "a": 1 },
        "re": Bson::RegularExpression(bson::Regex {
            pattern: "^a".to_string().try_into().unwrap(),
            options: "i".to_string().try_into().unwrap(),
        }),
        "js": Bson::JavaScriptCode("1".into()),
        "jss": Bson::JavaScriptCodeWithScope(bson::JavaScriptCodeWithScope { code: "1".into(), scope: doc! {} }),
        "ts": Bson::Timestamp(bson::Timestamp { time: 1, increment: 1 }),
        "bin": Binary { subtype: BinarySubtype::Generic, bytes: vec![1] },
        "sym": Bson::Symbol("s".into()),
        "dec": Bson::Decimal128(bson::Decimal128::from_bytes([0; 16])),
        "ptr": crate::ejson::db_pointer("db.c", ObjectId::new()).unwrap(),
    };
    let a = analyze(&d);
    assert_eq!(a.fields.iter().filter(|f| f.depth == 1).count(), d.len());
    let back: Analysis = serde_json::from_str(&serde_json::to_string(&a).unwrap()).unwrap();
    assert_eq!(back, a);
    let bad = serde_json::to_string(&a)
        .unwrap()
        .replace("\"objectId\"", "\"nope\"");
    assert!(serde_json::from_str::<Analysis>(&bad).is_err());
}
