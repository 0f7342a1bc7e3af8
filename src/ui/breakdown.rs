//! Where a document's bytes go: a composition bar, a treemap of the top-level fields and the
//! per-path table.

use leptos::prelude::*;

use crate::lang::Msg;
use crate::ui::i18n::{t, tr, tv};

use crate::chart::{squarify, Rect};
use crate::human;
use crate::size::Analysis;

/// Rows the table shows before it says how many it left out (a million-element array
/// would otherwise make a million DOM rows).
const MAX_TABLE_ROWS: usize = 400;

/// The four kinds of bytes in an encoded document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parts {
    /// Field names with their NUL terminators.
    pub names: u64,
    /// Array index keys ("0", "1", …) with their NULs.
    pub indexes: u64,
    /// Type bytes, length prefixes and trailing zeros of documents and arrays.
    pub framing: u64,
    /// Everything else: the values themselves.
    pub values: u64,
}

/// Returns the split of `a.size` into names, array indexes, framing and values.
pub fn parts(a: &Analysis) -> Parts {
    let values = a
        .size
        .saturating_sub(a.field_name_bytes + a.array_index_bytes + a.framing_bytes);
    Parts {
        names: a.field_name_bytes,
        indexes: a.array_index_bytes,
        framing: a.framing_bytes,
        values,
    }
}

/// A stacked bar: field names, array indexes, framing and values.
#[component]
pub fn Composition(
    /// The analysis to show.
    #[prop(into)]
    analysis: Signal<Analysis>,
) -> impl IntoView {
    let segments = move || {
        let a = analysis.get();
        let p = parts(&a);
        let total = a.size.max(1) as f64;
        [
            ("names", t(Msg::PartNames), p.names),
            ("indexes", t(Msg::PartIndexes), p.indexes),
            ("framing", t(Msg::PartFraming), p.framing),
            ("values", t(Msg::PartValues), p.values),
        ]
        .into_iter()
        .map(|(class, label, bytes)| (class, label, bytes, bytes as f64 / total))
        .collect::<Vec<_>>()
    };
    view! {
        <div class="composition">
            <div class="composition-bar" role="img" aria-label=tr!(Composition)>
                {move || {
                    segments()
                        .into_iter()
                        .filter(|s| s.2 > 0)
                        .map(|(class, label, bytes, share)| {
                            view! {
                                <div
                                    class=format!("seg seg-{class}")
                                    style:width=format!("{:.4}%", share * 100.0)
                                    title=tv(Msg::PartBytes, &[("label", label), ("bytes", human::thousands(bytes))])
                                ></div>
                            }
                        })
                        .collect_view()
                }}
            </div>
            <ul class="composition-legend">
                {move || {
                    segments()
                        .into_iter()
                        .map(|(class, label, bytes, share)| {
                            view! {
                                <li data-part=class>
                                    <span class=format!("swatch seg-{class}")></span>
                                    <span class="legend-label">{label}</span>
                                    <span class="legend-value" title=crate::ui::i18n::exact_bytes(bytes)>
                                        {human::binary_size(bytes)}" · "{human::percent(share)}
                                    </span>
                                </li>
                            }
                        })
                        .collect_view()
                }}
            </ul>
        </div>
    }
}

/// Returns the CSS class of a cell for a BSON type alias.
fn type_class(bson_type: &str) -> &'static str {
    match bson_type {
        "object" => "t-object",
        "array" => "t-array",
        "string" | "symbol" => "t-string",
        "int" | "long" | "double" | "decimal" => "t-number",
        "objectId" => "t-oid",
        "date" | "timestamp" => "t-date",
        "binData" => "t-bin",
        _ => "t-other",
    }
}

/// A treemap of the top-level fields, each cell's area proportional to its bytes.
#[component]
pub fn Treemap(
    /// The analysis to show.
    #[prop(into)]
    analysis: Signal<Analysis>,
) -> impl IntoView {
    const W: f64 = 960.0;
    const H: f64 = 200.0;
    let cells = move || {
        let a = analysis.get();
        let top: Vec<_> = a.fields.iter().filter(|f| f.depth == 1).cloned().collect();
        let weights: Vec<f64> = top
            .iter()
            .map(|f| (f.key_bytes + f.value_bytes) as f64)
            .collect();
        let rects = squarify(
            &weights,
            Rect {
                x: 0.0,
                y: 0.0,
                w: W,
                h: H,
            },
        );
        let total = a.size.max(1) as f64;
        top.into_iter()
            .zip(rects)
            .filter(|(_, r)| r.area() > 0.0)
            .map(|(f, r)| {
                let bytes = f.key_bytes + f.value_bytes;
                let share = bytes as f64 / total;
                (f.path, f.bson_type, bytes, share, r)
            })
            .collect::<Vec<_>>()
    };
    view! {
        <svg
            class="treemap"
            viewBox=format!("0 0 {W} {H}")
            role="img"
            aria-label=tr!(Treemap)
        >
            {move || {
                cells()
                    .into_iter()
                    .map(|(path, ty, bytes, share, r)| {
                        let label = tv(Msg::TreemapCell, &[("path", path.clone()), ("bytes", human::thousands(bytes)), ("share", human::percent(share))]);
                        let detail = format!("{} B · {}", human::thousands(bytes), human::percent(share));
                        // Monospace labels: about 8 px a character at 13 px, 7 px at 11 px.
                        let show_name = r.w > crate::chart::bars::columns(&path) as f64 * 8.0 + 14.0 && r.h > 26.0;
                        let show_detail = show_name && r.w > crate::chart::bars::columns(&detail) as f64 * 7.0 + 14.0 && r.h > 42.0;
                        view! {
                            <g class=format!("cell {}", type_class(ty))>
                                <title>{label}</title>
                                <rect x=r.x y=r.y width=r.w height=r.h></rect>
                                {show_name.then(|| view! {
                                    <text x=r.x + 8.0 y=r.y + 20.0 class="cell-name">{path.clone()}</text>
                                })}
                                {show_detail.then(|| view! {
                                    <text x=r.x + 8.0 y=r.y + 36.0 class="cell-bytes">{detail}</text>
                                })}
                            </g>
                        }
                    })
                    .collect_view()
            }}
        </svg>
    }
}

/// The per-path table: every field and subtree with its key and value bytes.
#[component]
pub fn BreakdownTable(
    /// The analysis to show.
    #[prop(into)]
    analysis: Signal<Analysis>,
) -> impl IntoView {
    let rows = move || {
        let a = analysis.get();
        let total = a.size.max(1) as f64;
        let hidden = a.fields.len().saturating_sub(MAX_TABLE_ROWS) + a.fields_omitted;
        let rows: Vec<_> = a
            .fields
            .into_iter()
            .take(MAX_TABLE_ROWS)
            .map(|f| {
                let bytes = f.key_bytes + f.value_bytes;
                (f, bytes, bytes as f64 / total)
            })
            .collect();
        (rows, hidden)
    };
    view! {
        <table class="breakdown">
            <caption class="visually-hidden">{tr!(BreakdownCaption)}</caption>
            <thead>
                <tr>
                    <th scope="col">{tr!(ColPath)}</th>
                    <th scope="col">{tr!(ColType)}</th>
                    <th scope="col" class="num">{tr!(ColKey)}</th>
                    <th scope="col" class="num">{tr!(ColValue)}</th>
                    <th scope="col" class="num">{tr!(ColTotal)}</th>
                    <th scope="col" class="num">{tr!(ColShare)}</th>
                </tr>
            </thead>
            <tbody>
                {move || {
                    let (rows, hidden) = rows();
                    let body = rows
                        .into_iter()
                        .map(|(f, bytes, share)| {
                            let count = f.elements.map(|n| format!(" [{n}]")).unwrap_or_default();
                            view! {
                                <tr data-path=f.path.clone()>
                                    <td class="path" style:padding-left=format!("{}rem", 0.5 + 1.1 * (f.depth.saturating_sub(1)) as f64)>
                                        <code>{f.path.clone()}</code>
                                    </td>
                                    <td class="type">{f.bson_type}{count}</td>
                                    <td class="num">{human::thousands(f.key_bytes)}</td>
                                    <td class="num">{human::thousands(f.value_bytes)}</td>
                                    <td class="num total">{human::thousands(bytes)}</td>
                                    <td class="num">
                                        <span class="share-bar" style:width=format!("{:.2}%", share * 100.0)></span>
                                        {human::percent(share)}
                                    </td>
                                </tr>
                            }
                        })
                        .collect_view();
                    view! {
                        {body}
                        {(hidden > 0).then(|| view! {
                            <tr class="more">
                                <td colspan="6">{tv(Msg::MoreRows, &[("count", human::thousands(hidden as u64))])}</td>
                            </tr>
                        })}
                    }
                }}
            </tbody>
        </table>
    }
}
