//! `$and $or $nor` at the top level and `$not` under a path.

use super::{evaluation, parse_operators, Filter, PathOp};
use crate::engine::error::{EngineError, Result};
use bson::Bson;

/// Returns the filter for a top-level `$` key of a query document.
pub fn parse_top_level(op: &str, value: &Bson) -> Result<Filter> {
    match op {
        "and" | "or" | "nor" => {
            let Bson::Array(list) = value else {
                return Err(EngineError::bad_value(format!("${op} must be an array")));
            };
            if list.is_empty() {
                return Err(EngineError::bad_value(
                    "$and/$or/$nor must be a nonempty array",
                ));
            }
            let mut children = Vec::new();
            for v in list {
                let Bson::Document(d) = v else {
                    return Err(EngineError::bad_value(
                        "$or/$and/$nor entries need to be full objects",
                    ));
                };
                children.push(Filter::parse(d)?);
            }
            Ok(match op {
                "and" => Filter::And(children),
                "or" => Filter::Or(children),
                _ => Filter::Nor(children),
            })
        }
        "where" => Err(EngineError::no_javascript("$where")),
        "expr" => evaluation::parse_expr(value),
        "comment" => Ok(Filter::And(Vec::new())),
        other => Err(EngineError::bad_value(format!(
            "unknown top level operator: ${other}"
        ))),
    }
}

/// Returns `$not` with its operator document or regex.
pub fn parse_not(arg: &Bson) -> Result<PathOp> {
    match arg {
        Bson::Document(d) => {
            if d.is_empty() {
                return Err(EngineError::bad_value("$not cannot be empty"));
            }
            Ok(PathOp::Not(parse_operators(d)?))
        }
        Bson::RegularExpression(r) => Ok(PathOp::Not(vec![PathOp::Regex(
            evaluation::RegexOp::new(r.pattern.as_str(), r.options.as_str())?,
        )])),
        _ => Err(EngineError::bad_value("$not needs a regex or a document")),
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
    fn and_or_nor_not() {
        assert!(m(doc! {"$or": [{"a": 1}, {"b": 1}]}, doc! {"b": 1}));
        assert!(!m(doc! {"$nor": [{"a": 1}, {"b": 1}]}, doc! {"b": 1}));
        assert!(m(
            doc! {"$and": [{"a": {"$gt": 0}}, {"a": {"$lt": 2}}]},
            doc! {"a": 1}
        ));
        assert!(m(doc! {"a": {"$not": {"$in": [1, 2]}}}, doc! {}));
        assert_eq!(
            Filter::parse(&doc! {"$or": []}).err().map(|e| e.code),
            Some(2)
        );
        assert_eq!(
            Filter::parse(&doc! {"$foo": 1}).err().map(|e| e.code),
            Some(2)
        );
        assert_eq!(
            Filter::parse(&doc! {"a": {"$not": {}}})
                .err()
                .map(|e| e.code),
            Some(2)
        );
    }
}
