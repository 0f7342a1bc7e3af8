//! "Where the pick flips", drawn: the decision score of the recommendation and of the designs
//! nearest to it (those the flips name) against the read/write ratio, every read rate scaled
//! alike (the writes unchanged), today's ratio marked, each flip a dot where two lines cross.
//! The data is the core's ([`ratio_chart`]); this only draws it. Lines differ by dash as well
//! as by colour, so they read in print and without colour.

use leptos::prelude::*;

use super::rate;
use crate::advise::cost::{ratio_chart, Cost, RatioChart};
use crate::advise::text::design_in;
use crate::advise::Advice;
use crate::lang::Msg;
use crate::ui::i18n::{lang, tr, tv};

/// The drawing's size in its own units (it scales to the card's width).
const W: f64 = 560.0;
const H: f64 = 230.0;
/// Room for the axes' labels: left, bottom, top, right.
const LEFT: f64 = 40.0;
const BOTTOM: f64 = 46.0;
const TOP: f64 = 22.0;
const RIGHT: f64 = 14.0;
/// Ratios drawn per line.
const POINTS: usize = 60;
/// Designs drawn besides the recommendation (the nearest flips).
const OTHERS: usize = 3;
/// The dash of each line, the recommendation's first (solid).
const DASHES: [&str; 4] = ["none", "7 4", "2 4", "12 4 2 4"];

/// The chart's data: the designs' labels (the recommendation's first) and the curves with
/// their crossings; `None` when nothing flips by the ratio.
fn data(advice: &Advice) -> Option<(Vec<String>, RatioChart)> {
    let rec = advice.recommended.as_ref()?;
    let rec_cost = rec.cost.as_ref()?;
    let cost_of = |label: &str| -> Option<&Cost> {
        advice
            .top
            .iter()
            .chain(&advice.front)
            .find(|a| a.label == label)
            .and_then(|a| a.cost.as_ref())
    };
    let others: Vec<(&str, &Cost, Option<f64>)> = advice
        .flips
        .iter()
        .filter_map(|f| {
            Some((
                f.design.as_str(),
                cost_of(&f.design)?,
                f.reads_per_write_at_flip,
            ))
        })
        .take(OTHERS)
        .collect();
    let today = advice.flips.iter().find_map(|f| f.reads_per_write)?;
    if others.is_empty() {
        return None;
    }
    let costs: Vec<&Cost> = std::iter::once(rec_cost)
        .chain(others.iter().map(|o| o.1))
        .collect();
    let at: Vec<Option<f64>> = others.iter().map(|o| o.2).collect();
    let chart = ratio_chart(&costs, today, &at, &advice.weights, POINTS)?;
    let labels = std::iter::once(rec.label.clone())
        .chain(others.iter().map(|o| o.0.to_string()))
        .collect();
    Some((labels, chart))
}

/// The flip chart of an advice, or nothing when no flip is by the read/write ratio.
#[component]
pub fn RatioChartView(
    /// The advice drawn.
    advice: Advice,
) -> impl IntoView {
    let Some((labels, chart)) = data(&advice) else {
        return ().into_any();
    };
    let first = chart
        .ratios
        .first()
        .copied()
        .unwrap_or(1.0)
        .max(f64::MIN_POSITIVE);
    let last = chart
        .ratios
        .last()
        .copied()
        .unwrap_or(10.0)
        .max(first * 10.0);
    let (l0, l1) = (libm::log10(first), libm::log10(last));
    let x_of =
        move |r: f64| LEFT + (libm::log10(r.max(first)) - l0) / (l1 - l0) * (W - LEFT - RIGHT);
    let all = chart
        .scores
        .iter()
        .flatten()
        .copied()
        .filter(|s| s.is_finite());
    let (lo, hi) = all.fold((f64::MAX, f64::MIN), |(lo, hi), s| (lo.min(s), hi.max(s)));
    let pad = ((hi - lo) * 0.06).max(1e-6);
    let (lo, hi) = (lo - pad, hi + pad);
    let y_of = move |s: f64| TOP + (hi - s) / (hi - lo) * (H - BOTTOM - TOP);
    // Powers of ten inside the range, labelled as the compare table's rates.
    let ticks = (l0.ceil() as i32..=l1.floor() as i32)
        .map(|e| {
            let r = libm::pow(10.0, f64::from(e));
            let x = x_of(r);
            view! {
                <line class="grid" x1=x x2=x y1=TOP y2=H - BOTTOM/>
                <text class="tick" x=x y=H - BOTTOM + 18.0 text-anchor="middle" aria-hidden="true">{rate(r)}</text>
            }
        })
        .collect_view();
    let lines = chart
        .scores
        .iter()
        .enumerate()
        .rev()
        .map(|(i, scores)| {
            let points = chart
                .ratios
                .iter()
                .zip(scores)
                .map(|(r, s)| format!("{:.1},{:.1}", x_of(*r), y_of(*s)))
                .collect::<Vec<_>>()
                .join(" ");
            let dash = DASHES.get(i).copied().unwrap_or("none");
            view! { <polyline class="ratio-line" class:recommended=i == 0 points=points stroke-dasharray=dash data-series=i.to_string()/> }
        })
        .collect_view();
    // The crossings are the core's (inside the drawn range by construction).
    let dots = chart
        .flips
        .iter()
        .zip(labels.iter().skip(1))
        .filter_map(|(flip, label)| Some(((*flip)?, label.clone())))
        .map(|((r, score), label)| {
            let (x, y) = (x_of(r), y_of(score));
            let advice = advice.clone();
            let title = move || {
                tv(
                    Msg::RatioChartFlip,
                    &[("design", design_in(&advice, &label, lang())), ("ratio", rate(r))],
                )
            };
            view! { <circle class="ratio-flip" cx=x cy=y r=5.0 data-ratio=r.to_string()><title>{title}</title></circle> }
        })
        .collect_view();
    let today = chart.today;
    let tx = x_of(today);
    let anchor = if tx > W * 0.75 { "end" } else { "start" };
    let legend = labels
        .into_iter()
        .enumerate()
        .map(|(i, label)| {
            let dash = DASHES.get(i).copied().unwrap_or("none");
            let advice = advice.clone();
            view! {
                <li class:recommended=i == 0>
                    <svg class="ratio-key" viewBox="0 0 28 10" aria-hidden="true">
                        <line class="ratio-line" class:recommended=i == 0 x1=1.0 x2=27.0 y1=5.0 y2=5.0 stroke-dasharray=dash/>
                    </svg>
                    {move || design_in(&advice, &label, lang())}
                </li>
            }
        })
        .collect_view();
    view! {
        <figure class="advise-ratio" data-testid="advise-ratio" data-today=today.to_string()>
            <svg viewBox=format!("0 0 {W} {H}") role="img" aria-label=tr!(RatioChartAria)>
                {ticks}
                <line class="axis" x1=LEFT x2=W - RIGHT y1=H - BOTTOM y2=H - BOTTOM/>
                <line class="axis" x1=LEFT x2=LEFT y1=TOP y2=H - BOTTOM/>
                <line class="ratio-today" x1=tx x2=tx y1=TOP - 6.0 y2=H - BOTTOM/>
                <text class="ratio-today-label" x=if anchor == "end" { tx - 4.0 } else { tx + 4.0 } y=TOP - 8.0 text-anchor=anchor>
                    {move || tv(Msg::RatioChartToday, &[("ratio", rate(today))])}
                </text>
                {lines}
                {dots}
                <text class="axis-label" x=(LEFT + W - RIGHT) / 2.0 y=H - 8.0 text-anchor="middle" aria-hidden="true">{tr!(RatioChartX)}</text>
                <text class="axis-label" x=16.0 y=(TOP + H - BOTTOM) / 2.0 text-anchor="middle"
                    transform=format!("rotate(-90 16 {})", (TOP + H - BOTTOM) / 2.0) aria-hidden="true">{tr!(RatioChartY)}</text>
            </svg>
            <ul class="ratio-legend">{legend}</ul>
            <figcaption class="card-note">{tr!(RatioChartCaption)}</figcaption>
        </figure>
    }
    .into_any()
}
