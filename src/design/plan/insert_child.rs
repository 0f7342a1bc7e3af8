//! `insert_child`: add one child to a parent (a follower, a log message, an order line). The
//! child goes into its own collection, into the parent's array, into a link or into the open
//! bucket, as the strategy lays it out; a stored total of the parent (a `computed` field
//! pattern) follows with `$inc`, in the parent's update when there is one.

use bson::{doc, Bson, Document};

use super::{order, param, Command, CommandKind::*, Commands, Placement, When};
use crate::design::names::{
    child_key, parent_key, relationship_collection_name, BUCKET_COUNT, CONTINUATION_FIELD,
};
use crate::model::design::{FieldPattern, Strategy};
use crate::model::{Model, Relationship, Step};

/// The parameter holding the key of a new map entry: a field name `<map>.${map_key}` is
/// filled in with its value when the command is bound.
pub const MAP_KEY: &str = "map_key";

/// Appends the commands of an `insert_child` step.
pub(super) fn commands(p: &Placement, step: &Step, out: &mut Commands) {
    let Step::InsertChild { relationship } = step else {
        return;
    };
    let Some((r, s, pcoll, ccoll)) = p.site(relationship) else {
        return;
    };
    // A new child (not one that exists already, linked to one more parent) uploads its files
    // first.
    if !r.many_to_many {
        super::files::writes(p, out, &r.child);
    }
    let arr = r.array_field().to_string();
    // What the references hold: the parent's `_id` or key in a child, the child's `_id` or key
    // in the parent's array (`parent_key`, `child_key`).
    let pref_value = param(format!("{}.{}", r.parent, parent_key(r, s)));
    let child_value = param(format!("child.{}", child_key(r, s)));
    let insert_child = |out: &Commands, note: &str| {
        let mut c = out.command(&ccoll, Insert, Document::new(), note);
        c.insert_shape = Some(r.child.clone());
        c
    };
    // A many-to-many link to a child that exists: the child gains the parent's id in its array
    // of references (the subscriber's `following`), wherever the design keeps that array.
    let link_child = |out: &Commands| {
        let mut c = out.command(
            &ccoll,
            Update,
            doc! { "_id": param("child._id") },
            format!("{}: add the parent to the child's references", r.name),
        );
        c.update = Some(doc! { "$push": { r.parent_ref(): pref_value.clone() } });
        c
    };
    let mut parent_update: Option<Document> = None;
    match s {
        // A map: the new entry set under its key (`$set: {"tier_and_details.<key>": …}`, the
        // key a run fills in: [`MAP_KEY`]).
        Strategy::Embed if crate::design::shape::holds_map(p.collections, r) => {
            parent_update =
                Some(doc! { "$set": { format!("{arr}.${{{MAP_KEY}}}"): param("child") } });
        }
        Strategy::Embed => {
            let kept = order::kept(p.model, &r.name);
            let pushed = order::push(param("child"), kept.as_ref(), None);
            parent_update = Some(doc! { "$push": { arr.as_str(): pushed } });
        }
        Strategy::EmbedSubset { k } => {
            // Many-to-many links a child that exists (the follower, a user already): it gains
            // the parent's id in its array of references, and its copy goes into the parent's
            // subset.
            if r.many_to_many {
                out.push(link_child(out));
            } else {
                out.push(insert_child(out, "the child in its own collection"));
            }
            // Keep the first k in the order the workload reads them in (the newest k for a
            // read of the newest), as article 002 does with $sort and $slice.
            let kept = order::kept(p.model, &r.name);
            let pushed = order::push(param("child"), kept.as_ref(), Some(*k));
            parent_update = Some(doc! { "$push": { arr.as_str(): pushed } });
        }
        Strategy::ExtendedReference { copy } => {
            if !r.many_to_many {
                out.push(insert_child(out, "the child"));
            }
            let mut e = doc! { "_id": param("child._id") };
            for c in copy {
                e.insert(c.clone(), param(format!("child.{c}")));
            }
            // Kept in the order of the workload's sorted read when it sorts by a copy.
            let kept = order::kept_copy(p.model, &r.name, copy);
            let pushed = order::push(Bson::Document(e), kept.as_ref(), None);
            parent_update = Some(doc! { "$push": { arr.as_str(): pushed } });
        }
        Strategy::ReferenceInParent => {
            if !r.many_to_many {
                out.push(insert_child(out, "the child"));
            }
            parent_update = Some(doc! { "$push": { arr.as_str(): child_value.clone() } });
        }
        Strategy::TwoWay => {
            // Both sides keep references: a many-to-many link updates the existing child too.
            if r.many_to_many {
                out.push(link_child(out));
            } else {
                out.push(insert_child(out, "the child"));
            }
            parent_update = Some(doc! { "$push": { arr.as_str(): child_value.clone() } });
        }
        Strategy::ReferenceInChild { .. } if r.many_to_many => out.push(link_child(out)),
        Strategy::ReferenceInChild { .. } => {
            out.push(insert_child(out, "the child with its parent reference"))
        }
        Strategy::SingleCollection => out.push(insert_child(
            out,
            "the child in its parent's collection, with the shared key and its type",
        )),
        Strategy::LinkCollection => {
            // A new child (one-to-many) is stored before its link; many-to-many links one
            // that exists.
            if !r.many_to_many {
                out.push(insert_child(out, "the child"));
            }
            let mut c = out.command(&r.name, Insert, Document::new(), "the link");
            c.insert_shape = Some("link".into());
            out.push(c);
        }
        Strategy::Bucket { size } => bucket_append(out, r, s, *size),
        Strategy::Continuation { threshold } => {
            // The child is stored in its own collection; the continuation chain holds its id.
            if !r.many_to_many {
                out.push(insert_child(out, "the child"));
            }
            continuation(out, r, &pcoll, &r.parent, param("child._id"), *threshold)
        }
        Strategy::TimeSeries { .. } => out.push(super::timeseries::insert(p, out, r)),
        _ => {}
    }
    update_parent(out, p, r, &pcoll, parent_update);
}

/// Appends the child (its id when many-to-many) to the parent's open bucket of `size`
/// children, an upsert opening the next bucket when that one is full.
fn bucket_append(out: &mut Commands, r: &Relationship, s: &Strategy, size: u64) {
    let pid = param(format!("{}._id", r.parent));
    let arr = r.array_field();
    let mut c = out.command(
        &relationship_collection_name(r, s),
        Update,
        doc! { r.parent_ref(): pid.clone(), BUCKET_COUNT: { "$lt": size as i64 } },
        "append to the open bucket (upsert opens the next)",
    );
    let pushed = if r.many_to_many {
        param("child._id")
    } else {
        param("child")
    };
    c.update = Some(
        doc! { "$push": { arr: pushed }, "$inc": { BUCKET_COUNT: 1 }, "$setOnInsert": { "sequence": param("next_sequence") } },
    );
    c.upsert = true;
    out.push(c);
}

/// Appends the update of the parent (`parent_update`, what the strategy changes in it), with
/// the stored totals of the relationship kept (`$inc`); only those when the strategy changes
/// nothing in the parent.
fn update_parent(
    out: &mut Commands,
    p: &Placement,
    r: &Relationship,
    pcoll: &str,
    parent_update: Option<Document>,
) {
    let pid = param(format!("{}._id", r.parent));
    let inc = stored_totals(p.model, &r.name);
    let parent = |out: &Commands, update: Document, note: String| -> Command {
        let mut c = out.command(pcoll, Update, doc! { "_id": pid.clone() }, note);
        c.update = Some(update);
        c
    };
    if let Some(mut u) = parent_update {
        if !inc.is_empty() {
            u.insert("$inc", inc);
        }
        out.push(parent(out, u, format!("{}: update the parent", r.name)));
    } else if !inc.is_empty() {
        out.push(parent(
            out,
            doc! { "$inc": inc },
            "keep the stored total".to_string(),
        ));
    }
}

/// Appends the commands of a continuation append, as the application runs them: the parent
/// while it has room (1 round trip); when it is full, the last continuation document while it
/// has room; when that is full too (or there is none), a new continuation document and its id
/// on the parent's `tbc`. The fallbacks are conditional (`if (r.matchedCount === 0)`): the
/// evaluation sends them only when no update before them matched.
/// Appends `child` (its id) to the continuation chain of the parent bound as `parent` (the
/// step's parent, or a reassign's `new_parent`): to the parent while it has room, else to its
/// last continuation document while that has room, else to a new continuation document whose
/// id joins the parent's `tbc`.
pub(super) fn continuation(
    out: &mut Commands,
    r: &Relationship,
    pcoll: &str,
    parent: &str,
    child: Bson,
    threshold: u64,
) {
    let pid = param(format!("{parent}._id"));
    let arr = r.array_field();
    let room = format!("{arr}.{}", threshold.saturating_sub(1));
    let push = doc! { "$push": { arr: child } };
    let mut c = out.command(
        pcoll,
        Update,
        doc! { "_id": pid.clone(), room.as_str(): { "$exists": false } },
        "append while the parent has room",
    );
    c.update = Some(push.clone());
    c.keeps_result = true;
    out.push(c);
    let last = param(format!("{parent}.tbc.{LAST}"));
    let mut c = out.command(
        pcoll,
        Update,
        doc! { "_id": last, room.as_str(): { "$exists": false } },
        "the parent is full: append to the last continuation document while it has room",
    );
    c.update = Some(push);
    c.when = Some(When::NoneMatched);
    out.push(c);
    let mut c = out.command(
        pcoll,
        Insert,
        Document::new(),
        "that one is full too (or there is none): a new continuation document holding the child",
    );
    c.insert_shape = Some(format!("{} continuation", r.name));
    c.when = Some(When::NoneMatched);
    out.push(c);
    let mut c = out.command(
        pcoll,
        Update,
        doc! { "_id": pid.clone() },
        "the new continuation document's id on the parent",
    );
    c.update = Some(doc! { "$push": { CONTINUATION_FIELD: param(format!("{CONTINUATION}._id")) } });
    c.when = Some(When::NoneMatched);
    out.push(c);
}

/// The parameter path of an array's last element (`user.tbc.at(-1)`, as JavaScript writes it).
pub const LAST: &str = "at(-1)";

/// The parameter name of the continuation document a continuation append creates.
pub const CONTINUATION: &str = "continuation";

/// What a read of a continuation chain calls the find of the parent's continuation documents
/// (its note ends with it); the evaluation keeps their results as [`MORE`].
pub const CONTINUATION_DOCUMENTS: &str = "continuation documents";

/// The parameter name of the continuation documents a read fetched (`more.followers`: the
/// ids they hold).
pub const MORE: &str = "more";

/// Returns the `$inc` of the parent's stored totals (`computed` patterns) over the children of
/// `relationship`: the summed child field, or 1 for a count.
fn stored_totals(model: &Model, relationship: &str) -> Document {
    let mut inc = Document::new();
    for pat in &model.design.fields {
        if let FieldPattern::Computed {
            field,
            relationship: r,
            sum,
            ..
        } = pat
        {
            if r == relationship {
                let by = sum
                    .as_ref()
                    .map_or(Bson::Int32(1), |s| param(format!("child.{s}")));
                inc.insert(field.clone(), by);
            }
        }
    }
    inc
}
