//! The verdict of a comparison: which of the offered designs wins, in one sentence with its
//! deciding figures, and why each other design loses (infeasible, slower reads, more write
//! work, more storage), from the evaluations the comparison already has.
//!
//! It decides as `squillion advise` decides among its verified designs, without its search:
//! each evaluation is priced by the cost model ([`cost_of`], default constants and weights),
//! a design that is not sound cannot win (an error-severity warning: mongod would refuse one
//! of its documents or writes; a command the engine refused), and the lowest decision score
//! wins (ties: the first in the design bar's order). The advisor's third soundness check, the
//! logical answer of every step, is not on an evaluation (it runs the plan again on a sample
//! of its own) and is left to `squillion advise`. A workload without operations has nothing to
//! decide: the comparison shows sizes alone. docs/advisor.md ("The verdict of a comparison").

use serde::Serialize;

use super::cost::{cost_of, Cost, CostModel};
use super::Weights;
use crate::eval::Evaluation;
use crate::human::{binary_size, thousands};
use crate::lang::{Lang, Text};
use crate::model::Model;

/// Scores closer than this are a tie (the same cost: a `$lookup` where the application joins
/// alike).
const TIE: f64 = 1e-9;

/// One design of a comparison.
#[derive(Debug, Clone, Copy)]
pub struct Contender<'a> {
    /// Its id (`fan-out_on_write`), as `squillion compare` names it.
    pub design: &'a str,
    /// Its name for people, as the design bar shows it (`Fan-out on write`).
    pub label: &'a str,
    /// Its evaluation, or why the engine could not evaluate it.
    pub evaluation: Result<&'a Evaluation, &'a str>,
}

/// What the verdict found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// A design wins.
    Winner,
    /// The workload has no operations: nothing to decide, sizes alone.
    NoWorkload,
    /// No design is sound: each is infeasible, failed a command or was not evaluated.
    NoneSound,
}

/// Where one design stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// It wins.
    Wins,
    /// An error-severity warning: mongod would refuse one of its documents or writes.
    Infeasible,
    /// The engine refused one of its commands.
    CommandFailed,
    /// The engine could not evaluate it.
    NotEvaluated,
    /// Its read operations cost more, and that decides.
    SlowerReads,
    /// Its write operations cost more, and that decides.
    MoreWrites,
    /// It keeps more bytes, and that decides.
    MoreStorage,
    /// The same decision score as the winner's (listed after it).
    Ties,
    /// Nothing to decide (no workload): sizes alone.
    Undecided,
}

/// One design's standing.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Standing {
    /// Its id.
    pub design: String,
    /// Its name for people.
    pub label: String,
    /// Why it wins or loses.
    pub reason: Reason,
    /// Its figure ÷ the winner's on the side that decides (reads, writes or storage); absent
    /// when the winner's is 0 or the reason is not a cost.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub factor: Option<f64>,
    /// The cost term that adds the most to its loss on that side (`round_trips`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub term: Option<String>,
    /// The codes of its error-severity warnings (infeasible), or the engine's refusals.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
    /// Its cost by the cost model (as `squillion advise --json` gives each verified design's);
    /// absent when not evaluated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<Cost>,
}

/// The verdict of a comparison.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verdict {
    /// What it found.
    pub outcome: Outcome,
    /// The winner's id, when one wins.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
    /// Read operations per write operation (`None` without writes or without a winner).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reads_per_write: Option<f64>,
    /// Every design, in the comparison's order.
    pub designs: Vec<Standing>,
    /// The verdict in a sentence (in JSON: English).
    #[serde(serialize_with = "english")]
    pub text: Text,
    /// One line per design other than the winner: why it loses (in JSON: English).
    #[serde(serialize_with = "crate::lang::text::serialize_english")]
    pub lines: Vec<Text>,
}

/// Serializes a text as its English.
fn english<S: serde::Serializer>(t: &Text, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&t.render(Lang::En))
}

impl Verdict {
    /// Returns the sentence in `lang`.
    pub fn sentence(&self, lang: Lang) -> String {
        self.text.render(lang)
    }

    /// Returns each other design's line in `lang`.
    pub fn reasons(&self, lang: Lang) -> Vec<String> {
        self.lines.iter().map(|t| t.render(lang)).collect()
    }

    /// Returns the winner's standing.
    pub fn winning(&self) -> Option<&Standing> {
        self.designs.iter().find(|s| s.reason == Reason::Wins)
    }
}

/// Returns the verdict of `squillion compare`'s evaluations of `model` (in the order
/// [`crate::eval::offer::compared`] gives), each design named by its label in `lang` (as the
/// design bar names it; `--json` gives the English).
pub fn of_compared(model: &Model, designs: &[Evaluation], lang: Lang) -> Verdict {
    let name = model.name.as_deref();
    let labels: Vec<String> = crate::eval::offer::compared(model)
        .into_iter()
        .map(|o| crate::eval::offer::label_in(name, &o.id, &o.label, lang))
        .collect();
    let contenders: Vec<Contender> = designs
        .iter()
        .enumerate()
        .map(|(i, e)| Contender {
            design: &e.design,
            label: labels.get(i).map_or(e.design.as_str(), String::as_str),
            evaluation: Ok(e),
        })
        .collect();
    verdict(&contenders)
}

/// Returns the verdict among `designs`, priced with the default cost model and weights.
pub fn verdict(designs: &[Contender]) -> Verdict {
    verdict_with(designs, &CostModel::default(), &Weights::default())
}

/// [`verdict`] under cost model `m` and weights `w`.
pub fn verdict_with(designs: &[Contender], m: &CostModel, w: &Weights) -> Verdict {
    let costs: Vec<Option<Cost>> = designs
        .iter()
        .map(|d| d.evaluation.ok().map(|e| cost_of(e, m, w)))
        .collect();
    // Why each design cannot win, if it cannot.
    let unsound: Vec<Option<(Reason, Vec<String>)>> = designs
        .iter()
        .map(|d| match d.evaluation {
            Err(why) => Some((Reason::NotEvaluated, vec![why.to_string()])),
            Ok(e) if !e.infeasible().is_empty() => Some((Reason::Infeasible, e.infeasible())),
            Ok(e) => {
                let refused = command_errors(e);
                (!refused.is_empty()).then_some((Reason::CommandFailed, refused))
            }
        })
        .collect();
    let idle = designs
        .iter()
        .filter_map(|d| d.evaluation.ok())
        .all(|e| e.operations.is_empty())
        && designs.iter().any(|d| d.evaluation.is_ok());
    // The winner: the lowest score among the sound designs, the first on ties.
    let winner = (!idle)
        .then(|| {
            costs
                .iter()
                .zip(&unsound)
                .enumerate()
                .filter(|(_, (_, u))| u.is_none())
                .filter_map(|(i, (c, _))| c.as_ref().map(|c| (i, c.score)))
                .fold(None, |best: Option<(usize, f64)>, (i, s)| match best {
                    Some((_, b)) if b <= s + TIE => best,
                    _ => Some((i, s)),
                })
                .map(|(i, _)| i)
        })
        .flatten();
    let win_cost = winner.and_then(|i| costs.get(i).cloned().flatten());
    let mut standings = Vec::new();
    for (i, ((d, c), u)) in designs.iter().zip(&costs).zip(&unsound).enumerate() {
        let mut s = Standing {
            design: d.design.to_string(),
            label: d.label.to_string(),
            reason: Reason::Undecided,
            factor: None,
            term: None,
            problems: Vec::new(),
            cost: c.clone(),
        };
        if let Some((reason, problems)) = u {
            s.reason = *reason;
            s.problems = problems.clone();
        } else if Some(i) == winner {
            s.reason = Reason::Wins;
        } else if let (Some(a), Some(b)) = (&win_cost, c) {
            let (reason, factor, term) = why_loses(a, b, m, w);
            s.reason = reason;
            s.factor = factor;
            s.term = term;
        }
        standings.push(s);
    }
    let reads_per_write = win_cost
        .as_ref()
        .filter(|c| c.write_ops_per_sec > 0.0)
        .map(|c| c.read_ops_per_sec / c.write_ops_per_sec);
    let outcome = if idle {
        Outcome::NoWorkload
    } else if winner.is_some() {
        Outcome::Winner
    } else {
        Outcome::NoneSound
    };
    let text = sentence(outcome, winner, &standings, win_cost.as_ref());
    let lines = if idle {
        Vec::new()
    } else {
        standings
            .iter()
            .filter(|s| s.reason != Reason::Wins)
            .map(|s| line(s, win_cost.as_ref()))
            .collect()
    };
    Verdict {
        outcome,
        winner: winner
            .and_then(|i| designs.get(i))
            .map(|d| d.design.to_string()),
        reads_per_write,
        designs: standings,
        text,
        lines,
    }
}

/// Returns the commands the engine refused in `e` (`unit: error`), each once.
fn command_errors(e: &Evaluation) -> Vec<String> {
    let mut out: Vec<String> = e
        .refused_commands()
        .map(|(unit, _, err)| format!("{unit}: {err}"))
        .collect();
    out.dedup();
    out
}

/// Returns why `b` loses to `a`: the part of the decision score that adds the most to its
/// loss (the work, split into its read and write sides, or the storage), the factor on that
/// side and, for work, the cost term that adds the most there.
pub(super) fn why_loses(
    a: &Cost,
    b: &Cost,
    m: &CostModel,
    w: &Weights,
) -> (Reason, Option<f64>, Option<String>) {
    if (b.score - a.score).abs() <= TIE {
        return (Reason::Ties, None, None);
    }
    let total = w.reads + w.writes + w.storage;
    let work = |c: &Cost| libm::log1p(w.reads * c.read_us + w.writes * c.write_us);
    let by_work = (w.reads + w.writes) / total * (work(b) - work(a));
    let by_storage =
        w.storage / total * (libm::log1p(b.storage_bytes) - libm::log1p(a.storage_bytes));
    let ratio = |x: f64, y: f64| (y > 0.0).then(|| x / y);
    if by_storage > by_work {
        return (
            Reason::MoreStorage,
            ratio(b.storage_bytes, a.storage_bytes),
            None,
        );
    }
    let reads = w.reads * (b.read_us - a.read_us);
    let writes = w.writes * (b.write_us - a.write_us);
    let read_side = reads >= writes;
    let term = costliest_difference(a, b, m, read_side);
    if read_side {
        (Reason::SlowerReads, ratio(b.read_us, a.read_us), term)
    } else {
        (Reason::MoreWrites, ratio(b.write_us, a.write_us), term)
    }
}

/// Returns the term whose µs/s on one side (reads or writes) grows the most from `a` to `b`.
fn costliest_difference(a: &Cost, b: &Cost, m: &CostModel, reads: bool) -> Option<String> {
    let side = |c: &Cost, figure: &str| {
        c.terms
            .iter()
            .find(|t| t.figure == figure)
            .map_or(0.0, |t| {
                m.price(figure)
                    * if reads {
                        t.reads_per_sec
                    } else {
                        t.writes_per_sec
                    }
            })
    };
    b.terms
        .iter()
        .map(|t| (t.figure.as_str(), side(b, &t.figure) - side(a, &t.figure)))
        .filter(|(_, d)| *d > 0.0)
        .max_by(|x, y| x.1.total_cmp(&y.1))
        .map(|(f, _)| f.to_string())
}

/// Returns a duration of work per second of workload (in µs) with two significant digits:
/// `3 µs`, `0.41 ms`, `1.9 ms`, `45 ms`, `146 s`.
pub fn duration(us: f64) -> String {
    duration_to(us, 2)
}

/// [`duration`] with `digits` significant digits (whole numbers from `10^digits`).
fn duration_to(us: f64, digits: i32) -> String {
    if us < 100.0 {
        format!("{} µs", significant(us, digits))
    } else if us < 1e6 {
        format!("{} ms", significant(us / 1e3, digits))
    } else {
        format!("{} s", significant(us / 1e6, digits))
    }
}

/// Returns two durations with the digits that tell them apart (two significant digits, up to
/// four when they round alike: `1.06 s` against `1.1 s`, never `1.1 s` against `1.1 s`).
fn durations(a: f64, b: f64) -> (String, String) {
    let mut out = (duration(a), duration(b));
    for digits in 3..=4 {
        if out.0 != out.1 || a == b {
            break;
        }
        out = (duration_to(a, digits), duration_to(b, digits));
    }
    out
}

/// Returns `v` with `digits` significant digits under `10^digits` (`0.41`, `1.9`, `45`,
/// trailing zeros dropped), whole with thousands separators from there.
fn significant(v: f64, digits: i32) -> String {
    if v >= 10f64.powi(digits) {
        thousands(v.round() as u64)
    } else if v > 0.0 {
        let decimals = (f64::from(digits - 1) - v.log10().floor()).clamp(0.0, 12.0) as usize;
        let t = format!("{v:.decimals$}");
        if t.contains('.') {
            t.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            t
        }
    } else {
        "0".to_string()
    }
}

/// Returns a factor as a line gives it, after the reason (`, ×31`); nothing when the
/// winner's figure is 0.
fn factor_clause(f: Option<f64>) -> Text {
    match f {
        Some(f) => Text::new("verdict-factor").arg("factor", factor(f)),
        None => Text::new("verdict-empty"),
    }
}

/// Returns a factor: `×31`, `×1.6`, `×1.04`.
fn factor(f: f64) -> String {
    if f < 1.1 {
        format!("×{f:.2}")
    } else {
        format!("×{}", significant(f, 2))
    }
}

/// Returns a cost term in words.
fn term_words(figure: &str) -> Text {
    Text::new(match figure {
        "round_trips" => "verdict-term-round-trips",
        "keys_examined" => "verdict-term-keys-examined",
        "docs_examined" => "verdict-term-docs-examined",
        "bytes_returned" => "verdict-term-bytes-returned",
        "docs_written" => "verdict-term-docs-written",
        "bytes_written" => "verdict-term-bytes-written",
        "index_keys_written" => "verdict-term-index-keys-written",
        _ => "verdict-term-docs-from-disk",
    })
}

/// Returns the read/write mix of the workload in words.
fn mix(c: &Cost) -> Text {
    let (r, wr) = (c.read_ops_per_sec, c.write_ops_per_sec);
    if wr <= 0.0 {
        Text::new("verdict-mix-reads-only")
    } else if r <= 0.0 {
        Text::new("verdict-mix-writes-only")
    } else if r >= wr {
        Text::new("verdict-mix-reads").arg("n", significant(r / wr, 2))
    } else {
        Text::new("verdict-mix-writes").arg("n", significant(wr / r, 2))
    }
}

/// Returns the verdict's sentence.
fn sentence(
    outcome: Outcome,
    winner: Option<usize>,
    standings: &[Standing],
    win: Option<&Cost>,
) -> Text {
    let (Outcome::Winner, Some(i), Some(a)) = (outcome, winner, win) else {
        return match outcome {
            Outcome::NoWorkload => Text::new("verdict-no-workload"),
            _ => Text::new("verdict-none-sound"),
        };
    };
    let label = standings.get(i).map_or("", |s| s.label.as_str());
    // The runner-up: the sound loser with the lowest score.
    let runner = standings
        .iter()
        .filter(|s| {
            matches!(
                s.reason,
                Reason::SlowerReads | Reason::MoreWrites | Reason::MoreStorage | Reason::Ties
            )
        })
        .filter_map(|s| s.cost.as_ref().map(|c| (s, c)))
        .min_by(|x, y| x.1.score.total_cmp(&y.1.score));
    let t = match runner {
        None => Text::new("verdict-wins-alone").arg("work", duration(a.work_us())),
        Some((s, b)) => match s.reason {
            Reason::Ties => Text::new("verdict-wins-tied")
                .arg("other", &s.label)
                .arg("work", duration(a.work_us())),
            Reason::MoreStorage => {
                let (work, other_work) = durations(a.work_us(), b.work_us());
                Text::new("verdict-wins-storage")
                    .arg("other", &s.label)
                    .arg("storage", binary_size(a.storage_bytes.round() as u64))
                    .arg("other_storage", binary_size(b.storage_bytes.round() as u64))
                    .arg("work", work)
                    .arg("other_work", other_work)
            }
            _ => {
                let (work, other_work) = durations(a.work_us(), b.work_us());
                Text::new("verdict-wins")
                    .arg("other", &s.label)
                    .arg("work", work)
                    .arg("other_work", other_work)
            }
        },
    };
    t.arg("winner", label).nested("mix", mix(a))
}

/// Returns why a design other than the winner loses, in a line.
fn line(s: &Standing, win: Option<&Cost>) -> Text {
    let t = match (s.reason, s.cost.as_ref(), win) {
        (Reason::Infeasible, _, _) => {
            Text::new("verdict-line-infeasible").list("codes", &s.problems)
        }
        (Reason::CommandFailed, _, _) => Text::new("verdict-line-command-failed")
            .arg("count", thousands(s.problems.len() as u64)),
        (Reason::NotEvaluated, _, _) => Text::new("verdict-line-not-evaluated").arg(
            "why",
            s.problems
                .first()
                .map_or("", |e| e.split(". ").next().unwrap_or(e)),
        ),
        (Reason::SlowerReads, Some(b), Some(a)) => {
            side_line("verdict-line-reads", s, b.read_us, a.read_us)
        }
        (Reason::MoreWrites, Some(b), Some(a)) => {
            side_line("verdict-line-writes", s, b.write_us, a.write_us)
        }
        (Reason::MoreStorage, Some(b), Some(a)) => Text::new("verdict-line-storage")
            .nested("factor", factor_clause(s.factor))
            .arg("storage", binary_size(b.storage_bytes.round() as u64))
            .arg(
                "winner_storage",
                binary_size(a.storage_bytes.round() as u64),
            ),
        (_, Some(b), _) => Text::new("verdict-line-ties").arg("work", duration(b.work_us())),
        _ => Text::new("verdict-line-ties").arg("work", "0 µs"),
    };
    t.arg("design", &s.label)
}

/// Returns a line of a design that loses on reads or writes: its µs/s against the winner's,
/// the factor and the term that adds the most.
fn side_line(id: &'static str, s: &Standing, own: f64, winner: f64) -> Text {
    let (own, winner) = durations(own, winner);
    let t = Text::new(id)
        .nested("factor", factor_clause(s.factor))
        .arg("work", own)
        .arg("winner_work", winner);
    match &s.term {
        Some(term) => t.nested(
            "term",
            Text::new("verdict-mostly").nested("term", term_words(term)),
        ),
        None => t.nested("term", Text::new("verdict-empty")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_keep_the_digits_that_matter() {
        assert_eq!(duration(3.0), "3 µs");
        assert_eq!(duration(410.0), "0.41 ms");
        assert_eq!(duration(1_900.0), "1.9 ms");
        assert_eq!(duration(45_200.0), "45 ms");
        assert_eq!(duration(450_000.0), "450 ms");
        assert_eq!(duration(3_400_000.0), "3.4 s");
        assert_eq!(duration(0.0), "0 µs");
        assert_eq!(duration(146_000_000.0), "146 s");
        assert_eq!(
            durations(1_060_000.0, 1_100_000.0),
            ("1.06 s".to_string(), "1.1 s".to_string())
        );
        assert_eq!(factor(31.4), "×31");
        assert_eq!(factor(1.6), "×1.6");
        assert_eq!(factor(1.04), "×1.04");
    }
}
