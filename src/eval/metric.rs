//! Every figure an evaluation reports, as one list: its key, its label, its unit, which way is
//! better, and how to read it from an [`Evaluation`] — per run of an operation (the operation
//! cards, the cost chart), per second of the whole workload or at full scale (the comparison
//! that `squillion compare` prints and the page's table and charts show). A new figure is one
//! variant here, and every view that lists metrics shows it.

use super::{Evaluation, Figure, RunEval};

/// What a metric's number counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Documents, keys, round trips, shards.
    Count,
    /// Bytes of many documents (shown in binary units: `1.5 MiB`).
    Bytes,
    /// The size of one document (binary units that never look whole when over a limit,
    /// `16.0001 MiB`; the page gives the exact figure on hover).
    DocumentBytes,
}

/// Which way a metric is better.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Better {
    /// The lower the better (every cost).
    Lower,
    /// The higher the better.
    Higher,
}

/// One figure of an evaluation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Metric {
    /// Round trips (`find`, `insert`, `update`, `aggregate`: one each).
    RoundTrips,
    /// `$lookup` stages (each inside one round trip).
    Lookups,
    /// Documents examined.
    DocsExamined,
    /// Index keys examined.
    KeysExamined,
    /// Documents returned.
    DocsReturned,
    /// Bytes returned.
    BytesReturned,
    /// Documents written.
    DocsWritten,
    /// Bytes written.
    BytesWritten,
    /// Index keys written.
    IndexKeysWritten,
    /// Requests to shards: each command counts the shards it reaches.
    ShardRequests,
    /// The most shards one command of a run reaches.
    ShardsTouched,
    /// Data bytes of every collection at full scale.
    StorageBytes,
    /// Estimated bytes of every index at full scale.
    IndexBytes,
    /// The largest document of any collection at full scale.
    LargestDocument,
}

/// The metrics `squillion compare` ranks and the page's comparison table shows, in order:
/// per second of the workload (typical subject), then at full scale.
pub const COMPARED: [Metric; 12] = [
    Metric::RoundTrips,
    Metric::Lookups,
    Metric::DocsExamined,
    Metric::KeysExamined,
    Metric::BytesReturned,
    Metric::DocsWritten,
    Metric::BytesWritten,
    Metric::IndexKeysWritten,
    Metric::ShardRequests,
    Metric::StorageBytes,
    Metric::IndexBytes,
    Metric::LargestDocument,
];

/// The figures of one run of an operation, in the order the operation cards show them.
pub const PER_RUN: [Metric; 10] = [
    Metric::RoundTrips,
    Metric::Lookups,
    Metric::DocsExamined,
    Metric::KeysExamined,
    Metric::DocsReturned,
    Metric::BytesReturned,
    Metric::DocsWritten,
    Metric::BytesWritten,
    Metric::IndexKeysWritten,
    Metric::ShardsTouched,
];

/// The per-run figures the cost chart offers, round trips first.
pub const CHARTED: [Metric; 5] = [
    Metric::RoundTrips,
    Metric::DocsExamined,
    Metric::KeysExamined,
    Metric::DocsReturned,
    Metric::DocsWritten,
];

/// Returns a per-run figure at `rate_per_sec` runs per second: the one place a per-second
/// figure is made from a per-run one (the workload's totals, an operation's round trips per
/// second, the instant analysis's).
pub fn per_sec(per_run: f64, rate_per_sec: f64) -> f64 {
    per_run * rate_per_sec
}

impl Metric {
    /// Returns the metric's key per run, as the Evaluation JSON names the figure
    /// (`docs_examined`) and the page's `data-metric` gives it.
    pub fn key(self) -> &'static str {
        match self {
            Metric::RoundTrips => "queries",
            Metric::Lookups => "lookups",
            Metric::DocsExamined => "docs_examined",
            Metric::KeysExamined => "keys_examined",
            Metric::DocsReturned => "docs_returned",
            Metric::BytesReturned => "bytes_returned",
            Metric::DocsWritten => "docs_written",
            Metric::BytesWritten => "bytes_written",
            Metric::IndexKeysWritten => "index_keys_written",
            Metric::ShardRequests => "shard_requests",
            Metric::ShardsTouched => "shards",
            Metric::StorageBytes => "storage_bytes",
            Metric::IndexBytes => "index_bytes",
            Metric::LargestDocument => "largest_document_bytes",
        }
    }

    /// Returns the metric's key in a comparison (`squillion compare --json`'s `metrics`):
    /// `…_per_sec` for the workload's figures.
    pub fn compared_key(self) -> String {
        if self.is_per_sec() {
            format!("{}_per_sec", self.key())
        } else {
            self.key().to_string()
        }
    }

    /// Returns what the metric is, per run (`docs examined`).
    pub fn label(self) -> &'static str {
        match self {
            Metric::RoundTrips => "round trips",
            Metric::Lookups => "$lookups",
            Metric::DocsExamined => "docs examined",
            Metric::KeysExamined => "keys examined",
            Metric::DocsReturned => "docs returned",
            Metric::BytesReturned => "bytes returned",
            Metric::DocsWritten => "docs written",
            Metric::BytesWritten => "bytes written",
            Metric::IndexKeysWritten => "index keys written",
            Metric::ShardRequests => "shard requests",
            Metric::ShardsTouched => "shards touched",
            Metric::StorageBytes => "data bytes",
            Metric::IndexBytes => "index bytes (estimate)",
            Metric::LargestDocument => "largest document",
        }
    }

    /// Returns the metric's label in a comparison: `docs examined/s` for the workload's
    /// figures.
    pub fn compared_label(self) -> String {
        if self.is_per_sec() {
            format!("{}/s", self.label())
        } else {
            self.label().to_string()
        }
    }

    /// Returns the catalogue's message for the metric's label (`metric-docs-examined`): how the
    /// page and the CLI's reports say it in any language.
    pub fn label_msg(self) -> crate::lang::Msg {
        use crate::lang::Msg;
        match self {
            Metric::RoundTrips => Msg::MetricRoundTrips,
            Metric::Lookups => Msg::MetricLookups,
            Metric::DocsExamined => Msg::MetricDocsExamined,
            Metric::KeysExamined => Msg::MetricKeysExamined,
            Metric::DocsReturned => Msg::MetricDocsReturned,
            Metric::BytesReturned => Msg::MetricBytesReturned,
            Metric::DocsWritten => Msg::MetricDocsWritten,
            Metric::BytesWritten => Msg::MetricBytesWritten,
            Metric::IndexKeysWritten => Msg::MetricIndexKeysWritten,
            Metric::ShardRequests => Msg::MetricShardRequests,
            Metric::ShardsTouched => Msg::MetricShardsTouched,
            Metric::StorageBytes => Msg::MetricStorageBytes,
            Metric::IndexBytes => Msg::MetricIndexBytes,
            Metric::LargestDocument => Msg::MetricLargestDocument,
        }
    }

    /// Returns what its number counts.
    pub fn unit(self) -> Unit {
        match self {
            Metric::BytesReturned
            | Metric::BytesWritten
            | Metric::StorageBytes
            | Metric::IndexBytes => Unit::Bytes,
            Metric::LargestDocument => Unit::DocumentBytes,
            _ => Unit::Count,
        }
    }

    /// Returns which way the metric is better: every figure is a cost.
    pub fn better(self) -> Better {
        Better::Lower
    }

    /// Returns true when a comparison gives the metric per second of the workload (the
    /// others are at full scale).
    pub fn is_per_sec(self) -> bool {
        !matches!(
            self,
            Metric::StorageBytes | Metric::IndexBytes | Metric::LargestDocument
        )
    }

    /// Returns the metric for one run of an operation (its `typical` or `largest` run), with
    /// its basis; `None` for a figure of the whole design (storage).
    pub fn per_run(self, run: &RunEval) -> Option<Figure> {
        let t = &run.total;
        Some(match self {
            Metric::RoundTrips => Figure::sample(run.queries as f64),
            Metric::Lookups => Figure::sample(run.lookups as f64),
            Metric::DocsExamined => t.docs_examined,
            Metric::KeysExamined => t.keys_examined,
            Metric::DocsReturned => t.docs_returned,
            Metric::BytesReturned => t.bytes_returned,
            Metric::DocsWritten => t.docs_written,
            Metric::BytesWritten => t.bytes_written,
            Metric::IndexKeysWritten => t.index_keys_written,
            Metric::ShardRequests => Figure::sample(
                run.commands
                    .iter()
                    .map(|c| f64::from(c.shards.touched))
                    .sum(),
            ),
            Metric::ShardsTouched => Figure::sample(f64::from(run.max_shards)),
            Metric::StorageBytes | Metric::IndexBytes | Metric::LargestDocument => return None,
        })
    }

    /// Returns the metric as a comparison gives it for evaluation `e`: per second of the
    /// workload (typical subject, [`super::Totals`]) or at full scale; 0 for a figure a
    /// comparison does not rank (docs returned, shards touched).
    pub fn of(self, e: &Evaluation) -> f64 {
        let t = &e.totals;
        let p = &t.per_sec;
        match self {
            Metric::RoundTrips => t.queries_per_sec,
            Metric::Lookups => t.lookups_per_sec,
            Metric::DocsExamined => p.docs_examined.value,
            Metric::KeysExamined => p.keys_examined.value,
            Metric::DocsReturned => p.docs_returned.value,
            Metric::BytesReturned => p.bytes_returned.value,
            Metric::DocsWritten => p.docs_written.value,
            Metric::BytesWritten => p.bytes_written.value,
            Metric::IndexKeysWritten => p.index_keys_written.value,
            Metric::ShardRequests => e
                .operations
                .iter()
                .map(|o| {
                    let per_run = self.per_run(&o.typical).map_or(0.0, |f| f.value);
                    per_sec(per_run, o.rate_per_sec)
                })
                .sum(),
            Metric::ShardsTouched => 0.0,
            Metric::StorageBytes => e.data_bytes(),
            Metric::IndexBytes => e.index_bytes(),
            Metric::LargestDocument => e.largest_document(),
        }
    }

    /// Returns the index of the best of `values` ([`Metric::better`]) among the feasible
    /// designs (`feasible[i]`; a design with an error-severity warning is never the best,
    /// [`Evaluation::infeasible`]), the first on ties; `None` when no design is feasible.
    /// `squillion compare` and the page mark the same design.
    pub fn best(self, values: &[f64], feasible: &[bool]) -> Option<usize> {
        let mut best: Option<(f64, usize)> = None;
        for (i, v) in values.iter().enumerate() {
            if !feasible.get(i).copied().unwrap_or(false) {
                continue;
            }
            let better = match self.better() {
                Better::Lower => best.is_none_or(|(b, _)| *v < b),
                Better::Higher => best.is_none_or(|(b, _)| *v > b),
            };
            if better {
                best = Some((*v, i));
            }
        }
        best.map(|(_, i)| i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{compare, evaluate_offered, text, EvalOptions};

    fn social_feed() -> crate::model::Model {
        crate::presets::find("social-feed")
            .unwrap()
            .model()
            .unwrap()
    }

    fn small() -> EvalOptions {
        EvalOptions {
            max_documents: Some(40),
            ..EvalOptions::default()
        }
    }

    #[test]
    fn an_evaluation_reads_back_from_its_json_as_the_page_gets_it() {
        let m = social_feed();
        let name = crate::eval::offer::offers(&m).remove(0).id;
        let mut e = evaluate_offered(&m, &name, &small()).unwrap();
        // What the CLI prints, read back: every figure but the layout, which the page has.
        let printed = serde_json::to_string_pretty(&e).unwrap();
        let read: Evaluation = serde_json::from_str(&printed).unwrap();
        assert!(e.layout.take().is_some());
        assert_eq!(read, e);
        // What the worker sends: the same without the layout.
        let sent = serde_json::to_string(&e).unwrap();
        assert!(!sent.contains("\"layout\""));
        assert_eq!(serde_json::from_str::<Evaluation>(&sent).unwrap(), e);
    }

    #[test]
    fn the_page_ranks_designs_by_the_figures_compare_prints() {
        let evals = compare(&social_feed(), &small()).unwrap();
        // What the page holds: each evaluation as the CLI prints it, read back.
        let read: Vec<Evaluation> = evals
            .iter()
            .map(|e| serde_json::from_str(&serde_json::to_string(e).unwrap()).unwrap())
            .collect();
        let c = text::comparison(evals);
        assert_eq!(c.metrics.len(), COMPARED.len());
        for m in COMPARED {
            let key = m.compared_key();
            let page: Vec<f64> = read.iter().map(|e| m.of(e)).collect();
            assert_eq!(page, c.metrics[&key], "{key}");
            let feasible: Vec<bool> = read.iter().map(|e| e.infeasible().is_empty()).collect();
            let best = m.best(&page, &feasible).unwrap();
            assert_eq!(read[best].design, c.best[&key], "{key}");
        }
        // Fan-out on read reaches every shard, fan-out on write one: the article in a row.
        let shards = &c.metrics["shard_requests_per_sec"];
        assert_eq!(shards, &vec![441_000.0, 63_000.0, 119_000.0]);
    }

    #[test]
    fn per_second_figures_are_the_per_run_ones_at_the_rate() {
        let e = evaluate_offered(&social_feed(), "custom", &small()).unwrap();
        let sum = |m: Metric| -> f64 {
            e.operations
                .iter()
                .map(|o| per_sec(m.per_run(&o.typical).unwrap().value, o.rate_per_sec))
                .sum()
        };
        for m in [Metric::RoundTrips, Metric::Lookups, Metric::DocsExamined] {
            assert!((sum(m) - m.of(&e)).abs() <= 1e-9 * m.of(&e).abs(), "{m:?}");
        }
        let o = &e.operations[0];
        assert_eq!(o.queries_per_sec(), o.rate_per_sec * o.queries as f64);
    }

    #[test]
    fn the_best_is_the_lowest_and_the_first_on_ties() {
        let m = Metric::RoundTrips;
        assert_eq!(m.best(&[3.0, 1.0, 1.0, 2.0], &[true; 4]), Some(1));
        assert_eq!(m.best(&[0.0], &[true]), Some(0));
        assert_eq!(m.best(&[], &[]), None);
    }

    #[test]
    fn an_infeasible_design_is_never_the_best() {
        let m = Metric::RoundTrips;
        // The cheapest is infeasible: the best is the cheapest feasible one.
        assert_eq!(m.best(&[3.0, 1.0, 2.0], &[true, false, true]), Some(2));
        assert_eq!(m.best(&[1.0, 2.0], &[false, false]), None);
    }

    #[test]
    fn compare_never_marks_an_infeasible_design_best() {
        // Social graph: "denormalized" and "followers" break 16 MiB (error-severity warnings);
        // "denormalized" has the fewest round trips and docs examined, yet is never marked.
        let m = crate::presets::find("social-graph")
            .unwrap()
            .model()
            .unwrap();
        let c = text::comparison(compare(&m, &small()).unwrap());
        for bad in ["denormalized", "followers"] {
            let codes = &c.infeasible[bad];
            assert!(
                codes.iter().any(|x| x == "ARRAY_BREAK_POINT"),
                "{bad}: {codes:?}"
            );
            assert!(
                c.best.values().all(|d| d != bad),
                "{bad} marked best: {:?}",
                c.best
            );
        }
        assert!(!c.infeasible.contains_key("tbc"));
        let rt = &c.metrics["queries_per_sec"];
        let den = c
            .designs
            .iter()
            .position(|e| e.design == "denormalized")
            .unwrap();
        assert!(rt.iter().all(|v| rt[den] <= *v), "{rt:?}");
        assert_ne!(c.best["queries_per_sec"], "denormalized");
        // The text marks no infeasible column and says why it is infeasible.
        let report = text::compare_report(&c, crate::lang::Lang::En);
        let table: Vec<&str> = report.lines().take(COMPARED.len() + 3).collect();
        let feasible_row = table.iter().find(|l| l.starts_with("feasible")).unwrap();
        assert_eq!(
            feasible_row.matches("infeasible").count(),
            2,
            "{feasible_row}"
        );
        assert!(
            report.contains("denormalized is infeasible: ARRAY_BREAK_POINT"),
            "{report}"
        );
        // No cell of an infeasible column carries the best mark.
        let header = table[0];
        for bad in ["denormalized", "followers"] {
            let end = header.find(&format!(" {bad}")).unwrap() + bad.len() + 1;
            for row in &table[1..=COMPARED.len()] {
                assert_ne!(row.get(end - 1..end), Some("*"), "{bad}: {row}");
            }
        }
    }

    #[test]
    fn compared_keys_and_labels_are_those_compare_prints() {
        let keys: Vec<String> = COMPARED.iter().map(|m| m.compared_key()).collect();
        assert_eq!(keys[0], "queries_per_sec");
        assert_eq!(keys[11], "largest_document_bytes");
        assert_eq!(Metric::Lookups.compared_label(), "$lookups/s");
        assert_eq!(
            Metric::IndexBytes.compared_label(),
            "index bytes (estimate)"
        );
    }

    #[test]
    fn an_unknown_design_is_an_error_not_a_panic() {
        let err = evaluate_offered(&social_feed(), "no-such-design", &EvalOptions::default())
            .unwrap_err();
        assert!(err.to_string().contains("no-such-design"), "{err}");
    }
}
