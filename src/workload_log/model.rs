//! The logs' workload in a model: given to a model inferred from the same database's
//! documents (replacing the starter workload, whose every unit was a guess), or a model of
//! its own built from the logs alone (an entity per collection, with the fields the shapes
//! use). Every unit is checked as the model is (`parse_model`'s validation): a unit the model
//! refuses (a field the documents do not have, a sort on an unknown field) is left out and
//! reported with the validation's words.

use serde::Serialize;
use serde_json::{json, Value};

use super::operations::{self, ShapeReport};
use super::{BadLine, LogSource, LogWorkload, SkippedOperations};
use crate::model::{model_from_value, Model};

/// Why a model could not be made from logs.
#[derive(Debug, thiserror::Error)]
pub enum LogModelError {
    /// No operation of an application's collection was read.
    #[error("no operation on an application's collection was read: nothing to infer")]
    NoOperations,
    /// The model made does not validate (a bug: its problems are listed).
    #[error("the model made from the logs is not valid: {0}")]
    Invalid(String),
    /// The model could not be written as JSON.
    #[error("the model cannot be written as JSON: {0}")]
    Json(#[from] serde_json::Error),
}

/// A unit left out because the model refuses it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RefusedUnit {
    /// The unit's name.
    pub unit: String,
    /// The model's problems with it.
    pub problems: Vec<String>,
}

/// What `squillion infer --log` reports of the logs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LogReport {
    /// Each log read.
    pub sources: Vec<LogSource>,
    /// The time the logs cover, in seconds (the union of their spans).
    pub span_seconds: f64,
    /// Operations counted in shapes.
    pub operations: u64,
    /// Every shape, most frequent first, with the unit it became or why none.
    pub shapes: Vec<ShapeReport>,
    /// The units the model refused, left out.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub refused: Vec<RefusedUnit>,
    /// Operations left out of the model (internal and system namespaces, cursors, write
    /// envelopes, commands the model cannot express), by reason, namespace and command.
    pub skipped_operations: Vec<SkippedOperations>,
    /// Operations of shapes past the most kept ([`super::group::MAX_SHAPES`]).
    #[serde(skip_serializing_if = "is_zero")]
    pub overflow_operations: u64,
    /// What the model assumes beyond each shape's own assumptions.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub assumed: Vec<String>,
    /// Bad lines in all.
    pub bad_lines: u64,
    /// The first bad lines, with why.
    pub bad: Vec<BadLine>,
}

/// True for 0 (serde's skip).
fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// What every logged rate assumes.
const RATES_ASSUMED: &str = "rates count the operations logged: mongod logs those slower than \
    slowms (100 ms by default), a sampleRate share of them (1 by default), unless its settings \
    log every one (slowms -1, or the profiler at level 2)";

/// What the rates of `$queryStats` entries assume.
const GROUPED_RATES_ASSUMED: &str = "a $queryStats entry's rate is its execCount over its \
    first to latest seen time (since mongod started or the entry was last evicted; an entry \
    seen once counts over one second), and its durations have no percentiles ($queryStats \
    keeps a sum, a min and a max)";

/// What the logs' rates assume: logged operations, and `$queryStats` entries when there are.
fn rates_assumed(log: &LogWorkload) -> Vec<String> {
    let shapes = &log.groups.shapes;
    let grouped = shapes.iter().any(|(_, s)| s.grouped.0 > 0);
    let logged = shapes.iter().any(|(_, s)| s.count > s.grouped.0);
    let mut assumed = Vec::new();
    if logged || !grouped {
        assumed.push(RATES_ASSUMED.to_string());
    }
    if grouped {
        assumed.push(GROUPED_RATES_ASSUMED.to_string());
    }
    assumed
}

/// Gives `model` (inferred from documents) the logs' workload in place of its own, and says
/// so in its description; returns the report.
pub fn with_logged_workload(
    model: &mut Model,
    log: &LogWorkload,
) -> Result<LogReport, LogModelError> {
    let mapped = operations::map(log, Some(model));
    let mut value = serde_json::to_value(&*model)?;
    let (accepted, refused) = accepted_units(&mut value, mapped.units)?;
    *model = accepted;
    let description = model.description.take().unwrap_or_default();
    // The starter workload's note (infer::starter) no longer holds.
    let description = match description.find(" Its workload (") {
        Some(i) => description.get(..i).unwrap_or_default().to_string(),
        None => description,
    };
    model.description = Some(format!(
        "{description} Its workload ({} units) is measured from mongod logs: {} operations \
         over {} s.",
        model.workload.len(),
        counted(log),
        crate::human::thousands(log.span_seconds.round() as u64)
    ));
    let mut assumed = rates_assumed(log);
    assumed.extend(databases_assumed(log));
    Ok(report(log, mapped.shapes, refused, assumed))
}

/// Returns a model made from the logs alone: an entity per collection the shapes name, with
/// the fields they use, and the workload.
pub fn model_from_logs(log: &LogWorkload) -> Result<(Model, LogReport), LogModelError> {
    if log.groups.shapes.is_empty() {
        return Err(LogModelError::NoOperations);
    }
    let mapped = operations::map(log, None);
    let (entities, mut assumed) = operations::entities(log);
    assumed.push(
        "every field's type is the type of the values it is compared with or set \
        to, else string; its other properties are the model's defaults"
            .to_string(),
    );
    assumed.extend(rates_assumed(log));
    assumed.extend(databases_assumed(log));
    let mut value = json!({
        "description": format!(
            "Inferred by squillion infer from mongod logs: {} operations over {} s; the \
             entities hold the fields the operations use.",
            counted(log),
            crate::human::thousands(log.span_seconds.round() as u64)
        ),
        "entities": entities,
    });
    let (model, refused) = accepted_units(&mut value, mapped.units)?;
    Ok((model, report(log, mapped.shapes, refused, assumed)))
}

/// What naming entities by collection assumes when the shapes are of several databases.
fn databases_assumed(log: &LogWorkload) -> Option<String> {
    let mut databases: Vec<&str> = log
        .groups
        .shapes
        .iter()
        .map(|(_, s)| s.operation.database.as_str())
        .collect();
    databases.sort_unstable();
    databases.dedup();
    (databases.len() > 1).then(|| {
        format!(
            "the operations are on {} databases ({}): their collections are named without \
             the database, and collections of the same name are one entity",
            databases.len(),
            databases.join(", ")
        )
    })
}

/// Operations counted in shapes.
fn counted(log: &LogWorkload) -> u64 {
    log.groups.shapes.iter().map(|(_, s)| s.count).sum()
}

/// Sets `value`'s workload to `units` and reads it as a model, leaving out the units the
/// model's validation refuses; returns the model and the units refused.
fn accepted_units(
    value: &mut Value,
    mut units: Vec<Value>,
) -> Result<(Model, Vec<RefusedUnit>), LogModelError> {
    let mut refused = Vec::new();
    // Each pass leaves out every unit with a problem; a unit is refused once, so at most
    // as many passes as units (and one more).
    for _ in 0..=units.len() {
        if let Some(m) = value.as_object_mut() {
            m.insert("workload".to_string(), Value::Array(units.clone()));
        }
        let errors = match model_from_value(value.clone()) {
            Ok(model) => return Ok((model, refused)),
            Err(e) => e.errors,
        };
        let mut bad: Vec<(usize, String)> = errors
            .iter()
            .filter_map(|e| {
                let rest = e.path.strip_prefix("$.workload[")?;
                let close = rest.find(']')?;
                let i: usize = rest.get(..close)?.parse().ok()?;
                // The path inside the unit: the unit's index changes as units are left out.
                let inside = rest.get(close + 1..)?.trim_start_matches('.');
                Some((i, format!("{inside}: {}", e.message)))
            })
            .collect();
        if bad.is_empty() {
            let problems: Vec<String> = errors
                .iter()
                .map(|e| format!("{}: {}", e.path, e.message))
                .collect();
            return Err(LogModelError::Invalid(problems.join("; ")));
        }
        bad.sort();
        for i in (0..units.len()).rev() {
            let problems: Vec<String> = bad
                .iter()
                .filter(|(j, _)| *j == i)
                .map(|(_, p)| p.clone())
                .collect();
            if problems.is_empty() {
                continue;
            }
            let unit = units.remove(i);
            let name = unit
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            refused.push(RefusedUnit {
                unit: name,
                problems,
            });
        }
    }
    Err(LogModelError::Invalid(
        "the workload's units could not be checked".to_string(),
    ))
}

/// Returns the report of logs that gave no model (their sources, skipped operations and bad
/// lines).
pub fn empty_report(log: &LogWorkload) -> LogReport {
    report(log, Vec::new(), Vec::new(), Vec::new())
}

/// Returns the report, the refused units' shapes marked.
fn report(
    log: &LogWorkload,
    mut shapes: Vec<ShapeReport>,
    refused: Vec<RefusedUnit>,
    assumed: Vec<String>,
) -> LogReport {
    for s in &mut shapes {
        if let Some(r) = refused.iter().find(|r| Some(&r.unit) == s.unit.as_ref()) {
            s.not_mapped = Some(format!(
                "the model refuses its unit: {}",
                r.problems.join("; ")
            ));
            s.unit = None;
        }
    }
    LogReport {
        sources: log.sources.clone(),
        span_seconds: log.span_seconds,
        operations: counted(log),
        shapes,
        refused,
        skipped_operations: log.skipped.clone(),
        overflow_operations: log.groups.overflow,
        assumed,
        bad_lines: log.bad_lines,
        bad: log.bad.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workload_log::LogReading;

    /// A JSON slow query at second `s` of a find on `ns` by `field`.
    fn find(s: u32, ns: &str, field: &str) -> String {
        let collection = ns.split_once('.').map_or(ns, |(_, c)| c);
        format!(
            r#"{{"t":{{"$date":"2024-03-01T10:00:{s:02}.000Z"}},"msg":"Slow query","id":51803,"attr":{{"type":"command","ns":"{ns}","command":{{"find":"{collection}","filter":{{"{field}":1}}}},"durationMillis":100}}}}"#
        ) + "\n"
    }

    #[test]
    fn collections_of_two_databases_are_one_entity_said_as_assumed() {
        let log = find(0, "shop.users", "age") + &find(10, "crm.users", "score");
        let mut reading = LogReading::new();
        reading.read("x.log", log.as_bytes()).unwrap();
        let (model, report) = model_from_logs(&reading.finish()).unwrap();
        assert_eq!(model.entities.len(), 1);
        let users = model.entity("users").unwrap();
        assert_eq!(users.fields.0.len(), 2);
        assert!(
            report
                .assumed
                .iter()
                .any(|a| a.contains("2 databases (crm, shop)")),
            "{:?}",
            report.assumed
        );
        // Each read is one a second over the 10 s: 0.1/s.
        assert_eq!(model.workload.len(), 2);
        assert!(model.workload.iter().all(|u| u.rate_per_sec == 0.1));
    }

    #[test]
    fn a_log_without_application_operations_makes_no_model() {
        let mut reading = LogReading::new();
        reading
            .read("x.log", find(0, "admin.$cmd", "x").as_bytes())
            .unwrap();
        assert!(matches!(
            model_from_logs(&reading.finish()),
            Err(LogModelError::NoOperations)
        ));
    }
}
