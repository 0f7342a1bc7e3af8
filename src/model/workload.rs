//! The workload: application units (one user action each) with a rate, as logical steps that
//! every design later turns into concrete commands.

use serde::{Deserialize, Serialize};

/// One user action and how often it happens.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Unit {
    /// Name shown in reports ("view profile").
    pub name: String,
    /// How many times per second the whole cluster runs it.
    #[cfg_attr(not(target_arch = "wasm32"), schemars(range(min = 0)))]
    pub rate_per_sec: f64,
    /// The logical steps, in order.
    pub steps: Vec<Step>,
}

/// One logical step of an application unit, independent of any design.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
pub enum Step {
    /// Read one entity by a key field, optionally with some of its children.
    Read {
        /// The entity read.
        entity: String,
        /// The field the entity is found by (default `_id`).
        #[serde(default = "default_key")]
        by: String,
        /// Children read along with it.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        children: Vec<ChildRead>,
        /// The `by` value is matched whatever its case (a username typed as `Alice` or
        /// `alice`): a `$regex` `/^value$/i`, or with a `case_insensitive_index` field
        /// pattern, an equality under that index's collation.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        case_insensitive: bool,
    },
    /// Find the parents whose children have a given value (products using part X).
    FindParents {
        /// The relationship searched through.
        relationship: String,
        /// The child field compared.
        by: String,
    },
    /// Add one child to a parent (a follower, a log message, an order line).
    InsertChild {
        /// The relationship the child joins.
        relationship: String,
    },
    /// Move one child to another parent (reassign a task): one write under a reference in
    /// the child, both sides under two-way references (not atomic, article 002).
    Reassign {
        /// The one-to-many relationship whose child moves.
        relationship: String,
    },
    /// Insert one entity that is nobody's child.
    Insert {
        /// The entity inserted.
        entity: String,
    },
    /// Change one field of one entity.
    Update {
        /// The entity updated.
        entity: String,
        /// The field changed.
        field: String,
        /// More fields changed by the same update (one `updateOne`, one round trip): a hit
        /// counting its minute, its hour and the total.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        also: Vec<String>,
        /// Whether copies of this field elsewhere must follow (`live`) or keep the value they
        /// had when copied (`snapshot`, e.g. the price on an order).
        #[serde(default)]
        copies: Copies,
        /// True when the change is an increment (`$inc`) rather than a `$set`.
        #[serde(default, skip_serializing_if = "is_false")]
        increment: bool,
    },
    /// Delete one entity.
    Delete {
        /// The entity deleted.
        entity: String,
    },
    /// An author posts an item to all followers (a feed relationship).
    PostFeed {
        /// The feed relationship (parent = author, child = follower).
        relationship: String,
    },
    /// A follower reads one page of the feed.
    ReadFeed {
        /// The feed relationship.
        relationship: String,
        /// Items per page.
        #[serde(default = "default_page")]
        #[cfg_attr(not(target_arch = "wasm32"), schemars(range(min = 1)))]
        page_size: u64,
    },
    /// Find the entities whose attribute (an element of an array-of-objects field, laid out by
    /// the attribute pattern) matches: the showings sold on a channel, the weapons with damage
    /// above 20.
    FindByAttribute {
        /// The owning entity.
        entity: String,
        /// The array-of-objects field holding the attributes.
        field: String,
        /// The attribute looked for (a value of the pattern's `key` field); none: any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        key: Option<String>,
        /// Only attributes whose value is greater than this.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        above: Option<f64>,
    },
    /// Read one page of an entity's documents: an optional equality on one field (or parent
    /// reference), a sort, a page size, a projection; page N by `range` (continue after the
    /// last value seen) or by `skip` ((N − 1) × limit documents skipped).
    List {
        /// The entity listed.
        entity: String,
        /// The field compared for equality (`threadId`), or none for the whole collection.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<String>,
        /// The order of the list.
        sort: Sort,
        /// Documents per page.
        #[serde(default = "default_list_limit")]
        #[cfg_attr(not(target_arch = "wasm32"), schemars(range(min = 1)))]
        limit: u64,
        /// Fields returned (empty: whole documents).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        fields: Vec<String>,
        /// Which page (1 = the first).
        #[serde(default = "default_first_page")]
        #[cfg_attr(not(target_arch = "wasm32"), schemars(range(min = 1)))]
        page: u64,
        /// How later pages are reached.
        #[serde(default)]
        paging: Paging,
    },
    /// Read a node's whole subtree (a tree relationship, see `docs/model.md`).
    ReadSubtree {
        /// The tree relationship.
        relationship: String,
    },
    /// Read a node's ancestors, up to the root.
    ReadAncestors {
        /// The tree relationship.
        relationship: String,
    },
    /// Read a node's children.
    ReadChildren {
        /// The tree relationship.
        relationship: String,
    },
    /// Insert a new node as the last child of a node.
    InsertNode {
        /// The tree relationship.
        relationship: String,
    },
    /// Move a node with its subtree under another parent.
    MoveSubtree {
        /// The tree relationship.
        relationship: String,
    },
}

impl Step {
    /// Returns the relationship a step names (`None` for the steps that name an entity).
    pub fn relationship(&self) -> Option<&str> {
        match self {
            Step::FindParents { relationship, .. }
            | Step::InsertChild { relationship }
            | Step::Reassign { relationship }
            | Step::PostFeed { relationship }
            | Step::ReadFeed { relationship, .. }
            | Step::ReadSubtree { relationship }
            | Step::ReadAncestors { relationship }
            | Step::ReadChildren { relationship }
            | Step::InsertNode { relationship }
            | Step::MoveSubtree { relationship } => Some(relationship),
            Step::Read { .. }
            | Step::Insert { .. }
            | Step::Update { .. }
            | Step::Delete { .. }
            | Step::FindByAttribute { .. }
            | Step::List { .. } => None,
        }
    }

    /// Returns the step's kind.
    pub fn op(&self) -> Op {
        match self {
            Step::Read { .. } => Op::Read,
            Step::FindParents { .. } => Op::FindParents,
            Step::InsertChild { .. } => Op::InsertChild,
            Step::Reassign { .. } => Op::Reassign,
            Step::Insert { .. } => Op::Insert,
            Step::Update { .. } => Op::Update,
            Step::Delete { .. } => Op::Delete,
            Step::PostFeed { .. } => Op::PostFeed,
            Step::ReadFeed { .. } => Op::ReadFeed,
            Step::FindByAttribute { .. } => Op::FindByAttribute,
            Step::List { .. } => Op::List,
            Step::ReadSubtree { .. } => Op::ReadSubtree,
            Step::ReadAncestors { .. } => Op::ReadAncestors,
            Step::ReadChildren { .. } => Op::ReadChildren,
            Step::InsertNode { .. } => Op::InsertNode,
            Step::MoveSubtree { .. } => Op::MoveSubtree,
        }
    }
}

/// The kind of a workload step (its `op`), without the step's data: [`Op::ALL`] is the one
/// list of step kinds that validation, the editor's forms and the docs read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Op {
    /// [`Step::Read`].
    Read,
    /// [`Step::FindParents`].
    FindParents,
    /// [`Step::InsertChild`].
    InsertChild,
    /// [`Step::Reassign`].
    Reassign,
    /// [`Step::Insert`].
    Insert,
    /// [`Step::Update`].
    Update,
    /// [`Step::Delete`].
    Delete,
    /// [`Step::PostFeed`].
    PostFeed,
    /// [`Step::ReadFeed`].
    ReadFeed,
    /// [`Step::List`].
    List,
    /// [`Step::FindByAttribute`].
    FindByAttribute,
    /// [`Step::ReadSubtree`].
    ReadSubtree,
    /// [`Step::ReadAncestors`].
    ReadAncestors,
    /// [`Step::ReadChildren`].
    ReadChildren,
    /// [`Step::InsertNode`].
    InsertNode,
    /// [`Step::MoveSubtree`].
    MoveSubtree,
}

impl Op {
    /// Every step kind, in the order the docs and the forms list them.
    pub const ALL: [Op; 16] = [
        Op::Read,
        Op::FindParents,
        Op::InsertChild,
        Op::Reassign,
        Op::Insert,
        Op::Update,
        Op::Delete,
        Op::PostFeed,
        Op::ReadFeed,
        Op::List,
        Op::FindByAttribute,
        Op::ReadSubtree,
        Op::ReadAncestors,
        Op::ReadChildren,
        Op::InsertNode,
        Op::MoveSubtree,
    ];

    /// Returns the name as written in a model (`op`).
    pub fn name(self) -> &'static str {
        match self {
            Op::Read => "read",
            Op::FindParents => "find_parents",
            Op::InsertChild => "insert_child",
            Op::Reassign => "reassign",
            Op::Insert => "insert",
            Op::Update => "update",
            Op::Delete => "delete",
            Op::PostFeed => "post_feed",
            Op::ReadFeed => "read_feed",
            Op::List => "list",
            Op::FindByAttribute => "find_by_attribute",
            Op::ReadSubtree => "read_subtree",
            Op::ReadAncestors => "read_ancestors",
            Op::ReadChildren => "read_children",
            Op::InsertNode => "insert_node",
            Op::MoveSubtree => "move_subtree",
        }
    }

    /// Returns the step kind called `name`, if there is one.
    pub fn from_name(name: &str) -> Option<Op> {
        Op::ALL.into_iter().find(|o| o.name() == name)
    }

    /// Returns the keys a step of this kind takes (`op` first) and which of them it needs.
    pub fn keys(self) -> (&'static [&'static str], &'static [&'static str]) {
        match self {
            Op::Read => (
                &["op", "entity", "by", "children", "case_insensitive"],
                &["op", "entity"],
            ),
            Op::FindParents => (&["op", "relationship", "by"], &["op", "relationship", "by"]),
            Op::InsertChild
            | Op::PostFeed
            | Op::Reassign
            | Op::ReadSubtree
            | Op::ReadAncestors
            | Op::ReadChildren
            | Op::InsertNode
            | Op::MoveSubtree => (&["op", "relationship"], &["op", "relationship"]),
            Op::Insert | Op::Delete => (&["op", "entity"], &["op", "entity"]),
            Op::Update => (
                &["op", "entity", "field", "also", "copies", "increment"],
                &["op", "entity", "field"],
            ),
            Op::ReadFeed => (
                &["op", "relationship", "page_size"],
                &["op", "relationship"],
            ),
            Op::List => (
                &[
                    "op", "entity", "by", "sort", "limit", "fields", "page", "paging",
                ],
                &["op", "entity", "sort"],
            ),
            Op::FindByAttribute => (
                &["op", "entity", "field", "key", "above"],
                &["op", "entity", "field"],
            ),
        }
    }

    /// True for the five tree steps (a subtree, the ancestors, the children of a node; insert
    /// a node; move a subtree), which need a tree relationship.
    pub fn is_tree(self) -> bool {
        matches!(
            self,
            Op::ReadSubtree
                | Op::ReadAncestors
                | Op::ReadChildren
                | Op::InsertNode
                | Op::MoveSubtree
        )
    }

    /// True when a step of this kind names an `entity` (else it names a `relationship`).
    pub fn takes_entity(self) -> bool {
        self.keys().0.contains(&"entity")
    }
}

/// How a list reaches its later pages.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Paging {
    /// Continue after the last sort value seen (`{date: {$gt: last.date}}`): the index seeks
    /// straight to the page.
    #[default]
    Range,
    /// `skip((page − 1) × limit)`: the server still walks every skipped key.
    Skip,
}

impl Paging {
    /// Both ways, in the order the docs list them.
    pub const ALL: [Paging; 2] = [Paging::Range, Paging::Skip];

    /// Returns the name as written in a model.
    pub fn as_str(self) -> &'static str {
        match self {
            Paging::Range => "range",
            Paging::Skip => "skip",
        }
    }
}

fn default_list_limit() -> u64 {
    20
}

fn default_first_page() -> u64 {
    1
}

fn default_key() -> String {
    "_id".to_string()
}

fn default_page() -> u64 {
    50
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Children read with their parent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ChildRead {
    /// The relationship followed.
    pub relationship: String,
    /// At most this many children (none: all).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(not(target_arch = "wasm32"), schemars(range(min = 1)))]
    pub limit: Option<u64>,
    /// Order of the children.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sort: Option<Sort>,
    /// Child fields the page needs (empty: all).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<String>,
}

/// A sort on one field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Sort {
    /// The field sorted on.
    pub field: String,
    /// 1 ascending, -1 descending.
    #[cfg_attr(not(target_arch = "wasm32"), schemars(extend("enum" = [1, -1])))]
    pub order: i32,
}

/// How copies of a field behave when the original changes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Copies {
    /// Copies follow every update (write amplification).
    #[default]
    Live,
    /// Copies are point-in-time and never updated.
    Snapshot,
}

impl Copies {
    /// Both behaviours, in the order the docs list them.
    pub const ALL: [Copies; 2] = [Copies::Live, Copies::Snapshot];

    /// Returns the name as written in a model.
    pub fn as_str(self) -> &'static str {
        match self {
            Copies::Live => "live",
            Copies::Snapshot => "snapshot",
        }
    }
}
