//! `find_parents`: the parents whose children have a given value (products using part X).
//! Where every child (or a copy of the compared field of every child) lives in the parent, one
//! find on the parents does (not an embedded subset: it holds only `k` of them); otherwise the children are found first, then their parents (through the
//! links or buckets that connect them, when they do).
//!
//! The parents are the step's result and come with their own fields, without the reference
//! arrays the design keeps in them for this relationship; the children, links and buckets found
//! on the way are projected to the one field the next find binds (`children._id`,
//! `children.userId`, `links.productId`, …), as an application would read them.

use bson::{doc, Bson, Document};

use super::{param, CommandKind::Find, Commands, Placement};
use crate::design::names::{
    child_key, child_ref, parent_key, relationship_collection_name, CONTINUATION_FIELD,
};
use crate::model::design::Strategy;
use crate::model::{Relationship, Step};

/// The note's end of the find of the documents (parents and continuation documents) that hold
/// a child's id under `continuation`; the run keeps what it returns as `holders`.
pub const HOLDERS: &str = "documents holding them";

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
    // The children with that value, projected to what the next find binds of them.
    let child_lookup = |out: &Commands, bound: &str| {
        let mut c = out.command(
            &ccoll,
            Find,
            doc! { by.as_str(): value.clone() },
            format!("{}: children with that {by}", r.name),
        );
        c.projection = Some(if bound == "_id" {
            doc! { "_id": 1 }
        } else {
            doc! { bound: 1, "_id": 0 }
        });
        c
    };
    // The parents' find, by a filter on their collection.
    let parents =
        |out: &Commands, filter: Document| out.command(&pcoll, Find, filter, note.clone());
    match s {
        Strategy::Embed => {
            out.push(parents(out, doc! { format!("{arr}.{by}"): value.clone() }));
        }
        Strategy::ExtendedReference { copy } if copy.contains(by) => {
            out.push(parents(out, doc! { format!("{arr}.{by}"): value.clone() }));
        }
        Strategy::ExtendedReference { .. } => {
            out.push(child_lookup(out, "_id"));
            out.push(parents(
                out,
                doc! { format!("{arr}._id"): { "$in": param("children._id") } },
            ));
        }
        Strategy::Continuation { .. } => {
            // The ids live in the parents and in their continuation documents (same
            // collection, linked only from the parent's `tbc`): the documents holding them
            // (the parents among them are answers, with their own fields), then the parents
            // listing the others in `tbc` (an id that is a parent's own is in no `tbc`).
            out.push(child_lookup(out, "_id"));
            let mut holders = out.command(
                &pcoll,
                Find,
                doc! { arr: { "$in": param("children._id") } },
                format!("{}: {HOLDERS}", r.name),
            );
            holders.projection = Some(doc! { arr: 0, CONTINUATION_FIELD: 0 });
            out.push(holders);
            out.push(parents(
                out,
                doc! { CONTINUATION_FIELD: { "$in": param("holders._id") } },
            ));
        }
        Strategy::ReferenceInParent => {
            // The parents' arrays hold the children's `_id`s, or their key (`child_key`).
            let ckey = child_key(r, s);
            out.push(child_lookup(out, ckey));
            out.push(parents(
                out,
                doc! { arr: { "$in": param(format!("children.{ckey}")) } },
            ));
        }
        // An embedded subset holds only `k` of the children (and a many-to-many's copies no
        // `_id`): every child is in the children's collection with its parent reference.
        Strategy::ReferenceInChild { .. }
        | Strategy::TwoWay
        | Strategy::SingleCollection
        | Strategy::EmbedSubset { .. } => {
            out.push(child_lookup(out, &r.parent_ref()));
            out.push(parents(
                out,
                doc! { parent_key(r, s): { "$in": param(format!("children.{}", r.parent_ref())) } },
            ));
        }
        Strategy::LinkCollection => {
            out.push(child_lookup(out, "_id"));
            let pref = r.parent_ref();
            let mut links = out.command(
                &r.name,
                Find,
                doc! { child_ref(r): { "$in": param("children._id") } },
                format!("{}: links of those children", r.name),
            );
            links.projection = Some(doc! { pref.as_str(): 1, "_id": 0 });
            out.push(links);
            out.push(parents(
                out,
                doc! { "_id": { "$in": param(format!("links.{}", r.parent_ref())) } },
            ));
        }
        Strategy::Bucket { .. } => {
            let filter = if r.many_to_many {
                doc! { arr: { "$in": param("children._id") } }
            } else {
                doc! { format!("{arr}.{by}"): value.clone() }
            };
            if r.many_to_many {
                out.push(child_lookup(out, "_id"));
            }
            let pref = r.parent_ref();
            let mut buckets = out.command(
                &relationship_collection_name(r, s),
                Find,
                filter,
                format!("{}: buckets holding them", r.name),
            );
            buckets.projection = Some(doc! { pref.as_str(): 1, "_id": 0 });
            out.push(buckets);
            out.push(parents(
                out,
                doc! { "_id": { "$in": param(format!("buckets.{}", r.parent_ref())) } },
            ));
        }
        _ => {}
    }
    leave_out_design_arrays(out, r, s, &note);
}

/// Projects the parents' finds of the step (those noted `note`) to leave out the arrays
/// relationship `r` under strategy `s` keeps in them: the ids that found them are not what the
/// step reads (article 000: "following" and "followers" need not even be returned).
fn leave_out_design_arrays(out: &mut Commands, r: &Relationship, s: &Strategy, note: &str) {
    let leave_out = design_arrays(r, s);
    if !leave_out.is_empty() {
        for c in out
            .list
            .iter_mut()
            .filter(|c| c.step == out.step && c.note == *note)
        {
            c.projection = Some(
                leave_out
                    .iter()
                    .map(|f| (f.clone(), Bson::Int32(0)))
                    .collect(),
            );
        }
    }
}

/// Returns the fields relationship `r` under strategy `s` adds to its parents' documents to
/// hold references or copies of other entities (the array of child ids, the continuation
/// list, copied fields, the embedded copies of a many-to-many relationship's children, the
/// parent's own reference when a relationship links an entity to itself): not the parent's
/// own data. A one-to-many relationship's embedded children are the parent's own: they stay.
fn design_arrays(r: &Relationship, s: &Strategy) -> Vec<String> {
    let arr = r.array_field().to_string();
    let mut out = match s {
        Strategy::ReferenceInParent | Strategy::TwoWay | Strategy::ExtendedReference { .. } => {
            vec![arr]
        }
        Strategy::Embed | Strategy::EmbedSubset { .. } if r.many_to_many => vec![arr],
        Strategy::Continuation { .. } => vec![arr, CONTINUATION_FIELD.to_string()],
        _ => vec![],
    };
    let own_ref = matches!(s, Strategy::ReferenceInChild { .. } | Strategy::TwoWay);
    if r.parent == r.child && own_ref && !out.contains(&r.parent_ref()) {
        out.push(r.parent_ref());
    }
    out
}
