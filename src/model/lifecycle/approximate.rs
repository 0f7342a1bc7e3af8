//! `approximate`: a counter written once every `every` events (by `every`), so the unit that
//! increments it runs `every` times less often.

use crate::model::{Model, Step, Unit};

/// True for the step that increments the approximated counter `entity.field`.
pub fn counts(step: &Step, entity: &str, field: &str) -> bool {
    matches!(
        step,
        Step::Update { entity: e, field: f, increment: true, .. } if e == entity && f == field
    )
}

/// Divides the rate of every unit that increments `entity.field` by `every`; a unit that also
/// does something else keeps its other steps at its rate and gives the counter's update a unit
/// of its own (`<unit>: <field>, 1 in N`).
pub(super) fn apply(model: &mut Model, entity: &str, field: &str, every: u64) {
    let n = every.max(1) as f64;
    let mut out = Vec::with_capacity(model.workload.len());
    for u in model.workload.drain(..) {
        let (counted, rest): (Vec<Step>, Vec<Step>) = u
            .steps
            .iter()
            .cloned()
            .partition(|s| counts(s, entity, field));
        if counted.is_empty() {
            out.push(u);
        } else if rest.is_empty() {
            out.push(Unit {
                name: format!("{} (1 in {every} written)", u.name),
                rate_per_sec: u.rate_per_sec / n,
                steps: counted,
            });
        } else {
            out.push(Unit {
                name: u.name.clone(),
                rate_per_sec: u.rate_per_sec,
                steps: rest,
            });
            out.push(Unit {
                name: format!("{}: {field} (1 in {every} written)", u.name),
                rate_per_sec: u.rate_per_sec / n,
                steps: counted,
            });
        }
    }
    model.workload = out;
}
