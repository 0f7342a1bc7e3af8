//! Strategies: how one relationship, or one field, is laid out in documents.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// How one relationship (parent → child) is stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "strategy", rename_all = "snake_case", deny_unknown_fields)]
pub enum Strategy {
    /// Children live inside the parent as an array of sub-documents.
    Embed,
    /// The newest `k` children are embedded (kept by `$push` + `$each` + `$sort` + `$slice`);
    /// all children also live in their own collection with a reference to the parent.
    EmbedSubset {
        /// How many children the parent keeps.
        k: u64,
    },
    /// The parent keeps an array of `{_id, …copied fields}` of its children.
    ExtendedReference {
        /// Child fields copied next to each id.
        #[serde(default)]
        copy: Vec<String>,
    },
    /// The parent keeps an array of child ids.
    ReferenceInParent,
    /// Each child keeps its parent's id (and optionally copies of parent fields).
    ReferenceInChild {
        /// Parent fields copied into each child.
        #[serde(default)]
        copy: Vec<String>,
    },
    /// Parent keeps child ids and each child keeps the parent id.
    TwoWay,
    /// A separate collection of `{parent, child}` pairs.
    LinkCollection,
    /// Children grouped `size` per document with a sequence number and a counter.
    Bucket {
        /// Children per bucket document.
        size: u64,
    },
    /// The parent keeps up to `threshold` child ids; overflow goes into continuation documents
    /// in the same collection, listed on the parent in a `tbc` array.
    Continuation {
        /// Child ids per document (parent and each continuation).
        threshold: u64,
    },
    /// One item per post with a `to` array of recipients (fast writes, scatter-gather reads).
    FanOutOnRead,
    /// One copy of each item per recipient (one-shard reads, writes grow with followers).
    FanOutOnWrite,
    /// Each recipient's items bucketed `size` per document.
    BucketedFanOut {
        /// Items per bucket document.
        size: u64,
    },
}

impl Strategy {
    /// Returns the strategy's name as written in a model.
    pub fn name(&self) -> &'static str {
        match self {
            Strategy::Embed => "embed",
            Strategy::EmbedSubset { .. } => "embed_subset",
            Strategy::ExtendedReference { .. } => "extended_reference",
            Strategy::ReferenceInParent => "reference_in_parent",
            Strategy::ReferenceInChild { .. } => "reference_in_child",
            Strategy::TwoWay => "two_way",
            Strategy::LinkCollection => "link_collection",
            Strategy::Bucket { .. } => "bucket",
            Strategy::Continuation { .. } => "continuation",
            Strategy::FanOutOnRead => "fan_out_on_read",
            Strategy::FanOutOnWrite => "fan_out_on_write",
            Strategy::BucketedFanOut { .. } => "bucketed_fan_out",
        }
    }

    /// Returns true for the three feed strategies.
    pub fn is_feed(&self) -> bool {
        is_feed_name(self.name())
    }

    /// Returns the strategy's number parameter with its key (`k`, `size`, `threshold`), for
    /// the strategies that have one.
    pub fn parameter(&self) -> Option<(&'static str, u64)> {
        match self {
            Strategy::EmbedSubset { k } => Some(("k", *k)),
            Strategy::Bucket { size } | Strategy::BucketedFanOut { size } => Some(("size", *size)),
            Strategy::Continuation { threshold } => Some(("threshold", *threshold)),
            _ => None,
        }
    }

    /// Returns the fields a strategy copies (`copy` of an extended reference: child fields next
    /// to each id; of a reference in child: parent fields in each child), for the two that can.
    pub fn copy(&self) -> Option<&[String]> {
        match self {
            Strategy::ExtendedReference { copy } | Strategy::ReferenceInChild { copy } => {
                Some(copy)
            }
            _ => None,
        }
    }

    /// Returns the end of the relationship whose fields the strategy copies (`child` for an
    /// extended reference, `parent` for a reference in child, as the relationship's keys name
    /// them), for the two that copy.
    pub fn copies_from(&self) -> Option<&'static str> {
        match self {
            Strategy::ExtendedReference { .. } => Some("child"),
            Strategy::ReferenceInChild { .. } => Some("parent"),
            _ => None,
        }
    }

    /// Returns the strategy copying `copy` instead (unchanged when it copies nothing).
    pub fn with_copy(&self, copy: Vec<String>) -> Strategy {
        match self {
            Strategy::ExtendedReference { .. } => Strategy::ExtendedReference { copy },
            Strategy::ReferenceInChild { .. } => Strategy::ReferenceInChild { copy },
            other => other.clone(),
        }
    }

    /// Returns the strategy with its number parameter set to `value` (unchanged when it has
    /// none).
    pub fn with_parameter(&self, value: u64) -> Strategy {
        match self {
            Strategy::EmbedSubset { .. } => Strategy::EmbedSubset { k: value },
            Strategy::Bucket { .. } => Strategy::Bucket { size: value },
            Strategy::BucketedFanOut { .. } => Strategy::BucketedFanOut { size: value },
            Strategy::Continuation { .. } => Strategy::Continuation { threshold: value },
            other => other.clone(),
        }
    }
}

/// Every strategy's name as written in a model, in the order the page offers them.
pub const NAMES: &[&str] = &[
    "embed",
    "embed_subset",
    "extended_reference",
    "reference_in_parent",
    "reference_in_child",
    "two_way",
    "link_collection",
    "bucket",
    "continuation",
    "fan_out_on_read",
    "fan_out_on_write",
    "bucketed_fan_out",
];

/// Returns true when `name` is one of the three feed strategies: the only ones a feed
/// relationship may take, and the ones no other relationship may.
pub fn is_feed_name(name: &str) -> bool {
    matches!(
        name,
        "fan_out_on_read" | "fan_out_on_write" | "bucketed_fan_out"
    )
}

/// Returns the names of the strategies a relationship may take: the feed strategies for a
/// feed (`feed`), every other one otherwise.
pub fn names_for(feed: bool) -> impl Iterator<Item = &'static str> {
    NAMES
        .iter()
        .copied()
        .filter(move |n| is_feed_name(n) == feed)
}

/// The three named starting points.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
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
}

/// The chosen design: a named base plus per-relationship overrides and field patterns.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
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
}

/// How a read with children in other collections joins them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
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

impl DesignSpec {
    /// Returns the layout of `model` under this design.
    pub fn layout(&self, model: &crate::model::Model) -> Result<super::Layout, super::DesignError> {
        super::layout::build(model, self)
    }
}

/// How an attribute array is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttributeForm {
    /// A sub-document keyed by the attribute (`{prices: {web: 9, tv: 12}}`): one index per key.
    Keyed,
    /// An array of `{k, v}` pairs (`{prices: [{channel: "web", price: 9}]}`): one multikey index.
    KeyValue,
    /// One document per attribute with the owner's fields repeated.
    Flattened,
}

/// A field-level pattern.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "pattern", rename_all = "snake_case", deny_unknown_fields)]
pub enum FieldPattern {
    /// The attribute pattern applied to an array-of-objects field.
    Attribute {
        /// The owning entity.
        entity: String,
        /// The array-of-objects field holding the attributes.
        field: String,
        /// The layout.
        form: AttributeForm,
        /// The element field that names the attribute (becomes the key).
        key: String,
        /// The element field that holds the value.
        value: String,
    },
    /// A stored total kept current with `$inc` when a child is inserted.
    Computed {
        /// The owning (parent) entity.
        entity: String,
        /// The new field's name (`total`, `activityCount`).
        field: String,
        /// The relationship whose children are totalled.
        relationship: String,
        /// The child field summed; none counts children.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sum: Option<String>,
    },
    /// Counters written as zeros when the document is created (per-minute page views).
    Preallocated {
        /// The owning entity.
        entity: String,
        /// The new sub-document's name.
        field: String,
        /// Number of counters ("0" … "slots−1").
        slots: u64,
    },
}
