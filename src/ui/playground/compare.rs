//! The designs side by side: the figures `squillion compare` ranks ([`COMPARED`], each read
//! from the engine's evaluation of each offered design by [`Metric::of`]), the best value per
//! row ([`Metric::best`], among the feasible designs) highlighted once every design has been
//! evaluated. A design with an error-severity warning is labelled infeasible, with the codes
//! why, and never highlighted. A workload without operations has no per-second figures: the
//! table says there is nothing to run and keeps the rows at full scale (the sizes). Byte
//! figures are in binary units, the exact count on hover.

use leptos::prelude::*;

use super::collections::count_text;
use super::design_charts::{nothing_to_run, Design, State};
use crate::advise::verdict::{verdict, Contender, Outcome, Verdict};
use crate::eval::metric::{Metric, Unit, COMPARED};
use crate::human;
use crate::lang::Msg;
use crate::ui::i18n::{compared_label, lang, t, tr, tv};
use crate::ui::size_level;
use crate::warning::Severity;

/// Returns a metric's value as the table shows it: bytes in binary units (per second for the
/// rates, a document's size too), counts and rates with thousands separators.
fn show(m: Metric, v: f64) -> String {
    match (m.unit(), m.is_per_sec()) {
        (Unit::DocumentBytes, _) => human::binary_size_f64(v),
        (Unit::Bytes, per_sec) => {
            let b = human::binary_size(v.max(0.0).round() as u64);
            if per_sec {
                format!("{b}/s")
            } else {
                b
            }
        }
        (Unit::Count, _) => count_text(v),
    }
}

/// Returns the hover title of a byte figure: the exact count (`25,000,288 bytes`, per second
/// for the workload's rates), as the collection cards give it; `None` for other units.
fn exact(m: Metric, v: f64) -> Option<String> {
    if m.unit() == Unit::Count {
        return None;
    }
    let b = crate::ui::i18n::exact_bytes(human::whole_bytes(v));
    Some(if m.is_per_sec() { format!("{b}/s") } else { b })
}

/// Scrolls the comparison table sideways, inside its card, so that design `id`'s column is
/// wholly visible beside the sticky metric column; leaves it alone when it already is.
fn reveal_column(scroller: NodeRef<leptos::html::Div>, id: &str) {
    use wasm_bindgen::JsCast;
    let Some(div) = scroller.get_untracked() else {
        return;
    };
    let column = |selector: &str| {
        div.query_selector(selector)
            .ok()
            .flatten()
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    };
    let (Some(head), Some(metric)) = (
        column(&format!("th[data-design={id:?}]")),
        column("thead th:first-child"),
    ) else {
        return;
    };
    let (left, width, sticky) = (
        head.offset_left(),
        head.offset_width(),
        metric.offset_width(),
    );
    let (at, visible) = (div.scroll_left(), div.client_width());
    if left < at + sticky || left + width > at + visible {
        div.set_scroll_left((left - sticky).max(0));
    }
}

/// What a pending verdict's placeholder line holds: a blank that keeps the line's height.
const NO_BREAK_SPACE: &str = "\u{a0}";

/// The comparison table: one column per offered design (in the design bar's order), one row
/// per metric of `squillion compare`.
#[component]
pub fn CompareTable(
    /// Every offered design with its evaluation so far.
    designs: Memo<Vec<Design>>,
    /// The id of the design shown above, marked in the header.
    current: Memo<String>,
    /// Opens the Migrate panel from the design shown to the one given (the verdict's winner).
    migrate: Callback<Option<String>>,
) -> impl IntoView {
    // The verdict, once every design is evaluated: above the table, and its winner's column
    // marked (it may be scrolled out of view).
    let decided = Memo::new(move |_| decide(&designs.get()));
    let scroller = NodeRef::<leptos::html::Div>::new();
    // Once decided, the winner's column is brought into view inside the table's own scroll
    // (never the page's), as often as the winner changes and not at each re-render, so that a
    // user scrolling the table keeps where they are.
    Effect::new(move |_| {
        let Some(winner) = decided.with(|v| v.as_ref().and_then(|v| v.winner.clone())) else {
            return;
        };
        request_animation_frame(move || reveal_column(scroller, &winner));
    });
    view! {
        <div class="card compare">
            <div class="card-head">
                <h2>{tr!(CompareHeading)}</h2>
                <p class="card-note">{tr!(CompareNote)}</p>
            </div>
            <CompareVerdict designs decided current migrate/>
            // With many designs the table scrolls sideways inside its card (the metric column
            // stays put), never the page; the region takes the focus so that keys scroll it too.
            <div class="table-scroll" tabindex="0" role="region" aria-label=tr!(CompareTable) node_ref=scroller>
                <table class="compare-table">
                    <thead>
                        <tr>
                            <th scope="col">{tr!(CompareMetric)}</th>
                            {move || designs.get().into_iter().map(|d| {
                                let state = d.state_name();
                                let id = d.name.clone();
                                let why = d.infeasible();
                                let infeasible = !why.is_empty();
                                let codes = why.join(", ");
                                let title = infeasible.then(|| tv(Msg::CompareInfeasibleTitle, &[("codes", codes.clone())]));
                                let won = {
                                    let id = d.name.clone();
                                    move || decided.with(|v| v.as_ref().and_then(|v| v.winner.as_ref()) == Some(&id))
                                };
                                view! {
                                    <th scope="col" class="num" class:current=move || current.with(|c| *c == id)
                                        class:winner=won
                                        class:infeasible=infeasible title=title
                                        data-design=d.name data-state=state
                                        data-infeasible=infeasible.then(|| why.join(","))>
                                        {d.label}
                                        {let won = won.clone(); move || won().then(|| view! {
                                            <span class="winner-label">{tr!(CompareWinner)}</span>
                                        })}
                                        {infeasible.then(|| view! {
                                            <span class="infeasible-label">{breakable(&tv(Msg::CompareInfeasible, &[("codes", codes.clone())]))}</span>
                                        })}
                                    </th>
                                }
                            }).collect_view()}
                        </tr>
                    </thead>
                    <tbody>
                        {move || {
                            let ds = designs.get();
                            // The best is marked once no design is still running.
                            let settled = ds.iter().all(|d| d.state_name() != "pending");
                            let feasible: Vec<bool> = ds.iter()
                                .filter(|d| d.evaluation().is_some())
                                .map(|d| d.infeasible().is_empty())
                                .collect();
                            // Without operations every per-second figure is 0: one row says
                            // so instead, and the sizes at full scale follow.
                            let idle = nothing_to_run(&ds);
                            let columns = ds.len();
                            let nothing = idle.then(|| view! {
                                <tr class="nothing-to-run" data-testid="compare-nothing-to-run">
                                    <th scope="row">{tr!(CompareWorkload)}</th>
                                    <td colspan=columns class="muted">
                                        {tr!(CompareNothingToRun)}
                                    </td>
                                </tr>
                            });
                            let rows = COMPARED.into_iter().filter(move |m| !(idle && m.is_per_sec())).map(|m| {
                                let values: Vec<Option<f64>> =
                                    ds.iter().map(|d| d.evaluation().map(|e| m.of(e))).collect();
                                let done: Vec<f64> = values.iter().flatten().copied().collect();
                                let best = m.best(&done, &feasible)
                                    .and_then(|i| done.get(i).copied())
                                    .filter(|_| settled);
                                view! {
                                    <tr data-metric=m.compared_key()>
                                        <th scope="row">{compared_label(m, lang())}</th>
                                        {values.into_iter().zip(&ds).map(|(v, d)| {
                                            // An infeasible design's figure is never the best.
                                            let ok = d.infeasible().is_empty();
                                            match v {
                                                // A document's size is coloured against the 16 MiB limit,
                                                // as in the collection cards.
                                                Some(v) if m.unit() == Unit::DocumentBytes => view! {
                                                    <td class="num largest" class:best=ok && Some(v) == best
                                                        class:infeasible=!ok data-value=v.to_string()
                                                        data-level=size_level(v.max(0.0) as u64)
                                                        title=exact(m, v)>{show(m, v)}</td>
                                                }.into_any(),
                                                Some(v) => view! {
                                                    <td class="num" class:best=ok && Some(v) == best
                                                        class:infeasible=!ok data-value=v.to_string()
                                                        title=exact(m, v)>{show(m, v)}</td>
                                                }.into_any(),
                                                None => pending_cell(d),
                                            }
                                        }).collect_view()}
                                    </tr>
                                }
                            }).collect_view();
                            (nothing, rows)
                        }}
                        <WarningsRow designs/>
                    </tbody>
                </table>
            </div>
        </div>
    }
}

/// Returns `text` with a line-break opportunity after each `_`: a warning code
/// (`ARRAY_BREAK_POINT`) wraps between its words when the column is narrow, never inside one.
fn breakable(text: &str) -> Vec<AnyView> {
    text.split_inclusive('_')
        .map(|part| view! { {part.to_string()}<wbr/> }.into_any())
        .collect()
}

/// Returns the verdict among `designs` once every one is evaluated (or failed), else `None`.
fn decide(designs: &[Design]) -> Option<Verdict> {
    if designs.is_empty() || designs.iter().any(|d| d.state_name() == "pending") {
        return None;
    }
    let contenders: Vec<Contender> = designs
        .iter()
        .map(|d| Contender {
            design: &d.name,
            label: &d.label,
            evaluation: match &d.state {
                State::Done(e) => Ok(e.as_ref()),
                State::Failed(why) => Err(why.as_str()),
                State::Pending => Err(""),
            },
        })
        .collect();
    Some(verdict(&contenders))
}

/// The verdict above the table, as `squillion compare` prints it first
/// ([`crate::advise::verdict`]: the advisor's cost model, default weights): which design wins
/// with its deciding figures, then one line per other design saying why it loses. Until every
/// design is evaluated it says how many are, over as many lines as the verdict will take, so
/// that the table does not move when it comes.
#[component]
fn CompareVerdict(
    designs: Memo<Vec<Design>>,
    decided: Memo<Option<Verdict>>,
    current: Memo<String>,
    migrate: Callback<Option<String>>,
) -> impl IntoView {
    let shown = move || {
        let lang = lang();
        let Some(v) = decided.get() else {
            let ds = designs.get();
            let waiting = ds.iter().filter(|d| d.state_name() == "pending").count();
            let text = tv(
                Msg::CompareVerdictPending,
                &[
                    ("done", (ds.len() - waiting).to_string()),
                    ("count", ds.len().to_string()),
                ],
            );
            // One blank line per design but the winner: the height the verdict will have.
            let blanks = (1..ds.len())
                .map(|_| view! { <li aria-hidden="true">{NO_BREAK_SPACE}</li> })
                .collect_view();
            return view! {
                <p class="verdict-text muted" data-state="pending">{text}</p>
                <ul class="verdict-lines">{blanks}</ul>
            }
            .into_any();
        };
        let outcome = match v.outcome {
            Outcome::Winner => "winner",
            Outcome::NoWorkload => "no-workload",
            Outcome::NoneSound => "none-sound",
        };
        let lines = v
            .designs
            .iter()
            .filter(|s| Some(&s.design) != v.winner.as_ref())
            .zip(v.reasons(lang))
            .map(|(s, line)| view! { <li data-design=s.design.clone()>{line}</li> })
            .collect_view();
        // From the design on show to the winner: what it takes to get there.
        let to_winner = v.winner.clone().filter(|w| *w != current.get()).map(|w| {
            let label = designs.with(|ds| {
                ds.iter()
                    .find(|d| d.name == w)
                    .map_or_else(|| w.clone(), |d| d.label.clone())
            });
            view! {
                <button type="button" class="button verdict-migrate"
                    on:click=move |_| migrate.run(Some(w.clone()))>
                    {tv(Msg::MigrateToWinner, &[("design", label)])}
                </button>
            }
        });
        view! {
            <p class="verdict-text" data-state="done" data-outcome=outcome
                data-winner=v.winner.clone()>{v.sentence(lang)}</p>
            <ul class="verdict-lines">{lines}</ul>
            {to_winner}
        }
        .into_any()
    };
    view! {
        <div class="verdict" data-testid="compare-verdict" role="status" aria-live="polite"
            aria-label=tr!(CompareVerdictLabel)>
            {shown}
        </div>
    }
}

/// The last row, as `squillion compare` ends its table: each design's warnings, with the
/// errors among them in brackets (`7 (2)`). Not ranked: a warning's weight is the reader's call.
#[component]
fn WarningsRow(designs: Memo<Vec<Design>>) -> impl IntoView {
    view! {
        <tr data-metric="warnings">
            <th scope="row">{tr!(CompareWarnings)}</th>
            {move || designs.get().into_iter().map(|d| match d.evaluation() {
                Some(s) => {
                    let errors = s.warnings.iter().filter(|w| w.severity == Severity::Error).count();
                    let any = errors > 0;
                    view! {
                        <td class="num" data-value=s.warnings.len().to_string() data-errors=errors.to_string()
                            class:has-errors=any>
                            {format!("{} ({errors})", s.warnings.len())}
                        </td>
                    }.into_any()
                }
                None => pending_cell(&d),
            }).collect_view()}
        </tr>
    }
}

/// The cell of a design without figures yet: `…` while it runs, `failed` (why, on hover).
fn pending_cell(d: &Design) -> AnyView {
    let failed = d.state_name() == "failed";
    view! {
        <td class="num muted" class:failed=failed title=d.placeholder()>
            {if failed { t(Msg::CellFailed) } else { "…".to_string() }}
        </td>
    }
    .into_any()
}
