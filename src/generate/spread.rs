//! Where the documents of a shape sit on their distributions: each document has a quantile
//! (its arrays' counts, its share of a parent's children), the largest (quantile 1) first and
//! the p99 one second, the others drawn ([`Spread::Drawn`], the evaluation's sample) or evenly
//! spaced ([`Spread::Stratified`], a scaled export's).

use super::{mix, splitmix};

/// How the documents after the largest and the p99 one are spread over the quantiles.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Spread {
    /// A seeded uniform draw per document: the evaluation's sample (and an export of it), the
    /// same document at every sample size.
    #[default]
    Drawn,
    /// One document in each of `n` equal strata: the largest in the top one (at quantile 1),
    /// the p99 one in the stratum holding 0.99 (at 0.99), every other at its stratum's
    /// midpoint `(k + 0.5) ÷ n`, in a seeded order; so the sample's median, p99 and mean are
    /// the distribution's rather than a draw's, and a scaled export
    /// ([`crate::export::Scale`]) measures back as its model.
    Stratified,
}

impl Spread {
    /// Returns the quantile document `index` of `count` in the collection shape `key` sits
    /// at: 1.0 (the largest parent) for the first, 0.99 for the second, then per the spread.
    pub fn quantile(self, seed: u64, key: &str, index: u64, count: u64) -> f64 {
        match (self, index) {
            (_, 0) => 1.0,
            (_, 1) => 0.99,
            (Spread::Drawn, _) => super::document_quantile(seed, key, index),
            (Spread::Stratified, _) => {
                let n = count.max(3);
                // The strata left to the others: all but the top one and the p99 one.
                let p99 = ((0.99 * n as f64) as u64).min(n - 2);
                let k = permuted(mix(seed, key), index - 2, n - 2);
                let k = if k < p99 { k } else { k + 1 };
                (k as f64 + 0.5) / n as f64
            }
        }
    }
}

/// Returns the place of `i` in a seeded permutation of `0..m` (an affine map `a·i + b mod m`
/// with `a` coprime to `m`), so that strata are not dealt in quantile order.
fn permuted(h: u64, i: u64, m: u64) -> u64 {
    let m128 = u128::from(m);
    let mut a = (splitmix(h) % m) | 1;
    while gcd(a, m) != 1 {
        a += 1;
    }
    let b = splitmix(h ^ 0x5bd1_e995) % m;
    ((u128::from(a) * u128::from(i % m) + u128::from(b)) % m128) as u64
}

/// Returns the greatest common divisor of `a` and `b`.
fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stratified_quantiles_are_every_other_strata_midpoint_once() {
        for count in [3u64, 10, 12, 1000, 1001] {
            let mut q: Vec<f64> = (0..count)
                .map(|j| Spread::Stratified.quantile(7, "user/user", j, count))
                .collect();
            assert_eq!(q.first().copied(), Some(1.0));
            assert_eq!(q.get(1).copied(), Some(0.99));
            let mut rest = q.split_off(2);
            rest.sort_by(f64::total_cmp);
            let p99 = (0.99 * count as f64) as u64;
            let want: Vec<f64> = (0..count - 1)
                .filter(|&k| k != p99.min(count - 2))
                .map(|k| (k as f64 + 0.5) / count as f64)
                .collect();
            assert_eq!(rest, want, "{count}");
        }
    }

    #[test]
    fn stratified_quantiles_are_not_in_order() {
        let q: Vec<f64> = (2..50)
            .map(|j| Spread::Stratified.quantile(7, "user/user", j, 50))
            .collect();
        assert!(q.windows(2).any(|w| w[0] > w[1]));
    }

    #[test]
    fn drawn_quantiles_are_the_evaluations() {
        for j in 0..20 {
            assert_eq!(
                Spread::Drawn.quantile(7, "user/user", j, 20),
                crate::generate::document_quantile(7, "user/user", j)
            );
        }
    }
}
