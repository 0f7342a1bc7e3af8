//! `find_parents`: the parents whose children have a given value (products using part X).
//! Where the children (or copies of the compared field) live in the parent, one find on the
//! parents does; otherwise the children are found first, then their parents (through the
//! links or buckets that connect them, when they do).

use bson::doc;

use super::{param, CommandKind::Find, Commands, Placement};
use crate::design::layout::{child_ref, relationship_collection_name};
use crate::model::design::Strategy;
use crate::model::Step;

/// Appends the commands of a `find_parents` step.
pub(super) fn commands(p: &Placement, step: &Step, out: &mut Commands) {
    let Step::FindParents { relationship, by } = step else {
        return;
    };
    let Some((r, s, pcoll, ccoll)) = p.site(relationship) else {
        return;
    };
    let arr = r.array_field();
    let value = param(format!("{}.{by}", r.child));
    let note = format!("{}: parents by child {by}", r.name);
    let child_lookup = out.command(
        &ccoll,
        Find,
        doc! { by.as_str(): value.clone() },
        format!("{}: children with that {by}", r.name),
    );
    match s {
        Strategy::Embed | Strategy::EmbedSubset { .. } => {
            out.push(out.command(&pcoll, Find, doc! { format!("{arr}.{by}"): value }, note));
        }
        Strategy::ExtendedReference { copy } if copy.contains(by) => {
            out.push(out.command(&pcoll, Find, doc! { format!("{arr}.{by}"): value }, note));
        }
        Strategy::ExtendedReference { .. } => {
            out.push(child_lookup);
            out.push(out.command(
                &pcoll,
                Find,
                doc! { format!("{arr}._id"): { "$in": param("children._id") } },
                note,
            ));
        }
        Strategy::ReferenceInParent | Strategy::Continuation { .. } => {
            out.push(child_lookup);
            out.push(out.command(
                &pcoll,
                Find,
                doc! { arr: { "$in": param("children._id") } },
                note,
            ));
        }
        Strategy::ReferenceInChild { .. } | Strategy::TwoWay => {
            out.push(child_lookup);
            out.push(out.command(
                &pcoll,
                Find,
                doc! { "_id": { "$in": param(format!("children.{}", r.parent_ref())) } },
                note,
            ));
        }
        Strategy::LinkCollection => {
            out.push(child_lookup);
            out.push(out.command(
                &r.name,
                Find,
                doc! { child_ref(r): { "$in": param("children._id") } },
                format!("{}: links of those children", r.name),
            ));
            out.push(out.command(
                &pcoll,
                Find,
                doc! { "_id": { "$in": param(format!("links.{}", r.parent_ref())) } },
                note,
            ));
        }
        Strategy::Bucket { .. } => {
            let filter = if r.many_to_many {
                doc! { arr: { "$in": param("children._id") } }
            } else {
                doc! { format!("{arr}.{by}"): value }
            };
            if r.many_to_many {
                out.push(child_lookup);
            }
            out.push(out.command(
                &relationship_collection_name(r, s),
                Find,
                filter,
                format!("{}: buckets holding them", r.name),
            ));
            out.push(out.command(
                &pcoll,
                Find,
                doc! { "_id": { "$in": param(format!("buckets.{}", r.parent_ref())) } },
                note,
            ));
        }
        _ => {}
    }
}
