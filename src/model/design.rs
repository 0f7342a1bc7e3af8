//! The design vocabulary of the model: a named base design ([`DesignName`]), per-relationship
//! [`Strategy`] overrides, [`FieldPattern`]s and [`Joins`], read together as a [`DesignSpec`],
//! and what a spec means for each relationship ([`resolve`]).
//!
//! This is part of the model, not of the layouts: it is what a user writes, what validation
//! checks and what the editor changes. `crate::design` turns a model and a spec into
//! collections, a plan and indexes.

mod granularity;
mod named;
mod pattern;
mod strategy;
mod tree;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use granularity::{Granularity, MIN_BUCKET};
pub use named::{
    is_unbounded, leaves_without_collection, named_strategy, read_by_itself,
    single_collection_fits, stands_alone, strategies_for, time_field, time_series_fits,
    UNBOUNDED_ARRAY,
};
pub use pattern::{AttributeForm, FieldPattern, MAX_SUBFIELDS};
pub use strategy::{Strategy, DEFAULT_BUCKET, DEFAULT_SUBSET, DEFAULT_THRESHOLD};
pub use tree::{can_be_tree, is_tree_relationship, Tree, MIN_FAN_OUT};

use super::Model;

/// The three named starting points.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum DesignName {
    /// Reference in child for one-to-many, link collection for many-to-many, fan-out on read
    /// for feeds.
    #[default]
    Normalized,
    /// Embed bounded relationships; extended reference for unbounded or many-to-many ones;
    /// fan-out on write for feeds.
    Denormalized,
    /// Bucket relationships whose children grow (or are unbounded), else as normalized;
    /// bucketed fan-out for feeds.
    Bucketed,
}

impl DesignName {
    /// Every named design, in the order the page offers them as a base.
    pub const ALL: [DesignName; 3] = [
        DesignName::Normalized,
        DesignName::Denormalized,
        DesignName::Bucketed,
    ];

    /// Returns the name as written in a model.
    pub fn as_str(self) -> &'static str {
        match self {
            DesignName::Normalized => "normalized",
            DesignName::Denormalized => "denormalized",
            DesignName::Bucketed => "bucketed",
        }
    }

    /// Returns the named design called `name`, if there is one.
    pub fn from_name(name: &str) -> Option<DesignName> {
        DesignName::ALL.into_iter().find(|d| d.as_str() == name)
    }
}

/// The chosen design: a named base plus per-relationship overrides and field patterns.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct DesignSpec {
    /// The named design every relationship starts from.
    #[serde(default)]
    pub base: DesignName,
    /// Relationship name → strategy, overriding the base.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub relationships: BTreeMap<String, Strategy>,
    /// Field-level patterns.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<FieldPattern>,
    /// How a read joins a parent and children that live in other collections.
    #[serde(default, skip_serializing_if = "Joins::is_application")]
    pub joins: Joins,
    /// The polymorphic pattern: collection name → the entities whose documents it holds
    /// together, each document tagged with its entity's name in `type`; a query on one entity
    /// names its type, and its indexes are partial indexes on that type.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub polymorphic: BTreeMap<String, Vec<String>>,
}

impl DesignSpec {
    /// Returns the named design `base` with the field patterns and joins of `like` and no
    /// relationship overrides (a named design as a model with patterns offers it).
    pub fn named(base: DesignName, like: &DesignSpec) -> DesignSpec {
        DesignSpec {
            base,
            relationships: BTreeMap::new(),
            fields: like.fields.clone(),
            joins: like.joins,
            polymorphic: like.polymorphic.clone(),
        }
    }

    /// Returns the design's name as layouts report it: the base (`normalized`), or
    /// `normalized + overrides` when some relationship overrides it.
    pub fn label(&self) -> String {
        if self.relationships.is_empty() {
            self.base.as_str().to_string()
        } else {
            format!("{} + overrides", self.base.as_str())
        }
    }
}

/// How a read with children in other collections joins them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Joins {
    /// The application queries each collection in turn (one round trip per collection).
    #[default]
    Application,
    /// One `aggregate` with an equality `$lookup` per child collection (one round trip; the
    /// server runs the joins). A read that limits or sorts its children keeps the
    /// application join: an equality `$lookup` cannot.
    Lookup,
}

impl Joins {
    /// Both ways, in the order the page offers them.
    pub const ALL: [Joins; 2] = [Joins::Application, Joins::Lookup];

    /// Returns the name as written in a model.
    pub fn as_str(self) -> &'static str {
        match self {
            Joins::Application => "application",
            Joins::Lookup => "lookup",
        }
    }

    /// True for the default, application-level joins.
    pub fn is_application(&self) -> bool {
        *self == Joins::Application
    }
}

/// Returns the strategy of every relationship of `model` under `spec` (base plus overrides),
/// in model order.
pub fn resolve(model: &Model, spec: &DesignSpec) -> Vec<(String, Strategy)> {
    model
        .relationships
        .iter()
        .map(|r| {
            let s = spec
                .relationships
                .get(&r.name)
                .cloned()
                .unwrap_or_else(|| named_strategy(spec.base, r, model));
            (r.name.clone(), s)
        })
        .collect()
}
