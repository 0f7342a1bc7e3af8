//! The preset chooser: a card per workshop scenario (title, one-line lesson, source article)
//! "start blank" and "start from your data" (`infer.rs`). Opening one replaces the model; the work it replaces stays undoable.

use leptos::prelude::*;
use serde_json::Value;

use super::dialog::dialog;
use super::{Notice, Workspace, BLANK};
use crate::history::Change;
use crate::lang::Msg;
use crate::model::edit::BLANK_MODEL;
use crate::presets;
use crate::ui::i18n::{lang, tr, tv};

/// Returns where a preset comes from, in the page's language: "Article 001 · tips 3, 4" for a
/// source article, "MongoDB manual: Model Tree Structures" for a published page (its title as
/// the preset's translation gives it), from the preset's `preset.source`.
fn source_of(p: &presets::Preset) -> String {
    let v: Value = serde_json::from_str(p.text).unwrap_or_default();
    let source = v.get("preset").and_then(|p| p.get("source"));
    let article = source
        .and_then(|s| s.get("article"))
        .and_then(Value::as_str)
        .unwrap_or("");
    let tips: Vec<String> = source
        .and_then(|s| s.get("tips"))
        .and_then(Value::as_array)
        .map(|t| t.iter().map(|x| x.to_string()).collect())
        .unwrap_or_default();
    let title = &p.text(lang()).source_title;
    match (article.is_empty(), tips.is_empty()) {
        (true, _) if title.is_empty() => String::new(),
        (true, _) => tv(Msg::SourcePage, &[("title", title.clone())]),
        (false, true) => tv(Msg::SourceArticle, &[("article", article.to_string())]),
        (false, false) => tv(
            Msg::SourceArticleTips,
            &[("article", article.to_string()), ("tips", tips.join(", "))],
        ),
    }
}

/// Keeps Tab and Shift+Tab inside the open dialog (it is modal): from the last control Tab
/// goes to the first, from the first Shift+Tab to the last, and from outside to the first.
pub(super) fn keep_focus_inside(ev: &web_sys::KeyboardEvent) {
    use wasm_bindgen::JsCast;
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Some(dialog) = doc.query_selector(".chooser").ok().flatten() else {
        return;
    };
    let Ok(list) = dialog.query_selector_all("button, input, select, textarea, [href]") else {
        return;
    };
    let controls: Vec<web_sys::HtmlElement> = (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<web_sys::HtmlElement>().ok())
        .collect();
    let (Some(first), Some(last)) = (controls.first(), controls.last()) else {
        return;
    };
    let active = doc.active_element();
    let inside = active
        .as_ref()
        .is_some_and(|a| dialog.contains(Some(a.as_ref())));
    let at = |el: &web_sys::HtmlElement| {
        active
            .as_ref()
            .is_some_and(|a| AsRef::<web_sys::Element>::as_ref(el) == a)
    };
    let target = if ev.shift_key() {
        (!inside || at(first)).then_some(last)
    } else {
        (!inside || at(last)).then_some(first)
    };
    if let Some(el) = target {
        ev.prevent_default();
        let _ = el.focus();
    }
}

/// The chooser dialog. `loaded` is the open preset's name (and whether it was edited).
#[component]
pub fn PresetChooser(
    /// The model.
    ws: Workspace,
    /// The loaded preset, if any.
    loaded: Memo<Option<(String, bool)>>,
    /// Closes the dialog.
    on_close: impl Fn() + Clone + Send + Sync + 'static,
    /// Opens "Start from your data" (the chooser closes first).
    on_infer: impl Fn() + Clone + Send + Sync + 'static,
) -> impl IntoView {
    let close = on_close.clone();
    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        if ev.key() == "Escape" {
            ev.prevent_default();
            close();
        } else if ev.key() == "Tab" {
            keep_focus_inside(&ev);
        }
    });
    // The button that opens the dialog gets the focus back when it closes.
    on_cleanup(move || {
        keys.remove();
        use wasm_bindgen::JsCast;
        let opener = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id("choose-preset"))
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
        if let Some(el) = opener {
            let _ = el.focus();
        }
    });
    // The loaded card (else the first) has the focus when the dialog opens.
    request_animation_frame(|| {
        use wasm_bindgen::JsCast;
        let doc = web_sys::window().and_then(|w| w.document());
        let el = doc.as_ref().and_then(|d| {
            d.query_selector(".preset-card[aria-current=\"true\"]")
                .ok()
                .flatten()
                .or_else(|| d.query_selector(".preset-card").ok().flatten())
        });
        if let Some(el) = el.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = el.focus();
        }
    });
    let is_loaded = move |name: &str| loaded.with(|l| l.as_ref().is_some_and(|(n, _)| n == name));
    let close_blank = on_close.clone();
    let open_blank = move |_| {
        ws.replace(
            BLANK_MODEL.to_string(),
            Change::Preset,
            Notice::Preset {
                name: BLANK.to_string(),
            },
        );
        close_blank();
    };
    let cards = view! {
                <ul class="preset-cards">
                    <li>
                        <button
                            type="button"
                            class="preset-card blank-card"
                            data-preset="blank"
                            aria-current=move || is_loaded(BLANK).to_string()
                            on:click=open_blank
                        >
                            <span class="preset-source">{tr!(YourOwn)}</span>
                            <span class="preset-title">{tr!(StartBlank)}</span>
                            <span class="preset-lesson">{tr!(StartBlankLesson)}</span>
                            {move || is_loaded(BLANK).then(|| view! { <span class="badge loaded-badge">{tr!(LoadedBadge)}</span> })}
                        </button>
                    </li>
                    <li>
                        <button
                            type="button"
                            class="preset-card blank-card infer-card"
                            data-preset="infer"
                            on:click=move |_| on_infer()
                        >
                            <span class="preset-source">{tr!(YourData)}</span>
                            <span class="preset-title">{tr!(StartFromData)}</span>
                            <span class="preset-lesson">{tr!(StartFromDataLesson)}</span>
                        </button>
                    </li>
                    {presets::all().iter().map(|p| {
                        let close = on_close.clone();
                        let open = move |_| {
                            ws.replace(p.text.to_string(), Change::Preset, Notice::Preset { name: p.name.to_string() });
                            close();
                        };
                        view! {
                            <li>
                                <button
                                    type="button"
                                    class="preset-card"
                                    data-preset=p.name
                                    aria-current=move || is_loaded(p.name).to_string()
                                    on:click=open
                                >
                                    <span class="preset-source">{move || source_of(p)}</span>
                                    <span class="preset-title">{move || p.text(lang()).title.clone()}</span>
                                    <span class="preset-lesson" title=move || p.text(lang()).lesson.clone()>{move || p.text(lang()).lesson.clone()}</span>
                                    {move || is_loaded(p.name).then(|| view! { <span class="badge loaded-badge">{tr!(LoadedBadge)}</span> })}
                                </button>
                            </li>
                        }
                    }).collect_view()}
                </ul>
    };
    dialog(
        "chooser",
        "chooser-title",
        (Msg::ChooserTitle, Msg::ChooserNote),
        on_close,
        cards,
    )
}
