//! The indexes a workload needs: equality fields first, then sort fields (the ESR rule),
//! derived from the plan's commands, plus every shard key and one index per key of a keyed
//! sub-document the plan queries.

use bson::{Bson, Document};

use super::command::{CommandKind, Plan};
use super::names::TYPE_FIELD;
use super::shape::{collection_holding, Collection, Index};
use crate::model::design::{AttributeForm, DesignSpec, FieldPattern};
use crate::model::Model;

/// Returns the key pattern a find/update/delete needs, in the order of MongoDB's ESR rule:
/// the fields the filter matches by equality (not operators, not a lone `_id`), then the sort
/// fields, then the fields it bounds by a range (`{date: {$gt: last}}`: after the sort, so one
/// index serves the first page and the next); for an empty filter, the sort alone.
pub fn key_for(filter: &Document, sort: Option<&Document>) -> Option<Document> {
    let mut keys = Document::new();
    let mut ranges = Vec::new();
    for (k, v) in filter {
        if k.starts_with('$') || k == "_id" {
            continue;
        }
        if let Bson::Document(d) = v {
            // Range-only conditions on counters and `$exists` (a continuation's room, an open
            // bucket's free slot) are checked on the one document found: no key.
            if d.keys().any(|op| op == "$lt" || op == "$exists") {
                continue;
            }
            if d.keys().any(|op| RANGES.contains(&op.as_str())) {
                ranges.push(k.clone());
                continue;
            }
        }
        keys.insert(k.clone(), 1);
    }
    let equalities = keys.len();
    if equalities == 0 && ranges.is_empty() {
        // A sorted scan of the whole collection (the 10 newest posts) needs the sort's index;
        // anything else here is an `_id` lookup.
        return match sort {
            Some(s) if filter.is_empty() && !s.is_empty() => Some(s.clone()),
            _ => None,
        };
    }
    if let Some(s) = sort {
        for (k, v) in s {
            if !keys.contains_key(k) {
                keys.insert(k.clone(), v.clone());
            }
        }
    }
    for k in ranges {
        if !keys.contains_key(&k) {
            keys.insert(k, 1);
        }
    }
    Some(keys)
}

/// The range operators of a filter field, whose key goes after the sort's (ESR).
const RANGES: [&str; 4] = ["$gt", "$gte", "$lte", "$ne"];

/// Returns the indexes of every collection, in order: the shard keys and what the plan's
/// commands filter and sort on (an index that is a prefix of another is left out), then one
/// index per key of a keyed sub-document the plan queries by key.
pub(super) fn derive(
    model: &Model,
    spec: &DesignSpec,
    collections: &[Collection],
    plan: &Plan,
) -> Vec<Index> {
    let mut all = from_plan(collections, plan, &spec.polymorphic);
    keyed(model, spec, collections, plan, &mut all);
    gridfs_driver_indexes(collections, &mut all);
    time_series_indexes(model, collections, &mut all);
    all
}

/// Gives every collection its indexes among `indexes` (those on its name), in their order.
pub(super) fn attach(collections: &mut [Collection], indexes: &[Index]) {
    for c in collections {
        c.indexes = indexes
            .iter()
            .filter(|i| i.collection == c.name)
            .cloned()
            .collect();
    }
}

/// Adds the index the server creates on a time-series collection with a `metaField`
/// (`{meta: 1, time: 1}` on the view, `{meta: 1, control.min.time: 1, control.max.time: 1}`
/// on its buckets), in place of the plan's indexes on the buckets that it serves (those whose
/// fields are its first fields).
fn time_series_indexes(model: &Model, collections: &[Collection], all: &mut Vec<Index>) {
    use super::names::{buckets_collection_name, BUCKET_LABEL, META};
    for r in &model.relationships {
        let coll = buckets_collection_name(r);
        let placed = collections
            .iter()
            .any(|c| c.name == coll && c.shape(BUCKET_LABEL).is_some());
        let Some(time) = crate::model::design::time_field(model, r).filter(|_| placed) else {
            continue;
        };
        let keys = bson::doc! {
            META: 1,
            format!("control.min.{time}"): 1,
            format!("control.max.{time}"): 1,
        };
        let names: Vec<&String> = keys.keys().collect();
        all.retain(|x| {
            x.collection != coll
                || x.reason == "shard key"
                || !x
                    .keys
                    .keys()
                    .enumerate()
                    .all(|(i, k)| names.get(i) == Some(&k))
        });
        all.push(Index {
            collection: coll,
            keys,
            multikey: false,
            partial: None,
            collation: None,
            reason: "time series: the server creates it".to_string(),
        });
    }
}

/// Adds the indexes a driver creates on a GridFS bucket before its first upload, as the GridFS
/// specification says: `fs.chunks {files_id: 1, n: 1}` (unique) and `fs.files {filename: 1,
/// uploadDate: 1}`, unless the plan's already cover them.
fn gridfs_driver_indexes(collections: &[Collection], all: &mut Vec<Index>) {
    use super::names::{CHUNKS, FILES};
    let wanted = [
        (
            CHUNKS,
            bson::doc! { "files_id": 1, "n": 1 },
            "GridFS: a driver creates it (unique)",
        ),
        (
            FILES,
            bson::doc! { "filename": 1, "uploadDate": 1 },
            "GridFS: a driver creates it",
        ),
    ];
    for (coll, keys, reason) in wanted {
        if !collections.iter().any(|c| c.name == coll) {
            continue;
        }
        let ix = Index {
            collection: coll.to_string(),
            keys,
            multikey: false,
            partial: None,
            collation: None,
            reason: reason.to_string(),
        };
        if !all.iter().any(|x| ix.is_prefix_of(x)) {
            all.retain(|x| !x.is_prefix_of(&ix));
            all.push(ix);
        }
    }
}

/// Returns the indexes the shard keys and the plan's commands need, each marked multikey when
/// a key path runs through an array.
fn from_plan(
    collections: &[Collection],
    plan: &Plan,
    polymorphic: &std::collections::BTreeMap<String, Vec<String>>,
) -> Vec<Index> {
    let mut all: Vec<Index> = Vec::new();
    let mut add = |ix: Index| {
        if all.iter().any(|x| ix.is_prefix_of(x)) {
            return;
        }
        all.retain(|x| !x.is_prefix_of(&ix));
        all.push(ix);
    };
    for c in collections {
        if let Some(k) = &c.shard_key {
            if k.keys().any(|f| f != "_id") {
                add(Index {
                    collection: c.name.clone(),
                    keys: k.clone(),
                    multikey: false,
                    partial: None,
                    collation: None,
                    reason: "shard key".into(),
                });
            }
        }
    }
    for u in &plan.units {
        for c in &u.commands {
            if c.kind == CommandKind::Insert {
                continue;
            }
            // An aggregate's filter is its leading `$match`; each equality `$lookup` needs
            // its foreign field indexed in the joined collection.
            if c.kind == CommandKind::Aggregate {
                for l in c
                    .pipeline
                    .iter()
                    .filter_map(|s| s.get_document("$lookup").ok())
                {
                    if let (Ok(from), Ok(foreign)) = (l.get_str("from"), l.get_str("foreignField"))
                    {
                        if foreign != "_id" {
                            add(Index {
                                collection: from.to_string(),
                                keys: bson::doc! { foreign: 1 },
                                multikey: false,
                                partial: None,
                                collation: None,
                                reason: u.unit.clone(),
                            });
                        }
                    }
                }
                if c.filter.is_empty() {
                    continue;
                }
            }
            // In a polymorphic collection, a query that names its type gets a partial index
            // on that type: it holds only that type's documents.
            let typed = polymorphic
                .contains_key(&c.collection)
                .then(|| c.filter.get_str(TYPE_FIELD).ok())
                .flatten();
            let (filter, partial) = match typed {
                Some(t) => {
                    let mut f = c.filter.clone();
                    f.remove(TYPE_FIELD);
                    // A query on the type alone keeps its index on the type.
                    if key_for(&f, c.sort.as_ref()).is_some() {
                        (f, Some(bson::doc! { TYPE_FIELD: t }))
                    } else {
                        (c.filter.clone(), None)
                    }
                }
                None => (c.filter.clone(), None),
            };
            if let Some(keys) = key_for(&filter, c.sort.as_ref()) {
                add(Index {
                    collection: c.collection.clone(),
                    keys,
                    multikey: false,
                    partial,
                    collation: c.collation.clone(),
                    reason: u.unit.clone(),
                });
            }
        }
    }
    for ix in &mut all {
        if let Some(coll) = collections.iter().find(|c| c.name == ix.collection) {
            ix.multikey = ix.keys.keys().any(|k| {
                let top = k.split('.').next().unwrap_or(k);
                coll.shapes.iter().any(|s| {
                    s.fields
                        .get(top)
                        .is_some_and(|f| f.ty == crate::model::BsonType::Array)
                })
            });
        }
    }
    all
}

/// Adds to `all` one index per key of a sub-document keyed by attribute (`prices.gewala`)
/// that the plan queries: the key is chosen at run time, so once the plan queries one key,
/// every key needs its own index (article 003).
fn keyed(
    model: &Model,
    spec: &DesignSpec,
    collections: &[Collection],
    plan: &Plan,
    all: &mut Vec<Index>,
) {
    for p in &spec.fields {
        let FieldPattern::Attribute {
            entity,
            field,
            form: AttributeForm::Keyed,
            key,
            ..
        } = p
        else {
            continue;
        };
        let Some(coll) = collection_holding(collections, entity).map(|c| c.name.clone()) else {
            continue;
        };
        let prefix = format!("{field}.");
        let queried = plan.units.iter().any(|u| {
            u.commands
                .iter()
                .any(|c| c.collection == coll && mentions(&c.filter, &prefix))
        });
        if !queried {
            continue;
        }
        let names = model
            .entity(entity)
            .and_then(|e| e.fields.get(field))
            .and_then(|f| f.fields.get(key))
            .map(|k| k.values.clone())
            .unwrap_or_default();
        for n in names {
            let keys = bson::doc! { format!("{field}.{n}"): 1 };
            if !all.iter().any(|i| i.collection == coll && i.keys == keys) {
                all.push(Index {
                    collection: coll.clone(),
                    keys,
                    multikey: false,
                    partial: None,
                    collation: None,
                    reason: format!("{field} keyed by {key}: one index per key"),
                });
            }
        }
    }
}

/// Returns true when a filter (or one of its `$or`/`$and` clauses) names a path under `prefix`.
fn mentions(filter: &Document, prefix: &str) -> bool {
    filter.iter().any(|(k, v)| {
        k.starts_with(prefix)
            || (k.starts_with('$')
                && v.as_array().is_some_and(|a| {
                    a.iter()
                        .any(|c| c.as_document().is_some_and(|d| mentions(d, prefix)))
                }))
    })
}

#[cfg(test)]
mod tests {
    use super::key_for;
    use bson::doc;

    /// Equality fields, then the sort, then the ranges (ESR): the index of a thread's page 50
    /// by date range is the index of its page 1.
    #[test]
    fn keys_follow_equality_sort_range() {
        let sort = doc! { "date": 1 };
        let page_1 = doc! { "threadId": 7, "type": "image" };
        let page_50 = doc! { "threadId": 7, "date": { "$gt": 3 }, "type": "image" };
        let want = doc! { "threadId": 1, "type": 1, "date": 1 };
        for filter in [page_1, page_50] {
            let keys = key_for(&filter, Some(&sort)).unwrap_or_default();
            assert!(keys.iter().eq(want.iter()), "{keys}");
        }
        // A range alone, no sort: its field; a lone `_id` or a room check: no index.
        let keys = key_for(&doc! { "n": { "$gte": 2 } }, None).unwrap_or_default();
        assert!(keys.iter().eq(doc! { "n": 1 }.iter()), "{keys}");
        assert_eq!(
            key_for(&doc! { "_id": 1, "count": { "$lt": 5 } }, None),
            None
        );
    }
}
