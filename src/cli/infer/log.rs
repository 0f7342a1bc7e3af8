//! `squillion infer --log`: mongod logs and profiler exports read into a workload
//! (`crate::workload_log` does the work), and its lines in the summary.

use std::fs::File;
use std::path::PathBuf;

use anyhow::Context;

use crate::eval::logged::{times, Comparison, Row};
use crate::workload_log::model::LogReport;
use crate::workload_log::{LogReading, LogWorkload};

/// The log path that names standard input.
const STDIN: &str = "-";

/// Reads every log file (`-`: standard input, once); prints each bad line on standard error
/// as it is found.
pub fn read_logs(paths: &[PathBuf]) -> anyhow::Result<LogWorkload> {
    if paths.iter().filter(|p| p.as_os_str() == STDIN).count() > 1 {
        anyhow::bail!("standard input (--log -) can be read once: name it once");
    }
    let mut reading = LogReading::new();
    let mut shown = 0;
    for path in paths {
        if path.as_os_str() == STDIN {
            reading.read("(stdin)", std::io::stdin().lock())?;
        } else {
            let file =
                File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
            reading.read(&path.display().to_string(), file)?;
        }
        let bad = reading.bad();
        for b in bad.iter().skip(shown) {
            eprintln!(
                "squillion infer: {}: line {}: {} (skipped)",
                b.source, b.line, b.reason
            );
        }
        shown = bad.len();
    }
    Ok(reading.finish())
}

/// Returns the summary's lines of the logs (English, as the report's JSON keys are): each
/// log, each shape with its unit, figures and assumptions, the operations left out.
pub fn summary(report: &LogReport) -> String {
    let thousands = |n: u64| crate::human::thousands(n);
    let mut s = String::new();
    for src in &report.sources {
        let formats: Vec<&str> = src.formats.iter().map(|f| f.name()).collect();
        s.push_str(&format!(
            "log {}{}: {} lines ({}), {} operations, {} bad lines{}\n",
            src.source,
            if src.gzip { " (gzip)" } else { "" },
            thousands(src.lines),
            formats.join(", "),
            thousands(src.operations),
            thousands(src.bad_lines),
            match (&src.first, &src.last) {
                (Some(a), Some(b)) => format!(", {a} to {b}"),
                _ => String::new(),
            }
        ));
    }
    s.push_str(&format!(
        "log: {} operations in {} shapes over {:.1} s\n",
        thousands(report.operations),
        report.shapes.len(),
        report.span_seconds
    ));
    for shape in &report.shapes {
        let mut line = format!(
            "shape {}: {} operations, {}/s",
            shape.describe(),
            thousands(shape.count),
            crate::human::rate(shape.rate_per_sec)
        );
        let per = |name: &str, v: Option<f64>| v.map(|v| format!("{name} {v:.1}"));
        let figures: Vec<String> = [
            per("keys examined", shape.keys_examined),
            per("docs examined", shape.docs_examined),
            per("returned", shape.nreturned),
        ]
        .into_iter()
        .flatten()
        .collect();
        if !figures.is_empty() {
            line.push_str(&format!("; per operation: {}", figures.join(", ")));
        }
        if let Some(d) = &shape.duration_ms {
            line.push_str(&format!(
                "; {}–{} ms, p50 {} ms, p95 {} ms, p99 {} ms",
                d.min, d.max, d.p50, d.p95, d.p99
            ));
        }
        if let Some(d) = &shape.grouped_ms {
            line.push_str(&format!(
                "; $queryStats: {:.1}–{:.1} ms, mean {:.1} ms (no percentiles)",
                d.min, d.max, d.mean
            ));
        }
        let plans: Vec<String> = shape
            .plans
            .iter()
            .map(|p| format!("{} ×{}", p.plan, p.count))
            .collect();
        if !plans.is_empty() {
            line.push_str(&format!("; plans: {}", plans.join(", ")));
        }
        match (&shape.unit, &shape.not_mapped) {
            (Some(u), _) => line.push_str(&format!(" → workload \"{u}\"")),
            (None, Some(why)) => line.push_str(&format!(" → not in the workload: {why}")),
            (None, None) => {}
        }
        for a in &shape.assumed {
            line.push_str(&format!(" (assumed: {a})"));
        }
        s.push_str(&line);
        s.push('\n');
    }
    for r in &report.refused {
        s.push_str(&format!(
            "log refused: \"{}\": {}\n",
            r.unit,
            r.problems.join("; ")
        ));
    }
    for skip in &report.skipped_operations {
        s.push_str(&format!(
            "log skipped: {} {} on {} ({})\n",
            thousands(skip.count),
            skip.command,
            skip.namespace,
            skip.reason.name()
        ));
    }
    for a in &report.assumed {
        s.push_str(&format!("log assumed: {a}\n"));
    }
    s.push_str(&format!(
        "log: {} bad lines skipped\n",
        thousands(report.bad_lines)
    ));
    s
}

/// What the summary says of a log read alone: no prediction without the data.
pub const NOT_PREDICTED_ALONE: &str = "log measured beside predicted: needs the documents \
    (mongoexport files or a dump beside --log): Squillion predicts each operation's figures \
    by running the model's design on the data's sizes";

/// Returns the summary's lines of mongod's figures beside Squillion's: a heading with the
/// design and the factor, then per unit its figures measured / predicted (ratio), the plans,
/// and the reading where they disagree.
pub fn measured_summary(c: &Comparison) -> String {
    let mut s = format!(
        "log measured beside predicted (design {}; mongod's mean per operation / Squillion's \
         typical run at full scale (measured ÷ predicted); a reading where they differ {}× \
         or more):\n",
        c.design, c.factor
    );
    if let Some(why) = &c.not_predicted {
        s.push_str(&format!("  not predicted: {why}\n"));
    }
    for row in &c.rows {
        s.push_str(&measured_row(row));
    }
    s
}

/// Returns one unit's lines of the comparison.
fn measured_row(row: &Row) -> String {
    let m = &row.measured;
    let mut s = format!(
        "  \"{}\" ({}; {} operations)",
        row.unit,
        row.shapes.join("; "),
        crate::human::thousands(m.operations)
    );
    let Some(p) = &row.predicted else {
        s.push_str(": not in the evaluation\n");
        return s;
    };
    let side = |v: Option<f64>| v.map_or("—".to_string(), |v| format!("{v:.1}"));
    let ratio = |r: Option<f64>| r.map_or("—".to_string(), times);
    let figures = [
        (
            "keys examined",
            m.keys_examined,
            p.keys_examined,
            row.ratio.keys_examined,
        ),
        (
            "docs examined",
            m.docs_examined,
            p.docs_examined,
            row.ratio.docs_examined,
        ),
        ("returned", m.returned, p.returned, row.ratio.returned),
    ]
    .map(|(name, m, p, r)| format!("{name} {} / {} ({})", side(m), side(Some(p)), ratio(r)));
    let plans: Vec<String> = m
        .plans
        .iter()
        .map(|q| format!("{} ×{}", q.plan, q.count))
        .collect();
    s.push_str(&format!(
        ": {}; round trips {} / {}; plans {} / {}\n",
        figures.join(", "),
        match m.round_trips.fract() == 0.0 {
            true => format!("{}", m.round_trips),
            false => format!("{:.2}", m.round_trips),
        },
        p.round_trips,
        if plans.is_empty() {
            "—".to_string()
        } else {
            plans.join(", ")
        },
        if p.plans.is_empty() {
            "—".to_string()
        } else {
            p.plans.join(", ")
        },
    ));
    if let Some(r) = &row.reading {
        s.push_str(&format!("    reading: {r}\n"));
    }
    s
}
