//! Designs: a strategy for every relationship, resolved into a [`Layout`] of concrete
//! collections with document shapes, indexes and the commands each application unit runs.
//!
//! [`Layout::build`] runs one way, each stage a module that reads the ones before it only
//! through the data they made:
//!
//! 1. resolve: a strategy per relationship (`model::design::resolve`);
//! 2. place: the collections and their document shapes ([`place`], GridFS's in [`gridfs`]);
//! 3. plan: the commands of every unit ([`plan`], one module per step kind);
//! 4. indexes: what the plan's commands need ([`indexes`]).
//!
//! They share the leaves: the data ([`shape`]: collections, shapes, indexes; [`command`]: the
//! plan's commands), the naming rules ([`names`]) and [`DesignError`]; the leaves import
//! nothing else of `design`.

pub mod command;
mod error;
pub mod gridfs;
pub mod indexes;
pub mod names;
pub mod place;
pub mod plan;
pub mod shape;

pub use command::{Command, CommandKind, Plan, UnitPlan, When};
pub use error::DesignError;
pub use shape::{Collection, CopiedField, DocShape, GrowingArray, Index};
// The design vocabulary is the model's; these re-exports keep `crate::design::Strategy` and
// its kin reachable where layouts are read.
pub use crate::model::design::{
    resolve, strategies_for, AttributeForm, DesignName, DesignSpec, FieldPattern, Joins, Strategy,
};

use serde::Serialize;

use crate::model::Model;
use plan::Placement;
use shape::{collection_holding, collection_name_holding, strategy_in};

/// A design resolved into collections, their plan and their indexes, made whole by
/// [`Layout::build`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Layout {
    /// The design's name (`normalized`, or `normalized + overrides`).
    pub design: String,
    /// The strategy of every relationship, in model order.
    pub strategies: Vec<(String, Strategy)>,
    /// The collections.
    pub collections: Vec<Collection>,
    /// How reads join collections.
    #[serde(skip_serializing_if = "Joins::is_application")]
    pub joins: Joins,
    /// What every application unit runs.
    pub plan: Plan,
}

impl Layout {
    /// Returns the layout of `model` under `spec`, built in one pass, each stage reading only
    /// what the stages before it made: resolve each relationship's strategy, place the
    /// collections and their document shapes, plan every unit of the workload on them, then
    /// derive the indexes that plan needs.
    pub fn build(model: &Model, spec: &DesignSpec) -> Result<Layout, DesignError> {
        // The plan reads some field patterns from the model's design (an attribute's form, a
        // case-insensitive index's collation, GridFS fields, computed totals): a spec with
        // other patterns is planned under its own.
        let owned;
        let model = if model.design.fields == spec.fields {
            model
        } else {
            let mut m = model.clone();
            m.design = spec.clone();
            owned = m;
            &owned
        };
        let strategies = resolve(model, spec);
        let mut collections = place::collections(model, spec, &strategies)?;
        let plan = plan::build(&Placement {
            model,
            strategies: &strategies,
            collections: &collections,
            joins: spec.joins,
        });
        let indexes = indexes::derive(model, spec, &collections, &plan);
        indexes::attach(&mut collections, &indexes);
        Ok(Layout {
            design: spec.label(),
            strategies,
            collections,
            joins: spec.joins,
            plan,
        })
    }

    /// Returns the collection called `name`.
    pub fn collection(&self, name: &str) -> Option<&Collection> {
        self.collections.iter().find(|c| c.name == name)
    }

    /// Returns the strategy of relationship `name`.
    pub fn strategy(&self, name: &str) -> Option<&Strategy> {
        strategy_in(&self.strategies, name)
    }

    /// Returns the collection that holds entity `name` as top-level documents, if any.
    pub fn collection_of(&self, entity: &str) -> Option<&Collection> {
        collection_holding(&self.collections, entity)
    }

    /// Returns the name of the collection holding `entity` (the entity's own name when none
    /// does).
    pub fn collection_name(&self, entity: &str) -> String {
        collection_name_holding(&self.collections, entity)
    }
}

/// Returns the layout of the model's own design.
pub fn layout_model(model: &Model) -> Result<Layout, DesignError> {
    Layout::build(model, &model.design)
}

/// Returns the layout of `model` under one of the named designs, keeping the model's field
/// patterns and no relationship overrides.
pub fn layout_named(model: &Model, name: DesignName) -> Result<Layout, DesignError> {
    Layout::build(model, &DesignSpec::named(name, &model.design))
}
