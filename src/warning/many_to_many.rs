//! Notes about a many-to-many relationship whose child holds its parents' ids (the ids of the
//! users a user follows, in `following`): the length of that array is the other side's
//! distribution, parents per child. When the model does not state it, every child is given
//! the mean and its tail is assumed; when it does, its mean should count the same links as the
//! children per parent do.

use super::{Severity, Warning};
use crate::design::Layout;
use crate::human::thousands;
use crate::model::field::BsonType;
use crate::model::{Model, Relationship};

/// The two sides of a many-to-many relationship "agree" when the links they count (parents ×
/// mean children per parent, children × mean parents per child) differ by at most this share.
/// The means are numeric integrals of heavy-tailed shapes, so a little slack.
pub const SIDES_TOLERANCE: f64 = 0.1;

/// Returns the notes about every many-to-many relationship whose child documents, in
/// `layout`, hold an array of their parents' ids.
pub fn check(model: &Model, layout: &Layout) -> Vec<Warning> {
    let mut out = Vec::new();
    for r in model
        .relationships
        .iter()
        .filter(|r| r.many_to_many && r.feed.is_none())
    {
        let (Some(parent), Some(child)) = (model.entity(&r.parent), model.entity(&r.child)) else {
            continue;
        };
        let pref = r.parent_ref();
        let holders = layout.collections.iter().filter(|c| {
            c.shapes.iter().any(|s| {
                s.entity.as_deref() == Some(r.child.as_str())
                    && s.fields.get(&pref).is_some_and(|f| f.ty == BsonType::Array)
            })
        });
        for c in holders {
            out.extend(note(r, &c.name, parent.count, child.count));
        }
    }
    out
}

/// Returns the note about the array `pref` of parent ids in collection `coll`, if any.
fn note(r: &Relationship, coll: &str, parents: f64, children: f64) -> Option<Warning> {
    let pref = r.parent_ref();
    let mean = r.mean_parents_per_child(parents, children);
    let links = |n: f64| thousands(n.round().max(0.0) as u64);
    match &r.parents_per_child {
        None => Some(Warning::new(
            "PARENTS_PER_CHILD_ASSUMED",
            Severity::Info,
            coll,
            &pref,
            format!(
                "{coll}.{pref} holds each {child}'s {parent} ids ({name}, many-to-many): the model states no parents_per_child, so every child gets the mean, {m} ids ({p} parents × {c} children each ÷ {n} children), as its p50, p99 and largest: the tail is assumed",
                parent = r.parent,
                child = r.child,
                name = r.name,
                m = links(mean),
                p = links(parents),
                c = links(r.cardinality.mean()),
                n = links(children),
            ),
            "State parents_per_child on the relationship (how many parents one child has: typical, p99, max) so the array's tail is the real one.",
        )),
        Some(d) => {
            let from_parents = parents * r.cardinality.mean();
            let from_children = children * d.mean();
            let apart = (from_children - from_parents).abs() / from_parents.max(1.0);
            (apart > SIDES_TOLERANCE).then(|| {
                Warning::new(
                    "PARENTS_PER_CHILD_DISAGREES",
                    Severity::Info,
                    coll,
                    &pref,
                    format!(
                        "{name}: the two sides count different links: {p} parents × {c} children each = {a}, but {n} children × {m} parents each (parents_per_child) = {b}; {coll}.{pref} holds the latter",
                        name = r.name,
                        p = links(parents),
                        c = links(r.cardinality.mean()),
                        a = links(from_parents),
                        n = links(children),
                        m = links(d.mean()),
                        b = links(from_children),
                    ),
                    "Make the means agree (parents × mean cardinality = children × mean parents_per_child), or read each side's figures as its own assumption.",
                )
            })
        }
    }
}
