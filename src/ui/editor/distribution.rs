//! A distribution in the form: its shape from a list, its numbers, and a small drawing of the
//! shape (parents sorted from the fewest children to the most, the right end the largest).

use leptos::prelude::*;

use crate::lang::Msg;
use crate::ui::i18n::{tr, tv};
use serde_json::{json, Value};

use super::inputs::{Group, NumberInput};
use super::Workspace;
use crate::model::edit;
use crate::model::Shape;

/// Points of the preview's curve.
const POINTS: usize = 40;

/// The editor of the distribution at `key` of the object at `parent`.
#[component]
pub fn DistributionInput(
    /// The model.
    ws: Workspace,
    /// JSON pointer of the object holding the distribution.
    parent: String,
    /// Its key (`cardinality`, `length`, `count`).
    key: &'static str,
    /// The visible label.
    label: String,
    /// What the distribution counts, for screen readers ("length of title").
    about: String,
    /// True when the key may be absent (then "default" is offered).
    #[prop(optional)]
    optional: bool,
    /// A larger preview (relationship cardinalities).
    #[prop(optional)]
    large: bool,
) -> impl IntoView {
    let path = format!("{parent}/{key}");
    let dist = Memo::new(move |_| {
        ws.doc
            .with(|d| d.as_ref().and_then(|d| d.pointer(&path)).cloned())
    });
    let shape = Memo::new(move |_| {
        dist.with(|d| {
            d.as_ref()
                .and_then(|d| d.get("shape"))
                .and_then(Value::as_str)
                .unwrap_or("default")
                .to_string()
        })
    });
    let parent_for_select = parent.clone();
    // What the last number typed moved in the others (the fields adjust to any order).
    let moved = RwSignal::new(None::<String>);
    let on_shape = move |ev: leptos::ev::Event| {
        moved.set(None);
        let chosen = event_target_value(&ev);
        if let Some(chosen) = Shape::from_name(&chosen) {
            let old = dist.get_untracked().unwrap_or_else(|| json!({}));
            ws.set(
                &parent_for_select,
                key,
                Some(edit::with_shape(&old, chosen)),
            );
        } else {
            ws.set(&parent_for_select, key, None);
        }
    };
    let shape_label = tv(Msg::ShapeOf, &[("about", about.clone())]);
    view! {
        <div class="dist" class:large=large>
            <label class="dist-shape">
                <span>{label}</span>
                <select aria-label=shape_label on:change=on_shape>
                    {optional.then(|| view! { <option value="default" prop:selected=move || shape.get() == "default">{tr!(ShapeDefault)}</option> })}
                    {Shape::ALL.into_iter().map(Shape::name).map(|s| view! { <option value=s prop:selected=move || shape.get() == s>{s}</option> }).collect_view()}
                </select>
            </label>
            <div class="dist-numbers">
                {move || {
                    let s = Shape::from_name(&shape.get());
                    let path = format!("{parent}/{key}");
                    let group = Group { order: s.map_or(&[][..], edit::ordered_keys), moved };
                    s.map_or(&[][..], Shape::keys)
                        .iter()
                        .map(|k| view! {
                            <NumberInput ws=ws parent=path.clone() key=k.to_string() label=k.to_string()
                                aria=tv(Msg::DistParamOf, &[("param", k.to_string()), ("about", about.clone())]) group=group/>
                        })
                        .collect_view()
                }}
            </div>
            {move || moved.get().map(|m| view! { <p class="dist-moved" role="status">{m}</p> })}
            <ShapePreview dist=dist large=large/>
        </div>
    }
}

/// A small drawing of a distribution: values of parents sorted ascending, scaled to the largest.
#[component]
fn ShapePreview(dist: Memo<Option<Value>>, large: bool) -> impl IntoView {
    let (w, h) = if large { (132.0, 44.0) } else { (84.0, 28.0) };
    let points =
        Memo::new(move |_| dist.with(|d| d.as_ref().and_then(|d| edit::shape_profile(d, POINTS))));
    view! {
        <svg
            class="shape-preview"
            viewBox=format!("0 0 {w} {h}")
            width=w
            height=h
            role="img"
            aria-label=tr!(ShapeDrawing)
        >
            <title>{tr!(ShapeDrawingTitle)}</title>
            <line class="axis" x1="0" y1=h - 0.5 x2=w y2=h - 0.5/>
            {move || points.get().map(|ys| {
                let step = w / (ys.len().saturating_sub(1).max(1)) as f64;
                let line: Vec<String> = ys
                    .iter()
                    .enumerate()
                    .map(|(i, y)| format!("{:.1},{:.1}", i as f64 * step, 1.0 + (h - 2.0) * (1.0 - y)))
                    .collect();
                let area = format!("0,{h} {} {w},{h}", line.join(" "));
                view! {
                    <polygon class="area" points=area/>
                    <polyline class="curve" points=line.join(" ")/>
                }
            })}
        </svg>
    }
}
