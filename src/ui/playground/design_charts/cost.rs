//! Cost per operation per design: for the chosen metric, one group of bars per operation and
//! one bar per design, the exact figure after each bar and in its accessible label.

use leptos::prelude::*;

use crate::lang::Msg;
use crate::ui::i18n::{lang, metric_label, t, tr, tv};

use super::{axes, chart_svg, legend_item, placeholder_bar, Colour, Design, Size};
use crate::chart::bars::{columns, fit_text, groups, Layout, Scale, Spec};
use crate::chart::svg::Svg;
use crate::eval::metric::{Metric, CHARTED};
use crate::eval::OperationEval;
use crate::human;
use crate::ui::playground::evaluated::shown;

/// Returns `metric` for the typical run of `op`, with its text as the workload view shows it.
fn value(metric: Metric, op: &OperationEval) -> Option<(f64, String)> {
    let f = metric.per_run(&op.typical)?;
    Some((f.value, shown(metric, f)))
}

/// Returns a tick's label: 0.1, 1, 10, 100, 1K, 10K, 1M, 1B; 2.5K on linear scales.
fn tick_text(v: f64) -> String {
    let short = |x: f64| {
        let t = format!("{x:.1}");
        t.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    match v {
        v if v >= 1e9 => format!("{}B", short(v / 1e9)),
        v if v >= 1e6 => format!("{}M", short(v / 1e6)),
        v if v >= 1e3 => format!("{}K", short(v / 1e3)),
        v if v >= 1.0 || v == 0.0 => short(v),
        v => format!("{v}"),
    }
}

/// The cost chart with its metric switch and legend.
#[component]
pub fn CostChart(designs: Memo<Vec<Design>>, size: Signal<Size>) -> impl IntoView {
    let metric = RwSignal::new(Metric::RoundTrips);
    // Without operations there is nothing to switch between nor to tell apart: the chart
    // only says so.
    let idle = Memo::new(move |_| designs.with(|ds| super::nothing_to_run(ds)));
    let switch = move || {
        (!idle.get()).then(|| {
            let buttons = CHARTED
                .into_iter()
                .map(|m| {
                    view! {
                        <button type="button" class="metric-switch" data-metric=m.key()
                            aria-pressed=move || (metric.get() == m).to_string()
                            on:click=move |_| metric.set(m)>{move || metric_label(m, lang())}</button>
                    }
                })
                .collect_view();
            view! { <span class="metric-switches" role="group" aria-label=tr!(ChartMetric)>{buttons}</span> }
        })
    };
    let legend = move || {
        if idle.get() {
            return None;
        }
        let items = designs
            .get()
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let why = d.infeasible();
                let full = match &d.state {
                    super::State::Failed(e) => tv(
                        Msg::LegendFailed,
                        &[("label", d.label.clone()), ("error", e.to_string())],
                    ),
                    _ if !why.is_empty() => tv(
                        Msg::LegendInfeasible,
                        &[("label", d.label.clone()), ("codes", why.join(", "))],
                    ),
                    _ => d.label.clone(),
                };
                let text = match d.state {
                    super::State::Done(_) => d.chart_label(),
                    _ => tv(
                        Msg::LegendPending,
                        &[("label", d.label.clone()), ("state", d.placeholder())],
                    ),
                };
                legend_item(Colour::Design(i), text, d.state_name(), full)
            })
            .collect_view();
        Some(view! { <ul class="chart-legend">{items}</ul> })
    };
    view! {
        <figure class="chart" data-chart="cost">
            <figcaption>
                <span class="chart-title">{tr!(CostChartTitle)}</span>
                {switch}
            </figcaption>
            {legend}
            {move || draw(&designs.get(), metric.get(), size.get())}
        </figure>
    }
}

/// Returns what the chart says while it has no operation to draw: the designs evaluated have
/// none, none could be evaluated, or they are still being evaluated.
fn empty_text(designs: &[Design]) -> String {
    if designs.iter().any(|d| d.evaluation().is_some()) {
        t(Msg::ChartNoOperations)
    } else if designs
        .iter()
        .all(|d| matches!(d.state, super::State::Failed(_)))
    {
        t(Msg::ChartNoneEvaluated)
    } else {
        t(Msg::ChartEvaluating)
    }
}

/// Returns the chart's layout: a group of bars per operation (`cells`' rows), a bar per design,
/// room for the longest design label and the longest value text.
fn cost_layout(designs: &[Design], cells: &[Vec<Option<(f64, String)>>], size: Size) -> Layout {
    let label_chars = designs
        .iter()
        .map(|d| columns(&d.chart_label()))
        .max()
        .unwrap_or(0);
    let value_chars = cells
        .iter()
        .flatten()
        .flatten()
        .map(|c| columns(&c.1))
        .max()
        .unwrap_or(0);
    Layout::new(Spec {
        width: size.width,
        font: size.font,
        label_chars,
        value_chars,
        groups: cells.len(),
        bars: designs.len(),
        headings: true,
    })
}

/// Draws `metric` for every operation and design.
fn draw(designs: &[Design], metric: Metric, size: Size) -> impl IntoView {
    // The workload's operations of every design evaluated: a design's lifecycle patterns may
    // add units of their own (approximate's slowed counter, archive's move and old-data read).
    let ops = groups(designs.iter().filter_map(|d| d.evaluation()).map(|s| {
        s.operations
            .iter()
            .map(|o| o.unit.as_str())
            .collect::<Vec<_>>()
    }));
    if ops.is_empty() {
        let text = empty_text(designs);
        return view! { <p class="muted chart-empty">{text}</p> }.into_any();
    }
    // Per operation, per design: the figure and its text.
    let cells: Vec<Vec<Option<(f64, String)>>> = ops
        .iter()
        .map(|op| {
            designs
                .iter()
                .map(|d| {
                    d.evaluation()
                        .and_then(|s| s.operations.iter().find(|o| &o.unit == op))
                        .and_then(|o| value(metric, o))
                })
                .collect()
        })
        .collect();
    let values: Vec<f64> = cells.iter().flatten().flatten().map(|c| c.0).collect();
    let scale = Scale::choose(&values);
    let font = size.font;
    let l = cost_layout(designs, &cells, size);
    let mut svg = Svg::default();
    axes(&mut svg, &l, &scale, font, tick_text);
    for ((op, row), group) in ops.iter().zip(&cells).zip(&l.groups) {
        // The operation as the page's language names it; `data-op` keeps its own name.
        let said = crate::ui::i18n::unit_label(op);
        let heading = fit_text(&said, l.width - l.plot_x, font);
        svg.text("group-label", l.plot_x, group.heading_y, "start", &heading);
        for (i, ((d, cell), r)) in designs.iter().zip(row).zip(&group.rows).enumerate() {
            let shown_as = d.chart_label();
            let name = fit_text(&shown_as, l.label_w, font);
            svg.text("bar-label", l.plot_x - l.gap, r.text_y, "end", &name);
            match cell {
                Some((v, text)) => {
                    let len = l.length(&scale, *v);
                    let label = tv(
                        Msg::CostBarLabel,
                        &[
                            ("design", shown_as.clone()),
                            ("op", said.clone()),
                            ("value", text.clone()),
                            ("metric", metric_label(metric, lang())),
                        ],
                    );
                    let why = d.infeasible().join(",");
                    let class = if why.is_empty() {
                        format!("bar {}", Colour::Design(i).class())
                    } else {
                        format!("bar {} infeasible", Colour::Design(i).class())
                    };
                    let value = v.to_string();
                    let data = [
                        ("design", d.name.as_str()),
                        ("op", op.as_str()),
                        ("state", "done"),
                        ("value", value.as_str()),
                        ("text", text.as_str()),
                    ];
                    let mut data = data.to_vec();
                    if !why.is_empty() {
                        data.push(("infeasible", why.as_str()));
                    }
                    svg.rect(&class, l.plot_x, r.y, len, r.h, &label, &data);
                    svg.text("bar-value", l.plot_x + len + l.gap, r.text_y, "start", text);
                }
                None => {
                    let what = if d.evaluation().is_some() {
                        t(Msg::NotInDesign)
                    } else {
                        d.placeholder()
                    };
                    placeholder_bar(&mut svg, &l, r, d, &what, Some(op.as_str()), font);
                }
            }
        }
    }
    let scale_name = if scale.is_log() {
        "log scale"
    } else {
        "linear scale"
    };
    let label = human::capitalize(&metric_label(metric, lang()));
    let scale_text = t(if scale.is_log() {
        Msg::LogScale
    } else {
        Msg::LinearScale
    });
    let values = [("metric", label), ("scale", scale_text)];
    chart_svg(
        &l,
        font,
        tv(Msg::CostNote, &values),
        tv(Msg::CostTitle, &values),
        scale_name,
        svg.finish(),
    )
}
