//! The form controls shared by the editor's sections: a value read from the model at a JSON
//! pointer, a name that commits on change (and reverts when the edit is refused), a number.
//!
//! Inputs commit on `change` (Enter, Tab or leaving the field), so each commit is one undo
//! step; `data-committed` holds the model's value, so Ctrl+Z in a field with uncommitted
//! typing is left to the browser.

use leptos::prelude::*;
use serde_json::Value;
use wasm_bindgen::JsCast;

use super::Workspace;
use crate::model::edit;

/// Returns a JSON value as a form shows it: a string as itself, a number in its shortest
/// form, anything else empty.
pub fn shown(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => String::new(),
    }
}

/// Returns the value at JSON pointer `path` of the model, as shown in a form.
pub fn text_at(ws: Workspace, path: String) -> Memo<String> {
    Memo::new(move |_| {
        ws.doc
            .with(|d| shown(d.as_ref().and_then(|d| d.pointer(&path))))
    })
}

/// Returns the input an event came from.
pub fn input_of(ev: &leptos::ev::Event) -> Option<web_sys::HtmlInputElement> {
    ev.target()?.dyn_into().ok()
}

/// A labelled text input for a name; `commit` gets the new name and returns false when the
/// edit was refused (the field then shows the old name again).
#[component]
pub fn NameInput(
    /// The current name.
    value: String,
    /// The accessible label.
    label: String,
    /// Applies the new name; false when refused.
    commit: Callback<String, bool>,
    /// Extra class.
    #[prop(optional)]
    class: &'static str,
) -> impl IntoView {
    let old = value.clone();
    view! {
        <input
            type="text"
            class=format!("name-input {class}")
            spellcheck="false"
            aria-label=label
            prop:value=value.clone()
            data-committed=value
            on:change=move |ev| {
                let Some(input) = input_of(&ev) else { return };
                let new = input.value().trim().to_string();
                if new == old || !commit.run(new) {
                    input.set_value(&old);
                }
            }
        />
    }
}

/// A labelled number input bound to `key` of the object at `parent`. Emptying an optional
/// number removes the key; anything that is not a number is refused.
#[component]
pub fn NumberInput(
    /// The model.
    ws: Workspace,
    /// JSON pointer of the object holding the number.
    parent: String,
    /// The key of the number.
    key: String,
    /// The visible label.
    label: String,
    /// The accessible label, when the visible one is too short to say what it is.
    #[prop(optional)]
    aria: Option<String>,
    /// True when the key may be absent (emptying the field removes it).
    #[prop(optional)]
    optional: bool,
    /// Placeholder shown when the key is absent.
    #[prop(optional)]
    placeholder: &'static str,
) -> impl IntoView {
    let current = text_at(ws, format!("{parent}{}", edit::pointer(&[key.as_str()])));
    let aria = aria.unwrap_or_else(|| label.clone());
    view! {
        <label class="num-field">
            <span>{label}</span>
            <input
                type="text"
                inputmode="decimal"
                class="num-input"
                aria-label=aria
                placeholder=placeholder
                prop:value=move || current.get()
                data-committed=move || current.get()
                on:change=move |ev| {
                    let Some(input) = input_of(&ev) else { return };
                    let typed = input.value();
                    let ok = if typed.trim().is_empty() && optional {
                        ws.set(&parent, &key, None)
                    } else {
                        match edit::number_value(&typed) {
                            Some(n) => ws.set(&parent, &key, Some(n)),
                            None => {
                                ws.message.set(Some(format!("“{}” is not a number.", typed.trim())));
                                false
                            }
                        }
                    };
                    if !ok {
                        input.set_value(&current.get_untracked());
                    }
                }
            />
        </label>
    }
}

/// ↑ and ↓ buttons that move item `index` of the array at JSON pointer `list` one place, one
/// undo step each; the first cannot go up, the last cannot go down.
#[component]
pub fn MoveButtons(
    /// The model.
    ws: Workspace,
    /// JSON pointer of the array (`/entities`, `/workload/0/steps`).
    list: String,
    /// The item's place in it.
    index: usize,
    /// True for the last item.
    last: bool,
    /// What the item is, for the buttons' labels (`entity user`, `step 2`).
    #[prop(into)]
    what: Signal<String>,
) -> impl IntoView {
    let moving = move |up: bool| {
        let list = list.clone();
        move |_| {
            let list = list.clone();
            ws.edit(move |v| {
                edit::move_item(v, &list, index, up);
                Ok(())
            });
        }
    };
    view! {
        <button type="button" class="icon-button" disabled=index == 0 on:click=moving(true)
            aria-label=move || format!("Move {} up", what.get()) title="Move up">"↑"</button>
        <button type="button" class="icon-button" disabled=last on:click=moving(false)
            aria-label=move || format!("Move {} down", what.get()) title="Move down">"↓"</button>
    }
}
