//! Full-scale size arithmetic: exact BSON sizes as functions of array lengths, break points
//! and their dates, in closed form (never one loop per element or per document). It reads the
//! model's fields and nothing of layouts: the design layer sizes with it, and the statistics
//! of a layout's collections ([`crate::stats`]) are made of it.
//!
//! Encoding facts used throughout: a document is a 4-byte length, its elements and a trailing
//! NUL (empty = 5 bytes); an element is a type byte, the key and a NUL, then the value; an array
//! is a document keyed "0", "1", …, so element `i` of an array costs
//! `1 + digits(i) + 1 + value bytes`.

pub mod tail;

use crate::model::distribution::{round_count, Distribution};
use crate::model::field::{BsonType, Field, Fields};
use crate::size::MAX_BSON_SIZE;

/// Returns the number of decimal digits of `i` (`digits(0) == 1`).
pub fn digits(i: u64) -> u64 {
    let mut d = 1;
    let mut x = i;
    while x >= 10 {
        x /= 10;
        d += 1;
    }
    d
}

/// Returns Σ digits(i) for i in 0..n: the bytes spent on the keys "0" … "n−1" of an array of
/// `n` elements. Constant time per digit length (at most 20 steps).
pub fn index_digits_sum(n: u64) -> u64 {
    let mut total = 0u64;
    let mut lo = 0u64; // first index with `d` digits
    let mut d = 1u64;
    while lo < n {
        let hi = if d >= 20 {
            u64::MAX
        } else {
            10u64.pow(d as u32)
        };
        let upto = n.min(hi);
        total = total.saturating_add((upto - lo).saturating_mul(d));
        lo = hi;
        d += 1;
    }
    total
}

/// Returns the exact size of an array of `n` elements whose values are `value_bytes` each:
/// `5 + Σ (1 + digits(i) + 1 + value_bytes)`. Saturates at `u64::MAX` for impossible counts.
pub fn array_size(n: u64, value_bytes: u64) -> u64 {
    n.saturating_mul(value_bytes.saturating_add(2))
        .saturating_add(index_digits_sum(n))
        .saturating_add(5)
}

/// Returns the size of one element of a document: type byte, key, NUL and value.
pub fn element_size(key: &str, value_bytes: u64) -> u64 {
    (key.len() as u64)
        .saturating_add(2)
        .saturating_add(value_bytes)
}

/// A size that is either exact or an estimate (a mean over what varies).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Size {
    /// Bytes (a whole number when exact).
    pub bytes: f64,
    /// True when every document of this description has exactly this size.
    pub exact: bool,
}

impl Size {
    /// Returns an exact size.
    pub fn exact(bytes: u64) -> Self {
        Size {
            bytes: bytes as f64,
            exact: true,
        }
    }

    fn add(self, other: Size) -> Size {
        Size {
            bytes: self.bytes + other.bytes,
            exact: self.exact && other.exact,
        }
    }

    /// Returns the bytes rounded to a whole number.
    pub fn whole(self) -> u64 {
        crate::model::distribution::round_count(self.bytes.ceil())
    }
}

/// How array counts are chosen when sizing a description.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum At {
    /// Expected size over all distributions.
    Mean,
    /// Every array count at this quantile (comonotonic: the big parent is big everywhere)
    /// but those drawn on their own ([`Field::independent`]: at their mean), lengths and
    /// presence at their mean; at 1.0 the largest document: every field present,
    /// every length at its maximum, every array full.
    Quantile(f64),
}

/// Returns the size of a string-like value's payload length `len` for type `ty`.
fn payload(ty: BsonType, len: f64) -> f64 {
    match ty {
        BsonType::String | BsonType::JavaScript => 4.0 + len + 1.0,
        BsonType::BinData => 4.0 + 1.0 + len,
        // pattern NUL options NUL (no options)
        BsonType::Regex => len + 2.0,
        _ => 0.0,
    }
}

/// Returns the size of a value described by `field` (not counting its type byte and key).
pub fn value_size(field: &Field, at: At) -> Size {
    let ty = field.ty;
    if let Some(s) = ty.fixed_size() {
        return Size::exact(s);
    }
    match ty {
        BsonType::Object if field.is_map() => {
            let value = document_size_of(&field.fields, at);
            let count = field.count.clone().unwrap_or(Distribution::fixed(0.0));
            let counted = match at {
                At::Quantile(q) if field.independent && q < 1.0 => At::Mean,
                _ => at,
            };
            map_of(&count, &field.length_distribution(), value, counted)
        }
        BsonType::Object => document_size_of(&field.fields, at),
        BsonType::Array => {
            let elem = value_size(&field.element(), at);
            let count = field.count.clone().unwrap_or(Distribution::fixed(0.0));
            // A count drawn on its own is not at the document's quantile: its mean, but for
            // the largest document (every array full).
            let counted = match at {
                At::Quantile(q) if field.independent && q < 1.0 => At::Mean,
                _ => at,
            };
            array_of(&count, elem, counted)
        }
        _ => {
            if let Some(lens) = enum_lengths(field) {
                // One of the values, each as likely (as the generator picks them).
                let max = lens.iter().copied().max().unwrap_or(0);
                let n = lens.len().max(1) as f64;
                return match at {
                    At::Quantile(q) if q >= 1.0 => {
                        Size::exact(round_count(payload(ty, max as f64)))
                    }
                    _ => Size {
                        bytes: payload(ty, lens.iter().sum::<u64>() as f64 / n),
                        exact: lens.iter().all(|&l| l == max),
                    },
                };
            }
            let len = field.length_distribution();
            match at {
                // The largest document: every value at its longest.
                At::Quantile(q) if q >= 1.0 => {
                    Size::exact(round_count(payload(ty, longest(&len) as f64)))
                }
                _ => Size {
                    bytes: payload(ty, len.mean()),
                    exact: len.is_constant(),
                },
            }
        }
    }
}

/// Returns the whole numbers a uniform length from `min` to `max` takes: `min` rounded up to
/// `max` rounded down (at least `min`'s).
pub fn uniform_whole(min: f64, max: f64) -> (u64, u64) {
    let (lo, hi) = (min.ceil().max(0.0) as u64, max.floor().max(0.0) as u64);
    (lo, hi.max(lo))
}

/// Returns the longest whole length `d` yields: a uniform's `max` rounded down, any other
/// shape's `max` rounded (the largest document holds it).
pub fn longest(d: &Distribution) -> u64 {
    match *d {
        Distribution::Uniform { min, max } => uniform_whole(min, max).1,
        _ => d.max_count(),
    }
}

/// Draws a whole length from `d`: uniform shapes evenly over their whole numbers, the others
/// at a uniformly drawn quantile. The generator and the size simulation draw alike.
pub fn draw_whole(d: &Distribution, rng: &mut impl rand::Rng) -> u64 {
    match *d {
        Distribution::Fixed { value } => round_count(value),
        Distribution::Uniform { min, max } => {
            let (lo, hi) = uniform_whole(min, max);
            if hi <= lo {
                lo
            } else {
                rng.random_range(lo..=hi)
            }
        }
        _ => d.count_at(rng.random::<f64>()),
    }
}

/// Returns the byte lengths of an enum string's values (`None` when it has none): the
/// generator picks one of them, whatever `length` says.
fn enum_lengths(field: &Field) -> Option<Vec<u64>> {
    let text = matches!(field.ty, BsonType::String | BsonType::JavaScript);
    (text && !field.values.is_empty())
        .then(|| field.values.iter().map(|v| v.len() as u64).collect())
}

/// Returns the size of an array whose count follows `count` and whose elements have size
/// `elem`.
pub fn array_of(count: &Distribution, elem: Size, at: At) -> Size {
    match at {
        At::Quantile(q) => {
            let n = count.count_at(q);
            Size {
                bytes: 5.0 + index_digits_sum(n) as f64 + n as f64 * (2.0 + elem.bytes),
                exact: elem.exact,
            }
        }
        At::Mean => {
            if count.is_constant() {
                let n = count.count_at(0.5);
                Size {
                    bytes: 5.0 + index_digits_sum(n) as f64 + n as f64 * (2.0 + elem.bytes),
                    exact: elem.exact,
                }
            } else {
                let keys = count.integrate(|x| {
                    index_digits_sum(crate::model::distribution::round_count(x)) as f64
                });
                Size {
                    bytes: 5.0 + keys + count.mean() * (2.0 + elem.bytes),
                    exact: false,
                }
            }
        }
    }
}

/// Returns the size of a map ([`Field::map_of`]) of `count` entries whose keys' lengths
/// follow `key_length` and whose values are `value` each: a document whose every element
/// pays its key, a type byte and a NUL before its value (an array pays its index's digits
/// where a map pays its key). At the largest document every key is at its longest.
pub fn map_of(count: &Distribution, key_length: &Distribution, value: Size, at: At) -> Size {
    let key = match at {
        At::Quantile(q) if q >= 1.0 => longest(key_length) as f64,
        _ => key_length.mean(),
    };
    let exact = value.exact && key_length.is_constant();
    let n = match at {
        At::Quantile(q) => count.count_at(q) as f64,
        At::Mean if count.is_constant() => count.count_at(0.5) as f64,
        At::Mean => count.mean(),
    };
    Size {
        bytes: 5.0 + n * (2.0 + key + value.bytes),
        exact: exact && (count.is_constant() || matches!(at, At::Quantile(_))),
    }
}

/// Returns the size of one field as an element of its document (0 when absent), weighted by
/// its presence probability; at quantile 1 (the largest document) every field is present.
pub fn field_element_size(name: &str, field: &Field, at: At) -> Size {
    let p = match at {
        At::Quantile(q) if q >= 1.0 => 1.0,
        _ => field.presence(),
    };
    let v = value_size(field, at);
    let full = Size {
        bytes: 2.0 + name.len() as f64 + v.bytes,
        exact: v.exact,
    };
    if p >= 1.0 {
        full
    } else if p <= 0.0 {
        Size::exact(0)
    } else {
        Size {
            bytes: p * full.bytes,
            exact: false,
        }
    }
}

/// Returns the size of a document with these fields.
pub fn document_size_of(fields: &Fields, at: At) -> Size {
    fields.iter().fold(Size::exact(5), |acc, (name, f)| {
        acc.add(field_element_size(name, f, at))
    })
}

/// The smallest count at which a growing array pushes its document over the limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BreakPoint {
    /// The first count whose document exceeds [`MAX_BSON_SIZE`] (at `count − 1` it still fits).
    pub count: u64,
    /// False when element sizes vary and their mean was used (an estimate).
    pub exact: bool,
}

/// Returns the smallest `n` with `base + n·(2 + elem) + index_digits_sum(n) > limit`, where
/// `base` is the document's size with the array empty (its key and 5-byte header included)
/// and `elem` the value bytes of each element. `Some(0)` when the empty document is already
/// over; `None` never happens for positive sizes but guards degenerate input.
pub fn first_count_over(base: u64, elem: u64, limit: u64) -> Option<u64> {
    if base > limit {
        return Some(0);
    }
    let mut lo = 0u64;
    let mut size_lo = base;
    for d in 1..=19u64 {
        let hi = 10u64.pow(d as u32);
        let c = elem.checked_add(2 + d)?;
        let size_hi = size_lo.checked_add((hi - lo).checked_mul(c)?)?;
        if size_hi > limit {
            return Some(lo + (limit - size_lo) / c + 1);
        }
        lo = hi;
        size_lo = size_hi;
    }
    None
}

/// Returns the break point of a document of `base` bytes (array empty) whose array elements
/// are `elem` (exact when `elem.exact`; otherwise the mean element size, labelled an estimate).
pub fn break_point(base: Size, elem: Size) -> Option<BreakPoint> {
    let exact = base.exact && elem.exact;
    if exact {
        first_count_over(base.whole(), elem.whole(), MAX_BSON_SIZE)
            .map(|count| BreakPoint { count, exact })
    } else {
        // Solve on the mean: smallest n with base + n(2+e) + D(n) > limit, with e fractional.
        let mut lo = 0u64;
        let mut size_lo = base.bytes;
        let limit = MAX_BSON_SIZE as f64;
        if size_lo > limit {
            return Some(BreakPoint { count: 0, exact });
        }
        for d in 1..=19u64 {
            let hi = 10u64.pow(d as u32);
            let c = 2.0 + elem.bytes + d as f64;
            let size_hi = size_lo + (hi - lo) as f64 * c;
            if size_hi > limit {
                let k = (((limit - size_lo) / c).floor() as u64).saturating_add(1);
                return Some(BreakPoint {
                    count: lo.saturating_add(k),
                    exact,
                });
            }
            lo = hi;
            size_lo = size_hi;
        }
        None
    }
}

/// Returns the break point of a document of `base` bytes (map empty) whose map's entries hold
/// values of `value` bytes under keys of `key` bytes: each entry costs its type byte, its key
/// with the key's terminating NUL, and its value. A map's keys are the data's own (an id, a
/// date), not an array's index digits, so [`break_point`] would undercount a long key.
pub fn map_break_point(base: Size, value: Size, key: Size) -> Option<BreakPoint> {
    let exact = base.exact && value.exact && key.exact;
    let limit = MAX_BSON_SIZE as f64;
    if base.bytes > limit {
        return Some(BreakPoint { count: 0, exact });
    }
    let entry = 2.0 + key.bytes + value.bytes;
    if entry.is_nan() || entry <= 0.0 || entry.is_infinite() {
        return None;
    }
    let fit = ((limit - base.bytes) / entry).floor() as u64;
    Some(BreakPoint {
        count: fit.saturating_add(1),
        exact,
    })
}

/// How far ahead a break date is given: a day further away reads "not within 100 years".
pub const HORIZON_YEARS: u16 = 100;

/// When a growing array reaches its break point.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BreakDate {
    /// Days from the start date until the count first exceeds the limit (rounded up).
    pub days: u64,
    /// That day, `YYYY-MM-DD`; `null` when it is more than [`HORIZON_YEARS`] after the start
    /// date (a calendar day that far out says nothing a design can use).
    pub date: Option<String>,
    /// [`HORIZON_YEARS`] when the day is beyond that horizon (and `date` is `null`); absent
    /// otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beyond_years: Option<u16>,
}

impl std::fmt::Display for BreakDate {
    /// Writes "on 2025-02-17 (in 47 days)", or "not within 100 years" past the horizon.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (&self.date, self.beyond_years) {
            (Some(date), None) => write!(
                f,
                "on {date} (in {} days)",
                crate::human::thousands(self.days)
            ),
            (_, years) => write!(f, "not within {} years", years.unwrap_or(HORIZON_YEARS)),
        }
    }
}

/// Returns when `current` children growing by `per_day` reach `break_count`, counted from
/// `start` (`YYYY-MM-DD`): the day, or, when it is more than [`HORIZON_YEARS`] away (the end
/// of the calendar, 9999-12-31, included), only the days and that it is beyond the horizon.
/// `None` when not growing or when the start date cannot be read.
pub fn break_date(current: u64, break_count: u64, per_day: f64, start: &str) -> Option<BreakDate> {
    if per_day <= 0.0 || per_day.is_nan() {
        return None;
    }
    let missing = break_count.saturating_sub(current) as f64;
    let days = (missing / per_day).ceil() as u64;
    let horizon = crate::date::days_in_years(start, HORIZON_YEARS)?;
    let date = (days <= horizon)
        .then(|| crate::date::add_days(start, days))
        .flatten();
    let beyond_years = date.is_none().then_some(HORIZON_YEARS);
    Some(BreakDate {
        days,
        date,
        beyond_years,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A map keyed by 24-character ids breaks where the bson crate's encoding of the same
    /// document first passes 16 MiB: the key's bytes counted, not an array's index digits.
    #[test]
    fn a_map_breaks_where_its_encoded_document_does() {
        let value = bson::doc! {"tier": "Bronze", "points": 120_i32};
        let key = |i: u64| format!("{i:024x}");
        let doc = |n: u64| {
            let mut m = bson::Document::new();
            for i in 0..n {
                m.insert(key(i), value.clone());
            }
            bson::doc! {"_id": 1_i32, "name": "customer", "tiers": m}
        };
        let size = |d: &bson::Document| crate::size::document_size(d);
        let base = size(&doc(0));
        let bp = map_break_point(
            Size::exact(base),
            Size::exact(size(&value)),
            Size::exact(24),
        )
        .unwrap_or_else(|| panic!("no break point"));
        assert!(bp.exact);
        assert!(size(&doc(bp.count)) > MAX_BSON_SIZE);
        assert!(size(&doc(bp.count - 1)) <= MAX_BSON_SIZE);
        let mut bytes = Vec::new();
        doc(bp.count - 1)
            .to_writer(&mut bytes)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(bytes.len() as u64, size(&doc(bp.count - 1)));
        // An array's break point for the same values would allow about a quarter more.
        let array = break_point(Size::exact(base), Size::exact(size(&value)));
        assert!(
            array.is_some_and(|a| a.count > bp.count * 5 / 4),
            "{array:?} {bp:?}"
        );
    }

    #[test]
    fn digit_sums_at_boundaries() {
        assert_eq!(index_digits_sum(0), 0);
        assert_eq!(index_digits_sum(10), 10);
        assert_eq!(index_digits_sum(11), 12);
        assert_eq!(index_digits_sum(100), 190);
        assert_eq!(index_digits_sum(1000), 2890);
        let brute: u64 = (0..12_345u64).map(digits).sum();
        assert_eq!(index_digits_sum(12_345), brute);
    }

    #[test]
    fn break_dates_past_a_century_are_not_given_a_day() {
        // 36,524 days from 2025-01-01 is 2125-01-01: still within 100 years.
        let within = break_date(0, 36_524, 1.0, "2025-01-01");
        assert_eq!(
            within.as_ref().and_then(|d| d.date.as_deref()),
            Some("2125-01-01")
        );
        assert_eq!(
            within.map(|d| d.to_string()).as_deref(),
            Some("on 2125-01-01 (in 36,524 days)")
        );
        // One day more, or the blog's typical post (433,320 days: year 3211), or a day past
        // the calendar's end: the days, no date, and the phrase.
        for days in [36_525, 433_320, 5_000_000] {
            let d = break_date(0, days, 1.0, "2025-01-01").unwrap_or_else(|| panic!("{days}"));
            assert_eq!(
                (d.days, d.date.as_deref(), d.beyond_years),
                (days, None, Some(100))
            );
            assert_eq!(d.to_string(), "not within 100 years");
        }
        // The JSON: `date` null with `beyond_years`, or a date with no `beyond_years`.
        let far = break_date(0, 433_320, 1.0, "2025-01-01");
        assert_eq!(
            serde_json::to_string(&far).unwrap_or_default(),
            r#"{"days":433320,"date":null,"beyond_years":100}"#
        );
        let near = break_date(10, 57, 1.0, "2025-01-01");
        assert_eq!(
            serde_json::to_string(&near).unwrap_or_default(),
            r#"{"days":47,"date":"2025-02-17"}"#
        );
        assert_eq!(break_date(0, 10, 0.0, "2025-01-01"), None);
        assert_eq!(break_date(0, 10, 1.0, "soon"), None);
    }

    #[test]
    fn first_count_over_is_tight() {
        for (base, elem) in [(40u64, 12u64), (5_000, 0), (16_777_000, 1)] {
            let n = first_count_over(base, elem, MAX_BSON_SIZE).unwrap_or_default();
            let size = |n: u64| base + n * (2 + elem) + index_digits_sum(n);
            assert!(size(n) > MAX_BSON_SIZE);
            assert!(n == 0 || size(n - 1) <= MAX_BSON_SIZE);
        }
    }
}
