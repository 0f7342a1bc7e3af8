//! The size of the largest document as one of its arrays grows, against the 16 MiB line.

use leptos::prelude::*;

use crate::lang::Msg;
use crate::ui::i18n::tv;

use crate::chart::GrowthCurve;
use crate::human;
use crate::size::MAX_BSON_SIZE;
use crate::stats::ArrayStats;

const W: f64 = 560.0;
const H: f64 = 180.0;
const LEFT: f64 = 64.0;
const BOTTOM: f64 = 26.0;
const TOP: f64 = 10.0;

/// Returns a count in a short form for axis labels: `844,411` → `844K`, `50000000` → `50M`.
fn short(n: f64) -> String {
    let (value, unit) = if n >= 1e9 {
        (n / 1e9, "B")
    } else if n >= 1e6 {
        (n / 1e6, "M")
    } else if n >= 1e3 {
        (n / 1e3, "K")
    } else {
        (n, "")
    };
    let text = format!("{value:.1}");
    format!("{}{unit}", text.trim_end_matches('0').trim_end_matches('.'))
}

/// The curve of one growing array, the 16 MiB line, the break point and the largest parent.
#[component]
pub fn GrowthChart(
    /// The array's statistics.
    array: ArrayStats,
) -> impl IntoView {
    let limit = MAX_BSON_SIZE as f64;
    let break_at = array
        .break_point
        .as_ref()
        .filter(|_| !array.capped)
        .map(|b| b.count as f64);
    let curve = GrowthCurve::new(
        array.base_bytes.bytes as f64,
        array.element_bytes.bytes as f64,
        array.max_count as f64,
        break_at,
        limit,
    );
    let pw = W - LEFT - 8.0;
    let ph = H - TOP - BOTTOM;
    let px = |n: f64| LEFT + curve.x(n, pw);
    let py = |b: f64| TOP + curve.y(b, ph);
    let path = curve
        .points
        .iter()
        .map(|&(n, b)| format!("{:.1},{:.1}", px(n), py(b.min(curve.y_max))))
        .collect::<Vec<_>>()
        .join(" ");
    let summary = match break_at {
        Some(b) => tv(
            Msg::GrowthSummary,
            &[
                ("relationship", array.relationship.clone()),
                ("field", array.field.clone()),
                ("count", human::thousands(b as u64)),
                ("largest", human::thousands(array.max_count)),
            ],
        ),
        None => tv(Msg::GrowthSummaryNoBreak, &[("field", array.field.clone())]),
    };
    let largest = array.max_count as f64;
    let off_chart = largest > curve.x_max;
    let largest_x = px(largest.min(curve.x_max));
    let largest_y = py(curve
        .points
        .iter()
        .rev()
        .find(|p| p.0 <= largest)
        .map(|p| p.1)
        .unwrap_or(0.0));
    let largest_text = if off_chart {
        tv(Msg::GrowthLargestOff, &[("count", short(largest))])
    } else {
        tv(Msg::GrowthLargest, &[("count", short(largest))])
    };
    let label = summary.clone();
    view! {
        <svg class="growth" viewBox=format!("0 0 {W} {H}") role="img" aria-label=label>
            <title>{summary}</title>
            // Axes.
            <line class="axis" x1=LEFT y1=TOP x2=LEFT y2=TOP + ph></line>
            <line class="axis" x1=LEFT y1=TOP + ph x2=LEFT + pw y2=TOP + ph></line>
            {[0.0, 0.5, 1.0].into_iter().map(|f| {
                let n = curve.x_max * f;
                let anchor = if f == 0.0 { "start" } else if f == 1.0 { "end" } else { "middle" };
                view! { <text class="tick" x=px(n) y=H - 8.0 text-anchor=anchor>{short(n)}</text> }
            }).collect_view()}
            <text class="tick" x=LEFT - 6.0 y=py(0.0) text-anchor="end">"0"</text>
            <text class="tick" x=LEFT - 6.0 y=py(limit / 2.0) + 4.0 text-anchor="end">"8 MiB"</text>
            // The limit.
            <line class="limit" x1=LEFT y1=py(limit) x2=LEFT + pw y2=py(limit)></line>
            <text class="limit-label" x=LEFT - 6.0 y=py(limit) + 4.0 text-anchor="end">"16 MiB"</text>
            // The curve.
            <polyline class="curve" points=path></polyline>
            {break_at.map(|b| {
                // The label sits on the side of the line with more room, at the foot of the
                // line: under the curve, clear of the largest parent's label above it.
                let right = px(b) < LEFT + pw / 2.0;
                let (x, anchor) = if right { (px(b) + 6.0, "start") } else { (px(b) - 6.0, "end") };
                view! {
                    <line class="break" x1=px(b) y1=TOP x2=px(b) y2=TOP + ph></line>
                    <text class="break-label" x=x y=TOP + ph - 8.0 text-anchor=anchor>
                        {tv(Msg::GrowthBreaksAt, &[("count", human::thousands(b as u64))])}
                    </text>
                }
            })}
            {(!off_chart).then(|| view! { <circle class="largest-dot" cx=largest_x cy=largest_y r="4"></circle> })}
            <text
                class="largest-label"
                x=if off_chart { LEFT + pw } else { largest_x - 7.0 }
                y=if off_chart { TOP + 30.0 } else { largest_y - 8.0 }
                text-anchor="end"
            >
                {largest_text}
            </text>
        </svg>
    }
}
