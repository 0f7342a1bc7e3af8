//! Per-collection statistics at full scale: document count, sizes at the mean, median, p99 and
//! maximum of the cardinality distributions, total bytes, and the break point of every growing
//! array. Constant time in the number of documents.

use serde::{Deserialize, Serialize};

use super::{
    break_date, break_point, document_size_of, value_size, At, BreakDate, BreakPoint, Size,
};
use crate::design::{Collection, DocShape};
use crate::model::distribution::Distribution;
use crate::model::field::Fields;

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

/// Statistics of one kind of document in a collection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShapeStats {
    /// The shape's label.
    pub label: String,
    /// Documents at full scale.
    pub count: f64,
    /// Mean document size.
    pub average: SizeFigure,
    /// Size of the median document (every array at its median count).
    pub p50: SizeFigure,
    /// Size at the 99th percentile.
    pub p99: SizeFigure,
    /// Size of the largest document (every array at its maximum).
    pub max: SizeFigure,
    /// `count × average`.
    pub total_bytes: f64,
    /// Growing arrays and where they break.
    pub arrays: Vec<ArrayStats>,
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

/// Returns the statistics of `c` at full scale, with break dates counted from `start`.
pub fn collection_stats(c: &Collection, start: &str) -> CollectionStats {
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

/// Returns the statistics of one document shape.
pub fn shape_stats(s: &DocShape, start: &str) -> ShapeStats {
    let average = document_size_of(&s.fields, At::Mean);
    let arrays = s
        .growing
        .iter()
        .map(|g| {
            let elem = s
                .fields
                .get(&g.field)
                .map(|f| value_size(&f.element(), At::Mean))
                .unwrap_or(Size::exact(0));
            let base = with_empty(&s.fields, &g.field);
            let base_size = document_size_of(&base, At::Quantile(1.0));
            let bp = if g.capped {
                None
            } else {
                break_point(base_size, elem)
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
        .collect();
    ShapeStats {
        label: s.label.clone(),
        count: s.count,
        average: average.into(),
        p50: document_size_of(&s.fields, At::Quantile(0.5)).into(),
        p99: document_size_of(&s.fields, At::Quantile(0.99)).into(),
        max: document_size_of(&s.fields, At::Quantile(1.0)).into(),
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
