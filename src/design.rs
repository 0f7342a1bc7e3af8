//! Designs: a strategy for every relationship, resolved into a [`Layout`] of concrete
//! collections with document shapes, indexes and the commands each application unit runs.

pub mod command;
pub mod indexes;
pub mod layout;
pub mod plan;
pub mod strategy;

pub use indexes::Index;
pub use layout::{Collection, CopiedField, DocShape, GrowingArray, Layout};
pub use plan::{Command, CommandKind, Plan, UnitPlan};
pub use strategy::{AttributeForm, DesignName, DesignSpec, FieldPattern, Joins, Strategy};

use crate::model::{Model, Relationship};

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
    /// [`MAX_SUBFIELDS`] (pre-allocated slots, or a keyed sub-document of that many attributes).
    #[error("entity \"{entity}\", field \"{field}\": {count} sub-fields is more than the {max} a layout may hold", max = MAX_SUBFIELDS)]
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

/// The most sub-fields a field pattern may give one document (pre-allocated counters, keyed
/// attributes): every document of the sample holds them, and the page lays the model out again
/// on every edit. A day of per-minute counters is 1,440.
pub const MAX_SUBFIELDS: u64 = 10_000;

/// The count at and above which an array counts as unbounded (MongoDB Compass's threshold).
pub const UNBOUNDED_ARRAY: f64 = 250.0;

/// Bucket size the named bucketed design uses (the social-feed article's 50).
pub const DEFAULT_BUCKET: u64 = 50;

/// Children the embedded subset keeps when the page switches a relationship to `embed_subset`.
pub const DEFAULT_SUBSET: u64 = 10;

/// Child ids per document when the page switches a relationship to `continuation`.
pub const DEFAULT_THRESHOLD: u64 = 1_000;

/// Returns every strategy the relationship called `relationship` may take under validation's
/// rule (the feed strategies for a feed, every other one otherwise: [`strategy::names_for`]),
/// each with default parameters: `k` [`DEFAULT_SUBSET`], bucket `size` [`DEFAULT_BUCKET`],
/// `threshold` [`DEFAULT_THRESHOLD`], an extended reference copying the child fields the
/// workload reads (as the denormalized design does), no copies in a reference in child. Empty
/// for a relationship the model does not have. The page's strategy picker offers these.
pub fn strategies_for(model: &Model, relationship: &str) -> Vec<Strategy> {
    let Some(r) = model.relationship(relationship) else {
        return Vec::new();
    };
    strategy::names_for(r.feed.is_some())
        .filter_map(|name| {
            Some(match name {
                "embed" => Strategy::Embed,
                "embed_subset" => Strategy::EmbedSubset { k: DEFAULT_SUBSET },
                "extended_reference" => Strategy::ExtendedReference {
                    copy: child_fields_read(r, model),
                },
                "reference_in_parent" => Strategy::ReferenceInParent,
                "reference_in_child" => Strategy::ReferenceInChild { copy: vec![] },
                "two_way" => Strategy::TwoWay,
                "link_collection" => Strategy::LinkCollection,
                "bucket" => Strategy::Bucket {
                    size: DEFAULT_BUCKET,
                },
                "continuation" => Strategy::Continuation {
                    threshold: DEFAULT_THRESHOLD,
                },
                "fan_out_on_read" => Strategy::FanOutOnRead,
                "fan_out_on_write" => Strategy::FanOutOnWrite,
                "bucketed_fan_out" => Strategy::BucketedFanOut {
                    size: DEFAULT_BUCKET,
                },
                _ => return None,
            })
        })
        .collect()
}

/// Returns true when a relationship's children are unbounded: the largest parent has at least
/// [`UNBOUNDED_ARRAY`] children, or children keep arriving.
pub fn is_unbounded(r: &Relationship) -> bool {
    r.cardinality.max() >= UNBOUNDED_ARRAY || r.growth_typical() > 0.0 || r.growth_largest() > 0.0
}

/// Returns the strategy a named design gives a relationship (before overrides).
///
/// - normalized: reference in child (1:n), link collection (m:n), fan-out on read (feeds);
/// - denormalized: embed when bounded and 1:n; extended reference (ids plus the child fields
///   the workload reads) when m:n; reference in child with copies of the parent's lookup
///   fields when unbounded 1:n (one-to-squillions never goes into the parent); fan-out on
///   write (feeds);
/// - bucketed: bucket of [`DEFAULT_BUCKET`] when unbounded or growing, else as normalized;
///   bucketed fan-out (feeds).
///
/// A child that has a life of its own (see [`stands_alone`]) is never moved inside its parent
/// by a named design: embedding or bucketing it would leave the workload's own reads of it
/// without a collection. MongoDB's guidance is the same: embed what is only reached through
/// its parent.
pub fn named_strategy(name: DesignName, r: &Relationship, model: &Model) -> Strategy {
    if r.feed.is_some() {
        return match name {
            DesignName::Normalized => Strategy::FanOutOnRead,
            DesignName::Denormalized => Strategy::FanOutOnWrite,
            DesignName::Bucketed => Strategy::BucketedFanOut {
                size: DEFAULT_BUCKET,
            },
        };
    }
    let normalized = if r.many_to_many {
        Strategy::LinkCollection
    } else {
        Strategy::ReferenceInChild { copy: vec![] }
    };
    match name {
        DesignName::Normalized => normalized,
        DesignName::Bucketed => {
            if is_unbounded(r) && !stands_alone(r, model, true) {
                Strategy::Bucket {
                    size: DEFAULT_BUCKET,
                }
            } else {
                normalized
            }
        }
        DesignName::Denormalized => {
            if r.many_to_many {
                Strategy::ExtendedReference {
                    copy: child_fields_read(r, model),
                }
            } else if is_unbounded(r) || stands_alone(r, model, false) {
                Strategy::ReferenceInChild {
                    copy: parent_lookup_fields(r, model),
                }
            } else {
                Strategy::Embed
            }
        }
    }
}

/// Returns true when the child of `r` is reached other than through `r`'s parent: it is the
/// parent of another relationship or the child of a second one, or a workload step reads,
/// lists, searches, inserts or deletes it on its own, or (`updates_count`) updates it. Such a
/// child needs its own collection. An embedded child can still be updated in place
/// (`{ "arr.$.field": … }`), so embedding passes `updates_count = false`.
pub fn stands_alone(r: &Relationship, model: &Model, updates_count: bool) -> bool {
    use crate::model::Step;
    let child = r.child.as_str();
    let related = model
        .relationships
        .iter()
        .any(|o| o.name != r.name && (o.parent == child || o.child == child));
    related
        || model
            .workload
            .iter()
            .flat_map(|u| &u.steps)
            .any(|s| match s {
                Step::Read { entity, .. }
                | Step::List { entity, .. }
                | Step::FindByAttribute { entity, .. }
                | Step::Insert { entity }
                | Step::Delete { entity } => entity == child,
                Step::Update { entity, .. } => updates_count && entity == child,
                _ => false,
            })
}

/// Returns the child fields the workload reads through `r` (the copies an extended reference
/// keeps).
fn child_fields_read(r: &Relationship, model: &Model) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for u in &model.workload {
        for s in &u.steps {
            if let crate::model::Step::Read { children, .. } = s {
                for c in children.iter().filter(|c| c.relationship == r.name) {
                    for f in &c.fields {
                        if f != "_id" && !out.contains(f) {
                            out.push(f.clone());
                        }
                    }
                }
            }
        }
    }
    out
}

/// Returns the parent fields the workload looks parents up by (other than `_id`).
fn parent_lookup_fields(r: &Relationship, model: &Model) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for u in &model.workload {
        for s in &u.steps {
            if let crate::model::Step::Read {
                entity,
                by,
                children,
            } = s
            {
                if entity == &r.parent
                    && by != "_id"
                    && children.iter().any(|c| c.relationship == r.name)
                    && !out.contains(by)
                {
                    out.push(by.clone());
                }
            }
        }
    }
    out
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

/// Returns the layout of the model's own design.
pub fn layout_model(model: &Model) -> Result<Layout, DesignError> {
    layout::build(model, &model.design)
}

/// Returns the layout of `model` under one of the named designs, keeping the model's field
/// patterns and no relationship overrides.
pub fn layout_named(model: &Model, name: DesignName) -> Result<Layout, DesignError> {
    let spec = DesignSpec {
        base: name,
        relationships: Default::default(),
        fields: model.design.fields.clone(),
        joins: model.design.joins,
    };
    layout::build(model, &spec)
}
