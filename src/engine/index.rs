//! Indexes: single-field, compound, multikey, unique, sparse and partial, with keys kept in an
//! ordered set so that range scans walk real key order.

use crate::engine::compare::{compare, shell, shell_doc};
use crate::engine::error::{EngineError, Result};
use crate::engine::path::{self, ItemOf};
use crate::engine::query::Filter;
use crate::engine::raw;
use bson::{Bson, Document, RawDocument};
use serde::Serialize;
use std::cmp::Ordering;
use std::collections::BTreeSet;

/// The record id of a stored document (its insertion sequence number).
pub type RecordId = u64;

/// One component of an index key, ordered by BSON order, reversed for a descending field.
#[derive(Debug, Clone)]
pub struct KeyPart {
    /// The indexed value.
    pub value: Bson,
    /// True for a descending (-1) field.
    pub desc: bool,
}

impl PartialEq for KeyPart {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for KeyPart {}
impl PartialOrd for KeyPart {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for KeyPart {
    fn cmp(&self, other: &Self) -> Ordering {
        let o = compare(&self.value, &other.value);
        if self.desc {
            o.reverse()
        } else {
            o
        }
    }
}

/// An encoded index key: one part per indexed field.
pub type IndexKey = Vec<KeyPart>;

/// Options given to `createIndex`.
#[derive(Debug, Clone, Default)]
pub struct IndexOptions {
    /// The index name; defaults to mongod's `a_1_b_-1` form.
    pub name: Option<String>,
    /// Reject two documents with the same key.
    pub unique: bool,
    /// Skip documents missing every indexed field.
    pub sparse: bool,
    /// Only index documents matching this filter.
    pub partial_filter_expression: Option<Document>,
    /// The collation its string keys are stored under (case-insensitive at strength 1 or 2).
    pub collation: Option<crate::engine::collation::Collation>,
}

/// The definition of an index, as `listIndexes` reports it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IndexSpec {
    /// The index name.
    pub name: String,
    /// The key pattern, e.g. `{ a: 1, b: -1 }`.
    #[serde(serialize_with = "crate::engine::plan::ser_doc")]
    pub key: Document,
    /// The fields and directions (`true` = descending).
    #[serde(skip)]
    pub fields: Vec<(String, bool)>,
    /// True when duplicate keys are refused.
    pub unique: bool,
    /// True when documents without any indexed field are left out.
    pub sparse: bool,
    /// The partial filter expression, if any.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "crate::engine::plan::ser_opt_doc"
    )]
    pub partial_filter_expression: Option<Document>,
    /// The collation, as `{ locale, strength }`, if any.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "crate::engine::plan::ser_opt_doc"
    )]
    pub collation: Option<Document>,
    /// The collation its string keys are folded under (strength 1 or 2 folds).
    #[serde(skip)]
    pub collator: Option<crate::engine::collation::Collation>,
}

/// An index: its definition and its ordered keys.
#[derive(Debug, Clone)]
pub struct Index {
    /// The definition.
    pub spec: IndexSpec,
    /// The parsed partial filter.
    pub partial: Option<Filter>,
    /// Every (key, record id) pair in key order.
    pub entries: BTreeSet<(IndexKey, RecordId)>,
    /// The paths (prefixes of indexed fields) where an array was met.
    pub multikey_paths: BTreeSet<String>,
    /// The top-level fields this index's keys of a document are read from (its key fields'
    /// and its partial filter's first path components); `None` when they cannot be listed
    /// (a partial filter with `$expr`). See [`Index::keys_may_differ`].
    key_roots: Option<Vec<String>>,
}

/// Adds the top-level field of `path` to `roots`, once.
fn add_root(roots: &mut Vec<String>, path: &str) {
    let root = path.split('.').next().unwrap_or_default();
    if !roots.iter().any(|r| r == root) {
        roots.push(root.to_string());
    }
}

/// Adds to `roots` the top-level field of each path `filter` reads; false when the filter
/// may read more than its paths (an `$expr`).
fn filter_roots(filter: &Filter, roots: &mut Vec<String>) -> bool {
    match filter {
        Filter::And(fs) | Filter::Or(fs) | Filter::Nor(fs) => {
            fs.iter().all(|f| filter_roots(f, roots))
        }
        Filter::Path { path, .. } => {
            add_root(roots, path);
            true
        }
        Filter::Expr(_) => false,
    }
}

/// Returns `values` sorted by [`compare`] (stable) without repeats (the first of equal values
/// kept): the distinct keys of one field. An array of 100,000 ObjectIds sorts their 12 bytes;
/// other values sort their positions, not the values themselves (a `Bson` is 100 bytes moved
/// per swap).
fn sorted_distinct(values: Vec<Bson>) -> Vec<Bson> {
    if values.len() < 2 {
        return values;
    }
    // An ObjectId's 12 bytes as a big-endian number order as the bytes do.
    let ids: Vec<u128> = values
        .iter()
        .map_while(|v| match v {
            Bson::ObjectId(o) => {
                let mut wide = [0u8; 16];
                for (w, b) in wide.iter_mut().skip(4).zip(o.bytes()) {
                    *w = b;
                }
                Some(u128::from_be_bytes(wide))
            }
            _ => None,
        })
        .collect();
    if ids.len() == values.len() {
        // Equal ObjectIds are the same bytes: which of them is kept does not matter.
        let mut ids = ids;
        ids.sort_unstable();
        ids.dedup();
        return ids
            .into_iter()
            .map(|n| {
                let mut b = [0u8; 12];
                for (d, s) in b.iter_mut().zip(n.to_be_bytes().into_iter().skip(4)) {
                    *d = s;
                }
                Bson::ObjectId(bson::oid::ObjectId::from_bytes(b))
            })
            .collect();
    }
    let by_position = |i: &usize, j: &usize| match (values.get(*i), values.get(*j)) {
        (Some(a), Some(b)) => compare(a, b),
        _ => Ordering::Equal,
    };
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(by_position);
    order.dedup_by(|a, b| by_position(a, b) == Ordering::Equal);
    let mut slots: Vec<Option<Bson>> = values.into_iter().map(Some).collect();
    order
        .into_iter()
        .filter_map(|i| slots.get_mut(i).and_then(Option::take))
        .collect()
}

/// Returns mongod's default index name for a key pattern (`a_1_b_-1`).
pub fn default_name(key: &Document) -> String {
    key.iter()
        .map(|(k, v)| {
            let d = match v {
                Bson::Int32(i) => i.to_string(),
                Bson::Int64(i) => i.to_string(),
                Bson::Double(f) => format!("{f}"),
                Bson::String(s) => s.clone(),
                other => shell(other),
            };
            format!("{k}_{d}")
        })
        .collect::<Vec<_>>()
        .join("_")
}

impl Index {
    /// Returns an empty index for a key pattern, checking the pattern and options.
    pub fn new(key: &Document, options: &IndexOptions) -> Result<Index> {
        if key.is_empty() {
            return Err(EngineError::new(
                67,
                "CannotCreateIndex",
                "Index keys cannot be an empty field.",
            ));
        }
        let mut fields = Vec::new();
        for (k, v) in key {
            let dir = crate::engine::compare::as_f64(v);
            match dir {
                Some(d) if d > 0.0 => fields.push((k.clone(), false)),
                Some(d) if d < 0.0 => fields.push((k.clone(), true)),
                _ => {
                    return Err(EngineError::new(
                        67,
                        "CannotCreateIndex",
                        format!(
                        "Values in the index key pattern can only be 1 or -1 in this engine: {}",
                        shell_doc(key)
                    ),
                    ))
                }
            }
        }
        let partial = match &options.partial_filter_expression {
            Some(f) => Some(Filter::parse(f)?),
            None => None,
        };
        let name = options.name.clone().unwrap_or_else(|| default_name(key));
        let mut roots: Vec<String> = Vec::new();
        for (field, _) in &fields {
            add_root(&mut roots, field);
        }
        let key_roots = match &partial {
            Some(f) => filter_roots(f, &mut roots).then_some(roots),
            None => Some(roots),
        };
        Ok(Index {
            spec: IndexSpec {
                name,
                key: key.clone(),
                fields,
                unique: options.unique,
                sparse: options.sparse,
                partial_filter_expression: options.partial_filter_expression.clone(),
                collation: options
                    .collation
                    .as_ref()
                    .map(crate::engine::collation::Collation::to_document),
                collator: options.collation.clone().filter(|c| c.folds()),
            },
            partial,
            entries: BTreeSet::new(),
            multikey_paths: BTreeSet::new(),
            key_roots,
        })
    }

    /// Returns false when a document stored as `old` and rewritten as `new` has the same keys
    /// in this index, the same array paths and the same place in its partial filter: every
    /// top-level field the keys and the filter read is the same bytes in both (a value's
    /// bytes fix everything read under it). True when some such field changed or the bytes
    /// cannot be compared: the keys are then recomputed. An update that leaves an index's
    /// fields alone (a nested-sets shift changing `lft`/`rgt` only) writes nothing to it, as
    /// recomputing its keys found, without recomputing them.
    pub fn keys_may_differ(&self, old: &RawDocument, new: &RawDocument) -> bool {
        let Some(roots) = &self.key_roots else {
            return true;
        };
        roots.iter().any(|root| {
            match (raw::element_bytes(old, root), raw::element_bytes(new, root)) {
                (Some(a), Some(b)) => a != b,
                _ => true,
            }
        })
    }

    /// Returns the key values of one field as this index stores them: folded under its
    /// collation (case-insensitive keys), as they are without one.
    fn folded(&self, values: Vec<Bson>) -> Vec<Bson> {
        match &self.spec.collator {
            Some(c) => values.iter().map(|v| c.fold(v)).collect(),
            None => values,
        }
    }

    /// Returns true when some document made this index multikey.
    pub fn is_multikey(&self) -> bool {
        !self.multikey_paths.is_empty()
    }

    /// Returns true when the field at `path` runs through an array in some document.
    pub fn field_is_multikey(&self, field: &str) -> bool {
        self.multikey_paths
            .iter()
            .any(|p| field == p || field.starts_with(&format!("{p}.")))
    }

    /// Returns the keys a document contributes (none when sparse/partial leave it out) and
    /// the array paths met; error 171 when two fields are arrays.
    pub fn keys_for(&self, doc: &Document) -> Result<(Vec<IndexKey>, Vec<String>)> {
        if let Some(f) = &self.partial {
            if !f.matches(doc) {
                return Ok((Vec::new(), Vec::new()));
            }
        }
        self.keys_of(doc)
    }

    /// Returns [`Index::keys_for`] of a stored (raw) document, reading the keyed values from
    /// the bytes (each key value is decoded once; the document never is).
    pub fn keys_for_raw(&self, doc: &RawDocument) -> Result<(Vec<IndexKey>, Vec<String>)> {
        if let Some(keys) = self.object_id_array_keys(doc) {
            return Ok(keys);
        }
        if let Some(f) = &self.partial {
            if !f.matches_raw(doc) {
                return Ok((Vec::new(), Vec::new()));
            }
        }
        self.keys_of(doc)
    }

    /// Returns the keys a document of either form contributes when its partial filter keeps
    /// it: one list of key values per field (each path's index keys, [`path::key_values`]),
    /// combined into compound keys.
    fn keys_of<'a, D: path::View<'a>>(&self, doc: D) -> Result<(Vec<IndexKey>, Vec<String>)> {
        let mut per_field: Vec<Vec<Bson>> = Vec::new();
        let mut arrays: Vec<(String, String)> = Vec::new();
        let mut all_missing = true;
        for (field, _) in &self.spec.fields {
            let parts = path::split(field);
            // Only a sparse index asks whether every field is missing.
            if self.spec.sparse
                && all_missing
                && path::any(doc, &parts, false, &mut |i| matches!(i, ItemOf::Value(_)))
            {
                all_missing = false;
            }
            let (values, array_at) = path::key_values(doc, &parts);
            if let Some(a) = array_at {
                arrays.push((field.clone(), a));
            }
            per_field.push(sorted_distinct(self.folded(values)));
        }
        self.combine(per_field, arrays, all_missing)
    }

    /// Returns [`Index::keys_for_raw`] of a one-field index (not sparse, not partial) on a
    /// top-level array of ObjectIds only, read as 12-byte numbers, sorted and deduplicated
    /// without a `Bson` per element (what `sorted_distinct` does with the decoded values);
    /// `None` for any other index or value.
    fn object_id_array_keys(&self, doc: &RawDocument) -> Option<(Vec<IndexKey>, Vec<String>)> {
        if self.partial.is_some() || self.spec.sparse {
            return None;
        }
        let [(field, desc)] = self.spec.fields.as_slice() else {
            return None;
        };
        if field.contains('.') {
            return None;
        }
        let ids = raw::object_id_array(doc, field)?;
        let mut wide: Vec<u128> = ids
            .iter()
            .map(|b| {
                let mut w = [0u8; 16];
                for (d, s) in w.iter_mut().skip(4).zip(b) {
                    *d = *s;
                }
                u128::from_be_bytes(w)
            })
            .collect();
        wide.sort_unstable();
        wide.dedup();
        let keys = wide
            .into_iter()
            .map(|n| {
                let mut b = [0u8; 12];
                for (d, s) in b.iter_mut().zip(n.to_be_bytes().into_iter().skip(4)) {
                    *d = s;
                }
                vec![KeyPart {
                    value: Bson::ObjectId(bson::oid::ObjectId::from_bytes(b)),
                    desc: *desc,
                }]
            })
            .collect();
        Some((keys, vec![field.clone()]))
    }

    /// Returns the keys of one document from each field's distinct values and the array
    /// paths met (the second half of [`Index::keys_for`]).
    fn combine(
        &self,
        mut per_field: Vec<Vec<Bson>>,
        arrays: Vec<(String, String)>,
        all_missing: bool,
    ) -> Result<(Vec<IndexKey>, Vec<String>)> {
        if self.spec.sparse && all_missing {
            return Ok((Vec::new(), Vec::new()));
        }
        // Two fields reaching arrays at different paths are parallel arrays (a.b and a.c
        // under the same array `a` are not).
        if let Some((fa, pa)) = arrays.first() {
            if let Some((fb, _)) = arrays.iter().find(|(_, p)| p != pa) {
                return Err(EngineError::parallel_arrays(fa, fb));
            }
        }
        let arrays = arrays.into_iter().map(|(_, p)| p).collect();
        // One field (most indexes): each value is its key, moved rather than cloned.
        if let ([values], [(_, desc)]) = (per_field.as_mut_slice(), self.spec.fields.as_slice()) {
            let keys = std::mem::take(values)
                .into_iter()
                .map(|value| vec![KeyPart { value, desc: *desc }])
                .collect();
            return Ok((keys, arrays));
        }
        let mut keys: Vec<IndexKey> = vec![Vec::new()];
        for (values, (_, desc)) in per_field.iter().zip(self.spec.fields.iter()) {
            let mut next = Vec::with_capacity(keys.len() * values.len());
            for k in &keys {
                for v in values {
                    let mut k2 = k.clone();
                    k2.push(KeyPart {
                        value: v.clone(),
                        desc: *desc,
                    });
                    next.push(k2);
                }
            }
            keys = next;
        }
        Ok((keys, arrays))
    }

    /// Returns the key as mongod prints it in an E11000 message (`{ a: 1 }`).
    pub fn describe_key(&self, key: &IndexKey) -> String {
        let mut d = Document::new();
        for ((f, _), part) in self.spec.fields.iter().zip(key.iter()) {
            d.insert(f.clone(), part.value.clone());
        }
        shell_doc(&d)
    }

    /// Returns the first key of `keys` already held by another record (unique indexes only).
    pub fn duplicate<'k>(&self, keys: &'k [IndexKey], rid: RecordId) -> Option<&'k IndexKey> {
        if !self.spec.unique {
            return None;
        }
        keys.iter().find(|k| {
            let lo = ((*k).clone(), 0);
            self.entries
                .range(lo..)
                .take_while(|(ek, _)| ek == *k)
                .any(|(_, r)| *r != rid)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    #[test]
    fn multikey_and_parallel_arrays() {
        let idx = Index::new(&doc! {"a": 1, "b": 1}, &IndexOptions::default());
        let Ok(idx) = idx else { return };
        let ok = idx.keys_for(&doc! {"a": [1, 2], "b": 3});
        assert_eq!(ok.map(|(k, _)| k.len()).ok(), Some(2));
        let err = idx.keys_for(&doc! {"a": [1, 2], "b": [3, 4]});
        assert_eq!(err.err().map(|e| e.code), Some(171));
        assert_eq!(default_name(&doc! {"a": 1, "b": -1}), "a_1_b_-1");
    }

    /// Keys read from a stored document's bytes are the keys of the document decoded, for
    /// single, compound, dotted, multikey, sparse and partial indexes.
    #[test]
    fn raw_keys_are_the_document_keys() {
        let oid = |n: u8| bson::oid::ObjectId::from_bytes([n, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, n]);
        let docs = [
            doc! {},
            doc! {"a": 1, "b": "x"},
            doc! {"a": [3, 1, 3, [2]], "b": {"c": null}},
            doc! {"a": [], "b": [{"c": 1}, {"c": [2, 1]}, {"d": 1}, 4]},
            doc! {"a": {"x": 1}, "b": {"c": {"d": 1}}},
            doc! {"a": [1, 2], "b": [3]},
            // ObjectId arrays (the follower list's fast path), repeats and a mixed array.
            doc! {"a": [oid(9), oid(2), oid(9), oid(200)], "b": [oid(1)]},
            doc! {"a": [oid(3), 1, oid(2)], "b": [oid(4), oid(4)]},
            doc! {"a": [oid(5)], "b": {"c": [oid(7), oid(6)]}},
        ];
        let specs = [
            (doc! {"a": 1}, IndexOptions::default()),
            (doc! {"a": -1, "b": 1}, IndexOptions::default()),
            (doc! {"b": -1}, IndexOptions::default()),
            (doc! {"b.c": 1}, IndexOptions::default()),
            (doc! {"b.c": 1, "a": 1}, IndexOptions::default()),
            (
                doc! {"b.c": 1},
                IndexOptions {
                    sparse: true,
                    ..Default::default()
                },
            ),
            (
                doc! {"a": 1},
                IndexOptions {
                    partial_filter_expression: Some(doc! {"b": {"$exists": true}}),
                    ..Default::default()
                },
            ),
        ];
        for (key, opts) in &specs {
            let Ok(idx) = Index::new(key, opts) else {
                panic!("index {key}");
            };
            for d in &docs {
                let Ok(raw) = bson::RawDocumentBuf::try_from(d) else {
                    panic!("{d} does not encode");
                };
                let from_doc = idx.keys_for(d).map_err(|e| e.code);
                let from_raw = idx.keys_for_raw(&raw).map_err(|e| e.code);
                assert_eq!(from_raw, from_doc, "{key} on {d}");
            }
        }
    }

    /// The distinct keys of a field are the values sorted stably by `compare` with the first of
    /// equal values kept, for ObjectIds (sorted by bytes) and for mixed values alike.
    #[test]
    fn sorted_distinct_is_a_stable_sort_and_dedup() {
        let naive = |mut v: Vec<Bson>| {
            v.sort_by(compare);
            v.dedup_by(|a, b| compare(a, b) == Ordering::Equal);
            v
        };
        let oid = |n: u8| {
            Bson::ObjectId(bson::oid::ObjectId::from_bytes([
                n, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, n,
            ]))
        };
        let cases = vec![
            vec![oid(3), oid(1), oid(2), oid(1), oid(200)],
            vec![
                Bson::Int32(1),
                Bson::Double(1.0),
                Bson::Int64(0),
                Bson::String("a".into()),
                Bson::Null,
                Bson::Int32(1),
            ],
            vec![
                Bson::Double(f64::NAN),
                Bson::Int32(2),
                Bson::Double(f64::NAN),
                oid(1),
                Bson::Undefined,
            ],
            vec![Bson::Double(2.0), Bson::Int64(2), Bson::Int32(2)],
        ];
        for c in cases {
            let want = naive(c.clone());
            let got = sorted_distinct(c);
            // Same values, same types (1 and 1.0 are equal keys: the first one stays).
            assert_eq!(format!("{got:?}"), format!("{want:?}"));
        }
    }
}
