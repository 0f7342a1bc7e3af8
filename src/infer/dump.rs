//! mongodump output: a `.bson` file of concatenated BSON documents (each a 4-byte
//! little-endian length, then the rest of its bytes), read one document at a time in bounded
//! memory into the same statistics as a mongoexport line, and the `.metadata.json` beside it,
//! whose indexes are reported (the model has no index section: the design derives the indexes
//! its workload needs).

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
    /// not valid BSON is skipped and reported at its byte offset; a truncated document or an
    /// impossible length (below 5 or above [`MAX_BSON_DOCUMENT`]) ends the stream there, the
    /// documents before it kept.
    pub fn read_bson(
        &mut self,
        collection: &str,
        source: &str,
        mut reader: impl Read,
    ) -> Result<SourceSummary, InferError> {
        let mut summary = SourceSummary {
            source: source.to_string(),
            collection: collection.to_string(),
            documents: 0,
            skipped: 0,
        };
        let mut buf: Vec<u8> = Vec::new();
        let mut offset = 0u64;
        let mut number = 0u64;
        loop {
            number += 1;
            let read_error = |error| InferError::ReadBytes {
                input: source.to_string(),
                byte: offset,
                error,
            };
            let mut header = [0u8; 4];
            let got = read_full(&mut reader, &mut header).map_err(read_error)?;
            if got == 0 {
                break;
            }
            if got < 4 {
                let message = format!("truncated length ({got} of 4 bytes left)");
                self.skip_bytes(&mut summary, number, offset, message);
                break;
            }
            let declared = u32::from_le_bytes(header) as usize;
            if !(5..=MAX_BSON_DOCUMENT).contains(&declared) {
                let message = format!(
                    "impossible document length {} (a document has 5 to {} bytes): the rest \
                     of the file is not read",
                    thousands(declared as u64),
                    thousands(MAX_BSON_DOCUMENT as u64)
                );
                self.skip_bytes(&mut summary, number, offset, message);
                break;
            }
            buf.clear();
            buf.extend_from_slice(&header);
            buf.resize(declared, 0);
            let rest = buf.get_mut(4..).unwrap_or_default();
            let got = read_full(&mut reader, rest).map_err(read_error)?;
            if got < declared - 4 {
                let message = format!(
                    "truncated document (declared {} bytes, {} left)",
                    thousands(declared as u64),
                    thousands(got as u64 + 4)
                );
                self.skip_bytes(&mut summary, number, offset, message);
                break;
            }
            match RawDocument::from_bytes(&buf).and_then(Document::try_from) {
                Ok(doc) => {
                    self.add(collection, &doc);
                    summary.documents += 1;
                }
                Err(e) => {
                    let message = format!("not a valid BSON document ({e}): skipped");
                    self.skip_bytes(&mut summary, number, offset, message);
                }
            }
            offset += declared as u64;
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
                expire_after_seconds: index.get("expireAfterSeconds").and_then(number),
            });
            n += 1;
        }
        Ok(n)
    }

    /// Records a document skipped at byte `offset` of a `.bson` input (`number`: its 1-based
    /// position in the file, reported as its line).
    fn skip_bytes(
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
    match number(kind) {
        Some(n) if n < 0.0 => "-1".to_string(),
        Some(_) => "1".to_string(),
        None => match kind {
            Bson::String(s) => s.clone(),
            other => other.to_string(),
        },
    }
}

/// Returns a BSON number as `f64`.
fn number(v: &Bson) -> Option<f64> {
    match v {
        Bson::Int32(n) => Some(f64::from(*n)),
        Bson::Int64(n) => Some(*n as f64),
        Bson::Double(n) => Some(*n),
        Bson::Decimal128(d) => d.to_string().parse().ok(),
        _ => None,
    }
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
