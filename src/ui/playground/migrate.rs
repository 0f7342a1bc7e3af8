//! The Migrate panel: the plan that takes the data from one offered design to another, as
//! `squillion migrate --from D1 --to D2 --json` makes it: the relationships that change, the
//! dual writes, each step with its phase, its cost at full scale and its mongosh command, the
//! total, and what the engine's check found; "Download migrate.js" and "Download plan.json"
//! are the CLI's files (docs/migrate.md).
//!
//! The plan is made off the main thread (`ui::migrate`): each question starts a worker of its
//! own (`public/worker.js`, `kind: 'migrate'`, the page's compiled module handed over), which
//! goes when it answers or when another question replaces it. Its words come in the page's
//! language, already written: the page renders strings.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use gloo_events::EventListener;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::lang::Msg;
use crate::migrate::report::Summary;
use crate::ui::doc_link::WithDocLinks;
use crate::ui::files;
use crate::ui::i18n::{lang, t, tr, tv};
use crate::ui::worker::WorkerRun;

/// A plan the worker made, with the files the panel offers.
#[derive(Debug, PartialEq)]
struct Planned {
    /// What the panel shows.
    summary: Summary,
    /// plan.json: what `squillion migrate --json` prints.
    json: String,
    /// migrate.js: the whole plan as one mongosh script.
    script: String,
}

/// Where the panel's question stands.
#[derive(Debug, Clone, PartialEq)]
enum Run {
    /// The two designs are the same: nothing to plan.
    Same,
    /// The worker is loading the tools module and planning.
    Planning,
    /// The plan.
    Planned(Arc<Planned>),
    /// No plan is made, and why (the planner's refusal, or an error).
    Refused(String),
}

/// The Migrate panel (shown while `open`): two design pickers and the plan between them,
/// planned again whenever a design, the model or the language changes.
#[component]
pub fn MigratePanel(
    /// The text of the model shown (`None` while it cannot be read).
    text: Signal<Option<Arc<str>>>,
    /// The offered designs, `(id, label)`, as the design bar shows them.
    offers: Signal<Vec<(String, String)>>,
    /// The source design's id.
    from: RwSignal<String>,
    /// The target design's id.
    to: RwSignal<String>,
    /// True while the panel is shown; its Close sets it false.
    open: RwSignal<bool>,
    /// The model's name (for the files' names).
    model_name: Signal<String>,
) -> impl IntoView {
    let run = RwSignal::new(Run::Same);
    let asking: StoredValue<Rc<RefCell<WorkerRun>>, LocalStorage> =
        StoredValue::new_local(Rc::default());
    Effect::new(move |_| {
        let (Some(model), from, to, lang) = (text.get(), from.get(), to.get(), lang().code())
        else {
            return;
        };
        let holder = asking.get_value();
        holder.borrow_mut().stop();
        if from == to {
            run.set(Run::Same);
            return;
        }
        run.set(Run::Planning);
        if let Err(e) = ask(&holder, &model, &from, &to, lang, run) {
            run.set(Run::Refused(tv(
                Msg::MigrateFailed,
                &[("error", format!("{e:?}"))],
            )));
        }
    });
    on_cleanup(move || {
        if let Some(a) = asking.try_get_value() {
            a.borrow_mut().stop();
        }
    });
    let picker = move |id: &'static str, label: Msg, chosen: RwSignal<String>| {
        let options = move || {
            offers
                .get()
                .into_iter()
                .map(|(value, label)| {
                    let selected = chosen.get_untracked() == value;
                    view! { <option value=value selected=selected>{label}</option> }
                })
                .collect_view()
        };
        view! {
            <label class="migrate-pick">
                <span>{move || t(label)}</span>
                <select id=id prop:value=move || chosen.get()
                    on:change=move |ev| chosen.set(event_target_value(&ev))>{options}</select>
            </label>
        }
    };
    let file = move |ext: &str| {
        format!(
            "{}-{}-to-{}.{ext}",
            files::safe_file_name(&model_name.get_untracked()),
            files::safe_file_name(&from.get_untracked()),
            files::safe_file_name(&to.get_untracked())
        )
    };
    let download = move |script: bool| {
        if let Run::Planned(p) = run.get_untracked() {
            let (text, kind, ext) = if script {
                (&p.script, "text/javascript", "js")
            } else {
                (&p.json, "application/json", "json")
            };
            let blob = gloo_file::Blob::new_with_options(text.as_str(), Some(kind));
            let _ = files::offer(&file(ext), blob);
        }
    };
    let planned = move || matches!(run.get(), Run::Planned(_));
    view! {
        <section class="card migrate" id="migrate" aria-labelledby="migrate-title"
            data-state=move || match run.get() {
                Run::Same => "same",
                Run::Planning => "planning",
                Run::Planned(p) if p.summary.passed => "planned",
                Run::Planned(_) => "differs",
                Run::Refused(_) => "refused",
            }
            aria-busy=move || matches!(run.get(), Run::Planning).then_some("true")>
            <div class="card-head migrate-head">
                <h2 id="migrate-title">{tr!(MigrateHeading)}</h2>
                <button type="button" class="button migrate-close" on:click=move |_| open.set(false)
                    aria-label=tr!(MigrateCloseLabel)>{tr!(MigrateClose)}</button>
            </div>
            <p class="card-note"><WithDocLinks text=Signal::derive(tr!(MigrateNote))/></p>
            <div class="migrate-picks">
                {picker("migrate-from", Msg::MigrateFrom, from)}
                <span aria-hidden="true">"→"</span>
                {picker("migrate-to", Msg::MigrateTo, to)}
                <button type="button" class="button migrate-script" on:click=move |_| download(true)
                    disabled=move || !planned() title=tr!(MigrateDownloadScriptTitle)>
                    {tr!(MigrateDownloadScript)}
                </button>
                <button type="button" class="button migrate-plan" on:click=move |_| download(false)
                    disabled=move || !planned() title=tr!(MigrateDownloadPlanTitle)>
                    {tr!(MigrateDownloadPlan)}
                </button>
            </div>
            <div class="migrate-status" role="status" aria-live="polite">
                {move || match run.get() {
                    Run::Same => Some(t(Msg::MigrateSame)),
                    Run::Planning => Some(t(Msg::MigratePlanning)),
                    Run::Refused(why) => Some(why),
                    Run::Planned(_) => None,
                }}
            </div>
            {move || match run.get() {
                Run::Planned(p) => Some(plan_view(&p.summary)),
                _ => None,
            }}
        </section>
    }
}

/// The plan: its heading and changes, the dual writes, the steps, the total and the check.
fn plan_view(s: &Summary) -> impl IntoView {
    let lines = |items: &[String]| {
        items
            .iter()
            .map(|l| view! { <li>{l.clone()}</li> })
            .collect_view()
    };
    let steps = s
        .steps
        .iter()
        .map(|st| {
            let cost = (!st.cost.is_empty())
                .then(|| view! { <p class="migrate-cost">{st.cost.clone()}</p> });
            view! {
                <li class="migrate-step" data-phase=st.phase.clone() data-number=st.number>
                    <p class="migrate-step-head">
                        <span class="migrate-phase">{st.phase_name.clone()}</span>
                        " "{st.title.clone()}
                    </p>
                    {cost}
                    <pre class="migrate-command"><code>{st.command.clone()}</code></pre>
                </li>
            }
        })
        .collect_view();
    let dual = (!s.dual_writes.is_empty()).then(|| {
        view! {
            <h4>{tr!(MigrateDualWrites)}</h4>
            <ul class="migrate-dual">{lines(&s.dual_writes)}</ul>
        }
    });
    view! {
        <div class="migrate-plan-view">
            <h3 class="migrate-plan-title">{s.title.clone()}</h3>
            <ul class="migrate-changes">{lines(&s.changes)}</ul>
            {dual}
            <h4>{s.steps_heading.clone()}</h4>
            <ol class="migrate-steps">{steps}</ol>
            <p class="migrate-total">{s.total.clone()}</p>
            <p class="migrate-check" data-passed=s.passed.to_string()>{s.check.clone()}</p>
            <ul class="migrate-problems">{lines(&s.problems)}</ul>
        </div>
    }
}

/// Asks a new worker, kept in `holder` until it answers, for the plan from `from` to
/// `to` of `model`, its words in `lang`; its answer settles `run`.
fn ask(
    holder: &Rc<RefCell<WorkerRun>>,
    model: &str,
    from: &str,
    to: &str,
    lang: &str,
    run: RwSignal<Run>,
) -> Result<(), JsValue> {
    let worker = crate::ui::worker::spawn()?;
    let on_message = {
        let holder = Rc::downgrade(holder);
        let this = worker.clone();
        EventListener::new(&worker, "message", move |ev| {
            let Some(ev) = ev.dyn_ref::<web_sys::MessageEvent>() else {
                return;
            };
            let data = ev.data();
            let field = |name: &str| {
                js_sys::Reflect::get(&data, &name.into())
                    .ok()
                    .and_then(|v| v.as_string())
            };
            let answer = if let Some(summary) = field("summary") {
                match serde_json::from_str::<Summary>(&summary) {
                    Ok(summary) => Run::Planned(Arc::new(Planned {
                        summary,
                        json: field("json").unwrap_or_default(),
                        script: field("script").unwrap_or_default(),
                    })),
                    Err(e) => Run::Refused(tv(Msg::MigrateFailed, &[("error", e.to_string())])),
                }
            } else if let Some(why) = field("refused") {
                Run::Refused(tv(Msg::MigrateRefused, &[("why", why)]))
            } else {
                let e = field("error")
                    .or_else(|| field("fatal"))
                    .unwrap_or_default();
                Run::Refused(tv(Msg::MigrateFailed, &[("error", e)]))
            };
            let _ = run.try_set(answer);
            // The worker has answered: it goes (after this handler, which it owns), unless a
            // newer question has replaced it meanwhile.
            if let Some(h) = holder.upgrade() {
                let this = this.clone();
                request_animation_frame(move || {
                    if let Ok(mut a) = h.try_borrow_mut() {
                        if a.worker.as_ref() == Some(&this) {
                            a.stop();
                        }
                    }
                });
            }
        })
    };
    let on_error = EventListener::new(&worker, "error", move |ev| {
        ev.prevent_default();
        let _ = run.try_set(Run::Refused(tv(
            Msg::MigrateFailed,
            &[("error", t(Msg::MigrateWorkerFailed))],
        )));
    });
    let message = crate::ui::worker::message(&[
        ("id", JsValue::from(1)),
        ("kind", JsValue::from_str("migrate")),
        ("model", JsValue::from_str(model)),
        ("design", JsValue::from_str(from)),
        ("to", JsValue::from_str(to)),
        ("options", JsValue::from_str(lang)),
    ]);
    worker.post_message(&message)?;
    *holder.borrow_mut() = WorkerRun {
        worker: Some(worker),
        listeners: vec![on_message, on_error],
    };
    Ok(())
}
