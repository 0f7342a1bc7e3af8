//! The playground: a model as JSON, a design bar, and what the chosen design costs.

mod advise;
mod collections;
mod compare;
mod design_charts;
mod evaluated;
mod export;
mod growth;
mod migrate;
mod operations;
mod pipeline;
mod remembered;
mod results_switch;
mod sample;
mod scale;
mod strategies;
mod warnings;

use leptos::prelude::*;

use super::editor::{ModelCard, Notice, Workspace};
use super::i18n::{self, tr, tv};
use super::storage;
use crate::analysis::{analyze_layout, Analysis};
use crate::eval::offer::{offers, Offer, CUSTOM};
use crate::history::{Change, History};
use crate::lang::Msg;
use crate::model::{parse_model, Model, ModelError};
use crate::share;

pub use collections::CollectionCards;
pub use compare::CompareTable;
pub use growth::GrowthChart;
pub use operations::OperationList;
pub use pipeline::EvalCache;
pub use warnings::WarningList;

use crate::ui::diagram_view::{DiagramTools, DiagramView};
use advise::AdvisePanel;
use design_charts::DesignCharts;
use evaluated::{EvalOperations, EvalWarnings};
use export::ExportButton;
use migrate::MigratePanel;
use pipeline::{Key, Outcome, Pipeline};
use results_switch::{ResultsSwitch, ResultsView};
use scale::{EvalStatus, ScaleControl};
use strategies::StrategyPicker;

/// The model the playground opens with.
pub(crate) const STARTER_MODEL: &str = include_str!("../../presets/social-feed.json");

/// One design the design bar offers, with its instant arithmetic analysis.
#[derive(Debug, Clone, PartialEq)]
pub struct Analyzed {
    /// The offer's id ([`crate::eval::Offer::id`]).
    pub id: String,
    /// As the design bar shows it.
    pub label: String,
    /// The analysis of the offer's layout, or why it cannot be laid out.
    pub analysis: Result<Analysis, String>,
}

/// Returns the analysis of every design [`offers`] lists for `model`, in the design bar's order.
pub fn evaluate_all(model: &Model) -> Vec<Analyzed> {
    offers(model).into_iter().map(analyze_offer).collect()
}

/// Returns the analysis of one offered design.
fn analyze_offer(o: Offer) -> Analyzed {
    Analyzed {
        analysis: o
            .layout()
            .map(|l| analyze_layout(&o.model, l))
            .map_err(|e| e.to_string()),
        id: o.id,
        label: o.label,
    }
}

/// Analyses `todo` one design a task, after `done`, then calls `then` with every analysis; stops
/// as soon as `live` says the work is no longer wanted. Each design's analysis (its
/// `stats::collection_stats`) takes a task of its own, so that none blocks the page long. When
/// the page cannot set a timeout, `instead` runs in place of the rest.
fn analyze_in_tasks(
    mut todo: std::vec::IntoIter<Offer>,
    mut done: Vec<Analyzed>,
    live: impl Fn() -> bool + Clone + 'static,
    instead: impl Fn() + Copy + 'static,
    then: impl FnOnce(Vec<Analyzed>) + 'static,
) {
    let step = {
        let live = live.clone();
        move || {
            if !live() {
                return;
            }
            match todo.next() {
                Some(o) => {
                    done.push(analyze_offer(o));
                    analyze_in_tasks(todo, done, live, instead, then);
                }
                None => then(done),
            }
        }
    };
    if set_timeout_with_handle(step, std::time::Duration::ZERO).is_err() && live() {
        instead();
    }
}

/// Returns the model in `text`, or every problem with where it is.
fn read_model(text: &str) -> Result<Model, Vec<ModelError>> {
    parse_model(text).map_err(|e| e.errors)
}

/// The playground view. A bad edit lists its problems and keeps the last good model.
#[component]
pub fn Playground() -> impl IntoView {
    // The last work, even an invalid edit, comes back on reload; a shared link opens its model
    // but keeps the work it replaces undoable and one click away.
    let (history, notice, linked_design) = start_history(storage::load(storage::MODEL_KEY));
    let ws = Workspace::new(history, notice);
    let text = ws.text;
    let start = text.get_untracked();
    let (first_model, first_errors, first_good) = match read_model(&start) {
        Ok(m) => (Some(m), Vec::new(), start.clone()),
        Err(e) => (read_model(STARTER_MODEL).ok(), e, STARTER_MODEL.to_string()),
    };
    // The text of the model shown (the last valid one): what the engine evaluates.
    let (good_text, set_good_text) = signal(std::sync::Arc::<str>::from(first_good));
    let (errors, set_errors) = signal(first_errors);
    let (model, set_model) = signal(first_model);
    // The chosen design, by its offer id (a link's, at first); empty: the model's first design.
    let (choice, set_choice) = signal(linked_design.unwrap_or_default());
    // Custom chosen from a preset's design starts as that design, shown but not written: the
    // model changes (an undo step, "edited") only with the user's first change.
    let custom_seed = RwSignal::new(None::<strategies::Seed>);
    // True from a change of the text until it is taken in: the results are then busy
    // (`aria-busy`), the old model's figures still on show.
    let taking = RwSignal::new(false);
    // Takes a text in, read: its model, or its problems (the last good model stays).
    let take_text = move |t: &str, read: Result<Model, Vec<ModelError>>| match read {
        Ok(m) => {
            taking.set(false);
            // Another model (a preset, an import) starts on its first design.
            let renamed = model.with_untracked(|old| {
                old.as_ref().map(|o| o.name.as_deref()) != Some(m.name.as_deref())
            });
            if renamed {
                set_choice.set(String::new());
                custom_seed.set(None);
            }
            set_model.set(Some(m));
            set_errors.set(Vec::new());
            set_good_text.set(std::sync::Arc::from(t));
        }
        Err(e) => {
            taking.set(false);
            set_errors.set(e);
        }
    };
    // Every offered design of the next model, analysed ahead of its taking in (see below); the
    // comparison takes them when they are of the model it shows.
    let ahead = StoredValue::new_local(None::<(Model, Vec<Analyzed>)>);
    read_each_change(text, model, ahead, taking, take_text);

    // The model as shown: Custom's seed as its design while the model's text is unchanged.
    let seeded = Memo::new(move |_| {
        custom_seed.with(|s| good_text.with(|t| s.as_ref().and_then(|s| s.applies(t))))
    });
    Effect::new(move |_| ws.before_edit.set(seeded.get()));
    let shown = shown_model(model, seeded);
    let comparison = comparison(shown, ahead);
    let bar = bar_offers(shown, comparison);
    let chosen = chosen_offer(choice, bar);
    // The console opens the sample of the design on show.
    if let Some(super::ShownDesign(shown_design)) = use_context::<super::ShownDesign>() {
        Effect::new(move |_| shown_design.set(chosen.get()));
    }
    let result = chosen_analysis(chosen, comparison);

    // The engine's evaluation of every offered design, off the main thread: the chosen one
    // first, the others in the background, cached per (model text, design, sample scale).
    let scale = RwSignal::new(None::<u64>);
    let seeded_text = Memo::new(move |_| {
        let seed = seeded.get()?;
        good_text.with(|t| strategies::seeded_text(t, &seed))
    });
    let wanted = wanted_keys(good_text, seeded_text, scale, chosen, bar);
    let pipeline = Pipeline::start(wanted);
    // Every offered design with its evaluation so far, for the charts.
    let chart_designs = design_charts::designs(bar, wanted, pipeline);
    let outcome = Memo::new(move |_| {
        let key = wanted.with(|w| w.first().cloned());
        key.and_then(|k| pipeline.cache.with(|c| c.get(&k).cloned()))
    });
    let chosen_key = Signal::derive(move || wanted.with(|w| w.first().cloned()));
    // The operations' names in the page's language come from the preset on show.
    provide_context(i18n::ShownModel(Signal::derive(move || {
        model.with(|m| m.as_ref().and_then(|m| m.name.clone()))
    })));
    let model_name = Signal::derive(move || {
        model.with(|m| {
            m.as_ref()
                .and_then(|m| m.name.clone())
                .unwrap_or_else(|| "model".to_string())
        })
    });
    let model_default = Signal::derive(move || model.with(|m| sample_default(m.as_ref())));

    let select = select_design(chosen, custom_seed, good_text, model, set_choice);
    let is_custom = Memo::new(move |_| chosen.get() == CUSTOM);
    // The Advise panel, shown above the results while open.
    let advise_open = RwSignal::new(false);
    let apply_design = apply_design(ws, custom_seed, set_choice);
    // The Migrate panel, shown above the results while open: from the design on show to
    // another (the first other offer, or the comparison's winner).
    let migrate_open = RwSignal::new(false);
    let migrate_from = RwSignal::new(String::new());
    let migrate_to = RwSignal::new(String::new());
    let migrate = Callback::new(move |to: Option<String>| {
        let from = chosen.get_untracked();
        let to = to.filter(|t| *t != from).or_else(|| {
            bar.with_untracked(|b| b.iter().map(|(i, _)| i.clone()).find(|i| *i != from))
        });
        migrate_from.set(from.clone());
        migrate_to.set(to.unwrap_or(from));
        migrate_open.set(true);
    });

    design_keys(bar, chosen, select);

    let lesson = workshop_lesson(model);

    // The collection cards or the diagram: the choice stays across designs and models, and so
    // does the diagram's worker (the tools module loaded once).
    let shows = Shows {
        view: RwSignal::new(ResultsView::Collections),
        tools: DiagramTools::new(true),
        question: Signal::derive(move || chosen_key.get().map(|k| (k.text, k.design))),
        caption: Signal::derive(move || {
            let id = chosen.get();
            let label = bar.with(|b| {
                b.iter()
                    .find(|(i, _)| *i == id)
                    .map(|(_, l)| l.clone())
                    .unwrap_or(id)
            });
            tv(Msg::DiagramCaption, &[("design", label)])
        }),
        labels: Signal::derive(move || bar.get()),
        model_name,
    };

    // The design row (and Custom's strategies) comes first in the page's order (a few Tab
    // presses from the top, before the editor's many fields), though it shows above the
    // results, right of the editor.
    view! {
        <section class="playground">
            {move || lesson.get().map(|(title, lesson)| view! {
                <div class="workshop-lesson" data-testid="workshop-lesson">
                    <h2>{title}</h2>
                    <p>{lesson}</p>
                </div>
            })}
            <div class="design-row" id="designs" tabindex="-1">
                <DesignBar offers=bar chosen=chosen select=select/>
                <div class="design-meta">
                    <EvalStatus pipeline=pipeline wanted=wanted/>
                    <ScaleControl model_default=model_default scale=scale fits=scale::fits(shown, chosen)/>
                    <ExportButton key=chosen_key model_name=model_name/>
                    // The two panels that answer "which design, and how to get there", side
                    // by side at the row's end (together on the next line when it wraps).
                    <span class="design-actions">
                        <button type="button" class="button advise-open" id="open-advise"
                            aria-expanded=move || advise_open.get().to_string() aria-controls="advise"
                            on:click=move |_| advise_open.update(|o| *o = !*o)
                            title=tr!(AdviseTitle)>
                            {tr!(AdviseButton)}
                        </button>
                        <button type="button" class="button migrate-open" id="open-migrate"
                            aria-expanded=move || migrate_open.get().to_string() aria-controls="migrate"
                            on:click=move |_| if migrate_open.get_untracked() { migrate_open.set(false) } else { migrate.run(None) }
                            title=tr!(MigrateTitle)>
                            {tr!(MigrateButton)}
                        </button>
                    </span>
                </div>
                // Custom's strategies follow the bar in the page's order: Tab from the Custom
                // button reaches them before the editor.
                {move || is_custom.get().then(|| view! { <StrategyPicker ws=ws model=shown/> })}
            </div>
            <ModelCard ws=ws model=model errors=errors design=chosen/>
            <div class="results" id="results" tabindex="-1" aria-busy=move || taking.get().then_some("true")>
                {move || advise_open.get().then(|| view! {
                    <AdvisePanel text=good_text apply=apply_design open=advise_open/>
                })}
                {move || migrate_open.get().then(|| view! {
                    <MigratePanel text=Signal::derive(move || chosen_key.get().map(|k| k.text))
                        offers=Signal::derive(move || bar.get()) from=migrate_from to=migrate_to
                        open=migrate_open model_name=model_name/>
                })}
                {chosen_result(result, outcome, shows)}
                <CompareTable designs=chart_designs current=chosen migrate=migrate/>
                <DesignCharts designs=chart_designs/>
            </div>
        </section>
    }
}

/// Returns what chooses a design by its id; moving to Custom from a preset's design starts
/// Custom as that design (unless it was already customized), written into the model only with
/// the user's first change.
fn select_design(
    chosen: Memo<String>,
    custom_seed: RwSignal<Option<strategies::Seed>>,
    good_text: ReadSignal<std::sync::Arc<str>>,
    model: ReadSignal<Option<Model>>,
    set_choice: WriteSignal<String>,
) -> Callback<String> {
    Callback::new(move |id: String| {
        let from = chosen.get_untracked();
        if id != CUSTOM {
            custom_seed.set(None);
        } else if from != id {
            let text = good_text.get_untracked();
            let seed = model
                .with_untracked(|m| m.as_ref().and_then(|m| strategies::seed(m, &text, &from)));
            custom_seed.set(seed);
        }
        set_choice.set(id);
    })
}

/// Returns what applies one of the Advise panel's designs: it becomes the model's own (one undo
/// step, nothing written when it already is) and Custom is shown, without a seed: Custom is
/// then exactly that design. The callback returns why it was refused, if it was.
fn apply_design(
    ws: Workspace,
    custom_seed: RwSignal<Option<strategies::Seed>>,
    set_choice: WriteSignal<String>,
) -> Callback<crate::design::DesignSpec, Option<String>> {
    Callback::new(move |design: crate::design::DesignSpec| {
        custom_seed.set(None);
        ws.before_edit.set(None);
        if ws.edit(|v| crate::model::edit::set_design(v, &design)) {
            set_choice.set(CUSTOM.to_string());
            None
        } else {
            ws.message
                .try_update(Option::take)
                .flatten()
                .map(|m| m.render(crate::ui::i18n::lang_untracked()))
        }
    })
}

/// Returns the model as shown: the model with Custom's seed, when there is one, as its design.
fn shown_model(
    model: ReadSignal<Option<Model>>,
    seeded: Memo<Option<crate::design::DesignSpec>>,
) -> Memo<Option<Model>> {
    Memo::new(move |_| {
        let seed = seeded.get();
        model.with(|m| {
            m.clone().map(|mut m| {
                if let Some(s) = seed {
                    m.design = s;
                }
                m
            })
        })
    })
}

/// Returns the analysis of every offered design of the model shown. Every offered design is
/// analysed once per model (ahead, for a model the text brought in); switching designs only
/// picks one. Analyses ahead of another model (before a Custom seed's) are not used.
fn comparison(
    shown: Memo<Option<Model>>,
    ahead: StoredValue<Option<(Model, Vec<Analyzed>)>, LocalStorage>,
) -> Memo<Option<Vec<Analyzed>>> {
    Memo::new(move |_| {
        shown.with(|m| {
            let m = m.as_ref()?;
            let ahead = ahead.try_update_value(|a| a.take_if(|(of, _)| of == m));
            Some(match ahead.flatten() {
                Some((_, done)) => done,
                None => evaluate_all(m),
            })
        })
    })
}

/// Returns the chosen offer's id: the choice when the model offers it, else its first design.
fn chosen_offer(choice: ReadSignal<String>, bar: Memo<Vec<(String, String)>>) -> Memo<String> {
    Memo::new(move |_| {
        let wanted = choice.get();
        bar.with(|b| {
            b.iter()
                .find(|(id, _)| *id == wanted)
                .or_else(|| b.first())
                .map(|(id, _)| id.clone())
                .unwrap_or_default()
        })
    })
}

/// Returns the chosen design's analysis (none while no model could be read).
fn chosen_analysis(
    chosen: Memo<String>,
    comparison: Memo<Option<Vec<Analyzed>>>,
) -> Memo<Option<Result<Analysis, String>>> {
    Memo::new(move |_| {
        let id = chosen.get();
        comparison.with(|c| {
            c.as_ref().map(|rows| {
                rows.iter()
                    .find(|r| r.id == id)
                    .map(|r| r.analysis.clone())
                    .unwrap_or_else(|| Err(i18n::t(Msg::NoDesignOffered)))
            })
        })
    })
}

/// Returns the documents the model's sample materializes per entity at its own scale.
fn sample_default(model: Option<&Model>) -> u64 {
    model
        .and_then(|m| m.sample.max_documents)
        .unwrap_or(crate::model::Sample::DEFAULT_MAX_DOCUMENTS)
}

/// Returns the offers as the design bar shows them: (id, label), in order. The labels are in the
/// page's language (the ids stay).
fn bar_offers(
    shown: Memo<Option<Model>>,
    comparison: Memo<Option<Vec<Analyzed>>>,
) -> Memo<Vec<(String, String)>> {
    Memo::new(move |_| {
        let name = shown.with(|m| m.as_ref().and_then(|m| m.name.clone()));
        let lang = i18n::lang();
        comparison.with(|c| {
            c.iter()
                .flatten()
                .map(|a| {
                    (
                        a.id.clone(),
                        i18n::design_label(name.as_deref(), &a.id, &a.label, lang),
                    )
                })
                .collect::<Vec<_>>()
        })
    })
}

/// Returns the evaluations the page wants, the chosen design's first, then every other offered
/// design's in the bar's order: each design's model text (Custom's seeded text while it has a
/// seed) at the sample scale chosen.
fn wanted_keys(
    good_text: ReadSignal<std::sync::Arc<str>>,
    seeded_text: Memo<Option<std::sync::Arc<str>>>,
    scale: RwSignal<Option<u64>>,
    chosen: Memo<String>,
    bar: Memo<Vec<(String, String)>>,
) -> Memo<Vec<Key>> {
    Memo::new(move |_| {
        let text = good_text.get();
        let custom_text = seeded_text.get();
        let scale = scale.get();
        let chosen = chosen.get();
        let key = |design: &str| Key {
            text: match &custom_text {
                Some(t) if design == CUSTOM => t.clone(),
                _ => text.clone(),
            },
            design: design.to_string(),
            scale,
        };
        let mut keys = vec![key(&chosen)];
        bar.with(|b| {
            keys.extend(
                b.iter()
                    .filter(|(id, _)| *id != chosen)
                    .map(|(id, _)| key(id)),
            )
        });
        keys.retain(|k| !k.design.is_empty());
        keys
    })
}

/// Keys 1–9 choose the design at that place on the bar, Left and Right step to the previous
/// and next design, unless the user is typing (or the focused widget uses the arrows). The
/// listener goes with the playground (another view may take the keys; coming back adds it
/// once again).
fn design_keys(bar: Memo<Vec<(String, String)>>, chosen: Memo<String>, select: Callback<String>) {
    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        if ev.ctrl_key() || ev.meta_key() || ev.alt_key() || super::typing_in_a_field() {
            return;
        }
        let key = ev.key();
        let place = match key.as_str() {
            "ArrowLeft" | "ArrowRight" => {
                if ev.default_prevented() || ev.shift_key() || super::arrows_taken() {
                    return;
                }
                let now = chosen.try_get_untracked().unwrap_or_default();
                let Some(at) = bar
                    .try_with_untracked(|b| b.iter().position(|(id, _)| *id == now))
                    .flatten()
                else {
                    return;
                };
                let len = bar.try_with_untracked(Vec::len).unwrap_or(0);
                let to = if key == "ArrowLeft" {
                    at.checked_sub(1)
                } else {
                    Some(at + 1).filter(|&i| i < len)
                };
                // At either end, nothing to step to: the key does nothing.
                let Some(to) = to else { return };
                ev.prevent_default();
                to
            }
            _ => {
                let Some(digit) = key.chars().next().and_then(|c| c.to_digit(10)) else {
                    return;
                };
                if key.len() != 1 || digit == 0 {
                    return;
                }
                digit as usize - 1
            }
        };
        let id = bar
            .try_with_untracked(|b| b.get(place).map(|(id, _)| id.clone()))
            .flatten();
        if let Some(id) = id {
            // A keyboard user on the design bar stays on it: the focus follows the choice.
            let on_bar = super::focused()
                .and_then(|e| e.closest("#designs").ok().flatten())
                .is_some();
            select.run(id);
            if on_bar {
                super::focus_first(&format!(
                    "#designs .design-button:nth-of-type({})",
                    place + 1
                ));
            }
        }
    });
    on_cleanup(move || keys.remove());
}

/// Returns the preset's title and lesson, for workshop mode (the model card, which shows them
/// otherwise, steps aside there): what the room is there for.
fn workshop_lesson(model: ReadSignal<Option<Model>>) -> Memo<Option<(String, String)>> {
    Memo::new(move |_| {
        let lang = i18n::lang();
        model.with(|m| {
            let m = m.as_ref()?;
            let p = m.preset.as_ref()?;
            // A shipped preset's own notes read in the page's language; edited ones as written.
            Some(match m.name.as_deref().and_then(crate::presets::get) {
                Some(shipped) if shipped.title == p.title => {
                    let t = shipped.text(lang);
                    (t.title.clone(), t.lesson.clone())
                }
                _ => (p.title.clone(), p.lesson.clone()),
            })
        })
    })
}

/// What the results show above the operations, and what the diagram draws.
#[derive(Clone, Copy)]
struct Shows {
    /// The collection cards or the diagram.
    view: RwSignal<ResultsView>,
    /// The diagram's worker and its last picture.
    tools: DiagramTools,
    /// The chosen design's model text and id.
    question: Signal<Option<(std::sync::Arc<str>, String)>>,
    /// The Diagram view's caption: the chosen design's label on the design bar.
    caption: Signal<String>,
    /// The designs' labels by offer id, as the design bar shows them.
    labels: Signal<Vec<(String, String)>>,
    /// The model's name (for the downloads' file names).
    model_name: Signal<String>,
}

/// The chosen design's results: its collections (as cards, or drawn) and its evaluation (the
/// arithmetic standing in while the engine runs); while the model cannot be read, what to do;
/// a design that cannot be laid out, why.
fn chosen_result(
    result: Memo<Option<Result<Analysis, String>>>,
    outcome: Memo<Option<Outcome>>,
    shows: Shows,
) -> impl IntoView {
    move || match result.get() {
        None => view! { <p class="empty">{tr!(FixTheModel)}</p> }.into_any(),
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
            let pending = Signal::derive(move || outcome.with(Option::is_none));
            let shown = move || {
                match shows.view.get() {
                ResultsView::Collections => view! {
                    <CollectionCards analysis=a evaluated=evaluated pending=pending/>
                }
                .into_any(),
                ResultsView::Diagram => view! {
                    <DiagramView tools=shows.tools question=shows.question caption=shows.caption labels=shows.labels
                        model_name=shows.model_name/>
                }
                .into_any(),
            }
            };
            view! {
                <ResultsSwitch view=shows.view/>
                {shown}
                <Evaluated outcome=outcome analysis=a/>
            }
            .into_any()
        }
    }
}

/// Every change of the text (typing, forms, presets, undo) re-reads the model; a bad one
/// keeps the last good model. The model is read a task later, then each offered design is
/// analysed in a task of its own, and the model is taken in a task after them: the editor's
/// own update (a whole inferred model's forms), each design's figures and the new cards'
/// rendering run as tasks apart, each shorter than the page would block for in one. The old
/// model stays on show until then. A text that has changed again meanwhile is left to its
/// own, later, tasks.
fn read_each_change(
    text: Memo<String>,
    model: ReadSignal<Option<Model>>,
    ahead: StoredValue<Option<(Model, Vec<Analyzed>)>, LocalStorage>,
    taking: RwSignal<bool>,
    take_text: impl Fn(&str, Result<Model, Vec<ModelError>>) + Copy + 'static,
) {
    Effect::new(move |first: Option<()>| {
        let t: std::sync::Arc<str> = text.get().into();
        if first.is_some() {
            taking.set(true);
            let live = {
                let t = t.clone();
                move || text.try_with_untracked(|now| **now == *t).unwrap_or(false)
            };
            let instead = move || text.with_untracked(|t| take_text(t, read_model(t)));
            let read = move || {
                if !live() {
                    return;
                }
                // A bad text, or the model on show again (only the text's layout changed): there
                // is nothing to analyse.
                let m = match read_model(&t) {
                    Ok(m) if model.with_untracked(|old| old.as_ref() != Some(&m)) => m,
                    read => return take_text(&t, read),
                };
                let todo = offers(&m).into_iter();
                analyze_in_tasks(todo, Vec::new(), live, instead, move |done| {
                    ahead.set_value(Some((m.clone(), done)));
                    take_text(&t, Ok(m));
                });
            };
            if set_timeout_with_handle(read, std::time::Duration::ZERO).is_err() {
                instead();
            }
        }
    });
}

/// Returns the history the playground starts with, what to say about it, and the design to
/// show: the model of a shared link (the saved work it replaces one undo, or one click, away)
/// with its design and editor view, else the saved work, else the starter model.
fn start_history(saved: Option<String>) -> (History, Option<Notice>, Option<String>) {
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    match share::read_fragment(&hash) {
        Some(Ok(link)) => {
            let shared = link.model;
            if let Some(view) = link.view {
                super::editor::show_view(&view);
            }
            storage::save(storage::MODEL_KEY, &shared);
            let (history, notice) = match saved.filter(|p| *p != shared) {
                Some(previous) => {
                    storage::save(storage::MODEL_BEFORE_LINK_KEY, &previous);
                    let mut h = History::new(previous);
                    h.record(shared, Change::Link, 0.0);
                    (h, Notice::Opened { can_restore: true })
                }
                None => (History::new(shared), Notice::Opened { can_restore: false }),
            };
            (history, Some(notice), link.design)
        }
        Some(Err(e)) => (
            History::new(saved.unwrap_or_else(|| STARTER_MODEL.to_string())),
            Some(Notice::Refused(e.to_string())),
            None,
        ),
        None => (
            History::new(saved.unwrap_or_else(|| STARTER_MODEL.to_string())),
            None,
            None,
        ),
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
    move || match outcome.get() {
        Some(Outcome::Done(s, _)) => view! {
            <EvalOperations evaluation=s.clone()/>
            <EvalWarnings warnings=s.warnings.clone()/>
        }
        .into_any(),
        Some(Outcome::Failed(e)) => view! {
            <p class="error eval-error" role="alert">{tr!(EvalFailed, error = e)}</p>
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

/// The design bar: one button per offered design, keys 1–9 (and Left/Right), Custom last. The
/// buttons wrap onto as many rows as the width needs; a label too long for its row is cut with
/// an ellipsis, the whole name on hover (`title`) and to screen readers (the text stays).
#[component]
fn DesignBar(
    /// The offered designs' ids and labels, in order.
    offers: Memo<Vec<(String, String)>>,
    /// The id of the current design.
    chosen: Memo<String>,
    /// Changes the design (by id).
    select: Callback<String>,
) -> impl IntoView {
    view! {
        <div class="design-bar" role="group" aria-label=tr!(DesignBar)>
            {move || {
                offers
                    .get()
                    .into_iter()
                    .enumerate()
                    .map(|(i, (id, label))| {
                        let pressed = id.clone();
                        let title = if i < 9 {
                            i18n::tv(
                                Msg::DesignKeyTitle,
                                &[("label", label.clone()), ("key", (i + 1).to_string())],
                            )
                        } else {
                            label.clone()
                        };
                        view! {
                            <button
                                type="button"
                                class="design-button"
                                title=title
                                aria-keyshortcuts=(i < 9).then(|| (i + 1).to_string())
                                data-design=id.clone()
                                aria-pressed=move || (chosen.get() == pressed).to_string()
                                on:click=move |_| select.run(id.clone())
                            >
                                {(i < 9).then(|| view! { <kbd>{i + 1}</kbd> })}
                                <span class="design-label">{label}</span>
                            </button>
                        }
                    })
                    .collect_view()
            }}
        </div>
    }
}
