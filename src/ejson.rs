//! Reading documents as people paste them: MongoDB Extended JSON v2 (canonical and relaxed)
//! and the mongosh shell forms (unquoted keys, single quotes, `ObjectId("…")`, `ISODate("…")`,
//! `new Date(…)`, `NumberLong(…)`, `NumberInt(…)`, `NumberDecimal("…")`, `UUID("…")`,
//! `BinData(…)`, `Timestamp(…)`, regex literals, comments, trailing commas), and writing
//! values back in the mongosh style or as Extended JSON.
//!
//! Written by hand because no crate reads the shell forms, and errors must point at a line
//! and column of the user's text.
//!
//! Decisions where the specifications leave room (all covered by unit tests):
//! - Plain numbers follow the Extended JSON v2 rules, not JavaScript's: an integer is an
//!   `int` when it fits 32 bits, a `long` when it fits 64 bits, otherwise a `double`; a number
//!   with a fraction or an exponent is a `double` (`1.0` is a double). mongosh itself would
//!   store `2147483648` as a double; write `NumberLong(…)` to be explicit.
//! - A field name may appear once per document: a repeated name is an error at the second
//!   occurrence, as MongoDB's own tools (mongoimport, mongosh's EJSON parser) reject them.
//! - An object holding an Extended JSON type key (`$oid`, `$date`, `$numberLong`, …) must be
//!   exactly that type's wrapper; extra or missing keys are an error. The legacy
//!   `{$regex, $options}` pair is left as a document because it is also the `$regex` query
//!   operator; the legacy `{$binary: "…", $type: "…"}` form is read as binary data.
//! - Dates without a time zone are UTC (as `ISODate` does; JavaScript's `new Date("…")`
//!   would use local time). Fractions of a second beyond milliseconds are truncated.
//! - `ObjectId()`, `new Date()`, `ISODate()` and `UUID()` without an argument are errors:
//!   they would produce a different value on every run, and every number here must be
//!   reproducible. `Date(…)` without `new` is an error (JavaScript returns a string).
//! - Regex literal flags must be among `i m s u x l` (`g` and `y` have no meaning in
//!   MongoDB); options are stored sorted, as BSON requires.
//! - Nesting deeper than [`MAX_PARSE_DEPTH`] levels is an error, so that deep input cannot
//!   exhaust the stack; that is twice mongod's limit, so the size report can still say how
//!   far over its limit a too-deep document is.

use bson::{Bson, Document};
use serde::Serialize;

mod calls;
mod dbpointer;
pub mod inspect;
mod parser;
mod pretty;
mod stream;
mod wrapper;
mod write;

#[cfg(test)]
mod tests;

pub use crate::date::{format_iso_date, parse_iso_date};
pub use dbpointer::{db_pointer, db_pointer_parts};
pub use inspect::{inspect, inspect_all};
pub use parser::{line_column, Parser, MAX_PARSE_DEPTH};
pub use pretty::{pretty_json, PRETTY_WIDTH};
pub(crate) use wrapper::{is_integer_text, parse_double_text};
pub use write::{
    to_canonical_ejson, to_relaxed_ejson, to_relaxed_ejson_value, to_relaxed_json, to_shell_string,
    to_typed_ejson_value,
};

/// Where and why a document could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize)]
#[error("line {line}, column {column}: {message}")]
pub struct ParseError {
    /// 1-based line of the offending character.
    pub line: usize,
    /// 1-based column (in characters) of the offending character.
    pub column: usize,
    /// What is wrong, in words a user understands.
    pub message: String,
}

/// One document read from a stream of documents, with the line where it starts.
#[derive(Debug, Clone, PartialEq)]
pub struct StreamItem {
    /// 1-based line where the document (or the unreadable text) starts.
    pub line: usize,
    /// The document, or why it could not be read.
    pub result: Result<Document, ParseError>,
}

/// Returns the one document in `text` (surrounding whitespace and comments allowed).
pub fn parse_document(text: &str) -> Result<Document, ParseError> {
    let mut parser = Parser::new(text);
    parser.skip_trivia()?;
    let start = parser.offset();
    let value = parser.parse_value()?;
    parser.finish()?;
    match value {
        Bson::Document(doc) => Ok(doc),
        other => Err(parser.error_at(
            start,
            format!("expected a document, found {}", type_alias(&other)),
        )),
    }
}

/// Returns the one value of any type in `text` (surrounding whitespace and comments allowed).
pub fn parse_value(text: &str) -> Result<Bson, ParseError> {
    let mut parser = Parser::new(text);
    let value = parser.parse_value()?;
    parser.finish()?;
    Ok(value)
}

/// Returns every document in `text`, in order: newline-delimited documents, one top-level
/// array of documents, or documents spread over several lines, separated by whitespace.
///
/// An unreadable document becomes an error item and reading resumes at the next line that
/// starts a document (at no more indentation than the failed one), so one bad document does
/// not hide the others. A top-level value that is not a document is an error item.
pub fn parse_stream(text: &str) -> Vec<StreamItem> {
    stream::parse_stream(text)
}

/// Returns the MongoDB `$type` alias of a value ("objectId", "string", "int", …).
pub fn type_alias(value: &Bson) -> &'static str {
    match value {
        Bson::Double(_) => "double",
        Bson::String(_) => "string",
        Bson::Array(_) => "array",
        Bson::Document(_) => "object",
        Bson::Boolean(_) => "bool",
        Bson::Null => "null",
        Bson::RegularExpression(_) => "regex",
        Bson::JavaScriptCode(_) => "javascript",
        Bson::JavaScriptCodeWithScope(_) => "javascriptWithScope",
        Bson::Int32(_) => "int",
        Bson::Int64(_) => "long",
        Bson::Timestamp(_) => "timestamp",
        Bson::Binary(_) => "binData",
        Bson::ObjectId(_) => "objectId",
        Bson::DateTime(_) => "date",
        Bson::Symbol(_) => "symbol",
        Bson::Decimal128(_) => "decimal",
        Bson::Undefined => "undefined",
        Bson::MaxKey => "maxKey",
        Bson::MinKey => "minKey",
        Bson::DbPointer(_) => "dbPointer",
    }
}
