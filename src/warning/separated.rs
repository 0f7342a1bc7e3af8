//! MongoDB's "separating data that is accessed together" anti-pattern: a workload read that
//! pays extra round trips for children kept in another collection, though the children are
//! bounded and reached only through their parent, so the `denormalized` design would embed
//! them (the rule of [`named_strategy`]).

use super::{Severity, Warning};
use crate::design::Layout;
use crate::lang::Text;
use crate::model::design::{named_strategy, DesignName, Strategy};
use crate::model::{Model, Step};

/// Returns one `SEPARATED_READ` per workload read and relationship whose children a separate
/// collection costs round trips that embedding would save.
pub fn check(model: &Model, layout: &Layout) -> Vec<Warning> {
    let mut out = Vec::new();
    for (unit, plan) in model.workload.iter().zip(&layout.plan.units) {
        for (i, step) in unit.steps.iter().enumerate() {
            let Step::Read {
                entity,
                by,
                children,
                ..
            } = step
            else {
                continue;
            };
            let trips = plan.commands.iter().filter(|c| c.step == i).count();
            if trips < 2 {
                continue;
            }
            for c in children {
                let Some(r) = model.relationship(&c.relationship) else {
                    continue;
                };
                // Only where the denormalized design embeds: bounded, one-to-many, a child with
                // no life of its own.
                if !matches!(
                    named_strategy(DesignName::Denormalized, r, model),
                    Strategy::Embed
                ) {
                    continue;
                }
                let prefix = format!("{}: ", r.name);
                let extra = plan
                    .commands
                    .iter()
                    .filter(|x| x.step == i && x.note.starts_with(&prefix))
                    .count();
                if extra == 0 {
                    continue;
                }
                let child_coll = layout.collection_name(&r.child);
                let saved = trips.saturating_sub(extra);
                let fewer = unit.rate_per_sec * extra as f64;
                let trips_of = |n: f64| {
                    Text::new(if n == 1.0 {
                        "round-trip"
                    } else {
                        "round-trips"
                    })
                    .arg("count", n)
                };
                let message = Text::new("separated-read")
                    .arg("unit", &unit.name)
                    .arg("rate", unit.rate_per_sec)
                    .arg("entity", entity)
                    .arg("by", by)
                    .arg("relationship", &r.name)
                    .arg("trips", trips)
                    .arg("extra", extra)
                    .arg("child", &r.child)
                    .arg("collection", &child_coll)
                    .arg("parent", &r.parent)
                    .arg("max", r.cardinality.max())
                    .nested("saved", trips_of(saved as f64))
                    .nested("fewer", trips_of(fewer));
                let fix = Text::new("separated-read-fix")
                    .arg("child", &r.child)
                    .arg("parent", &r.parent);
                out.push(Warning::localized(
                    "SEPARATED_READ",
                    Severity::Warning,
                    &child_coll,
                    "",
                    message,
                    fix,
                ));
            }
        }
    }
    out
}
