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
//! `createIndex(keys, options)`, `dropIndex(name | keys)`, `getIndexes()`, `drop()`, and, outside the
//! collection syntax, `db.getCollectionNames()` and `show collections`.
//!
//! Anything else (an unknown method, an option the engine does not implement, an argument of
//! the wrong type) is an [`ConsoleError::Unsupported`] naming it, at the line and column where
//! it appears in the command.
//!
//! Where each part lives: the commands' dispatch and their argument checks here
//! (`Executor`), the reads in `reads.rs`, the writes in `writes.rs`, the index commands and `drop` in
//! `indexes.rs`, the options' readers in `args.rs` and the plan's summary and `explain`
//! document in `explain.rs`. A new method is a line of `Executor::run` and a method in the
//! file of its kind.

use bson::{doc, Bson, Document};

use crate::ejson::{line_column, ParseError};
use crate::engine::{Command, CommandResult, Database, EngineError, FindCommand, Returned};
use crate::shell::{parse_command, ShellCommand};

mod args;
mod explain;
mod indexes;
mod reads;
pub mod samples;
mod writes;

use args::type_name;
pub use explain::{explain_document, plan_summary};

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
            "drop" => self.drop_collection(),
            other => Err(ExecError::at(
                other,
                format!(
                    "{other}() is not supported (supported: find, findOne, countDocuments, \
                     insertOne, insertMany, updateOne, updateMany, replaceOne, \
                     findOneAndUpdate, deleteOne, deleteMany, aggregate, createIndex, \
                     dropIndex, getIndexes, drop)"
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
}
