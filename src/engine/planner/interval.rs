//! An interval of values in one index field, in BSON order: what the planner's bounds are
//! made of and what explain prints (`[5, 5]`, `(1, inf.0]`).

use crate::engine::compare::{compare, rank, shell};
use bson::Bson;
use std::cmp::Ordering;
use std::fmt;

/// An interval of values in one index field, in BSON order.
#[derive(Debug, Clone, PartialEq)]
pub struct Interval {
    /// The low end.
    pub lo: Bson,
    /// True when the low end is included.
    pub lo_inc: bool,
    /// The high end.
    pub hi: Bson,
    /// True when the high end is included.
    pub hi_inc: bool,
}

impl Interval {
    /// Returns the interval holding only `v`.
    pub fn point(v: Bson) -> Interval {
        Interval {
            lo: v.clone(),
            lo_inc: true,
            hi: v,
            hi_inc: true,
        }
    }

    /// Returns `[MinKey, MaxKey]`, every value.
    pub fn full() -> Interval {
        Interval {
            lo: Bson::MinKey,
            lo_inc: true,
            hi: Bson::MaxKey,
            hi_inc: true,
        }
    }

    /// Returns true for a single value.
    pub fn is_point(&self) -> bool {
        self.lo_inc
            && self.hi_inc
            && compare(&self.lo, &self.hi) == Ordering::Equal
            && rank(&self.lo) == rank(&self.hi)
    }

    /// Returns true for `[MinKey, MaxKey]`.
    pub fn is_full(&self) -> bool {
        matches!(self.lo, Bson::MinKey) && matches!(self.hi, Bson::MaxKey)
    }

    /// Returns true when `v` lies in the interval.
    pub fn contains(&self, v: &Bson) -> bool {
        let lo = compare(v, &self.lo);
        let hi = compare(v, &self.hi);
        (lo == Ordering::Greater || (self.lo_inc && lo == Ordering::Equal))
            && (hi == Ordering::Less || (self.hi_inc && hi == Ordering::Equal))
    }

    /// Returns the intersection, `None` when empty.
    pub fn intersect(&self, other: &Interval) -> Option<Interval> {
        let (lo, lo_inc) = match compare(&self.lo, &other.lo) {
            Ordering::Greater => (self.lo.clone(), self.lo_inc),
            Ordering::Less => (other.lo.clone(), other.lo_inc),
            Ordering::Equal => (self.lo.clone(), self.lo_inc && other.lo_inc),
        };
        let (hi, hi_inc) = match compare(&self.hi, &other.hi) {
            Ordering::Less => (self.hi.clone(), self.hi_inc),
            Ordering::Greater => (other.hi.clone(), other.hi_inc),
            Ordering::Equal => (self.hi.clone(), self.hi_inc && other.hi_inc),
        };
        match compare(&lo, &hi) {
            Ordering::Greater => None,
            Ordering::Equal if !(lo_inc && hi_inc) => None,
            _ => Some(Interval {
                lo,
                lo_inc,
                hi,
                hi_inc,
            }),
        }
    }
}

impl fmt::Display for Interval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}, {}{}",
            if self.lo_inc { '[' } else { '(' },
            shell(&self.lo),
            shell(&self.hi),
            if self.hi_inc { ']' } else { ')' }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals() {
        let a = Interval {
            lo: Bson::Int32(1),
            lo_inc: false,
            hi: Bson::Double(f64::INFINITY),
            hi_inc: true,
        };
        let b = Interval {
            lo: Bson::Double(f64::NEG_INFINITY),
            lo_inc: true,
            hi: Bson::Int32(5),
            hi_inc: false,
        };
        let c = a.intersect(&b);
        assert_eq!(c.as_ref().map(|c| c.to_string()).as_deref(), Some("(1, 5)"));
        assert!(Interval::point(Bson::Int32(3)).is_point());
        assert_eq!(a.to_string(), "(1, inf.0]");
    }
}
