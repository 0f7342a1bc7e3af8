//! Commands as plain values, so that the console (the CLI's `query` and the page, reading
//! mongosh text in `console`), the model evaluator and the tests all drive the engine the
//! same way.

use crate::engine::index::IndexOptions;
use crate::engine::planner::Hint;
use bson::{Bson, Document};

/// Options of a find (also the query part of `findOne`).
#[derive(Debug, Clone, Default)]
pub struct FindCommand {
    /// The filter.
    pub filter: Document,
    /// The projection.
    pub projection: Option<Document>,
    /// The sort.
    pub sort: Option<Document>,
    /// Documents to skip.
    pub skip: u64,
    /// The most documents to return (0 or `None`: all).
    pub limit: Option<u64>,
    /// The index to use, or a forced collection scan.
    pub hint: Hint,
    /// The collation strings compare under (`{ locale: "en", strength: 2 }`), if any.
    pub collation: Option<Document>,
}

/// An update (`updateOne`, `updateMany`, `replaceOne`).
#[derive(Debug, Clone, Default)]
pub struct UpdateCommand {
    /// The filter.
    pub filter: Document,
    /// The operator document or the replacement.
    pub update: Document,
    /// Update every matching document (`updateMany`).
    pub multi: bool,
    /// Insert when nothing matches.
    pub upsert: bool,
    /// Filters for `$[<id>]`.
    pub array_filters: Vec<Document>,
    /// Require a replacement document (`replaceOne`).
    pub replace: bool,
    /// The index to use.
    pub hint: Hint,
}

/// One command on one collection.
#[derive(Debug, Clone)]
pub enum Command {
    /// `insertOne` / `insertMany`.
    Insert {
        /// The documents.
        documents: Vec<Document>,
        /// Stop at the first error (the default).
        ordered: bool,
    },
    /// `find`.
    Find(FindCommand),
    /// `findOne`: a find with limit 1.
    FindOne(FindCommand),
    /// `countDocuments`.
    Count(FindCommand),
    /// `updateOne`, `updateMany`, `replaceOne`.
    Update(UpdateCommand),
    /// `deleteOne` / `deleteMany`.
    Delete {
        /// The filter.
        filter: Document,
        /// Delete every match.
        multi: bool,
    },
    /// `findOneAndUpdate`.
    FindOneAndUpdate {
        /// The filter, sort and projection.
        find: Box<FindCommand>,
        /// The update.
        update: Box<UpdateCommand>,
        /// Return the document after the update (`returnDocument: "after"`).
        return_new: bool,
    },
    /// `aggregate`.
    Aggregate {
        /// The stages.
        pipeline: Vec<Document>,
    },
    /// `createIndex`.
    CreateIndex {
        /// The key pattern.
        keys: Document,
        /// Name, unique, sparse, partialFilterExpression.
        options: IndexOptions,
    },
    /// `dropIndex`.
    DropIndex {
        /// The index name.
        name: String,
    },
    /// `listIndexes` (`getIndexes()`).
    ListIndexes,
}

/// Returns the hint a `hint` value names: an index name, a key pattern, or `{ $natural: 1 }`.
pub fn parse_hint(v: Option<&Bson>) -> Hint {
    match v {
        Some(Bson::String(s)) => Hint::Index(s.clone()),
        Some(Bson::Document(d)) if d.contains_key("$natural") => Hint::Collscan,
        Some(Bson::Document(d)) => Hint::Index(crate::engine::index::default_name(d)),
        _ => Hint::Auto,
    }
}
