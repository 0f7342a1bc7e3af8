//! What the plan returned against the logical answer: the children or the window of
//! documents it should have returned and did not, field for field, and whether a stored
//! document is the child a step inserted.

use bson::{Bson, Document};

use super::decode::Children;
use super::pool::Pool;
use crate::engine::compare::compare;
use crate::model::{ChildRead, Model, Relationship};

/// Returns what is wrong when the logical answer of child read `c` (the children of one
/// parent, `all`) is not among what the plan returned (`pool`), or `None` when it is.
pub(super) fn missing_child(
    model: &Model,
    r: &Relationship,
    c: &ChildRead,
    children: Children,
    pool: &Pool,
) -> Option<String> {
    let mut all = children.docs;
    if children.insertion_ordered {
        // The newest last: a read of the newest takes them from the end.
        if c.sort.as_ref().is_some_and(|s| s.order < 0) {
            all.reverse();
        }
        let n = c.limit.map_or(all.len(), |l| (l as usize).min(all.len()));
        let wanted = wanted_fields(model, r, c);
        return all
            .get(..n)
            .unwrap_or_default()
            .iter()
            .position(|e| !pool.holds(e, &wanted))
            .map(|i| {
                format!(
                    "{}: child #{} of the {n} asked for (in insertion order) is not among what the plan returns",
                    r.name,
                    i + 1
                )
            });
    }
    let key = |d: &Document| {
        c.sort.as_ref().map_or(Bson::Null, |s| {
            d.get(&s.field).cloned().unwrap_or(Bson::Null)
        })
    };
    if let Some(s) = &c.sort {
        all.sort_by(|a, b| {
            let o = compare(&key(a), &key(b));
            if s.order < 0 {
                o.reverse()
            } else {
                o
            }
        });
    }
    let wanted = wanted_fields(model, r, c);
    let n = c.limit.map_or(all.len(), |l| (l as usize).min(all.len()));
    if c.sort.is_none() {
        // Any N children answer an unsorted read: enough distinct children must be there.
        let found = all.iter().filter(|e| pool.holds(e, &wanted)).count();
        return (found < n).then(|| {
            format!(
                "{} asks for {n} of the {} {} children; {found} of them are among what the plan returns",
                r.name,
                all.len(),
                r.child
            )
        });
    }
    let asked = all.get(..n).unwrap_or_default();
    let edge = asked.last().map(key)?;
    // Ties at the cut: any of the children sharing the last key will do.
    for (i, e) in asked.iter().enumerate() {
        if compare(&key(e), &edge).is_eq() {
            let needed = asked
                .iter()
                .filter(|x| compare(&key(x), &edge).is_eq())
                .count();
            let present = all
                .iter()
                .filter(|x| compare(&key(x), &edge).is_eq() && pool.holds(x, &wanted))
                .count();
            if present < needed {
                return Some(format!(
                    "{}: {needed} children at the cut ({} {edge}) are asked for, {present} returned",
                    r.name,
                    c.sort.as_ref().map_or("", |s| s.field.as_str())
                ));
            }
            break;
        }
        if !pool.holds(e, &wanted) {
            return Some(format!(
                "{}: child #{} of the {n} asked for (by {} {}) is not among what the plan returns, with its fields {}",
                r.name,
                i + 1,
                c.sort.as_ref().map_or("", |s| s.field.as_str()),
                key(e),
                wanted.join(", ")
            ));
        }
    }
    None
}

/// Returns what is wrong when the documents `rows[start..start + n]` (sorted by `key`) are
/// not all among what the plan returned (`pool`, with the `wanted` fields), or `None` when
/// they are. At either edge of the window, documents sharing the edge's key are
/// interchangeable: any of them will do, as many as the window holds.
pub(super) fn missing_in_window(
    rows: &[&Document],
    start: usize,
    n: usize,
    key: &dyn Fn(&Document) -> Bson,
    pool: &Pool,
    wanted: &[String],
) -> Option<String> {
    let end = start.saturating_add(n).min(rows.len());
    let window = rows.get(start.min(end)..end).unwrap_or_default();
    let (Some(first), Some(last)) = (
        window.first().map(|d| key(d)),
        window.last().map(|d| key(d)),
    ) else {
        return None;
    };
    for edge in [&first, &last] {
        let needed = window.iter().filter(|d| key(d) == *edge).count();
        let present = rows
            .iter()
            .filter(|d| key(d) == *edge && pool.holds(d, wanted))
            .count();
        if present < needed {
            return Some(format!(
                "{needed} documents with the key {edge} at the page's edge are asked for, {present} returned"
            ));
        }
    }
    window
        .iter()
        .enumerate()
        .find(|(_, d)| key(d) != first && key(d) != last && !pool.holds(d, wanted))
        .map(|(i, d)| {
            format!(
                "document #{} of the page (key {}) is not among what the plan returns, with its fields {}",
                start + i + 1,
                key(d),
                wanted.join(", ")
            )
        })
}

/// Returns the fields of the children a read asks for: those it lists, else all of the
/// child's.
pub(super) fn wanted_fields(model: &Model, r: &Relationship, c: &ChildRead) -> Vec<String> {
    if c.fields.is_empty() {
        model
            .entity(&r.child)
            .map(|e| e.fields.iter().map(|(n, _)| n.clone()).collect())
            .unwrap_or_default()
    } else {
        c.fields.clone()
    }
}

/// Returns whether `stored` is the new child `child`: the same `_id` (a link to a child that
/// exists, `link_only`, must carry it), else, for a copy kept without its `_id` (a
/// many-to-many child embedded in each of its parents), the same values in every field both
/// hold.
pub(super) fn same_child(child: &Document, stored: &Document, link_only: bool) -> bool {
    if let (Some(a), Some(b)) = (child.get("_id"), stored.get("_id")) {
        return a == b;
    }
    if link_only && stored.contains_key("_id") {
        return false;
    }
    let shared: Vec<&String> = child
        .keys()
        .filter(|k| stored.contains_key(k.as_str()))
        .collect();
    !shared.is_empty()
        && shared
            .iter()
            .all(|k| child.get(k.as_str()) == stored.get(k.as_str()))
}
