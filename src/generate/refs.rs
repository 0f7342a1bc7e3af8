//! Where a generated document's references point: the entity and generated count behind each
//! reference field, the children a parent's array lists, references by key and inside
//! sub-documents ([`Refs`]), and how children are dealt to their parents by the cardinality
//! distribution.

use crate::design::names::CONTINUATION_FIELD;
use crate::design::{DocShape, Layout, Strategy};
use crate::model::field::Field;
use crate::model::Model;

use super::shape::Counts;
use super::spread::Spread;

/// Where the ObjectIds of top-level fields and array elements point.
#[derive(Debug, Clone, Default)]
pub(super) struct Refs {
    /// Field name → (entity, generated count of that entity, cumulative weights of the
    /// generated parents when children follow the cardinality distribution).
    pub(super) fields: Vec<(String, String, u64, Vec<f64>)>,
    /// A parent's array of its one-to-many children → (cumulative weights of the generated
    /// parents, generated children): the generated children it lists (see [`owned_range`]).
    pub(super) owned: Vec<(String, Vec<f64>, u64)>,
    /// Reference fields that name their entity through a key other than `_id` → the key's
    /// name and field: their values are [`key_value`]s, not ObjectIds.
    pub(super) keys: Vec<(String, String, Field)>,
    /// Fields whose document `j` names generated entity `j` (modulo their count): a link names
    /// the next child. A one-to-many child has one parent and so one link, and the links dealt
    /// to one parent are consecutive, so its children are distinct (drawn at random, a child
    /// would be linked twice to the same parent and another never).
    pub(super) sequential: Vec<String>,
    /// References inside sub-documents, by dotted path → (entity, generated count of it): a
    /// bucketed feed item's `activities.author`, a user of the sample.
    pub(super) nested: Vec<(String, String, u64)>,
}

/// Returns the generated children `[start, end)` that parent `j` owns in a one-to-many
/// relationship: children are dealt to parents in index order, in proportion to the parents'
/// cumulative weights, so that a child's parent reference ([`owner_of`]) and its parent's
/// array of children agree (a task is in its owner's `tasks` and in nobody else's).
pub(super) fn owned_range(weights: &[f64], children: u64, j: u64) -> (u64, u64) {
    let Some(&total) = weights.last().filter(|t| **t > 0.0) else {
        return (0, 0);
    };
    let at = |w: f64| dealt_upto(w, total, children);
    let before = match j.checked_sub(1) {
        Some(p) => weights.get(p as usize).copied().unwrap_or(total),
        None => 0.0,
    };
    let upto = weights.get(j as usize).copied().unwrap_or(total);
    (at(before).min(children), at(upto).min(children))
}

/// Returns the parent of generated child `i` of `children`: the inverse of [`owned_range`] (the
/// first parent whose range ends past `i`; a binary search, as the ranges are in order).
pub(super) fn owner_of(weights: &[f64], children: u64, i: u64) -> u64 {
    let Some(&total) = weights.last().filter(|t| **t > 0.0) else {
        return 0;
    };
    let at = |w: f64| dealt_upto(w, total, children);
    (weights.partition_point(|&w| at(w) <= i) as u64).min(weights.len().saturating_sub(1) as u64)
}

/// Returns how many of `children` go to the parents whose cumulative weight is `w` of
/// `total`: `w` itself when the children are the weights' whole total (a stratified export's,
/// each parent its own count; `w ÷ total × children` could fall a hair short of `w` and move a
/// child to the next parent), else `w`'s share, rounded down.
pub(super) fn dealt_upto(w: f64, total: f64, children: u64) -> u64 {
    if children as f64 == total && w.fract() == 0.0 {
        w as u64
    } else {
        ((w / total) * children as f64).floor() as u64
    }
}

impl Refs {
    /// Returns the key (name and field) reference field `field` names its entity by, when it
    /// is not `_id`.
    pub(super) fn key(&self, field: &str) -> Option<(&str, &Field)> {
        self.keys
            .iter()
            .find(|(f, ..)| f == field)
            .map(|(_, k, f)| (k.as_str(), f))
    }

    pub(super) fn get(&self, field: &str) -> Option<(&str, u64, &[f64])> {
        self.fields
            .iter()
            .find(|(f, ..)| f == field)
            .map(|(_, e, n, w)| (e.as_str(), *n, w.as_slice()))
    }
}

/// Returns the cumulative child counts of the `n` generated parents of `r` (parent `j` sits
/// at its document quantile under `spread`), so that a child picks its parent in proportion to
/// the parent's cardinality: the busiest host gets the most log messages in the sample too.
pub(super) fn parent_weights(
    model: &Model,
    r: &crate::model::Relationship,
    n: u64,
    spread: Spread,
) -> Vec<f64> {
    let mut acc = 0.0;
    children_per_parent(model, r, n, spread)
        .map(|c| {
            acc += c;
            acc
        })
        .collect()
}

/// Returns the children of each of the `n` generated parents of `r`, in parent order: the
/// cardinality at the parent's document quantile; stratified, a whole number (the quantile's,
/// rounded, so the median parent of a cardinality whose median is 20 has 20).
pub(crate) fn children_per_parent<'a>(
    model: &'a Model,
    r: &'a crate::model::Relationship,
    n: u64,
    spread: Spread,
) -> impl Iterator<Item = f64> + 'a {
    let key = format!("{}/{}", r.parent, r.parent);
    (0..n).map(move |j| {
        let c = r
            .cardinality
            .quantile(spread.quantile(model.seed, &key, j, n))
            .max(0.0);
        if spread == Spread::Stratified {
            c.round()
        } else {
            c
        }
    })
}

/// Works out which top-level fields of a shape hold references to which entity.
pub(super) fn refs_for(
    model: &Model,
    layout: &Layout,
    shape: &DocShape,
    sample_of: &dyn Fn(&str) -> u64,
    count: &dyn Counts,
    spread: Spread,
) -> Refs {
    let mut refs = Refs::default();
    let plain =
        |field: String, entity: &str| (field, entity.to_string(), sample_of(entity), Vec::new());
    let key_of = |entity: &str, key: &str| -> Option<(String, Field)> {
        let f = model.entity(entity)?.fields.get(key)?;
        (key != "_id").then(|| (key.to_string(), f.clone()))
    };
    for g in &shape.growing {
        if let Some(r) = model.relationship(&g.relationship) {
            refs.fields.push(plain(g.field.clone(), &r.child));
            if let Some((k, f)) = layout
                .strategy(&r.name)
                .and_then(|s| key_of(&r.child, crate::design::names::child_key(r, s)))
            {
                refs.keys.push((g.field.clone(), k, f));
            }
            if !r.many_to_many && r.feed.is_none() && layout.collection_of(&r.child).is_some() {
                let parents = sample_of(&r.parent);
                refs.owned.push((
                    g.field.clone(),
                    parent_weights(model, r, parents, spread),
                    sample_of(&r.child),
                ));
            }
            if matches!(
                layout.strategy(&r.name),
                Some(Strategy::Continuation { .. })
            ) && shape.fields.get(CONTINUATION_FIELD).is_some()
            {
                // Continuation documents are keyed by collection and shape label.
                let label = format!("{} continuation", r.name);
                let coll = layout.collection_of(&r.parent);
                let n = coll
                    .and_then(|c| c.shape(&label))
                    .map_or(0, |c| count.of(c.count));
                let key = format!(
                    "{}/{label}",
                    coll.map_or(r.parent.as_str(), |c| c.name.as_str())
                );
                refs.fields
                    .push((CONTINUATION_FIELD.to_string(), key, n, Vec::new()));
            }
        }
    }
    for r in &model.relationships {
        // A time-series bucket's `meta` is its parent's id.
        let pref = if shape.label == crate::design::names::BUCKET_LABEL
            && shape.entity.as_deref() == Some(r.child.as_str())
        {
            crate::design::names::META.to_string()
        } else {
            r.parent_ref()
        };
        if shape.fields.get(&pref).is_some() && refs.get(&pref).is_none() {
            let n = sample_of(&r.parent);
            // A link of a many-to-many relationship is dealt to its parent as a one-to-many
            // child is when the documents are stratified (links per product follow the
            // cardinality); drawn, it names a parent at random.
            let dealt = !r.many_to_many || (spread == Spread::Stratified && shape.label == "link");
            let weights = if dealt {
                parent_weights(model, r, n, spread)
            } else {
                Vec::new()
            };
            if let Some((k, f)) = layout
                .strategy(&r.name)
                .and_then(|s| key_of(&r.parent, crate::design::names::parent_key(r, s)))
            {
                refs.keys.push((pref.clone(), k, f));
            }
            refs.fields.push((pref, r.parent.clone(), n, weights));
        }
        let cref = crate::design::names::child_ref(r);
        if shape.label == "link" && shape.fields.get(&cref).is_some() {
            refs.sequential.push(cref.clone());
            refs.fields.push(plain(cref, &r.child));
        }
        if r.feed.is_some() {
            for f in ["author", "owner"] {
                if shape.fields.get(f).is_some() {
                    refs.fields.push(plain(f.to_string(), &r.parent));
                }
            }
            // The items a bucket holds name their author too.
            for (name, f) in shape.fields.iter() {
                if f.fields.get("author").is_some() {
                    let n = sample_of(&r.parent);
                    refs.nested
                        .push((format!("{name}.author"), r.parent.clone(), n));
                }
            }
        }
    }
    for (field, key, n) in
        crate::design::gridfs::sample_refs(&layout.collections, shape, &|c, s| count.shape(c, s))
    {
        if refs.get(&field).is_none() {
            refs.fields.push((field, key, n, Vec::new()));
        }
    }
    refs
}
