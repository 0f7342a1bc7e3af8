//! Link collections: a collection whose documents hold nothing but their `_id` and two
//! references (`{_id, productId, partId}`) is the layout of a many-to-many relationship, not
//! an entity of its own.

use super::build::{growth, Found};
use super::fit::Observed;
use super::refs::Created;
use crate::model::{Entity, Growth, Relationship};

/// A collection found to link two others, many to many.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    /// The link collection's name.
    pub collection: String,
    /// The collection its first reference names (the parent: document order).
    pub parent: String,
    /// The collection its second reference names (the child).
    pub child: String,
    /// The name of the first reference (the parent's, in the link documents).
    pub parent_field: String,
    /// Links per parent document (a parent no link names counted as 0).
    pub per_parent: Observed,
    /// Links per child document (a child no link names counted as 0).
    pub per_child: Observed,
    /// Link documents read.
    pub links: u64,
    /// Values checked and resolved, both references together.
    pub resolved: [u64; 2],
    /// Either reference was counted on a sample of its values.
    pub sampled: bool,
    /// The link documents' creation times, when they have them.
    pub created: Option<Created>,
    /// Links added per day to a typical and the largest parent.
    pub growth: Option<Growth>,
}

/// Returns the link collections among the references `found`: a collection (`entities`, not
/// in any relationship yet nor holding arrays moved out, `with_children`) whose only field
/// left is `_id`, that holds exactly two references to one id each in every document, and
/// whose own `_id`s no reference names.
pub fn link_collections(
    found: &[Found],
    entities: &[Entity],
    relationships: &[Relationship],
    with_children: &[String],
) -> Vec<Link> {
    let mut out = Vec::new();
    for e in entities {
        let in_relationship = relationships
            .iter()
            .any(|r| r.parent == e.name || r.child == e.name);
        let only_id = e.fields.iter().all(|(n, _)| n == "_id");
        if in_relationship || with_children.contains(&e.name) || !only_id {
            continue;
        }
        if found.iter().any(|f| f.reference.target == e.name) {
            continue;
        }
        let held: Vec<&Found> = found.iter().filter(|f| f.holder == e.name).collect();
        let [first, second] = held.as_slice() else {
            continue;
        };
        let whole = |f: &Found| !f.in_array && f.reference.values == f.holders;
        if !whole(first) || !whole(second) {
            continue;
        }
        let per_parent = first.reference.per_target.clone();
        let links = first.holders;
        out.push(Link {
            collection: e.name.clone(),
            parent: first.reference.target.clone(),
            child: second.reference.target.clone(),
            parent_field: first.field.clone(),
            growth: first
                .created
                .as_ref()
                .map(|c| growth(links, per_parent.values, per_parent.max, c.days)),
            per_parent,
            per_child: second.reference.per_target.clone(),
            links,
            resolved: [
                first.reference.values + second.reference.values,
                first.reference.resolved + second.reference.resolved,
            ],
            sampled: first.reference.sampled || second.reference.sampled,
            created: first.created.clone(),
        });
    }
    out
}
