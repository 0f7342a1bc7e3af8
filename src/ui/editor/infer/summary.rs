//! What the dialog shows once the model is open: what was found, assumed and skipped in the
//! data ([`SummaryPanel`]), and, when mongod logs were read, what they held and the workload
//! they gave the model ([`LogPanel`]). The core writes every line ([`Summary`]); this renders
//! it in the page's language.

use leptos::prelude::*;

use crate::infer::summary::LogSummary;
use crate::lang::{Msg, Text};
use crate::ui::i18n::{lang, t, tr, tv};
use crate::ui::infer::Summary;

/// A heading and its list of texts (nothing when there are none); the list is `data-testid`
/// `id`.
fn list(title: Msg, id: &'static str, items: Vec<Text>) -> impl IntoView {
    (!items.is_empty()).then(|| {
        view! {
            <h3>{move || t(title)}</h3>
            <ul data-testid=id>{items.into_iter().map(|i| view! { <li>{move || i.render(lang())}</li> }).collect_view()}</ul>
        }
    })
}

/// What was found and assumed, once the model is open.
#[component]
pub fn SummaryPanel(
    /// What the core found.
    summary: Summary,
    /// Closes the dialog.
    on_done: impl Fn() + Clone + Send + Sync + 'static,
) -> impl IntoView {
    let s = summary;
    let skipped = match (s.sql, s.skipped_count == 1) {
        (true, true) => Msg::InferSkippedStatement,
        (true, false) => Msg::InferSkippedStatements,
        (false, true) => Msg::InferSkippedLine,
        (false, false) => Msg::InferSkippedLines,
    };
    let skipped_count = crate::human::thousands(s.skipped_count);
    let skipped_class = if s.skipped_count > 0 {
        "infer-skipped-count warn"
    } else {
        "infer-skipped-count muted"
    };
    // A log alone has no data read: its bad lines are the log's.
    let data = !(s.log.is_some() && s.sources.is_empty());
    view! {
        <section class="infer-summary" aria-labelledby="infer-summary-title" data-testid="infer-summary">
            <h3 id="infer-summary-title">{tr!(InferSummaryTitle)}</h3>
            {list(Msg::InferRead, "infer-sources", s.sources)}
            {list(if s.sql { Msg::InferTables } else { Msg::InferEntities }, "infer-entities", s.entities)}
            {list(Msg::InferRelationships, "infer-relationships", s.relationships)}
            {list(Msg::InferAssumed, "infer-assumed", s.assumed)}
            {list(Msg::InferIndexes, "infer-indexes", s.indexes)}
            {list(Msg::InferWorkload, "infer-workload", s.workload)}
            {data.then(|| view! {
                <p data-testid="infer-skipped-count" class=skipped_class>
                    {move || tv(skipped, &[("count", skipped_count.clone())])}
                </p>
            })}
            {list(Msg::InferSkipped, "infer-skipped", s.skipped)}
            {list(Msg::InferLinkAttributes, "infer-link-attributes", s.link_attributes)}
            {s.log.map(|log| view! { <LogPanel log=log/> })}
            <button type="button" class="button" id="infer-done" on:click=move |_| on_done()>{tr!(InferDone)}</button>
        </section>
    }
}

/// What the logs held: each log read, the totals, each shape with its rate and the workload
/// unit it became, the operations skipped by reason, the units left out, what is assumed,
/// and the bad lines by line (the rest of each log was read).
#[component]
fn LogPanel(
    /// The logs' summary.
    log: LogSummary,
) -> impl IntoView {
    let bad = if log.bad_count == 1 {
        Msg::InferLogBadLine
    } else {
        Msg::InferLogBadLines
    };
    let bad_count = crate::human::thousands(log.bad_count);
    let bad_class = if log.bad_count > 0 {
        "infer-skipped-count warn"
    } else {
        "infer-skipped-count muted"
    };
    let totals = log.totals;
    view! {
        <div class="infer-log" data-testid="infer-log">
            {list(Msg::InferLogRead, "infer-log-sources", log.sources)}
            <p class="infer-log-totals" data-testid="infer-log-totals">{move || totals.render(lang())}</p>
            {list(Msg::InferLogShapes, "infer-log-shapes", log.shapes)}
            {list(Msg::InferLogRefused, "infer-log-refused", log.refused)}
            {list(Msg::InferLogSkipped, "infer-log-skipped", log.skipped)}
            {list(Msg::InferLogAssumed, "infer-log-assumed", log.assumed)}
            <p data-testid="infer-log-bad-count" class=bad_class>
                {move || tv(bad, &[("count", bad_count.clone())])}
            </p>
            {list(Msg::InferLogBad, "infer-log-bad", log.bad)}
        </div>
    }
}
