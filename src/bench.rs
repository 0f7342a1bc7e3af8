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
                .filter_map(|d| match d.get("_id") {
                    Some(Bson::Int32(i)) => Some(i64::from(*i)),
                    Some(Bson::Int64(i)) => Some(*i),
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

/// Times each read-only mongosh command on `db`: each is parsed once (untimed), then run
/// at least 3 times and until `min_ms` milliseconds have passed, with the clock `now_ms`.
pub fn time_queries(
    db: &mut Database,
    commands: &[String],
    min_ms: f64,
    now_ms: impl Fn() -> f64,
) -> Result<Vec<QueryTiming>, ConsoleError> {
    let mut out = Vec::with_capacity(commands.len());
    for text in commands {
        let command = parse_command(text)?;
        let mut rounds = 0u32;
        let mut first = None;
        let start = now_ms();
        loop {
            let outcome =
                execute_command(db, std::hint::black_box(&command)).map_err(|e| e.locate(text))?;
            rounds += 1;
            if first.is_none() {
                first = Some(reply_checksum(&outcome.reply));
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
    /// Median milliseconds of one evaluation at the default sample scale (layout, generation,
    /// materialization, every unit run twice).
    pub eval_ms: f64,
    /// Target for `eval_ms` in the browser.
    pub eval_target_ms: f64,
    /// Entities per entity in the arithmetic run.
    pub arith_entities: f64,
    /// Median milliseconds of the full-scale arithmetic (layout and every collection's
    /// statistics) with every entity at `arith_entities`.
    pub arith_ms: f64,
    /// Target for `arith_ms`.
    pub arith_target_ms: f64,
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

/// Times `rounds` evaluations of `model` (its own design) and `rounds` runs of the full-scale
/// arithmetic with every entity count set to 100 million, with the clock `now_ms`.
pub fn time_eval(
    model: &crate::model::Model,
    rounds: u32,
    now_ms: impl Fn() -> f64,
) -> Result<EvalTiming, crate::eval::EvalError> {
    let rounds = rounds.max(1);
    let opts = crate::eval::EvalOptions::default();
    let mut evals = Vec::new();
    let mut design = String::new();
    let mut documents = 0;
    for _ in 0..rounds {
        let t = now_ms();
        let e = crate::eval::evaluate(model, &crate::eval::Design::Model, &opts)?;
        evals.push(now_ms() - t);
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
        let stats: Vec<_> = layout
            .collections
            .iter()
            .map(|c| crate::arith::collection_stats(c, &big.start_date))
            .collect();
        std::hint::black_box(stats);
        arith.push(now_ms() - t);
    }
    Ok(EvalTiming {
        model: model.name.clone().unwrap_or_default(),
        design,
        documents,
        eval_ms: median(evals),
        eval_target_ms: 100.0,
        arith_entities: entities,
        arith_ms: median(arith),
        arith_target_ms: 1.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn checksum_is_the_sum_of_one_round() {
        let docs = vec![bson::doc! {}, bson::doc! {"a": 1}];
        let tick = Cell::new(0.0);
        let clock = || {
            tick.set(tick.get() + 5.0);
            tick.get()
        };
        let t = time_sizes(&docs, 3, clock);
        assert_eq!(t.checksum, 5 + 12);
        assert_eq!((t.docs, t.rounds, t.ms), (2, 3, 5.0));
    }

    #[test]
    fn query_timing_counts_and_sums_ids() {
        let mut db = Database::new();
        let docs = (0..10).map(|i| bson::doc! {"_id": i, "a": i % 3}).collect();
        assert!(db.insert_many("c", docs, true).is_ok());
        let tick = Cell::new(0.0);
        let clock = || {
            tick.set(tick.get() + 1.0);
            tick.get()
        };
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
