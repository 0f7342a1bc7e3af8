//! "Start from your data": a dialog that infers a model from dropped or chosen files
//! (mongoexport `.json`/`.ndjson`, mongodump `.bson` with its `.metadata.json`, `.sql`
//! schemas, mongod logs and `system.profile` exports, which the worker tells from documents
//! by their lines) or pasted documents or DDL, in a Web Worker of its own (`crate::ui::infer`)
//! with a progress bar and a Cancel button, then opens the model in the editor (one undo step,
//! like importing a file) and shows what was found and assumed ([`summary`]). Nothing leaves
//! the browser.

use std::cell::RefCell;
use std::rc::Rc;

use gloo_events::EventListener;
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use wasm_bindgen::{JsCast, JsValue};

mod summary;

use super::dialog::dialog;
use super::{Notice, Workspace};
use crate::history::Change;
use crate::lang::Msg;
use crate::ui::i18n::{t, tr, tv};
use crate::ui::infer::{classify, looks_like_sql, Answer, Kind, Summary};
use summary::SummaryPanel;

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
    let start = move |_| {
        running.with_value(|r| stop(r));
        let (inputs, names) = worker_inputs(
            &files.get_untracked(),
            &pasted.get_untracked(),
            collection.get_untracked().trim(),
        );
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
                <FileDrop files=files/>
                <PasteInputs pasted=pasted collection=collection counts=counts/>
                <div class="infer-actions">
                    <button type="button" class="button" id="infer-run" disabled=busy on:click=start>{tr!(InferRun)}</button>
                    {move || busy().then(|| view! {
                        <button type="button" class="button" id="infer-cancel" on:click=move |_| cancel()>{tr!(InferCancel)}</button>
                    })}
                </div>
                <Progress phase=phase/>
            </div>
            {move || match phase.get() {
                Phase::Done(s) => {
                    let close_done = close_done.clone();
                    view! { <SummaryPanel summary=*s on_done=move || close_done()/> }.into_any()
                }
                _ => ().into_any(),
            }}
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

/// Returns what the worker reads (`{name, collection, kind, file | text}` for each chosen
/// file, then the pasted text if any) and the inputs' names; none when nothing was given.
fn worker_inputs(
    files: &[SendWrapper<web_sys::File>],
    pasted: &str,
    collection: &str,
) -> (js_sys::Array, Vec<String>) {
    let inputs = js_sys::Array::new();
    let mut names = Vec::new();
    let set = |o: &js_sys::Object, k: &str, v: &JsValue| {
        let _ = js_sys::Reflect::set(o, &k.into(), v);
    };
    for f in files {
        let (kind, coll) = classify(&f.name());
        let o = js_sys::Object::new();
        set(&o, "name", &f.name().into());
        set(&o, "collection", &coll.into());
        set(&o, "kind", &kind_name(kind).into());
        set(&o, "file", f.as_ref());
        inputs.push(&o);
        names.push(f.name());
    }
    if !pasted.trim().is_empty() {
        let kind = if looks_like_sql(pasted) {
            Kind::Sql
        } else {
            Kind::Json
        };
        let o = js_sys::Object::new();
        set(&o, "name", &"pasted".into());
        set(&o, "collection", &collection.into());
        set(&o, "kind", &kind_name(kind).into());
        set(&o, "text", &pasted.into());
        inputs.push(&o);
        names.push(t(Msg::InferPasted));
    }
    (inputs, names)
}

/// The drop zone, its "Choose files…" button and the files to read, each with what it is
/// taken for and a button that removes it.
#[component]
fn FileDrop(
    /// The files chosen or dropped (a file of the same name replaces the one before).
    files: RwSignal<Vec<SendWrapper<web_sys::File>>>,
) -> impl IntoView {
    let dropping = RwSignal::new(false);
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
    view! {
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
                accept=".json,.ndjson,.jsonl,.bson,.sql,.log,.gz,.txt,application/json"
                aria-label=tr!(InferChooseLabel)
                tabindex="-1"
                data-testid="infer-files"
                on:change=on_file
            />
            <ul class="infer-files" aria-label=tr!(InferFilesLabel)>
                {move || files.get().into_iter().map(|f| view! { <FileItem file=f files=files/> }).collect_view()}
            </ul>
        </div>
    }
}

/// One file to read: its name, what it is taken for (a file of documents may turn out to be a
/// log: its lines tell, when it is read), its size and a button that removes it.
#[component]
fn FileItem(
    /// The file.
    file: SendWrapper<web_sys::File>,
    /// The files to read, which the button removes it from.
    files: RwSignal<Vec<SendWrapper<web_sys::File>>>,
) -> impl IntoView {
    let name = file.name();
    let (kind, coll) = classify(&name);
    let what = match kind {
        Kind::Json if named_like_a_log(&name) => {
            tv(Msg::InferKindLogOrDocuments, &[("collection", coll)])
        }
        Kind::Json => tv(Msg::InferKindDocuments, &[("collection", coll)]),
        Kind::Bson => tv(Msg::InferKindDump, &[("collection", coll)]),
        Kind::Metadata => tv(Msg::InferKindMetadata, &[("collection", coll)]),
        Kind::Archive => t(Msg::InferKindArchive),
        Kind::Sql => t(Msg::InferKindSql),
    };
    let gone = name.clone();
    view! {
        <li>
            <span class="infer-file-name">{name.clone()}</span>
            <span class="muted">{format!(" {what}, {}", bytes(file.size()))}</span>
            <button type="button" class="link-button" aria-label=tv(Msg::InferRemoveLabel, &[("name", name)])
                on:click=move |_| files.update(|fs| fs.retain(|g| g.name() != gone))>{tr!(InferRemove)}</button>
        </li>
    }
}

/// True when a file's name says it may be a log (`mongod.log`, `mongod.log.1.gz`,
/// `system.profile.json`): the list says so before its lines, read by the worker, tell.
fn named_like_a_log(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    name.contains(".log") || name.contains("profile")
}

/// The pasted documents or DDL, the collection they feed and the full-scale counts.
#[component]
fn PasteInputs(
    /// The pasted text.
    pasted: RwSignal<String>,
    /// The collection the pasted documents feed.
    collection: RwSignal<String>,
    /// The full-scale counts (`users=30000000, …`).
    counts: RwSignal<String>,
) -> impl IntoView {
    view! {
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
    }
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
    let message = crate::ui::worker::message(&[
        ("id", JsValue::from(0)),
        ("kind", JsValue::from_str("infer")),
        ("inputs", inputs.into()),
        ("counts", JsValue::from_str(counts)),
    ]);
    worker
        .post_message(&message)
        .map_err(|e| tv(Msg::InferNotHanded, &[("error", format!("{e:?}"))]))?;
    if let Ok(mut held) = running.try_borrow_mut() {
        *held = Some((worker, vec![on_message, on_error]));
    }
    Ok(())
}
