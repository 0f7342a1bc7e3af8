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
pub fn documents(db: &Database, coll: &str) -> Vec<Document> {
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
    let s = layout.strategy(&r.name)?;
    let p = OneParent {
        db,
        r,
        s,
        pid,
        pcoll: layout.collection_name(&r.parent),
        ccoll: layout.collection_name(&r.child),
        arr: r.array_field(),
        ckey: crate::design::names::child_key(r, s),
        pkey: crate::design::names::parent_key(r, s),
        keep,
    };
    if let Some(copies) = read.and_then(|c| p.copies_read(model, c)) {
        return Some(plain(copies));
    }
    Some(plain(match s {
        Strategy::Bucket { .. } => {
            return Some(Children {
                docs: p.bucketed(),
                insertion_ordered: crate::design::plan::bucket_order_serves(
                    model,
                    r,
                    read.and_then(|c| c.sort.as_ref()),
                ),
            });
        }
        Strategy::Embed => p
            .parent()
            .map(|d| match map_key(model, layout, r) {
                Some(k) => embedded(map_entries(&d, p.arr, &k)),
                None => embedded(taken(d, p.arr)),
            })
            .unwrap_or_default(),
        Strategy::ExtendedReference { .. } | Strategy::ReferenceInParent | Strategy::TwoWay => p
            .parent()
            .map(|d| p.by_ids(taken(d, p.arr)))
            .unwrap_or_default(),
        Strategy::Continuation { .. } => p.continued(),
        Strategy::EmbedSubset { .. } | Strategy::ReferenceInChild { .. } => {
            p.find_children(doc! { r.parent_ref(): p.parent_value() })
        }
        Strategy::SingleCollection => p.find_children(doc! {
            r.parent_ref(): pid.clone(),
            crate::design::names::TYPE_FIELD: r.child.clone(),
        }),
        Strategy::TimeSeries { .. } => p.measurements(),
        Strategy::LinkCollection => p.linked(),
        _ => return None,
    }))
}

/// Returns `docs` as children in storage order that no sorted read relies on.
fn plain(docs: Vec<Document>) -> Children {
    Children {
        docs,
        insertion_ordered: false,
    }
}

/// Returns the elements of array `field` of `d` (none when it is not an array).
fn elements(d: &Document, field: &str) -> Vec<Bson> {
    match d.get(field) {
        Some(Bson::Array(a)) => a.clone(),
        _ => Vec::new(),
    }
}

/// Returns the parent's array `field` itself, the parent being read for it alone (no copy
/// of an array of thousands of embedded children).
fn taken(mut d: Document, field: &str) -> Vec<Bson> {
    match d.remove(field) {
        Some(Bson::Array(a)) => a,
        _ => Vec::new(),
    }
}

/// Returns the embedded documents of `v` (its other values left out).
fn embedded(v: Vec<Bson>) -> Vec<Document> {
    v.into_iter()
        .filter_map(|x| match x {
            Bson::Document(d) => Some(d),
            _ => None,
        })
        .collect()
}

/// One parent's side of relationship `r` under strategy `s`: where its children are kept
/// and how each strategy's documents are read back into them.
struct OneParent<'a> {
    db: &'a Database,
    r: &'a Relationship,
    s: &'a Strategy,
    /// The parent's `_id`.
    pid: &'a Bson,
    /// The parent's collection.
    pcoll: String,
    /// The child's collection.
    ccoll: String,
    /// The parent's array of children or references.
    arr: &'a str,
    /// The children's field a parent's array of references holds (`_id` or `child_key`).
    ckey: &'a str,
    /// The parent's value its children's references hold: its `_id`, or its `parent_key`.
    pkey: &'a str,
    /// The top-level fields of the children read from the child's collection (all: `None`).
    keep: Option<&'a [&'a str]>,
}

impl OneParent<'_> {
    /// Returns the documents of `coll` that `filter` matches: whole, or holding only the
    /// top-level fields `keep`, read from the stored bytes.
    fn find_keeping(&self, coll: &str, filter: Document, keep: Option<&[&str]>) -> Vec<Document> {
        let Ok(found) = self.db.find(
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
    }

    /// Returns the documents of `coll` that `filter` matches, whole.
    fn find(&self, coll: &str, filter: Document) -> Vec<Document> {
        self.find_keeping(coll, filter, None)
    }

    /// Returns the parent, holding only the fields read of it here (its children's array,
    /// the key its children reference, its continuation documents' ids).
    fn parent(&self) -> Option<Document> {
        let read = [self.arr, self.pkey, CONTINUATION_FIELD];
        self.find_keeping(&self.pcoll, doc! { "_id": self.pid.clone() }, Some(&read))
            .into_iter()
            .next()
    }

    /// Returns the documents of the child's collection `filter` matches, with the fields kept.
    fn find_children(&self, filter: Document) -> Vec<Document> {
        self.find_keeping(&self.ccoll, filter, self.keep)
    }

    /// Returns the children whose key is among `ids` (each a reference, or an embedded
    /// document standing for its `_id`).
    fn by_ids(&self, ids: Vec<Bson>) -> Vec<Document> {
        let ids: Vec<Bson> = ids
            .into_iter()
            .map(|v| match v {
                Bson::Document(d) => d.get("_id").cloned().unwrap_or(Bson::Null),
                v => v,
            })
            .collect();
        self.find_children(doc! { self.ckey: { "$in": ids } })
    }

    /// Returns the parent's value its children's references hold.
    fn parent_value(&self) -> Bson {
        if self.pkey == "_id" {
            self.pid.clone()
        } else {
            self.parent()
                .and_then(|p| p.get(self.pkey).cloned())
                .unwrap_or(Bson::Null)
        }
    }

    /// Returns the copies read `c` may rely on, when the design keeps them for it: an
    /// embedded subset's first `k` in the kept order, or extended references holding every
    /// field the read reads (and sorts by).
    fn copies_read(&self, model: &Model, c: &ChildRead) -> Option<Vec<Document>> {
        let order = crate::design::plan::array_order(model, &self.r.name, self.s);
        let in_order = c.sort.is_none()
            || c.sort
                .as_ref()
                .is_some_and(|w| order.as_ref().is_some_and(|k| k.field == w.field));
        let copies = match self.s {
            Strategy::EmbedSubset { k } => in_order && c.limit.is_some_and(|l| l <= *k),
            Strategy::ExtendedReference { copy } => {
                !c.fields.is_empty()
                    && c.fields.iter().all(|f| f == "_id" || copy.contains(f))
                    && c.sort
                        .as_ref()
                        .is_none_or(|w| w.field == "_id" || copy.contains(&w.field))
            }
            _ => false,
        };
        copies.then(|| {
            self.parent()
                .map(|p| embedded(taken(p, self.arr)))
                .unwrap_or_default()
        })
    }

    /// Returns the children the parent's buckets hold, the buckets in sequence order.
    fn bucketed(&self) -> Vec<Document> {
        let mut buckets = self.find(
            &relationship_collection_name(self.r, self.s),
            doc! { self.r.parent_ref(): self.pid.clone() },
        );
        buckets.sort_by(|a, b| {
            compare(
                a.get("sequence").unwrap_or(&Bson::Null),
                b.get("sequence").unwrap_or(&Bson::Null),
            )
        });
        let held: Vec<Bson> = buckets.iter().flat_map(|b| elements(b, self.arr)).collect();
        if self.r.many_to_many {
            self.by_ids(held)
        } else {
            embedded(held)
        }
    }

    /// Returns the children the parent's references name, its continuation documents' too.
    fn continued(&self) -> Vec<Document> {
        let Some(p) = self.parent() else {
            return Vec::new();
        };
        let mut ids = elements(&p, self.arr);
        for more in self.find(
            &self.pcoll,
            doc! { "_id": { "$in": elements(&p, CONTINUATION_FIELD) } },
        ) {
            ids.extend(elements(&more, self.arr));
        }
        self.by_ids(ids)
    }

    /// Returns the measurements of the parent's buckets, as the time-series view unpacks them.
    fn measurements(&self) -> Vec<Document> {
        let buckets = self.find(
            &crate::design::names::buckets_collection_name(self.r),
            doc! { crate::design::names::META: self.pid.clone() },
        );
        buckets
            .iter()
            .filter_map(|b| crate::design::place::unpack_bucket(b, Some(&self.r.parent_ref())))
            .flatten()
            .collect()
    }

    /// Returns the children the parent's links name.
    fn linked(&self) -> Vec<Document> {
        let links = self.find(&self.r.name, doc! { self.r.parent_ref(): self.pid.clone() });
        self.by_ids(
            links
                .iter()
                .filter_map(|l| l.get(child_ref(self.r)).cloned())
                .collect(),
        )
    }
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
