//! What a layout is made of, as plain data: the collections, the kinds of documents in each
//! (their fields, the arrays that grow, the copied fields) and the indexes, with the lookups
//! every stage reads them by. Placing fills these in ([`super::place`]), the plan and the
//! indexes read them; nothing here builds them.

use bson::{Bson, Document};
use serde::Serialize;

use super::command::{ser_doc, ser_opt_doc, shell};
use super::names::{buckets_collection_name, is_unique_index, BUCKET_LABEL};
use crate::model::design::Strategy;
use crate::model::distribution::Distribution;
use crate::model::field::Fields;
use crate::model::Relationship;

/// One collection and the kinds of documents in it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Collection {
    /// Collection name.
    pub name: String,
    /// The kinds of documents it holds (usually one; continuation documents add a second).
    pub shapes: Vec<DocShape>,
    /// The indexes the workload needs (besides `_id`).
    pub indexes: Vec<Index>,
    /// The shard key, when the model shards this collection.
    #[serde(serialize_with = "ser_opt_doc")]
    pub shard_key: Option<bson::Document>,
}

impl Collection {
    /// Returns the shape labelled `label`.
    pub fn shape(&self, label: &str) -> Option<&DocShape> {
        self.shapes.iter().find(|s| s.label == label)
    }

    /// Returns the full-scale number of documents.
    pub fn count(&self) -> f64 {
        self.shapes.iter().map(|s| s.count).sum()
    }
}

/// One kind of document: its fields (with embedded arrays and their count distributions).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DocShape {
    /// What these documents are (`user`, `continuation`, `bucket`, `link`, `feed item`).
    pub label: String,
    /// The entity they mainly hold.
    pub entity: Option<String>,
    /// How many exist at full scale.
    pub count: f64,
    /// The fields, in order.
    pub fields: Fields,
    /// The arrays that hold a relationship's children or references.
    pub growing: Vec<GrowingArray>,
    /// Fields copied from another entity.
    pub copied: Vec<CopiedField>,
}

/// An array that holds a relationship's children or references.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GrowingArray {
    /// Top-level field name of the array.
    pub field: String,
    /// The relationship.
    pub relationship: String,
    /// Elements per document.
    pub count: Distribution,
    /// Children added per day to a typical parent.
    pub growth_typical: f64,
    /// Children added per day to the largest parent.
    pub growth_largest: f64,
    /// True when the strategy keeps the array at a fixed maximum (subset, bucket,
    /// continuation).
    pub capped: bool,
}

impl GrowingArray {
    /// Returns the array of a document that is written full and never grows: a bucket or a
    /// continuation document holds a fixed number of children (`count`), so it has no growth
    /// and no break date, only its fixed size.
    pub fn full(field: &str, relationship: &str, count: Distribution) -> Self {
        GrowingArray {
            field: field.to_string(),
            relationship: relationship.to_string(),
            count,
            growth_typical: 0.0,
            growth_largest: 0.0,
            capped: true,
        }
    }
}

/// A field copied from another entity.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CopiedField {
    /// Path in this document (`parts.name`, `host_ipaddr`).
    pub path: String,
    /// The entity the value comes from.
    pub entity: String,
    /// The field there.
    pub source: String,
    /// The relationship the copy follows.
    pub relationship: String,
}

/// One secondary index.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Index {
    /// Collection.
    pub collection: String,
    /// Key pattern, in order (`{ userId: 1, date: -1 }`).
    #[serde(serialize_with = "ser_doc")]
    pub keys: Document,
    /// True when a key path runs through an array (a multikey index).
    pub multikey: bool,
    /// Which unit (or shard key) needs it.
    pub reason: String,
    /// The partial filter (`{type: "book"}`): the index holds only the documents it matches
    /// (a polymorphic collection's index on one type's fields).
    #[serde(
        serialize_with = "ser_opt_doc",
        skip_serializing_if = "Option::is_none"
    )]
    pub partial: Option<Document>,
    /// The collation it is created with (`{ locale: "en", strength: 2 }` for a
    /// `case_insensitive_index`), if any.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "ser_opt_doc"
    )]
    pub collation: Option<Document>,
}

impl Index {
    /// Returns the `createIndex` call.
    pub fn mongosh(&self) -> String {
        format!(
            "db.{}.createIndex({}{})",
            self.collection,
            shell(&Bson::Document(self.keys.clone())),
            self.options_mongosh()
        )
    }

    /// Returns the options argument of the `createIndex` call (`, { unique: true }`,
    /// `, { partialFilterExpression: { type: "book" } }`, `, { name: "username_1_ci",
    /// collation: { locale: "en", strength: 2 } }`), empty when there are none.
    pub fn options_mongosh(&self) -> String {
        let mut opts = Vec::new();
        if self.unique() {
            opts.push("unique: true".to_string());
        }
        if let (Some(c), Some(name)) = (&self.collation, self.name()) {
            opts.push(format!("name: {}", shell(&Bson::String(name))));
            opts.push(format!("collation: {}", shell(&Bson::Document(c.clone()))));
        }
        if let Some(p) = &self.partial {
            opts.push(format!(
                "partialFilterExpression: {}",
                shell(&Bson::Document(p.clone()))
            ));
        }
        if opts.is_empty() {
            String::new()
        } else {
            format!(", {{ {} }}", opts.join(", "))
        }
    }

    /// Returns the name it is created with when the default (`username_1`) could clash: an
    /// index with a collation is `username_1_ci`, so that it lives beside the plain index on
    /// the same keys (mongod requires another name for the same key pattern).
    pub fn name(&self) -> Option<String> {
        self.collation
            .as_ref()
            .map(|_| format!("{}_ci", crate::engine::index::default_name(&self.keys)))
    }

    /// True for a unique index: the one a layout makes is GridFS's `fs.chunks {files_id: 1,
    /// n: 1}`, as drivers create it (the others serve queries and need no constraint).
    pub fn unique(&self) -> bool {
        is_unique_index(&self.collection, &self.keys)
    }

    /// True when this index is a prefix of `other` (same collection, filter and collation):
    /// `other` serves every query this one does.
    pub(super) fn is_prefix_of(&self, other: &Index) -> bool {
        self.collection == other.collection
            && self.partial == other.partial
            && self.collation == other.collation
            && self.keys.len() <= other.keys.len()
            && self.keys.iter().zip(other.keys.iter()).all(|(a, b)| a == b)
    }
}

/// Returns the strategy of relationship `name` among `strategies`.
pub fn strategy_in<'a>(strategies: &'a [(String, Strategy)], name: &str) -> Option<&'a Strategy> {
    strategies.iter().find(|(n, _)| n == name).map(|(_, s)| s)
}

/// Returns the collection among `collections` that holds entity `entity` as top-level
/// documents (a shape of that entity labelled with its name), if any.
pub fn collection_holding<'a>(
    collections: &'a [Collection],
    entity: &str,
) -> Option<&'a Collection> {
    collections.iter().find(|c| {
        c.shapes
            .iter()
            .any(|s| s.entity.as_deref() == Some(entity) && s.label == entity)
    })
}

/// Returns the name of the collection among `collections` holding `entity` (the entity's own
/// name when none does): what [`super::Layout::collection_name`] and the planner both answer.
pub fn collection_name_holding(collections: &[Collection], entity: &str) -> String {
    collection_holding(collections, entity).map_or_else(|| entity.to_string(), |c| c.name.clone())
}

/// Returns the measurements a full bucket of `collections` holds for relationship `r` (the
/// length of its `_id` column), when `r` is laid out as a time series.
pub fn bucket_capacity(collections: &[Collection], r: &Relationship) -> Option<u64> {
    let name = buckets_collection_name(r);
    let shape = collections
        .iter()
        .find(|c| c.name == name)?
        .shape(BUCKET_LABEL)?;
    let ids = shape.fields.get("data")?.fields.get("_id")?;
    Some(ids.fields.0.len() as u64)
}

/// Returns true when the parent of `r` holds its children as a map (the `map` field pattern:
/// an object keyed by the children's key, [`crate::model::Field::map_of`]) in `collections`.
pub fn holds_map(collections: &[Collection], r: &Relationship) -> bool {
    collections
        .iter()
        .flat_map(|c| &c.shapes)
        .filter(|s| s.entity.as_deref() == Some(r.parent.as_str()))
        .any(|s| s.fields.get(r.array_field()).is_some_and(|f| f.is_map()))
}
