//! Where each choice of the recommendation flips: per relationship (or join, or field
//! pattern), the read/write ratio and the storage weight at which its runner-up would win,
//! and, for an alternative that only growth makes infeasible, the growth below which it would
//! fit.
//!
//! The advice's own flips ([`super::Advice::flips`]) compare whole verified designs; an
//! architect asks it per decision ("embedding wins above 1,200 reads per write"). The
//! runner-up of a choice is the recommendation with only that choice changed (screened by
//! [`super::explain`]); it is run on the engine like every verified design, so both sides of a
//! flip are priced by the same cost model from measured figures, and a runner-up the engine
//! rules out (a refused command, a missed logical answer, a limit) is said to be ruled out,
//! not priced.

use serde::{Deserialize, Serialize};

use super::cost::{self, CostModel, Flip};
use super::screen::Breach;
use super::verdict::{why_loses, Reason};
use super::{Advised, Weights};
use crate::model::Model;

/// Where one choice of the recommendation flips against its runner-up.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChoiceFlip {
    /// The runner-up design's label: the recommendation with only this choice changed.
    pub design: String,
    /// The runner-up design in words (what the report and the page show for it: it is in none
    /// of the advice's lists of designs).
    #[serde(default = "super::words::unnamed")]
    pub words: crate::lang::Text,
    /// `sound` when the engine ran the runner-up with every limit kept, every command run and
    /// every logical answer given; otherwise why it cannot compete: `engine_infeasible`,
    /// `refused`, `no_answer` or `failed`.
    pub verdict: String,
    /// The runner-up's cost minus the recommendation's, by the cost model: its work (µs per
    /// second of workload) and its storage (bytes on disk with the indexes); `None` when it is
    /// not sound.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub work_delta_us: Option<f64>,
    /// The storage difference (bytes), as [`Self::work_delta_us`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub storage_delta_bytes: Option<f64>,
    /// What decides between the two, by the part of the decision score that differs the most
    /// (as the comparison's verdict reads it): `reads` or `writes` (the work of that side),
    /// `storage`, or `tie`; `None` when it is not sound.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decided_by: Option<String>,
    /// For work, the cost term whose µs/s differs the most on that side (`round_trips`,
    /// `docs_from_disk`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub term: Option<String>,
    /// Where the pick flips against it ([`cost::flip`]); `None` when it is not sound or costs
    /// exactly what the recommendation costs (the choice changes no measured figure).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flip: Option<Flip>,
}

impl ChoiceFlip {
    /// Returns where `pick` (the recommendation, verified) flips against `rival` (its runner-up
    /// for one choice, verified), under weights `w`.
    pub fn of(pick: &Advised, rival: &Advised, m: &CostModel, w: &Weights) -> ChoiceFlip {
        let verdict = ruled_out(rival).unwrap_or("sound");
        let mut out = ChoiceFlip {
            design: rival.label.clone(),
            words: rival.words.clone(),
            verdict: verdict.to_string(),
            work_delta_us: None,
            storage_delta_bytes: None,
            decided_by: None,
            term: None,
            flip: None,
        };
        let Some((own, other)) = pick.cost.as_ref().zip(rival.cost.as_ref()) else {
            return out;
        };
        if verdict != "sound" {
            return out;
        }
        let ratio =
            (own.write_ops_per_sec > 0.0).then(|| own.read_ops_per_sec / own.write_ops_per_sec);
        // What makes the dearer of the two lose.
        let (winner, loser) = if other.score >= own.score {
            (own, other)
        } else {
            (other, own)
        };
        let (reason, _, term) = why_loses(winner, loser, m, w);
        out.decided_by = Some(
            match reason {
                Reason::SlowerReads => "reads",
                Reason::MoreWrites => "writes",
                Reason::MoreStorage => "storage",
                _ => "tie",
            }
            .to_string(),
        );
        out.term = term;
        out.work_delta_us = Some(other.work_us() - own.work_us());
        out.storage_delta_bytes = Some(other.storage_bytes - own.storage_bytes);
        let same = (other.score - own.score).abs() <= 1e-9;
        out.flip = (!same).then(|| cost::flip(own, other, &rival.label, w, ratio));
        out
    }

    /// True when the runner-up was sound on the engine (and so is priced).
    pub fn sound(&self) -> bool {
        self.verdict == "sound"
    }
}

/// Returns why the engine rules `a` out of the pick, or `None` when it is sound. The one list
/// of these reasons and their order: the yardstick's note (`super::yardstick_note`) names its
/// reason through it too.
pub fn ruled_out(a: &Advised) -> Option<&'static str> {
    match (&a.engine, &a.engine_error) {
        (Some(e), _) if !e.infeasible.is_empty() => Some("engine_infeasible"),
        (Some(e), _) if !e.command_errors.is_empty() => Some("refused"),
        (Some(e), _) if !e.answer_problems.is_empty() => Some("no_answer"),
        (Some(_), _) if a.cost.is_some() => None,
        _ => Some("failed"),
    }
}

/// The growth at which an alternative that breaks 16 MiB within the horizon would not.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GrowthFlip {
    /// The relationship whose array breaks.
    pub relationship: String,
    /// Children added per day to the largest parent today (the model's
    /// `growth_per_day.largest`, its `typical` when it has none).
    pub per_day: f64,
    /// The growth (children per day on the largest parent) below which the largest parent
    /// stays under the break point for the whole horizon: (break point − largest now) ÷
    /// horizon days, growth being linear as the break dates assume.
    pub feasible_below_per_day: f64,
}

/// Returns the growth flip of an alternative whose only breaches are arrays reaching their
/// break point within the horizon (`BREAKS_WITHIN_HORIZON`), all of one relationship:
/// `None` when something else makes it infeasible (an array already past its break point, a
/// document over the limit whatever the growth, another limit), since no growth then fits.
pub fn growth_flip(model: &Model, breaches: &[Breach], horizon_days: u64) -> Option<GrowthFlip> {
    let first = breaches.first()?;
    let relationship = first.relationship.clone()?;
    let mut below = f64::INFINITY;
    for b in breaches {
        if b.code != "BREAKS_WITHIN_HORIZON" || b.relationship.as_ref() != Some(&relationship) {
            return None;
        }
        let room = b.break_point? as f64 - b.largest? as f64;
        below = below.min(room / horizon_days.max(1) as f64);
    }
    let per_day = model
        .relationships
        .iter()
        .find(|r| r.name == relationship)?
        .growth_largest();
    (below.is_finite() && below >= 0.0 && per_day > below).then_some(GrowthFlip {
        relationship,
        per_day,
        feasible_below_per_day: below,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn breach(code: &str, relationship: &str, break_point: u64, largest: u64) -> Breach {
        Breach {
            code: code.into(),
            collection: "posts".into(),
            path: "comments".into(),
            relationship: Some(relationship.into()),
            break_point: Some(break_point),
            largest: Some(largest),
            date: None,
            days: Some(47),
            message: String::new(),
        }
    }

    #[test]
    fn the_growth_flip_is_the_room_left_over_the_horizon() {
        let model = crate::presets::find("blog")
            .expect("blog")
            .model()
            .expect("blog's model");
        // The busiest post gets 500 comments a day.
        let r = model
            .relationships
            .iter()
            .find(|r| r.name == "comments")
            .expect("blog's comments");
        assert_eq!(r.growth_largest(), 500.0);
        let b = breach("BREAKS_WITHIN_HORIZON", &r.name, 43_087, 20_000);
        let g = growth_flip(&model, std::slice::from_ref(&b), 1_826).expect("a growth flip");
        assert_eq!(g.relationship, r.name);
        assert!((g.feasible_below_per_day - 23_087.0 / 1_826.0).abs() < 1e-9);
        assert_eq!(g.per_day, r.growth_largest());
        // Already past its break point, or another limit: no growth fits.
        let past = breach("ARRAY_BREAK_POINT", &r.name, 43_087, 50_000);
        assert_eq!(growth_flip(&model, &[b.clone(), past], 1_826), None);
        assert_eq!(growth_flip(&model, &[], 1_826), None);
        // A relationship the model does not have: nothing to say.
        let other = breach("BREAKS_WITHIN_HORIZON", "nothing", 43_087, 20_000);
        assert_eq!(growth_flip(&model, &[other], 1_826), None);
    }
}
