//! The logical state of a sample, decoded strategy by strategy from its documents: the
//! children of a parent (an embedded array's elements, the ids a parent or a continuation
//! chain keeps, the links of a link collection, a bucket's elements, a parent reference), the
//! parents of a child, where a document is still stored or listed, a map's entries as the
//! children they stand for.
//!
//! One module because every check of [`super`] asks the same question of it, whatever the
//! step: what does the data hold, read without the design's plan.

use bson::{doc, Bson, Document};

use crate::design::names::{child_ref, relationship_collection_name, CONTINUATION_FIELD};
use crate::design::{Layout, Strategy};
use crate::engine::{compare::compare, Database, FindCommand};
use crate::model::{ChildRead, Model, Relationship};

/// Returns every document of collection `coll` in the sample (none where it has none).
pub(super) fn documents(db: &Database, coll: &str) -> Vec<Document> {
    db.find(coll, &FindCommand::default())
        .map(|x| x.documents.into_iter().map(|d| d.into_document()).collect())
        .unwrap_or_default()
}

/// Returns the key field of the children that relationship `r` keeps as a map in `layout`
/// (the `map` pattern): the child's field the map's values lack, which names the entries.
pub(super) fn map_key(model: &Model, layout: &Layout, r: &Relationship) -> Option<String> {
    if !crate::design::shape::holds_map(&layout.collections, r) {
        return None;
    }
    let value = layout
        .collections
        .iter()
        .flat_map(|c| &c.shapes)
        .filter(|s| s.entity.as_deref() == Some(r.parent.as_str()))
        .find_map(|s| s.fields.get(r.array_field()))?;
    model
        .entity(&r.child)?
        .fields
        .iter()
        .map(|(n, _)| n)
        .find(|n| value.fields.get(n.as_str()).is_none())
        .cloned()
}

/// Returns the key fields of every map of `layout` ([`map_key`]).
pub(super) fn map_keys(model: &Model, layout: &Layout) -> Vec<String> {
    model
        .relationships
        .iter()
        .filter_map(|r| map_key(model, layout, r))
        .collect()
}

/// Returns the entries of map `field` of `d` as the children they stand for: each value with
/// its key in the field `key`, first.
pub(super) fn map_entries(d: &Document, field: &str, key: &str) -> Vec<Bson> {
    match d.get(field) {
        Some(Bson::Document(m)) => m
            .iter()
            .filter_map(|(k, v)| match v {
                Bson::Document(v) => {
                    let mut e = doc! { key: k.clone() };
                    e.extend(v.clone());
                    Some(Bson::Document(e))
                }
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Returns where the sample still stores a document or sub-document that `is_it`: the
/// entity's own document, an embedded or bucketed element, a subset's or an extended
/// reference's copy.
pub(super) fn stored_as(
    db: &Database,
    layout: &Layout,
    is_it: &dyn Fn(&Document) -> bool,
) -> Vec<String> {
    fn walk(
        v: &Bson,
        path: &str,
        is_it: &dyn Fn(&Document) -> bool,
        coll: &str,
        out: &mut Vec<String>,
    ) {
        match v {
            Bson::Document(d) => {
                if is_it(d) {
                    out.push(if path.is_empty() {
                        format!("{coll}: its document")
                    } else {
                        format!("{coll}:{path}")
                    });
                }
                for (k, x) in d {
                    let p = if path.is_empty() {
                        k.clone()
                    } else {
                        format!("{path}.{k}")
                    };
                    walk(x, &p, is_it, coll, out);
                }
            }
            Bson::Array(a) => a.iter().for_each(|x| walk(x, path, is_it, coll, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for c in &layout.collections {
        let Ok(all) = db.find(&c.name, &FindCommand::default()) else {
            continue;
        };
        for d in all.documents {
            walk(
                &Bson::Document(d.into_document()),
                "",
                is_it,
                &c.name,
                &mut out,
            );
        }
    }
    out
}

/// Returns how many of the documents that list the children of `r` (the parents' arrays, their
/// continuation documents, buckets, links) list `id`, with their collection: `Some(("", 0))`
/// where the child alone knows its parent, `None` where the strategy's documents are not
/// decoded.
pub(super) fn listings(
    db: &Database,
    layout: &Layout,
    r: &Relationship,
    id: &Bson,
) -> Option<(String, usize)> {
    let s = layout.strategy(&r.name)?;
    let arr = r.array_field();
    let lists = |d: &Document| match d.get(arr) {
        Some(Bson::Array(a)) => a.iter().any(|e| match e {
            Bson::Document(x) => x.get("_id") == Some(id),
            e => e == id,
        }),
        _ => false,
    };
    // The collection listing the children, and for links the field naming the child.
    let (coll, link) = match s {
        Strategy::Embed
        | Strategy::EmbedSubset { .. }
        | Strategy::ExtendedReference { .. }
        | Strategy::ReferenceInParent
        | Strategy::TwoWay
        | Strategy::Continuation { .. } => (layout.collection_name(&r.parent), None),
        Strategy::Bucket { .. } => (relationship_collection_name(r, s), None),
        Strategy::LinkCollection => (r.name.clone(), Some(child_ref(r))),
        Strategy::ReferenceInChild { .. } | Strategy::SingleCollection => {
            return Some((String::new(), 0))
        }
        _ => return None,
    };
    let n = db
        .find(&coll, &FindCommand::default())
        .map(|x| {
            x.documents
                .into_iter()
                .map(|d| d.into_document())
                .filter(|d| match &link {
                    Some(key) => d.get(key) == Some(id),
                    None => lists(d),
                })
                .count()
        })
        .unwrap_or(0);
    Some((coll, n))
}

/// Returns where the documents that list the children of `r` still list `id` (see
/// [`listings`]), or `None` where the strategy's documents are not decoded.
pub(super) fn listed_by(
    db: &Database,
    layout: &Layout,
    r: &Relationship,
    id: &Bson,
) -> Option<Vec<String>> {
    let (coll, n) = listings(db, layout, r, id)?;
    Some(if n == 0 {
        Vec::new()
    } else {
        vec![format!("{coll}: listed by {n} documents ({})", r.name)]
    })
}

/// Returns the parents in the sample that have a child of `r` whose `by` is `value`: the
/// logical answer of a `find_parents` step, decoded parent by parent ([`children_of`]; the
/// copies of `by` where the design keeps them).
/// `None` when the parent has no collection of its own.
pub(super) fn parents_with(
    db: &Database,
    model: &Model,
    layout: &Layout,
    r: &Relationship,
    by: &str,
    value: &Bson,
) -> Option<Vec<Document>> {
    // A question of the `by` field alone: where the design keeps copies of it for this
    // (extended references copying it), the copies answer, as the plan reads them.
    let asked = ChildRead {
        relationship: r.name.clone(),
        limit: None,
        sort: None,
        fields: vec![by.to_string()],
    };
    let mut out = Vec::new();
    for p in sample_parents(db, layout, r)? {
        let Some(id) = p.get("_id") else {
            continue;
        };
        let kids = children_with_fields(db, model, layout, r, id, Some(&asked), Some(&[by]))?;
        if kids.docs.iter().any(|c| c.get(by) == Some(value)) {
            out.push(p);
        }
    }
    Some(out)
}

/// Returns the parents of `r` in the sample: the documents of the parent's collection that
/// are parents (not continuation documents, which share it and are each listed in a parent's
/// `tbc`; not documents of another type in a single collection). `None` when the parent has no
/// collection of its own.
pub(super) fn sample_parents(
    db: &Database,
    layout: &Layout,
    r: &Relationship,
) -> Option<Vec<Document>> {
    let coll = layout.collection_of(&r.parent)?;
    let docs: Vec<Document> = db
        .find(&coll.name, &FindCommand::default())
        .ok()?
        .documents
        .into_iter()
        .map(|d| d.into_document())
        .collect();
    let continuations: Vec<Bson> = docs
        .iter()
        .filter_map(|d| match d.get(CONTINUATION_FIELD) {
            Some(Bson::Array(a)) => Some(a.clone()),
            _ => None,
        })
        .flatten()
        .collect();
    Some(
        docs.into_iter()
            .filter(|p| {
                let other_type = matches!(
                    p.get(crate::design::names::TYPE_FIELD),
                    Some(Bson::String(t)) if *t != r.parent
                );
                !other_type && p.get("_id").is_some_and(|id| !continuations.contains(id))
            })
            .collect(),
    )
}

/// Returns how many parents in the sample list the child `cid` among their children under
/// `r` (decoded as [`children_of`] decodes them), or `None` where they are not decoded.
pub(super) fn parents_holding(
    db: &Database,
    model: &Model,
    layout: &Layout,
    r: &Relationship,
    cid: &Bson,
) -> Option<usize> {
    let mut n = 0;
    for p in sample_parents(db, layout, r)? {
        let Some(id) = p.get("_id") else {
            continue;
        };
        let kids = children_with_fields(db, model, layout, r, id, None, Some(&["_id"]))?;
        if kids.docs.iter().any(|c| c.get("_id") == Some(cid)) {
            n += 1;
        }
    }
    Some(n)
}

/// The children of one parent as a design keeps them.
pub(super) struct Children {
    /// The children (or the copies a read of them may rely on), in storage order.
    pub(super) docs: Vec<Document>,
    /// True when storage order is insertion order and a sorted read relies on it (a bucket's
    /// children: the bucket pattern's premise is that children arrive in the order they are
    /// read in, the newest last).
    pub(super) insertion_ordered: bool,
}

/// Returns the children of parent `pid` under `r`, decoded from the design's documents, or
/// `None` when the strategy's documents are not decoded (a time series).
///
/// With `read`, the children that read may rely on where the design keeps copies for it: an
/// embedded subset holds its first `k` in the kept order (a read of at most `k` reads them),
/// extended references hold the copied fields (a read of only those, in an order the copies
/// keep, reads them). Elsewhere the children themselves.
pub(super) fn children_of(
    db: &Database,
    model: &Model,
    layout: &Layout,
    r: &Relationship,
    pid: &Bson,
    read: Option<&ChildRead>,
) -> Option<Children> {
    children_with_fields(db, model, layout, r, pid, read, None)
}

/// Returns the children of parent `pid` under `r` as [`children_of`] does, those read from
/// the child's collection holding only the top-level fields `keep` (all of them with `None`).
/// A caller that compares one field of every parent's children (who holds a child, who has
/// a child with a value) reads that field from the stored bytes instead of decoding every
/// child whole, once per parent: a child that is a parent itself (a user following users)
/// may hold thousands of ids.
pub(super) fn children_with_fields(
    db: &Database,
    model: &Model,
    layout: &Layout,
    r: &Relationship,
    pid: &Bson,
    read: Option<&ChildRead>,
    keep: Option<&[&str]>,
) -> Option<Children> {
    // The documents of `coll` that `filter` matches: whole, or holding only the top-level
    // fields `keep`, read from the stored bytes.
    let find_keeping = |coll: &str, filter: Document, keep: Option<&[&str]>| -> Vec<Document> {
        let Ok(found) = db.find(
            coll,
            &FindCommand {
                filter,
                ..Default::default()
            },
        ) else {
            return Vec::new();
        };
        match keep {
            None => found
                .documents
                .into_iter()
                .map(|d| d.into_document())
                .collect(),
            Some(keep) => found
                .documents
                .iter()
                .map(|d| {
                    keep.iter()
                        .filter_map(|k| d.field(k).map(|v| ((*k).to_string(), v)))
                        .collect()
                })
                .collect(),
        }
    };
    let find = |coll: &str, filter: Document| find_keeping(coll, filter, None);
    let pcoll = layout.collection_name(&r.parent);
    let ccoll = layout.collection_name(&r.child);
    let arr = r.array_field();
    let s = layout.strategy(&r.name)?;
    // The children's field a parent's array of references holds (`_id` or `child_key`).
    let ckey = crate::design::names::child_key(r, s);
    // The parent's value its children's references hold: its `_id`, or its `parent_key`.
    let pkey = crate::design::names::parent_key(r, s);
    // The parent, holding only the fields read of it here (its children's array, the key
    // its children reference, its continuation documents' ids).
    let parent = || -> Option<Document> {
        let read = [arr, pkey, CONTINUATION_FIELD];
        find_keeping(&pcoll, doc! { "_id": pid.clone() }, Some(&read))
            .into_iter()
            .next()
    };
    // The documents of the child's collection `filter` matches, with the fields `keep`.
    let find_children = |filter: Document| find_keeping(&ccoll, filter, keep);
    let elements = |d: &Document, field: &str| -> Vec<Bson> {
        match d.get(field) {
            Some(Bson::Array(a)) => a.clone(),
            _ => Vec::new(),
        }
    };
    // The parent's array `field` itself, the parent being read for it alone (no copy of an
    // array of thousands of embedded children).
    let taken = |mut d: Document, field: &str| -> Vec<Bson> {
        match d.remove(field) {
            Some(Bson::Array(a)) => a,
            _ => Vec::new(),
        }
    };
    let by_ids = |ids: Vec<Bson>| -> Vec<Document> {
        let ids: Vec<Bson> = ids
            .into_iter()
            .map(|v| match v {
                Bson::Document(d) => d.get("_id").cloned().unwrap_or(Bson::Null),
                v => v,
            })
            .collect();
        find_children(doc! { ckey: { "$in": ids } })
    };
    let pref_value = || -> Bson {
        if pkey == "_id" {
            pid.clone()
        } else {
            parent()
                .and_then(|p| p.get(pkey).cloned())
                .unwrap_or(Bson::Null)
        }
    };
    let docs = |v: Vec<Bson>| -> Vec<Document> {
        v.into_iter()
            .filter_map(|x| match x {
                Bson::Document(d) => Some(d),
                _ => None,
            })
            .collect()
    };
    let plain = |docs| Children {
        docs,
        insertion_ordered: false,
    };
    // The copies a read relies on, when the design keeps them for it.
    if let Some(c) = read {
        let order = crate::design::plan::array_order(model, &r.name, s);
        let in_order = c.sort.is_none()
            || c.sort
                .as_ref()
                .is_some_and(|w| order.as_ref().is_some_and(|k| k.field == w.field));
        match s {
            Strategy::EmbedSubset { k } if in_order && c.limit.is_some_and(|l| l <= *k) => {
                return Some(plain(
                    parent().map(|p| docs(taken(p, arr))).unwrap_or_default(),
                ));
            }
            Strategy::ExtendedReference { copy }
                if !c.fields.is_empty()
                    && c.fields.iter().all(|f| f == "_id" || copy.contains(f))
                    && c.sort
                        .as_ref()
                        .is_none_or(|w| w.field == "_id" || copy.contains(&w.field)) =>
            {
                return Some(plain(
                    parent().map(|p| docs(taken(p, arr))).unwrap_or_default(),
                ));
            }
            _ => {}
        }
    }
    Some(plain(match s {
        Strategy::Bucket { .. } => {
            let mut buckets = find(
                &relationship_collection_name(r, s),
                doc! { r.parent_ref(): pid.clone() },
            );
            buckets.sort_by(|a, b| {
                compare(
                    a.get("sequence").unwrap_or(&Bson::Null),
                    b.get("sequence").unwrap_or(&Bson::Null),
                )
            });
            let held: Vec<Bson> = buckets.iter().flat_map(|b| elements(b, arr)).collect();
            return Some(Children {
                docs: if r.many_to_many {
                    by_ids(held)
                } else {
                    docs(held)
                },
                insertion_ordered: crate::design::plan::bucket_order_serves(
                    model,
                    r,
                    read.and_then(|c| c.sort.as_ref()),
                ),
            });
        }
        Strategy::Embed => parent()
            .map(|p| match map_key(model, layout, r) {
                Some(k) => docs(map_entries(&p, arr, &k)),
                None => docs(taken(p, arr)),
            })
            .unwrap_or_default(),
        Strategy::ExtendedReference { .. } | Strategy::ReferenceInParent | Strategy::TwoWay => {
            parent().map(|p| by_ids(taken(p, arr))).unwrap_or_default()
        }
        Strategy::Continuation { .. } => {
            let Some(p) = parent() else {
                return Some(plain(Vec::new()));
            };
            let mut ids = elements(&p, arr);
            for more in find(
                &pcoll,
                doc! { "_id": { "$in": elements(&p, CONTINUATION_FIELD) } },
            ) {
                ids.extend(elements(&more, arr));
            }
            by_ids(ids)
        }
        Strategy::EmbedSubset { .. } | Strategy::ReferenceInChild { .. } => {
            find_children(doc! { r.parent_ref(): pref_value() })
        }
        Strategy::SingleCollection => find_children(doc! {
            r.parent_ref(): pid.clone(),
            crate::design::names::TYPE_FIELD: r.child.clone(),
        }),
        Strategy::TimeSeries { .. } => {
            // The measurements of the parent's buckets, as the time-series view unpacks them.
            let buckets = find(
                &crate::design::names::buckets_collection_name(r),
                doc! { crate::design::names::META: pid.clone() },
            );
            buckets
                .iter()
                .filter_map(|b| crate::design::place::unpack_bucket(b, Some(&r.parent_ref())))
                .flatten()
                .collect()
        }
        Strategy::LinkCollection => {
            let links = find(&r.name, doc! { r.parent_ref(): pid.clone() });
            by_ids(
                links
                    .iter()
                    .filter_map(|l| l.get(child_ref(r)).cloned())
                    .collect(),
            )
        }
        _ => return None,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{fitted_sample, materialize, EvalOptions};
    use crate::generate::generate;

    /// The children read with only some fields kept are the children [`children_of`]
    /// decodes whole, in the same order: for every parent of every relationship of every
    /// design compared (a parent with no children among them), and for a parent the sample
    /// lacks; a field no child holds is left out, not made up.
    #[test]
    fn children_with_fields_are_the_children_of_a_parent_with_the_kept_fields() {
        for preset in ["social-graph", "blog"] {
            let m = crate::presets::find(preset).unwrap().model().unwrap();
            for o in crate::eval::offer::compared(&m) {
                let offered = crate::eval::offered_layout(&m, &o.id).unwrap();
                let opts = EvalOptions {
                    max_documents: Some(30),
                    ..EvalOptions::default()
                };
                let model = fitted_sample(&offered.model, &offered.layout, &opts).unwrap();
                let data = generate(&model, &offered.layout);
                let db = materialize(&offered.layout, &data).unwrap();
                let layout = &offered.layout;
                for r in &model.relationships {
                    let Some(parents) = sample_parents(&db, layout, r) else {
                        continue;
                    };
                    let mut pids: Vec<Bson> = parents
                        .iter()
                        .filter_map(|p| p.get("_id").cloned())
                        .collect();
                    pids.push(Bson::String("no such parent".to_string()));
                    for pid in &pids {
                        let all = children_of(&db, &model, layout, r, pid, None);
                        let kept = children_with_fields(
                            &db,
                            &model,
                            layout,
                            r,
                            pid,
                            None,
                            Some(&["_id", "no such field"]),
                        );
                        let (all, kept) = match (all, kept) {
                            (Some(all), Some(kept)) => (all, kept),
                            (None, None) => continue,
                            _ => panic!("{preset} {}: {}: decoded one way only", o.id, r.name),
                        };
                        let ids = |c: &Children| -> Vec<Option<Bson>> {
                            c.docs.iter().map(|d| d.get("_id").cloned()).collect()
                        };
                        assert_eq!(ids(&kept), ids(&all), "{preset} {}: {}", o.id, r.name);
                        assert_eq!(kept.insertion_ordered, all.insertion_ordered);
                        assert!(kept.docs.iter().all(|d| !d.contains_key("no such field")));
                    }
                }
            }
        }
    }
}
