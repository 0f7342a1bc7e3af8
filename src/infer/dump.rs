//! mongodump output: a `.bson` file of concatenated BSON documents (each a 4-byte
//! little-endian length, then the rest of its bytes), read one document at a time in bounded
//! memory into the same statistics as a mongoexport line, and the `.metadata.json` beside it,
//! whose indexes are reported (the model has no index section: the design derives the indexes
//! its workload needs).

use crate::engine::compare::as_f64;
use std::io::Read;

use bson::{Bson, Document, RawDocument};
use serde::Serialize;

use super::{InferError, Inference, Skipped, SourceSummary, MAX_REPORTED_SKIPS};
use crate::human::thousands;

/// The largest document read: mongod's 16 MiB limit plus the 16 KiB it allows internally
/// (`BSONObjMaxInternalSize`, which an oplog entry or a dump may reach). A declared length
/// above it, or below 5 (the empty document), is corruption.
pub const MAX_BSON_DOCUMENT: usize = 16 * 1024 * 1024 + 16 * 1024;

/// One index of a collection, as mongodump's `.metadata.json` lists it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IndexReport {
    /// The collection it indexes.
    pub collection: String,
    /// The metadata file it was read from.
    pub source: String,
    /// Its name (`_id_`, `email_1`).
    pub name: String,
    /// Its keys in order: the field and its kind (`1`, `-1`, `text`, `hashed`, `2dsphere` …).
    pub key: Vec<IndexKey>,
    /// A unique index.
    pub unique: bool,
    /// A sparse index.
    pub sparse: bool,
    /// A partial index (`partialFilterExpression`).
    pub partial: bool,
    /// A TTL index: seconds after the indexed date that documents expire.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expire_after_seconds: Option<f64>,
}

/// One key of an index.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IndexKey {
    /// The dotted field path.
    pub field: String,
    /// `1`, `-1`, or the index type (`text`, `hashed`, `2dsphere`, `2d`, `wildcard` …).
    pub kind: String,
}

impl Inference {
    /// Reads every document of a mongodump `.bson` stream (named `source` in messages) into
    /// `collection`, one at a time, holding at most one document's bytes. A document that is
    /// not valid BSON is skipped and reported at its byte offset; a truncated document, an
    /// impossible length (below 5 or above [`MAX_BSON_DOCUMENT`]) or a compressed stream that
    /// breaks off ends the stream there, the documents before it kept.
    pub fn read_bson(
        &mut self,
        collection: &str,
        source: &str,
        reader: impl Read,
    ) -> Result<SourceSummary, InferError> {
        self.read_bson_with_progress(collection, source, reader, &mut |_, _| {})
    }

    /// Reads a `.bson` stream as [`Inference::read_bson`] does, calling `progress(bytes read,
    /// documents read)` every [`super::PROGRESS_BYTES`] or so.
    pub fn read_bson_with_progress(
        &mut self,
        collection: &str,
        source: &str,
        reader: impl Read,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<SourceSummary, InferError> {
        let mut summary = SourceSummary::empty(source, collection);
        let mut docs = Documents::new(reader, source);
        loop {
            match docs.next()? {
                Next::End => break,
                Next::Terminator => {
                    let message = impossible_length(u32::MAX as usize);
                    self.skip_bytes(&mut summary, docs.number, docs.at, message);
                    break;
                }
                Next::Broken(message) => {
                    self.skip_bytes(&mut summary, docs.number, docs.at, message);
                    break;
                }
                Next::Document => match docs.document() {
                    Ok(doc) => {
                        self.add(collection, &doc);
                        summary.documents += 1;
                    }
                    Err(message) => {
                        self.skip_bytes(&mut summary, docs.number, docs.at, message);
                    }
                },
            }
            docs.report(summary.documents, progress);
        }
        self.sources.push(summary.clone());
        Ok(summary)
    }

    /// Reads a mongodump `.metadata.json` (Extended JSON: `{"indexes": [{"v", "key", "name",
    /// …}], "uuid", "collectionName", …}`) and keeps its indexes for the report; returns how
    /// many it listed.
    pub fn read_metadata(
        &mut self,
        collection: &str,
        source: &str,
        text: &str,
    ) -> Result<usize, InferError> {
        let bad = |message: String| InferError::Metadata {
            input: source.to_string(),
            message,
        };
        let doc = crate::ejson::parse_document(text.trim()).map_err(|e| {
            bad(format!(
                "line {}, column {}: {}",
                e.line, e.column, e.message
            ))
        })?;
        let indexes = match doc.get("indexes") {
            None => return Ok(0),
            Some(Bson::Array(a)) => a,
            Some(_) => return Err(bad("\"indexes\" is not an array".to_string())),
        };
        let mut n = 0;
        for (i, index) in indexes.iter().enumerate() {
            let Bson::Document(index) = index else {
                return Err(bad(format!("indexes[{i}] is not a document")));
            };
            let Ok(key) = index.get_document("key") else {
                return Err(bad(format!("indexes[{i}] has no \"key\" document")));
            };
            let key = key
                .iter()
                .map(|(field, kind)| IndexKey {
                    field: field.clone(),
                    kind: key_kind(kind),
                })
                .collect();
            let flag = |name: &str| matches!(index.get(name), Some(Bson::Boolean(true)));
            self.indexes.push(IndexReport {
                collection: collection.to_string(),
                source: source.to_string(),
                name: index.get_str("name").unwrap_or_default().to_string(),
                key,
                unique: flag("unique"),
                sparse: flag("sparse"),
                partial: index.contains_key("partialFilterExpression"),
                expire_after_seconds: index.get("expireAfterSeconds").and_then(as_f64),
            });
            n += 1;
        }
        Ok(n)
    }

    /// Records a document skipped at byte `offset` of a `.bson` input (`number`: its 1-based
    /// position in the file, reported as its line).
    pub(super) fn skip_bytes(
        &mut self,
        summary: &mut SourceSummary,
        number: u64,
        offset: u64,
        message: String,
    ) {
        summary.skipped += 1;
        self.skipped_lines += 1;
        if self.skipped.len() < MAX_REPORTED_SKIPS {
            self.skipped.push(Skipped {
                source: summary.source.clone(),
                line: number,
                byte: Some(offset),
                message,
            });
        }
    }
}

/// Returns an index key's kind as text: `1` or `-1` for an ascending or descending key (any
/// number's sign, as mongod reads it), else the string (`text`, `hashed`, `2dsphere`).
fn key_kind(kind: &Bson) -> String {
    match as_f64(kind) {
        Some(n) if n < 0.0 => "-1".to_string(),
        Some(_) => "1".to_string(),
        None => match kind {
            Bson::String(s) => s.clone(),
            other => other.to_string(),
        },
    }
}

/// What [`Documents::next`] read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Next {
    /// A whole document: [`Documents::document`] decodes it.
    Document,
    /// The end of the input, where a document would start.
    End,
    /// A length of -1 (`0xFFFFFFFF`): a mongodump archive's terminator.
    Terminator,
    /// The input cannot be read on (a truncated document, an impossible length, a compressed
    /// stream that breaks off): why.
    Broken(String),
}

/// Concatenated BSON documents read one at a time, holding one document's bytes: a `.bson`
/// file's content, and the blocks of a mongodump archive ([`super::archive`]).
pub(super) struct Documents<R> {
    /// The input.
    reader: R,
    /// Its name in errors.
    source: String,
    /// The last document's bytes.
    buf: Vec<u8>,
    /// The byte offset of the next item.
    offset: u64,
    /// The byte offset of the last item read.
    pub at: u64,
    /// The last item's 1-based position in the input.
    pub number: u64,
    /// `offset` when progress was last reported.
    shown: u64,
}

impl<R: Read> Documents<R> {
    /// Returns a reader of `reader`'s documents, named `source` in errors.
    pub fn new(reader: R, source: &str) -> Self {
        Documents {
            reader,
            source: source.to_string(),
            buf: Vec::new(),
            offset: 0,
            at: 0,
            number: 0,
            shown: 0,
        }
    }

    /// Returns the reader with its byte offsets counted from `offset` (what came before it:
    /// an archive's magic number).
    pub fn starting_at(mut self, offset: u64) -> Self {
        self.offset = offset;
        self.shown = offset;
        self
    }

    /// Returns the last item's place: its 1-based position and its byte offset.
    pub fn place(&self) -> (u64, u64) {
        (self.number, self.at)
    }

    /// Reads the next item. A decompression error ends the input as [`Next::Broken`]; any
    /// other I/O error is returned.
    pub fn next(&mut self) -> Result<Next, InferError> {
        self.number += 1;
        self.at = self.offset;
        let mut header = [0u8; 4];
        let got = match self.fill(&mut header)? {
            Ok(got) => got,
            Err(broken) => return Ok(broken),
        };
        if got == 0 {
            return Ok(Next::End);
        }
        if got < 4 {
            return Ok(Next::Broken(format!(
                "truncated length ({got} of 4 bytes left)"
            )));
        }
        let declared = u32::from_le_bytes(header) as usize;
        if declared == u32::MAX as usize {
            self.offset += 4;
            return Ok(Next::Terminator);
        }
        if !(5..=MAX_BSON_DOCUMENT).contains(&declared) {
            return Ok(Next::Broken(impossible_length(declared)));
        }
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        buf.extend_from_slice(&header);
        buf.resize(declared, 0);
        let got = self.fill(buf.get_mut(4..).unwrap_or_default());
        self.buf = buf;
        let got = match got? {
            Ok(got) => got,
            Err(broken) => return Ok(broken),
        };
        if got < declared - 4 {
            return Ok(Next::Broken(format!(
                "truncated document (declared {} bytes, {} left)",
                thousands(declared as u64),
                thousands(got as u64 + 4)
            )));
        }
        self.offset += declared as u64;
        Ok(Next::Document)
    }

    /// Returns the last document's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.buf
    }

    /// Returns the last document decoded, or why it is not valid BSON.
    pub fn document(&self) -> Result<Document, String> {
        RawDocument::from_bytes(&self.buf)
            .and_then(Document::try_from)
            .map_err(|e| format!("not a valid BSON document ({e}): skipped"))
    }

    /// Calls `progress(bytes read, documents)` when [`super::PROGRESS_BYTES`] more were read.
    pub fn report(&mut self, documents: u64, progress: &mut dyn FnMut(u64, u64)) {
        if self.offset - self.shown >= super::PROGRESS_BYTES {
            self.shown = self.offset;
            progress(self.offset, documents);
        }
    }

    /// Reads until `buf` is full or the input ends; returns the bytes read, or the item that
    /// ends a compressed stream that breaks off (an I/O error is reported at the item's start).
    fn fill(&mut self, buf: &mut [u8]) -> Result<Result<usize, Next>, InferError> {
        match read_full(&mut self.reader, buf) {
            Ok(got) => Ok(Ok(got)),
            Err(e) if decompression_error(&e) => Ok(Err(Next::Broken(format!(
                "cannot decompress ({e}): the rest of the file is not read"
            )))),
            Err(error) => Err(InferError::ReadBytes {
                input: self.source.clone(),
                byte: self.at,
                error,
            }),
        }
    }
}

/// Returns true for the errors a gzip decoder gives for a damaged or cut stream (a file or a
/// pipe read as it is never gives them).
pub(crate) fn decompression_error(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::InvalidData
            | std::io::ErrorKind::InvalidInput
            | std::io::ErrorKind::UnexpectedEof
    )
}

/// Returns the message of a length no document can have.
fn impossible_length(declared: usize) -> String {
    format!(
        "impossible document length {} (a document has 5 to {} bytes): the rest \
         of the file is not read",
        thousands(declared as u64),
        thousands(MAX_BSON_DOCUMENT as u64)
    )
}

/// Reads until `buf` is full or the input ends; returns the bytes read.
fn read_full(reader: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut got = 0;
    while let Some(rest) = buf.get_mut(got..) {
        if rest.is_empty() {
            break;
        }
        match reader.read(rest) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}
