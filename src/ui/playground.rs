//! The playground: a model as JSON, a design bar, and what the chosen design costs.

mod collections;
mod compare;
mod evaluated;
mod growth;
mod operations;
mod pipeline;
mod scale;
mod warnings;

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::{clipboard, storage};
use crate::analysis::{analyze, Analysis};
use crate::design::{DesignName, DesignSpec};
use crate::model::{parse_model, Model, ModelError};
use crate::presets;
use crate::share;

pub use collections::CollectionCards;
pub use compare::CompareTable;
pub use growth::GrowthChart;
pub use operations::OperationList;
pub use warnings::WarningList;

use evaluated::{EvalOperations, EvalWarnings};
use pipeline::{design_names, Key, Outcome, Pipeline};
use scale::{EvalStatus, ScaleControl};

/// The model the playground opens with.
const STARTER_MODEL: &str = include_str!("../../presets/social-feed.json");

/// Returns the designs the design bar offers for `model`, each with its label and the model
/// laid out under it: a preset's own designs, or else the three named designs and the model's
/// own design ("Custom").
pub fn offered(model: &Model) -> Vec<(String, Model)> {
    if model.preset.is_some() {
        return model
            .offered_designs()
            .into_iter()
            .map(|(name, m)| (label(&name), m))
            .collect();
    }
    let mut out: Vec<(String, Model)> = [
        DesignName::Normalized,
        DesignName::Denormalized,
        DesignName::Bucketed,
    ]
    .into_iter()
    .map(|name| {
        let mut m = model.clone();
        m.design = DesignSpec {
            base: name,
            ..DesignSpec::default()
        };
        (label(name.as_str()), m)
    })
    .collect();
    out.push(("Custom".to_string(), model.clone()));
    out
}

/// Returns a design name as a label: `fan-out_on_write` → `Fan-out on write`.
fn label(name: &str) -> String {
    let spaced = name.replace('_', " ");
    let mut chars = spaced.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => spaced,
    }
}

/// Returns the analysis of every offered design, with its label.
pub fn evaluate_all(model: &Model) -> Vec<(String, Result<Analysis, String>)> {
    offered(model)
        .into_iter()
        .map(|(label, m)| (label, analyze(&m).map_err(|e| e.to_string())))
        .collect()
}

/// Returns the model in `text`, or every problem with where it is.
fn read_model(text: &str) -> Result<Model, Vec<ModelError>> {
    parse_model(text).map_err(|e| e.errors)
}

/// The playground view. A bad edit lists its problems and keeps the last good model.
#[component]
pub fn Playground() -> impl IntoView {
    // The last work, even an invalid edit, comes back on reload; a shared link opens its model
    // but keeps the work it replaces one click away.
    let saved = storage::load(storage::MODEL_KEY);
    let (link_notice, set_link_notice) = signal(None::<LinkNotice>);
    let start = match link_payload().map(|p| share::decode(&p)) {
        Some(Ok(shared)) => {
            if let Some(previous) = saved.as_ref().filter(|p| **p != shared) {
                storage::save(storage::MODEL_BEFORE_LINK_KEY, previous);
                set_link_notice.set(Some(LinkNotice::Opened { can_restore: true }));
            } else {
                set_link_notice.set(Some(LinkNotice::Opened { can_restore: false }));
            }
            storage::save(storage::MODEL_KEY, &shared);
            shared
        }
        Some(Err(e)) => {
            set_link_notice.set(Some(LinkNotice::Refused(e.to_string())));
            saved.unwrap_or_else(|| STARTER_MODEL.to_string())
        }
        None => saved.unwrap_or_else(|| STARTER_MODEL.to_string()),
    };
    let (first_model, first_errors, first_good) = match read_model(&start) {
        Ok(m) => (Some(m), Vec::new(), start.clone()),
        Err(e) => (read_model(STARTER_MODEL).ok(), e, STARTER_MODEL.to_string()),
    };
    // The text of the model shown (the last valid one): what the engine evaluates.
    let (good_text, set_good_text) = signal(std::sync::Arc::<str>::from(first_good));
    let (errors, set_errors) = signal(first_errors);
    let (model, set_model) = signal(first_model);
    let (text, set_text) = signal(start);
    let (choice, set_choice) = signal(0usize);

    let load_text = move |new_text: String| {
        match read_model(&new_text) {
            Ok(m) => {
                set_model.set(Some(m));
                set_errors.set(Vec::new());
                set_good_text.set(std::sync::Arc::from(new_text.as_str()));
            }
            Err(e) => set_errors.set(e),
        }
        storage::save(storage::MODEL_KEY, &new_text);
        set_text.set(new_text);
    };
    let on_input = move |ev: leptos::ev::Event| load_text(event_target_value(&ev));
    let on_preset = move |ev: leptos::ev::Event| {
        let name = event_target_value(&ev);
        if let Some(p) = presets::get(&name) {
            // The work a preset replaces stays one click away.
            storage::save(storage::MODEL_BEFORE_LINK_KEY, &text.get_untracked());
            load_text(p.text.to_string());
            set_choice.set(0);
            set_link_notice.set(Some(LinkNotice::Preset {
                title: p.title.clone(),
            }));
        }
    };
    let restore = move |_| {
        if let Some(previous) = storage::load(storage::MODEL_BEFORE_LINK_KEY) {
            load_text(previous);
        }
        set_link_notice.set(None);
    };
    let (share_url, set_share_url) = signal(None::<String>);
    let on_share = move |_| {
        let url = share_link(&text.get_untracked());
        clipboard::copy(&url);
        set_share_url.set(Some(url));
    };

    // Every offered design is analysed once per model; switching designs only picks one.
    let comparison = Memo::new(move |_| model.with(|m| m.as_ref().map(evaluate_all)));
    let labels = Memo::new(move |_| {
        comparison.with(|c| {
            c.as_ref()
                .map(|rows| rows.iter().map(|r| r.0.clone()).collect::<Vec<_>>())
                .unwrap_or_default()
        })
    });
    let result = Memo::new(move |_| {
        comparison.with(|c| {
            c.as_ref().map(|rows| {
                rows.get(choice.get())
                    .or_else(|| rows.first())
                    .map(|r| r.1.clone())
                    .unwrap_or_else(|| Err("the model offers no design".to_string()))
            })
        })
    });

    // The engine's evaluation of every offered design, off the main thread: the chosen one
    // first, the others in the background, cached per (model text, design, sample scale).
    let scale = RwSignal::new(None::<u64>);
    let names =
        Memo::new(move |_| model.with(|m| m.as_ref().map(design_names).unwrap_or_default()));
    let wanted = Memo::new(move |_| {
        let text = good_text.get();
        let scale = scale.get();
        let names = names.get();
        let chosen = choice.get().min(names.len().saturating_sub(1));
        let key = |design: &String| Key {
            text: text.clone(),
            design: design.clone(),
            scale,
        };
        let mut keys: Vec<Key> = names.get(chosen).map(key).into_iter().collect();
        keys.extend(
            names
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != chosen)
                .map(|(_, n)| key(n)),
        );
        keys
    });
    let pipeline = Pipeline::start(wanted);
    let outcome = Memo::new(move |_| {
        let key = wanted.with(|w| w.first().cloned());
        key.and_then(|k| pipeline.cache.with(|c| c.get(&k).cloned()))
    });
    let model_default = Signal::derive(move || {
        model.with(|m| {
            m.as_ref()
                .and_then(|m| m.sample.max_documents)
                .unwrap_or(crate::model::Sample::DEFAULT_MAX_DOCUMENTS)
        })
    });

    // Keys 1–9 switch designs, unless the user is typing.
    let keys = wasm_bindgen::closure::Closure::<dyn Fn(web_sys::KeyboardEvent)>::new(
        move |ev: web_sys::KeyboardEvent| {
            if ev.ctrl_key() || ev.meta_key() || ev.alt_key() || super::typing_in_a_field() {
                return;
            }
            let Some(digit) = ev.key().chars().next().and_then(|c| c.to_digit(10)) else {
                return;
            };
            if ev.key().len() == 1 && digit >= 1 && (digit as usize) <= labels.get_untracked().len()
            {
                set_choice.set(digit as usize - 1);
            }
        },
    );
    if let Some(w) = web_sys::window() {
        let _ = w.add_event_listener_with_callback("keydown", keys.as_ref().unchecked_ref());
    }
    // The listener lives as long as the page.
    keys.forget();

    view! {
        <section class="playground">
            <div class="card model-card">
                <div class="card-head">
                    <h2>"Model"</h2>
                    <button type="button" class="button" on:click=on_share>"Share link"</button>
                </div>
                {move || link_notice.get().map(|n| match n {
                    LinkNotice::Opened { can_restore } => view! {
                        <p class="notice" role="status">
                            "Opened the model from the link. "
                            {can_restore.then(|| view! {
                                <button type="button" class="link-button" on:click=restore>"Restore your previous model"</button>
                            })}
                        </p>
                    }.into_any(),
                    LinkNotice::Preset { title } => view! {
                        <p class="notice" role="status">
                            {format!("Opened the preset “{title}”. ")}
                            <button type="button" class="link-button" on:click=restore>"Back to your previous model"</button>
                        </p>
                    }.into_any(),
                    LinkNotice::Refused(why) => view! {
                        <p class="error" role="alert">{format!("This link could not be opened: {why}. Your model is unchanged.")}</p>
                    }.into_any(),
                })}
                {move || share_url.get().map(|url| view! {
                    <label class="share-url">
                        <span>"Link copied. Anyone who opens it gets this model; the data stays in their browser."</span>
                        <input type="text" readonly prop:value=url aria-label="Share link"/>
                    </label>
                })}
                <label class="preset-picker">
                    <span>"Preset"</span>
                    <select on:change=on_preset aria-label="Open a preset">
                        <option value="" selected>"Open a scenario from the articles…"</option>
                        {presets::all()
                            .iter()
                            .map(|p| view! { <option value=p.name>{format!("{} — {}", p.title, p.lesson)}</option> })
                            .collect_view()}
                    </select>
                </label>
                {move || model.with(|m| m.as_ref().and_then(|m| m.preset.clone())).map(|p| view! {
                    <details class="lesson">
                        <summary><strong>{p.title}</strong>": "{p.lesson}</summary>
                        {p.explanation.split("\n\n").map(|para| view! { <p>{para.to_string()}</p> }).collect_view()}
                        <p class="muted">{p.scale_note}</p>
                    </details>
                })}
                <label class="visually-hidden" for="model-input">"Model as JSON"</label>
                <textarea
                    id="model-input"
                    class="doc-input model-input"
                    wrap="off"
                    spellcheck="false"
                    prop:value=move || text.get()
                    on:input=on_input
                    aria-invalid=move || (!errors.get().is_empty()).to_string()
                ></textarea>
                <ModelErrors errors=errors/>
            </div>
            <div class="results">
                <div class="design-row">
                    <DesignBar labels=labels choice=choice set_choice=set_choice/>
                    <div class="design-meta">
                        <EvalStatus pipeline=pipeline wanted=wanted/>
                        <ScaleControl model_default=model_default scale=scale/>
                    </div>
                </div>
                {move || match result.get() {
                    None => view! { <p class="empty">"Fix the model to see its numbers."</p> }.into_any(),
                    Some(Err(e)) => view! { <p class="error" role="alert">{e}</p> }.into_any(),
                    Some(Ok(a)) => {
                        let a = Signal::derive(move || match result.get() {
                            Some(Ok(a)) => a,
                            _ => a.clone(),
                        });
                        let evaluated = Signal::derive(move || match outcome.get() {
                            Some(Outcome::Done(s, _)) => Some(s),
                            _ => None,
                        });
                        view! {
                            <CollectionCards analysis=a evaluated=evaluated/>
                            <Evaluated outcome=outcome analysis=a/>
                        }
                        .into_any()
                    }
                }}
                {move || comparison.get().map(|rows| view! { <CompareTable rows=rows current=choice/> })}
            </div>
        </section>
    }
}

/// The engine's evaluation of the chosen design; while it runs, the instant arithmetic
/// workload and warnings stand in, marked as pending.
#[component]
fn Evaluated(
    /// The chosen design's evaluation, once done.
    outcome: Memo<Option<Outcome>>,
    /// The chosen design's arithmetic analysis.
    analysis: Signal<Analysis>,
) -> impl IntoView {
    move || {
        match outcome.get() {
        Some(Outcome::Done(s, _)) => view! {
            <EvalOperations summary=s.clone()/>
            <EvalWarnings warnings=s.warnings.clone()/>
        }
        .into_any(),
        Some(Outcome::Failed(e)) => view! {
            <p class="error eval-error" role="alert">{format!("This design could not be run on the engine: {e}")}</p>
            <OperationList analysis=analysis/>
            <WarningList analysis=analysis/>
        }
        .into_any(),
        None => view! {
            <div class="pending" aria-busy="true">
                <OperationList analysis=analysis/>
                <WarningList analysis=analysis/>
            </div>
        }
        .into_any(),
    }
    }
}

/// What happened to the link the page was opened with.
#[derive(Debug, Clone, PartialEq)]
enum LinkNotice {
    /// Its model was loaded; the model it replaced can be restored.
    Opened {
        /// True when there was different work before.
        can_restore: bool,
    },
    /// It could not be read; nothing changed.
    Refused(String),
    /// A preset replaced the model; the previous one can be restored.
    Preset {
        /// The preset's title.
        title: String,
    },
}

/// Returns the `model=` payload of the page's URL fragment, if any.
fn link_payload() -> Option<String> {
    let hash = web_sys::window()?.location().hash().ok()?;
    hash.split('&')
        .find_map(|part| part.strip_prefix("model="))
        .map(str::to_string)
}

/// Returns a link to this page that opens the playground with `model_text`.
fn share_link(model_text: &str) -> String {
    let base = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .map(|href| href.split('#').next().unwrap_or_default().to_string())
        .unwrap_or_default();
    format!("{base}#playground&model={}", share::encode(model_text))
}

/// The list of problems in the model, each at its JSON path (and line and column for syntax).
#[component]
fn ModelErrors(
    /// The problems; empty when the model is valid.
    errors: ReadSignal<Vec<ModelError>>,
) -> impl IntoView {
    view! {
        <div class="doc-status" aria-live="polite">
            {move || {
                let errors = errors.get();
                if errors.is_empty() {
                    view! { <p class="hint">"Valid model. The number keys switch designs."</p> }.into_any()
                } else {
                    view! {
                        <div class="error" role="alert">
                            <strong>{format!("{} problem(s); showing the last valid model", errors.len())}</strong>
                            <ul class="model-errors">
                                {errors
                                    .into_iter()
                                    .map(|e| {
                                        let place = match (e.line, e.column) {
                                            (Some(l), Some(c)) => format!("line {l}, column {c}"),
                                            _ => e.path.clone(),
                                        };
                                        view! { <li><code>{place}</code>": "{e.message}</li> }
                                    })
                                    .collect_view()}
                            </ul>
                        </div>
                    }
                    .into_any()
                }
            }}
        </div>
    }
}

/// The design bar: one button per offered design, keys 1–9.
#[component]
fn DesignBar(
    /// The offered designs' labels, in order.
    labels: Memo<Vec<String>>,
    /// The index of the current design.
    choice: ReadSignal<usize>,
    /// Changes the design.
    set_choice: WriteSignal<usize>,
) -> impl IntoView {
    view! {
        <div class="design-bar" role="group" aria-label="Design">
            {move || {
                labels
                    .get()
                    .into_iter()
                    .enumerate()
                    .map(|(i, label)| {
                        view! {
                            <button
                                type="button"
                                class="design-button"
                                aria-pressed=move || (choice.get() == i).to_string()
                                on:click=move |_| set_choice.set(i)
                            >
                                <kbd>{i + 1}</kbd>
                                {label}
                            </button>
                        }
                    })
                    .collect_view()
            }}
        </div>
    }
}
