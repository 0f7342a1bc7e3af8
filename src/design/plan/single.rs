//! Reads under the single-collection strategy: a parent with all its children in one query on
//! the shared key (`find({productId: product._id})`: the parent holds its own id there), or
//! the children alone by the shared key and the discriminator (`{productId: …, type:
//! "review"}`), which one compound index `{productId: 1, type: 1}` serves. In a collection
//! holding several entities (polymorphic or single), a query on one entity's own fields names
//! its type.

use bson::doc;

use super::{param, Command, CommandKind::*, Commands, Placement};
use crate::design::names::{shared_key, TYPE_FIELD};
use crate::model::design::Strategy;
use crate::model::{ChildRead, Relationship, Step};

/// Returns the children of a read of `entity` by `by` (in collection `coll`) that come with
/// the parent in one query on the shared key, each with that key: the single-collection
/// relationships whose children live in `coll` and are read whole in any order (no limit, no
/// sort: one query cannot both keep the parent and take the first N children). Empty unless
/// the read is by `_id` (by another key the parent's id is not known before its read).
pub(super) fn together<'a>(
    p: &Placement,
    entity: &str,
    by: &str,
    coll: &str,
    children: &'a [ChildRead],
) -> Vec<(&'a ChildRead, String)> {
    if by != "_id" {
        return Vec::new();
    }
    children
        .iter()
        .filter(|c| c.limit.is_none() && c.sort.is_none())
        .filter_map(|c| {
            let (r, s) = p.relationship(&c.relationship)?;
            let single = matches!(s, Strategy::SingleCollection)
                && r.parent == entity
                && p.collection_for(&r.child) == coll;
            single.then(|| (c, shared_key(r)))
        })
        .collect()
}

/// Returns the find of the children of `r` alone, in `coll`: by the shared key and the
/// discriminator.
pub(super) fn children(out: &Commands, r: &Relationship, entity: &str, coll: &str) -> Command {
    out.command(
        coll,
        Find,
        doc! {
            shared_key(r): param(format!("{entity}._id")),
            TYPE_FIELD: r.child.as_str(),
        },
        format!("{}: children by shared key and type", r.name),
    )
}

/// Adds `type: <entity>` to the filter of every command of `step` (an entity's read, list,
/// search, update or delete) that queries the entity's own fields in a collection holding
/// several entities' documents, and every find of a `list` (whatever its filter): without
/// it, the query could match another type's documents, and a partial index on the type could
/// not answer it. A lookup by `_id` (unique across the
/// collection) and a query on a single collection's shared key keep their filter.
pub(super) fn name_types<'a>(
    p: &Placement,
    step: &Step,
    commands: impl Iterator<Item = &'a mut Command>,
) {
    let Some(entity) = step_entity(step) else {
        return;
    };
    let Some(e) = p.model.entity(entity) else {
        return;
    };
    let Some(coll) = p.collection_of(entity) else {
        return;
    };
    let several = coll
        .shapes
        .iter()
        .filter(|s| s.entity.as_deref() == Some(s.label.as_str()))
        .count()
        > 1;
    if !several {
        return;
    }
    for c in commands {
        let own = c.filter.keys().any(|k| {
            let top = k.split('.').next().unwrap_or(k);
            top != "_id" && e.fields.get(top).is_some()
        });
        let by_id = c.filter.contains_key("_id");
        // A list reads one entity's documents whatever its filter (none, or the shared key,
        // which the parent's document holds too): its page must not hold another type's.
        let listing = matches!(step, Step::List { .. }) && c.kind == Find;
        if c.collection == coll.name
            && matches!(c.kind, Find | Update | Delete)
            && (own || listing)
            && !by_id
            && !c.filter.contains_key(TYPE_FIELD)
        {
            c.filter.insert(TYPE_FIELD, entity);
        }
    }
}

/// Returns the entity whose documents a query of `step`'s kind reads or changes in a
/// collection holding several entities, when the step is about one entity.
fn step_entity(step: &crate::model::Step) -> Option<&str> {
    use crate::model::Step;
    match step {
        Step::Read { entity, .. }
        | Step::List { entity, .. }
        | Step::FindByAttribute { entity, .. }
        | Step::Update { entity, .. }
        | Step::Delete { entity }
        | Step::Insert { entity } => Some(entity),
        _ => None,
    }
}
