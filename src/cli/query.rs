//! `squillion query`: load NDJSON files into collections, run one mongosh command on the
//! in-memory engine, print the results as relaxed Extended JSON (and the statistics).

use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};
use clap::Args;

use crate::console::samples::load_documents;
use crate::console::{execute, ConsoleError, Reply};
use crate::ejson::{to_relaxed_ejson, to_relaxed_ejson_value};
use crate::engine::Database;

/// The long help of `squillion query`.
pub const LONG_ABOUT: &str = "Run one mongosh command on Squillion's in-memory engine.\n\n\
    Each --data FILE:COLLECTION loads a file of documents (newline-delimited Extended JSON \
    or mongosh syntax) into a collection; then the command runs and its result is printed \
    as relaxed Extended JSON, one document per line. With --explain, a last line holds the \
    statistics as JSON in explain(\"executionStats\")'s shape.\n\n\
    Exit codes: 0 the command ran, 1 the command failed (the server error is printed as \
    mongosh does: MongoServerError[CodeName]: message), 2 a usage or input error (a file \
    that cannot be read, a document or command that cannot be parsed).";

/// Examples shown after `squillion query --help`.
pub const EXAMPLES: &str = "Examples:\n  \
    squillion query --data users.ndjson:users 'db.users.find({ followers: { $size: 3 } })'\n  \
    squillion query --data users.ndjson:users --explain 'db.users.countDocuments({ age: { $gt: 30 } })'\n  \
    echo 'db.orders.aggregate([{ $unwind: \"$items\" }])' | squillion query --data orders.ndjson:orders -";

/// Arguments of `squillion query`.
#[derive(Debug, Args)]
pub struct QueryArgs {
    /// Load FILE (NDJSON) into COLLECTION first; repeatable. Without `:COLLECTION`, the
    /// collection is the file name without its extension.
    #[arg(long = "data", value_name = "FILE:COLLECTION")]
    pub data: Vec<String>,
    /// Also print the statistics (queryPlanner.winningPlan, executionStats) as a last JSON line.
    #[arg(long)]
    pub explain: bool,
    /// The mongosh command, e.g. `db.users.find({ age: { $gt: 30 } })`; `-` reads it from
    /// standard input.
    #[arg(value_name = "COMMAND")]
    pub command: String,
    /// The language of squillion's own words (a server error's lead): en or zh-CN; default:
    /// LC_ALL, LC_MESSAGES or LANG. mongod's message is as mongosh shows it in every language.
    #[arg(long, value_name = "LANG", value_parser = super::lang::parse)]
    pub lang: Option<crate::lang::Lang>,
}

/// Returns the file and collection of a `--data` value.
fn data_source(spec: &str) -> anyhow::Result<(PathBuf, String)> {
    if let Some((file, collection)) = spec.rsplit_once(':') {
        if !file.is_empty() && !collection.is_empty() && !collection.contains(['/', '\\']) {
            return Ok((PathBuf::from(file), collection.to_string()));
        }
    }
    let path = PathBuf::from(spec);
    match path.file_stem().and_then(|s| s.to_str()) {
        Some(stem) if !stem.is_empty() => Ok((path.clone(), stem.to_string())),
        _ => bail!("--data {spec}: expected FILE:COLLECTION"),
    }
}

fn read_text(path: &PathBuf) -> anyhow::Result<String> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{}: not UTF-8 text (invalid byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

impl QueryArgs {
    /// Loads the data, runs the command and prints the result.
    pub fn run(self) -> anyhow::Result<ExitCode> {
        let mut db = Database::new();
        for spec in &self.data {
            let (path, collection) = data_source(spec)?;
            let text = read_text(&path)?;
            load_documents(&mut db, &collection, &text, &path.display().to_string())?;
        }
        let command = if self.command == "-" {
            let mut text = String::new();
            io::stdin()
                .read_to_string(&mut text)
                .context("cannot read the command from standard input (UTF-8 text)")?;
            text
        } else {
            self.command.clone()
        };
        let outcome = match execute(&mut db, &command) {
            Ok(outcome) => outcome,
            Err(ConsoleError::Syntax(e)) => bail!("the command: SyntaxError: {e}"),
            Err(ConsoleError::Server(e)) => {
                eprintln!(
                    "MongoServerError[{}]: {} (code {})",
                    e.code_name, e.message, e.code
                );
                let lang = super::lang::or_env(self.lang);
                if lang != crate::lang::Lang::En {
                    eprintln!(
                        "{}",
                        crate::lang::Text::new("engine-error-cli")
                            .nested("lead", e.lead())
                            .arg("code_name", e.code_name)
                            .render(lang)
                    );
                }
                return Ok(ExitCode::from(1));
            }
            Err(e @ ConsoleError::Unsupported { .. }) => {
                eprintln!("squillion query: {e}");
                return Ok(ExitCode::from(1));
            }
        };
        let mut out = io::BufWriter::new(io::stdout().lock());
        let written = (|| -> io::Result<()> {
            match &outcome.reply {
                Reply::Documents(docs) => {
                    for doc in docs {
                        writeln!(out, "{}", to_relaxed_ejson(doc))?;
                    }
                }
                Reply::Value(value) => writeln!(out, "{}", to_relaxed_ejson_value(value))?,
            }
            if self.explain {
                writeln!(out, "{}", outcome.statistics())?;
            }
            out.flush()
        })();
        match written {
            Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
                Err(e).context("cannot write the result")
            }
            _ => Ok(ExitCode::SUCCESS),
        }
    }
}
