//! Writes: inserting children and entities, updates (with live copies), deletes, feed posts.

use bson::{doc, Bson, Document};

use super::{collection_for, embedding_of};
use crate::design::command::{param, Command, CommandKind};
use crate::design::layout::{child_ref, relationship_collection_name, Layout};
use crate::model::design::{FieldPattern, Strategy};
use crate::model::{Copies, Model, Step};

/// Appends the commands of `step` (step number `i`) to `out`.
pub(super) fn commands(
    model: &Model,
    layout: &Layout,
    i: usize,
    step: &Step,
    out: &mut Vec<Command>,
) {
    use CommandKind::*;
    match step {
        Step::InsertChild { relationship } => {
            let Some(r) = model.relationship(relationship) else {
                return;
            };
            let Some(s) = layout.strategy(&r.name) else {
                return;
            };
            let pcoll = collection_for(layout, &r.parent);
            let ccoll = collection_for(layout, &r.child);
            let arr = r.array_field().to_string();
            let pid = param(format!("{}._id", r.parent));
            let insert_child = |note: &str| {
                let mut c = Command::new(i, &ccoll, Insert, Document::new(), note.to_string());
                c.insert_shape = Some(r.child.clone());
                c
            };
            let mut parent_update: Option<Document> = None;
            match s {
                Strategy::Embed => {
                    parent_update = Some(doc! { "$push": { arr.as_str(): param("child") } })
                }
                Strategy::EmbedSubset { k } => {
                    out.push(insert_child("the child in its own collection"));
                    // Keep the newest k in order: $sort on the field the workload reads them
                    // by (ascending, so that $slice: -k keeps the newest), as article 002 does.
                    let mut each = doc! { "$each": [param("child")] };
                    if let Some(sf) = subset_sort_field(model, &r.name) {
                        each.insert("$sort", doc! { sf: 1 });
                    }
                    each.insert("$slice", -i64::try_from(*k).unwrap_or(i64::MAX));
                    parent_update = Some(doc! { "$push": { arr.as_str(): each } });
                }
                Strategy::ExtendedReference { copy } => {
                    if !r.many_to_many {
                        out.push(insert_child("the child"));
                    }
                    let mut e = doc! { "_id": param("child._id") };
                    for c in copy {
                        e.insert(c.clone(), param(format!("child.{c}")));
                    }
                    parent_update = Some(doc! { "$push": { arr.as_str(): e } });
                }
                Strategy::ReferenceInParent | Strategy::TwoWay => {
                    if !r.many_to_many {
                        out.push(insert_child("the child"));
                    }
                    parent_update = Some(doc! { "$push": { arr.as_str(): param("child._id") } });
                }
                Strategy::ReferenceInChild { .. } if r.many_to_many => {
                    // The child exists: it gains the parent's id in its array of references
                    // (the subscriber's `following`).
                    let mut c = Command::new(
                        i,
                        &ccoll,
                        Update,
                        doc! { "_id": param("child._id") },
                        format!("{}: add the parent to the child's references", r.name),
                    );
                    c.update = Some(doc! { "$push": { r.parent_ref(): pid.clone() } });
                    out.push(c);
                }
                Strategy::ReferenceInChild { .. } => {
                    out.push(insert_child("the child with its parent reference"))
                }
                Strategy::LinkCollection => {
                    let mut c = Command::new(i, &r.name, Insert, Document::new(), "the link");
                    c.insert_shape = Some("link".into());
                    out.push(c);
                }
                Strategy::Bucket { size } => {
                    let mut c = Command::new(
                        i,
                        &relationship_collection_name(r, s),
                        Update,
                        doc! { r.parent_ref(): pid.clone(), "count": { "$lt": *size as i64 } },
                        "append to the open bucket (upsert opens the next)",
                    );
                    let pushed = if r.many_to_many {
                        param("child._id")
                    } else {
                        param("child")
                    };
                    c.update = Some(
                        doc! { "$push": { arr.as_str(): pushed }, "$inc": { "count": 1 }, "$setOnInsert": { "sequence": param("next_sequence") } },
                    );
                    c.upsert = true;
                    out.push(c);
                }
                Strategy::Continuation { threshold } => {
                    let full = format!("{arr}.{}", threshold.saturating_sub(1));
                    let mut c = Command::new(
                        i,
                        &pcoll,
                        Update,
                        doc! { "_id": pid.clone(), full: { "$exists": false } },
                        "append while the parent has room (else the last continuation document)",
                    );
                    c.update = Some(doc! { "$push": { arr.as_str(): param("child._id") } });
                    out.push(c);
                }
                _ => {}
            }
            // Stored totals kept with $inc.
            let mut inc = Document::new();
            for p in &model.design.fields {
                if let FieldPattern::Computed {
                    field,
                    relationship,
                    sum,
                    ..
                } = p
                {
                    if relationship == &r.name {
                        let by = sum
                            .as_ref()
                            .map_or(Bson::Int32(1), |s| param(format!("child.{s}")));
                        inc.insert(field.clone(), by);
                    }
                }
            }
            if let Some(mut u) = parent_update {
                if !inc.is_empty() {
                    u.insert("$inc", inc);
                }
                let mut c = Command::new(
                    i,
                    &pcoll,
                    Update,
                    doc! { "_id": pid },
                    format!("{}: update the parent", r.name),
                );
                c.update = Some(u);
                out.push(c);
            } else if !inc.is_empty() {
                let mut c = Command::new(
                    i,
                    &pcoll,
                    Update,
                    doc! { "_id": pid },
                    "keep the stored total",
                );
                c.update = Some(doc! { "$inc": inc });
                out.push(c);
            }
        }
        Step::Insert { entity } => {
            let mut c = Command::new(
                i,
                &collection_for(layout, entity),
                Insert,
                Document::new(),
                format!("insert {entity}"),
            );
            c.insert_shape = Some(entity.clone());
            out.push(c);
        }
        Step::Update {
            entity,
            field,
            also,
            copies,
            increment,
        } => {
            let op = if *increment { "$inc" } else { "$set" };
            let value = if *increment {
                Bson::Int32(1)
            } else {
                param(format!("new.{field}"))
            };
            let id = param(format!("{entity}._id"));
            if let (None, Some(r)) = (
                layout.collection_of(entity),
                embedding_of(model, layout, entity),
            ) {
                let arr = r.array_field();
                let mut c = Command::new(
                    i,
                    &collection_for(layout, &r.parent),
                    Update,
                    doc! { format!("{arr}.{field}"): param(format!("old.{field}")) },
                    format!("update embedded {entity}"),
                );
                c.update = Some(doc! { op: { format!("{arr}.$.{field}"): value.clone() } });
                c.multi = r.many_to_many;
                out.push(c);
            } else {
                let mut changes = Document::new();
                for f in std::iter::once(field).chain(also) {
                    let v = if *increment {
                        Bson::Int32(1)
                    } else {
                        param(format!("new.{f}"))
                    };
                    changes.insert(counter_path(model, entity, f, *increment), v);
                }
                let what = std::iter::once(field)
                    .chain(also)
                    .map(String::as_str)
                    .collect::<Vec<_>>()
                    .join(", ");
                let mut c = Command::new(
                    i,
                    &collection_for(layout, entity),
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
            for coll in &layout.collections {
                for shape in &coll.shapes {
                    for cf in shape
                        .copied
                        .iter()
                        .filter(|c| &c.entity == entity && &c.source == field)
                    {
                        let Some(r) = model.relationship(&cf.relationship) else {
                            continue;
                        };
                        let (filter, path) = if r.child == *entity {
                            (
                                doc! { format!("{}._id", r.array_field()): id.clone() },
                                format!("{}.$.{field}", r.array_field()),
                            )
                        } else {
                            (doc! { r.parent_ref(): id.clone() }, cf.path.clone())
                        };
                        let mut c = Command::new(
                            i,
                            &coll.name,
                            Update,
                            filter,
                            format!("live copy {} via {}", cf.path, r.name),
                        );
                        c.update = Some(doc! { op: { path: value.clone() } });
                        c.multi = true;
                        out.push(c);
                    }
                }
            }
        }
        Step::Delete { entity } => {
            let id = param(format!("{entity}._id"));
            let mut c = Command::new(
                i,
                &collection_for(layout, entity),
                Delete,
                doc! { "_id": id.clone() },
                format!("delete {entity}"),
            );
            c.multi = false;
            out.push(c);
            for r in model.relationships.iter().filter(|r| &r.child == entity) {
                let coll = collection_for(layout, &r.parent);
                match layout.strategy(&r.name) {
                    Some(
                        Strategy::ReferenceInParent
                        | Strategy::TwoWay
                        | Strategy::Continuation { .. },
                    ) => {
                        let mut u = Command::new(
                            i,
                            &coll,
                            Update,
                            doc! { r.array_field(): id.clone() },
                            format!("{}: remove the reference", r.name),
                        );
                        u.update = Some(doc! { "$pull": { r.array_field(): id.clone() } });
                        u.multi = r.many_to_many;
                        out.push(u);
                    }
                    Some(Strategy::ExtendedReference { .. }) => {
                        let mut u = Command::new(
                            i,
                            &coll,
                            Update,
                            doc! { format!("{}._id", r.array_field()): id.clone() },
                            format!("{}: remove the reference", r.name),
                        );
                        u.update =
                            Some(doc! { "$pull": { r.array_field(): { "_id": id.clone() } } });
                        u.multi = r.many_to_many;
                        out.push(u);
                    }
                    Some(Strategy::LinkCollection) => {
                        let mut d = Command::new(
                            i,
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
        Step::Reassign { relationship } => {
            let Some(r) = model.relationship(relationship) else {
                return;
            };
            reassign(layout, i, r, out);
        }
        Step::PostFeed { relationship } => {
            let Some(r) = model.relationship(relationship) else {
                return;
            };
            let Some(s) = layout.strategy(&r.name) else {
                return;
            };
            let coll = relationship_collection_name(r, s);
            match s {
                Strategy::FanOutOnRead => {
                    let mut c = Command::new(
                        i,
                        &coll,
                        Insert,
                        Document::new(),
                        "one item with all followers in `to`",
                    );
                    c.insert_shape = Some("feed item".into());
                    out.push(c);
                }
                Strategy::FanOutOnWrite => {
                    let mut c =
                        Command::new(i, &coll, Insert, Document::new(), "one copy per follower");
                    c.insert_shape = Some("feed copy".into());
                    c.fan_out = Some(r.name.clone());
                    out.push(c);
                }
                Strategy::BucketedFanOut { .. } => {
                    // The article's scheme: each follower's item counter gives the number of
                    // the bucket the item goes into (sequence = count / size), and the upsert
                    // on { owner, sequence } opens the next bucket with its number set.
                    let mut counter = Command::new(
                        i,
                        &collection_for(layout, &r.child),
                        Update,
                        doc! { "_id": param("follower._id") },
                        "count the item on every follower (its bucket number)",
                    );
                    counter.update = Some(doc! { "$inc": { feed_counter(r): 1 } });
                    counter.fan_out = Some(r.name.clone());
                    out.push(counter);
                    let mut c = Command::new(
                        i,
                        &coll,
                        Update,
                        doc! { "owner": param("follower._id"), "sequence": param("follower.sequence") },
                        "append to every follower's newest bucket",
                    );
                    c.update = Some(
                        doc! { "$push": { "activities": param("item") }, "$inc": { "count": 1 } },
                    );
                    c.upsert = true;
                    c.fan_out = Some(r.name.clone());
                    out.push(c);
                }
                _ => {}
            }
        }
        _ => {}
    }
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

/// Appends the writes that move a child of `r` to another parent (`new_parent`): the child's
/// reference where the child keeps one, the arrays of both parents where they list it. Under
/// two-way references that is both sides, in separate writes (no single atomic update).
fn reassign(layout: &Layout, i: usize, r: &crate::model::Relationship, out: &mut Vec<Command>) {
    use CommandKind::*;
    let Some(s) = layout.strategy(&r.name) else {
        return;
    };
    let pcoll = collection_for(layout, &r.parent);
    let ccoll = collection_for(layout, &r.child);
    let arr = r.array_field().to_string();
    let pref = r.parent_ref();
    let child_id = param(format!("{}._id", r.child));
    let new_parent = param("new_parent._id");
    let set_ref = || {
        let mut c = Command::new(
            i,
            &ccoll,
            Update,
            doc! { "_id": child_id.clone() },
            format!("{}: point the child at its new parent", r.name),
        );
        c.update = Some(doc! { "$set": { pref.as_str(): new_parent.clone() } });
        c
    };
    let pull = |filter: Document, element: Bson| {
        let mut c = Command::new(
            i,
            &pcoll,
            Update,
            filter,
            format!("{}: remove it from the old parent", r.name),
        );
        c.update = Some(doc! { "$pull": { arr.as_str(): element } });
        c
    };
    let push = |element: Bson| {
        let mut c = Command::new(
            i,
            &pcoll,
            Update,
            doc! { "_id": new_parent.clone() },
            format!("{}: add it to the new parent", r.name),
        );
        c.update = Some(doc! { "$push": { arr.as_str(): element } });
        c
    };
    match s {
        Strategy::ReferenceInChild { .. } => out.push(set_ref()),
        Strategy::TwoWay => {
            out.push(set_ref());
            out.push(pull(
                doc! { "_id": param(format!("{}.{pref}", r.child)) },
                child_id.clone(),
            ));
            out.push(push(child_id));
        }
        Strategy::EmbedSubset { .. } => {
            out.push(set_ref());
            out.push(pull(
                doc! { "_id": param(format!("{}.{pref}", r.child)) },
                doc! { "_id": child_id.clone() }.into(),
            ));
        }
        Strategy::ReferenceInParent => {
            // The child does not know its parent: find it first.
            out.push(Command::new(
                i,
                &pcoll,
                Find,
                doc! { arr.as_str(): child_id.clone() },
                format!("{}: the parent holding it", r.name),
            ));
            out.push(pull(
                doc! { "_id": { "$in": param("holder._id") } },
                child_id.clone(),
            ));
            out.push(push(child_id));
        }
        Strategy::LinkCollection => {
            let mut c = Command::new(
                i,
                &r.name,
                Update,
                doc! { child_ref(r): child_id },
                format!("{}: the link points at the new parent", r.name),
            );
            c.update = Some(doc! { "$set": { pref.as_str(): new_parent } });
            out.push(c);
        }
        Strategy::Embed => {
            // The embedded child moves whole: out of the old parent's array, into the new one's.
            let child = param(r.child.clone());
            out.push(pull(
                doc! { "_id": param(format!("{}._id", r.parent)) },
                child.clone(),
            ));
            out.push(push(child));
        }
        _ => {}
    }
}

/// Returns the follower field that counts a feed's items under bucketed fan-out
/// (`activityCount` for a feed of `activity`, as in the article).
pub(crate) fn feed_counter(r: &crate::model::Relationship) -> String {
    format!("{}Count", r.feed.as_deref().unwrap_or("item"))
}

/// Returns the child field the workload sorts a relationship's children by, if any.
fn subset_sort_field(model: &Model, relationship: &str) -> Option<String> {
    model
        .workload
        .iter()
        .flat_map(|u| &u.steps)
        .filter_map(|s| match s {
            Step::Read { children, .. } => Some(children),
            _ => None,
        })
        .flatten()
        .filter(|c| c.relationship == relationship)
        .find_map(|c| c.sort.as_ref().map(|s| s.field.clone()))
}
