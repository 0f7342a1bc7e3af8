//! Files outside their documents: the `gridfs` and `object_storage` field patterns.
//!
//! Under `gridfs` a `binData` or `string` field leaves its entity's documents, which keep the
//! file's id instead (`<field>FileId`, an ObjectId, as applications store it), and the bytes go
//! to the default bucket `fs`, exactly as the GridFS specification lays them out:
//!
//! - `fs.files`: one document per file, `{_id: ObjectId, length: long, chunkSize: int 261120,
//!   uploadDate: date, filename: string}` (no `metadata`);
//! - `fs.chunks`: ⌈length / 261,120⌉ documents per file, `{_id: ObjectId, files_id: ObjectId,
//!   n: int, data: binData}`, every chunk 261,120 bytes (255 KiB) but the last, which holds the
//!   remainder (an empty file has no chunk).
//!
//! Every GridFS field of a design shares the one bucket `fs`, as applications using a
//! driver's default bucket do; each field has shapes of its own in it (`message.attachment
//! file`, `… chunk`, `… last chunk`), so its counts and sizes stay apart.
//!
//! Under `object_storage` the field becomes a URL string (`<field>Url`, [`URL_BYTES`] bytes)
//! and the bytes live in an object store, outside MongoDB: nothing here counts them.
//!
//! This module also holds the spec's arithmetic that the plan and the evaluation read: chunks
//! per file, the exact sizes of both documents, and the round trips a driver makes to read a
//! file's chunks (cursor batches) and to write them (`insertMany` batches).

use super::names::{file_id_field, url_field, CHUNKS, FILES};
use super::shape::{Collection, DocShape};
use crate::model::design::FieldPattern;
use crate::model::distribution::{round_count, Distribution};
use crate::model::field::{BsonType, Field, Fields, ValueKind};
use crate::model::Model;

/// Bytes per chunk: the drivers' default `chunkSize`, 255 KiB.
pub const CHUNK_SIZE: u64 = 261_120;

/// Bytes of an object-storage URL kept in the document (`s3://bucket/<entity>/<24 hex>` and
/// the like, padded to one fixed length so that sizes stay exact).
pub const URL_BYTES: u64 = 64;

/// The most bytes of documents a server returns in one cursor batch (`find` or `getMore`):
/// 16 MiB, the server's `kMaxBytesToReturnToClientAtOnce`. A batch always holds at least one
/// document.
pub const BATCH_BYTES: u64 = 16 * 1024 * 1024;

/// Documents in the first batch of a `find` without `batchSize`: 101.
pub const FIRST_BATCH_DOCS: u64 = 101;

/// The most documents a driver puts in one write command (`maxWriteBatchSize`).
pub const WRITE_BATCH_DOCS: u64 = 100_000;

/// The most bytes a driver puts in one write message (`maxMessageSizeBytes`, 48,000,000).
pub const WRITE_BATCH_BYTES: u64 = 48_000_000;

/// Returns the chunks of a file of `length` bytes: ⌈length / 261,120⌉ (0 for an empty file).
pub fn chunks(length: u64) -> u64 {
    length.div_ceil(CHUNK_SIZE)
}

/// Returns the bytes of the last chunk of a file of `length` bytes (0 for an empty file).
pub fn last_chunk_bytes(length: u64) -> u64 {
    match length {
        0 => 0,
        l => l - CHUNK_SIZE * (chunks(l) - 1),
    }
}

/// Returns the size of one element: type byte, key, NUL, value.
fn element(key: &str, value: u64) -> u64 {
    1 + key.len() as u64 + 1 + value
}

/// Returns the exact BSON size of a chunk document holding `payload` bytes:
/// `{_id, files_id, n, data}` = 62 + payload.
pub fn chunk_document_size(payload: u64) -> u64 {
    // Length prefix and trailing NUL; ObjectIds of 12 bytes; an int32; a binData of
    // 4-byte length + subtype + payload.
    5 + element("_id", 12)
        + element("files_id", 12)
        + element("n", 4)
        + element("data", 5 + payload)
}

/// Returns the exact BSON size of a files document whose `filename` has `filename_bytes`
/// bytes: `{_id, length, chunkSize, uploadDate, filename}` = 88 + filename bytes.
pub fn file_document_size(filename_bytes: u64) -> u64 {
    5 + element("_id", 12)
        + element("length", 8)
        + element("chunkSize", 4)
        + element("uploadDate", 8)
        + element("filename", 4 + filename_bytes + 1)
}

/// Returns the bytes of the `filename` GridFS gets for a file of `field`: `<field>-<the
/// file id's 24 hex digits>.bin`.
pub fn filename_bytes(field: &str) -> u64 {
    field.len() as u64 + 1 + 24 + 4
}

/// Returns the exact bytes of every chunk document of a file of `length` bytes together.
pub fn chunk_bytes(length: u64) -> u64 {
    match chunks(length) {
        0 => 0,
        k => {
            (k - 1) * chunk_document_size(CHUNK_SIZE)
                + chunk_document_size(last_chunk_bytes(length))
        }
    }
}

/// Returns the round trips a driver makes to read the `chunks` chunk documents of one file
/// with one `find({files_id}).sort({n: 1})`: the `find` returns the first batch (at most 101
/// documents and at most 16 MiB of them), each `getMore` the next (at most 16 MiB). Every
/// chunk but the last is full and the last is no larger, so a batch holds ⌊16 MiB / full
/// chunk document⌋ chunks (64). The server closes the cursor in the batch that returns the
/// last chunk, so no empty `getMore` follows. 0 chunks: the `find` alone.
pub fn read_round_trips(chunks: u64) -> u64 {
    let per_batch = (BATCH_BYTES / chunk_document_size(CHUNK_SIZE)).max(1);
    let first = per_batch.min(FIRST_BATCH_DOCS);
    if chunks <= first {
        1
    } else {
        1 + (chunks - first).div_ceil(per_batch)
    }
}

/// Returns the round trips of the `insertMany` of a file's `chunks` chunk documents, as a
/// driver splits it: at most 100,000 documents and 48,000,000 bytes per message (183 full
/// chunks). 0 chunks: nothing sent.
pub fn write_round_trips(chunks: u64) -> u64 {
    let per_batch =
        (WRITE_BATCH_BYTES / chunk_document_size(CHUNK_SIZE)).clamp(1, WRITE_BATCH_DOCS);
    chunks.div_ceil(per_batch)
}

/// Returns the GridFS and object-storage patterns of the design that apply to `entity`, as
/// `(field, gridfs?)`.
fn stored_outside<'a>(
    patterns: &'a [FieldPattern],
    entity: &'a str,
) -> impl Iterator<Item = (&'a str, bool)> + 'a {
    patterns
        .iter()
        .filter_map(move |p| match p.stored_outside() {
            Some((e, f)) if e == entity => Some((f, matches!(p, FieldPattern::Gridfs { .. }))),
            _ => None,
        })
}

/// Replaces, in an entity's fields, each field a GridFS or object-storage pattern stores
/// outside the document: by the file's id (`<field>FileId`, an ObjectId) or the object's URL
/// (`<field>Url`, a string of [`URL_BYTES`]), in its place and with its presence (an absent
/// value has no file).
pub fn replace_stored_fields(fields: &mut Fields, patterns: &[FieldPattern], entity: &str) {
    for (name, gridfs) in stored_outside(patterns, entity) {
        let Some(slot) = fields.0.iter_mut().find(|(n, _)| n == name) else {
            continue;
        };
        let presence = slot.1.presence;
        let (new_name, mut f) = if gridfs {
            (file_id_field(name), Field::of(BsonType::ObjectId))
        } else {
            (url_field(name), {
                let mut u = Field::string_of_len(URL_BYTES);
                u.kind = Some(ValueKind::Url);
                u
            })
        };
        f.presence = presence;
        *slot = (new_name, f);
    }
}

/// Returns the collections `fs.files` and `fs.chunks` of the design's GridFS fields (none
/// without one), each field's files and chunks as shapes of their own.
pub fn collections(model: &Model, patterns: &[FieldPattern]) -> Vec<Collection> {
    let mut files = Vec::new();
    let mut chunk_shapes = Vec::new();
    for p in patterns {
        let FieldPattern::Gridfs { entity, field } = p else {
            continue;
        };
        let Some(e) = model.entity(entity) else {
            continue;
        };
        let Some(f) = e.fields.get(field) else {
            continue;
        };
        let s = FileShapes::of(&e.name, field, f, e.count);
        files.push(s.file);
        chunk_shapes.extend(s.chunks);
    }
    if files.is_empty() {
        return Vec::new();
    }
    let collection = |name: &str, shapes| Collection {
        name: name.to_string(),
        shapes,
        indexes: vec![],
        shard_key: None,
    };
    vec![collection(FILES, files), collection(CHUNKS, chunk_shapes)]
}

/// The shapes of one GridFS field: its files, its full chunks (when some file has more than
/// one chunk) and its last chunks.
struct FileShapes {
    file: DocShape,
    chunks: Vec<DocShape>,
}

impl FileShapes {
    /// Returns the shapes of field `field` (`f`) of `count` entities `entity`.
    fn of(entity: &str, field: &str, f: &Field, count: f64) -> FileShapes {
        let length = f.length_distribution();
        let files = count * f.presence().clamp(0.0, 1.0);
        let whole = |x: f64| round_count(x);
        // Files of at least one byte (those with a last chunk), and their full chunks.
        let nonempty = length.integrate(|x| if whole(x) > 0 { 1.0 } else { 0.0 });
        let full = length.integrate(|x| chunks(whole(x)).saturating_sub(1) as f64);
        let label = format!("{entity}.{field}");
        let mut file_fields = Fields::default();
        file_fields.push("_id", Field::of(BsonType::ObjectId));
        file_fields.push(
            "length",
            Field {
                min: Some(length.min()),
                max: Some(length.max()),
                ..Field::of(BsonType::Long)
            },
        );
        file_fields.push(
            "chunkSize",
            Field {
                min: Some(CHUNK_SIZE as f64),
                max: Some(CHUNK_SIZE as f64),
                ..Field::of(BsonType::Int)
            },
        );
        file_fields.push("uploadDate", Field::of(BsonType::Date));
        file_fields.push("filename", Field::string_of_len(filename_bytes(field)));
        let chunk = |data: Distribution| {
            let mut c = Fields::default();
            c.push("_id", Field::of(BsonType::ObjectId));
            c.push("files_id", Field::of(BsonType::ObjectId));
            c.push(
                "n",
                Field {
                    kind: Some(ValueKind::Sequence),
                    ..Field::of(BsonType::Int)
                },
            );
            c.push(
                "data",
                Field {
                    length: Some(data),
                    ..Field::of(BsonType::BinData)
                },
            );
            c
        };
        let shape = |what: &str, count: f64, fields: Fields| DocShape {
            label: format!("{label} {what}"),
            entity: None,
            count,
            fields,
            growing: vec![],
            copied: vec![],
        };
        let mut chunk_shapes = Vec::new();
        if chunks(whole(length.max())) > 1 {
            chunk_shapes.push(shape(
                "chunk",
                files * full,
                chunk(Distribution::fixed(CHUNK_SIZE as f64)),
            ));
        }
        chunk_shapes.push(shape(
            "last chunk",
            files * nonempty,
            chunk(Distribution::Remainder {
                of: Box::new(length),
                size: CHUNK_SIZE as f64,
            }),
        ));
        FileShapes {
            file: shape("file", files, file_fields),
            chunks: chunk_shapes,
        }
    }
}

/// Returns, for the generator, the fields of `shape` that reference a GridFS files document of
/// `collections` (a layout's), as `(field, seed key of the files documents, their number)`: an entity's
/// `<field>FileId` and a chunk's `files_id` point to generated files documents of their field
/// (whose ids are those of the `fs.files/<entity>.<field> file` documents), so that the sample
/// and an export hold no dangling reference. `count` gives the documents generated of a
/// collection's shape.
pub fn sample_refs(
    collections: &[Collection],
    shape: &DocShape,
    count: &dyn Fn(&Collection, &DocShape) -> u64,
) -> Vec<(String, String, u64)> {
    let Some(files) = collections.iter().find(|c| c.name == FILES) else {
        return Vec::new();
    };
    let of_label = |label: &str| {
        files
            .shape(label)
            .map(|f| (format!("{FILES}/{label}"), count(files, f)))
    };
    let mut out = Vec::new();
    if let Some(e) = &shape.entity {
        for (name, _) in shape.fields.iter() {
            let Some(field) = name.strip_suffix("FileId") else {
                continue;
            };
            if let Some((key, n)) = of_label(&format!("{e}.{field} file")) {
                out.push((name.clone(), key, n));
            }
        }
    }
    let owner = shape
        .label
        .strip_suffix(" last chunk")
        .or_else(|| shape.label.strip_suffix(" chunk"));
    if let Some((key, n)) = owner.and_then(|o| of_label(&format!("{o} file"))) {
        out.push(("files_id".to_string(), key, n));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunk_counts_follow_the_spec() {
        assert_eq!(chunks(0), 0);
        assert_eq!(chunks(1), 1);
        assert_eq!(chunks(CHUNK_SIZE), 1);
        assert_eq!(chunks(CHUNK_SIZE + 1), 2);
        assert_eq!(chunks(25_000_000), 96);
        assert_eq!(last_chunk_bytes(25_000_000), 25_000_000 - 95 * CHUNK_SIZE);
        assert_eq!(last_chunk_bytes(CHUNK_SIZE), CHUNK_SIZE);
        assert_eq!(chunk_bytes(25_000_000), 25_000_000 + 96 * 62);
    }

    #[test]
    fn batches_as_a_driver_makes_them() {
        // 64 full chunk documents fit 16 MiB, 65 do not.
        let s = chunk_document_size(CHUNK_SIZE);
        assert!(64 * s <= BATCH_BYTES && 65 * s > BATCH_BYTES);
        assert_eq!(read_round_trips(0), 1);
        assert_eq!(read_round_trips(1), 1);
        assert_eq!(read_round_trips(64), 1);
        assert_eq!(read_round_trips(65), 2);
        assert_eq!(read_round_trips(96), 2);
        assert_eq!(read_round_trips(129), 3);
        assert_eq!(write_round_trips(0), 0);
        assert_eq!(write_round_trips(96), 1);
        assert_eq!(write_round_trips(183), 1);
        assert_eq!(write_round_trips(184), 2);
    }
}
