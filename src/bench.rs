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
