//! What mongod logged beside what Squillion predicts: for each workload unit read from logs
//! (`crate::workload_log`), the figures mongod logged per operation (the means of
//! `keysExamined`, `docsExamined` and `nreturned`, and the plans used) beside the evaluation's
//! figures for that unit under the model's own design (the typical run's total at full
//! scale, `OperationEval::typical`), with their ratio, and a reading where they disagree by
//! [`FACTOR`] or more: a missing index, a different plan, data skew, a different limit.
//!
//! Both sides are per operation on the whole data: the log's figures are what each logged
//! operation did on the real collections, the prediction is one run of the unit at the
//! model's full-scale counts (not the sample's). The prediction is the typical subject's
//! (the median of the model's distributions), the log's a mean over every operation logged:
//! a skewed distribution makes them differ by its mean ÷ median.

use serde::Serialize;

use super::offer::CUSTOM;
use super::{Basis, EvalError, EvalOptions, Evaluation, OperationEval};
use crate::model::Model;
use crate::workload_log::model::LogReport;
use crate::workload_log::operations::{PlanCount, ShapeReport};

/// How far apart measured and predicted must be (either way) for a reading: 4×.
pub const FACTOR: f64 = 4.0;

/// Every unit the logs gave, measured beside predicted.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    /// The design predicted (the model's own, as `squillion eval` runs it by default).
    pub design: String,
    /// How far apart the two sides are before a row has a reading ([`FACTOR`]).
    pub factor: f64,
    /// One row per unit, in the order of the report's shapes (most frequent first).
    pub rows: Vec<Row>,
    /// Why nothing was predicted, when the evaluation failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_predicted: Option<String>,
}

/// One unit: mongod's figures, Squillion's, their ratio and what their difference says.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// The workload unit.
    pub unit: String,
    /// The shapes that became it (`find shop.users {"email":"?string"}`).
    pub shapes: Vec<String>,
    /// What mongod logged.
    pub measured: Measured,
    /// What Squillion predicts (none when the evaluation has no such unit).
    pub predicted: Option<Predicted>,
    /// Measured ÷ predicted; `null` where one side is zero and the other not, or absent.
    pub ratio: Ratios,
    /// Why they disagree, when a ratio is [`FACTOR`] or more either way, or the plans
    /// differ (a collection scan logged where the design uses an index).
    pub reading: Option<String>,
}

/// mongod's figures of a unit: means per operation over its shapes, weighted by their
/// operations.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Measured {
    /// Operations logged (of the unit's own shapes: a shape read as their children is a
    /// part of each).
    pub operations: u64,
    /// Round trips per operation: one, and the reads that followed it on its connection as
    /// its children (joined ÷ operations).
    pub round_trips: f64,
    /// Mean `keysExamined` (none when no shape reports it).
    pub keys_examined: Option<f64>,
    /// Mean `docsExamined`.
    pub docs_examined: Option<f64>,
    /// Mean `nreturned`.
    pub returned: Option<f64>,
    /// The plans used, most used first.
    pub plans: Vec<PlanCount>,
}

/// Squillion's figures of a unit: its typical run at full scale.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Predicted {
    /// Index keys examined (`typical.total.keys_examined`).
    pub keys_examined: f64,
    /// Documents examined (`typical.total.docs_examined`).
    pub docs_examined: f64,
    /// Documents returned (`typical.total.docs_returned`).
    pub returned: f64,
    /// Round trips (`typical.queries`; each logged operation is one).
    pub round_trips: u64,
    /// The plans of its commands (an index name, `COLLSCAN`, `EOF`), in order, each once.
    pub plans: Vec<String>,
    /// The weakest basis of the three figures (`sample`, `full_scale`, `estimate`).
    pub basis: Basis,
}

/// Measured ÷ predicted, per figure.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Ratios {
    /// Keys examined.
    pub keys_examined: Option<f64>,
    /// Documents examined.
    pub docs_examined: Option<f64>,
    /// Documents returned.
    pub returned: Option<f64>,
}

/// Evaluates `model` (with the logs' workload) under its own design and returns each
/// logged unit's figures beside the prediction; an evaluation that fails gives no rows and
/// says why.
pub fn predict(model: &Model, report: &LogReport, opts: &EvalOptions) -> Comparison {
    match super::evaluate_offered(model, CUSTOM, opts) {
        Ok(e) => beside_predicted(report, &e),
        Err(e) => not_predicted(&e),
    }
}

/// Returns the comparison of an evaluation that failed.
fn not_predicted(e: &EvalError) -> Comparison {
    Comparison {
        design: CUSTOM.to_string(),
        factor: FACTOR,
        rows: Vec::new(),
        not_predicted: Some(format!("the model's design cannot be evaluated: {e}")),
    }
}

/// Returns each unit of `report` with mongod's figures beside `evaluation`'s.
pub fn beside_predicted(report: &LogReport, evaluation: &Evaluation) -> Comparison {
    let mut units: Vec<&str> = Vec::new();
    for s in &report.shapes {
        if let Some(u) = s.unit.as_deref() {
            if !units.contains(&u) {
                units.push(u);
            }
        }
    }
    let rows = units
        .into_iter()
        .map(|unit| {
            let shapes: Vec<&ShapeReport> = report
                .shapes
                .iter()
                .filter(|s| s.unit.as_deref() == Some(unit))
                .collect();
            let operation = evaluation.operations.iter().find(|o| o.unit == unit);
            row(unit, &shapes, operation)
        })
        .collect();
    Comparison {
        design: evaluation.design.clone(),
        factor: FACTOR,
        rows,
        not_predicted: None,
    }
}

/// Returns the row of `unit`, logged as `shapes`, evaluated as `operation`.
fn row(unit: &str, shapes: &[&ShapeReport], operation: Option<&OperationEval>) -> Row {
    let measured = measured(shapes);
    let predicted = operation.map(predicted);
    let ratio = match &predicted {
        Some(p) => Ratios {
            keys_examined: ratio(measured.keys_examined, p.keys_examined),
            docs_examined: ratio(measured.docs_examined, p.docs_examined),
            returned: ratio(measured.returned, p.returned),
        },
        None => Ratios {
            keys_examined: None,
            docs_examined: None,
            returned: None,
        },
    };
    let reading = predicted
        .as_ref()
        .and_then(|p| reading(&measured, p, &ratio));
    Row {
        unit: unit.to_string(),
        shapes: shapes.iter().map(|s| s.describe()).collect(),
        measured,
        predicted,
        ratio,
        reading,
    }
}

/// Returns the shapes' figures: each mean weighted by the shape's operations.
fn measured(shapes: &[&ShapeReport]) -> Measured {
    // The unit's own shapes are alternatives of one operation (a mean over them); a shape
    // read as another's children (an application-level join) is a part of each operation:
    // the figures of its operations that followed one are added, spread over the own
    // shapes' operations.
    let (joined, own): (Vec<&ShapeReport>, Vec<&ShapeReport>) =
        shapes.iter().partition(|s| s.children_of.is_some());
    let (joined, own) = match own.is_empty() {
        true => (Vec::new(), joined),
        false => (joined, own),
    };
    let operations: u64 = own.iter().map(|s| s.count).sum();
    let mean = |figure: fn(&ShapeReport) -> Option<f64>| {
        let (sum, n) = own
            .iter()
            .filter_map(|s| figure(s).map(|v| (v * s.count as f64, s.count)))
            .fold((0.0, 0u64), |(a, n), (v, c)| (a + v, n + c));
        let parts: f64 = joined
            .iter()
            .filter_map(|s| Some(figure(s)? * s.children_of.as_ref()?.joined as f64))
            .sum();
        (n > 0).then(|| sum / n as f64 + parts / operations.max(1) as f64)
    };
    let mut plans: Vec<PlanCount> = Vec::new();
    for p in shapes.iter().flat_map(|s| &s.plans) {
        match plans.iter_mut().find(|q| q.plan == p.plan) {
            Some(q) => q.count += p.count,
            None => plans.push(p.clone()),
        }
    }
    plans.sort_by(|a, b| b.count.cmp(&a.count).then(a.plan.cmp(&b.plan)));
    let joined_reads: u64 = joined
        .iter()
        .filter_map(|s| s.children_of.as_ref().map(|c| c.joined))
        .sum();
    Measured {
        operations,
        round_trips: 1.0 + joined_reads as f64 / operations.max(1) as f64,
        keys_examined: mean(|s| s.keys_examined),
        docs_examined: mean(|s| s.docs_examined),
        returned: mean(|s| s.nreturned),
        plans,
    }
}

/// Returns the typical run's figures of `operation`.
fn predicted(operation: &OperationEval) -> Predicted {
    let run = &operation.typical;
    let mut plans: Vec<String> = Vec::new();
    for c in run.commands.iter().filter(|c| c.not_sent.is_none()) {
        if !c.plan.is_empty() && !plans.contains(&c.plan) {
            plans.push(c.plan.clone());
        }
    }
    let t = &run.total;
    Predicted {
        keys_examined: t.keys_examined.value,
        docs_examined: t.docs_examined.value,
        returned: t.docs_returned.value,
        round_trips: run.queries,
        plans,
        basis: t
            .keys_examined
            .basis
            .max(t.docs_examined.basis)
            .max(t.docs_returned.basis),
    }
}

/// Measured ÷ predicted: 1 when both are zero, none when only one is (or none was logged).
fn ratio(measured: Option<f64>, predicted: f64) -> Option<f64> {
    match measured {
        Some(m) if m == 0.0 && predicted == 0.0 => Some(1.0),
        Some(m) if m > 0.0 && predicted > 0.0 => Some(m / predicted),
        _ => None,
    }
}

/// Returns a ratio as the readings say it: `40×`, `2.5×`, `0.94×`, `1/20 of` (a fraction
/// under a half as its inverse, which reads better than a decimal there).
pub fn times(r: f64) -> String {
    if r >= 10.0 {
        format!("{r:.0}×")
    } else if r >= 1.0 {
        format!("{r:.1}×")
    } else if r > 0.5 {
        format!("{r:.2}×")
    } else {
        format!("1/{:.0} of", 1.0 / r)
    }
}

/// What the differences between `m` and `p` suggest, or none when they agree within
/// [`FACTOR`] and the plans are alike.
fn reading(m: &Measured, p: &Predicted, r: &Ratios) -> Option<String> {
    let far = |x: Option<f64>| x.filter(|x| *x >= FACTOR || *x <= 1.0 / FACTOR);
    let scan_logged = m.plans.iter().any(|q| q.plan == "COLLSCAN");
    let scan_predicted = p.plans.iter().any(|q| q == "COLLSCAN");
    let scan_only_logged = scan_logged && !scan_predicted;
    let mut notes = Vec::new();
    if let Some(x) = far(r.docs_examined) {
        let why = match (x >= FACTOR, scan_only_logged) {
            (true, true) => "a missing index or a different plan (COLLSCAN logged)",
            (true, false) => "a missing index or a different plan",
            (false, _) => {
                "a smaller collection than the model's count, or an index the design lacks"
            }
        };
        notes.push(format!(
            "mongod examined {} the documents Squillion predicts: {why}",
            times(x)
        ));
    } else if scan_only_logged {
        notes.push(format!(
            "mongod scanned the collection (COLLSCAN logged) where Squillion's design uses {}: \
             the deployment lacks the index",
            p.plans.join(", ")
        ));
    }
    if let Some(x) = far(r.keys_examined) {
        let why = if x >= FACTOR {
            "a less selective index or a different plan"
        } else {
            "a more selective index than the design's"
        };
        notes.push(format!(
            "mongod examined {} the index keys Squillion predicts: {why}",
            times(x)
        ));
    }
    if let Some(x) = far(r.returned) {
        notes.push(format!(
            "mongod returned {} the documents Squillion predicts: data skew (the real \
             distribution is not the model's) or a different limit",
            times(x)
        ));
    }
    (!notes.is_empty()).then(|| notes.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn measured(keys: f64, docs: f64, returned: f64, plan: &str) -> Measured {
        Measured {
            operations: 3,
            round_trips: 1.0,
            keys_examined: Some(keys),
            docs_examined: Some(docs),
            returned: Some(returned),
            plans: vec![PlanCount {
                plan: plan.to_string(),
                count: 3,
            }],
        }
    }

    fn predicted(keys: f64, docs: f64, returned: f64, plan: &str) -> Predicted {
        Predicted {
            keys_examined: keys,
            docs_examined: docs,
            returned,
            round_trips: 1,
            plans: vec![plan.to_string()],
            basis: Basis::Sample,
        }
    }

    fn ratios(m: &Measured, p: &Predicted) -> Ratios {
        Ratios {
            keys_examined: ratio(m.keys_examined, p.keys_examined),
            docs_examined: ratio(m.docs_examined, p.docs_examined),
            returned: ratio(m.returned, p.returned),
        }
    }

    #[test]
    fn a_collection_scan_where_an_index_is_predicted_is_read_as_a_missing_index() {
        let m = measured(0.0, 40.0, 1.0, "COLLSCAN");
        let p = predicted(1.0, 1.0, 1.0, "email_1");
        let r = ratios(&m, &p);
        assert_eq!(
            (r.keys_examined, r.docs_examined, r.returned),
            (None, Some(40.0), Some(1.0))
        );
        assert_eq!(
            reading(&m, &p, &r).unwrap(),
            "mongod examined 40× the documents Squillion predicts: a missing index or a \
             different plan (COLLSCAN logged)"
        );
    }

    #[test]
    fn figures_within_the_factor_have_no_reading_and_zeros_agree() {
        let m = measured(0.0, 3.0, 0.0, "IXSCAN { a: 1 }");
        let p = predicted(0.0, 1.0, 0.0, "a_1");
        let r = ratios(&m, &p);
        assert_eq!((r.keys_examined, r.returned), (Some(1.0), Some(1.0)));
        assert_eq!(reading(&m, &p, &r), None);
        let skewed = measured(1.0, 1.0, 100.0, "IXSCAN { a: 1 }");
        let p = predicted(1.0, 1.0, 5.0, "a_1");
        let text = reading(&skewed, &p, &ratios(&skewed, &p)).unwrap();
        assert!(
            text.starts_with("mongod returned 20× the documents"),
            "{text}"
        );
        assert_eq!(times(0.05), "1/20 of");
        assert_eq!(times(0.5), "1/2 of");
        // Under one but near it: two decimals, not "1/1 of".
        assert_eq!(times(0.94), "0.94×");
    }
}
