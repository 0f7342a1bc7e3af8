//! The single-collection pattern (issue #20 item 3): products and their reviews in one
//! collection, each document with its type and the shared key. Checked here: the layout (no
//! review collection, both shapes tagged, one compound index), the generated documents (a
//! product's key is its own id, a review's its product's), their sizes against pymongo's
//! `bson.encode` and against the arithmetic, the one query on the engine against a hand count,
//! and validation and the picker offering it only on a one-to-many between two entities.
#![cfg(not(target_arch = "wasm32"))]

use crate::common::pymongo;

use bson::{doc, Bson, Document};
use squillion::design::{strategies_for, Layout, Strategy};
use squillion::engine::{Database, FindCommand};
use squillion::eval::offer::offer;
use squillion::generate::generate;
use squillion::model::{parse_model, Model};
use squillion::presets;
use squillion::size::document_size;
use std::collections::BTreeMap;

/// The product-catalog preset under `design`: the model, its layout and the generated
/// documents of the `product` collection.
fn catalog(design: &str) -> (Model, Layout, Vec<Document>) {
    let m = presets::find("product-catalog")
        .unwrap_or_else(|e| panic!("{e}"))
        .model()
        .unwrap_or_else(|e| panic!("{e}"));
    let o = offer(&m, design).unwrap_or_else(|| panic!("no design {design}"));
    let layout = Layout::build(&o.model, &o.model.design).unwrap_or_else(|e| panic!("{e}"));
    let data = generate(&o.model, &layout);
    let docs = data
        .collection("product")
        .map(|c| c.documents.clone())
        .unwrap_or_default();
    (o.model, layout, docs)
}

fn of_type<'a>(docs: &'a [Document], t: &str) -> Vec<&'a Document> {
    docs.iter()
        .filter(|d| d.get_str("type").ok() == Some(t))
        .collect()
}

#[test]
fn parent_and_children_share_one_collection_and_one_index() {
    let (_, layout, docs) = catalog("single-collection");
    assert_eq!(
        layout.strategy("reviews"),
        Some(&Strategy::SingleCollection)
    );
    let names: Vec<&str> = layout.collections.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["product"]);
    let c = layout.collection("product").unwrap();
    let labels: Vec<&str> = c.shapes.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(labels, ["product", "review"]);
    // The discriminator and the shared key come right after `_id` in both shapes.
    for s in &c.shapes {
        let first: Vec<&str> = s.fields.iter().take(3).map(|(n, _)| n.as_str()).collect();
        assert_eq!(first, ["_id", "type", "productId"], "{}", s.label);
    }
    assert_eq!(c.count(), 2_600_000.0);
    // One secondary index serves the one-query read (its prefix) and the typed read.
    let keys: Vec<Document> = c.indexes.iter().map(|i| i.keys.clone()).collect();
    assert_eq!(keys, [doc! { "productId": 1, "type": 1, "date": -1 }]);
    // Both kinds of documents are generated: a product holds its own id as the key, a review
    // its product's (one generated product), and every document its type.
    let products = of_type(&docs, "product");
    let reviews = of_type(&docs, "review");
    assert_eq!(products.len() + reviews.len(), docs.len());
    assert!(!products.is_empty() && !reviews.is_empty());
    for p in &products {
        assert_eq!(p.get("productId"), p.get("_id"));
    }
    let ids: Vec<&Bson> = products.iter().filter_map(|p| p.get("_id")).collect();
    for r in &reviews {
        let pid = r.get("productId").unwrap();
        assert!(ids.contains(&pid), "review of no generated product: {r}");
        assert!(r.get("price").is_none() && r.get("rating").is_some());
    }
}

#[test]
fn the_shared_key_reads_a_parent_with_its_children_in_one_query() {
    let (_, layout, docs) = catalog("single-collection");
    let mut db = Database::new();
    for i in &layout.collection("product").unwrap().indexes {
        db.create_index("product", i.keys.clone(), Default::default())
            .unwrap();
    }
    db.insert_many("product", docs.clone(), true).unwrap();
    // Reviews per generated product, counted by hand.
    let mut per: BTreeMap<String, u64> = BTreeMap::new();
    for r in of_type(&docs, "review") {
        *per.entry(r.get("productId").unwrap().to_string())
            .or_default() += 1;
    }
    let (busiest, n) = per.iter().max_by_key(|(_, n)| **n).unwrap();
    assert!(*n > 1);
    let product = of_type(&docs, "product")
        .into_iter()
        .find(|p| p.get("_id").unwrap().to_string() == *busiest)
        .unwrap();
    let id = product.get("_id").unwrap().clone();
    let find = |filter: Document| {
        db.find(
            "product",
            &FindCommand {
                filter,
                ..Default::default()
            },
        )
        .unwrap()
    };
    let all = find(doc! { "productId": id.clone() });
    assert_eq!(all.documents.len() as u64, n + 1);
    assert_eq!(all.stats.exec.docs_examined, n + 1);
    assert_eq!(
        all.plan.as_ref().unwrap().access(),
        "productId_1_type_1_date_-1"
    );
    let types: Vec<&str> = all
        .documents
        .iter()
        .filter_map(|d| d.get_str("type").ok())
        .collect();
    assert_eq!(types.iter().filter(|t| **t == "product").count(), 1);
    let reviews = find(doc! { "productId": id, "type": "review" });
    assert_eq!(reviews.documents.len() as u64, *n);
    assert_eq!(reviews.stats.exec.docs_examined, *n);
}

#[test]
fn the_arithmetic_sizes_match_the_sample() {
    // Each shape's mean size from the arithmetic is within 2% of its generated documents'.
    let (m, layout, docs) = catalog("single-collection");
    let c = layout.collection("product").unwrap();
    for s in &c.shapes {
        let stats = squillion::stats::shape_stats(s, &m.start_date);
        let sample: Vec<u64> = of_type(&docs, &s.label)
            .into_iter()
            .map(document_size)
            .collect();
        let mean = sample.iter().sum::<u64>() as f64 / sample.len() as f64;
        let ratio = stats.average.bytes as f64 / mean;
        assert!((ratio - 1.0).abs() < 0.02, "{}: {ratio}", s.label);
    }
}

#[test]
fn single_collection_document_sizes_equal_pymongo() {
    let (_, _, docs) = catalog("single-collection");
    let mut picked: Vec<Document> = of_type(&docs, "product")
        .into_iter()
        .take(3)
        .cloned()
        .collect();
    picked.extend(of_type(&docs, "review").into_iter().take(3).cloned());
    let ours: Vec<u64> = picked.iter().map(document_size).collect();
    assert_eq!(pymongo::sizes(&picked), ours);
    // The tags' bytes: `type: "product"` is 1 + 5 + 4 + 8 = 18, `type: "review"` 17, and
    // `productId: ObjectId` 1 + 10 + 12 = 23, on every document.
    let tags = |d: &Document| {
        let mut t = Document::new();
        t.insert("type", d.get("type").unwrap().clone());
        t.insert("productId", d.get("productId").unwrap().clone());
        document_size(&t) - 5
    };
    assert_eq!(tags(&picked[0]), 18 + 23);
    assert_eq!(tags(&picked[3]), 17 + 23);
}

#[test]
fn only_a_one_to_many_between_two_entities_takes_it() {
    let model = |rel: &str, strategy: &str| {
        format!(
            r#"{{
      "name": "t", "entities": [{{"name": "a", "count": 10, "fields": {{}}}}, {{"name": "b", "count": 10, "fields": {{}}}}],
      "relationships": [{rel}],
      "workload": [],
      "design": {{"relationships": {{"r": {{"strategy": "{strategy}"}}}}}}
    }}"#
        )
    };
    let one = r#"{"name": "r", "parent": "a", "child": "b", "cardinality": {"shape": "fixed", "value": 1}}"#;
    let many = r#"{"name": "r", "parent": "a", "child": "b", "many_to_many": true, "cardinality": {"shape": "fixed", "value": 1}}"#;
    let own = r#"{"name": "r", "parent": "a", "child": "a", "cardinality": {"shape": "fixed", "value": 1}}"#;
    let m = parse_model(&model(one, "single_collection")).unwrap_or_else(|e| panic!("{e:?}"));
    assert!(strategies_for(&m, "r").contains(&Strategy::SingleCollection));
    for rel in [many, own] {
        let errs = match parse_model(&model(rel, "single_collection")) {
            Ok(_) => panic!("single_collection accepted on {rel}"),
            Err(e) => format!("{e:?}"),
        };
        assert!(
            errs.contains("must be one-to-many between two different entities"),
            "{errs}"
        );
        let m = parse_model(&model(rel, "reference_in_child")).unwrap_or_else(|e| panic!("{e:?}"));
        assert!(!strategies_for(&m, "r").contains(&Strategy::SingleCollection));
    }
}
