//! Where the sample holds one field of one entity (its document, its embedded copies, the
//! copies its children keep) and how an update changed it: what the checks of `update`
//! steps (a `$set`, an `$inc`) compare before and after the run.

use bson::{Bson, Document};

use super::decode::stored_as;
use crate::design::Layout;
use crate::engine::{Database, FindCommand};
use crate::eval::bind;
use crate::model::Model;

/// One place that holds a field of one entity: its own document, an embedded copy of it
/// (any sub-document with its `_id`), or a field a child copies from it.
pub(super) struct Held {
    /// Where: `collection:path`.
    pub(super) place: String,
    /// The value held there.
    pub(super) value: Bson,
}

/// Returns every place in the sample that holds `field` of the `entity` whose `_id` is
/// `id`: its own document, every sub-document with that `_id` in any collection (embedded,
/// subset and extended-reference copies; ids are drawn per entity, so an `_id` names one
/// entity), and the copies the layout keeps in its children (`authorName` beside `authorId`).
pub(super) fn values_of(
    db: &Database,
    model: &Model,
    layout: &Layout,
    entity: &str,
    id: &Bson,
    field: &str,
) -> Vec<Held> {
    fn walk(v: &Bson, path: &str, id: &Bson, field: &str, coll: &str, out: &mut Vec<Held>) {
        match v {
            Bson::Document(d) => {
                if d.get("_id") == Some(id) {
                    if let Some(x) = d.get(field) {
                        out.push(Held {
                            place: format!(
                                "{coll}:{}",
                                if path.is_empty() {
                                    field.to_string()
                                } else {
                                    format!("{path}.{field}")
                                }
                            ),
                            value: x.clone(),
                        });
                    }
                }
                for (k, x) in d {
                    let p = if path.is_empty() {
                        k.clone()
                    } else {
                        format!("{path}.{k}")
                    };
                    walk(x, &p, id, field, coll, out);
                }
            }
            Bson::Array(a) => a.iter().for_each(|x| walk(x, path, id, field, coll, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for c in &layout.collections {
        let Ok(all) = db.find(&c.name, &FindCommand::default()) else {
            continue;
        };
        let docs: Vec<Document> = all
            .documents
            .into_iter()
            .map(|d| d.into_document())
            .collect();
        for d in &docs {
            walk(&Bson::Document(d.clone()), "", id, field, &c.name, &mut out);
        }
        // Copies of a parent's field kept in its children: beside the parent reference.
        for cf in c
            .shapes
            .iter()
            .flat_map(|s| s.copied.iter())
            .filter(|cf| cf.entity == entity && cf.source == field)
        {
            let Some(r) = model.relationship(&cf.relationship) else {
                continue;
            };
            if r.parent != entity {
                continue;
            }
            let parent_ref = r.parent_ref();
            for d in docs.iter().filter(|d| d.get(&parent_ref) == Some(id)) {
                if let Some(x) = bind::get_path(d, &cf.path) {
                    out.push(Held {
                        place: format!("{}:{}", c.name, cf.path),
                        value: x,
                    });
                }
            }
        }
    }
    out
}

/// Returns the sum of the numbers `v` holds (itself, or every number in a slotted counter
/// object), as a double: what an increment changes.
pub(super) fn total(v: &Bson) -> f64 {
    match v {
        Bson::Int32(n) => f64::from(*n),
        Bson::Int64(n) => *n as f64,
        Bson::Double(n) => *n,
        Bson::Decimal128(d) => d.to_string().parse().unwrap_or(0.0),
        Bson::Document(d) => d.values().map(total).sum(),
        _ => 0.0,
    }
}

/// Pairs the places that hold a field after a step (`now`) with the same places before it
/// (`was`) and returns, per place, how much its value grew. The places are listed in the
/// order the documents are walked, which an increment does not change; a place the field
/// was missing from grew from 0 (`$inc` creates it).
pub(super) fn grown_by(was: &[Held], now: &[Held]) -> Vec<(String, f64)> {
    let mut used = vec![false; was.len()];
    now.iter()
        .map(|h| {
            let before = was
                .iter()
                .enumerate()
                .find(|(i, w)| w.place == h.place && !used.get(*i).copied().unwrap_or(true))
                .map(|(i, w)| {
                    if let Some(u) = used.get_mut(i) {
                        *u = true;
                    }
                    total(&w.value)
                })
                .unwrap_or(0.0);
            (h.place.clone(), total(&h.value) - before)
        })
        .collect()
}

/// How an update changes one field of an element.
pub(super) enum Change {
    /// `$set` to this value.
    Set(Bson),
    /// `$inc` by this much (the sum of a slotted counter's slots).
    Grow(f64),
}

/// Returns whether the sample stores element `was` (an embedded or bucketed element without
/// an `_id`, found by its old value) as `changes` leave it: every other field as it was, each
/// changed field set to its new value or grown by its increment.
pub(super) fn element_updated(
    db: &Database,
    layout: &Layout,
    was: &Document,
    changes: &[(String, Change)],
) -> bool {
    let is_it = |d: &Document| {
        let same_rest = was
            .iter()
            .filter(|(k, _)| !changes.iter().any(|(f, _)| f == *k))
            .all(|(k, v)| d.get(k) == Some(v));
        same_rest
            && changes.iter().all(|(f, c)| match c {
                Change::Set(v) => d.get(f) == Some(v),
                Change::Grow(by) => {
                    let old = was.get(f).map_or(0.0, total);
                    d.get(f).is_some_and(|now| total(now) - old == *by)
                }
            })
    };
    !stored_as(db, layout, &is_it).is_empty()
}
