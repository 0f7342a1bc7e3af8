//! Fitting a model distribution to what a [`Sketch`] saw: `fixed` when every value was the
//! same, else `uniform` or `lognormal`, whichever reproduces the observed mean, median and
//! p99 best (the mean first: it is what document sizes add up).

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
        }
    }
}

/// Returns the distribution of shape `fixed`, `uniform` or `lognormal` that fits `o` best.
pub fn fit(o: &Observed) -> Distribution {
    if o.min == o.max {
        return Distribution::fixed(o.min as f64);
    }
    let uniform = Distribution::Uniform {
        min: o.min as f64,
        max: o.max as f64,
    };
    if o.median == 0 || o.median > o.p99 {
        return uniform;
    }
    let lognormal = Distribution::Lognormal {
        typical: o.median as f64,
        p99: o.p99 as f64,
        max: o.max as f64,
    };
    if misfit(&lognormal, o) < misfit(&uniform, o) {
        lognormal
    } else {
        uniform
    }
}

/// Returns how far `d` is from `o`: relative errors of the mean (weighted double), the
/// median, the p99 and the minimum.
fn misfit(d: &Distribution, o: &Observed) -> f64 {
    let rel = |a: f64, b: f64| (a - b).abs() / b.abs().max(1.0);
    2.0 * rel(d.mean(), o.mean)
        + rel(d.quantile(0.5), o.median as f64)
        + rel(d.quantile(0.99), o.p99 as f64)
        + rel(d.min(), o.min as f64)
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
    fn a_long_tail_is_lognormal() {
        // Mostly short, a few very long: a uniform fit would put the mean far too high.
        let d = fit(&observed((0..1000).map(|i| {
            if i % 100 == 0 {
                5000
            } else {
                40 + i % 20
            }
        })));
        assert!(matches!(d, Distribution::Lognormal { .. }), "{d:?}");
    }
}
