//! A batch of inputs inferred as one model, as the page's "Start from your data" hands them
//! over: files of documents (mongoexport, mongodump, an archive) read in chunks, metadata files
//! and pasted text, or SQL schemas alone; with the full-scale counts a person typed
//! ([`parse_counts`]). Returns the model's text and its [`Summary`].
//!
//! An input of documents whose first lines are a mongod log's or a `system.profile` export's
//! (told by [`crate::workload_log::is_log`]) is read as a log instead: with documents, its
//! operations become the model's workload with their rates
//! ([`crate::workload_log::model::with_logged_workload`], as `squillion infer --log` does);
//! alone, the model is made from the log ([`crate::workload_log::model::model_from_logs`]).

use std::collections::BTreeMap;
use std::io::{Cursor, Read};

use super::input::Kind;
use super::sql::{infer_sql, SqlError, SqlInput};
use super::summary::{log_summary, sql_summary, summary, Summary};
use super::{InferError, Inference};
use crate::workload_log::model::{model_from_logs, with_logged_workload, LogModelError};
use crate::workload_log::{is_log, LogReading, LogWorkload, SNIFF_BYTES};

/// Returns true when pasted text is a SQL schema rather than documents: it does not open
/// with `{` or `[` and holds a `CREATE TABLE`.
pub fn looks_like_sql(text: &str) -> bool {
    let t = text.trim_start();
    !t.starts_with('{') && !t.starts_with('[') && t.to_ascii_lowercase().contains("create table")
}

/// Returns the counts of `collection=N` items separated by commas, semicolons or new lines,
/// or which item is not one.
pub fn parse_counts(text: &str) -> Result<BTreeMap<String, f64>, String> {
    let mut counts = BTreeMap::new();
    for item in text.split([',', ';', '\n']).map(str::trim) {
        if item.is_empty() {
            continue;
        }
        let (name, n) = parse_count(item).map_err(|e| match e {
            CountError::NoEquals => format!("“{item}”: write collection=N"),
            CountError::NotANumber(n) => format!("“{item}”: {n} is not a number"),
        })?;
        counts.insert(name, n);
    }
    Ok(counts)
}

/// Why a `collection=N` item is not one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CountError {
    /// No `=`.
    NoEquals,
    /// What stands after `=` is not a number.
    NotANumber(String),
}

/// Returns the collection and count of one `collection=N` item (`_` and spaces in `N` are
/// digit separators: `users=30_000_000`), the one reading of a count for `squillion infer
/// --count` and the page's counts field.
pub fn parse_count(item: &str) -> Result<(String, f64), CountError> {
    let (name, n) = item.split_once('=').ok_or(CountError::NoEquals)?;
    let count = n
        .trim()
        .replace(['_', ' '], "")
        .parse()
        .map_err(|_| CountError::NotANumber(n.trim().to_string()))?;
    Ok((name.trim().to_string(), count))
}

/// One input of a batch.
pub struct Input {
    /// Its name in messages (the file name, or "pasted").
    pub name: String,
    /// The collection it feeds.
    pub collection: String,
    /// How it is read.
    pub kind: Kind,
    /// Its bytes.
    pub source: Source,
}

/// Where an input's bytes come from.
pub enum Source {
    /// Read in chunks (a file).
    Chunks(Box<dyn Read>),
    /// All there (pasted text, or a schema or metadata file read whole).
    Text(String),
}

/// Returns the model (pretty JSON, as `squillion infer --out` writes it) and the summary of
/// `inputs` with full-scale `counts`, or why nothing could be inferred (a SQL parse error at
/// its line and column).
pub fn infer_inputs(
    inputs: Vec<Input>,
    counts: &BTreeMap<String, f64>,
) -> Result<(String, Summary), String> {
    let (logs, inputs) = split_logs(inputs)?;
    let sql = inputs.iter().filter(|i| i.kind == Kind::Sql).count();
    if sql > 0 && !logs.is_empty() {
        return Err(
            "a mongod log gives a workload to documents or a dump, or a model of its \
             own: not to a SQL schema"
                .to_string(),
        );
    }
    let log = match logs.is_empty() {
        true => None,
        false => Some(read_logs(logs)?),
    };
    if inputs.is_empty() {
        if let Some(log) = &log {
            return infer_from_log(log);
        }
    }
    if sql > 0 && sql < inputs.len() {
        return Err(
            "a SQL schema is inferred on its own: give .sql files, or documents, not both"
                .to_string(),
        );
    }
    if sql > 0 {
        let texts: Vec<(String, String)> = inputs
            .into_iter()
            .map(|i| match i.source {
                Source::Text(t) => Ok((i.name, t)),
                Source::Chunks(r) => crate::infer::input::read_text(r)
                    .map(|t| (i.name.clone(), t))
                    .map_err(|_| format!("{}: not UTF-8 text", i.name)),
            })
            .collect::<Result<_, String>>()?;
        let sql_inputs: Vec<SqlInput<'_>> = texts
            .iter()
            .map(|(source, text)| SqlInput { source, text })
            .collect();
        let inferred = infer_sql(&sql_inputs, None, counts).map_err(|e| match e {
            SqlError::NoTables => "no CREATE TABLE statement: nothing inferred".to_string(),
            e => e.to_string(),
        })?;
        let model = crate::infer::tidy::model_text(&inferred.model).map_err(|e| e.to_string())?;
        return Ok((model, sql_summary(&inferred)));
    }
    let mut inference = Inference::new();
    // Metadata after the dumps, as `squillion infer` reads the file beside each `.bson`.
    let (meta, data): (Vec<Input>, Vec<Input>) =
        inputs.into_iter().partition(|i| i.kind == Kind::Metadata);
    for input in data {
        let result = match input.source {
            Source::Chunks(r) => inference
                .read_input(
                    input.kind,
                    &input.collection,
                    &input.name,
                    r,
                    &mut |_, _| {},
                )
                .map(drop),
            Source::Text(t) if input.kind == Kind::Bson => inference
                .read_bson(&input.collection, &input.name, t.as_bytes())
                .map(drop),
            Source::Text(t) => inference
                .read(&input.collection, &input.name, t.as_bytes())
                .map(drop),
        };
        result.map_err(|e| e.to_string())?;
    }
    for input in meta {
        let text = match input.source {
            Source::Text(t) => t,
            Source::Chunks(r) => crate::infer::input::read_text(r)
                .map_err(|_| format!("{}: not UTF-8 text", input.name))?,
        };
        inference
            .read_metadata(&input.collection, &input.name, &text)
            .map_err(|e| e.to_string())?;
    }
    let mut inferred = inference.finish(counts).map_err(|e| match e {
        InferError::NothingInferred => {
            "no document could be read: nothing inferred (every line was skipped)".to_string()
        }
        e => e.to_string(),
    })?;
    let log_report = match &log {
        Some(log) => {
            let report =
                with_logged_workload(&mut inferred.model, log).map_err(|e| e.to_string())?;
            // The starter workload is replaced: its assumed units are gone.
            inferred.report.workload.clear();
            Some(report)
        }
        None => None,
    };
    let model = crate::infer::tidy::model_text(&inferred.model).map_err(|e| e.to_string())?;
    let mut summary = summary(&inferred);
    summary.log = log_report.as_ref().map(log_summary);
    Ok((model, summary))
}

/// Returns the inputs that are logs (each of documents whose first bytes
/// [`is_log`] says are a log's), and the others; every input keeps all its bytes.
fn split_logs(inputs: Vec<Input>) -> Result<(Vec<Input>, Vec<Input>), String> {
    let mut logs = Vec::new();
    let mut others = Vec::new();
    for mut input in inputs {
        if input.kind != Kind::Json {
            others.push(input);
            continue;
        }
        let log = match input.source {
            Source::Text(ref t) => {
                let end = (0..=t.len().min(SNIFF_BYTES))
                    .rev()
                    .find(|i| t.is_char_boundary(*i))
                    .unwrap_or(0);
                is_log(t.get(..end).unwrap_or_default().as_bytes())
            }
            Source::Chunks(mut r) => {
                let mut head = Vec::new();
                (&mut r)
                    .take(SNIFF_BYTES as u64)
                    .read_to_end(&mut head)
                    .map_err(|e| format!("{}: cannot be read ({e})", input.name))?;
                let log = is_log(&head);
                input.source = Source::Chunks(Box::new(Cursor::new(head).chain(r)));
                log
            }
        };
        if log {
            logs.push(input);
        } else {
            others.push(input);
        }
    }
    Ok((logs, others))
}

/// Reads the log inputs into one workload (their bad lines reported, the rest read).
fn read_logs(logs: Vec<Input>) -> Result<LogWorkload, String> {
    let mut reading = LogReading::new();
    for input in logs {
        let read = match input.source {
            Source::Chunks(r) => reading.read(&input.name, r),
            Source::Text(t) => reading.read(&input.name, t.as_bytes()),
        };
        read.map_err(|e| e.to_string())?;
    }
    Ok(reading.finish())
}

/// Returns the model made from logs alone and its summary (the logs' only), or why none.
fn infer_from_log(log: &LogWorkload) -> Result<(String, Summary), String> {
    let (model, report) = model_from_logs(log).map_err(|e| match e {
        LogModelError::NoOperations => {
            "no operation on an application's collection was read in the log: nothing \
             inferred"
                .to_string()
        }
        e => e.to_string(),
    })?;
    let model = crate::infer::tidy::model_text(&model).map_err(|e| e.to_string())?;
    let summary = Summary {
        log: Some(log_summary(&report)),
        ..Summary::default()
    };
    Ok((model, summary))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_reads_digit_separators_and_says_which_part_is_wrong() {
        assert_eq!(
            parse_count(" users = 30_000 000"),
            Ok(("users".to_string(), 30_000_000.0))
        );
        assert_eq!(parse_count("users"), Err(CountError::NoEquals));
        assert_eq!(
            parse_count("users=lots"),
            Err(CountError::NotANumber("lots".to_string()))
        );
        let counts = parse_counts("users=3, orders=9;\nitems=1e6").unwrap();
        assert_eq!(counts.get("orders"), Some(&9.0));
        assert_eq!(counts.get("items"), Some(&1e6));
        assert_eq!(
            parse_counts("users=3, orders").unwrap_err(),
            "“orders”: write collection=N"
        );
    }

    /// The hand-written JSON slow-query log of `shop` (tests/fixtures/mongod-logs).
    const SHOP_LOG: &str =
        include_str!("../../tests/fixtures/mongod-logs/mongod-7.0-slow-queries.log");

    /// An input of documents or a log, read in chunks as the page's files are.
    fn file(name: &str, collection: &str, bytes: &str) -> Input {
        Input {
            name: name.to_string(),
            collection: collection.to_string(),
            kind: Kind::Json,
            source: Source::Chunks(Box::new(std::io::Cursor::new(bytes.as_bytes().to_vec()))),
        }
    }

    #[test]
    fn a_log_among_documents_gives_the_model_its_operations_and_rates() {
        let users: String = (0..30)
            .map(|i| format!("{{\"_id\":{i},\"email\":\"u{i}@example.com\",\"name\":\"U {i}\"}}\n"))
            .collect();
        let inputs = vec![
            file("users.json", "users", &users),
            file("mongod.log", "mongod", SHOP_LOG),
        ];
        let (model, summary) = infer_inputs(inputs, &BTreeMap::new()).unwrap();
        let model: serde_json::Value = serde_json::from_str(&model).unwrap();
        let unit = model["workload"]
            .as_array()
            .unwrap()
            .iter()
            .find(|u| u["name"] == "read users by email")
            .unwrap();
        assert_eq!(unit["rate_per_sec"], 0.03);
        assert_eq!(model["entities"].as_array().unwrap().len(), 1);
        let log = summary.log.unwrap();
        assert_eq!(log.bad_count, 2);
        let en = |t: &crate::lang::Text| t.render(crate::lang::Lang::En);
        assert!(en(&log.bad[0]).starts_with("mongod.log: line 16: not JSON"));
        assert!(
            log.shapes
                .iter()
                .any(|s| en(s).contains("3 operations, 0.0300/s")
                    && en(s).contains("→ workload “read users by email”")),
            "{:?}",
            log.shapes.iter().map(en).collect::<Vec<_>>()
        );
        assert!(
            summary.workload.is_empty(),
            "the starter workload is replaced"
        );
        assert!(log
            .skipped
            .iter()
            .any(|s| en(s).starts_with("1 operation skipped: on admin")));
    }

    #[test]
    fn a_log_alone_makes_a_model_of_its_collections_and_a_log_with_sql_is_refused() {
        let (model, summary) = infer_inputs(
            vec![file("mongod.log", "mongod", SHOP_LOG)],
            &BTreeMap::new(),
        )
        .unwrap();
        let model: serde_json::Value = serde_json::from_str(&model).unwrap();
        let names: Vec<&str> = model["entities"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|e| e["name"].as_str())
            .collect();
        assert!(
            names.contains(&"users") && names.contains(&"orders"),
            "{names:?}"
        );
        assert!(summary.log.is_some() && summary.entities.is_empty());
        let sql = Input {
            name: "schema.sql".to_string(),
            collection: "schema".to_string(),
            kind: Kind::Sql,
            source: Source::Text("CREATE TABLE users (id int);".to_string()),
        };
        let err = infer_inputs(
            vec![sql, file("mongod.log", "mongod", SHOP_LOG)],
            &BTreeMap::new(),
        )
        .unwrap_err();
        assert!(err.contains("not to a SQL schema"), "{err}");
    }
}
