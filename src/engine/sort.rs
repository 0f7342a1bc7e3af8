//! Sort specifications and sort keys: an array sorts by its smallest element ascending and its
//! largest descending; a missing field sorts as null, an empty array below null.

use crate::engine::compare::{compare, shell_doc};
use crate::engine::error::{EngineError, Result};
use crate::engine::path::{self, Item};
use bson::{Bson, Document, RawDocument};
use std::cmp::Ordering;

/// A parsed sort: paths with their direction (`true` = descending).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SortSpec {
    /// The sort fields in order; an empty path sorts whole values (`$push` with `$sort: 1`).
    pub keys: Vec<(String, bool)>,
}

impl SortSpec {
    /// Returns the parsed sort document (`{ a: 1, b: -1 }`); other values are error 15975.
    pub fn parse(spec: &Document) -> Result<SortSpec> {
        let mut keys = Vec::new();
        for (k, v) in spec {
            let dir = crate::engine::compare::as_f64(v);
            match dir {
                Some(1.0) => keys.push((k.clone(), false)),
                Some(-1.0) => keys.push((k.clone(), true)),
                _ => {
                    return Err(EngineError::new(
                        15975,
                        "Location15975",
                        format!(
                        "$sort key ordering must be 1 (for ascending) or -1 (for descending): {}",
                        shell_doc(spec)
                    ),
                    ))
                }
            }
        }
        Ok(SortSpec { keys })
    }

    /// Returns a sort of whole values in one direction.
    pub fn whole(desc: bool) -> SortSpec {
        SortSpec {
            keys: vec![(String::new(), desc)],
        }
    }

    /// Returns true when there is nothing to sort by.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Returns the sort document (`{ a: 1 }`).
    pub fn to_document(&self) -> Document {
        let mut d = Document::new();
        for (k, desc) in &self.keys {
            d.insert(k.clone(), if *desc { -1 } else { 1 });
        }
        d
    }

    /// Returns the key a document sorts by, one value per field.
    pub fn key(&self, doc: &Document) -> Vec<Bson> {
        self.keys
            .iter()
            .map(|(p, desc)| sort_value(doc, p, *desc))
            .collect()
    }

    /// Returns the key a stored (raw) document sorts by: [`SortSpec::key`] of the document
    /// decoded, reading a path that meets no array from the bytes (the document is decoded
    /// only for a path through an array).
    pub fn key_raw(&self, doc: &RawDocument) -> Vec<Bson> {
        let mut decoded: Option<Document> = None;
        self.keys
            .iter()
            .map(|(p, desc)| match path::reach(doc, p.split('.')) {
                path::RawReach::Missing => Bson::Null,
                path::RawReach::Value(v) => Bson::try_from(v).unwrap_or(Bson::Null),
                path::RawReach::Array => {
                    let d =
                        decoded.get_or_insert_with(|| Document::try_from(doc).unwrap_or_default());
                    sort_value(d, p, *desc)
                }
            })
            .collect()
    }

    /// Returns the order of two keys from [`SortSpec::key`].
    pub fn compare_keys(&self, a: &[Bson], b: &[Bson]) -> Ordering {
        for ((x, y), (_, desc)) in a.iter().zip(b.iter()).zip(self.keys.iter()) {
            let o = compare(x, y);
            let o = if *desc { o.reverse() } else { o };
            if o != Ordering::Equal {
                return o;
            }
        }
        Ordering::Equal
    }

    /// Sorts documents stably.
    pub fn sort_docs(&self, docs: &mut Vec<Document>) {
        let mut keyed: Vec<(Vec<Bson>, Document)> =
            docs.drain(..).map(|d| (self.key(&d), d)).collect();
        keyed.sort_by(|a, b| self.compare_keys(&a.0, &b.0));
        docs.extend(keyed.into_iter().map(|(_, d)| d));
    }

    /// Sorts array elements (for `$push` with `$sort`): whole values, or documents by fields.
    pub fn sort_values(&self, values: &mut [Bson]) {
        if self.keys.first().is_some_and(|(p, _)| p.is_empty()) {
            let desc = self.keys.first().is_some_and(|(_, d)| *d);
            values.sort_by(|a, b| if desc { compare(b, a) } else { compare(a, b) });
            return;
        }
        let empty = Document::new();
        values.sort_by(|a, b| {
            let da = a.as_document().unwrap_or(&empty);
            let db = b.as_document().unwrap_or(&empty);
            self.compare_keys(&self.key(da), &self.key(db))
        });
    }
}

/// Returns the value a document sorts by on one path.
pub fn sort_value(doc: &Document, p: &str, desc: bool) -> Bson {
    // No array on the way: the general rules below reduce to the value reached (missing
    // sorts as null), without the lists they build.
    match path::reach(doc, p.split('.')) {
        path::Reach::Missing => return Bson::Null,
        path::Reach::Value(v) => return v.clone(),
        path::Reach::Array => {}
    }
    let parts = path::split(p);
    let mut values: Vec<&Bson> = Vec::new();
    let mut undefined = false;
    let mut missing = false;
    for item in path::items(doc, &parts, true) {
        match item {
            Item::Missing => missing = true,
            Item::Value(Bson::Array(a)) => {
                if a.is_empty() {
                    undefined = true;
                }
            }
            Item::Value(v) => values.push(v),
        }
    }
    // Elements of a leaf array were yielded after the array itself; a nested array element
    // (`[[1, 2]]`) is yielded as an array value and must count, so re-add array elements.
    for item in path::items(doc, &parts, false) {
        if let Item::Value(Bson::Array(a)) = item {
            values.extend(a.iter().filter(|e| matches!(e, Bson::Array(_))));
        }
    }
    let mut candidates: Vec<Bson> = values.into_iter().cloned().collect();
    if missing {
        candidates.push(Bson::Null);
    }
    if undefined {
        candidates.push(Bson::Undefined);
    }
    let best = candidates.into_iter().reduce(|a, b| {
        let o = compare(&b, &a);
        if (desc && o.is_gt()) || (!desc && o.is_lt()) {
            b
        } else {
            a
        }
    });
    best.unwrap_or(Bson::Null)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    #[test]
    fn arrays_sort_by_min_ascending_and_max_descending() {
        let mut docs = vec![
            doc! {"_id": 1, "a": [1, 10]},
            doc! {"_id": 2, "a": 5},
            doc! {"_id": 3},
        ];
        let asc = SortSpec::parse(&doc! {"a": 1}).unwrap_or_default();
        asc.sort_docs(&mut docs);
        let ids: Vec<i32> = docs.iter().filter_map(|d| d.get_i32("_id").ok()).collect();
        assert_eq!(ids, vec![3, 1, 2]);
        let desc = SortSpec::parse(&doc! {"a": -1}).unwrap_or_default();
        desc.sort_docs(&mut docs);
        let ids: Vec<i32> = docs.iter().filter_map(|d| d.get_i32("_id").ok()).collect();
        assert_eq!(ids, vec![1, 2, 3]);
    }

    #[test]
    fn plain_paths_sort_by_their_value_and_missing_as_null() {
        let d = doc! {"a": {"b": 2, "c": [3, 1]}, "s": "x", "n": null};
        assert_eq!(sort_value(&d, "a.b", false), Bson::Int32(2));
        assert_eq!(sort_value(&d, "s.t", false), Bson::Null);
        assert_eq!(sort_value(&d, "zz", true), Bson::Null);
        assert_eq!(sort_value(&d, "n", true), Bson::Null);
        assert_eq!(
            sort_value(&d, "a", false),
            d.get("a").cloned().unwrap_or(Bson::Null)
        );
        // Arrays still take the general rules: smallest ascending, largest descending.
        assert_eq!(sort_value(&d, "a.c", false), Bson::Int32(1));
        assert_eq!(sort_value(&d, "a.c", true), Bson::Int32(3));
    }
}
