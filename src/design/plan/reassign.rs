//! `reassign`: move one child to another parent. The child's reference changes where the
//! child keeps one, and the arrays of both parents where they list it; under two-way
//! references that is both sides, in separate writes (no single atomic update, article 002).

use bson::{doc, Bson, Document};

use super::{order, param, Command, CommandKind::*, Commands, Placement};
use crate::design::names::{child_key, child_ref, parent_key};
use crate::model::design::Strategy;
use crate::model::{Relationship, Step};

/// Appends the commands of a `reassign` step.
pub(super) fn commands(p: &Placement, step: &Step, out: &mut Commands) {
    let Step::Reassign { relationship } = step else {
        return;
    };
    let Some((r, s, pcoll, ccoll)) = p.site(relationship) else {
        return;
    };
    let w = Reassignment {
        r,
        pcoll,
        ccoll,
        arr: r.array_field().to_string(),
        pref: r.parent_ref(),
        child_id: param(format!("{}._id", r.child)),
        new_parent: param("new_parent._id"),
        new_parent_value: param(format!("new_parent.{}", parent_key(r, s))),
        child_value: param(format!("{}.{}", r.child, child_key(r, s))),
    };
    match s {
        Strategy::ReferenceInChild { .. } | Strategy::SingleCollection => out.push(w.set_ref(out)),
        Strategy::TwoWay => {
            out.push(w.set_ref(out));
            out.push(w.pull(
                out,
                doc! { parent_key(r, s): param(format!("{}.{}", r.child, w.pref)) },
                w.child_value.clone(),
            ));
            out.push(w.push(out, w.child_value.clone()));
        }
        Strategy::EmbedSubset { .. } => {
            out.push(w.set_ref(out));
            out.push(w.pull(
                out,
                doc! { "_id": param(format!("{}.{}", r.child, w.pref)) },
                doc! { "_id": w.child_id.clone() }.into(),
            ));
        }
        Strategy::ReferenceInParent => {
            w.unlist(
                out,
                w.arr.clone(),
                "the parent holding it",
                w.child_value.clone(),
            );
            out.push(w.push(out, w.child_value.clone()));
        }
        Strategy::ExtendedReference { copy } => {
            // As references in the parent, the reference being the child's copy: found by
            // its `_id`, pulled whole, and pushed again (with the copied fields) in the order
            // the array is kept in.
            w.unlist(
                out,
                format!("{}._id", w.arr),
                "the parent holding it",
                doc! { "_id": w.child_id.clone() }.into(),
            );
            let mut e = doc! { "_id": w.child_id.clone() };
            for c in copy {
                e.insert(c.clone(), param(format!("{}.{c}", r.child)));
            }
            let kept = order::kept_copy(p.model, &r.name, copy);
            out.push(w.push(out, order::push(Bson::Document(e), kept.as_ref(), None)));
        }
        Strategy::Continuation { threshold } => {
            // The id is in the parent or one of its continuation documents: pulled from the
            // document holding it, then appended to the new parent's chain as an insert
            // appends (the parent while it has room, its last continuation document, or a new
            // one).
            w.unlist(
                out,
                w.arr.clone(),
                "the parent holding it, or its continuation document",
                w.child_id.clone(),
            );
            super::insert_child::continuation(
                out,
                r,
                &w.pcoll,
                "new_parent",
                w.child_id.clone(),
                *threshold,
            );
        }
        Strategy::LinkCollection => {
            let mut c = out.command(
                &r.name,
                Update,
                doc! { child_ref(r): w.child_id.clone() },
                format!("{}: the link points at the new parent", r.name),
            );
            c.update = Some(doc! { "$set": { w.pref.as_str(): w.new_parent.clone() } });
            out.push(c);
        }
        Strategy::Embed => {
            // The embedded child moves whole: out of the old parent's array, into the new
            // one's, in the order the array is kept in.
            let child = param(r.child.clone());
            out.push(w.pull(
                out,
                doc! { "_id": param(format!("{}._id", r.parent)) },
                child.clone(),
            ));
            let kept = order::kept(p.model, &r.name);
            out.push(w.push(out, order::push(child, kept.as_ref(), None)));
        }
        _ => {}
    }
}

/// The writes of one `reassign` share: the relationship, its two collections and the values
/// the references hold, with one method per kind of write.
struct Reassignment<'a> {
    r: &'a Relationship,
    /// The parents' collection.
    pcoll: String,
    /// The children's collection.
    ccoll: String,
    /// The parent's array of the children.
    arr: String,
    /// The child's reference to its parent.
    pref: String,
    /// The child's `_id`.
    child_id: Bson,
    /// The new parent's `_id`.
    new_parent: Bson,
    /// What the child's reference holds of the new parent: its `_id`, or the key
    /// `parent_key` names.
    new_parent_value: Bson,
    /// What the parent's array holds of the child: its `_id`, or the key `child_key` names.
    child_value: Bson,
}

impl Reassignment<'_> {
    /// Returns the update pointing the child's reference at its new parent.
    fn set_ref(&self, out: &Commands) -> Command {
        let mut c = out.command(
            &self.ccoll,
            Update,
            doc! { "_id": self.child_id.clone() },
            format!("{}: point the child at its new parent", self.r.name),
        );
        c.update = Some(doc! { "$set": { self.pref.as_str(): self.new_parent_value.clone() } });
        c
    }

    /// Returns the update pulling `element` from the array of the old parent `filter` finds.
    fn pull(&self, out: &Commands, filter: Document, element: Bson) -> Command {
        let mut c = out.command(
            &self.pcoll,
            Update,
            filter,
            format!("{}: remove it from the old parent", self.r.name),
        );
        c.update = Some(doc! { "$pull": { self.arr.as_str(): element } });
        c
    }

    /// Returns the update pushing `element` to the new parent's array.
    fn push(&self, out: &Commands, element: Bson) -> Command {
        let mut c = out.command(
            &self.pcoll,
            Update,
            doc! { "_id": self.new_parent.clone() },
            format!("{}: add it to the new parent", self.r.name),
        );
        c.update = Some(doc! { "$push": { self.arr.as_str(): element } });
        c
    }

    /// Where the child does not know its parent: finds the document listing it (by
    /// `matched`, the id or the copy's `_id`), only its `_id` kept, then pulls `element` from
    /// it.
    fn unlist(&self, out: &mut Commands, matched: String, what: &str, element: Bson) {
        let listed = if matched == self.arr {
            self.child_value.clone()
        } else {
            self.child_id.clone()
        };
        let mut holder = out.command(
            &self.pcoll,
            Find,
            doc! { matched: listed },
            format!("{}: {what}", self.r.name),
        );
        holder.projection = Some(doc! { "_id": 1 });
        out.push(holder);
        out.push(self.pull(out, doc! { "_id": { "$in": param("holder._id") } }, element));
    }
}
