//! Chart geometry as plain numbers, so that the page only draws and the layout is tested
//! natively.

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

/// A base-10 logarithmic scale over whole decades, for values that span orders of magnitude
/// (one operation reads 1 document, another scans a million). Zero has no logarithm: it is
/// drawn at the axis (length 0) and labelled with its value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LogScale {
    /// Exponent of the lowest decade (the axis).
    pub lo: i32,
    /// Exponent of the highest decade.
    pub hi: i32,
}

impl LogScale {
    /// Returns the decades enclosing the positive, finite `values`, from at most 1 (so a value
    /// of 1 still gets a visible bar) to at least 10.
    pub fn new(values: &[f64]) -> LogScale {
        let positive = values.iter().copied().filter(|v| v.is_finite() && *v > 0.0);
        let (min, max) = positive.fold((1.0f64, 10.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
        let lo = min.log10().floor() as i32;
        let hi = (max.log10().ceil() as i32).max(lo + 1);
        LogScale { lo, hi }
    }

    /// Returns the length of `value` on an axis `len` long: 0 for zero, negative or invalid
    /// values; the lowest decade sits 5% above the axis so that its bars (one round trip)
    /// stay visible; values below it are clamped to it.
    pub fn length(&self, value: f64, len: f64) -> f64 {
        if !(value.is_finite() && value > 0.0) {
            return 0.0;
        }
        let span = f64::from(self.hi - self.lo);
        let f = ((value.log10() - f64::from(self.lo)) / span).clamp(0.0, 1.0);
        (0.05 + 0.95 * f) * len
    }

    /// Returns the decade ticks, lowest first: 1, 10, 100, …
    pub fn ticks(&self) -> Vec<f64> {
        (self.lo..=self.hi).map(|e| 10f64.powi(e)).collect()
    }
}

/// Returns linear ticks from 0 to a "nice" top of 1, 2 or 5 × 10ⁿ at or above `max`, with
/// between 3 and 6 steps; the last tick is the axis top.
pub fn linear_ticks(max: f64) -> Vec<f64> {
    let max = if max.is_finite() && max > 0.0 {
        max
    } else {
        1.0
    };
    let raw = max / 4.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| s * 4.0 >= max || s * 5.0 >= max)
        .unwrap_or(mag * 10.0);
    let steps = (max / step).ceil().max(1.0) as usize;
    (0..=steps).map(|i| step * i as f64).collect()
}

/// Returns the `(x, width)` of each bar of `bars` grouped bars in each of `groups` groups laid
/// side by side over `width`: groups share the width evenly, bars fill 80% of their group
/// with no gaps between them. Outer is the group, inner the bar.
pub fn grouped_bars(groups: usize, bars: usize, width: f64) -> Vec<Vec<(f64, f64)>> {
    if groups == 0 || bars == 0 {
        return vec![Vec::new(); groups];
    }
    let band = width / groups as f64;
    let bar = band * 0.8 / bars as f64;
    (0..groups)
        .map(|g| {
            let start = band * g as f64 + band * 0.1;
            (0..bars).map(|b| (start + bar * b as f64, bar)).collect()
        })
        .collect()
}

/// Returns the `(start, length)` of each segment of a stacked bar of `values` on a linear axis
/// whose top is `top`, over `len`: segments follow each other from 0, invalid or negative
/// values get length 0.
pub fn stack(values: &[f64], top: f64, len: f64) -> Vec<(f64, f64)> {
    let mut at = 0.0;
    values
        .iter()
        .map(|&v| {
            let l = if v.is_finite() && v > 0.0 && top > 0.0 {
                v / top * len
            } else {
                0.0
            };
            let seg = (at, l);
            at += l;
            seg
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_scale_spans_whole_decades_and_draws_zero_at_the_axis() {
        let s = LogScale::new(&[0.0, 1.0, 37.0, 1_200_000.0]);
        assert_eq!(s, LogScale { lo: 0, hi: 7 });
        assert_eq!(s.ticks().len(), 8);
        assert_eq!(s.ticks()[0], 1.0);
        assert_eq!(s.ticks()[7], 1e7);
        assert_eq!(s.length(0.0, 700.0), 0.0);
        assert_eq!(s.length(f64::NAN, 700.0), 0.0);
        assert!((s.length(1.0, 700.0) - 35.0).abs() < 1e-9);
        assert!((s.length(1000.0, 700.0) - (35.0 + 665.0 * 3.0 / 7.0)).abs() < 1e-9);
        assert!((s.length(1e7, 700.0) - 700.0).abs() < 1e-9);
        // Fractions (0.5 docs per run) get their own decade; nothing is drawn below the axis.
        let f = LogScale::new(&[0.5, 3.0]);
        assert_eq!(f, LogScale { lo: -1, hi: 1 });
        assert!((f.length(0.001, 100.0) - 5.0).abs() < 1e-9);
        // No data: one decade, 1 to 10.
        assert_eq!(LogScale::new(&[]), LogScale { lo: 0, hi: 1 });
    }

    #[test]
    fn linear_ticks_end_at_a_nice_top_above_the_maximum() {
        for max in [1.0, 7.0, 93.0, 1234.0, 3.3e9, 0.0, f64::NAN] {
            let t = linear_ticks(max);
            assert_eq!(t[0], 0.0);
            assert!((3..=7).contains(&t.len()), "{max}: {t:?}");
            let top = *t.last().unwrap();
            assert!(!max.is_finite() || top >= max, "{max}: {t:?}");
            assert!(t.windows(2).all(|w| w[1] > w[0]));
        }
        assert_eq!(linear_ticks(93.0), vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0]);
    }

    #[test]
    fn grouped_bars_sit_inside_their_group_without_overlap() {
        let g = grouped_bars(3, 4, 600.0);
        assert_eq!(g.len(), 3);
        for (i, bars) in g.iter().enumerate() {
            assert_eq!(bars.len(), 4);
            let lo = 200.0 * i as f64;
            assert!(bars
                .iter()
                .all(|&(x, w)| x >= lo && x + w <= lo + 200.0 + 1e-9));
            assert!(bars.windows(2).all(|w| w[0].0 + w[0].1 <= w[1].0 + 1e-9));
        }
        assert!(grouped_bars(2, 0, 100.0).iter().all(Vec::is_empty));
        assert!(grouped_bars(0, 3, 100.0).is_empty());
    }

    #[test]
    fn stacked_segments_follow_each_other_in_proportion() {
        let s = stack(&[30.0, 10.0, -1.0, 60.0], 200.0, 400.0);
        assert_eq!(
            s,
            vec![(0.0, 60.0), (60.0, 20.0), (80.0, 0.0), (80.0, 120.0)]
        );
    }

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
