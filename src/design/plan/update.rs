//! `update`: change one field (and its `also` fields) of one entity, one `updateOne` by `_id`
//! (`$set`, or `$inc` for an increment: one slot of a slotted counter object), or a positional
//! update of the array that embeds the entity. Live copies of the field elsewhere follow, one
//! `updateMany` per copy (every element of an array holding the copy: `$[copy]` with
//! `arrayFilters`); snapshot copies keep the value they had.

use bson::{doc, Bson, Document};

use super::{param, CommandKind::Update, Commands, Placement};
use crate::design::names::relationship_collection_name;
use crate::model::design::{FieldPattern, Strategy};
use crate::model::{Copies, Model, Relationship, Step};

/// Appends the commands of an `update` step.
pub(super) fn commands(p: &Placement, step: &Step, out: &mut Commands) {
    let Step::Update {
        entity,
        field,
        also,
        copies,
        increment,
    } = step
    else {
        return;
    };
    let op = if *increment { "$inc" } else { "$set" };
    let value = if *increment {
        increment_by(p.model, entity, field)
    } else {
        param(format!("new.{field}"))
    };
    let id = param(format!("{entity}._id"));
    if let (None, Some(r)) = (p.collection_of(entity), p.embedding_of(entity)) {
        let arr = r.array_field();
        // In its parent's document (every parent's copy, many-to-many), found by its old
        // value: an embedded element has no `_id` of its own to find it by.
        let mut filter = Document::new();
        if !r.many_to_many {
            filter.insert("_id", param(format!("{}._id", r.parent)));
        }
        filter.insert(format!("{arr}.{field}"), param(format!("old.{field}")));
        let mut c = out.command(
            &p.collection_for(&r.parent),
            Update,
            filter,
            format!("update embedded {entity}"),
        );
        c.update = Some(doc! { op: { format!("{arr}.$.{field}"): value.clone() } });
        c.multi = r.many_to_many;
        out.push(c);
    } else if let (None, Some((r, s))) = (p.collection_of(entity), bucketing_of(p, entity)) {
        // A one-to-many child kept in buckets without an `_id`: the bucket's element that is
        // the child, matched whole (as its delete matches it), changed in place.
        let arr = r.array_field();
        let mut c = out.command(
            &relationship_collection_name(r, s),
            Update,
            doc! { arr: param(entity.clone()) },
            format!("update {entity} in its bucket"),
        );
        let changes = changes(p.model, entity, field, also, *increment, &|f| {
            format!("{arr}.$.{f}")
        });
        c.update = Some(doc! { op: changes });
        out.push(c);
    } else {
        let changes = changes(p.model, entity, field, also, *increment, &|f| {
            counter_path(p.model, entity, f, *increment)
        });
        let what = std::iter::once(field)
            .chain(also)
            .map(String::as_str)
            .collect::<Vec<_>>()
            .join(", ");
        let mut c = out.command(
            &p.collection_for(entity),
            Update,
            doc! { "_id": id.clone() },
            format!("update {entity}.{what}"),
        );
        c.update = Some(doc! { op: changes });
        out.push(c);
    }
    if *copies == Copies::Snapshot {
        return;
    }
    for coll in p.collections {
        for shape in &coll.shapes {
            for cf in shape
                .copied
                .iter()
                .filter(|c| &c.entity == entity && &c.source == field)
            {
                let Some(r) = p.model.relationship(&cf.relationship) else {
                    continue;
                };
                // A copy of a child in its parents' arrays: every element with its `_id`
                // (`$[copy]`; the positional `$` would change only the first of a child
                // listed twice).
                let (filter, path, array_filters) = if r.child == *entity {
                    (
                        doc! { format!("{}._id", r.array_field()): id.clone() },
                        format!("{}.$[copy].{field}", r.array_field()),
                        vec![doc! { "copy._id": id.clone() }],
                    )
                } else {
                    (doc! { r.parent_ref(): id.clone() }, cf.path.clone(), vec![])
                };
                let mut c = out.command(
                    &coll.name,
                    Update,
                    filter,
                    format!("live copy {} via {}", cf.path, r.name),
                );
                c.update = Some(doc! { op: { path: value.clone() } });
                c.array_filters = array_filters;
                c.multi = true;
                out.push(c);
            }
        }
    }
}

/// Returns the `$set` (or `$inc`) document of an update of `field` and `also`: each at the
/// path `path` gives it, to its new value (or by its increment).
fn changes(
    model: &Model,
    entity: &str,
    field: &String,
    also: &[String],
    increment: bool,
    path: &dyn Fn(&str) -> String,
) -> Document {
    let mut out = Document::new();
    for f in std::iter::once(field).chain(also) {
        let v = if increment {
            increment_by(model, entity, f)
        } else {
            param(format!("new.{f}"))
        };
        out.insert(path(f), v);
    }
    out
}

/// Returns the one-to-many relationship that keeps `entity` in buckets, with its strategy,
/// when one does.
fn bucketing_of<'p>(p: &'p Placement, entity: &str) -> Option<(&'p Relationship, &'p Strategy)> {
    p.model
        .relationships
        .iter()
        .find_map(|r| match p.strategy(&r.name) {
            Some(s @ Strategy::Bucket { .. }) if r.child == entity && !r.many_to_many => {
                Some((r, s))
            }
            _ => None,
        })
}

/// Returns the path an update of `field` changes: the field itself, or for an increment of a
/// slotted counter object (a `preallocated` pattern, or the same counters created on demand
/// where the pattern is not used) one slot in the middle of the object, `minutes.180`: a hit
/// counts in its minute.
fn counter_path(model: &Model, entity: &str, field: &str, increment: bool) -> String {
    if !increment {
        return field.to_string();
    }
    let declared = model
        .entity(entity)
        .is_some_and(|e| e.fields.get(field).is_some());
    let slots = model
        .design
        .fields
        .iter()
        .chain(
            model
                .preset
                .iter()
                .flat_map(|p| p.custom_designs.values())
                .flat_map(|d| d.fields.iter()),
        )
        .find_map(|p| match p {
            FieldPattern::Preallocated {
                entity: e,
                field: f,
                slots,
            } if e == entity && f == field => Some(*slots),
            _ => None,
        });
    match slots {
        Some(n) if !declared => format!("{field}.{}", n / 2),
        _ => field.to_string(),
    }
}

/// Returns what an increment of `entity.field` adds: 1, or `every` for a counter the design
/// approximates (written once every `every` events, by `every`).
pub fn increment_by(model: &Model, entity: &str, field: &str) -> Bson {
    model
        .design
        .fields
        .iter()
        .find_map(|p| match p {
            FieldPattern::Approximate {
                entity: e,
                field: f,
                every,
            } if e == entity && f == field => {
                Some(Bson::Int64(i64::try_from(*every).unwrap_or(i64::MAX)))
            }
            _ => None,
        })
        .unwrap_or(Bson::Int32(1))
}
