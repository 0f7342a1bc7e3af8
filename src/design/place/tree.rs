//! The fields a tree strategy adds to each node (the MongoDB manual's "Model Tree
//! Structures"): `parent`, `children`, `ancestors`, `path`, `left`/`right`.

use super::{int_field, oid, Builder};
use crate::design::names::{ANCESTORS, CHILDREN, LEFT, PARENT, PATH, RIGHT};
use crate::model::design::{can_be_tree, Strategy, Tree};
use crate::model::distribution::Distribution;
use crate::model::field::{BsonType, Field, ValueKind};
use crate::model::Entity;

/// Bytes one ancestor takes in a materialized path: its id as 24 hexadecimal digits and a
/// comma (`,5f1d…,`).
pub const PATH_STEP: u64 = 25;

/// Returns the fields `strategy` adds to each node of a tree of `count` nodes: the mean
/// depth sizes the ancestors, the mean depth of the nodes below the root the path, the mean
/// number of children (`(n − 1) ÷ n`) the children (the arithmetic's sizes use those means;
/// the sample documents hold each node's own).
pub fn node_fields(strategy: &Strategy, tree: &Tree) -> Vec<(String, Field)> {
    let n = tree.count.max(1) as f64;
    // Σ depth over the nodes, level by level (a tree of a billion nodes has a few levels).
    let depths: f64 = (1..=tree.depth())
        .map(|d| d as f64 * tree.level(d).1 as f64)
        .sum();
    let mean_depth = depths / n;
    // A path names every ancestor: 1 + 25 bytes per level, over the nodes that have one.
    let path_length = 1.0 + PATH_STEP as f64 * depths / (n - 1.0).max(1.0);
    // The root has no parent (and no path): the field is missing there.
    let below_root = (n - 1.0) / n;
    let parent = || {
        (
            PARENT.to_string(),
            Field {
                presence: Some(below_root),
                ..oid()
            },
        )
    };
    match strategy {
        Strategy::ParentReferences => vec![parent()],
        Strategy::ChildReferences => {
            let children = Distribution::fixed((n - 1.0) / n);
            vec![(
                CHILDREN.to_string(),
                Field::array_of(BsonType::ObjectId, children),
            )]
        }
        Strategy::ArrayOfAncestors => vec![
            (
                ANCESTORS.to_string(),
                Field::array_of(BsonType::ObjectId, Distribution::fixed(mean_depth)),
            ),
            parent(),
        ],
        Strategy::MaterializedPaths => vec![(
            PATH.to_string(),
            Field {
                length: Some(Distribution::fixed(path_length)),
                presence: Some(below_root),
                ..Field::of(BsonType::String)
            },
        )],
        Strategy::NestedSets => vec![
            parent(),
            (LEFT.to_string(), int_field(ValueKind::Sequence)),
            (RIGHT.to_string(), int_field(ValueKind::Sequence)),
        ],
        _ => Vec::new(),
    }
}

impl Builder<'_> {
    /// Returns the tree fields of entity `e`: those of the tree strategy of its relationship
    /// to itself, if it has one.
    pub(super) fn tree_fields(&self, e: &Entity) -> Vec<(String, Field)> {
        self.model
            .relationships
            .iter()
            .filter(|r| r.parent == e.name && can_be_tree(r))
            .flat_map(|r| {
                let s = self.strategy(&r.name);
                node_fields(s, &Tree::of(r, e.count.max(0.0) as u64))
            })
            .collect()
    }
}
