//! Relationships in the form: name (renamed with its references), parent, child,
//! many-to-many, the cardinality distribution with its shape drawn (and, many-to-many, the
//! other side's: parents per child), growth per day.

use leptos::prelude::*;

use crate::lang::Msg;
use crate::ui::i18n::{t, tr, tv};
use serde_json::{json, Value};

use super::distribution::DistributionInput;
use super::inputs::{text_at, Group, MoveButtons, NameInput, NumberInput};
use super::Workspace;
use crate::model::edit;

/// The relationships section.
#[component]
pub fn RelationshipsForm(ws: Workspace) -> impl IntoView {
    let names = Memo::new(move |_| {
        ws.doc
            .with(|d| d.as_ref().map(edit::relationship_names).unwrap_or_default())
    });
    let add = move |_| {
        ws.edit(|v| {
            edit::add_relationship(v);
            Ok(())
        });
    };
    view! {
        <section class="form-section" aria-labelledby="form-relationships">
            <div class="section-head">
                <h3 id="form-relationships">{tr!(RelationshipsHeading)}" " <span class="count">{move || names.get().len()}</span></h3>
                <button type="button" class="button small" on:click=add>{tr!(AddRelationship)}</button>
            </div>
            {move || names.get().is_empty().then(|| view! {
                <p class="muted empty-note">{tr!(NoRelationshipsYet)}</p>
            })}
            <ol class="form-list">
                {move || {
                    let names = names.get();
                    let n = names.len();
                    names.into_iter().enumerate().map(|(i, name)| view! {
                        <RelationshipItem ws=ws index=i name=name last=i + 1 == n/>
                    }).collect_view()
                }}
            </ol>
        </section>
    }
}

/// A select of the entities for `key` (`parent`, `child`) of relationship `index`.
#[component]
fn EntitySelect(ws: Workspace, index: usize, key: &'static str, label: String) -> impl IntoView {
    let base = format!("/relationships/{index}");
    let current = text_at(ws, format!("{base}/{key}"));
    let entities = Memo::new(move |_| {
        ws.doc
            .with(|d| d.as_ref().map(edit::entity_names).unwrap_or_default())
    });
    let on_change = move |ev: leptos::ev::Event| {
        ws.set(&base, key, Some(Value::String(event_target_value(&ev))));
    };
    view! {
        <label class="select-field">
            <span>{key}</span>
            <select aria-label=label on:change=on_change>
                {move || {
                    let mut names = entities.get();
                    let cur = current.get();
                    if !names.contains(&cur) {
                        names.insert(0, cur.clone());
                    }
                    names.into_iter().map(|n| {
                        let selected = n == cur;
                        let label = n.clone();
                        view! { <option value=n prop:selected=selected>{label}</option> }
                    }).collect_view()
                }}
            </select>
        </label>
    }
}

#[component]
fn RelationshipItem(ws: Workspace, index: usize, name: String, last: bool) -> impl IntoView {
    let base = format!("/relationships/{index}");
    let old = name.clone();
    let rename = Callback::new(move |new: String| {
        let old = old.clone();
        ws.edit(move |v| edit::rename_relationship(v, &old, &new))
    });
    let to_delete = name.clone();
    let delete = move |_| {
        let n = to_delete.clone();
        ws.edit(move |v| edit::remove_relationship(v, &n));
    };
    let m2m_path = format!("{base}/many_to_many");
    let many = Memo::new(move |_| {
        ws.doc.with(|d| {
            d.as_ref()
                .and_then(|d| d.pointer(&m2m_path))
                .and_then(Value::as_bool)
                .unwrap_or(false)
        })
    });
    let m2m_base = base.clone();
    let on_many = move |ev: leptos::ev::Event| {
        let on = event_target_checked(&ev);
        let at = m2m_base.clone();
        // One edit: parents per child only means something many-to-many (validation refuses
        // it otherwise), so it goes with the box.
        ws.edit(move |v| {
            edit::set_key(v, &at, "many_to_many", on.then_some(Value::Bool(true)));
            if !on {
                edit::set_key(v, &at, "parents_per_child", None);
            }
            Ok(())
        });
    };
    let ppc_base = base.clone();
    let ppc_name = name.clone();
    let feed = text_at(ws, format!("{base}/feed"));
    let growth_path = format!("{base}/growth_per_day");
    let has_growth = Memo::new(move |_| {
        ws.doc
            .with(|d| d.as_ref().and_then(|d| d.pointer(&growth_path)).is_some())
    });
    let g_base = base.clone();
    let on_growth = move |ev: leptos::ev::Event| {
        let on = event_target_checked(&ev);
        ws.set(
            &g_base,
            "growth_per_day",
            on.then(|| json!({ "typical": 1 })),
        );
    };
    let growth_parent = format!("{base}/growth_per_day");
    let growth = Group {
        order: edit::GROWTH_ORDER,
        moved: RwSignal::new(None),
    };
    view! {
        <li class="form-item relationship-item" data-relationship=name.clone()>
            <div class="item-head">
                <NameInput ws=ws value=name.clone() label=tv(Msg::RelationshipName, &[("n", (index + 1).to_string())]) commit=rename class="title-input"/>
                <div class="item-actions">
                    <MoveButtons ws=ws list="/relationships".to_string() index=index last=last what=tv(Msg::RelationshipWhat, &[("name", name.clone())])/>
                    <button type="button" class="icon-button danger" on:click=delete
                        aria-label=tv(Msg::DeleteRelationship, &[("name", name.clone())]) title=tr!(Delete)>"×"</button>
                </div>
            </div>
            <div class="form-row">
                <EntitySelect ws=ws index=index key="parent" label=tv(Msg::ParentOf, &[("name", name.clone())])/>
                <span class="arrow" aria-hidden="true">"→"</span>
                <EntitySelect ws=ws index=index key="child" label=tv(Msg::ChildOf, &[("name", name.clone())])/>
                <label class="check-field">
                    <input type="checkbox" prop:checked=move || many.get() on:change=on_many/>
                    <span>{tr!(ManyToMany)}</span>
                </label>
            </div>
            {move || {
                let f = feed.get();
                (!f.is_empty()).then(|| view! { <p class="muted detail-note">{tv(Msg::FeedNote, &[("feed", f)])}</p> })
            }}
            <DistributionInput ws=ws parent=base.clone() key="cardinality" label=t(Msg::ChildrenPerParent)
                about=tv(Msg::CardinalityOf, &[("name", name.clone())]) large=true/>
            {move || (many.get() && feed.get().is_empty()).then(|| view! {
                <DistributionInput ws=ws parent=ppc_base.clone() key="parents_per_child" label=t(Msg::ParentsPerChild)
                    about=tv(Msg::ParentsPerChildOf, &[("name", ppc_name.clone())]) optional=true large=true/>
            })}
            <div class="form-row growth-row">
                <label class="check-field">
                    <input type="checkbox" prop:checked=move || has_growth.get() on:change=on_growth/>
                    <span>{tr!(GrowsPerDay)}</span>
                </label>
                {move || has_growth.get().then(|| view! {
                    <NumberInput ws=ws parent=growth_parent.clone() key="typical".to_string() label=t(Msg::TypicalLabel)
                        aria=t(Msg::GrowthTypicalParent) group=growth/>
                    <NumberInput ws=ws parent=growth_parent.clone() key="largest".to_string() label=t(Msg::LargestLabel)
                        aria=t(Msg::GrowthLargestParent) optional=true placeholder=t(Msg::EqualsTypical) group=growth/>
                })}
            </div>
            {move || growth.moved.get().map(|m| view! { <p class="dist-moved" role="status">{m}</p> })}
        </li>
    }
}
