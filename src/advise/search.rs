//! The search: every candidate screened when the space holds at most
//! [`EXHAUSTIVE_LIMIT`] designs, else a local search (steepest descent over one-dimension
//! changes from each named design and the model's own) that reports how much it explored.
//! Scores, and the Pareto front over read cost, write cost and storage.

use std::collections::HashMap;

use super::screen::{screen, screen_with, Screen};
use super::space::{Candidate, Space};
use super::Weights;
use crate::design::{DesignName, DesignSpec, Layout};
use crate::model::Model;

/// Spaces up to this many designs are searched exhaustively.
pub const EXHAUSTIVE_LIMIT: u64 = 100_000;

/// Designs a local search screens at most.
pub const LOCAL_BUDGET: u64 = 20_000;

/// One screened candidate.
#[derive(Debug, Clone, PartialEq)]
pub struct Scored {
    /// The candidate.
    pub candidate: Candidate,
    /// Its screened figures.
    pub screen: Screen,
    /// Its score (lower is better; see [`score`]).
    pub score: f64,
}

/// What the search did.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SearchReport {
    /// `exhaustive` or `local`.
    pub method: std::borrow::Cow<'static, str>,
    /// Designs in the space.
    pub space_size: u64,
    /// Designs screened.
    pub explored: u64,
    /// Of those, feasible.
    pub feasible: u64,
    /// Of those, infeasible (a document breaks 16 MiB within the horizon, or another error).
    pub infeasible: u64,
    /// Of those, that cannot be laid out at all (a strategy the layout refuses here).
    pub invalid: u64,
}

/// Returns a design's score against the reference figures `reference` (the normalized
/// design's): the weighted mean of each objective's log ratio, `ln((1 + v) / (1 + ref))`.
/// 0 is as good as the reference; each halving of an objective gives `−ln 2 × its weight's
/// share`. Log ratios make the three objectives unit-free, so a weight says how much a
/// doubling of one is worth against a doubling of another.
pub fn score(s: &[f64; 3], reference: &[f64; 3], w: &Weights) -> f64 {
    let ws = [w.reads, w.writes, w.storage];
    let total: f64 = ws.iter().sum();
    if total <= 0.0 {
        return 0.0;
    }
    s.iter()
        .zip(reference)
        .zip(ws)
        .map(|((v, r), w)| w * (libm::log1p(v.max(0.0)) - libm::log1p(r.max(0.0))))
        .sum::<f64>()
        / total
}

/// Screens candidates, remembering each one screened.
pub struct Screener<'a> {
    model: &'a Model,
    space: &'a Space,
    horizon_days: u64,
    seen: HashMap<Candidate, Option<Screen>>,
    /// Each collection's statistics, by the collection's JSON: candidates share most
    /// collections, and the size simulation costs milliseconds.
    stats: HashMap<String, Vec<super::screen::ShapeFigures>>,

    /// The search's counts so far.
    pub report: SearchReport,
}

impl<'a> Screener<'a> {
    /// Returns a screener of `space`'s candidates for `model`.
    pub fn new(model: &'a Model, space: &'a Space, horizon_days: u64) -> Self {
        Screener {
            model,
            space,
            horizon_days,
            seen: HashMap::new(),
            stats: HashMap::new(),
            report: SearchReport {
                space_size: space.size(),
                ..SearchReport::default()
            },
        }
    }

    /// Returns the screen of candidate `c` (`None` when it cannot be laid out).
    pub fn screen(&mut self, c: &Candidate) -> Option<Screen> {
        if let Some(s) = self.seen.get(c) {
            return s.clone();
        }
        let spec = self.space.spec(self.model, c);
        let s = self.screen_design(&spec);
        self.report.explored += 1;
        match &s {
            None => self.report.invalid += 1,
            Some(x) if x.feasible() => self.report.feasible += 1,
            Some(_) => self.report.infeasible += 1,
        }
        self.seen.insert(c.clone(), s.clone());
        s
    }
}

impl Screener<'_> {
    /// Returns the screen of `spec` (`None` when it cannot be laid out), with the kept
    /// statistics of every collection seen before.
    pub fn screen_design(&mut self, spec: &DesignSpec) -> Option<Screen> {
        // A lifecycle pattern (archive, versioning, approximation) changes the model itself.
        let (model, spec) = crate::eval::offer::lowered_ref(self.model, spec);
        let layout = Layout::build(&model, &spec).ok()?;
        let start = self.model.start_date.clone();
        let memo = &mut self.stats;
        Some(screen_with(&model, &layout, self.horizon_days, &mut |c| {
            let key = serde_json::to_string(c).unwrap_or_default();
            memo.entry(key)
                .or_insert_with(|| super::screen::collection_figures(c, &start))
                .clone()
        }))
    }
}

/// Returns the screen of `spec` on `model` (`None` when it cannot be laid out).
pub fn screen_spec(model: &Model, spec: &DesignSpec, horizon_days: u64) -> Option<Screen> {
    let (model, spec) = crate::eval::offer::lowered_ref(model, spec);
    let layout = Layout::build(&model, &spec).ok()?;
    Some(screen(&model, &layout, horizon_days))
}

/// Returns every feasible candidate found, scored, best first, with the search's report.
pub fn search(
    screener: &mut Screener,
    model: &Model,
    space: &Space,
    reference: &[f64; 3],
    w: &Weights,
) -> Vec<Scored> {
    let mut found: Vec<Scored> = Vec::new();
    let keep = |c: Candidate, s: Screen, found: &mut Vec<Scored>| {
        if s.feasible() {
            let score = score(&s.objectives(), reference, w);
            found.push(Scored {
                candidate: c,
                screen: s,
                score,
            });
        }
    };
    if space.size() <= EXHAUSTIVE_LIMIT {
        screener.report.method = "exhaustive".into();
        for i in 0..space.size() {
            let c = space.nth(i);
            if let Some(s) = screener.screen(&c) {
                keep(c, s, &mut found);
            }
        }
    } else {
        screener.report.method = "local".into();
        let mut starts: Vec<Candidate> = DesignName::ALL
            .into_iter()
            .map(|b| space.candidate_of(model, &DesignSpec::named(b, &model.design)))
            .collect();
        starts.push(space.candidate_of(model, &model.design));
        for start in starts {
            let mut at = start;
            let mut best = screener
                .screen(&at)
                .filter(Screen::feasible)
                .map_or(f64::INFINITY, |s| score(&s.objectives(), reference, w));
            loop {
                let mut improved: Option<(Candidate, f64)> = None;
                for (d, dim) in space.dimensions.iter().enumerate() {
                    for o in 0..dim.len() {
                        if at.get(d) == Some(&o) || screener.report.explored >= LOCAL_BUDGET {
                            continue;
                        }
                        let mut n = at.clone();
                        if let Some(slot) = n.get_mut(d) {
                            *slot = o;
                        }
                        let Some(s) = screener.screen(&n).filter(Screen::feasible) else {
                            continue;
                        };
                        let v = score(&s.objectives(), reference, w);
                        if v < improved.as_ref().map_or(best, |(_, b)| *b) {
                            improved = Some((n, v));
                        }
                    }
                }
                match improved {
                    Some((n, v)) => {
                        at = n;
                        best = v;
                    }
                    None => break,
                }
            }
        }
        let seen: Vec<(Candidate, Screen)> = screener
            .seen
            .iter()
            .filter_map(|(c, s)| Some((c.clone(), s.clone()?)))
            .collect();
        for (c, s) in seen {
            keep(c, s, &mut found);
        }
    }
    found.sort_by(|a, b| {
        a.score
            .total_cmp(&b.score)
            .then_with(|| a.candidate.cmp(&b.candidate))
    });
    found
}

/// Returns the indexes (into `scored`, best first) of the Pareto front over read cost, write
/// cost and storage: the designs no other design matches or beats on all three while beating
/// on one. Of designs with the very same three figures, the best-scored stands for them.
pub fn pareto(scored: &[Scored]) -> Vec<usize> {
    let mut front: Vec<usize> = Vec::new();
    for (i, s) in scored.iter().enumerate() {
        let o = s.screen.objectives();
        let beaten = front.iter().any(|&f| {
            scored
                .get(f)
                .is_some_and(|x| dominates_or_equals(&x.screen.objectives(), &o))
        });
        if beaten {
            continue;
        }
        front.retain(|&f| {
            scored
                .get(f)
                .is_none_or(|x| !dominates_or_equals(&o, &x.screen.objectives()))
        });
        front.push(i);
    }
    front.sort_unstable();
    front
}

/// True when `a` is at most `b` on every objective.
fn dominates_or_equals(a: &[f64; 3], b: &[f64; 3]) -> bool {
    a.iter().zip(b).all(|(x, y)| x <= y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_front_keeps_what_nothing_beats() {
        let mk = |o: [f64; 3], score: f64| Scored {
            candidate: vec![],
            screen: Screen {
                reads: o[0],
                writes: o[1],
                index_keys_written: 0.0,
                storage: o[2],
                index_bytes: 0.0,
                write_round_trips: 0.0,
                largest_document: 0,
                tolerance: super::super::screen::Tolerance::default(),
                infeasible: vec![],
            },
            score,
        };
        let s = vec![
            mk([1.0, 5.0, 5.0], 0.0),
            mk([5.0, 1.0, 5.0], 0.1),
            mk([2.0, 6.0, 6.0], 0.2),
            mk([1.0, 5.0, 5.0], 0.3),
            mk([5.0, 5.0, 1.0], 0.4),
        ];
        assert_eq!(pareto(&s), vec![0, 1, 4]);
    }

    #[test]
    fn scores_are_log_ratios_weighted() {
        let w = Weights {
            reads: 1.0,
            writes: 0.0,
            storage: 0.0,
        };
        let r = [99.0, 0.0, 0.0];
        assert!((score(&[49.0, 7.0, 7.0], &r, &w) + std::f64::consts::LN_2).abs() < 1e-12);
        assert_eq!(score(&r, &r, &Weights::default()), 0.0);
    }
}
