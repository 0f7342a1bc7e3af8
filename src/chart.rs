//! Chart geometry as plain numbers, so that the page only draws and the layout is tested
//! natively.

pub mod bars;
pub mod svg;

/// An axis-aligned rectangle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
}

impl Rect {
    /// Returns the area.
    pub fn area(&self) -> f64 {
        self.w * self.h
    }
}

/// Returns one rectangle per weight, in the order of `weights`, tiling `bounds` with areas
/// proportional to the weights (the squarified treemap of Bruls, Huizing and van Wijk, which
/// keeps cells close to square so that small fields stay legible). Non-positive or non-finite
/// weights get an empty rectangle.
pub fn squarify(weights: &[f64], bounds: Rect) -> Vec<Rect> {
    let mut out = vec![
        Rect {
            x: bounds.x,
            y: bounds.y,
            w: 0.0,
            h: 0.0
        };
        weights.len()
    ];
    let mut order: Vec<usize> = (0..weights.len())
        .filter(|&i| weight(weights, i).is_finite() && weight(weights, i) > 0.0)
        .collect();
    order.sort_by(|&a, &b| {
        weight(weights, b)
            .total_cmp(&weight(weights, a))
            .then(a.cmp(&b))
    });
    let total: f64 = order.iter().map(|&i| weight(weights, i)).sum();
    if total <= 0.0 || bounds.area() <= 0.0 {
        return out;
    }
    let scale = bounds.area() / total;
    let mut free = bounds;
    let mut row: Vec<usize> = Vec::new();
    let mut rest = order.as_slice();
    while let Some((&next, tail)) = rest.split_first() {
        let side = free.w.min(free.h);
        let mut candidate = row.clone();
        candidate.push(next);
        if row.is_empty()
            || worst(&candidate, weights, scale, side) <= worst(&row, weights, scale, side)
        {
            row = candidate;
            rest = tail;
        } else {
            free = lay_row(&row, weights, scale, free, &mut out);
            row.clear();
        }
    }
    if !row.is_empty() {
        lay_row(&row, weights, scale, free, &mut out);
    }
    out
}

/// Returns weight `i` (0 when out of range).
fn weight(weights: &[f64], i: usize) -> f64 {
    weights.get(i).copied().unwrap_or(0.0)
}

/// Returns the worst aspect ratio of `row` laid along a side of length `side`.
fn worst(row: &[usize], weights: &[f64], scale: f64, side: f64) -> f64 {
    let areas: Vec<f64> = row.iter().map(|&i| weight(weights, i) * scale).collect();
    let sum: f64 = areas.iter().sum();
    let (min, max) = areas
        .iter()
        .fold((f64::MAX, 0.0f64), |(lo, hi), &a| (lo.min(a), hi.max(a)));
    let s2 = side * side;
    let sum2 = sum * sum;
    (s2 * max / sum2).max(sum2 / (s2 * min))
}

/// Places `row` along the shorter side of `free` and returns the space left.
fn lay_row(row: &[usize], weights: &[f64], scale: f64, free: Rect, out: &mut [Rect]) -> Rect {
    let sum: f64 = row.iter().map(|&i| weight(weights, i) * scale).sum();
    if free.w >= free.h {
        // Column on the left.
        let width = if free.h > 0.0 { sum / free.h } else { 0.0 };
        let mut y = free.y;
        for &i in row {
            let h = if width > 0.0 {
                weight(weights, i) * scale / width
            } else {
                0.0
            };
            if let Some(slot) = out.get_mut(i) {
                *slot = Rect {
                    x: free.x,
                    y,
                    w: width,
                    h,
                };
            }
            y += h;
        }
        Rect {
            x: free.x + width,
            y: free.y,
            w: (free.w - width).max(0.0),
            h: free.h,
        }
    } else {
        // Row on top.
        let height = if free.w > 0.0 { sum / free.w } else { 0.0 };
        let mut x = free.x;
        for &i in row {
            let w = if height > 0.0 {
                weight(weights, i) * scale / height
            } else {
                0.0
            };
            if let Some(slot) = out.get_mut(i) {
                *slot = Rect {
                    x,
                    y: free.y,
                    w,
                    h: height,
                };
            }
            x += w;
        }
        Rect {
            x: free.x,
            y: free.y + height,
            w: free.w,
            h: (free.h - height).max(0.0),
        }
    }
}

/// The curve of a document's size as one of its arrays grows, with the 16 MiB line: the
/// picture of a break point.
#[derive(Debug, Clone, PartialEq)]
pub struct GrowthCurve {
    /// Largest element count on the x axis.
    pub x_max: f64,
    /// Largest size on the y axis, in bytes.
    pub y_max: f64,
    /// `(count, bytes)` samples of the curve from 0 to `x_max`, in order.
    pub points: Vec<(f64, f64)>,
}

impl GrowthCurve {
    /// Returns the curve of `base + n·(2 + elem) + Σ digits(i)` (see `arith::array_size`)
    /// over a range that keeps the break point `break_at` (the first count over the limit) in
    /// view: up to 1.6 times the break point, or 1.2 times `largest` (the biggest document's
    /// count) when that is smaller. A `largest` beyond the range is drawn off the chart.
    pub fn new(base: f64, elem: f64, largest: f64, break_at: Option<f64>, limit: f64) -> Self {
        let reach = match break_at {
            Some(b) if largest * 1.2 > b * 1.6 => b * 1.6,
            Some(b) => (largest * 1.2).max(b * 1.2),
            None => largest * 1.2,
        };
        let x_max = reach.max(1.0).ceil();
        // `n` is a whole, non-negative count (the samples are floored).
        let size =
            |n: f64| base + n * (2.0 + elem) + crate::arith::index_digits_sum(n as u64) as f64;
        const SAMPLES: usize = 96;
        let points: Vec<(f64, f64)> = (0..=SAMPLES)
            .map(|i| {
                let n = (x_max * i as f64 / SAMPLES as f64).floor();
                (n, size(n))
            })
            .collect();
        let y_top = points.last().map(|p| p.1).unwrap_or(0.0);
        GrowthCurve {
            x_max,
            y_max: y_top.max(limit) * 1.08,
            points,
        }
    }

    /// Returns the x pixel of `count` in a plot `width` wide.
    pub fn x(&self, count: f64, width: f64) -> f64 {
        if self.x_max > 0.0 {
            count / self.x_max * width
        } else {
            0.0
        }
    }

    /// Returns the y pixel of `bytes` in a plot `height` tall (0 at the top).
    pub fn y(&self, bytes: f64, height: f64) -> f64 {
        if self.y_max > 0.0 {
            height - bytes / self.y_max * height
        } else {
            height
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_curve_follows_the_exact_size_and_spans_the_break_point() {
        // The wil document: 123 bytes with no followers, 12-byte ObjectIds, breaks at 844,411.
        let c = GrowthCurve::new(123.0, 12.0, 50_000.0, Some(844_411.0), 16_777_216.0);
        assert!(c.x_max >= 844_411.0);
        // A celebrity far past the break point does not squash the picture.
        let far = GrowthCurve::new(123.0, 12.0, 40e6, Some(844_411.0), 16_777_216.0);
        assert_eq!(far.x_max, (844_411.0f64 * 1.6).ceil());
        for &(n, bytes) in &c.points {
            let exact = crate::arith::array_size(n as u64, 12) + 123 - 5;
            assert_eq!(bytes, exact as f64, "at {n}");
        }
        assert!(c.y_max > 16_777_216.0);
        assert_eq!(c.x(0.0, 500.0), 0.0);
        assert_eq!(c.y(0.0, 200.0), 200.0);
        assert!(c
            .points
            .windows(2)
            .all(|w| w[0].0 <= w[1].0 && w[0].1 <= w[1].1));
    }

    const BOX: Rect = Rect {
        x: 0.0,
        y: 0.0,
        w: 600.0,
        h: 400.0,
    };

    #[test]
    fn areas_are_proportional_and_tile_the_box() {
        let weights = [6.0, 6.0, 4.0, 3.0, 2.0, 2.0, 1.0];
        let rects = squarify(&weights, BOX);
        let total: f64 = weights.iter().sum();
        for (w, r) in weights.iter().zip(&rects) {
            let expected = w / total * BOX.area();
            assert!((r.area() - expected).abs() < 1e-6, "{r:?} vs {expected}");
            assert!(r.x >= -1e-9 && r.y >= -1e-9);
            assert!(r.x + r.w <= BOX.w + 1e-6 && r.y + r.h <= BOX.h + 1e-6);
        }
        let covered: f64 = rects.iter().map(Rect::area).sum();
        assert!((covered - BOX.area()).abs() < 1e-6);
        // No two cells overlap.
        for (i, a) in rects.iter().enumerate() {
            for b in &rects[i + 1..] {
                let ox = (a.x + a.w).min(b.x + b.w) - a.x.max(b.x);
                let oy = (a.y + a.h).min(b.y + b.h) - a.y.max(b.y);
                assert!(ox <= 1e-6 || oy <= 1e-6, "{a:?} overlaps {b:?}");
            }
        }
    }

    #[test]
    fn zero_and_invalid_weights_get_empty_cells() {
        let rects = squarify(&[0.0, 5.0, f64::NAN, -1.0], BOX);
        assert_eq!(rects[0].area(), 0.0);
        assert!((rects[1].area() - BOX.area()).abs() < 1e-6);
        assert_eq!(rects[2].area(), 0.0);
        assert_eq!(rects[3].area(), 0.0);
        assert!(squarify(&[], BOX).is_empty());
    }
}
