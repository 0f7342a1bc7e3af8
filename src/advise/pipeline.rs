//! The advisor's pipeline: [`super::advise_in`] run as one stage a method on [`Run`].
//!
//! The stages, in order: screen every candidate and score them ([`Run::new`]); run the best
//! few and the front on the engine and pick the cheapest sound one ([`Run::verify_candidates`]);
//! verify the yardstick when the pick scores worse than it ([`Run::verify_yardstick`]);
//! explain the pick, letting a cheaper runner-up replace it ([`Run::explain_pick`]); then say
//! where the decision flips ([`Run::decision_flips`]). Each engine run is told to the page
//! as a step.

use super::screen::Screen;
use super::search::{self, pareto, score, screen_spec, Screener};
use super::space::{Candidate, Dimension, Space};
use super::verify::{self, disagreements, Disagreement, EngineFigures};
use super::{
    cost, explain, flips, label, text, words, yardstick_note, Advice, AdviseOptions, Advised,
    Explained, Explanation, FRONT_VERIFIED, REPICK_ROUNDS,
};
use crate::design::{DesignName, DesignSpec};
use crate::eval::Progress;
use crate::lang::{Lang, Text};
use crate::model::Model;

/// The phases told to the page: each step counted, out of a total that grows as the
/// advisor learns how many designs it will run on the engine.
struct Steps<'p> {
    step: usize,
    of: usize,
    lang: Lang,
    progress: &'p mut dyn FnMut(&Progress),
}

impl Steps<'_> {
    /// Tells `what` as the next step, in the page's language.
    fn tell(&mut self, what: Text) {
        self.step += 1;
        (self.progress)(&Progress {
            step: self.step,
            of: self.of.max(self.step),
            what: what.render(self.lang),
            text: what,
        });
    }
}

/// The designs run on the engine so far, each list as the advice reports it.
#[derive(Default)]
struct Verified {
    /// The best-scored designs (`--top`).
    top: Vec<Advised>,
    /// The Pareto front; the first [`FRONT_VERIFIED`] of it are run.
    front: Vec<Advised>,
    /// The normalized design, when the pick scored worse than it and it was run.
    yardstick: Option<Advised>,
    /// The runners-up of the pick's choices run while explaining it.
    rivals: Vec<Advised>,
}

impl Verified {
    /// Returns the top and the verified part of the front: the designs the first engine
    /// runs choose among.
    fn candidates(&self) -> impl Iterator<Item = &Advised> {
        self.top
            .iter()
            .chain(self.front.iter().take(FRONT_VERIFIED))
    }

    /// Returns every design verified, for the flips and the decision's runner-up.
    fn all(&self) -> impl Iterator<Item = &Advised> {
        self.candidates()
            .chain(self.yardstick.iter())
            .chain(&self.rivals)
    }
}

/// Returns a verified design's decision score by the cost model; infinite when unpriced.
fn decision_cost(a: &Advised) -> f64 {
    a.cost.as_ref().map_or(f64::INFINITY, |c| c.score)
}

/// Returns whether `a` was run on the engine (successfully or not).
fn ran(a: &Advised) -> bool {
    a.engine.is_some() || a.engine_error.is_some()
}

/// One advice in the making: the model, the screened candidates and what the engine found.
pub(super) struct Run<'a, 'p> {
    model: &'a Model,
    opts: &'a AdviseOptions,
    space: &'a Space,
    horizon_days: u64,
    steps: Steps<'p>,
    screener: Screener<'a>,
    /// The normalized design's screen: the reference scores are measured from.
    reference_screen: Option<Screen>,
    /// The reference's objectives (zeros when it could not be screened).
    reference: [f64; 3],
    /// Every feasible candidate scored, best first.
    found: Vec<search::Scored>,
    /// The generated samples, shared by designs that lay out the same collections.
    samples: crate::eval::Samples,
    /// Where the engine disagreed with the screen, in the order found (repeats kept).
    disagree: Vec<Disagreement>,
}

impl<'a, 'p> Run<'a, 'p> {
    /// Screens and scores every candidate of `space` for `model` (the first step told).
    pub(super) fn new(
        model: &'a Model,
        opts: &'a AdviseOptions,
        space: &'a Space,
        horizon_days: u64,
        lang: Lang,
        progress: &'p mut dyn FnMut(&Progress),
    ) -> Self {
        let reference_screen = screen_spec(
            model,
            &DesignSpec::named(DesignName::Normalized, &model.design),
            horizon_days,
        );
        let reference = reference_screen
            .as_ref()
            .map_or([0.0; 3], Screen::objectives);
        let mut steps = Steps {
            step: 0,
            of: 2,
            lang,
            progress,
        };
        steps.tell(
            Text::new("advisor-step-screen").arg("count", crate::human::thousands(space.size())),
        );
        let mut screener = Screener::new(model, space, horizon_days);
        let found = search::search(&mut screener, model, space, &reference, &opts.weights);
        Run {
            model,
            opts,
            space,
            horizon_days,
            steps,
            screener,
            reference_screen,
            reference,
            found,
            samples: crate::eval::Samples::new(),
            disagree: Vec::new(),
        }
    }

    /// Returns the advice: the pipeline's stages in order.
    pub(super) fn advise(mut self) -> Advice {
        let mut verified = Verified {
            top: self
                .found
                .iter()
                .take(self.opts.top.max(1))
                .enumerate()
                .map(|(i, s)| self.advised(i, s))
                .collect(),
            front: pareto(&self.found)
                .iter()
                .filter_map(|&i| self.found.get(i).map(|s| self.advised(i, s)))
                .collect(),
            ..Verified::default()
        };
        let mut recommended = if self.opts.verify {
            let mut pick = self.verify_candidates(&mut verified);
            self.verify_yardstick(&mut verified, &mut pick);
            pick
        } else {
            verified.top.first().cloned()
        };
        let explanations = self.explain_pick(&mut verified, &mut recommended);
        // The explanations are done once their runners-up have run: the last phase.
        self.steps.tell(Text::new("advisor-step-explain"));
        let worse_than_yardstick = recommended.as_ref().and_then(|r| {
            yardstick_note(
                self.reference_screen.as_ref(),
                verified.yardstick.as_ref(),
                r,
            )
        });
        let (flips, runner_up) = match recommended.as_ref().filter(|_| self.opts.verify) {
            Some(p) => self.decision_flips(p, &verified),
            None => (Vec::new(), None),
        };
        let mut unique: Vec<Disagreement> = Vec::new();
        for d in self.disagree {
            if !unique.contains(&d) {
                unique.push(d);
            }
        }
        let Verified { top, front, .. } = verified;
        Advice {
            model: self.model.name.clone().unwrap_or_default(),
            horizon_days: self.horizon_days,
            weights: self.opts.weights,
            cost_model: self.opts.cost,
            search: self.screener.report,
            reference: self.reference_screen,
            recommended,
            top,
            front,
            explanations,
            disagreements: unique,
            flips,
            runner_up,
            worse_than_yardstick,
        }
    }

    /// Returns scored candidate `s`, ranked `i + 1`, as the advice reports it (not yet run).
    fn advised(&self, i: usize, s: &search::Scored) -> Advised {
        let words = words::design_words(self.model, self.space, &s.candidate);
        Advised {
            rank: i + 1,
            label: label(self.model, self.space, &s.candidate),
            description: words::sentence(&words, Lang::En),
            words,
            design: self.space.spec(self.model, &s.candidate),
            score: s.score,
            screened: s.screen.clone(),
            engine: None,
            engine_error: None,
            cost: None,
        }
    }

    /// Runs `a` on the engine, told as a step.
    fn run_told(&mut self, a: &mut Advised) {
        self.steps
            .tell(Text::new("advisor-step-engine").nested("design", a.words.clone()));
        run_engine(
            self.model,
            a,
            self.opts,
            &mut self.samples,
            &mut self.disagree,
        );
    }

    /// Runs the top and the verified part of the front on the engine and returns the
    /// cheapest sound one by the cost model: the screen proposed, the engine's measured work
    /// decides. When none is sound, looks further down the list (20 designs at most).
    fn verify_candidates(&mut self, verified: &mut Verified) -> Option<Advised> {
        let mut labels: Vec<String> = Vec::new();
        for a in verified.candidates() {
            if !labels.contains(&a.label) {
                labels.push(a.label.clone());
            }
        }
        self.steps.of += labels.len();
        // A design both in the top and on the front runs once; designs that lay out the same
        // collections (a `$lookup` twin) share one generated sample.
        let mut done: Vec<Advised> = Vec::new();
        let Verified { top, front, .. } = verified;
        for a in top.iter_mut().chain(front.iter_mut().take(FRONT_VERIFIED)) {
            if let Some(d) = done.iter().find(|d| d.label == a.label) {
                a.engine = d.engine.clone();
                a.engine_error = d.engine_error.clone();
                a.cost = d.cost.clone();
                continue;
            }
            self.run_told(a);
            done.push(a.clone());
        }
        let pick = sound_by_cost(verified.candidates())
            .first()
            .map(|a| (*a).clone());
        if pick.is_some() {
            return pick;
        }
        let further = verified.top.len()..(verified.top.len() + 20).min(self.found.len());
        for i in further {
            let Some(mut a) = self.found.get(i).map(|s| self.advised(i, s)) else {
                break;
            };
            self.run_told(&mut a);
            if a.engine.as_ref().is_some_and(EngineFigures::sound) {
                return Some(a);
            }
        }
        None
    }

    /// A pick that scores worse than the yardstick (the normalized design) must say why: the
    /// yardstick is then verified too when its screen is feasible, and competes for the pick
    /// as every verified design does.
    fn verify_yardstick(&mut self, verified: &mut Verified, pick: &mut Option<Advised>) {
        let worse = pick.as_ref().is_some_and(|p| p.score > 0.0);
        let Some(rs) = self
            .reference_screen
            .clone()
            .filter(|r| worse && r.feasible())
        else {
            return;
        };
        let normalized = self.space.candidate_of(
            self.model,
            &DesignSpec::named(DesignName::Normalized, &self.model.design),
        );
        let own = search::Scored {
            candidate: normalized.clone(),
            screen: rs,
            score: 0.0,
        };
        let (i, s) = self
            .found
            .iter()
            .enumerate()
            .find(|(_, s)| s.candidate == normalized)
            .unwrap_or((self.found.len(), &own));
        let mut y = self.advised(i, s);
        if let Some(done) = verified.candidates().find(|a| a.label == y.label && ran(a)) {
            y = done.clone();
        } else {
            self.steps.of += 1;
            self.run_told(&mut y);
        }
        let sound = y.engine.as_ref().is_some_and(EngineFigures::sound);
        if sound
            && pick
                .as_ref()
                .is_some_and(|p| decision_cost(&y) < decision_cost(p))
        {
            *pick = Some(y.clone());
        }
        verified.yardstick = Some(y);
    }

    /// Where each choice flips: its runner-up (the recommendation with that choice alone
    /// changed) run on the engine, unless it already was, and priced against the pick. A
    /// runner-up the engine finds sound and cheaper is the better design by the very rule that
    /// picked: it becomes the recommendation and is explained in turn (a few rounds at most).
    /// Returns the last recommendation's explanations.
    fn explain_pick(
        &mut self,
        verified: &mut Verified,
        recommended: &mut Option<Advised>,
    ) -> Vec<Explanation> {
        let mut explanations = Vec::new();
        let mut pick_candidate = recommended.as_ref().and_then(|r| {
            self.found
                .iter()
                .find(|s| self.space.spec(self.model, &s.candidate) == r.design)
                .map(|s| s.candidate.clone())
        });
        for round in 0..=REPICK_ROUNDS {
            let Some(c) = pick_candidate.clone() else {
                break;
            };
            let explained = explain(
                &mut self.screener,
                self.model,
                self.space,
                &c,
                &self.reference,
                self.opts,
                self.horizon_days,
            );
            let pick = recommended
                .clone()
                .filter(|p| p.cost.is_some() && self.opts.verify);
            let mut cheaper: Option<(Advised, Candidate)> = None;
            explanations = Vec::with_capacity(explained.len());
            for Explained {
                explanation: mut e,
                runner_up,
                dimension,
            } in explained
            {
                if let (Some(pick), Some(n)) = (pick.as_ref(), runner_up) {
                    if let Some(rival) = self.rival(verified, &n, dimension) {
                        let f = flips::ChoiceFlip::of(
                            pick,
                            &rival,
                            &self.opts.cost,
                            &self.opts.weights,
                        );
                        let better = f.sound()
                            && rival.screened.feasible()
                            && decision_cost(&rival) < decision_cost(pick) - 1e-9
                            && cheaper
                                .as_ref()
                                .is_none_or(|(b, _)| decision_cost(&rival) < decision_cost(b));
                        if better {
                            cheaper = Some((rival, n));
                        }
                        e.flip = Some(f);
                        e.text = text::explanation_text_in(&e, Lang::En);
                    }
                }
                explanations.push(e);
            }
            match cheaper {
                Some((better, n)) if round < REPICK_ROUNDS => {
                    *recommended = Some(better);
                    pick_candidate = Some(n);
                }
                _ => break,
            }
        }
        explanations
    }

    /// Returns runner-up `n` of dimension `dimension` verified, for pricing its flip: the
    /// design already run when it was; else a relationship's runner-up is run now, while a
    /// join's or a field pattern's is not priced (each run costs an engine evaluation and an
    /// answer check: the advice's time, docs/advisor.md "Speed").
    fn rival(
        &mut self,
        verified: &mut Verified,
        n: &Candidate,
        dimension: usize,
    ) -> Option<Advised> {
        let spec = self.space.spec(self.model, n);
        let known = verified
            .top
            .iter()
            .chain(&verified.front)
            .chain(verified.yardstick.iter())
            .chain(&verified.rivals)
            .find(|a| a.design == spec && ran(a))
            .cloned();
        let relationship = matches!(
            self.space.dimensions.get(dimension),
            Some(Dimension::Relationship { .. })
        );
        match known {
            Some(a) => Some(a),
            None if !relationship => None,
            None => {
                let screen = self.screener.screen_design(&spec)?;
                let score = score(&screen.objectives(), &self.reference, &self.opts.weights);
                let rank = self
                    .found
                    .iter()
                    .position(|s| s.candidate == *n)
                    .unwrap_or(self.found.len());
                let mut a = self.advised(
                    rank,
                    &search::Scored {
                        candidate: n.clone(),
                        screen,
                        score,
                    },
                );
                self.steps.of += 1;
                self.run_told(&mut a);
                verified.rivals.push(a.clone());
                Some(a)
            }
        }
    }

    /// Returns where pick `p` flips against each other verified design, and the runner-up of
    /// the whole decision: the next sound design by the cost model, one that costs something
    /// else (a `$lookup` twin that costs the same decides nothing).
    fn decision_flips(
        &self,
        p: &Advised,
        verified: &Verified,
    ) -> (Vec<cost::Flip>, Option<flips::ChoiceFlip>) {
        let flips = flips_of(p, verified.all(), self.opts);
        let runner_up = sound_by_cost(verified.all())
            .into_iter()
            .filter(|a| a.label != p.label)
            .find(|a| {
                a.cost
                    .as_ref()
                    .zip(p.cost.as_ref())
                    .is_some_and(|(c, own)| (c.score - own.score).abs() > 1e-9)
            })
            .map(|a| flips::ChoiceFlip::of(p, a, &self.opts.cost, &self.opts.weights));
        (flips, runner_up)
    }
}

/// Returns the sound verified designs of `designs` (each label once), the lowest decision
/// score first (ties: the better screen rank).
fn sound_by_cost<'a>(designs: impl Iterator<Item = &'a Advised>) -> Vec<&'a Advised> {
    let mut out: Vec<&Advised> = Vec::new();
    for a in designs {
        let sound = a.engine.as_ref().is_some_and(EngineFigures::sound) && a.cost.is_some();
        if sound && !out.iter().any(|o| o.label == a.label) {
            out.push(a);
        }
    }
    out.sort_by(|x, y| {
        decision_cost(x)
            .total_cmp(&decision_cost(y))
            .then(x.rank.cmp(&y.rank))
    });
    out
}

/// Returns where the pick of `pick` flips against each other sound verified design of
/// `designs`: the nearest flip (read factor closest to 1) first.
fn flips_of<'a>(
    pick: &Advised,
    designs: impl Iterator<Item = &'a Advised>,
    opts: &AdviseOptions,
) -> Vec<cost::Flip> {
    let Some(own) = &pick.cost else {
        return Vec::new();
    };
    let ratio = (own.write_ops_per_sec > 0.0).then(|| own.read_ops_per_sec / own.write_ops_per_sec);
    let mut out: Vec<cost::Flip> = sound_by_cost(designs)
        .into_iter()
        .filter(|a| a.label != pick.label)
        .filter_map(|a| {
            let c = a.cost.as_ref()?;
            // A design with the very same cost (a `$lookup` where the application joins
            // alike) never flips: nothing to say.
            ((c.score - own.score).abs() > 1e-9)
                .then(|| cost::flip(own, c, &a.label, &opts.weights, ratio))
        })
        .collect();
    let distance = |f: &cost::Flip| f.read_factor.map_or(f64::INFINITY, |k| k.ln().abs());
    out.sort_by(|x, y| distance(x).total_cmp(&distance(y)));
    out
}

/// Runs `a` on the engine and records its figures, its cost and any disagreement with the
/// screen.
fn run_engine(
    model: &Model,
    a: &mut Advised,
    opts: &AdviseOptions,
    samples: &mut crate::eval::Samples,
    disagree: &mut Vec<Disagreement>,
) {
    if ran(a) {
        return;
    }
    match verify::evaluate(model, &a.design, samples) {
        Ok(e) => {
            a.cost = Some(cost::cost_of(&e, &opts.cost, &opts.weights));
            let mut f = EngineFigures::of(&e);
            f.answer_problems = verify::answer_problems(model, &a.design, samples, &e);
            disagree.extend(disagreements(&a.label, &a.screened, &f));
            a.engine = Some(f);
        }
        Err(e) => a.engine_error = Some(e.to_string()),
    }
}
