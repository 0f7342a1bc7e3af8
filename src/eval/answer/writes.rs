//! The checks of the steps that write, on the state the unit leaves: an `update` (a `$set`
//! holds the new value everywhere a live copy keeps it; an `$inc` grew the field and its live
//! copies by the increment), a `delete` (nothing stores or lists the entity), a `reassign`
//! (the child under its new parent alone), an `insert_child` (stored, and linked to its
//! parent) and an `insert` (a new document in the entity's collection).
//!
//! Apart from [`super::steps`], which checks what the reads return, because a write is
//! checked on what the database holds afterwards (and before), not on what was returned.

use bson::{doc, Bson};

use super::decode::{children_of, documents, listed_by, listings, parents_holding, stored_as};
use super::held::{element_updated, grown_by, total, values_of, Change, Held};
use super::missing::same_child;
use super::steps::{Run, StepCheck};
use super::Outcome;
use crate::design::Layout;
use crate::engine::{Database, FindCommand};
use crate::model::Step;

impl StepCheck<'_, '_, '_> {
    /// Checks an `update` that sets: the entity holds the new value and, for `live` copies, so does every copy of it.
    pub(super) fn update_set(&mut self, step: &Step) {
        let Run {
            db,
            model,
            layout,
            b,
            unit,
            ..
        } = self.run;
        let Step::Update {
            entity,
            field,
            also,
            copies,
            ..
        } = step
        else {
            return;
        };
        let Some(id) = b.value(&format!("{entity}._id")) else {
            // An element without an `_id` is found by its old value.
            let changes: Vec<(String, Change)> = std::iter::once(field)
                .chain(also)
                .filter_map(|f| Some((f.clone(), Change::Set(b.value(&format!("new.{f}"))?))))
                .collect();
            if let Some(Bson::Document(whole)) = b.value(entity) {
                self.t.checked += 1;
                if !element_updated(db, layout, &whole, &changes) {
                    self.problem(format!(
                        "no {entity} element holds the new value (found by its old value)"
                    ));
                }
            }
            return;
        };
        for f in std::iter::once(field).chain(also) {
            let Some(new) = b.value(&format!("new.{f}")) else {
                continue;
            };
            let held = values_of(db, model, layout, entity, &id, f);
            if held.is_empty() {
                self.t.unchecked.push(format!(
                    "{}: {entity}.{f}: no document holds the {entity} by its _id",
                    unit.name
                ));
                continue;
            }
            self.t.checked += 1;
            let stale: Vec<&Held> = held.iter().filter(|h| h.value != new).collect();
            if !held.iter().any(|h| h.value == new) {
                self.problem(format!(
                    "the {entity}'s {f} is not the new value anywhere ({} places hold it)",
                    held.len()
                ));
            } else if *copies == crate::model::Copies::Live && !stale.is_empty() {
                let places: Vec<&str> = stale.iter().map(|h| h.place.as_str()).collect();
                self.problem(format!(
                    "{} of the {} live copies of {entity}.{f} keep the old value: {}",
                    stale.len(),
                    held.len(),
                    places.join(", ")
                ));
            }
        }
    }

    /// Checks an `update` that increments: the field and its live copies grew by the increment.
    pub(super) fn update_increment(&mut self, step: &Step) {
        let Run {
            db,
            before,
            model,
            layout,
            b,
            unit,
            ..
        } = self.run;
        let Step::Update {
            entity,
            field,
            also,
            copies,
            ..
        } = step
        else {
            return;
        };
        let Some(id) = b.value(&format!("{entity}._id")) else {
            // An element without an `_id` is found by its old value.
            let changes: Vec<(String, Change)> = std::iter::once(field)
                .chain(also)
                .map(|f| {
                    let by = total(&crate::design::plan::increment_by(model, entity, f));
                    (f.clone(), Change::Grow(by))
                })
                .collect();
            if let Some(Bson::Document(whole)) = b.value(entity) {
                self.t.checked += 1;
                if !element_updated(db, layout, &whole, &changes) {
                    self.problem(format!(
                        "no {entity} element grew by its increment (found by its old value)"
                    ));
                }
            }
            return;
        };
        for f in std::iter::once(field).chain(also) {
            let by = total(&crate::design::plan::increment_by(model, entity, f));
            let now = values_of(db, model, layout, entity, &id, f);
            if now.is_empty() {
                self.t.unchecked.push(format!(
                    "{}: {entity}.{f}: no document holds the {entity} by its _id",
                    unit.name
                ));
                continue;
            }
            self.t.checked += 1;
            let was = values_of(before, model, layout, entity, &id, f);
            let grown = grown_by(&was, &now);
            let counted = grown.iter().filter(|(_, d)| *d == by).count();
            if counted == 0 {
                self.problem(format!(
                    "the {entity}'s {f} did not grow by {by} anywhere ({} places hold it)",
                    now.len()
                ));
            } else if *copies == crate::model::Copies::Live && counted < now.len() {
                let places: Vec<&str> = grown
                    .iter()
                    .filter(|(_, d)| *d != by)
                    .map(|(p, _)| p.as_str())
                    .collect();
                self.problem(format!(
                    "{} of the {} live copies of {entity}.{f} did not grow by {by}: {}",
                    places.len(),
                    now.len(),
                    places.join(", ")
                ));
            }
        }
    }

    /// Checks a `delete`: nothing stores the entity or lists it any more.
    pub(super) fn delete(&mut self, entity: &str) {
        let Run {
            db,
            model,
            layout,
            b,
            complete,
            unit,
            ..
        } = self.run;
        // Found by its `_id`, else (an element embedded or bucketed
        // without one) as a whole.
        let (id, mut left) = match (b.value(&format!("{entity}._id")), b.value(entity)) {
            (Some(id), _) => {
                let left = stored_as(db, layout, &|d| d.get("_id") == Some(&id));
                (id, left)
            }
            (None, Some(Bson::Document(whole))) => {
                (Bson::Null, stored_as(db, layout, &|d| *d == whole))
            }
            _ => return,
        };
        let mut decoded = true;
        for r in model
            .relationships
            .iter()
            .filter(|r| r.child == *entity && id != Bson::Null)
        {
            match listed_by(db, layout, r, &id) {
                Some(places) => left.extend(places),
                None => {
                    decoded = false;
                    self.t.unchecked.push(format!(
                        "{}: the children of {} are not decoded under its strategy",
                        unit.name, r.name
                    ));
                }
            }
        }
        if !decoded {
            return;
        }
        self.t.checked += 1;
        if !left.is_empty() && complete {
            left.dedup();
            self.problem(format!(
                "the deleted {entity} is still stored or listed: {}",
                left.join(", ")
            ));
        }
    }

    /// Checks a `reassign`: the child among its new parent's children, and no other parent's.
    pub(super) fn reassign(&mut self, relationship: &str) {
        let Run {
            db,
            before,
            model,
            layout,
            b,
            complete,
            unit,
            ..
        } = self.run;
        let Some(r) = model.relationship(relationship) else {
            return;
        };
        let (Some(cid), Some(np)) = (
            b.value(&format!("{}._id", r.child)),
            b.value("new_parent._id"),
        ) else {
            return;
        };
        let (Some(kids), Some(holders)) = (
            children_of(db, model, layout, r, &np, None),
            parents_holding(db, model, layout, r, &cid),
        ) else {
            self.t.unchecked.push(format!(
                "{}: the children of {} are not decoded under its strategy",
                unit.name, r.name
            ));
            return;
        };
        // The sample's links, chains and references are drawn per
        // strategy and may leave a child under no parent, or list it
        // under two: a move is checked from one parent to one.
        let held = parents_holding(before, model, layout, r, &cid);
        // A chain's continuation documents are drawn apart from its
        // parent, and may list a child the parent lists too: a move is
        // checked where one document lists the child, as in real data.
        let lists = listings(before, layout, r, &cid).map_or(0, |(_, n)| n);
        if lists > 1 {
            self.t.unchecked.push(format!(
                "{}: {}: the sample lists the moved {} in {lists} documents",
                unit.name, r.name, r.child
            ));
            return;
        }
        if held != Some(1) {
            self.t.unchecked.push(format!(
                "{}: {}: the sample holds the moved {} under {} parents",
                unit.name,
                r.name,
                r.child,
                held.unwrap_or(0)
            ));
            return;
        }
        self.t.checked += 1;
        if !kids.docs.iter().any(|d| d.get("_id") == Some(&cid)) {
            self.problem(format!(
                "{}: the moved {} is not among its new {}'s children",
                r.name, r.child, r.parent
            ));
        } else if holders > 1 && complete {
            self.problem(format!(
                "{}: the moved {} is still among the children of {} other {}",
                r.name,
                r.child,
                holders - 1,
                r.parent
            ));
        }
    }

    /// Checks an `insert_child` (typical parent): the child stored and linked to its parent.
    pub(super) fn insert_child(&mut self, relationship: &str) {
        let Run {
            db,
            model,
            layout,
            b,
            complete,
            unit,
            ..
        } = self.run;
        let Some(r) = model.relationship(relationship) else {
            return;
        };
        let (Some(Bson::Document(child)), Some(pid)) =
            (b.value("child"), b.value(&format!("{}._id", r.parent)))
        else {
            return;
        };
        let Some(all) = children_of(db, model, layout, r, &pid, None) else {
            self.t.unchecked.push(format!(
                "{}: the children of {} are not decoded under its strategy",
                unit.name, r.name
            ));
            return;
        };
        self.t.checked += 1;
        let linked = all
            .docs
            .iter()
            .any(|d| same_child(&child, d, r.many_to_many));
        // Stored: in the child's own collection where it has one (a new
        // child, or for a many-to-many the one that exists and is linked),
        // else among the children of its parent (embedded, in a bucket).
        let own = layout.collection_of(&r.child);
        let stored = match (own, child.get("_id")) {
            (Some(cc), Some(id)) => db
                .find(
                    &cc.name,
                    &FindCommand {
                        filter: doc! { "_id": id.clone() },
                        ..Default::default()
                    },
                )
                .is_ok_and(|x| !x.documents.is_empty()),
            _ => linked,
        };
        if !stored {
            self.problem(format!("the new {} is never stored", r.child));
        } else if !linked && complete {
            // Linked where the sample holds every write of the run (a
            // write to a document only the full scale has is arithmetic).
            self.problem(format!(
                "the new {} is stored but not linked to its {} afterwards ({} children found)",
                r.child,
                r.parent,
                all.docs.len()
            ));
        }
    }
}

/// Checks an `insert` step of `entity`: its collection holds a document it did not hold
/// before the run.
pub(super) fn inserted(
    db: &Database,
    before: &Database,
    layout: &Layout,
    entity: &str,
) -> Option<Outcome> {
    let Some(coll) = layout.collection_of(entity) else {
        return Some(Outcome::Unchecked(format!(
            "{entity} has no collection of its own under this design"
        )));
    };
    let ids = |db: &Database| -> Vec<Bson> {
        documents(db, &coll.name)
            .into_iter()
            .filter_map(|d| d.get("_id").cloned())
            .collect()
    };
    let was = ids(before);
    let new = ids(db).into_iter().filter(|id| !was.contains(id)).count();
    Some(Outcome::Checked((new == 0).then(|| {
        format!("no new {entity} is stored in {}", coll.name)
    })))
}
