//! What an input holds, told by its first bytes rather than its name: gzip-compressed or not
//! (mongodump `--gzip` writes `.bson.gz` and `.metadata.json.gz` files, or a gzipped
//! `--archive`; people gzip mongoexport files too), and, once decompressed, a mongodump
//! archive ([`super::archive`]) or not. `squillion infer` and the page open every input
//! through [`open`], so a compressed file or an archive is read wherever a plain one is.

use std::io::{self, BufReader, Cursor, Read};

use flate2::read::MultiGzDecoder;
use serde::{Deserialize, Serialize};

use super::{InferError, Inference, SourceSummary};

/// How an input is read, as its file name tells it ([`classify`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// mongoexport output (Extended JSON lines or an array), or pasted documents.
    Json,
    /// A mongodump `.bson` file.
    Bson,
    /// A mongodump `.metadata.json` (its indexes are reported).
    Metadata,
    /// A mongodump `--archive` (`.archive`): every collection of a dump in one stream.
    Archive,
    /// A SQL schema (`CREATE TABLE …`).
    Sql,
}

/// Returns the kind of a file named `name` and the collection it feeds, as `squillion infer`
/// and the page name them: `x.sql` a schema, `x.bson` a dump, `x.metadata.json` the metadata
/// of collection `x`, `x.archive` an archive (its collections named inside it), anything else
/// mongoexport output into collection `x` (the name up to its last dot). A trailing `.gz`
/// (mongodump `--gzip`) is passed over: `x.bson.gz` is a dump of `x`. Whatever the name, an
/// input whose bytes are an archive is read as one ([`open`]).
pub fn classify(name: &str) -> (Kind, String) {
    let name = strip_suffix(name, ".gz").unwrap_or(name);
    for (suffix, kind) in [
        (".metadata.json", Kind::Metadata),
        (".sql", Kind::Sql),
        (".bson", Kind::Bson),
        (".archive", Kind::Archive),
    ] {
        if let Some(stem) = strip_suffix(name, suffix) {
            return (kind, stem.to_string());
        }
    }
    let collection = match name.rfind('.') {
        Some(at) if at > 0 => name.get(..at).unwrap_or(name),
        _ => name,
    };
    (Kind::Json, collection.to_string())
}

/// Returns `name` without `suffix` (matched in any case), when it ends with it.
fn strip_suffix<'a>(name: &'a str, suffix: &str) -> Option<&'a str> {
    let at = name.len().checked_sub(suffix.len())?;
    let tail = name.get(at..)?;
    tail.eq_ignore_ascii_case(suffix)
        .then(|| name.get(..at))
        .flatten()
}

/// The two bytes every gzip member starts with (RFC 1952, ID1 and ID2).
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// What [`open`] found at the start of an input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Format {
    /// The bytes were gzip-compressed (and are decompressed as they are read).
    pub gzip: bool,
    /// The (decompressed) bytes are a mongodump archive.
    pub archive: bool,
}

/// Returns what `reader` holds and a reader of its content: decompressed when it is gzip
/// (every member of a multi-member file, as `gzip -d` reads it), from its first byte either
/// way. Only the few bytes needed to tell are read ahead.
pub fn open<'a>(reader: impl Read + 'a) -> io::Result<(Format, Box<dyn Read + 'a>)> {
    let (head, reader) = peek(reader, GZIP_MAGIC.len())?;
    let gzip = head == GZIP_MAGIC;
    let content: Box<dyn Read + 'a> = if gzip {
        Box::new(MultiGzDecoder::new(reader))
    } else {
        reader
    };
    let (head, content) = peek(content, super::archive::MAGIC.len())?;
    let archive = head == super::archive::MAGIC;
    Ok((Format { gzip, archive }, content))
}

/// Returns the text of `reader` (a `.metadata.json` or a SQL schema), decompressed when it is
/// gzip, or why it is not UTF-8 text.
pub fn read_text(reader: impl Read) -> io::Result<String> {
    let (_, mut content) = open(reader)?;
    let mut text = String::new();
    content.read_to_string(&mut text)?;
    Ok(text)
}

impl Inference {
    /// Reads the documents of one input of kind `kind` (named `source` in messages) into
    /// `collection`: decompressed when it is gzip, read as an archive when it is one (its
    /// collections named inside it) or when `kind` says so, else as a `.bson` file or as
    /// mongoexport output. `progress(bytes of content read, documents read)` is called every
    /// [`super::PROGRESS_BYTES`] or so. Returns what was read into each collection.
    ///
    /// `reader` needs no buffer of its own: the content is read through one of 1 MiB.
    pub fn read_input(
        &mut self,
        kind: Kind,
        collection: &str,
        source: &str,
        reader: impl Read,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<Vec<SourceSummary>, InferError> {
        let (format, content) = open(reader).map_err(|error| InferError::ReadBytes {
            input: source.to_string(),
            byte: 0,
            error,
        })?;
        // The one buffer between the input and the readers: callers hand their file or
        // stream as it is.
        let content = BufReader::with_capacity(1 << 20, content);
        if format.archive || kind == Kind::Archive {
            return self.read_archive(source, content, progress);
        }
        let one = match kind {
            Kind::Bson => self.read_bson_with_progress(collection, source, content, progress)?,
            _ => self.read_with_progress(collection, source, content, progress)?,
        };
        Ok(vec![one])
    }
}

/// Returns the first `n` bytes of `reader` (fewer if it ends first) and a reader of all of
/// it, those bytes included.
fn peek<'a>(mut reader: impl Read + 'a, n: usize) -> io::Result<(Vec<u8>, Box<dyn Read + 'a>)> {
    let mut head = Vec::with_capacity(n);
    (&mut reader).take(n as u64).read_to_end(&mut head)?;
    let again = Cursor::new(head.clone()).chain(reader);
    Ok((head, Box::new(again)))
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use flate2::write::GzEncoder;
    use flate2::Compression;

    use super::*;

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut e = GzEncoder::new(Vec::new(), Compression::default());
        e.write_all(bytes).unwrap_or_else(|e| panic!("{e}"));
        e.finish().unwrap_or_else(|e| panic!("{e}"))
    }

    fn content(bytes: &[u8]) -> (Format, Vec<u8>) {
        let (format, mut r) = open(bytes).unwrap_or_else(|e| panic!("{e}"));
        let mut out = Vec::new();
        r.read_to_end(&mut out).unwrap_or_else(|e| panic!("{e}"));
        (format, out)
    }

    #[test]
    fn names_tell_the_kind_and_collection_gzipped_or_not() {
        for (name, kind, coll) in [
            ("users.json", Kind::Json, "users"),
            ("users.ndjson.gz", Kind::Json, "users"),
            ("users", Kind::Json, "users"),
            (".hidden", Kind::Json, ".hidden"),
            ("a.b.json", Kind::Json, "a.b"),
            ("orders.bson", Kind::Bson, "orders"),
            ("orders.BSON.GZ", Kind::Bson, "orders"),
            ("fs.files.bson.gz", Kind::Bson, "fs.files"),
            ("orders.metadata.json", Kind::Metadata, "orders"),
            ("orders.metadata.json.gz", Kind::Metadata, "orders"),
            ("schema.sql", Kind::Sql, "schema"),
            ("shop.archive", Kind::Archive, "shop"),
            ("shop.archive.gz", Kind::Archive, "shop"),
            ("x.gz", Kind::Json, "x"),
        ] {
            assert_eq!(classify(name), (kind, coll.to_string()), "{name}");
        }
    }

    #[test]
    fn plain_input_is_read_whole_from_its_first_byte() {
        let text = b"{\"a\": 1}\n{\"a\": 2}\n";
        assert_eq!(content(text), (Format::default(), text.to_vec()));
        assert_eq!(content(b""), (Format::default(), Vec::new()));
        assert_eq!(content(b"{"), (Format::default(), b"{".to_vec()));
    }

    #[test]
    fn gzip_is_decompressed_every_member_of_it() {
        let mut two = gzip(b"{\"a\": 1}\n");
        two.extend(gzip(b"{\"a\": 2}\n"));
        let (format, out) = content(&two);
        assert!(format.gzip && !format.archive);
        assert_eq!(out, b"{\"a\": 1}\n{\"a\": 2}\n");
    }

    #[test]
    fn an_archive_is_told_by_its_magic_compressed_or_not() {
        let mut archive = super::super::archive::MAGIC.to_vec();
        archive.extend([5, 0, 0, 0, 0]);
        let plain = content(&archive);
        assert_eq!(
            plain.0,
            Format {
                gzip: false,
                archive: true
            }
        );
        assert_eq!(plain.1, archive);
        let zipped = content(&gzip(&archive));
        assert_eq!(
            zipped.0,
            Format {
                gzip: true,
                archive: true
            }
        );
        assert_eq!(zipped.1, archive);
    }

    #[test]
    fn a_broken_gzip_stream_is_an_error_not_a_panic() {
        let text: String = (0..500).map(|i| format!("{{\"a\": {i}}}\n")).collect();
        let zipped = gzip(text.as_bytes());
        for cut in [4, 12, zipped.len() / 2, zipped.len() - 1] {
            let broken = &zipped[..cut];
            // Cut in its header or first block, opening fails; later, reading does.
            let failed = match open(broken) {
                Err(_) => true,
                Ok((_, mut r)) => r.read_to_end(&mut Vec::new()).is_err(),
            };
            assert!(failed, "cut at {cut} of {}", zipped.len());
        }
    }
}
