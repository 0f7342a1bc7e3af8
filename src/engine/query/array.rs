//! `$size`, `$all` and `$elemMatch`: operators that look at an array as a whole.

use super::{parse_operators, Filter, PathOp};
use crate::engine::compare::as_f64;
use crate::engine::error::{EngineError, Result};
use crate::engine::path::Item;
use bson::Bson;

/// Returns the parsed array operator.
pub fn parse(name: &str, arg: &Bson) -> Result<PathOp> {
    match name {
        "$size" => {
            let n = as_f64(arg).ok_or_else(|| EngineError::bad_value("$size needs a number"))?;
            if n.fract() != 0.0 || n < 0.0 {
                return Err(EngineError::bad_value(
                    "$size may not be negative or fractional",
                ));
            }
            Ok(PathOp::Size(n as i64))
        }
        "$all" => {
            let Bson::Array(list) = arg else {
                return Err(EngineError::bad_value("$all needs an array"));
            };
            let mut ops = Vec::new();
            for v in list {
                match v {
                    Bson::Document(d) if d.keys().next().is_some_and(|k| k == "$elemMatch") => {
                        ops.extend(parse_operators(d)?);
                    }
                    Bson::RegularExpression(r) => ops.push(PathOp::Regex(
                        super::evaluation::RegexOp::new(r.pattern.as_str(), r.options.as_str())?,
                    )),
                    other => ops.push(PathOp::Eq(other.clone())),
                }
            }
            Ok(PathOp::All(ops))
        }
        _ => {
            let Bson::Document(d) = arg else {
                return Err(EngineError::bad_value("$elemMatch needs an Object"));
            };
            let value_form = !d.is_empty()
                && d.keys().all(|k| {
                    k.starts_with('$')
                        && !matches!(k.as_str(), "$and" | "$or" | "$nor" | "$expr" | "$where")
                });
            if value_form {
                Ok(PathOp::ElemMatchValue(parse_operators(d)?))
            } else {
                Ok(PathOp::ElemMatchDoc(Box::new(Filter::parse(d)?)))
            }
        }
    }
}

/// Returns true when the item is an array satisfying the operator.
pub fn matches(op: &PathOp, item: Item<'_>) -> bool {
    let Item::Value(Bson::Array(arr)) = item else {
        return false;
    };
    match op {
        PathOp::Size(n) => arr.len() as i64 == *n,
        PathOp::ElemMatchDoc(f) => arr
            .iter()
            .any(|e| matches!(e, Bson::Document(d) if f.matches(d))),
        PathOp::ElemMatchValue(ops) => arr
            .iter()
            .any(|e| ops.iter().all(|o| o.matches_item(Item::Value(e)))),
        _ => false,
    }
}
