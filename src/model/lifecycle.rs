//! The data-lifecycle patterns (approximation, archive, document versioning), applied to a
//! model before it is laid out: each becomes plain model constructs that the layout, the plan
//! and the engine already know, so every figure they cost is measured the usual way.
//!
//! - `approximate` divides the rate of the unit that increments the counter by `every` (a unit
//!   with other steps is split: the counter's update becomes a unit of its own);
//! - `archive` splits the entity into the live documents of the last `after_days` days and an
//!   `<entity>_archive` entity holding the rest, adds the move (an insert into the archive and a
//!   delete from the live collection, at the entity's growth rate) and sends `old_share` of the
//!   reads of the entity to both collections;
//! - `document_versioning` adds the revision field and an `<entity>_history` entity, and every
//!   update of the entity first inserts the current version there;
//! - `measurements` replaces an entity of pre-aggregated counters by the events they count,
//!   stored as measurements in a native time-series collection (`lifecycle/measurements.rs`).
//!
//! [`lower`] is the one entry: the offered designs (`eval::offer`) carry the lowered model.

mod approximate;
mod archive;
mod measurements;
mod versioning;

use super::{DesignSpec, FieldPattern, Model, Step};

pub use approximate::counts as approximates;
pub use archive::{archive_name, growth_per_day, Archived};
pub use measurements::{events_per_sec, Measured, TIME_FIELD};
pub use versioning::{history_name, HISTORY_DAYS};

/// Seconds in a day: the lifecycle patterns count their rates per day.
pub const DAY: f64 = 86_400.0;

/// Returns `model` and `spec` with the design's lifecycle patterns applied (the model
/// unchanged when it has none).
pub fn lower(model: &Model, spec: &DesignSpec) -> (Model, DesignSpec) {
    let mut m = model.clone();
    let mut s = spec.clone();
    for p in &spec.fields {
        match p {
            FieldPattern::Approximate {
                entity,
                field,
                every,
            } => approximate::apply(&mut m, entity, field, *every),
            FieldPattern::Archive {
                entity,
                after_days,
                old_share,
                ..
            } => archive::apply(&mut m, &mut s, entity, *after_days, *old_share),
            FieldPattern::DocumentVersioning { entity, field } => {
                versioning::apply(&mut m, entity, field)
            }
            FieldPattern::Measurements {
                entity,
                meta,
                series,
                window_seconds,
                measurement,
                granularity,
            } => measurements::apply(
                &mut m,
                &mut s,
                Measured {
                    entity,
                    meta,
                    series: *series,
                    window_seconds: *window_seconds,
                    measurement,
                    granularity: *granularity,
                },
            ),
            _ => {}
        }
    }
    (m, s)
}

/// True when `spec` has a lifecycle pattern (the model must be lowered before it is laid out).
pub fn has_lifecycle(spec: &DesignSpec) -> bool {
    spec.fields.iter().any(|p| {
        matches!(
            p,
            FieldPattern::Approximate { .. }
                | FieldPattern::Archive { .. }
                | FieldPattern::DocumentVersioning { .. }
                | FieldPattern::Measurements { .. }
        )
    })
}

/// Returns the times per second the workload runs a step that `counted` picks: each unit's
/// rate times the number of such steps in it.
fn steps_per_sec(model: &Model, counted: impl Fn(&Step) -> bool) -> f64 {
    model
        .workload
        .iter()
        .map(|u| u.rate_per_sec * u.steps.iter().filter(|s| counted(s)).count() as f64)
        .sum()
}

/// Returns the documents of `entity` the workload creates per second: its `insert` steps and
/// the `insert_child` steps of the one-to-many relationships it is the child of.
pub fn inserts_per_sec(model: &Model, entity: &str) -> f64 {
    steps_per_sec(model, |s| match s {
        Step::Insert { entity: e } => e == entity,
        Step::InsertChild { relationship } => model
            .relationship(relationship)
            .is_some_and(|r| r.child == entity && !r.many_to_many),
        _ => false,
    })
}

/// Returns the times per second the workload changes `entity` by a `$set` (an increment of a
/// counter makes no new version).
pub fn updates_per_sec(model: &Model, entity: &str) -> f64 {
    steps_per_sec(model, |s| versions(s, entity))
}

/// True for a step that makes a new version of `entity`: an update that sets a field.
pub fn versions(step: &Step, entity: &str) -> bool {
    matches!(step, Step::Update { entity: e, increment: false, .. } if e == entity)
}

/// Returns the times per second the (lowered) workload writes the approximated counter
/// `entity.field`: the events it counts are `every` times as many.
pub fn approximate_counts(model: &Model, entity: &str, field: &str) -> f64 {
    steps_per_sec(model, |s| approximate::counts(s, entity, field))
}
