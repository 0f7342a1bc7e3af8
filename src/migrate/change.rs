//! What changes between two designs: the relationships whose strategy differs, each with
//! what its parent's array and its children's documents hold on either side, and the refusal
//! (with its reason) of every change the planner does not make.

use crate::design::{Layout, Strategy};
use crate::model::{Model, Relationship};

use super::{MigrateError, Side};

/// One relationship's change of strategy.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// The relationship.
    pub relationship: String,
    /// Its strategy in the source design.
    pub source: Strategy,
    /// Its strategy in the target design.
    pub target: Strategy,
}

/// What a parent's array of a relationship holds under a strategy.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum ParentArray {
    /// No array: the children (or a link collection) know their parent.
    None,
    /// Every child, embedded.
    Embedded,
    /// The first `k` children in the kept order, embedded with their `_id`.
    Subset(u64),
    /// `{_id, …copies}` of every child.
    Extended(Vec<String>),
    /// The ids of every child.
    Ids,
}

impl ParentArray {
    /// Returns what the parent's array holds under `s`.
    pub(super) fn of(s: &Strategy) -> ParentArray {
        match s {
            Strategy::Embed => ParentArray::Embedded,
            Strategy::EmbedSubset { k } => ParentArray::Subset(*k),
            Strategy::ExtendedReference { copy } => ParentArray::Extended(copy.clone()),
            Strategy::ReferenceInParent | Strategy::TwoWay => ParentArray::Ids,
            _ => ParentArray::None,
        }
    }
}

/// True when the children live in a collection of their own under `s` (not embedded in
/// their parent, nor in buckets).
pub(super) fn has_child_collection(s: &Strategy) -> bool {
    !matches!(s, Strategy::Embed | Strategy::Bucket { .. })
}

/// True when each child keeps its parent's id under `s`.
pub(super) fn child_holds_parent(s: &Strategy) -> bool {
    matches!(
        s,
        Strategy::EmbedSubset { .. } | Strategy::ReferenceInChild { .. } | Strategy::TwoWay
    )
}

/// Returns the parent fields each child copies under `s`.
pub(super) fn child_copies(s: &Strategy) -> &[String] {
    match s {
        Strategy::ReferenceInChild { copy } => copy,
        _ => &[],
    }
}

/// True for the strategies the planner moves between.
fn planned(s: &Strategy) -> bool {
    matches!(
        s,
        Strategy::Embed
            | Strategy::EmbedSubset { .. }
            | Strategy::ExtendedReference { .. }
            | Strategy::ReferenceInParent
            | Strategy::ReferenceInChild { .. }
            | Strategy::TwoWay
            | Strategy::LinkCollection
            | Strategy::Bucket { .. }
    )
}

/// Returns the changes from `from` to `to`, or why they are not planned.
pub(super) fn between(from: Side, to: Side) -> Result<Vec<Change>, MigrateError> {
    let refuse = |what: &str, why: &str| MigrateError::Unsupported {
        what: what.to_string(),
        why: why.to_string(),
    };
    let (m, n) = (from.model, to.model);
    if m.entities != n.entities || m.relationships != n.relationships {
        return Err(refuse(
            "the change",
            "the two designs describe different entities or relationships; a migration moves one model's data between two of its designs",
        ));
    }
    if m.design.fields != n.design.fields || m.design.polymorphic != n.design.polymorphic {
        return Err(refuse(
            "the field patterns",
            "the designs differ in their field patterns (attributes, computed fields, GridFS, versions, polymorphic collections); only relationship strategies and indexes are migrated",
        ));
    }
    for c in &to.layout.collections {
        if let Some(old) = from.layout.collection(&c.name) {
            if old.shard_key != c.shard_key {
                return Err(refuse(
                    &c.name,
                    "its shard key changes; resharding (reshardCollection) is not planned",
                ));
            }
        }
    }
    let mut out = Vec::new();
    for r in &m.relationships {
        let (Some(s), Some(t)) = (from.layout.strategy(&r.name), to.layout.strategy(&r.name))
        else {
            continue;
        };
        if s == t {
            continue;
        }
        check_relationship(m, from.layout, to.layout, r, s, t)?;
        out.push(Change {
            relationship: r.name.clone(),
            source: s.clone(),
            target: t.clone(),
        });
    }
    Ok(out)
}

/// Refuses a change of `r` from `s` to `t` the planner does not make, naming why.
fn check_relationship(
    m: &Model,
    from: &Layout,
    to: &Layout,
    r: &Relationship,
    s: &Strategy,
    t: &Strategy,
) -> Result<(), MigrateError> {
    let refuse = |why: String| {
        Err(MigrateError::Unsupported {
            what: format!(
                "relationship {} ({} → {})",
                r.name,
                super::strategy_label(s),
                super::strategy_label(t)
            ),
            why,
        })
    };
    for x in [s, t] {
        if !planned(x) {
            return refuse(format!(
                "moving from or to {} is not planned yet (planned: embed, embed_subset, extended_reference, reference_in_parent, reference_in_child, two_way, link_collection, bucket)",
                x.name()
            ));
        }
    }
    if matches!((s, t), (Strategy::Bucket { .. }, Strategy::Bucket { .. })) {
        return refuse("changing a bucket's size is not planned yet".into());
    }
    if r.many_to_many {
        return refuse("a many-to-many relationship is not planned yet".into());
    }
    if r.parent == r.child {
        return refuse("a relationship of an entity to itself is not planned yet".into());
    }
    if r.feed.is_some() {
        return refuse("a feed is not planned yet".into());
    }
    if r.parent_key.is_some() || r.child_key.is_some() {
        return refuse(
            "references by a business key (parent_key, child_key) are not planned yet".into(),
        );
    }
    let others = m.relationships.iter().filter(|o| o.name != r.name);
    for o in others {
        if o.parent == r.child || o.child == r.child {
            return refuse(format!(
                "its child {} takes part in relationship {} too; only a child with no other relationship is moved",
                r.child, o.name
            ));
        }
        if o.child == r.parent {
            for l in [from, to] {
                if matches!(
                    l.strategy(&o.name),
                    Some(Strategy::Embed | Strategy::EmbedSubset { .. })
                ) {
                    return refuse(format!(
                        "its parent {} is embedded (relationship {}) in one of the designs",
                        r.parent, o.name
                    ));
                }
            }
        }
    }
    if crate::design::shape::holds_map(&from.collections, r)
        || crate::design::shape::holds_map(&to.collections, r)
    {
        return refuse("the map pattern is not planned yet".into());
    }
    if from.collection_of(&r.parent).map(|c| &c.name)
        != to.collection_of(&r.parent).map(|c| &c.name)
        || from.collection_of(&r.parent).is_none()
    {
        return refuse(format!(
            "the parent {} must keep one collection of its own in both designs",
            r.parent
        ));
    }
    Ok(())
}

impl Change {
    /// Returns what the application must write to both layouts from the first backfill until
    /// the switch, so that nothing written meanwhile is lost.
    pub fn dual_write(&self, model: &Model) -> String {
        let Some(r) = model.relationship(&self.relationship) else {
            return String::new();
        };
        let arr = if ParentArray::of(&self.source) == ParentArray::None {
            r.array_field().to_string()
        } else {
            format!("{}_next", r.array_field())
        };
        let target = match ParentArray::of(&self.target) {
            ParentArray::Embedded => {
                format!(
                    "push each new {} into its {}'s `{arr}` too",
                    r.child, r.parent
                )
            }
            ParentArray::Subset(k) => format!(
                "push each new {} into its {}'s `{arr}` too, kept to {k}",
                r.child, r.parent
            ),
            ParentArray::Extended(_) | ParentArray::Ids => format!(
                "push each new {}'s reference into its {}'s `{arr}` too",
                r.child, r.parent
            ),
            ParentArray::None if matches!(self.target, Strategy::Bucket { .. }) => format!(
                "push each new {} into its {}'s newest bucket in `{}` too (a new bucket when it is full)",
                r.child,
                r.parent,
                crate::design::names::relationship_collection_name(r, &self.target)
            ),
            ParentArray::None if matches!(self.target, Strategy::LinkCollection) => {
                format!("insert a link into `{}` for each new {}", r.name, r.child)
            }
            ParentArray::None => format!("set `{}` on each new {}", r.parent_ref(), r.child),
        };
        // Children moved out of an embedded array need their own documents from the start.
        let target = if has_child_collection(&self.target) && !has_child_collection(&self.source) {
            let copies = child_copies(&self.target);
            let with = if copies.is_empty() {
                format!("`{}`", r.parent_ref())
            } else {
                format!(
                    "`{}` and the copies {}",
                    r.parent_ref(),
                    copies
                        .iter()
                        .map(|c| format!("`{}`", crate::design::names::parent_copy_field(r, c)))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            format!(
                "insert each new {} into its own collection too, with {with}",
                r.child
            )
        } else {
            target
        };
        format!(
            "{}: while the backfill runs, keep writing {} as {} does, and {}; delete and update both copies; the batch a write falls in must be run again if it ran before the write",
            r.name,
            r.child,
            super::strategy_label(&self.source),
            target
        )
    }
}
