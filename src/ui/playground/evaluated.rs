//! The evaluation of the chosen design as the engine ran it: per operation, per collection, and
//! its warnings. The figures are the Evaluation's (`squillion eval --json`), formatted as the
//! CLI's text report formats them (`eval::text::fig`) or with the shared `crate::human`
//! helpers. Each number is also in the DOM as `data-value` (and `data-largest`) so the
//! end-to-end test compares exact values with the CLI's.

use leptos::prelude::*;

use crate::eval::summary::{OperationSummary, Summary, WarningSummary};
use crate::eval::text::fig;
use crate::eval::{Basis, Figure};
use crate::human;
use crate::ui::clipboard::copy;

/// Returns a byte figure as the CLI marks figures: `≈` for an estimate, `(full)` for
/// full-scale arithmetic, nothing when measured on the sample.
pub fn bytes(f: Figure) -> String {
    let b = human::binary_size(f.value.max(0.0).round() as u64);
    match f.basis {
        Basis::Sample => b,
        Basis::FullScale => format!("{b} (full)"),
        Basis::Estimate => format!("≈{b}"),
    }
}

/// One figure of an operation: typical subject, largest in brackets.
#[component]
fn Cell(
    /// The metric's key (`docs_examined`), as in the Evaluation JSON.
    metric: &'static str,
    /// What it is.
    label: &'static str,
    /// For the typical subject.
    typical: f64,
    /// For the largest subject.
    largest: f64,
    /// The typical value as shown.
    shown: String,
    /// The largest value as shown (None: the same for both runs, shown once).
    #[prop(optional)]
    shown_largest: Option<String>,
) -> impl IntoView {
    view! {
        <div class="metric-cell" data-metric=metric data-value=typical.to_string() data-largest=largest.to_string()>
            <dt>{label}</dt>
            <dd>
                {shown}
                {shown_largest.map(|l| view! { " "<span class="largest" title="largest subject">{format!("[{l}]")}</span> })}
            </dd>
        </div>
    }
}

/// One operation: rate, round trips, then every figure of the typical and largest runs, then
/// the commands as they ran.
#[component]
fn Operation(
    /// The evaluated operation.
    op: OperationSummary,
) -> impl IntoView {
    let (t, l) = (op.typical.total, op.largest.total);
    let figures: [(&'static str, &'static str, Figure, Figure, bool); 7] = [
        (
            "docs_examined",
            "docs examined",
            t.docs_examined,
            l.docs_examined,
            false,
        ),
        (
            "keys_examined",
            "keys examined",
            t.keys_examined,
            l.keys_examined,
            false,
        ),
        (
            "docs_returned",
            "docs returned",
            t.docs_returned,
            l.docs_returned,
            false,
        ),
        (
            "bytes_returned",
            "bytes returned",
            t.bytes_returned,
            l.bytes_returned,
            true,
        ),
        (
            "docs_written",
            "docs written",
            t.docs_written,
            l.docs_written,
            false,
        ),
        (
            "bytes_written",
            "bytes written",
            t.bytes_written,
            l.bytes_written,
            true,
        ),
        (
            "index_keys_written",
            "index keys written",
            t.index_keys_written,
            l.index_keys_written,
            false,
        ),
    ];
    let per_sec = op.rate_per_sec * op.queries as f64;
    let queries = op.queries as f64;
    let lookups = op.lookups as f64;
    view! {
        <section class="unit eval-unit" data-unit=op.unit.clone()>
            <header class="unit-head">
                <h3>{op.unit.clone()}</h3>
                <span class="metric"><strong>{op.queries}</strong>{if op.queries == 1 { " query" } else { " queries" }}</span>
                <span class="muted">
                    {format!("{} / s → {} round trips / s", human::thousands(op.rate_per_sec.round() as u64), human::thousands(per_sec.round() as u64))}
                </span>
            </header>
            <dl class="eval-metrics">
                <Cell metric="queries" label="round trips" typical=queries largest=queries shown=human::thousands(op.queries)/>
                <Cell metric="lookups" label="$lookups" typical=lookups largest=lookups shown=human::thousands(op.lookups)/>
                {figures.into_iter().map(|(metric, label, a, b, is_bytes)| {
                    let (shown, shown_largest) = if is_bytes { (bytes(a), bytes(b)) } else { (fig(a), fig(b)) };
                    view! { <Cell metric label typical=a.value largest=b.value shown shown_largest/> }
                }).collect_view()}
                <Cell
                    metric="shards"
                    label="shards touched"
                    typical=f64::from(op.typical.max_shards)
                    largest=f64::from(op.largest.max_shards)
                    shown=op.typical.max_shards.to_string()
                    shown_largest=op.largest.max_shards.to_string()
                />
            </dl>
            {op.typical.commands.into_iter().map(|c| {
                let to_copy = c.mongosh.clone();
                let plan = if c.plan.is_empty() { "-".to_string() } else { c.plan.clone() };
                view! {
                    <div class="command">
                        <pre class="code">{c.mongosh}</pre>
                        <button type="button" class="copy" on:click=move |_| copy(&to_copy) aria-label="Copy the mongosh code">"Copy"</button>
                        <p class="muted note">
                            {c.note}
                            {format!(" · plan {plan}")}
                            {c.no_supporting_index.then_some(" (no supporting index)")}
                            {format!(" · shards {}/{}", c.shards.touched, c.shards.shards)}
                        </p>
                        {c.error.map(|e| view! { <p class="error">{format!("The engine refused it: {e}")}</p> })}
                    </div>
                }
            }).collect_view()}
        </section>
    }
}

/// The workload as the engine ran it, one section per operation.
#[component]
pub fn EvalOperations(
    /// The evaluation.
    summary: std::sync::Arc<Summary>,
) -> impl IntoView {
    let s = summary;
    let t = s.totals;
    view! {
        <div class="card operations eval-operations" data-design=s.design.clone() data-state="done">
            <div class="card-head">
                <h2>"Workload, run on the engine"</h2>
                <p class="card-note">"Typical subject; the largest in [brackets]. Plain: measured on the sample; ≈ estimate; (full) full-scale arithmetic."</p>
            </div>
            <p class="eval-totals muted">
                {format!(
                    "Per second: {} round trips, {} $lookups, {} docs examined, {} docs written, {} written",
                    human::thousands(t.queries_per_sec.round() as u64),
                    human::thousands(t.lookups_per_sec.round() as u64),
                    fig(t.per_sec.docs_examined),
                    fig(t.per_sec.docs_written),
                    bytes(t.per_sec.bytes_written),
                )}
            </p>
            {s.operations.iter().cloned().map(|op| view! { <Operation op/> }).collect_view()}
        </div>
    }
}

/// Returns the CSS level of a severity (`info`, `warning`, `error`).
fn level(severity: &str) -> &'static str {
    match severity {
        "error" => "over",
        "warning" => "warn",
        _ => "info",
    }
}

/// Returns how serious a severity is, for sorting.
fn rank(severity: &str) -> u8 {
    match severity {
        "error" => 2,
        "warning" => 1,
        _ => 0,
    }
}

/// The evaluation's warnings, most serious first.
#[component]
pub fn EvalWarnings(
    /// The evaluation's warnings.
    warnings: Vec<WarningSummary>,
    /// True for the engine's warnings; false for the arithmetic ones shown while it runs.
    #[prop(default = true)]
    measured: bool,
) -> impl IntoView {
    let mut ws = warnings;
    ws.sort_by_key(|w| std::cmp::Reverse(rank(&w.severity)));
    let count = ws.len().to_string();
    view! {
        <div class="card warnings" class:eval-warnings=measured data-count=count>
            <div class="card-head">
                <h2>"Warnings"</h2>
                <p class="card-note">"Thresholds and their sources: docs/warnings.md"</p>
            </div>
            {if ws.is_empty() {
                view! { <p class="muted">"No warnings for this design."</p> }.into_any()
            } else {
                view! {
                    <ul class="warning-list">
                        {ws.into_iter().map(|w| {
                            let place = match (w.collection.is_empty(), w.path.is_empty()) {
                                (true, _) => String::new(),
                                (false, true) => w.collection.clone(),
                                (false, false) => format!("{}.{}", w.collection, w.path),
                            };
                            let code = w.code.clone();
                            view! {
                                <li class="warning" data-code=code>
                                    <span class="badge" data-level=level(&w.severity)>{w.code}</span>
                                    {(!place.is_empty()).then(|| view! { <code class="place">{place}</code> })}
                                    <p>{w.message}</p>
                                    <p class="fix">"Consider: "{w.fix}</p>
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                }.into_any()
            }}
        </div>
    }
}
