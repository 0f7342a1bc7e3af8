//! The evaluation of the chosen design as the engine ran it: per operation, per collection, and
//! its warnings. The figures are the Evaluation's (`squillion eval --json`), formatted as the
//! CLI's text report formats them (`eval::text::fig`) or with the shared `crate::human`
//! helpers. Each number is also in the DOM as `data-value` (and `data-largest`) so the
//! end-to-end test compares exact values with the CLI's.

use leptos::prelude::*;

use crate::eval::metric::{Metric, Unit, PER_RUN};
use crate::eval::text::fig;
use crate::eval::{Basis, Evaluation, Figure, OperationEval};
use crate::human;
use crate::ui::clipboard::copy;
use crate::warning::{Severity, Warning};

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

/// Returns a figure of `metric` as the workload view shows it: bytes in binary units, counts as
/// the CLI's text report prints them; both marked with their basis.
pub fn shown(metric: Metric, f: Figure) -> String {
    match metric.unit() {
        Unit::Bytes => bytes(f),
        Unit::Count | Unit::DocumentBytes => fig(f),
    }
}

/// One figure of an operation: typical subject, largest in brackets.
#[component]
fn Cell(
    /// The metric.
    metric: Metric,
    /// For the typical subject.
    typical: Figure,
    /// For the largest subject.
    largest: Figure,
) -> impl IntoView {
    // Round trips and `$lookup`s are the same for both subjects: shown once.
    let same = matches!(metric, Metric::RoundTrips | Metric::Lookups);
    let shown_largest = (!same).then(|| shown(metric, largest));
    view! {
        <div class="metric-cell" data-metric=metric.key() data-value=typical.value.to_string() data-largest=largest.value.to_string()>
            <dt>{metric.label()}</dt>
            <dd>
                {shown(metric, typical)}
                {shown_largest.map(|l| view! { " "<span class="largest" title="largest subject">{format!("[{l}]")}</span> })}
            </dd>
        </div>
    }
}

/// One operation: rate, round trips, then every figure of the typical and largest runs
/// ([`PER_RUN`]), then the commands as they ran.
#[component]
fn Operation(
    /// The evaluated operation.
    op: OperationEval,
) -> impl IntoView {
    let cells = PER_RUN
        .into_iter()
        .filter_map(|m| {
            let typical = m.per_run(&op.typical)?;
            let largest = m.per_run(&op.largest)?;
            Some(view! { <Cell metric=m typical largest/> })
        })
        .collect_view();
    view! {
        <section class="unit eval-unit" data-unit=op.unit.clone()>
            <header class="unit-head">
                <h3>{op.unit.clone()}</h3>
                <span class="metric"><strong>{op.queries}</strong>{if op.queries == 1 { " query" } else { " queries" }}
                    {(op.largest.queries != op.queries).then(|| format!(" ({} for the largest)", op.largest.queries))}</span>
                <span class="muted">
                    {format!("{} / s → {} round trips / s", human::thousands(op.rate_per_sec.round() as u64), human::thousands(op.queries_per_sec().round() as u64))}
                </span>
            </header>
            <dl class="eval-metrics">{cells}</dl>
            {op.typical.commands.into_iter().map(|c| {
                let to_copy = c.mongosh.clone();
                let plan = if c.plan.is_empty() { "-".to_string() } else { c.plan.clone() };
                view! {
                    <div class="command">
                        <pre class="code">{c.mongosh}</pre>
                        <button type="button" class="copy" on:click=move |_| copy(&to_copy) aria-label="Copy the mongosh code">"Copy"</button>
                        <p class="muted note">
                            {c.note}
                            {c.not_sent.map(|why| format!(" · not sent: {why}"))}
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
    evaluation: std::sync::Arc<Evaluation>,
) -> impl IntoView {
    let e = evaluation;
    let t = e.totals;
    view! {
        <div class="card operations eval-operations" data-design=e.design.clone() data-state="done">
            <div class="card-head">
                <h2>"Workload, run on the engine"</h2>
                <p class="card-note">"Typical subject; the largest in [brackets]. Plain: measured on the sample; ≈ estimate; (full) full-scale arithmetic."</p>
            </div>
            // Without operations the totals would all be 0: the card says why instead.
            {if e.operations.is_empty() {
                view! { <NothingToRun/> }.into_any()
            } else {
                view! {
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
                }.into_any()
            }}
            {e.operations.iter().cloned().map(|op| view! { <Operation op/> }).collect_view()}
        </div>
    }
}

/// What a model without operations shows where the workload's figures would be: its
/// collections' sizes are above, and there is nothing to run.
#[component]
pub fn NothingToRun() -> impl IntoView {
    view! {
        <p class="empty nothing-to-run" data-testid="nothing-to-run">
            "The workload has no operations: nothing to run. The sizes above are the whole result; add an operation to the model's workload to compare what the designs cost."
        </p>
    }
}

/// Returns the CSS level of a severity.
fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "over",
        Severity::Warning => "warn",
        Severity::Info => "info",
    }
}

/// The evaluation's warnings, most serious first.
#[component]
pub fn EvalWarnings(
    /// The evaluation's warnings.
    warnings: Vec<Warning>,
    /// True for the engine's warnings; false for the arithmetic ones shown while it runs.
    #[prop(default = true)]
    measured: bool,
) -> impl IntoView {
    let mut ws = warnings;
    ws.sort_by_key(|w| std::cmp::Reverse(w.severity));
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
                            let (code, badge) = (w.code.to_string(), w.code.to_string());
                            view! {
                                <li class="warning" data-code=code>
                                    <span class="badge" data-level=level(w.severity)>{badge}</span>
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
