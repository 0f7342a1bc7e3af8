//! Verification: a screened design run for real on the engine (what `squillion eval --design`
//! runs), its figures read the way the screen computes them, and every figure where the two
//! disagree beyond the screen's tolerance.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use super::screen::Screen;
use crate::design::{DesignSpec, Layout};
use crate::eval::{EvalOptions, Evaluation, Metric};
use crate::model::Model;
use crate::stats::CollectionStats;

/// Relative slack on top of a tolerance, for floating-point sums.
const SLACK: f64 = 1e-9;

/// How far, as a share of the screened figure, the engine's index bytes may be: the engine
/// measures keys and key bytes on its sample (string lengths drawn, arrays cut at 10,000
/// elements, duplicate keys of one document counted once) where the screen takes the means.
pub const INDEX_BYTES_SHARE: f64 = 0.25;

/// A design's figures as the engine measured them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EngineFigures {
    /// Read round trips per second (typical subject): the screen's `reads`.
    pub reads: f64,
    /// Documents written per second: the screen's `writes`.
    pub writes: f64,
    /// Index keys written per second: the screen's `index_keys_written`.
    #[serde(default)]
    pub index_keys_written: f64,
    /// Data bytes at full scale: the screen's `storage`.
    pub storage: f64,
    /// Index bytes at full scale (an estimate from the sample): the screen's `index_bytes`.
    #[serde(default)]
    pub index_bytes: f64,
    /// Documents examined per second (the engine's planner decides it: not screened).
    pub docs_examined: f64,
    /// Index keys examined per second (not screened).
    pub keys_examined: f64,
    /// Requests to shards per second (not screened).
    pub shard_requests: f64,
    /// The codes of the evaluation's error-severity warnings; empty when feasible.
    pub infeasible: Vec<String>,
    /// Commands the engine refused while running the workload (`unit: error`): such a design
    /// is never recommended, and the refusal is reported as a disagreement.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub command_errors: Vec<String>,
    /// Steps whose plan does not give the step's logical answer on the engine
    /// ([`crate::eval::answer`]): such a design answers another question and is never
    /// recommended.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub answer_problems: Vec<String>,
}

impl EngineFigures {
    /// True when the evaluation has no error-severity warning, every command ran and every
    /// step gave its logical answer.
    pub fn sound(&self) -> bool {
        self.infeasible.is_empty()
            && self.command_errors.is_empty()
            && self.answer_problems.is_empty()
    }
}

/// Documents per entity the logical answer check of a verified design materializes: enough
/// for every plan path (the largest parent is document 0 of every sample), a fraction of the
/// evaluation's time.
const ANSWER_SAMPLE: u64 = 30;

/// Returns the steps of `spec` whose plans do not give their logical answer on the engine
/// (`unit (step, subject): what`), or why the check could not run. The sample comes from
/// `samples` (shared with designs that lay out the same collections); the full-scale
/// statistics of the collections from `evaluated`, the evaluation of the same design
/// ([`evaluate`]), so that its sizes are not simulated twice.
pub fn answer_problems(
    model: &Model,
    spec: &DesignSpec,
    samples: &mut crate::eval::Samples,
    evaluated: &Evaluation,
) -> Vec<String> {
    let (model, spec) = crate::eval::offer::lowered_ref(model, spec);
    let layout = match Layout::build(&model, &spec) {
        Ok(l) => l,
        Err(e) => return vec![e.to_string()],
    };
    let small = EvalOptions {
        max_documents: Some(ANSWER_SAMPLE),
        ..Default::default()
    };
    let stats: Vec<CollectionStats> = evaluated
        .collections
        .iter()
        .map(|c| c.stats.clone())
        .collect();
    let report =
        crate::eval::answer::check_in(&model, &layout, &small, samples, &stats).or_else(|_| {
            crate::eval::answer::check_in(&model, &layout, &EvalOptions::default(), samples, &stats)
        });
    match report {
        Ok(r) => r.problems.iter().map(ToString::to_string).collect(),
        Err(e) => vec![e.to_string()],
    }
}

impl EngineFigures {
    /// Returns the figures of an evaluation.
    pub fn of(e: &Evaluation) -> EngineFigures {
        let reads = e
            .operations
            .iter()
            .map(|o| {
                let per_run: u64 = o
                    .typical
                    .commands
                    .iter()
                    .filter(|c| c.kind.is_read())
                    .map(|c| c.queries)
                    .sum();
                crate::eval::metric::per_sec(per_run as f64, o.rate_per_sec)
            })
            .sum();
        EngineFigures {
            reads,
            writes: Metric::DocsWritten.of(e),
            index_keys_written: Metric::IndexKeysWritten.of(e),
            storage: Metric::StorageBytes.of(e),
            index_bytes: Metric::IndexBytes.of(e),
            docs_examined: Metric::DocsExamined.of(e),
            keys_examined: Metric::KeysExamined.of(e),
            shard_requests: Metric::ShardRequests.of(e),
            infeasible: e.infeasible(),
            command_errors: e
                .refused_commands()
                .map(|(unit, c, err)| format!("{unit}: {:?} on {}: {err}", c.kind, c.collection))
                .collect(),
            answer_problems: Vec::new(),
        }
    }
}

/// A figure where the screen and the engine disagree beyond the screen's tolerance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Disagreement {
    /// The design (its label).
    pub design: String,
    /// `reads`, `writes`, `storage` or `feasible`.
    pub figure: Cow<'static, str>,
    /// The screened figure (1 feasible, 0 not, for `feasible`).
    pub screened: f64,
    /// The engine's.
    pub engine: f64,
    /// The range the screen allowed, `[low, high]`.
    pub allowed: [f64; 2],
    /// Why, when known.
    pub note: String,
}

/// Returns the evaluation of `spec` on `model` with default options (the sample of
/// `squillion eval`).
pub fn evaluate(
    model: &Model,
    spec: &DesignSpec,
    samples: &mut crate::eval::Samples,
) -> Result<Evaluation, crate::eval::EvalError> {
    let (model, spec) = crate::eval::offer::lowered_ref(model, spec);
    let layout = Layout::build(&model, &spec)?;
    crate::eval::evaluate_layout_in(
        &model,
        layout,
        &EvalOptions::default(),
        samples,
        &mut |_| {},
    )
}

/// Returns where the engine's figures fall outside what the screen allowed.
pub fn disagreements(design: &str, s: &Screen, e: &EngineFigures) -> Vec<Disagreement> {
    let t = &s.tolerance;
    let mut out = Vec::new();
    let mut check =
        |figure: &'static str, screened: f64, engine: f64, low: f64, high: f64, note: &str| {
            let slack = SLACK * screened.abs().max(engine.abs()).max(1.0);
            if engine < low - slack || engine > high + slack {
                out.push(Disagreement {
                    design: design.to_string(),
                    figure: figure.into(),
                    screened,
                    engine,
                    allowed: [low, high],
                    note: note.to_string(),
                });
            }
        };
    check(
        "reads",
        s.reads,
        e.reads,
        s.reads - t.reads_below,
        s.reads,
        "read round trips",
    );
    let refused = if e.command_errors.is_empty() {
        String::new()
    } else {
        format!("; the engine refused: {}", e.command_errors.join("; "))
    };
    if t.engine_only.is_empty() {
        check(
            "writes",
            s.writes,
            e.writes,
            s.writes - t.writes_below,
            s.writes + t.writes_above,
            &format!("documents written{refused}"),
        );
        check(
            "index_keys_written",
            s.index_keys_written,
            e.index_keys_written,
            s.index_keys_written - t.index_keys_below,
            s.index_keys_written + t.index_keys_above,
            &format!("index keys written{refused}"),
        );
    }
    check(
        "index_bytes",
        s.index_bytes,
        e.index_bytes,
        (s.index_bytes - t.index_bytes_below) * (1.0 - INDEX_BYTES_SHARE),
        s.index_bytes * (1.0 + INDEX_BYTES_SHARE),
        "index bytes (the engine's are an estimate from its sample)",
    );
    check(
        "storage",
        s.storage,
        e.storage,
        s.storage,
        s.storage,
        "data bytes",
    );
    let sf = f64::from(u8::from(s.feasible()));
    let ef = f64::from(u8::from(e.infeasible.is_empty()));
    if ef < sf {
        check(
            "feasible",
            sf,
            ef,
            sf,
            sf,
            &format!(
                "the engine's evaluation has errors: {}",
                e.infeasible.join(", ")
            ),
        );
    }
    out
}
