//! The JSON tab's text area, with a syntax error shown where it is: the message just above the
//! text (its place said once, "line 86, column 7: trailing comma"), the line marked in the
//! text, and the text scrolled to it — when the error appears while the user is elsewhere (a
//! reload, an undo, the JSON tab opened), when the user leaves the text, or on the message's
//! "Show" button. While the user types, the text is never scrolled away from the caret: the
//! mark follows the line.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::Workspace;
use crate::history::Change;
use crate::lang::{Lang, Text};
use crate::model::ModelError;

/// Where a syntax error is: 1-based line and column, and why (in the page's language).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Syntax {
    line: usize,
    column: usize,
    message: String,
}

/// Returns the syntax error among `errors`, if any (a syntax error is the only problem then),
/// its place and message in `lang` ("第 2 行，第 14 列：JSON 语法错误：trailing comma").
fn syntax(errors: &[ModelError], lang: Lang) -> Option<Syntax> {
    errors.iter().find_map(|e| {
        Some(Syntax {
            line: e.line?,
            column: e.column?,
            message: e.to_string_in(lang),
        })
    })
}

/// The text area's line height, top padding and the width of one character, in CSS pixels.
struct Metrics {
    line: f64,
    top: f64,
    left: f64,
    char_width: f64,
}

/// Returns the text area's metrics from its computed style.
fn metrics(area: &web_sys::HtmlTextAreaElement) -> Option<Metrics> {
    let style = web_sys::window()?.get_computed_style(area).ok()??;
    let px = |name: &str| {
        style
            .get_property_value(name)
            .ok()
            .and_then(|v| v.trim_end_matches("px").trim().parse::<f64>().ok())
    };
    let font = px("font-size").unwrap_or(12.0);
    Some(Metrics {
        line: px("line-height").unwrap_or(font * 1.5),
        top: px("padding-top").unwrap_or(0.0) + px("border-top-width").unwrap_or(0.0),
        left: px("padding-left").unwrap_or(0.0),
        // A monospace digit is about 0.6 em wide.
        char_width: font * 0.6,
    })
}

/// Scrolls the text area to `s` (the line in the middle, the column in view) and the page so
/// that the text area's marked line is in the viewport.
fn reveal(area: &web_sys::HtmlTextAreaElement, s: &Syntax) {
    let Some(m) = metrics(area) else { return };
    let height = f64::from(area.client_height());
    if height <= 0.0 {
        return; // hidden (the Form tab is open)
    }
    let y = m.line * (s.line.saturating_sub(1)) as f64;
    area.set_scroll_top((y - height / 2.0 + m.line).max(0.0) as i32);
    let x = m.left + m.char_width * (s.column.saturating_sub(1)) as f64;
    let width = f64::from(area.client_width());
    area.set_scroll_left(if x < width * 0.8 {
        0
    } else {
        (x - width / 2.0) as i32
    });
    // The page: the marked line within the viewport (the text area may be taller).
    let top = area.get_bounding_client_rect().top() + m.top + y - f64::from(area.scroll_top());
    let viewport = web_sys::window()
        .and_then(|w| w.inner_height().ok())
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    if top < 80.0 || top > viewport - 80.0 {
        if let Some(w) = web_sys::window() {
            w.scroll_by_with_x_and_y(0.0, top - viewport / 2.0);
        }
    }
}

/// The JSON text area with its syntax error marked.
#[component]
pub fn JsonArea(
    /// The model being edited.
    ws: Workspace,
    /// The problems of the current text.
    errors: ReadSignal<Vec<ModelError>>,
    /// True while the JSON tab is open.
    #[prop(into)]
    open: Signal<bool>,
) -> impl IntoView {
    let area = NodeRef::<leptos::html::Textarea>::new();
    // When the key that makes the next `input` was pressed: the browser stamps a key when it
    // is pressed, before the page handles it (the undo history's clock, `performance.now()`).
    let pressed_at = StoredValue::new(None::<f64>);
    let found = Memo::new(move |_| {
        let lang = crate::ui::i18n::lang();
        errors.with(|e| syntax(e, lang))
    });
    // Scroll offset of the text, so the mark follows its line.
    let scrolled = RwSignal::new(0.0_f64);
    let show = move || {
        if let (Some(a), Some(s)) = (area.get_untracked(), found.get_untracked()) {
            reveal(&a, &s);
            scrolled.set(f64::from(a.scroll_top()));
        }
    };
    // A new error while the user is elsewhere, or the JSON tab opened on one: go there.
    Effect::new(move |_| {
        let (s, open) = (found.get(), open.get());
        let Some(a) = area.get() else { return };
        let focused = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.active_element())
            .is_some_and(|e| e.id() == a.id());
        if s.is_some() && open && !focused {
            request_animation_frame(show);
        }
    });
    let mark_style = move || {
        let s = found.get()?;
        let _ = open.get();
        let a = area.get()?;
        let m = metrics(&a)?;
        let top = m.top + m.line * (s.line.saturating_sub(1)) as f64 - scrolled.get();
        let inside = top >= 0.0 && top + m.line <= f64::from(a.client_height()) + m.top;
        inside.then(|| format!("top: {top:.1}px; height: {:.1}px;", m.line))
    };
    let jump = move |_| {
        if let (Some(a), Some(s)) = (area.get_untracked(), found.get_untracked()) {
            // The caret at the error, in UTF-16 units as the text area counts them.
            let text = a.value();
            let at: usize = text
                .split('\n')
                .take(s.line.saturating_sub(1))
                .map(|l| l.encode_utf16().count() + 1)
                .sum::<usize>()
                + s.column.saturating_sub(1);
            let at = u32::try_from(at).unwrap_or(u32::MAX);
            let _ = a.set_selection_range(at, at);
            let _ = a.focus();
            // Focusing scrolls the text to where its caret was: to the error again.
            show();
        }
    };
    view! {
        {move || found.get().map(|s| view! {
            <p class="error json-error" id="json-error" role="alert" data-line=s.line>
                <span>{s.message}</span>
                " "
                <button type="button" class="link-button" on:click=jump>{Text::new("problem-show-line").arg("line", s.line).render(crate::ui::i18n::lang())}</button>
            </p>
        })}
        <div class="json-area">
            <textarea
                node_ref=area
                id="model-input"
                class="doc-input model-input"
                wrap="off"
                spellcheck="false"
                prop:value=move || ws.text.get()
                on:keydown=move |ev| pressed_at.set_value(Some(ev.time_stamp()))
                // A key that made no input (an arrow, a shortcut) leaves no time behind for a
                // later input without a key of its own (a paste from the menu, a drop).
                on:keyup=move |_| pressed_at.set_value(None)
                on:input=move |ev| {
                    // The keystroke's own time, not the moment the page got round to it: a key
                    // pressed while an analysis ran waits for it, and its burst must not break.
                    let at = pressed_at.try_update_value(Option::take).flatten();
                    ws.record_at(event_target_value(&ev), Change::Typing, at);
                }
                on:scroll=move |ev| {
                    if let Some(a) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlTextAreaElement>().ok()) {
                        scrolled.set(f64::from(a.scroll_top()));
                    }
                }
                on:blur=move |_| {
                    if found.get_untracked().is_some() {
                        show();
                    }
                }
                aria-invalid=move || (!errors.get().is_empty()).to_string()
                aria-describedby=move || found.get().map(|_| "json-error")
            ></textarea>
            {move || mark_style().map(|style| view! {
                <div class="json-mark" aria-hidden="true" style=style></div>
            })}
        </div>
    }
}
