//! What a step's plan returned, as the logical answer check looks it up: every document and
//! sub-document its commands returned, and whether one of them holds a given child's fields.
//!
//! A read of the newest 5,000 children checks 5,000 children against the thousands of
//! documents the plan returned: compared one by one that is tens of millions of field
//! comparisons per step. The pool indexes its documents by a fingerprint of the values of
//! the fields a lookup compares (built once per list of fields), so a lookup compares only
//! the documents whose fingerprint matches, with the same equality as before.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use bson::{doc, Bson, Document};

/// Every document and sub-document a step's commands returned, indexed for [`Pool::holds`].
/// What the commands returned is borrowed, not copied: a parent with thousands of embedded
/// children would otherwise be copied once per level of nesting.
pub(super) struct Pool<'a> {
    /// The documents, in the order they were returned and walked: borrowed, or made here (a
    /// map's entries, the ids of a list of references, a bucket's measurements).
    docs: Vec<Cow<'a, Document>>,
    /// Per list of fields compared: the indexes of `docs` by the fingerprint of those fields'
    /// values (a document lacking one of the fields is left out: it holds no child that has it).
    index: RefCell<HashMap<Vec<String>, ByFingerprint>>,
}

/// The indexes of a pool's documents by the fingerprint of some fields' values.
type ByFingerprint = HashMap<u64, Vec<usize>>;

impl<'a> Pool<'a> {
    /// Returns the pool of step `step`: every document and sub-document its commands returned
    /// (`returned`: per command, its step and documents); the entries of a map (an object keyed
    /// by the children's `map_keys`) also as the children they stand for, an id in a list of
    /// references as `{_id}`, and a time-series bucket's measurements as the view returns them.
    pub(super) fn of(
        returned: &'a [(usize, Vec<Document>)],
        step: usize,
        map_keys: &[String],
    ) -> Pool<'a> {
        fn walk_document<'a>(
            d: &'a Document,
            out: &mut Vec<Cow<'a, Document>>,
            map_keys: &[String],
        ) {
            out.push(Cow::Borrowed(d));
            for (k, x) in d {
                if let Bson::Document(sub) = x {
                    for key in map_keys {
                        let mut e = doc! { key.as_str(): k.clone() };
                        e.extend(sub.clone());
                        out.push(Cow::Owned(e));
                    }
                }
                walk(x, out, map_keys);
            }
        }
        fn walk<'a>(v: &'a Bson, out: &mut Vec<Cow<'a, Document>>, map_keys: &[String]) {
            match v {
                Bson::Document(d) => walk_document(d, out, map_keys),
                Bson::Array(a) => a.iter().for_each(|x| walk(x, out, map_keys)),
                // An id in a list of references answers a read of ids (`fields: ["_id"]`).
                Bson::ObjectId(_) => out.push(Cow::Owned(doc! { "_id": v.clone() })),
                _ => {}
            }
        }
        let mut docs = Vec::new();
        for (_, returned) in returned.iter().filter(|(s, _)| *s == step) {
            for d in returned {
                walk_document(d, &mut docs, map_keys);
                // A time-series bucket: its measurements, as the view returns them.
                docs.extend(
                    crate::design::place::unpack_bucket(d, None)
                        .unwrap_or_default()
                        .into_iter()
                        .map(Cow::Owned),
                );
            }
        }
        Pool {
            docs,
            index: RefCell::new(HashMap::new()),
        }
    }

    /// Returns whether some document of the pool holds child `e`'s `wanted` fields (those `e`
    /// has) with the same values.
    pub(super) fn holds(&self, e: &Document, wanted: &[String]) -> bool {
        let fields: Vec<String> = wanted
            .iter()
            .filter(|f| e.contains_key(f.as_str()))
            .cloned()
            .collect();
        if fields.is_empty() {
            return true;
        }
        let Some(key) = fingerprint_of(e, &fields) else {
            return false;
        };
        let mut index = self.index.borrow_mut();
        let by_key = index.entry(fields).or_insert_with_key(|fields| {
            let mut by_key = ByFingerprint::new();
            for (i, d) in self.docs.iter().enumerate() {
                if let Some(k) = fingerprint_of(d, fields) {
                    by_key.entry(k).or_default().push(i);
                }
            }
            by_key
        });
        let Some(candidates) = by_key.get(&key) else {
            return false;
        };
        candidates
            .iter()
            .filter_map(|&i| self.docs.get(i))
            .any(|d| {
                wanted
                    .iter()
                    .filter(|f| e.contains_key(f.as_str()))
                    .all(|f| d.get(f.as_str()) == e.get(f.as_str()))
            })
    }
}

/// Returns the fingerprint of the values of `fields` in `d`, in that order, or `None` when `d`
/// lacks one of them.
fn fingerprint_of(d: &Document, fields: &[String]) -> Option<u64> {
    let mut h = DefaultHasher::new();
    for f in fields {
        fingerprint(d.get(f.as_str())?, &mut h);
    }
    Some(h.finish())
}

/// Feeds `v` to `h` so that values equal by `Bson`'s `==` feed the same (values that differ
/// may feed the same too: the pool compares the candidates with `==`). A sub-document's fields
/// count in any order, as its `==` compares them; a double's zero of either sign is one value.
fn fingerprint(v: &Bson, h: &mut DefaultHasher) {
    std::mem::discriminant(v).hash(h);
    match v {
        Bson::Double(x) => {
            let x = if *x == 0.0 { 0.0 } else { *x };
            x.to_bits().hash(h);
        }
        Bson::String(s) | Bson::Symbol(s) | Bson::JavaScriptCode(s) => s.hash(h),
        Bson::Boolean(b) => b.hash(h),
        Bson::Int32(n) => n.hash(h),
        Bson::Int64(n) => n.hash(h),
        Bson::ObjectId(o) => o.hash(h),
        Bson::DateTime(t) => t.hash(h),
        Bson::Decimal128(d) => d.hash(h),
        Bson::Array(a) => {
            a.len().hash(h);
            for x in a {
                fingerprint(x, h);
            }
        }
        Bson::Document(d) => {
            let fields = d.iter().fold(0u64, |sum, (k, x)| {
                let mut f = DefaultHasher::new();
                k.hash(&mut f);
                fingerprint(x, &mut f);
                sum.wrapping_add(f.finish())
            });
            fields.hash(h);
        }
        // The rarer kinds: the kind alone (the candidates are compared with `==`).
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn returned(docs: Vec<Document>) -> Vec<(usize, Vec<Document>)> {
        vec![(0, docs)]
    }

    #[test]
    fn a_child_is_held_by_a_document_with_the_same_wanted_fields() {
        let r = returned(vec![
            doc! { "_id": 1, "time": 5, "msg": "a", "extra": true },
            doc! { "_id": 2, "time": 6 },
        ]);
        let p = Pool::of(&r, 0, &[]);
        let wanted = ["_id".to_string(), "time".to_string(), "msg".to_string()];
        assert!(p.holds(&doc! { "_id": 1, "time": 5, "msg": "a" }, &wanted));
        // Only the wanted fields the child has are compared.
        assert!(p.holds(&doc! { "_id": 2, "time": 6 }, &wanted));
        assert!(!p.holds(&doc! { "_id": 2, "time": 6, "msg": "b" }, &wanted));
        assert!(!p.holds(&doc! { "_id": 1, "time": 6 }, &wanted));
        // A child with none of the wanted fields is held by anything.
        assert!(p.holds(&doc! { "other": 1 }, &wanted));
    }

    #[test]
    fn equal_values_match_whatever_their_form() {
        let r = returned(vec![
            doc! { "v": -0.0, "d": { "a": 1, "b": 2 } },
            doc! { "v": 1_i64, "d": { "a": 1 } },
        ]);
        let p = Pool::of(&r, 0, &[]);
        let wanted = ["v".to_string(), "d".to_string()];
        // A sub-document's fields in another order; zero of the other sign.
        assert!(p.holds(&doc! { "v": 0.0, "d": { "b": 2, "a": 1 } }, &wanted));
        // An int32 is not an int64, as `==` has it.
        assert!(!p.holds(&doc! { "v": 1_i32, "d": { "a": 1 } }, &wanted));
        assert!(p.holds(&doc! { "v": 1_i64, "d": { "a": 1 } }, &wanted));
    }

    #[test]
    fn a_pool_holds_sub_documents_ids_and_map_entries() {
        let r = vec![(
            3,
            vec![
                doc! { "refs": [bson::oid::ObjectId::from_bytes([7; 12])], "tags": { "red": { "n": 1 } } },
            ],
        )];
        let p = Pool::of(&r, 3, &["name".to_string()]);
        let id = ["_id".to_string()];
        assert!(p.holds(
            &doc! { "_id": bson::oid::ObjectId::from_bytes([7; 12]) },
            &id
        ));
        let entry = ["name".to_string(), "n".to_string()];
        assert!(p.holds(&doc! { "name": "red", "n": 1 }, &entry));
        assert!(!p.holds(&doc! { "name": "blue", "n": 1 }, &entry));
    }
}
