//! The part of an [`Evaluation`]'s JSON that the page shows, read back.
//!
//! The page evaluates in a Web Worker, which can only hand back text. Every field here has the
//! name and meaning of the [`Evaluation`] field it mirrors, so a Summary's JSON is a subset of
//! what `squillion eval --json` prints and [`Summary::from_json`] reads either (unknown fields
//! are ignored): the page's numbers are the CLI's numbers. The worker sends
//! [`Summary::of`]'s JSON, which spares the page's wasm a serializer for the whole Evaluation
//! (layout, plans, explain trees). Warnings come back as text (their codes are `&'static str`
//! in [`crate::warning`]).

use serde::{Deserialize, Serialize};

use super::{Evaluation, Figure, Metrics, Totals};
use crate::warning::{Severity, Warning};

/// What the page shows of one evaluation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// The design's name.
    pub design: String,
    /// The model's seed.
    pub seed: u64,
    /// Entities materialized per entity at most.
    pub max_documents: u64,
    /// Fan-out cap.
    pub fan_out_cap: u64,
    /// Collections.
    pub collections: Vec<CollectionSummary>,
    /// Operations, in workload order.
    pub operations: Vec<OperationSummary>,
    /// Workload totals per second.
    pub totals: Totals,
    /// Every warning.
    pub warnings: Vec<WarningSummary>,
}

/// One collection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CollectionSummary {
    /// Collection name.
    pub name: String,
    /// Full-scale statistics.
    pub stats: StatsSummary,
    /// Documents materialized.
    pub sample_documents: u64,
    /// Indexes, `_id_` first.
    pub indexes: Vec<IndexSummary>,
    /// Estimated bytes of all indexes at full scale.
    pub index_bytes: Figure,
    /// The typical and the largest sample document (absent from older evaluations' JSON).
    #[serde(default)]
    pub samples: Option<super::sample::SampleDocs>,
}

/// A collection's full-scale statistics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StatsSummary {
    /// Documents at full scale.
    pub count: f64,
    /// Sum of all shapes' bytes.
    pub total_bytes: f64,
    /// True when the total is exact.
    pub total_exact: bool,
    /// Per kind of document.
    pub shapes: Vec<ShapeSummary>,
}

/// One kind of document of a collection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShapeSummary {
    /// What kind of document.
    pub label: String,
    /// Documents of this kind at full scale.
    pub count: f64,
    /// Average size.
    pub average: SizeSummary,
    /// Median size.
    pub p50: SizeSummary,
    /// 99th percentile size.
    pub p99: SizeSummary,
    /// Largest size.
    pub max: SizeSummary,
}

/// A document size and whether it is exact.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SizeSummary {
    /// Bytes.
    pub bytes: u64,
    /// True when exact, false when estimated.
    pub exact: bool,
}

/// One index as created in the engine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IndexSummary {
    /// Index name.
    pub name: String,
    /// Key pattern.
    pub keys: serde_json::Value,
    /// True when some sample document put several keys in it.
    pub multikey: bool,
    /// Estimated size at full scale.
    pub bytes: Figure,
}

/// One application unit evaluated.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OperationSummary {
    /// Unit name.
    pub unit: String,
    /// Runs per second.
    pub rate_per_sec: f64,
    /// Round trips per run.
    pub queries: u64,
    /// `$lookup`s per run.
    pub lookups: u64,
    /// The headline run: a typical subject.
    pub typical: RunSummary,
    /// The tail run: the largest subject.
    pub largest: RunSummary,
}

/// One run of a unit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunSummary {
    /// The commands, in order.
    pub commands: Vec<CommandSummary>,
    /// Sum over the commands, at full scale.
    pub total: Metrics,
    /// Most shards any command reaches.
    pub max_shards: u32,
}

/// One command as run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CommandSummary {
    /// Collection.
    pub collection: String,
    /// Why it exists.
    pub note: String,
    /// The mongosh code with its parameters bound to the values run.
    pub mongosh: String,
    /// The winning plan's access (empty for inserts).
    pub plan: String,
    /// True when a query scans a collection that is large at full scale.
    pub no_supporting_index: bool,
    /// Which shards it reaches.
    pub shards: ShardsSummary,
    /// The engine's error, when the command failed.
    #[serde(default)]
    pub error: Option<String>,
}

/// Which shards a command reaches.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ShardsSummary {
    /// Shards reached.
    pub touched: u32,
    /// Shards in the cluster (1 when not sharded).
    pub shards: u32,
}

/// One warning.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WarningSummary {
    /// Stable code (`DOC_OVER_LIMIT`).
    pub code: String,
    /// `info`, `warning` or `error`.
    pub severity: String,
    /// The collection concerned (empty for layout-wide findings).
    pub collection: String,
    /// The field path concerned.
    pub path: String,
    /// What is wrong.
    pub message: String,
    /// What to do about it.
    pub fix: String,
}

impl From<&Warning> for WarningSummary {
    /// The warning as the evaluation's JSON prints it (severity in lower case).
    fn from(w: &Warning) -> WarningSummary {
        WarningSummary {
            code: w.code.to_string(),
            severity: match w.severity {
                Severity::Info => "info",
                Severity::Warning => "warning",
                Severity::Error => "error",
            }
            .to_string(),
            collection: w.collection.clone(),
            path: w.path.clone(),
            message: w.message.clone(),
            fix: w.fix.clone(),
        }
    }
}

/// Why an Evaluation's JSON could not be read back.
#[derive(Debug, thiserror::Error)]
#[error("the evaluation could not be read: {0}")]
pub struct SummaryError(#[from] serde_json::Error);

impl Summary {
    /// Reads the page's part of an Evaluation's JSON.
    pub fn from_json(json: &str) -> Result<Summary, SummaryError> {
        Ok(serde_json::from_str(json)?)
    }

    /// Returns the value of comparison metric `key` (one of [`super::text::METRICS`], all
    /// "lower is better"); 0 for an unknown key. `squillion compare` and the page's comparison
    /// both rank designs by it.
    pub fn metric(&self, key: &str) -> f64 {
        let t = &self.totals.per_sec;
        match key {
            "queries_per_sec" => self.totals.queries_per_sec,
            "lookups_per_sec" => self.totals.lookups_per_sec,
            "docs_examined_per_sec" => t.docs_examined.value,
            "keys_examined_per_sec" => t.keys_examined.value,
            "bytes_returned_per_sec" => t.bytes_returned.value,
            "docs_written_per_sec" => t.docs_written.value,
            "bytes_written_per_sec" => t.bytes_written.value,
            "index_keys_written_per_sec" => t.index_keys_written.value,
            "shard_requests_per_sec" => self
                .operations
                .iter()
                .map(|o| {
                    o.rate_per_sec
                        * o.typical
                            .commands
                            .iter()
                            .map(|c| f64::from(c.shards.touched))
                            .sum::<f64>()
                })
                .sum(),
            "storage_bytes" => self.collections.iter().map(|c| c.stats.total_bytes).sum(),
            "index_bytes" => self.collections.iter().map(|c| c.index_bytes.value).sum(),
            "largest_document_bytes" => self
                .collections
                .iter()
                .flat_map(|c| c.stats.shapes.iter().map(|s| s.max.bytes as f64))
                .fold(0.0, f64::max),
            _ => 0.0,
        }
    }

    /// Returns the page's part of `e`, field by field (the page's wasm then needs no
    /// serializer for the whole Evaluation). Its JSON is a subset of the Evaluation's, with the
    /// same names: [`Summary::from_json`] reads either.
    pub fn of(e: &Evaluation) -> Summary {
        Summary {
            design: e.design.clone(),
            seed: e.seed,
            max_documents: e.max_documents,
            fan_out_cap: e.fan_out_cap,
            collections: e.collections.iter().map(collection).collect(),
            operations: e
                .operations
                .iter()
                .map(|o| OperationSummary {
                    unit: o.unit.clone(),
                    rate_per_sec: o.rate_per_sec,
                    queries: o.queries,
                    lookups: o.lookups,
                    typical: run(&o.typical),
                    largest: run(&o.largest),
                })
                .collect(),
            totals: e.totals,
            warnings: e.warnings.iter().map(WarningSummary::from).collect(),
        }
    }
}

fn size(s: &crate::arith::SizeFigure) -> SizeSummary {
    SizeSummary {
        bytes: s.bytes,
        exact: s.exact,
    }
}

fn collection(c: &super::CollectionEval) -> CollectionSummary {
    CollectionSummary {
        name: c.name.clone(),
        stats: StatsSummary {
            count: c.stats.count,
            total_bytes: c.stats.total_bytes,
            total_exact: c.stats.total_exact,
            shapes: c
                .stats
                .shapes
                .iter()
                .map(|sh| ShapeSummary {
                    label: sh.label.clone(),
                    count: sh.count,
                    average: size(&sh.average),
                    p50: size(&sh.p50),
                    p99: size(&sh.p99),
                    max: size(&sh.max),
                })
                .collect(),
        },
        sample_documents: c.sample_documents,
        indexes: c
            .indexes
            .iter()
            .map(|ix| IndexSummary {
                name: ix.name.clone(),
                keys: ix.keys.clone(),
                multikey: ix.multikey,
                bytes: ix.bytes,
            })
            .collect(),
        index_bytes: c.index_bytes,
        samples: c.samples.clone(),
    }
}

fn run(r: &super::RunEval) -> RunSummary {
    RunSummary {
        commands: r
            .commands
            .iter()
            .map(|c| CommandSummary {
                collection: c.collection.clone(),
                note: c.note.clone(),
                mongosh: c.mongosh.clone(),
                plan: c.plan.clone(),
                no_supporting_index: c.no_supporting_index,
                shards: ShardsSummary {
                    touched: c.shards.touched,
                    shards: c.shards.shards,
                },
                error: c.error.clone(),
            })
            .collect(),
        total: r.total,
        max_shards: r.max_shards,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{evaluate_offered, EvalOptions};

    #[test]
    fn summary_reads_back_the_evaluation_figures() {
        let p = crate::presets::find("social-feed").unwrap();
        let m = p.model().unwrap();
        let name = crate::eval::offer::offers(&m).remove(0).id;
        let opts = EvalOptions {
            max_documents: Some(40),
            ..EvalOptions::default()
        };
        let e = evaluate_offered(&m, &name, &opts).unwrap();
        let s = Summary::from_json(&serde_json::to_string_pretty(&e).unwrap()).unwrap();
        // Read from the whole Evaluation JSON (what the CLI prints) or built field by field
        // (what the worker sends): the same.
        assert_eq!(s, Summary::of(&e));
        let sent = serde_json::to_string(&Summary::of(&e)).unwrap();
        assert_eq!(Summary::from_json(&sent).unwrap(), s);
        assert_eq!(s.design, name);
        assert_eq!(s.max_documents, 40);
        assert_eq!(s.operations.len(), e.operations.len());
        for (so, eo) in s.operations.iter().zip(&e.operations) {
            assert_eq!(so.unit, eo.unit);
            assert_eq!(so.queries, eo.queries);
            assert_eq!(so.lookups, eo.lookups);
            assert_eq!(so.typical.total, eo.typical.total);
            assert_eq!(so.largest.total, eo.largest.total);
            assert_eq!(so.typical.max_shards, eo.typical.max_shards);
            assert_eq!(so.typical.commands.len(), eo.typical.commands.len());
        }
        for (sc, ec) in s.collections.iter().zip(&e.collections) {
            assert_eq!(sc.name, ec.name);
            assert_eq!(sc.stats.count, ec.stats.count);
            assert_eq!(sc.indexes.len(), ec.index_count);
            assert_eq!(sc.index_bytes, ec.index_bytes);
        }
        assert_eq!(s.warnings.len(), e.warnings.len());
    }

    #[test]
    fn the_page_ranks_designs_by_the_figures_compare_prints() {
        let m = crate::presets::find("social-feed")
            .unwrap()
            .model()
            .unwrap();
        let opts = EvalOptions {
            max_documents: Some(40),
            ..EvalOptions::default()
        };
        let evals = crate::eval::compare(&m, &opts).unwrap();
        // What the page holds: each evaluation as the CLI prints it, read back.
        let read: Vec<Summary> = evals
            .iter()
            .map(|e| Summary::from_json(&serde_json::to_string(e).unwrap()).unwrap())
            .collect();
        let c = crate::eval::text::comparison(evals);
        for (key, _) in crate::eval::text::METRICS {
            let page: Vec<f64> = read.iter().map(|s| s.metric(key)).collect();
            assert_eq!(page, c.metrics[key], "{key}");
            let best = crate::eval::text::best_index(&page).unwrap();
            assert_eq!(read[best].design, c.best[key], "{key}");
        }
        // Fan-out on read reaches every shard, fan-out on write one: the article in a row.
        let shards = &c.metrics["shard_requests_per_sec"];
        assert_eq!(shards, &vec![441_000.0, 63_000.0, 119_000.0]);
    }

    #[test]
    fn the_best_is_the_lowest_and_the_first_on_ties() {
        use crate::eval::text::best_index;
        assert_eq!(best_index(&[3.0, 1.0, 1.0, 2.0]), Some(1));
        assert_eq!(best_index(&[0.0]), Some(0));
        assert_eq!(best_index(&[]), None);
    }

    #[test]
    fn an_unknown_design_is_an_error_not_a_panic() {
        let m = crate::presets::find("social-feed")
            .unwrap()
            .model()
            .unwrap();
        let err = evaluate_offered(&m, "no-such-design", &EvalOptions::default()).unwrap_err();
        assert!(err.to_string().contains("no-such-design"), "{err}");
    }
}
