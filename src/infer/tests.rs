//! The reader and the inference of small inputs.

use std::collections::BTreeMap;
use std::io::{BufReader, Cursor};

use super::*;
use crate::model::design::Strategy;
use crate::model::{BsonType, Distribution, ValueKind};

mod multiline;

fn infer(text: &str, max_line: usize) -> (Inferred, SourceSummary) {
    let mut inference = Inference::with_max_line(max_line);
    // A tiny buffer: lines are assembled over many reads.
    let reader = BufReader::with_capacity(3, Cursor::new(text.as_bytes().to_vec()));
    let summary = inference.read("c", "c.json", reader).unwrap();
    (inference.finish(&BTreeMap::new()).unwrap(), summary)
}

#[test]
fn crlf_lines_blank_lines_and_a_last_line_without_newline() {
    let (inferred, summary) = infer("{\"a\": 1}\r\n\r\n{\"a\": 2, \"b\": \"xyz\"}", 1000);
    assert_eq!((summary.documents, summary.skipped), (2, 0));
    let e = &inferred.model.entities[0];
    assert_eq!(e.fields.get("a").map(|f| f.ty), Some(BsonType::Int));
    let b = e.fields.get("b").unwrap();
    assert_eq!(b.presence, Some(0.5));
    assert_eq!(b.length, Some(Distribution::fixed(3.0)));
}

#[test]
fn an_over_long_line_is_skipped_with_its_number() {
    let long = format!("{{\"a\": \"{}\"}}", "x".repeat(100));
    let (inferred, summary) = infer(&format!("{{\"a\": \"y\"}}\n{long}\n{{\"a\": \"z\"}}\n"), 50);
    assert_eq!((summary.documents, summary.skipped), (2, 1));
    assert_eq!(inferred.report.skipped[0].line, 2);
    assert!(inferred.report.skipped[0]
        .message
        .contains("longer than 50 bytes"));
}

#[test]
fn invalid_utf8_is_skipped() {
    let mut inference = Inference::new();
    let bytes = b"{\"a\": 1}\n{\"a\": \"\xff\"}\n".to_vec();
    let s = inference.read("c", "c.json", Cursor::new(bytes)).unwrap();
    assert_eq!((s.documents, s.skipped), (1, 1));
    assert_eq!(inference.skipped().0[0].message, "not UTF-8");
}

#[test]
fn number_ranges_nested_objects_and_scalar_arrays() {
    let (inferred, _) = infer(
        "{\"n\": 3, \"o\": {\"x\": true}, \"t\": [\"ab\", \"abcd\"]}\n\
         {\"n\": -2.5, \"o\": {}, \"t\": []}\n\
         {\"n\": 10, \"o\": {\"x\": false, \"y\": null}, \"t\": [\"abc\"]}\n",
        1000,
    );
    let f = &inferred.model.entities[0].fields;
    let n = f.get("n").unwrap();
    assert_eq!(
        (n.ty, n.min, n.max),
        (BsonType::Int, Some(-2.5), Some(10.0))
    );
    let o = f.get("o").unwrap();
    // 2 of 3, at the three significant digits a computed parameter keeps.
    assert_eq!(o.fields.get("x").map(|x| x.presence), Some(Some(0.667)));
    assert_eq!(o.fields.get("y").map(|y| y.ty), Some(BsonType::Null));
    let t = f.get("t").unwrap();
    assert_eq!(t.items, Some(BsonType::String));
    assert_eq!(t.count, Some(Distribution::Uniform { min: 0.0, max: 2.0 }));
    assert_eq!(t.length, Some(Distribution::Uniform { min: 2.0, max: 4.0 }));
    let row = inferred.report.entities[0]
        .fields
        .iter()
        .find(|r| r.path == "n")
        .unwrap();
    assert_eq!(row.types.len(), 2);
    assert_eq!(
        (row.types[0].ty.as_str(), row.types[0].share),
        ("int", 2.0 / 3.0)
    );
}

#[test]
fn counts_must_name_a_collection_read() {
    let mut inference = Inference::new();
    inference
        .read("c", "c.json", Cursor::new(b"{\"a\": 1}\n".to_vec()))
        .unwrap();
    let counts = BTreeMap::from([("d".to_string(), 5.0)]);
    assert!(matches!(
        inference.finish(&counts),
        Err(InferError::UnknownCount(_))
    ));
    assert!(matches!(
        Inference::new().finish(&BTreeMap::new()),
        Err(InferError::NothingInferred)
    ));
}

#[test]
fn columns_are_the_lines_own() {
    // (input, the skipped line, the start of its message): a line's column counts from the
    // line's own start, leading blanks and a JSON array's '[' included.
    for (text, line, message) in [
        ("{\"a\": 1}\n  {\"b\" 2}  \n", 2, "column 8: expected ':'"),
        ("[{\"a\": 1},{\"b\" 2}]\n", 1, "column 16: expected ':'"),
        (
            "[\n  {\"a\": 1},\n  {\"b\" 2}\n]\n",
            3,
            "column 8: expected ':'",
        ),
    ] {
        let (inferred, _) = infer(text, 1000);
        let skipped = &inferred.report.skipped;
        assert_eq!(skipped[0].line, line, "{text:?}");
        assert!(
            skipped[0].message.starts_with(message),
            "{text:?}: {skipped:?}"
        );
    }
}

#[test]
fn arrays_of_sub_documents_become_embedded_children_recursively() {
    // Three orders: 2 items, none (missing), 1 item; an item holds an array of discounts;
    // a sub-document's array (`meta.notes`) stays in place.
    let (inferred, _) = infer(
        "{\"_id\": 1, \"items\": [{\"sku\": \"a\", \"discounts\": [{\"pct\": 5}]}, {\"sku\": \"bb\"}], \
          \"meta\": {\"notes\": [{\"t\": \"x\"}]}}\n\
         {\"_id\": 2, \"meta\": {\"notes\": []}}\n\
         {\"_id\": 3, \"items\": [{\"sku\": \"c\", \"discounts\": [{\"pct\": 10}, {\"pct\": 20}]}]}\n",
        1000,
    );
    let m = &inferred.model;
    let names: Vec<_> = m.entities.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["c", "item", "discount"]);
    let counts: Vec<_> = m.entities.iter().map(|e| e.count).collect();
    assert_eq!(counts, [3.0, 3.0, 3.0]);
    let c = &m.entities[0].fields;
    assert!(c.get("items").is_none());
    let notes = c.get("meta").unwrap().fields.get("notes").unwrap();
    assert_eq!(notes.items, Some(BsonType::Object));
    assert!(m.entities[1].fields.get("discounts").is_none());
    let rels: Vec<_> = m
        .relationships
        .iter()
        .map(|r| (r.name.as_str(), r.parent.as_str(), r.child.as_str()))
        .collect();
    assert_eq!(
        rels,
        [("items", "c", "item"), ("discounts", "item", "discount")]
    );
    // The missing array is 0 children: 0, 1, 2 per order.
    assert_eq!(
        m.relationships[0].cardinality,
        Distribution::Uniform { min: 0.0, max: 2.0 }
    );
    assert_eq!(inferred.report.relationships[0].without_array, Some(1));
    assert_eq!(inferred.report.relationships[1].without_array, Some(1));
    assert!(m
        .relationships
        .iter()
        .all(|r| m.design.relationships.get(&r.name) == Some(&Strategy::Embed)));
    let row = inferred.report.entities[0]
        .fields
        .iter()
        .find(|r| r.path == "items")
        .unwrap();
    assert!(
        row.assumed
            .iter()
            .any(|a| a.to_string().contains("1 of 3 without")),
        "{row:?}"
    );
    let text = serde_json::to_string(m).unwrap();
    let errors = crate::model::validate::validate(&serde_json::from_str(&text).unwrap());
    assert!(errors.is_empty(), "{errors:?}");
    // The nested embed lays out: an order holds its items, each item its discounts.
    let layout = crate::design::layout_model(m).unwrap();
    let names: Vec<_> = layout.collections.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["c"]);
}

#[test]
fn children_get_names_no_collection_or_relationship_has() {
    let mut inference = Inference::new();
    let doc = b"{\"addresses\": [{\"a\": 1}], \"tags\": [{\"k\": 1}]}\n".to_vec();
    inference
        .read("tag", "tag.json", Cursor::new(doc.clone()))
        .unwrap();
    inference
        .read("address", "address.json", Cursor::new(doc))
        .unwrap();
    let m = inference.finish(&BTreeMap::new()).unwrap().model;
    let names: Vec<_> = m.entities.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "tag",
            "tag_address",
            "tag_tag",
            "address",
            "address_address",
            "address_tag"
        ]
    );
    let rels: Vec<_> = m
        .relationships
        .iter()
        .map(|r| (r.name.as_str(), r.array_field()))
        .collect();
    assert_eq!(
        rels,
        [
            ("addresses", "addresses"),
            ("tags", "tags"),
            ("address_addresses", "addresses"),
            ("address_tags", "tags")
        ]
    );
}

#[test]
fn singulars() {
    let s: Vec<_> = [
        "addresses",
        "categories",
        "items",
        "boxes",
        "history",
        "status",
    ]
    .iter()
    .map(|n| build::singular(n))
    .collect();
    assert_eq!(
        s,
        [
            "address",
            "category",
            "item",
            "box",
            "history_item",
            "status_item"
        ]
    );
}

#[test]
fn a_numeric_id_is_a_sequence_not_the_range_seen() {
    // Three documents with _id 1 to 3: a 500-document sample of that range would repeat ids.
    let (inferred, _) = infer(
        "{\"_id\": 1, \"n\": 5}\n{\"_id\": 2, \"n\": 7}\n{\"_id\": 3, \"n\": 6}\n",
        1000,
    );
    let fields = &inferred.model.entities[0].fields;
    let id = fields.get("_id").unwrap();
    assert_eq!(id.kind, Some(crate::model::ValueKind::Sequence));
    assert_eq!((id.min, id.max), (None, None));
    let n = fields.get("n").unwrap();
    assert_eq!(
        (n.min, n.max),
        (Some(5.0), Some(7.0)),
        "other numbers keep their range"
    );
    // The model evaluates: every generated _id is distinct.
    let mut model = inferred.model.clone();
    model.entities[0].count = 10_000.0;
    let evaluated = crate::eval::evaluate_offered_with(
        &model,
        crate::eval::offer::CUSTOM,
        &crate::eval::EvalOptions::default(),
        &mut |_| {},
    );
    assert!(evaluated.is_ok(), "{:?}", evaluated.err());
}

/// Infers `inputs` (collection, documents one per line) read in that order.
fn infer_all(inputs: &[(&str, String)]) -> Inferred {
    let mut inference = Inference::new();
    for (c, text) in inputs {
        inference
            .read(
                c,
                &format!("{c}.json"),
                Cursor::new(text.clone().into_bytes()),
            )
            .unwrap();
    }
    inference.finish(&BTreeMap::new()).unwrap()
}

/// An ObjectId made of `n` (distinct per collection by `tag`) created at `secs`.
fn oid(tag: u8, n: u32, secs: u32) -> String {
    let mut b = [tag; 12];
    b[..4].copy_from_slice(&secs.to_be_bytes());
    b[8..].copy_from_slice(&n.to_be_bytes());
    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!("{{\"$oid\": \"{hex}\"}}")
}

fn lines(n: u32, line: impl Fn(u32) -> String) -> String {
    (0..n).map(|i| line(i) + "\n").collect()
}

#[test]
fn a_field_of_another_collections_ids_is_a_reference_in_the_child_in_any_order() {
    const DAY: u32 = 86_400;
    let authors = lines(4, |i| {
        format!("{{\"_id\": {}, \"name\": \"a{i}\"}}", oid(1, i, 0))
    });
    // Author 0 wrote 6 posts, author 1 two, the others none; posts created over 10 days.
    let posts = lines(8, |i| {
        let a = if i < 6 { 0 } else { 1 };
        format!(
            "{{\"_id\": {}, \"author\": {}, \"title\": \"t\"}}",
            oid(2, i, 1_700_000_000 + i * 10 * DAY / 7),
            oid(1, a, 0)
        )
    });
    for order in [[0, 1], [1, 0]] {
        let inputs = [("author", authors.clone()), ("post", posts.clone())];
        let inferred = infer_all(&[inputs[order[0]].clone(), inputs[order[1]].clone()]);
        let m = &inferred.model;
        let post = m.entities.iter().find(|e| e.name == "post").unwrap();
        assert!(
            post.fields.get("author").is_none(),
            "the reference left the fields"
        );
        let [r] = m.relationships.as_slice() else {
            panic!("{:?}", m.relationships)
        };
        assert_eq!(
            (r.name.as_str(), r.parent.as_str(), r.child.as_str()),
            ("posts", "author", "post")
        );
        assert_eq!(r.parent_field.as_deref(), Some("author"));
        assert!(!r.many_to_many);
        assert_eq!(
            m.design.relationships.get("posts"),
            Some(&Strategy::ReferenceInChild { copy: Vec::new() })
        );
        let rep = &inferred.report.relationships[0];
        assert_eq!(rep.layout, "reference_in_child");
        assert_eq!(rep.resolved, Some([8, 8]));
        // Per author: 6, 2, 0, 0.
        let c = &rep.children_per_parent;
        assert_eq!((c.values, c.min, c.max), (4, 0, 6));
        // 8 posts over 10 days for 4 authors: 0.2 a day each; the largest 6 over 10 days.
        let g = r.growth_per_day.clone().unwrap();
        assert!((g.typical - 0.2).abs() < 1e-9, "{g:?}");
        assert!((g.largest.unwrap() - 0.6).abs() < 1e-9, "{g:?}");
        assert_eq!(rep.created.as_ref().map(|c| c.from.as_str()), Some("_id"));
        let posts_report = inferred
            .report
            .entities
            .iter()
            .find(|e| e.name == "post")
            .unwrap();
        assert!((posts_report.growth_per_day.unwrap() - 0.8).abs() < 1e-9);
    }
}

#[test]
fn an_array_of_ids_is_a_reference_in_the_parent_many_to_many_when_ids_repeat() {
    let parts = lines(3, |i| format!("{{\"_id\": {}}}", oid(1, i, 0)));
    let shared = lines(2, |i| {
        format!(
            "{{\"_id\": {i}, \"parts\": [{}, {}]}}",
            oid(1, i, 0),
            oid(1, 2, 0)
        )
    });
    let inferred = infer_all(&[("product", shared), ("part", parts.clone())]);
    let r = &inferred.model.relationships[0];
    assert_eq!((r.parent.as_str(), r.child.as_str()), ("product", "part"));
    assert!(r.many_to_many, "part 2 is in both products");
    assert_eq!(r.cardinality, Distribution::fixed(2.0));
    // Parents per part: 1, 1, 2.
    assert!(r.parents_per_child.is_some());
    assert_eq!(
        inferred.model.design.relationships.get(&r.name),
        Some(&Strategy::ReferenceInParent)
    );
    let own = lines(2, |i| {
        format!("{{\"_id\": {i}, \"parts\": [{}]}}", oid(1, i, 0))
    });
    let inferred = infer_all(&[("product", own), ("part", parts)]);
    assert!(!inferred.model.relationships[0].many_to_many);
}

#[test]
fn a_collection_of_id_pairs_is_a_link_collection() {
    let products = lines(2, |i| format!("{{\"_id\": {}}}", oid(1, i, 0)));
    let parts = lines(3, |i| format!("{{\"_id\": {}}}", oid(2, i, 0)));
    let links = lines(4, |i| {
        format!(
            "{{\"_id\": {}, \"products\": {}, \"partId\": {}}}",
            oid(3, i, 0),
            oid(1, i % 2, 0),
            oid(2, i % 3, 0)
        )
    });
    let inferred = infer_all(&[("product", products), ("parts", links), ("part", parts)]);
    let m = &inferred.model;
    let names: Vec<_> = m.entities.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["product", "part"]);
    let [r] = m.relationships.as_slice() else {
        panic!("{:?}", m.relationships)
    };
    assert_eq!(
        (r.name.as_str(), r.parent.as_str(), r.child.as_str()),
        ("parts", "product", "part")
    );
    assert!(r.many_to_many);
    assert_eq!(r.parent_field.as_deref(), Some("products"));
    assert_eq!(r.cardinality, Distribution::fixed(2.0));
    assert_eq!(
        m.design.relationships.get("parts"),
        Some(&Strategy::LinkCollection)
    );
}

#[test]
fn low_cardinality_strings_are_enums_and_recognizable_strings_get_a_kind() {
    let docs = lines(120, |i| {
        let status = ["paid", "paid", "shipped"][i as usize % 3];
        format!(
            "{{\"status\": \"{status}\", \"email\": \"u{i}@example.com\", \"site\": \"https://x.org/{i}\", \"ip\": \"10.0.0.{}\", \"name\": \"n{i}\"}}",
            i % 200
        )
    });
    let inferred = infer_all(&[("c", docs.clone())]);
    let e = &inferred.model.entities[0];
    let status = e.fields.get("status").unwrap();
    assert_eq!(status.kind, Some(ValueKind::Enum));
    assert_eq!(status.values, ["paid", "shipped"]);
    let row = inferred.report.entities[0]
        .fields
        .iter()
        .find(|f| f.path == "status")
        .unwrap();
    assert!((row.values[0].share - 2.0 / 3.0).abs() < 1e-9);
    assert_eq!(e.fields.get("email").unwrap().kind, Some(ValueKind::Email));
    assert_eq!(e.fields.get("site").unwrap().kind, Some(ValueKind::Url));
    assert_eq!(e.fields.get("ip").unwrap().kind, Some(ValueKind::Ip));
    assert_eq!(e.fields.get("name").unwrap().kind, None);
    // A small sample whose few values all repeat is drawn from them: 6 documents, 2 statuses.
    let few: String = docs.lines().take(6).map(|l| format!("{l}\n")).collect();
    let inferred = infer_all(&[("c", few)]);
    let status = inferred.model.entities[0].fields.get("status").unwrap();
    assert_eq!(status.kind, Some(ValueKind::Enum));
    assert_eq!(status.values, ["paid", "shipped"]);
    // A value seen once is a coincidence of the sample (a name, an id): not a list to draw from.
    let once: String = docs.lines().take(5).map(|l| format!("{l}\n")).collect();
    let inferred = infer_all(&[("c", once)]);
    assert_eq!(
        inferred.model.entities[0]
            .fields
            .get("status")
            .unwrap()
            .kind,
        None
    );
}

#[test]
fn embedded_children_grow_from_their_creation_dates() {
    // Each of 2 posts has 5 comments dated over 20 days: 0.25 a day each.
    let docs = lines(2, |i| {
        let comments: Vec<String> = (0..5)
            .map(|k| {
                format!(
                    "{{\"at\": {{\"$date\": {}}}, \"t\": \"x\"}}",
                    i64::from(k) * 5 * 86_400_000
                )
            })
            .collect();
        format!("{{\"_id\": {i}, \"comments\": [{}]}}", comments.join(", "))
    });
    let inferred = infer_all(&[("post", docs)]);
    let g = inferred.model.relationships[0]
        .growth_per_day
        .clone()
        .unwrap();
    assert!((g.typical - 0.25).abs() < 1e-9, "{g:?}");
    assert_eq!(g.largest, None);
}

#[test]
fn plurals_name_references_after_their_children() {
    let p: Vec<_> = ["post", "category", "address", "box", "day", "orders"]
        .iter()
        .map(|n| build::plural(n))
        .collect();
    assert_eq!(
        p,
        [
            "posts",
            "categories",
            "addresses",
            "boxes",
            "days",
            "orders"
        ]
    );
}

#[test]
fn long_repeated_strings_are_text_not_an_enum() {
    let long = "x".repeat(stats::MAX_ENUM_LENGTH + 1);
    let docs = lines(120, |i| {
        format!(
            "{{\"body\": \"{}\"}}",
            if i % 2 == 0 { &long } else { "short" }
        )
    });
    let inferred = infer_all(&[("c", docs)]);
    assert_eq!(
        inferred.model.entities[0].fields.get("body").unwrap().kind,
        None
    );
}

#[test]
fn a_collection_naming_parents_among_its_own_is_a_tree_of_its_fan_out() {
    // 13 categories: a root, 3 children, 9 grandchildren (fan-out 3); 10 of them leaves.
    let nodes = lines(13, |i| {
        let parent = match i {
            0 => String::new(),
            _ => format!(", \"parent\": {}", oid(1, (i - 1) / 3, 0)),
        };
        format!("{{\"_id\": {}, \"name\": \"c{i}\"{parent}}}", oid(1, i, 0))
    });
    let inferred = infer_all(&[("category", nodes)]);
    let [r] = inferred.model.relationships.as_slice() else {
        panic!("{:?}", inferred.model.relationships)
    };
    assert_eq!(
        (r.parent.as_str(), r.child.as_str()),
        ("category", "category")
    );
    // The children of the 4 nodes that have children, not 13 nodes' with 9 zeros.
    assert_eq!(r.cardinality, Distribution::fixed(3.0));
    let c = &inferred.report.relationships[0].children_per_parent;
    assert_eq!((c.values, c.min, c.median, c.max), (4, 3, 3, 3));
}
