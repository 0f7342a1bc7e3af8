//! Executing mongosh commands on the in-memory engine: the shared core of
//! `squillion query` and the page's console.
//!
//! [`execute`] reads one command with [`crate::shell::parse_command`], turns it into engine
//! [`Command`]s and returns an [`Outcome`]: what mongosh would print ([`Reply`]: a cursor's
//! documents, or one value such as an acknowledgement document, a count or `null`) and the
//! engine's statistics and winning plan.
//!
//! Supported: `find` (filter, projection, options; chained `sort`, `limit`, `skip`,
//! `project`/`projection`, `hint`, `count`, `itcount`, `toArray`, `explain`, `pretty`,
//! `batchSize`, `maxTimeMS`), `findOne`, `countDocuments`, `insertOne`, `insertMany`,
//! `updateOne`, `updateMany` (`upsert`, `arrayFilters`, `hint`), `replaceOne`,
//! `findOneAndUpdate` (`returnDocument`, `returnNewDocument`, `upsert`, `sort`, `projection`,
//! `arrayFilters`), `deleteOne`, `deleteMany`, `aggregate([…])` (+ `.explain()`),
//! `createIndex(keys, options)`, `dropIndex(name | keys)`, `getIndexes()`, and, outside the
//! collection syntax, `db.getCollectionNames()` and `show collections`.
//!
//! Anything else (an unknown method, an option the engine does not implement, an argument of
//! the wrong type) is an [`ConsoleError::Unsupported`] naming it, at the line and column where
//! it appears in the command.

use bson::{doc, Bson, Document};

use crate::ejson::{line_column, ParseError};
use crate::engine::command::parse_hint;
use crate::engine::{
    Command, CommandResult, Database, EngineError, FindCommand, IndexOptions, PlanStage, Returned,
    UpdateCommand,
};
use crate::shell::{parse_command, ShellCommand};

pub mod samples;

#[cfg(test)]
mod tests;

/// Why a command could not be run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ConsoleError {
    /// The text is not a mongosh command (syntax).
    #[error("SyntaxError: {0}")]
    Syntax(#[from] ParseError),
    /// The command is well formed but uses a method, option or argument the console does not
    /// implement; `line`/`column` point at it.
    #[error("line {line}, column {column}: {message}")]
    Unsupported {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// Which method or option, and why.
        message: String,
    },
    /// The engine refused the command, as mongod would (`MongoServerError[Code]: …`).
    #[error("MongoServerError[{}]: {}", .0.code_name, .0.message)]
    Server(#[from] EngineError),
}

/// What mongosh would print for a command.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// A cursor's documents (`find`, `aggregate`, `getIndexes`): stored documents shared
    /// as their bytes, decoded when read (as mongo's drivers hand a raw batch).
    Documents(Vec<Returned>),
    /// One value: a document (`findOne`, an acknowledgement, an explain), `null`, a count,
    /// an index name, or an array of collection names.
    Value(Bson),
}

/// The result of one command: the reply and what it cost.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The command as read (absent for `show collections` / `db.getCollectionNames()`).
    pub command: Option<ShellCommand>,
    /// What mongosh would print.
    pub reply: Reply,
    /// The engine's result: statistics and, for reads, the winning plan (a cursor's
    /// documents are moved to the reply).
    pub result: CommandResult,
    /// True when the command ended with `.explain()` (the reply is the explain document).
    pub explained: bool,
}

impl Outcome {
    /// Returns the documents of the reply: a cursor's documents, or the one document of a
    /// value (none for `null`, counts and names).
    pub fn documents(&self) -> Vec<Document> {
        match &self.reply {
            Reply::Documents(d) => d.iter().map(|x| x.document().clone()).collect(),
            Reply::Value(Bson::Document(d)) => vec![d.clone()],
            Reply::Value(_) => Vec::new(),
        }
    }

    /// Returns the statistics as JSON in explain's shape (`queryPlanner.winningPlan`,
    /// `executionStats`), plus `writeStats` when the command wrote.
    pub fn statistics(&self) -> serde_json::Value {
        let mut json = self.result.explain();
        let w = &self.result.stats.write;
        if w.docs_written > 0 || w.n_matched > 0 || w.index_keys_written > 0 {
            if let (Some(obj), Ok(write)) = (json.as_object_mut(), serde_json::to_value(w)) {
                obj.insert("writeStats".into(), write);
            }
        }
        json
    }

    /// Returns a one-line summary of what the command examined, e.g.
    /// `nReturned: 3, keysExamined: 3, docsExamined: 3, IXSCAN { followers: 1 }`.
    pub fn stats_line(&self) -> String {
        let e = &self.result.stats.exec;
        let w = &self.result.stats.write;
        let mut parts = Vec::new();
        if self.result.plan.is_some() {
            parts.push(format!("nReturned: {}", e.n_returned));
            parts.push(format!("keysExamined: {}", e.keys_examined));
            parts.push(format!("docsExamined: {}", e.docs_examined));
        }
        if w.docs_written > 0 || w.index_keys_written > 0 {
            parts.push(format!("docsWritten: {}", w.docs_written));
            parts.push(format!("bytesWritten: {}", w.bytes_written));
            parts.push(format!("indexKeysWritten: {}", w.index_keys_written));
        }
        if let Some(plan) = &self.result.plan {
            parts.push(plan_summary(plan));
        }
        parts.join(", ")
    }
}

/// Returns mongod's `planSummary` of a plan: its access paths, e.g. `COLLSCAN`,
/// `IXSCAN { followers: 1 }`, or several separated by `, ` (an `$or`).
pub fn plan_summary(plan: &PlanStage) -> String {
    let mut leaves = Vec::new();
    collect_leaves(plan, &mut leaves);
    leaves.dedup();
    leaves.join(", ")
}

fn collect_leaves(plan: &PlanStage, out: &mut Vec<String>) {
    match plan {
        PlanStage::Eof => out.push("EOF".into()),
        PlanStage::Collscan { .. } => out.push("COLLSCAN".into()),
        PlanStage::Ixscan { key_pattern, .. } => out.push(format!(
            "IXSCAN {}",
            crate::ejson::to_shell_string(&Bson::Document(key_pattern.clone()), false)
        )),
        PlanStage::Or { inputs } => inputs.iter().for_each(|i| collect_leaves(i, out)),
        other => {
            if let Some(input) = other.input() {
                collect_leaves(input, out);
            }
        }
    }
}

/// Runs the one mongosh command in `text` on `db`.
pub fn execute(db: &mut Database, text: &str) -> Result<Outcome, ConsoleError> {
    if let Some(names) = database_command(db, text) {
        return Ok(names);
    }
    let command = parse_command(text)?;
    execute_command(db, &command).map_err(|e| e.locate(text))
}

/// Runs a command already read (errors carry no position; [`execute`] adds it).
pub fn execute_command(db: &mut Database, command: &ShellCommand) -> Result<Outcome, ExecError> {
    Executor { db, command }.run()
}

/// `show collections`, `show tables` and `db.getCollectionNames()`.
fn database_command(db: &Database, text: &str) -> Option<Outcome> {
    let t = text.trim().trim_end_matches(';').trim();
    let compact: String = t.chars().filter(|c| !c.is_whitespace()).collect();
    let names = db.collection_names();
    let reply = match t {
        "show collections" | "show tables" => Reply::Documents(
            names
                .iter()
                .map(|n| Returned::from(doc! {"name": n.as_str()}))
                .collect::<Vec<_>>(),
        ),
        _ if compact == "db.getCollectionNames()" => {
            Reply::Value(Bson::Array(names.into_iter().map(Bson::String).collect()))
        }
        _ => return None,
    };
    Some(Outcome {
        command: None,
        reply,
        result: CommandResult::default(),
        explained: false,
    })
}

/// An execution error before its position in the text is known.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ExecError {
    /// Unsupported method, option or argument; `near` is the text to point at.
    #[error("{message}")]
    Unsupported {
        /// What to look for in the command's text (a method or option name).
        near: String,
        /// Which, and why.
        message: String,
    },
    /// The engine's error.
    #[error(transparent)]
    Server(#[from] EngineError),
}

impl ExecError {
    fn at(near: impl Into<String>, message: impl Into<String>) -> ExecError {
        ExecError::Unsupported {
            near: near.into(),
            message: message.into(),
        }
    }

    /// Returns the error with the line and column of what it names in `text` (the start of
    /// the command when it names nothing found there).
    pub fn locate(self, text: &str) -> ConsoleError {
        match self {
            ExecError::Server(e) => ConsoleError::Server(e),
            ExecError::Unsupported { near, message } => {
                let start = text.len() - text.trim_start().len();
                // A method is found by its `.name` first, so that a field of the same name
                // earlier in the command is not taken for it.
                let offset = find_word(text, &format!(".{near}"))
                    .map(|i| i + 1)
                    .or_else(|| find_word(text, &near))
                    .unwrap_or(start);
                let (line, column) = line_column(text, offset);
                ConsoleError::Unsupported {
                    line,
                    column,
                    message,
                }
            }
        }
    }
}

/// Returns the offset of `word` in `text` where it stands as a whole identifier.
fn find_word(text: &str, word: &str) -> Option<usize> {
    if word.is_empty() {
        return None;
    }
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    text.match_indices(word).map(|(i, _)| i).find(|&i| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(ident) && !after.is_some_and(ident)
    })
}

type Exec<T> = Result<T, ExecError>;

struct Executor<'a> {
    db: &'a mut Database,
    command: &'a ShellCommand,
}

/// How much `.explain()` reports, as mongosh's verbosities.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verbosity {
    /// `explain()`, `explain(false)`, `explain('queryPlanner')`: the winning plan only.
    QueryPlanner,
    /// `explain('executionStats')`: the plan and what running it examined and returned.
    ExecutionStats,
    /// `explain('allPlansExecution')`, `explain(true)`: as `ExecutionStats`, with the
    /// (empty: the engine plans one candidate) `allPlansExecution` list.
    AllPlansExecution,
}

/// A cursor's modifiers, from `find`'s options and the chained methods.
#[derive(Default)]
struct Cursor {
    find: FindCommand,
    explain: Option<Verbosity>,
    count: bool,
    itcount: bool,
}

impl Executor<'_> {
    fn run(self) -> Exec<Outcome> {
        let c = self.command;
        let method = c.method.as_str();
        let is_cursor = matches!(method, "find" | "aggregate");
        if !is_cursor {
            if let Some((name, _)) = c.chain.first() {
                return Err(ExecError::at(
                    name.clone(),
                    format!(".{name}() applies to a cursor; {method}() does not return one"),
                ));
            }
        }
        match method {
            "find" => self.find(),
            "aggregate" => self.aggregate(),
            "findOne" => self.find_one(),
            "countDocuments" => self.count_documents(),
            "insertOne" => self.insert(false),
            "insertMany" => self.insert(true),
            "updateOne" => self.update(false, false),
            "updateMany" => self.update(true, false),
            "replaceOne" => self.update(false, true),
            "findOneAndUpdate" => self.find_one_and_update(),
            "deleteOne" => self.delete(false),
            "deleteMany" => self.delete(true),
            "createIndex" => self.create_index(),
            "dropIndex" => self.drop_index(),
            "getIndexes" => self.get_indexes(),
            other => Err(ExecError::at(
                other,
                format!(
                    "{other}() is not supported (supported: find, findOne, countDocuments, \
                     insertOne, insertMany, updateOne, updateMany, replaceOne, \
                     findOneAndUpdate, deleteOne, deleteMany, aggregate, createIndex, \
                     dropIndex, getIndexes)"
                ),
            )),
        }
    }

    fn method(&self) -> &str {
        &self.command.method
    }

    /// Checks the argument count: at least `min`, at most `max`.
    fn arity(&self, min: usize, max: usize) -> Exec<()> {
        let n = self.command.args.len();
        let m = self.method();
        if n < min {
            return Err(ExecError::at(
                m,
                format!("{m}() needs at least {min} argument(s), got {n}"),
            ));
        }
        if n > max {
            return Err(ExecError::at(
                m,
                format!("{m}() takes at most {max} argument(s), got {n}"),
            ));
        }
        Ok(())
    }

    /// Returns argument `i` as a document (`None` when absent, `null` or `undefined`).
    fn doc_arg(&self, i: usize, what: &str) -> Exec<Option<Document>> {
        match self.command.args.get(i) {
            None | Some(Bson::Null) | Some(Bson::Undefined) => Ok(None),
            Some(Bson::Document(d)) => Ok(Some(d.clone())),
            Some(other) => Err(ExecError::at(
                self.method(),
                format!(
                    "{}(): the {what} must be an object, not {}",
                    self.method(),
                    type_name(other)
                ),
            )),
        }
    }

    fn required_doc(&self, i: usize, what: &str) -> Exec<Document> {
        self.doc_arg(i, what)?.ok_or_else(|| {
            ExecError::at(
                self.method(),
                format!("{}() needs the {what}", self.method()),
            )
        })
    }

    /// Returns the options (argument `i`), checked against the names the method supports.
    fn options(&self, i: usize, known: &[&str]) -> Exec<Document> {
        let o = self.doc_arg(i, "options")?.unwrap_or_default();
        for key in o.keys() {
            if !known.contains(&key.as_str()) {
                let supported = if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                };
                return Err(ExecError::at(
                    key.clone(),
                    format!(
                        "{}(): option '{key}' is not supported (supported: {supported})",
                        self.method()
                    ),
                ));
            }
        }
        Ok(o)
    }

    fn run_engine(&mut self, command: Command) -> Exec<CommandResult> {
        Ok(self.db.run(&self.command.collection, command)?)
    }

    fn outcome(&self, reply: Reply, result: CommandResult) -> Outcome {
        Outcome {
            command: Some(self.command.clone()),
            reply,
            result,
            explained: false,
        }
    }

    fn find(mut self) -> Exec<Outcome> {
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

    fn cursor_reply(&self, mut result: CommandResult, cursor: &Cursor) -> Exec<Outcome> {
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
    fn apply_chain(&self, cursor: &mut Cursor, find_cursor: bool) -> Exec<()> {
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

    fn aggregate(mut self) -> Exec<Outcome> {
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
        let result = self.run_engine(Command::Aggregate { pipeline })?;
        self.cursor_reply(result, &cursor)
    }

    fn find_one(mut self) -> Exec<Outcome> {
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

    fn count_documents(mut self) -> Exec<Outcome> {
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

    fn insert(mut self, many: bool) -> Exec<Outcome> {
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
    fn update_arg(&self, replace: bool) -> Exec<Document> {
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

    fn array_filters(&self, options: &Document) -> Exec<Vec<Document>> {
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

    fn update(mut self, multi: bool, replace: bool) -> Exec<Outcome> {
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

    fn find_one_and_update(mut self) -> Exec<Outcome> {
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

    fn delete(mut self, multi: bool) -> Exec<Outcome> {
        self.arity(1, 2)?;
        self.options(1, &["hint", "writeConcern"])?;
        let filter = self.required_doc(0, "filter")?;
        let result = self.run_engine(Command::Delete { filter, multi })?;
        let ack = doc! {"acknowledged": true, "deletedCount": result.stats.write.n_deleted as i64};
        Ok(self.outcome(Reply::Value(Bson::Document(ack)), result))
    }

    fn create_index(mut self) -> Exec<Outcome> {
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

    fn drop_index(mut self) -> Exec<Outcome> {
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

    fn get_indexes(mut self) -> Exec<Outcome> {
        self.arity(0, 0)?;
        let result = self.run_engine(Command::ListIndexes)?;
        let docs = result.documents.clone();
        Ok(self.outcome(Reply::Documents(docs), result))
    }
}

/// Returns a count as mongosh shows it: a JavaScript number (`12`, not `Long('12')`), which
/// `countDocuments`, `count` and `itcount` return (the driver turns the server's count into a
/// number). A 32-bit integer where it fits, else a double (exact up to 2^53).
fn count_value_of(n: i64) -> Bson {
    i32::try_from(n).map_or(Bson::Double(n as f64), Bson::Int32)
}

/// Returns the explain document of a read as mongod's `explain` returns it and mongosh prints
/// it (https://www.mongodb.com/docs/manual/reference/explain-results/): `queryPlanner` with the
/// namespace and the winning plan; with the `executionStats` verbosity (or
/// `allPlansExecution`) also `executionStats`: `executionSuccess`, `nReturned`,
/// `totalKeysExamined`, `totalDocsExamined` and `executionStages`, the stage tree that ran.
///
/// `executionTimeMillis` is left out: the engine's time is not mongod's, and a made-up figure
/// would be read as one. The stages carry their own fields but not per-stage counters (the
/// engine counts per command). A `$lookup`'s own reads are listed under
/// `executionStats.lookups` (not a mongod field).
pub fn explain_document(
    result: &CommandResult,
    verbosity: Verbosity,
    namespace: &str,
) -> Result<Document, ExecError> {
    let plan = result
        .plan
        .as_ref()
        .map_or(Bson::Null, |p| Bson::Document(p.to_document()));
    let number = |n: u64| i32::try_from(n).map_or(Bson::Int64(n as i64), Bson::Int32);
    let mut out = doc! {
        "explainVersion": "1",
        "queryPlanner": {
            "namespace": namespace,
            "winningPlan": plan.clone(),
            "rejectedPlans": [],
        },
    };
    if verbosity != Verbosity::QueryPlanner {
        let e = &result.stats.exec;
        let mut stats = doc! {
            "executionSuccess": true,
            "nReturned": number(e.n_returned),
            "totalKeysExamined": number(e.keys_examined),
            "totalDocsExamined": number(e.docs_examined),
            "executionStages": plan,
        };
        if verbosity == Verbosity::AllPlansExecution {
            stats.insert("allPlansExecution", Bson::Array(Vec::new()));
        }
        if !result.stats.lookups.is_empty() {
            // Relaxed JSON read back by our own reader rather than bson's `TryFrom<Value>`,
            // whose second Extended JSON reader would cost the page about 35 KB.
            let json = serde_json::to_string(&result.stats.lookups)
                .map_err(|e| ExecError::at("explain", format!("explain(): {e}")))?;
            let lookups = crate::ejson::parse_value(&json)
                .map_err(|e| ExecError::at("explain", format!("explain(): {e}")))?;
            stats.insert("lookups", lookups);
        }
        out.insert("executionStats", stats);
    }
    out.insert("ok", 1);
    Ok(out)
}

/// Returns the `n` of a count result.
fn count_of(result: &CommandResult) -> i64 {
    result
        .documents
        .first()
        .and_then(|d| d.get("n"))
        .and_then(|n| match n {
            Bson::Int64(n) => Some(*n),
            Bson::Int32(n) => Some(i64::from(*n)),
            _ => None,
        })
        .unwrap_or(0)
}

fn is_negative(v: &Bson) -> bool {
    crate::engine::compare::as_f64(v).is_some_and(|f| f < 0.0)
}

/// Returns an integral number's absolute value (a negative limit means "one batch" in
/// mongosh: the same documents here).
fn count_value(v: &Bson) -> Option<u64> {
    match crate::engine::compare::as_f64(v) {
        Some(f) if f.fract() == 0.0 && f.is_finite() => Some(f.abs() as u64),
        _ => None,
    }
}

/// Returns a `collation` document once the engine accepts it (locale, strength 1–5), so that
/// a bad one is reported at the option rather than when the command runs.
fn collation_doc(d: Option<Document>) -> Exec<Option<Document>> {
    if let Some(c) = &d {
        crate::engine::collation::Collation::parse(c)
            .map_err(|e| ExecError::at("collation", e.message))?;
    }
    Ok(d)
}

fn opt_doc(o: &Document, key: &str, method: &str) -> Exec<Option<Document>> {
    match o.get(key) {
        None | Some(Bson::Null) => Ok(None),
        Some(Bson::Document(d)) => Ok(Some(d.clone())),
        Some(other) => Err(ExecError::at(
            key,
            format!(
                "{method}(): option '{key}' must be an object, not {}",
                type_name(other)
            ),
        )),
    }
}

fn opt_count(o: &Document, key: &str, method: &str) -> Exec<Option<u64>> {
    match o.get(key) {
        None | Some(Bson::Null) => Ok(None),
        Some(v) => count_value(v)
            .filter(|_| !is_negative(v))
            .map(Some)
            .ok_or_else(|| {
                ExecError::at(
                    key,
                    format!("{method}(): option '{key}' must be a non-negative integer"),
                )
            }),
    }
}

fn opt_bool(o: &Document, key: &str, method: &str) -> Exec<bool> {
    match o.get(key) {
        None | Some(Bson::Null) => Ok(false),
        Some(Bson::Boolean(b)) => Ok(*b),
        Some(other) => Err(ExecError::at(
            key,
            format!(
                "{method}(): option '{key}' must be true or false, not {}",
                type_name(other)
            ),
        )),
    }
}

/// Returns the name of a value's type as MongoDB's `$type` spells it.
fn type_name(v: &Bson) -> &'static str {
    match v {
        Bson::Double(_) => "a double",
        Bson::String(_) => "a string",
        Bson::Array(_) => "an array",
        Bson::Document(_) => "an object",
        Bson::Boolean(_) => "a boolean",
        Bson::Null => "null",
        Bson::Undefined => "undefined",
        Bson::Int32(_) => "an int",
        Bson::Int64(_) => "a long",
        Bson::Decimal128(_) => "a decimal",
        Bson::ObjectId(_) => "an ObjectId",
        Bson::DateTime(_) => "a date",
        Bson::RegularExpression(_) => "a regex",
        _ => "a value of another type",
    }
}
