//! Where the bytes of a document go: every field and subtree with its key and value bytes,
//! the nesting depth and how the document stands against mongod's limits.
//!
//! An [`Analysis`] also reads back from its JSON: the page's evaluation worker sends the
//! breakdown of each collection's sample documents (`eval::sample`) as text.

use bson::{Bson, Document};
use serde::{Deserialize, Serialize};

use super::{decimal_digits, value_size, MAX_BSON_SIZE, MAX_NESTING, WARN_RATIO};

/// How a document stands against mongod's limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LimitStatus {
    /// Within the limits and under 80% of the size limit.
    Ok,
    /// At or over 80% ([`WARN_RATIO`]) of the 16 MiB limit, but not over it.
    Warning,
    /// Larger than 16 MiB: mongod rejects it (error 10334 BSONObjectTooLarge). Takes
    /// precedence over [`LimitStatus::TooDeep`].
    OverLimit,
    /// Nested deeper than 100 levels ([`MAX_NESTING`]): mongod rejects it.
    TooDeep,
}

impl LimitStatus {
    /// Returns the status of a document of `size` bytes nested `depth` levels deep.
    pub fn of(size: u64, depth: usize) -> Self {
        if size > MAX_BSON_SIZE {
            LimitStatus::OverLimit
        } else if depth > MAX_NESTING {
            LimitStatus::TooDeep
        } else if size as f64 >= WARN_RATIO * MAX_BSON_SIZE as f64 {
            LimitStatus::Warning
        } else {
            LimitStatus::Ok
        }
    }

    /// Returns a short label for reports: "ok", "warning", "over limit", "too deep".
    pub fn label(self) -> &'static str {
        match self {
            LimitStatus::Ok => "ok",
            LimitStatus::Warning => "warning",
            LimitStatus::OverLimit => "over limit",
            LimitStatus::TooDeep => "too deep",
        }
    }

    /// Returns whether mongod would accept the document (ok or warning).
    pub fn is_accepted(self) -> bool {
        matches!(self, LimitStatus::Ok | LimitStatus::Warning)
    }

    /// Returns the share of the 16 MiB limit that `size` bytes use (1.0 = exactly the limit).
    pub fn share(size: u64) -> f64 {
        share_of_limit(size)
    }
}

/// Returns the share of the 16 MiB limit that `size` bytes use (1.0 = exactly the limit).
pub fn share_of_limit(size: u64) -> f64 {
    size as f64 / MAX_BSON_SIZE as f64
}

/// The size of one field or array element and of its subtree.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldSize {
    /// Dotted path, array elements by index: `items.0.price`.
    pub path: String,
    /// Depth of the document holding this field: top-level fields are at depth 1.
    pub depth: usize,
    /// MongoDB `$type` alias of the value: "objectId", "string", "int", "array", …
    #[serde(rename = "type")]
    pub bson_type: &'static str,
    /// Bytes of the element header: type byte, key (field name or array index) and its NUL.
    pub key_bytes: u64,
    /// Bytes of the value, including its whole subtree for documents and arrays.
    pub value_bytes: u64,
    /// Number of fields or elements, for documents and arrays.
    pub elements: Option<usize>,
}

/// The exact size of a document and where its bytes go.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Analysis {
    /// Exact encoded size in bytes.
    pub size: u64,
    /// Bytes spent on field names of documents (key bytes plus NUL), not array indexes.
    pub field_name_bytes: u64,
    /// Bytes spent on array index keys ("0", "1", … plus NUL).
    pub array_index_bytes: u64,
    /// Bytes spent on structure: one type byte per element, and the 4-byte length and
    /// trailing 0 of every document and array. What remains after names, indexes and
    /// framing is the values' own bytes.
    pub framing_bytes: u64,
    /// Nesting depth: the top-level document is 1, each nested document or array adds one.
    pub depth: usize,
    /// How the document stands against mongod's limits.
    pub status: LimitStatus,
    /// Every field and subtree in document order (pre-order), up to the row limit.
    pub fields: Vec<FieldSize>,
    /// Rows left out of `fields` because of the row limit (totals still count them).
    pub fields_omitted: usize,
}

impl Analysis {
    /// Returns the share of the 16 MiB limit this document uses (1.0 = exactly the limit).
    pub fn share(&self) -> f64 {
        share_of_limit(self.size)
    }

    /// Returns how many bytes the document is over the limit (0 when within it).
    pub fn bytes_over_limit(&self) -> u64 {
        self.size.saturating_sub(MAX_BSON_SIZE)
    }
}

/// Every alias [`crate::ejson::type_alias`] returns.
const TYPE_ALIASES: [&str; 21] = [
    "double",
    "string",
    "array",
    "object",
    "bool",
    "null",
    "regex",
    "javascript",
    "javascriptWithScope",
    "int",
    "long",
    "timestamp",
    "binData",
    "objectId",
    "date",
    "symbol",
    "decimal",
    "undefined",
    "maxKey",
    "minKey",
    "dbPointer",
];

/// A [`FieldSize`] as read from JSON, its type alias still owned text.
#[derive(Deserialize)]
struct FieldRow {
    path: String,
    depth: usize,
    #[serde(rename = "type")]
    bson_type: String,
    key_bytes: u64,
    value_bytes: u64,
    elements: Option<usize>,
}

impl<'de> Deserialize<'de> for FieldSize {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        FieldSize::try_from(FieldRow::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

impl TryFrom<FieldRow> for FieldSize {
    type Error = String;

    /// Reads the type alias back as the alias itself; an unknown one is an error.
    fn try_from(r: FieldRow) -> Result<Self, String> {
        let bson_type = TYPE_ALIASES
            .iter()
            .find(|a| **a == r.bson_type)
            .copied()
            .ok_or_else(|| format!("unknown BSON type \"{}\"", r.bson_type))?;
        Ok(FieldSize {
            path: r.path,
            depth: r.depth,
            bson_type,
            key_bytes: r.key_bytes,
            value_bytes: r.value_bytes,
            elements: r.elements,
        })
    }
}

/// Returns the analysis of `doc`, listing every field.
pub fn analyze(doc: &Document) -> Analysis {
    analyze_with_limit(doc, usize::MAX)
}

/// Returns the analysis of `doc`, listing at most `max_rows` fields (the totals stay exact
/// and `fields_omitted` says how many rows were left out): for arrays of millions.
pub fn analyze_with_limit(doc: &Document, max_rows: usize) -> Analysis {
    analyze_with_limits(doc, max_rows, usize::MAX)
}

/// Returns the analysis of `doc` listing at most `max_rows` fields and, of every array, the
/// first `max_elements` elements only (with their subtrees): a breakdown short enough for a
/// card in which a 10,000-element array does not hide the fields after it. The array's own
/// row still counts all its elements and bytes; totals stay exact and `fields_omitted` counts
/// every row left out.
pub fn analyze_with_limits(doc: &Document, max_rows: usize, max_elements: usize) -> Analysis {
    let mut walk = Walk {
        max_rows,
        max_elements,
        hidden: 0,
        fields: Vec::new(),
        omitted: 0,
        field_name_bytes: 0,
        array_index_bytes: 0,
        framing_bytes: 0,
        depth: 1,
    };
    let size = walk.document(doc, "", 1);
    let depth = walk.depth;
    Analysis {
        size,
        field_name_bytes: walk.field_name_bytes,
        array_index_bytes: walk.array_index_bytes,
        framing_bytes: walk.framing_bytes,
        depth,
        status: LimitStatus::of(size, depth),
        fields: walk.fields,
        fields_omitted: walk.omitted,
    }
}

struct Walk {
    max_rows: usize,
    /// Elements of each array listed.
    max_elements: usize,
    /// Above 0 inside an array element past `max_elements`: no rows are recorded.
    hidden: usize,
    fields: Vec<FieldSize>,
    omitted: usize,
    field_name_bytes: u64,
    array_index_bytes: u64,
    framing_bytes: u64,
    depth: usize,
}

impl Walk {
    /// Returns the size of `doc` at `depth`, recording its fields under `prefix`.
    fn document(&mut self, doc: &Document, prefix: &str, depth: usize) -> u64 {
        self.depth = self.depth.max(depth);
        self.framing_bytes += 5;
        let mut size = 5;
        for (key, value) in doc {
            self.field_name_bytes += key.len() as u64 + 1;
            size += self.element(key, key.len(), value, prefix, depth);
        }
        size
    }

    /// Returns the size of the array `items` at `depth`, recording its elements.
    fn array(&mut self, items: &[Bson], prefix: &str, depth: usize) -> u64 {
        self.depth = self.depth.max(depth);
        self.framing_bytes += 5;
        let mut size = 5;
        for (i, value) in items.iter().enumerate() {
            let digits = decimal_digits(i);
            self.array_index_bytes += digits as u64 + 1;
            let hide = usize::from(i >= self.max_elements);
            self.hidden += hide;
            size += self.element(&i.to_string(), digits, value, prefix, depth);
            self.hidden -= hide;
        }
        size
    }

    /// Returns the size of one element and records its row (before its subtree's rows).
    fn element(
        &mut self,
        key: &str,
        key_len: usize,
        value: &Bson,
        prefix: &str,
        depth: usize,
    ) -> u64 {
        let key_bytes = 2 + key_len as u64;
        self.framing_bytes += 1;
        let row = if self.hidden == 0 && self.fields.len() < self.max_rows {
            self.fields.push(FieldSize {
                path: if prefix.is_empty() {
                    key.to_string()
                } else {
                    format!("{prefix}.{key}")
                },
                depth,
                bson_type: crate::ejson::type_alias(value),
                key_bytes,
                value_bytes: 0,
                elements: None,
            });
            Some(self.fields.len() - 1)
        } else {
            self.omitted += 1;
            None
        };
        let path = match row.and_then(|i| self.fields.get(i)) {
            Some(f) => f.path.clone(),
            None if self.hidden == 0 && matches!(value, Bson::Document(_) | Bson::Array(_)) => {
                if prefix.is_empty() {
                    key.to_string()
                } else {
                    format!("{prefix}.{key}")
                }
            }
            None => String::new(),
        };
        let (value_bytes, elements) = match value {
            Bson::Document(doc) => (self.document(doc, &path, depth + 1), Some(doc.len())),
            Bson::Array(items) => (self.array(items, &path, depth + 1), Some(items.len())),
            other => (value_size(other), None),
        };
        if let Some(field) = row.and_then(|i| self.fields.get_mut(i)) {
            field.value_bytes = value_bytes;
            field.elements = elements;
        }
        key_bytes + value_bytes
    }
}
