//! `squillion size`: the exact BSON size of each document read from a file or stdin.

use std::io::{self, BufWriter, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use serde::Serialize;

use crate::ejson::{parse_stream, ParseError};
use crate::size::{
    analyze_with_limit, Analysis, FieldSize, LimitStatus, MAX_BSON_SIZE, MAX_NESTING,
};

/// The long help of `squillion size` (`squillion size --help`).
pub const LONG_ABOUT: &str = "Report the exact BSON size of each document.\n\n\
        The size is the length in bytes of the document encoded as BSON: exactly what \
        Object.bsonsize() in mongosh and bson.encode() in pymongo report. mongod refuses a \
        document larger than 16 MiB = 16,777,216 bytes (a document of exactly that size is \
        accepted) and one nested deeper than 100 levels (the top-level document is level 1, \
        each embedded document or array adds one).\n\n\
        Input: newline-delimited documents, one JSON array of documents, or documents spread \
        over several lines, in MongoDB Extended JSON (canonical or relaxed) or in mongosh \
        syntax (unquoted keys, ObjectId('…'), ISODate('…'), NumberLong(…), comments, …).\n\n\
        Output, one line per document in input order, tab-separated: the size in bytes, the \
        share of the 16 MiB limit, the line where the document starts, and a marker when it \
        matters: 'WARNING ≥80%', 'OVER LIMIT (+N bytes)', 'TOO DEEP (depth D > 100)'. An \
        unreadable document prints 'error', then 'line L, column C: reason'; the other \
        documents are still reported. With --json, one JSON object per document per line \
        (see docs/cli.md).\n\n\
        Exit codes: 0 every document readable and accepted by mongod, 1 any document \
        unreadable, over 16 MiB or too deep, 2 usage or input error (missing file, not \
        UTF-8).";

/// The examples after the help of `squillion size`.
pub const EXAMPLES: &str = "Examples:\n  squillion size users.ndjson\n  mongoexport -c users | squillion size --json\n  echo \"{ _id: ObjectId('5f0c3c0b9d1e8a3f2c4b6a10'), n: NumberLong(1) }\" | squillion size";

/// Arguments of `squillion size`.
#[derive(Debug, Args)]
pub struct SizeArgs {
    /// File to read; '-' or nothing reads standard input.
    pub file: Option<PathBuf>,
    /// Print one JSON object per document per line, with a breakdown of every field.
    #[arg(long)]
    pub json: bool,
    /// With --json, list at most this many fields per document (totals stay exact; the
    /// rest is counted in "fields_omitted").
    #[arg(long, default_value_t = 10_000, value_name = "N")]
    pub max_fields: usize,
}

impl SizeArgs {
    /// Reads the input, prints one line per document, and returns 1 if any document is
    /// unreadable or refused by mongod.
    pub fn run(self) -> anyhow::Result<ExitCode> {
        let text = read_input(self.file.as_ref())?;
        let items = parse_stream(&text);
        let stdout = io::stdout();
        let mut out = BufWriter::new(stdout.lock());
        let mut finding = false;
        if items.is_empty() {
            eprintln!("squillion size: no documents in the input");
        }
        for item in items {
            let written = match &item.result {
                Ok(doc) => {
                    let rows = if self.json { self.max_fields } else { 0 };
                    let analysis = analyze_with_limit(doc, rows);
                    finding |= !analysis.status.is_accepted();
                    if self.json {
                        write_json(&mut out, &Report::new(item.line, &analysis))
                    } else {
                        writeln!(out, "{}", text_line(item.line, &analysis))
                    }
                }
                Err(error) => {
                    finding = true;
                    if self.json {
                        write_json(
                            &mut out,
                            &ErrorReport {
                                line: item.line,
                                error,
                            },
                        )
                    } else {
                        writeln!(out, "error\t{error}")
                    }
                }
            };
            if let Err(e) = written {
                if e.kind() == io::ErrorKind::BrokenPipe {
                    return Ok(exit(finding));
                }
                return Err(e).context("cannot write the report");
            }
        }
        match out.flush() {
            Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
                Err(e).context("cannot write the report")
            }
            _ => Ok(exit(finding)),
        }
    }
}

fn exit(finding: bool) -> ExitCode {
    if finding {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn read_input(file: Option<&PathBuf>) -> anyhow::Result<String> {
    let mut bytes = Vec::new();
    match file {
        Some(path) if path.as_os_str() != "-" => {
            bytes =
                std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        }
        _ => {
            io::stdin()
                .read_to_end(&mut bytes)
                .context("cannot read standard input")?;
        }
    }
    String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "the input is not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })
}

/// Returns the text report of one document: size, share, line and marker, tab-separated.
fn text_line(line: usize, analysis: &Analysis) -> String {
    let mut text = format!(
        "{}\t{:.2}%\tline {line}",
        analysis.size,
        analysis.share() * 100.0
    );
    if analysis.size > MAX_BSON_SIZE {
        text.push_str(&format!(
            "\tOVER LIMIT (+{} bytes)",
            analysis.bytes_over_limit()
        ));
    }
    if analysis.depth > MAX_NESTING {
        text.push_str(&format!(
            "\tTOO DEEP (depth {} > {MAX_NESTING})",
            analysis.depth
        ));
    }
    if analysis.status == LimitStatus::Warning {
        text.push_str("\tWARNING ≥80%");
    }
    text
}

fn write_json(out: &mut impl Write, value: &impl Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value).map_err(io::Error::from)?;
    out.write_all(b"\n")
}

/// The `--json` object of one document (a contract documented in docs/cli.md).
#[derive(Serialize)]
struct Report<'a> {
    line: usize,
    size: u64,
    limit: u64,
    share: f64,
    status: LimitStatus,
    depth: usize,
    field_name_bytes: u64,
    array_index_bytes: u64,
    framing_bytes: u64,
    fields_omitted: usize,
    fields: &'a [FieldSize],
}

impl<'a> Report<'a> {
    fn new(line: usize, a: &'a Analysis) -> Self {
        Report {
            line,
            size: a.size,
            limit: MAX_BSON_SIZE,
            share: a.share(),
            status: a.status,
            depth: a.depth,
            field_name_bytes: a.field_name_bytes,
            array_index_bytes: a.array_index_bytes,
            framing_bytes: a.framing_bytes,
            fields_omitted: a.fields_omitted,
            fields: &a.fields,
        }
    }
}

/// The `--json` object of an unreadable document.
#[derive(Serialize)]
struct ErrorReport<'a> {
    line: usize,
    error: &'a ParseError,
}
