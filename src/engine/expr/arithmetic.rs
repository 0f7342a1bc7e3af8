//! `$add $subtract $multiply $divide $mod $abs $floor $ceil $round $sum $avg $min $max` and
//! numeric conversions, with mongod's type promotion (int → long on overflow → double).

use crate::engine::compare::{as_f64, as_num, compare, Num};
use crate::engine::error::{EngineError, Result};
use crate::engine::expr::type_name;
use bson::Bson;

fn nullish(v: &Option<Bson>) -> bool {
    matches!(v, None | Some(Bson::Null) | Some(Bson::Undefined))
}

/// Returns `a op b` with mongod's numeric type promotion; `None` when not both numbers.
pub fn combine(a: &Bson, b: &Bson, op: char) -> Option<Bson> {
    let is_dec = matches!(a, Bson::Decimal128(_)) || matches!(b, Bson::Decimal128(_));
    let is_double = matches!(a, Bson::Double(_)) || matches!(b, Bson::Double(_));
    let (x, y) = (as_num(a)?, as_num(b)?);
    if !is_dec && !is_double {
        if let (Num::Int(i), Num::Int(j)) = (x, y) {
            let r = match op {
                '+' => i.checked_add(j),
                '-' => i.checked_sub(j),
                '%' => i.checked_rem(j),
                _ => i.checked_mul(j),
            };
            let both_int32 = matches!(a, Bson::Int32(_)) && matches!(b, Bson::Int32(_));
            return Some(match r {
                Some(r) if both_int32 && i32::try_from(r).is_ok() => Bson::Int32(r as i32),
                Some(r) => Bson::Int64(r),
                None => Bson::Double(apply_f(i as f64, j as f64, op)),
            });
        }
    }
    let r = apply_f(as_f64(a)?, as_f64(b)?, op);
    Some(if is_dec { decimal(r) } else { Bson::Double(r) })
}

fn apply_f(x: f64, y: f64, op: char) -> f64 {
    match op {
        '+' => x + y,
        '-' => x - y,
        '*' => x * y,
        '/' => x / y,
        _ => x % y,
    }
}

/// Returns a decimal128 holding `f` (via its shortest decimal text).
pub fn decimal(f: f64) -> Bson {
    format!("{f}")
        .parse::<bson::Decimal128>()
        .map(Bson::Decimal128)
        .unwrap_or(Bson::Double(f))
}

fn not_numeric(name: &str, v: &Bson) -> EngineError {
    EngineError::type_mismatch(format!(
        "{name} only supports numeric types, not {}",
        type_name(Some(v))
    ))
}

/// Evaluates an arithmetic operator on evaluated arguments.
pub fn eval(name: &str, args: &[Option<Bson>]) -> Result<Option<Bson>> {
    match name {
        "$add" => add(args),
        "$subtract" => subtract(name, args),
        "$multiply" => multiply(name, args),
        "$divide" | "$mod" => divide(name, args),
        "$abs" | "$floor" | "$ceil" | "$round" | "$toDouble" | "$toInt" | "$toLong" => {
            unary(name, args)
        }
        "$sum" | "$avg" | "$min" | "$max" => {
            let flat: Vec<Bson> = if let [only] = args {
                match only {
                    Some(Bson::Array(a)) => a.clone(),
                    Some(v) => vec![v.clone()],
                    None => vec![],
                }
            } else {
                args.iter().flatten().cloned().collect()
            };
            Ok(Some(fold(name, &flat)))
        }
        _ => Err(EngineError::unknown_expression(name)),
    }
}

/// `$add`: the sum of numbers, plus at most one date (the sum then moves the date, in
/// milliseconds); null when any argument is missing or null.
#[inline]
fn add(args: &[Option<Bson>]) -> Result<Option<Bson>> {
    if args.iter().any(nullish) {
        return Ok(Some(Bson::Null));
    }
    let mut acc = Bson::Int32(0);
    let mut date: Option<i64> = None;
    for v in args.iter().flatten() {
        if let Bson::DateTime(d) = v {
            if date.is_some() {
                return Err(EngineError::new(
                    16612,
                    "Location16612",
                    "only one date allowed in an $add expression",
                ));
            }
            date = Some(d.timestamp_millis());
            continue;
        }
        acc = combine(&acc, v, '+').ok_or_else(|| {
            EngineError::type_mismatch(format!(
                "$add only supports numeric or date types, not {}",
                type_name(Some(v))
            ))
        })?;
    }
    Ok(Some(match date {
        Some(ms) => Bson::DateTime(bson::DateTime::from_millis(
            ms.saturating_add(as_f64(&acc).unwrap_or(0.0).round() as i64),
        )),
        None => acc,
    }))
}

/// `$subtract`: numbers, a date minus milliseconds (a date), or a date minus a date (their
/// distance in milliseconds).
#[inline]
fn subtract(name: &str, args: &[Option<Bson>]) -> Result<Option<Bson>> {
    crate::engine::expr::arity(name, args, 2)?;
    let (Some(Some(a)), Some(Some(b))) = (args.first(), args.get(1)) else {
        return Ok(Some(Bson::Null));
    };
    match (a, b) {
        (Bson::Null, _) | (_, Bson::Null) => Ok(Some(Bson::Null)),
        (Bson::DateTime(x), Bson::DateTime(y)) => Ok(Some(Bson::Int64(
            x.timestamp_millis().saturating_sub(y.timestamp_millis()),
        ))),
        (Bson::DateTime(x), n) => {
            let ms = as_f64(n).ok_or_else(|| not_numeric(name, n))?;
            Ok(Some(Bson::DateTime(bson::DateTime::from_millis(
                x.timestamp_millis().saturating_sub(ms.round() as i64),
            ))))
        }
        _ => combine(a, b, '-')
            .map(Some)
            .ok_or_else(|| not_numeric(name, if as_num(a).is_none() { a } else { b })),
    }
}

/// `$multiply`: the product of numbers; null when any argument is missing or null.
#[inline]
fn multiply(name: &str, args: &[Option<Bson>]) -> Result<Option<Bson>> {
    if args.iter().any(nullish) {
        return Ok(Some(Bson::Null));
    }
    let mut acc = Bson::Int32(1);
    for v in args.iter().flatten() {
        acc = combine(&acc, v, '*').ok_or_else(|| not_numeric(name, v))?;
    }
    Ok(Some(acc))
}

/// `$divide` (always a double, or a decimal) and `$mod` (promoted as `combine` does); a zero
/// divisor is an error.
#[inline]
fn divide(name: &str, args: &[Option<Bson>]) -> Result<Option<Bson>> {
    crate::engine::expr::arity(name, args, 2)?;
    let (Some(Some(a)), Some(Some(b))) = (args.first(), args.get(1)) else {
        return Ok(Some(Bson::Null));
    };
    if matches!(a, Bson::Null) || matches!(b, Bson::Null) {
        return Ok(Some(Bson::Null));
    }
    let x = as_f64(a).ok_or_else(|| not_numeric(name, a))?;
    let y = as_f64(b).ok_or_else(|| not_numeric(name, b))?;
    if y == 0.0 {
        return Err(EngineError::bad_value(if name == "$divide" {
            "can't $divide by zero"
        } else {
            "can't $mod by zero"
        }));
    }
    if name == "$divide" {
        return Ok(Some(
            if matches!(a, Bson::Decimal128(_)) || matches!(b, Bson::Decimal128(_)) {
                decimal(x / y)
            } else {
                Bson::Double(x / y)
            },
        ));
    }
    Ok(combine(a, b, '%'))
}

/// `$abs`, `$floor`, `$ceil`, `$round` and the conversions to numbers: one argument, null
/// when missing or null; integers keep their type (`$abs` widens on overflow).
#[inline]
fn unary(name: &str, args: &[Option<Bson>]) -> Result<Option<Bson>> {
    let v = match args.first() {
        Some(Some(v)) if !matches!(v, Bson::Null) => v,
        _ => return Ok(Some(Bson::Null)),
    };
    if name == "$toDouble" || name == "$toInt" || name == "$toLong" {
        return to_number(name, v);
    }
    match v {
        Bson::Int32(i) if name == "$abs" => Ok(Some(
            i.checked_abs()
                .map(Bson::Int32)
                .unwrap_or(Bson::Int64(-i64::from(*i))),
        )),
        Bson::Int64(i) if name == "$abs" => Ok(Some(
            i.checked_abs()
                .map(Bson::Int64)
                .unwrap_or(Bson::Double(-(*i as f64))),
        )),
        Bson::Int32(_) | Bson::Int64(_) => Ok(Some(v.clone())),
        other => {
            let f = as_f64(other).ok_or_else(|| not_numeric(name, other))?;
            let r = match name {
                "$abs" => f.abs(),
                "$floor" => f.floor(),
                "$ceil" => f.ceil(),
                _ => f.round_ties_even(),
            };
            Ok(Some(if matches!(other, Bson::Decimal128(_)) {
                decimal(r)
            } else {
                Bson::Double(r)
            }))
        }
    }
}

/// `$toDouble`, `$toInt` and `$toLong` of `v`: numbers, numeric strings, booleans and dates
/// (their milliseconds), truncated toward zero for the integers.
#[inline]
fn to_number(name: &str, v: &Bson) -> Result<Option<Bson>> {
    let f = match v {
        Bson::String(s) => s.trim().parse::<f64>().map_err(|_| {
            EngineError::new(
                241,
                "ConversionFailure",
                format!("Failed to parse number '{s}' in $convert"),
            )
        })?,
        Bson::Boolean(b) => f64::from(u8::from(*b)),
        Bson::DateTime(d) => d.timestamp_millis() as f64,
        other => as_f64(other).ok_or_else(|| not_numeric(name, other))?,
    };
    Ok(Some(match name {
        "$toDouble" => Bson::Double(f),
        "$toInt" => Bson::Int32(f.trunc() as i32),
        _ => Bson::Int64(f.trunc() as i64),
    }))
}

/// Returns `$sum`, `$avg`, `$min` or `$max` over values, as the accumulator and the
/// expression both compute them (non-numbers ignored by `$sum`/`$avg`; null ignored by
/// `$min`/`$max`; empty gives 0 for `$sum`, null otherwise).
pub fn fold(name: &str, values: &[Bson]) -> Bson {
    match name {
        "$sum" | "$avg" => {
            let mut acc = Bson::Int32(0);
            let mut n = 0u64;
            for v in values {
                if as_num(v).is_some() {
                    acc = combine(&acc, v, '+').unwrap_or(acc);
                    n += 1;
                }
            }
            if name == "$sum" {
                acc
            } else if n == 0 {
                Bson::Null
            } else {
                let total = as_f64(&acc).unwrap_or(0.0);
                if matches!(acc, Bson::Decimal128(_)) {
                    decimal(total / n as f64)
                } else {
                    Bson::Double(total / n as f64)
                }
            }
        }
        _ => {
            let mut best: Option<&Bson> = None;
            for v in values
                .iter()
                .filter(|v| !matches!(v, Bson::Null | Bson::Undefined))
            {
                best = match best {
                    None => Some(v),
                    Some(b) => {
                        let o = compare(v, b);
                        if (name == "$min" && o.is_lt()) || (name == "$max" && o.is_gt()) {
                            Some(v)
                        } else {
                            Some(b)
                        }
                    }
                };
            }
            best.cloned().unwrap_or(Bson::Null)
        }
    }
}
