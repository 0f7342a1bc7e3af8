//! What the lifecycle patterns accept and cost, stated where a user reads it: the error an
//! approximated counter accepts (and a warning when it is written less than once a day per
//! document), how an archive splits a collection and what the move costs, and how fast a
//! document history grows.

use super::{Severity, Warning};
use crate::design::{FieldPattern, Layout};
use crate::human::{binary_size, thousands};
use crate::lang::Text;
use crate::model::lifecycle::{
    approximate_counts, archive_name, growth_per_day, history_name, DAY, HISTORY_DAYS,
};
use crate::model::Model;
use crate::stats::{named, CollectionStats};

/// Returns the lifecycle patterns' findings for `layout` of `model` (the model as lowered by
/// [`crate::model::lifecycle::lower`]), `stats` the statistics of the layout's collections.
pub fn check(model: &Model, layout: &Layout, stats: &[CollectionStats]) -> Vec<Warning> {
    let mut out = Vec::new();
    for p in &model.design.fields {
        match p {
            FieldPattern::Approximate {
                entity,
                field,
                every,
            } => approximate(model, layout, entity, field, *every, &mut out),
            FieldPattern::Archive {
                entity, after_days, ..
            } => archive(model, layout, entity, *after_days, &mut out),
            FieldPattern::DocumentVersioning { entity, .. } => {
                history(layout, stats, entity, &mut out)
            }
            _ => {}
        }
    }
    out
}

/// Returns `x` with at most one decimal (`1.1`, `8,640`).
fn short(x: f64) -> String {
    if x >= 100.0 {
        thousands(x.round() as u64)
    } else {
        format!("{:.1}", x)
    }
}

/// `APPROXIMATE_COUNTER` (the error accepted) or `APPROXIMATION_TOO_COARSE` (a document's
/// counter written less than once a day).
fn approximate(
    model: &Model,
    layout: &Layout,
    entity: &str,
    field: &str,
    every: u64,
    out: &mut Vec<Warning>,
) {
    let docs = model.entity(entity).map_or(0.0, |e| e.count).max(1.0);
    let events = approximate_counts(model, entity, field) * every as f64;
    let per_doc_day = events * DAY / docs;
    let coll = layout.collection_name(entity);
    let unrecorded = every.saturating_sub(1);
    if (every as f64) > per_doc_day {
        out.push(Warning::localized(
            "APPROXIMATION_TOO_COARSE",
            Severity::Warning,
            &coll,
            field,
            Text::new("approximation-too-coarse")
                .arg("field", field)
                .arg("every", thousands(every))
                .arg("per_day", short(per_doc_day)),
            Text::new("approximation-too-coarse-fix"),
        ));
    } else {
        let error = if per_doc_day > 0.0 {
            100.0 * unrecorded as f64 / per_doc_day
        } else {
            0.0
        };
        out.push(Warning::localized(
            "APPROXIMATE_COUNTER",
            Severity::Info,
            &coll,
            field,
            Text::new("approximate-counter")
                .arg("field", field)
                .arg("every", thousands(every))
                .arg("unrecorded", thousands(unrecorded))
                .arg("per_day", short(per_doc_day))
                .arg("error", format!("{error:.2}")),
            Text::new("approximate-counter-fix"),
        ));
    }
}

/// `ARCHIVE_SPLIT` (how the documents are split and what the move costs) or
/// `ARCHIVE_EMPTY` (no document is old enough to move).
fn archive(model: &Model, layout: &Layout, entity: &str, days: u64, out: &mut Vec<Warning>) {
    let live = model.entity(entity).map_or(0.0, |e| e.count);
    let name = archive_name(entity);
    let old = model.entity(&name).map_or(0.0, |e| e.count);
    let per_sec = growth_per_day(model, entity) / DAY;
    let coll = layout.collection_name(entity);
    if old <= 0.0 {
        out.push(Warning::localized(
            "ARCHIVE_EMPTY",
            Severity::Warning,
            &coll,
            "",
            Text::new("archive-empty")
                .arg("entity", entity)
                .arg("days", days),
            Text::new("archive-empty-fix"),
        ));
        return;
    }
    out.push(Warning::localized(
        "ARCHIVE_SPLIT",
        Severity::Info,
        &coll,
        "",
        Text::new("archive-split")
            .arg("collection", &coll)
            .arg("days", days)
            .arg("live", thousands(live.round() as u64))
            .arg("archive", layout.collection_name(&name))
            .arg("old", thousands(old.round() as u64))
            .arg("per_sec", short(per_sec)),
        Text::new("archive-split-fix"),
    ));
}

/// `HISTORY_GROWTH`: the documents and bytes the history collection gains a day.
fn history(layout: &Layout, stats: &[CollectionStats], entity: &str, out: &mut Vec<Warning>) {
    let name = history_name(entity);
    let Some(c) = layout.collection_of(&name) else {
        return;
    };
    let Some(st) = named(stats, &c.name) else {
        return;
    };
    let per_day = st.count / HISTORY_DAYS;
    let mean = st.mean_bytes();
    out.push(Warning::localized(
        "HISTORY_GROWTH",
        Severity::Info,
        &c.name,
        "",
        Text::new("history-growth")
            .arg("collection", &c.name)
            .arg("docs", thousands(per_day.round() as u64))
            .arg("bytes", binary_size((per_day * mean).round() as u64))
            .arg("entity", entity),
        Text::new("history-growth-fix"),
    ));
}
