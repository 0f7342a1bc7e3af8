//! Storage per collection at full scale: one bar per design, one segment per collection (its
//! colour in every design), its indexes in a lighter shade after its data; the total after the
//! bar. Stacked bars need a linear scale; the ticks are round in binary units.

use leptos::prelude::*;

use crate::lang::Msg;
use crate::ui::i18n::{t, tr, tv};

use super::{axes, chart_svg, legend_item, placeholder_bar, Colour, Design, Size};
use crate::chart::bars::{columns, fit_text, stack, Layout, Row, Scale, Spec};
use crate::chart::svg::Svg;
use crate::eval::Evaluation;
use crate::human;

/// Returns a byte count as the workload view shows it.
fn size_text(v: f64) -> String {
    human::binary_size(v.max(0.0).round() as u64)
}

/// Returns a tick's label: 0, then sizes.
fn tick_text(v: f64) -> String {
    if v == 0.0 {
        "0".to_string()
    } else {
        size_text(v)
    }
}

/// Returns the collections of every evaluated design, each once, in order of appearance: the
/// same collection gets the same colour in every design.
fn collections(designs: &[Design]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in designs.iter().filter_map(Design::evaluation) {
        for c in &s.collections {
            if !out.contains(&c.name) {
                out.push(c.name.clone());
            }
        }
    }
    out
}

/// Returns the colour of collection `name` among `names` (the collections' own palette: never
/// a design's colour in the cost chart).
fn colour_of(names: &[String], name: &str) -> Colour {
    Colour::Collection(names.iter().position(|n| n == name).unwrap_or(0))
}

/// The storage chart and its legend.
#[component]
pub fn StorageChart(designs: Memo<Vec<Design>>, size: Signal<Size>) -> impl IntoView {
    let names = Memo::new(move |_| collections(&designs.get()));
    let legend = move || {
        let items = names
            .get()
            .into_iter()
            .enumerate()
            .map(|(i, n)| {
                legend_item(
                    Colour::Collection(i),
                    n.clone(),
                    "done",
                    tv(Msg::LegendCollection, &[("name", n.clone())]),
                )
            })
            .collect_view();
        view! {
            {items}
            <li class="index-key" title=tr!(IndexSizesEstimates)>
                <span class="swatch" aria-hidden="true"></span>
                {tr!(IndexFaded)}
            </li>
        }
    };
    view! {
        <figure class="chart" data-chart="storage">
            <figcaption>
                <span class="chart-title">{tr!(StorageChartTitle)}</span>
            </figcaption>
            <ul class="chart-legend">{legend}</ul>
            {move || draw(&designs.get(), &names.get(), size.get())}
        </figure>
    }
}

/// Draws one stacked bar per design.
fn draw(designs: &[Design], names: &[String], size: Size) -> impl IntoView {
    if names.is_empty() {
        return view! { <p class="muted chart-empty">{t(Msg::ChartEvaluating)}</p> }.into_any();
    }
    let font = size.font;
    let totals: Vec<Option<f64>> = designs
        .iter()
        .map(|d| d.evaluation().map(Evaluation::data_and_index_bytes))
        .collect();
    let scale = Scale::linear(totals.iter().flatten().copied().fold(0.0, f64::max), 1024.0);
    let value_chars = totals
        .iter()
        .flatten()
        .map(|t| columns(&size_text(*t)))
        .max()
        .unwrap_or(0);
    let l = Layout::new(Spec {
        width: size.width,
        font,
        label_chars: designs
            .iter()
            .map(|d| columns(&d.chart_label()))
            .max()
            .unwrap_or(0),
        value_chars,
        groups: 1,
        bars: designs.len(),
        headings: false,
    });
    let mut svg = Svg::default();
    axes(&mut svg, &l, &scale, font, tick_text);
    let rows = l.groups.first().map(|g| g.rows.clone()).unwrap_or_default();
    for (d, r) in designs.iter().zip(&rows) {
        let shown_as = d.chart_label();
        let name = fit_text(&shown_as, l.label_w, font);
        svg.text("bar-label", l.plot_x - l.gap, r.text_y, "end", &name);
        let Some(s) = d.evaluation() else {
            let what = d.placeholder();
            placeholder_bar(&mut svg, &l, r, d, &what, None, font);
            continue;
        };
        stacked_bar(&mut svg, &l, r, d, s, names, &scale);
    }
    chart_svg(
        &l,
        font,
        tv(Msg::StorageNote, &[("scale", t(Msg::LinearScale))]),
        tv(Msg::StorageTitle, &[("scale", t(Msg::LinearScale))]),
        "linear scale",
        svg.finish(),
    )
}

/// Draws one design's stacked bar: data then indexes of each collection, in the design's
/// order (each collection in its colour, each part saying its size), then the whole size.
fn stacked_bar(
    svg: &mut Svg,
    l: &Layout,
    r: &Row,
    d: &Design,
    s: &Evaluation,
    names: &[String],
    scale: &Scale,
) {
    let shown_as = d.chart_label();
    let parts: Vec<(Colour, &str, &'static str, f64)> = s
        .collections
        .iter()
        .flat_map(|c| {
            let colour = colour_of(names, &c.name);
            [
                (colour, c.name.as_str(), "data", c.stats.total_bytes),
                (colour, c.name.as_str(), "indexes", c.index_bytes.value),
            ]
        })
        .collect();
    let values: Vec<f64> = parts.iter().map(|p| p.3).collect();
    let segs = stack(&values, scale, l.plot_x, l.plot_w);
    let end = segs.last().map_or(l.plot_x, |(x, w)| x + w);
    let whole = s.data_and_index_bytes();
    let summary = tv(
        Msg::StorageSummary,
        &[("design", shown_as.clone()), ("size", size_text(whole))],
    );
    let whole_text = whole.to_string();
    let why = d.infeasible().join(",");
    let data = [
        ("design", d.name.as_str()),
        ("state", "done"),
        ("value", whole_text.as_str()),
    ];
    let mut data = data.to_vec();
    if !why.is_empty() {
        data.push(("infeasible", why.as_str()));
    }
    let class = if why.is_empty() {
        "bar"
    } else {
        "bar infeasible"
    };
    svg.group(class, &summary, &data);
    for ((colour, coll, kind, v), (x, w)) in parts.into_iter().zip(segs) {
        let kind_text = t(if kind == "indexes" {
            Msg::StorageKindIndexes
        } else {
            Msg::StorageKindData
        });
        let label = tv(
            Msg::StorageBar,
            &[
                ("design", d.label.clone()),
                ("collection", coll.to_string()),
                ("kind", kind_text),
                ("size", size_text(v)),
                (
                    "estimate",
                    if kind == "indexes" {
                        t(Msg::StorageEstimate)
                    } else {
                        String::new()
                    },
                ),
            ],
        );
        let class = format!("bar-seg {} part-{kind}", colour.class());
        let value = v.to_string();
        let data = [
            ("design", d.name.as_str()),
            ("collection", coll),
            ("kind", kind),
            ("value", value.as_str()),
        ];
        svg.rect(&class, x, r.y, w, r.h, &label, &data);
    }
    svg.close();
    svg.text(
        "bar-value",
        end + l.gap,
        r.text_y,
        "start",
        &size_text(whole),
    );
}
