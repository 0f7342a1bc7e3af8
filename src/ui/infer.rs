//! "Start from your data" on the page's worker side: the inputs the dialog
//! (`editor/infer.rs`) hands the worker, inferred with [`crate::infer`] as `squillion infer`
//! infers files, and the summary the dialog shows in the report's words.
//!
//! mongoexport and mongodump files are fed in chunks: the worker's script reads each file
//! 4 MiB at a time (`FileReaderSync` over `File.slice`) when [`JsChunks`] asks for more, and
//! reports the bytes read; SQL schemas and `.metadata.json` files are read whole.

use std::collections::BTreeMap;
use std::io::Read;

use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

pub use crate::infer::input::{classify, Kind};
use crate::infer::sql::{infer_sql, SqlError, SqlInferred, SqlInput};
use crate::infer::{InferError, Inference, Inferred};
use crate::lang::Text;

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
        let Some((name, n)) = item.split_once('=') else {
            return Err(format!("“{item}”: write collection=N"));
        };
        let n: f64 = n
            .trim()
            .replace(['_', ' '], "")
            .parse()
            .map_err(|_| format!("“{item}”: {} is not a number", n.trim()))?;
        counts.insert(name.trim().to_string(), n);
    }
    Ok(counts)
}

/// What the dialog shows of an inference: what was found and assumed, in the report's words,
/// as texts the dialog renders in the page's language (`## Infer summary`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// True for a SQL schema (tables and statements), false for documents.
    pub sql: bool,
    /// Per input: its name, its collection and what was read of it.
    pub sources: Vec<Text>,
    /// Per entity (table): documents read, count, fields.
    pub entities: Vec<Text>,
    /// Per relationship: parent → child, its layout and its figures.
    pub relationships: Vec<Text>,
    /// What the model assumes where the data could not be written as seen.
    pub assumed: Vec<Text>,
    /// Indexes read (reported, not in the model).
    pub indexes: Vec<Text>,
    /// The model's starter workload, every unit assumed (a dump holds no operations).
    #[serde(default)]
    pub workload: Vec<Text>,
    /// Lines (statements, for SQL) skipped in all.
    pub skipped_count: u64,
    /// The first skipped lines, each with its input, line (or byte offset) and reason.
    pub skipped: Vec<Text>,
    /// Per junction table with more than its two keys: its other columns, link attributes
    /// not carried into the model (SQL only).
    pub link_attributes: Vec<Text>,
}

/// One input the worker reads.
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

/// Returns the summary of a model inferred from documents, in `squillion infer`'s words.
fn summary(inferred: &Inferred) -> Summary {
    let r = &inferred.report;
    let th = |n: f64| crate::human::thousands(n as u64);
    let counted = |n: u64, one: &'static str, many: &'static str| {
        Text::new(if n == 1 { one } else { many }).arg("count", crate::human::thousands(n))
    };
    let either = |on: bool, id: &'static str| Text::new(if on { id } else { "infer-empty" });
    let mut s = Summary {
        skipped_count: r.skipped_lines,
        ..Summary::default()
    };
    for src in &r.sources {
        s.sources.push(
            Text::new("infer-source")
                .arg("source", &src.source)
                .arg("collection", &src.collection)
                .nested(
                    "documents",
                    counted(src.documents, "infer-documents-one", "infer-documents-many"),
                )
                .nested(
                    "skipped",
                    counted(src.skipped, "infer-lines-one", "infer-lines-many"),
                ),
        );
    }
    for e in &r.entities {
        s.entities.push(
            Text::new("infer-entity")
                .arg("name", &e.name)
                .arg("documents", th(e.documents as f64))
                .arg("count", th(e.count))
                .arg("fields", e.fields.len()),
        );
        if let Some(p) = &e.polymorphic {
            s.entities.push(crate::infer::split::line(p));
        }
        for f in &e.fields {
            for a in &f.assumed {
                s.assumed.push(
                    Text::new("infer-field-note")
                        .arg("entity", &e.name)
                        .arg("path", &f.path)
                        .nested("note", a.clone()),
                );
            }
        }
    }
    for rel in &r.relationships {
        let c = &rel.children_per_parent;
        s.relationships.push(
            Text::new("infer-relationship")
                .arg("name", &rel.name)
                .arg("parent", &rel.parent)
                .arg("child", &rel.child)
                .nested(
                    "how",
                    crate::infer::how(rel.layout, &rel.field, rel.map.is_some()),
                )
                .nested("many", either(rel.many_to_many, "infer-many-to-many"))
                .arg("count", th(rel.count))
                .arg("min", c.min)
                .arg("median", c.median)
                .arg("p99", c.p99)
                .arg("max", c.max)
                .nested(
                    "resolved",
                    rel.resolved
                        .map_or(Text::new("infer-empty"), |[values, resolved]| {
                            match &rel.key {
                                Some(k) => Text::new("infer-resolved-key").arg("key", &k.field),
                                None => Text::new("infer-resolved"),
                            }
                            .arg("resolved", resolved)
                            .arg("values", values)
                        }),
                )
                .nested(
                    "without",
                    rel.without_array.map_or(Text::new("infer-empty"), |n| {
                        Text::new("infer-without-array").arg("count", n)
                    }),
                )
                .nested("sampled", either(rel.sampled, "infer-sampled")),
        );
    }
    s.relationships.extend(
        r.gridfs
            .iter()
            .map(|g| Text::new("infer-as-is").arg("text", g.describe())),
    );
    for i in &r.indexes {
        let keys: Vec<String> = i
            .key
            .iter()
            .map(|k| format!("{}: {}", k.field, k.kind))
            .collect();
        s.indexes.push(
            Text::new("infer-index")
                .arg("name", &i.name)
                .arg("collection", &i.collection)
                .arg("keys", keys.join(", "))
                .nested("unique", either(i.unique, "infer-unique")),
        );
    }
    s.workload = workload(&r.workload);
    for k in &r.skipped {
        s.skipped.push(match k.byte {
            Some(byte) => Text::new("infer-skipped-byte")
                .arg("source", &k.source)
                .arg("byte", crate::human::thousands(byte))
                .arg("message", &k.message),
            None => Text::new("infer-skipped-line")
                .arg("source", &k.source)
                .arg("line", k.line)
                .arg("message", &k.message),
        });
    }
    s
}

/// Returns the report's lines of the starter workload, in `squillion infer`'s words.
fn workload(units: &[crate::infer::starter::AssumedUnit]) -> Vec<Text> {
    units.iter().map(crate::infer::starter::line).collect()
}

/// Returns a line kept in English in every language (a SQL schema's summary, GridFS).
fn as_is(text: String) -> Text {
    Text::new("infer-as-is").arg("text", text)
}

/// Returns the summary of a model inferred from a SQL schema, in `squillion infer`'s words.
fn sql_summary(inferred: &SqlInferred) -> Summary {
    let r = &inferred.report;
    let mut s = Summary {
        sql: true,
        skipped_count: r.skipped_statements,
        ..Summary::default()
    };
    for src in &r.sources {
        s.sources.push(as_is(format!(
            "{}: {} ({} SQL), {} skipped",
            src.source,
            crate::human::count(src.tables, "table", "tables"),
            src.dialect,
            crate::human::count(src.skipped_statements, "statement", "statements")
        )));
    }
    for t in &r.tables {
        let became = if t.became == "entity" {
            "entity"
        } else {
            "junction table: a many-to-many relationship"
        };
        s.entities.push(as_is(format!(
            "{}: {became}, count {}, {} columns",
            t.name,
            crate::human::thousands(t.count as u64),
            t.columns.len()
        )));
        for c in &t.columns {
            for a in &c.assumed {
                s.assumed.push(as_is(format!("{}.{}: {a}", t.name, c.name)));
            }
        }
        for a in &t.assumed {
            s.assumed.push(as_is(format!("{}: {a}", t.name)));
        }
        if !t.link_attributes.is_empty() {
            s.link_attributes.push(
                Text::new("infer-link-attribute-columns")
                    .arg("table", &t.name)
                    .arg("columns", t.link_attributes.join(", ")),
            );
        }
    }
    for rel in &r.relationships {
        s.relationships.push(as_is(rel.describe()));
    }
    for i in &r.indexes {
        s.indexes.push(as_is(format!(
            "on {} ({}){}: {} (reported, not in the model)",
            i.table,
            i.columns.join(", "),
            if i.unique { " unique" } else { "" },
            i.origin
        )));
    }
    s.workload = workload(&r.workload);
    for k in &r.skipped {
        let text = match &k.error {
            Some(error) => Text::new("infer-skipped-statement-unread").arg("error", error),
            None => Text::new("infer-skipped-statement-other"),
        };
        s.skipped.push(
            text.arg("source", &k.source)
                .arg("line", k.line)
                .arg("statement", &k.statement),
        );
    }
    s
}

/// A file read in chunks from the worker's script: each call of `next()` returns the next
/// chunk (a `Uint8Array`), or `null` at the end.
pub struct JsChunks {
    /// The script's `next`.
    next: js_sys::Function,
    /// The chunk being read, and how much of it was.
    chunk: Vec<u8>,
    /// Bytes of `chunk` already handed out.
    at: usize,
}

impl JsChunks {
    /// Returns a reader over the chunks `next` returns.
    pub fn new(next: js_sys::Function) -> Self {
        JsChunks {
            next,
            chunk: Vec::new(),
            at: 0,
        }
    }
}

impl Read for JsChunks {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.at >= self.chunk.len() {
            let v = self
                .next
                .call0(&JsValue::NULL)
                .map_err(|_| std::io::Error::other("the file could not be read"))?;
            let Ok(bytes) = v.dyn_into::<js_sys::Uint8Array>() else {
                return Ok(0);
            };
            self.chunk = bytes.to_vec();
            self.at = 0;
        }
        let rest = self.chunk.get(self.at..).unwrap_or_default();
        let n = rest.len().min(buf.len());
        buf.get_mut(..n)
            .unwrap_or_default()
            .copy_from_slice(rest.get(..n).unwrap_or_default());
        self.at += n;
        Ok(n)
    }
}

/// Returns the inputs the worker's script describes: an array of `{ name, collection, kind,
/// next?, text? }` (`next` for a file read in chunks, `text` for text read whole).
fn read_inputs(inputs: &JsValue) -> Result<Vec<Input>, String> {
    let array: js_sys::Array = inputs
        .clone()
        .dyn_into()
        .map_err(|_| "no inputs".to_string())?;
    let field = |o: &JsValue, name: &str| js_sys::Reflect::get(o, &name.into()).ok();
    let mut out = Vec::new();
    for item in array.iter() {
        let text_of = |name: &str| field(&item, name).and_then(|v| v.as_string());
        let name = text_of("name").unwrap_or_else(|| "input".to_string());
        let collection = text_of("collection").unwrap_or_else(|| name.clone());
        let kind = match text_of("kind").as_deref() {
            Some("bson") => Kind::Bson,
            Some("metadata") => Kind::Metadata,
            Some("archive") => Kind::Archive,
            Some("sql") => Kind::Sql,
            _ => Kind::Json,
        };
        let source = match field(&item, "next").and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        {
            Some(next) => Source::Chunks(Box::new(JsChunks::new(next))),
            None => Source::Text(text_of("text").unwrap_or_default()),
        };
        out.push(Input {
            name,
            collection,
            kind,
            source,
        });
    }
    Ok(out)
}

/// Registers `squillionInfer(inputs, countsText)` on the worker's global scope: it returns
/// `JSON {model, summary}` (the model as text, a [`Summary`]) or throws why nothing could be
/// inferred, as a string.
pub fn register() {
    type InferFn = dyn Fn(JsValue, String) -> Result<String, JsValue>;
    let infer = Closure::<InferFn>::new(|inputs: JsValue, counts: String| {
        let run = || -> Result<String, String> {
            let counts = parse_counts(&counts)?;
            let (model, summary) = infer_inputs(read_inputs(&inputs)?, &counts)?;
            serde_json::to_string(&Answer { model, summary }).map_err(|e| e.to_string())
        };
        run().map_err(|e| JsValue::from_str(&e))
    });
    let _ = js_sys::Reflect::set(&js_sys::global(), &"squillionInfer".into(), infer.as_ref());
    // The function lives as long as the worker.
    infer.forget();
}

/// What the worker answers: the model's text and the summary.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Answer {
    /// The model, pretty JSON.
    pub model: String,
    /// What was found and assumed.
    pub summary: Summary,
}
