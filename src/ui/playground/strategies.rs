//! The Custom design: the last entry of the design bar, for every model, evaluating the model's
//! own `design` (`eval::evaluate_offered(model, "custom")`, what `squillion eval MODEL` runs),
//! and its strategy picker: one select per relationship listing the strategies it may take
//! ([`crate::design::strategies_for`], validation's own rule), with the strategy's number
//! parameter, the fields it copies (an extended reference's child fields, a reference in child's
//! parent fields) and, for an override, a way back to the base. Above the rows: the base design
//! and how reads join collections. Every change is a form edit of the model's JSON
//! ([`crate::model::edit::set_strategy`], `set_base`, `clear_strategy`, `set_copied`,
//! `set_joins`): one undo step, seen by the JSON, the forms, autosave and the share link.

use leptos::prelude::*;

use crate::lang::Msg;
use crate::ui::i18n::{t, tr, tv};
use wasm_bindgen::JsCast;

use crate::design::{resolve, strategies_for, DesignName, DesignSpec, Joins, Strategy};
use crate::eval::offer::label;
use crate::model::{edit, Model};
use crate::ui::editor::Workspace;

/// The design Custom starts from, shown but not yet written into the model.
#[derive(Debug, Clone, PartialEq)]
pub struct Seed {
    /// The model's text when Custom was chosen (its design the preset's own).
    text: std::sync::Arc<str>,
    /// The design Custom shows instead (the preset's design the bar came from).
    design: DesignSpec,
}

impl Seed {
    /// Returns the design Custom shows for the model `text`: the seed while the text is the one
    /// Custom was chosen on (an undo back there shows it again), `None` once anything changed.
    ///
    /// The text, not the design, decides: the user's first change writes the seed with it, and
    /// that change may give a design equal to the preset's own (picking, on a preset's
    /// `normalized`, the very strategy the preset ships with), which must then be shown as
    /// written, not as the seed.
    pub fn applies(&self, text: &str) -> Option<DesignSpec> {
        (*self.text == *text).then(|| self.design.clone())
    }
}

/// Returns the design Custom starts from when the bar moves to it from the preset's design
/// `from` (an offer id) on the model `text`: that design, as long as the model's own design is
/// still the one the preset ships with (a design already customized is kept). `None`: Custom
/// shows the model's.
pub fn seed(model: &Model, text: &std::sync::Arc<str>, from: &str) -> Option<Seed> {
    model.preset.as_ref()?;
    let shipped = crate::presets::get(model.name.as_deref()?)?
        .model()
        .ok()?
        .design;
    if model.design != shipped {
        return None;
    }
    let o = crate::eval::offer::offer(model, from)?;
    (o.design != model.design).then(|| Seed {
        text: text.clone(),
        design: o.design,
    })
}

/// Returns the model `text` with `design` as its design (pretty JSON, as a form edit writes
/// it): what Custom evaluates while its seed is shown.
pub fn seeded_text(text: &str, design: &DesignSpec) -> Option<std::sync::Arc<str>> {
    let mut v: serde_json::Value = serde_json::from_str(text).ok()?;
    edit::set_design(&mut v, design).ok()?;
    Some(std::sync::Arc::from(edit::pretty(&v)))
}

/// One relationship as the picker lists it. Changes only when the relationships or the
/// entities' fields do.
#[derive(Clone, PartialEq)]
struct Shape {
    /// The relationship's name.
    name: String,
    /// `parent → child`.
    ends: String,
    /// The parent entity.
    parent: String,
    /// The child entity.
    child: String,
    /// The strategies it may take, with default parameters.
    choices: Vec<Strategy>,
    /// The fields an extended reference may copy (the child's, without `_id`).
    child_fields: Vec<String>,
    /// The fields a reference in child may copy (the parent's, without `_id`).
    parent_fields: Vec<String>,
}

fn shapes(m: &Model) -> Vec<Shape> {
    let fields = |entity: &str| -> Vec<String> {
        m.entity(entity)
            .map(|e| e.field_names())
            .unwrap_or_default()
    };
    m.relationships
        .iter()
        .map(|r| Shape {
            name: r.name.clone(),
            ends: format!("{} → {}", r.parent, r.child),
            parent: r.parent.clone(),
            child: r.child.clone(),
            choices: strategies_for(m, &r.name),
            child_fields: fields(&r.child),
            parent_fields: fields(&r.parent),
        })
        .collect()
}

/// What a strategy's number parameter is called on the page.
fn parameter_label(key: &str) -> String {
    t(match key {
        "k" => Msg::ParamK,
        "size" => Msg::ParamSize,
        _ => Msg::ParamIds,
    })
}

/// What strategy `name` (as written in a model) is called in the Custom picker: the
/// catalogue's `strategy-<name>` (underscores as hyphens), else its name made readable.
fn strategy_label(name: &str) -> String {
    let id = format!("strategy-{}", name.replace('_', "-"));
    Msg::ALL
        .iter()
        .find(|m| m.id() == id)
        .map_or_else(|| label(name), |m| t(*m))
}

/// What a base design is called in its select: the catalogue's name of the three designs.
fn base_label(name: &str) -> String {
    crate::ui::i18n::design_label(None, name, &label(name), crate::ui::i18n::lang())
}

/// What a way of joining is called in its select.
fn joins_label(j: Joins) -> String {
    t(match j {
        Joins::Application => Msg::JoinsApplication,
        Joins::Lookup => Msg::JoinsLookup,
    })
}

/// Applies a design edit as one undo step; a refusal is shown under the picker (not twice, as
/// the form message too) and changes nothing. Returns whether it was applied.
fn apply(
    ws: Workspace,
    error: RwSignal<Option<String>>,
    f: impl FnOnce(&mut serde_json::Value) -> Result<(), edit::EditError>,
) -> bool {
    let ok = ws.edit(f);
    error.set(if ok {
        None
    } else {
        ws.message
            .get_untracked()
            .map(|m| m.render(crate::ui::i18n::lang_untracked()))
    });
    ws.message.set(None);
    ok
}

/// Puts a select back on `value` (after a refused change).
fn reset_select(ev: &leptos::ev::Event, value: &str) {
    if let Some(el) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlSelectElement>().ok())
    {
        el.set_value(value);
    }
}

/// Moves the keyboard focus to the element with `id` after the next render (a reset button
/// goes away with its override: the focus goes to the row's select rather than the page).
fn focus_id(id: String) {
    request_animation_frame(move || {
        if let Some(el) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id(&id))
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = el.focus();
        }
    });
}

/// The strategy picker of the Custom design.
#[component]
pub fn StrategyPicker(
    /// The model being edited.
    ws: Workspace,
    /// The model shown (the last valid one, with Custom's seed as its design until changed).
    #[prop(into)]
    model: Signal<Option<Model>>,
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
    let base =
        Memo::new(move |_| model.with(|m| m.as_ref().map(|m| m.design.base).unwrap_or_default()));
    let joins =
        Memo::new(move |_| model.with(|m| m.as_ref().map(|m| m.design.joins).unwrap_or_default()));
    let error = RwSignal::new(None::<String>);
    let on_base = move |ev: leptos::ev::Event| {
        let picked = event_target_value(&ev);
        if !apply(ws, error, |v| edit::set_base(v, &picked)) {
            reset_select(&ev, base.get_untracked().as_str());
        }
    };
    let on_joins = move |ev: leptos::ev::Event| {
        let picked = event_target_value(&ev);
        if !apply(ws, error, |v| edit::set_joins(v, &picked)) {
            reset_select(&ev, joins.get_untracked().as_str());
        }
    };
    let base_options = DesignName::ALL
        .iter()
        .map(|d| {
            let n = d.as_str();
            view! { <option value=n selected=base.get_untracked() == *d>{move || base_label(n)}</option> }
        })
        .collect_view();
    let joins_options = Joins::ALL
        .iter()
        .map(|j| {
            view! { <option value=j.as_str() selected=joins.get_untracked() == *j>{joins_label(*j)}</option> }
        })
        .collect_view();
    view! {
        <section class="card strategies" aria-labelledby="strategies-title">
            <div class="card-head">
                <h2 id="strategies-title">{tr!(StrategiesHeading)}</h2>
                <p class="card-note">{tr!(StrategiesNote)}</p>
            </div>
            <div class="design-settings">
                <label class="setting-name" for="design-base">{tr!(BaseDesign)}</label>
                <select id="design-base" class="strategy-select" prop:value=move || base.get().as_str() on:change=on_base>
                    {base_options}
                </select>
                <span class="setting-hint muted">{tr!(BaseDesignHint)}</span>
                <label class="setting-name" for="design-joins">{tr!(Joins)}</label>
                <select id="design-joins" class="strategy-select" prop:value=move || joins.get().as_str() on:change=on_joins>
                    {joins_options}
                </select>
                <span class="setting-hint muted">{tr!(JoinsHint)}</span>
            </div>
            <div class="strategy-rows">
                {move || {
                    let rows = shape.get();
                    if rows.is_empty() {
                        return view! { <p class="muted">{tr!(NoRelationships)}</p> }.into_any();
                    }
                    rows.into_iter().map(|r| row(ws, r, current, base, error)).collect_view().into_any()
                }}
            </div>
            {move || error.get().map(|e| view! { <p class="error strategy-error" role="alert">{e}</p> })}
        </section>
    }
}

/// One relationship's row: its select, its number parameter, where its strategy comes from (a
/// reset button for an override), and the fields it copies when it can.
fn row(
    ws: Workspace,
    shape: Shape,
    current: Memo<Vec<(String, Strategy, bool)>>,
    base: Memo<DesignName>,
    error: RwSignal<Option<String>>,
) -> impl IntoView {
    let Shape {
        name,
        ends,
        parent,
        child,
        choices,
        child_fields,
        parent_fields,
    } = shape;
    let mine = Memo::new({
        let name = name.clone();
        move |_| current.with(|c| c.iter().find(|x| x.0 == name).map(|x| (x.1.clone(), x.2)))
    });
    let strategy = move || mine.with(|m| m.as_ref().map(|m| m.0.clone()));
    let chosen = move || mine.with(|m| m.as_ref().map(|m| m.0.name()).unwrap_or_default());
    let overridden = Memo::new(move |_| mine.with(|m| m.as_ref().is_some_and(|m| m.1)));
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
    // Writes `s` as the override.
    let commit = {
        let name = name.clone();
        move |s: &Strategy| -> bool { apply(ws, error, |v| edit::set_strategy(v, &name, s)) }
    };
    let id = format!("strategy-{name}");
    let param_id = format!("{id}-parameter");
    let options = strategy_options(&choices, chosen());
    let on_select = {
        let commit = commit.clone();
        move |ev: leptos::ev::Event| {
            let picked = event_target_value(&ev);
            let ok = choices
                .iter()
                .find(|s| s.name() == picked)
                .is_some_and(&commit);
            if !ok {
                reset_select(&ev, chosen());
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
                error.set(Some(tv(
                    Msg::NotWholeNumber,
                    &[("typed", typed.trim().to_string())],
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
    let origin = strategy_origin(ws, name.clone(), id.clone(), overridden, base, error);
    let copies = copied_fields(
        ws,
        &name,
        (parent, child),
        (child_fields, parent_fields),
        mine,
        error,
    );
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
            <span class="strategy-origin">{origin}</span>
            {copies}
        </div>
    }
}

/// Returns where a row's strategy comes from: the base design, or an override with the
/// button that resets it to the base's (the focus then back on the row's select).
fn strategy_origin(
    ws: Workspace,
    name: String,
    id: String,
    overridden: Memo<bool>,
    base: Memo<DesignName>,
    error: RwSignal<Option<String>>,
) -> impl Fn() -> AnyView + Send + Sync + 'static {
    move || {
        if !overridden.get() {
            return view! { <span class="muted">{tr!(FromBase)}</span> }.into_any();
        }
        let name = name.clone();
        let id = id.clone();
        let aria = tv(
            Msg::ResetToBaseLabel,
            &[
                ("name", name.clone()),
                ("base", base_label(base.get().as_str())),
            ],
        );
        let reset = move |_| {
            if apply(ws, error, |v| edit::clear_strategy(v, &name)) {
                focus_id(id.clone());
            }
        };
        view! {
            <button type="button" class="button small strategy-reset" aria-label=aria on:click=reset>
                {tr!(ResetToBase)}
            </button>
        }
        .into_any()
    }
}

/// The strategies a relationship can take, as a select's options, the chosen one selected.
fn strategy_options(choices: &[Strategy], chosen: &str) -> impl IntoView {
    choices
        .iter()
        .map(|s| {
            let n = s.name();
            view! { <option value=n selected=chosen == n>{move || strategy_label(n)}</option> }
        })
        .collect_view()
}

/// The fields a row's strategy copies, as checkboxes, when it is an extended reference (the
/// child's fields next to each id) or a reference in child (the parent's fields in each child).
/// Both fieldsets are built once and shown or hidden with the strategy, so a checkbox is never
/// drawn again and keeps the focus it is toggled with.
fn copied_fields(
    ws: Workspace,
    name: &str,
    (parent, child): (String, String),
    (child_fields, parent_fields): (Vec<String>, Vec<String>),
    mine: Memo<Option<(Strategy, bool)>>,
    error: RwSignal<Option<String>>,
) -> impl IntoView {
    // Which side is copied: the child's fields (extended reference), the parent's, or none.
    let kind = Memo::new(move |_| mine.with(|m| m.as_ref().and_then(|m| m.0.copies_from())));
    let sides = [
        (
            "child",
            child_fields,
            tv(Msg::CopiesChild, &[("child", child.to_string())]),
        ),
        (
            "parent",
            parent_fields,
            tv(
                Msg::CopiesParent,
                &[("parent", parent.to_string()), ("child", child.to_string())],
            ),
        ),
    ];
    sides
        .into_iter()
        .map(|(side, fields, legend)| {
            let boxes = if fields.is_empty() {
                view! { <span class="muted">{tr!(NoFieldsToCopy)}</span> }.into_any()
            } else {
                fields
                    .into_iter()
                    .map(|f| copy_box(ws, name, side, f, mine, error))
                    .collect_view()
                    .into_any()
            };
            view! {
                <fieldset class="strategy-copy" data-side=side hidden=move || kind.get() != Some(side)>
                    <legend>{legend}</legend>
                    {boxes}
                </fieldset>
            }
        })
        .collect_view()
}

/// One copied-field checkbox: checked while the row's strategy copies `field`; a toggle
/// rewrites `copy` ([`edit::set_copied`]), one undo step.
fn copy_box(
    ws: Workspace,
    name: &str,
    side: &str,
    field: String,
    mine: Memo<Option<(Strategy, bool)>>,
    error: RwSignal<Option<String>>,
) -> impl IntoView {
    let box_id = format!("copy-{name}-{side}-{field}");
    let checked = {
        let f = field.clone();
        move || {
            mine.with(|m| {
                m.as_ref()
                    .and_then(|m| m.0.copy())
                    .is_some_and(|c| c.contains(&f))
            })
        }
    };
    let toggle = {
        let (name, f) = (name.to_string(), field.clone());
        move |ev: leptos::ev::Event| {
            let Some(input) = ev
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
            else {
                return;
            };
            let on = input.checked();
            let Some(now) = mine.get_untracked().map(|m| m.0) else {
                return;
            };
            if !apply(ws, error, |v| edit::set_copied(v, &name, &now, &f, on)) {
                input.set_checked(!on);
            }
        }
    };
    view! {
        <label class="copy-field">
            <input type="checkbox" id=box_id prop:checked=checked on:change=toggle/>
            <code>{field}</code>
        </label>
    }
}
