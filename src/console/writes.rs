//! The writes of the console: `insertOne`/`insertMany`, `updateOne`/`updateMany`/`replaceOne`
//! (with `upsert` and `arrayFilters`), `findOneAndUpdate` and `deleteOne`/`deleteMany`.

use bson::{doc, Bson, Document};

use super::args::{opt_bool, opt_doc, type_name};
use super::{Exec, ExecError, Executor, Outcome, Reply};
use crate::engine::command::parse_hint;
use crate::engine::{Command, FindCommand, UpdateCommand};

impl Executor<'_> {
    pub(super) fn insert(mut self, many: bool) -> Exec<Outcome> {
        self.arity(1, 2)?;
        let (documents, ordered) = if many {
            let options = self.options(1, &["ordered", "writeConcern"])?;
            let docs = match self.command.args.first().unwrap_or(&Bson::Null) {
                Bson::Array(items) => {
                    let mut docs = Vec::with_capacity(items.len());
                    for item in items {
                        match item {
                            Bson::Document(d) => docs.push(d.clone()),
                            other => {
                                return Err(ExecError::at(
                                    "insertMany",
                                    format!(
                                        "insertMany(): every element must be a document, not {}",
                                        type_name(other)
                                    ),
                                ))
                            }
                        }
                    }
                    docs
                }
                other => {
                    return Err(ExecError::at(
                        "insertMany",
                        format!(
                            "insertMany() takes an array of documents, not {}",
                            type_name(other)
                        ),
                    ))
                }
            };
            let ordered = !matches!(options.get("ordered"), Some(Bson::Boolean(false)));
            (docs, ordered)
        } else {
            self.options(1, &["writeConcern"])?;
            (vec![self.required_doc(0, "document")?], true)
        };
        let result = self.run_engine(Command::Insert { documents, ordered })?;
        let ack = if many {
            let mut ids = Document::new();
            for (i, id) in result.inserted_ids.iter().enumerate() {
                ids.insert(i.to_string(), id.clone());
            }
            doc! {"acknowledged": true, "insertedIds": ids}
        } else {
            let id = result.inserted_ids.first().cloned().unwrap_or(Bson::Null);
            doc! {"acknowledged": true, "insertedId": id}
        };
        Ok(self.outcome(Reply::Value(Bson::Document(ack)), result))
    }

    /// Reads the update argument (an operator document or a replacement).
    pub(super) fn update_arg(&self, replace: bool) -> Exec<Document> {
        let what = if replace { "replacement" } else { "update" };
        match self.command.args.get(1) {
            Some(Bson::Array(_)) => Err(ExecError::at(
                self.method(),
                format!(
                    "{}(): updates with an aggregation pipeline are not supported; use update operators ($set, $inc, …)",
                    self.method()
                ),
            )),
            _ => self.required_doc(1, what),
        }
    }

    pub(super) fn array_filters(&self, options: &Document) -> Exec<Vec<Document>> {
        match options.get("arrayFilters") {
            None => Ok(Vec::new()),
            Some(Bson::Array(items)) => items
                .iter()
                .map(|i| match i {
                    Bson::Document(d) => Ok(d.clone()),
                    other => Err(ExecError::at(
                        "arrayFilters",
                        format!("arrayFilters must hold documents, not {}", type_name(other)),
                    )),
                })
                .collect(),
            Some(other) => Err(ExecError::at(
                "arrayFilters",
                format!("arrayFilters must be an array, not {}", type_name(other)),
            )),
        }
    }

    pub(super) fn update(mut self, multi: bool, replace: bool) -> Exec<Outcome> {
        self.arity(2, 3)?;
        let known: &[&str] = if replace {
            &["upsert", "hint", "writeConcern"]
        } else {
            &["upsert", "arrayFilters", "hint", "writeConcern"]
        };
        let options = self.options(2, known)?;
        let u = UpdateCommand {
            filter: self.required_doc(0, "filter")?,
            update: self.update_arg(replace)?,
            multi,
            upsert: opt_bool(&options, "upsert", self.method())?,
            array_filters: self.array_filters(&options)?,
            replace,
            hint: parse_hint(options.get("hint")),
        };
        let result = self.run_engine(Command::Update(u))?;
        let w = &result.stats.write;
        let upserted = if w.n_upserted > 0 {
            result.inserted_ids.first().cloned().unwrap_or(Bson::Null)
        } else {
            Bson::Null
        };
        let ack = doc! {
            "acknowledged": true,
            "insertedId": upserted,
            "matchedCount": w.n_matched as i64,
            "modifiedCount": w.n_modified as i64,
            "upsertedCount": w.n_upserted as i64,
        };
        Ok(self.outcome(Reply::Value(Bson::Document(ack)), result))
    }

    pub(super) fn find_one_and_update(mut self) -> Exec<Outcome> {
        self.arity(2, 3)?;
        let options = self.options(
            2,
            &[
                "returnDocument",
                "returnNewDocument",
                "upsert",
                "sort",
                "projection",
                "arrayFilters",
                "hint",
                "maxTimeMS",
            ],
        )?;
        let return_new = match options.get("returnDocument") {
            None => opt_bool(&options, "returnNewDocument", "findOneAndUpdate")?,
            Some(Bson::String(s)) if s == "after" => true,
            Some(Bson::String(s)) if s == "before" => false,
            Some(_) => {
                return Err(ExecError::at(
                    "returnDocument",
                    "returnDocument must be 'before' or 'after'",
                ))
            }
        };
        let filter = self.required_doc(0, "filter")?;
        let hint = parse_hint(options.get("hint"));
        let find = FindCommand {
            filter: filter.clone(),
            projection: opt_doc(&options, "projection", "findOneAndUpdate")?,
            sort: opt_doc(&options, "sort", "findOneAndUpdate")?,
            skip: 0,
            limit: Some(1),
            hint: hint.clone(),
            collation: None,
        };
        let update = UpdateCommand {
            filter,
            update: self.update_arg(false)?,
            multi: false,
            upsert: opt_bool(&options, "upsert", "findOneAndUpdate")?,
            array_filters: self.array_filters(&options)?,
            replace: false,
            hint,
        };
        let result = self.run_engine(Command::FindOneAndUpdate {
            find: Box::new(find),
            update: Box::new(update),
            return_new,
        })?;
        let value = result
            .documents
            .first()
            .map(|d| Bson::Document(d.document().clone()))
            .unwrap_or(Bson::Null);
        Ok(self.outcome(Reply::Value(value), result))
    }

    pub(super) fn delete(mut self, multi: bool) -> Exec<Outcome> {
        self.arity(1, 2)?;
        self.options(1, &["hint", "writeConcern"])?;
        let filter = self.required_doc(0, "filter")?;
        let result = self.run_engine(Command::Delete { filter, multi })?;
        let ack = doc! {"acknowledged": true, "deletedCount": result.stats.write.n_deleted as i64};
        Ok(self.outcome(Reply::Value(Bson::Document(ack)), result))
    }
}
