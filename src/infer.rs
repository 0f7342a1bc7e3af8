//! Inferring a model from documents: `mongoexport` output (canonical or relaxed Extended
//! JSON, one document per line or one JSON array) read line by line in bounded memory, one
//! entity per collection, each field with its dominant BSON type, presence, fitted length and
//! count distributions and number and date ranges.
//!
//! No I/O beyond the reader it is given and no command-line parsing: `squillion infer`
//! (`cli/infer.rs`) and, later, the page's worker drive it the same way:
//! [`Inference::read`] per input, then [`Inference::finish`].
//!
//! Memory per collection is bounded by its fields, not by its documents: lengths and counts
//! go into [`sketch::Sketch`]es, ranges keep their two ends, at most
//! [`crate::model::validate::MAX_FIELDS`] names are tracked per object, a line longer than
//! [`MAX_LINE_BYTES`] is skipped, and at most [`MAX_REPORTED_SKIPS`] skipped lines are kept
//! (all are counted).
//!
//! An array of sub-documents (at a document's top level or in the elements of such an array)
//! becomes a child entity and a one-to-many relationship, its children per parent the array
//! counts seen (a document without the array counted as 0 children), embedded in the model's
//! own design (the data's layout) so that every other design can move it out.
//!
//! Once every input is read (`finish`, stage by stage in `infer/assemble.rs`), a field
//! whose values resolve to another collection's `_id`s, or else to one of its unique keys (a
//! unique index of the dump, or values unique in the data: [`refs::key_sets`]), ([`refs`])
//! becomes a reference (in the child for one id, in the parent for an array of
//! ids), a collection of id pairs a link collection ([`links`]), a collection holding one
//! author reference and an array of recipients to the same collection a feed laid out as
//! fan-out on read ([`feeds`]), and creation times (ObjectId timestamps or a creation date)
//! give growth per day. Low-cardinality strings become enums,
//! emails, URLs and IPs get their kind. A GridFS bucket whose files an entity names by id
//! becomes that entity's file field under the `gridfs` pattern ([`gridfs`]).
//!
//! mongodump `.bson` files ([`dump`]) and archives ([`archive`]) feed the same statistics
//! document by document, gzipped or not ([`input`] tells them by their first bytes); SQL
//! `CREATE TABLE` schemas ([`sql`]) are mapped to a model directly.
//!
//! A dump holds no operations: every model inferred (from documents or SQL) gets a starter
//! workload ([`starter`]), each unit listed as assumed in the report.
//!
//! Not yet: arrays of sub-documents inside nested objects (kept as arrays of objects: a
//! relationship's array lies at its parent's top level).

pub mod archive;
mod assemble;
pub mod batch;
pub mod build;
pub mod dump;
pub mod feeds;
pub mod fit;
pub mod gather;
pub mod gridfs;
pub mod input;
pub mod line;
pub mod links;
pub mod maps;
pub mod refs;
pub mod report;
pub mod sketch;
pub mod split;
pub mod sql;
pub mod starter;
pub mod stats;
pub mod summary;
pub mod tidy;
pub mod variants;

#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::io::BufRead;

use bson::Document;

use crate::ejson::{parse_document, parse_stream};
use crate::model::Model;
pub use build::{Child, FieldReport, Found, MapReport, TypeShare, ValueShare};
pub use fit::{fit, Observed};
pub use refs::Created;
pub use report::{how, EntityReport, Inferred, RelationshipReport, Report, Skipped, SourceSummary};

use assemble::Assembly;
use stats::ObjectStats;

/// The longest line read (64 MiB: four times mongod's 16 MiB document limit, room for
/// Extended JSON's wrappers); a longer line is skipped and reported.
pub const MAX_LINE_BYTES: usize = 64 * 1024 * 1024;

/// Bytes read between two calls of [`Inference::read_with_progress`]'s progress (1 MiB).
pub const PROGRESS_BYTES: u64 = 1 << 20;

/// How many skipped lines the report keeps with their reasons (all are counted).
pub const MAX_REPORTED_SKIPS: usize = 100;

/// Why inference stopped.
#[derive(Debug, thiserror::Error)]
pub enum InferError {
    /// The input could not be read.
    #[error("{input}: cannot read line {line}")]
    Read {
        /// The input's name.
        input: String,
        /// 1-based line being read.
        line: u64,
        /// The I/O error.
        #[source]
        error: std::io::Error,
    },
    /// `--count` named a collection that no input holds.
    #[error("--count names \"{0}\", which is not one of the collections read")]
    UnknownCount(String),
    /// A count is negative, not a number, or too large.
    #[error("the count of \"{0}\" must be a whole number between 0 and 10^15")]
    BadCount(String),
    /// A `.bson` input could not be read.
    #[error("{input}: cannot read at byte {byte}")]
    ReadBytes {
        /// The input's name.
        input: String,
        /// Byte offset being read.
        byte: u64,
        /// The I/O error.
        #[source]
        error: std::io::Error,
    },
    /// A mongodump archive's prelude is broken: nothing could be read.
    #[error("{input}: byte {byte}: {message}")]
    Archive {
        /// The archive's name.
        input: String,
        /// Byte offset (in the decompressed stream) where it breaks.
        byte: u64,
        /// What is wrong.
        message: String,
    },
    /// A mongodump `.metadata.json` is not what mongodump writes.
    #[error("{input}: {message}")]
    Metadata {
        /// The metadata file's name.
        input: String,
        /// What is wrong, and where.
        message: String,
    },
    /// No input held a single readable document.
    #[error("no document could be read: nothing to infer")]
    NothingInferred,
}

/// Inference under way: feed it inputs, then [`Inference::finish`].
#[derive(Debug)]
pub struct Inference {
    /// The longest line read ([`MAX_LINE_BYTES`]; smaller in tests).
    max_line: usize,
    /// Collection name → what was seen, in the order collections first appeared.
    collections: Vec<(String, ObjectStats)>,
    /// Each input read.
    sources: Vec<SourceSummary>,
    /// Lines skipped in all.
    skipped_lines: u64,
    /// The first skipped lines.
    skipped: Vec<Skipped>,
    /// Indexes read from `.metadata.json` files.
    indexes: Vec<dump::IndexReport>,
    /// The `length`s of every `<bucket>.files` collection read, for [`gridfs`].
    buckets: Vec<gridfs::BucketStats>,
}

impl Default for Inference {
    fn default() -> Self {
        Inference {
            max_line: MAX_LINE_BYTES,
            collections: Vec::new(),
            sources: Vec::new(),
            skipped_lines: 0,
            skipped: Vec::new(),
            indexes: Vec::new(),
            buckets: Vec::new(),
        }
    }
}

impl Inference {
    /// Returns an empty inference.
    pub fn new() -> Self {
        Self::default()
    }

    /// Returns an empty inference that skips lines longer than `max_line` bytes.
    pub fn with_max_line(max_line: usize) -> Self {
        Inference {
            max_line,
            ..Self::default()
        }
    }

    /// Reads every document of `reader` (named `source` in messages) into `collection`, line
    /// by line (a document spread over several lines gathered first); an unreadable line or
    /// document is skipped and reported (see [`Inference::skipped`]).
    pub fn read(
        &mut self,
        collection: &str,
        source: &str,
        reader: impl BufRead,
    ) -> Result<SourceSummary, InferError> {
        self.read_with_progress(collection, source, reader, &mut |_, _| {})
    }

    /// Reads every document of `reader` as [`Inference::read`] does, calling
    /// `progress(bytes read, documents read)` every [`PROGRESS_BYTES`] or so and at the end.
    ///
    /// A line whose brackets do not balance opens a document spread over several lines (a
    /// pretty-printed document or array, mongosh's output): the lines up to where it closes
    /// are read as one text ([`gather`]); a document longer than the longest line is skipped
    /// and reported at its first line, an unreadable one at the line and column where it
    /// fails.
    pub fn read_with_progress(
        &mut self,
        collection: &str,
        source: &str,
        mut reader: impl BufRead,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<SourceSummary, InferError> {
        let mut summary = SourceSummary::empty(source, collection);
        let mut buf = Vec::new();
        let mut lines = Lines {
            // GridFS file collections keep the documents their bucket statistics read.
            fast: !collection.ends_with(gridfs::FILES_SUFFIX),
            ..Lines::default()
        };
        loop {
            buf.clear();
            lines.number += 1;
            let n = match read_line(&mut reader, &mut buf, self.max_line) {
                Ok(n) => n,
                // A gzipped input that breaks off ends there, as a truncated `.bson` does.
                Err(e) if dump::decompression_error(&e) => {
                    let message =
                        format!("cannot decompress ({e}): the rest of the file is not read");
                    self.skip(&mut summary, lines.number, message);
                    break;
                }
                Err(error) => {
                    return Err(InferError::Read {
                        input: source.to_string(),
                        line: lines.number,
                        error,
                    })
                }
            };
            let Some(n) = n else { break };
            lines.bytes = lines.bytes.saturating_add(n as u64 + 1);
            if lines.bytes - lines.shown >= PROGRESS_BYTES {
                lines.shown = lines.bytes;
                progress(lines.bytes, summary.documents);
            }
            let Some(line) = self.readable_line(&mut summary, &mut lines, &buf, n) else {
                continue;
            };
            if lines.gather.is_active()
                && !self.gathered(collection, &mut summary, &mut lines, line)
            {
                continue;
            }
            self.read_text_line(collection, &mut summary, &mut lines, line);
        }
        if let Some(chunk) = lines.gather.finish() {
            self.read_chunk(collection, &mut summary, &chunk, lines.in_array);
        }
        progress(lines.bytes, summary.documents);
        self.sources.push(summary.clone());
        Ok(summary)
    }

    /// Returns line `buf` (`n` bytes) as text, or `None` when it is longer than the longest
    /// line or not UTF-8 (skipped and reported: a document being gathered is passed over,
    /// reported at its first line).
    fn readable_line<'b>(
        &mut self,
        summary: &mut SourceSummary,
        lines: &mut Lines,
        buf: &'b [u8],
        n: usize,
    ) -> Option<&'b str> {
        let gathering = lines.gather.is_active();
        let message = if n > self.max_line {
            if gathering {
                too_long(self.max_line)
            } else {
                format!("line longer than {} bytes", self.max_line)
            }
        } else {
            match std::str::from_utf8(buf) {
                Ok(line) => return Some(line),
                Err(_) if gathering => format!("line {} is not UTF-8", lines.number),
                Err(_) => "not UTF-8".to_string(),
            }
        };
        if gathering {
            if let Some(start) = lines.gather.pass_over() {
                self.skip(summary, start, message);
            }
        } else {
            self.skip(summary, lines.number, message);
        }
        None
    }

    /// Adds `line` to the document being gathered over several lines, reading the document
    /// when it closes. Returns whether the line is still to be read: it starts the next
    /// document.
    fn gathered(
        &mut self,
        collection: &str,
        summary: &mut SourceSummary,
        lines: &mut Lines,
        line: &str,
    ) -> bool {
        match lines.gather.push(line, self.max_line) {
            gather::Step::More | gather::Step::Passed => false,
            gather::Step::TooLong { line } => {
                self.skip(summary, line, too_long(self.max_line));
                false
            }
            gather::Step::Closed(chunk) => {
                self.read_chunk(collection, summary, &chunk, lines.in_array);
                false
            }
            gather::Step::Broken(chunk) => {
                if let Some(chunk) = chunk {
                    self.read_chunk(collection, summary, &chunk, lines.in_array);
                }
                true
            }
        }
    }

    /// Reads one line of text: the `[` that opens a top-level array, a one-line document (by
    /// the fast path when it can), the elements of an array on the line, or the start of a
    /// document spread over several lines.
    fn read_text_line(
        &mut self,
        collection: &str,
        summary: &mut SourceSummary,
        lines: &mut Lines,
        line: &str,
    ) {
        let mut text = line.trim();
        if text.is_empty() {
            return;
        }
        if !lines.started {
            lines.started = true;
            if let Some(rest) = text.strip_prefix('[') {
                lines.in_array = true;
                text = rest.trim_start();
                if text.is_empty() {
                    return;
                }
            }
        }
        // Characters of the line before `text`, so that columns are the line's own.
        let before = line
            .get(..line.trim_end().len().saturating_sub(text.len()))
            .map_or(0, |p| p.chars().count());
        if lines.fast && !lines.in_array {
            if let Some(line) = line::read(text, &mut lines.items) {
                if let Some(stats) = self.stats_of(collection) {
                    stats.variants.add(line.fields());
                    stats.add_fields(line.fields());
                }
                summary.documents += 1;
                return;
            }
        }
        let depth = gather::depth_of(text);
        if depth > 0 {
            let indent = gather::indent_of(line);
            lines
                .gather
                .start(text, lines.number, before, indent, depth);
            return;
        }
        let docs: Vec<Result<Document, String>> = if lines.in_array {
            let body = text.strip_suffix(',').unwrap_or(text).trim_end();
            let body = body.strip_suffix(']').unwrap_or(body).trim_end();
            let body = body.strip_suffix(',').unwrap_or(body);
            if body.is_empty() {
                return;
            }
            // The '[' added in front of the body is not on the line.
            parse_stream(&format!("[{body}]"))
                .into_iter()
                .map(|item| item.result.map_err(|e| column_only(&e, before, 1)))
                .collect()
        } else {
            vec![parse_document(text).map_err(|e| column_only(&e, before, 0))]
        };
        for doc in docs {
            match doc {
                Ok(doc) => {
                    self.add(collection, &doc);
                    summary.documents += 1;
                }
                Err(message) => self.skip(summary, lines.number, message),
            }
        }
    }

    /// Reads a document gathered over several lines (or several, when one closed and the
    /// next opened on one line): inside a top-level array as its elements; an unreadable one
    /// is skipped and reported at the input's line and column where it fails.
    fn read_chunk(
        &mut self,
        collection: &str,
        summary: &mut SourceSummary,
        chunk: &gather::Chunk,
        in_array: bool,
    ) {
        let (items, added) = if in_array {
            let body = chunk.text.trim_end();
            let body = body.strip_suffix(',').unwrap_or(body).trim_end();
            let body = body.strip_suffix(']').unwrap_or(body).trim_end();
            let body = body.strip_suffix(',').unwrap_or(body);
            (parse_stream(&format!("[{body}]")), 1)
        } else {
            (parse_stream(&chunk.text), 0)
        };
        for item in items {
            match item.result {
                Ok(doc) => {
                    self.add(collection, &doc);
                    summary.documents += 1;
                }
                Err(e) => {
                    let line = chunk.line + (e.line as u64).saturating_sub(1);
                    let message = if e.line <= 1 {
                        column_only(&e, chunk.before, added)
                    } else {
                        format!("column {}: {}", e.column, e.message)
                    };
                    self.skip(summary, line, message);
                }
            }
        }
    }

    /// Adds one document to `collection`.
    pub fn add(&mut self, collection: &str, doc: &Document) {
        if collection.ends_with(gridfs::FILES_SUFFIX) {
            match self.buckets.iter_mut().find(|b| b.files == collection) {
                Some(b) => b.add(doc),
                None => {
                    let mut b = gridfs::BucketStats {
                        files: collection.to_string(),
                        ..Default::default()
                    };
                    b.add(doc);
                    self.buckets.push(b);
                }
            }
        }
        if let Some(stats) = self.stats_of(collection) {
            stats
                .variants
                .add(doc.iter().map(|(name, value)| (name.as_str(), value)));
            stats.add(doc);
        }
    }

    /// Returns what was seen of `collection`, new if nothing was (always `Some`).
    fn stats_of(&mut self, collection: &str) -> Option<&mut ObjectStats> {
        let at = self.collections.iter().position(|(n, _)| n == collection);
        let at = at.unwrap_or_else(|| {
            self.collections
                .push((collection.to_string(), ObjectStats::default()));
            self.collections.len() - 1
        });
        self.collections.get_mut(at).map(|(_, s)| s)
    }

    /// Returns the lines skipped so far (the first [`MAX_REPORTED_SKIPS`]) and their number.
    pub fn skipped(&self) -> (&[Skipped], u64) {
        (&self.skipped, self.skipped_lines)
    }

    /// Records a skipped line.
    fn skip(&mut self, summary: &mut SourceSummary, line: u64, message: String) {
        summary.skipped += 1;
        self.skipped_lines += 1;
        if self.skipped.len() < MAX_REPORTED_SKIPS {
            self.skipped.push(Skipped {
                source: summary.source.clone(),
                line,
                byte: None,
                message,
            });
        }
    }

    /// Returns the model of everything read: one entity per collection, its count from
    /// `counts` (collection → full-scale count) or else the documents read.
    ///
    /// Each line is a stage of `infer/assemble.rs`, which says why they run in this order.
    pub fn finish(self, counts: &BTreeMap<String, f64>) -> Result<Inferred, InferError> {
        assemble::check_counts(&self.collections, counts)?;
        let ids = assemble::id_sets(&self.collections, &self.indexes);
        let mut a = Assembly::new(&self.collections);
        a.collections(&self.collections, counts, &ids);
        let gridfs = a.gridfs_buckets(&self.buckets, &self.collections);
        let links = a.take_link_collections();
        a.fan_out_on_read_feeds();
        a.link_collections(links);
        a.references();
        a.polymorphic_split();
        let documents = self.collections.iter().map(|(_, s)| s.seen).sum::<u64>();
        let (model, workload) = a.model(documents, &self.indexes);
        Ok(Inferred {
            model,
            report: Report {
                sources: self.sources,
                entities: a.reports,
                relationships: a.moved,
                skipped_lines: self.skipped_lines,
                skipped: self.skipped,
                indexes: self.indexes,
                gridfs: gridfs.reports,
                workload,
            },
        })
    }
}

/// Returns a model with no entities and every default (seed, start date, sample, design).
fn empty_model() -> Model {
    // The defaults live in the model's serde attributes: read them from there rather than
    // copying them here.
    serde_json::from_str(r#"{"entities": []}"#).unwrap_or(Model {
        name: None,
        description: None,
        seed: 1,
        start_date: "2025-01-01".to_string(),
        sample: Default::default(),
        entities: Vec::new(),
        relationships: Vec::new(),
        workload: Vec::new(),
        sharding: None,
        ram_gb: None,
        design: Default::default(),
        preset: None,
    })
}

/// Returns a parse error as "column C: message" (the line is the input's line, said apart),
/// its column moved by the `before` characters cut from the line and the `added` in front.
fn column_only(e: &crate::ejson::ParseError, before: usize, added: usize) -> String {
    let column = (e.column + before).saturating_sub(added).max(1);
    format!("column {column}: {}", e.message)
}

/// Where a line-by-line read is: the line, what the input turned out to be, the document
/// being gathered over several lines, the bytes read and last told.
#[derive(Default)]
struct Lines {
    /// The 1-based number of the line being read.
    number: u64,
    /// The input is one top-level array (its first text was `[`).
    in_array: bool,
    /// The first text of the input was met.
    started: bool,
    /// Lines are read by the fast path ([`line::read`]) when they can be.
    fast: bool,
    /// The fast path's values, reused line after line.
    items: Vec<line::Item>,
    /// The document spread over several lines being gathered.
    gather: gather::Gather,
    /// Bytes read so far.
    bytes: u64,
    /// Bytes read when progress was last told.
    shown: u64,
}

/// Returns why a document gathered past the longest line is skipped.
fn too_long(max: usize) -> String {
    format!("document longer than {max} bytes")
}

/// Reads one line (without its newline) into `buf`, keeping at most `max` + 1 bytes of it;
/// returns its full length, or `None` at the end of the input.
pub(crate) fn read_line(
    reader: &mut impl BufRead,
    buf: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<Option<usize>> {
    let mut total = 0usize;
    let mut any = false;
    loop {
        let chunk = reader.fill_buf()?;
        if chunk.is_empty() {
            return Ok(any.then_some(total));
        }
        any = true;
        let (used, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let take = if done { used - 1 } else { used };
        let room = (max + 1).saturating_sub(buf.len());
        buf.extend_from_slice(chunk.get(..take.min(room)).unwrap_or_default());
        total += take;
        reader.consume(used);
        if done {
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
            return Ok(Some(total));
        }
    }
}
