//! The Leptos page. Components only: every number comes from the core.

mod bench;
mod breakdown;
mod examples;
mod gauge;
mod sizer;

use leptos::prelude::*;

pub use breakdown::{BreakdownTable, Composition, Treemap};
pub use examples::EXAMPLES;
pub use gauge::LimitGauge;
pub use sizer::DocumentSizer;

/// Mounts the app on the page's body, with a panic hook that reports to the console.
pub fn mount() {
    console_error_panic_hook::set_once();
    bench::register_if_requested();
    leptos::mount::mount_to_body(App);
}

/// The whole page: a header and the document sizer.
#[component]
pub fn App() -> impl IntoView {
    view! {
        <header class="topbar">
            <div class="brand">
                <span class="logo" aria-hidden="true">"{ }"</span>
                <span class="name">"Squillion"</span>
            </div>
            <p class="tagline">"MongoDB schema design, measured: exact BSON sizes against the 16 MiB limit"</p>
        </header>
        <main class="page">
            <DocumentSizer/>
        </main>
        <footer class="foot">
            "Sizes are computed in your browser from the document's structure; nothing leaves this page."
        </footer>
    }
}
