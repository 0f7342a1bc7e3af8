//! Designs: a strategy for every relationship, resolved into a [`Layout`] of concrete
//! collections with document shapes, indexes and the commands each application unit runs.

pub mod command;
pub mod gridfs;
pub mod indexes;
pub mod layout;
pub mod names;
pub mod plan;

pub use indexes::Index;
pub use layout::{Collection, CopiedField, DocShape, GrowingArray, Layout};
pub use plan::{Command, CommandKind, Plan, UnitPlan, When};
// The design vocabulary is the model's; these re-exports keep `crate::design::Strategy` and
// its kin reachable where layouts are read.
pub use crate::model::design::{
    resolve, strategies_for, AttributeForm, DesignName, DesignSpec, FieldPattern, Joins, Strategy,
};

use crate::model::Model;

/// Why a design cannot be laid out.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DesignError {
    /// A strategy that cannot apply to this relationship.
    #[error("relationship \"{relationship}\": {message}")]
    Unsupported {
        /// The relationship.
        relationship: String,
        /// Why.
        message: String,
    },
    /// A field pattern that would give one document more sub-fields than
    /// [`crate::model::design::MAX_SUBFIELDS`] (pre-allocated slots, or a keyed sub-document of that many attributes).
    #[error("entity \"{entity}\", field \"{field}\": {count} sub-fields is more than the {max} a layout may hold", max = crate::model::design::MAX_SUBFIELDS)]
    TooManyFields {
        /// The entity.
        entity: String,
        /// The field the pattern applies to.
        field: String,
        /// How many sub-fields it would make.
        count: u64,
    },
    /// A name the model does not define (models from [`crate::model::parse_model`] never have
    /// these).
    #[error("unknown {what} \"{name}\"")]
    Unknown {
        /// "entity", "relationship" or "field".
        what: &'static str,
        /// The name.
        name: String,
    },
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
