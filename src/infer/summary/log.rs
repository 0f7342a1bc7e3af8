//! What the page shows of mongod logs read with the data ([`LogSummary`]): the report
//! `crate::workload_log::model` builds for `squillion infer --log`, in the words of its
//! summary, as texts that render in any language. The shapes' own notation (namespaces,
//! filters, plans) and the core's reasons stay as the report writes them.

use serde::{Deserialize, Serialize};

use crate::lang::Text;
use crate::workload_log::entry::{Kind, SkipReason};
use crate::workload_log::model::LogReport;
use crate::workload_log::operations::ShapeReport;
use crate::workload_log::Format;

/// What the dialog shows of the logs: each log read, the totals, each shape with the
/// workload unit it became, what was skipped and why, and the bad lines by line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogSummary {
    /// Per log: lines read, their formats, operations logged, bad lines, its span.
    pub sources: Vec<Text>,
    /// Operations counted in shapes, how many shapes, over how long.
    pub totals: Text,
    /// Per shape, most frequent first: its operations and rate, mongod's figures, the unit it
    /// became or why none.
    pub shapes: Vec<Text>,
    /// Operations left out, counted by reason (with the namespaces and commands of each).
    pub skipped: Vec<Text>,
    /// Units the model refused, with its words.
    pub refused: Vec<Text>,
    /// What the rates and the model assume.
    pub assumed: Vec<Text>,
    /// Bad lines in all.
    pub bad_count: u64,
    /// The first bad lines, each with its log, line and reason.
    pub bad: Vec<Text>,
}

/// Returns a count with its noun's message in the number it takes.
fn counted(n: u64, one: &'static str, many: &'static str) -> Text {
    Text::new(if n == 1 { one } else { many }).arg("count", crate::human::thousands(n))
}

/// Returns the summary of the logs' report.
pub fn log_summary(report: &LogReport) -> LogSummary {
    let sources = report
        .sources
        .iter()
        .map(|src| {
            let formats: Vec<Text> = src.formats.iter().map(|f| format_text(*f)).collect();
            let span = match (&src.first, &src.last) {
                (Some(a), Some(b)) => Text::new("infer-log-span").arg("first", a).arg("last", b),
                _ => Text::new("infer-empty"),
            };
            Text::new("infer-log-source")
                .arg("source", &src.source)
                .nested(
                    "gzip",
                    Text::new(if src.gzip {
                        "infer-log-gzip"
                    } else {
                        "infer-empty"
                    }),
                )
                .nested(
                    "lines",
                    counted(src.lines, "infer-lines-one", "infer-lines-many"),
                )
                .items("formats", formats)
                .nested(
                    "operations",
                    counted(src.operations, "infer-log-ops-one", "infer-log-ops-many"),
                )
                .nested(
                    "bad",
                    counted(src.bad_lines, "infer-log-bad-one", "infer-log-bad-many"),
                )
                .nested("span", span)
        })
        .collect();
    let totals = Text::new("infer-log-totals")
        .nested(
            "operations",
            counted(report.operations, "infer-log-ops-one", "infer-log-ops-many"),
        )
        .nested(
            "shapes",
            counted(
                report.shapes.len() as u64,
                "infer-log-shapes-one",
                "infer-log-shapes-many",
            ),
        )
        .arg("seconds", format!("{:.1}", report.span_seconds));
    LogSummary {
        sources,
        totals,
        shapes: report.shapes.iter().map(shape_line).collect(),
        skipped: skipped_by_reason(report),
        refused: report
            .refused
            .iter()
            .map(|r| {
                Text::new("infer-log-refused")
                    .arg("unit", &r.unit)
                    .arg("problems", r.problems.join("; "))
            })
            .collect(),
        assumed: report
            .assumed
            .iter()
            .map(|a| Text::new("infer-as-is").arg("text", a))
            .collect(),
        bad_count: report.bad_lines,
        bad: report
            .bad
            .iter()
            .map(|b| {
                Text::new("infer-skipped-line")
                    .arg("source", &b.source)
                    .arg("line", b.line)
                    .arg("message", &b.reason)
            })
            .collect(),
    }
}

/// Returns a line format's words.
fn format_text(format: Format) -> Text {
    Text::new(match format {
        Format::Text => "infer-log-format-text",
        Format::Json => "infer-log-format-json",
        Format::Profile => "infer-log-format-profile",
        Format::QueryStats => "infer-log-format-query-stats",
    })
}

/// Returns a shape in the report's notation: its command and namespace, then its filter,
/// sort, projection, update and pipeline (as `squillion infer --log` writes them).
fn shape_notation(shape: &ShapeReport) -> String {
    let mut parts = vec![format!("{} {}", shape.command.name(), shape.namespace)];
    if shape.command != Kind::Insert {
        parts.push(format!("filter {}", shape.filter));
    }
    let labelled = [
        ("sort", &shape.sort),
        ("projection", &shape.projection),
        ("update", &shape.update),
    ];
    for (label, value) in labelled {
        if let Some(v) = value {
            parts.push(format!("{label} {v}"));
        }
    }
    if let Some(p) = &shape.pipeline {
        parts.push(format!("pipeline [{}]", p.join(", ")));
    }
    parts.join(" ")
}

/// Returns one shape's line: its operations and rate, mongod's figures per operation, its
/// durations and plans, and the unit it became (or why none).
fn shape_line(shape: &ShapeReport) -> Text {
    let per =
        |id: &'static str, v: Option<f64>| v.map(|v| Text::new(id).arg("n", format!("{v:.1}")));
    let figures: Vec<Text> = [
        per("infer-log-keys-examined", shape.keys_examined),
        per("infer-log-docs-examined", shape.docs_examined),
        per("infer-log-returned", shape.nreturned),
    ]
    .into_iter()
    .flatten()
    .collect();
    let figures = match figures.is_empty() {
        true => Text::new("infer-empty"),
        false => Text::new("infer-log-figures").items("figures", figures),
    };
    let durations = shape
        .duration_ms
        .as_ref()
        .map_or(Text::new("infer-empty"), |d| {
            Text::new("infer-log-durations")
                .arg("min", d.min)
                .arg("max", d.max)
                .arg("p50", d.p50)
                .arg("p95", d.p95)
                .arg("p99", d.p99)
        });
    let plans: Vec<String> = shape
        .plans
        .iter()
        .map(|p| format!("{} ×{}", p.plan, p.count))
        .collect();
    let plans = match plans.is_empty() {
        true => Text::new("infer-empty"),
        false => Text::new("infer-log-plans").arg("plans", plans.join(", ")),
    };
    let became = match (&shape.unit, &shape.not_mapped) {
        (Some(u), _) => Text::new("infer-log-unit").arg("unit", u),
        (None, Some(why)) => Text::new("infer-log-not-mapped").arg("why", why),
        (None, None) => Text::new("infer-empty"),
    };
    let assumed = match shape.assumed.is_empty() {
        true => Text::new("infer-empty"),
        false => Text::new("infer-log-shape-assumed").arg("what", shape.assumed.join("; ")),
    };
    Text::new("infer-log-shape")
        .arg("shape", shape_notation(shape))
        .nested(
            "operations",
            counted(shape.count, "infer-log-ops-one", "infer-log-ops-many"),
        )
        .arg("rate", crate::human::rate(shape.rate_per_sec))
        .nested("figures", figures)
        .nested("durations", durations)
        .nested("plans", plans)
        .nested("became", became)
        .nested("assumed", assumed)
}

/// Returns one line a reason: the operations skipped for it and on what (`3 × getMore on
/// shop.orders`).
fn skipped_by_reason(report: &LogReport) -> Vec<Text> {
    let mut reasons: Vec<SkipReason> = report.skipped_operations.iter().map(|s| s.reason).collect();
    reasons.sort();
    reasons.dedup();
    reasons
        .into_iter()
        .map(|reason| {
            let rows: Vec<_> = report
                .skipped_operations
                .iter()
                .filter(|s| s.reason == reason)
                .collect();
            let count: u64 = rows.iter().map(|s| s.count).sum();
            let what: Vec<String> = rows
                .iter()
                .map(|s| {
                    format!(
                        "{} × {} on {}",
                        crate::human::thousands(s.count),
                        s.command,
                        s.namespace
                    )
                })
                .collect();
            Text::new("infer-log-skipped")
                .nested(
                    "operations",
                    counted(count, "infer-log-ops-one", "infer-log-ops-many"),
                )
                .nested("reason", Text::new(reason_id(reason)))
                .arg("what", what.join(", "))
        })
        .collect()
}

/// Returns the message of a reason to leave an operation out.
fn reason_id(reason: SkipReason) -> &'static str {
    match reason {
        SkipReason::InternalDatabase => "infer-log-skip-internal",
        SkipReason::SystemCollection => "infer-log-skip-system",
        SkipReason::Cursor => "infer-log-skip-cursor",
        SkipReason::WriteBatch => "infer-log-skip-write-batch",
        SkipReason::NotExpressible => "infer-log-skip-not-expressible",
    }
}
