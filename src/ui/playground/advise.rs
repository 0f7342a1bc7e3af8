//! The Advise panel: the design advisor ([`crate::advise::advise`], what `squillion advise`
//! runs) on the model shown, in a Web Worker of its own (`public/worker.js`, message
//! `kind: 'advise'`) with its progress, which Cancel terminates. It shows the Pareto front over
//! read cost and write cost (storage as each point's size), the best designs with their
//! figures, why the recommendation chose each relationship's strategy, and "Apply": the design
//! becomes the model's `design` (one undo step) and the page switches to Custom to show its
//! evaluation. docs/page.md describes it; docs/advisor.md the advisor.

mod chart;
mod ratio;

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use gloo_events::EventListener;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::advise::cost::CostModel;
use crate::advise::text::{cost_line, design_in, explanation_text, flip_line, runner_up_line};
use crate::advise::{Advice, Advised, Weights};
use crate::design::DesignSpec;
use crate::human;
use crate::lang::Msg;
use crate::ui::doc_link::WithDocLinks;
use crate::ui::i18n::{lang, t, tr, tv};
use crate::ui::worker::{advise_json_with, AdviseRequest, WorkerRun};

use chart::FrontChart;
use ratio::RatioChartView;

/// Designs the panel lists (best-scored first) and has verified on the engine.
const TOP: usize = 5;

/// Where the advisor is.
#[derive(Debug, Clone, PartialEq)]
enum Run {
    /// Not asked yet.
    Idle,
    /// Running: phase `step` of `of`, and what it does.
    Running(u32, u32, String),
    /// The advice, with the text of the model it is for and how long it took (ms).
    Done(Arc<Advice>, Arc<str>, f64),
    /// Why there is no advice.
    Failed(String),
}

/// Returns a rate as the panel writes it: whole numbers with separators, one decimal under 10.
pub fn rate(v: f64) -> String {
    if !v.is_finite() {
        "–".to_string()
    } else if v < 10.0 && v.fract().abs() > 1e-9 {
        format!("{v:.1}")
    } else {
        human::thousands(v.max(0.0).round() as u64)
    }
}

/// Returns bytes as the panel writes them (binary units).
pub fn bytes(v: f64) -> String {
    human::binary_size(human::whole_bytes(v))
}

/// Returns the model in `text` without its `design`: what the advice depends on.
fn workload_of(text: &str) -> Option<serde_json::Value> {
    let mut v: serde_json::Value = serde_json::from_str(text).ok()?;
    v.as_object_mut()?.remove("design");
    Some(v)
}

/// The advisor's run: its worker and listeners, and which run it is.
#[derive(Default)]
struct Running {
    /// The worker and its listeners.
    run: WorkerRun,
    /// Counts runs, so that an answer of a run replaced meanwhile is ignored.
    generation: u32,
}

/// The Advise panel (shown while `open`), for the model in `text`.
#[component]
pub fn AdvisePanel(
    /// The text of the model shown (the last valid one).
    #[prop(into)]
    text: Signal<Arc<str>>,
    /// Makes a design the model's Custom design and shows it; returns why it was refused.
    apply: Callback<DesignSpec, Option<String>>,
    /// True while the panel is shown; the panel's Close sets it false.
    open: RwSignal<bool>,
) -> impl IntoView {
    let run = RwSignal::new(Run::Idle);
    let weights = RwSignal::new(Weights::default());
    let cost = RwSignal::new(CostModel::default());
    let applied = RwSignal::new(None::<DesignSpec>);
    let apply_error = RwSignal::new(None::<String>);
    let running: StoredValue<Rc<RefCell<Running>>, LocalStorage> =
        StoredValue::new_local(Rc::default());

    let start = starter(text, weights, cost, run, apply_error, running);
    let cancel = move || {
        running.get_value().borrow_mut().run.stop();
        run.set(Run::Idle);
    };
    // Opening the panel runs the advisor, unless advice for this very workload is shown.
    Effect::new(move |_| {
        if !open.get() {
            return;
        }
        let fresh = run.with_untracked(|r| match r {
            Run::Done(_, t, _) => text.with_untracked(|now| workload_of(now) == workload_of(t)),
            Run::Running(..) => true,
            _ => false,
        });
        if !fresh {
            start();
        }
    });
    on_cleanup(move || {
        if let Some(r) = running.try_get_value() {
            r.borrow_mut().run.stop();
        }
    });
    let stale = Memo::new(move |_| {
        run.with(|r| match r {
            Run::Done(_, t, _) => text.with(|now| workload_of(now) != workload_of(t)),
            _ => false,
        })
    });
    let apply = Callback::new(move |design: DesignSpec| match apply.run(design.clone()) {
        None => {
            applied.set(Some(design));
            apply_error.set(None);
        }
        Some(e) => apply_error.set(Some(e)),
    });

    let reset_costs = move |_| {
        if cost.get_untracked() != CostModel::default() {
            cost.set(CostModel::default());
            start();
        }
    };

    view! {
        <section class="card advise" id="advise" aria-labelledby="advise-title" data-state=move || match run.get() {
            Run::Idle => "idle",
            Run::Running(..) => "running",
            Run::Done(..) => "done",
            Run::Failed(_) => "failed",
        }>
            <div class="card-head advise-head">
                <h2 id="advise-title">{tr!(AdviseHeading)}</h2>
                <button type="button" class="button advise-close" on:click=move |_| { cancel(); open.set(false); }
                    aria-label=tr!(AdviseCloseLabel)>{tr!(AdviseClose)}</button>
            </div>
            <p class="card-note"><WithDocLinks text=Signal::derive(tr!(AdviseNote))/></p>
            <fieldset class="advise-weights">
                <legend>{tr!(AdviseWeights)}</legend>
                {weight_input(Msg::AdviseWReads, "advise-w-reads", |w| w.reads, |w, v| w.reads = v, weights, start)}
                {weight_input(Msg::AdviseWWrites, "advise-w-writes", |w| w.writes, |w, v| w.writes = v, weights, start)}
                {weight_input(Msg::AdviseWStorage, "advise-w-storage", |w| w.storage, |w, v| w.storage = v, weights, start)}
            </fieldset>
            // The cost model's prices, as `--cost FILE` sets them: folded, since the defaults
            // serve most models (docs/advisor.md gives the source of each).
            <details class="advise-costs">
                <summary>{tr!(AdviseCosts)}</summary>
                <p class="card-note"><WithDocLinks text=Signal::derive(tr!(AdviseCostsNote))/></p>
                <div class="advise-prices">
                    {price_input(Msg::AdviseCostRoundTrip, "advise-c-round-trip", |c| c.round_trip_us, |c, v| c.round_trip_us = v, cost, start)}
                    {price_input(Msg::AdviseCostKeyExamined, "advise-c-key-examined", |c| c.key_examined_us, |c, v| c.key_examined_us = v, cost, start)}
                    {price_input(Msg::AdviseCostDocExamined, "advise-c-doc-examined", |c| c.doc_examined_us, |c, v| c.doc_examined_us = v, cost, start)}
                    {price_input(Msg::AdviseCostByteReturned, "advise-c-byte-returned", |c| c.byte_returned_us, |c, v| c.byte_returned_us = v, cost, start)}
                    {price_input(Msg::AdviseCostDocWritten, "advise-c-doc-written", |c| c.doc_written_us, |c, v| c.doc_written_us = v, cost, start)}
                    {price_input(Msg::AdviseCostByteWritten, "advise-c-byte-written", |c| c.byte_written_us, |c, v| c.byte_written_us = v, cost, start)}
                    {price_input(Msg::AdviseCostIndexKeyWritten, "advise-c-index-key-written", |c| c.index_key_written_us, |c, v| c.index_key_written_us = v, cost, start)}
                    {price_input(Msg::AdviseCostDiskRead, "advise-c-disk-read", |c| c.disk_read_us, |c, v| c.disk_read_us = v, cost, start)}
                </div>
                <button type="button" class="button advise-costs-reset" on:click=reset_costs
                    disabled=move || cost.with(|c| *c == CostModel::default())>{tr!(AdviseCostsReset)}</button>
            </details>
            <div class="advise-status" aria-live="polite">
                {advise_status(run, stale, start, cancel)}
            </div>
            {move || apply_error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            {move || match run.get() {
                Run::Done(a, _, ms) => Some(view! { <AdviceView advice=a ms=ms apply=apply applied=applied/> }),
                _ => None,
            }}
        </section>
    }
}

/// Returns what (re)starts the advisor on the model in `text` with the weights and prices in
/// use: whatever run was under way stops, the progress starts at its first step; in a worker of
/// its own, else (no worker) on the page.
fn starter(
    text: Signal<Arc<str>>,
    weights: RwSignal<Weights>,
    cost: RwSignal<CostModel>,
    run: RwSignal<Run>,
    apply_error: RwSignal<Option<String>>,
    running: StoredValue<Rc<RefCell<Running>>, LocalStorage>,
) -> impl Fn() + Copy + 'static {
    move || {
        let model = text.get_untracked();
        let request = AdviseRequest {
            weights: weights.get_untracked(),
            top: TOP,
            lang: untrack(lang),
            cost: cost.get_untracked(),
        };
        let options = serde_json::to_string(&request).unwrap_or_default();
        let holder = running.get_value();
        let generation = {
            let mut r = holder.borrow_mut();
            r.run.stop();
            r.generation += 1;
            r.generation
        };
        run.set(Run::Running(0, 1, String::new()));
        apply_error.set(None);
        if spawn(&holder, generation, model.clone(), &options, run).is_err() {
            inline(model, options, run);
        }
    }
}

/// One weight of the score (reads, writes, storage): a number, 0 or more, the three not all 0;
/// a change runs the advisor again, anything else puts the weight in use back.
fn weight_input(
    label: Msg,
    id: &'static str,
    get: fn(&Weights) -> f64,
    put: fn(&mut Weights, f64),
    weights: RwSignal<Weights>,
    start: impl Fn() + Copy + 'static,
) -> impl IntoView {
    view! {
        <label class="advise-weight" for=id>
            {move || t(label)}
            <input
                id=id
                type="number"
                min="0"
                step="1"
                inputmode="decimal"
                prop:value=move || weights.with(|w| get(w).to_string())
                on:change=move |ev| {
                    let v: f64 = event_target_value(&ev).trim().parse().unwrap_or(-1.0);
                    let mut w = weights.get_untracked();
                    put(&mut w, v);
                    if v.is_finite() && v >= 0.0 && w.reads + w.writes + w.storage > 0.0 {
                        weights.set(w);
                        start();
                    } else {
                        // Not a weight: the field shows the one in use again.
                        weights.set(weights.get_untracked());
                    }
                }
            />
        </label>
    }
}

/// A price of the cost model: a number of microseconds, 0 or more; a change runs the advisor
/// again, anything else puts the price in use back.
fn price_input(
    label: Msg,
    id: &'static str,
    get: fn(&CostModel) -> f64,
    put: fn(&mut CostModel, f64),
    cost: RwSignal<CostModel>,
    start: impl Fn() + Copy + 'static,
) -> impl IntoView {
    view! {
        <label class="advise-price" for=id>
            <span>{move || t(label)}</span>
            <input
                id=id
                type="number"
                min="0"
                step="any"
                inputmode="decimal"
                prop:value=move || cost.with(|c| get(c).to_string())
                on:change=move |ev| {
                    let v: f64 = event_target_value(&ev).trim().parse().unwrap_or(-1.0);
                    if v.is_finite() && v >= 0.0 {
                        cost.update(|c| put(c, v));
                        start();
                    } else {
                        // Not a price: the field shows the one in use again.
                        cost.set(cost.get_untracked());
                    }
                }
            />
            <span class="muted">{tr!(AdviseMicroseconds)}</span>
        </label>
    }
}

/// Where the advisor is, and what can be done there: run it; while it runs, its progress and
/// Cancel; why it stopped; once done, whether the model's workload has changed since.
fn advise_status(
    run: RwSignal<Run>,
    stale: Memo<bool>,
    start: impl Fn() + Copy + Send + Sync + 'static,
    cancel: impl Fn() + Copy + Send + Sync + 'static,
) -> impl IntoView {
    move || {
        match run.get() {
            Run::Idle => view! {
                <button type="button" class="button" on:click=move |_| start()>{tr!(AdviseRun)}</button>
            }.into_any(),
            Run::Running(step, of, what) => view! {
                <span class="spinner" aria-hidden="true"></span>
                <progress max=of.max(1) value=step aria-label=tr!(AdviseProgress)></progress>
                <span class="advise-phase">{move || if what.is_empty() { format!("{}…", t(Msg::AdviseStarting)) } else { format!("{}…", human::capitalize(&what)) }}</span>
                <button type="button" class="button advise-cancel" on:click=move |_| cancel()>{tr!(AdviseCancel)}</button>
            }.into_any(),
            Run::Failed(e) => view! {
                <span class="error" role="alert">{move || tv(Msg::AdviseStopped, &[("error", e.clone())])}</span>
                <button type="button" class="button" on:click=move |_| start()>{tr!(AdviseRunAgain)}</button>
            }.into_any(),
            Run::Done(..) => view! {
                {move || stale.get().then(|| view! {
                    <span class="advise-stale">{tr!(AdviseStale)}</span>
                    <button type="button" class="button" on:click=move |_| start()>{tr!(AdviseRunAgain)}</button>
                })}
            }.into_any(),
        }
    }
}

/// The advice: what was searched, the front, the best designs, the explanations.
#[component]
fn AdviceView(
    /// The advice shown.
    advice: Arc<Advice>,
    /// How long the advisor took, in ms.
    ms: f64,
    /// Applies a design as the model's Custom design.
    apply: Callback<DesignSpec>,
    /// The design applied last from this panel, if any.
    applied: RwSignal<Option<DesignSpec>>,
) -> impl IntoView {
    let searched = searched_text(advice.search.clone(), ms);
    let recommended = advice.recommended.clone();
    let headline = {
        let recommended = recommended.clone();
        move || match &recommended {
            Some(r) => tv(Msg::AdviseRecommended, &[("label", plain_label(r))]),
            None => t(Msg::AdviseNone),
        }
    };
    let front = advice.front.clone();
    let rec_design = recommended.as_ref().map(|r| r.design.clone());
    let top = advice.top.clone();
    let explanations = advice.explanations.clone();
    let disagreements = advice.disagreements.clone();
    let flips = advice.flips.clone();
    let yardstick = recommended
        .as_ref()
        .and(advice.worse_than_yardstick.clone());
    let rec_cost = recommended.as_ref().and_then(|r| r.cost.clone());
    // What decides against the runner-up, when it loses (costs more).
    let runner_up = advice
        .runner_up
        .clone()
        .filter(|r| r.flip.as_ref().is_some_and(|f| f.score_delta > 0.0));
    let rec_for_rows = rec_design.clone();
    view! {
        <p class="advise-searched" data-testid="advise-searched" data-space=advice.search.space_size.to_string()
            data-explored=advice.search.explored.to_string() data-infeasible=advice.search.infeasible.to_string()>{searched}</p>
        <div class="advise-recommended" data-testid="advise-recommended">
            <strong>{headline}</strong>
            {recommended.clone().map(|r| {
                let d = r.design.clone();
                let spec = serde_json::to_string(&d).unwrap_or_default();
                view! {
                    " "
                    <button type="button" class="button primary advise-apply" data-rank=r.rank.to_string() data-design=spec
                        title={ let r = r.clone(); move || tv(Msg::AdviseApplyTitle, &[("design", plain_label(&r))]) }
                        on:click=move |_| apply.run(d.clone())>{tr!(AdviseApply)}</button>
                }
            })}
            {yardstick.map(|y| view! {
                <p class="advise-yardstick" data-testid="advise-yardstick" data-reason=y.reason.clone()>{move || y.words.render(lang())}</p>
            })}
            {rec_cost.map(|c| view! {
                <p class="advise-cost" data-testid="advise-cost">{move || cost_line(&c, lang())}</p>
            })}
            {runner_up.map(|r| {
                let advice = advice.clone();
                let decided = r.decided_by.clone().unwrap_or_default();
                let term = r.term.clone().unwrap_or_default();
                view! {
                    <p class="advise-runner-up" data-testid="advise-runner-up" data-decided-by=decided data-term=term>
                        {move || crate::human::capitalize(&runner_up_line(&r, &design_in(&advice, &r.design, lang()), lang()))}
                    </p>
                }
            })}
        </div>
        <div class="advise-grid">
            <FrontChart front=front recommended=rec_design apply=apply/>
            {why_view(explanations, flips, advice.clone())}
        </div>
        <RatioChartView advice=(*advice).clone()/>
        <h3>{tr!(AdviseBest)}</h3>
        <div class="table-scroll" tabindex="0" role="region" aria-label=tr!(AdviseBest)>
            <table class="advise-table">
                <thead>
                    <tr>
                        <th scope="col" class="num">"#"</th>
                        <th scope="col">{tr!(AdviseColDesign)}<span class="visually-hidden">{", "}{tr!(AdviseColEngine)}</span></th>
                        <th scope="col" class="num" title=tr!(AdviseColScoreTitle)>{tr!(AdviseColScore)}</th>
                        <th scope="col" class="num">{tr!(AdviseColReads)}</th>
                        <th scope="col" class="num" title=tr!(AdviseColWritesTitle)>{tr!(AdviseColWrites)}</th>
                        <th scope="col" class="num" title=tr!(AdviseColStorageTitle)>{tr!(AdviseColStorage)}</th>
                    </tr>
                </thead>
                <tbody>
                    {top.into_iter().map(|a| {
                        let is_rec = rec_for_rows.as_ref() == Some(&a.design);
                        best_row(a, is_rec, apply, applied)
                    }).collect_view()}
                </tbody>
            </table>
        </div>
        {disagreements_view(disagreements, advice)}
    }
}

/// Returns what the advisor searched, in words: how many designs of how many, in how long, how
/// many feasible and not, and how many it could not evaluate.
fn searched_text(
    s: crate::advise::search::SearchReport,
    ms: f64,
) -> impl Fn() -> String + Send + Sync + 'static {
    move || {
        let values = [
            ("explored", human::thousands(s.explored)),
            ("space", human::thousands(s.space_size)),
            ("seconds", format!("{:.1}", ms / 1000.0)),
            ("feasible", human::thousands(s.feasible)),
            ("infeasible", human::thousands(s.infeasible)),
        ];
        let head = if s.method == "exhaustive" {
            tv(Msg::AdviseSearchedAll, &values)
        } else {
            tv(Msg::AdviseSearchedLocal, &values)
        };
        if s.invalid > 0 {
            let invalid = tv(
                Msg::AdviseSearchedInvalid,
                &[("invalid", human::thousands(s.invalid))],
            );
            format!("{head} {invalid}")
        } else {
            head
        }
    }
}

/// Why the recommendation chose each relationship's strategy, and what would change a choice
/// (the prices or weights that flip it).
fn why_view(
    explanations: Vec<crate::advise::Explanation>,
    flips: Vec<crate::advise::cost::Flip>,
    advice: Arc<Advice>,
) -> impl IntoView {
    view! {
    <div class="advise-why">
        <h3>{tr!(AdviseWhy)}</h3>
        {if explanations.is_empty() {
            view! { <p class="muted">{tr!(AdviseWhyNone)}</p> }.into_any()
        } else {
            view! {
                <ul class="advise-explanations">
                    {explanations.into_iter().map(|e| {
                        let dimension = e.dimension.clone();
                        view! {
                            <li data-dimension=dimension>{move || explanation_text(&e, lang())}</li>
                        }
                    }).collect_view()}
                </ul>
            }.into_any()
        }}
        {(!flips.is_empty()).then(|| view! {
            <h3>{tr!(AdviseFlips)}</h3>
            <ul class="advise-flips" data-testid="advise-flips">
                {flips.into_iter().map(|f| {
                    let advice = advice.clone();
                    view! { <li>{move || flip_line(&f, &design_in(&advice, &f.design, lang()), lang())}</li> }
                }).collect_view()}
            </ul>
        })}
    </div>
    }
}

/// One of the best designs as a row of the table: its rank, its choices in words (marked when
/// recommended), Apply and the engine's verdict, its score and its screened figures.
fn best_row(
    a: Advised,
    is_rec: bool,
    apply: Callback<DesignSpec>,
    applied: RwSignal<Option<DesignSpec>>,
) -> impl IntoView {
    let d = a.design.clone();
    let d2 = a.design.clone();
    let spec = serde_json::to_string(&a.design).unwrap_or_default();
    view! {
        <tr class:recommended=is_rec data-rank=a.rank.to_string()>
            <td class="num">{a.rank}</td>
            <th scope="row" class="advise-label">
                <span class="advise-words">{ let a = a.clone(); move || plain_label(&a) }</span>
                {is_rec.then(|| view! { " "<span class="badge" data-level="ok">{tr!(AdviseBadgeRecommended)}</span> })}
                <span class="advise-row-foot">
                    <button type="button" class="button advise-apply-row" data-design=spec
                    aria-label={ let rank = a.rank.to_string(); move || tv(Msg::AdviseApplyN, &[("rank", rank.clone())]) }
                    title={ let a = a.clone(); move || tv(Msg::AdviseApplyTitle, &[("design", plain_label(&a))]) }
                    on:click=move |_| apply.run(d.clone())>
                    {move || if applied.with(|x| x.as_ref() == Some(&d2)) { t(Msg::AdviseApplied) } else { t(Msg::AdviseApply) }}
                </button>
                    <span class="advise-verdict">{ let a = a.clone(); move || engine_verdict(&a) }</span>
                </span>
            </th>
            <td class="num">{format!("{:+.3}", a.score)}</td>
            <td class="num" data-value=a.screened.reads.to_string()>{rate(a.screened.reads)}</td>
            <td class="num" data-value=a.screened.write_cost().to_string()
                title={ let (docs, keys) = (rate(a.screened.writes), rate(a.screened.index_keys_written)); move || tv(Msg::AdviseWritesCell, &[("docs", docs.clone()), ("keys", keys.clone())]) }>{rate(a.screened.write_cost())}</td>
            <td class="num" data-value=a.screened.storage_cost().to_string()
                title={ let (data, indexes) = (human::thousands(human::whole_bytes(a.screened.storage)), human::thousands(human::whole_bytes(a.screened.index_bytes))); move || tv(Msg::AdviseStorageCell, &[("data", tv(Msg::ExactBytes, &[("bytes", data.clone())])), ("indexes", tv(Msg::ExactBytes, &[("bytes", indexes.clone())]))]) }>{bytes(a.screened.storage_cost())}</td>
        </tr>
    }
}

/// Where the engine disagrees with the screening (folded, when it does): each design's figure,
/// both values and why.
fn disagreements_view(
    disagreements: Vec<crate::advise::verify::Disagreement>,
    advice: Arc<Advice>,
) -> impl IntoView {
    (!disagreements.is_empty()).then(|| view! {
        <details class="advise-disagreements">
            <summary>{ let count = disagreements.len().to_string(); move || tv(Msg::AdviseDisagree, &[("count", count.clone())]) }</summary>
            <ul>
                {disagreements.into_iter().map(|d| {
                    let advice = advice.clone();
                    view! { <li>{move || tv(Msg::AdviseDisagreement, &[("design", design_in(&advice, &d.design, lang())), ("figure", d.figure.to_string()), ("screened", rate(d.screened)), ("engine", rate(d.engine)), ("note", d.note.to_string())])}</li> }
                }).collect_view()}
            </ul>
        </details>
    })
}

/// Returns a design for a person, in the page's language: its choices in words
/// ([`crate::advise::words`]), or "the only design" when it has none to make.
pub fn plain_label(a: &Advised) -> String {
    crate::advise::words::sentence(&a.words, lang())
}

/// Returns what the engine said of a design: `verified`, `not run`, or why it is unsound.
fn engine_verdict(a: &Advised) -> String {
    match (&a.engine, &a.engine_error) {
        (Some(e), _) if e.sound() => t(Msg::AdviseVerified),
        (Some(e), _) if !e.infeasible.is_empty() => tv(
            Msg::AdviseInfeasible,
            &[("limits", e.infeasible.join(", "))],
        ),
        (Some(_), _) => t(Msg::AdviseRefused),
        (None, Some(err)) => tv(Msg::AdviseFailed, &[("error", err.clone())]),
        (None, None) => t(Msg::AdviseNotRun),
    }
}

/// Runs the advisor on the page, after a pause that lets "starting" paint (no worker).
fn inline(model: Arc<str>, options: String, run: RwSignal<Run>) {
    let go = move || {
        let t0 = js_sys::Date::now();
        run.set(
            match advise_json_with(&model, &options, &mut |_| {})
                .and_then(|j| serde_json::from_str::<Advice>(&j).map_err(|e| e.to_string()))
            {
                Ok(a) => Run::Done(Arc::new(a), model.clone(), js_sys::Date::now() - t0),
                Err(e) => Run::Failed(e),
            },
        );
    };
    if set_timeout_with_handle(go, Duration::from_millis(30)).is_err() {
        run.set(Run::Failed(t(Msg::AdviseNoSchedule)));
    }
}

/// Runs the advisor in a worker of its own, kept in `holder` until it answers or is
/// cancelled; `Err` when no worker can start (the caller runs it on the page).
fn spawn(
    holder: &Rc<RefCell<Running>>,
    generation: u32,
    model: Arc<str>,
    options: &str,
    run: RwSignal<Run>,
) -> Result<(), JsValue> {
    let worker = crate::ui::worker::spawn()?;
    let current = {
        let holder = Rc::downgrade(holder);
        move || {
            holder
                .upgrade()
                .filter(|h| h.try_borrow().is_ok_and(|r| r.generation == generation))
        }
    };
    let on_message = {
        let (current, model) = (current.clone(), model.clone());
        let options = options.to_string();
        EventListener::new(&worker, "message", move |ev| {
            let Some(h) = current() else { return };
            let Some(ev) = ev.dyn_ref::<web_sys::MessageEvent>() else {
                return;
            };
            let data = ev.data();
            let field = |name: &str| js_sys::Reflect::get(&data, &name.into()).ok();
            if let Some(p) = field("progress").filter(|p| p.is_object()) {
                let n = |k: &str| {
                    js_sys::Reflect::get(&p, &k.into())
                        .ok()
                        .and_then(|v| v.as_f64())
                        .unwrap_or(0.0) as u32
                };
                let what = js_sys::Reflect::get(&p, &"what".into())
                    .ok()
                    .and_then(|v| v.as_string())
                    .unwrap_or_default();
                run.set(Run::Running(n("step"), n("of"), what));
                return;
            }
            // Any other message settles the run: the worker goes.
            if let Ok(mut r) = h.try_borrow_mut() {
                r.run.terminate();
            }
            if let Some(json) = field("json").and_then(|j| j.as_string()) {
                let ms = field("ms").and_then(|m| m.as_f64()).unwrap_or(0.0);
                run.set(match serde_json::from_str::<Advice>(&json) {
                    Ok(a) => Run::Done(Arc::new(a), model.clone(), ms),
                    Err(e) => Run::Failed(tv(Msg::AdviseUnreadable, &[("error", e.to_string())])),
                });
            } else if let Some(e) = field("error").and_then(|e| e.as_string()) {
                run.set(Run::Failed(e));
            } else if field("init").is_some_and(|i| i.is_truthy()) {
                inline(model.clone(), options.clone(), run);
            } else if let Some(fatal) = field("fatal").and_then(|e| e.as_string()) {
                run.set(Run::Failed(fatal));
            } else {
                run.set(Run::Failed(t(Msg::AdviseNoAdvice)));
            }
        })
    };
    let on_error = {
        let (current, model) = (current.clone(), model.clone());
        let options = options.to_string();
        EventListener::new(&worker, "error", move |ev| {
            ev.prevent_default();
            let Some(h) = current() else { return };
            if let Ok(mut r) = h.try_borrow_mut() {
                r.run.stop();
            }
            inline(model.clone(), options.clone(), run);
        })
    };
    let message = crate::ui::worker::message(&[
        ("id", JsValue::from(generation)),
        ("kind", JsValue::from_str("advise")),
        ("model", JsValue::from_str(&model)),
        ("options", JsValue::from_str(options)),
    ]);
    worker.post_message(&message)?;
    let mut r = holder.borrow_mut();
    r.run = WorkerRun {
        worker: Some(worker),
        listeners: vec![on_message, on_error],
    };
    Ok(())
}
