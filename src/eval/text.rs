//! The evaluation as a readable report, and the side-by-side comparison with the best design
//! per metric. The cluster sections (shards, shard keys, storage) are [`cluster`].

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

mod cluster;

use super::metric::{self, Better};
use super::{Basis, Evaluation, Figure};
use crate::human::thousands;
use crate::lang::{Lang, Text};
use crate::warning::Severity;

fn human_bytes(b: f64) -> String {
    crate::human::binary_size_f64(b)
}

/// The designs side by side, with the best design per metric.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    /// One evaluation per design.
    pub designs: Vec<Evaluation>,
    /// The compared metrics, per design in the same order.
    pub metrics: BTreeMap<String, Vec<f64>>,
    /// Metric → the design that is best at it (the lowest value, all metrics being costs; the
    /// first on ties) among the feasible designs; a metric is absent when no design is
    /// feasible.
    pub best: BTreeMap<String, String>,
    /// Design → why it is infeasible: the codes of its error-severity warnings
    /// ([`Evaluation::infeasible`]); only infeasible designs are listed. Such a design is never
    /// in `best`.
    pub infeasible: BTreeMap<String, Vec<String>>,
    /// Which design wins by the advisor's cost model, and why each other loses
    /// ([`crate::advise::verdict`]); set by `squillion compare`, which knows the designs'
    /// labels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<crate::advise::verdict::Verdict>,
}

/// Returns the comparison of `designs`: every metric of [`metric::COMPARED`] per design, and
/// the best design at each.
pub fn comparison(designs: Vec<Evaluation>) -> Comparison {
    let mut metrics = BTreeMap::new();
    let mut best = BTreeMap::new();
    let feasible: Vec<bool> = designs.iter().map(|e| e.infeasible().is_empty()).collect();
    for m in metric::COMPARED {
        let values: Vec<f64> = designs.iter().map(|e| m.of(e)).collect();
        if let Some(e) = m.best(&values, &feasible).and_then(|i| designs.get(i)) {
            best.insert(m.compared_key(), e.design.clone());
        }
        metrics.insert(m.compared_key(), values);
    }
    let infeasible = designs
        .iter()
        .map(|e| (e.design.clone(), e.infeasible()))
        .filter(|(_, codes)| !codes.is_empty())
        .collect();
    Comparison {
        designs,
        metrics,
        best,
        infeasible,
        verdict: None,
    }
}

/// Formats a count or a rate as the text reports print it: whole numbers (and any figure of
/// 100 or more, rounded) with thousands separators, smaller fractions with two decimals.
pub(super) fn num(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e18 {
        thousands(v.abs() as u64)
    } else if v.abs() >= 100.0 {
        thousands(v.round().abs() as u64)
    } else {
        format!("{v:.2}")
    }
}

/// Formats a figure with a marker for its basis: none for sample, `≈` for estimate,
/// `(full)` for full-scale arithmetic.
pub fn fig(f: Figure) -> String {
    fig_in(f, Lang::En)
}

/// [`fig`] with the full-scale marker in `lang` (`(full)`, `（全量）`).
pub fn fig_in(f: Figure, lang: Lang) -> String {
    match f.basis {
        Basis::Sample => num(f.value),
        Basis::FullScale => format!("{}{}", num(f.value), say(lang, "cli-full")),
        Basis::Estimate => format!("≈{}", num(f.value)),
    }
}

/// Formats a byte figure as [`fig`] does, in binary units (`≈2.94 TiB`, `1.2 KiB (full)`).
pub fn fig_bytes(f: Figure) -> String {
    fig_bytes_in(f, Lang::En)
}

/// [`fig_bytes`] with the full-scale marker in `lang`.
fn fig_bytes_in(f: Figure, lang: Lang) -> String {
    let b = human_bytes(f.value);
    match f.basis {
        Basis::Sample => b,
        Basis::FullScale => format!("{b}{}", say(lang, "cli-full")),
        Basis::Estimate => format!("≈{b}"),
    }
}

/// Returns message `id` of the `## CLI report` words in `lang`, without values.
fn say(lang: Lang, id: &'static str) -> String {
    Text::new(id).render(lang)
}

/// Returns message `id` in `lang` with `values` (each already formatted).
fn say_with(lang: Lang, id: &'static str, values: &[(&'static str, String)]) -> String {
    values
        .iter()
        .fold(Text::new(id), |t, (k, v)| t.arg(k, v))
        .render(lang)
}

/// Returns `n` things in `lang`: `1 index`, `3 indexes`, `3 个索引`.
fn count_of(lang: Lang, n: u64, one: &'static str, many: &'static str) -> String {
    say_with(
        lang,
        if n == 1 { one } else { many },
        &[("count", thousands(n))],
    )
}

/// Returns the readable report of one evaluation in `lang`: its words from the catalogue
/// (`## CLI report`), names, commands, codes and numbers as they are.
pub fn report(e: &Evaluation, lang: Lang) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{}",
        say_with(
            lang,
            "cli-design",
            &[
                ("design", e.design.clone()),
                ("seed", e.seed.to_string()),
                ("max", e.max_documents.to_string()),
                ("cap", e.fan_out_cap.to_string()),
            ]
        )
    );
    let _ = writeln!(s, "{}", say(lang, "cli-figures"));
    let _ = writeln!(s, "\n{}", say(lang, "cli-collections"));
    for c in &e.collections {
        collection_section(&mut s, c, lang);
    }
    let _ = writeln!(s, "\n{}", say(lang, "cli-operations"));
    for o in &e.operations {
        operation_section(&mut s, o, lang);
    }
    for o in &e.operations {
        for c in o.largest.commands.iter().filter(|c| c.error.is_some()) {
            let _ = writeln!(
                s,
                "  {}",
                say_with(
                    lang,
                    "cli-largest-error",
                    &[
                        ("unit", o.unit.clone()),
                        ("mongosh", c.mongosh.clone()),
                        ("error", c.error.clone().unwrap_or_default()),
                    ]
                )
            );
        }
    }
    cluster::cluster_report(&mut s, e, lang);
    let t = &e.totals;
    let _ = writeln!(
        s,
        "\n{}",
        say_with(
            lang,
            "cli-workload",
            &[
                ("round_trips", num(t.queries_per_sec)),
                ("lookups", num(t.lookups_per_sec)),
                ("examined", fig_in(t.per_sec.docs_examined, lang)),
                ("written", fig_in(t.per_sec.docs_written, lang)),
                ("bytes", fig_bytes_in(t.per_sec.bytes_written, lang)),
            ]
        )
    );
    warnings_section(&mut s, e, lang);
    s
}

/// Writes one collection's line of a report, then a line per document shape (with each
/// array's break point) and a line per index.
fn collection_section(s: &mut String, c: &super::CollectionEval, lang: Lang) {
    let _ = writeln!(
        s,
        "  {}",
        say_with(
            lang,
            "cli-collection",
            &[
                ("name", c.name.clone()),
                ("count", num(c.stats.count)),
                ("sampled", c.sample_documents.to_string()),
                ("data", human_bytes(c.stats.total_bytes)),
                (
                    "indexes",
                    count_of(
                        lang,
                        c.index_count as u64,
                        "cli-index-one",
                        "cli-index-many"
                    )
                ),
                ("index_bytes", human_bytes(c.index_bytes.value)),
            ]
        )
    );
    for sh in &c.stats.shapes {
        shape_lines(s, sh, lang);
    }
    for ix in &c.indexes {
        let mut values = vec![("name", ix.name.clone()), ("keys", ix.keys.to_string())];
        let id = match &ix.partial {
            Some(p) => {
                values.push(("partial", p.to_string()));
                "cli-index-partial"
            }
            None => "cli-index",
        };
        let _ = writeln!(s, "    {}", say_with(lang, id, &values));
    }
}

/// Writes one document shape's sizes (median, p99, largest, bound), then the break point of
/// each of its arrays that has one.
fn shape_lines(s: &mut String, sh: &crate::stats::ShapeStats, lang: Lang) {
    let (largest, _) = sh.largest();
    // The bound is said once where the two read the same (message-attachments' chunks).
    let at_bound =
        crate::human::binary_size(largest.bytes) == crate::human::binary_size(sh.max.bytes);
    let _ = writeln!(
        s,
        "    {}",
        say_with(
            lang,
            if at_bound {
                "cli-shape-at-bound"
            } else {
                "cli-shape"
            },
            &[
                ("label", sh.label.clone()),
                ("p50", crate::human::binary_size(sh.p50.bytes)),
                ("p99", crate::human::binary_size(sh.p99.bytes)),
                ("largest", crate::human::binary_size(largest.bytes)),
                (
                    "largest_estimate",
                    if largest.exact {
                        String::new()
                    } else {
                        say(lang, "cli-estimate")
                    }
                ),
                ("max", crate::human::binary_size(sh.max.bytes)),
                (
                    "estimate",
                    if sh.max.exact {
                        String::new()
                    } else {
                        say(lang, "cli-estimate")
                    }
                ),
            ]
        )
    );
    for a in &sh.arrays {
        if let Some(bp) = a.break_point {
            let _ = writeln!(
                s,
                "      {}",
                say_with(
                    lang,
                    "cli-array-break",
                    &[
                        ("field", a.field.clone()),
                        ("count", thousands(bp.count)),
                        ("largest", thousands(a.max_count)),
                    ]
                )
            );
        }
    }
}

/// Writes one operation's line of a report (its typical and largest run), then a line per
/// command of its typical run.
fn operation_section(s: &mut String, o: &super::OperationEval, lang: Lang) {
    let (t, l) = (&o.typical.total, &o.largest.total);
    let _ = writeln!(
        s,
        "  {}",
        say_with(
            lang,
            "cli-operation",
            &[
                ("unit", o.unit.clone()),
                ("rate", num(o.rate_per_sec)),
                (
                    "queries",
                    count_of(lang, o.queries, "cli-query-one", "cli-query-many")
                ),
                ("largest_queries", o.largest.queries.to_string()),
                ("lookups", o.lookups.to_string()),
                ("examined", fig_in(t.docs_examined, lang)),
                ("largest_examined", fig_in(l.docs_examined, lang)),
                ("keys", fig_in(t.keys_examined, lang)),
                ("largest_keys", fig_in(l.keys_examined, lang)),
                ("returned", fig_in(t.docs_returned, lang)),
                ("largest_returned", fig_in(l.docs_returned, lang)),
                ("returned_bytes", fig_bytes_in(t.bytes_returned, lang)),
                (
                    "largest_returned_bytes",
                    fig_bytes_in(l.bytes_returned, lang)
                ),
                ("written", fig_in(t.docs_written, lang)),
                ("largest_written", fig_in(l.docs_written, lang)),
                ("written_bytes", fig_bytes_in(t.bytes_written, lang)),
                ("largest_written_bytes", fig_bytes_in(l.bytes_written, lang)),
                ("shards", o.typical.max_shards.to_string()),
                ("largest_shards", o.largest.max_shards.to_string()),
            ]
        )
    );
    for c in &o.typical.commands {
        command_line(s, c, lang);
    }
}

/// Writes one command's line: its plan, shards and fan-out, or why it was not sent.
fn command_line(s: &mut String, c: &super::CommandEval, lang: Lang) {
    if let Some(why) = &c.not_sent {
        let _ = writeln!(
            s,
            "    {}",
            say_with(
                lang,
                "cli-not-sent",
                &[
                    ("mongosh", c.mongosh.clone()),
                    ("note", c.note.to_string()),
                    ("why", why.to_string()),
                ]
            )
        );
        return;
    }
    let plan = if c.plan.is_empty() { "-" } else { &c.plan };
    let fan_out = c.fan_out.as_ref().map_or(String::new(), |f| {
        say_with(
            lang,
            "cli-fan-out",
            &[
                ("full", thousands(f.full_scale)),
                ("written", thousands(f.written)),
                (
                    "capped",
                    if f.capped {
                        say_with(lang, "cli-capped", &[("cap", thousands(f.cap))])
                    } else {
                        String::new()
                    },
                ),
            ],
        )
    });
    let _ = writeln!(
        s,
        "    {}",
        say_with(
            lang,
            "cli-command",
            &[
                ("mongosh", c.mongosh.clone()),
                ("note", c.note.to_string()),
                ("plan", plan.to_string()),
                (
                    "no_index",
                    if c.no_supporting_index {
                        say(lang, "cli-no-supporting-index")
                    } else {
                        String::new()
                    }
                ),
                ("touched", c.shards.touched.to_string()),
                ("shards", c.shards.shards.to_string()),
                ("routing", format!("{:?}", c.shards.routing)),
                ("fan_out", fan_out),
                (
                    "error",
                    c.error.as_ref().map_or(String::new(), |e| {
                        say_with(lang, "cli-command-error", &[("error", e.to_string())])
                    })
                ),
            ]
        )
    );
}

/// Writes the warnings section: each warning with its severity, place, message and fix.
fn warnings_section(s: &mut String, e: &Evaluation, lang: Lang) {
    if e.warnings.is_empty() {
        let _ = writeln!(s, "\n{}", Text::new("report-no-warnings").render(lang));
    } else {
        let _ = writeln!(s, "\n{}", Text::new("report-warnings").render(lang));
        for w in &e.warnings {
            let severity = match w.severity {
                Severity::Info => "severity-info",
                Severity::Warning => "severity-warning",
                Severity::Error => "severity-error",
            };
            let _ = writeln!(
                s,
                "  [{}] {} {}{}: {}\n    {}{}",
                Text::new(severity).render(lang),
                w.code,
                w.collection,
                if w.path.is_empty() {
                    String::new()
                } else {
                    format!(".{}", w.path)
                },
                w.message_in(lang),
                Text::new("report-fix").render(lang),
                w.fix_in(lang)
            );
        }
    }
}

/// Returns `text` padded with spaces to `width` terminal columns, on the right (`left`) or
/// the left: a Chinese character takes two columns.
fn pad(text: &str, width: usize, left: bool) -> String {
    let fill = " ".repeat(width.saturating_sub(unicode_width::UnicodeWidthStr::width(text)));
    if left {
        format!("{text}{fill}")
    } else {
        format!("{fill}{text}")
    }
}

/// Returns metric `m`'s label in a comparison in `lang`: the core's own in English
/// (`docs examined/s`), the page's words otherwise (`检查的文档/秒`).
fn compared_label(m: metric::Metric, lang: Lang) -> String {
    use crate::lang::Msg;
    if lang == Lang::En {
        return m.compared_label();
    }
    let label = m.label_msg().text(lang);
    if m.is_per_sec() {
        Msg::MetricPerSec.with(lang, &[("label", label)])
    } else {
        label
    }
}

/// Returns the side-by-side report, the best design per metric marked with `*`, then each
/// design's report, all in `lang`.
pub fn compare_report(c: &Comparison, lang: Lang) -> String {
    let mut s = String::new();
    // The verdict first: the design to start with, then why each other loses.
    if let Some(v) = &c.verdict {
        let _ = writeln!(s, "{}", v.sentence(lang));
        for line in v.reasons(lang) {
            let _ = writeln!(s, "  {line}");
        }
        s.push('\n');
    }
    let names: Vec<&str> = c.designs.iter().map(|e| e.design.as_str()).collect();
    let w = names.iter().map(|n| n.len()).max().unwrap_or(10).max(22) + 2;
    let head = |s: &mut String, label: &str| s.push_str(&pad(label, 28, true));
    head(&mut s, &say(lang, "cli-compare-metric"));
    for n in &names {
        let _ = write!(s, "{n:>w$}");
    }
    s.push('\n');
    for m in metric::COMPARED {
        head(&mut s, &compared_label(m, lang));
        let values = c
            .metrics
            .get(&m.compared_key())
            .cloned()
            .unwrap_or_default();
        // The best among the feasible designs: an infeasible one is never marked.
        let ranked = values
            .iter()
            .zip(&c.designs)
            .filter(|(_, e)| !c.infeasible.contains_key(&e.design))
            .map(|(v, _)| *v);
        let best = match m.better() {
            Better::Lower => ranked.fold(f64::INFINITY, f64::min),
            Better::Higher => ranked.fold(f64::NEG_INFINITY, f64::max),
        };
        for (v, e) in values.iter().zip(&c.designs) {
            // Every feasible design tied with the best is marked.
            let feasible = !c.infeasible.contains_key(&e.design);
            let mark = if feasible && *v == best { "*" } else { " " };
            let shown = match m.unit() {
                metric::Unit::Bytes | metric::Unit::DocumentBytes => human_bytes(*v),
                metric::Unit::Count => num(*v),
            };
            let _ = write!(s, "{:>w$}", format!("{shown}{mark}"));
        }
        s.push('\n');
    }
    head(&mut s, &say(lang, "cli-compare-warnings"));
    for e in &c.designs {
        let errs = e
            .warnings
            .iter()
            .filter(|x| x.severity == crate::warning::Severity::Error)
            .count();
        let _ = write!(s, "{:>w$}", format!("{} ({errs}) ", e.warnings.len()));
    }
    s.push('\n');
    head(&mut s, &say(lang, "cli-compare-feasible"));
    for e in &c.designs {
        let cell = if c.infeasible.contains_key(&e.design) {
            say(lang, "cli-compare-no")
        } else {
            say(lang, "cli-compare-yes")
        };
        s.push_str(&pad(&format!("{cell} "), w, false));
    }
    let _ = writeln!(s, "\n\n{}", say(lang, "cli-compare-footnote"));
    for (design, codes) in &c.infeasible {
        let _ = writeln!(
            s,
            "{}",
            say_with(
                lang,
                "cli-compare-infeasible",
                &[("design", design.clone()), ("codes", codes.join(", "))]
            )
        );
    }
    for e in &c.designs {
        let _ = writeln!(s, "\n{}\n{}", "=".repeat(72), report(e, lang));
    }
    s
}
