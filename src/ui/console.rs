//! The console: type mongosh commands against an in-memory database, see the documents
//! mongosh would print and what each command examined. The database is the sample of the
//! model and design on show in the playground (its collections, documents and indexes), or
//! the articles' small examples.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::i18n::{lang, t, tr, tv};
use super::storage;
use crate::console::samples::sample_database;
use crate::console::{execute, ConsoleError, Outcome, Reply};
use crate::ejson::{inspect, inspect_all};
use crate::engine::Database;
use crate::lang::{Lang, Msg};
use bson::{Bson, Document};

/// Documents shown per page of a result; "show more" adds as many again.
const PAGE: usize = 20;

/// The input's placeholder, the first example: shell syntax, the same in every language.
const PLACEHOLDER: &str = "db.users.find({ followers: { $size: 3 } })";

/// Commands offered as examples under the input: the chip's label and the command.
const EXAMPLES: &[(Msg, &str)] = &[
    (Msg::ConsoleExampleFollowers, PLACEHOLDER),
    (
        Msg::ConsoleExampleGrace,
        "db.users.find({ followers: 'grace' }, { name: 1 }).explain('executionStats')",
    ),
    (
        Msg::ConsoleExampleAlice,
        "db.orders.find({ 'customer._id': 'alice' }).sort({ date: -1 })",
    ),
    (
        Msg::ConsoleExampleUnits,
        "db.orders.aggregate([\n  { $unwind: '$items' },\n  { $group: { _id: '$items.sku', units: { $sum: '$items.qty' } } },\n  { $sort: { units: -1 } }\n])",
    ),
    (
        Msg::ConsoleExampleWeb,
        "db.movies.find({ prices: { $elemMatch: { channel: 'web', price: { $lt: 8 } } } }, { title: 1 })",
    ),
];

/// One command typed and what it gave.
#[derive(Clone)]
struct Entry {
    /// Position in the session (a stable key).
    id: usize,
    /// The command as typed.
    text: String,
    /// The outcome, or the error to show inline.
    result: Result<Outcome, ConsoleError>,
}

/// What the side panel lists about one collection.
#[derive(Clone, PartialEq)]
struct CollectionInfo {
    name: String,
    count: usize,
    indexes: Vec<(String, String)>,
}

fn collections(db: &Database) -> Vec<CollectionInfo> {
    db.collection_names()
        .into_iter()
        .map(|name| CollectionInfo {
            count: db.collection(&name).map(|c| c.len()).unwrap_or(0),
            indexes: db
                .list_indexes(&name)
                .into_iter()
                .map(|i| {
                    let key = inspect(&Bson::Document(i.key));
                    (i.name, key)
                })
                .collect(),
            name,
        })
        .collect()
}

/// Returns the UTF-16 length of `s` (the unit of a textarea's caret position).
fn utf16_len(s: &str) -> u32 {
    s.encode_utf16().count() as u32
}

/// Documents per entity of the model's sample in the console (at most; the model's own sample
/// when smaller): enough to try queries on, few enough to generate on the page's thread at once.
const MODEL_SAMPLE: u64 = 100;

/// The database the console runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    /// The sample of the model and design on show in the playground.
    Model,
    /// The articles' examples (users, orders, movies).
    Examples,
}

/// The model's database: the saved model (the playground's work, else its starter model) under
/// `design` (an offer id; empty or unknown: the model's first design), its sample generated
/// and inserted with the design's indexes; with what it is ("social-feed · Bucketed") and its
/// documents per entity. `Err` says why there is none.
fn model_database(design: &str) -> Result<(Database, String, u64), String> {
    let text = storage::load(storage::MODEL_KEY)
        .unwrap_or_else(|| super::playground::STARTER_MODEL.to_string());
    let model = crate::model::parse_model(&text).map_err(|e| e.to_string())?;
    let mut offers = crate::eval::offer::offers(&model);
    let at = offers.iter().position(|o| o.id == design).unwrap_or(0);
    if offers.is_empty() {
        return Err(t(Msg::NoDesignOffered));
    }
    let offer = offers.swap_remove(at);
    let layout = offer.layout().map_err(|e| e.to_string())?;
    let per = offer
        .model
        .sample
        .max_documents
        .unwrap_or(crate::model::Sample::DEFAULT_MAX_DOCUMENTS)
        .min(MODEL_SAMPLE);
    let opts = crate::eval::EvalOptions {
        max_documents: Some(per),
        ..Default::default()
    };
    let db =
        crate::eval::sample_database(&offer.model, &layout, &opts).map_err(|e| e.to_string())?;
    let label = super::i18n::design_label(model.name.as_deref(), &offer.id, &offer.label, lang());
    let about = match &model.name {
        Some(name) => format!("{name} · {label}"),
        None => label,
    };
    Ok((db, about, per))
}

/// The articles' examples, or an empty database and why.
fn examples_database() -> (Database, Option<String>) {
    match sample_database() {
        Ok(db) => (db, None),
        Err(e) => (Database::new(), Some(e.to_string())),
    }
}

/// The example commands of the model's database: the first documents of its first
/// collections and the indexes of the first, as (label, command).
fn model_examples(db: &Database) -> Vec<(String, String)> {
    let names = db.collection_names();
    let mut out: Vec<(String, String)> = names
        .iter()
        .take(3)
        .map(|c| {
            (
                tv(Msg::ConsoleExampleFind, &[("collection", c.clone())]),
                format!("db.{c}.find().limit(3)"),
            )
        })
        .collect();
    if let Some(c) = names.first() {
        out.push((
            tv(Msg::ConsoleExampleIndexes, &[("collection", c.clone())]),
            format!("db.{c}.getIndexes()"),
        ));
    }
    out
}

/// The console view: a side panel of collections, the session's output and the input.
#[component]
pub fn Console() -> impl IntoView {
    let design = use_context::<super::ShownDesign>()
        .map(|d| d.0.get_untracked())
        .unwrap_or_default();
    let (first, source_now, examples_error, model_about) = first_database(&design);
    let design = StoredValue::new(design);
    let db = StoredValue::new(first);
    let (source, set_source) = signal(source_now);
    let (load_error, set_load_error) = signal(examples_error);
    let (version, set_version) = signal(0u64);
    let (entries, set_entries) = signal(Vec::<Entry>::new());
    let (input, set_input) = signal(String::new());
    let recall = Recall {
        history: RwSignal::new(Vec::new()),
        browsing: RwSignal::new(None),
        draft: RwSignal::new(String::new()),
    };
    let output_ref = NodeRef::<leptos::html::Div>::new();

    let run = runner(db, set_entries, recall, set_input, set_version, output_ref);

    let on_keydown = move |ev: leptos::ev::KeyboardEvent| {
        let key = ev.key();
        if key == "Enter" && !ev.shift_key() {
            ev.prevent_default();
            run(input.get_untracked());
            return;
        }
        recall.step(&ev, &key, set_input);
    };

    let panel = Memo::new(move |_| {
        version.track();
        db.with_value(collections)
    });
    let examples = example_commands(source, db, version);
    // Another database: made afresh (the model's sample as generated, the examples as
    // shipped); the session's commands stay listed.
    let switch = move |to: Source| {
        if source.get_untracked() == to {
            return;
        }
        let (next, error) = match to {
            Source::Model => match design.with_value(|d| model_database(d)) {
                Ok((db, ..)) => (db, None),
                Err(e) => (Database::new(), Some(e)),
            },
            Source::Examples => examples_database(),
        };
        db.set_value(next);
        set_load_error.set(error);
        set_source.set(to);
        set_version.update(|v| *v += 1);
    };
    let model_error = model_about.clone().err();
    let model_hint = model_about.ok();
    let model_count = Memo::new(move |_| {
        version.track();
        db.with_value(documents_in)
    });

    view! {
        <section class="console">
            <aside class="card console-side" aria-label=tr!(ConsoleCollections)>
                <div class="card-head">
                    <h2>{tr!(ConsoleCollections)}</h2>
                    <span class="card-note">{tr!(ConsoleDatabase)}</span>
                </div>
                <fieldset class="console-source">
                    <legend class="visually-hidden">{tr!(ConsoleSource)}</legend>
                    {source_radio(Source::Model, source, model_error.is_some(), switch)}
                    {source_radio(Source::Examples, source, false, switch)}
                </fieldset>
                {model_error.map(|e| view! { <p class="hint" data-testid="model-error">{tr!(ConsoleModelError, error = e)}</p> })}
                {move || load_error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
                {collection_list(panel, run)}
                <p class="hint side-hint" data-testid="console-about">
                    {about_database(source, model_hint, model_count)}
                </p>
            </aside>
            <div class="card console-main">
                <div class="card-head">
                    <h2>"mongosh"</h2>
                    <p class="card-note">{tr!(ConsoleKeys)}</p>
                </div>
                {session_output(entries, output_ref)}
                <div class="console-input-row">
                    <span class="prompt" aria-hidden="true">">"</span>
                    <label class="visually-hidden" for="console-input">{tr!(ConsoleCommand)}</label>
                    <textarea
                        id="console-input"
                        class="console-input"
                        rows="2"
                        spellcheck="false"
                        autocomplete="off"
                        placeholder=placeholder(source, examples)
                        prop:value=move || input.get()
                        on:input=move |ev| set_input.set(event_target_value(&ev))
                        on:keydown=on_keydown
                    ></textarea>
                    <button class="run" on:click=move |_| run(input.get_untracked())>{tr!(ConsoleRun)}</button>
                </div>
                <div class="console-examples">
                    <span class="hint">{tr!(ConsoleTry)}" "</span>
                    {example_chips(examples, run)}
                </div>
            </div>
        </section>
    }
}

/// Returns what runs a command: against the database, its reply added to the session's output
/// (scrolled to show it) and the command to the history; the input is emptied and the panel
/// of collections is read again.
fn runner(
    db: StoredValue<Database>,
    set_entries: WriteSignal<Vec<Entry>>,
    recall: Recall,
    set_input: WriteSignal<String>,
    set_version: WriteSignal<u64>,
    output_ref: NodeRef<leptos::html::Div>,
) -> impl Fn(String) + Copy + Send + Sync + 'static {
    move |text: String| {
        if text.trim().is_empty() {
            return;
        }
        let result = db
            .try_update_value(|db| execute(db, &text))
            .unwrap_or_else(|| {
                Err(ConsoleError::Unsupported {
                    line: 1,
                    column: 1,
                    message: t(Msg::ConsoleDatabaseGone),
                })
            });
        set_entries.update(|list| {
            let id = list.len();
            list.push(Entry {
                id,
                text: text.clone(),
                result,
            });
        });
        recall.history.update(|h| {
            if h.last() != Some(&text) {
                h.push(text.clone());
            }
        });
        recall.browsing.set(None);
        set_input.set(String::new());
        set_version.update(|v| *v += 1);
        request_animation_frame(move || {
            if let Some(out) = output_ref.get_untracked() {
                out.set_scroll_top(out.scroll_height());
            }
        });
    }
}

/// What the model's sample is (what it samples, per how many documents), or why it cannot be
/// made.
type SampleAbout = Result<(String, u64), String>;

/// Returns the database the console opens with: the model's sample when it can be made, else
/// the examples; which of them it is, why the examples could not be read, and what the model's
/// sample is (what it samples and per how many), or why it cannot be made.
fn first_database(design: &str) -> (Database, Source, Option<String>, SampleAbout) {
    let model_db = model_database(design);
    let model_about = model_db
        .as_ref()
        .map(|(_, about, per)| (about.clone(), *per))
        .map_err(Clone::clone);
    match model_db {
        Ok((db, ..)) => (db, Source::Model, None, model_about),
        Err(_) => {
            let (db, e) = examples_database();
            (db, Source::Examples, e, model_about)
        }
    }
}

/// Returns the example commands: the articles' own, or the model's first collections.
fn example_commands(
    source: ReadSignal<Source>,
    db: StoredValue<Database>,
    version: ReadSignal<u64>,
) -> Memo<Vec<(String, String)>> {
    Memo::new(move |_| {
        version.track();
        match source.get() {
            Source::Examples => EXAMPLES
                .iter()
                .map(|&(label, command)| (t(label), command.to_string()))
                .collect::<Vec<_>>(),
            Source::Model => db.with_value(model_examples),
        }
    })
}

/// Returns how many documents the database holds, all collections together.
fn documents_in(db: &Database) -> u64 {
    db.collection_names()
        .iter()
        .map(|n| db.collection(n).map_or(0, |c| c.len() as u64))
        .sum::<u64>()
}

/// The session's output: every command run with what it gave, oldest first, or a hint while
/// there is none.
fn session_output(
    entries: ReadSignal<Vec<Entry>>,
    output_ref: NodeRef<leptos::html::Div>,
) -> impl IntoView {
    view! {
        // Focusable so a keyboard user can scroll the output (axe: scrollable-region-focusable).
        <div class="console-output" node_ref=output_ref aria-live="polite" tabindex="0" aria-label=tr!(ConsoleOutput)>
            <Show when=move || entries.with(Vec::is_empty)>
                <p class="hint console-empty">
                    {tr!(ConsoleEmpty)}
                </p>
            </Show>
            <For
                each=move || entries.get()
                key=|e| e.id
                children=move |e: Entry| view! { <ConsoleEntry entry=e/> }
            />
        </div>
    }
}

/// Returns the input's placeholder: the first example command of the database in use.
fn placeholder(
    source: ReadSignal<Source>,
    examples: Memo<Vec<(String, String)>>,
) -> impl Fn() -> String + Send + Sync + 'static {
    move || match source.get() {
        Source::Examples => PLACEHOLDER.to_string(),
        Source::Model => examples
            .with(|e| e.first().map(|(_, c)| c.clone()))
            .unwrap_or_else(|| "show collections".to_string()),
    }
}

/// One choice of the console's database (the model's sample, the examples), checked while it
/// is the one in use; the model's is disabled when its sample cannot be made.
fn source_radio(
    of: Source,
    source: ReadSignal<Source>,
    disabled: bool,
    switch: impl Fn(Source) + Copy + 'static,
) -> impl IntoView {
    let (value, label) = match of {
        Source::Model => ("model", Msg::ConsoleSourceModel),
        Source::Examples => ("examples", Msg::ConsoleSourceExamples),
    };
    view! {
        <label>
            <input
                type="radio"
                name="console-source"
                value=value
                prop:checked=move || source.get() == of
                disabled=disabled
                on:change=move |_| switch(of)
            />
            {move || t(label)}
        </label>
    }
}

/// The database's collections, each with its document count and its indexes' keys; a
/// collection's name runs its `find()`.
fn collection_list(
    panel: Memo<Vec<CollectionInfo>>,
    run: impl Fn(String) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    view! {
        <ul class="coll-list">
            <For
                each=move || panel.get()
                key=|c| (c.name.clone(), c.count, c.indexes.len())
                children=move |c: CollectionInfo| {
                    let find = format!("db.{}.find()", c.name);
                    view! {
                        <li class="coll" data-collection=c.name.clone()>
                            <button
                                class="coll-name"
                                title=tr!(ConsoleRunFind)
                                on:click=move |_| run(find.clone())
                            >
                                {c.name.clone()}
                            </button>
                            <span class="coll-count">
                                {tr!(ConsoleDocs, count = crate::human::thousands(c.count as u64))}
                            </span>
                            <ul class="coll-indexes">
                                {c
                                    .indexes
                                    .into_iter()
                                    .map(|(name, key)| {
                                        let title = format!("{name}: {key}");
                                        view! {
                                            <li title=title><code>{key}</code></li>
                                        }
                                    })
                                    .collect_view()}
                            </ul>
                        </li>
                    }
                }
            />
        </ul>
    }
}

/// What the database is: the model's sample (what it samples, its documents, per how many),
/// or the articles' examples.
fn about_database(
    source: ReadSignal<Source>,
    model_hint: Option<(String, u64)>,
    model_count: Memo<u64>,
) -> impl Fn() -> String + Send + Sync + 'static {
    move || match (source.get(), model_hint.clone()) {
        (Source::Model, Some((about, per))) => tv(
            Msg::ConsoleModelSample,
            &[
                ("about", about),
                ("count", crate::human::thousands(model_count.get())),
                ("per", crate::human::thousands(per)),
            ],
        ),
        _ => t(Msg::ConsoleSamples),
    }
}

/// The example commands as chips, each running its command (shown on hover).
fn example_chips(
    examples: Memo<Vec<(String, String)>>,
    run: impl Fn(String) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    view! {
    <For
        each=move || examples.get()
        key=|(label, command)| (label.clone(), command.clone())
        children=move |(label, command): (String, String)| {
            let title = command.clone();
            view! {
                <button class="chip" title=title on:click=move |_| run(command.clone())>
                    {label}
                </button>
            }
        }
    />
    }
}

/// The session's commands, for Up and Down in the input: the list, the place while browsing
/// it, and the draft the browsing replaced.
#[derive(Clone, Copy)]
struct Recall {
    /// The commands run, oldest first (a command run twice in a row once).
    history: RwSignal<Vec<String>>,
    /// The place in `history` while browsing it with Up/Down.
    browsing: RwSignal<Option<usize>>,
    /// The input as it was when the browsing began.
    draft: RwSignal<String>,
}

impl Recall {
    /// Up on the input's first line shows the command before, Down on its last line the one
    /// after (past the newest, the draft again); any other key, or the caret elsewhere, is left
    /// to the textarea.
    fn step(self, ev: &leptos::ev::KeyboardEvent, key: &str, set_input: WriteSignal<String>) {
        if key != "ArrowUp" && key != "ArrowDown" {
            return;
        }
        let Some(area) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlTextAreaElement>().ok())
        else {
            return;
        };
        let value = area.value();
        let caret = area.selection_start().ok().flatten().unwrap_or(0);
        let list = self.history.get_untracked();
        if list.is_empty() {
            return;
        }
        if key == "ArrowUp" {
            let first_line = value.split('\n').next().unwrap_or("");
            if caret > utf16_len(first_line) {
                return;
            }
            let next = match self.browsing.get_untracked() {
                None => {
                    self.draft.set(value);
                    list.len() - 1
                }
                Some(p) => p.saturating_sub(1),
            };
            ev.prevent_default();
            self.browsing.set(Some(next));
            set_input.set(list[next].clone());
        } else {
            let last_line = value.rsplit('\n').next().unwrap_or("");
            if caret < utf16_len(&value) - utf16_len(last_line) {
                return;
            }
            let Some(p) = self.browsing.get_untracked() else {
                return;
            };
            ev.prevent_default();
            if p + 1 < list.len() {
                self.browsing.set(Some(p + 1));
                set_input.set(list[p + 1].clone());
            } else {
                self.browsing.set(None);
                set_input.set(self.draft.get_untracked());
            }
        }
    }
}

/// Returns "Line 3, column 7" in the page's language.
fn line_column(line: usize, column: usize) -> String {
    tv(
        Msg::ConsoleLineColumn,
        &[("line", line.to_string()), ("column", column.to_string())],
    )
}

/// Returns the error's position label (when it has one) and message.
fn error_parts(e: &ConsoleError) -> (Option<String>, String) {
    match e {
        ConsoleError::Syntax(p) => (
            Some(line_column(p.line, p.column)),
            format!("SyntaxError: {}", p.message),
        ),
        ConsoleError::Unsupported {
            line,
            column,
            message,
        } => (Some(line_column(*line, *column)), message.clone()),
        // mongod's message as mongosh shows it, led by the codeName in the page's words where
        // the page is not English (重复键).
        ConsoleError::Server(s) => (
            (lang() != Lang::En).then(|| s.lead().render(lang())),
            format!(
                "MongoServerError[{}]: {} (code {})",
                s.code_name, s.message, s.code
            ),
        ),
    }
}

/// One command of the session with its documents (paged, foldable), statistics and, for
/// `.explain()`, the winning plan.
#[component]
fn ConsoleEntry(
    /// The command and what it gave.
    entry: Entry,
) -> impl IntoView {
    let body = match entry.result {
        Err(e) => {
            let (at, message) = error_parts(&e);
            view! {
                <p class="error" role="alert">
                    {at.map(|at| view! { <strong>{at}</strong> ": " })}
                    {message}
                </p>
            }
            .into_any()
        }
        Ok(outcome) => view! { <OutcomeView outcome=outcome/> }.into_any(),
    };
    view! {
        <article class="entry" data-entry=entry.id>
            <pre class="entry-command"><span class="prompt" aria-hidden="true">"> "</span>{entry.text}</pre>
            {body}
        </article>
    }
}

/// The reply of a command that ran.
#[component]
fn OutcomeView(
    /// What the command gave.
    outcome: Outcome,
) -> impl IntoView {
    let has_stats = outcome.result.plan.is_some()
        || outcome.result.stats.write.docs_written > 0
        || outcome.result.stats.write.index_keys_written > 0;
    let stats = has_stats.then(|| outcome.stats_line());
    // As mongosh prints them (`util.inspect`): an explain document at every depth, other
    // values to depth 6; a count is a plain number.
    let reply = match &outcome.reply {
        Reply::Documents(docs) => {
            // `show collections` lists collections, not documents.
            let names = outcome.command.is_none();
            let docs = docs.iter().map(|d| d.document().clone()).collect();
            view! { <DocumentList docs=docs names=names/> }.into_any()
        }
        Reply::Value(v @ Bson::Document(_)) if outcome.explained => view! {
            <pre class="doc value-doc explain-doc" data-testid="explain">{inspect_all(v)}</pre>
        }
        .into_any(),
        Reply::Value(v @ Bson::Document(_)) => view! {
            <pre class="doc value-doc">{inspect(v)}</pre>
        }
        .into_any(),
        Reply::Value(v) => view! { <pre class="value">{inspect(v)}</pre> }.into_any(),
    };
    view! {
        {reply}
        {stats.map(|s| view! { <p class="entry-stats" data-testid="stats">{s}</p> })}
    }
}

/// A cursor's documents, each printed once as mongosh prints it: the first [`PAGE`], then
/// "show more" (mongosh's `it`).
#[component]
fn DocumentList(
    /// The documents, in cursor order.
    docs: Vec<Document>,
    /// True when the documents name collections (`show collections`): counted as such.
    #[prop(optional)]
    names: bool,
) -> impl IntoView {
    let total = docs.len();
    let docs = StoredValue::new(docs);
    let (shown, set_shown) = signal(PAGE.min(total));
    let count = move || match (total, names) {
        (0, _) => t(Msg::ConsoleNoDocuments),
        (1, false) => t(Msg::ConsoleOneDocument),
        (1, true) => t(Msg::ConsoleOneCollection),
        (n, false) => tv(
            Msg::ConsoleDocuments,
            &[("count", crate::human::thousands(n as u64))],
        ),
        (n, true) => tv(
            Msg::ConsoleCollectionCount,
            &[("count", crate::human::thousands(n as u64))],
        ),
    };
    view! {
        <p class="entry-count" data-testid="count">{count}</p>
        <ol class="docs">
            {move || {
                docs.with_value(|docs| {
                    docs.iter()
                        .take(shown.get())
                        .map(|d| {
                            // Each document once, as mongosh prints it: on one line when it
                            // fits in 80 columns, else one field per line.
                            view! { <li><pre class="doc">{inspect(&Bson::Document(d.clone()))}</pre></li> }
                        })
                        .collect_view()
                })
            }}
        </ol>
        <Show when=move || { shown.get() < total }>
            <button
                class="more"
                on:click=move |_| set_shown.update(|n| *n = (*n + PAGE).min(total))
            >
                {move || {
                    tv(
                        Msg::ConsoleShowMore,
                        &[
                            ("shown", crate::human::thousands(shown.get() as u64)),
                            ("total", crate::human::thousands(total as u64)),
                        ],
                    )
                }}
            </button>
        </Show>
    }
}
