//! Exact BSON sizes, computed arithmetically from a document without encoding it.

use bson::Document;

/// The largest document mongod accepts: 16 MiB. A document of exactly this size is accepted.
pub const MAX_BSON_SIZE: u64 = 16_777_216;

/// Returns the exact encoded size of `doc` in bytes, as `doc.to_vec().len()` would.
pub fn document_size(doc: &Document) -> u64 {
    doc.to_vec().map(|v| v.len() as u64).unwrap_or(0)
}

/// Share of the limit from which a document gets a warning (80%).
pub const WARN_RATIO: f64 = 0.8;

/// Where a document stands against mongod's limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LimitStatus {
    /// Under 80% of the limit.
    Ok,
    /// 80% of the limit or more.
    Warning,
    /// Larger than 16,777,216 bytes.
    OverLimit,
    /// Nested deeper than 100 levels.
    TooDeep,
}

/// The size of one field or subtree.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct FieldSize {
    /// Dotted path.
    pub path: String,
    /// Depth (top-level fields are 1).
    pub depth: usize,
    /// MongoDB's `$type` alias.
    pub bson_type: &'static str,
    /// Type byte, key and NUL.
    pub key_bytes: u64,
    /// The value's bytes.
    pub value_bytes: u64,
    /// Element count of a document or array.
    pub elements: Option<usize>,
}

/// A document's size, broken down.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Analysis {
    /// Exact encoded size.
    pub size: u64,
    /// Bytes spent on field names.
    pub field_name_bytes: u64,
    /// Bytes spent on array index keys.
    pub array_index_bytes: u64,
    /// Nesting depth.
    pub depth: usize,
    /// Against the limits.
    pub status: LimitStatus,
    /// Every field, pre-order.
    pub fields: Vec<FieldSize>,
}

/// Returns the analysis of `doc` (temporary stub: top-level fields only).
pub fn analyze(doc: &Document) -> Analysis {
    let fields = doc
        .iter()
        .map(|(k, v)| {
            let mut one = Document::new();
            one.insert(k.clone(), v.clone());
            let total = document_size(&one) - 5;
            FieldSize {
                path: k.clone(),
                depth: 1,
                bson_type: "unknown",
                key_bytes: k.len() as u64 + 2,
                value_bytes: total - k.len() as u64 - 2,
                elements: None,
            }
        })
        .collect();
    Analysis {
        size: document_size(doc),
        field_name_bytes: doc.keys().map(|k| k.len() as u64 + 1).sum(),
        array_index_bytes: 0,
        depth: 1,
        status: LimitStatus::Ok,
        fields,
    }
}
