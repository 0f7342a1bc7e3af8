//! The designs side by side, the best value per metric highlighted.

use leptos::prelude::*;

use super::collections::count_text;
use crate::analysis::Analysis;
use crate::human;
use crate::warning::Severity;

/// One metric of the comparison: lower is better for all of them.
struct Metric {
    label: &'static str,
    value: fn(&Analysis) -> f64,
    show: fn(f64) -> String,
}

const METRICS: &[Metric] = &[
    Metric {
        label: "Round trips per second",
        value: |a| {
            a.layout
                .plan
                .units
                .iter()
                .map(|u| u.rate_per_sec * u.queries() as f64)
                .sum()
        },
        show: count_text,
    },
    Metric {
        label: "Storage (documents)",
        value: |a| a.stats.iter().map(|s| s.total_bytes).sum(),
        show: |v| human::binary_size(v.max(0.0).round() as u64),
    },
    Metric {
        label: "Largest document",
        value: |a| {
            a.stats
                .iter()
                .flat_map(|s| s.shapes.iter())
                .map(|s| s.max.bytes as f64)
                .fold(0.0, f64::max)
        },
        show: |v| format!("{} B", count_text(v)),
    },
    Metric {
        label: "Collections",
        value: |a| a.layout.collections.len() as f64,
        show: count_text,
    },
    Metric {
        label: "Indexes",
        value: |a| {
            a.layout
                .collections
                .iter()
                .map(|c| c.indexes.len())
                .sum::<usize>() as f64
        },
        show: count_text,
    },
    Metric {
        label: "Errors (mongod refuses)",
        value: |a| {
            a.warnings
                .iter()
                .filter(|w| w.severity == Severity::Error)
                .count() as f64
        },
        show: count_text,
    },
];

/// The comparison table: one column per design, the best (lowest) value of each row marked.
#[component]
pub fn CompareTable(
    /// Each design's label with its analysis (or why it failed).
    rows: Vec<(String, Result<Analysis, String>)>,
    /// The index of the design shown above, marked in the header.
    current: ReadSignal<usize>,
) -> impl IntoView {
    let columns: Vec<(String, Option<Analysis>)> =
        rows.into_iter().map(|(c, r)| (c, r.ok())).collect();
    let header = columns.clone();
    view! {
        <div class="card compare">
            <div class="card-head">
                <h2>"Compare designs"</h2>
                <p class="card-note">"Lower is better; the best of each row is highlighted."</p>
            </div>
            <table class="compare-table">
                <thead>
                    <tr>
                        <th scope="col">"Metric"</th>
                        {header.into_iter().enumerate().map(|(i, (label, _))| view! {
                            <th scope="col" class="num" class:current=move || current.get() == i>{label}</th>
                        }).collect_view()}
                    </tr>
                </thead>
                <tbody>
                    {METRICS.iter().map(|m| {
                        let values: Vec<Option<f64>> = columns.iter().map(|(_, a)| a.as_ref().map(m.value)).collect();
                        let best = values.iter().flatten().copied().fold(f64::INFINITY, f64::min);
                        view! {
                            <tr>
                                <th scope="row">{m.label}</th>
                                {values.into_iter().map(|v| match v {
                                    Some(v) => view! { <td class="num" class:best=v == best>{(m.show)(v)}</td> }.into_any(),
                                    None => view! { <td class="num muted">"–"</td> }.into_any(),
                                }).collect_view()}
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}
