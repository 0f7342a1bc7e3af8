//! The switch above the results between the collection cards and the Diagram view.

use leptos::prelude::*;

use crate::lang::Msg;
use crate::ui::i18n::{t, tr};

/// What the results show under the design bar: the collection cards or the diagram.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResultsView {
    /// One card per collection.
    Collections,
    /// The design drawn.
    Diagram,
}

/// The switch between the collection cards and the diagram: two buttons, the one on show
/// pressed.
#[component]
pub fn ResultsSwitch(
    /// What the results show.
    view: RwSignal<ResultsView>,
) -> impl IntoView {
    let button = move |v: ResultsView, label: Msg, title: Msg, id: &'static str| {
        view! {
            <button type="button" class="results-switch" id=id
                aria-pressed=move || (view.get() == v).to_string()
                title=move || t(title)
                on:click=move |_| view.set(v)>{move || t(label)}</button>
        }
    };
    view! {
        <div class="results-switches" role="group" aria-label=tr!(ResultsView)>
            {button(ResultsView::Collections, Msg::ResultsCollections, Msg::ResultsCollectionsTitle, "show-collections")}
            {button(ResultsView::Diagram, Msg::ResultsDiagram, Msg::ResultsDiagramTitle, "show-diagram")}
        </div>
    }
}
