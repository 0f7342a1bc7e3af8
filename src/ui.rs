//! The Leptos page. Components only: every number comes from the core.

mod bench;
mod breakdown;
mod clipboard;
mod console;
mod diagram;
mod diagram_view;
mod doc_link;
mod editor;
mod examples;
mod files;
mod gauge;
mod i18n;
mod infer;
mod migrate;
mod panic;
mod playground;
mod sizer;
mod storage;
mod svg_dom;
mod worker;

use leptos::prelude::*;

use crate::lang;
use i18n::{tr, LangSwitch};

pub use breakdown::{BreakdownTable, Composition, Treemap};
pub use console::Console;
pub use doc_link::WithDocLinks;
pub use examples::EXAMPLES;
pub use gauge::{size_level, LimitGauge};
pub use playground::Playground;
pub use sizer::DocumentSizer;

/// Mounts the app on the page's body, with a panic hook that shows a reload banner. Without a
/// window (the evaluation worker, public/worker.js, loads this same module) it only registers
/// the worker's evaluation function.
pub fn mount() {
    if web_sys::window().is_none() {
        console_error_panic_hook::set_once();
        worker::register();
        return;
    }
    panic::install();
    bench::register_if_requested();
    // A page in a language whose translation is fetched when needed waits for it (boot.js
    // started the fetch beside the module's), so that it never shows English first.
    let lang = i18n::initial();
    if lang::is_available(lang) {
        leptos::mount::mount_to_body(App);
    } else {
        wasm_bindgen_futures::spawn_local(async move {
            i18n::fetch_translation(lang).await;
            leptos::mount::mount_to_body(App);
        });
    }
}

/// The start of the tools module (`src/bin/squillion-tools.rs`): registers `squillionInfer` and
/// `squillionDiagram` on the global scope (a tools worker's, public/worker.js), and the
/// inference benchmark's hook when the page asks for it (the page loads the module with
/// `squillionLoadTools`, public/boot.js). None of it is reachable from [`mount`], so the page's
/// own module carries none of it (the diagram's layout crate among it).
pub fn register_tools() {
    console_error_panic_hook::set_once();
    worker::register_translate();
    infer::register();
    diagram::register();
    bench::register_infer_if_requested();
}

/// The reference documentation rendered into the site (`scripts/docs-site.mjs`), offline too.
const DOCS_INDEX: &str = "docs/index.html";

/// The page's views, in the order of the tab bar. The URL's `#hash` names the open one, so a
/// link can open a view directly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// Describe a model, switch designs, compare what each costs.
    Playground,
    /// Paste a document, see its exact size.
    Documents,
    /// Run mongosh commands against sample collections, with their statistics.
    Console,
}

impl View {
    /// Every view, in tab order.
    pub const ALL: &'static [View] = &[View::Playground, View::Documents, View::Console];

    /// The `#hash` that opens this view.
    pub fn hash(self) -> &'static str {
        match self {
            View::Playground => "playground",
            View::Documents => "documents",
            View::Console => "console",
        }
    }

    /// The tab's label, a message of the page's catalogue.
    pub fn label(self) -> lang::Msg {
        match self {
            View::Playground => lang::Msg::ViewPlayground,
            View::Documents => lang::Msg::ViewDocuments,
            View::Console => lang::Msg::ViewConsole,
        }
    }

    /// Returns the view a `#hash` names (the first view when it names none).
    pub fn from_hash(hash: &str) -> View {
        let hash = hash.trim_start_matches('#');
        // `#playground&model=…`: what follows `&` is the view's own data.
        let hash = hash.split('&').next().unwrap_or_default();
        View::ALL
            .iter()
            .copied()
            .find(|v| v.hash() == hash)
            .unwrap_or(View::ALL[0])
    }
}

/// Returns the element that has the keyboard focus, if any.
fn focused() -> Option<web_sys::Element> {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element())
}

/// Returns true when the keyboard focus is in a text field (the console's input among them):
/// single-key shortcuts (design numbers, arrows, W for workshop mode) must not steal what the
/// user types.
fn typing_in_a_field() -> bool {
    focused().is_some_and(|e| {
        matches!(e.tag_name().as_str(), "TEXTAREA" | "INPUT" | "SELECT")
            || e.get_attribute("contenteditable")
                .is_some_and(|v| v != "false")
    })
}

/// Widgets that use the arrow keys themselves (tab lists, radio groups, sliders, menus,
/// dialogs, regions that scroll sideways: tables, the diagram): page-wide arrow shortcuts leave
/// their keys alone.
const OWN_ARROWS: &str = "[role=tablist], [role=tab], [role=radiogroup], [role=radio], \
    [role=slider], [role=spinbutton], [role=listbox], [role=menu], [role=menubar], \
    [role=grid], [role=tree], [role=dialog], .table-scroll, .diagram-picture";

/// Returns true when the focused element uses the arrow keys itself (see [`OWN_ARROWS`]), or
/// is a text field.
fn arrows_taken() -> bool {
    typing_in_a_field() || focused().is_some_and(|e| e.closest(OWN_ARROWS).ok().flatten().is_some())
}

/// Moves the keyboard focus to the element `selector` names (scrolled into view), for the
/// skip links; returns false when the page has none.
fn focus_first(selector: &str) -> bool {
    use wasm_bindgen::JsCast;
    let target = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(selector).ok().flatten())
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
    match target {
        Some(el) => {
            el.scroll_into_view();
            el.focus().is_ok()
        }
        None => false,
    }
}

/// The skip links, the page's first focusable elements (shown when focused): to the results
/// of the open view, and on the playground to the design bar (its chosen design). They move
/// the focus without touching the URL, whose `#hash` names the view and its shared model.
#[component]
fn SkipLinks(
    /// The open view.
    view: ReadSignal<View>,
) -> impl IntoView {
    let to_results = move |ev: leptos::ev::MouseEvent| {
        ev.prevent_default();
        if !focus_first("#results") {
            focus_first("#main");
        }
    };
    let to_designs = move |ev: leptos::ev::MouseEvent| {
        ev.prevent_default();
        if !focus_first("#designs [aria-pressed=\"true\"]") {
            focus_first("#designs");
        }
    };
    view! {
        <div class="skip-links">
            <a class="skip-link" href="#results" on:click=to_results>{tr!(SkipToResults)}</a>
            {move || (view.get() == View::Playground).then(|| view! {
                <a class="skip-link" href="#designs" on:click=to_designs>{tr!(SkipToDesigns)}</a>
            })}
        </div>
    }
}

/// Returns the view named by the page's current URL.
fn current_view() -> View {
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    View::from_hash(&hash)
}

/// Whether workshop mode is on (`W` or the header's button), for what draws its own text at a
/// size of its mode (the charts' SVG text): they follow the signal, not the page's class.
#[derive(Debug, Clone, Copy)]
pub struct Workshop(pub ReadSignal<bool>);

/// The design on show in the playground, by its offer id (empty before the playground has
/// chosen one: the model's first design): the console's database is that design's sample.
#[derive(Debug, Clone, Copy)]
pub struct ShownDesign(pub RwSignal<String>);

/// The whole page: a header with the tab bar, and the open view.
#[component]
pub fn App() -> impl IntoView {
    let (view, set_view) = signal(current_view());
    // Evaluations outlive the playground: back from another view, its numbers are there.
    provide_context(playground::EvalCache::new());
    provide_context(ShownDesign(RwSignal::new(String::new())));
    // Back/forward and edited URLs switch the view too. (The App lives as long as the page:
    // its listeners are never removed.)
    let _ = window_event_listener(leptos::ev::hashchange, move |_| {
        set_view.set(current_view())
    });

    // The language: the remembered choice or the browser's, on <html lang> too.
    i18n::follow_in_document();

    // Workshop mode: large type, high contrast, the editor out of the way. `W` toggles it.
    let (workshop, set_workshop) = signal(false);
    provide_context(Workshop(workshop));
    Effect::new(move |_| {
        let on = workshop.get();
        if let Some(root) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
        {
            let _ = root.class_list().toggle_with_force("workshop", on);
        }
    });
    let _ = window_event_listener(leptos::ev::keydown, move |ev| {
        if !typing_in_a_field()
            && !ev.ctrl_key()
            && !ev.meta_key()
            && ev.key().eq_ignore_ascii_case("w")
        {
            set_workshop.update(|on| *on = !*on);
        }
    });

    view! {
        <SkipLinks view=view/>
        <header class="topbar">
            <div class="brand">
                <span class="logo" aria-hidden="true">"{ }"</span>
                <span class="name">"Squillion"</span>
            </div>
            <nav class="tabs" aria-label=tr!(ViewsNav)>
                {View::ALL
                    .iter()
                    .map(|&v| {
                        view! {
                            <a
                                href=format!("#{}", v.hash())
                                class="tab"
                                aria-current=move || (view.get() == v).then_some("page")
                            >
                                {move || i18n::t(v.label())}
                            </a>
                        }
                    })
                    .collect_view()}
            </nav>
            <p class="tagline">{tr!(Tagline)}</p>
            <LangSwitch/>
            <button
                type="button"
                class="button workshop-toggle"
                aria-pressed=move || workshop.get().to_string()
                on:click=move |_| set_workshop.update(|on| *on = !*on)
                title=tr!(WorkshopModeTitle)
            >
                {tr!(WorkshopMode)}
            </button>
        </header>
        <main class="page" id="main" tabindex="-1">
            {move || match view.get() {
                View::Playground => view! { <Playground/> }.into_any(),
                View::Documents => view! { <DocumentSizer/> }.into_any(),
                View::Console => view! { <Console/> }.into_any(),
            }}
        </main>
        <footer class="foot">
            {tr!(FooterPrivacy)}
            " · "
            <a href=DOCS_INDEX target="_blank" rel="noopener">{tr!(FooterDocs)}</a>
        </footer>
    }
}
