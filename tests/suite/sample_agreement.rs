//! The sample documents agree with themselves (issue #35, "samples that agree"): for every
//! preset and every design it offers, on the sample the evaluation generates,
//!
//! - a bucket's counter (`count` of a one-to-many bucket or a feed bucket) equals the
//!   elements the bucket holds (its array's full-scale count where the sample cut it short);
//! - every reference resolves: an ObjectId anywhere in a document (a parent reference, an
//!   array of child ids, the `_id` copied into an embedded or extended reference, a feed
//!   item's `author`) is the `_id` of a document of the sample, or the `_id` of a
//!   sub-document where the entity lives only embedded, or is one of the references the
//!   sample says point outside it (`GeneratedCollection::outside`, per document and field,
//!   counted exactly). Not references: a document's own `_id` and the values of a field the
//!   model itself declares `objectId` (shopping-cart's `productId`: the model names no entity
//!   it points to).
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, HashSet};

use bson::oid::ObjectId;
use bson::{Bson, Document};
use squillion::design::{Layout, Strategy};
use squillion::eval::{fitted_sample, offer::offers, offered_layout, EvalOptions};
use squillion::generate::{generate, Dataset};
use squillion::model::field::{BsonType, Fields};
use squillion::model::Model;
use squillion::presets;

/// The first 8 bytes of an ObjectId: under the generator's `entity_oid` the seed and the
/// entity (or `collection/shape`) whose document it names.
fn prefix(o: &ObjectId) -> [u8; 8] {
    let b = o.bytes();
    let mut p = [0u8; 8];
    p.copy_from_slice(&b[..8]);
    p
}

/// Every field name the model declares `objectId` in an entity's own fields, at any depth.
fn plain_object_ids(m: &Model) -> HashSet<String> {
    fn walk(fields: &Fields, out: &mut HashSet<String>) {
        for (n, f) in fields.iter() {
            if f.ty == BsonType::ObjectId || f.items == Some(BsonType::ObjectId) {
                out.insert(n.clone());
            }
            walk(&f.fields, out);
        }
    }
    let mut out = HashSet::new();
    for e in &m.entities {
        walk(&e.fields, &mut out);
    }
    out
}

/// Calls `f(path, value, is_subdocument_id)` for every ObjectId in `doc` but its own `_id`;
/// `path` is dotted, without array indexes (`activities.author`); a sub-document's `_id` is
/// one under an `_id` key below the top (an embedded child's, or a time series' `data._id`
/// column of its measurements').
fn object_ids(doc: &Document, f: &mut dyn FnMut(&str, &ObjectId, bool)) {
    fn value(v: &Bson, path: &str, depth: usize, f: &mut dyn FnMut(&str, &ObjectId, bool)) {
        match v {
            Bson::ObjectId(o) => f(path, o, depth > 0 && path.split('.').any(|s| s == "_id")),
            Bson::Document(d) => document(d, path, depth + 1, f),
            Bson::Array(a) => {
                for x in a {
                    value(x, path, depth, f);
                }
            }
            _ => {}
        }
    }
    fn document(d: &Document, at: &str, depth: usize, f: &mut dyn FnMut(&str, &ObjectId, bool)) {
        for (k, v) in d {
            if depth == 0 && k == "_id" {
                continue;
            }
            let path = if at.is_empty() {
                k.clone()
            } else {
                format!("{at}.{k}")
            };
            value(v, &path, depth, f);
        }
    }
    document(doc, "", 0, f);
}

/// Returns what dangles in `data`: per collection, document and field, the references that
/// resolve to no document of the sample beyond those the sample declares outside it.
///
/// When the sample itself left documents out for want of memory
/// ([`Dataset::omitted_documents`]), references to them cannot resolve: the declared ones
/// must still be real (each dangles), and more may dangle.
fn dangling(m: &Model, data: &Dataset) -> Vec<String> {
    let whole = data.omitted_documents == 0;
    let plain = plain_object_ids(m);
    let mut top: HashSet<ObjectId> = HashSet::new();
    for c in &data.collections {
        for d in &c.documents {
            if let Ok(o) = d.get_object_id("_id") {
                top.insert(o);
            }
        }
    }
    let top_prefixes: HashSet<[u8; 8]> = top.iter().map(prefix).collect();
    // The `_id`s of sub-documents of an entity that has no document of its own: embedded.
    let mut embedded: HashSet<ObjectId> = HashSet::new();
    for c in &data.collections {
        for d in &c.documents {
            object_ids(d, &mut |_, o, sub_id| {
                if sub_id && !top_prefixes.contains(&prefix(o)) {
                    embedded.insert(*o);
                }
            });
        }
    }
    let mut out = Vec::new();
    for c in &data.collections {
        for (i, d) in c.documents.iter().enumerate() {
            let mut unresolved: BTreeMap<String, u64> = BTreeMap::new();
            object_ids(d, &mut |path, o, _| {
                let last = path.rsplit('.').next().unwrap_or(path);
                if plain.contains(last) || top.contains(o) || embedded.contains(o) {
                    return;
                }
                *unresolved.entry(path.to_string()).or_default() += 1;
            });
            let mut declared: BTreeMap<String, u64> = BTreeMap::new();
            for x in c.outside.iter().filter(|x| x.document == i) {
                *declared.entry(x.field.clone()).or_default() += x.count;
            }
            let agree = if whole {
                unresolved == declared
            } else {
                declared
                    .iter()
                    .all(|(f, n)| unresolved.get(f).is_some_and(|u| u >= n))
            };
            if !agree {
                out.push(format!(
                    "{} document {i}: unresolved {unresolved:?}, declared outside the sample {declared:?}",
                    c.name
                ));
            }
        }
    }
    out
}

/// Returns the buckets whose counter differs from their elements.
fn miscounted(m: &Model, layout: &Layout, data: &Dataset) -> Vec<String> {
    let mut out = Vec::new();
    let mut checked = 0usize;
    for r in &m.relationships {
        let (array, counter) = match layout.strategy(&r.name) {
            Some(Strategy::Bucket { .. }) => (r.array_field().to_string(), "count"),
            Some(Strategy::BucketedFanOut { .. }) => ("activities".to_string(), "count"),
            _ => continue,
        };
        let Some(c) = layout.collections.iter().find(|c| {
            c.shapes.iter().any(|s| {
                s.growing
                    .iter()
                    .any(|g| g.relationship == r.name && g.field == array)
            }) && c.shapes.iter().all(|s| s.fields.get(counter).is_some())
        }) else {
            out.push(format!("{}: no bucket collection with `{counter}`", r.name));
            continue;
        };
        let Some(g) = data.collection(&c.name) else {
            continue;
        };
        for (i, d) in g.documents.iter().enumerate() {
            let held = d.get_array(&array).map_or(0, |a| a.len() as u64);
            let elements = g
                .truncated
                .iter()
                .find(|t| t.document == i && t.field == array)
                .map_or(held, |t| t.full_count);
            let count = match d.get(counter) {
                Some(Bson::Int32(n)) => i64::from(*n),
                Some(Bson::Int64(n)) => *n,
                other => {
                    out.push(format!("{} document {i}: `{counter}` is {other:?}", c.name));
                    continue;
                }
            };
            checked += 1;
            if count != elements as i64 {
                out.push(format!(
                    "{} document {i}: `{counter}` {count}, {elements} elements in `{array}`",
                    c.name
                ));
            }
        }
    }
    let _ = checked;
    out
}

#[test]
fn every_bucket_counts_its_elements_and_every_reference_resolves() {
    let mut failures = Vec::new();
    let mut buckets = 0;
    for p in presets::all() {
        let m = p.model().unwrap();
        for o in offers(&m) {
            let what = format!("{} / {}", p.name, o.id);
            let offered = offered_layout(&m, &o.id).unwrap();
            let model =
                match fitted_sample(&offered.model, &offered.layout, &EvalOptions::default()) {
                    Ok(model) => model,
                    Err(e) => {
                        eprintln!("{what}: not sampled: {e}");
                        continue;
                    }
                };
            let data = generate(&model, &offered.layout);
            if offered.layout.strategies.iter().any(|(_, s)| {
                matches!(s, Strategy::Bucket { .. } | Strategy::BucketedFanOut { .. })
            }) {
                buckets += 1;
            }
            failures.extend(
                miscounted(&model, &offered.layout, &data)
                    .into_iter()
                    .take(3)
                    .map(|f| format!("{what}: {f}")),
            );
            failures.extend(
                dangling(&model, &data)
                    .into_iter()
                    .take(3)
                    .map(|f| format!("{what}: {f}")),
            );
        }
    }
    // The presets do bucket (social-feed's bucketed fan-out at least): the counter check ran.
    assert!(buckets > 0, "no preset design buckets");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The CLI says the bound once where the largest expected reads the same (issue #35):
/// message-attachments' chunks (255.06 KiB expected, 255.06 KiB bound) get no second "max",
/// and a shape whose two figures read differently keeps both.
#[test]
fn the_cli_says_the_bound_once_where_the_largest_expected_reads_the_same() {
    let run = |json: bool| {
        let mut args = vec!["eval", "--preset", "message-attachments"];
        if json {
            args.push("--json");
        }
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_squillion"))
            .args(&args)
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let e: squillion::eval::Evaluation = serde_json::from_str(&run(true)).unwrap();
    let text = run(false);
    let (mut merged, mut both) = (0, 0);
    for c in &e.collections {
        for sh in &c.stats.shapes {
            let line = text
                .lines()
                .map(str::trim)
                .find(|l| l.starts_with(&format!("{}: p50 ", sh.label)))
                .unwrap_or_else(|| panic!("no line for {}:\n{text}", sh.label));
            let (largest, _) = sh.largest();
            let size = squillion::human::binary_size;
            if size(largest.bytes) == size(sh.max.bytes) {
                merged += 1;
                assert!(line.contains("which is the bound"), "{line}");
                assert!(!line.contains(", max "), "{line}");
            } else {
                both += 1;
                assert!(
                    line.contains(&format!(", max {}", size(sh.max.bytes))),
                    "{line}"
                );
            }
        }
    }
    // Both branches ran: the chunks (merged), the last chunk (254.92 KiB, bound 255.06 KiB).
    assert!(
        merged > 0,
        "no shape of message-attachments reads its bound twice:\n{text}"
    );
    assert!(
        both > 0,
        "no shape of message-attachments keeps two figures:\n{text}"
    );
}
