//! Fitting a model distribution to what a [`Sketch`] saw: `fixed` when every value was the
//! same, else `uniform`, `normal` (clamped to the observed range), `lognormal` or `zipf`, whichever
//! reproduces the observed mean, median and p99 best (the mean first: it is what document
//! sizes add up); on a tie the simpler shape, in that order.

use serde::Serialize;

use super::sketch::Sketch;
use crate::model::Distribution;

/// What was observed of a length or a count, kept in the report beside the fitted shape.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Observed {
    /// Values observed.
    pub values: u64,
    /// The smallest.
    pub min: u64,
    /// The median.
    pub median: u64,
    /// The 99th percentile.
    pub p99: u64,
    /// The largest.
    pub max: u64,
    /// The exact mean.
    pub mean: f64,
    /// The 10th, 20th … 90th percentiles: the shape between the median and the tails, which
    /// tells a bell from a flat spread or a skew (used to choose the fit, not reported).
    #[serde(skip)]
    pub deciles: [u64; 9],
}

impl Observed {
    /// Returns the summary of a sketch.
    pub fn of(s: &Sketch) -> Self {
        Observed {
            values: s.count(),
            min: s.min(),
            median: s.quantile(0.5),
            p99: s.quantile(0.99),
            max: s.max(),
            mean: s.mean(),
            deciles: std::array::from_fn(|i| s.quantile((i + 1) as f64 / 10.0)),
        }
    }
}

/// The 99th percentile of the standard normal: a normal's p99 lies this many standard
/// deviations above its median.
const Z99: f64 = 2.326_347_874_040_841;

/// The fewest values whose deciles tell a bell from a flat spread: below it a normal is not
/// tried and the deciles are not compared (20 uniform lengths can have their median anywhere in
/// the middle third), so the range and the tail decide.
const MIN_SHAPED: u64 = 100;

/// What a normal must fit better than a uniform or a lognormal by to be chosen: it has more
/// parameters (mean, spread and both clamps) and is drawn through the median and a spread,
/// so on a flat spread whose sample median and mean wander a few percent (1,000 counts of
/// 3 to 24 with a mean of 13.9 for 13.5) it would fit the noise; a bell clearly apart from a
/// flat spread (120 ± 40 in 1 to 280: a uniform's mean 17% high) wins by far more.
const NORMAL_PENALTY: f64 = 0.1;

/// The 90th percentile of the standard normal.
const Z90: f64 = 1.281_551_565_544_600_9;

/// Returns the distribution of shape `fixed`, `uniform`, `normal`, `lognormal` or `zipf` that
/// fits `o` best.
pub fn fit(o: &Observed) -> Distribution {
    if o.min == o.max {
        return Distribution::fixed(o.min as f64);
    }
    let uniform = Distribution::Uniform {
        min: o.min as f64,
        max: o.max as f64,
    };
    let mut best = (misfit(&uniform, o), uniform);
    let mut consider = |d: Distribution| {
        let penalty = if matches!(d, Distribution::Normal { .. }) {
            NORMAL_PENALTY
        } else {
            0.0
        };
        let m = misfit(&d, o) + penalty;
        if m < best.0 {
            best = (m, d);
        }
    };
    // Centred on the median, clamped to what was seen, its spread from the p99 or from the
    // 10th to 90th percentiles (whichever fits): a bell-shaped length (a post's 120 ± 40
    // characters) that a uniform over the observed range would put too long, and a lognormal
    // too skewed.
    let [p10, .., p90] = o.deciles;
    let shaped = o.values >= MIN_SHAPED;
    for sd in [
        o.p99.saturating_sub(o.median) as f64 / Z99,
        p90.saturating_sub(p10) as f64 / (2.0 * Z90),
    ] {
        if shaped && sd > 0.0 {
            consider(Distribution::Normal {
                mean: o.median as f64,
                sd,
                min: o.min as f64,
                max: o.max as f64,
            });
        }
    }
    if o.median > 0 && o.median <= o.p99 {
        consider(Distribution::Lognormal {
            typical: o.median as f64,
            p99: o.p99 as f64,
            max: o.max as f64,
        });
    }
    // A heavy tail (followers per user: median 100, p99 10,000, largest 1,000,000) whose mean
    // a lognormal through the same median, p99 and largest puts 40% low: the model's zipf,
    // clamped at the smallest seen.
    if o.median > 0 && o.median < o.p99 && o.p99 < o.max {
        consider(Distribution::Zipf {
            min: o.min as f64,
            typical: o.median as f64,
            p99: o.p99 as f64,
            max: o.max as f64,
        });
    }
    // At least half the values from the median to the p99 are one value (a tree's fan-out of
    // 8 with one node of 7): a uniform between the ends would halve its median.
    if o.median == o.p99 {
        consider(Distribution::fixed(o.median as f64));
    }
    best.1
}

/// Returns how far `d` is from `o`: relative errors of the mean (weighted double), the
/// median, the p99 and the minimum, plus the mean relative error of the deciles (so that a
/// shape with three parameters cannot win on the three quantiles it was drawn through). The
/// minimum's error is relative to the median: a lognormal's 0 for a smallest count of 2 among
/// counts of 30 is off by 7%, not by 100%, or a normal clamped at 2 would win with a mean 10%
/// too high.
fn misfit(d: &Distribution, o: &Observed) -> f64 {
    let rel = |a: f64, b: f64| (a - b).abs() / b.abs().max(1.0);
    let min_off = (d.min() - o.min as f64).abs() / (o.median.max(o.min).max(1) as f64);
    let at = |q: f64| d.quantile(q).clamp(d.min(), d.max());
    let deciles = o
        .deciles
        .iter()
        .enumerate()
        .map(|(i, &v)| rel(at((i + 1) as f64 / 10.0), v as f64))
        .sum::<f64>()
        / o.deciles.len() as f64;
    let deciles = if o.values >= MIN_SHAPED { deciles } else { 0.0 };
    2.0 * rel(d.mean(), o.mean)
        + rel(at(0.5), o.median as f64)
        + rel(at(0.99), o.p99 as f64)
        + min_off
        + deciles
}

#[cfg(test)]
mod tests {
    use super::*;

    fn observed(values: impl IntoIterator<Item = u64>) -> Observed {
        let mut s = Sketch::default();
        values.into_iter().for_each(|v| s.add(v));
        Observed::of(&s)
    }

    #[test]
    fn constant_values_are_fixed() {
        assert_eq!(fit(&observed([11, 11, 11])), Distribution::fixed(11.0));
    }

    #[test]
    fn evenly_spread_values_are_uniform() {
        let d = fit(&observed((0..1000).map(|i| 8 + i % 13)));
        assert_eq!(
            d,
            Distribution::Uniform {
                min: 8.0,
                max: 20.0
            }
        );
    }

    #[test]
    fn a_long_tail_is_not_uniform() {
        // Mostly short, a few very long: a uniform fit would put the mean far too high (a
        // lognormal, or a normal clamped to the range seen, follows the body).
        let d = fit(&observed((0..1000).map(|i| {
            if i % 100 == 0 {
                5000
            } else {
                40 + i % 20
            }
        })));
        assert!(!matches!(d, Distribution::Uniform { .. }), "{d:?}");
        assert!(d.mean() < 100.0, "{d:?}");
    }

    /// A deterministic stream of draws in [0, 1).
    fn draws(n: usize) -> impl Iterator<Item = f64> {
        let mut x: u64 = 18;
        (0..n).map(move |_| {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (x >> 11) as f64 / (1u64 << 53) as f64
        })
    }

    #[test]
    fn a_bell_is_normal_with_its_mean() {
        // A post's length: 120 ± 40 characters, clamped to 1..=280. A uniform over 1..=280
        // would put the mean near 140.
        let d = fit(&observed(draws(2000).map(|q| {
            let z = crate::model::Distribution::Normal {
                mean: 120.0,
                sd: 40.0,
                min: 1.0,
                max: 280.0,
            }
            .quantile(q.max(1e-9));
            z.round().clamp(1.0, 280.0) as u64
        })));
        assert!(matches!(d, Distribution::Normal { .. }), "{d:?}");
        assert!((d.mean() - 120.0).abs() < 3.0, "{d:?}");
    }

    #[test]
    fn a_skewed_count_with_a_positive_minimum_is_lognormal_with_its_mean() {
        // Links per product at evenly spaced quantiles of a lognormal (median 30, p99 200,
        // largest 1,000): the smallest is 2, which a normal clamped there matches exactly,
        // but only the lognormal keeps the mean (41.8).
        let d = Distribution::Lognormal {
            typical: 30.0,
            p99: 200.0,
            max: 1000.0,
        };
        let o = observed((0..1000).map(|k| d.quantile((k as f64 + 0.5) / 1000.0).round() as u64));
        assert!(o.min >= 2, "{o:?}");
        let got = fit(&o);
        assert!(matches!(got, Distribution::Lognormal { .. }), "{got:?}");
        assert!((got.mean() - d.mean()).abs() < 0.03 * d.mean(), "{got:?}");
    }

    #[test]
    fn a_fan_out_with_one_short_node_is_fixed() {
        // A tree's 125 inner nodes of fan-out 8, the last one filled with 7.
        let d = fit(&observed((0..125).map(|i| if i == 124 { 7 } else { 8 })));
        assert_eq!(d, Distribution::fixed(8.0));
    }

    #[test]
    fn a_few_flat_values_stay_uniform() {
        // 20 lengths of 3 to 15: too few to tell a bell from a flat spread.
        let d = fit(&observed(draws(20).map(|q| 3 + (q * 13.0) as u64)));
        assert!(matches!(d, Distribution::Uniform { .. }), "{d:?}");
    }

    #[test]
    fn a_flat_spread_with_a_wandering_mean_stays_uniform() {
        // Counts of 3 to 24 whose sample median is 14 and mean 13.9 (13.5 in truth): the
        // normal through them fits the noise by less than its penalty.
        let d = fit(&observed(
            draws(1000).map(|q| (3.0 + q * 21.0 + 0.4 * q).round() as u64),
        ));
        assert!(matches!(d, Distribution::Uniform { .. }), "{d:?}");
    }
}
