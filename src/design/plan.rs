//! The evaluation plan: every application unit as a list of engine commands, as plain data
//! (collection, kind, filter, sort, limit, projection, update), each with its mongosh code.
//!
//! Values that only exist at run time are parameters, written `{"$param": "user._id"}` inside
//! filters and updates; the evaluator binds them from the materialized documents (the largest
//! parent, a random parent, …). In mongosh they appear as plain variables (`user._id`).

mod reads;
mod writes;

use serde::Serialize;

pub use super::command::{
    doc_to_json, json_to_doc, param, ser_doc, ser_docs, ser_opt_doc, shell, Command, CommandKind,
};
use super::layout::Layout;
use crate::model::design::Strategy;
use crate::model::{Model, Relationship, Step};

/// Every unit's commands.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Plan {
    /// One entry per application unit, in workload order.
    pub units: Vec<UnitPlan>,
}

/// One application unit's commands.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnitPlan {
    /// The unit's name.
    pub unit: String,
    /// Runs per second.
    pub rate_per_sec: f64,
    /// The commands, in order; each is one round trip.
    pub commands: Vec<Command>,
}

impl UnitPlan {
    /// Returns the round trips one run of the unit makes.
    pub fn queries(&self) -> usize {
        self.commands.len()
    }
}

impl std::fmt::Display for UnitPlan {
    /// Writes the unit as its mongosh lines, one round trip per line, with why each exists.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{} ({}/s, {} round trip(s))",
            self.unit,
            self.rate_per_sec,
            self.queries()
        )?;
        for c in &self.commands {
            writeln!(f, "  {}  // {}", c.mongosh(), c.note)?;
        }
        Ok(())
    }
}

impl std::fmt::Display for Plan {
    /// Writes every unit's commands.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for u in &self.units {
            write!(f, "{u}")?;
        }
        Ok(())
    }
}

/// Builds the plan of every unit of `model` under `layout`.
pub fn build(model: &Model, layout: &Layout) -> Plan {
    let mut units = Vec::new();
    for u in &model.workload {
        let mut commands = Vec::new();
        for (i, s) in u.steps.iter().enumerate() {
            step_commands(model, layout, i, s, &mut commands);
        }
        units.push(UnitPlan {
            unit: u.name.clone(),
            rate_per_sec: u.rate_per_sec,
            commands,
        });
    }
    Plan { units }
}

pub(super) fn collection_for(layout: &Layout, entity: &str) -> String {
    layout
        .collection_of(entity)
        .map_or_else(|| entity.to_string(), |c| c.name.clone())
}

/// The collection and array path where an embedded entity lives (when it has no collection).
pub(super) fn embedding_of<'a>(
    model: &'a Model,
    layout: &Layout,
    entity: &str,
) -> Option<&'a Relationship> {
    model
        .relationships
        .iter()
        .find(|r| r.child == entity && matches!(layout.strategy(&r.name), Some(Strategy::Embed)))
}

fn step_commands(model: &Model, layout: &Layout, i: usize, step: &Step, out: &mut Vec<Command>) {
    match step {
        Step::Read { .. }
        | Step::FindParents { .. }
        | Step::ReadFeed { .. }
        | Step::List { .. }
        | Step::FindByAttribute { .. } => reads::commands(model, layout, i, step, out),
        _ => writes::commands(model, layout, i, step, out),
    }
}
