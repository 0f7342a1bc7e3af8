//! What the console says of a command's plan: the one-line summary of a winning plan and the
//! `explain` document of a read, as mongod returns it.

use bson::{doc, Bson, Document};

use super::{ExecError, Verbosity};
use crate::engine::{CommandResult, PlanStage};

/// Returns mongod's `planSummary` of a plan: its access paths, e.g. `COLLSCAN`,
/// `IXSCAN { followers: 1 }`, or several separated by `, ` (an `$or`).
pub fn plan_summary(plan: &PlanStage) -> String {
    let mut leaves = Vec::new();
    collect_leaves(plan, &mut leaves);
    leaves.dedup();
    leaves.join(", ")
}

fn collect_leaves(plan: &PlanStage, out: &mut Vec<String>) {
    match plan {
        PlanStage::Eof => out.push("EOF".into()),
        PlanStage::Collscan { .. } => out.push("COLLSCAN".into()),
        PlanStage::Ixscan { key_pattern, .. } => out.push(format!(
            "IXSCAN {}",
            crate::ejson::to_shell_string(&Bson::Document(key_pattern.clone()), false)
        )),
        PlanStage::Or { inputs } => inputs.iter().for_each(|i| collect_leaves(i, out)),
        other => {
            if let Some(input) = other.input() {
                collect_leaves(input, out);
            }
        }
    }
}

/// Returns a count as mongosh shows it: a JavaScript number (`12`, not `Long('12')`), which
/// `countDocuments`, `count` and `itcount` return (the driver turns the server's count into a
/// number). A 32-bit integer where it fits, else a double (exact up to 2^53).
pub(super) fn count_value_of(n: i64) -> Bson {
    i32::try_from(n).map_or(Bson::Double(n as f64), Bson::Int32)
}

/// Returns the explain document of a read as mongod's `explain` returns it and mongosh prints
/// it (https://www.mongodb.com/docs/manual/reference/explain-results/): `queryPlanner` with the
/// namespace and the winning plan; with the `executionStats` verbosity (or
/// `allPlansExecution`) also `executionStats`: `executionSuccess`, `nReturned`,
/// `totalKeysExamined`, `totalDocsExamined` and `executionStages`, the stage tree that ran.
///
/// `executionTimeMillis` is left out: the engine's time is not mongod's, and a made-up figure
/// would be read as one. The stages carry their own fields but not per-stage counters (the
/// engine counts per command). A `$lookup`'s own reads are listed under
/// `executionStats.lookups` (not a mongod field).
pub fn explain_document(
    result: &CommandResult,
    verbosity: Verbosity,
    namespace: &str,
) -> Result<Document, ExecError> {
    let plan = result
        .plan
        .as_ref()
        .map_or(Bson::Null, |p| Bson::Document(p.to_document()));
    let number = |n: u64| i32::try_from(n).map_or(Bson::Int64(n as i64), Bson::Int32);
    let mut out = doc! {
        "explainVersion": "1",
        "queryPlanner": {
            "namespace": namespace,
            "winningPlan": plan.clone(),
            "rejectedPlans": [],
        },
    };
    if verbosity != Verbosity::QueryPlanner {
        let e = &result.stats.exec;
        let mut stats = doc! {
            "executionSuccess": true,
            "nReturned": number(e.n_returned),
            "totalKeysExamined": number(e.keys_examined),
            "totalDocsExamined": number(e.docs_examined),
            "executionStages": plan,
        };
        if verbosity == Verbosity::AllPlansExecution {
            stats.insert("allPlansExecution", Bson::Array(Vec::new()));
        }
        if !result.stats.lookups.is_empty() {
            // Relaxed JSON read back by our own reader rather than bson's `TryFrom<Value>`,
            // whose second Extended JSON reader would cost the page about 35 KB.
            let json = serde_json::to_string(&result.stats.lookups)
                .map_err(|e| ExecError::at("explain", format!("explain(): {e}")))?;
            let lookups = crate::ejson::parse_value(&json)
                .map_err(|e| ExecError::at("explain", format!("explain(): {e}")))?;
            stats.insert("lookups", lookups);
        }
        out.insert("executionStats", stats);
    }
    out.insert("ok", 1);
    Ok(out)
}
