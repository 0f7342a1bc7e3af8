//! Measurements the benchmark command and the page's benchmark hook share: the work being
//! timed is identical natively and in the browser; only the clock differs.

use bson::Document;
use serde::Serialize;

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
}
