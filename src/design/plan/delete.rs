//! `delete`: one entity by `_id` (its own document, or the element embedding it), and what
//! lists it: the references and copies its parents hold (pulled from their arrays, a subset's
//! copy included), the buckets holding it (pulled, their count lowered) and its links
//! (deleted). A subset that loses a child keeps one fewer until the next insert; the
//! documents of the entity's own children are the application's to delete (nothing cascades).

use bson::doc;

use super::{param, CommandKind::*, Commands, Placement};
use crate::design::names::{child_key, child_ref, relationship_collection_name, BUCKET_COUNT};
use crate::model::design::Strategy;
use crate::model::Step;

/// Appends the commands of a `delete` step.
pub(super) fn commands(p: &Placement, step: &Step, out: &mut Commands) {
    let Step::Delete { entity } = step else {
        return;
    };
    let id = param(format!("{entity}._id"));
    // An entity without a collection of its own lives in its parents' arrays or buckets:
    // removed from them below.
    if p.collection_of(entity).is_some() {
        let mut c = out.command(
            &p.collection_for(entity),
            Delete,
            doc! { "_id": id.clone() },
            format!("delete {entity}"),
        );
        c.multi = false;
        out.push(c);
    }
    super::files::deletes(p, out, entity);
    for r in p.model.relationships.iter().filter(|r| &r.child == entity) {
        let coll = p.collection_for(&r.parent);
        let arr = r.array_field();
        match p.strategy(&r.name) {
            Some(
                Strategy::ReferenceInParent | Strategy::TwoWay | Strategy::Continuation { .. },
            ) => {
                // The array holds the child's `_id`, or its key (`child_key`).
                let listed = match p.strategy(&r.name) {
                    Some(s) if child_key(r, s) != "_id" => {
                        param(format!("{entity}.{}", child_key(r, s)))
                    }
                    _ => id.clone(),
                };
                let mut u = out.command(
                    &coll,
                    Update,
                    doc! { arr: listed.clone() },
                    format!("{}: remove the reference", r.name),
                );
                u.update = Some(doc! { "$pull": { arr: listed } });
                u.multi = r.many_to_many;
                out.push(u);
            }
            Some(Strategy::ExtendedReference { .. } | Strategy::EmbedSubset { .. }) => {
                let mut u = out.command(
                    &coll,
                    Update,
                    doc! { format!("{arr}._id"): id.clone() },
                    format!("{}: remove the reference", r.name),
                );
                u.update = Some(doc! { "$pull": { arr: { "_id": id.clone() } } });
                u.multi = r.many_to_many;
                out.push(u);
            }
            Some(s @ Strategy::Bucket { .. }) => {
                // A bucket holds the child's id (many-to-many) or the child itself, found by
                // its `_id` where it has one, else matched whole.
                let (filter, element) = if r.many_to_many {
                    (doc! { arr: id.clone() }, id.clone())
                } else if p.collection_of(entity).is_some() || declares_id(p, entity) {
                    (
                        doc! { format!("{arr}._id"): id.clone() },
                        doc! { "_id": id.clone() }.into(),
                    )
                } else {
                    let child = param(entity.clone());
                    (doc! { arr: child.clone() }, child)
                };
                let mut u = out.command(
                    &relationship_collection_name(r, s),
                    Update,
                    filter,
                    format!("{}: remove it from its bucket", r.name),
                );
                u.update = Some(doc! { "$pull": { arr: element }, "$inc": { BUCKET_COUNT: -1 } });
                u.multi = r.many_to_many;
                out.push(u);
            }
            Some(Strategy::Embed) if p.collection_of(entity).is_none() => {
                // The embedded element, by its `_id` where the model declares one, else
                // matched whole: from its parent, or from every parent holding a copy.
                let (held, child) = if declares_id(p, entity) {
                    (
                        doc! { format!("{arr}._id"): id.clone() },
                        doc! { "_id": id.clone() }.into(),
                    )
                } else {
                    let child = param(entity.clone());
                    (doc! { arr: child.clone() }, child)
                };
                let filter = if r.many_to_many {
                    held
                } else {
                    doc! { "_id": param(format!("{}._id", r.parent)) }
                };
                let mut u = out.command(
                    &coll,
                    Update,
                    filter,
                    format!("{}: remove it from its parent", r.name),
                );
                u.update = Some(doc! { "$pull": { arr: child } });
                u.multi = r.many_to_many;
                out.push(u);
            }
            Some(Strategy::LinkCollection) => {
                let mut d = out.command(
                    &r.name,
                    Delete,
                    doc! { child_ref(r): id.clone() },
                    format!("{}: remove the links", r.name),
                );
                d.multi = true;
                out.push(d);
            }
            _ => {}
        }
    }
}

/// Returns whether the model declares an `_id` field for `entity` (an embedded or bucketed
/// element has none otherwise).
fn declares_id(p: &Placement, entity: &str) -> bool {
    p.model
        .entity(entity)
        .is_some_and(|e| e.fields.get("_id").is_some())
}
