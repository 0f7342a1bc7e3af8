//! mongodump `--archive` output: one stream holding every collection of a dump, read one
//! document at a time in bounded memory into the same statistics as a `.bson` file.
//!
//! The format (mongo-tools' `common/archive/spec.md`): a magic number, a header document,
//! one metadata document per collection (`{db, collection, metadata, size, type}`, the
//! `metadata` the text of its `.metadata.json`) and a terminator (`0xFFFFFFFF`); then blocks,
//! each a namespace header `{db, collection, EOF: false, CRC: 0}`, one or more of that
//! collection's documents and a terminator, collections interleaved as mongodump's threads
//! wrote them; each collection ends with `{db, collection, EOF: true, CRC}` and a terminator,
//! the CRC-64 (ECMA polynomial, as Go's `hash/crc64` computes it) of all its documents'
//! bytes. mongorestore refuses an archive whose CRC does not match; we report it and keep what
//! was read.
//!
//! Collections are named as in a dump directory: `system.*` collections (MongoDB's own; a
//! time-series collection's buckets) and the oplog (`--oplog`, database "") are passed over,
//! and a collection name that two databases share becomes `db.collection` for both.

use std::io::Read;

use bson::{Bson, Document};
use crc::{Crc, Digest, CRC_64_XZ};

use super::dump::{Documents, Next};
use super::{InferError, Inference, SourceSummary};

/// The first four bytes of an archive: `0x8199e26d`, little-endian.
pub const MAGIC: [u8; 4] = [0x6d, 0xe2, 0x99, 0x81];

/// CRC-64/XZ: the ECMA-182 polynomial, reflected, with all bits set before and after, which
/// is what Go's `crc64.New(crc64.MakeTable(crc64.ECMA))` computes for mongodump.
static CRC64: Crc<u64> = Crc::<u64>::new(&CRC_64_XZ);

/// One collection of the archive, as its prelude lists it.
struct Namespace {
    /// Its database.
    db: String,
    /// Its collection.
    collection: String,
    /// The collection it is read into, `None` when passed over.
    name: Option<String>,
}

/// A collection's state while its blocks are read.
struct Open {
    /// Its database and collection.
    key: (String, String),
    /// The collection it is read into, `None` when passed over.
    name: Option<String>,
    /// What was read of it.
    summary: SourceSummary,
    /// The CRC of its documents so far.
    crc: Digest<'static, u64>,
    /// Its end (the EOF header) was read.
    ended: bool,
}

impl Inference {
    /// Reads a mongodump archive (named `source` in messages): every collection's metadata
    /// (its indexes reported) and documents, each collection into an entity of its own.
    /// Returns what was read of each collection, in the order their documents first came.
    ///
    /// A broken prelude (no magic number, a header or metadata that is not a document, an
    /// archive that ends inside it) is an error: nothing is read. A broken block (a corrupt
    /// or truncated document, a header that is not one, an archive that ends before a
    /// collection's end, a CRC that does not match) is reported at its byte offset (in the
    /// decompressed stream) and the documents before it kept.
    pub fn read_archive(
        &mut self,
        source: &str,
        mut reader: impl Read,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<Vec<SourceSummary>, InferError> {
        check_magic(source, &mut reader)?;
        let mut docs = Documents::new(reader, source).starting_at(MAGIC.len() as u64);
        let mut namespaces = self.read_prelude(source, &mut docs)?;
        // Each collection met, in the order its blocks first came.
        let mut open: Vec<Open> = Vec::new();
        let mut documents = 0u64;
        while let Some(header) = self.block_header(source, &mut docs)? {
            let header_place = docs.place();
            let (db, coll) = (
                header.get_str("db").unwrap_or_default().to_string(),
                header.get_str("collection").unwrap_or_default().to_string(),
            );
            if coll.is_empty() {
                let m = "a block's header names no collection: the rest is not read";
                self.note_broken(source, "", header_place, m.to_string());
                break;
            }
            let name = namespace_name(&mut namespaces, &db, &coll);
            let Some(state) = open_state(&mut open, source, (db, coll), name) else {
                break;
            };
            let go_on = if matches!(header.get("EOF"), Some(Bson::Boolean(true))) {
                self.end_collection(source, state, &header, header_place, &mut docs)?
            } else {
                self.read_block(source, state, &mut docs, &mut documents, progress)?
            };
            if !go_on {
                break;
            }
        }
        Ok(self.close_collections(source, open, docs.place()))
    }

    /// Reads the prelude after the magic number: the header, then one metadata document per
    /// collection (its indexes read, or reported as not read), then a terminator. Returns the
    /// collections it lists, named.
    fn read_prelude<R: Read>(
        &mut self,
        source: &str,
        docs: &mut Documents<R>,
    ) -> Result<Vec<Namespace>, InferError> {
        if prelude_document(source, docs, "header")?.is_none() {
            return Err(broken(source, 4, "the archive has no header".to_string()));
        }
        let mut listed = Vec::new();
        while let Some(meta) = prelude_document(source, docs, "metadata of a collection")? {
            let text = |key: &str| meta.get_str(key).unwrap_or_default().to_string();
            listed.push((
                text("db"),
                text("collection"),
                text("metadata"),
                text("type"),
            ));
        }
        let namespaces = name_namespaces(&listed);
        for ((db, coll, metadata, _), ns) in listed.iter().zip(&namespaces) {
            let Some(name) = &ns.name else { continue };
            if metadata.trim().is_empty() {
                continue;
            }
            let label = format!("{source} ({db}.{coll} metadata)");
            if let Err(e) = self.read_metadata(name, &label, metadata) {
                self.note_broken(
                    source,
                    name,
                    docs.place(),
                    format!("{e}: its indexes are not reported"),
                );
            }
        }
        Ok(namespaces)
    }

    /// Returns the next block's header; `None` at the end of the archive or where a header
    /// should be and is not (reported: the rest is not read).
    fn block_header<R: Read>(
        &mut self,
        source: &str,
        docs: &mut Documents<R>,
    ) -> Result<Option<Document>, InferError> {
        let m = match docs.next()? {
            Next::End => return Ok(None),
            Next::Document => match docs.document() {
                Ok(h) => return Ok(Some(h)),
                Err(m) => format!("a block's header: {m}"),
            },
            Next::Terminator => {
                "a terminator where a block's header should be: the rest is not read".to_string()
            }
            Next::Broken(m) => m,
        };
        self.note_broken(source, "", docs.place(), m);
        Ok(None)
    }

    /// Ends collection `state` at its EOF header `header`: checks the CRC the header carries
    /// against its documents' and reads the terminator after it. Returns whether the blocks
    /// go on.
    fn end_collection<R: Read>(
        &mut self,
        source: &str,
        state: &mut Open,
        header: &Document,
        header_place: (u64, u64),
        docs: &mut Documents<R>,
    ) -> Result<bool, InferError> {
        let (db, coll) = &state.key;
        let written = match header.get("CRC") {
            Some(Bson::Int64(c)) => Some(*c),
            Some(Bson::Int32(c)) => Some(i64::from(*c)),
            _ => None,
        };
        let crc = std::mem::replace(&mut state.crc, CRC64.digest()).finalize() as i64;
        state.ended = true;
        if let (Some(written), Some(n)) = (written, &state.name) {
            if written != crc {
                let m = format!(
                    "the CRC of {db}.{coll}'s documents is {crc}, its end says \
                     {written}: some document is damaged (mongorestore refuses this \
                     archive)"
                );
                self.note_broken(source, n, header_place, m);
            }
        }
        match docs.next()? {
            Next::Terminator => Ok(true),
            Next::End => Ok(false),
            _ => {
                let m = format!("no terminator after {db}.{coll}'s end: the rest is not read");
                self.note_broken(source, "", docs.place(), m);
                Ok(false)
            }
        }
    }

    /// Reads one block's documents, up to its terminator, into collection `state` (each
    /// document's bytes into its CRC, even a collection passed over), telling `progress`.
    /// Returns whether the blocks go on: not when the archive ends or breaks inside it.
    fn read_block<R: Read>(
        &mut self,
        source: &str,
        state: &mut Open,
        docs: &mut Documents<R>,
        documents: &mut u64,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<bool, InferError> {
        let name = state.name.clone();
        loop {
            match docs.next()? {
                Next::Terminator => return Ok(true),
                Next::End => {
                    let (db, coll) = &state.key;
                    let m = format!("the archive ends inside a block of {db}.{coll}");
                    self.note_broken(source, name.as_deref().unwrap_or(""), docs.place(), m);
                    return Ok(false);
                }
                Next::Broken(m) => {
                    self.note_broken(source, name.as_deref().unwrap_or(""), docs.place(), m);
                    return Ok(false);
                }
                Next::Document => {
                    state.crc.update(docs.bytes());
                    let Some(name) = &name else { continue };
                    match docs.document() {
                        Ok(doc) => {
                            self.add(name, &doc);
                            state.summary.documents += 1;
                            *documents += 1;
                        }
                        Err(m) => {
                            let (number, byte) = docs.place();
                            self.skip_bytes(&mut state.summary, number, byte, m);
                        }
                    }
                }
            }
            docs.report(*documents, progress);
        }
    }

    /// Records what was read of each collection not passed over (reporting, at `place`, one
    /// whose end the archive never reached) and returns it, in the order the collections
    /// first came.
    fn close_collections(
        &mut self,
        source: &str,
        open: Vec<Open>,
        place: (u64, u64),
    ) -> Vec<SourceSummary> {
        let mut read = Vec::new();
        for state in open {
            if state.name.is_none() {
                continue;
            }
            if !state.ended {
                let (db, coll) = &state.key;
                let m = format!(
                    "the archive ends before {db}.{coll}'s end: its documents may be incomplete"
                );
                self.note_broken(source, &state.summary.collection, place, m);
            }
            self.sources.push(state.summary.clone());
            read.push(state.summary);
        }
        read
    }

    /// Records what is wrong at byte `byte` of archive `source` (in `collection`, when it is
    /// one read) as a skip at that offset; `number` is the item's 1-based position.
    fn note_broken(
        &mut self,
        source: &str,
        collection: &str,
        (number, byte): (u64, u64),
        message: String,
    ) {
        let mut summary = SourceSummary::empty(source, collection);
        self.skip_bytes(&mut summary, number, byte, message);
    }
}

/// Returns the error of a broken prelude at byte `byte` of archive `source`.
fn broken(source: &str, byte: u64, message: String) -> InferError {
    InferError::Archive {
        input: source.to_string(),
        byte,
        message,
    }
}

/// Checks that `reader` starts with the archive's magic number.
fn check_magic(source: &str, reader: &mut impl Read) -> Result<(), InferError> {
    // Read to the end of the four bytes: one `read` may return fewer (a pipe, a decoder).
    let mut magic = Vec::with_capacity(MAGIC.len());
    reader
        .take(MAGIC.len() as u64)
        .read_to_end(&mut magic)
        .map_err(|error| InferError::ReadBytes {
            input: source.to_string(),
            byte: 0,
            error,
        })?;
    if magic != MAGIC {
        return Err(broken(
            source,
            0,
            "not a mongodump archive (it does not start with the magic number 0x8199e26d)"
                .to_string(),
        ));
    }
    Ok(())
}

/// Returns the next document of the prelude (the `what`), `None` at its terminator; an
/// archive that ends or breaks there is an error.
fn prelude_document<R: Read>(
    source: &str,
    docs: &mut Documents<R>,
    what: &str,
) -> Result<Option<Document>, InferError> {
    match docs.next()? {
        Next::Document => docs
            .document()
            .map(Some)
            .map_err(|m| broken(source, docs.at, format!("the {what}: {m}"))),
        Next::Terminator => Ok(None),
        Next::End => Err(broken(
            source,
            docs.at,
            format!("the archive ends in its prelude, where the {what} should be"),
        )),
        Next::Broken(m) => Err(broken(source, docs.at, format!("the {what}: {m}"))),
    }
}

/// Returns the collection a block of `db`.`coll` is read into (`None`: passed over); a
/// collection the prelude did not list is named as the listed ones are, and added to them.
fn namespace_name(namespaces: &mut Vec<Namespace>, db: &str, coll: &str) -> Option<String> {
    if let Some(n) = namespaces
        .iter()
        .find(|n| n.db == db && n.collection == coll)
    {
        return n.name.clone();
    }
    let ns = Namespace {
        name: keep(db, coll).then(|| coll.to_string()),
        db: db.to_string(),
        collection: coll.to_string(),
    };
    let name = ns.name.clone();
    namespaces.push(ns);
    name
}

/// Returns the state of collection `key` (read into `name`), opened when its first block
/// comes.
fn open_state<'o>(
    open: &'o mut Vec<Open>,
    source: &str,
    key: (String, String),
    name: Option<String>,
) -> Option<&'o mut Open> {
    let at = match open.iter().position(|o| o.key == key) {
        Some(at) => at,
        None => {
            open.push(Open {
                summary: SourceSummary::empty(source, name.as_deref().unwrap_or_default()),
                key,
                name,
                crc: CRC64.digest(),
                ended: false,
            });
            open.len() - 1
        }
    };
    open.get_mut(at)
}

/// Returns whether a collection is read: not one of MongoDB's own (`system.*`, a time-series
/// collection's buckets among them), not the oplog (database "").
fn keep(db: &str, collection: &str) -> bool {
    !db.is_empty() && !collection.starts_with("system.")
}

/// Returns the namespaces of an archive's prelude (db, collection, metadata, type), each with
/// the collection it is read into: its name, or `db.collection` where two databases share it;
/// `None` for those passed over (see [`keep`]) and views (which hold no documents).
fn name_namespaces(listed: &[(String, String, String, String)]) -> Vec<Namespace> {
    let kept =
        |(db, coll, _, ty): &(String, String, String, String)| keep(db, coll) && ty != "view";
    listed
        .iter()
        .map(|l| {
            let shared = listed
                .iter()
                .filter(|o| kept(o) && o.1 == l.1 && o.0 != l.0)
                .count()
                > 0;
            let name = kept(l).then(|| {
                if shared {
                    format!("{}.{}", l.0, l.1)
                } else {
                    l.1.clone()
                }
            });
            Namespace {
                db: l.0.clone(),
                collection: l.1.clone(),
                name,
            }
        })
        .collect()
}
