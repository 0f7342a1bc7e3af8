//! Field-level patterns: the attribute pattern, stored totals, pre-allocated counters, and a
//! large value stored outside its document (GridFS, object storage).
//! [`FieldPattern::NAMES`] and [`AttributeForm::ALL`] are the one lists of them.

use serde::{Deserialize, Serialize};

/// The most sub-fields a field pattern may give one document (pre-allocated counters, keyed
/// attributes): every document of the sample holds them, and the page lays the model out again
/// on every edit. A day of per-minute counters is 1,440.
pub const MAX_SUBFIELDS: u64 = 10_000;

/// How an attribute array is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum AttributeForm {
    /// A sub-document keyed by the attribute (`{prices: {web: 9, tv: 12}}`): one index per key.
    Keyed,
    /// An array of `{k, v}` pairs (`{prices: [{channel: "web", price: 9}]}`): one multikey index.
    KeyValue,
    /// One document per attribute with the owner's fields repeated.
    Flattened,
}

impl AttributeForm {
    /// Every form, in the order the docs list them.
    pub const ALL: [AttributeForm; 3] = [
        AttributeForm::Keyed,
        AttributeForm::KeyValue,
        AttributeForm::Flattened,
    ];

    /// Returns the name as written in a model.
    pub fn as_str(self) -> &'static str {
        match self {
            AttributeForm::Keyed => "keyed",
            AttributeForm::KeyValue => "key_value",
            AttributeForm::Flattened => "flattened",
        }
    }
}

/// A field-level pattern.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(tag = "pattern", rename_all = "snake_case", deny_unknown_fields)]
pub enum FieldPattern {
    /// The attribute pattern applied to an array-of-objects field.
    Attribute {
        /// The owning entity.
        entity: String,
        /// The array-of-objects field holding the attributes.
        field: String,
        /// The layout.
        form: AttributeForm,
        /// The element field that names the attribute (becomes the key).
        key: String,
        /// The element field that holds the value.
        value: String,
    },
    /// A stored total kept current with `$inc` when a child is inserted.
    Computed {
        /// The owning (parent) entity.
        entity: String,
        /// The new field's name (`total`, `activityCount`).
        field: String,
        /// The relationship whose children are totalled.
        relationship: String,
        /// The child field summed; none counts children.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sum: Option<String>,
    },
    /// Counters written as zeros when the document is created (per-minute page views).
    Preallocated {
        /// The owning entity.
        entity: String,
        /// The new sub-document's name.
        field: String,
        /// Number of counters ("0" … "slots−1").
        #[cfg_attr(not(target_arch = "wasm32"), schemars(range(min = 1, max = MAX_SUBFIELDS)))]
        slots: u64,
    },
    /// A `binData` or `string` field stored as a GridFS file: the document keeps the file's id
    /// (`<field>FileId`), the bytes go to `fs.files` and `fs.chunks` in 255 KiB chunks.
    Gridfs {
        /// The owning entity.
        entity: String,
        /// The `binData` or `string` field stored as a file.
        field: String,
    },
    /// A `binData` or `string` field stored in an object store (S3, GCS, Azure Blob): the
    /// document keeps the object's URL (`<field>Url`), the bytes live outside MongoDB.
    ObjectStorage {
        /// The owning entity.
        entity: String,
        /// The `binData` or `string` field stored as an object.
        field: String,
    },
    /// An index on a string field with the case-insensitive collation `{ locale: "en",
    /// strength: 2 }`; the `case_insensitive` reads by that field query with the same
    /// collation and use it (MongoDB's fix for case-insensitive queries without an index).
    CaseInsensitiveIndex {
        /// The owning entity.
        entity: String,
        /// The string field indexed.
        field: String,
    },
}

impl FieldPattern {
    /// Every pattern's name as written in a model (`pattern`), in the order the docs list
    /// them: the one list of field patterns.
    pub const NAMES: [&'static str; 6] = [
        "attribute",
        "computed",
        "preallocated",
        "gridfs",
        "object_storage",
        "case_insensitive_index",
    ];

    /// Returns the pattern's name as written in a model.
    pub fn name(&self) -> &'static str {
        match self {
            FieldPattern::Attribute { .. } => "attribute",
            FieldPattern::Computed { .. } => "computed",
            FieldPattern::Preallocated { .. } => "preallocated",
            FieldPattern::Gridfs { .. } => "gridfs",
            FieldPattern::ObjectStorage { .. } => "object_storage",
            FieldPattern::CaseInsensitiveIndex { .. } => "case_insensitive_index",
        }
    }

    /// Returns the keys a pattern called `name` takes, `pattern` first, and which of them are
    /// required; `None` for a name that is no pattern.
    pub fn keys(name: &str) -> Option<(&'static [&'static str], &'static [&'static str])> {
        Some(match name {
            "attribute" => {
                const KEYS: &[&str] = &["pattern", "entity", "field", "form", "key", "value"];
                (KEYS, KEYS)
            }
            "computed" => (
                &["pattern", "entity", "field", "relationship", "sum"],
                &["pattern", "entity", "field", "relationship"],
            ),
            "preallocated" => {
                const KEYS: &[&str] = &["pattern", "entity", "field", "slots"];
                (KEYS, KEYS)
            }
            "gridfs" | "object_storage" | "case_insensitive_index" => {
                const KEYS: &[&str] = &["pattern", "entity", "field"];
                (KEYS, KEYS)
            }
            _ => return None,
        })
    }

    /// Returns the entity the pattern applies to.
    pub fn entity(&self) -> &str {
        match self {
            FieldPattern::Attribute { entity, .. }
            | FieldPattern::Computed { entity, .. }
            | FieldPattern::Preallocated { entity, .. }
            | FieldPattern::Gridfs { entity, .. }
            | FieldPattern::ObjectStorage { entity, .. }
            | FieldPattern::CaseInsensitiveIndex { entity, .. } => entity,
        }
    }

    /// Returns the field a GridFS or object-storage pattern moves out of the entity's
    /// documents, as `(entity, field)`; `None` for the other patterns.
    pub fn stored_outside(&self) -> Option<(&str, &str)> {
        match self {
            FieldPattern::Gridfs { entity, field }
            | FieldPattern::ObjectStorage { entity, field } => Some((entity, field)),
            _ => None,
        }
    }
}
