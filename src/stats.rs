//! Full-scale statistics of a layout's collections: document count, sizes at the mean, median,
//! p99 and maximum of the cardinality distributions, the largest document expected, total
//! bytes, and the break point of every growing array. Constant time in the number of
//! documents.
//!
//! The figures are [`crate::arith`]'s, read off the layout's document shapes: `arith` sizes
//! the fields of the model and knows nothing of layouts (the design layer calls it), this
//! module applies it to the collections a design lays out.

use serde::{Deserialize, Serialize};

use crate::arith::tail::{Exceedance, QuantileSize, SizeSpread};
use crate::arith::{
    break_date, break_point, document_size_of, map_break_point, value_size, At, BreakDate,
    BreakPoint, Size,
};
use crate::design::{Collection, DocShape, Layout};
use crate::model::distribution::Distribution;
use crate::model::field::Fields;
use crate::size::MAX_BSON_SIZE;

/// Compass's "bloated documents" threshold: 10,000,000 bytes.
pub const BLOATED_BYTES: u64 = 10_000_000;

/// A size figure labelled exact or estimate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SizeFigure {
    /// Bytes (rounded up to a whole byte for estimates).
    pub bytes: u64,
    /// True when exact.
    pub exact: bool,
}

impl From<Size> for SizeFigure {
    fn from(s: Size) -> Self {
        SizeFigure {
            bytes: s.whole(),
            exact: s.exact,
        }
    }
}

/// The figure of a size absent from old JSON: zero bytes, an estimate.
fn unknown_figure() -> SizeFigure {
    SizeFigure {
        bytes: 0,
        exact: false,
    }
}

/// Statistics of one kind of document in a collection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShapeStats {
    /// The shape's label.
    pub label: String,
    /// Documents at full scale.
    pub count: f64,
    /// Mean document size.
    pub average: SizeFigure,
    /// Median document size, from the distribution of the sum of every field's length,
    /// presence and array count ([`crate::arith::tail`]): exact in closed form, else an estimate.
    pub p50: SizeFigure,
    /// For an estimated `p50`: its 99% confidence interval `[low, high]` in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p50_bounds: Option<[u64; 2]>,
    /// Size at the 99th percentile (as `p50`).
    pub p99: SizeFigure,
    /// For an estimated `p99`: its 99% confidence interval `[low, high]` in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p99_bounds: Option<[u64; 2]>,
    /// Size of the largest document the model allows, its bound: every field present, every
    /// length at its maximum, every array at its maximum count (exact).
    pub max: SizeFigure,
    /// Size of the largest document expected among the shape's `count` documents at full
    /// scale: the `(1 − 1/count)` quantile of the size distribution, the size one document
    /// in `count` passes ([`SizeSpread::largest_of`]). Exact in closed form, else an estimate
    /// as `p99` is. Never above `max` and never below `p99` (with 100 documents or fewer it
    /// is `p99`). JSON written before it existed reads back as zero bytes (no document is
    /// smaller than 5): views read it through [`ShapeStats::largest`], which then gives `max`.
    #[serde(default = "unknown_figure")]
    pub largest_expected: SizeFigure,
    /// For an estimated `largest_expected`: its 99% confidence interval `[low, high]` in
    /// bytes (past the simulation's reach the high end is `max`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub largest_expected_bounds: Option<[u64; 2]>,
    /// The documents over 16 MiB at full scale, when the largest is (mongod refuses them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub over_limit: Option<Exceedance>,
    /// The documents over Compass's bloated-document threshold (10,000,000 bytes), when the
    /// largest is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bloated: Option<Exceedance>,
    /// `count × average`.
    pub total_bytes: f64,
    /// Growing arrays and where they break.
    pub arrays: Vec<ArrayStats>,
}

impl ShapeStats {
    /// Returns the largest document expected ([`ShapeStats::largest_expected`]) with its
    /// bounds, or the bound `max` (without bounds) for statistics read from JSON written
    /// before that figure existed.
    pub fn largest(&self) -> (SizeFigure, Option<[u64; 2]>) {
        if self.largest_expected.bytes == 0 {
            (self.max, None)
        } else {
            (self.largest_expected, self.largest_expected_bounds)
        }
    }
}

/// Where a growing array breaks the 16 MiB limit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ArrayStats {
    /// The array's field.
    pub field: String,
    /// The relationship it holds.
    pub relationship: String,
    /// Bytes per element (value only), exact or mean.
    pub element_bytes: SizeFigure,
    /// Size of the largest document with this array empty: the size at `n` elements is
    /// `base_bytes + n·(2 + element_bytes) + Σ digits(i)` (the curve the page draws).
    pub base_bytes: SizeFigure,
    /// Elements of the largest document.
    pub max_count: u64,
    /// The first count that exceeds 16 MiB (with every other field of the largest document).
    pub break_point: Option<BreakPoint>,
    /// When the largest parent reaches it.
    pub largest_reaches: Option<BreakDate>,
    /// When a typical (median) parent reaches it.
    pub typical_reaches: Option<BreakDate>,
    /// True when the strategy caps the array.
    pub capped: bool,
}

/// Statistics of one collection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CollectionStats {
    /// Collection name.
    pub name: String,
    /// Documents at full scale.
    pub count: f64,
    /// Sum of all shapes' bytes.
    pub total_bytes: f64,
    /// True when the total is exact.
    pub total_exact: bool,
    /// Per kind of document.
    pub shapes: Vec<ShapeStats>,
}

impl CollectionStats {
    /// Returns the mean document size at full scale: `total_bytes ÷ count` (0 for an empty
    /// collection). The evaluation's returned bytes, hot bytes and the history's growth read it.
    pub fn mean_bytes(&self) -> f64 {
        if self.count > 0.0 {
            self.total_bytes / self.count
        } else {
            0.0
        }
    }
}

/// Returns the statistics of `name` among `stats` (a layout's, [`of_layout`]).
pub fn named<'a>(stats: &'a [CollectionStats], name: &str) -> Option<&'a CollectionStats> {
    stats.iter().find(|s| s.name == name)
}

/// Returns the statistics of every collection of `layout`, in layout order, with break dates
/// counted from `start`. Each collection's size simulation costs milliseconds: whoever needs
/// them computes them once and hands them down (an evaluation keeps them in its context).
pub fn of_layout(layout: &Layout, start: &str) -> Vec<CollectionStats> {
    layout
        .collections
        .iter()
        .map(|c| collection_stats(c, start))
        .collect()
}

#[cfg(test)]
thread_local! {
    /// How many collections' statistics this thread has computed: tests count them to check
    /// that nothing asks twice.
    pub(crate) static COMPUTED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Returns the statistics of `c` at full scale, with break dates counted from `start`.
pub fn collection_stats(c: &Collection, start: &str) -> CollectionStats {
    #[cfg(test)]
    COMPUTED.with(|n| n.set(n.get() + 1));
    let shapes: Vec<ShapeStats> = c.shapes.iter().map(|s| shape_stats(s, start)).collect();
    let total_bytes = shapes.iter().map(|s| s.total_bytes).sum();
    let total_exact = shapes
        .iter()
        .all(|s| s.average.exact && s.count.fract() == 0.0);
    CollectionStats {
        name: c.name.clone(),
        count: c.count(),
        total_bytes,
        total_exact,
        shapes,
    }
}

/// Returns the statistics of each relationship array of one document shape: its element and
/// base sizes, its break point and the days its largest and typical parents reach it (no size
/// simulation: constant time).
pub fn array_stats(s: &DocShape, start: &str) -> Vec<ArrayStats> {
    s.growing
        .iter()
        .map(|g| {
            let field = s.fields.get(&g.field);
            let elem = field
                .map(|f| value_size(&f.element(), At::Mean))
                .unwrap_or(Size::exact(0));
            let base = with_empty(&s.fields, &g.field);
            let base_size = document_size_of(&base, At::Quantile(1.0));
            let bp = match field {
                _ if g.capped => None,
                Some(f) if f.is_map() => map_break_point(base_size, elem, key_size(f)),
                _ => break_point(base_size, elem),
            };
            let max_count = g.count.max_count();
            let largest = bp.and_then(|b| break_date(max_count, b.count, g.growth_largest, start));
            let typical =
                bp.and_then(|b| break_date(g.count.p50(), b.count, g.growth_typical, start));
            ArrayStats {
                field: g.field.clone(),
                relationship: g.relationship.clone(),
                element_bytes: elem.into(),
                base_bytes: base_size.into(),
                max_count,
                break_point: bp,
                largest_reaches: largest,
                typical_reaches: typical,
                capped: g.capped,
            }
        })
        .collect()
}

/// Returns the size of a map's key (its key length, exact when fixed: an id's hex string).
fn key_size(map: &crate::model::Field) -> Size {
    match map.length_distribution() {
        crate::model::Distribution::Fixed { value } if value >= 0.0 && value.fract() == 0.0 => {
            Size::exact(value as u64)
        }
        d => Size {
            bytes: d.mean().max(0.0),
            exact: false,
        },
    }
}

/// Returns the statistics of one document shape.
pub fn shape_stats(s: &DocShape, start: &str) -> ShapeStats {
    let average = document_size_of(&s.fields, At::Mean);
    let arrays = array_stats(s, start);
    let spread = SizeSpread::of(&s.fields);
    let (p50, p99) = (spread.quantile(0.5), spread.quantile(0.99));
    let largest = spread.largest_of(s.count);
    let figure = |q: QuantileSize| SizeFigure {
        bytes: q.bytes,
        exact: q.exact,
    };
    ShapeStats {
        label: s.label.clone(),
        count: s.count,
        average: average.into(),
        p50: figure(p50),
        p50_bounds: p50.bounds,
        p99: figure(p99),
        p99_bounds: p99.bounds,
        max: document_size_of(&s.fields, At::Quantile(1.0)).into(),
        largest_expected: figure(largest),
        largest_expected_bounds: largest.bounds,
        over_limit: spread.over(MAX_BSON_SIZE, s.count),
        bloated: spread.over(BLOATED_BYTES, s.count),
        total_bytes: s.count * average.bytes,
        arrays,
    }
}

/// Returns `fields` with the array `name` emptied (count fixed at 0).
pub fn with_empty(fields: &Fields, name: &str) -> Fields {
    let mut out = fields.clone();
    if let Some(f) = fields.get(name) {
        let mut f = f.clone();
        f.count = Some(Distribution::fixed(0.0));
        f.presence = None;
        out.push(name, f);
    }
    out
}
