//! `$exists` and `$type`.

use super::PathOp;
use crate::engine::error::{EngineError, Result};
use crate::engine::path::Item;
use bson::Bson;

/// Returns the parsed element operator.
pub fn parse(name: &str, arg: &Bson) -> Result<PathOp> {
    if name == "$exists" {
        let want = match arg {
            Bson::Boolean(b) => *b,
            Bson::Null | Bson::Undefined => false,
            v => crate::engine::compare::as_f64(v).is_none_or(|f| f != 0.0),
        };
        return Ok(PathOp::Exists(want));
    }
    let mut codes = Vec::new();
    match arg {
        Bson::Array(list) => {
            for v in list {
                codes.extend(type_codes(v)?);
            }
        }
        v => codes.extend(type_codes(v)?),
    }
    Ok(PathOp::Type(codes))
}

/// Returns the BSON type numbers a `$type` argument names (`"number"` names four).
pub fn type_codes(v: &Bson) -> Result<Vec<i32>> {
    if let Some(f) = crate::engine::compare::as_f64(v) {
        let n = f as i32;
        if f64::from(n) == f && (n == -1 || n == 127 || (1..=19).contains(&n)) {
            return Ok(vec![n]);
        }
        return Err(EngineError::bad_value(format!(
            "Invalid numerical type code: {f}"
        )));
    }
    let Bson::String(s) = v else {
        return Err(EngineError::type_mismatch(
            "argument to $type is not a number or a string",
        ));
    };
    let n = match s.as_str() {
        "double" => 1,
        "string" => 2,
        "object" => 3,
        "array" => 4,
        "binData" => 5,
        "undefined" => 6,
        "objectId" => 7,
        "bool" => 8,
        "date" => 9,
        "null" => 10,
        "regex" => 11,
        "dbPointer" => 12,
        "javascript" => 13,
        "symbol" => 14,
        "javascriptWithScope" => 15,
        "int" => 16,
        "timestamp" => 17,
        "long" => 18,
        "decimal" => 19,
        "minKey" => -1,
        "maxKey" => 127,
        "number" => return Ok(vec![1, 16, 18, 19]),
        other => {
            return Err(EngineError::bad_value(format!(
                "Unknown type name alias: {other}"
            )))
        }
    };
    Ok(vec![n])
}

/// Returns the BSON type number of a value.
pub fn type_code(v: &Bson) -> i32 {
    i32::from(v.element_type() as u8 as i8)
}

/// Returns true when the item has one of the listed types.
pub fn matches(op: &PathOp, item: Item<'_>) -> bool {
    match (op, item) {
        (PathOp::Type(codes), Item::Value(v)) => codes.contains(&type_code(v)),
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
    fn exists_and_type() {
        assert!(m(doc! {"a": {"$exists": true}}, doc! {"a": null}));
        assert!(m(doc! {"a.b": {"$exists": false}}, doc! {"a": [1, 2]}));
        assert!(m(doc! {"a": {"$type": "string"}}, doc! {"a": ["x", 1]}));
        assert!(m(doc! {"a": {"$type": ["null", 16]}}, doc! {"a": 3}));
        assert!(m(doc! {"a": {"$type": "array"}}, doc! {"a": []}));
        assert!(!m(doc! {"a": {"$type": "long"}}, doc! {"a": 3}));
        assert!(Filter::parse(&doc! {"a": {"$type": "nonsense"}}).is_err());
    }
}
