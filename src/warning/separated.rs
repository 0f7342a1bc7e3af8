//! MongoDB's "separating data that is accessed together" anti-pattern: a workload read that
//! pays extra round trips for children kept in another collection, though the children are
//! bounded and reached only through their parent, so the `denormalized` design would embed
//! them (the rule of [`named_strategy`]).

use super::{Severity, Warning};
use crate::design::Layout;
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
                let message = format!(
                    "\"{}\" ({}/s) reads {entity} by {by} with its {} in {trips} round trips, {extra} of them for the {} documents in collection {child_coll}: read together, stored apart, though no {} has more than {} (bounded, not growing) and no workload step reads, lists, inserts or deletes {} documents on their own. Embedded, the read is {saved} round trip{}: {} round trip{} a second fewer",
                    unit.name,
                    unit.rate_per_sec,
                    r.name,
                    r.child,
                    r.parent,
                    r.cardinality.max(),
                    r.child,
                    if saved == 1 { "" } else { "s" },
                    fewer,
                    if fewer == 1.0 { "" } else { "s" },
                );
                let fix = format!(
                    "Store together what is read together: embed {} in {} (strategy embed, as the denormalized design does), or keep an extended reference that copies the {} fields the read shows (strategy extended_reference with copy).",
                    r.child, r.parent, r.child
                );
                out.push(Warning::new(
                    "SEPARATED_READ",
                    Severity::Warning,
                    &child_coll,
                    "",
                    message,
                    &fix,
                ));
            }
        }
    }
    out
}
