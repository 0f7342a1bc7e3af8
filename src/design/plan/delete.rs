//! `delete`: one entity by `_id`, and the references to it that parents hold (pulled from
//! their arrays) or links hold (deleted).

use bson::doc;

use super::{param, CommandKind::*, Commands, Placement};
use crate::design::layout::child_ref;
use crate::model::design::Strategy;
use crate::model::Step;

/// Appends the commands of a `delete` step.
pub(super) fn commands(p: &Placement, step: &Step, out: &mut Commands) {
    let Step::Delete { entity } = step else {
        return;
    };
    let id = param(format!("{entity}._id"));
    let mut c = out.command(
        &p.collection_for(entity),
        Delete,
        doc! { "_id": id.clone() },
        format!("delete {entity}"),
    );
    c.multi = false;
    out.push(c);
    super::files::deletes(p, out, entity);
    for r in p.model.relationships.iter().filter(|r| &r.child == entity) {
        let coll = p.collection_for(&r.parent);
        let arr = r.array_field();
        match p.strategy(&r.name) {
            Some(
                Strategy::ReferenceInParent | Strategy::TwoWay | Strategy::Continuation { .. },
            ) => {
                let mut u = out.command(
                    &coll,
                    Update,
                    doc! { arr: id.clone() },
                    format!("{}: remove the reference", r.name),
                );
                u.update = Some(doc! { "$pull": { arr: id.clone() } });
                u.multi = r.many_to_many;
                out.push(u);
            }
            Some(Strategy::ExtendedReference { .. }) => {
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
