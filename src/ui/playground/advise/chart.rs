//! The Pareto front as a scatter: read round trips/s across, the write cost (documents and
//! index keys written/s) up, each point's area the design's storage (data and indexes); the
//! recommendation filled. Labels are 14 units high: 16 px or more in workshop mode, where the
//! drawing is shown larger. Each point says its figures
//! on hover (`<title>`) and to screen readers, and applies its design on click, Enter or Space.
//! The scales are the bar charts' ([`Scale::choose`]: linear from 0, or log over decades when
//! the figures span more than a hundredfold).

use leptos::prelude::*;

use super::{bytes, plain_label, rate};
use crate::advise::Advised;
use crate::chart::bars::Scale;
use crate::design::DesignSpec;
use crate::lang::Msg;
use crate::ui::i18n::{t, tr, tv};

/// The drawing's size in its own units (it scales to the card's width).
const W: f64 = 560.0;
const H: f64 = 300.0;
/// Radius of the smallest and the largest storage.
const R_MIN: f64 = 7.0;
const R_MAX: f64 = 18.0;
/// Room for the axes' labels: left, bottom, top, right; the top and the right keep a whole
/// point of the largest storage inside the drawing.
const LEFT: f64 = 96.0;
const BOTTOM: f64 = 50.0;
const TOP: f64 = R_MAX + 6.0;
const RIGHT: f64 = R_MAX + 28.0;
/// Centres closer than the larger radius plus this are one marker: a rank label is about 12
/// units wide, so a nearer point would cover it.
const MERGE_SLACK: f64 = 6.0;

/// Returns the x of `v` reads/s.
fn x_of(s: &Scale, v: f64) -> f64 {
    LEFT + s.fraction(v) * (W - LEFT - RIGHT)
}

/// Returns the y of `v` writes/s.
fn y_of(s: &Scale, v: f64) -> f64 {
    H - BOTTOM - s.fraction(v) * (H - BOTTOM - TOP)
}

/// A design on the drawing: the design, its point's centre (x, y) and radius.
type Placed = (Advised, f64, f64, f64);

/// Returns the front's points as markers, each with its designs placed (a design's storage
/// sets its point's area). Points whose centres lie within the larger one's radius (and a
/// label's half-width) of each other are one marker with every rank ("1, 19"): no point hides
/// another. The rest are drawn largest first, so that a small one is never under a large one.
fn marker_groups(front: &[Advised], xs_scale: &Scale, ys_scale: &Scale) -> Vec<Vec<Placed>> {
    let max_storage = front
        .iter()
        .map(|a| a.screened.storage_cost())
        .fold(0.0_f64, f64::max);
    let radius = |s: f64| {
        if max_storage > 0.0 {
            R_MIN + (R_MAX - R_MIN) * (s.max(0.0) / max_storage).sqrt()
        } else {
            R_MIN
        }
    };
    let placed: Vec<Placed> = front
        .iter()
        .map(|a| {
            (
                a.clone(),
                x_of(xs_scale, a.screened.reads),
                y_of(ys_scale, a.screened.write_cost()),
                radius(a.screened.storage_cost()),
            )
        })
        .collect();
    let mut groups: Vec<Vec<Placed>> = Vec::new();
    for p in placed {
        let near = groups.iter_mut().find(|g| {
            g.iter()
                .any(|q| (q.1 - p.1).hypot(q.2 - p.2) < q.3.max(p.3) + MERGE_SLACK)
        });
        match near {
            Some(g) => g.push(p),
            None => groups.push(vec![p]),
        }
    }
    groups.sort_by(|a, b| {
        let r = |g: &Vec<Placed>| g.iter().map(|p| p.3).fold(0.0, f64::max);
        r(b).total_cmp(&r(a))
    });
    groups
}

/// One marker of the front: its point (the recommendation filled), its designs' ranks and
/// figures (on hover and to screen readers), and what applies the marker's first design (the
/// recommendation, else the best ranked) on click, Enter or Space.
fn point_marker(
    mut group: Vec<Placed>,
    recommended: &Option<DesignSpec>,
    apply: Callback<DesignSpec>,
) -> Option<impl IntoView> {
    // The recommendation first, then by rank: it is the one the marker applies.
    group.sort_by_key(|p| (recommended.as_ref() != Some(&p.0.design), p.0.rank));
    let (a, cx, cy, _) = group.first()?.clone();
    let r = group.iter().map(|p| p.3).fold(0.0, f64::max);
    let members: Vec<Advised> = group.into_iter().map(|p| p.0).collect();
    let merged = members.len() > 1;
    let is_rec = recommended.as_ref() == Some(&a.design);
    let recommended = recommended.clone();
    let label = {
        let members = members.clone();
        move || {
            members
                .iter()
                .map(|a| {
                    tv(
                        if recommended.as_ref() == Some(&a.design) {
                            Msg::FrontPointRecommended
                        } else {
                            Msg::FrontPoint
                        },
                        &[
                            ("rank", a.rank.to_string()),
                            ("label", plain_label(a)),
                            ("reads", rate(a.screened.reads)),
                            ("docs", rate(a.screened.writes)),
                            ("keys", rate(a.screened.index_keys_written)),
                            ("data", bytes(a.screened.storage)),
                            ("indexes", bytes(a.screened.index_bytes)),
                            ("score", format!("{:+.3}", a.score)),
                        ],
                    )
                })
                .collect::<Vec<_>>()
                .join("\n")
        }
    };
    let ranks: Vec<String> = members.iter().map(|m| m.rank.to_string()).collect();
    let (d1, d2) = (a.design.clone(), a.design.clone());
    let spec = serde_json::to_string(&a.design).unwrap_or_default();
    let title = label.clone();
    // A merged marker's ranks stand beside it, on the side with room.
    let (tx, anchor) = if !merged {
        (cx, "middle")
    } else if cx > W / 2.0 {
        (cx - r - 4.0, "end")
    } else {
        (cx + r + 4.0, "start")
    };
    Some(view! {
        <g class="front-point" class:recommended=is_rec class:merged=merged role="button" tabindex="0"
            aria-label=label data-rank=a.rank.to_string() data-ranks=ranks.join(" ") data-design=spec
            data-reads=a.screened.reads.to_string() data-writes=a.screened.write_cost().to_string()
            data-storage=a.screened.storage_cost().to_string()
            on:click=move |_| apply.run(d1.clone())
            on:keydown=move |ev| {
                if ev.key() == "Enter" || ev.key() == " " {
                    ev.prevent_default();
                    apply.run(d2.clone());
                }
            }>
            <title>{title}</title>
            <circle cx=cx cy=cy r=r/>
            <text class="point-rank" x=tx y=cy + 5.0 text-anchor=anchor aria-hidden="true">{ranks.join(", ")}</text>
        </g>
    })
}

/// The front's scatter.
#[component]
pub fn FrontChart(
    /// The designs on the front.
    front: Vec<Advised>,
    /// The recommended design, drawn filled.
    recommended: Option<DesignSpec>,
    /// Applies a design as the model's Custom design.
    apply: Callback<DesignSpec>,
) -> impl IntoView {
    let xs: Vec<f64> = front.iter().map(|a| a.screened.reads).collect();
    let ys: Vec<f64> = front.iter().map(|a| a.screened.write_cost()).collect();
    let xs_scale = Scale::choose(&xs);
    let ys_scale = Scale::choose(&ys);
    let x_ticks = xs_scale.ticks();
    let y_ticks = ys_scale.ticks();
    let (xs2, ys2) = (xs_scale, ys_scale);
    let grid_x = x_ticks
        .into_iter()
        .map(|t| {
            let x = x_of(&xs2, t);
            view! {
                <line class="grid" x1=x x2=x y1=TOP y2=H - BOTTOM/>
                <text class="tick" x=x y=H - BOTTOM + 18.0 text-anchor="middle" aria-hidden="true">{rate(t)}</text>
            }
        })
        .collect_view();
    let grid_y = y_ticks
        .into_iter()
        .map(|t| {
            let y = y_of(&ys2, t);
            view! {
                <line class="grid" x1=LEFT x2=W - RIGHT y1=y y2=y/>
                <text class="tick" x=LEFT - 6.0 y=y + 5.0 text-anchor="end" aria-hidden="true">{rate(t)}</text>
            }
        })
        .collect_view();
    let groups = marker_groups(&front, &xs_scale, &ys_scale);
    let points = groups
        .into_iter()
        .filter_map(|group| point_marker(group, &recommended, apply))
        .collect_view();
    let log = xs_scale.is_log() || ys_scale.is_log();
    let count = front.len().to_string();
    let caption = move || {
        let caption = tv(Msg::FrontCaption, &[("count", count.clone())]);
        if log {
            format!("{caption} {}", t(Msg::FrontLogNote))
        } else {
            caption
        }
    };
    view! {
        <figure class="advise-front" data-testid="advise-front">
            <svg viewBox=format!("0 0 {W} {H}") role="group" aria-label=tr!(FrontAria)>
                {grid_x}
                {grid_y}
                <line class="axis" x1=LEFT x2=W - RIGHT y1=H - BOTTOM y2=H - BOTTOM/>
                <line class="axis" x1=LEFT x2=LEFT y1=TOP y2=H - BOTTOM/>
                <text class="axis-label" x=(LEFT + W - RIGHT) / 2.0 y=H - 8.0 text-anchor="middle" aria-hidden="true">{tr!(FrontXAxis)}</text>
                <text class="axis-label" x=16.0 y=(TOP + H - BOTTOM) / 2.0 text-anchor="middle"
                    transform=format!("rotate(-90 16 {})", (TOP + H - BOTTOM) / 2.0) aria-hidden="true">{tr!(FrontYAxis)}</text>
                {points}
            </svg>
            <figcaption class="card-note">{caption}</figcaption>
        </figure>
    }
}
