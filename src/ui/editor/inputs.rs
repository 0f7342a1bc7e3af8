//! The form controls shared by the editor's sections: a value read from the model at a JSON
//! pointer, a name that commits on change (and reverts when the edit is refused), a number.
//!
//! Inputs commit on `change` (Enter, Tab or leaving the field), so each commit is one undo
//! step; `data-committed` holds the model's value, so Ctrl+Z in a field with uncommitted
//! typing is left to the browser.

use leptos::prelude::*;

use crate::lang::{Lang, Msg};
use crate::ui::i18n::{tr, tv};
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

/// Returns a refusal as a sentence beside its field: `There is already an entity named “post”.`
/// (`已经有名为“post”的实体。` in Chinese, which has no capitals and ends with 。).
fn sentence(message: &str, lang: Lang) -> String {
    let s = crate::human::capitalize(message);
    let stop = match lang {
        Lang::En => '.',
        Lang::ZhCn => '。',
    };
    if s.ends_with(['.', '!', '?', '。', '！', '？']) {
        s
    } else {
        format!("{s}{stop}")
    }
}

/// A labelled text input for a name; `commit` gets the new name and returns false when the
/// edit was refused: the field then shows the old name again and, beside it, why (the name
/// taken or invalid, the references it would break), as the form's message says it above.
#[component]
pub fn NameInput(
    /// The model (its message says why the last edit was refused).
    ws: Workspace,
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
    let mine = label.clone();
    // Why this field's rename was refused, while that refusal is the form's last word.
    let problem = Memo::new(move |_| {
        let refused = ws
            .refused_name
            .with(|r| r.as_deref() == Some(mine.as_str()));
        refused
            .then(|| {
                ws.message.with(|m| {
                    m.as_ref().map(|m| {
                        let lang = crate::ui::i18n::lang();
                        sentence(&m.render(lang), lang)
                    })
                })
            })
            .flatten()
    });
    let own = label.clone();
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
                if new == old {
                    input.set_value(&old);
                } else if !commit.run(new) {
                    input.set_value(&old);
                    ws.refused_name.set(Some(own.clone()));
                }
            }
        />
        {move || problem.get().map(|m| view! { <span class="field-problem name-problem">{m}</span> })}
    }
}

/// Numbers of one object that must stay in ascending order (a distribution's, a growth's):
/// a number typed moves the others of the group to it instead of being refused, and the group
/// says which moved.
#[derive(Debug, Clone, Copy)]
pub struct Group {
    /// The keys, in ascending order ([`edit::ordered_keys`]).
    pub order: &'static [&'static str],
    /// What the last edit moved, said beside the group.
    pub moved: RwSignal<Option<String>>,
}

/// Returns what an edit of `key` to `value` moved, in words: `p99 and max raised to 200,000`.
fn moved_words(key: &str, value: &Value, moved: &[String], order: &[&str]) -> Option<String> {
    let first = moved.first()?;
    let up = order.iter().position(|k| *k == first.as_str()) > order.iter().position(|k| *k == key);
    let shown = match value.as_f64() {
        Some(x) if x.fract() == 0.0 && (0.0..9e15).contains(&x) => {
            crate::human::thousands(x as u64)
        }
        _ => value.to_string(),
    };
    let names = match moved {
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
        [] => return None,
    };
    Some(format!(
        "{names} {} to {shown} to stay {} {key}.",
        if up { "raised" } else { "lowered" },
        if up { "at least" } else { "at most" },
    ))
}

/// A labelled number input bound to `key` of the object at `parent`. Emptying an optional
/// number removes the key; anything that is not a number is refused, said beside the field,
/// as is any problem validation finds at it.
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
    placeholder: String,
    /// The ordered group the number belongs to, if any.
    #[prop(optional)]
    group: Option<Group>,
) -> impl IntoView {
    let pointer = format!("{parent}{}", edit::pointer(&[key.as_str()]));
    let path = edit::path_of_pointer(&pointer);
    let current = text_at(ws, pointer);
    let aria = aria.unwrap_or_else(|| label.clone());
    // What was typed and refused (not a number), until the next commit.
    let refused = RwSignal::new(None::<String>);
    let problem = Memo::new(move |_| {
        refused.get().or_else(|| {
            ws.problems.with(|ps| {
                ps.iter()
                    .find(|p| p.path == path)
                    .map(|p| p.message.clone())
            })
        })
    });
    let commit = move |typed: String| -> bool {
        if typed.trim().is_empty() && optional {
            return ws.set(&parent, &key, None);
        }
        let Some(n) = edit::number_value(&typed) else {
            refused.set(Some(tv(
                Msg::NotANumber,
                &[("typed", typed.trim().to_string())],
            )));
            return false;
        };
        let Some(g) = group else {
            return ws.set(&parent, &key, Some(n));
        };
        let (parent, key) = (parent.clone(), key.clone());
        let mut moved = Vec::new();
        let ok = ws.edit(|v| {
            moved = edit::set_in_order(v, &parent, g.order, &key, n.clone()).unwrap_or_default();
            Ok(())
        });
        g.moved.set(moved_words(&key, &n, &moved, g.order));
        ok
    };
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
                aria-invalid=move || problem.with(Option::is_some).to_string()
                on:change=move |ev| {
                    let Some(input) = input_of(&ev) else { return };
                    refused.set(None);
                    if !commit(input.value()) {
                        input.set_value(&current.get_untracked());
                    }
                }
            />
            {move || problem.get().map(|m| view! { <span class="field-problem" role="alert">{m}</span> })}
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
            aria-label=move || tv(Msg::MoveWhatUp, &[("what", what.get())]) title=tr!(MoveUp)>"↑"</button>
        <button type="button" class="icon-button" disabled=last on:click=moving(false)
            aria-label=move || tv(Msg::MoveWhatDown, &[("what", what.get())]) title=tr!(MoveDown)>"↓"</button>
    }
}
