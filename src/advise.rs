//! The design advisor: the best design for a model's workload, searched and explained.
//!
//! [`advise`] enumerates the candidate space ([`space`]: every valid strategy per
//! relationship with parameters drawn from the model, both joins, the field patterns that
//! apply), screens every candidate without the engine ([`screen`]: read round trips, documents
//! written and storage from the layout, the plan and the full-scale arithmetic, and whether a
//! document breaks 16 MiB within the horizon), scores them with the user's weights and finds
//! the Pareto front ([`search`]), then runs the best few and the front on the engine
//! ([`verify`]) and explains, per relationship, why the recommendation beat its runner-up.
//! docs/advisor.md describes it.
//!
//! This file holds the advisor's public types, its entry points ([`advise_in`]) and the
//! explanation of a pick; the pipeline that runs the stages in order is [`pipeline`], and each
//! stage (the space, the search, the verification, the words) is a module of its own.

pub mod cost;
pub mod flips;
mod pipeline;
pub mod screen;
pub mod search;
pub mod space;
pub mod text;
pub mod verdict;
pub mod verify;
pub mod words;

use serde::{Deserialize, Serialize};

use crate::design::DesignSpec;
use crate::eval::Progress;
use crate::lang::{Lang, Text};
use crate::model::Model;
use screen::Screen;
use search::{score, Screener, SearchReport};
use space::{Candidate, Dimension, Space};
use verify::{Disagreement, EngineFigures};

/// Default horizon: five years of the model's growth.
pub const DEFAULT_HORIZON_YEARS: u16 = 5;

/// Designs on the front verified on the engine at most (the best-scored first).
pub const FRONT_VERIFIED: usize = 8;

/// How many times a choice's runner-up, sound and cheaper on the engine than the
/// recommendation, may replace it (each time the new recommendation is explained again).
pub const REPICK_ROUNDS: usize = 2;

/// Why the advisor cannot advise.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AdviseError {
    /// The horizon is not `Ny` or `Nd`, or is past the calendar.
    #[error("not a horizon: {0} (write 5y or 365d)")]
    Horizon(String),
    /// The weights are not `reads=…,writes=…,storage=…` with non-negative numbers.
    #[error("not weights: {0} (write reads=3,writes=2,storage=1)")]
    Weights(String),
}

/// How much each objective counts in the score.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Weights {
    /// Read cost: read round trips per second.
    pub reads: f64,
    /// Write cost: documents written per second.
    pub writes: f64,
    /// Storage: data bytes at full scale.
    pub storage: f64,
}

impl Default for Weights {
    /// Reads 3, writes 2, storage 1: the workload's reads first (each already weighted by
    /// its rate), then its writes, then the bytes kept.
    fn default() -> Self {
        Weights {
            reads: 3.0,
            writes: 2.0,
            storage: 1.0,
        }
    }
}

impl Weights {
    /// Parses `reads=3,writes=2,storage=1` (any subset; the others keep their default).
    pub fn parse(text: &str) -> Result<Weights, AdviseError> {
        let mut w = Weights::default();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let bad = || AdviseError::Weights(text.to_string());
            let (k, v) = part.split_once('=').ok_or_else(bad)?;
            let v: f64 = v.trim().parse().map_err(|_| bad())?;
            if !v.is_finite() || v < 0.0 {
                return Err(bad());
            }
            match k.trim() {
                "reads" => w.reads = v,
                "writes" => w.writes = v,
                "storage" => w.storage = v,
                _ => return Err(bad()),
            }
        }
        if w.reads + w.writes + w.storage <= 0.0 {
            return Err(AdviseError::Weights(text.to_string()));
        }
        Ok(w)
    }
}

/// What to advise on.
#[derive(Debug, Clone, PartialEq)]
pub struct AdviseOptions {
    /// The weights of the score.
    pub weights: Weights,
    /// Days of growth within which no document may break 16 MiB.
    pub horizon_days: Option<u64>,
    /// Designs (best-scored) verified on the engine and listed.
    pub top: usize,
    /// Run the engine (false: screening only, for benchmarks of the search alone).
    pub verify: bool,
    /// The price of each figure the engine measures: the verified designs are compared by it.
    pub cost: cost::CostModel,
}

impl Default for AdviseOptions {
    fn default() -> Self {
        AdviseOptions {
            weights: Weights::default(),
            horizon_days: None,
            top: 3,
            verify: true,
            cost: cost::CostModel::default(),
        }
    }
}

/// Returns the days of a horizon written `5y` or `365d`, from the model's start date.
pub fn parse_horizon(model: &Model, text: &str) -> Result<u64, AdviseError> {
    let bad = || AdviseError::Horizon(text.to_string());
    let t = text.trim();
    if let Some(y) = t.strip_suffix('y') {
        let y: u16 = y.parse().map_err(|_| bad())?;
        crate::date::days_in_years(&model.start_date, y).ok_or_else(bad)
    } else if let Some(d) = t.strip_suffix('d') {
        d.parse().map_err(|_| bad())
    } else {
        Err(bad())
    }
}

/// One design the advisor reports: screened, and (when verified) run on the engine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Advised {
    /// Rank by score among the feasible designs (1 = best).
    pub rank: usize,
    /// Every choice in one line (`followers: continuation 100,000; joins: application`): the
    /// strategy ids, for scripts; people read [`Advised::description`].
    pub label: String,
    /// Every choice in words, in English (`Keep up to 100,000 user ids in the user document
    /// and the rest in continuation documents; join in the application`).
    #[serde(default)]
    pub description: String,
    /// The same words as a text any language renders (what the page shows).
    #[serde(default = "words::unnamed")]
    pub words: Text,
    /// The design, as a model's `design` (base + overrides, fields, joins).
    pub design: DesignSpec,
    /// The score (lower is better; 0 is the normalized design).
    pub score: f64,
    /// The screened figures.
    pub screened: Screen,
    /// The engine's figures; `None` when not verified.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<EngineFigures>,
    /// Why the engine could not evaluate it, if it could not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine_error: Option<String>,
    /// Its cost by the cost model, from the engine's figures; `None` when not verified.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<cost::Cost>,
}

/// Why one choice of the recommendation beat the alternatives for it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Explanation {
    /// The relationship (or `joins`, or `entity.field`).
    pub dimension: String,
    /// The choice recommended (its strategy id and parameters).
    pub chosen: String,
    /// The choice recommended in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chosen_words: Option<Text>,
    /// The best feasible alternative for this dimension alone, with its figures minus the
    /// recommendation's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runner_up: Option<Alternative>,
    /// The infeasible alternatives (the best of each strategy), with why.
    pub rejected: Vec<Alternative>,
    /// Where this choice flips against its runner-up, both run on the engine and priced by
    /// the cost model (the recommendation with only this choice changed); `None` without a
    /// feasible runner-up or an engine run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flip: Option<flips::ChoiceFlip>,
    /// The reasons in a sentence.
    pub text: String,
}

/// An alternative choice for one dimension, the rest of the recommendation unchanged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Alternative {
    /// The choice (its strategy id and parameters).
    pub choice: String,
    /// The choice in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub words: Option<Text>,
    /// Its score minus the recommendation's.
    pub score_delta: f64,
    /// Read round trips per second more (negative: fewer).
    pub reads_delta: f64,
    /// Documents written per second more.
    pub writes_delta: f64,
    /// Index keys written per second more.
    #[serde(default)]
    pub index_keys_delta: f64,
    /// Data bytes more.
    pub storage_delta: f64,
    /// Index bytes more.
    #[serde(default)]
    pub index_bytes_delta: f64,
    /// Why it is infeasible; empty when it is feasible.
    pub infeasible: Vec<screen::Breach>,
    /// For an alternative that only the growth makes infeasible (its largest parent reaches
    /// the break point within the horizon): the growth below which it would stay feasible.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub growth: Option<flips::GrowthFlip>,
}

/// Everything the advisor says about a model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Advice {
    /// The model's name.
    pub model: String,
    /// The horizon in days.
    pub horizon_days: u64,
    /// The weights used.
    pub weights: Weights,
    /// The cost model the verified designs were compared by.
    #[serde(default)]
    pub cost_model: cost::CostModel,
    /// What the search did.
    pub search: SearchReport,
    /// The normalized design's screened figures: the reference scores are measured from.
    pub reference: Option<Screen>,
    /// The recommended design: of the verified designs whose engine evaluation is sound
    /// (feasible, every command run, every logical answer given), the lowest decision score
    /// of the cost model ([`cost::decision_score`]).
    pub recommended: Option<Advised>,
    /// The best-scored designs (`--top`), best first.
    pub top: Vec<Advised>,
    /// The Pareto front over read cost, write cost and storage, best-scored first.
    pub front: Vec<Advised>,
    /// Per dimension of the recommendation, why.
    pub explanations: Vec<Explanation>,
    /// Where the engine disagreed with the screen beyond its tolerance.
    pub disagreements: Vec<Disagreement>,
    /// Where the pick flips: against each other sound verified design, the read/write ratio
    /// and the storage weight at which it would win, the nearest first.
    #[serde(default)]
    pub flips: Vec<cost::Flip>,
    /// The runner-up of the decision: the next sound verified design by the cost model (one
    /// that costs something else), with what decides between it and the recommendation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runner_up: Option<flips::ChoiceFlip>,
    /// Why the recommendation scores worse than the yardstick (the normalized design, score
    /// 0), when it does; `None` when it scores 0 or better.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worse_than_yardstick: Option<Yardstick>,
}

/// Why a recommendation scores worse than the normalized design its score is measured from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Yardstick {
    /// `infeasible` (the normalized design breaks a hard limit on the screen),
    /// `engine_infeasible`, `no_answer` (a step's logical answer not given), `refused` (a
    /// command refused), `failed` (the engine could not evaluate it), `not_laid_out`, or
    /// `costlier` (it is sound, but the cost model prices it higher with these weights).
    pub reason: String,
    /// The reason in an English sentence.
    pub text: String,
    /// The same as a text any language renders.
    pub words: Text,
}

/// Returns the advice for `model`.
pub fn advise(model: &Model, opts: &AdviseOptions) -> Advice {
    advise_with(model, opts, &mut |_| {})
}

/// [`advise`], telling `progress` each phase as it starts: the search (screening every
/// candidate), one engine run per design verified, then the explanations. The page shows it.
pub fn advise_with(
    model: &Model,
    opts: &AdviseOptions,
    progress: &mut dyn FnMut(&Progress),
) -> Advice {
    advise_in(model, opts, Lang::En, progress)
}

/// [`advise_with`], each phase told in `lang` (the page's language): the advice itself is the
/// same in every language.
pub fn advise_in(
    model: &Model,
    opts: &AdviseOptions,
    lang: Lang,
    progress: &mut dyn FnMut(&Progress),
) -> Advice {
    let horizon_days = opts.horizon_days.unwrap_or_else(|| {
        crate::date::days_in_years(&model.start_date, DEFAULT_HORIZON_YEARS)
            .unwrap_or(365 * u64::from(DEFAULT_HORIZON_YEARS) + 1)
    });
    let space = space::space(model);
    pipeline::Run::new(model, opts, &space, horizon_days, lang, progress).advise()
}

/// Returns why `pick` scores worse than the yardstick (the normalized design, screened as
/// `reference` and verified as `verified`), when it does.
fn yardstick_note(
    reference: Option<&Screen>,
    verified: Option<&Advised>,
    pick: &Advised,
) -> Option<Yardstick> {
    if pick.score <= 0.0 {
        return None;
    }
    let count = |n: usize| crate::human::thousands(n as u64);
    let (reason, words) = match (reference, verified) {
        (None, _) => ("not_laid_out", Text::new("advisor-yardstick-not-laid-out")),
        (Some(r), _) if !r.feasible() => (
            "infeasible",
            Text::new("advisor-yardstick-infeasible").nested(
                "why",
                r.infeasible
                    .first()
                    .map_or_else(words::unnamed, text::breach_text),
            ),
        ),
        (_, Some(y)) => match (flips::ruled_out(y), &y.engine) {
            (Some("engine_infeasible"), Some(e)) => (
                "engine_infeasible",
                Text::new("advisor-yardstick-engine-infeasible")
                    .arg("limits", e.infeasible.join(", ")),
            ),
            (Some("refused"), Some(e)) => (
                "refused",
                Text::new("advisor-yardstick-refused").arg("count", count(e.command_errors.len())),
            ),
            (Some("no_answer"), Some(e)) => (
                "no_answer",
                Text::new("advisor-yardstick-no-answer")
                    .arg("count", count(e.answer_problems.len())),
            ),
            // A run that failed says how; one that ended without a cost says nothing.
            (Some(_), _) => (
                "failed",
                Text::new("advisor-yardstick-failed").arg("error", y.engine_error.as_ref()?),
            ),
            (None, _) => {
                let (own, other) = (pick.cost.as_ref()?, y.cost.as_ref()?);
                let size = |b: f64| crate::human::binary_size(b.round() as u64);
                (
                    "costlier",
                    Text::new("advisor-yardstick-costlier")
                        .arg("work", text::work(own.work_us()))
                        .arg("storage", size(own.storage_bytes))
                        .arg("ywork", text::work(other.work_us()))
                        .arg("ystorage", size(other.storage_bytes)),
                )
            }
        },
        (Some(_), None) => return None,
    };
    let words = Text::new("advisor-yardstick").nested("why", words);
    Some(Yardstick {
        reason: reason.to_string(),
        text: words.render(Lang::En),
        words,
    })
}

/// Returns a dimension's name as explanations give it.
fn dimension_name(d: &Dimension) -> String {
    match d {
        Dimension::Relationship { name, .. } => name.clone(),
        Dimension::Joins(_) => "joins".to_string(),
        Dimension::Field { entity, field, .. } => format!("{entity}.{field}"),
    }
}

/// Returns option `i` of dimension `d` as a person reads it (`continuation 100,000`,
/// `lookup`, `gridfs`, `no pattern`).
pub fn option_name(d: &Dimension, i: usize) -> String {
    match d {
        Dimension::Relationship { options, .. } => options.get(i).map_or_else(String::new, |s| {
            let mut t = s.name().to_string();
            if let Some((_, v)) = s.parameter() {
                t.push_str(&format!(" {}", crate::human::thousands(v)));
            }
            if let Some(c) = s.copy().filter(|c| !c.is_empty()) {
                t.push_str(&format!(" (copy {})", c.join(", ")));
            }
            t
        }),
        Dimension::Joins(j) => j.get(i).map_or("application", |j| j.as_str()).to_string(),
        Dimension::Field { options, .. } => match options.get(i) {
            Some(Some(p)) => match p {
                crate::model::design::FieldPattern::Attribute { form, .. } => {
                    format!("attribute {}", form.as_str())
                }
                other => other.name().to_string(),
            },
            _ => "no pattern".to_string(),
        },
    }
}

/// Returns a candidate's choices in one line.
pub fn label(model: &Model, space: &Space, c: &Candidate) -> String {
    let _ = model;
    space
        .dimensions
        .iter()
        .zip(c)
        .filter(|(d, _)| d.len() > 1)
        .map(|(d, &i)| format!("{}: {}", dimension_name(d), option_name(d, i)))
        .collect::<Vec<_>>()
        .join("; ")
}

/// One dimension's explanation, with what the engine needs to price where its choice flips.
struct Explained {
    explanation: Explanation,
    /// The runner-up's candidate (the recommendation with only this choice changed).
    runner_up: Option<Candidate>,
    /// The index of the dimension in the space.
    dimension: usize,
}

/// Returns, per dimension with a choice, why candidate `c` chose what it did: its best
/// feasible alternative (the same design with only that choice changed; for a strategy with
/// parameters, its best parameter), with that alternative's candidate (for the engine to
/// price where the choice flips), and the better-scoring alternatives that are infeasible
/// (each with the growth at which it would not be, where growth decides).
fn explain(
    screener: &mut Screener,
    model: &Model,
    space: &Space,
    c: &Candidate,
    reference: &[f64; 3],
    opts: &AdviseOptions,
    horizon_days: u64,
) -> Vec<Explained> {
    let w = &opts.weights;
    let Some(own) = screener.screen_design(&space.spec(model, c)) else {
        return Vec::new();
    };
    let own_score = score(&own.objectives(), reference, w);
    let mut out = Vec::new();
    for (d, dim) in space.dimensions.iter().enumerate() {
        if dim.len() < 2 {
            continue;
        }
        let chosen_i = c.get(d).copied().unwrap_or(0);
        let chosen = option_name(dim, chosen_i);
        let kind = |i: usize| match dim {
            Dimension::Relationship { options, .. } => {
                options.get(i).map_or("", |s| s.name()).to_string()
            }
            _ => option_name(dim, i),
        };
        let mut alternatives: Vec<(Alternative, Candidate)> = Vec::new();
        for o in 0..dim.len() {
            if o == chosen_i || kind(o) == kind(chosen_i) {
                continue;
            }
            let mut n = c.clone();
            if let Some(slot) = n.get_mut(d) {
                *slot = o;
            }
            let Some(s) = screener.screen_design(&space.spec(model, &n)) else {
                continue;
            };
            let growth = flips::growth_flip(model, &s.infeasible, horizon_days);
            alternatives.push((
                Alternative {
                    choice: option_name(dim, o),
                    words: Some(words::option_words(model, dim, o)),
                    score_delta: score(&s.objectives(), reference, w) - own_score,
                    reads_delta: s.reads - own.reads,
                    writes_delta: s.writes - own.writes,
                    index_keys_delta: s.index_keys_written - own.index_keys_written,
                    storage_delta: s.storage - own.storage,
                    index_bytes_delta: s.index_bytes - own.index_bytes,
                    infeasible: s.infeasible.clone(),
                    growth,
                },
                n,
            ));
        }
        // The best of each strategy kind: one alternative per kind. The runner-up is the
        // best feasible one; every infeasible kind is listed with why.
        alternatives.sort_by(|(a, _), (b, _)| a.score_delta.total_cmp(&b.score_delta));
        let mut seen_kinds: Vec<String> = Vec::new();
        let mut runner_up = None;
        let mut rejected = Vec::new();
        for (a, n) in alternatives {
            let k = a.choice.split(' ').next().unwrap_or_default().to_string();
            if seen_kinds.contains(&k) {
                continue;
            }
            seen_kinds.push(k);
            if !a.infeasible.is_empty() {
                rejected.push(a);
            } else if runner_up.is_none() {
                runner_up = Some((a, n));
            }
        }
        let (runner_up, candidate) = runner_up.unzip();
        let chosen_words = words::option_words(model, dim, chosen_i);
        let text =
            text::explanation_in(Lang::En, &chosen_words, runner_up.as_ref(), &rejected, None);
        out.push(Explained {
            explanation: Explanation {
                dimension: dimension_name(dim),
                chosen,
                chosen_words: Some(chosen_words),
                runner_up,
                rejected,
                flip: None,
                text,
            },
            runner_up: candidate,
            dimension: d,
        });
    }
    out
}
