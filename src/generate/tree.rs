//! The tree fields of generated nodes: node `j` of the complete tree that
//! [`crate::model::design::Tree`] numbers breadth first gets its real parent, children,
//! ancestors, materialized path and nested-set numbers, so that every tree query of the
//! evaluation returns the nodes it would in MongoDB.

use bson::Bson;

use super::entity_oid;
use crate::design::names::{ANCESTORS, CHILDREN, LEFT, PARENT, PATH, RIGHT};
use crate::design::{Layout, Strategy};
use crate::model::design::{can_be_tree, Tree};
use crate::model::Model;

/// The tree the nodes of one shape form.
#[derive(Debug, Clone)]
pub(super) struct NodeTree {
    /// The entity of the nodes (whose ids the tree fields hold).
    entity: String,
    /// The tree strategy.
    strategy: Strategy,
    /// The generated tree.
    tree: Tree,
}

/// Returns the tree of the nodes of `entity` when a tree strategy lays it out, with
/// `count` generated nodes.
pub(super) fn of(model: &Model, layout: &Layout, entity: &str, count: u64) -> Option<NodeTree> {
    let r = model.relationships.iter().find(|r| {
        r.parent == entity
            && can_be_tree(r)
            && layout.strategy(&r.name).is_some_and(Strategy::is_tree)
    })?;
    let s = layout.strategy(&r.name)?;
    Some(NodeTree {
        entity: entity.to_string(),
        strategy: s.clone(),
        tree: Tree::of(r, count),
    })
}

impl NodeTree {
    /// Returns the value of tree field `field` of node `j`: `None` when `field` is not a tree
    /// field, `Some(None)` when the node has none (the root's parent and path).
    pub(super) fn value(&self, seed: u64, field: &str, j: u64) -> Option<Option<Bson>> {
        let t = &self.tree;
        let id = |i: u64| Bson::ObjectId(entity_oid(seed, &self.entity, i));
        let v = match field {
            PARENT => t.parent(j).map(id),
            CHILDREN if matches!(self.strategy, Strategy::ChildReferences) => {
                Some(Bson::Array(t.children(j).map(id).collect()))
            }
            ANCESTORS if matches!(self.strategy, Strategy::ArrayOfAncestors) => {
                Some(Bson::Array(t.ancestors(j).into_iter().map(id).collect()))
            }
            PATH if matches!(self.strategy, Strategy::MaterializedPaths) => {
                let a = t.ancestors(j);
                (!a.is_empty()).then(|| {
                    let mut p = String::from(",");
                    for i in a {
                        p.push_str(&entity_oid(seed, &self.entity, i).to_hex());
                        p.push(',');
                    }
                    Bson::String(p)
                })
            }
            LEFT | RIGHT if matches!(self.strategy, Strategy::NestedSets) => {
                let (l, r) = t.nested(j);
                let n = if field == LEFT { l } else { r };
                Some(Bson::Int32(i32::try_from(n).unwrap_or(i32::MAX)))
            }
            _ => return None,
        };
        Some(v)
    }
}
