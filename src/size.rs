//! Exact BSON sizes, computed arithmetically from a document without encoding it.
//!
//! The encoding facts used here: a document is a 4-byte length, its elements and a trailing
//! 0 (empty = 5 bytes); an element is a type byte, the key as a NUL-terminated string and the
//! value; arrays are documents keyed "0", "1", …; strings, code and symbols are a 4-byte
//! length, the UTF-8 bytes and a NUL; binary data is a 4-byte length, a subtype byte and the
//! bytes (the old subtype 2 repeats the length inside: 4 more bytes); a regex is two
//! NUL-terminated strings; code with scope is a 4-byte total length, a string and a document;
//! a DBPointer is a string and a 12-byte ObjectId.

use bson::{spec::BinarySubtype, Bson, Document};

mod analysis;
pub mod bsoncolumn;
pub mod timeseries;

pub use analysis::{
    analyze, analyze_with_limit, analyze_with_limits, share_of_limit, Analysis, FieldSize,
    LimitStatus,
};

/// The largest document mongod accepts: 16 MiB. A document of exactly this size is accepted;
/// one byte more is rejected (error 10334 BSONObjectTooLarge).
pub const MAX_BSON_SIZE: u64 = 16_777_216;

/// The share of [`MAX_BSON_SIZE`] from which a document is flagged as a warning (80%).
pub const WARN_RATIO: f64 = 0.8;

/// The deepest nesting mongod accepts: the top-level document is depth 1 and each nested
/// document or array adds one, so a document nested deeper than 100 levels is refused.
pub const MAX_NESTING: usize = 100;

/// Returns the exact encoded size of `doc` in bytes, as `doc.to_vec().len()` would, without
/// encoding it.
pub fn document_size(doc: &Document) -> u64 {
    5 + doc
        .iter()
        .map(|(key, value)| element_size(key.len(), value))
        .sum::<u64>()
}

/// Returns the size of one element: type byte, key bytes and NUL, and the value.
pub fn element_size(key_len: usize, value: &Bson) -> u64 {
    2 + key_len as u64 + value_size(value)
}

/// Returns the size of the array `items` encoded as the document `{"0": …, "1": …}`.
pub fn array_size(items: &[Bson]) -> u64 {
    5 + items
        .iter()
        .enumerate()
        .map(|(i, value)| element_size(decimal_digits(i), value))
        .sum::<u64>()
}

/// Returns the number of decimal digits of `n` (the length of an array index key).
pub fn decimal_digits(mut n: usize) -> usize {
    let mut digits = 1;
    while n >= 10 {
        n /= 10;
        digits += 1;
    }
    digits
}

/// Returns the size of a value alone, without its type byte and key.
pub fn value_size(value: &Bson) -> u64 {
    match value {
        Bson::Double(_) | Bson::Int64(_) | Bson::DateTime(_) | Bson::Timestamp(_) => 8,
        Bson::Int32(_) => 4,
        Bson::Decimal128(_) => 16,
        Bson::ObjectId(_) => 12,
        Bson::Boolean(_) => 1,
        Bson::Null | Bson::Undefined | Bson::MinKey | Bson::MaxKey => 0,
        Bson::String(s) | Bson::JavaScriptCode(s) | Bson::Symbol(s) => string_size(s),
        Bson::Document(doc) => document_size(doc),
        Bson::Array(items) => array_size(items),
        Bson::Binary(bin) => {
            let old = if bin.subtype == BinarySubtype::BinaryOld {
                4
            } else {
                0
            };
            4 + 1 + old + bin.bytes.len() as u64
        }
        Bson::RegularExpression(re) => {
            re.pattern.as_str().len() as u64 + 1 + re.options.as_str().len() as u64 + 1
        }
        Bson::JavaScriptCodeWithScope(cws) => {
            4 + string_size(&cws.code) + document_size(&cws.scope)
        }
        // bson keeps a DBPointer's namespace private: see `ejson::db_pointer_parts`.
        Bson::DbPointer(p) => {
            let ns_len = crate::ejson::db_pointer_parts(p).map_or(0, |(ns, _)| ns.len() as u64);
            string_size_len(ns_len) + 12
        }
    }
}

fn string_size(s: &str) -> u64 {
    string_size_len(s.len() as u64)
}

fn string_size_len(len: u64) -> u64 {
    4 + len + 1
}

#[cfg(test)]
mod tests;
