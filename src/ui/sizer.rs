//! The document sizer: paste or type a document, see its exact size and where the bytes go.

use leptos::prelude::*;

use super::breakdown::{parts, BreakdownTable, Composition, Treemap};
use super::examples::EXAMPLES;
use super::gauge::LimitGauge;
use super::i18n::{exact_bytes, t, tr, tv};
use super::storage;
use crate::ejson::{parse_document, ParseError};
use crate::human;
use crate::lang::Msg;
use crate::size::{analyze_with_limit, Analysis, LimitStatus};

/// Returns the analysis of the document in `text`, or where and why it cannot be read.
fn analyze_text(text: &str) -> Result<Analysis, ParseError> {
    parse_document(text).map(|doc| analyze_with_limit(&doc, MAX_ROWS))
}

/// The shell function whose figure the page's size equals: code, the same in every language.
const BSONSIZE: &str = "Object.bsonsize()";

/// Rows of the breakdown the page keeps; totals stay exact beyond it.
const MAX_ROWS: usize = 2_000;

/// Returns the badge's message and CSS level of a limit status.
fn status_badge(status: LimitStatus) -> (Msg, &'static str) {
    match status {
        LimitStatus::Ok => (Msg::SizerWithinLimit, "ok"),
        LimitStatus::Warning => (Msg::SizerOver80, "warn"),
        LimitStatus::OverLimit => (Msg::SizerOverLimit, "over"),
        LimitStatus::TooDeep => (Msg::SizerTooDeep, "over"),
    }
}

/// The editor and its results. Invalid input shows the error at its line and column and
/// keeps the last good result on screen.
#[component]
pub fn DocumentSizer() -> impl IntoView {
    let first = EXAMPLES[0];
    // The last work, even an invalid edit, comes back on reload.
    let start = storage::load(storage::DOCUMENT_KEY).unwrap_or_else(|| first.text.to_string());
    let (example, set_example) = signal(first.id.to_string());
    let (first_good, first_error) = match analyze_text(&start) {
        Ok(a) => (Some(a), None),
        Err(e) => (analyze_text(first.text).ok(), Some(e)),
    };
    let (error, set_error) = signal(first_error);
    let (last_good, set_last_good) = signal(first_good);
    let (text, set_text) = signal(start);

    let update = move |new_text: String| {
        match analyze_text(&new_text) {
            Ok(a) => {
                set_last_good.set(Some(a));
                set_error.set(None);
            }
            Err(e) => set_error.set(Some(e)),
        }
        storage::save(storage::DOCUMENT_KEY, &new_text);
        set_text.set(new_text);
    };

    let on_pick = move |ev: leptos::ev::Event| {
        let id = event_target_value(&ev);
        if let Some(ex) = EXAMPLES.iter().find(|e| e.id == id) {
            set_example.set(id);
            update(ex.text.to_string());
        }
    };

    let analysis = Signal::derive(move || last_good.get().unwrap_or_else(empty_analysis));
    let size = Signal::derive(move || analysis.get().size);

    view! {
        <section class="sizer">
            <div class="card editor-card">
                <div class="card-head">
                    <h2>{tr!(SizerDocument)}</h2>
                    <label class="picker">
                        <span>{tr!(SizerExample)}</span>
                        <select on:change=on_pick prop:value=move || example.get() aria-label=tr!(SizerExampleDocument)>
                            {EXAMPLES
                                .iter()
                                .map(|e| {
                                    let label = e.label;
                                    view! { <option value=e.id>{move || t(label)}</option> }
                                })
                                .collect_view()}
                        </select>
                    </label>
                </div>
                <label class="visually-hidden" for="doc-input">{tr!(SizerInput)}</label>
                <textarea
                    id="doc-input"
                    class="doc-input"
                    spellcheck="false"
                    autocomplete="off"
                    prop:value=move || text.get()
                    on:input=move |ev| update(event_target_value(&ev))
                    aria-invalid=move || error.get().is_some().to_string()
                    aria-describedby="doc-status"
                ></textarea>
                <div id="doc-status" class="doc-status" aria-live="polite">
                    {document_status(error, last_good)}
                </div>
            </div>

            <div class="card result-card" class:stale=move || error.get().is_some()>
                <div class="card-head">
                    <h2>{tr!(SizerExactSize)}</h2>
                    {move || {
                        let (label, level) = status_badge(analysis.get().status);
                        view! { <span class="badge" data-level=level>{t(label)}</span> }
                    }}
                </div>
                <p class="big-size">
                    <span class="size-value" data-testid="size-bytes">{move || human::thousands(size.get())}</span>
                    <span class="size-unit">" "{tr!(SizerBytes)}</span>
                </p>
                <p class="size-sub">
                    {move || human::binary_size(size.get())}
                    " · "{tr!(SizerBsonsizeBefore)}" "<code>{BSONSIZE}</code>" "{tr!(SizerBsonsizeAfter)}
                </p>
                <LimitGauge size=size/>
                {document_stats(analysis)}
                <Composition analysis=analysis/>
            </div>

            <div class="card wide">
                <div class="card-head">
                    <h2>{tr!(SizerTopLevel)}</h2>
                    <p class="card-note">{tr!(SizerTreemapNote)}</p>
                </div>
                <Treemap analysis=analysis/>
            </div>

            <div class="card wide">
                <div class="card-head">
                    <h2>{tr!(SizerBytesPerPath)}</h2>
                    <p class="card-note">{tr!(SizerBytesPerPathNote)}</p>
                </div>
                // A scrolling region: focusable so that the keyboard can scroll it.
                <div class="table-wrap" tabindex="0" role="region" aria-label=tr!(SizerBytesPerPath)>
                    <BreakdownTable analysis=analysis/>
                </div>
            </div>
        </section>
    }
}

/// The line under the editor: the error at its line and column (saying the last valid
/// document's figures stay), or, while the text reads, the shell syntax it takes.
fn document_status(
    error: ReadSignal<Option<ParseError>>,
    last_good: ReadSignal<Option<Analysis>>,
) -> impl IntoView {
    move || match error.get() {
        Some(e) => view! {
            <p class="error" role="alert">
                <strong>
                    {tv(
                        Msg::SizerLineColumn,
                        &[("line", e.line.to_string()), ("column", e.column.to_string())],
                    )}
                </strong>
                ": "
                {e.message.clone()}
                {last_good
                    .get()
                    .is_some()
                    .then(|| format!(" — {}", t(Msg::SizerLastValid)))}
            </p>
        }
        .into_any(),
        None => view! {
            <p class="hint">
                {t(Msg::SizerSyntax)}" "
                <code>"ObjectId(…)"</code>{t(Msg::SizerListSeparator)}
                <code>"ISODate(…)"</code>{t(Msg::SizerListSeparator)}
                <code>"NumberLong(…)"</code>{t(Msg::SizerListSeparator)}
                {t(Msg::SizerSyntaxMore)}
            </p>
        }
        .into_any(),
    }
}

/// The document's figures besides its size: the field names' share of it, the array indexes
/// (keys BSON writes for each element), the fields and the depth.
fn document_stats(analysis: Signal<Analysis>) -> impl IntoView {
    view! {
        <dl class="stats">
            <div>
                <dt>{tr!(SizerFieldNames)}</dt>
                <dd data-testid="field-name-share">
                    {move || {
                        let a = analysis.get();
                        human::percent(a.field_name_bytes as f64 / a.size.max(1) as f64)
                    }}
                </dd>
                <dd class="sub" title=move || exact_bytes(analysis.get().field_name_bytes)>{move || human::binary_size(analysis.get().field_name_bytes)}</dd>
            </div>
            <div>
                <dt>{tr!(SizerArrayIndexes)}</dt>
                <dd>{move || human::thousands(parts(&analysis.get()).indexes)}</dd>
                <dd class="sub">{tr!(SizerArrayIndexesNote)}</dd>
            </div>
            <div>
                <dt>{tr!(SizerFields)}</dt>
                <dd>{move || human::thousands(analysis.get().fields.len() as u64)}</dd>
                <dd class="sub">{tr!(SizerFieldsNote)}</dd>
            </div>
            <div>
                <dt>{tr!(SizerDepth)}</dt>
                <dd>{move || analysis.get().depth}</dd>
                <dd class="sub">{tr!(SizerDepthNote)}</dd>
            </div>
        </dl>
    }
}

/// Returns the analysis of the empty document, shown before anything valid was typed.
fn empty_analysis() -> Analysis {
    analyze_with_limit(&bson::Document::new(), MAX_ROWS)
}
