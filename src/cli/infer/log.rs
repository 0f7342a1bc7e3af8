//! `squillion infer --log`: mongod logs and profiler exports read into a workload
//! (`crate::workload_log` does the work), and its lines in the summary.

use std::fs::File;
use std::path::PathBuf;

use anyhow::Context;

use crate::workload_log::entry::Kind;
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
        let mut parts = vec![format!("{} {}", shape.command.name(), shape.namespace)];
        if shape.command != Kind::Insert {
            parts.push(format!("filter {}", shape.filter));
        }
        if let Some(v) = &shape.sort {
            parts.push(format!("sort {v}"));
        }
        if let Some(v) = &shape.projection {
            parts.push(format!("projection {v}"));
        }
        if let Some(v) = &shape.update {
            parts.push(format!("update {v}"));
        }
        if let Some(p) = &shape.pipeline {
            parts.push(format!("pipeline [{}]", p.join(", ")));
        }
        let mut line = format!(
            "shape {}: {} operations, {}/s",
            parts.join(" "),
            thousands(shape.count),
            rate(shape.rate_per_sec)
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

/// A rate with as many decimals as it needs (3 significant digits below 100).
fn rate(r: f64) -> String {
    if r >= 100.0 {
        format!("{r:.0}")
    } else if r >= 1.0 {
        format!("{r:.2}")
    } else {
        format!("{r:.4}")
    }
}
