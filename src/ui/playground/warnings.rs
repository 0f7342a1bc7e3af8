//! The arithmetic analysis's warnings, shown while the engine's evaluation runs or when it
//! failed, in the same list as the engine's.

use leptos::prelude::*;

use super::evaluated::EvalWarnings;
use crate::analysis::Analysis;

/// Every warning of the analysis, most serious first.
#[component]
pub fn WarningList(
    /// The design's analysis.
    #[prop(into)]
    analysis: Signal<Analysis>,
) -> impl IntoView {
    move || {
        let warnings = analysis.with(|a| a.warnings.clone());
        view! { <EvalWarnings warnings=warnings measured=false/> }
    }
}
