//! Commands as plain values, so that the mongosh parser, the CLI, the page and the model
//! evaluator all drive the engine the same way; and their reading from a JSON-like document
//! (`{ "find": { "filter": {...}, "sort": {...}, "limit": 2 } }`).

use crate::engine::error::{EngineError, Result};
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

fn doc_field(d: &Document, k: &str) -> Result<Option<Document>> {
    match d.get(k) {
        None | Some(Bson::Null) => Ok(None),
        Some(Bson::Document(x)) => Ok(Some(x.clone())),
        Some(_) => Err(EngineError::type_mismatch(format!(
            "'{k}' must be an object"
        ))),
    }
}

fn u64_field(d: &Document, k: &str) -> Result<Option<u64>> {
    match d.get(k) {
        None | Some(Bson::Null) => Ok(None),
        Some(v) => match crate::engine::compare::as_f64(v) {
            Some(f) if f.fract() == 0.0 => Ok(Some(f.abs() as u64)),
            _ => Err(EngineError::type_mismatch(format!(
                "'{k}' must be an integer"
            ))),
        },
    }
}

fn bool_field(d: &Document, k: &str) -> bool {
    matches!(d.get(k), Some(Bson::Boolean(true)))
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

fn find_of(d: &Document) -> Result<FindCommand> {
    let limit = u64_field(d, "limit")?.filter(|l| *l > 0);
    Ok(FindCommand {
        filter: doc_field(d, "filter")?.unwrap_or_default(),
        projection: doc_field(d, "projection")?,
        sort: doc_field(d, "sort")?,
        skip: u64_field(d, "skip")?.unwrap_or(0),
        limit,
        hint: parse_hint(d.get("hint")),
    })
}

fn update_of(d: &Document, multi: bool, replace: bool) -> Result<UpdateCommand> {
    let update = if replace {
        doc_field(d, "replacement")?
    } else {
        doc_field(d, "update")?
    };
    let array_filters = match d.get("arrayFilters") {
        None => Vec::new(),
        Some(Bson::Array(a)) => a.iter().filter_map(|v| v.as_document().cloned()).collect(),
        Some(_) => {
            return Err(EngineError::type_mismatch(
                "'arrayFilters' must be an array",
            ))
        }
    };
    Ok(UpdateCommand {
        filter: doc_field(d, "filter")?.unwrap_or_default(),
        update: update.ok_or_else(|| {
            EngineError::failed_to_parse("an update needs an 'update' (or 'replacement') document")
        })?,
        multi,
        upsert: bool_field(d, "upsert"),
        array_filters,
        replace,
        hint: parse_hint(d.get("hint")),
    })
}

impl Command {
    /// Returns the command a one-field document describes, e.g.
    /// `{ "updateOne": { "filter": {...}, "update": {...}, "upsert": true } }`.
    pub fn from_document(d: &Document) -> Result<Command> {
        let Some((name, arg)) = d.iter().next().filter(|_| d.len() == 1) else {
            return Err(EngineError::failed_to_parse(
                "a command is a document with exactly one field, the command name",
            ));
        };
        let empty = Document::new();
        let args = match arg {
            Bson::Document(x) => x,
            _ => &empty,
        };
        Ok(match name.as_str() {
            "insertOne" => Command::Insert {
                documents: vec![doc_field(args, "document")?
                    .ok_or_else(|| EngineError::failed_to_parse("insertOne needs 'document'"))?],
                ordered: true,
            },
            "insertMany" | "insert" => {
                let docs = match args.get("documents") {
                    Some(Bson::Array(a)) => {
                        a.iter().filter_map(|v| v.as_document().cloned()).collect()
                    }
                    _ => {
                        return Err(EngineError::failed_to_parse(
                            "insertMany needs 'documents' (an array)",
                        ))
                    }
                };
                Command::Insert {
                    documents: docs,
                    ordered: !matches!(args.get("ordered"), Some(Bson::Boolean(false))),
                }
            }
            "find" => Command::Find(find_of(args)?),
            "findOne" => Command::FindOne(find_of(args)?),
            "countDocuments" | "count" => Command::Count(find_of(args)?),
            "updateOne" => Command::Update(update_of(args, false, false)?),
            "updateMany" => Command::Update(update_of(args, true, false)?),
            "replaceOne" => Command::Update(update_of(args, false, true)?),
            "deleteOne" | "deleteMany" => Command::Delete {
                filter: doc_field(args, "filter")?.unwrap_or_default(),
                multi: name == "deleteMany",
            },
            "findOneAndUpdate" => Command::FindOneAndUpdate {
                find: Box::new(find_of(args)?),
                update: Box::new(update_of(args, false, false)?),
                return_new: bool_field(args, "returnNewDocument")
                    || matches!(args.get("returnDocument"), Some(Bson::String(s)) if s == "after"),
            },
            "aggregate" => {
                let p = match arg {
                    Bson::Array(a) => a,
                    _ => match args.get("pipeline") {
                        Some(Bson::Array(a)) => a,
                        _ => {
                            return Err(EngineError::failed_to_parse(
                                "aggregate needs 'pipeline' (an array)",
                            ))
                        }
                    },
                };
                let mut pipeline = Vec::new();
                for s in p {
                    match s {
                        Bson::Document(x) => pipeline.push(x.clone()),
                        _ => {
                            return Err(EngineError::type_mismatch(
                                "Each element of the 'pipeline' array must be an object",
                            ))
                        }
                    }
                }
                Command::Aggregate { pipeline }
            }
            "createIndex" => {
                let keys = doc_field(args, "keys")?
                    .ok_or_else(|| EngineError::failed_to_parse("createIndex needs 'keys'"))?;
                let o = doc_field(args, "options")?.unwrap_or_default();
                Command::CreateIndex {
                    keys,
                    options: IndexOptions {
                        name: o.get_str("name").ok().map(str::to_string),
                        unique: bool_field(&o, "unique"),
                        sparse: bool_field(&o, "sparse"),
                        partial_filter_expression: doc_field(&o, "partialFilterExpression")?,
                    },
                }
            }
            "dropIndex" => Command::DropIndex {
                name: args
                    .get_str("name")
                    .map(str::to_string)
                    .map_err(|_| EngineError::failed_to_parse("dropIndex needs 'name'"))?,
            },
            "listIndexes" | "getIndexes" => Command::ListIndexes,
            other => {
                return Err(EngineError::new(
                    59,
                    "CommandNotFound",
                    format!("no such command: '{other}'"),
                ))
            }
        })
    }
}
