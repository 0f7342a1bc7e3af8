//! What changes between two designs: the relationships whose strategy differs, each with
//! what its parent's array and its children's documents hold on either side, and the refusal
//! (with its reason) of every change the planner does not make.

use crate::design::{Layout, Strategy};
use crate::lang::Text;
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
    let refuse = |what: Text, why: &'static str| MigrateError::Unsupported {
        what,
        why: Text::new(why),
    };
    let (m, n) = (from.model, to.model);
    if m.entities != n.entities || m.relationships != n.relationships {
        return Err(refuse(
            Text::new("migrate-what-change"),
            "migrate-why-different-model",
        ));
    }
    if m.design.fields != n.design.fields || m.design.polymorphic != n.design.polymorphic {
        return Err(refuse(
            Text::new("migrate-what-field-patterns"),
            "migrate-why-field-patterns",
        ));
    }
    for c in &to.layout.collections {
        if let Some(old) = from.layout.collection(&c.name) {
            if old.shard_key != c.shard_key {
                return Err(refuse(
                    Text::new("migrate-what-collection").arg("collection", &c.name),
                    "migrate-why-shard-key",
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
    let refuse = |why: Text| {
        Err(MigrateError::Unsupported {
            what: Text::new("migrate-what-relationship")
                .arg("relationship", &r.name)
                .arg("from", super::strategy_label(s))
                .arg("to", super::strategy_label(t)),
            why,
        })
    };
    for x in [s, t] {
        if !planned(x) {
            return refuse(Text::new("migrate-why-strategy").arg("strategy", x.name()));
        }
    }
    if matches!((s, t), (Strategy::Bucket { .. }, Strategy::Bucket { .. })) {
        return refuse(Text::new("migrate-why-bucket-size"));
    }
    if r.many_to_many {
        return refuse(Text::new("migrate-why-many-to-many"));
    }
    if r.parent == r.child {
        return refuse(Text::new("migrate-why-self"));
    }
    if r.feed.is_some() {
        return refuse(Text::new("migrate-why-feed"));
    }
    if r.parent_key.is_some() || r.child_key.is_some() {
        return refuse(Text::new("migrate-why-business-key"));
    }
    let others = m.relationships.iter().filter(|o| o.name != r.name);
    for o in others {
        if o.parent == r.child || o.child == r.child {
            return refuse(
                Text::new("migrate-why-child-elsewhere")
                    .arg("child", &r.child)
                    .arg("other", &o.name),
            );
        }
        if o.child == r.parent {
            for l in [from, to] {
                if matches!(
                    l.strategy(&o.name),
                    Some(Strategy::Embed | Strategy::EmbedSubset { .. })
                ) {
                    return refuse(
                        Text::new("migrate-why-parent-embedded")
                            .arg("parent", &r.parent)
                            .arg("other", &o.name),
                    );
                }
            }
        }
    }
    if crate::design::shape::holds_map(&from.collections, r)
        || crate::design::shape::holds_map(&to.collections, r)
    {
        return refuse(Text::new("migrate-why-map"));
    }
    if from.collection_of(&r.parent).map(|c| &c.name)
        != to.collection_of(&r.parent).map(|c| &c.name)
        || from.collection_of(&r.parent).is_none()
    {
        return refuse(Text::new("migrate-why-parent-collection").arg("parent", &r.parent));
    }
    Ok(())
}

impl Change {
    /// Returns what the application must write to both layouts from the first backfill until
    /// the switch, so that nothing written meanwhile is lost.
    pub fn dual_write(&self, model: &Model) -> Text {
        let Some(r) = model.relationship(&self.relationship) else {
            return Text::new("nothing");
        };
        let arr = if ParentArray::of(&self.source) == ParentArray::None {
            r.array_field().to_string()
        } else {
            format!("{}_next", r.array_field())
        };
        let into_parent = |id: &'static str| {
            Text::new(id)
                .arg("child", &r.child)
                .arg("parent", &r.parent)
                .arg("array", &arr)
        };
        // Children moved out of an embedded array need their own documents from the start.
        let target = if has_child_collection(&self.target) && !has_child_collection(&self.source) {
            let copies = child_copies(&self.target);
            if copies.is_empty() {
                Text::new("migrate-dual-own-collection")
            } else {
                let copies: Vec<String> = copies
                    .iter()
                    .map(|c| format!("`{}`", crate::design::names::parent_copy_field(r, c)))
                    .collect();
                Text::new("migrate-dual-own-collection-copies").arg("copies", copies.join(", "))
            }
            .arg("child", &r.child)
            .arg("reference", r.parent_ref())
        } else {
            match ParentArray::of(&self.target) {
                ParentArray::Embedded => into_parent("migrate-dual-embedded"),
                ParentArray::Subset(k) => into_parent("migrate-dual-subset").arg("k", k),
                ParentArray::Extended(_) | ParentArray::Ids => {
                    into_parent("migrate-dual-reference")
                }
                ParentArray::None if matches!(self.target, Strategy::Bucket { .. }) => {
                    Text::new("migrate-dual-bucket")
                        .arg("child", &r.child)
                        .arg("parent", &r.parent)
                        .arg(
                            "collection",
                            crate::design::names::relationship_collection_name(r, &self.target),
                        )
                }
                ParentArray::None if matches!(self.target, Strategy::LinkCollection) => {
                    Text::new("migrate-dual-link")
                        .arg("collection", &r.name)
                        .arg("child", &r.child)
                }
                ParentArray::None => Text::new("migrate-dual-parent-reference")
                    .arg("reference", r.parent_ref())
                    .arg("child", &r.child),
            }
        };
        Text::new("migrate-dual-write")
            .arg("relationship", &r.name)
            .arg("child", &r.child)
            .arg("strategy", super::strategy_label(&self.source))
            .nested("target", target)
    }
}
