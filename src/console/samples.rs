//! The console's sample database: the articles' examples as data files
//! (`data/console/*.ndjson`, one collection each) and their indexes as a mongosh script
//! (`data/console/setup.js`), run through the same executor the console uses.

use crate::ejson::{parse_stream, Parser};
use crate::engine::Database;
use crate::shell::read_command;

use super::{execute_command, ConsoleError};

/// The sample collections: name and newline-delimited documents.
pub const SAMPLE_COLLECTIONS: &[(&str, &str)] = &[
    ("users", include_str!("../../data/console/users.ndjson")),
    ("orders", include_str!("../../data/console/orders.ndjson")),
    ("movies", include_str!("../../data/console/movies.ndjson")),
];

/// The mongosh commands run after loading the samples (their indexes).
pub const SAMPLE_SETUP: &str = include_str!("../../data/console/setup.js");

/// Where and why a file of documents could not be loaded into a collection.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{source_name}:{line}:{column}: {message}")]
pub struct LoadError {
    /// The file (or sample) name.
    pub source_name: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong: a syntax error or the engine's refusal (e.g. a duplicate `_id`).
    pub message: String,
}

/// Inserts every document of the newline-delimited `text` into `collection`, in order;
/// returns how many. `source_name` names the text in errors.
pub fn load_documents(
    db: &mut Database,
    collection: &str,
    text: &str,
    source_name: &str,
) -> Result<usize, LoadError> {
    let mut docs = Vec::new();
    let mut lines = Vec::new();
    for item in parse_stream(text) {
        match item.result {
            Ok(doc) => {
                docs.push(doc);
                lines.push(item.line);
            }
            Err(e) => {
                return Err(LoadError {
                    source_name: source_name.to_string(),
                    line: e.line,
                    column: e.column,
                    message: e.message,
                })
            }
        }
    }
    let n = docs.len();
    db.insert_many(collection, docs, true).map_err(|e| {
        let at = e.n_inserted.unwrap_or(0) as usize;
        LoadError {
            source_name: source_name.to_string(),
            line: lines.get(at).copied().unwrap_or(1),
            column: 1,
            message: ConsoleError::Server(e).to_string(),
        }
    })?;
    Ok(n)
}

/// Runs every command of a mongosh script, in order.
pub fn run_script(db: &mut Database, script: &str, source_name: &str) -> Result<(), LoadError> {
    let mut parser = Parser::new(script);
    let error = |line, column, message| LoadError {
        source_name: source_name.to_string(),
        line,
        column,
        message,
    };
    loop {
        let step = (|| -> Result<Option<(usize, crate::shell::ShellCommand)>, crate::ejson::ParseError> {
            if parser.is_at_end()? {
                return Ok(None);
            }
            let start = parser.offset();
            let command = read_command(&mut parser)?;
            parser.eat(';')?;
            Ok(Some((start, command)))
        })();
        match step {
            Ok(None) => return Ok(()),
            Ok(Some((start, command))) => {
                if let Err(e) = execute_command(db, &command) {
                    let (line, column) = crate::ejson::line_column(script, start);
                    return Err(error(line, column, e.to_string()));
                }
            }
            Err(e) => return Err(error(e.line, e.column, e.message)),
        }
    }
}

/// Returns the sample database: every sample collection loaded and the setup script run.
pub fn sample_database() -> Result<Database, LoadError> {
    let mut db = Database::new();
    for (name, text) in SAMPLE_COLLECTIONS {
        load_documents(&mut db, name, text, &format!("data/console/{name}.ndjson"))?;
    }
    run_script(&mut db, SAMPLE_SETUP, "data/console/setup.js")?;
    Ok(db)
}
