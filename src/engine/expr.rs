//! Aggregation expressions: field paths (`"$a.b"`), variables (`$$ROOT`), literals, object and
//! array expressions, and operators (`{ $add: [...] }`), parsed once and evaluated per document.
//!
//! Operators are grouped by family under `expr/`; [`Expr::parse`] checks names against the one
//! registry [`family`], so an unknown operator is an error at parse time, as in mongod.

pub mod arithmetic;
pub mod logic;
pub mod values;

use crate::engine::compare::shell;
use crate::engine::error::{EngineError, Result};
use bson::{Bson, Document};

/// A parsed aggregation expression.
#[derive(Debug, Clone)]
pub enum Expr {
    /// A constant.
    Literal(Bson),
    /// `"$a.b"`: the value at a path of the current document (arrays map element-wise).
    Field(String),
    /// `"$$NAME.path"`: a variable (`ROOT`, `CURRENT`, `REMOVE`) and an optional path.
    Var(String, String),
    /// `{ a: <expr>, ... }`.
    Object(Vec<(String, Expr)>),
    /// `[ <expr>, ... ]`.
    Array(Vec<Expr>),
    /// `{ $op: [args] }`.
    Op(String, Vec<Expr>),
}

/// The operator families; returns which one implements `name`, `None` if unknown.
pub fn family(name: &str) -> Option<&'static str> {
    Some(match name {
        "$add" | "$subtract" | "$multiply" | "$divide" | "$mod" | "$abs" | "$floor" | "$ceil"
        | "$sum" | "$avg" | "$min" | "$max" | "$round" | "$toInt" | "$toLong" | "$toDouble" => {
            "arithmetic"
        }
        "$eq" | "$ne" | "$gt" | "$gte" | "$lt" | "$lte" | "$cmp" | "$and" | "$or" | "$not"
        | "$cond" | "$ifNull" => "logic",
        "$concat" | "$toString" | "$toLower" | "$toUpper" | "$size" | "$arrayElemAt" | "$slice"
        | "$concatArrays" | "$in" | "$isArray" | "$first" | "$last" | "$type" | "$literal"
        | "$strLenBytes" => "values",
        _ => return None,
    })
}

impl Expr {
    /// Returns the parsed expression; unknown operators and server-side JavaScript are errors.
    pub fn parse(value: &Bson) -> Result<Expr> {
        match value {
            Bson::String(s) if s.starts_with("$$") => {
                let body = &s[2..];
                let (name, rest) = body.split_once('.').unwrap_or((body, ""));
                match name {
                    "ROOT" | "CURRENT" | "REMOVE" | "NOW" => {
                        Ok(Expr::Var(name.to_string(), rest.to_string()))
                    }
                    other => Err(EngineError::new(
                        17276,
                        "Location17276",
                        format!("Use of undefined variable: {other}"),
                    )),
                }
            }
            Bson::String(s) if s.starts_with('$') => {
                if s.len() == 1 {
                    return Err(EngineError::new(
                        16872,
                        "Location16872",
                        "'$' by itself is not a valid FieldPath",
                    ));
                }
                Ok(Expr::Field(s[1..].to_string()))
            }
            Bson::Array(a) => Ok(Expr::Array(
                a.iter().map(Expr::parse).collect::<Result<_>>()?,
            )),
            Bson::Document(d) => {
                let first = d.keys().next();
                if let Some(name) = first.filter(|k| k.starts_with('$')) {
                    if d.len() != 1 {
                        return Err(EngineError::new(
                            15983,
                            "Location15983",
                            "an expression specification must contain exactly one field, the name of the expression",
                        ));
                    }
                    let arg = d.get(name).cloned().unwrap_or(Bson::Null);
                    if matches!(name.as_str(), "$function" | "$accumulator" | "$where") {
                        return Err(EngineError::no_javascript(name));
                    }
                    if name == "$literal" {
                        return Ok(Expr::Literal(arg));
                    }
                    if family(name).is_none() {
                        return Err(EngineError::unknown_expression(name));
                    }
                    let args = match (&arg, name.as_str()) {
                        (Bson::Document(c), "$cond") => {
                            let get = |k: &str| {
                                c.get(k)
                                    .map(Expr::parse)
                                    .unwrap_or(Ok(Expr::Literal(Bson::Null)))
                            };
                            vec![get("if")?, get("then")?, get("else")?]
                        }
                        (Bson::Array(a), _) => a.iter().map(Expr::parse).collect::<Result<_>>()?,
                        (other, _) => vec![Expr::parse(other)?],
                    };
                    return Ok(Expr::Op(name.clone(), args));
                }
                let mut fields = Vec::new();
                for (k, v) in d {
                    fields.push((k.clone(), Expr::parse(v)?));
                }
                Ok(Expr::Object(fields))
            }
            other => Ok(Expr::Literal(other.clone())),
        }
    }

    /// Returns the value of the expression for `root`; `None` means missing.
    pub fn eval(&self, root: &Document) -> Result<Option<Bson>> {
        match self {
            Expr::Literal(v) => Ok(Some(v.clone())),
            Expr::Field(p) => Ok(field_path(root, p)),
            Expr::Var(name, rest) => match name.as_str() {
                "REMOVE" => Ok(None),
                "NOW" => Ok(Some(Bson::DateTime(bson::DateTime::from_millis(0)))),
                _ if rest.is_empty() => Ok(Some(Bson::Document(root.clone()))),
                _ => Ok(field_path(root, rest)),
            },
            Expr::Object(fields) => {
                let mut d = Document::new();
                for (k, e) in fields {
                    if let Some(v) = e.eval(root)? {
                        d.insert(k.clone(), v);
                    }
                }
                Ok(Some(Bson::Document(d)))
            }
            Expr::Array(items) => {
                let mut out = Vec::new();
                for e in items {
                    out.push(e.eval(root)?.unwrap_or(Bson::Null));
                }
                Ok(Some(Bson::Array(out)))
            }
            Expr::Op(name, args) => {
                let mut vals = Vec::with_capacity(args.len());
                if matches!(name.as_str(), "$cond" | "$and" | "$or" | "$ifNull") {
                    return logic::eval_lazy(name, args, root);
                }
                for a in args {
                    vals.push(a.eval(root)?);
                }
                match family(name) {
                    Some("arithmetic") => arithmetic::eval(name, &vals),
                    Some("logic") => logic::eval(name, &vals),
                    Some("values") => values::eval(name, &vals),
                    _ => Err(EngineError::unknown_expression(name)),
                }
            }
        }
    }

    /// Returns the expression as it would be written.
    pub fn to_bson(&self) -> Bson {
        match self {
            Expr::Literal(v) => match v {
                Bson::String(s) if s.starts_with('$') => {
                    Bson::Document(bson::doc! {"$literal": s.clone()})
                }
                other => other.clone(),
            },
            Expr::Field(p) => Bson::String(format!("${p}")),
            Expr::Var(n, r) => Bson::String(if r.is_empty() {
                format!("$${n}")
            } else {
                format!("$${n}.{r}")
            }),
            Expr::Object(f) => {
                let mut d = Document::new();
                for (k, e) in f {
                    d.insert(k.clone(), e.to_bson());
                }
                Bson::Document(d)
            }
            Expr::Array(a) => Bson::Array(a.iter().map(|e| e.to_bson()).collect()),
            Expr::Op(n, a) => {
                let mut d = Document::new();
                d.insert(
                    n.clone(),
                    Bson::Array(a.iter().map(|e| e.to_bson()).collect()),
                );
                Bson::Document(d)
            }
        }
    }
}

impl std::fmt::Display for Expr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&shell(&self.to_bson()))
    }
}

/// Returns the value at a field path as expressions see it: through arrays, element-wise.
pub fn field_path(root: &Document, path: &str) -> Option<Bson> {
    let parts: Vec<&str> = path.split('.').collect();
    let (first, rest) = parts.split_first()?;
    let v = root.get(*first)?;
    descend(v, rest)
}

fn descend(v: &Bson, rest: &[&str]) -> Option<Bson> {
    let Some((first, after)) = rest.split_first() else {
        return Some(v.clone());
    };
    match v {
        Bson::Document(d) => descend(d.get(*first)?, after),
        Bson::Array(a) => Some(Bson::Array(
            a.iter()
                .filter_map(|e| match e {
                    Bson::Document(_) | Bson::Array(_) => descend(e, rest),
                    _ => None,
                })
                .collect(),
        )),
        _ => None,
    }
}

/// Returns the truthiness of a value: false, null, missing, undefined and zero are false.
pub fn truthy(v: Option<&Bson>) -> bool {
    match v {
        None | Some(Bson::Null) | Some(Bson::Undefined) | Some(Bson::Boolean(false)) => false,
        Some(x) => crate::engine::compare::as_f64(x).is_none_or(|f| f != 0.0),
    }
}

/// Returns the name mongod's `$type` gives a value.
pub fn type_name(v: Option<&Bson>) -> &'static str {
    match v {
        None => "missing",
        Some(v) => match v {
            Bson::Double(_) => "double",
            Bson::String(_) => "string",
            Bson::Document(_) => "object",
            Bson::Array(_) => "array",
            Bson::Binary(_) => "binData",
            Bson::Undefined => "undefined",
            Bson::ObjectId(_) => "objectId",
            Bson::Boolean(_) => "bool",
            Bson::DateTime(_) => "date",
            Bson::Null => "null",
            Bson::RegularExpression(_) => "regex",
            Bson::DbPointer(_) => "dbPointer",
            Bson::JavaScriptCode(_) => "javascript",
            Bson::Symbol(_) => "symbol",
            Bson::JavaScriptCodeWithScope(_) => "javascriptWithScope",
            Bson::Int32(_) => "int",
            Bson::Timestamp(_) => "timestamp",
            Bson::Int64(_) => "long",
            Bson::Decimal128(_) => "decimal",
            Bson::MinKey => "minKey",
            Bson::MaxKey => "maxKey",
        },
    }
}

/// Returns the expected number of arguments error (code 16020) unless `args` has `n`.
pub fn arity(name: &str, args: &[Option<Bson>], n: usize) -> Result<()> {
    if args.len() == n {
        Ok(())
    } else {
        Err(EngineError::new(
            16020,
            "Location16020",
            format!(
                "Expression {name} takes exactly {n} arguments. {} were passed in.",
                args.len()
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    fn ev(e: Bson, d: Document) -> Option<Bson> {
        Expr::parse(&e).and_then(|x| x.eval(&d)).ok().flatten()
    }

    #[test]
    fn arithmetic_and_paths() {
        let d = doc! {"a": 2, "b": {"c": 3.5}, "xs": [{"v": 1}, {"v": 2}]};
        assert_eq!(
            ev(Bson::Document(doc! {"$add": ["$a", "$b.c"]}), d.clone()),
            Some(Bson::Double(5.5))
        );
        assert_eq!(
            ev(Bson::String("$xs.v".into()), d.clone()),
            Some(Bson::Array(vec![1.into(), 2.into()]))
        );
        assert_eq!(
            ev(Bson::Document(doc! {"$size": "$xs"}), d.clone()),
            Some(Bson::Int32(2))
        );
        assert_eq!(
            ev(
                Bson::Document(
                    doc! {"$cond": {"if": {"$gt": ["$a", 1]}, "then": "big", "else": "small"}}
                ),
                d
            ),
            Some(Bson::String("big".into()))
        );
    }

    #[test]
    fn integer_mod_and_overflow() {
        let d = doc! {"a": 7, "b": i32::MAX};
        assert_eq!(
            ev(Bson::Document(doc! {"$mod": ["$a", 3]}), d.clone()),
            Some(Bson::Int32(1))
        );
        assert_eq!(
            ev(Bson::Document(doc! {"$add": ["$b", 1]}), d),
            Some(Bson::Int64(i64::from(i32::MAX) + 1))
        );
    }

    #[test]
    fn unknown_operator_is_an_error() {
        let e = Expr::parse(&Bson::Document(doc! {"$frobnicate": 1}))
            .err()
            .map(|e| e.code);
        assert_eq!(e, Some(168));
        let e = Expr::parse(&Bson::Document(doc! {"$function": {}}))
            .err()
            .map(|e| e.message)
            .unwrap_or_default();
        assert!(e.contains("never runs user code"));
    }
}
