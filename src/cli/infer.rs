//! `squillion infer`: a model inferred from mongoexport or mongodump files, or from a SQL
//! schema (`crate::infer` does the work; `infer/sources.rs` finds and opens the inputs).

mod log;
mod sources;

use std::cell::Cell;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::rc::Rc;

use anyhow::{bail, Context};
use clap::Args;
use serde::Serialize;

use super::progress::{Progress, Unit};
use crate::eval::logged::{predict, Comparison};
use crate::eval::EvalOptions;
use crate::infer::batch::{parse_count, CountError};
use crate::infer::input::Kind;
use crate::infer::{FieldReport, InferError, Inference, Inferred, RelationshipReport, Report};
use crate::lang::{Lang, Text};
use crate::workload_log::model::{model_from_logs, with_logged_workload, LogModelError, LogReport};
use crate::workload_log::LogWorkload;

/// The long help of `squillion infer` (`squillion infer --help`).
pub const LONG_ABOUT: &str = "Infer a model from documents or from a SQL schema.\n\n\
        Reads mongoexport files (canonical or relaxed Extended JSON, one document per line or \
        one JSON array) and documents spread over several lines (pretty-printed documents or \
        arrays, mongosh output with ObjectId(...), ISODate(...) and unquoted keys, pasted \
        text), line by line in bounded memory, and mongodump .bson files one \
        document at a time (a directory: every .bson in it; the .metadata.json beside each \
        is read and its indexes reported), and mongodump archives (--archive: every \
        collection in one stream, each named inside it; its CRCs checked). Gzipped inputs \
        (mongodump --gzip's .bson.gz and .metadata.json.gz, a gzipped archive or export) \
        are decompressed as they are read; an archive or gzip is told by its first bytes. \
        Each FILE is one collection, named by its file \
        stem (without .gz) or by FILE:collection (files naming the same collection are \
        merged); - reads standard input (collection stdin, or -:collection). Each \
        collection becomes an entity; each field gets its dominant BSON type (the shares \
        of the others are reported), its presence, a length or count distribution fitted to \
        what was seen (fixed, uniform, normal, lognormal or zipf), number and date ranges and its \
        sub-fields. Counts are the documents read unless --count gives the full-scale count.\n\n\
        Arrays of sub-documents become embedded child entities. A field whose values (99% or \
        more) are another collection's _ids becomes a reference: one id, in the child \
        (one-to-many, children per parent measured by grouping); an array of ids, in the \
        parent (many-to-many when ids repeat); a collection of id pairs, a link collection. \
        Creation times (ObjectId timestamps, or a createdAt/date field) spanning a day or more \
        give growth per day. Strings with at most 20 distinct values (each seen twice, 100 \
        strings or more) become enums; emails, URLs and IPs get their kind.\n\n\
        A .sql file (any file with --sql) is a relational schema: one entity per CREATE \
        TABLE, SQL types mapped to BSON types, NULL-able columns present 90% of the time, an \
        integer primary key as _id, foreign keys as one-to-many relationships and junction \
        tables as many-to-many; counts from --count, else 1,000 per table. The file is split \
        by its dialect's rules (DELIMITER, GO lines, dollar quotes, /*! */ version \
        comments); client commands (\\connect, GO, source), COPY rows, procedures, \
        triggers, views, grants and SETs are skipped and counted with their line. --dialect \
        picks the SQL dialect (default: the one the file shows, else generic, then \
        postgresql, then mysql).\n\n\
        --log LOG... reads mongod logs (text before 4.4, JSON from 4.4: its \"Slow query\" \
        entries), system.profile exported with mongoexport and $queryStats output (one entry \
        a line, or one JSON array), gzipped or not, line by line: \
        each operation reduced to its shape (namespace, command, filter with its values as \
        parameters, sort, projection, update), grouped, and counted over the logs' span (rate \
        per second, mean keysExamined, docsExamined and nreturned, plans, duration \
        percentiles). Shapes become the workload: a find by a field a read by it, a sorted \
        find a list, an insert an insert (a child's insert_child), an update an update, a \
        delete a delete; what a step cannot say is reported as assumed. With FILEs the \
        measured workload replaces the starter one; alone, the model has an entity per \
        collection with the fields the operations use. Operations on admin, local, config \
        and system.* namespaces, cursors, write envelopes and other commands are counted \
        and skipped; a bad line is reported with its line number. Rates count what was \
        logged: mongod logs operations slower than slowms (100 ms) by default. With FILEs, \
        each logged unit's mean keysExamined, docsExamined and nreturned and its plans are \
        printed beside what the model's design predicts for it (its typical run at full \
        scale), with their ratio and a reading where they differ 4x or more.\n\n\
        A progress line (bytes read of each file's size, documents so far) is drawn on \
        standard error when it is a terminal, or with --progress.\n\n\
        A malformed line is reported with its line number and skipped (a document over \
        several lines at the line and column where it fails), a corrupt or truncated \
        .bson document or archive block at its byte offset; the rest is still inferred. A SQL statement that \
        cannot be parsed is reported at its line and column and skipped.\n\n\
        Output: the model (JSON) on standard output, the summary on standard error; with \
        --out, the model goes to that file and the summary to standard output. --json prints \
        {\"report\", \"model\"} instead (the model left out with --out), and \"log\" with --log \
        (without \"report\" when --log is alone).\n\n\
        Exit codes: 0 a model was inferred, 1 no document could be read, no table created \
        or no logged operation on an application's collection (nothing written), 2 usage or \
        input error (a SQL parse error included).";

/// The examples after the help of `squillion infer`.
pub const EXAMPLES: &str = "Examples:\n  squillion infer users.json orders.json --out model.json\n  squillion infer dump.ndjson:users --count users=30000000\n  squillion infer users.json --json\n  mongosh --quiet --eval 'db.users.find()' | squillion infer -:users\n  squillion infer dump/shop --out model.json\n  mongodump --archive --gzip | squillion infer - --out model.json\n  squillion infer schema.sql --count orders=5000000 --dialect postgresql\n  squillion infer dump/shop --log mongod.log mongod.log.1.gz --out model.json\n  squillion infer --log profile.json --json";

/// Arguments of `squillion infer`.
#[derive(Debug, Args)]
pub struct InferArgs {
    /// mongoexport files, mongodump .bson files or directories, or .sql schemas; each file
    /// optionally `:collection` (default: the file stem). `-` reads documents from standard
    /// input (collection `stdin`, or `-:collection`).
    #[arg(
        required_unless_present_any = ["stdin_collection", "logs"],
        value_name = "FILE[:collection]"
    )]
    pub files: Vec<String>,
    /// `-:collection`: read documents from standard input into that collection (a FILE
    /// written as a short option so that flags after it still parse; read after the FILEs).
    #[arg(short = ':', value_name = "COLLECTION", hide = true)]
    pub stdin_collection: Option<String>,
    /// mongod log files (text logs before 4.4, JSON logs from 4.4, gzipped or not) or
    /// `system.profile` exported with mongoexport (`-`: standard input): their operations
    /// become the workload, with the rates measured (with FILEs, in place of the starter
    /// workload; alone, with an entity per collection the operations name).
    #[arg(long = "log", value_name = "FILE", num_args = 1..)]
    pub logs: Vec<PathBuf>,
    /// Read every FILE as a SQL schema, whatever its extension.
    #[arg(long)]
    pub sql: bool,
    /// The SQL dialect (generic, postgresql, mysql, sqlite, mssql …); default: the first of
    /// generic, postgresql, mysql that parses the file.
    #[arg(long, value_name = "NAME")]
    pub dialect: Option<String>,
    /// Full-scale count of a collection or SQL table (`users=30000000`); repeat for each.
    #[arg(long = "count", value_name = "COLLECTION=N")]
    pub counts: Vec<String>,
    /// Write the model to this file instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Print the report (and the model) as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Show a progress line on stderr while reading each file (bytes read of its size,
    /// documents so far) even when stderr is not a terminal.
    #[arg(long)]
    pub progress: bool,
    /// The language of the summary: en or zh-CN; default: LC_ALL, LC_MESSAGES or LANG,
    /// English unless Chinese. --json is the same in every language.
    #[arg(long, value_name = "LANG", value_parser = super::lang::parse)]
    pub lang: Option<Lang>,
}

impl InferArgs {
    /// Reads every file, writes the model and the summary; exit 1 when nothing was readable.
    pub fn run(self) -> anyhow::Result<ExitCode> {
        let counts = parse_counts(&self.counts)?;
        let mut specs = self.files.clone();
        specs.extend(self.stdin_collection.iter().map(|c| format!("{STDIN}:{c}")));
        let inputs = sources::expand(&specs, self.sql)?;
        let sql: Vec<PathBuf> = inputs
            .iter()
            .filter_map(|i| match i {
                sources::Input::Sql { path } => Some(path.clone()),
                _ => None,
            })
            .collect();
        if sql.is_empty() && self.dialect.is_some() {
            bail!("--dialect applies to SQL schemas (.sql files, or --sql), not to documents");
        }
        if !sql.is_empty() && !self.logs.is_empty() {
            bail!("--log gives a workload to documents or a dump, or a model of its own: not to a SQL schema");
        }
        let log_on_stdin = self.logs.iter().any(|p| p.as_os_str() == STDIN);
        if log_on_stdin && inputs.iter().any(|i| i.is_stdin()) {
            bail!("standard input (-) can be read once: documents or a log, not both");
        }
        let logs = match self.logs.is_empty() {
            true => None,
            false => Some(log::read_logs(&self.logs)?),
        };
        if inputs.is_empty() {
            if let Some(logs) = &logs {
                return self.run_logs_only(logs);
            }
        }
        if !sql.is_empty() {
            let dialect = self.dialect.as_deref();
            return sources::run_sql(&sql, dialect, &counts, self.out.as_deref(), self.json);
        }
        if inputs.iter().filter(|i| i.is_stdin()).count() > 1 {
            bail!("standard input (-) can be read once: name it once");
        }
        let show_progress = self.progress || io::stderr().is_terminal();
        let inference = read_documents(&inputs, show_progress)?;
        let mut inferred = match inference.finish(&counts) {
            Ok(i) => i,
            Err(InferError::NothingInferred) => {
                eprintln!("squillion infer: no document could be read: nothing inferred");
                return Ok(ExitCode::from(1));
            }
            Err(e) => return Err(e.into()),
        };
        let log_report = match &logs {
            Some(logs) => {
                let report = with_logged_workload(&mut inferred.model, logs)?;
                // The starter workload is replaced: its assumed units are gone.
                inferred.report.workload.clear();
                // mongod's figures beside the model's own design's, evaluated on the model
                // as `squillion eval` runs it by default.
                let measured = predict(&inferred.model, &report, &EvalOptions::default());
                Some((report, measured))
            }
            None => None,
        };
        let model_json = crate::infer::tidy::model_text(&inferred.model)?;
        if let Some(out) = &self.out {
            std::fs::write(out, format!("{model_json}\n"))
                .with_context(|| format!("cannot write {}", out.display()))?;
        }
        let lang = super::lang::or_env(self.lang);
        let stdout = io::stdout();
        let mut stdout = stdout.lock();
        if self.json {
            let v = JsonOut {
                report: Some(&inferred.report),
                log: log_report.as_ref().map(|(report, measured)| LogOut {
                    report,
                    measured_beside_predicted: Some(measured),
                }),
                model: match self.out {
                    None => Some(crate::infer::tidy::model_value(&inferred.model)?),
                    Some(_) => None,
                },
            };
            writeln!(stdout, "{}", serde_json::to_string_pretty(&v)?)?;
        } else {
            let mut text = summary(&inferred, lang);
            if let Some((r, measured)) = &log_report {
                text.push_str(&log::summary(r));
                text.push_str(&log::measured_summary(measured));
            }
            if self.out.is_some() {
                write!(stdout, "{text}")?;
            } else {
                writeln!(stdout, "{model_json}")?;
                eprint!("{text}");
            }
        }
        Ok(ExitCode::SUCCESS)
    }

    /// `--log` alone: a model of the collections and fields the logs' operations use, and
    /// their workload; exit 1 when no operation of an application's collection was read.
    fn run_logs_only(&self, logs: &LogWorkload) -> anyhow::Result<ExitCode> {
        let (model, report) = match model_from_logs(logs) {
            Ok(m) => m,
            Err(LogModelError::NoOperations) => {
                eprintln!(
                    "squillion infer: no operation on an application's collection was read: \
                     nothing inferred"
                );
                eprint!(
                    "{}",
                    log::summary(&crate::workload_log::model::empty_report(logs))
                );
                return Ok(ExitCode::from(1));
            }
            Err(e) => return Err(e.into()),
        };
        let model_json = crate::infer::tidy::model_text(&model)?;
        if let Some(out) = &self.out {
            std::fs::write(out, format!("{model_json}\n"))
                .with_context(|| format!("cannot write {}", out.display()))?;
        }
        let stdout = io::stdout();
        let mut stdout = stdout.lock();
        if self.json {
            let v = JsonOut {
                report: None,
                log: Some(LogOut {
                    report: &report,
                    measured_beside_predicted: None,
                }),
                model: match self.out {
                    None => Some(crate::infer::tidy::model_value(&model)?),
                    Some(_) => None,
                },
            };
            writeln!(stdout, "{}", serde_json::to_string_pretty(&v)?)?;
        } else {
            let text = log::summary(&report) + log::NOT_PREDICTED_ALONE + "\n";
            if self.out.is_some() {
                write!(stdout, "{text}")?;
            } else {
                writeln!(stdout, "{model_json}")?;
                eprint!("{text}");
            }
        }
        Ok(ExitCode::SUCCESS)
    }
}

/// Reads the documents of every input (SQL schemas aside), printing each skipped line or
/// byte on standard error as it is found.
fn read_documents(inputs: &[sources::Input], show_progress: bool) -> anyhow::Result<Inference> {
    let mut inference = Inference::new();
    for input in inputs {
        let before = inference.skipped().0.len();
        match input {
            sources::Input::Json { path, collection } if path == Path::new(STDIN) => {
                let mut none = |_, _| {};
                let stdin = io::stdin().lock();
                inference.read_input(Kind::Json, collection, STDIN_NAME, stdin, &mut none)?;
            }
            sources::Input::Json { path, collection } => {
                read_file(&mut inference, Kind::Json, path, collection, show_progress)?;
            }
            sources::Input::Archive { path } => {
                read_file(&mut inference, Kind::Archive, path, "", show_progress)?;
            }
            sources::Input::Bson {
                path,
                collection,
                metadata,
            } => {
                read_file(&mut inference, Kind::Bson, path, collection, show_progress)?;
                if let Some(meta) = metadata {
                    let text = sources::read_file_text(meta)?;
                    let name = meta.display().to_string();
                    inference.read_metadata(collection, &name, &text)?;
                }
            }
            sources::Input::Sql { .. } => {}
        }
        for s in inference.skipped().0.iter().skip(before) {
            match s.byte {
                Some(byte) => eprintln!(
                    "squillion infer: {}: byte {}: {}",
                    s.source,
                    crate::human::thousands(byte),
                    s.message
                ),
                None => eprintln!(
                    "squillion infer: {}: line {}: {} (skipped)",
                    s.source, s.line, s.message
                ),
            }
        }
    }
    Ok(inference)
}

/// Reads the documents of file `path` (of `kind`, into `collection`) into `inference`, with a
/// progress line of the file's bytes read (compressed bytes, for a gzipped file) when `show`.
fn read_file(
    inference: &mut Inference,
    kind: Kind,
    path: &Path,
    collection: &str,
    show: bool,
) -> anyhow::Result<()> {
    let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let name = path.display().to_string();
    let size = file.metadata().map_or(0, |m| m.len());
    let read = Rc::new(Cell::new(0u64));
    let counted = Counted {
        inner: file,
        read: Rc::clone(&read),
    };
    let mut bar = Progress::new(show, size, Unit::Bytes);
    let mut progress = |_: u64, documents: u64| {
        let what = format!("{} documents", crate::human::thousands(documents));
        bar.update(read.get(), &what);
    };
    inference.read_input(kind, collection, &name, counted, &mut progress)?;
    bar.finish();
    Ok(())
}

/// A reader that counts the bytes read through it (a file's, before decompression).
struct Counted<R> {
    /// The file.
    inner: R,
    /// Bytes read so far.
    read: Rc<Cell<u64>>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.set(self.read.get() + n as u64);
        Ok(n)
    }
}

/// What `--json` prints: the report, the logs' report with `--log`, and the model unless
/// `--out` took it.
#[derive(Serialize)]
struct JsonOut<'a> {
    /// What was found, assumed and skipped in the documents (none with `--log` alone).
    #[serde(skip_serializing_if = "Option::is_none")]
    report: Option<&'a Report>,
    /// What the logs held: each shape, its figures and the unit it became (with `--log`),
    /// and, with documents, mongod's figures beside the prediction.
    #[serde(skip_serializing_if = "Option::is_none")]
    log: Option<LogOut<'a>>,
    /// The model, its whole numbers as integers (as the model text writes them).
    #[serde(skip_serializing_if = "Option::is_none")]
    model: Option<serde_json::Value>,
}

/// What `--json` prints under `log`: the logs' report, and with documents each logged unit's
/// figures beside the prediction.
#[derive(Serialize)]
struct LogOut<'a> {
    /// The logs' report.
    #[serde(flatten)]
    report: &'a LogReport,
    /// mongod's figures beside Squillion's (with documents only: the prediction needs them).
    #[serde(skip_serializing_if = "Option::is_none")]
    measured_beside_predicted: Option<&'a Comparison>,
}

/// Returns the text summary in `lang`: per entity its documents, count and fields; per
/// moved-out array its relationship; the skipped lines.
fn summary(inferred: &Inferred, lang: Lang) -> String {
    let Report {
        entities,
        relationships,
        skipped_lines,
        ..
    } = &inferred.report;
    let say = |t: Text| t.render(lang);
    let mut s = String::new();
    for e in entities {
        s.push_str(&say(Text::new("infer-entity")
            .arg("name", &e.name)
            .arg("documents", e.documents)
            .arg("count", crate::human::thousands(e.count as u64))
            .arg("fields", e.fields.len())));
        s.push('\n');
        if let Some(p) = &e.polymorphic {
            s.push_str("  ");
            s.push_str(&say(crate::infer::split::line(p)));
            s.push('\n');
        }
        for f in &e.fields {
            s.push_str(&field_line(f, lang));
            s.push('\n');
        }
    }
    for r in relationships {
        s.push_str(&say(relationship_line(r)));
        s.push('\n');
    }
    for g in &inferred.report.gridfs {
        s.push_str(&format!("gridfs {}\n", g.describe()));
    }
    for i in &inferred.report.indexes {
        let keys: Vec<String> = i
            .key
            .iter()
            .map(|k| format!("{}: {}", k.field, k.kind))
            .collect();
        s.push_str(&say(Text::new("infer-cli-index")
            .arg("name", &i.name)
            .arg("collection", &i.collection)
            .arg("keys", keys.join(", "))
            .nested("unique", either(i.unique, "infer-unique"))
            .arg("source", &i.source)));
        s.push('\n');
    }
    for u in &inferred.report.workload {
        s.push_str(&say(crate::infer::starter::line(u)));
        s.push('\n');
    }
    s.push_str(&say(
        Text::new("infer-cli-skipped").arg("count", skipped_lines)
    ));
    s.push('\n');
    s
}

/// Returns `id` when `on`, else nothing.
fn either(on: bool, id: &'static str) -> Text {
    Text::new(if on { id } else { "infer-empty" })
}

/// Returns the message `id` with a distribution's min, median, p99 and max.
fn spread(
    id: &'static str,
    min: &dyn ToString,
    median: &dyn ToString,
    p99: &dyn ToString,
    max: &dyn ToString,
) -> Text {
    Text::new(id)
        .arg("min", min.to_string())
        .arg("median", median.to_string())
        .arg("p99", p99.to_string())
        .arg("max", max.to_string())
}

/// Returns a field's line of the summary in `lang`: its path and type, presence, type
/// shares, length and count distributions, and what is assumed of it.
fn field_line(f: &FieldReport, lang: Lang) -> String {
    let say = |t: Text| t.render(lang);
    let mut line = format!("  {}\t{}", f.path, f.ty.alias());
    if f.presence < 1.0 {
        line.push('\t');
        line.push_str(&say(
            Text::new("infer-cli-present").arg("share", format!("{:.1}", f.presence * 100.0))
        ));
    }
    if f.types.len() > 1 {
        let shares: Vec<String> = f
            .types
            .iter()
            .map(|t| format!("{} {:.1}%", t.ty, t.share * 100.0))
            .collect();
        line.push('\t');
        line.push_str(&say(
            Text::new("infer-cli-types").arg("shares", shares.join(", "))
        ));
    }
    if let Some(l) = &f.length {
        line.push('\t');
        line.push_str(&say(spread(
            "infer-cli-length",
            &l.min,
            &l.median,
            &l.p99,
            &l.max,
        )));
    }
    if let Some(c) = &f.count {
        line.push('\t');
        line.push_str(&say(spread(
            "infer-cli-count",
            &c.min,
            &c.median,
            &c.p99,
            &c.max,
        )));
    }
    for a in &f.assumed {
        line.push('\t');
        line.push_str(&say(
            Text::new("infer-cli-assumed").nested("note", a.clone())
        ));
    }
    line
}

/// Returns a relationship's line of the summary: its layout, cardinalities, ids resolved
/// and growth.
fn relationship_line(r: &RelationshipReport) -> Text {
    let c = &r.children_per_parent;
    let line = Text::new("infer-cli-relationship")
        .arg("name", &r.name)
        .arg("parent", &r.parent)
        .arg("child", &r.child)
        .nested(
            "how",
            crate::infer::how(r.layout, &r.field, r.map.is_some()),
        )
        .nested("many", either(r.many_to_many, "infer-many-to-many"))
        .arg("count", crate::human::thousands(r.count as u64))
        .arg("min", c.min)
        .arg("median", c.median)
        .arg("p99", c.p99)
        .arg("max", c.max)
        .nested(
            "parents",
            r.parents_per_child
                .as_ref()
                .map_or(Text::new("infer-empty"), |p| {
                    spread("infer-parents-per-child", &p.min, &p.median, &p.p99, &p.max)
                }),
        )
        .nested(
            "without",
            r.without_array.map_or(Text::new("infer-empty"), |n| {
                Text::new("infer-without-array").arg("count", n)
            }),
        )
        .nested(
            "resolved",
            r.resolved
                .map_or(Text::new("infer-empty"), |[values, resolved]| {
                    match &r.key {
                        Some(k) => Text::new("infer-resolved-key").arg("key", &k.field),
                        None => Text::new("infer-resolved"),
                    }
                    .arg("resolved", resolved)
                    .arg("values", values)
                }),
        )
        .nested("sampled", either(r.sampled, "infer-sampled"))
        .nested(
            "growth",
            match (&r.growth_per_day, &r.created) {
                (Some(g), Some(c)) => Text::new("infer-growth")
                    .arg("typical", format!("{:.3}", g.typical))
                    .arg("largest", format!("{:.3}", g.largest.unwrap_or(g.typical)))
                    .arg("from", &c.from)
                    .arg("days", format!("{:.0}", c.days)),
                _ => Text::new("infer-empty"),
            },
        );
    line
}

/// Returns the path and collection of `FILE[:collection]` (the collection defaults to the
/// file stem).
fn split_spec(spec: &str) -> anyhow::Result<(&Path, String)> {
    if let Some((file, coll)) = spec.rsplit_once(':') {
        if !coll.is_empty() && !coll.contains('/') && !Path::new(spec).exists() {
            return Ok((Path::new(file), coll.to_string()));
        }
    }
    let path = Path::new(spec);
    if spec == STDIN {
        return Ok((path, STDIN_COLLECTION.to_string()));
    }
    let Some(name) = path.file_name().and_then(|s| s.to_str()) else {
        bail!("cannot name a collection after {spec}: write {spec}:collection");
    };
    // users.json → users, orders.bson.gz → orders (crate::infer::input::classify).
    Ok((path, crate::infer::input::classify(name).1))
}

/// The FILE that names standard input.
const STDIN: &str = "-";

/// Standard input's name in messages and the report.
const STDIN_NAME: &str = "(stdin)";

/// The collection standard input's documents go to unless `-:collection` names one.
const STDIN_COLLECTION: &str = "stdin";

/// Returns the `--count COLLECTION=N` values.
fn parse_counts(args: &[String]) -> anyhow::Result<BTreeMap<String, f64>> {
    let mut counts = BTreeMap::new();
    for a in args {
        let (name, n) = parse_count(a).map_err(|e| match e {
            CountError::NoEquals => anyhow::anyhow!("--count {a}: expected COLLECTION=N"),
            CountError::NotANumber(n) => anyhow::anyhow!("--count {a}: {n} is not a number"),
        })?;
        counts.insert(name, n);
    }
    Ok(counts)
}
