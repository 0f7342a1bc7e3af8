//! The Custom design: the last entry of the design bar, for every model, evaluating the model's
//! own `design` (`eval::evaluate_offered(model, "custom")`, what `squillion eval MODEL` runs),
//! and its strategy picker: one select per relationship listing the strategies it may take
//! ([`crate::design::strategies_for`], validation's own rule), with the strategy's number
//! parameter. A change is a form edit of the model's JSON ([`crate::model::edit::set_strategy`]):
//! one undo step, seen by the JSON, the forms, autosave and the share link.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::label;
use crate::design::{resolve, strategies_for, DesignSpec, Strategy};
use crate::model::{edit, Model};
use crate::ui::editor::Workspace;

/// The Custom design's name, as the pipeline and `squillion eval --design` know it.
pub const CUSTOM: &str = "custom";

/// Returns the design Custom starts from when the bar moves to it from the preset's design at
/// `from`: that design, as long as the model's own design is still the one the preset ships
/// with (a design already customized is kept). `None`: nothing to write.
pub fn seed(model: &Model, from: usize) -> Option<DesignSpec> {
    model.preset.as_ref()?;
    let shipped = crate::presets::get(model.name.as_deref()?)?
        .model()
        .ok()?
        .design;
    if model.design != shipped {
        return None;
    }
    let (_, m) = model.offered_designs().into_iter().nth(from)?;
    (m.design != model.design).then_some(m.design)
}

/// One relationship as the picker lists it: name, `parent → child`, the strategies it may
/// take (with default parameters). Changes only when the relationships do.
type Shape = (String, String, Vec<Strategy>);

fn shapes(m: &Model) -> Vec<Shape> {
    m.relationships
        .iter()
        .map(|r| {
            let ends = format!("{} → {}", r.parent, r.child);
            (r.name.clone(), ends, strategies_for(m, &r.name))
        })
        .collect()
}

/// What a strategy's number parameter is called on the page.
fn parameter_label(key: &str) -> &'static str {
    match key {
        "k" => "Children kept (k)",
        "size" => "Bucket size",
        _ => "Ids per document",
    }
}

/// The strategy picker of the Custom design.
#[component]
pub fn StrategyPicker(
    /// The model being edited.
    ws: Workspace,
    /// The model shown (the last valid one).
    model: ReadSignal<Option<Model>>,
) -> impl IntoView {
    let shape = Memo::new(move |_| model.with(|m| m.as_ref().map(shapes).unwrap_or_default()));
    // Each relationship's strategy under the model's design, and whether it is an override.
    let current = Memo::new(move |_| {
        model.with(|m| {
            m.as_ref()
                .map(|m| {
                    resolve(m, &m.design)
                        .into_iter()
                        .map(|(n, s)| {
                            let o = m.design.relationships.contains_key(&n);
                            (n, s, o)
                        })
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    });
    let base = move || {
        model.with(|m| {
            let b = m
                .as_ref()
                .map(|m| m.design.base.as_str())
                .unwrap_or_default();
            format!(
                "Others follow the base design ({}). Each change is one undo step.",
                label(b)
            )
        })
    };
    let error = RwSignal::new(None::<String>);
    view! {
        <section class="card strategies" aria-labelledby="strategies-title">
            <div class="card-head">
                <h2 id="strategies-title">"Custom design: a strategy per relationship"</h2>
                <p class="card-note">{base}</p>
            </div>
            <div class="strategy-rows">
                {move || {
                    let rows = shape.get();
                    if rows.is_empty() {
                        return view! { <p class="muted">"This model has no relationships: every entity is its own collection."</p> }.into_any();
                    }
                    rows.into_iter().map(|(name, ends, choices)| row(ws, name, ends, choices, current, error)).collect_view().into_any()
                }}
            </div>
            {move || error.get().map(|e| view! { <p class="error strategy-error" role="alert">{e}</p> })}
        </section>
    }
}

/// One relationship's row: its select, its number parameter, where its strategy comes from.
fn row(
    ws: Workspace,
    name: String,
    ends: String,
    choices: Vec<Strategy>,
    current: Memo<Vec<(String, Strategy, bool)>>,
    error: RwSignal<Option<String>>,
) -> impl IntoView {
    let mine = Memo::new({
        let name = name.clone();
        move |_| current.with(|c| c.iter().find(|x| x.0 == name).map(|x| (x.1.clone(), x.2)))
    });
    let strategy = move || mine.with(|m| m.as_ref().map(|m| m.0.clone()));
    let chosen = move || mine.with(|m| m.as_ref().map(|m| m.0.name()).unwrap_or_default());
    let key =
        Memo::new(move |_| mine.with(|m| m.as_ref().and_then(|m| m.0.parameter()).map(|p| p.0)));
    let value = move || {
        mine.with(|m| {
            m.as_ref()
                .and_then(|m| m.0.parameter())
                .map(|p| p.1.to_string())
        })
        .unwrap_or_default()
    };
    // Writes `s`; a refusal is shown under the picker (not twice) and changes nothing.
    let commit = {
        let name = name.clone();
        move |s: &Strategy| -> bool {
            let ok = ws.edit(|v| edit::set_strategy(v, &name, s));
            error.set(if ok { None } else { ws.message.get_untracked() });
            ws.message.set(None);
            ok
        }
    };
    let id = format!("strategy-{name}");
    let param_id = format!("{id}-parameter");
    let options = choices
        .iter()
        .map(|s| {
            let n = s.name();
            view! { <option value=n selected=chosen() == n>{label(n)}</option> }
        })
        .collect_view();
    let on_select = {
        let commit = commit.clone();
        move |ev: leptos::ev::Event| {
            let picked = event_target_value(&ev);
            let ok = choices
                .iter()
                .find(|s| s.name() == picked)
                .is_some_and(&commit);
            if !ok {
                if let Some(el) = ev
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::HtmlSelectElement>().ok())
                {
                    el.set_value(chosen());
                }
            }
        }
    };
    let on_number = move |ev: leptos::ev::Event| {
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        let typed = input.value();
        let ok = match (typed.trim().parse::<u64>(), strategy()) {
            (Ok(n), Some(s)) => commit(&s.with_parameter(n)),
            _ => {
                error.set(Some(format!(
                    "“{}” is not a whole number of at least 1.",
                    typed.trim()
                )));
                false
            }
        };
        if !ok {
            input.set_value(&value());
        }
    };
    let param = move || {
        key.get().map(|k| {
            view! {
                <label class="num-field" for=param_id.clone()>{parameter_label(k)}</label>
                <input
                    id=param_id.clone()
                    type="number"
                    min="1"
                    step="1"
                    inputmode="numeric"
                    class="num-input strategy-parameter"
                    prop:value=value
                    data-committed=value
                    on:change=on_number.clone()
                />
            }
        })
    };
    let rel = name.clone();
    view! {
        <div class="strategy-row" data-relationship=rel>
            <label class="strategy-name" for=id.clone()>
                <code>{name}</code>
                <span class="muted">{ends}</span>
            </label>
            <select id=id class="strategy-select" prop:value=chosen on:change=on_select>
                {options}
            </select>
            <span class="strategy-param">{param}</span>
            <span class="strategy-origin muted">
                {move || if mine.with(|m| m.as_ref().is_some_and(|m| m.1)) { "override" } else { "from base" }}
            </span>
        </div>
    }
}
