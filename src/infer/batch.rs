//! A batch of inputs inferred as one model, as the page's "Start from your data" hands them
//! over: files of documents (mongoexport, mongodump, an archive) read in chunks, metadata files
//! and pasted text, or SQL schemas alone; with the full-scale counts a person typed
//! ([`parse_counts`]). Returns the model's text and its [`Summary`].

use std::collections::BTreeMap;
use std::io::Read;

use super::input::Kind;
use super::sql::{infer_sql, SqlError, SqlInput};
use super::summary::{sql_summary, summary, Summary};
use super::{InferError, Inference};

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
    let sql = inputs.iter().filter(|i| i.kind == Kind::Sql).count();
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
    let inferred = inference.finish(counts).map_err(|e| match e {
        InferError::NothingInferred => {
            "no document could be read: nothing inferred (every line was skipped)".to_string()
        }
        e => e.to_string(),
    })?;
    let model = crate::infer::tidy::model_text(&inferred.model).map_err(|e| e.to_string())?;
    Ok((model, summary(&inferred)))
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
}
