//! A bounded quantile sketch of whole numbers (string lengths, array counts): exact below
//! [`EXACT_BELOW`], then log-spaced buckets 1% wide, so memory stays bounded however many
//! values are added and quantiles are within 1% of the true value.

use std::collections::BTreeMap;

/// Values below this are counted one bucket each (exactly).
pub const EXACT_BELOW: u64 = 1024;

/// Relative width of a bucket above [`EXACT_BELOW`].
const BUCKET_GROWTH: f64 = 1.01;

/// Counts of whole numbers, with their exact count, sum, minimum and maximum.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Sketch {
    /// Bucket index → values in it.
    buckets: BTreeMap<u32, u64>,
    /// Values added.
    count: u64,
    /// Their sum (for the exact mean).
    sum: f64,
    /// The smallest value.
    min: u64,
    /// The largest value.
    max: u64,
}

impl Sketch {
    /// Adds one value.
    pub fn add(&mut self, value: u64) {
        if self.count == 0 || value < self.min {
            self.min = value;
        }
        self.max = self.max.max(value);
        self.count += 1;
        self.sum += value as f64;
        *self.buckets.entry(bucket_of(value)).or_insert(0) += 1;
    }

    /// Adds `value` `n` times (the arrays that were missing, as 0 elements).
    pub fn add_many(&mut self, value: u64, n: u64) {
        if n == 0 {
            return;
        }
        if self.count == 0 || value < self.min {
            self.min = value;
        }
        self.max = self.max.max(value);
        self.count += n;
        self.sum += value as f64 * n as f64;
        *self.buckets.entry(bucket_of(value)).or_insert(0) += n;
    }

    /// Adds every value of `other` (the sketch of both sets of values).
    pub fn merge(&mut self, other: &Sketch) {
        if other.count == 0 {
            return;
        }
        if self.count == 0 || other.min < self.min {
            self.min = other.min;
        }
        self.max = self.max.max(other.max);
        self.count += other.count;
        self.sum += other.sum;
        for (&b, &n) in &other.buckets {
            *self.buckets.entry(b).or_insert(0) += n;
        }
    }

    /// Returns how many values were added.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Returns the smallest value (0 when empty).
    pub fn min(&self) -> u64 {
        self.min
    }

    /// Returns the largest value (0 when empty).
    pub fn max(&self) -> u64 {
        self.max
    }

    /// Returns the exact mean (0 when empty).
    pub fn mean(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.sum / self.count as f64
        }
    }

    /// Returns the `q` quantile (0 ≤ q ≤ 1): the smallest value with at least `q` of the
    /// values at or below it, exact below [`EXACT_BELOW`] and within 1% above, clamped to the
    /// observed range.
    pub fn quantile(&self, q: f64) -> u64 {
        if self.count == 0 {
            return 0;
        }
        let rank = ((q.clamp(0.0, 1.0) * self.count as f64).ceil() as u64).max(1);
        let mut seen = 0;
        for (&b, &n) in &self.buckets {
            seen += n;
            if seen >= rank {
                return value_of(b).clamp(self.min, self.max);
            }
        }
        self.max
    }
}

/// Returns the bucket of `value`.
fn bucket_of(value: u64) -> u32 {
    if value < EXACT_BELOW {
        return value as u32;
    }
    let steps = libm::log(value as f64 / EXACT_BELOW as f64) / libm::log(BUCKET_GROWTH);
    EXACT_BELOW as u32 + steps.floor() as u32
}

/// Returns the value a bucket stands for (its lower bound, rounded).
fn value_of(bucket: u32) -> u64 {
    if u64::from(bucket) < EXACT_BELOW {
        return u64::from(bucket);
    }
    let steps = f64::from(bucket) - EXACT_BELOW as f64;
    libm::round(EXACT_BELOW as f64 * libm::pow(BUCKET_GROWTH, steps)) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_values_are_exact() {
        let mut s = Sketch::default();
        for v in 1..=100 {
            s.add(v);
        }
        assert_eq!(
            (s.min(), s.quantile(0.5), s.quantile(0.99), s.max()),
            (1, 50, 99, 100)
        );
        assert_eq!(s.mean(), 50.5);
    }

    #[test]
    fn large_values_are_within_one_percent_in_bounded_memory() {
        let mut s = Sketch::default();
        for v in 0..200_000u64 {
            s.add(v * 50);
        }
        let p50 = s.quantile(0.5) as f64;
        assert!((p50 / 5_000_000.0 - 1.0).abs() < 0.01, "{p50}");
        assert!(s.buckets.len() < 2_000, "{}", s.buckets.len());
        assert_eq!(s.max(), 199_999 * 50);
    }
}
