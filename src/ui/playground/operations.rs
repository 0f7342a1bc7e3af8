//! The workload: what each application unit sends to the database.

use leptos::prelude::*;

use crate::lang::Msg;
use crate::ui::i18n::{t, tr, tv};

use super::evaluated::NothingToRun;
use crate::analysis::Analysis;
use crate::human;
use crate::ui::clipboard::copy;

/// One row per application unit: its rate, round trips and the mongosh of each.
#[component]
pub fn OperationList(
    /// The design's analysis.
    #[prop(into)]
    analysis: Signal<Analysis>,
) -> impl IntoView {
    view! {
        <div class="card operations">
            <div class="card-head">
                <h2>{tr!(WorkloadHeading)}</h2>
                <p class="card-note">{tr!(WorkloadNote)}</p>
            </div>
            {move || {
                let units = analysis.get().layout.plan.units;
                // A workload without operations: nothing to run, said rather than left blank.
                let idle = units.is_empty().then(|| view! { <NothingToRun/> });
                let rows = units
                    .into_iter()
                    .map(|u| {
                        let queries = u.queries();
                        let per_sec = crate::eval::metric::per_sec(queries as f64, u.rate_per_sec);
                        view! {
                            <section class="unit" data-unit=u.unit.clone()>
                                <header class="unit-head">
                                    <h3>{crate::ui::i18n::unit_label(&u.unit)}</h3>
                                    <span class="metric" data-metric="queries">
                                        <strong>{queries}</strong>" "{t(if queries == 1 { Msg::QueriesOne } else { Msg::QueriesMany })}
                                    </span>
                                    <span class="muted">
                                        {tv(Msg::RateLine, &[("rate", human::thousands(u.rate_per_sec.round() as u64)), ("trips", human::thousands(per_sec.round() as u64))])}
                                    </span>
                                </header>
                                {u.commands.into_iter().map(|c| {
                                    let code = c.mongosh();
                                    let to_copy = code.clone();
                                    view! {
                                        <div class="command">
                                            <pre class="code">{code}</pre>
                                            <button type="button" class="copy" on:click=move |_| copy(&to_copy) aria-label=tr!(CopyMongosh)>{tr!(CopyButton)}</button>
                                            <p class="muted note">{c.note}</p>
                                        </div>
                                    }
                                }).collect_view()}
                            </section>
                        }
                    })
                    .collect_view();
                (idle, rows)
            }}
        </div>
    }
}
