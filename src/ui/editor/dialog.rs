//! The frame the editor's modal dialogs share (the preset chooser, "Start from your data"): a
//! backdrop that closes the dialog when clicked outside it, and a head with the title, a note
//! and the close button. Escape is each dialog's own (it may first cancel work under way).

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::lang::Msg;
use crate::ui::i18n::{t, tr};

/// Returns a modal dialog around `body`: `class` the dialog box's classes (`chooser`, plus
/// the dialog's own), `title_id` the id of its title (`aria-labelledby`), `title` and `note`
/// its head in the page's language, `close` what the close button and a click on the
/// backdrop do.
pub fn dialog(
    class: &'static str,
    title_id: &'static str,
    (title, note): (Msg, Msg),
    close: impl Fn() + Clone + Send + Sync + 'static,
    body: impl IntoView + 'static,
) -> impl IntoView {
    let close_x = close.clone();
    view! {
        <div
            class="chooser-backdrop"
            on:click=move |ev| {
                let on_backdrop = ev
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .is_some_and(|e| e.class_list().contains("chooser-backdrop"));
                if on_backdrop {
                    close();
                }
            }
        >
            <div class=class role="dialog" aria-modal="true" aria-labelledby=title_id>
                <div class="chooser-head">
                    <div>
                        <h2 id=title_id>{move || t(title)}</h2>
                        <p class="muted">{move || t(note)}</p>
                    </div>
                    <button type="button" class="icon-button" aria-label=tr!(Close) title=tr!(CloseEsc) on:click=move |_| close_x()>"×"</button>
                </div>
                {body}
            </div>
        </div>
    }
}
