//! One card per collection: full-scale counts and sizes, break points, indexes. Once the
//! engine has evaluated the design, the counts, sizes and indexes shown are the evaluation's
//! own [`CollectionEval`] (`squillion eval --json`'s `collections`: its `stats` are
//! `stats::collection_stats`), each number also in `data-value`; until then the instant
//! arithmetic analysis (the same `CollectionStats`) stands in.

use leptos::prelude::*;

use super::sample::SampleDocumentPanel;
use super::GrowthChart;
use crate::analysis::Analysis;
use crate::eval::{CollectionEval, Evaluation};
use crate::human;
use crate::lang::Msg;
use crate::stats::CollectionStats;
use crate::stats::SizeFigure;
use crate::ui::i18n::{break_date, lang, shape_label, t, tv};
use crate::ui::size_level;

/// Returns a size figure as text, with `≈` in front of an estimate.
pub fn size_text(f: &SizeFigure) -> String {
    let approx = if f.exact { "" } else { "≈ " };
    format!("{approx}{}", human::binary_size(f.bytes))
}

/// Returns the hover title of a size figure: the exact byte count, then `extra` (an
/// estimate's confidence interval) when there is one.
fn size_title(f: &SizeFigure, extra: Option<String>) -> String {
    let exact = crate::ui::i18n::exact_bytes(f.bytes);
    match extra {
        Some(more) => format!("{exact}. {more}"),
        None => exact,
    }
}

/// Returns the tooltip of an estimated percentile: its 99% confidence interval.
fn bounds_text(bounds: Option<[u64; 2]>) -> Option<String> {
    bounds.map(|[lo, hi]| {
        tv(
            Msg::EstimateBounds,
            &[
                ("draws", human::thousands(crate::arith::tail::DRAWS as u64)),
                ("low", human::thousands(lo)),
                ("high", human::thousands(hi)),
            ],
        )
    })
}

/// Returns the tooltip of the largest document expected: what it is (the one-in-`count`
/// quantile) and, for an estimate, its 99% confidence interval.
fn largest_expected_text(count: f64, bounds: Option<[u64; 2]>) -> String {
    let n = human::thousands(crate::model::distribution::round_count(count).max(1));
    let what = tv(Msg::ShapeLargestExpectedTitle, &[("count", n)]);
    match bounds_text(bounds) {
        Some(b) => format!("{what} {b}"),
        None => what,
    }
}

/// Returns the "Largest" cell of a shape: the largest document expected at full scale as the
/// main figure, its colour by its own size, and the bound (`data-metric="max"`) on a second
/// line with its own colour where the two read differently; one figure, which is both, where
/// they read the same (message-attachments' chunks: 255.06 KiB expected, 255.06 KiB bound).
fn largest_cell(
    expected: SizeFigure,
    expected_title: String,
    max: SizeFigure,
    max_title: String,
) -> impl IntoView {
    if human::binary_size(expected.bytes) == human::binary_size(max.bytes) {
        // One figure: the largest expected, which reads as the bound; both exact on hover.
        let title = if expected.bytes == max.bytes {
            expected_title
        } else {
            format!("{max_title}. {}\n{expected_title}", t(Msg::ShapeBoundTitle))
        };
        return view! {
            <span class="largest" data-level=size_level(max.bytes) data-metric="max" data-value=max.bytes.to_string() data-expected=expected.bytes.to_string() title=title>{size_text(&expected)}</span>
        }
        .into_any();
    }
    view! {
        <span class="largest" data-level=size_level(expected.bytes) data-metric="largest_expected" data-value=expected.bytes.to_string() title=expected_title>{size_text(&expected)}</span>
        <br/>
        <span class="bound muted" title=t(Msg::ShapeBoundTitle)>
            {t(Msg::ShapeBound)}" "
            <span class="largest" data-level=size_level(max.bytes) data-metric="max" data-value=max.bytes.to_string() title=max_title>{size_text(&max)}</span>
        </span>
    }
    .into_any()
}

/// Returns the line saying how many documents of a shape pass 16 MiB and because of what.
fn over_text(over: &crate::arith::tail::Exceedance, shape: &str) -> String {
    let approx = if over.exact { "" } else { "≈ " };
    let n = crate::model::distribution::round_count(over.documents);
    let fields = crate::lang::text::join(lang(), &over.fields);
    tv(
        Msg::OverLimitLine,
        &[
            ("approx", approx.to_string()),
            ("count", human::thousands(n)),
            ("shape", shape.to_string()),
            ("share", human::percent(over.share)),
            ("fields", fields),
        ],
    )
}

/// Returns a collection's estimated bytes on disk, with its block compressor (and, for
/// time-series buckets, that their columns are compressed first), as a card shows it.
fn disk_text(d: &crate::eval::memory::CollectionStorage) -> impl IntoView {
    let codec = match d.block_compressor {
        crate::storage::Codec::Snappy => "snappy",
        crate::storage::Codec::Zstd => "zstd",
    };
    let compressor = if d.column_compressed {
        tv(Msg::DiskCompressorColumns, &[("codec", codec.to_string())])
    } else {
        codec.to_string()
    };
    let size = human::binary_size(d.disk_bytes.value.max(0.0).round() as u64);
    let title = crate::ui::i18n::exact_bytes(human::whole_bytes(d.disk_bytes.value));
    view! {
        <span data-metric="disk_bytes" data-value=d.disk_bytes.value.to_string() data-compressor=codec title=title>
            {tv(Msg::DiskAtFullScale, &[("size", size), ("compressor", compressor)])}
        </span>
        " "
    }
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
    /// The engine's evaluation of the same design, once done.
    #[prop(into)]
    evaluated: Signal<Option<std::sync::Arc<Evaluation>>>,
    /// True while that evaluation runs: each card keeps the room its sample document and
    /// index sizes will take, so that nothing below them jumps when they arrive.
    #[prop(into)]
    pending: Signal<bool>,
) -> impl IntoView {
    view! {
        <div class="collections">
            {move || {
                let a = analysis.get();
                let evaluated = evaluated.get();
                let pending = pending.get();
                a.layout
                    .collections
                    .iter()
                    .zip(a.stats.iter())
                    .map(|(c, s)| {
                        let ev: Option<CollectionEval> = evaluated
                            .as_ref()
                            .and_then(|e| e.collections.iter().find(|x| x.name == c.name).cloned());
                        // Its bytes on disk (the evaluation's storage: the block compressor's
                        // ratio measured on the sample).
                        let disk = evaluated
                            .as_ref()
                            .and_then(|e| e.storage.collections.iter().find(|x| x.collection == c.name).cloned());
                        // The evaluation's statistics once done, else the analysis's: the same
                        // `CollectionStats`.
                        let stats: &CollectionStats = ev.as_ref().map_or(s, |e| &e.stats);
                        let (count, total, exact) = (stats.count, stats.total_bytes, stats.total_exact);
                        let rows = stats.shapes.clone();
                        let is_evaluated = ev.is_some().to_string();
                        let indexes: Vec<String> = c.indexes.iter().map(|i| i.mongosh()).collect();
                        let shard = c.shard_key.as_ref().map(|k| crate::ejson::to_shell_string(&bson::Bson::Document(k.clone()), false));
                        view! {
                            <article class="card collection" data-collection=c.name.clone() data-evaluated=is_evaluated>
                                <div class="card-head">
                                    <h3><code>{c.name.clone()}</code></h3>
                                    <span class="muted">
                                        <span data-metric="documents" data-value=count.to_string()>{tv(Msg::DocumentsCount, &[("count", count_text(count))])}</span>
                                        " · "
                                        <span data-metric="total_bytes" data-value=total.to_string() title=crate::ui::i18n::exact_bytes(human::whole_bytes(total))>
                                            {if exact { "" } else { "≈ " }}
                                            {human::binary_size(total.max(0.0).round() as u64)}
                                        </span>
                                    </span>
                                </div>
                                <table class="shape-table">
                                    <thead>
                                        <tr>
                                            <th scope="col">{t(Msg::ShapeDocuments)}</th>
                                            <th scope="col" class="num">{t(Msg::ShapeCount)}</th>
                                            <th scope="col" class="num">{t(Msg::ShapeAverage)}</th>
                                            <th scope="col" class="num">"p50"</th>
                                            <th scope="col" class="num">"p99"</th>
                                            <th scope="col" class="num">{t(Msg::ShapeLargest)}</th>
                                        </tr>
                                    </thead>
                                    <tbody>
                                        {rows.into_iter().map(|sh| shape_row(sh, c)).collect_view()}
                                    </tbody>
                                </table>
                                {stats.shapes.iter().filter_map(|sh| {
                                    let over = sh.over_limit.as_ref()?;
                                    let text = over_text(over, &shape_label(&sh.label, c));
                                    let refused = over.expected();
                                    Some(view! { <p class="array-line over-limit" class:broken=refused data-metric="over_limit" data-value=over.documents.to_string()>{text}</p> })
                                }).collect_view()}
                                {s.shapes.iter().flat_map(|sh| sh.arrays.iter()).map(array_line).collect_view()}
                                {(ev.is_none() && pending).then(|| view! {
                                    <div class="engine-pending" aria-hidden="true">
                                        <p class="muted">{t(Msg::SamplePending)}</p>
                                    </div>
                                })}
                                {ev.as_ref().and_then(|e| {
                                    let full_largest = e.stats.shapes.iter().map(|sh| sh.max).max_by_key(|m| m.bytes)?;
                                    let samples = e.samples.clone()?;
                                    Some(view! { <SampleDocumentPanel collection=c.name.clone() samples sampled=e.sample_documents full_largest/> })
                                })}
                                {ev.map(|e| eval_indexes(e, disk.as_ref()))}
                                <div class="indexes">
                                    {shard.map(|k| view! { <p class="muted">{t(Msg::ShardKey)}" "<code>{k}</code></p> })}
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

/// One shape of a collection's documents as a row of its table: how many, and their average,
/// median, 99th percentile and largest sizes (each with its exact bytes or bounds on hover).
fn shape_row(sh: crate::stats::ShapeStats, c: &crate::design::Collection) -> impl IntoView {
    let (expected, expected_bounds) = sh.largest();
    let (label, n, avg, p50, p99, max) = (sh.label, sh.count, sh.average, sh.p50, sh.p99, sh.max);
    let (p50_title, p99_title) = (
        size_title(&p50, bounds_text(sh.p50_bounds)),
        size_title(&p99, bounds_text(sh.p99_bounds)),
    );
    let (avg_title, max_title) = (size_title(&avg, None), size_title(&max, None));
    let expected_title = size_title(&expected, Some(largest_expected_text(n, expected_bounds)));
    let largest = largest_cell(expected, expected_title, max, max_title);
    let shape = label.clone();
    view! {
        <tr data-shape=shape>
            <td>{shape_label(&label, c)}</td>
            <td class="num" data-metric="count" data-value=n.to_string()>{count_text(n)}</td>
            <td class="num" data-metric="avg" data-value=avg.bytes.to_string() title=avg_title>{size_text(&avg)}</td>
            <td class="num" data-metric="p50" data-value=p50.bytes.to_string() title=p50_title>{size_text(&p50)}</td>
            <td class="num" data-metric="p99" data-value=p99.bytes.to_string() title=p99_title>{size_text(&p99)}</td>
            <td class="num">{largest}</td>
        </tr>
    }
}

/// One array field of a collection: its largest count, and when it breaks the document size
/// limit (or that it never does, or is capped), with its growth drawn unless capped.
fn array_line(arr: &crate::stats::ArrayStats) -> impl IntoView {
    let verdict = match (&arr.break_point, arr.capped) {
        (_, true) => t(Msg::ArrayCapped),
        (Some(bp), false) => {
            let approx = if bp.exact { "" } else { "≈ " };
            let when = if arr.max_count >= bp.count {
                t(Msg::ArrayAlreadyPast)
            } else {
                arr.largest_reaches
                    .as_ref()
                    .map(|d| tv(Msg::ArrayReachedBy, &[("date", break_date(d, lang()))]))
                    .unwrap_or_default()
            };
            tv(
                Msg::ArrayBreaks,
                &[
                    ("approx", approx.to_string()),
                    ("count", human::thousands(bp.count)),
                    ("when", when),
                ],
            )
        }
        (None, false) => t(Msg::ArrayNoBreak),
    };
    let broken = arr
        .break_point
        .as_ref()
        .is_some_and(|bp| !arr.capped && arr.max_count >= bp.count);
    let chart = (!arr.capped).then(|| view! { <GrowthChart array=arr.clone()/> });
    view! {
        <p class="array-line" class:broken=broken>
            <code>{arr.field.clone()}</code>
            " "{tv(Msg::ArrayLargestHas, &[("relationship", arr.relationship.clone()), ("count", human::thousands(arr.max_count))])}" "
            <strong>{verdict}</strong>
        </p>
        {chart}
    }
}

/// What the engine measured of a collection: its documents sampled, its bytes on disk, and
/// each index's size at full scale.
fn eval_indexes(
    e: CollectionEval,
    disk: Option<&crate::eval::memory::CollectionStorage>,
) -> impl IntoView {
    let index_total = super::evaluated::bytes(e.index_bytes);
    view! {
        <p class="eval-indexes muted">
            {tv(Msg::DocumentsSampled, &[("count", human::thousands(e.sample_documents))])}" "
            {disk.map(disk_text)}
            <span data-metric="index_bytes" data-value=e.index_bytes.value.to_string()>
                {tv(Msg::IndexesAtFullScale, &[
                    ("count", e.indexes.len().to_string()),
                    ("indexes", t(if e.indexes.len() == 1 { Msg::IndexOne } else { Msg::IndexMany })),
                    ("size", index_total),
                ])}
            </span>
        </p>
        <ul class="index-sizes">
            {e.indexes.into_iter().map(|ix| {
                let multikey = if ix.multikey { t(Msg::Multikey) } else { String::new() };
                view! {
                    <li data-index=ix.name.clone() data-value=ix.bytes.value.to_string()>
                        <code>{ix.name.clone()}</code>
                        {format!(" {}{multikey}", super::evaluated::bytes(ix.bytes))}
                    </li>
                }
            }).collect_view()}
        </ul>
    }
}
