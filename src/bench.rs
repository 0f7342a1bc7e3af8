//! Measurements the benchmark command and the page's benchmark hook share: the work being
//! timed is identical natively and in the browser; only the clock differs.

use bson::{Bson, Document};
use serde::Serialize;

use crate::console::{execute_command, ConsoleError, Reply};
use crate::engine::Database;
use crate::shell::parse_command;
use crate::size::document_size;

/// What one timed run measured.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Timing {
    /// Documents per round.
    pub docs: usize,
    /// Rounds over all documents.
    pub rounds: u32,
    /// Wall-clock milliseconds for all rounds.
    pub ms: f64,
    /// Sum of all sizes of one round, so the work cannot be optimized away and both sides
    /// can be checked to agree.
    pub checksum: u64,
}

/// Times `rounds` passes of [`document_size`] over `docs` with the clock `now_ms`.
pub fn time_sizes(docs: &[Document], rounds: u32, now_ms: impl Fn() -> f64) -> Timing {
    let rounds = rounds.max(1);
    let mut checksum = 0u64;
    let start = now_ms();
    for round in 0..rounds {
        let mut sum = 0u64;
        for doc in docs {
            sum = sum.wrapping_add(document_size(std::hint::black_box(doc)));
        }
        if round == 0 {
            checksum = sum;
        }
    }
    let ms = now_ms() - start;
    Timing {
        docs: docs.len(),
        rounds,
        ms,
        checksum,
    }
}

/// What timing one query measured.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct QueryTiming {
    /// The mongosh command.
    pub command: String,
    /// How many times it ran.
    pub rounds: u32,
    /// Wall-clock milliseconds for all rounds.
    pub ms: f64,
    /// Milliseconds of the first run, on a collection without caches (as a user's console
    /// query and every query of a model evaluation meet it): the figure the targets are on.
    pub first_ms: f64,
    /// Mean milliseconds of the runs after the first (the steady state, caches built).
    pub steady_ms: f64,
    /// Documents returned by one round (or the count a count returns).
    pub n: u64,
    /// The sum of the integral `_id`s returned by one round, so that both sides of a
    /// benchmark can be checked to return the same documents.
    pub checksum: i64,
}

/// Returns the number of documents and the sum of integral `_id`s of a reply.
fn reply_checksum(reply: &Reply) -> (u64, i64) {
    match reply {
        Reply::Documents(docs) => {
            let sum = docs
                .iter()
                .filter_map(|d| match d.field("_id") {
                    Some(Bson::Int32(i)) => Some(i64::from(i)),
                    Some(Bson::Int64(i)) => Some(i),
                    _ => None,
                })
                .fold(0i64, i64::wrapping_add);
            (docs.len() as u64, sum)
        }
        // A count (mongosh's plain number: a 32-bit integer, or a double past 2^31).
        Reply::Value(Bson::Int32(n)) => (u64::try_from(*n).unwrap_or(0), 0),
        Reply::Value(Bson::Int64(n)) => (u64::try_from(*n).unwrap_or(0), 0),
        Reply::Value(Bson::Double(n)) if n.fract() == 0.0 && *n >= 0.0 => (*n as u64, 0),
        Reply::Value(_) => (1, 0),
    }
}

/// Times each read-only mongosh command on `db`: each is parsed once (untimed), the
/// collection's caches are dropped (so the first run is cold), then it runs at least 3 times
/// and until `min_ms` milliseconds have passed, with the clock `now_ms`; the first run is
/// reported on its own.
pub fn time_queries(
    db: &mut Database,
    commands: &[String],
    min_ms: f64,
    now_ms: impl Fn() -> f64,
) -> Result<Vec<QueryTiming>, ConsoleError> {
    let mut out = Vec::with_capacity(commands.len());
    for text in commands {
        let command = parse_command(text)?;
        db.drop_caches();
        let mut rounds = 0u32;
        let mut first = None;
        let mut first_ms = 0.0;
        let start = now_ms();
        loop {
            let outcome =
                execute_command(db, std::hint::black_box(&command)).map_err(|e| e.locate(text))?;
            rounds += 1;
            if first.is_none() {
                first = Some(reply_checksum(&outcome.reply));
                // Dropping the reply is part of a run (its documents are freed).
                drop(outcome);
                first_ms = now_ms() - start;
            }
            if rounds >= 3 && now_ms() - start >= min_ms {
                break;
            }
        }
        let ms = now_ms() - start;
        let (n, checksum) = first.unwrap_or((0, 0));
        out.push(QueryTiming {
            command: text.clone(),
            rounds,
            ms,
            first_ms,
            steady_ms: (ms - first_ms) / f64::from(rounds.saturating_sub(1).max(1)),
            n,
            checksum,
        });
    }
    Ok(out)
}

/// What timing one model's evaluation and arithmetic measured.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvalTiming {
    /// The model's name.
    pub model: String,
    /// The design evaluated (the model's own).
    pub design: String,
    /// Documents materialized.
    pub documents: usize,
    /// The exact BSON bytes of the sample's documents (the sum of their sizes).
    pub sample_bytes: u64,
    /// Median milliseconds of one evaluation at the default sample scale (layout, generation,
    /// materialization, every unit run twice).
    pub eval_ms: f64,
    /// Where the time of the median evaluation went, step by step.
    pub phases: EvalPhases,
    /// Target for `eval_ms` in the browser.
    pub eval_target_ms: f64,
    /// The most bytes allocated at once during one evaluation, above what was allocated
    /// before it (natively, from the counting allocator; `None` in the browser).
    pub peak_bytes: Option<u64>,
    /// Target for `peak_bytes`: this many times `sample_bytes`.
    pub peak_target_ratio: f64,
    /// Entities per entity in the arithmetic run.
    pub arith_entities: f64,
    /// Median milliseconds of the full-scale arithmetic (layout and every collection's
    /// statistics) with every entity at `arith_entities`.
    pub arith_ms: f64,
    /// Target for `arith_ms`.
    pub arith_target_ms: f64,
}

/// Milliseconds of each step of one evaluation ([`crate::eval::Progress`] marks the steps).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct EvalPhases {
    /// Laying out the design.
    pub layout: f64,
    /// Generating the sample documents (and fitting the sample to its budget).
    pub generate: f64,
    /// Inserting them and building the indexes.
    pub insert: f64,
    /// Measuring the collections (statistics, index sizes, sample documents).
    pub measure: f64,
    /// Running every unit of the workload (typical and largest subject).
    pub operations: f64,
    /// Shards, storage estimate (compression) and warnings.
    pub cluster: f64,
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

/// Returns the exact BSON bytes of the sample `model` generates under its own design.
fn sample_bytes(model: &crate::model::Model) -> Result<u64, crate::eval::EvalError> {
    let opts = crate::eval::EvalOptions::default();
    let layout = crate::eval::Design::Model.layout(model)?;
    let fitted = crate::eval::fitted_sample(model, &layout, &opts)?;
    let data = crate::generate::generate(&fitted, &layout);
    Ok(data
        .collections
        .iter()
        .flat_map(|c| c.documents.iter())
        .map(document_size)
        .sum())
}

/// Times `rounds` evaluations of `model` (its own design) and `rounds` runs of the full-scale
/// arithmetic with every entity count set to 100 million, with the clock `now_ms`. `peak`
/// returns the most bytes allocated at once since its previous call, above what was allocated
/// then (`None` where that cannot be measured).
pub fn time_eval(
    model: &crate::model::Model,
    rounds: u32,
    now_ms: impl Fn() -> f64,
    peak: &mut dyn FnMut() -> Option<u64>,
) -> Result<EvalTiming, crate::eval::EvalError> {
    let rounds = rounds.max(1);
    let opts = crate::eval::EvalOptions::default();
    let sample_bytes = sample_bytes(model)?;
    let mut evals: Vec<(f64, EvalPhases)> = Vec::new();
    let mut peak_bytes: Option<u64> = None;
    let mut design = String::new();
    let mut documents = 0;
    for _ in 0..rounds {
        peak();
        let t = now_ms();
        let layout = crate::eval::Design::Model.layout(model)?;
        let laid_out = now_ms();
        let mut marks: Vec<f64> = Vec::new();
        let e = crate::eval::evaluate_layout_with(model, layout, &opts, &mut |_| {
            marks.push(now_ms());
        })?;
        let end = now_ms();
        peak_bytes = match (peak_bytes, peak()) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        // Steps: generate, insert, measure, one per unit, cluster.
        let at = |i: usize| marks.get(i).copied().unwrap_or(end);
        let last = marks.len().saturating_sub(1);
        let phases = EvalPhases {
            layout: laid_out - t,
            generate: at(1) - laid_out,
            insert: at(2) - at(1),
            measure: at(3) - at(2),
            operations: at(last) - at(3),
            cluster: end - at(last),
        };
        evals.push((end - t, phases));
        design = e.design.clone();
        documents = e
            .collections
            .iter()
            .map(|c| c.sample_documents as usize)
            .sum();
    }
    let entities = 1e8;
    let mut big = model.clone();
    for e in &mut big.entities {
        e.count = entities;
    }
    let mut arith = Vec::new();
    for _ in 0..rounds {
        let t = now_ms();
        let layout = crate::design::layout_model(&big)?;
        let stats = crate::stats::of_layout(&layout, &big.start_date);
        std::hint::black_box(stats);
        arith.push(now_ms() - t);
    }
    evals.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (eval_ms, phases) = evals.get(evals.len() / 2).copied().unwrap_or_default();
    Ok(EvalTiming {
        model: model.name.clone().unwrap_or_default(),
        design,
        documents,
        sample_bytes,
        eval_ms,
        phases,
        eval_target_ms: 100.0,
        peak_bytes,
        peak_target_ratio: 2.0,
        arith_entities: entities,
        arith_ms: median(arith),
        arith_target_ms: 1.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    /// A test clock: each reading is `step` later than the one before.
    fn ticks(tick: &Cell<f64>, step: f64) -> f64 {
        tick.set(tick.get() + step);
        tick.get()
    }

    /// A database with one collection `c` of ten documents `{ _id: i, a: i % 3 }`.
    fn ten_documents() -> Database {
        let mut db = Database::new();
        let docs = (0..10).map(|i| bson::doc! {"_id": i, "a": i % 3}).collect();
        assert!(db.insert_many("c", docs, true).is_ok());
        db
    }

    #[test]
    fn checksum_is_the_sum_of_one_round() {
        let docs = vec![bson::doc! {}, bson::doc! {"a": 1}];
        let tick = Cell::new(0.0);
        let clock = || ticks(&tick, 5.0);
        let t = time_sizes(&docs, 3, clock);
        assert_eq!(t.checksum, 5 + 12);
        assert_eq!((t.docs, t.rounds, t.ms), (2, 3, 5.0));
    }

    #[test]
    fn eval_timing_splits_the_median_evaluation_into_its_steps() {
        let text = std::fs::read_to_string("presets/person-addresses.json").unwrap_or_default();
        let model = crate::model::parse_model(&text);
        let Ok(model) = model else {
            panic!("presets/person-addresses.json does not parse");
        };
        let tick = Cell::new(0.0);
        let clock = || ticks(&tick, 1.0);
        let mut probes = 0;
        let mut peak = || {
            probes += 1;
            Some(probes * 100)
        };
        let t = time_eval(&model, 3, clock, &mut peak);
        let Ok(t) = t else {
            panic!("the evaluation fails");
        };
        let p = t.phases;
        let sum = p.layout + p.generate + p.insert + p.measure + p.operations + p.cluster;
        assert_eq!(sum, t.eval_ms);
        assert!(p.operations > 0.0 && p.generate > 0.0);
        // Two probes per round (start, end): the largest window is the last round's.
        assert_eq!((probes, t.peak_bytes), (6, Some(600)));
        let bytes: u64 = {
            let layout = crate::eval::Design::Model.layout(&model);
            let layout = layout.unwrap_or_else(|_| panic!("no layout"));
            let opts = crate::eval::EvalOptions::default();
            let fitted = crate::eval::fitted_sample(&model, &layout, &opts)
                .unwrap_or_else(|_| panic!("no sample"));
            crate::generate::generate(&fitted, &layout)
                .collections
                .iter()
                .flat_map(|c| c.documents.iter())
                .map(document_size)
                .sum()
        };
        assert_eq!(t.sample_bytes, bytes);
        assert!(bytes > 0);
    }

    #[test]
    fn query_timing_reports_the_first_run_apart() {
        let mut db = ten_documents();
        let tick = Cell::new(0.0);
        let clock = || ticks(&tick, 1.0);
        let commands = vec!["db.c.find({ a: 1 })".to_string()];
        let t = time_queries(&mut db, &commands, 0.0, clock).unwrap_or_default();
        let Some(q) = t.first() else {
            panic!("no timing");
        };
        // The clock reads 1 at the start, 2 after the first run, 3 at the check after the
        // third run and 4 at the end: the two later runs took 2 ticks.
        assert_eq!((q.rounds, q.ms, q.first_ms), (3, 3.0, 1.0));
        assert_eq!(q.steady_ms, 1.0);
    }

    #[test]
    fn query_timing_counts_and_sums_ids() {
        let mut db = ten_documents();
        let tick = Cell::new(0.0);
        let clock = || ticks(&tick, 1.0);
        let commands = vec![
            "db.c.find({ a: 1 })".to_string(),
            "db.c.countDocuments({ a: 0 })".to_string(),
        ];
        let t = time_queries(&mut db, &commands, 10.0, clock).unwrap_or_default();
        assert_eq!(t.len(), 2);
        assert_eq!((t[0].n, t[0].checksum), (3, 1 + 4 + 7));
        assert_eq!(t[1].n, 4);
        assert!(t[0].rounds >= 3);
    }
}
