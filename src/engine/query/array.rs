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

#[cfg(test)]
mod tests {
    use crate::engine::query::Filter;
    use bson::{doc, Document};

    fn m(f: Document, d: Document) -> bool {
        Filter::parse(&f).map(|f| f.matches(&d)).unwrap_or(false)
    }

    #[test]
    fn size_all_elem_match() {
        assert!(m(doc! {"a": {"$size": 2}}, doc! {"a": [1, [2, 3]]}));
        assert!(!m(doc! {"a": {"$size": 2}}, doc! {"a": [[1, 2]]}));
        assert!(m(doc! {"a": {"$all": [1, 2]}}, doc! {"a": [2, 3, 1]}));
        assert!(m(doc! {"a": {"$all": [1]}}, doc! {"a": 1}));
        assert!(!m(doc! {"a": {"$all": []}}, doc! {"a": [1]}));
        assert!(m(
            doc! {"a": {"$all": [{"$elemMatch": {"x": 1}}, {"$elemMatch": {"y": 1}}]}},
            doc! {"a": [{"x": 1}, {"y": 1}]}
        ));
        assert!(!m(
            doc! {"a": {"$elemMatch": {"x": 1, "y": 1}}},
            doc! {"a": [{"x": 1}, {"y": 1}]}
        ));
        assert!(m(
            doc! {"a": {"$elemMatch": {"$gt": 1, "$lt": 3}}},
            doc! {"a": [0, 2, 4]}
        ));
        assert!(!m(doc! {"a": {"$elemMatch": {"$gt": 1}}}, doc! {"a": 5}));
    }
}
