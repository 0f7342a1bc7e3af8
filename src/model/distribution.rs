//! Cardinality and length distributions: how many children a parent has, how long a string is.
//!
//! A distribution is described by the numbers an architect knows (typical, p99, max) rather
//! than by fitted parameters, and answers quantile questions in constant time so that full-scale
//! arithmetic never loops over parents.
//!
//! Logarithms, exponentials and powers go through the `libm` crate rather than `f64::ln` and
//! friends: those call the platform's C library natively and Rust's own port in WebAssembly,
//! which round the last bit differently, and the page must show the very numbers the command
//! line prints.
//!
//! It stays one file: the distributions and the numerics only they use (quadrature, the normal
//! CDF and its inverse, the remainders), a quarter of it their tests.

use serde::{Deserialize, Serialize};

/// A distribution of non-negative counts (children per parent, string lengths, array sizes).
///
/// Every shape has a hard `max`: the largest parent is assumed to exist and to have exactly
/// `max` children, so the tail that breaks documents is never averaged away.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(tag = "shape", rename_all = "snake_case", deny_unknown_fields)]
pub enum Distribution {
    /// Every parent has exactly `value`.
    Fixed {
        /// The one count.
        #[cfg_attr(not(target_arch = "wasm32"), schemars(range(min = 0, max = super::MAX_COUNT)))]
        value: f64,
    },
    /// Integers spread evenly over `min..=max`.
    Uniform {
        /// Smallest count.
        #[cfg_attr(not(target_arch = "wasm32"), schemars(range(min = 0, max = super::MAX_COUNT)))]
        min: f64,
        /// Largest count.
        #[cfg_attr(not(target_arch = "wasm32"), schemars(range(min = 0, max = super::MAX_COUNT)))]
        max: f64,
    },
    /// A normal distribution, clamped to `min..=max`.
    Normal {
        /// Mean before clamping.
        #[cfg_attr(not(target_arch = "wasm32"), schemars(range(min = -super::MAX_COUNT, max = super::MAX_COUNT)))]
        mean: f64,
        /// Standard deviation before clamping.
        #[cfg_attr(not(target_arch = "wasm32"), schemars(range(min = 0, max = super::MAX_COUNT)))]
        sd: f64,
        /// Lower clamp.
        #[cfg_attr(not(target_arch = "wasm32"), schemars(range(min = 0, max = super::MAX_COUNT)))]
        min: f64,
        /// Upper clamp.
        #[cfg_attr(not(target_arch = "wasm32"), schemars(range(min = 0, max = super::MAX_COUNT)))]
        max: f64,
    },
    /// A heavy-tailed (Pareto/Zipf-like) shape through its median (`typical`) and `p99`,
    /// clamped to `min..=max`: most users have a few followers, a celebrity has millions.
    Zipf {
        /// Lower clamp.
        #[cfg_attr(not(target_arch = "wasm32"), schemars(range(min = 0, max = super::MAX_COUNT)))]
        min: f64,
        /// The median.
        #[cfg_attr(not(target_arch = "wasm32"), schemars(range(max = super::MAX_COUNT), extend("exclusiveMinimum" = 0)))]
        typical: f64,
        /// The 99th percentile.
        #[cfg_attr(not(target_arch = "wasm32"), schemars(range(min = 0, max = super::MAX_COUNT)))]
        p99: f64,
        /// The largest parent's count.
        #[cfg_attr(not(target_arch = "wasm32"), schemars(range(min = 0, max = super::MAX_COUNT)))]
        max: f64,
    },
    /// A log-normal shape through its median (`typical`) and `p99`, clamped to `0..=max`.
    Lognormal {
        /// The median.
        #[cfg_attr(not(target_arch = "wasm32"), schemars(range(max = super::MAX_COUNT), extend("exclusiveMinimum" = 0)))]
        typical: f64,
        /// The 99th percentile.
        #[cfg_attr(not(target_arch = "wasm32"), schemars(range(min = 0, max = super::MAX_COUNT)))]
        p99: f64,
        /// The largest parent's count.
        #[cfg_attr(not(target_arch = "wasm32"), schemars(range(min = 0, max = super::MAX_COUNT)))]
        max: f64,
    },
    /// `min(of, cap)`: the children a parent keeps when at most `cap` fit (layouts only).
    #[serde(skip_deserializing)]
    #[cfg_attr(not(target_arch = "wasm32"), schemars(skip))]
    Capped {
        /// The uncapped distribution.
        of: Box<Distribution>,
        /// The cap.
        cap: f64,
    },
    /// `ceil(of / size) − less`, at least 0: bucket documents per parent (`less` 0) or
    /// continuation documents per parent (`less` 1) (layouts only).
    #[cfg_attr(not(target_arch = "wasm32"), schemars(skip))]
    Chunks {
        /// The distribution of children.
        of: Box<Distribution>,
        /// Children per document.
        size: f64,
        /// Documents not counted (1 for the parent document itself).
        less: f64,
    },
    /// The payload of the last chunk of a value whose length follows `of`, cut into chunks of
    /// `size` bytes (GridFS): `x − size·(⌈x / size⌉ − 1)`, over the values of at least one
    /// byte (an empty value has no chunk) (layouts only).
    #[serde(skip_deserializing)]
    #[cfg_attr(not(target_arch = "wasm32"), schemars(skip))]
    Remainder {
        /// The distribution of the whole value's length.
        of: Box<Distribution>,
        /// Bytes per chunk.
        size: f64,
    },
}

/// The shape of a distribution as a model writes it (`shape`): [`Shape::ALL`] is the one list
/// of shapes that validation, the editor's forms and the docs read. (`capped` and `chunks` are
/// layout-only and never written.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Shape {
    /// [`Distribution::Fixed`].
    Fixed,
    /// [`Distribution::Uniform`].
    Uniform,
    /// [`Distribution::Normal`].
    Normal,
    /// [`Distribution::Zipf`].
    Zipf,
    /// [`Distribution::Lognormal`].
    Lognormal,
}

impl Shape {
    /// Every shape a model may use, in the order the forms offer them.
    pub const ALL: [Shape; 5] = [
        Shape::Fixed,
        Shape::Uniform,
        Shape::Normal,
        Shape::Zipf,
        Shape::Lognormal,
    ];

    /// Returns the name as written in a model.
    pub fn name(self) -> &'static str {
        match self {
            Shape::Fixed => "fixed",
            Shape::Uniform => "uniform",
            Shape::Normal => "normal",
            Shape::Zipf => "zipf",
            Shape::Lognormal => "lognormal",
        }
    }

    /// Returns the shape called `name`, if there is one.
    pub fn from_name(name: &str) -> Option<Shape> {
        Shape::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Returns the number keys a distribution of this shape takes (all required), in the
    /// order the forms show them.
    pub fn keys(self) -> &'static [&'static str] {
        match self {
            Shape::Fixed => &["value"],
            Shape::Uniform => &["min", "max"],
            Shape::Normal => &["mean", "sd", "min", "max"],
            Shape::Zipf => &["min", "typical", "p99", "max"],
            Shape::Lognormal => &["typical", "p99", "max"],
        }
    }
}

/// z such that Φ(z) = 0.99.
const Z99: f64 = 2.326_347_874_040_841;

impl Distribution {
    /// Returns a distribution that always yields `value`.
    pub fn fixed(value: f64) -> Self {
        Distribution::Fixed { value }
    }

    /// Returns the smallest value the distribution can produce.
    pub fn min(&self) -> f64 {
        match *self {
            Distribution::Fixed { value } => value,
            Distribution::Uniform { min, .. }
            | Distribution::Normal { min, .. }
            | Distribution::Zipf { min, .. } => min,
            Distribution::Lognormal { .. } => 0.0,
            Distribution::Capped { .. } | Distribution::Chunks { .. } => self.map(self.inner_min()),
            Distribution::Remainder { ref of, size } => {
                let (lo, hi) = remainder_range(of);
                if hi < 1 {
                    0.0
                } else if spans_a_chunk_end(lo, hi, size) {
                    1.0
                } else {
                    remainder(lo as f64, size)
                }
            }
        }
    }

    /// Returns the largest value the distribution can produce (the largest parent).
    pub fn max(&self) -> f64 {
        match *self {
            Distribution::Fixed { value } => value,
            Distribution::Uniform { max, .. }
            | Distribution::Normal { max, .. }
            | Distribution::Zipf { max, .. }
            | Distribution::Lognormal { max, .. } => max,
            Distribution::Capped { ref of, .. } | Distribution::Chunks { ref of, .. } => {
                self.map(of.max())
            }
            Distribution::Remainder { ref of, size } => {
                let (lo, hi) = remainder_range(of);
                if spans_a_chunk_end(lo, hi, size) {
                    size.floor()
                } else {
                    remainder(hi as f64, size)
                }
            }
        }
    }

    fn inner_min(&self) -> f64 {
        match self {
            Distribution::Capped { of, .. } | Distribution::Chunks { of, .. } => of.min(),
            _ => self.min(),
        }
    }

    /// Applies a derived distribution's monotone transform to a value of its inner one.
    fn map(&self, x: f64) -> f64 {
        match *self {
            Distribution::Capped { cap, .. } => x.min(cap),
            Distribution::Chunks { size, less, .. } => {
                if size <= 0.0 {
                    0.0
                } else {
                    ((x.round() / size).ceil() - less).max(0.0)
                }
            }
            _ => x,
        }
    }

    /// Returns true when every draw yields the same value.
    pub fn is_constant(&self) -> bool {
        self.min() == self.max()
    }

    /// Returns the value at quantile `q` (0..=1), unrounded. `quantile(1.0)` is `max`.
    pub fn quantile(&self, q: f64) -> f64 {
        let q = if q.is_nan() { 0.5 } else { q.clamp(0.0, 1.0) };
        if q >= 1.0 {
            return self.max();
        }
        let v = match *self {
            Distribution::Fixed { value } => value,
            Distribution::Uniform { min, max } => min + q * (max - min),
            Distribution::Normal { mean, sd, .. } => mean + sd * inverse_normal(q),
            Distribution::Zipf { typical, p99, .. } => {
                if p99 <= typical || typical <= 0.0 {
                    typical
                } else {
                    // Pareto through (0.5, typical) and (0.99, p99): x = t·(0.5/(1−q))^(1/α).
                    let alpha = libm::log(50.0) / libm::log(p99 / typical);
                    typical * libm::pow(0.5 / (1.0 - q), 1.0 / alpha)
                }
            }
            Distribution::Lognormal { typical, p99, .. } => {
                if p99 <= typical || typical <= 0.0 {
                    typical
                } else {
                    let sigma = libm::log(p99 / typical) / Z99;
                    libm::exp(libm::log(typical) + sigma * inverse_normal(q))
                }
            }
            Distribution::Capped { ref of, .. } | Distribution::Chunks { ref of, .. } => {
                return self.map(of.quantile(q));
            }
            Distribution::Remainder { ref of, size } => remainder_quantile(of, size, q),
        };
        v.clamp(self.min(), self.max())
    }

    /// Returns the count at quantile `q`, rounded to the nearest integer.
    pub fn count_at(&self, q: f64) -> u64 {
        round_count(self.quantile(q))
    }

    /// Returns the median count (rounded).
    pub fn p50(&self) -> u64 {
        self.count_at(0.5)
    }

    /// Returns the 99th-percentile count (rounded); for zipf and lognormal it is the given p99.
    pub fn p99(&self) -> u64 {
        match *self {
            Distribution::Zipf { p99, .. } | Distribution::Lognormal { p99, .. } => {
                round_count(p99.min(self.max()))
            }
            Distribution::Capped { ref of, .. } | Distribution::Chunks { ref of, .. } => {
                round_count(self.map(of.p99() as f64))
            }
            _ => self.count_at(0.99),
        }
    }

    /// Returns the largest count (rounded).
    pub fn max_count(&self) -> u64 {
        round_count(self.max())
    }

    /// Returns the mean. Exact for fixed and uniform; in closed form for normal and lognormal
    /// (their clamped means: the draws below `min` or above `max` count at the bound, as
    /// [`Distribution::quantile`] clamps them); for the other shapes a numeric integral of the
    /// quantile function (an estimate, see [`Distribution::mean_is_exact`]).
    ///
    /// The closed forms are what make the page's instant figures instant: the size arithmetic
    /// asks for the mean of a length thousands of times per collection, and the integral
    /// evaluates the quantile function at 800 points each time.
    pub fn mean(&self) -> f64 {
        if self.is_constant() {
            return self.min();
        }
        match *self {
            Distribution::Fixed { value } => value,
            Distribution::Uniform { min, max } => (min + max) / 2.0,
            Distribution::Normal { mean, sd, min, max } if sd > 0.0 && min < max => {
                // E[clamp(X, a, b)] for X ~ N(μ, σ): the two clamped masses at their bound,
                // and the mean over [a, b].
                let (a, b) = ((min - mean) / sd, (max - mean) / sd);
                min * normal_cdf(a)
                    + max * normal_cdf(-b)
                    + mean * (normal_cdf(b) - normal_cdf(a))
                    + sd * (normal_pdf(a) - normal_pdf(b))
            }
            Distribution::Lognormal { typical, p99, max } if p99 > typical && typical > 0.0 => {
                // X = e^(m + sZ), clamped to [0, max]: E[X; X < max] + max·P(X ≥ max).
                let (m, s) = (libm::log(typical), libm::log(p99 / typical) / Z99);
                let z = (libm::log(max) - m) / s;
                libm::exp(m + s * s / 2.0) * normal_cdf(z - s) + max * normal_cdf(-z)
            }
            _ => self.integrate(|x| x),
        }
    }

    /// Returns P(quantile(U) ≥ x) for U uniform on [0, 1) in closed form, for an `x` above
    /// [`Distribution::min`] and at most [`Distribution::max`] (where the clamps play no
    /// part), or `None` for a shape without one. The generator's draws are the quantiles of
    /// uniform numbers, so this is the share of draws at least `x`: what a bisection on the
    /// quantile function finds, 64 quantiles later (agreeing within the 1.2e-9 of
    /// [`inverse_normal`]).
    pub fn exceedance(&self, x: f64) -> Option<f64> {
        if !(x > self.min() && x <= self.max()) {
            return None;
        }
        match *self {
            Distribution::Uniform { min, max } => Some((max - x) / (max - min)),
            Distribution::Normal { mean, sd, .. } if sd > 0.0 => Some(normal_cdf((mean - x) / sd)),
            Distribution::Lognormal { typical, p99, .. } if p99 > typical && typical > 0.0 => {
                let s = libm::log(p99 / typical) / Z99;
                Some(normal_cdf((libm::log(typical) - libm::log(x)) / s))
            }
            Distribution::Zipf { typical, p99, .. } if p99 > typical && typical > 0.0 => {
                // x = t·(0.5 / (1 − q))^(1/α) ⇔ 1 − q = 0.5·(t / x)^α.
                let alpha = libm::log(50.0) / libm::log(p99 / typical);
                Some((0.5 * libm::pow(typical / x, alpha)).min(1.0))
            }
            Distribution::Capped { ref of, cap } => of.exceedance(x).filter(|_| x <= cap),
            _ => None,
        }
    }

    /// Returns true when [`Distribution::mean`] is exact rather than a numeric estimate.
    pub fn mean_is_exact(&self) -> bool {
        matches!(
            self,
            Distribution::Fixed { .. } | Distribution::Uniform { .. }
        ) || self.is_constant()
    }

    /// Returns ∫₀¹ f(quantile(q)) dq numerically: a fixed number of points (constant time),
    /// denser near q = 1 where heavy tails live ([`Distribution::nodes`]). For a
    /// [`Distribution::Remainder`], the same integral over its inner distribution's points,
    /// given at least one byte.
    pub fn integrate(&self, f: impl Fn(f64) -> f64) -> f64 {
        self.integrate_dyn(&f)
    }

    /// [`Distribution::integrate`] through a trait object (a remainder integrates over its
    /// inner distribution with a wrapped function).
    fn integrate_dyn(&self, f: &dyn Fn(f64) -> f64) -> f64 {
        if let Distribution::Remainder { of, size } = self {
            let present = of.integrate_dyn(&|x| if x >= 0.5 { 1.0 } else { 0.0 });
            if present <= 0.0 {
                return f(0.0);
            }
            let sum = of.integrate_dyn(&|x| {
                if x >= 0.5 {
                    f(remainder(x, *size))
                } else {
                    0.0
                }
            });
            return sum / present;
        }
        self.nodes()
            .fold(0.0, |sum, (q, w)| sum + f(self.quantile(q)) * w)
    }

    /// Returns the quadrature points of [`Distribution::integrate`] as (quantile, weight):
    /// the body q in [0, 0.99) by the midpoint rule, the tail q in [0.99, 1) through
    /// u = ln(1 − q) from ln 0.01 to ln 1e-9, and the last 1e-9 of mass at q = 1 (the max).
    pub fn nodes(&self) -> impl Iterator<Item = (f64, f64)> {
        NODES.get_or_init(quadrature_nodes).iter().copied()
    }
}

/// The quadrature points of [`Distribution::nodes`], the same for every distribution and
/// computed once (800 `exp` calls per integral otherwise).
static NODES: std::sync::OnceLock<Vec<(f64, f64)>> = std::sync::OnceLock::new();

/// Computes [`Distribution::nodes`].
fn quadrature_nodes() -> Vec<(f64, f64)> {
    const BODY: usize = 396;
    const TAIL: usize = 400;
    let h = 0.99 / BODY as f64;
    let body = (0..BODY).map(move |i| ((i as f64 + 0.5) * h, h));
    let (u0, u1) = (libm::log(0.01), libm::log(1e-9));
    let hu = (u1 - u0) / TAIL as f64;
    // dq = −e^u du; hu < 0, so the weight is positive.
    let tail = (0..TAIL).map(move |i| {
        let u = u0 + (i as f64 + 0.5) * hu;
        (1.0 - libm::exp(u), -libm::exp(u) * hu)
    });
    body.chain(tail)
        .chain(std::iter::once((1.0, 1e-9)))
        .collect()
}

/// Returns the payload of the last `size`-byte chunk of a value of `x` bytes (rounded): `x`
/// itself up to `size`, else what is left after the full chunks (`size` when it divides `x`);
/// 0 for an empty value.
pub fn remainder(x: f64, size: f64) -> f64 {
    let x = round_count(x) as f64;
    if x < 1.0 || size <= 0.0 {
        return 0.0;
    }
    x - size * ((x / size).ceil() - 1.0)
}

/// Returns the smallest (at least 1) and the largest whole length of `of`.
fn remainder_range(of: &Distribution) -> (u64, u64) {
    (round_count(of.min()).max(1), round_count(of.max()))
}

/// True when whole lengths `lo..=hi` reach past the end of a chunk (so that some value fills
/// its last chunk and some leaves 1 byte in it).
fn spans_a_chunk_end(lo: u64, hi: u64, size: f64) -> bool {
    size > 0.0 && hi >= lo && (lo as f64 / size).ceil() != (hi as f64 / size).ceil()
}

/// Returns the quantile `q` of [`Distribution::Remainder`] on the quadrature points of its
/// inner distribution: the points' remainders, weighted, in order (the remainder is not
/// monotone in the length, so no closed form; the points are those of `integrate`, so the
/// quantile agrees with the mean).
fn remainder_quantile(of: &Distribution, size: f64, q: f64) -> f64 {
    let mut points: Vec<(f64, f64)> = of
        .nodes()
        .filter_map(|(p, w)| {
            let x = of.quantile(p);
            (x >= 0.5).then(|| (remainder(x, size), w))
        })
        .collect();
    let total: f64 = points.iter().map(|(_, w)| w).sum();
    if total <= 0.0 {
        return 0.0;
    }
    points.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut acc = 0.0;
    for (v, w) in &points {
        acc += w;
        if acc >= q * total {
            return *v;
        }
    }
    points.last().map_or(0.0, |p| p.0)
}

/// Rounds a non-negative count to the nearest integer (negative and NaN become 0).
pub fn round_count(v: f64) -> u64 {
    if v.is_nan() || v <= 0.0 {
        0
    } else {
        v.round() as u64
    }
}

/// Returns Φ(z), the standard normal distribution function.
pub fn normal_cdf(z: f64) -> f64 {
    0.5 * libm::erfc(-z / std::f64::consts::SQRT_2)
}

/// Returns φ(z), the standard normal density.
fn normal_pdf(z: f64) -> f64 {
    libm::exp(-z * z / 2.0) / (2.0 * std::f64::consts::PI).sqrt()
}

/// Returns z with Φ(z) = p (Acklam's rational approximation, relative error < 1.2e-9).
pub fn inverse_normal(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    if p <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if p >= 1.0 {
        return f64::INFINITY;
    }
    let plow = 0.02425;
    if p < plow {
        let q = (-2.0 * libm::log(p)).sqrt();
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    } else if p <= 1.0 - plow {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    } else {
        let q = (-2.0 * libm::log(1.0 - p)).sqrt();
        -(((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zipf_hits_its_anchors() {
        let d = Distribution::Zipf {
            min: 0.0,
            typical: 50.0,
            p99: 5000.0,
            max: 40_000_000.0,
        };
        assert_eq!(d.p50(), 50);
        assert_eq!(d.count_at(0.99), 5000);
        assert_eq!(d.max_count(), 40_000_000);
        assert!(d.mean() > 50.0);
    }

    /// The shapes with closed forms, each with a clamp that matters somewhere.
    fn closed_forms() -> Vec<Distribution> {
        vec![
            Distribution::Normal {
                mean: 40.0,
                sd: 12.0,
                min: 10.0,
                max: 60.0,
            },
            Distribution::Normal {
                mean: 5.0,
                sd: 20.0,
                min: 0.0,
                max: 1_000.0,
            },
            Distribution::Normal {
                mean: 300.0,
                sd: 1.0,
                min: 0.0,
                max: 2_000.0,
            },
            Distribution::Lognormal {
                typical: 80.0,
                p99: 2_000.0,
                max: 100_000.0,
            },
            Distribution::Lognormal {
                typical: 12.0,
                p99: 30.0,
                max: 20.0,
            },
            Distribution::Zipf {
                min: 1.0,
                typical: 50.0,
                p99: 5_000.0,
                max: 40_000.0,
            },
            Distribution::Zipf {
                min: 0.0,
                typical: 3.0,
                p99: 40.0,
                max: 1_000_000.0,
            },
            Distribution::Uniform { min: 2.0, max: 9.0 },
        ]
    }

    #[test]
    fn closed_form_means_agree_with_the_quadrature() {
        for d in closed_forms() {
            let numeric = d.integrate(|x| x);
            let mean = d.mean();
            // The quadrature is within 2e-4 on heavy tails; the closed form is the exact one.
            assert!(
                (mean / numeric - 1.0).abs() < 2e-4,
                "{d:?}: {mean} vs {numeric}"
            );
        }
        // The clamps count: a normal cut at its mean is below the unclamped mean.
        let cut = Distribution::Normal {
            mean: 40.0,
            sd: 12.0,
            min: 0.0,
            max: 40.0,
        };
        assert!(cut.mean() < 40.0 - 4.0, "{}", cut.mean());
    }

    #[test]
    fn exceedance_is_the_share_of_quantiles_at_least_x() {
        for d in closed_forms() {
            let (lo, hi) = (d.min(), d.max());
            for i in 1..=40 {
                let x = lo + (hi - lo) * (i as f64 / 40.0).powi(3);
                let Some(p) = d.exceedance(x) else {
                    panic!("{d:?} has a closed form");
                };
                // The bisection the closed form replaces.
                let (mut a, mut b) = (0.0f64, 1.0f64);
                for _ in 0..64 {
                    let mid = 0.5 * (a + b);
                    if d.quantile(mid) >= x {
                        b = mid;
                    } else {
                        a = mid;
                    }
                }
                assert!(
                    (p - (1.0 - b)).abs() < 1e-8,
                    "{d:?} at {x}: {p} vs {}",
                    1.0 - b
                );
            }
            assert_eq!(
                d.exceedance(lo),
                None,
                "{d:?}: at the minimum the clamp decides"
            );
            assert_eq!(d.exceedance(hi + 1.0), None);
        }
        let capped = Distribution::Capped {
            of: Box::new(Distribution::Uniform {
                min: 0.0,
                max: 10.0,
            }),
            cap: 5.0,
        };
        assert_eq!(capped.exceedance(4.0), Some(0.6));
    }

    #[test]
    fn uniform_mean_is_exact() {
        let d = Distribution::Uniform { min: 1.0, max: 5.0 };
        assert_eq!(d.mean(), 3.0);
        assert!(d.mean_is_exact());
        assert_eq!(d.p50(), 3);
    }

    #[test]
    fn remainder_is_the_last_chunk() {
        const C: f64 = 261_120.0;
        assert_eq!(remainder(0.0, C), 0.0);
        assert_eq!(remainder(1.0, C), 1.0);
        assert_eq!(remainder(C, C), C);
        assert_eq!(remainder(C + 1.0, C), 1.0);
        assert_eq!(remainder(25_000_000.0, C), 193_600.0);
        let fixed = Distribution::Remainder {
            of: Box::new(Distribution::fixed(25_000_000.0)),
            size: C,
        };
        assert!(fixed.is_constant());
        assert_eq!((fixed.mean(), fixed.max()), (193_600.0, 193_600.0));
        // Lengths 1..=300,000: the remainders run 1..=261,120, then 1..=38,880.
        let u = Distribution::Remainder {
            of: Box::new(Distribution::Uniform {
                min: 1.0,
                max: 300_000.0,
            }),
            size: C,
        };
        assert_eq!((u.min(), u.max()), (1.0, C));
        let exact = (C * (C + 1.0) / 2.0 + 38_880.0 * 38_881.0 / 2.0) / 300_000.0;
        assert!(
            (u.mean() / exact - 1.0).abs() < 1e-3,
            "{} vs {exact}",
            u.mean()
        );
        // Quantiles stay within the range and grow with q.
        let (a, b, c) = (u.quantile(0.1), u.quantile(0.5), u.quantile(0.99));
        assert!(1.0 <= a && a <= b && b <= c && c <= C, "{a} {b} {c}");
        // Below one chunk the remainder is the length itself.
        let small = Distribution::Uniform {
            min: 10.0,
            max: 1_000.0,
        };
        let r = Distribution::Remainder {
            of: Box::new(small.clone()),
            size: C,
        };
        assert_eq!((r.min(), r.max()), (10.0, 1_000.0));
        // The same points, normalized by their mass (the quadrature's, within 1e-4 of 1).
        let mean = small.integrate(|x| x.round());
        assert!(
            (r.mean() / mean - 1.0).abs() < 1e-3,
            "{} vs {mean}",
            r.mean()
        );
    }
}
