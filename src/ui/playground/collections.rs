//! One card per collection: full-scale counts and sizes, break points, indexes.

use leptos::prelude::*;

use super::GrowthChart;
use crate::analysis::Analysis;
use crate::arith::SizeFigure;
use crate::human;
use crate::size::MAX_BSON_SIZE;

/// Returns a size figure as text, with `≈` in front of an estimate.
pub fn size_text(f: &SizeFigure) -> String {
    let approx = if f.exact { "" } else { "≈ " };
    format!("{approx}{} B", human::thousands(f.bytes))
}

/// Returns a full-scale count as a whole number with separators.
pub fn count_text(n: f64) -> String {
    if n.is_finite() && n >= 0.0 {
        human::thousands(n.round() as u64)
    } else {
        "–".to_string()
    }
}

/// The collections of the design, each with its sizes at full scale.
#[component]
pub fn CollectionCards(
    /// The design's analysis.
    #[prop(into)]
    analysis: Signal<Analysis>,
) -> impl IntoView {
    view! {
        <div class="collections">
            {move || {
                let a = analysis.get();
                a.layout
                    .collections
                    .iter()
                    .zip(a.stats.iter())
                    .map(|(c, s)| {
                        let indexes: Vec<String> = c.indexes.iter().map(|i| i.mongosh()).collect();
                        let shard = c.shard_key.as_ref().map(|k| crate::ejson::to_shell_string(&bson::Bson::Document(k.clone()), false));
                        view! {
                            <article class="card collection" data-collection=c.name.clone()>
                                <div class="card-head">
                                    <h3><code>{c.name.clone()}</code></h3>
                                    <span class="muted">
                                        {count_text(s.count)}" documents · "
                                        {if s.total_exact { "" } else { "≈ " }}
                                        {human::binary_size(s.total_bytes.max(0.0).round() as u64)}
                                    </span>
                                </div>
                                <table class="shape-table">
                                    <thead>
                                        <tr>
                                            <th scope="col">"Documents"</th>
                                            <th scope="col" class="num">"Count"</th>
                                            <th scope="col" class="num">"Average"</th>
                                            <th scope="col" class="num">"p50"</th>
                                            <th scope="col" class="num">"p99"</th>
                                            <th scope="col" class="num">"Largest"</th>
                                        </tr>
                                    </thead>
                                    <tbody>
                                        {s.shapes.iter().map(|sh| {
                                            let level = if sh.max.bytes > MAX_BSON_SIZE { "over" } else if sh.max.bytes as f64 >= 0.8 * MAX_BSON_SIZE as f64 { "warn" } else { "ok" };
                                            view! {
                                                <tr>
                                                    <td>{sh.label.clone()}</td>
                                                    <td class="num">{count_text(sh.count)}</td>
                                                    <td class="num">{size_text(&sh.average)}</td>
                                                    <td class="num">{size_text(&sh.p50)}</td>
                                                    <td class="num">{size_text(&sh.p99)}</td>
                                                    <td class="num largest" data-level=level>{size_text(&sh.max)}</td>
                                                </tr>
                                            }
                                        }).collect_view()}
                                    </tbody>
                                </table>
                                {s.shapes.iter().flat_map(|sh| sh.arrays.iter()).map(|arr| {
                                    let verdict = match (&arr.break_point, arr.capped) {
                                        (_, true) => "capped: never breaks 16 MiB".to_string(),
                                        (Some(bp), false) => {
                                            let approx = if bp.exact { "" } else { "≈ " };
                                            let when = if arr.max_count >= bp.count {
                                                ": the largest parent is already past it".to_string()
                                            } else {
                                                arr.largest_reaches.as_ref().map(|d| format!(", reached by the largest parent on {} (in {} days)", d.date, human::thousands(d.days))).unwrap_or_default()
                                            };
                                            format!("breaks 16 MiB at {approx}{} elements{when}", human::thousands(bp.count))
                                        }
                                        (None, false) => "no break point".to_string(),
                                    };
                                    let broken = arr.break_point.as_ref().is_some_and(|bp| !arr.capped && arr.max_count >= bp.count);
                                    let chart = (!arr.capped).then(|| view! { <GrowthChart array=arr.clone()/> });
                                    view! {
                                        <p class="array-line" class:broken=broken>
                                            <code>{arr.field.clone()}</code>
                                            {format!(" ({}): largest has {} · ", arr.relationship, human::thousands(arr.max_count))}
                                            <strong>{verdict}</strong>
                                        </p>
                                        {chart}
                                    }
                                }).collect_view()}
                                <div class="indexes">
                                    {shard.map(|k| view! { <p class="muted">"Shard key "<code>{k}</code></p> })}
                                    {indexes.into_iter().map(|code| view! { <pre class="code">{code}</pre> }).collect_view()}
                                </div>
                            </article>
                        }
                    })
                    .collect_view()
            }}
        </div>
    }
}
