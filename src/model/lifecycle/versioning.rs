//! `document_versioning`: the entity holds a revision number, and every update of it first
//! inserts the current version into `<entity>_history` (`{_id, docId, …the document}`): two
//! writes where there was one, and a history that grows by one document per update.

use super::{updates_per_sec, versions, DAY};
use crate::model::{BsonType, Entity, Field, Fields, Model, Step};

/// Days of history the history collection is laid out with: a year of updates.
pub const HISTORY_DAYS: f64 = 365.0;

/// The highest revision number the sample documents hold.
const REVISIONS: f64 = 1_000.0;

/// Returns the name of the history of `entity` (`product_history`).
pub fn history_name(entity: &str) -> String {
    format!("{entity}_history")
}

/// The field of a history document that holds the current document's `_id`.
pub const DOC_ID: &str = "docId";

/// Adds the revision field, the history entity and the history inserts (see the module).
pub(super) fn apply(model: &mut Model, entity: &str, field: &str) {
    let name = history_name(entity);
    if model.entity(&name).is_some() {
        return;
    }
    let per_day = updates_per_sec(model, entity) * DAY;
    let Some(e) = model.entities.iter_mut().find(|x| x.name == entity) else {
        return;
    };
    if e.fields.get(field).is_none() {
        let mut f = Field::of(BsonType::Int);
        // Revisions 1 … REVISIONS: a document's revision number, as an `int` (not a
        // `counter`, which the sample generates as 0).
        f.min = Some(1.0);
        f.max = Some(REVISIONS);
        e.fields.push(field, f);
    }
    let mut fields = Fields::default();
    fields.push(DOC_ID, Field::of(BsonType::ObjectId));
    for (k, f) in e.fields.iter() {
        if k != "_id" {
            fields.push(k.clone(), f.clone());
        }
    }
    let history = Entity {
        name: name.clone(),
        count: (per_day * HISTORY_DAYS).round(),
        fields,
    };
    model.entities.push(history);
    for u in &mut model.workload {
        let mut steps = Vec::with_capacity(u.steps.len() + 1);
        for s in u.steps.drain(..) {
            if versions(&s, entity) {
                steps.push(Step::Insert {
                    entity: name.clone(),
                });
                // The update sets the next revision with the change.
                if let Step::Update {
                    entity: e,
                    field: f,
                    also,
                    copies,
                    increment,
                } = s
                {
                    let mut also = also;
                    if f != field && !also.iter().any(|a| a == field) {
                        also.push(field.to_string());
                    }
                    steps.push(Step::Update {
                        entity: e,
                        field: f,
                        also,
                        copies,
                        increment,
                    });
                }
                continue;
            }
            steps.push(s);
        }
        u.steps = steps;
    }
}
