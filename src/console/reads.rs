//! The reads of the console: `find` with its options and chained cursor methods, `aggregate`,
//! `findOne` and `countDocuments`.

use bson::Bson;

use super::args::{
    collation_doc, count_of, count_value, is_negative, opt_count, opt_doc, type_name,
};
use super::explain::{count_value_of, explain_document};
use super::{Cursor, Exec, ExecError, Executor, Outcome, Reply, Verbosity};
use crate::engine::command::parse_hint;
use crate::engine::{Command, CommandResult, FindCommand};

impl Executor<'_> {
    pub(super) fn find(mut self) -> Exec<Outcome> {
        self.arity(0, 3)?;
        let options = self.options(
            2,
            &[
                "projection",
                "sort",
                "limit",
                "skip",
                "hint",
                "batchSize",
                "maxTimeMS",
                "collation",
            ],
        )?;
        let mut cursor = Cursor::default();
        cursor.find.filter = self.doc_arg(0, "filter")?.unwrap_or_default();
        cursor.find.projection = self.doc_arg(1, "projection")?;
        if let Some(p) = opt_doc(&options, "projection", "find")? {
            cursor.find.projection = Some(p);
        }
        cursor.find.sort = opt_doc(&options, "sort", "find")?;
        cursor.find.limit = opt_count(&options, "limit", "find")?.filter(|l| *l > 0);
        cursor.find.skip = opt_count(&options, "skip", "find")?.unwrap_or(0);
        cursor.find.hint = parse_hint(options.get("hint"));
        cursor.find.collation = collation_doc(opt_doc(&options, "collation", "find")?)?;
        self.apply_chain(&mut cursor, true)?;
        if cursor.count {
            // cursor.count() ignores skip and limit, as mongosh's does by default.
            let f = FindCommand {
                skip: 0,
                limit: None,
                ..std::mem::take(&mut cursor.find)
            };
            let result = self.run_engine(Command::Count(f))?;
            let n = count_of(&result);
            return Ok(self.outcome(Reply::Value(count_value_of(n)), result));
        }
        let find = std::mem::take(&mut cursor.find);
        let result = self.run_engine(Command::Find(find))?;
        self.cursor_reply(result, &cursor)
    }

    pub(super) fn cursor_reply(&self, mut result: CommandResult, cursor: &Cursor) -> Exec<Outcome> {
        if let Some(verbosity) = cursor.explain {
            let namespace = format!("{}.{}", self.db.name, self.command.collection);
            let explain = explain_document(&result, verbosity, &namespace)?;
            let mut o = self.outcome(Reply::Value(Bson::Document(explain)), result);
            o.explained = true;
            return Ok(o);
        }
        if cursor.itcount {
            let n = result.documents.len() as i64;
            return Ok(self.outcome(Reply::Value(count_value_of(n)), result));
        }
        // The reply holds the documents; the result keeps the statistics and plan.
        let docs = std::mem::take(&mut result.documents);
        Ok(self.outcome(Reply::Documents(docs), result))
    }

    /// Applies the chained cursor methods; `find_cursor` is false for an aggregation cursor,
    /// which only takes `explain`, `toArray`, `itcount`, `pretty` and `batchSize`.
    pub(super) fn apply_chain(&self, cursor: &mut Cursor, find_cursor: bool) -> Exec<()> {
        let chain = &self.command.chain;
        for (i, (name, args)) in chain.iter().enumerate() {
            let terminal = matches!(name.as_str(), "explain" | "count" | "itcount" | "toArray");
            if let Some((next, _)) = chain.get(i + 1).filter(|(n, _)| terminal && n != "pretty") {
                return Err(ExecError::at(
                    next.clone(),
                    format!(".{next}() cannot follow .{name}(), which does not return a cursor"),
                ));
            }
            let find_only = matches!(
                name.as_str(),
                "sort" | "limit" | "skip" | "project" | "projection" | "hint" | "count"
            );
            if find_only && !find_cursor {
                return Err(ExecError::at(
                    name.clone(),
                    format!(
                        ".{name}() is not supported on an aggregation cursor: use a pipeline stage"
                    ),
                ));
            }
            let one_arg = |what: &str| -> Exec<&Bson> {
                match args.as_slice() {
                    [a] => Ok(a),
                    _ => Err(ExecError::at(
                        name.clone(),
                        format!(".{name}() takes one argument ({what})"),
                    )),
                }
            };
            match name.as_str() {
                "sort" => match one_arg("a sort document")? {
                    Bson::Document(d) => cursor.find.sort = Some(d.clone()),
                    other => {
                        return Err(ExecError::at(
                            name.clone(),
                            format!(".sort() takes a document, not {}", type_name(other)),
                        ))
                    }
                },
                "project" | "projection" => match one_arg("a projection document")? {
                    Bson::Document(d) => cursor.find.projection = Some(d.clone()),
                    other => {
                        return Err(ExecError::at(
                            name.clone(),
                            format!(".{name}() takes a document, not {}", type_name(other)),
                        ))
                    }
                },
                "limit" => {
                    let n = count_value(one_arg("a number")?)
                        .ok_or_else(|| ExecError::at(name.clone(), ".limit() takes an integer"))?;
                    cursor.find.limit = Some(n).filter(|n| *n > 0);
                }
                "skip" => {
                    let n = count_value(one_arg("a number")?)
                        .filter(|_| !args.first().is_some_and(is_negative))
                        .ok_or_else(|| {
                            ExecError::at(name.clone(), ".skip() takes a non-negative integer")
                        })?;
                    cursor.find.skip = n;
                }
                "hint" => {
                    cursor.find.hint = parse_hint(Some(one_arg("an index name or key pattern")?))
                }
                "collation" => match one_arg("a collation document")? {
                    Bson::Document(d) => cursor.find.collation = collation_doc(Some(d.clone()))?,
                    other => {
                        return Err(ExecError::at(
                            name.clone(),
                            format!(".collation() takes an object, not {}", type_name(other)),
                        ))
                    }
                },
                "explain" => {
                    let verbosity = match args.as_slice() {
                        [] | [Bson::Boolean(false)] => Verbosity::QueryPlanner,
                        [Bson::Boolean(true)] => Verbosity::AllPlansExecution,
                        [Bson::String(v)] if v == "queryPlanner" => Verbosity::QueryPlanner,
                        [Bson::String(v)] if v == "executionStats" => Verbosity::ExecutionStats,
                        [Bson::String(v)] if v == "allPlansExecution" => {
                            Verbosity::AllPlansExecution
                        }
                        _ => {
                            return Err(ExecError::at(
                                "explain",
                                ".explain() takes an optional verbosity: 'queryPlanner', \
                                 'executionStats' or 'allPlansExecution'",
                            ))
                        }
                    };
                    cursor.explain = Some(verbosity);
                }
                "count" => {
                    if !args.is_empty() {
                        return Err(ExecError::at(
                            "count",
                            ".count() with arguments (applySkipLimit) is not supported",
                        ));
                    }
                    cursor.count = true;
                }
                "itcount" => cursor.itcount = true,
                "toArray" | "pretty" | "batchSize" | "maxTimeMS" => {}
                other => {
                    return Err(ExecError::at(
                        other,
                        format!(".{other}() is not supported by the engine"),
                    ))
                }
            }
        }
        Ok(())
    }

    pub(super) fn aggregate(mut self) -> Exec<Outcome> {
        self.arity(0, 2)?;
        self.options(1, &["allowDiskUse", "batchSize", "maxTimeMS", "comment"])?;
        let pipeline = match self.command.args.first() {
            None => Vec::new(),
            Some(Bson::Array(stages)) => {
                let mut out = Vec::new();
                for s in stages {
                    match s {
                        Bson::Document(d) => out.push(d.clone()),
                        other => {
                            return Err(ExecError::at(
                                "aggregate",
                                format!(
                                    "aggregate(): each pipeline stage must be an object, not {}",
                                    type_name(other)
                                ),
                            ))
                        }
                    }
                }
                out
            }
            Some(other) => {
                return Err(ExecError::at(
                    "aggregate",
                    format!(
                        "aggregate() takes the pipeline as an array of stages, not {}",
                        type_name(other)
                    ),
                ))
            }
        };
        let mut cursor = Cursor::default();
        self.apply_chain(&mut cursor, false)?;
        // An explain never writes, as mongod's: a pipeline ending in $out or $merge is
        // explained read-only; run, it goes through the writing path (Database::run).
        let result = if cursor.explain.is_some() {
            self.db
                .explain_aggregate(&self.command.collection, &pipeline)?
        } else {
            self.run_engine(Command::Aggregate { pipeline })?
        };
        self.cursor_reply(result, &cursor)
    }

    pub(super) fn find_one(mut self) -> Exec<Outcome> {
        self.arity(0, 3)?;
        let options = self.options(
            2,
            &[
                "projection",
                "sort",
                "skip",
                "hint",
                "maxTimeMS",
                "collation",
            ],
        )?;
        let mut projection = self.doc_arg(1, "projection")?;
        if let Some(p) = opt_doc(&options, "projection", "findOne")? {
            projection = Some(p);
        }
        let f = FindCommand {
            filter: self.doc_arg(0, "filter")?.unwrap_or_default(),
            projection,
            sort: opt_doc(&options, "sort", "findOne")?,
            skip: opt_count(&options, "skip", "findOne")?.unwrap_or(0),
            limit: Some(1),
            hint: parse_hint(options.get("hint")),
            collation: collation_doc(opt_doc(&options, "collation", "findOne")?)?,
        };
        let result = self.run_engine(Command::FindOne(f))?;
        let value = result
            .documents
            .first()
            .map(|d| Bson::Document(d.document().clone()))
            .unwrap_or(Bson::Null);
        Ok(self.outcome(Reply::Value(value), result))
    }

    pub(super) fn count_documents(mut self) -> Exec<Outcome> {
        self.arity(0, 2)?;
        let options = self.options(1, &["limit", "skip", "hint", "maxTimeMS"])?;
        let f = FindCommand {
            filter: self.doc_arg(0, "filter")?.unwrap_or_default(),
            skip: opt_count(&options, "skip", "countDocuments")?.unwrap_or(0),
            limit: opt_count(&options, "limit", "countDocuments")?.filter(|l| *l > 0),
            hint: parse_hint(options.get("hint")),
            ..Default::default()
        };
        let result = self.run_engine(Command::Count(f))?;
        let n = count_of(&result);
        Ok(self.outcome(Reply::Value(count_value_of(n)), result))
    }
}
