//! Property tests over arbitrary BSON of every type: the arithmetic size equals the encoder's,
//! the analysis totals agree, and documents survive the shell and canonical Extended JSON
//! writers and our reader.
#![cfg(not(target_arch = "wasm32"))]

use bson::{
    oid::ObjectId, spec::BinarySubtype, Binary, Bson, DateTime, Decimal128, Document,
    JavaScriptCodeWithScope, Regex, Timestamp,
};
use proptest::prelude::*;
use squillion::ejson::{db_pointer, parse_document, to_canonical_ejson, to_shell_string};
use squillion::size::{analyze, document_size, value_size};

/// Field names: anything but NUL (which BSON cannot store) and `$`, so that no generated
/// document looks like an Extended JSON wrapper.
fn key() -> impl Strategy<Value = String> {
    "[^\\x00$]{0,8}"
}

fn text() -> impl Strategy<Value = String> {
    "\\PC{0,12}|[a-z\\x00\\n'\"\\\\/é😀]{0,12}"
}

fn decimal() -> impl Strategy<Value = Decimal128> {
    prop_oneof![
        (any::<bool>(), any::<u64>(), -6176i32..=6111)
            .prop_map(|(neg, c, e)| format!("{}{c}E{e}", if neg { "-" } else { "" })),
        Just("Infinity".to_string()),
        Just("-Infinity".to_string()),
        Just("NaN".to_string()),
        Just("-0".to_string()),
    ]
    .prop_filter_map("parsable decimal", |s| s.parse::<Decimal128>().ok())
}

fn leaf() -> impl Strategy<Value = Bson> {
    prop_oneof![
        any::<f64>().prop_map(|v| Bson::Double(if v.is_nan() { f64::NAN } else { v })),
        text().prop_map(Bson::String),
        any::<bool>().prop_map(Bson::Boolean),
        Just(Bson::Null),
        Just(Bson::Undefined),
        Just(Bson::MinKey),
        Just(Bson::MaxKey),
        any::<i32>().prop_map(Bson::Int32),
        any::<i64>().prop_map(Bson::Int64),
        any::<[u8; 12]>().prop_map(|b| Bson::ObjectId(ObjectId::from_bytes(b))),
        any::<i64>().prop_map(|ms| Bson::DateTime(DateTime::from_millis(ms))),
        (-62_167_219_200_000i64..253_402_300_800_000)
            .prop_map(|ms| Bson::DateTime(DateTime::from_millis(ms))),
        decimal().prop_map(Bson::Decimal128),
        (any::<u8>(), prop::collection::vec(any::<u8>(), 0..40)).prop_map(|(st, bytes)| {
            Bson::Binary(Binary {
                subtype: BinarySubtype::from(st),
                bytes,
            })
        }),
        prop::collection::vec(any::<u8>(), 16..=16).prop_map(|bytes| Bson::Binary(Binary {
            subtype: BinarySubtype::Uuid,
            bytes
        })),
        prop::collection::vec(any::<u8>(), 0..20).prop_map(|bytes| Bson::Binary(Binary {
            subtype: BinarySubtype::BinaryOld,
            bytes
        })),
        (
            "[^\\x00]{0,10}",
            prop::sample::subsequence(vec!['i', 'l', 'm', 's', 'u', 'x'], 0..=6)
        )
            .prop_map(|(p, o)| {
                Bson::RegularExpression(Regex {
                    pattern: p.try_into().unwrap(),
                    options: o.into_iter().collect::<String>().try_into().unwrap(),
                })
            }),
        (any::<u32>(), any::<u32>())
            .prop_map(|(time, increment)| Bson::Timestamp(Timestamp { time, increment })),
        text().prop_map(Bson::JavaScriptCode),
        text().prop_map(Bson::Symbol),
        ("[^\\x00]{0,12}", any::<[u8; 12]>()).prop_map(|(ns, id)| db_pointer(
            &ns,
            ObjectId::from_bytes(id)
        )
        .unwrap()),
    ]
}

fn document_of(value: impl Strategy<Value = Bson>) -> impl Strategy<Value = Document> {
    prop::collection::vec((key(), value), 0..6).prop_map(|fields| fields.into_iter().collect())
}

fn bson() -> impl Strategy<Value = Bson> {
    leaf().prop_recursive(5, 96, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Bson::Array),
            document_of(inner.clone()).prop_map(Bson::Document),
            (text(), document_of(inner)).prop_map(|(code, scope)| {
                Bson::JavaScriptCodeWithScope(JavaScriptCodeWithScope { code, scope })
            }),
        ]
    })
}

fn document() -> impl Strategy<Value = Document> {
    document_of(bson())
}

fn encoded(doc: &Document) -> Vec<u8> {
    doc.to_vec().expect("generated documents encode")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn size_equals_the_encoder(doc in document()) {
        prop_assert_eq!(document_size(&doc), encoded(&doc).len() as u64);
        for (key, value) in &doc {
            let mut single = Document::new();
            single.insert(key.clone(), value.clone());
            prop_assert_eq!(value_size(value), encoded(&single).len() as u64 - 7 - key.len() as u64);
        }
    }

    #[test]
    fn analysis_totals_agree(doc in document()) {
        let a = analyze(&doc);
        prop_assert_eq!(a.size, encoded(&doc).len() as u64);
        let top: u64 = a.fields.iter().filter(|f| f.depth == 1).map(|f| f.key_bytes + f.value_bytes).sum();
        prop_assert_eq!(top + 5, a.size);
        let keys: u64 = a.fields.iter().map(|f| f.key_bytes - 1).sum();
        prop_assert_eq!(keys, a.field_name_bytes + a.array_index_bytes);
        prop_assert_eq!(a.fields_omitted, 0);
        let containers = a.fields.iter().filter(|f| f.elements.is_some()).count() as u64 + 1;
        prop_assert_eq!(a.framing_bytes, a.fields.len() as u64 + 5 * containers);
        prop_assert!(a.depth >= 1);
    }

    #[test]
    fn shell_form_round_trips(doc in document(), pretty in any::<bool>()) {
        let text = to_shell_string(&Bson::Document(doc.clone()), pretty);
        let again = parse_document(&text).map_err(|e| TestCaseError::fail(format!("{text}\n{e}")))?;
        prop_assert_eq!(encoded(&again), encoded(&doc), "{}", text);
    }

    #[test]
    fn canonical_extended_json_round_trips(doc in document()) {
        let text = to_canonical_ejson(&doc);
        let again = parse_document(&text).map_err(|e| TestCaseError::fail(format!("{text}\n{e}")))?;
        prop_assert_eq!(encoded(&again), encoded(&doc), "{}", text);
    }
}
