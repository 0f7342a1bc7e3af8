//! `$out`: the pipeline's output replaces a collection, atomically, as mongod 7/8 does it.
//!
//! mongod writes the output into a temporary collection that carries the target's indexes,
//! then renames it over the target: a document that fails (a duplicate `_id`, a key an index
//! of the target refuses, a document over 16 MiB) fails the whole stage and leaves the target
//! as it was. The engine does the same with [`Database::write_out`]: the documents go through
//! the ordinary insert path ([`Database::insert_many`]: `_id` added when missing, checked, the
//! write statistics) into a fresh collection with the target's indexes, which replaces the
//! target only when every document went in.

use crate::engine::collation;
use crate::engine::collection::Collection;
use crate::engine::error::{EngineError, Result};
use crate::engine::expr::type_name;
use crate::engine::index::IndexOptions;
use crate::engine::stats::WriteStats;
use crate::engine::Database;
use bson::{Bson, Document};

/// A parsed `$out`: the collection it replaces (in the one database, `test`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutSpec {
    /// The target collection.
    pub coll: String,
}

/// Returns the collection name of an `into`/`$out` namespace: a string, or `{ db, coll }`
/// whose `db` must be the playground's one database `test` (mongod can write to another
/// database; the playground holds only one, so it refuses with code 20 IllegalOperation
/// rather than writing somewhere the user cannot see).
pub fn target_collection(stage: &str, field: &str, v: &Bson, need_db: bool) -> Result<String> {
    let name = match v {
        Bson::String(s) => s.clone(),
        Bson::Document(d) => {
            for k in d.keys() {
                if k != "db" && k != "coll" {
                    return Err(EngineError::new(
                        40415,
                        "Location40415",
                        format!("BSON field '{field}.{k}' is an unknown field."),
                    ));
                }
            }
            match d.get("db") {
                None if need_db => {
                    return Err(EngineError::new(
                        40414,
                        "Location40414",
                        format!("BSON field '{field}.db' is missing but a required field"),
                    ))
                }
                None => {}
                Some(Bson::String(db)) if db == "test" => {}
                Some(Bson::String(db)) => {
                    return Err(EngineError::new(
                        20,
                        "IllegalOperation",
                        format!(
                            "{stage} to database '{db}' is not supported by the playground engine: \
                             it holds one database, 'test'"
                        ),
                    ))
                }
                Some(other) => return Err(wrong_type(&format!("{field}.db"), other, "string")),
            }
            match d.get("coll") {
                Some(Bson::String(c)) => c.clone(),
                None => {
                    return Err(EngineError::new(
                        40414,
                        "Location40414",
                        format!("BSON field '{field}.coll' is missing but a required field"),
                    ))
                }
                Some(other) => return Err(wrong_type(&format!("{field}.coll"), other, "string")),
            }
        }
        other => {
            return Err(EngineError::new(
                if stage == "$out" { 16990 } else { 51182 },
                if stage == "$out" {
                    "Location16990"
                } else {
                    "Location51182"
                },
                format!(
                    "{stage} only supports a string or object argument, but found {}",
                    type_name(Some(other))
                ),
            ))
        }
    };
    if name.is_empty() || name.contains('\0') || name.starts_with('.') || name.contains('$') {
        return Err(EngineError::new(
            73,
            "InvalidNamespace",
            format!("Invalid {stage} target namespace: 'test.{name}'"),
        ));
    }
    if name.starts_with("system.") {
        return Err(EngineError::new(
            if stage == "$out" { 17385 } else { 31319 },
            if stage == "$out" {
                "Location17385"
            } else {
                "Location31319"
            },
            format!("Can't {stage} to special collection: {name}"),
        ));
    }
    Ok(name)
}

/// Returns code 14 TypeMismatch in the wording of mongod's stage parser.
pub fn wrong_type(field: &str, v: &Bson, expected: &str) -> EngineError {
    EngineError::type_mismatch(format!(
        "BSON field '{field}' is the wrong type '{}', expected type '{expected}'",
        type_name(Some(v))
    ))
}

impl OutSpec {
    /// Returns the parsed `$out` argument: `"coll"` or `{ db: "test", coll }`.
    pub fn parse(v: &Bson) -> Result<OutSpec> {
        Ok(OutSpec {
            coll: target_collection("$out", "$out", v, true)?,
        })
    }

    /// Returns the stage as explain shows it (mongod prints `{ db, coll }`).
    pub fn to_bson(&self) -> Bson {
        Bson::Document(bson::doc! {"db": "test", "coll": self.coll.clone()})
    }
}

impl Database {
    /// Replaces `spec.coll` with `docs`, keeping the target's indexes; all or nothing.
    /// Returns the write statistics of the inserts (documents, bytes and index keys written).
    pub fn write_out(&mut self, spec: &OutSpec, docs: Vec<Document>) -> Result<WriteStats> {
        let mut fresh = Collection::new(&self.name, &spec.coll);
        if let Some(old) = self.collections.get(&spec.coll) {
            for index in old.indexes().iter().filter(|i| i.spec.name != "_id_") {
                let options = IndexOptions {
                    name: Some(index.spec.name.clone()),
                    unique: index.spec.unique,
                    sparse: index.spec.sparse,
                    partial_filter_expression: index.spec.partial_filter_expression.clone(),
                    collation: collation::parse_opt(index.spec.collation.as_ref())?,
                };
                fresh.create_index(&index.spec.key, &options)?;
            }
        }
        let old = self.collections.insert(spec.coll.clone(), fresh);
        match self.insert_many(&spec.coll, docs, true) {
            Ok(r) => Ok(r.stats.write),
            Err(mut e) => {
                match old {
                    Some(old) => {
                        self.collections.insert(spec.coll.clone(), old);
                    }
                    None => {
                        self.collections.remove(&spec.coll);
                    }
                }
                // Nothing was written: the count of an ordered insert does not apply.
                e.n_inserted = None;
                Err(e)
            }
        }
    }
}

#[cfg(test)]
mod tests;
