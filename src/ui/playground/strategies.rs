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

/// One relationship as the picker shows it.
#[derive(Debug, Clone, PartialEq)]
struct Row {
    name: String,
    ends: String,
    /// The strategies it may take, with default parameters.
    choices: Vec<Strategy>,
    /// Its strategy under the model's design.
    current: Strategy,
    /// True when the design overrides the base for it.
    overridden: bool,
}

fn rows(m: &Model) -> Vec<Row> {
    resolve(m, &m.design)
        .into_iter()
        .zip(&m.relationships)
        .map(|((name, current), r)| Row {
            choices: strategies_for(m, &name),
            overridden: m.design.relationships.contains_key(&name),
            ends: format!("{} → {}", r.parent, r.child),
            name,
            current,
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
    let all = Memo::new(move |_| model.with(|m| m.as_ref().map(rows).unwrap_or_default()));
    let base = Memo::new(move |_| {
        model.with(|m| {
            m.as_ref()
                .map(|m| label(m.design.base.as_str()))
                .unwrap_or_default()
        })
    });
    let error = RwSignal::new(None::<String>);
    // Writes `s` for `rel`; a refusal is shown here (not twice) and changes nothing.
    let commit = move |rel: &str, s: &Strategy| -> bool {
        let ok = ws.edit(|v| edit::set_strategy(v, rel, s));
        error.set(if ok { None } else { ws.message.get_untracked() });
        ws.message.set(None);
        ok
    };
    view! {
        <section class="card strategies" aria-labelledby="strategies-title">
            <div class="card-head">
                <h2 id="strategies-title">"Custom design: a strategy per relationship"</h2>
                <p class="card-note">
                    {move || format!("Others follow the base design ({}). Each change is one undo step.", base.get())}
                </p>
            </div>
            <div class="strategy-rows">
                <For
                    each=move || all.get()
                    key=|r| (r.name.clone(), r.choices.iter().map(Strategy::name).collect::<Vec<_>>())
                    children=move |row| {
                        let name = row.name.clone();
                        let id = format!("strategy-{}", row.name);
                        let current = Memo::new({
                            let name = name.clone();
                            move |_| all.with(|rs| rs.iter().find(|r| r.name == name).map(|r| (r.current.clone(), r.overridden)))
                        });
                        let chosen = move || current.with(|c| c.as_ref().map(|c| c.0.name()).unwrap_or_default());
                        let key = Memo::new(move |_| current.with(|c| c.as_ref().and_then(|c| c.0.parameter()).map(|p| p.0)));
                        let value = move || current.with(|c| c.as_ref().and_then(|c| c.0.parameter()).map(|p| p.1.to_string()).unwrap_or_default());
                        let choices = row.choices.clone();
                        let on_select = {
                            let name = name.clone();
                            move |ev: leptos::ev::Event| {
                                let picked = event_target_value(&ev);
                                let Some(s) = choices.iter().find(|s| s.name() == picked) else { return };
                                if !commit(&name, s) {
                                    if let Some(el) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlSelectElement>().ok()) {
                                        el.set_value(chosen());
                                    }
                                }
                            }
                        };
                        let param_id = format!("strategy-{}-parameter", row.name);
                        let param = move || key.get().map(|k| {
                            let name = name.clone();
                            view! {
                                <label class="num-field" for=param_id.clone()>{parameter_label(k)}</label>
                                <input
                                    id=param_id.clone()
                                    type="number"
                                    min="1"
                                    step="1"
                                    inputmode="numeric"
                                    class="num-input strategy-parameter"
                                    data-parameter=k
                                    prop:value=value
                                    data-committed=value
                                    on:change=move |ev| {
                                        let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
                                        let typed = input.value();
                                        let Some((s, _)) = current.get_untracked() else { return };
                                        let ok = match typed.trim().parse::<u64>() {
                                            Ok(n) => commit(&name, &s.with_parameter(n)),
                                            Err(_) => {
                                                error.set(Some(format!("{}: “{}” is not a whole number of at least 1.", parameter_label(k), typed.trim())));
                                                false
                                            }
                                        };
                                        if !ok {
                                            input.set_value(&value());
                                        }
                                    }
                                />
                            }
                        });
                        view! {
                            <div class="strategy-row" data-relationship=row.name.clone()>
                                <label class="strategy-name" for=id.clone()>
                                    <code>{row.name.clone()}</code>
                                    <span class="muted">{row.ends.clone()}</span>
                                </label>
                                <select id=id class="strategy-select" prop:value=chosen on:change=on_select>
                                    {row.choices.iter().map(|s| {
                                        let n = s.name();
                                        view! { <option value=n selected=move || chosen() == n>{label(n)}</option> }
                                    }).collect_view()}
                                </select>
                                <span class="strategy-param">{param}</span>
                                <span class="strategy-origin muted">
                                    {move || if current.with(|c| c.as_ref().is_some_and(|c| c.1)) { "override" } else { "from base" }}
                                </span>
                            </div>
                        }
                    }
                />
                {move || all.with(Vec::is_empty).then(|| view! {
                    <p class="muted">"This model has no relationships: every entity is its own collection."</p>
                })}
            </div>
            {move || error.get().map(|e| view! { <p class="error strategy-error" role="alert">{e}</p> })}
        </section>
    }
}
