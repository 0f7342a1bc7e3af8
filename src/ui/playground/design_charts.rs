//! The offered designs side by side as charts, from the engine's evaluations: the cost of each
//! operation per run (log scale) and the storage of each collection at full scale. Geometry is
//! in [`crate::chart`]; each chart carries its numbers as `data-*` attributes, `<title>`s and a
//! visually hidden table.

use std::sync::Arc;

use leptos::prelude::*;

use crate::chart::{grouped_bars, linear_ticks, stack, LogScale};
use crate::eval::summary::{OperationSummary, Summary};
use crate::human;

/// One design and its evaluation, `None` while it is pending (or failed).
pub type DesignEval = (String, Option<Arc<Summary>>);

/// A collection's name, data bytes and index bytes.
type Part = (String, f64, f64);

const W: f64 = 620.0;
const LEFT: f64 = 56.0;
const TOP: f64 = 12.0;
const PH: f64 = 150.0;
const BOTTOM: f64 = 40.0;

/// A per-run metric of an operation.
struct Cost {
    label: &'static str,
    value: fn(&OperationSummary) -> f64,
}

const COSTS: &[Cost] = &[
    Cost {
        label: "Round trips per run",
        value: |o| o.queries as f64,
    },
    Cost {
        label: "Documents examined per run",
        value: |o| o.typical.total.docs_examined.value,
    },
    Cost {
        label: "Documents written per run",
        value: |o| o.typical.total.docs_written.value,
    },
];

/// Returns a figure for labels: whole numbers with thousands separators, small fractions with
/// two decimals at most.
fn num(v: f64) -> String {
    if !v.is_finite() {
        "–".into()
    } else if v >= 100.0 || v.fract() == 0.0 {
        human::thousands(v.max(0.0).round() as u64)
    } else {
        let t = format!("{v:.2}");
        t.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// Returns a decade tick's label: 1, 10, 100, 1K, 10K, 1M…
fn decade(v: f64) -> String {
    match v {
        v if v >= 1e9 => format!("{}B", num(v / 1e9)),
        v if v >= 1e6 => format!("{}M", num(v / 1e6)),
        v if v >= 1e3 => format!("{}K", num(v / 1e3)),
        v => num(v),
    }
}

/// The legend: one swatch per design, pending ones marked.
fn legend(evals: &[DesignEval]) -> impl IntoView {
    let items = evals
        .iter()
        .enumerate()
        .map(|(i, (name, s))| {
            let pending = s.is_none();
            view! {
                <li class=format!("s{}", i % 4) class:pending=pending>
                    <span class="swatch" aria-hidden="true"></span>
                    {name.clone()}{pending.then_some(" (pending)")}
                </li>
            }
        })
        .collect_view();
    view! { <ul class="chart-legend">{items}</ul> }
}

/// Cost per operation per design: one small chart per metric, operations on the x axis, one
/// bar per design, log scale.
#[component]
pub fn CostCharts(evals: Signal<Vec<DesignEval>>) -> impl IntoView {
    move || {
        let evals = evals.get();
        let ops: Vec<String> = evals
            .iter()
            .find_map(|(_, s)| s.as_ref())
            .map(|s| s.operations.iter().map(|o| o.unit.clone()).collect())
            .unwrap_or_default();
        if ops.is_empty() {
            return view! { <p class="muted">"Evaluating the designs…"</p> }.into_any();
        }
        let charts = COSTS
            .iter()
            .map(|c| cost_chart(c, &ops, &evals))
            .collect_view();
        view! {
            <div class="design-charts">
                <h3>"Cost per operation, per run (typical subject)"</h3>
                {legend(&evals)}
                <div class="chart-row">{charts}</div>
            </div>
        }
        .into_any()
    }
}

/// Returns the value of metric `c` for operation `op` in `s`.
fn cost_of(c: &Cost, s: &Summary, op: &str) -> Option<f64> {
    s.operations.iter().find(|o| o.unit == op).map(c.value)
}

fn cost_chart(c: &Cost, ops: &[String], evals: &[DesignEval]) -> impl IntoView {
    let values: Vec<Vec<Option<f64>>> = ops
        .iter()
        .map(|op| {
            evals
                .iter()
                .map(|(_, s)| s.as_ref().and_then(|s| cost_of(c, s, op)))
                .collect()
        })
        .collect();
    let all: Vec<f64> = values.iter().flatten().flatten().copied().collect();
    let scale = LogScale::new(&all);
    let pw = W - LEFT - 8.0;
    let layout = grouped_bars(ops.len(), evals.len(), pw);
    let y = |v: f64| TOP + PH - scale.length(v, PH);
    let ticks = scale
        .ticks()
        .into_iter()
        .map(|t| {
            view! {
                <line class="grid" x1=LEFT x2=LEFT + pw y1=y(t) y2=y(t)></line>
                <text class="tick" x=LEFT - 6.0 y=y(t) + 4.0 text-anchor="end">{decade(t)}</text>
            }
        })
        .collect_view();
    let mut bars = Vec::new();
    for ((op, row), slots) in ops.iter().zip(&values).zip(&layout) {
        for (((design, _), v), &(x, w)) in evals.iter().zip(row).zip(slots) {
            let i = bars.len() % evals.len().max(1);
            let class = format!("bar s{}", i % 4);
            bars.push(match v {
                Some(v) => {
                    let top = y(*v);
                    view! {
                        <rect class=class x=LEFT + x y=top width=w height=(TOP + PH - top).max(0.0)
                            data-design=design.clone() data-op=op.clone() data-value=v.to_string()>
                            <title>{format!("{design}, {op}: {}", num(*v))}</title>
                        </rect>
                    }
                    .into_any()
                }
                None => view! {
                    <rect class="bar pending" x=LEFT + x y=TOP width=w height=PH
                        data-design=design.clone() data-op=op.clone() data-pending="">
                        <title>{format!("{design}, {op}: pending")}</title>
                    </rect>
                }
                .into_any(),
            });
        }
    }
    let band = pw / ops.len().max(1) as f64;
    let names = ops
        .iter()
        .enumerate()
        .map(|(g, op)| {
            view! {
                <text class="op-label" x=LEFT + band * (g as f64 + 0.5) y=TOP + PH + 16.0 text-anchor="middle">
                    {op.clone()}
                </text>
            }
        })
        .collect_view();
    let label = format!(
        "{} per operation for each design, logarithmic scale; the numbers are in the table that follows.",
        c.label
    );
    let aria = label.clone();
    view! {
        <figure class="chart" data-chart="cost" data-metric=c.label>
            <figcaption>{c.label}<span class="axis-note">" (log scale)"</span></figcaption>
            <svg viewBox=format!("0 0 {W} {}", TOP + PH + BOTTOM) role="img" aria-label=aria>
                <title>{label}</title>
                {ticks}
                <line class="axis" x1=LEFT x2=LEFT + pw y1=TOP + PH y2=TOP + PH></line>
                {bars}
                {names}
            </svg>
            {data_table(c.label, ops, evals, &values, num)}
        </figure>
    }
}

/// A visually hidden table with the chart's numbers: one row per item, one column per design.
fn data_table(
    caption: &str,
    rows: &[String],
    evals: &[DesignEval],
    values: &[Vec<Option<f64>>],
    show: fn(f64) -> String,
) -> impl IntoView {
    view! {
        <table class="visually-hidden">
            <caption>{caption.to_string()}</caption>
            <tr>
                <th scope="col">""</th>
                {evals.iter().map(|(d, _)| view! { <th scope="col">{d.clone()}</th> }).collect_view()}
            </tr>
            {rows.iter().zip(values).map(|(r, vs)| view! {
                <tr>
                    <th scope="row">{r.clone()}</th>
                    {vs.iter().map(|v| view! { <td>{v.map(show).unwrap_or_else(|| "pending".into())}</td> }).collect_view()}
                </tr>
            }).collect_view()}
        </table>
    }
}

/// Storage per design at full scale: one stacked bar per design, a data and an index segment
/// per collection.
#[component]
pub fn StorageChart(evals: Signal<Vec<DesignEval>>) -> impl IntoView {
    move || {
        let evals = evals.get();
        // Each design's (collection, data bytes, index bytes).
        let parts: Vec<Option<Vec<Part>>> = evals
            .iter()
            .map(|(_, s)| {
                s.as_ref().map(|s| {
                    s.collections
                        .iter()
                        .map(|c| (c.name.clone(), c.stats.total_bytes, c.index_bytes.value))
                        .collect()
                })
            })
            .collect();
        let totals: Vec<Option<f64>> = parts
            .iter()
            .map(|p| p.as_ref().map(|p| p.iter().map(|c| c.1 + c.2).sum()))
            .collect();
        let ticks = linear_ticks(totals.iter().flatten().copied().fold(0.0, f64::max));
        let top = ticks.last().copied().unwrap_or(1.0);
        let pw = W - LEFT - 8.0;
        let layout = grouped_bars(evals.len(), 1, pw);
        let y = |v: f64| TOP + PH - v / top * PH;
        let size = |v: f64| human::binary_size(v.max(0.0).round() as u64);
        let grid = ticks
            .iter()
            .map(|&t| {
                view! {
                    <line class="grid" x1=LEFT x2=LEFT + pw y1=y(t) y2=y(t)></line>
                    <text class="tick" x=LEFT - 6.0 y=y(t) + 4.0 text-anchor="end">{size(t)}</text>
                }
            })
            .collect_view();
        let bars = evals
            .iter()
            .zip(&parts)
            .zip(&layout)
            .map(|(((design, _), p), slot)| {
                let (x, w) = slot.first().copied().unwrap_or((0.0, 0.0));
                let x = LEFT + x;
                let label = view! {
                    <text class="op-label" x=x + w / 2.0 y=TOP + PH + 16.0 text-anchor="middle">{design.clone()}</text>
                };
                match p {
                    None => view! {
                        <rect class="bar pending" x=x y=TOP width=w height=PH data-design=design.clone() data-pending="">
                            <title>{format!("{design}: pending")}</title>
                        </rect>
                        {label}
                    }
                    .into_any(),
                    Some(p) => {
                        let flat: Vec<f64> = p.iter().flat_map(|c| [c.1, c.2]).collect();
                        let segs = stack(&flat, top, PH);
                        let rects = p
                            .iter()
                            .enumerate()
                            .flat_map(|(i, c)| {
                                [(i, &c.0, "data", c.1), (i, &c.0, "index", c.2)]
                            })
                            .zip(segs)
                            .map(|((i, coll, kind, v), (from, len))| view! {
                                <rect class=format!("seg c{} {kind}", i % 6) x=x y=TOP + PH - from - len width=w height=len
                                    data-design=design.clone() data-collection=coll.clone() data-kind=kind data-value=v.to_string()>
                                    <title>{format!("{design}, {coll} {kind}: {} (estimate)", size(v))}</title>
                                </rect>
                            })
                            .collect_view();
                        view! { {rects}{label} }.into_any()
                    }
                }
            })
            .collect_view();
        let names: Vec<String> = evals.iter().map(|(d, _)| d.clone()).collect();
        let summary = "Estimated storage at full scale per design: data and index bytes of each collection, stacked.";
        view! {
            <figure class="chart" data-chart="storage">
                <figcaption>"Storage at full scale (estimate): data, then indexes (lighter), per collection"</figcaption>
                <svg viewBox=format!("0 0 {W} {}", TOP + PH + BOTTOM) role="img" aria-label=summary>
                    <title>{summary}</title>
                    {grid}
                    <line class="axis" x1=LEFT x2=LEFT + pw y1=TOP + PH y2=TOP + PH></line>
                    {bars}
                </svg>
                {storage_table(&names, &parts)}
            </figure>
        }
    }
}

/// The storage chart's numbers: one row per design and collection.
fn storage_table(names: &[String], parts: &[Option<Vec<Part>>]) -> impl IntoView {
    let size = |v: f64| human::binary_size(v.max(0.0).round() as u64);
    view! {
        <table class="visually-hidden">
            <caption>"Estimated storage per design and collection"</caption>
            <tr><th scope="col">"Design"</th><th scope="col">"Collection"</th><th scope="col">"Data"</th><th scope="col">"Indexes"</th></tr>
            {names.iter().zip(parts).map(|(d, p)| match p {
                None => view! { <tr><th scope="row">{d.clone()}</th><td colspan="3">"pending"</td></tr> }.into_any(),
                Some(p) => p.iter().map(|c| view! {
                    <tr><th scope="row">{d.clone()}</th><td>{c.0.clone()}</td><td>{size(c.1)}</td><td>{size(c.2)}</td></tr>
                }).collect_view().into_any(),
            }).collect_view()}
        </table>
    }
}
