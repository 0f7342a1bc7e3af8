//! The design bar's sample-scale control and the evaluation's progress.

use leptos::prelude::*;

use crate::lang::Msg;
use crate::ui::i18n::{t, tr, tv};

use super::pipeline::{Key, Outcome, Pipeline};
use crate::eval::budget::largest_fitting;
use crate::eval::offer::offer;
use crate::generate::GenOptions;
use crate::human;
use crate::model::{Model, Sample};

/// Returns the largest sample (documents per entity) of the chosen design (`chosen`, an offer
/// id) of `model` that fits the evaluation's memory budget: the most the sample control takes.
pub fn fits(model: Memo<Option<Model>>, chosen: Memo<String>) -> Signal<Option<u64>> {
    Memo::new(move |_| {
        let id = chosen.get();
        model.with(|m| {
            let o = offer(m.as_ref()?, &id)?;
            let layout = o.layout().ok()?;
            largest_fitting(&o.model, &layout, &GenOptions::default())
        })
    })
    .into()
}

/// Returns the sample scale typed in `text`, clamped to the model's limits, and whether it was
/// clamped; `None` for an empty or unreadable field (the model's own sample).
pub fn read_scale(text: &str) -> Option<(u64, bool)> {
    let t = text.trim().replace([',', '_', ' '], "");
    if t.is_empty() {
        return None;
    }
    let n: f64 = t.parse().ok()?;
    if !n.is_finite() {
        return None;
    }
    let clamped = n.round().clamp(1.0, Sample::MAX_MAX_DOCUMENTS as f64);
    Some((clamped as u64, clamped != n))
}

/// The limit a typed sample scale was clamped to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Limit {
    /// The largest sample the evaluation's memory budget holds for the chosen design.
    Budget,
    /// The model format's range of `sample.max_documents`.
    Format,
}

impl Limit {
    /// Its name for `data-limit`.
    fn name(self) -> &'static str {
        match self {
            Limit::Budget => "budget",
            Limit::Format => "format",
        }
    }
}

/// Documents materialized per entity: the model's default, or what the user chose, at most
/// what fits the memory budget (a larger figure is clamped to it, and the page says so).
#[component]
pub fn ScaleControl(
    /// The model's own sample size (`sample.max_documents`, else the default).
    model_default: Signal<u64>,
    /// The chosen scale (`None`: the model's).
    scale: RwSignal<Option<u64>>,
    /// The largest sample the chosen design's evaluation fits in its memory budget.
    fits: Signal<Option<u64>>,
) -> impl IntoView {
    // What a typed scale was clamped to, and the limit it passed (the memory budget's or the
    // model format's).
    let (clamped, set_clamped) = signal(None::<(u64, Limit)>);
    let on_change = move |ev: leptos::ev::Event| match read_scale(&event_target_value(&ev)) {
        Some((n, was_clamped)) => {
            let (n, limit) = match fits.get_untracked() {
                Some(budget) if n > budget => (budget, Some(Limit::Budget)),
                _ => (n, was_clamped.then_some(Limit::Format)),
            };
            set_clamped.set(limit.map(|l| (n, l)));
            scale.set((n != model_default.get_untracked()).then_some(n));
        }
        None => {
            set_clamped.set(None);
            scale.set(None);
        }
    };
    view! {
        <div class="scale-control">
            <label>
                <span>{tr!(SampleLabel)}</span>
                <input
                    type="number"
                    class="scale-input"
                    min="1"
                    max=move || fits.get().unwrap_or(Sample::MAX_MAX_DOCUMENTS).to_string()
                    title=move || fits.get().map(|n| tv(Msg::SampleFitsTitle, &[("count", human::thousands(n))]))
                    step="1"
                    aria-label=tr!(SampleInput)
                    prop:value=move || scale.get().unwrap_or_else(|| model_default.get()).to_string()
                    on:change=on_change
                />
                <span class="muted">{tr!(DocsPerEntity)}</span>
            </label>
            {move || match scale.get() {
                Some(_) => view! {
                    <button type="button" class="link-button" on:click=move |_| { set_clamped.set(None); scale.set(None); }>
                        {move || tv(Msg::ModelDefaultButton, &[("count", human::thousands(model_default.get()))])}
                    </button>
                }.into_any(),
                None => view! { <span class="muted">{tr!(ModelDefault)}</span> }.into_any(),
            }}
            {move || clamped.get().map(|(n, limit)| view! {
                <span class="notice scale-clamped" role="status" data-limit=limit.name()>
                    {match limit {
                        Limit::Budget => tv(Msg::ClampedBudget, &[("count", human::thousands(n))]),
                        Limit::Format => tv(Msg::ClampedFormat, &[("count", human::thousands(n)), ("max", human::thousands(Sample::MAX_MAX_DOCUMENTS))]),
                    }}
                </span>
            })}
        </div>
    }
}

/// What the evaluation is doing: the chosen design's state, the background designs, and a
/// notice when evaluations run on the page instead of a worker.
#[component]
pub fn EvalStatus(
    /// The pipeline.
    pipeline: Pipeline,
    /// Every wanted evaluation, the chosen design first.
    wanted: Memo<Vec<Key>>,
) -> impl IntoView {
    let state = move || {
        let keys = wanted.get();
        pipeline.cache.with(|c| {
            let current = keys.first().and_then(|k| c.get(k).cloned());
            let done = keys.iter().filter(|k| c.contains_key(*k)).count();
            (current, done, keys.len())
        })
    };
    view! {
        <div class="eval-status" aria-live="polite">
            {move || {
                let (current, done, all) = state();
                let design = wanted.with(|w| w.first().map(|k| k.design.clone()).unwrap_or_default());
                let background = (done < all && current.is_some()).then(|| {
                    format!(" {}", tv(Msg::OtherDesigns, &[("done", done.to_string()), ("all", all.to_string())]))
                });
                match current {
                    None => {
                        // The worker's last step for this design; none yet, or on the page:
                        // an indeterminate bar.
                        let step = pipeline.progress.with(|p| {
                            p.as_ref()
                                .filter(|(k, ..)| wanted.with(|w| w.first() == Some(k)))
                                .map(|(_, step, of, what)| (*step, *of, what.clone()))
                        });
                        let text = match &step {
                            Some((step, of, what)) => tv(Msg::EvaluatingStep, &[
                                ("design", design.clone()),
                                ("what", what.clone()),
                                ("step", step.to_string()),
                                ("of", of.to_string()),
                            ]),
                            None => tv(Msg::EvaluatingDesign, &[("design", design.clone())]),
                        };
                        let bar = match step {
                            Some((step, of, _)) => view! {
                                <progress class="eval-progress" max=of value=step aria-label=t(Msg::EvaluationProgress)></progress>
                            }.into_any(),
                            None => view! {
                                <progress class="eval-progress" aria-label=t(Msg::EvaluationProgress)></progress>
                            }.into_any(),
                        };
                        view! {
                            <span class="eval-state" data-state="running">{bar}{text}</span>
                        }.into_any()
                    }
                    Some(Outcome::Done(s, ms)) => view! {
                        <span class="eval-state" data-state="done" data-ms=ms.to_string()>
                            {tv(Msg::RanOnEngine, &[("ms", ms.round().to_string()), ("count", human::thousands(s.max_documents))])}
                            {background}
                        </span>
                    }.into_any(),
                    Some(Outcome::Failed(why)) => view! {
                        <span class="eval-state" data-state="failed">
                            {tv(Msg::NotEvaluated, &[("why", why.trim_end_matches('.').to_string())])}{background}
                        </span>
                    }.into_any(),
                }
            }}
            {move || pipeline.inline_reason.get().map(|why| view! {
                <p class="notice inline-notice" role="status">
                    {tv(Msg::EvaluatingInline, &[("why", why)])}
                </p>
            })}
        </div>
    }
}
