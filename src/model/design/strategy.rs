//! Strategies: how one relationship is laid out in documents. [`Strategy::ALL`] is the one
//! list of them (with their default parameters) that validation, the strategy picker and the
//! docs read.

use serde::{Deserialize, Serialize};

use super::Granularity;

/// Children the embedded subset keeps when the page switches a relationship to `embed_subset`.
pub const DEFAULT_SUBSET: u64 = 10;

/// Children (or feed items) per bucket document: the named bucketed design's size and the
/// picker's default (the social-feed article's 50).
pub const DEFAULT_BUCKET: u64 = 50;

/// Child ids per document when the page switches a relationship to `continuation`.
pub const DEFAULT_THRESHOLD: u64 = 1_000;

/// How one relationship (parent → child) is stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(tag = "strategy", rename_all = "snake_case", deny_unknown_fields)]
pub enum Strategy {
    /// Children live inside the parent as an array of sub-documents.
    Embed,
    /// The newest `k` children are embedded (kept by `$push` + `$each` + `$sort` + `$slice`);
    /// all children also live in their own collection with a reference to the parent.
    EmbedSubset {
        /// How many children the parent keeps.
        #[cfg_attr(not(target_arch = "wasm32"), schemars(range(min = 1)))]
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
        #[cfg_attr(not(target_arch = "wasm32"), schemars(range(min = 1)))]
        size: u64,
    },
    /// The parent keeps up to `threshold` child ids; overflow goes into continuation documents
    /// in the same collection, listed on the parent in a `tbc` array.
    Continuation {
        /// Child ids per document (parent and each continuation).
        #[cfg_attr(not(target_arch = "wasm32"), schemars(range(min = 1)))]
        threshold: u64,
    },
    /// One item per post with a `to` array of recipients (fast writes, scatter-gather reads).
    FanOutOnRead,
    /// One copy of each item per recipient (one-shard reads, writes grow with followers).
    FanOutOnWrite,
    /// Each recipient's items bucketed `size` per document.
    BucketedFanOut {
        /// Items per bucket document.
        #[cfg_attr(not(target_arch = "wasm32"), schemars(range(min = 1)))]
        size: u64,
    },
    /// A native time-series collection (MongoDB 5.0+): the children are measurements (their
    /// first date field is the `timeField`, the parent's id the `metaField`) that the server
    /// stores in `system.buckets.<child>`, one bucket document per parent and time span.
    TimeSeries {
        /// The collection's granularity (rounding and span of a bucket).
        #[serde(default)]
        granularity: Granularity,
    },
    /// A tree (a self one-to-many relationship): each node keeps its parent's id (`parent`).
    ParentReferences,
    /// A tree: each node keeps its children's ids (`children`).
    ChildReferences,
    /// A tree: each node keeps the ids of all its ancestors, root first (`ancestors`), and
    /// its parent's.
    ArrayOfAncestors,
    /// A tree: each node keeps the ids of its ancestors as one string
    /// (`path: ",root,…,parent,"`, indexed), and its parent's.
    MaterializedPaths,
    /// A tree: each node keeps the numbers of a depth-first walk (`left`, `right`; a
    /// descendant's lie between its ancestor's), and its parent's.
    NestedSets,
    /// The single-collection pattern: each child lives in its parent's collection, both
    /// marked by a discriminator (`type`: the entity's name) and sharing a key (the child's
    /// parent reference, `{parent}Id`, which the parent holds as its own `_id`), so one query
    /// on that key reads a parent with its children.
    SingleCollection,
}

impl Strategy {
    /// Every strategy with its default parameters (`k` [`DEFAULT_SUBSET`], `size`
    /// [`DEFAULT_BUCKET`], `threshold` [`DEFAULT_THRESHOLD`], no copies), in the order the page
    /// offers them: the one list of strategies.
    pub const ALL: [Strategy; 19] = [
        Strategy::Embed,
        Strategy::EmbedSubset { k: DEFAULT_SUBSET },
        Strategy::ExtendedReference { copy: Vec::new() },
        Strategy::ReferenceInParent,
        Strategy::ReferenceInChild { copy: Vec::new() },
        Strategy::TwoWay,
        Strategy::LinkCollection,
        Strategy::Bucket {
            size: DEFAULT_BUCKET,
        },
        Strategy::Continuation {
            threshold: DEFAULT_THRESHOLD,
        },
        Strategy::FanOutOnRead,
        Strategy::FanOutOnWrite,
        Strategy::BucketedFanOut {
            size: DEFAULT_BUCKET,
        },
        Strategy::TimeSeries {
            granularity: Granularity::Seconds,
        },
        Strategy::ParentReferences,
        Strategy::ChildReferences,
        Strategy::ArrayOfAncestors,
        Strategy::MaterializedPaths,
        Strategy::NestedSets,
        Strategy::SingleCollection,
    ];

    /// Returns every strategy's name as written in a model, in [`Strategy::ALL`]'s order.
    pub fn names() -> impl Iterator<Item = &'static str> {
        Strategy::ALL.into_iter().map(|s| s.name())
    }

    /// Returns the strategy called `name` with its default parameters, if there is one.
    pub fn from_name(name: &str) -> Option<Strategy> {
        Strategy::ALL.into_iter().find(|s| s.name() == name)
    }

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
            Strategy::TimeSeries { .. } => "time_series",
            Strategy::ParentReferences => "parent_references",
            Strategy::ChildReferences => "child_references",
            Strategy::ArrayOfAncestors => "array_of_ancestors",
            Strategy::MaterializedPaths => "materialized_paths",
            Strategy::NestedSets => "nested_sets",
            Strategy::SingleCollection => "single_collection",
        }
    }

    /// Returns true for the three feed strategies: the only ones a feed relationship may
    /// take, and the ones no other relationship may.
    pub fn is_feed(&self) -> bool {
        matches!(
            self,
            Strategy::FanOutOnRead | Strategy::FanOutOnWrite | Strategy::BucketedFanOut { .. }
        )
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

    /// Returns the optional keys a strategy takes besides its number parameter and `copy`
    /// (`granularity` of a time series).
    pub fn option_keys(&self) -> &'static [&'static str] {
        match self {
            Strategy::TimeSeries { .. } => &["granularity"],
            _ => &[],
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
