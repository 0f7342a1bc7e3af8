//! "Start from your data": a dialog that infers a model from dropped or chosen files
//! (mongoexport `.json`/`.ndjson`, mongodump `.bson` with its `.metadata.json`, `.sql`
//! schemas) or pasted documents or DDL, in a Web Worker of its own (`crate::ui::infer`) with a
//! progress bar and a Cancel button, then opens the model in the editor (one undo step, like
//! importing a file) and shows what was found and assumed. Nothing leaves the browser.

use std::cell::RefCell;
use std::rc::Rc;

use gloo_events::EventListener;
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use wasm_bindgen::{JsCast, JsValue};

use super::dialog::dialog;
use super::{Notice, Workspace};
use crate::history::Change;
use crate::lang::{Msg, Text};
use crate::ui::i18n::{lang, t, tr, tv};
use crate::ui::infer::{classify, looks_like_sql, Answer, Kind, Summary};

/// Where the dialog is.
#[derive(Debug, Clone, PartialEq)]
enum Phase {
    /// Waiting for inputs.
    Idle,
    /// The worker is reading: bytes read of the total, the file being read.
    Running {
        /// Bytes read.
        done: f64,
        /// Bytes in all.
        total: f64,
        /// The file being read.
        file: String,
    },
    /// The model was opened; what was found.
    Done(Box<Summary>),
    /// Nothing was inferred, and why; the model is unchanged.
    Failed(String),
    /// The user cancelled.
    Cancelled,
}

/// The worker running an inference and its listeners (dropping them removes them).
type Running = Rc<RefCell<Option<(web_sys::Worker, Vec<EventListener>)>>>;

/// Stops the worker of `running`, if one runs.
fn stop(running: &Running) {
    if let Ok(mut held) = running.try_borrow_mut() {
        if let Some((worker, _)) = held.take() {
            worker.terminate();
        }
    }
}

/// Returns "1.2 MiB" for a byte count.
fn bytes(n: f64) -> String {
    crate::human::binary_size(n as u64)
}

/// The dialog. `on_close` closes it (a running inference is cancelled first).
#[component]
pub fn InferDialog(
    /// The model.
    ws: Workspace,
    /// Closes the dialog.
    on_close: impl Fn() + Clone + Send + Sync + 'static,
) -> impl IntoView {
    let files = RwSignal::new(Vec::<SendWrapper<web_sys::File>>::new());
    let pasted = RwSignal::new(String::new());
    let collection = RwSignal::new("documents".to_string());
    let counts = RwSignal::new(String::new());
    let phase = RwSignal::new(Phase::Idle);
    let dropping = RwSignal::new(false);
    let running: StoredValue<SendWrapper<Running>> =
        StoredValue::new(SendWrapper::new(Rc::default()));
    let cancel = move || {
        running.with_value(|r| stop(r));
        if matches!(phase.get_untracked(), Phase::Running { .. }) {
            phase.set(Phase::Cancelled);
        }
    };
    let close = {
        let on_close = on_close.clone();
        move || {
            cancel();
            on_close();
        }
    };
    let close_key = close.clone();
    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        if ev.key() == "Escape" {
            ev.prevent_default();
            close_key();
        } else if ev.key() == "Tab" {
            super::chooser::keep_focus_inside(&ev);
        }
    });
    on_cleanup(move || {
        keys.remove();
        running.with_value(|r| stop(r));
    });
    request_animation_frame(|| {
        if let Some(el) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id("infer-pick"))
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = el.focus();
        }
    });
    let add_files = move |list: Option<web_sys::FileList>| {
        let Some(list) = list else { return };
        files.update(|fs| {
            for i in 0..list.length() {
                if let Some(f) = list.get(i) {
                    fs.retain(|g| g.name() != f.name());
                    fs.push(SendWrapper::new(f));
                }
            }
        });
    };
    let file_input = NodeRef::<leptos::html::Input>::new();
    let on_file = move |ev: leptos::ev::Event| {
        let input = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok());
        if let Some(input) = input {
            add_files(input.files());
            input.set_value("");
        }
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        ev.stop_propagation();
        dropping.set(false);
        add_files(ev.data_transfer().and_then(|d| d.files()));
    };
    let on_dragover = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        ev.stop_propagation();
        dropping.set(true);
    };
    let start = move |_| {
        running.with_value(|r| stop(r));
        let inputs = js_sys::Array::new();
        let mut names = Vec::new();
        let set = |o: &js_sys::Object, k: &str, v: &JsValue| {
            let _ = js_sys::Reflect::set(o, &k.into(), v);
        };
        for f in files.get_untracked() {
            let (kind, coll) = classify(&f.name());
            let o = js_sys::Object::new();
            set(&o, "name", &f.name().into());
            set(&o, "collection", &coll.into());
            set(&o, "kind", &kind_name(kind).into());
            set(&o, "file", f.as_ref());
            inputs.push(&o);
            names.push(f.name());
        }
        let text = pasted.get_untracked();
        if !text.trim().is_empty() {
            let kind = if looks_like_sql(&text) {
                Kind::Sql
            } else {
                Kind::Json
            };
            let coll = collection.get_untracked().trim().to_string();
            let o = js_sys::Object::new();
            set(&o, "name", &"pasted".into());
            set(&o, "collection", &coll.into());
            set(&o, "kind", &kind_name(kind).into());
            set(&o, "text", &text.into());
            inputs.push(&o);
            names.push(t(Msg::InferPasted));
        }
        if names.is_empty() {
            phase.set(Phase::Failed(t(Msg::InferNothing)));
            return;
        }
        let label = match names.as_slice() {
            [one] => one.clone(),
            more => tv(Msg::InferInputs, &[("count", more.len().to_string())]),
        };
        let outcome = running.with_value(|r| {
            spawn(
                ws,
                (**r).clone(),
                &inputs,
                &counts.get_untracked(),
                label,
                phase,
            )
        });
        match outcome {
            Ok(()) => phase.set(Phase::Running {
                done: 0.0,
                total: 0.0,
                file: String::new(),
            }),
            Err(e) => phase.set(Phase::Failed(e)),
        }
    };
    let close_done = close.clone();
    let busy = move || matches!(phase.get(), Phase::Running { .. });
    let body = view! {
                <div class="infer-body">
                    <div class="infer-inputs">
                        <div
                            class="infer-drop"
                            class:dropping=move || dropping.get()
                            on:dragover=on_dragover
                            on:dragleave=move |_| dropping.set(false)
                            on:drop=on_drop
                        >
                            <p>{tr!(InferDrop)}" "
                                <button type="button" class="button" id="infer-pick" on:click=move |_| {
                                    if let Some(i) = file_input.get() { i.click(); }
                                }>{tr!(InferChoose)}</button>
                            </p>
                            <input
                                node_ref=file_input
                                type="file"
                                multiple=true
                                class="visually-hidden"
                                accept=".json,.ndjson,.jsonl,.bson,.sql,application/json"
                                aria-label=tr!(InferChooseLabel)
                                tabindex="-1"
                                data-testid="infer-files"
                                on:change=on_file
                            />
                            <ul class="infer-files" aria-label=tr!(InferFilesLabel)>
                                {move || files.get().into_iter().map(|f| {
                                    let name = f.name();
                                    let (kind, coll) = classify(&name);
                                    let what = match kind {
                                        Kind::Json => tv(Msg::InferKindDocuments, &[("collection", coll)]),
                                        Kind::Bson => tv(Msg::InferKindDump, &[("collection", coll)]),
                                        Kind::Metadata => tv(Msg::InferKindMetadata, &[("collection", coll)]),
                                        Kind::Archive => t(Msg::InferKindArchive),
                                        Kind::Sql => t(Msg::InferKindSql),
                                    };
                                    let n2 = name.clone();
                                    view! {
                                        <li>
                                            <span class="infer-file-name">{name.clone()}</span>
                                            <span class="muted">{format!(" {what}, {}", bytes(f.size()))}</span>
                                            <button type="button" class="link-button" aria-label=tv(Msg::InferRemoveLabel, &[("name", name.clone())])
                                                on:click=move |_| files.update(|fs| fs.retain(|g| g.name() != n2))>{tr!(InferRemove)}</button>
                                        </li>
                                    }
                                }).collect_view()}
                            </ul>
                        </div>
                        <label class="infer-label" for="infer-paste">{tr!(InferPasteLabel)}</label>
                        <textarea
                            id="infer-paste"
                            class="infer-paste"
                            rows="5"
                            spellcheck="false"
                            prop:value=move || pasted.get()
                            on:input=move |ev| pasted.set(event_target_value(&ev))
                        ></textarea>
                        <div class="infer-row">
                            <label>{tr!(InferCollectionLabel)}" "
                                <input type="text" class="infer-collection" prop:value=move || collection.get()
                                    on:input=move |ev| collection.set(event_target_value(&ev))/>
                            </label>
                            <label>{tr!(InferCountsLabel)}" "
                                <input type="text" class="infer-counts" placeholder=tr!(InferCountsPlaceholder)
                                    prop:value=move || counts.get()
                                    on:input=move |ev| counts.set(event_target_value(&ev))/>
                            </label>
                        </div>
                        <div class="infer-actions">
                            <button type="button" class="button" id="infer-run" disabled=busy on:click=start>{tr!(InferRun)}</button>
                            {move || busy().then(|| view! {
                                <button type="button" class="button" id="infer-cancel" on:click=move |_| cancel()>{tr!(InferCancel)}</button>
                            })}
                        </div>
                        <Progress phase=phase/>
                    </div>
                    <SummaryPanel phase=phase on_done=move || close_done()/>
                </div>
    };
    dialog(
        "chooser infer-dialog",
        "infer-title",
        (Msg::InferTitle, Msg::InferIntro),
        close,
        body,
    )
}

/// Returns the worker's name of a kind.
fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Json => "json",
        Kind::Bson => "bson",
        Kind::Metadata => "metadata",
        Kind::Archive => "archive",
        Kind::Sql => "sql",
    }
}

/// The progress bar (bytes read of the total) and what failed or was cancelled.
#[component]
fn Progress(phase: RwSignal<Phase>) -> impl IntoView {
    move || {
        match phase.get() {
        Phase::Running { done, total, file } => view! {
            <div class="infer-progress" role="status">
                <progress max=total.max(1.0) value=done aria-label=tr!(InferBytesRead)></progress>
                <span>{if total > 0.0 {
                    tv(Msg::InferReading, &[("file", file), ("done", bytes(done)), ("total", bytes(total))])
                } else {
                    t(Msg::InferStarting)
                }}</span>
            </div>
        }
        .into_any(),
        Phase::Failed(why) => view! {
            <p class="error" role="alert" data-testid="infer-error">{tv(Msg::InferFailed, &[("why", why)])}</p>
        }
        .into_any(),
        Phase::Cancelled => view! {
            <p class="notice" role="status">{tr!(InferCancelled)}</p>
        }
        .into_any(),
        _ => ().into_any(),
    }
    }
}

/// What was found and assumed, once the model is open.
#[component]
fn SummaryPanel(
    phase: RwSignal<Phase>,
    on_done: impl Fn() + Clone + Send + Sync + 'static,
) -> impl IntoView {
    move || {
        let Phase::Done(s) = phase.get() else {
            return ().into_any();
        };
        let on_done = on_done.clone();
        let list = |title: Msg, id: &'static str, items: Vec<Text>| {
            (!items.is_empty()).then(|| {
                view! {
                    <h3>{move || t(title)}</h3>
                    <ul data-testid=id>{items.into_iter().map(|i| view! { <li>{move || i.render(lang())}</li> }).collect_view()}</ul>
                }
            })
        };
        let skipped = match (s.sql, s.skipped_count == 1) {
            (true, true) => Msg::InferSkippedStatement,
            (true, false) => Msg::InferSkippedStatements,
            (false, true) => Msg::InferSkippedLine,
            (false, false) => Msg::InferSkippedLines,
        };
        let skipped_count = crate::human::thousands(s.skipped_count);
        let skipped_class = if s.skipped_count > 0 {
            "infer-skipped-count warn"
        } else {
            "infer-skipped-count muted"
        };
        view! {
            <section class="infer-summary" aria-labelledby="infer-summary-title" data-testid="infer-summary">
                <h3 id="infer-summary-title">{tr!(InferSummaryTitle)}</h3>
                {list(Msg::InferRead, "infer-sources", s.sources.clone())}
                {list(if s.sql { Msg::InferTables } else { Msg::InferEntities }, "infer-entities", s.entities.clone())}
                {list(Msg::InferRelationships, "infer-relationships", s.relationships.clone())}
                {list(Msg::InferAssumed, "infer-assumed", s.assumed.clone())}
                {list(Msg::InferIndexes, "infer-indexes", s.indexes.clone())}
                {list(Msg::InferWorkload, "infer-workload", s.workload.clone())}
                <p data-testid="infer-skipped-count" class=skipped_class>
                    {move || tv(skipped, &[("count", skipped_count.clone())])}
                </p>
                {list(Msg::InferSkipped, "infer-skipped", s.skipped.clone())}
                {list(Msg::InferLinkAttributes, "infer-link-attributes", s.link_attributes.clone())}
                <button type="button" class="button" id="infer-done" on:click=move |_| on_done()>{tr!(InferDone)}</button>
            </section>
        }
        .into_any()
    }
}

/// Starts the inference in a worker of its own; its answer opens the model in the editor.
fn spawn(
    ws: Workspace,
    running: Running,
    inputs: &js_sys::Array,
    counts: &str,
    label: String,
    phase: RwSignal<Phase>,
) -> Result<(), String> {
    let worker = crate::ui::worker::spawn_tools()
        .map_err(|e| tv(Msg::InferNoWorker, &[("error", format!("{e:?}"))]))?;
    let on_message = {
        let running = running.clone();
        EventListener::new(&worker, "message", move |ev| {
            let Some(ev) = ev.dyn_ref::<web_sys::MessageEvent>() else {
                return;
            };
            let data = ev.data();
            let field = |name: &str| js_sys::Reflect::get(&data, &name.into()).ok();
            if let Some(p) = field("progress").filter(|p| p.is_object()) {
                let num = |k: &str| {
                    js_sys::Reflect::get(&p, &k.into())
                        .ok()
                        .and_then(|v| v.as_f64())
                        .unwrap_or(0.0)
                };
                let file = js_sys::Reflect::get(&p, &"file".into())
                    .ok()
                    .and_then(|v| v.as_string())
                    .unwrap_or_default();
                let _ = phase.try_set(Phase::Running {
                    done: num("done"),
                    total: num("total"),
                    file,
                });
                return;
            }
            let outcome = if let Some(json) = field("json").and_then(|j| j.as_string()) {
                serde_json::from_str::<Answer>(&json).map_err(|e| e.to_string())
            } else if let Some(e) = field("error").and_then(|e| e.as_string()) {
                Err(e)
            } else if let Some(e) = field("fatal").and_then(|e| e.as_string()) {
                Err(tv(Msg::InferStopped, &[("error", e)]))
            } else {
                Err(t(Msg::InferNoModel))
            };
            // The dialog may have closed while the worker read.
            if phase.is_disposed() {
                return;
            }
            match outcome {
                Ok(answer) => {
                    ws.replace(
                        answer.model,
                        Change::Import,
                        Notice::Imported {
                            file: label.clone(),
                        },
                    );
                    phase.set(Phase::Done(Box::new(answer.summary)));
                }
                Err(e) => phase.set(Phase::Failed(e)),
            }
            // Settled: the worker goes, and the listeners with it (this one once it returns).
            let running = running.clone();
            request_animation_frame(move || stop(&running));
        })
    };
    let on_error = {
        let running = running.clone();
        EventListener::new(&worker, "error", move |ev| {
            ev.prevent_default();
            let _ = phase.try_set(Phase::Failed(t(Msg::InferWorkerFailed)));
            let running = running.clone();
            request_animation_frame(move || stop(&running));
        })
    };
    let message = js_sys::Object::new();
    for (k, v) in [
        ("id", JsValue::from(0)),
        ("kind", JsValue::from_str("infer")),
        ("inputs", inputs.into()),
        ("counts", JsValue::from_str(counts)),
    ] {
        let _ = js_sys::Reflect::set(&message, &k.into(), &v);
    }
    worker
        .post_message(&message)
        .map_err(|e| tv(Msg::InferNotHanded, &[("error", format!("{e:?}"))]))?;
    if let Ok(mut held) = running.try_borrow_mut() {
        *held = Some((worker, vec![on_message, on_error]));
    }
    Ok(())
}
