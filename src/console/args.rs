//! The console's readers of command arguments and options: counts, flags, documents and
//! collations, each with the error mongosh would give, and the type names those errors use.

use bson::{Bson, Document};

use super::{Exec, ExecError};
use crate::engine::CommandResult;

/// Returns the `n` of a count result.
pub(super) fn count_of(result: &CommandResult) -> i64 {
    result
        .documents
        .first()
        .and_then(|d| d.get("n"))
        .and_then(|n| match n {
            Bson::Int64(n) => Some(*n),
            Bson::Int32(n) => Some(i64::from(*n)),
            _ => None,
        })
        .unwrap_or(0)
}

pub(super) fn is_negative(v: &Bson) -> bool {
    crate::engine::compare::as_f64(v).is_some_and(|f| f < 0.0)
}

/// Returns an integral number's absolute value (a negative limit means "one batch" in
/// mongosh: the same documents here).
pub(super) fn count_value(v: &Bson) -> Option<u64> {
    match crate::engine::compare::as_f64(v) {
        Some(f) if f.fract() == 0.0 && f.is_finite() => Some(f.abs() as u64),
        _ => None,
    }
}

/// Returns a `collation` document once the engine accepts it (locale, strength 1–5), so that
/// a bad one is reported at the option rather than when the command runs.
pub(super) fn collation_doc(d: Option<Document>) -> Exec<Option<Document>> {
    if let Some(c) = &d {
        crate::engine::collation::Collation::parse(c)
            .map_err(|e| ExecError::at("collation", e.message))?;
    }
    Ok(d)
}

pub(super) fn opt_doc(o: &Document, key: &str, method: &str) -> Exec<Option<Document>> {
    match o.get(key) {
        None | Some(Bson::Null) => Ok(None),
        Some(Bson::Document(d)) => Ok(Some(d.clone())),
        Some(other) => Err(ExecError::at(
            key,
            format!(
                "{method}(): option '{key}' must be an object, not {}",
                type_name(other)
            ),
        )),
    }
}

pub(super) fn opt_count(o: &Document, key: &str, method: &str) -> Exec<Option<u64>> {
    match o.get(key) {
        None | Some(Bson::Null) => Ok(None),
        Some(v) => count_value(v)
            .filter(|_| !is_negative(v))
            .map(Some)
            .ok_or_else(|| {
                ExecError::at(
                    key,
                    format!("{method}(): option '{key}' must be a non-negative integer"),
                )
            }),
    }
}

pub(super) fn opt_bool(o: &Document, key: &str, method: &str) -> Exec<bool> {
    match o.get(key) {
        None | Some(Bson::Null) => Ok(false),
        Some(Bson::Boolean(b)) => Ok(*b),
        Some(other) => Err(ExecError::at(
            key,
            format!(
                "{method}(): option '{key}' must be true or false, not {}",
                type_name(other)
            ),
        )),
    }
}

/// Returns the name of a value's type as MongoDB's `$type` spells it.
pub(super) fn type_name(v: &Bson) -> &'static str {
    match v {
        Bson::Double(_) => "a double",
        Bson::String(_) => "a string",
        Bson::Array(_) => "an array",
        Bson::Document(_) => "an object",
        Bson::Boolean(_) => "a boolean",
        Bson::Null => "null",
        Bson::Undefined => "undefined",
        Bson::Int32(_) => "an int",
        Bson::Int64(_) => "a long",
        Bson::Decimal128(_) => "a decimal",
        Bson::ObjectId(_) => "an ObjectId",
        Bson::DateTime(_) => "a date",
        Bson::RegularExpression(_) => "a regex",
        _ => "a value of another type",
    }
}
