//! Full-scale size arithmetic against materialized documents.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use squillion::arith::{self, array_size, break_point, document_size_of, At, Size};
use squillion::generate::document_from_fields;
use squillion::model::distribution::Distribution;
use squillion::model::field::{BsonType, Field, Fields};
use squillion::size::{document_size, MAX_BSON_SIZE};
use squillion::stats;

fn fixed(n: u64) -> Distribution {
    Distribution::fixed(n as f64)
}

/// `{_id: ObjectId, username: "wil", email: "wil@example.com", tbc: [2 ObjectIds], followers: [n ObjectIds]}`.
fn wil(n: u64) -> Fields {
    let mut f = Fields::default();
    f.push("_id", Field::of(BsonType::ObjectId));
    f.push("username", Field::string_of_len(3));
    f.push("email", Field::string_of_len(15));
    f.push("tbc", Field::array_of(BsonType::ObjectId, fixed(2)));
    f.push("followers", Field::array_of(BsonType::ObjectId, fixed(n)));
    f
}

/// The social-graph article's document breaks the limit at exactly 844,411 followers.
///
/// Checked with pymongo 4's `bson` (Python 3.11):
/// `len(bson.encode({"_id": ObjectId(), "username": "wil", "email": "wil@example.com",
/// "tbc": [ObjectId(), ObjectId()], "followers": [ObjectId() for _ in range(n)]}))`
/// gives 123 for n = 0, 16,777,213 for n = 844,410 (fits) and 16,777,233 for n = 844,411
/// (over 16,777,216). This test also materializes both documents and measures them.
#[test]
fn wil_breaks_at_844_411_followers() {
    let base = document_size_of(&wil(0), At::Mean);
    assert_eq!(base, Size::exact(123));
    let bp = break_point(base, Size::exact(12)).unwrap_or_else(|| panic!("no break point"));
    assert_eq!(bp.count, 844_411);
    assert!(bp.exact);
    assert_eq!(
        document_size_of(&wil(844_410), At::Mean).whole(),
        16_777_213
    );
    assert_eq!(
        document_size_of(&wil(844_411), At::Mean).whole(),
        16_777_233
    );
    let below = document_from_fields(&wil(844_410), 0.5, 7);
    let above = document_from_fields(&wil(844_411), 0.5, 7);
    assert_eq!(document_size(&below), 16_777_213);
    assert_eq!(document_size(&above), 16_777_233);
    assert!(document_size(&below) <= MAX_BSON_SIZE && document_size(&above) > MAX_BSON_SIZE);
}

fn shapes() -> Vec<(&'static str, Field)> {
    let mut obj = Fields::default();
    obj.push("a", Field::of(BsonType::Int));
    obj.push("name", Field::string_of_len(7));
    obj.push("d", Field::of(BsonType::Date));
    vec![
        ("objectId", Field::of(BsonType::ObjectId)),
        ("int", Field::of(BsonType::Int)),
        ("decimal", Field::of(BsonType::Decimal)),
        ("string", Field::string_of_len(5)),
        (
            "object",
            Field {
                fields: obj,
                ..Field::of(BsonType::Object)
            },
        ),
        ("bool", Field::of(BsonType::Bool)),
        ("null", Field::of(BsonType::Null)),
    ]
}

/// Arithmetic equals the encoded size at digit boundaries of the array index.
#[test]
fn arithmetic_matches_materialized_at_digit_boundaries() {
    let counts = [
        0u64, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 1001, 9_999, 10_000, 10_001, 100_000,
    ];
    for (label, elem) in shapes() {
        for &n in &counts {
            let mut f = Fields::default();
            f.push("_id", Field::of(BsonType::ObjectId));
            f.push("title", Field::string_of_len(12));
            let mut arr = Field::array_of(elem.ty, fixed(n));
            arr.fields = elem.fields.clone();
            arr.length = elem.length.clone();
            f.push("items", arr);
            let arith = document_size_of(&f, At::Mean);
            assert!(arith.exact, "{label} {n}");
            let doc = document_from_fields(&f, 0.5, n);
            assert_eq!(
                arith.whole(),
                document_size(&doc),
                "{label} at {n} elements"
            );
        }
    }
}

/// The break point of arrays of sub-documents is exact: the materialized document fits at
/// `count − 1` and not at `count`.
#[test]
fn break_point_of_sub_documents_is_exact() {
    let (_, elem) = shapes()
        .into_iter()
        .find(|(l, _)| *l == "object")
        .unwrap_or_else(|| panic!("object shape"));
    let with = |n: u64| {
        let mut f = Fields::default();
        f.push("_id", Field::of(BsonType::ObjectId));
        f.push(
            "lines",
            Field::array_of_objects(elem.fields.clone(), fixed(n)),
        );
        f
    };
    let base = document_size_of(&with(0), At::Mean);
    let e = arith::value_size(
        &with(1)
            .get("lines")
            .map(|l| l.element())
            .unwrap_or_else(|| Field::of(BsonType::Null)),
        At::Mean,
    );
    let bp = break_point(base, e).unwrap_or_else(|| panic!("no break point"));
    assert!(bp.exact);
    let fits = document_size(&document_from_fields(&with(bp.count - 1), 0.5, 1));
    let over = document_size(&document_from_fields(&with(bp.count), 0.5, 1));
    assert!(fits <= MAX_BSON_SIZE, "{fits}");
    assert!(over > MAX_BSON_SIZE, "{over}");
}

/// Sizes of 100 million parents with a heavy-tailed distribution cost constant time.
#[test]
fn full_scale_statistics_are_constant_time() {
    let text = include_str!("../../presets/social-graph.json");
    let model = squillion::model::parse_model(text).unwrap_or_else(|e| panic!("{e}"));
    let layout =
        squillion::design::layout_named(&model, squillion::design::DesignName::Denormalized)
            .unwrap_or_else(|e| panic!("{e}"));
    let users = layout
        .collection("user")
        .unwrap_or_else(|| panic!("user collection"));
    assert_eq!(users.count(), 100_000_000.0);
    let start = std::time::Instant::now();
    let st = stats::collection_stats(users, &model.start_date);
    let took = start.elapsed();
    // Debug builds are ~30× slower; release measures well under 1 ms.
    assert!(took.as_millis() < 200, "{took:?}");
    assert!(st.shapes.iter().any(|s| s.max.bytes > MAX_BSON_SIZE));
}

#[test]
fn array_size_closed_form_matches_loop() {
    for n in [0u64, 5, 10, 57, 100, 1234] {
        let looped: u64 = 5 + (0..n).map(|i| 2 + arith::digits(i) + 12).sum::<u64>();
        assert_eq!(array_size(n, 12), looped);
    }
}

fn arb_scalar() -> impl Strategy<Value = Field> {
    prop_oneof![
        Just(Field::of(BsonType::ObjectId)),
        Just(Field::of(BsonType::Int)),
        Just(Field::of(BsonType::Long)),
        Just(Field::of(BsonType::Double)),
        Just(Field::of(BsonType::Decimal)),
        Just(Field::of(BsonType::Bool)),
        Just(Field::of(BsonType::Date)),
        Just(Field::of(BsonType::Timestamp)),
        Just(Field::of(BsonType::Null)),
        Just(Field::of(BsonType::MinKey)),
        Just(Field::of(BsonType::MaxKey)),
        (0u64..40).prop_map(Field::string_of_len),
        (0u64..40).prop_map(|n| Field {
            length: Some(Distribution::fixed(n as f64)),
            ..Field::of(BsonType::BinData)
        }),
        (0u64..20).prop_map(|n| Field {
            length: Some(Distribution::fixed(n as f64)),
            ..Field::of(BsonType::Regex)
        }),
        (0u64..20).prop_map(|n| Field {
            length: Some(Distribution::fixed(n as f64)),
            ..Field::of(BsonType::JavaScript)
        }),
    ]
}

fn arb_fields(depth: u32) -> BoxedStrategy<Fields> {
    let leaf = arb_scalar().boxed();
    let field = if depth == 0 {
        leaf
    } else {
        prop_oneof![
            4 => leaf,
            1 => arb_fields(depth - 1).prop_map(|f| Field { fields: f, ..Field::of(BsonType::Object) }),
            1 => (arb_scalar(), 0u64..120).prop_map(|(e, n)| Field { items: Some(e.ty), length: e.length, count: Some(Distribution::fixed(n as f64)), ..Field::of(BsonType::Array) }),
            1 => (arb_fields(depth - 1), 0u64..30).prop_map(|(f, n)| Field::array_of_objects(f, Distribution::fixed(n as f64))),
        ]
        .boxed()
    };
    prop::collection::vec(("[a-z]{1,12}", field), 0..6)
        .prop_map(|v| {
            let mut f = Fields::default();
            for (n, x) in v {
                f.push(n, x);
            }
            f
        })
        .boxed()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// For any shape with fixed lengths and counts, arithmetic equals the encoded size.
    #[test]
    fn arithmetic_equals_materialized(fields in arb_fields(2), seed in 0u64..1000) {
        let arith = document_size_of(&fields, At::Mean);
        prop_assert!(arith.exact);
        let doc = document_from_fields(&fields, 0.5, seed);
        prop_assert_eq!(arith.whole(), document_size(&doc));
    }

    /// With a uniform count, every quantile's arithmetic size equals the materialized size of
    /// a document at that quantile.
    #[test]
    fn quantile_sizes_equal_materialized(n in 0u64..2000, q in 0.0f64..=1.0, elem in arb_scalar()) {
        let mut f = Fields::default();
        f.push("_id", Field::of(BsonType::ObjectId));
        f.push("xs", Field { items: Some(elem.ty), length: elem.length, count: Some(Distribution::Uniform { min: 0.0, max: n as f64 }), ..Field::of(BsonType::Array) });
        let arith = document_size_of(&f, At::Quantile(q));
        let doc = document_from_fields(&f, q, 3);
        prop_assert_eq!(arith.whole(), document_size(&doc));
    }
}

/// The largest parent is generated first, truncated to keep generation instant, and its full
/// size (from the truncated document plus the closed-form bytes of the missing elements)
/// equals the arithmetic maximum of its collection.
#[test]
fn largest_parent_is_sized_exactly_despite_truncation() {
    let text = r#"{
      "entities": [
        { "name": "user", "count": 100000000, "fields": {
            "username": { "type": "string", "length": { "shape": "fixed", "value": 3 } },
            "email": { "type": "string", "length": { "shape": "fixed", "value": 15 } } } }
      ],
      "relationships": [
        { "name": "followers", "parent": "user", "child": "user", "many_to_many": true,
          "cardinality": { "shape": "zipf", "min": 0, "typical": 50, "p99": 5000, "max": 40000000 } }
      ],
      "sample": { "max_documents": 50 },
      "design": { "relationships": { "followers": { "strategy": "reference_in_parent" } } }
    }"#;
    let model = squillion::model::parse_model(text).unwrap_or_else(|e| panic!("{e}"));
    let layout = squillion::design::layout_model(&model).unwrap_or_else(|e| panic!("{e}"));
    let data = squillion::generate::generate(&model, &layout);
    let users = data.collection("user").unwrap_or_else(|| panic!("users"));
    assert_eq!(
        users.truncated.first().map(|t| (t.document, t.full_count)),
        Some((0, 40_000_000))
    );
    let (full, exact) = data.full_size("user", 0).unwrap_or_else(|| panic!("doc 0"));
    assert!(exact);
    let stats = stats::collection_stats(
        layout.collection("user").unwrap_or_else(|| panic!("user")),
        &model.start_date,
    );
    assert_eq!(
        stats.shapes[0].max,
        squillion::stats::SizeFigure {
            bytes: full,
            exact: true
        }
    );
    // 40,000,000 ObjectIds: 5 + 40,000,000 × 14 + Σ digits(0..40,000,000) = 5 + 560,000,000 +
    // 308,888,890 = 868,888,895; plus 4 + _id 17 + username 18 + email 27 + the key
    // "followers" 11 (type, 9, NUL) + 1 = 868,888,973.
    assert_eq!(full, 868_888_973);
}
