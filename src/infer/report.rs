//! What an inference found and assumed, as `squillion infer --json` prints it ([`Report`]),
//! beside the model ([`Inferred`]): per input, entity, relationship and index, with the lines
//! skipped and why.

use serde::Serialize;

use super::build::{FieldReport, MapReport};
use super::fit::Observed;
use super::refs::{self, Created};
use super::{dump, gridfs, starter, variants};
use crate::model::{Growth, Model};

/// Returns how a relationship was found laid out (`## Infer summary`): an embedded array (or
/// a `map`: an object keyed by data), an array of ids in the parent, a link collection, a
/// feed's items (fan-out on read: `field` is their collection) or a reference in the child.
pub fn how(layout: &str, field: &str, map: bool) -> crate::lang::Text {
    let id = match layout {
        "embed" if map => "infer-how-map",
        "embed" => "infer-how-embed",
        "reference_in_parent" => "infer-how-ids-in-parent",
        "link_collection" => "infer-how-link",
        "fan_out_on_read" => "infer-how-feed",
        _ => "infer-how-reference",
    };
    crate::lang::Text::new(id).arg("field", field)
}

/// A line that was skipped, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Skipped {
    /// The input's name (its file name).
    pub source: String,
    /// 1-based line (in a `.bson` input: the document's 1-based position).
    pub line: u64,
    /// In a `.bson` input: the byte offset of the document.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub byte: Option<u64>,
    /// Why it was skipped.
    pub message: String,
}

/// What one input held.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SourceSummary {
    /// The input's name.
    pub source: String,
    /// The collection its documents went to.
    pub collection: String,
    /// Documents read.
    pub documents: u64,
    /// Lines skipped.
    pub skipped: u64,
}

impl SourceSummary {
    /// Returns the summary of input `source` into `collection` before anything is read.
    pub fn empty(source: &str, collection: &str) -> Self {
        SourceSummary {
            source: source.to_string(),
            collection: collection.to_string(),
            documents: 0,
            skipped: 0,
        }
    }
}

/// What was inferred of one collection.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EntityReport {
    /// The entity's (collection's) name.
    pub name: String,
    /// Documents read.
    pub documents: u64,
    /// The full-scale count written in the model (`--count`, else the documents read).
    pub count: f64,
    /// Every field and array element, a parent before its children.
    pub fields: Vec<FieldReport>,
    /// Field names not tracked because an object already had the most a model may hold.
    pub untracked_names: u64,
    /// Where the documents' creation times came from and the days they span, if they have any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created: Option<Created>,
    /// Documents created per day at full scale (`count` ÷ the days of `created`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub growth_per_day: Option<f64>,
    /// The discriminator and kinds of documents of a polymorphic collection
    /// ([`variants`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub polymorphic: Option<variants::Polymorphic>,
}

/// A relationship found: an array of sub-documents moved out into a child entity (embedded),
/// a field of ids resolving to another collection's `_id`s (a reference in the child or in the
/// parent), or a collection of id pairs (a link collection).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RelationshipReport {
    /// The relationship's name.
    pub name: String,
    /// The parent entity.
    pub parent: String,
    /// The child entity.
    pub child: String,
    /// How the data lays it out, as a strategy of the model's design: `embed`,
    /// `reference_in_child`, `reference_in_parent`, `link_collection` or `fan_out_on_read`
    /// (a feed: [`feeds`]).
    pub layout: &'static str,
    /// The field holding it: the array on the parent (embedded, reference in the parent), the
    /// reference in the child, the link collection's name, or the feed items' collection.
    pub field: String,
    /// A child can have several parents (ids repeated across parents' arrays, or a link
    /// collection).
    pub many_to_many: bool,
    /// Children read (elements, or references resolved).
    pub children_read: u64,
    /// The child entity's full-scale count.
    pub count: f64,
    /// Children per parent as observed (a parent without the array, or that no reference
    /// names, counted as 0); for a feed, recipients per item (an item without the array
    /// counted as 0).
    pub children_per_parent: Observed,
    /// Many-to-many: parents per child as observed (a child no parent names counted as 0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parents_per_child: Option<Observed>,
    /// Parents without the array (missing, null or another type), counted as 0 children.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub without_array: Option<u64>,
    /// A reference: the values checked and, of them, those that resolved to the parent's (or
    /// the child's) `_id`s (or `key`'s values).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resolved: Option<[u64; 2]>,
    /// A reference through a unique key of the referenced collection other than its `_id`:
    /// the key field and why it is unique ([`refs::key_sets`]). The model writes the
    /// relationship as any reference (it has no notion of the key a reference names).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<refs::KeyRef>,
    /// The figures come from a sample of the values (more distinct values than are counted).
    pub sampled: bool,
    /// Where the children's creation times came from, when they have them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created: Option<Created>,
    /// Children added per day to a typical and the largest parent, written in the model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub growth_per_day: Option<Growth>,
    /// The data holds the children as a map (an object keyed by data: [`maps`]), embedded in
    /// the model as an array of sub-documents with the key in a field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub map: Option<MapReport>,
}

/// The report beside the model: what was found, what was assumed, what was skipped.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// Each input read.
    pub sources: Vec<SourceSummary>,
    /// Each collection inferred (children moved out are reported in their parent's rows).
    pub entities: Vec<EntityReport>,
    /// Each relationship found: arrays of sub-documents moved out, references, link
    /// collections.
    pub relationships: Vec<RelationshipReport>,
    /// Lines skipped in all.
    pub skipped_lines: u64,
    /// The first [`MAX_REPORTED_SKIPS`] skipped lines with their reasons.
    pub skipped: Vec<Skipped>,
    /// The indexes listed by mongodump's `.metadata.json` files (reported, not in the model).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub indexes: Vec<dump::IndexReport>,
    /// GridFS buckets recognized: each a file field of the entity naming its files, stored
    /// under the `gridfs` pattern (the bucket's collections are no entities of their own).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub gridfs: Vec<gridfs::GridfsReport>,
    /// The model's workload, every unit of it assumed ([`starter`]): a dump holds no
    /// operations.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub workload: Vec<starter::AssumedUnit>,
}

/// A model inferred from documents, with its report.
#[derive(Debug, Clone, PartialEq)]
pub struct Inferred {
    /// The model: one entity per collection and per array of sub-documents, an embedded
    /// relationship per such array (the model's design embeds them), the starter workload
    /// ([`starter`]).
    pub model: Model,
    /// What was found and assumed.
    pub report: Report,
}
