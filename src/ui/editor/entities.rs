//! Entities in the form: name (renamed with its references), count, order, and their fields
//! (name, BSON type, optional, length or element count).

use leptos::prelude::*;

use crate::lang::Msg;
use crate::ui::i18n::{t, tr, tv};
use serde_json::{json, Value};

use super::distribution::DistributionInput;
use super::inputs::{MoveButtons, NameInput, NumberInput};
use super::Workspace;
use crate::model::edit::{self, pointer};
use crate::model::BsonType;

/// One field as the list shows it.
#[derive(Debug, Clone, PartialEq)]
struct FieldRow {
    name: String,
    ty: String,
    optional: bool,
    /// Sub-fields of an object (or of an array of objects).
    sub_fields: usize,
    items: Option<String>,
}

fn field_rows(v: &Value, entity: usize) -> Vec<FieldRow> {
    v.pointer(&format!("/entities/{entity}/fields"))
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .map(|(name, f)| FieldRow {
                    name: name.clone(),
                    ty: f
                        .get("type")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string(),
                    optional: f.get("presence").is_some(),
                    sub_fields: f
                        .get("fields")
                        .and_then(Value::as_object)
                        .map_or(0, |m| m.len()),
                    items: f.get("items").and_then(Value::as_str).map(str::to_string),
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The entities section.
#[component]
pub fn EntitiesForm(ws: Workspace) -> impl IntoView {
    let names = Memo::new(move |_| {
        ws.doc
            .with(|d| d.as_ref().map(edit::entity_names).unwrap_or_default())
    });
    // The entities rendered so far: a new model's entities one a task (an inferred database's
    // forms in one render would block the page for hundreds of milliseconds); an edit keeps
    // every entity it leaves in place on show.
    let tick = RwSignal::new(0u64);
    let shown = Memo::new(move |prev: Option<&(Vec<String>, usize)>| {
        let all = names.get();
        tick.track();
        let k = match prev {
            Some((before, k)) if *before == all => k.saturating_add(1),
            Some((before, k)) => {
                let kept = before
                    .iter()
                    .zip(&all)
                    .take(*k)
                    .filter(|(a, b)| a == b)
                    .count();
                kept.saturating_add(1)
            }
            None => usize::MAX,
        }
        .min(all.len());
        if k < all.len() {
            set_timeout(
                move || {
                    let _ = tick.try_update(|t| *t += 1);
                },
                std::time::Duration::ZERO,
            );
        }
        (all, k)
    });
    let add = move |_| {
        ws.edit(|v| {
            edit::add_entity(v);
            Ok(())
        });
    };
    view! {
        <section class="form-section" aria-labelledby="form-entities">
            <div class="section-head">
                <h3 id="form-entities">{tr!(EntitiesHeading)}" " <span class="count">{move || names.get().len()}</span></h3>
                <button type="button" class="button small" on:click=add>{tr!(AddEntity)}</button>
            </div>
            <ol class="form-list">
                <For
                    each=move || {
                        shown.with(|(all, k)| {
                            let n = all.len();
                            all.iter()
                                .take(*k)
                                .enumerate()
                                .map(|(i, name)| (i, name.clone(), i + 1 == n))
                                .collect::<Vec<_>>()
                        })
                    }
                    key=|item| item.clone()
                    children=move |(i, name, last)| view! { <EntityItem ws=ws index=i name=name last=last/> }
                />
            </ol>
        </section>
    }
}

#[component]
fn EntityItem(ws: Workspace, index: usize, name: String, last: bool) -> impl IntoView {
    let base = format!("/entities/{index}");
    let rows = Memo::new(move |_| {
        ws.doc
            .with(|d| d.as_ref().map(|d| field_rows(d, index)).unwrap_or_default())
    });
    let old = name.clone();
    let rename = Callback::new(move |new: String| {
        let old = old.clone();
        ws.edit(move |v| edit::rename_entity(v, &old, &new))
    });
    let to_delete = name.clone();
    let delete = move |_| {
        let n = to_delete.clone();
        ws.edit(move |v| edit::remove_entity(v, &n));
    };
    let to_add = name.clone();
    let add_field = move |_| {
        let n = to_add.clone();
        ws.edit(move |v| {
            edit::add_field(v, &n);
            Ok(())
        });
    };
    let entity = name.clone();
    view! {
        <li class="form-item entity-item" data-entity=name.clone()>
            <div class="item-head">
                <NameInput ws=ws value=name.clone() label=tv(Msg::EntityName, &[("n", (index + 1).to_string())]) commit=rename class="title-input"/>
                <NumberInput ws=ws parent=base.clone() key="count".to_string() label=t(Msg::CountLabel)
                    aria=tv(Msg::CountOf, &[("name", name.clone())])/>
                <div class="item-actions">
                    <MoveButtons ws=ws list="/entities".to_string() index=index last=last what=name.clone()/>
                    <button type="button" class="icon-button danger" on:click=delete
                        aria-label=tv(Msg::DeleteEntity, &[("name", name.clone())]) title=tr!(Delete)>"×"</button>
                </div>
            </div>
            <table class="field-table">
                <caption class="visually-hidden">{tv(Msg::FieldsOf, &[("name", name.clone())])}</caption>
                <thead>
                    <tr><th scope="col">{tr!(FieldCol)}</th><th scope="col">{tr!(TypeCol)}</th><th scope="col">{tr!(OptionalCol)}</th><th scope="col"><span class="visually-hidden">{tr!(Delete)}</span></th></tr>
                </thead>
                {move || {
                    let rows = rows.get();
                    let n = rows.len();
                    rows.into_iter().enumerate().map(|(j, row)| view! {
                        <FieldItem ws=ws index=index entity=entity.clone() row=row first=j == 0 last=j + 1 == n/>
                    }).collect_view()
                }}
            </table>
            <button type="button" class="button small add-field" on:click=add_field>{tr!(AddField)}</button>
        </li>
    }
}

#[component]
fn FieldItem(
    ws: Workspace,
    index: usize,
    entity: String,
    row: FieldRow,
    first: bool,
    last: bool,
) -> impl IntoView {
    let FieldRow {
        name,
        ty,
        optional,
        sub_fields,
        items,
    } = row;
    let path = format!("/entities/{index}{}", pointer(&["fields", &name]));
    let old = name.clone();
    let e = entity.clone();
    let rename = Callback::new(move |new: String| {
        let (e, old) = (e.clone(), old.clone());
        ws.edit(move |v| edit::rename_field(v, &e, &old, &new))
    });
    let type_path = path.clone();
    let on_type = move |ev: leptos::ev::Event| {
        let new = event_target_value(&ev);
        let p = type_path.clone();
        ws.edit(move |v| {
            if let Some(f) = v.pointer_mut(&p) {
                edit::set_field_type(f, &new);
            }
            Ok(())
        });
    };
    let opt_path = path.clone();
    let on_optional = move |ev: leptos::ev::Event| {
        let on = event_target_checked(&ev);
        ws.set(&opt_path, "presence", on.then(|| json!(0.5)));
    };
    let (me, mn) = (entity.clone(), name.clone());
    let moving = move |up: bool| {
        let (e, n) = (me.clone(), mn.clone());
        move |_| {
            let (e, n) = (e.clone(), n.clone());
            ws.edit(move |v| {
                edit::move_field(v, &e, &n, up);
                Ok(())
            });
        }
    };
    let (e, n) = (entity.clone(), name.clone());
    let delete = move |_| {
        let (e, n) = (e.clone(), n.clone());
        ws.edit(move |v| edit::remove_field(v, &e, &n));
    };
    let has_length = BsonType::from_alias(&ty).is_some_and(BsonType::has_length);
    let is_array = ty == "array";
    let item_has_length = items
        .as_deref()
        .and_then(BsonType::from_alias)
        .is_some_and(BsonType::has_length);
    let detail = match (ty.as_str(), &items) {
        ("object", _) => Some(tv(Msg::SubFields, &[("count", sub_fields.to_string())])),
        ("array", Some(it)) if it == "object" => Some(tv(
            Msg::ArrayOfObjects,
            &[("count", sub_fields.to_string())],
        )),
        ("array", Some(it)) => Some(tv(Msg::ArrayOf, &[("type", it.clone())])),
        _ => None,
    };
    let label_ty = tv(Msg::TypeOf, &[("path", format!("{entity}.{name}"))]);
    view! {
        <tbody class="field-row">
            <tr>
                <td><NameInput ws=ws value=name.clone() label=tv(Msg::FieldName, &[("name", name.clone()), ("entity", entity.clone())]) commit=rename/></td>
                <td>
                    <select aria-label=label_ty on:change=on_type>
                        {BsonType::ALL.iter().map(|t| {
                            let alias = t.alias();
                            view! { <option value=alias prop:selected=alias == ty>{alias}</option> }
                        }).collect_view()}
                    </select>
                </td>
                <td class="center">
                    <input type="checkbox" prop:checked=optional on:change=on_optional
                        aria-label=tv(Msg::IsOptional, &[("path", format!("{entity}.{name}"))])/>
                </td>
                <td class="field-actions">
                    <button type="button" class="icon-button" disabled=first on:click=moving(true)
                        aria-label=tv(Msg::MoveFieldUp, &[("name", name.clone()), ("entity", entity.clone())]) title=tr!(MoveUp)>"↑"</button>
                    <button type="button" class="icon-button" disabled=last on:click=moving(false)
                        aria-label=tv(Msg::MoveFieldDown, &[("name", name.clone()), ("entity", entity.clone())]) title=tr!(MoveDown)>"↓"</button>
                    <button type="button" class="icon-button danger" on:click=delete
                        aria-label=tv(Msg::DeleteFieldOf, &[("name", name.clone()), ("entity", entity.clone())]) title=tr!(DeleteField)>"×"</button>
                </td>
            </tr>
            {(optional || has_length || is_array || detail.is_some()).then(|| view! {
                <tr class="field-detail">
                    <td colspan="4">
                        {detail.map(|d| view! { <p class="muted detail-note">{d}</p> })}
                        {optional.then(|| view! {
                            <NumberInput ws=ws parent=path.clone() key="presence".to_string()
                                label=t(Msg::PresentIn) aria=tv(Msg::PresenceOf, &[("name", name.clone())])/>
                        })}
                        {(has_length || (is_array && item_has_length)).then(|| view! {
                            <DistributionInput ws=ws parent=path.clone() key="length" label=t(Msg::LengthLabel)
                                about=tv(Msg::LengthOf, &[("name", name.clone())]) optional=true/>
                        })}
                        {is_array.then(|| view! {
                            <DistributionInput ws=ws parent=path.clone() key="count" label=t(Msg::ElementsLabel)
                                about=tv(Msg::ElementsOf, &[("name", name.clone())])/>
                        })}
                    </td>
                </tr>
            })}
        </tbody>
    }
}
