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
use crate::lang::Msg;
use crate::ui::clipboard::copy;
use crate::ui::doc_link::WithDocLinks;
use crate::ui::i18n::{self, tr};
use crate::warning::{Severity, Warning};

/// Returns a byte figure as the CLI marks figures: `≈` for an estimate, `(full)` for
/// full-scale arithmetic, nothing when measured on the sample.
pub fn bytes(f: Figure) -> String {
    marked(f.basis, human::binary_size(f.value.max(0.0).round() as u64))
}

/// Returns a count as the CLI's text report prints it ([`fig`]), its `(full)` marker in the
/// page's language.
pub fn count(f: Figure) -> String {
    marked(
        f.basis,
        fig(Figure {
            basis: Basis::Sample,
            ..f
        }),
    )
}

/// Returns `plain` marked with its basis: `≈` for an estimate, `(full)` (in the page's
/// language) for full-scale arithmetic.
fn marked(basis: Basis, plain: String) -> String {
    match basis {
        Basis::Sample => plain,
        Basis::FullScale => Msg::BasisFull.with(i18n::lang(), &[("value", plain)]),
        Basis::Estimate => format!("≈{plain}"),
    }
}

/// Returns a figure of `metric` as the workload view shows it: bytes in binary units, counts as
/// the CLI's text report prints them; both marked with their basis.
pub fn shown(metric: Metric, f: Figure) -> String {
    match metric.unit() {
        Unit::Bytes => bytes(f),
        Unit::Count | Unit::DocumentBytes => count(f),
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
            <dt>{move || i18n::metric_label(metric, i18n::lang())}</dt>
            <dd>
                {move || shown(metric, typical)}
                {shown_largest.map(|l| view! { " "<span class="largest" title=tr!(LargestSubject)>{format!("[{l}]")}</span> })}
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
    let count = op.queries;
    let queries = move || {
        i18n::t(if count == 1 {
            Msg::QueriesOne
        } else {
            Msg::QueriesMany
        })
    };
    let largest_queries = op.largest.queries;
    let rate = human::thousands(op.rate_per_sec.round() as u64);
    let trips = human::thousands(op.queries_per_sec().round() as u64);
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
                <h3>{let unit = op.unit.clone(); move || crate::ui::i18n::unit_label(&unit)}</h3>
                <span class="metric"><strong>{count}</strong>" "{queries}
                    {(op.largest.queries != op.queries).then(|| view! { " "{tr!(QueriesForLargest, count = largest_queries)} })}</span>
                <span class="muted">
                    {tr!(RateLine, rate = rate, trips = trips)}
                </span>
            </header>
            <dl class="eval-metrics">{cells}</dl>
            {op.typical.commands.into_iter().map(|c| {
                let to_copy = c.mongosh.clone();
                let plan = if c.plan.is_empty() { "-".to_string() } else { c.plan.clone() };
                view! {
                    <div class="command">
                        <pre class="code">{c.mongosh}</pre>
                        <button type="button" class="copy" on:click=move |_| copy(&to_copy) aria-label=tr!(CopyMongosh)>{tr!(CopyButton)}</button>
                        <p class="muted note">
                            {c.note}
                            {c.not_sent.map(|why| view! { " "{tr!(NotSent, why = why)} })}
                            " "{tr!(Plan, plan = plan)}
                            {c.no_supporting_index.then(|| view! { " "{tr!(NoSupportingIndex)} })}
                            " "{tr!(ShardsLine, touched = c.shards.touched, shards = c.shards.shards)}
                        </p>
                        {c.error.map(|e| view! { <p class="error">{tr!(EngineRefused, error = e)}</p> })}
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
                <h2>{tr!(WorkloadEngineHeading)}</h2>
                <p class="card-note">{tr!(WorkloadEngineNote)}</p>
            </div>
            // Without operations the totals would all be 0: the card says why instead.
            {if e.operations.is_empty() {
                view! { <NothingToRun/> }.into_any()
            } else {
                view! {
                    <p class="eval-totals muted">
                        {move || i18n::tv(Msg::PerSecondTotals, &[
                            ("trips", human::thousands(t.queries_per_sec.round() as u64)),
                            ("lookups", human::thousands(t.lookups_per_sec.round() as u64)),
                            ("examined", count(t.per_sec.docs_examined)),
                            ("written", count(t.per_sec.docs_written)),
                            ("bytes", bytes(t.per_sec.bytes_written)),
                        ])}
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
            {tr!(NothingToRun)}
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
                <h2>{tr!(WarningsHeading)}</h2>
                <p class="card-note"><WithDocLinks text=Signal::derive(tr!(WarningsNote))/></p>
            </div>
            {if ws.is_empty() {
                view! { <p class="muted">{tr!(NoWarnings)}</p> }.into_any()
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
                            let w2 = w.clone();
                            view! {
                                <li class="warning" data-code=code>
                                    <span class="badge" data-level=level(w.severity)>{badge}</span>
                                    {(!place.is_empty()).then(|| view! { <code class="place">{place}</code> })}
                                    <p>{move || w.message_in(i18n::lang())}</p>
                                    <p class="fix">{move || i18n::tv(Msg::Consider, &[("fix", w2.fix_in(i18n::lang()))])}</p>
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                }.into_any()
            }}
        </div>
    }
}
