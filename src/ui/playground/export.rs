//! "Download export (.zip)": the chosen design's export — what `squillion export` writes in a
//! folder (one mongoimport file per collection, `setup.js`, `workload.js`, `manifest.json`,
//! `README.md`) — as one zip archive, at the evaluation's sample.
//!
//! The archive is built by the core ([`crate::export::export_offered_zip`]) in a Web Worker of
//! its own (`public/worker.js`, message `kind: 'export'`), so the page never freezes and a
//! worker that runs out of memory takes nothing else with it; it is terminated once the archive
//! is handed over. The sample is the evaluation's, fitted to the evaluation's memory budget,
//! and the archive is capped at [`crate::export::PAGE_ARCHIVE_LIMIT`]: a tab never holds more
//! than that. When no worker can start, the page builds it itself after a pause that lets the
//! "preparing…" state paint.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use gloo_events::EventListener;
use leptos::prelude::*;

use crate::lang::Msg;
use crate::ui::i18n::{t, tr, tv};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::pipeline::Key;
use crate::human;
use crate::ui::files;
use crate::ui::worker::{export_zip, ArchiveSummary};

/// What the export button is doing.
#[derive(Debug, Clone, PartialEq)]
enum State {
    /// Nothing yet.
    Idle,
    /// The archive is being built.
    Preparing,
    /// The archive was offered for download.
    Ready {
        /// Its file name.
        file: String,
        /// What it holds.
        summary: ArchiveSummary,
    },
    /// Why there is no archive.
    Failed(String),
}

/// Returns the archive's file name: `<model>-<design>.zip`.
fn archive_name(model: &str, design: &str) -> String {
    format!(
        "{}-{}.zip",
        files::safe_file_name(model),
        files::safe_file_name(design)
    )
}

/// Returns what an archive holds, in words.
fn describe(s: &ArchiveSummary) -> String {
    tv(
        Msg::ExportDescribe,
        &[
            ("documents", human::thousands(s.documents)),
            ("collections", s.collections.to_string()),
            ("size", human::binary_size(s.bytes)),
            ("files", s.files.to_string()),
        ],
    )
}

/// The download button and what it did.
#[component]
pub fn ExportButton(
    /// The chosen design's evaluation key: the model's text, the design, the sample scale.
    key: Signal<Option<Key>>,
    /// The model's name (for the file name).
    model_name: Signal<String>,
) -> impl IntoView {
    let state = RwSignal::new(State::Idle);
    let on_click = move |_| {
        if state.get_untracked() == State::Preparing {
            return;
        }
        let Some(k) = key.get_untracked() else {
            state.set(State::Failed(t(Msg::ExportFixFirst)));
            return;
        };
        let file = archive_name(&model_name.get_untracked(), &k.design);
        state.set(State::Preparing);
        let request = Request {
            options: serde_json::json!({ "max_documents": k.scale }).to_string(),
            key: k,
            file,
        };
        if spawn(request.clone(), state).is_err() {
            inline(request, state);
        }
    };
    view! {
        <div class="export-control" aria-live="polite">
            <button
                type="button"
                class="button export-zip"
                on:click=on_click
                disabled=move || state.get() == State::Preparing
                aria-busy=move || (state.get() == State::Preparing).to_string()
                title=tr!(ExportTitle)
            >
                {move || if state.get() == State::Preparing {
                    view! { <span class="spinner" aria-hidden="true"></span>{t(Msg::ExportPreparing)} }.into_any()
                } else {
                    t(Msg::ExportDownload).into_any()
                }}
            </button>
            {move || match state.get() {
                State::Idle | State::Preparing => None,
                State::Ready { file, summary } => Some(view! {
                    <span class="export-summary" role="status">
                        {format!("{file}: {}", describe(&summary))}
                    </span>
                }.into_any()),
                State::Failed(e) => Some(view! {
                    <span class="export-error" role="alert">{tr!(ExportFailed, error = e)}</span>
                }.into_any()),
            }}
        </div>
    }
}

/// The archive's MIME type.
const ZIP: &str = "application/zip";

/// One archive to build.
#[derive(Debug, Clone)]
struct Request {
    key: Key,
    options: String,
    file: String,
}

/// Offers the archive for download and says what it holds.
fn deliver(
    request: &Request,
    zip: gloo_file::Blob,
    summary: ArchiveSummary,
    state: RwSignal<State>,
) {
    state.set(match files::offer(&request.file, zip) {
        Some(()) => State::Ready {
            file: request.file.clone(),
            summary,
        },
        None => State::Failed("the browser refused the download".to_string()),
    });
}

/// Returns the bytes `view` shows as a buffer of their own (the view's own buffer when it shows
/// all of it, as the worker's transferred archive does).
fn viewed_bytes(view: &js_sys::Uint8Array) -> js_sys::ArrayBuffer {
    let whole = view.buffer();
    let (start, len) = (view.byte_offset(), view.byte_length());
    if start == 0 && len == whole.byte_length() {
        whole
    } else {
        whole.slice_with_end(start, start + len)
    }
}

/// Builds the archive on the page, after a pause that lets "Preparing export…" paint.
fn inline(request: Request, state: RwSignal<State>) {
    let run = move || match export_zip(&request.key.text, &request.key.design, &request.options) {
        Ok((bytes, summary)) => {
            let zip = gloo_file::Blob::new_with_options(bytes.as_slice(), Some(ZIP));
            drop(bytes);
            deliver(&request, zip, summary, state);
        }
        Err(e) => state.set(State::Failed(e)),
    };
    if set_timeout_with_handle(run, Duration::from_millis(30)).is_err() {
        state.set(State::Failed(
            "the page could not schedule the export".to_string(),
        ));
    }
}

/// Builds the archive in a worker of its own; `Err` when no worker can start (the caller
/// builds it on the page).
fn spawn(request: Request, state: RwSignal<State>) -> Result<(), JsValue> {
    let worker = crate::ui::worker::spawn()?;
    // The worker answers once; an error event may follow or replace the answer. Whichever
    // comes first settles the export: the worker is terminated and both listeners go (the one
    // running is released when it returns). `settle` is true the first time only.
    let listeners: Rc<RefCell<Vec<EventListener>>> = Rc::default();
    let settle = {
        let (worker, listeners) = (worker.clone(), listeners.clone());
        move || -> bool {
            let Ok(mut held) = listeners.try_borrow_mut() else {
                return false;
            };
            if held.is_empty() {
                return false;
            }
            worker.terminate();
            held.clear();
            true
        }
    };
    let on_message = {
        let (settle, request) = (settle.clone(), request.clone());
        EventListener::new(&worker, "message", move |ev| {
            if !settle() {
                return;
            }
            let Some(ev) = ev.dyn_ref::<web_sys::MessageEvent>() else {
                return;
            };
            let data = ev.data();
            let field = |name: &str| js_sys::Reflect::get(&data, &name.into()).ok();
            if let Some(zip) = field("zip").and_then(|z| z.dyn_into::<js_sys::Uint8Array>().ok()) {
                let summary = field("summary")
                    .and_then(|s| s.as_string())
                    .and_then(|s| serde_json::from_str::<ArchiveSummary>(&s).ok());
                match summary {
                    Some(summary) => {
                        let zip = gloo_file::Blob::new_with_options(viewed_bytes(&zip), Some(ZIP));
                        deliver(&request, zip, summary, state);
                    }
                    None => state.set(State::Failed("the worker sent no summary".to_string())),
                }
            } else if let Some(e) = field("error").and_then(|e| e.as_string()) {
                state.set(State::Failed(e));
            } else if field("init").is_some_and(|i| i.is_truthy()) {
                // The worker could not load the module: the page builds the archive.
                inline(request.clone(), state);
            } else if let Some(fatal) = field("fatal").and_then(|e| e.as_string()) {
                // Out of memory, say: building it on the page would not fare better.
                state.set(State::Failed(format!(
                    "the export stopped ({fatal}); a smaller sample may fit"
                )));
            } else {
                state.set(State::Failed("the worker sent no archive".to_string()));
            }
        })
    };
    let on_error = {
        let (settle, request) = (settle.clone(), request.clone());
        EventListener::new(&worker, "error", move |ev| {
            ev.prevent_default();
            // The worker could not start (its script or module failed to load).
            if settle() {
                inline(request.clone(), state);
            }
        })
    };
    listeners.borrow_mut().extend([on_message, on_error]);
    let message = crate::ui::worker::message(&[
        ("id", JsValue::from(0)),
        ("kind", JsValue::from_str("export")),
        ("model", JsValue::from_str(&request.key.text)),
        ("design", JsValue::from_str(&request.key.design)),
        ("options", JsValue::from_str(&request.options)),
    ]);
    if let Err(e) = worker.post_message(&message) {
        settle();
        return Err(e);
    }
    Ok(())
}
