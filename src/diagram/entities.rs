//! The model's diagram, before any design: its entities with their fields and counts, and its
//! relationships with their cardinality distributions and growth.

use serde::Serialize;

use super::shape::{entries, Entry};
use super::Counts;
use crate::model::distribution::{round_count, Distribution};
use crate::model::Model;

/// The entities and relationships of a model.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelDiagram {
    /// One box per entity, in model order.
    pub entities: Vec<EntityBox>,
    /// One line per relationship, parent to child, in model order.
    pub relationships: Vec<RelationshipLine>,
}

/// One entity drawn as a box.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EntityBox {
    /// The entity's name.
    pub name: String,
    /// How many exist at full scale.
    pub count: u64,
    /// Its fields as the model declares them.
    pub entries: Vec<Entry>,
}

/// One relationship drawn as a line from its parent to its child.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RelationshipLine {
    /// The relationship's name.
    pub name: String,
    /// The parent entity.
    pub parent: String,
    /// The child entity.
    pub child: String,
    /// The distribution's shape (`zipf`, `uniform`).
    pub shape: &'static str,
    /// Children per parent.
    pub children: Counts,
    /// Parents per child: one, or a many-to-many relationship's distribution.
    pub parents: Counts,
    /// True when a child can have many parents.
    pub many_to_many: bool,
    /// Children added per day to a typical parent, and to the largest (none: not growing).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub growth_per_day: Option<[f64; 2]>,
}

impl ModelDiagram {
    /// Returns the diagram of `model`'s entities and relationships.
    pub fn of(model: &Model) -> ModelDiagram {
        let count = |e: &str| model.entity(e).map_or(0.0, |e| e.count);
        ModelDiagram {
            entities: model
                .entities
                .iter()
                .map(|e| EntityBox {
                    name: e.name.clone(),
                    count: round_count(e.count),
                    entries: entries(&e.fields, &[]),
                })
                .collect(),
            relationships: model
                .relationships
                .iter()
                .map(|r| RelationshipLine {
                    name: r.name.clone(),
                    parent: r.parent.clone(),
                    child: r.child.clone(),
                    shape: shape_name(&r.cardinality),
                    children: Counts::of(&r.cardinality),
                    parents: if r.many_to_many {
                        Counts::of(&r.parents_per_child(count(&r.parent), count(&r.child)).0)
                    } else {
                        Counts::one()
                    },
                    many_to_many: r.many_to_many,
                    growth_per_day: r
                        .growth_per_day
                        .as_ref()
                        .map(|_| [r.growth_typical(), r.growth_largest()]),
                })
                .collect(),
        }
    }
}

/// Returns the name a model writes `d`'s shape under (`zipf`); a layout's derived shapes by
/// what they are.
fn shape_name(d: &Distribution) -> &'static str {
    match d {
        Distribution::Fixed { .. } => "fixed",
        Distribution::Uniform { .. } => "uniform",
        Distribution::Normal { .. } => "normal",
        Distribution::Zipf { .. } => "zipf",
        Distribution::Lognormal { .. } => "lognormal",
        Distribution::Capped { .. } => "capped",
        Distribution::Chunks { .. } => "chunks",
        Distribution::Remainder { .. } => "remainder",
    }
}
