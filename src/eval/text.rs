//! The evaluation as a readable report, and the side-by-side comparison with the best design
//! per metric.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

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
    match f.basis {
        Basis::Sample => num(f.value),
        Basis::FullScale => format!("{} (full)", num(f.value)),
        Basis::Estimate => format!("≈{}", num(f.value)),
    }
}

/// Formats a byte figure as [`fig`] does, in binary units (`≈2.94 TiB`, `1.2 KiB (full)`).
pub fn fig_bytes(f: Figure) -> String {
    let b = human_bytes(f.value);
    match f.basis {
        Basis::Sample => b,
        Basis::FullScale => format!("{b} (full)"),
        Basis::Estimate => format!("≈{b}"),
    }
}

/// Returns the readable report of one evaluation, its warnings in `lang` (the figures and
/// their labels are English in every language for now; docs/i18n.md).
pub fn report(e: &Evaluation, lang: Lang) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Design: {} (seed {}, sample ≤ {} documents per entity, fan-out writes capped at {})",
        e.design, e.seed, e.max_documents, e.fan_out_cap
    );
    let _ = writeln!(
        s,
        "Figures: plain = measured on the sample; (full) = full-scale arithmetic; ≈ = estimate."
    );
    let _ = writeln!(s, "\nCollections");
    for c in &e.collections {
        let _ = writeln!(
            s,
            "  {}: {} documents ({} sampled), {} data, {} ≈{} (estimate)",
            c.name,
            num(c.stats.count),
            c.sample_documents,
            human_bytes(c.stats.total_bytes),
            crate::human::count(c.index_count as u64, "index", "indexes"),
            human_bytes(c.index_bytes.value)
        );
        for sh in &c.stats.shapes {
            let _ = writeln!(
                s,
                "    {}: p50 {}, p99 {}, max {}{}",
                sh.label,
                crate::human::binary_size(sh.p50.bytes),
                crate::human::binary_size(sh.p99.bytes),
                crate::human::binary_size(sh.max.bytes),
                if sh.max.exact { "" } else { " (estimate)" }
            );
            for a in &sh.arrays {
                if let Some(bp) = a.break_point {
                    let _ = writeln!(
                        s,
                        "      {} breaks 16 MiB at {} elements (largest has {})",
                        a.field,
                        thousands(bp.count),
                        thousands(a.max_count)
                    );
                }
            }
        }
        for ix in &c.indexes {
            match &ix.partial {
                Some(p) => {
                    let _ = writeln!(s, "    index {} {} partial {p}", ix.name, ix.keys);
                }
                None => {
                    let _ = writeln!(s, "    index {} {}", ix.name, ix.keys);
                }
            }
        }
    }
    let _ = writeln!(s, "\nOperations (typical subject; largest in brackets)");
    for o in &e.operations {
        let (t, l) = (&o.typical.total, &o.largest.total);
        let _ = writeln!(
            s,
            "  {} — {}/s: {} quer{} [{}] ({} $lookup), examined {} docs [{}], {} keys [{}], returned {} docs [{}], {} [{}], written {} docs [{}], {} [{}], shards {} [{}]",
            o.unit,
            num(o.rate_per_sec),
            o.queries,
            if o.queries == 1 { "y" } else { "ies" },
            o.largest.queries,
            o.lookups,
            fig(t.docs_examined),
            fig(l.docs_examined),
            fig(t.keys_examined),
            fig(l.keys_examined),
            fig(t.docs_returned),
            fig(l.docs_returned),
            fig_bytes(t.bytes_returned),
            fig_bytes(l.bytes_returned),
            fig(t.docs_written),
            fig(l.docs_written),
            fig_bytes(t.bytes_written),
            fig_bytes(l.bytes_written),
            o.typical.max_shards,
            o.largest.max_shards
        );
        for c in &o.typical.commands {
            if let Some(why) = &c.not_sent {
                let _ = writeln!(s, "    // not sent: {}  // {}; {why}", c.mongosh, c.note);
                continue;
            }
            let plan = if c.plan.is_empty() { "-" } else { &c.plan };
            let _ = writeln!(
                s,
                "    {}  // {}; plan {}{}; shards {}/{} {:?}{}{}",
                c.mongosh,
                c.note,
                plan,
                if c.no_supporting_index {
                    " (no supporting index)"
                } else {
                    ""
                },
                c.shards.touched,
                c.shards.shards,
                c.shards.routing,
                c.fan_out.as_ref().map_or(String::new(), |f| format!(
                    "; fan-out {} at full scale, {} written{}",
                    thousands(f.full_scale),
                    thousands(f.written),
                    if f.capped {
                        format!(" (capped at {})", thousands(f.cap))
                    } else {
                        String::new()
                    }
                )),
                c.error
                    .as_ref()
                    .map_or(String::new(), |e| format!("; ERROR {e}"))
            );
        }
    }
    for o in &e.operations {
        for c in o.largest.commands.iter().filter(|c| c.error.is_some()) {
            let _ = writeln!(
                s,
                "  {} (largest subject): {} — ERROR {}",
                o.unit,
                c.mongosh,
                c.error.as_deref().unwrap_or_default()
            );
        }
    }
    cluster_report(&mut s, e);
    let t = &e.totals;
    let _ = writeln!(
        s,
        "\nWorkload per second: {} round trips, {} $lookups, {} docs examined, {} docs written, {} written",
        num(t.queries_per_sec),
        num(t.lookups_per_sec),
        fig(t.per_sec.docs_examined),
        fig(t.per_sec.docs_written),
        fig_bytes(t.per_sec.bytes_written)
    );
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
    s
}

/// Writes the shard spread, shard-key report and storage sections of a report.
fn cluster_report(s: &mut String, e: &Evaluation) {
    for sp in &e.sharding {
        let _ = writeln!(
            s,
            "\nSharding of {} by {}{} over {} shards (estimate)",
            sp.collection,
            sp.shard_key,
            if sp.hashed { " (hashed)" } else { "" },
            sp.shards
        );
        for p in &sp.per_shard {
            let _ = writeln!(
                s,
                "  shard {}: {} documents, {}",
                p.shard,
                fig(p.documents),
                human_bytes(p.bytes.value)
            );
        }
        let k = &sp.key;
        let _ = writeln!(
            s,
            "  largest shard {:.2}× an even share; chunks {}; jumbo chunks {}",
            sp.imbalance,
            fig(sp.chunks),
            fig(sp.jumbo_chunks)
        );
        let _ = writeln!(
            s,
            "  shard key: cardinality {} ({} in the sample); most common value {} ({:.2}% of the sample, {} documents); {}monotonic: {}",
            fig(k.cardinality),
            k.sample_cardinality,
            k.most_common.as_ref().map(|c| c.value.to_string()).unwrap_or_default(),
            k.most_common.as_ref().map_or(0.0, |c| c.share * 100.0),
            k.most_common.as_ref().map(|c| fig(c.documents)).unwrap_or_default(),
            if k.monotonicity.monotonic { "" } else { "not " },
            k.monotonicity.reason
        );
        for (what, d) in [("reads", k.reads), ("writes", k.writes)] {
            if d.per_sec > 0.0 {
                let _ = writeln!(
                    s,
                    "  {what}: {}/s, {:.1}% one shard, {:.1}% several shards, {:.1}% scatter-gather",
                    num(d.per_sec),
                    d.single_shard * 100.0,
                    d.multi_shard * 100.0,
                    d.scatter_gather * 100.0
                );
            }
        }
    }
    let st = &e.storage;
    let _ = writeln!(
        s,
        "\nStorage (estimate: snappy on 32 KiB blocks of sample BSON)"
    );
    for c in &st.collections {
        let _ = writeln!(
            s,
            "  {}: {} data, ≈{} on disk (ratio {:.2}), ≈{} indexes, ≈{} hot in an hour",
            c.collection,
            human_bytes(c.data_bytes.value),
            human_bytes(c.disk_bytes.value),
            c.compression_ratio,
            human_bytes(c.index_bytes.value),
            human_bytes(c.hot_bytes.value)
        );
    }
    let _ = writeln!(
        s,
        "  total: {} data, ≈{} on disk, ≈{} indexes; working set ≈{} (≈{} per shard over {}) vs WiredTiger cache {} of {} RAM: {}",
        human_bytes(st.data_bytes.value),
        human_bytes(st.disk_bytes.value),
        human_bytes(st.index_bytes.value),
        human_bytes(st.working_set.value),
        human_bytes(st.working_set_per_shard.value),
        st.shards,
        human_bytes(st.cache_bytes as f64),
        human_bytes(st.ram_bytes as f64),
        if st.fits_in_cache { "fits" } else { "does NOT fit" }
    );
}

/// Returns the side-by-side report, the best design per metric marked with `*`, then each
/// design's report with its warnings in `lang`.
pub fn compare_report(c: &Comparison, lang: Lang) -> String {
    let mut s = String::new();
    let names: Vec<&str> = c.designs.iter().map(|e| e.design.as_str()).collect();
    let w = names.iter().map(|n| n.len()).max().unwrap_or(10).max(22) + 2;
    let _ = write!(s, "{:<28}", "metric (lower is better)");
    for n in &names {
        let _ = write!(s, "{n:>w$}");
    }
    s.push('\n');
    for m in metric::COMPARED {
        let _ = write!(s, "{:<28}", m.compared_label());
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
    let _ = write!(s, "{:<28}", "warnings (errors)");
    for e in &c.designs {
        let errs = e
            .warnings
            .iter()
            .filter(|x| x.severity == crate::warning::Severity::Error)
            .count();
        let _ = write!(s, "{:>w$}", format!("{} ({errs}) ", e.warnings.len()));
    }
    s.push('\n');
    let _ = write!(s, "{:<28}", "feasible");
    for e in &c.designs {
        let cell = if c.infeasible.contains_key(&e.design) {
            "infeasible "
        } else {
            "yes "
        };
        let _ = write!(s, "{cell:>w$}");
    }
    s.push_str(
        "\n\n* best per metric among the feasible designs (ties all marked). Per-second figures use the typical subject.\n",
    );
    for (design, codes) in &c.infeasible {
        let _ = writeln!(
            s,
            "{design} is infeasible: {} (error-severity warnings: mongod would refuse it); never marked best.",
            codes.join(", ")
        );
    }
    for e in &c.designs {
        let _ = writeln!(s, "\n{}\n{}", "=".repeat(72), report(e, lang));
    }
    s
}
