//! The design bar's sample-scale control and the evaluation's progress.

use leptos::prelude::*;

use super::pipeline::{Key, Outcome, Pipeline};
use crate::human;
use crate::model::Sample;

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

/// Documents materialized per entity: the model's default, or what the user chose.
#[component]
pub fn ScaleControl(
    /// The model's own sample size (`sample.max_documents`, else the default).
    model_default: Signal<u64>,
    /// The chosen scale (`None`: the model's).
    scale: RwSignal<Option<u64>>,
) -> impl IntoView {
    let (clamped, set_clamped) = signal(None::<u64>);
    let on_change = move |ev: leptos::ev::Event| match read_scale(&event_target_value(&ev)) {
        Some((n, was_clamped)) => {
            set_clamped.set(was_clamped.then_some(n));
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
                <span>"Sample"</span>
                <input
                    type="number"
                    class="scale-input"
                    min="1"
                    max=Sample::MAX_MAX_DOCUMENTS.to_string()
                    step="1"
                    aria-label="Documents materialized per entity"
                    prop:value=move || scale.get().unwrap_or_else(|| model_default.get()).to_string()
                    on:change=on_change
                />
                <span class="muted">"docs / entity"</span>
            </label>
            {move || match scale.get() {
                Some(_) => view! {
                    <button type="button" class="link-button" on:click=move |_| { set_clamped.set(None); scale.set(None); }>
                        {move || format!("model default: {}", human::thousands(model_default.get()))}
                    </button>
                }.into_any(),
                None => view! { <span class="muted">"(the model's default)"</span> }.into_any(),
            }}
            {move || clamped.get().map(|n| view! {
                <span class="notice scale-clamped" role="status">
                    {format!("Clamped to {} (a sample is 1 to {} documents per entity).", human::thousands(n), human::thousands(Sample::MAX_MAX_DOCUMENTS))}
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
                    format!(" · other designs: {done} of {all} evaluated…")
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
                            Some((step, of, what)) => format!("Evaluating {design}: {what} ({step} of {of})…"),
                            None => format!("Evaluating {design} on the engine…"),
                        };
                        let bar = match step {
                            Some((step, of, _)) => view! {
                                <progress class="eval-progress" max=of value=step aria-label="Evaluation progress"></progress>
                            }.into_any(),
                            None => view! {
                                <progress class="eval-progress" aria-label="Evaluation progress"></progress>
                            }.into_any(),
                        };
                        view! {
                            <span class="eval-state" data-state="running">{bar}{text}</span>
                        }.into_any()
                    }
                    Some(Outcome::Done(s, ms)) => view! {
                        <span class="eval-state" data-state="done" data-ms=ms.to_string()>
                            {format!("Ran on the engine in {} ms · sample ≤ {} docs / entity", ms.round(), human::thousands(s.max_documents))}
                            {background}
                        </span>
                    }.into_any(),
                    Some(Outcome::Failed(_)) => view! {
                        <span class="eval-state" data-state="failed">"The evaluation failed"{background}</span>
                    }.into_any(),
                }
            }}
            {move || pipeline.inline_reason.get().map(|why| view! {
                <p class="notice inline-notice" role="status">
                    {format!("Evaluating on the page: {why}. The page may pause while a design runs.")}
                </p>
            })}
        </div>
    }
}
