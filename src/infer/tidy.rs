//! An inferred model as people read it: its fitted parameters rounded to what matters and its
//! whole numbers written as integers (`"count": 180`, not `180.0`; `"sd": 5.16`, not
//! `5.158299897407918`).
//!
//! [`round`] rounds in the model itself, so that what is evaluated is what is written:
//! the parameters inference computes rather than reads (a normal's spread, a field's
//! presence, growth per day, a SQL relationship's mean children) keep
//! [`SIGNIFICANT_DIGITS`] significant digits. Rounding to significant digits is monotone and
//! keeps a positive number positive, so an order the model's checks ask for (`min ≤ max`,
//! `typical ≤ p99 ≤ max`, `sd > 0`, `typical > 0`) holds after it as before. The values read
//! from the data (a number field's `min` and `max`, lengths, counts and quantiles, which are
//! whole) are kept as they are.
//!
//! [`model_text`] and [`model_value`] write the model (`squillion infer` and the page's
//! "Start from your data" both do): serde writes every `f64` with a decimal point, so each
//! whole number within the integers a double holds exactly (|x| ≤ 2^53) becomes a JSON
//! integer; the model reads it back as the same `f64`.

use serde_json::Value;

use crate::model::{Distribution, Field, Model};

/// The significant digits a computed parameter keeps (a spread of 5.16 bytes, a presence of
/// 0.833, growth of 0.000271 children a day): beyond them the figures say more than the
/// sample knows, and no size or cost the model evaluates moves by more than 0.5%.
pub const SIGNIFICANT_DIGITS: i32 = 3;

/// The largest whole number written as an integer (2^53: every integer up to it is exact in
/// a double).
const MAX_EXACT_INTEGER: f64 = 9_007_199_254_740_992.0;

/// Returns `x` rounded to [`SIGNIFICANT_DIGITS`] significant digits (whole numbers, zero and
/// non-finite numbers as they are).
pub fn significant(x: f64) -> f64 {
    if !x.is_finite() || x == 0.0 || x.fract() == 0.0 {
        return x;
    }
    let magnitude = libm::floor(libm::log10(x.abs())) as i32;
    let scale = libm::pow(10.0, f64::from(SIGNIFICANT_DIGITS - 1 - magnitude));
    let rounded = libm::round(x * scale) / scale;
    if rounded.is_finite() && rounded != 0.0 {
        rounded
    } else {
        x
    }
}

/// Rounds the parameters inference computed in `model` to [`SIGNIFICANT_DIGITS`] significant
/// digits: every distribution's non-whole parameters, every field's presence and every
/// relationship's growth per day.
pub fn round(model: &mut Model) {
    for entity in &mut model.entities {
        for (_, field) in &mut entity.fields.0 {
            round_field(field);
        }
    }
    for r in &mut model.relationships {
        round_distribution(&mut r.cardinality);
        if let Some(d) = &mut r.parents_per_child {
            round_distribution(d);
        }
        if let Some(g) = &mut r.growth_per_day {
            g.typical = significant(g.typical);
            g.largest = g
                .largest
                .map(significant)
                .filter(|&largest| largest > g.typical);
        }
    }
}

/// Rounds a field's (and its sub-fields') length, count and presence.
fn round_field(field: &mut Field) {
    if let Some(d) = &mut field.length {
        round_distribution(d);
    }
    if let Some(d) = &mut field.count {
        round_distribution(d);
    }
    field.presence = field.presence.map(significant);
    for (_, sub) in &mut field.fields.0 {
        round_field(sub);
    }
}

/// Rounds a distribution's parameters (the whole ones stay as they are).
fn round_distribution(d: &mut Distribution) {
    match d {
        Distribution::Fixed { value } => *value = significant(*value),
        Distribution::Uniform { min, max } => {
            *min = significant(*min);
            *max = significant(*max);
        }
        Distribution::Normal { mean, sd, min, max } => {
            for x in [mean, sd, min, max] {
                *x = significant(*x);
            }
        }
        Distribution::Lognormal { typical, p99, max } => {
            for x in [typical, p99, max] {
                *x = significant(*x);
            }
        }
        Distribution::Zipf {
            min,
            typical,
            p99,
            max,
        } => {
            for x in [min, typical, p99, max] {
                *x = significant(*x);
            }
        }
        // Layout-only shapes: never inferred.
        Distribution::Capped { .. }
        | Distribution::Chunks { .. }
        | Distribution::Remainder { .. } => {}
    }
}

/// Returns `model` as JSON with its whole numbers as integers.
pub fn model_value(model: &Model) -> serde_json::Result<Value> {
    let mut v = serde_json::to_value(model)?;
    whole_as_integers(&mut v);
    Ok(v)
}

/// Returns `model` as pretty-printed JSON text with its whole numbers as integers (no final
/// newline).
pub fn model_text(model: &Model) -> serde_json::Result<String> {
    serde_json::to_string_pretty(&model_value(model)?)
}

/// Rewrites every whole number of `v` (|x| ≤ 2^53) written as a float as an integer.
fn whole_as_integers(v: &mut Value) {
    match v {
        Value::Number(n) if n.is_f64() => {
            if let Some(x) = n.as_f64() {
                if x.fract() == 0.0 && x.abs() <= MAX_EXACT_INTEGER {
                    // Exact: |x| ≤ 2^53 fits an i64 with no rounding.
                    *v = Value::from(x as i64);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(whole_as_integers),
        Value::Object(map) => map.values_mut().for_each(whole_as_integers),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_significant_digits() {
        assert_eq!(significant(5.158_299_897_407_918), 5.16);
        assert_eq!(significant(0.390_152_073_036_189_43), 0.39);
        assert_eq!(significant(3.009_008_2), 3.01);
        assert_eq!(significant(0.000_270_539_445_653_503_9), 0.000_271);
        assert_eq!(significant(1234.5), 1230.0);
        assert_eq!(significant(180.0), 180.0);
        assert_eq!(significant(0.0), 0.0);
        assert_eq!(significant(-2.345_6), -2.35);
    }

    #[test]
    fn rounding_keeps_order_and_positivity() {
        // Monotone: a tight spread of nearly equal ends stays ordered, a tiny spread positive.
        let xs = [0.999_4, 0.999_6, 1.000_4, 99.96, 100.4, 1e-9, 3.333_3];
        for a in xs {
            for b in xs {
                if a <= b {
                    assert!(significant(a) <= significant(b), "{a} {b}");
                }
            }
            assert!(significant(a) > 0.0, "{a}");
        }
    }

    #[test]
    fn whole_numbers_are_written_as_integers() {
        let mut v = serde_json::json!({"count": 180.0, "sd": 5.16, "n": [1.0, 2.5], "big": 1e300});
        whole_as_integers(&mut v);
        assert!(v["big"].is_f64(), "{v}");
        let text = v.to_string();
        assert!(text.contains("\"count\":180,"), "{text}");
        assert!(text.contains("\"sd\":5.16"), "{text}");
        assert!(text.contains("[1,2.5]"), "{text}");
    }
}
