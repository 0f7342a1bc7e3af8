//! Every tail true (issue #15): a document's largest size is every field at its maximum,
//! exact and equal to the document the generator materializes; no sampled document is larger;
//! p50/p99 come from the distribution of every field; a file in a document that passes 16 MiB
//! is an error that says how many documents and why. Largest documents are checked against
//! pymongo's `bson.encode` (the peer), not against ourselves.
#![cfg(not(target_arch = "wasm32"))]

use crate::common::pymongo;

use proptest::prelude::*;
use squillion::design::Layout;
use squillion::eval::offer::offers;
use squillion::generate::{document_from_fields, generate};
use squillion::model::distribution::Distribution;
use squillion::model::field::{BsonType, Field, Fields};
use squillion::model::{parse_model, Model};
use squillion::size::document_size;
use squillion::stats::collection_stats;
use squillion::warning::{check, Severity};

/// Largest documents up to 16 MiB are materialized whole and compared byte for byte (a value
/// is never generated longer than 16 MiB; the larger documents, e.g. 40 million follower ids,
/// are computed as arrays always were, and `the_largest_sample_is_the_largest_document` checks
/// the bytes the sample cut are given back exactly).
const MATERIALIZE_UP_TO: u64 = 16 * 1024 * 1024;

fn model_file(path: &str) -> Model {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse_model(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Every preset's and test model's designs, with their names.
fn every_layout() -> Vec<(String, Model, Layout)> {
    let mut models: Vec<(String, Model)> = squillion::presets::all()
        .iter()
        .map(|p| {
            let m = p.model().unwrap_or_else(|e| panic!("{}: {e}", p.name));
            (p.name.to_string(), m)
        })
        .collect();
    for name in ["orders", "feed", "products", "logs", "attachments"] {
        models.push((
            name.to_string(),
            model_file(&format!("tests/models/{name}.json")),
        ));
    }
    let mut out = Vec::new();
    for (name, m) in models {
        for o in offers(&m) {
            let l = o
                .layout()
                .unwrap_or_else(|e| panic!("{name}/{}: {e}", o.id));
            out.push((format!("{name}/{}", o.id), o.model.clone(), l));
        }
    }
    out
}

/// The largest document of every shape of every preset and test model, materialized with
/// every field at its maximum: its exact size is the reported largest, by our encoder and by
/// pymongo's.
#[test]
fn largest_documents_are_exact_against_pymongo() {
    let mut corpus = String::new();
    let mut expected = Vec::new();
    let mut checked = 0;
    for (name, m, l) in every_layout() {
        for c in &l.collections {
            let stats = collection_stats(c, &m.start_date);
            for (shape, st) in c.shapes.iter().zip(&stats.shapes) {
                assert!(st.max.exact, "{name} {}: largest not exact", c.name);
                if st.max.bytes > MATERIALIZE_UP_TO {
                    continue;
                }
                let doc = document_from_fields(&shape.fields, 1.0, m.seed);
                let size = document_size(&doc);
                assert_eq!(
                    size, st.max.bytes,
                    "{name} {} {}: materialized largest",
                    c.name, shape.label
                );
                assert!(
                    st.p99.bytes <= st.max.bytes && st.p50.bytes <= st.p99.bytes,
                    "{name} {}: p50 {} p99 {} max {}",
                    c.name,
                    st.p50.bytes,
                    st.p99.bytes,
                    st.max.bytes
                );
                let line = bson::Bson::Document(doc)
                    .into_canonical_extjson()
                    .to_string();
                corpus.push_str(&line);
                corpus.push('\n');
                expected.push((format!("{name} {} {}", c.name, shape.label), size));
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "only {checked} documents checked");
    let peer = pymongo::sizes_of_lines(&corpus);
    assert_eq!(peer.len(), expected.len(), "pymongo read every line");
    for ((what, ours), theirs) in expected.iter().zip(&peer) {
        assert_eq!(ours, theirs, "{what}: our size vs pymongo's");
    }
}

/// The issue's message: binData attachment, lognormal typical 200,000, p99 5,000,000, max
/// 25,000,000 bytes, presence 0.3. The largest message is exact; p99 is the quantile of the
/// sum (≈ the attachment's 1 − 0.01/0.3 quantile, 2.53 MB); the share over 16 MiB is
/// 0.3 × P(L > 16 MiB − the rest), ≈ 0.0205%, ≈ 41 of 200,000 documents; it is an error
/// that names the attachment and offers GridFS.
#[test]
fn an_attachment_past_16_mib_is_an_error_with_its_share() {
    let m = model_file("tests/models/attachments.json");
    let l = squillion::design::layout_model(&m).unwrap_or_else(|e| panic!("{e}"));
    let c = l.collection("message").unwrap_or_else(|| panic!("message"));
    let st = collection_stats(c, &m.start_date);
    let s = st.shapes.first().unwrap_or_else(|| panic!("shape"));
    // _id 17 + at 11 + text (4+5+200+1 = 210 +5) + attachment (1+11+4+1+25,000,000) + 5.
    assert_eq!(s.max.bytes, 25_000_288);
    assert!(s.max.exact);
    // The attachment's own quantile: σ = ln(25)/z99; P(present and L > x) = 0.01.
    let sigma = (25f64).ln() / 2.326_347_874_040_841;
    let z = inverse_phi(1.0 - 0.01 / 0.3);
    let attachment_p99 = 200_000.0 * (sigma * z).exp();
    let p99 = s.p99.bytes as f64;
    assert!(
        (p99 - attachment_p99).abs() / attachment_p99 < 0.03,
        "p99 {p99} vs the attachment's {attachment_p99}"
    );
    let [lo, hi] = s
        .p99_bounds
        .unwrap_or_else(|| panic!("an estimate has bounds"));
    assert!(lo as f64 <= attachment_p99 && attachment_p99 <= hi as f64);
    let over = s
        .over_limit
        .as_ref()
        .unwrap_or_else(|| panic!("over 16 MiB"));
    // The rest of the document is ≈ 230 bytes: P(L > 16,777,216 − 230).
    let y = ((16_777_216.0 - 230.0) / 200_000.0f64).ln() / sigma;
    let share = 0.3 * 0.5 * erfc(y / std::f64::consts::SQRT_2);
    assert!(
        (over.share - share).abs() / share < 0.01,
        "{} vs {share}",
        over.share
    );
    assert_eq!(over.documents.round(), (share * 200_000.0).round());
    assert_eq!(over.fields, vec!["attachment".to_string()]);
    let e = value_over_limit(&m, &l, "attachment");
    // The largest expected among 200,000 (25,000,277 bytes: more than 1 in 200,000 attachments
    // reach the 25,000,000-byte maximum, so the quantile is at the clamp), an estimate; the
    // bound is 25,000,288 bytes, 8,223,072 over the limit.
    assert!(
        e.message
            .contains("23.84 MiB (estimate), 7.84 MiB over the 16 MiB limit"),
        "{}",
        e.message
    );
    assert!(
        e.message.contains("0.0205% of message documents (≈ 41)"),
        "{}",
        e.message
    );
    // The article body (lognormal to 20,000 bytes) is at its longest in the largest article.
    let a = l.collection("article").unwrap_or_else(|| panic!("article"));
    let st = collection_stats(a, &m.start_date);
    let s = st.shapes.first().unwrap_or_else(|| panic!("shape"));
    assert_eq!(
        s.max.bytes,
        5 + 17 + (1 + 6 + 4 + 10 + 1) + (1 + 5 + 4 + 20_000 + 1)
    );
}

/// A fixed 25,000,000-byte binData field: every document is over 16 MiB, because of that
/// field, and the fix is GridFS or object storage, not "Cap the array".
#[test]
fn a_fixed_file_past_16_mib_names_its_field() {
    let m = parse_model(
        r#"{ "entities": [ { "name": "doc", "count": 1000, "fields": {
            "title": { "type": "string", "kind": "word" },
            "file": { "type": "binData", "length": { "shape": "fixed", "value": 25000000 } } } } ] }"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let l = squillion::design::layout_model(&m).unwrap_or_else(|e| panic!("{e}"));
    let e = value_over_limit(&m, &l, "file");
    assert!(
        e.message.contains("100% of doc documents (1,000)"),
        "{}",
        e.message
    );
}

/// Returns the layout's DOC_OVER_LIMIT, asserting it is an error about the value `field`
/// whose fix is GridFS or object storage, not "Cap the array".
fn value_over_limit(m: &Model, l: &Layout, field: &str) -> squillion::warning::Warning {
    let w = check(m, l);
    let e = w
        .into_iter()
        .find(|w| w.code == "DOC_OVER_LIMIT")
        .unwrap_or_else(|| panic!("no DOC_OVER_LIMIT"));
    assert_eq!((e.severity, e.path.as_str()), (Severity::Error, field));
    assert!(
        e.fix.contains("GridFS") && !e.fix.contains("Cap"),
        "{}",
        e.fix
    );
    e
}

/// The page's sample card and the table agree: the largest sampled document is the largest
/// document, its full size exact (the bytes the sample cut from the attachment given back).
#[test]
fn the_largest_sample_is_the_largest_document() {
    let m = model_file("tests/models/attachments.json");
    let l = squillion::design::layout_model(&m).unwrap_or_else(|e| panic!("{e}"));
    let e = squillion::eval::evaluate_layout(&m, l, &Default::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let c = e
        .collections
        .iter()
        .find(|c| c.name == "message")
        .unwrap_or_else(|| panic!("message"));
    let samples = c.samples.as_ref().unwrap_or_else(|| panic!("samples"));
    let max = c
        .stats
        .shapes
        .first()
        .map(|s| s.max)
        .unwrap_or_else(|| panic!("shape"));
    assert_eq!(samples.largest.full_bytes.bytes, max.bytes);
    assert!(samples.largest.full_bytes.exact);
    assert!(
        samples.largest.bytes <= 16 * 1024 * 1024,
        "the engine stores it"
    );
}

/// Erfc by its continued-fraction-free series (Numerical Recipes' erfc approximation,
/// fractional error < 1.2e-7): enough for a 1% check.
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// Φ⁻¹ by bisection on Φ(x) = 1 − erfc(x/√2)/2.
fn inverse_phi(p: f64) -> f64 {
    let (mut lo, mut hi) = (-10.0f64, 10.0f64);
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if 1.0 - 0.5 * erfc(mid / std::f64::consts::SQRT_2) < p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// A random field: scalars of every kind of size, optional fields, strings and binData of
/// every length shape, arrays and sub-documents (two levels).
fn field(depth: u32) -> BoxedStrategy<Field> {
    let length = prop_oneof![
        (0u32..300).prop_map(|v| Distribution::fixed(f64::from(v))),
        (0u32..100, 0u32..400).prop_map(|(a, b)| Distribution::Uniform {
            min: f64::from(a.min(b)),
            max: f64::from(a.max(b)),
        }),
        (1u32..200, 1u32..20, 1u32..50).prop_map(|(t, k, m)| Distribution::Lognormal {
            typical: f64::from(t),
            p99: f64::from(t * k),
            max: f64::from(t * k * m),
        }),
    ];
    let presence = prop_oneof![Just(None), (0.0f64..1.0).prop_map(Some)];
    let scalar = (
        prop_oneof![
            Just(BsonType::String),
            Just(BsonType::BinData),
            Just(BsonType::Int),
            Just(BsonType::Date),
            Just(BsonType::ObjectId),
        ],
        length,
        presence.clone(),
    )
        .prop_map(|(ty, len, presence)| Field {
            length: ty.has_length().then_some(len),
            presence,
            ..Field::of(ty)
        });
    if depth == 0 {
        return scalar.boxed();
    }
    let fields = prop::collection::vec(field(depth - 1), 1..4).prop_map(|fs| {
        Fields(
            fs.into_iter()
                .enumerate()
                .map(|(i, f)| (format!("f{i}"), f))
                .collect(),
        )
    });
    let count = prop_oneof![
        (0u32..5).prop_map(|v| Distribution::fixed(f64::from(v))),
        (0u32..4, 0u32..30).prop_map(|(a, b)| Distribution::Uniform {
            min: f64::from(a),
            max: f64::from(a + b),
        }),
    ];
    prop_oneof![
        3 => scalar,
        1 => (fields.clone(), presence.clone()).prop_map(|(fields, presence)| Field {
            fields,
            presence,
            ..Field::of(BsonType::Object)
        }),
        1 => (fields, count).prop_map(|(fields, count)| Field::array_of_objects(fields, count)),
    ]
    .boxed()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Over random entities: no generated document is larger than the reported largest, the
    /// materialized largest (document 0) equals it, and p50 ≤ p99 ≤ largest.
    #[test]
    fn no_sampled_document_passes_the_largest(fs in prop::collection::vec(field(2), 1..6)) {
        let fields: serde_json::Map<String, serde_json::Value> = fs
            .iter()
            .enumerate()
            .map(|(i, f)| (format!("x{i}"), serde_json::to_value(f).unwrap_or_default()))
            .collect();
        let text = serde_json::json!({
            "entities": [{ "name": "thing", "count": 1000, "fields": fields }],
            "relationships": [],
            "workload": [],
            "sample": { "max_documents": 200 }
        })
        .to_string();
        let m = parse_model(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let l = squillion::design::layout_model(&m).unwrap_or_else(|e| panic!("{e}"));
        let c = l.collection("thing").unwrap_or_else(|| panic!("thing"));
        let st = collection_stats(c, &m.start_date);
        let s = st.shapes.first().unwrap_or_else(|| panic!("shape"));
        let data = generate(&m, &l);
        let g = data.collection("thing").unwrap_or_else(|| panic!("generated"));
        for (i, d) in g.documents.iter().enumerate() {
            let full = data.full_size("thing", i).map_or(0, |(b, _)| b);
            prop_assert!(document_size(d) <= s.max.bytes && full <= s.max.bytes,
                "document {i}: {} > largest {}\n{text}", full, s.max.bytes);
        }
        // Document 0 is the largest to the byte wherever the sample can hold it: a document
        // within the generator's per-document byte budget (half of 16 MiB), or past it through
        // a top-level array or value (`the_largest_sample_is_the_largest_document`). An array
        // nested in array elements that the budget cuts is not given back (a known gap, in the
        // issue's note), so such documents are not compared here.
        let first = data.full_size("thing", 0).map_or(0, |(b, _)| b);
        if s.max.bytes <= squillion::generate::GenOptions::default().max_document_bytes {
            prop_assert_eq!(first, s.max.bytes, "document 0 is the largest\n{}", text);
        }
        prop_assert!(s.p50.bytes <= s.p99.bytes && s.p99.bytes <= s.max.bytes);
    }
}

/// A bucket of 50 posts whose texts vary is the sum of 50 lengths: its p99 is above its p50,
/// both estimates. (Once this shape, an array of fixed count the only field that varies, was
/// taken for one scalar and reported the mean as an exact p50 = p99.)
#[test]
fn an_array_of_varying_elements_is_a_sum_not_one_value() {
    let m = parse_model(
        r#"{ "entities": [ { "name": "bucket", "count": 1000, "fields": {
            "posts": { "type": "array", "items": "object", "count": { "shape": "fixed", "value": 50 },
              "fields": { "text": { "type": "string", "length": { "shape": "uniform", "min": 10, "max": 280 } } } } } } ] }"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let l = squillion::design::layout_model(&m).unwrap_or_else(|e| panic!("{e}"));
    let c = l.collection("bucket").unwrap_or_else(|| panic!("bucket"));
    let st = collection_stats(c, &m.start_date);
    let s = st.shapes.first().unwrap_or_else(|| panic!("shape"));
    assert!(!s.p50.exact && !s.p99.exact);
    // 50 uniform lengths on 10..=280: sd 78.2 each, √50 × 78.2 = 553 for the sum; the p99 is
    // about 2.33 × 553 = 1,287 bytes above the mean.
    let above = s.p99.bytes as f64 - s.average.bytes as f64;
    assert!((1_100.0..1_450.0).contains(&above), "p99 − mean = {above}");
}

/// Returns a document of 4 entries, each with a `tags` array of 0 to 4 strings of 20 bytes,
/// counted on its own (`independent`) or at the document's quantile.
fn entries(independent: bool) -> Fields {
    let mut tags = Field::array_of(
        BsonType::String,
        Distribution::Uniform { min: 0.0, max: 4.0 },
    );
    tags.length = Some(Distribution::fixed(20.0));
    tags.independent = independent;
    let mut entry = Field::array_of(BsonType::Object, Distribution::fixed(4.0));
    entry.fields.push("tags", tags);
    let mut fields = Fields::default();
    fields.push("entries", entry);
    fields
}

#[test]
fn an_independent_count_is_drawn_per_element_not_at_the_documents_quantile() {
    use squillion::arith::tail::SizeSpread;
    let (together, apart) = (entries(false), entries(true));
    let p99 = |f: &Fields| SizeSpread::of(f).quantile(0.99).bytes;
    // At the document's quantile, the p99 document has every entry's 4 tags; drawn per entry,
    // 16 tags at once is one document in 625.
    assert!(
        p99(&apart) < p99(&together),
        "{} {}",
        p99(&apart),
        p99(&together)
    );
    // The largest document still has every array full.
    let max = |f: &Fields| document_size(&document_from_fields(f, 1.0, 7));
    assert_eq!(max(&apart), max(&together));
    // The generator draws each entry's count on its own: at quantile 0.99, not all 4 entries
    // hold 4 tags.
    let doc = document_from_fields(&apart, 0.99, 7);
    let counts: Vec<usize> = doc
        .get_array("entries")
        .map(|a| {
            a.iter()
                .filter_map(|e| e.as_document())
                .map(|e| e.get_array("tags").map_or(0, |t| t.len()))
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(counts.len(), 4);
    assert!(counts.iter().any(|&n| n < 4), "{counts:?}");
}

/// The largest document expected among `count` is the `(1 − 1/count)` quantile, by hand on a
/// distribution whose quantiles are whole: one string of uniform length 1..=1,024 (every
/// length as likely). A document is 5 + 3 (type, "s", NUL) + 4 + length + 1 bytes.
/// Among 1,024 documents the largest expected is at quantile 1,023/1,024: length 1,023,
/// 1,036 bytes (exact: the field's own quantile); p99 is length ⌈0.99 × 1,024⌉ = 1,014,
/// 1,027 bytes; the bound is length 1,024, 1,037 bytes. With 100 documents or fewer it is
/// p99; with a billion it reaches the bound.
#[test]
fn the_largest_expected_is_the_one_in_count_quantile() {
    use squillion::arith::tail::SizeSpread;
    let fields = Fields(vec![(
        "s".to_string(),
        Field {
            length: Some(Distribution::Uniform {
                min: 1.0,
                max: 1024.0,
            }),
            ..Field::of(BsonType::String)
        },
    )]);
    let spread = SizeSpread::of(&fields);
    let p99 = spread.quantile(0.99);
    assert_eq!((p99.bytes, p99.exact), (1027, true));
    let largest = spread.largest_of(1024.0);
    assert_eq!((largest.bytes, largest.exact), (1036, true));
    assert_eq!(largest.bounds, None);
    assert_eq!(spread.largest_of(50.0), p99);
    assert_eq!(spread.largest_of(1.0), p99);
    assert_eq!(spread.largest_of(0.0), p99);
    assert_eq!(spread.largest_of(1e9).bytes, 1037);
}

/// Every shape of every preset and test model: p99 ≤ the largest expected ≤ the bound, an
/// estimate carries bounds around it, and `ShapeStats::largest` reads it.
#[test]
fn the_largest_expected_lies_between_p99_and_the_bound() {
    for (name, m, l) in every_layout() {
        for c in &l.collections {
            let stats = collection_stats(c, &m.start_date);
            for st in &stats.shapes {
                let e = st.largest_expected;
                assert!(
                    st.p99.bytes <= e.bytes && e.bytes <= st.max.bytes,
                    "{name} {} {}: p99 {} largest expected {} bound {}",
                    c.name,
                    st.label,
                    st.p99.bytes,
                    e.bytes,
                    st.max.bytes
                );
                match st.largest_expected_bounds {
                    Some([lo, hi]) => assert!(
                        !e.exact && lo <= e.bytes && e.bytes <= hi && hi <= st.max.bytes,
                        "{name} {} {}: {e:?} {lo}..{hi}",
                        c.name,
                        st.label
                    ),
                    None => assert!(e.exact, "{name} {}: an estimate without bounds", c.name),
                }
                assert_eq!(st.largest(), (e, st.largest_expected_bounds));
            }
        }
    }
}

/// Blog's post with its comments embedded: the bound is every one of 20,000 comments at its
/// longest (192.1 MiB), which no post reaches; the largest of its 1,000,000 posts expected
/// at full scale is far below it, and above p99.
#[test]
fn blog_posts_largest_expected_is_far_below_the_bound() {
    let preset = squillion::presets::all()
        .iter()
        .find(|p| p.name == "blog")
        .unwrap_or_else(|| panic!("blog"));
    let m = preset.model().unwrap_or_else(|e| panic!("{e}"));
    let o = offers(&m)
        .into_iter()
        .find(|o| o.id == "one-query")
        .unwrap_or_else(|| panic!("one-query"));
    let l = o.layout().unwrap_or_else(|e| panic!("{e}"));
    let c = l.collection("post").unwrap_or_else(|| panic!("post"));
    let st = collection_stats(c, &o.model.start_date);
    let s = st.shapes.first().unwrap_or_else(|| panic!("shape"));
    eprintln!(
        "blog post: count {} p50 {} p99 {} largest expected {} {:?} bound {}",
        s.count,
        s.p50.bytes,
        s.p99.bytes,
        s.largest_expected.bytes,
        s.largest_expected_bounds,
        s.max.bytes
    );
    assert_eq!(s.max.bytes, 201_429_755);
    assert!(s.largest_expected.bytes > s.p99.bytes);
    assert!(
        s.largest_expected.bytes < s.max.bytes / 10,
        "{} against the bound {}",
        s.largest_expected.bytes,
        s.max.bytes
    );
}
