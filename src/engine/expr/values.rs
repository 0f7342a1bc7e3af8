//! Strings and arrays: `$concat $toString $toLower $toUpper $strLenBytes $size $arrayElemAt
//! $slice $concatArrays $in $isArray $first $last $type`.

use super::{arity, type_name};
use crate::engine::compare::{as_f64, equal};
use crate::engine::error::{EngineError, Result};
use bson::Bson;

fn arg(args: &[Option<Bson>], i: usize) -> Option<&Bson> {
    args.get(i).and_then(|v| v.as_ref())
}

fn int_arg(name: &str, v: Option<&Bson>) -> Result<i64> {
    v.and_then(as_f64)
        .filter(|f| f.fract() == 0.0)
        .map(|f| f as i64)
        .ok_or_else(|| EngineError::bad_value(format!("{name} needs an integral numeric argument")))
}

/// Evaluates a string or array operator on evaluated arguments.
pub fn eval(name: &str, args: &[Option<Bson>]) -> Result<Option<Bson>> {
    match name {
        "$concat" => concat(args),
        "$toString" | "$toLower" | "$toUpper" | "$strLenBytes" => string_of(name, args),
        "$size" => match arg(args, 0) {
            Some(Bson::Array(a)) => Ok(Some(Bson::Int32(a.len() as i32))),
            other => Err(EngineError::new(
                17124,
                "Location17124",
                format!(
                    "The argument to $size must be an array. Type of argument is: {}",
                    type_name(other)
                ),
            )),
        },
        "$isArray" => Ok(Some(Bson::Boolean(matches!(
            arg(args, 0),
            Some(Bson::Array(_))
        )))),
        "$type" => Ok(Some(Bson::String(type_name(arg(args, 0)).to_string()))),
        "$first" | "$last" => match arg(args, 0) {
            Some(Bson::Array(a)) => Ok(if name == "$first" {
                a.first().cloned()
            } else {
                a.last().cloned()
            }),
            None | Some(Bson::Null) => Ok(Some(Bson::Null)),
            Some(_) => Err(EngineError::new(
                28689,
                "Location28689",
                format!("{name}'s argument must be an array"),
            )),
        },
        "$arrayElemAt" => array_elem_at(name, args),
        "$slice" => slice(name, args),
        "$concatArrays" => concat_arrays(args),
        "$in" => is_in(name, args),
        _ => Err(EngineError::unknown_expression(name)),
    }
}

/// `$concat`: the strings end to end; null when any is missing or null.
#[inline]
fn concat(args: &[Option<Bson>]) -> Result<Option<Bson>> {
    let mut s = String::new();
    for v in args {
        match v {
            None | Some(Bson::Null) | Some(Bson::Undefined) => return Ok(Some(Bson::Null)),
            Some(Bson::String(x)) => s.push_str(x),
            Some(other) => {
                return Err(EngineError::new(
                    16702,
                    "Location16702",
                    format!(
                        "$concat only supports strings, not {}",
                        type_name(Some(other))
                    ),
                ))
            }
        }
    }
    Ok(Some(Bson::String(s)))
}

/// `$toString`, `$toLower`, `$toUpper` and `$strLenBytes`: the argument's text (what
/// `$toString` converts), then cased or measured.
#[inline]
fn string_of(name: &str, args: &[Option<Bson>]) -> Result<Option<Bson>> {
    let s = match arg(args, 0) {
        None | Some(Bson::Null) | Some(Bson::Undefined) => {
            return Ok(Some(if name == "$toString" {
                Bson::Null
            } else {
                Bson::String(String::new())
            }))
        }
        Some(Bson::String(s)) => s.clone(),
        Some(Bson::ObjectId(o)) => o.to_hex(),
        Some(Bson::Boolean(b)) => b.to_string(),
        Some(Bson::Int32(i)) => i.to_string(),
        Some(Bson::Int64(i)) => i.to_string(),
        Some(Bson::Double(f)) => f.to_string(),
        Some(Bson::Decimal128(d)) => d.to_string(),
        Some(Bson::DateTime(d)) => d.try_to_rfc3339_string().unwrap_or_default(),
        Some(other) => {
            return Err(EngineError::new(
                241,
                "ConversionFailure",
                format!(
                    "Unsupported conversion from {} to string",
                    type_name(Some(other))
                ),
            ))
        }
    };
    Ok(Some(match name {
        "$toLower" => Bson::String(s.to_lowercase()),
        "$toUpper" => Bson::String(s.to_uppercase()),
        "$strLenBytes" => Bson::Int32(s.len() as i32),
        _ => Bson::String(s),
    }))
}

/// `$arrayElemAt`: the element at an index, counted from the end when negative; missing when
/// out of range.
#[inline]
fn array_elem_at(name: &str, args: &[Option<Bson>]) -> Result<Option<Bson>> {
    arity(name, args, 2)?;
    let arr = match arg(args, 0) {
        Some(Bson::Array(a)) => a,
        None | Some(Bson::Null) => return Ok(Some(Bson::Null)),
        Some(other) => {
            return Err(EngineError::new(
                28689,
                "Location28689",
                format!(
                    "$arrayElemAt's first argument must be an array, but is {}",
                    type_name(Some(other))
                ),
            ))
        }
    };
    let i = int_arg(name, arg(args, 1))?;
    let idx = if i < 0 { arr.len() as i64 + i } else { i };
    Ok(usize::try_from(idx).ok().and_then(|i| arr.get(i)).cloned())
}

/// `$slice`: `[array, n]` (the first n, or the last -n) or `[array, position, n]`.
#[inline]
fn slice(name: &str, args: &[Option<Bson>]) -> Result<Option<Bson>> {
    let arr = match arg(args, 0) {
        Some(Bson::Array(a)) => a,
        None | Some(Bson::Null) => return Ok(Some(Bson::Null)),
        Some(_) => {
            return Err(EngineError::new(
                28724,
                "Location28724",
                "First argument to $slice must be an array",
            ))
        }
    };
    let len = arr.len() as i64;
    let (start, n) = if args.len() == 3 {
        let p = int_arg(name, arg(args, 1))?;
        let start = if p < 0 { (len + p).max(0) } else { p.min(len) };
        (start, int_arg(name, arg(args, 2))?.max(0))
    } else {
        let n = int_arg(name, arg(args, 1))?;
        if n < 0 {
            (len.saturating_add(n).max(0), n.saturating_neg())
        } else {
            (0, n)
        }
    };
    Ok(Some(Bson::Array(
        arr.iter()
            .skip(start as usize)
            .take(n as usize)
            .cloned()
            .collect(),
    )))
}

/// `$concatArrays`: the arrays end to end; null when any is missing or null.
#[inline]
fn concat_arrays(args: &[Option<Bson>]) -> Result<Option<Bson>> {
    let mut out = Vec::new();
    for v in args {
        match v {
            Some(Bson::Array(a)) => out.extend(a.iter().cloned()),
            None | Some(Bson::Null) => return Ok(Some(Bson::Null)),
            Some(_) => {
                return Err(EngineError::new(
                    28664,
                    "Location28664",
                    "$concatArrays only supports arrays",
                ))
            }
        }
    }
    Ok(Some(Bson::Array(out)))
}

/// `$in`: whether the first argument equals an element of the second, an array.
#[inline]
fn is_in(name: &str, args: &[Option<Bson>]) -> Result<Option<Bson>> {
    arity(name, args, 2)?;
    let Some(Bson::Array(list)) = arg(args, 1) else {
        return Err(EngineError::new(
            40081,
            "Location40081",
            "$in requires an array as a second argument",
        ));
    };
    let needle = arg(args, 0).cloned().unwrap_or(Bson::Undefined);
    Ok(Some(Bson::Boolean(list.iter().any(|v| equal(v, &needle)))))
}
