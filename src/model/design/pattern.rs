//! Field-level patterns: the attribute pattern, stored totals, pre-allocated counters, and a
//! large value stored outside its document (GridFS, object storage).
//! [`FieldPattern::NAMES`] and [`AttributeForm::ALL`] are the one lists of them.

use serde::{Deserialize, Serialize};

use crate::model::Fields;

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
    /// The approximation pattern: a counter (`update` with `increment`) written once every
    /// `every` events, by `every` (`src/model/lifecycle.rs`).
    Approximate {
        /// The owning entity.
        entity: String,
        /// The counter field.
        field: String,
        /// Events per write.
        #[cfg_attr(not(target_arch = "wasm32"), schemars(range(min = 2)))]
        every: u64,
    },
    /// The archive pattern: documents whose date `field` is older than `after_days` moved to
    /// `<entity>_archive`; `old_share` of the reads of them also read the archive.
    Archive {
        /// The archived entity.
        entity: String,
        /// The date field the age is judged by.
        field: String,
        /// Days a document stays in the live collection.
        #[cfg_attr(not(target_arch = "wasm32"), schemars(range(min = 1)))]
        after_days: u64,
        /// Share of the reads of the entity that want old data too (0–1).
        #[serde(default, skip_serializing_if = "is_zero")]
        #[cfg_attr(not(target_arch = "wasm32"), schemars(range(min = 0, max = 1)))]
        old_share: f64,
    },
    /// The document versioning pattern: every update of the entity first inserts the current
    /// version into `<entity>_history`; `field` is the revision number both hold.
    DocumentVersioning {
        /// The versioned entity.
        entity: String,
        /// The revision number field (an `int` added to the entity).
        field: String,
    },
    /// The schema versioning pattern during a migration: every document holds its version in
    /// `field`; `migrated_share` of them already have the shape of version `to` (the entity's
    /// fields without `removed`, with `added`), the rest still that of `from`.
    SchemaVersioning {
        /// The entity being migrated.
        entity: String,
        /// The schema version field (an `int` added to both shapes).
        field: String,
        /// The version not yet migrated (the entity's fields as the model declares them).
        from: u32,
        /// The version migrated to.
        to: u32,
        /// Share of the documents already at version `to` (0–1).
        #[cfg_attr(not(target_arch = "wasm32"), schemars(range(min = 0, max = 1)))]
        migrated_share: f64,
        /// Fields version `to` adds (same format as an entity's fields).
        #[serde(default, skip_serializing_if = "Fields::is_empty")]
        added: Fields,
        /// Fields of version `from` that version `to` no longer has.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        removed: Vec<String>,
    },
    /// Measurements instead of counters: each event the entity's `$inc` updates count is
    /// stored as a `measurement` (`{_id, time, <meta>}`) in a native time-series collection
    /// whose metaField is the entity's `meta` field, and a read of one document becomes a
    /// read of that series' buckets over the document's `window_seconds` (the counters are
    /// computed by an aggregation). Applied before layout (`src/model/lifecycle.rs`).
    Measurements {
        /// The entity of pre-aggregated counters (one document per series and window).
        entity: String,
        /// The field that names the series (`page`): the measurements' metaField.
        meta: String,
        /// Distinct values of `meta` (series: 100,000 pages).
        #[cfg_attr(not(target_arch = "wasm32"), schemars(range(min = 1)))]
        series: u64,
        /// The time one document of `entity` summarizes (21,600: 6 hours).
        #[cfg_attr(not(target_arch = "wasm32"), schemars(range(min = 1)))]
        window_seconds: u64,
        /// The measurement entity's name (`hit`); its collection is a time series.
        measurement: String,
        /// The time-series collection's granularity.
        #[serde(default)]
        granularity: super::Granularity,
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
    /// A map: the children a relationship embeds in its parent laid out as one object whose
    /// field names are the children's `key` values and whose values are the children's other
    /// fields (`{tier_and_details: {"0df0…": {tier, id, …}, …}}`), as data keyed by ids often
    /// is, in place of the embedded array of `{key, …}` sub-documents (which costs each entry
    /// its array index and the key's field name). Inference sets it on the maps it finds, so
    /// the model's own design lays them out as the data has them; without it (the advisor's
    /// other option) the same children are the array form.
    Map {
        /// The parent entity.
        entity: String,
        /// The embedding relationship (its parent is `entity`).
        relationship: String,
        /// The child's string field whose values name the entries.
        key: String,
    },
}

/// True for an `old_share` of zero (the default, not written).
fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

impl FieldPattern {
    /// Every pattern's name as written in a model (`pattern`), in the order the docs list
    /// them: the one list of field patterns.
    pub const NAMES: [&'static str; 12] = [
        "attribute",
        "computed",
        "preallocated",
        "gridfs",
        "object_storage",
        "approximate",
        "archive",
        "document_versioning",
        "schema_versioning",
        "case_insensitive_index",
        "measurements",
        "map",
    ];

    /// Returns the pattern's name as written in a model.
    pub fn name(&self) -> &'static str {
        match self {
            FieldPattern::Attribute { .. } => "attribute",
            FieldPattern::Computed { .. } => "computed",
            FieldPattern::Preallocated { .. } => "preallocated",
            FieldPattern::Gridfs { .. } => "gridfs",
            FieldPattern::ObjectStorage { .. } => "object_storage",
            FieldPattern::Approximate { .. } => "approximate",
            FieldPattern::Archive { .. } => "archive",
            FieldPattern::DocumentVersioning { .. } => "document_versioning",
            FieldPattern::SchemaVersioning { .. } => "schema_versioning",
            FieldPattern::CaseInsensitiveIndex { .. } => "case_insensitive_index",
            FieldPattern::Measurements { .. } => "measurements",
            FieldPattern::Map { .. } => "map",
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
            "gridfs" | "object_storage" | "document_versioning" | "case_insensitive_index" => {
                const KEYS: &[&str] = &["pattern", "entity", "field"];
                (KEYS, KEYS)
            }
            "map" => {
                const KEYS: &[&str] = &["pattern", "entity", "relationship", "key"];
                (KEYS, KEYS)
            }
            "approximate" => {
                const KEYS: &[&str] = &["pattern", "entity", "field", "every"];
                (KEYS, KEYS)
            }
            "schema_versioning" => (
                &[
                    "pattern",
                    "entity",
                    "field",
                    "from",
                    "to",
                    "migrated_share",
                    "added",
                    "removed",
                ],
                &["pattern", "entity", "field", "from", "to", "migrated_share"],
            ),
            "measurements" => (
                &[
                    "pattern",
                    "entity",
                    "meta",
                    "series",
                    "window_seconds",
                    "measurement",
                    "granularity",
                ],
                &[
                    "pattern",
                    "entity",
                    "meta",
                    "series",
                    "window_seconds",
                    "measurement",
                ],
            ),
            "archive" => (
                &["pattern", "entity", "field", "after_days", "old_share"],
                &["pattern", "entity", "field", "after_days"],
            ),
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
            | FieldPattern::Approximate { entity, .. }
            | FieldPattern::Archive { entity, .. }
            | FieldPattern::DocumentVersioning { entity, .. }
            | FieldPattern::SchemaVersioning { entity, .. }
            | FieldPattern::CaseInsensitiveIndex { entity, .. }
            | FieldPattern::Measurements { entity, .. }
            | FieldPattern::Map { entity, .. } => entity,
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
