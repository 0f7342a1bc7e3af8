//! Notes about a many-to-many relationship whose child holds its parents' ids (the ids of the
//! users a user follows, in `following`): the length of that array is the other side's
//! distribution, parents per child. When the model does not state it, every child is given
//! the mean and its tail is assumed; when it does, its mean should count the same links as the
//! children per parent do.

use super::{Severity, Warning};
use crate::design::Layout;
use crate::human::thousands;
use crate::lang::Text;
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
        None => Some(Warning::localized(
            "PARENTS_PER_CHILD_ASSUMED",
            Severity::Info,
            coll,
            &pref,
            Text::new("parents-per-child-assumed")
                .arg("collection", coll)
                .arg("field", &pref)
                .arg("child", &r.child)
                .arg("parent", &r.parent)
                .arg("relationship", &r.name)
                .arg("mean", links(mean))
                .arg("parents", links(parents))
                .arg("per_parent", links(r.cardinality.mean()))
                .arg("children", links(children)),
            Text::new("parents-per-child-assumed-fix"),
        )),
        Some(d) => {
            let from_parents = parents * r.cardinality.mean();
            let from_children = children * d.mean();
            let apart = (from_children - from_parents).abs() / from_parents.max(1.0);
            (apart > SIDES_TOLERANCE).then(|| {
                Warning::localized(
                    "PARENTS_PER_CHILD_DISAGREES",
                    Severity::Info,
                    coll,
                    &pref,
                    Text::new("parents-per-child-disagrees")
                        .arg("relationship", &r.name)
                        .arg("parents", links(parents))
                        .arg("per_parent", links(r.cardinality.mean()))
                        .arg("from_parents", links(from_parents))
                        .arg("children", links(children))
                        .arg("per_child", links(d.mean()))
                        .arg("from_children", links(from_children))
                        .arg("collection", coll)
                        .arg("field", &pref),
                    Text::new("parents-per-child-disagrees-fix"),
                )
            })
        }
    }
}
