//! Evaluation: a design run for real. The generated sample is materialized into an engine
//! [`Database`], every index the layout derives is created through the engine, each plan
//! command's `$param` placeholders are bound from the sample, and every application unit runs
//! as real engine commands. What the engine measures on the sample is reported as such
//! (`basis: "sample"`); what must be scaled to full scale is computed arithmetically and
//! labelled (`"full_scale"` when exact arithmetic, `"estimate"` otherwise).
//!
//! Each unit runs twice: with a *typical* subject (the sample document closest to the median
//! of its distribution, the headline) and with the *largest* one (document 0, the tail).
//! Every run's writes are undone afterwards (changed and deleted documents restored, inserted
//! ones removed), so every run sees the materialized sample and evaluating is repeatable: the
//! same model, design and seed always give the same [`Evaluation`].
//!
//! It stays one file: the evaluation's public types (the report's shape, which the golden JSON
//! holds) and its top-level driver; every stage is a module of its own.

pub mod answer;
mod bind;
pub mod budget;
mod files;
pub mod logged;
pub mod memory;
pub mod metric;
pub mod offer;
pub mod prepared;
mod room;
mod run;
pub mod sample;
mod scale;
mod shards;
pub mod spread;
pub mod text;
mod tree;
mod warn;

use serde::{Deserialize, Serialize};

use crate::design::{DesignError, DesignName, DesignSpec, Layout};
use crate::engine::{Database, EngineError};
use crate::generate::{generate, Dataset, GenOptions};
use crate::lang::Text;
use crate::model::Model;
use crate::stats::CollectionStats;
use crate::warning::{Severity, Warning};

pub use metric::Metric;
pub use offer::Offer;
pub use prepared::Samples;
pub use shards::{Routing, ShardRouting};

/// Why a design cannot be evaluated.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EvalError {
    /// The design cannot be laid out.
    #[error(transparent)]
    Design(#[from] DesignError),
    /// The engine refused to materialize the sample or create an index.
    #[error("materializing collection \"{collection}\": {source}")]
    Materialize {
        /// The collection.
        collection: String,
        /// The engine's error.
        #[source]
        source: EngineError,
    },
    /// Any other engine error.
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// The design name is neither one of the model's offered designs nor a named design.
    #[error("unknown design \"{0}\": not one the model offers")]
    UnknownDesign(String),
    /// The sample would not fit the memory budget (refused before generating anything).
    #[error(transparent)]
    TooBig(#[from] budget::TooBig),
}

/// Options of an evaluation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct EvalOptions {
    /// Entities materialized per entity (overrides the model's `sample.max_documents`).
    pub max_documents: Option<u64>,
    /// Documents a fan-out writes at most per run (the rest is counted arithmetically).
    pub fan_out_cap: u64,
    /// RAM of each machine (bytes), for the WiredTiger cache the working set is compared to;
    /// `None`: the model's `ram_gb`, else [`crate::storage::DEFAULT_RAM`].
    pub ram_bytes: Option<u64>,
}

impl Default for EvalOptions {
    fn default() -> Self {
        EvalOptions {
            max_documents: None,
            fan_out_cap: DEFAULT_FAN_OUT_CAP,
            ram_bytes: None,
        }
    }
}

/// Fan-out writes materialized per run by default.
pub const DEFAULT_FAN_OUT_CAP: u64 = 1_000;

/// Collections at least this large at full scale make a collection scan a finding.
pub const LARGE_COLLECTION: f64 = 10_000.0;

/// Where a number comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Basis {
    /// Measured by the engine on the materialized sample (valid at full scale as is).
    Sample,
    /// Computed arithmetically for the full-scale data (exact).
    FullScale,
    /// Scaled or averaged: an estimate.
    Estimate,
}

/// A number and where it comes from.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Figure {
    /// The value.
    pub value: f64,
    /// Its basis.
    pub basis: Basis,
}

impl Figure {
    /// Returns a figure measured on the sample.
    pub fn sample(value: f64) -> Figure {
        Figure {
            value,
            basis: Basis::Sample,
        }
    }

    /// Returns a figure computed for the full-scale data.
    pub fn full(value: f64) -> Figure {
        Figure {
            value,
            basis: Basis::FullScale,
        }
    }

    /// Returns an estimate.
    pub fn estimate(value: f64) -> Figure {
        Figure {
            value,
            basis: Basis::Estimate,
        }
    }

    /// Returns the sum of two figures, with the weaker basis.
    pub fn plus(self, other: Figure) -> Figure {
        Figure {
            value: self.value + other.value,
            basis: self.basis.max(other.basis),
        }
    }

    /// Returns the figure multiplied by a rate (same basis).
    pub fn times(self, k: f64) -> Figure {
        Figure {
            value: metric::per_sec(self.value, k),
            basis: self.basis,
        }
    }
}

/// What the engine measured for one command on the sample.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SampleStats {
    /// Documents returned.
    pub n_returned: u64,
    /// Index keys examined.
    pub keys_examined: u64,
    /// Documents examined.
    pub docs_examined: u64,
    /// Exact BSON bytes of the returned documents.
    pub bytes_returned: u64,
    /// Documents written (inserted, modified, upserted, deleted).
    pub docs_written: u64,
    /// Bytes of the documents written.
    pub bytes_written: u64,
    /// Index keys inserted plus deleted.
    pub index_keys_written: u64,
}

/// Per-command (or per-run) figures at full scale, each with its basis.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    /// Documents examined.
    pub docs_examined: Figure,
    /// Index keys examined.
    pub keys_examined: Figure,
    /// Documents returned.
    pub docs_returned: Figure,
    /// Bytes returned.
    pub bytes_returned: Figure,
    /// Documents written.
    pub docs_written: Figure,
    /// Bytes written.
    pub bytes_written: Figure,
    /// Index keys written.
    pub index_keys_written: Figure,
}

impl Default for Metrics {
    fn default() -> Self {
        let z = Figure::sample(0.0);
        Metrics {
            docs_examined: z,
            keys_examined: z,
            docs_returned: z,
            bytes_returned: z,
            docs_written: z,
            bytes_written: z,
            index_keys_written: z,
        }
    }
}

impl Metrics {
    /// Returns the sum of two sets of metrics.
    pub fn plus(&self, o: &Metrics) -> Metrics {
        Metrics {
            docs_examined: self.docs_examined.plus(o.docs_examined),
            keys_examined: self.keys_examined.plus(o.keys_examined),
            docs_returned: self.docs_returned.plus(o.docs_returned),
            bytes_returned: self.bytes_returned.plus(o.bytes_returned),
            docs_written: self.docs_written.plus(o.docs_written),
            bytes_written: self.bytes_written.plus(o.bytes_written),
            index_keys_written: self.index_keys_written.plus(o.index_keys_written),
        }
    }

    /// Returns every metric multiplied by `k` (a rate).
    pub fn times(&self, k: f64) -> Metrics {
        Metrics {
            docs_examined: self.docs_examined.times(k),
            keys_examined: self.keys_examined.times(k),
            docs_returned: self.docs_returned.times(k),
            bytes_returned: self.bytes_returned.times(k),
            docs_written: self.docs_written.times(k),
            bytes_written: self.bytes_written.times(k),
            index_keys_written: self.index_keys_written.times(k),
        }
    }
}

/// A fan-out write: how many followers the sample author has, how many documents were
/// really written, and the cap.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FanOut {
    /// The relationship fanned out over.
    pub relationship: String,
    /// Followers of the author at full scale (from the cardinality distribution).
    pub full_scale: u64,
    /// Writes the engine really ran.
    pub written: u64,
    /// The cap on real writes.
    pub cap: u64,
    /// True when the cap cut the fan-out short.
    pub capped: bool,
}

/// One command as run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CommandEval {
    /// The logical step it implements.
    pub step: usize,
    /// Collection.
    pub collection: String,
    /// `find`, `insert`, `update`, `delete` or `aggregate`.
    pub kind: crate::design::CommandKind,
    /// Why it exists.
    pub note: String,
    /// The mongosh code with its parameters bound to the values run.
    pub mongosh: String,
    /// Round trips: 1, but for a GridFS file's chunks one per cursor batch (a read: the `find`
    /// and each `getMore`) or per `insertMany` batch (an upload), 0 for an empty file's; 0 when
    /// the command was not sent ([`CommandEval::not_sent`]).
    pub queries: u64,
    /// `$lookup` stages run.
    pub lookups: u64,
    /// The winning plan's access: an index name, `COLLSCAN`, `EOF`, or empty for inserts.
    pub plan: String,
    /// The winning plan as explain prints it (reads only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plan_tree: Option<serde_json::Value>,
    /// True when a query scans a collection that is large at full scale.
    pub no_supporting_index: bool,
    /// Which shards it reaches.
    pub shards: ShardRouting,
    /// What the engine measured on the sample.
    pub sample: SampleStats,
    /// Figures at full scale.
    pub full: Metrics,
    /// The fan-out, when the command writes one document per follower.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fan_out: Option<FanOut>,
    /// The engine's error, when the command failed (the evaluation goes on).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Why the command was not sent, when it was not: its `$in` list bound to nothing for this
    /// subject (a typical user without continuation documents), so an application has nothing
    /// to fetch and makes no round trip; every figure of the command is then 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_sent: Option<String>,
}

/// Which sample document a run is about.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Subject {
    /// `typical` (closest to the median: the headline) or `largest` (document 0: the tail).
    pub which: String,
    /// The quantile of the subject's distributions (1.0 for the largest).
    pub quantile: f64,
    /// Index of the subject document in its collection.
    pub document: usize,
}

/// One run of a unit (for one subject).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunEval {
    /// The subject.
    pub subject: Subject,
    /// The commands, in order.
    pub commands: Vec<CommandEval>,
    /// Round trips of this run: the commands sent (a command with nothing to fetch for this
    /// subject is not sent, so the typical and the largest subject can differ).
    pub queries: u64,
    /// `$lookup`s of this run (each inside one round trip).
    pub lookups: u64,
    /// Sum over the commands, at full scale.
    pub total: Metrics,
    /// Most shards any command reaches.
    pub max_shards: u32,
}

/// One application unit evaluated.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OperationEval {
    /// Unit name.
    pub unit: String,
    /// Runs per second.
    pub rate_per_sec: f64,
    /// Round trips per run of the typical subject (the headline, as every per-second figure;
    /// `largest.queries` for the largest subject).
    pub queries: u64,
    /// `$lookup`s per run of the typical subject.
    pub lookups: u64,
    /// The headline run: a typical subject.
    pub typical: RunEval,
    /// The tail run: the largest subject.
    pub largest: RunEval,
}

impl OperationEval {
    /// Returns the operation's round trips per second (its rate × its round trips per run).
    pub fn queries_per_sec(&self) -> f64 {
        metric::per_sec(self.queries as f64, self.rate_per_sec)
    }

    /// Returns the operation's `$lookup`s per second.
    pub fn lookups_per_sec(&self) -> f64 {
        metric::per_sec(self.lookups as f64, self.rate_per_sec)
    }
}

/// One index as created in the engine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IndexEval {
    /// Index name (`_id_`, `userId_1_date_-1`).
    pub name: String,
    /// Key pattern.
    pub keys: serde_json::Value,
    /// True when some sample document put several keys in it.
    pub multikey: bool,
    /// Keys in the sample.
    pub sample_keys: u64,
    /// Estimated keys at full scale (sample keys per document × full-scale documents).
    pub keys_full: Figure,
    /// Estimated size at full scale: keys × (mean key bytes + 8 for the record id).
    pub bytes: Figure,
    /// The partial filter of a partial index (`{"type": "book"}`): it holds only the documents
    /// that match it, so its keys and bytes count only those.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partial: Option<serde_json::Value>,
}

/// One collection: full-scale statistics plus indexes as created.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CollectionEval {
    /// Collection name.
    pub name: String,
    /// Full-scale statistics (counts, sizes, break points).
    pub stats: CollectionStats,
    /// Documents materialized.
    pub sample_documents: u64,
    /// Indexes, `_id_` first.
    pub indexes: Vec<IndexEval>,
    /// Number of indexes (with `_id_`).
    pub index_count: usize,
    /// Estimated bytes of all indexes at full scale.
    pub index_bytes: Figure,
    /// The typical (median-size) and the largest sample document, each with its exact size,
    /// bounded Extended JSON text and byte breakdown (see [`sample`]); `None` when the sample
    /// holds no document of the collection.
    pub samples: Option<sample::SampleDocs>,
}

/// Workload totals per second (rate × per-run figures of the typical run).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Totals {
    /// Round trips per second.
    pub queries_per_sec: f64,
    /// `$lookup`s per second.
    pub lookups_per_sec: f64,
    /// Per-second figures.
    pub per_sec: Metrics,
}

/// Everything the evaluation of one design says.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Evaluation {
    /// The design's name.
    pub design: String,
    /// The model's seed.
    pub seed: u64,
    /// Entities materialized per entity at most.
    pub max_documents: u64,
    /// Fan-out cap.
    pub fan_out_cap: u64,
    /// The layout evaluated; `None` once sent to the page, which has the same layout from its
    /// own analysis of the offer.
    #[serde(skip_serializing_if = "Option::is_none", skip_deserializing)]
    pub layout: Option<Layout>,
    /// Collections.
    pub collections: Vec<CollectionEval>,
    /// Operations, in workload order.
    pub operations: Vec<OperationEval>,
    /// Workload totals per second.
    pub totals: Totals,
    /// How each sharded collection spreads over the shards, with its shard-key report.
    pub sharding: Vec<spread::ShardSpread>,
    /// On-disk size, indexes and working set against the WiredTiger cache.
    pub storage: memory::Storage,
    /// Every warning: the layout's and the evaluation's.
    pub warnings: Vec<Warning>,
}

impl Evaluation {
    /// Returns the documents' bytes at full scale, all collections: the sum of each
    /// collection's `stats.total_bytes` as computed (`storage.data_bytes` sums them rounded).
    /// The comparison's storage ([`Metric::StorageBytes`]).
    pub fn data_bytes(&self) -> f64 {
        self.collections.iter().map(|c| c.stats.total_bytes).sum()
    }

    /// Returns the indexes' estimated bytes at full scale, all collections
    /// ([`Metric::IndexBytes`]).
    pub fn index_bytes(&self) -> f64 {
        self.collections.iter().map(|c| c.index_bytes.value).sum()
    }

    /// Returns the documents' and the indexes' bytes together: the storage chart's bar and the
    /// cost model's data bytes.
    pub fn data_and_index_bytes(&self) -> f64 {
        self.data_bytes() + self.index_bytes()
    }

    /// Returns the size of the largest document the model allows in any collection: the
    /// greatest shape's `max` (0 without documents; [`Metric::LargestDocument`]).
    pub fn largest_document(&self) -> f64 {
        self.collections
            .iter()
            .flat_map(|c| c.stats.shapes.iter().map(|s| s.max.bytes as f64))
            .fold(0.0, f64::max)
    }

    /// Returns true when a warning is an error (mongod would refuse something).
    pub fn has_errors(&self) -> bool {
        self.warnings.iter().any(|w| w.severity == Severity::Error)
    }

    /// Returns why the design is infeasible: the codes of its error-severity warnings (mongod
    /// would refuse a document or a write), sorted, each once; empty when it is feasible. An
    /// infeasible design is never the best of a comparison, however cheap its figures.
    pub fn infeasible(&self) -> Vec<String> {
        let mut codes: Vec<String> = self
            .warnings
            .iter()
            .filter(|w| w.severity == Severity::Error)
            .map(|w| w.code.to_string())
            .collect();
        codes.sort();
        codes.dedup();
        codes
    }

    /// Returns every command the engine refused, with its unit's name and the error (each
    /// unit's typical run, then its largest): a design with one can neither be recommended
    /// nor win a comparison.
    pub fn refused_commands(&self) -> impl Iterator<Item = (&str, &CommandEval, &str)> {
        self.operations.iter().flat_map(|o| {
            o.typical
                .commands
                .iter()
                .chain(&o.largest.commands)
                .filter_map(move |c| Some((o.unit.as_str(), c, c.error.as_deref()?)))
        })
    }
}

/// Which design to evaluate.
#[derive(Debug, Clone, PartialEq)]
pub enum Design {
    /// A named design (no overrides, the model's field patterns).
    Named(DesignName),
    /// A full design spec.
    Spec(DesignSpec),
    /// The model's own design.
    Model,
}

impl Design {
    /// Returns `model` laid out under this design.
    pub fn layout(&self, model: &Model) -> Result<Layout, DesignError> {
        match self {
            Design::Named(n) => crate::design::layout_named(model, *n),
            Design::Spec(s) => crate::design::Layout::build(model, s),
            Design::Model => crate::design::layout_model(model),
        }
    }
}

/// Evaluates `model` under `design`.
pub fn evaluate(
    model: &Model,
    design: &Design,
    opts: &EvalOptions,
) -> Result<Evaluation, EvalError> {
    if let Design::Spec(spec) = design {
        // A design's own field and lifecycle patterns, not the model's, plan its queries.
        let (model, spec) = offer::lowered_ref(model, spec);
        let layout = crate::design::Layout::build(&model, &spec)?;
        return evaluate_layout(&model, layout, opts);
    }
    evaluate_layout(model, design.layout(model)?, opts)
}

/// Evaluates the design `id` a model offers ([`offer::offer`]), the way the design bar and
/// `squillion eval --design ID` do: one of a preset's own designs (with its sharding) under its
/// id, else `normalized`, `denormalized` or `bucketed`, else `custom` for the model's own design.
pub fn evaluate_offered(
    model: &Model,
    id: &str,
    opts: &EvalOptions,
) -> Result<Evaluation, EvalError> {
    evaluate_offered_with(model, id, opts, &mut |_| {})
}

/// [`evaluate_offered`], telling `progress` each step as it starts (the page's progress bar).
pub fn evaluate_offered_with(
    model: &Model,
    id: &str,
    opts: &EvalOptions,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Evaluation, EvalError> {
    let offered = offered_layout(model, id)?;
    let name = offered.name();
    let mut e = evaluate_layout_with(&offered.model, offered.layout, opts, progress)?;
    e.design = name;
    Ok(e)
}

/// An offered design, laid out.
#[derive(Debug, Clone)]
pub struct Offered {
    /// The model under that design ([`Offer::model`]: a preset's design carries its sharding).
    pub model: Model,
    /// Its layout.
    pub layout: Layout,
    /// Its name as reports give it ([`Offer::report_name`]).
    name: String,
}

impl Offered {
    /// Returns the design's name as reports give it: a preset's design under its id, the
    /// others as laid out (`normalized`, `normalized + overrides`).
    pub fn name(&self) -> String {
        self.name.clone()
    }
}

/// Returns the design `id` a model offers (see [`evaluate_offered`]), laid out: what the
/// evaluation and the page's export both run.
pub fn offered_layout(model: &Model, id: &str) -> Result<Offered, EvalError> {
    let offer = offer::offer(model, id).ok_or_else(|| EvalError::UnknownDesign(id.to_string()))?;
    let layout = offer.layout()?;
    Ok(Offered {
        name: offer.report_name(&layout),
        model: offer.model,
        layout,
    })
}

/// Returns the model with the options' sample size applied.
fn sized(model: &Model, opts: &EvalOptions) -> Model {
    let mut m = model.clone();
    if let Some(n) = opts.max_documents {
        m.sample.max_documents = Some(n.max(1));
    }
    m
}

/// Returns `model` with the sample an evaluation under `opts` materializes for `layout`:
/// the options' sample size, fitted to the memory budget ([`budget::fit`]) — the sample
/// [`evaluate_layout`] generates, and the page's export writes.
pub fn fitted_sample(
    model: &Model,
    layout: &Layout,
    opts: &EvalOptions,
) -> Result<Model, budget::TooBig> {
    let explicit = opts.max_documents.is_some() || model.sample.max_documents.is_some();
    let mut model = sized(model, opts);
    budget::fit(&mut model, layout, &GenOptions::default(), explicit)?;
    Ok(model)
}

/// Evaluates `layout` (a layout of `model`).
pub fn evaluate_layout(
    model: &Model,
    layout: Layout,
    opts: &EvalOptions,
) -> Result<Evaluation, EvalError> {
    evaluate_layout_with(model, layout, opts, &mut |_| {})
}

/// One step of an evaluation, reported as it starts: `step` of `of` (counted from 1), and what
/// it does. The steps are: generating the documents, inserting them, measuring the
/// collections, one per operation of the workload, and the cluster (shards, storage, warnings).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Progress {
    /// This step, from 1.
    pub step: usize,
    /// Steps in all.
    pub of: usize,
    /// What it does, for a person: `running “post”` (in English, or in the language the caller
    /// asked for).
    pub what: String,
    /// The same as a message with its values, for a view that says it in its own language.
    pub text: crate::lang::Text,
}

/// [`evaluate_layout`], telling `progress` each step as it starts.
pub fn evaluate_layout_with(
    model: &Model,
    layout: Layout,
    opts: &EvalOptions,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Evaluation, EvalError> {
    evaluate_layout_in(model, layout, opts, &mut Samples::new(), progress)
}

/// [`evaluate_layout_with`] on a sample from `samples`: one kept from an earlier evaluation
/// of a design with the same collections, or one made now and kept.
pub fn evaluate_layout_in(
    model: &Model,
    layout: Layout,
    opts: &EvalOptions,
    samples: &mut Samples,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Evaluation, EvalError> {
    let of = 4 + layout.plan.units.len();
    let mut step = 0;
    let mut tell = |text: crate::lang::Text| {
        step += 1;
        progress(&Progress {
            step,
            of,
            what: text.render(crate::lang::Lang::En),
            text,
        });
    };
    tell(Text::new("eval-step-generate"));
    let sample = samples.prepare(model, &layout, opts)?;
    let (model, data) = (&sample.model, &sample.data);
    tell(
        Text::new("eval-step-insert").arg(
            "count",
            crate::human::thousands(
                data.collections
                    .iter()
                    .map(|c| c.documents.len() as u64)
                    .sum(),
            ),
        ),
    );
    let mut db = sample.db.clone();
    let (bucket_ratios, ratios) = sample.ratios();
    tell(Text::new("eval-step-measure"));
    // Each collection's full-scale statistics, computed once: its card, the units' full-scale
    // sizes, the shard spread and the warnings all read these.
    let stats = crate::stats::of_layout(&layout, &model.start_date);
    let collections = collections_eval(model, &layout, data, &db, &stats);
    let ctx = run::Ctx {
        model,
        layout: &layout,
        data,
        stats: &stats,
        cap: opts.fan_out_cap.max(1),
    };
    let mut operations = Vec::new();
    for (ui, u) in layout.plan.units.iter().enumerate() {
        tell(Text::new("eval-step-run").arg("unit", &u.unit));
        let typical = run::run_unit(&ctx, &mut db, ui, false)?;
        let largest = run::run_unit(&ctx, &mut db, ui, true)?;
        operations.push(OperationEval {
            unit: u.unit.clone(),
            rate_per_sec: u.rate_per_sec,
            queries: typical.queries,
            lookups: typical.lookups,
            typical,
            largest,
        });
    }
    let mut per_sec = Metrics::default();
    let (mut q, mut l) = (0.0, 0.0);
    for o in &operations {
        per_sec = per_sec.plus(&o.typical.total.times(o.rate_per_sec));
        q += o.queries_per_sec();
        l += o.lookups_per_sec();
    }
    tell(Text::new("eval-step-finish"));
    let sharding = spread::spreads(model, &layout, data, &stats, &operations);
    let shards = model.sharding.as_ref().map_or(1, |s| s.shards.max(1));
    let ram = opts.ram_bytes.unwrap_or_else(|| {
        model.ram_gb.map_or(crate::storage::DEFAULT_RAM, |g| {
            (g * crate::storage::GIB as f64).clamp(1.0, 1e18) as u64
        })
    });
    let storage = memory::storage(
        data,
        ratios,
        bucket_ratios,
        &collections,
        &operations,
        shards,
        ram,
    );
    let mut warnings = warn::warnings(model, &layout, &stats, &operations);
    warnings.extend(warn::unused_indexes(&layout, &collections, &operations));
    warnings.extend(warn::cluster_warnings(&sharding, &storage));
    Ok(Evaluation {
        design: layout.design.clone(),
        seed: model.seed,
        max_documents: model
            .sample
            .max_documents
            .unwrap_or(crate::model::Sample::DEFAULT_MAX_DOCUMENTS),
        fan_out_cap: ctx.cap,
        collections,
        operations,
        totals: Totals {
            queries_per_sec: q,
            lookups_per_sec: l,
            per_sec,
        },
        sharding,
        storage,
        warnings,
        layout: Some(layout),
    })
}

/// Returns the database an evaluation of `layout` runs on before any operation: its sample
/// (the options' size, fitted to the memory budget) generated and inserted, every index of the
/// layout created. The page's console runs on it, so that `db.<collection>.find()` answers with
/// the documents of the design on show.
pub fn sample_database(
    model: &Model,
    layout: &Layout,
    opts: &EvalOptions,
) -> Result<Database, EvalError> {
    let model = fitted_sample(model, layout, opts)?;
    materialize(layout, &generate(&model, layout))
}

/// Inserts every generated document and creates every index of the layout.
pub fn materialize(layout: &Layout, data: &Dataset) -> Result<Database, EvalError> {
    let mut db = Database::new();
    for c in &data.collections {
        let err = |source| EvalError::Materialize {
            collection: c.name.clone(),
            source,
        };
        db.collection_mut(&c.name);
        if !c.documents.is_empty() {
            db.insert_many_borrowed(&c.name, &c.documents, true)
                .map_err(err)?;
        }
    }
    for c in &layout.collections {
        for ix in &c.indexes {
            db.run(
                &c.name,
                crate::engine::Command::CreateIndex {
                    keys: ix.keys.clone(),
                    options: crate::engine::IndexOptions {
                        name: ix.name(),
                        unique: ix.unique(),
                        partial_filter_expression: ix.partial.clone(),
                        collation: crate::engine::collation::parse_opt(ix.collation.as_ref())
                            .map_err(|source| EvalError::Materialize {
                                collection: c.name.clone(),
                                source,
                            })?,
                        ..Default::default()
                    },
                },
            )
            .map_err(|source| EvalError::Materialize {
                collection: c.name.clone(),
                source,
            })?;
        }
    }
    Ok(db)
}

/// Returns every collection of `layout` as evaluated: its statistics (`stats`, in layout
/// order), its sample documents and its indexes as the engine built them in `db`.
fn collections_eval(
    model: &Model,
    layout: &Layout,
    data: &Dataset,
    db: &Database,
    stats: &[CollectionStats],
) -> Vec<CollectionEval> {
    layout
        .collections
        .iter()
        .zip(stats)
        .map(|(c, stats)| {
            let n = data.collection(&c.name).map_or(0, |g| g.documents.len()) as u64;
            let full = c.count();
            let spans = entity_spans(model, c, n);
            let indexes: Vec<IndexEval> = db
                .collection(&c.name)
                .map(|ec| {
                    let rids: Vec<crate::engine::index::RecordId> =
                        ec.docs.keys().copied().collect();
                    ec.indexes()
                        .iter()
                        .map(|ix| {
                            let keys = ix.entries.len() as u64;
                            let key_bytes: u64 = ix
                                .entries
                                .iter()
                                .map(|(k, _)| {
                                    let d: bson::Document = k
                                        .iter()
                                        .enumerate()
                                        .map(|(i, p)| (i.to_string(), p.value.clone()))
                                        .collect();
                                    crate::size::document_size(&d).saturating_sub(5)
                                })
                                .sum();
                            let keys_full = match &spans {
                                // Several entities' documents (a single collection): each
                                // entity's keys scaled by its own sample.
                                Some(spans) => by_shape_keys(ix, &rids, spans),
                                None => {
                                    let per_doc = if n > 0 { keys as f64 / n as f64 } else { 1.0 };
                                    (per_doc * full).round()
                                }
                            };
                            let mean = if keys > 0 {
                                key_bytes as f64 / keys as f64
                            } else {
                                0.0
                            };
                            IndexEval {
                                name: ix.spec.name.clone(),
                                keys: crate::design::plan::doc_to_json(&ix.spec.key),
                                multikey: ix.is_multikey(),
                                sample_keys: keys,
                                keys_full: Figure::estimate(keys_full),
                                bytes: Figure::estimate((keys_full * (mean + 8.0)).round()),
                                partial: ix
                                    .spec
                                    .partial_filter_expression
                                    .as_ref()
                                    .map(crate::design::plan::doc_to_json),
                            }
                        })
                        .collect()
                })
                .unwrap_or_default();
            let index_bytes = Figure::estimate(indexes.iter().map(|i| i.bytes.value).sum());
            let samples = sample::samples(data, &c.name, Some(stats));
            CollectionEval {
                name: c.name.clone(),
                stats: stats.clone(),
                sample_documents: n,
                index_count: indexes.len(),
                indexes,
                index_bytes,
                samples,
            }
        })
        .collect()
}

/// Returns, for a collection holding the documents of several entities (the single-collection
/// pattern), each shape's sample documents (first and count, in generation order: shape by
/// shape) with its full-scale count; `None` for a collection of one entity's documents, whose
/// index keys scale by the collection's one sample ratio.
fn entity_spans(
    model: &Model,
    c: &crate::design::Collection,
    n: u64,
) -> Option<Vec<(u64, u64, f64)>> {
    let entities = c
        .shapes
        .iter()
        .filter(|s| s.entity.as_deref() == Some(s.label.as_str()))
        .count();
    if entities < 2 {
        return None;
    }
    let mut start = 0u64;
    let mut out = Vec::new();
    for s in &c.shapes {
        let k = model
            .sample
            .sample_count(s.count)
            .min(n.saturating_sub(start));
        out.push((start, k, s.count));
        start += k;
    }
    Some(out)
}

/// Returns the full-scale keys of index `ix` summed shape by shape: the keys of each shape's
/// sample documents (by their place among the collection's record ids `rids`, which are in
/// insertion order) per document, times the shape's full-scale count.
fn by_shape_keys(
    ix: &crate::engine::index::Index,
    rids: &[crate::engine::index::RecordId],
    spans: &[(u64, u64, f64)],
) -> f64 {
    let mut keys = vec![0u64; spans.len()];
    for (_, rid) in &ix.entries {
        let Ok(at) = rids.binary_search(rid) else {
            continue;
        };
        let at = at as u64;
        if let Some(k) = spans
            .iter()
            .position(|(start, n, _)| at >= *start && at < start + n)
            .and_then(|i| keys.get_mut(i))
        {
            *k += 1;
        }
    }
    spans
        .iter()
        .zip(keys)
        .map(|((_, n, full), k)| {
            if *n > 0 {
                (k as f64 / *n as f64 * full).round()
            } else {
                full.round()
            }
        })
        .sum()
}

/// Returns the evaluation of every design [`offer::compared`] lists: the side-by-side
/// comparison (a preset's own designs, each with its sharding; else the three named designs,
/// then the model's own when it has overrides).
pub fn compare(model: &Model, opts: &EvalOptions) -> Result<Vec<Evaluation>, EvalError> {
    offer::compared(model)
        .into_iter()
        .map(|o| {
            let layout = o.layout()?;
            let name = o.report_name(&layout);
            let mut e = evaluate_layout(&o.model, layout, opts)?;
            e.design = name;
            Ok(e)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{answer, evaluate_layout, EvalError, EvalOptions, Samples};
    use crate::stats::COMPUTED;

    /// Returns how many collections' statistics `f` computes.
    fn computed(f: impl FnOnce()) -> usize {
        let before = COMPUTED.with(|n| n.get());
        f();
        COMPUTED.with(|n| n.get()) - before
    }

    /// Returns what `f` gives on the advisor's small sample (30 documents an entity), or on
    /// the evaluation's default one when the small one does not fit or refuses the sample (a
    /// sample that fails is refused before any statistics are computed).
    fn on_a_sample<T>(mut f: impl FnMut(&EvalOptions) -> Result<T, EvalError>) -> T {
        let small = EvalOptions {
            max_documents: Some(30),
            ..EvalOptions::default()
        };
        f(&small).or_else(|_| f(&EvalOptions::default())).unwrap()
    }

    /// An evaluation simulates each collection's sizes once, whoever reads them (its card, the
    /// units' full-scale bytes, the shard spread, the warnings), and an answer check handed
    /// the statistics (as the advisor hands its evaluation's) simulates none: every design
    /// offered for every preset (time series, sharded, lifecycle histories).
    #[test]
    fn an_evaluation_computes_each_collections_statistics_once() {
        for p in crate::presets::all() {
            let model = p.model().unwrap();
            for o in super::offer::offers(&model) {
                let layout = o.layout().unwrap();
                let evaluated = computed(|| {
                    on_a_sample(|opts| evaluate_layout(&o.model, layout.clone(), opts));
                });
                assert_eq!(
                    evaluated,
                    layout.collections.len(),
                    "{} {}: evaluation",
                    p.name,
                    o.id
                );
                let stats = crate::stats::of_layout(&layout, &o.model.start_date);
                let checked = computed(|| {
                    let mut samples = Samples::new();
                    on_a_sample(|opts| {
                        answer::check_in(&o.model, &layout, opts, &mut samples, &stats)
                    });
                });
                assert_eq!(checked, 0, "{} {}: answer check", p.name, o.id);
            }
        }
    }
}
