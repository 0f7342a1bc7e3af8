//! The verdict of a comparison (`advise::verdict`, docs/advisor.md "The verdict of a
//! comparison"): on real presets, which design wins and why each other loses; an infeasible
//! design, one whose command the engine refused, or one not evaluated never wins; without
//! operations there is nothing to decide; the winner among a preset's designs is the one
//! `squillion advise` costs lowest where it verified the same designs; both languages say it.
#![cfg(not(target_arch = "wasm32"))]

use squillion::advise::verdict::{of_compared, verdict, Contender, Outcome, Reason, Verdict};
use squillion::advise::{advise, AdviseOptions};
use squillion::eval::{compare, EvalOptions, Evaluation};
use squillion::lang::Lang;
use squillion::model::Model;

fn preset(name: &str) -> Model {
    squillion::presets::find(name)
        .unwrap_or_else(|e| panic!("{e}"))
        .model()
        .unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

/// The preset's designs as `squillion compare` evaluates them, and their verdict.
fn compared(name: &str) -> (Model, Vec<Evaluation>, Verdict) {
    let m = preset(name);
    let designs = compare(&m, &EvalOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
    let v = of_compared(&m, &designs, Lang::En);
    (m, designs, v)
}

fn reason(v: &Verdict, design: &str) -> Reason {
    v.designs
        .iter()
        .find(|s| s.design == design)
        .unwrap_or_else(|| panic!("{design} not in the verdict"))
        .reason
}

/// Every verdict with a winner: the winner is sound, the lowest score of the sound designs,
/// and each other design has one line.
fn well_formed(name: &str, designs: &[Evaluation], v: &Verdict) {
    assert_eq!(v.outcome, Outcome::Winner, "{name}");
    let w = v.winning().unwrap_or_else(|| panic!("{name}: no winner"));
    assert_eq!(v.winner.as_deref(), Some(w.design.as_str()));
    let e = designs
        .iter()
        .find(|e| e.design == w.design)
        .unwrap_or_else(|| panic!("{name}: {} not evaluated", w.design));
    assert!(
        e.infeasible().is_empty(),
        "{name}: an infeasible design wins"
    );
    let best = w.cost.as_ref().map(|c| c.score).unwrap_or(f64::NAN);
    for s in &v.designs {
        if matches!(
            s.reason,
            Reason::SlowerReads | Reason::MoreWrites | Reason::MoreStorage | Reason::Ties
        ) {
            let score = s.cost.as_ref().map(|c| c.score).unwrap_or(f64::NAN);
            assert!(
                score >= best - 1e-9,
                "{name}: {} scores {score} < {best}",
                s.design
            );
        }
        let infeasible = designs
            .iter()
            .find(|e| e.design == s.design)
            .is_some_and(|e| !e.infeasible().is_empty());
        assert_eq!(
            infeasible,
            s.reason == Reason::Infeasible,
            "{name} {}",
            s.design
        );
    }
    assert_eq!(
        v.lines.len(),
        designs.len() - 1,
        "{name}: one line per loser"
    );
    for lang in Lang::ALL {
        assert!(v.text.is_translated(lang), "{name}: {lang}");
        assert!(
            v.lines.iter().all(|l| l.is_translated(lang)),
            "{name}: {lang}"
        );
    }
}

#[test]
fn social_feed_the_bucketed_feed_wins_and_fan_out_on_read_is_infeasible() {
    let (_, designs, v) = compared("social-feed");
    well_formed("social-feed", &designs, &v);
    assert_eq!(v.winner.as_deref(), Some("bucketed"));
    // Fan-out on read breaks 16 MiB: never the winner however cheap its writes.
    assert_eq!(reason(&v, "normalized"), Reason::Infeasible);
    // Fan-out on write reads the timelines it wrote from disk: 3× the bucketed feed's reads.
    assert_eq!(reason(&v, "denormalized"), Reason::SlowerReads);
    let r = v.reads_per_write.unwrap_or_default();
    assert!((50.0..60.0).contains(&r), "reads per write {r}");
    let en = v.sentence(Lang::En);
    assert!(en.starts_with("Bucketed feed wins: "), "{en}");
    assert!(
        en.contains("for Fan-out on write; 55 reads per write."),
        "{en}"
    );
    let lines = v.reasons(Lang::En);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Fan-out on read: infeasible (ARRAY_BREAK_POINT")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Fan-out on write: slower reads, ×3.2")),
        "{lines:?}"
    );
    // In Chinese: the preset's own design names, the same figures.
    let zh = of_compared(&preset("social-feed"), &designs, Lang::ZhCn);
    let s = zh.sentence(Lang::ZhCn);
    assert!(s.contains("胜出") && s.contains("55"), "{s}");
    assert!(!s.contains("Bucketed"), "{s}");
}

#[test]
fn blog_normalized_wins_narrowly_and_a_refused_command_never_wins() {
    let (_, designs, v) = compared("blog");
    well_formed("blog", &designs, &v);
    assert_eq!(v.winner.as_deref(), Some("normalized"));
    assert_eq!(reason(&v, "denormalized"), Reason::SlowerReads);
    // One query per page costs the least by the model, but the engine refuses one of its
    // commands: it answers another question, as the advisor would not recommend it.
    assert_eq!(reason(&v, "one-query"), Reason::CommandFailed);
    let one = v.designs.iter().find(|s| s.design == "one-query");
    let win = v.winning().and_then(|w| w.cost.as_ref()).map(|c| c.score);
    assert!(
        one.and_then(|s| s.cost.as_ref()).map(|c| c.score) < win,
        "one-query would win on cost alone"
    );
    // Close figures keep the digits that tell them apart.
    let line = v.reasons(Lang::En).join("\n");
    assert!(line.contains("×1.03 (1.11 s against 1.07 s"), "{line}");
}

#[test]
fn host_logs_the_time_series_collection_wins_on_writes() {
    let (_, designs, v) = compared("host-logs");
    well_formed("host-logs", &designs, &v);
    assert_eq!(v.winner.as_deref(), Some("time-series"));
    assert_eq!(reason(&v, "embed-all"), Reason::Infeasible);
    assert_eq!(reason(&v, "newest-1000"), Reason::MoreWrites);
    assert_eq!(reason(&v, "normalized"), Reason::SlowerReads);
    // The workload writes about 900 logs for every host page it reads.
    assert!(
        v.sentence(Lang::En).contains("writes per read"),
        "{}",
        v.sentence(Lang::En)
    );
}

#[test]
fn social_graph_wins_on_storage_and_no_infeasible_design_wins() {
    let (_, designs, v) = compared("social-graph");
    well_formed("social-graph", &designs, &v);
    let infeasible = designs
        .iter()
        .filter(|e| !e.infeasible().is_empty())
        .count();
    assert!(
        infeasible >= 2,
        "social-graph: {infeasible} infeasible designs"
    );
    assert!(
        v.sentence(Lang::En).contains("wins on storage"),
        "{}",
        v.sentence(Lang::En)
    );
    assert!(v.designs.iter().any(|s| s.reason == Reason::MoreStorage));
}

#[test]
fn without_operations_there_is_nothing_to_decide() {
    let mut m = preset("social-feed");
    m.workload.clear();
    let designs = compare(&m, &EvalOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let v = of_compared(&m, &designs, Lang::En);
    assert_eq!(v.outcome, Outcome::NoWorkload);
    assert_eq!(v.winner, None);
    assert!(v.lines.is_empty());
    assert!(v.sentence(Lang::En).starts_with("Nothing to decide"));
    assert!(v.sentence(Lang::ZhCn).starts_with("无需取舍"));
}

#[test]
fn a_design_not_evaluated_or_infeasible_never_wins() {
    let m = preset("social-feed");
    let designs = compare(&m, &EvalOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    // The winner's evaluation failed: the next sound design wins.
    let contenders: Vec<Contender> = designs
        .iter()
        .map(|e| Contender {
            design: &e.design,
            label: &e.design,
            evaluation: if e.design == "bucketed" {
                Err("worker stopped. More")
            } else {
                Ok(e)
            },
        })
        .collect();
    let v = verdict(&contenders);
    assert_eq!(v.winner.as_deref(), Some("denormalized"));
    assert_eq!(reason(&v, "bucketed"), Reason::NotEvaluated);
    assert!(
        v.reasons(Lang::En)
            .iter()
            .any(|l| l == "bucketed: not evaluated (worker stopped)."),
        "{:?}",
        v.reasons(Lang::En)
    );
    assert!(
        v.sentence(Lang::En).contains("only sound design"),
        "{}",
        v.sentence(Lang::En)
    );
    // Only the infeasible one left: nothing can win.
    let only: Vec<Contender> = contenders
        .into_iter()
        .filter(|c| c.design != "denormalized")
        .collect();
    let v = verdict(&only);
    assert_eq!(v.outcome, Outcome::NoneSound);
    assert_eq!(v.winner, None);
    assert_eq!(v.lines.len(), 2);
}

/// The verdict decides as `squillion advise` does: where the advisor verified one of the
/// preset's designs (social-feed: fan-out on write and the bucketed feed are its bases
/// `denormalized` and `bucketed`), its cost is the verdict's to the last bit, and the
/// advisor's recommendation is the verdict's winner.
#[test]
fn the_winner_is_the_one_squillion_advise_costs_lowest() {
    let (m, _, v) = compared("social-feed");
    let a = advise(&m, &AdviseOptions::default());
    let offers = squillion::eval::offer::compared(&m);
    let mut matched = 0;
    for d in a.top.iter().chain(&a.front) {
        let Some(cost) = &d.cost else { continue };
        let Some(o) = offers.iter().find(|o| o.design == d.design) else {
            continue;
        };
        let s = v
            .designs
            .iter()
            .find(|s| s.design == o.id)
            .and_then(|s| s.cost.as_ref())
            .unwrap_or_else(|| panic!("{}: no cost in the verdict", o.id));
        assert_eq!(
            s.score, cost.score,
            "{}: advise {} verdict {}",
            o.id, cost.score, s.score
        );
        assert_eq!(s.read_us, cost.read_us, "{}", o.id);
        assert_eq!(s.write_us, cost.write_us, "{}", o.id);
        matched += 1;
    }
    assert!(
        matched >= 2,
        "advise verified {matched} of the preset's designs"
    );
    let r = a.recommended.unwrap_or_else(|| panic!("no recommendation"));
    let o = offers
        .iter()
        .find(|o| o.design == r.design)
        .unwrap_or_else(|| panic!("the recommendation {} is not a preset design", r.label));
    assert_eq!(v.winner.as_deref(), Some(o.id.as_str()));
}
