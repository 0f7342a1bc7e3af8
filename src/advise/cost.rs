//! The cost model: what a design's workload costs in one unit, **microseconds of work per
//! second of workload** (µs/s), from the figures the engine measures for every verified
//! design, and where the pick between two designs flips as the read/write ratio or the
//! storage weight changes.
//!
//! The screen ranks thousands of candidates by round trips, documents and index keys written
//! and bytes ([`super::screen`]); a round trip is not a unit of work (game-inventory's keyed
//! items answer "damage > 20" in one query that names every key), and neither is a document
//! written (a `$push` into a host document holding 100,000 ids rewrites 921 KiB). So the
//! recommendation among the verified designs is decided by this model: each figure times a
//! named constant ([`CostModel`]), read and write operations apart, the storage beside them.
//! docs/advisor.md ("The cost model") gives each constant's source.

use serde::{Deserialize, Serialize};

use crate::eval::Evaluation;

/// The price of each figure, in microseconds. The defaults are orders of magnitude for a
/// replica set in one region with its working set in the WiredTiger cache (docs/advisor.md
/// gives the source of each); `--cost FILE` overrides any of them.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CostModel {
    /// One command sent and answered: the network round trip within a region plus the
    /// command's dispatch (parse, authorize, plan cache lookup).
    pub round_trip_us: f64,
    /// One index key examined (a WiredTiger cursor step in a cached B-tree).
    pub key_examined_us: f64,
    /// One document examined (fetched from the cache and matched).
    pub doc_examined_us: f64,
    /// One byte returned (encoded, sent, decoded by the driver).
    pub byte_returned_us: f64,
    /// One document written (a write with its oplog entry and journal record).
    pub doc_written_us: f64,
    /// One byte written (the document as stored: a growing document is rewritten whole, and
    /// every byte goes to the journal, the oplog and the secondaries).
    pub byte_written_us: f64,
    /// One index key inserted or deleted.
    pub index_key_written_us: f64,
    /// One document read from disk: the share of the documents examined past what the
    /// WiredTiger cache holds of the working set (a random SSD read of a page).
    pub disk_read_us: f64,
}

impl Default for CostModel {
    fn default() -> Self {
        CostModel {
            round_trip_us: 300.0,
            key_examined_us: 0.2,
            doc_examined_us: 1.0,
            byte_returned_us: 0.002,
            doc_written_us: 20.0,
            byte_written_us: 0.01,
            index_key_written_us: 3.0,
            disk_read_us: 100.0,
        }
    }
}

/// Why a cost file was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("not a cost model: {0} (a JSON object of round_trip_us, key_examined_us, doc_examined_us, byte_returned_us, doc_written_us, byte_written_us, index_key_written_us, disk_read_us; docs/advisor.md)")]
pub struct CostModelError(pub String);

/// Every figure the cost model prices, in the order of [`CostModel::prices`].
pub const FIGURES: [&str; 8] = [
    "round_trips",
    "keys_examined",
    "docs_examined",
    "bytes_returned",
    "docs_written",
    "bytes_written",
    "index_keys_written",
    "docs_from_disk",
];

impl CostModel {
    /// Returns the price of each of [`FIGURES`], µs per unit, in its order.
    pub fn prices(&self) -> [f64; 8] {
        [
            self.round_trip_us,
            self.key_examined_us,
            self.doc_examined_us,
            self.byte_returned_us,
            self.doc_written_us,
            self.byte_written_us,
            self.index_key_written_us,
            self.disk_read_us,
        ]
    }

    /// Returns the price of one of [`FIGURES`], µs per unit; 0 for another name.
    pub fn price(&self, figure: &str) -> f64 {
        FIGURES
            .iter()
            .zip(self.prices())
            .find(|(f, _)| **f == figure)
            .map_or(0.0, |(_, p)| p)
    }

    /// Parses a cost file: a JSON object naming any of the constants (the others keep their
    /// default), each a finite number ≥ 0.
    pub fn parse(text: &str) -> Result<CostModel, CostModelError> {
        let m: CostModel = serde_json::from_str(text).map_err(|e| CostModelError(e.to_string()))?;
        let all = [
            ("round_trip_us", m.round_trip_us),
            ("key_examined_us", m.key_examined_us),
            ("doc_examined_us", m.doc_examined_us),
            ("byte_returned_us", m.byte_returned_us),
            ("doc_written_us", m.doc_written_us),
            ("byte_written_us", m.byte_written_us),
            ("index_key_written_us", m.index_key_written_us),
            ("disk_read_us", m.disk_read_us),
        ];
        for (name, v) in all {
            if !v.is_finite() || v < 0.0 {
                return Err(CostModelError(format!("{name} must be a number ≥ 0")));
            }
        }
        Ok(m)
    }
}

/// One term of a cost: a figure per second and what it costs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Term {
    /// The figure: `round_trips`, `keys_examined`, `docs_examined`, `bytes_returned`,
    /// `docs_written`, `bytes_written`, `index_keys_written`, `docs_from_disk` (the documents
    /// examined past what the cache holds of the working set).
    pub figure: String,
    /// The figure per second, of the read operations.
    pub reads_per_sec: f64,
    /// The figure per second, of the write operations.
    pub writes_per_sec: f64,
    /// What it costs, µs per second of workload (both sides).
    pub us_per_sec: f64,
}

/// A verified design's cost: its work by the cost model, its storage, and its decision score.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cost {
    /// µs of work per second of the read operations (those that write nothing).
    pub read_us: f64,
    /// µs of work per second of the write operations (those that write something, with the
    /// reads they make).
    pub write_us: f64,
    /// What the storage objective weighs: bytes on disk at full scale, the data under its
    /// block compressor (snappy; zstd over the column-compressed buckets of a time-series
    /// collection: `storage.disk_bytes` of the evaluation) plus the index bytes. Before
    /// 2026-12-01 it was the uncompressed data, which priced a time-series collection at
    /// several times its size on disk.
    pub storage_bytes: f64,
    /// The uncompressed data (BSON bytes, the size in memory) plus the index bytes: the
    /// screen's storage objective, for comparison.
    #[serde(default)]
    pub data_bytes: f64,
    /// Read operations per second (operations that write nothing).
    pub read_ops_per_sec: f64,
    /// Write operations per second.
    pub write_ops_per_sec: f64,
    /// Each term, the costliest first.
    pub terms: Vec<Term>,
    /// The decision score ([`decision_score`]; lower is better). Only differences between
    /// designs of one advice mean something.
    pub score: f64,
}

impl Cost {
    /// Returns the work, µs per second of workload.
    pub fn work_us(&self) -> f64 {
        self.read_us + self.write_us
    }
}

/// Returns the cost of evaluation `e` under `m`, scored with `w` ([`decision_score`]).
pub fn cost_of(e: &Evaluation, m: &CostModel, w: &super::Weights) -> Cost {
    // The share of the documents examined that the cache does not hold: the working set
    // (hot documents and every index, per shard) past the cache, read from disk.
    let st = &e.storage;
    let ws = st.working_set_per_shard.value;
    let miss = if ws > 0.0 {
        (1.0 - st.cache_bytes as f64 / ws).max(0.0)
    } else {
        0.0
    };
    // [reads side, writes side] per figure, and the operations per second of each side.
    let mut f = [[0.0f64; 2]; 8];
    let mut ops = [0.0f64; 2];
    for o in &e.operations {
        // An operation that writes anything is a write operation.
        let side = usize::from(o.typical.commands.iter().any(|c| !c.kind.is_read()));
        if let Some(n) = ops.get_mut(side) {
            *n += o.rate_per_sec;
        }
        for c in &o.typical.commands {
            let r = o.rate_per_sec;
            let x = &c.full;
            let figures = [
                c.queries as f64,
                x.keys_examined.value,
                x.docs_examined.value,
                x.bytes_returned.value,
                x.docs_written.value,
                x.bytes_written.value,
                x.index_keys_written.value,
                x.docs_examined.value * miss,
            ];
            for (slot, v) in f.iter_mut().zip(figures) {
                if let Some(s) = slot.get_mut(side) {
                    *s += r * v;
                }
            }
        }
    }
    let mut read_us = 0.0;
    let mut write_us = 0.0;
    let mut terms: Vec<Term> = FIGURES
        .iter()
        .zip(f)
        .zip(m.prices())
        .map(|((name, [r, wr]), p)| {
            read_us += r * p;
            write_us += wr * p;
            Term {
                figure: (*name).to_string(),
                reads_per_sec: r,
                writes_per_sec: wr,
                us_per_sec: (r + wr) * p,
            }
        })
        .collect();
    terms.sort_by(|a, b| b.us_per_sec.total_cmp(&a.us_per_sec));
    let index_bytes = e.index_bytes();
    let storage_bytes = e.storage.disk_bytes.value + index_bytes;
    let data_bytes = e.data_and_index_bytes();
    let [read_ops_per_sec, write_ops_per_sec] = ops;
    Cost {
        read_us,
        write_us,
        storage_bytes,
        data_bytes,
        read_ops_per_sec,
        write_ops_per_sec,
        terms,
        score: decision_score(read_us, write_us, storage_bytes, w),
    }
}

/// Returns the decision score of a design whose read operations cost `read_us`, whose write
/// operations cost `write_us` and which keeps `storage` bytes, under weights `w`:
///
/// ```text
/// score = ((w_r + w_w) · ln(1 + w_r·read + w_w·write) + w_s · ln(1 + storage)) / Σ w
/// ```
///
/// Reads and writes are one unit (µs), so they add up before the logarithm: the read/write
/// ratio decides between them (a design that reads cheaply and writes dearly wins where
/// reads dominate). Storage is another unit, so it is weighed as a log ratio: a weight says
/// what a halving of the work is worth against a halving of the bytes.
pub fn decision_score(read_us: f64, write_us: f64, storage: f64, w: &super::Weights) -> f64 {
    let total = w.reads + w.writes + w.storage;
    if total <= 0.0 {
        return 0.0;
    }
    let work = w.reads * read_us.max(0.0) + w.writes * write_us.max(0.0);
    ((w.reads + w.writes) * libm::log1p(work) + w.storage * libm::log1p(storage.max(0.0))) / total
}

/// Where the pick between the recommendation and another verified design flips.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Flip {
    /// The other design's label.
    pub design: String,
    /// The factor on every read operation's rate at which the two tie (below 1: fewer reads;
    /// above 1: more), the write rates unchanged; `None` when no positive factor does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_factor: Option<f64>,
    /// Read operations per write operation today (`None` without writes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reads_per_write: Option<f64>,
    /// Read operations per write operation at the flip.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reads_per_write_at_flip: Option<f64>,
    /// The factor on the storage weight at which the two tie, the other weights unchanged;
    /// `None` when no positive factor does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub storage_weight_factor: Option<f64>,
    /// The other design's score minus the recommendation's, today.
    pub score_delta: f64,
}

/// Returns where the pick of `a` (the recommendation) over `b` flips, under weights `w`;
/// `reads_per_write` is today's ratio of read to write operations, if the workload writes.
pub fn flip(
    a: &Cost,
    b: &Cost,
    label: &str,
    w: &super::Weights,
    reads_per_write: Option<f64>,
) -> Flip {
    let sw = w.reads + w.writes;
    // The read factor k: 1 + w_r·k·R_a + w_w·W_a = c · (1 + w_r·k·R_b + w_w·W_b), with
    // c = ((1 + S_b) / (1 + S_a))^(w_s / (w_r + w_w)): the storage term moved across.
    let read_factor = if sw > 0.0 && w.reads > 0.0 {
        let c = (libm::log1p(b.storage_bytes) - libm::log1p(a.storage_bytes)) * w.storage / sw;
        let c = c.exp();
        let den = w.reads * (a.read_us - c * b.read_us);
        let num = c - 1.0 + c * w.writes * b.write_us - w.writes * a.write_us;
        let k = num / den;
        (den != 0.0 && k.is_finite() && k > 0.0).then_some(k)
    } else {
        None
    };
    // The storage weight factor m: (w_r + w_w)·ln(A_a/A_b) + m·w_s·ln(S_a/S_b) = 0.
    let work = |c: &Cost| libm::log1p(w.reads * c.read_us + w.writes * c.write_us);
    let ds = libm::log1p(a.storage_bytes) - libm::log1p(b.storage_bytes);
    let storage_weight_factor = if w.storage > 0.0 && ds != 0.0 {
        let m = -sw * (work(a) - work(b)) / (w.storage * ds);
        (m.is_finite() && m > 0.0).then_some(m)
    } else {
        None
    };
    Flip {
        design: label.to_string(),
        read_factor,
        reads_per_write,
        reads_per_write_at_flip: reads_per_write.zip(read_factor).map(|(r, k)| r * k),
        storage_weight_factor,
        score_delta: b.score - a.score,
    }
}

/// The decision scores of designs across read/write ratios: "where the pick flips", drawn.
/// Every read operation's rate is scaled by the same factor (the writes unchanged), as
/// [`Flip::read_factor`] does, so two curves cross exactly at a flip's
/// [`Flip::reads_per_write_at_flip`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RatioChart {
    /// Read operations per write operation today.
    pub today: f64,
    /// The ratios drawn, ascending and evenly spaced on a log scale, today's among them.
    pub ratios: Vec<f64>,
    /// Per design, in the order given (the recommendation first): its decision score at each
    /// of `ratios`.
    pub scores: Vec<Vec<f64>>,
    /// Per design after the recommendation, in the order given: where its line crosses the
    /// recommendation's, as (reads per write, the score both have there); `None` where they
    /// never cross.
    pub flips: Vec<Option<(f64, f64)>>,
}

/// Returns the [`RatioChart`] of `costs` (the recommendation's first) around today's
/// `reads_per_write`: from a hundredth of the smallest of today's ratio and the `flips_at`
/// (for each design after the first, the ratio at which it ties with the first, if any) to a
/// hundred times the largest, `points` ratios (at least 3). `None` without a positive, finite
/// ratio today.
pub fn ratio_chart(
    costs: &[&Cost],
    reads_per_write: f64,
    flips_at: &[Option<f64>],
    w: &super::Weights,
    points: usize,
) -> Option<RatioChart> {
    if !(reads_per_write.is_finite() && reads_per_write > 0.0) {
        return None;
    }
    // A design's score with every read rate scaled to `r` reads per write.
    let score = |c: &Cost, r: f64| {
        let k = r / reads_per_write;
        decision_score(c.read_us * k, c.write_us, c.storage_bytes, w)
    };
    let flips_at: Vec<Option<f64>> = flips_at
        .iter()
        .map(|r| r.filter(|r| r.is_finite() && *r > 0.0))
        .collect();
    let near = flips_at
        .iter()
        .flatten()
        .copied()
        .chain(std::iter::once(reads_per_write));
    let (lo, hi) = near.fold((f64::MAX, 0.0f64), |(lo, hi), r| (lo.min(r), hi.max(r)));
    let (lo, hi) = (libm::log10(lo) - 2.0, libm::log10(hi) + 2.0);
    let n = points.max(3);
    let mut ratios: Vec<f64> = (0..n)
        .map(|i| libm::pow(10.0, lo + (hi - lo) * i as f64 / (n - 1) as f64))
        .collect();
    ratios.push(reads_per_write);
    ratios.sort_by(f64::total_cmp);
    let scores = costs
        .iter()
        .map(|c| ratios.iter().map(|r| score(c, *r)).collect())
        .collect();
    let first = costs.first().copied();
    let flips = flips_at
        .iter()
        .map(|r| {
            let r = (*r)?;
            Some((r, score(first?, r)))
        })
        .collect();
    Some(RatioChart {
        today: reads_per_write,
        ratios,
        scores,
        flips,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advise::Weights;

    fn cost(read_us: f64, write_us: f64, storage: f64) -> Cost {
        let w = Weights::default();
        Cost {
            read_us,
            write_us,
            storage_bytes: storage,
            data_bytes: storage,
            read_ops_per_sec: 0.0,
            write_ops_per_sec: 0.0,
            terms: Vec::new(),
            score: decision_score(read_us, write_us, storage, &w),
        }
    }

    #[test]
    fn the_read_factor_is_where_the_two_scores_tie() {
        let w = Weights::default();
        // a reads cheaply and writes dearly; b the other way round.
        let a = cost(1_000.0, 50_000.0, 1e9);
        let b = cost(20_000.0, 5_000.0, 1e9);
        let f = flip(&a, &b, "b", &w, Some(10.0));
        let k = f.read_factor.unwrap_or(0.0);
        let at = |c: &Cost| decision_score(c.read_us * k, c.write_us, c.storage_bytes, &w);
        assert!((at(&a) - at(&b)).abs() < 1e-9, "{k}");
        assert!(a.score > b.score, "b wins today");
        assert!(k > 1.0, "a wins with more reads: {k}");
        assert_eq!(f.reads_per_write_at_flip, Some(10.0 * k));
    }

    #[test]
    fn the_ratio_chart_crosses_at_the_flip() {
        let w = Weights::default();
        let a = cost(1_000.0, 50_000.0, 1e9);
        let b = cost(20_000.0, 5_000.0, 1e9);
        let f = flip(&b, &a, "a", &w, Some(10.0));
        let at = f.reads_per_write_at_flip.unwrap_or(0.0);
        let chart = ratio_chart(&[&b, &a], 10.0, &[Some(at)], &w, 41);
        let Some(chart) = chart else {
            panic!("a chart at 10 reads per write");
        };
        assert_eq!(chart.ratios.len(), 42);
        assert!(chart.ratios.windows(2).all(|p| p[0] <= p[1]));
        assert!(chart.ratios[0] <= at.min(10.0) / 99.0 && chart.ratios[41] >= at.max(10.0) * 99.0);
        // Today the recommendation (b) is cheaper; past the flip the other one is.
        let today = chart.ratios.iter().position(|r| *r == 10.0).unwrap_or(0);
        assert!(chart.scores[0][today] < chart.scores[1][today]);
        let past = chart.ratios.iter().position(|r| *r > at).unwrap_or(0);
        assert!(
            chart.scores[0][past] > chart.scores[1][past],
            "past {at} a wins"
        );
        // At the flip itself the two scores tie, and the chart's dot is there.
        let k = at / 10.0;
        let s = |c: &Cost| decision_score(c.read_us * k, c.write_us, c.storage_bytes, &w);
        assert!((s(&a) - s(&b)).abs() < 1e-9);
        assert_eq!(chart.flips, vec![Some((at, s(&b)))]);
        assert_eq!(ratio_chart(&[&a], 0.0, &[], &w, 9), None);
    }

    #[test]
    fn the_storage_weight_factor_is_where_the_two_scores_tie() {
        let w = Weights::default();
        let a = cost(1_000.0, 1_000.0, 4e9);
        let b = cost(2_000.0, 2_000.0, 1e9);
        let f = flip(&a, &b, "b", &w, None);
        let m = f.storage_weight_factor.unwrap_or(0.0);
        let w2 = Weights {
            storage: w.storage * m,
            ..w
        };
        let s = |c: &Cost| decision_score(c.read_us, c.write_us, c.storage_bytes, &w2);
        assert!((s(&a) - s(&b)).abs() < 1e-9, "{m}");
        assert!(f.read_factor.is_none() || f.read_factor.is_some_and(|k| k > 0.0));
    }

    #[test]
    fn a_cost_file_overrides_some_constants_and_refuses_others() {
        let m = CostModel::parse(r#"{"round_trip_us": 1000}"#).unwrap_or_default();
        assert_eq!(m.round_trip_us, 1000.0);
        assert_eq!(m.doc_written_us, CostModel::default().doc_written_us);
        assert!(CostModel::parse(r#"{"latency": 1}"#).is_err());
        assert!(CostModel::parse(r#"{"round_trip_us": -1}"#).is_err());
    }
}
