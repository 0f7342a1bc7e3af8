//! The design's warnings, each with the fix to consider.

use leptos::prelude::*;

use crate::analysis::Analysis;
use crate::warning::Severity;

/// Returns the CSS level of a severity.
fn level(s: Severity) -> &'static str {
    match s {
        Severity::Info => "info",
        Severity::Warning => "warn",
        Severity::Error => "over",
    }
}

/// Every warning, most serious first.
#[component]
pub fn WarningList(
    /// The design's analysis.
    #[prop(into)]
    analysis: Signal<Analysis>,
) -> impl IntoView {
    view! {
        <div class="card warnings">
            <div class="card-head">
                <h2>"Warnings"</h2>
                <p class="card-note">"Thresholds and their sources: docs/warnings.md"</p>
            </div>
            {move || {
                let mut ws = analysis.get().warnings;
                crate::sorting::sort_by_key(&mut ws, |w| std::cmp::Reverse(w.severity));
                if ws.is_empty() {
                    return view! { <p class="muted">"No warnings for this design."</p> }.into_any();
                }
                view! {
                    <ul class="warning-list">
                        {ws.into_iter().map(|w| {
                            let place = match (w.collection.is_empty(), w.path.is_empty()) {
                                (true, _) => String::new(),
                                (false, true) => w.collection.clone(),
                                (false, false) => format!("{}.{}", w.collection, w.path),
                            };
                            view! {
                                <li class="warning" data-code=w.code>
                                    <span class="badge" data-level=level(w.severity)>{w.code}</span>
                                    {(!place.is_empty()).then(|| view! { <code class="place">{place}</code> })}
                                    <p>{w.message}</p>
                                    <p class="fix">"Consider: "{w.fix}</p>
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                }
                .into_any()
            }}
        </div>
    }
}
