//! The workload in the form: application units (name, rate per second) and their steps (the
//! operation from a list, what it acts on; the step's other keys are listed and kept).

use leptos::prelude::*;

use crate::lang::Msg;
use crate::ui::i18n::{t, tr, tv};
use serde_json::{json, Value};

use super::inputs::{input_of, text_at, MoveButtons, NumberInput};
use super::Workspace;
use crate::model::edit;
use crate::model::Op;

/// One step as the list shows it.
#[derive(Debug, Clone, PartialEq)]
struct StepRow {
    op: String,
    target: String,
    /// The other keys, compact (`by: username · page_size: 20`).
    rest: String,
}

fn step_rows(v: &Value, unit: usize) -> Vec<StepRow> {
    v.pointer(&format!("/workload/{unit}/steps"))
        .and_then(Value::as_array)
        .map(|steps| {
            steps
                .iter()
                .map(|s| {
                    let op = s
                        .get("op")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string();
                    let key = if Op::from_name(&op).is_some_and(Op::takes_entity) {
                        "entity"
                    } else {
                        "relationship"
                    };
                    let rest = s
                        .as_object()
                        .map(|m| {
                            m.iter()
                                .filter(|(k, _)| {
                                    !matches!(k.as_str(), "op" | "entity" | "relationship")
                                })
                                .map(|(k, x)| match x {
                                    Value::String(t) => format!("{k}: {t}"),
                                    other => format!("{k}: {other}"),
                                })
                                .collect::<Vec<_>>()
                                .join(" · ")
                        })
                        .unwrap_or_default();
                    StepRow {
                        target: s.get(key).and_then(Value::as_str).unwrap_or("").to_string(),
                        op,
                        rest,
                    }
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The workload section.
#[component]
pub fn WorkloadForm(ws: Workspace) -> impl IntoView {
    let count = Memo::new(move |_| {
        ws.doc.with(|d| {
            d.as_ref()
                .and_then(|d| d.get("workload"))
                .and_then(Value::as_array)
                .map_or(0, Vec::len)
        })
    });
    let add = move |_| {
        ws.edit(|v| {
            edit::add_unit(v);
            Ok(())
        });
    };
    view! {
        <section class="form-section" aria-labelledby="form-workload">
            <div class="section-head">
                <h3 id="form-workload">{tr!(WorkloadFormHeading)}" " <span class="count">{move || count.get()}</span></h3>
                <button type="button" class="button small" on:click=add>{tr!(AddOperation)}</button>
            </div>
            {move || (count.get() == 0).then(|| view! {
                <p class="muted empty-note">{tr!(NoOperationsYet)}</p>
            })}
            <ol class="form-list">
                {move || {
                    let n = count.get();
                    (0..n).map(|i| view! { <UnitItem ws=ws index=i last=i + 1 == n/> }).collect_view()
                }}
            </ol>
        </section>
    }
}

#[component]
fn UnitItem(ws: Workspace, index: usize, last: bool) -> impl IntoView {
    let base = format!("/workload/{index}");
    let name = text_at(ws, format!("{base}/name"));
    let rows = Memo::new(move |_| {
        ws.doc
            .with(|d| d.as_ref().map(|d| step_rows(d, index)).unwrap_or_default())
    });
    let name_base = base.clone();
    let on_name = move |ev: leptos::ev::Event| {
        let Some(input) = input_of(&ev) else { return };
        let new = input.value().trim().to_string();
        if new.is_empty() || !ws.set(&name_base, "name", Some(Value::String(new))) {
            input.set_value(&name.get_untracked());
        }
    };
    let delete = move |_| {
        ws.edit(move |v| {
            if let Some(list) = v.get_mut("workload").and_then(Value::as_array_mut) {
                if index < list.len() {
                    list.remove(index);
                }
            }
            Ok(())
        });
    };
    let add_step = move |_| {
        ws.edit(move |v| {
            let step = edit::step_with_op(v, &json!({}), Op::Read);
            if let Some(steps) = v
                .pointer_mut(&format!("/workload/{index}/steps"))
                .and_then(Value::as_array_mut)
            {
                steps.push(step);
            }
            Ok(())
        });
    };
    view! {
        <li class="form-item unit-item">
            <div class="item-head">
                <input
                    type="text"
                    class="name-input title-input"
                    aria-label=tv(Msg::OperationName, &[("n", (index + 1).to_string())])
                    prop:value=move || name.get()
                    data-committed=move || name.get()
                    on:change=on_name
                />
                <NumberInput ws=ws parent=base.clone() key="rate_per_sec".to_string() label=t(Msg::PerSecond)
                    aria=tv(Msg::RateOf, &[("n", (index + 1).to_string())])/>
                <div class="item-actions">
                    <MoveButtons ws=ws list="/workload".to_string() index=index last=last
                        what=Signal::derive(move || tv(Msg::OperationWhat, &[("name", name.get())]))/>
                    <button type="button" class="icon-button danger" on:click=delete
                        aria-label=move || tv(Msg::DeleteOperation, &[("name", name.get())]) title=tr!(Delete)>"×"</button>
                </div>
            </div>
            <ol class="step-list">
                {move || {
                    let rows = rows.get();
                    let n = rows.len();
                    rows.into_iter().enumerate().map(|(j, row)| view! {
                        <StepItem ws=ws unit=index index=j row=row last=j + 1 == n/>
                    }).collect_view()
                }}
            </ol>
            <button type="button" class="button small" on:click=add_step>{tr!(AddStep)}</button>
        </li>
    }
}

#[component]
fn StepItem(ws: Workspace, unit: usize, index: usize, row: StepRow, last: bool) -> impl IntoView {
    let path = format!("/workload/{unit}/steps/{index}");
    let StepRow { op, target, rest } = row;
    let takes_entity = Op::from_name(&op).is_some_and(Op::takes_entity);
    let op_path = path.clone();
    let on_op = move |ev: leptos::ev::Event| {
        let Some(new) = Op::from_name(&event_target_value(&ev)) else {
            return;
        };
        let p = op_path.clone();
        ws.edit(move |v| {
            let old = v.pointer(&p).cloned().unwrap_or_else(|| json!({}));
            let step = edit::step_with_op(v, &old, new);
            if let Some(s) = v.pointer_mut(&p) {
                *s = step;
            }
            Ok(())
        });
    };
    let key = if takes_entity {
        "entity"
    } else {
        "relationship"
    };
    let target_path = path.clone();
    let on_target = move |ev: leptos::ev::Event| {
        ws.set(
            &target_path,
            key,
            Some(Value::String(event_target_value(&ev))),
        );
    };
    let targets = Memo::new(move |_| {
        ws.doc.with(|d| {
            d.as_ref()
                .map(|d| {
                    if takes_entity {
                        edit::entity_names(d)
                    } else {
                        edit::relationship_names(d)
                    }
                })
                .unwrap_or_default()
        })
    });
    let delete = move |_| {
        ws.edit(move |v| {
            if let Some(steps) = v
                .pointer_mut(&format!("/workload/{unit}/steps"))
                .and_then(Value::as_array_mut)
            {
                if index < steps.len() {
                    steps.remove(index);
                }
            }
            Ok(())
        });
    };
    let current_op = op.clone();
    let step_no = index + 1;
    view! {
        <li class="step-item">
            <select class="op-select" aria-label=tv(Msg::StepOperation, &[("n", step_no.to_string())]) on:change=on_op>
                {Op::ALL.into_iter().map(Op::name).map(|o| view! { <option value=o prop:selected=o == current_op>{o.replace('_', " ")}</option> }).collect_view()}
            </select>
            <select aria-label=tv(Msg::StepTarget, &[("n", step_no.to_string())]) on:change=on_target>
                {move || {
                    let mut names = targets.get();
                    if !names.contains(&target) {
                        names.insert(0, target.clone());
                    }
                    names.into_iter().map(|n| {
                        let selected = n == target;
                        let label = n.clone();
                        view! { <option value=n prop:selected=selected>{label}</option> }
                    }).collect_view()
                }}
            </select>
            <MoveButtons ws=ws list=format!("/workload/{unit}/steps") index=index last=last what=tv(Msg::StepWhat, &[("n", step_no.to_string())])/>
            <button type="button" class="icon-button danger" on:click=delete
                aria-label=tv(Msg::DeleteStepN, &[("n", step_no.to_string())]) title=tr!(DeleteStep)>"×"</button>
            {(!rest.is_empty()).then(|| view! { <code class="step-rest" title=tr!(EditInJson)>{rest}</code> })}
        </li>
    }
}
