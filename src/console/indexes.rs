//! The index commands of the console (`createIndex`, `dropIndex`, `getIndexes`) and `drop`,
//! which removes a collection with its indexes.

use bson::{doc, Bson};

use super::args::{collation_doc, opt_bool, opt_doc, type_name};
use super::{Exec, ExecError, Executor, Outcome, Reply};
use crate::engine::{Command, EngineError, IndexOptions};

impl Executor<'_> {
    pub(super) fn create_index(mut self) -> Exec<Outcome> {
        self.arity(1, 2)?;
        let o = self.options(
            1,
            &[
                "name",
                "unique",
                "sparse",
                "partialFilterExpression",
                "collation",
            ],
        )?;
        let keys = self.required_doc(0, "key pattern")?;
        let name = match o.get("name") {
            None => None,
            Some(Bson::String(s)) => Some(s.clone()),
            Some(other) => {
                return Err(ExecError::at(
                    "name",
                    format!("the index name must be a string, not {}", type_name(other)),
                ))
            }
        };
        let options = IndexOptions {
            name,
            unique: opt_bool(&o, "unique", "createIndex")?,
            sparse: opt_bool(&o, "sparse", "createIndex")?,
            partial_filter_expression: opt_doc(&o, "partialFilterExpression", "createIndex")?,
            collation: collation_doc(opt_doc(&o, "collation", "createIndex")?)?
                .as_ref()
                .map(crate::engine::collation::Collation::parse)
                .transpose()
                .map_err(|e| ExecError::at("collation", e.message))?,
        };
        let result = self.run_engine(Command::CreateIndex { keys, options })?;
        let name = result
            .documents
            .first()
            .and_then(|d| d.get_str("name").ok())
            .map(|n| Bson::String(n.to_string()))
            .unwrap_or(Bson::Null);
        Ok(self.outcome(Reply::Value(name), result))
    }

    pub(super) fn drop_index(mut self) -> Exec<Outcome> {
        self.arity(1, 1)?;
        let name = match self.command.args.first().unwrap_or(&Bson::Null) {
            Bson::String(s) => s.clone(),
            Bson::Document(keys) => {
                let wanted = Bson::Document(keys.clone());
                self.db
                    .list_indexes(&self.command.collection)
                    .into_iter()
                    .find(|i| Bson::Document(i.key.clone()) == wanted)
                    .map(|i| i.name)
                    .ok_or_else(|| {
                        EngineError::new(
                            27,
                            "IndexNotFound",
                            format!(
                                "can't find index with key: {}",
                                crate::ejson::to_shell_string(&wanted, false)
                            ),
                        )
                    })?
            }
            other => {
                return Err(ExecError::at(
                    "dropIndex",
                    format!(
                        "dropIndex() takes an index name or key pattern, not {}",
                        type_name(other)
                    ),
                ))
            }
        };
        let was = self.db.list_indexes(&self.command.collection).len() as i32;
        let result = self.run_engine(Command::DropIndex { name })?;
        let reply = doc! {"nIndexesWas": was, "ok": 1};
        Ok(self.outcome(Reply::Value(Bson::Document(reply)), result))
    }

    pub(super) fn get_indexes(mut self) -> Exec<Outcome> {
        self.arity(0, 0)?;
        let result = self.run_engine(Command::ListIndexes)?;
        let docs = result.documents.clone();
        Ok(self.outcome(Reply::Documents(docs), result))
    }

    /// `drop()`: removes the collection and its indexes; `true` when it existed, `false`
    /// otherwise (as mongosh prints).
    pub(super) fn drop_collection(self) -> Exec<Outcome> {
        self.arity(0, 0)?;
        let existed = self.db.drop_collection(&self.command.collection);
        Ok(self.outcome(
            Reply::Value(Bson::Boolean(existed)),
            crate::engine::CommandResult::default(),
        ))
    }
}
