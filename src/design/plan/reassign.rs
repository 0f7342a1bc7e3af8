//! `reassign`: move one child to another parent. The child's reference changes where the
//! child keeps one, and the arrays of both parents where they list it; under two-way
//! references that is both sides, in separate writes (no single atomic update, article 002).

use bson::{doc, Bson, Document};

use super::{order, param, CommandKind::*, Commands, Placement};
use crate::design::names::{child_key, child_ref, parent_key};
use crate::model::design::Strategy;
use crate::model::Step;

/// Appends the commands of a `reassign` step.
pub(super) fn commands(p: &Placement, step: &Step, out: &mut Commands) {
    let Step::Reassign { relationship } = step else {
        return;
    };
    let Some((r, s, pcoll, ccoll)) = p.site(relationship) else {
        return;
    };
    let arr = r.array_field().to_string();
    let pref = r.parent_ref();
    let child_id = param(format!("{}._id", r.child));
    let new_parent = param("new_parent._id");
    // What the references hold (`_id`s, or the keys `parent_key` and `child_key` name): the
    // child's reference its parent's value, the parent's array its children's.
    let new_parent_value = param(format!("new_parent.{}", parent_key(r, s)));
    let child_value = param(format!("{}.{}", r.child, child_key(r, s)));
    let set_ref = |out: &Commands| {
        let mut c = out.command(
            &ccoll,
            Update,
            doc! { "_id": child_id.clone() },
            format!("{}: point the child at its new parent", r.name),
        );
        c.update = Some(doc! { "$set": { pref.as_str(): new_parent_value.clone() } });
        c
    };
    let pull = |out: &Commands, filter: Document, element: Bson| {
        let mut c = out.command(
            &pcoll,
            Update,
            filter,
            format!("{}: remove it from the old parent", r.name),
        );
        c.update = Some(doc! { "$pull": { arr.as_str(): element } });
        c
    };
    let push = |out: &Commands, element: Bson| {
        let mut c = out.command(
            &pcoll,
            Update,
            doc! { "_id": new_parent.clone() },
            format!("{}: add it to the new parent", r.name),
        );
        c.update = Some(doc! { "$push": { arr.as_str(): element } });
        c
    };
    // Where the child does not know its parent: find the document listing it (by `matched`,
    // the id or the copy's `_id`), only its `_id` kept, then pull `element` from it.
    let unlist = |out: &mut Commands, matched: String, what: &str, element: Bson| {
        let listed = if matched == arr {
            child_value.clone()
        } else {
            child_id.clone()
        };
        let mut holder = out.command(
            &pcoll,
            Find,
            doc! { matched: listed },
            format!("{}: {what}", r.name),
        );
        holder.projection = Some(doc! { "_id": 1 });
        out.push(holder);
        out.push(pull(
            out,
            doc! { "_id": { "$in": param("holder._id") } },
            element,
        ));
    };
    match s {
        Strategy::ReferenceInChild { .. } | Strategy::SingleCollection => out.push(set_ref(out)),
        Strategy::TwoWay => {
            out.push(set_ref(out));
            out.push(pull(
                out,
                doc! { parent_key(r, s): param(format!("{}.{pref}", r.child)) },
                child_value.clone(),
            ));
            out.push(push(out, child_value.clone()));
        }
        Strategy::EmbedSubset { .. } => {
            out.push(set_ref(out));
            out.push(pull(
                out,
                doc! { "_id": param(format!("{}.{pref}", r.child)) },
                doc! { "_id": child_id.clone() }.into(),
            ));
        }
        Strategy::ReferenceInParent => {
            unlist(
                out,
                arr.clone(),
                "the parent holding it",
                child_value.clone(),
            );
            out.push(push(out, child_value.clone()));
        }
        Strategy::ExtendedReference { copy } => {
            // As references in the parent, the reference being the child's copy: found by
            // its `_id`, pulled whole, and pushed again (with the copied fields) in the order
            // the array is kept in.
            unlist(
                out,
                format!("{arr}._id"),
                "the parent holding it",
                doc! { "_id": child_id.clone() }.into(),
            );
            let mut e = doc! { "_id": child_id.clone() };
            for c in copy {
                e.insert(c.clone(), param(format!("{}.{c}", r.child)));
            }
            let kept = order::kept_copy(p.model, &r.name, copy);
            out.push(push(
                out,
                order::push(Bson::Document(e), kept.as_ref(), None),
            ));
        }
        Strategy::Continuation { threshold } => {
            // The id is in the parent or one of its continuation documents: pulled from the
            // document holding it, then appended to the new parent's chain as an insert
            // appends (the parent while it has room, its last continuation document, or a new
            // one).
            unlist(
                out,
                arr.clone(),
                "the parent holding it, or its continuation document",
                child_id.clone(),
            );
            super::insert_child::continuation(
                out,
                r,
                &pcoll,
                "new_parent",
                child_id.clone(),
                *threshold,
            );
        }
        Strategy::LinkCollection => {
            let mut c = out.command(
                &r.name,
                Update,
                doc! { child_ref(r): child_id.clone() },
                format!("{}: the link points at the new parent", r.name),
            );
            c.update = Some(doc! { "$set": { pref.as_str(): new_parent.clone() } });
            out.push(c);
        }
        Strategy::Embed => {
            // The embedded child moves whole: out of the old parent's array, into the new
            // one's, in the order the array is kept in.
            let child = param(r.child.clone());
            out.push(pull(
                out,
                doc! { "_id": param(format!("{}._id", r.parent)) },
                child.clone(),
            ));
            let kept = order::kept(p.model, &r.name);
            out.push(push(out, order::push(child, kept.as_ref(), None)));
        }
        _ => {}
    }
}
