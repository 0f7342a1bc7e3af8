//! The `gridfs` and `object_storage` field patterns: the layout (the field replaced, `fs.files`
//! and `fs.chunks` with exact sizes and counts), the sizes against pymongo's `bson.encode`,
//! the reads and writes of a file counted as a driver makes them, and validation.
#![cfg(not(target_arch = "wasm32"))]

use squillion::design::gridfs::{
    chunk_bytes, chunk_document_size, chunks, file_document_size, filename_bytes, last_chunk_bytes,
    read_round_trips, write_round_trips, CHUNK_SIZE,
};
use squillion::design::names::{CHUNKS, FILES};
use squillion::design::{Layout, Strategy};
use squillion::eval::{evaluate, Design, EvalOptions, Evaluation};
use squillion::generate::generate;
use squillion::model::{parse_model, BsonType, Model};
use squillion::presets;
use squillion::size::document_size;
use squillion::stats::collection_stats;
use squillion::stats::shape_stats;

fn preset() -> Model {
    presets::find("message-attachments")
        .unwrap_or_else(|e| panic!("{e}"))
        .model()
        .unwrap_or_else(|e| panic!("{e}"))
}

/// The preset under one of its designs, laid out.
fn layout(design: &str) -> (Model, Layout) {
    let o = squillion::eval::offer::offer(&preset(), design).unwrap_or_else(|| panic!("{design}"));
    let l = o.layout().unwrap_or_else(|e| panic!("{e}"));
    (o.model, l)
}

fn eval(design: &str) -> Evaluation {
    let o = squillion::eval::offer::offer(&preset(), design).unwrap_or_else(|| panic!("{design}"));
    evaluate(&o.model, &Design::Model, &EvalOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn sizes_equal_pymongo() {
    // pymongo 4.20 `len(bson.encode(…))` of {_id, length: Int64, chunkSize: 261120, uploadDate,
    // filename: "attachment-<24 hex>.bin"} and of {_id, files_id, n, data: Binary(bytes, 0)}.
    assert_eq!(file_document_size(filename_bytes("attachment")), 127);
    for (payload, pymongo) in [(261_120, 261_182), (193_600, 193_662), (1, 63), (0, 62)] {
        assert_eq!(chunk_document_size(payload), pymongo, "{payload}");
    }
    // The same documents, encoded here by pymongo when it is installed.
    let script = r#"
import bson, datetime, sys
from bson import ObjectId, Int64, Binary
fid = ObjectId()
f = {'_id': fid, 'length': Int64(25000000), 'chunkSize': 261120,
     'uploadDate': datetime.datetime(2025, 1, 1), 'filename': 'attachment-' + str(fid) + '.bin'}
sizes = [len(bson.encode(f))]
for n in (261120, 193600, 1):
    sizes.append(len(bson.encode({'_id': ObjectId(), 'files_id': fid, 'n': 95, 'data': Binary(b'x' * n, 0)})))
print(' '.join(map(str, sizes)))
"#;
    match std::process::Command::new("python3")
        .args(["-c", script])
        .output()
    {
        Ok(out) if out.status.success() => {
            let got: Vec<u64> = String::from_utf8_lossy(&out.stdout)
                .split_whitespace()
                .filter_map(|s| s.parse().ok())
                .collect();
            let ours = vec![
                file_document_size(filename_bytes("attachment")),
                chunk_document_size(CHUNK_SIZE),
                chunk_document_size(193_600),
                chunk_document_size(1),
            ];
            assert_eq!(got, ours);
        }
        _ => {
            eprintln!("python3 with pymongo not available: checked against the recorded sizes only")
        }
    }
}

#[test]
fn the_largest_attachment_is_96_chunks() {
    assert_eq!(chunks(25_000_000), 96);
    assert_eq!(last_chunk_bytes(25_000_000), 193_600);
    assert_eq!(chunk_bytes(25_000_000), 95 * 261_182 + 193_662);
    // 64 full chunk documents per 16 MiB batch: the find and one getMore.
    assert_eq!(read_round_trips(96), 2);
    assert_eq!(write_round_trips(96), 1);
}

#[test]
fn the_field_leaves_the_document_for_fs_files_and_fs_chunks() {
    let (model, l) = layout("gridfs");
    let m = l
        .collection("message")
        .unwrap_or_else(|| panic!("no message"));
    let fields = &m.shapes[0].fields;
    assert!(fields.get("attachment").is_none());
    let id = fields
        .get("attachmentFileId")
        .unwrap_or_else(|| panic!("no file id"));
    assert_eq!((id.ty, id.presence), (BsonType::ObjectId, Some(0.3)));
    let files = l.collection(FILES).unwrap_or_else(|| panic!("no fs.files"));
    let chunk_coll = l
        .collection(CHUNKS)
        .unwrap_or_else(|| panic!("no fs.chunks"));
    // Files: one per present attachment, each exactly 127 bytes.
    assert_eq!(files.count(), 1e9 * 0.3);
    let st = shape_stats(&files.shapes[0], "2025-01-01");
    assert_eq!((st.max.bytes, st.max.exact), (127, true));
    // Chunks: full ones of exactly 261,182 bytes; the last ones at most that.
    let labels: Vec<&str> = chunk_coll.shapes.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(
        labels,
        ["message.attachment chunk", "message.attachment last chunk"]
    );
    let full = shape_stats(&chunk_coll.shapes[0], "2025-01-01");
    assert_eq!((full.max.bytes, full.max.exact), (261_182, true));
    // The last chunk's payload: 1 … 261,120 bytes (the remainder of the file's length).
    let payload = chunk_coll.shapes[1]
        .fields
        .get("data")
        .map(|f| f.length_distribution())
        .unwrap_or_else(|| panic!("no data"));
    assert_eq!((payload.min(), payload.max()), (1.0, CHUNK_SIZE as f64));
    let last = shape_stats(&chunk_coll.shapes[1], "2025-01-01");
    assert!(last.average.bytes < 261_182, "{}", last.average.bytes);
    // The largest last chunk is a full one (every length at its maximum), exact.
    assert_eq!((last.max.bytes, last.max.exact), (261_182, true));
    // Σ chunks = files × E[⌈length / 261,120⌉], and the bytes are the files' bytes plus 62 per
    // chunk: the two shapes split the chunks without losing a byte.
    let len = model
        .entity("message")
        .and_then(|e| e.fields.get("attachment"))
        .map(|f| f.length_distribution())
        .unwrap_or_else(|| panic!("no attachment"));
    let per_file = len.integrate(|x| chunks(x.round() as u64) as f64);
    let n = 1e9 * 0.3;
    assert!((chunk_coll.count() / (n * per_file) - 1.0).abs() < 1e-9);
    let stats = collection_stats(chunk_coll, "2025-01-01");
    let bytes = n * (len.integrate(|x| x.round()) + 62.0 * per_file);
    assert!(
        (stats.total_bytes / bytes - 1.0).abs() < 1e-6,
        "{} vs {bytes}",
        stats.total_bytes
    );
    // The driver's indexes.
    let keys = |c: &squillion::design::Collection| -> Vec<String> {
        c.indexes.iter().map(|i| i.keys.to_string()).collect()
    };
    assert!(keys(chunk_coll).contains(&r#"{ "files_id": 1, "n": 1 }"#.to_string()));
    assert!(keys(files).contains(&r#"{ "filename": 1, "uploadDate": 1 }"#.to_string()));
    assert!(l.strategies.iter().all(|(_, s)| *s != Strategy::Embed));
}

#[test]
fn generated_file_documents_have_the_reported_sizes() {
    let (model, l) = layout("gridfs");
    let data = generate(&model, &l);
    let files = data
        .collection(FILES)
        .unwrap_or_else(|| panic!("no fs.files"));
    assert!(!files.documents.is_empty());
    for d in &files.documents {
        assert_eq!(document_size(d), 127);
    }
    let chunk_coll = data
        .collection(CHUNKS)
        .unwrap_or_else(|| panic!("no fs.chunks"));
    for d in &chunk_coll.documents {
        let s = document_size(d);
        assert!((63..=261_182).contains(&s), "{s}");
    }
    assert!(chunk_coll
        .documents
        .iter()
        .any(|d| document_size(d) == 261_182));
    // No dangling reference: a message's file id and a chunk's files_id name a files document.
    let ids: std::collections::HashSet<String> = files
        .documents
        .iter()
        .filter_map(|d| d.get("_id").map(|v| v.to_string()))
        .collect();
    let messages = data
        .collection("message")
        .unwrap_or_else(|| panic!("no message"));
    let with_file: Vec<_> = messages
        .documents
        .iter()
        .filter_map(|d| d.get("attachmentFileId"))
        .collect();
    assert!(!with_file.is_empty());
    for id in with_file {
        assert!(ids.contains(&id.to_string()), "message → {id}");
    }
    for d in &chunk_coll.documents {
        let id = d.get("files_id").map(|v| v.to_string()).unwrap_or_default();
        assert!(ids.contains(&id), "chunk → {id}");
    }
}

#[test]
fn reads_and_writes_count_the_file_as_a_driver_does() {
    let e = eval("gridfs");
    let open = e
        .operations
        .iter()
        .find(|o| o.unit == "open a message with its attachment")
        .unwrap_or_else(|| panic!("no unit"));
    // Typical: the message, the files document, one chunk (a median file of about 200,000
    // bytes is one chunk): 3 round trips.
    assert_eq!(open.queries, 3);
    let colls: Vec<&str> = open
        .typical
        .commands
        .iter()
        .map(|c| c.collection.as_str())
        .collect();
    assert_eq!(colls, ["message", FILES, CHUNKS]);
    let chunk_read = &open.typical.commands[2];
    assert_eq!(chunk_read.full.docs_returned.value, 1.0);
    // Largest: the 25,000,000-byte file is 96 chunks, read in 2 batches.
    let largest = &open.largest.commands[2];
    assert_eq!(largest.full.docs_returned.value, 96.0);
    assert_eq!(
        largest.full.bytes_returned.value,
        chunk_bytes(25_000_000) as f64
    );
    assert_eq!(largest.queries, 2);
    assert_eq!(largest.plan, "files_id_1_n_1");
    assert_eq!(open.largest.commands[1].full.bytes_returned.value, 127.0);
    // Posting uploads the chunks, then the files document, then the message.
    let post = e
        .operations
        .iter()
        .find(|o| o.unit == "post a message")
        .unwrap_or_else(|| panic!("no unit"));
    assert_eq!(post.queries, 3);
    let up = &post.largest.commands[0];
    assert_eq!(up.collection, CHUNKS);
    assert_eq!(up.full.docs_written.value, 96.0);
    assert_eq!(up.full.bytes_written.value, chunk_bytes(25_000_000) as f64);
    assert_eq!(up.error, None);
    assert!(up.mongosh.contains("insertMany"));
}

#[test]
fn object_storage_keeps_a_url_and_no_file_collection() {
    let (_, l) = layout("object_storage");
    assert!(l.collection(FILES).is_none() && l.collection(CHUNKS).is_none());
    let m = l
        .collection("message")
        .unwrap_or_else(|| panic!("no message"));
    let url = m.shapes[0]
        .fields
        .get("attachmentUrl")
        .unwrap_or_else(|| panic!("no url"));
    assert_eq!(url.ty, BsonType::String);
    let st = shape_stats(&m.shapes[0], "2025-01-01");
    // _id, conversationId, at, text (120), attachmentUrl (64): every message small.
    assert!(st.max.bytes < 300, "{}", st.max.bytes);
}

#[test]
fn only_a_binary_or_string_field_can_be_a_file() {
    let model = |pattern: &str, field: &str| {
        format!(
            r#"{{ "entities": [{{ "name": "m", "count": 10, "fields": {{
                "n": {{ "type": "int" }}, "b": {{ "type": "binData" }}, "s": {{ "type": "string" }} }} }}],
               "design": {{ "fields": [{{ "pattern": "{pattern}", "entity": "m", "field": "{field}" }}] }} }}"#
        )
    };
    for p in ["gridfs", "object_storage"] {
        assert!(parse_model(&model(p, "b")).is_ok(), "{p} b");
        assert!(parse_model(&model(p, "s")).is_ok(), "{p} s");
        for bad in ["n", "zz"] {
            let e = parse_model(&model(p, bad)).map(|_| ()).unwrap_err();
            assert!(e.has_path("$.design.fields[0].field"), "{p} {bad}: {e}");
        }
    }
}

/// A file's chunks are unique by `(files_id, n)` (the driver's unique index): a file's full
/// chunks and its last chunk are two shapes of `fs.chunks`, and their `n` continue one
/// numbering, so that no sample size gives two chunks of one file the same `n` (a sample of 10
/// per entity used to fail with E11000 on `files_id_1_n_1`).
#[test]
fn every_sample_size_materializes_the_chunks() {
    for design in ["gridfs", "normalized"] {
        let o =
            squillion::eval::offer::offer(&preset(), design).unwrap_or_else(|| panic!("{design}"));
        for max in [3, 10, 25, 60] {
            let opts = EvalOptions {
                max_documents: Some(max),
                ..EvalOptions::default()
            };
            let e = evaluate(&o.model, &Design::Model, &opts)
                .unwrap_or_else(|e| panic!("{design} at {max} per entity: {e}"));
            assert!(e.collections.iter().any(|c| c.name == CHUNKS));
        }
        let l = o.layout().unwrap_or_else(|e| panic!("{e}"));
        let data = generate(&o.model, &l);
        let chunks = data
            .collection(CHUNKS)
            .unwrap_or_else(|| panic!("no fs.chunks"));
        let mut keys = std::collections::HashSet::new();
        for d in &chunks.documents {
            let key = (
                d.get("files_id").map(|v| v.to_string()),
                d.get("n").map(|v| v.to_string()),
            );
            assert!(keys.insert(key.clone()), "{design}: chunk {key:?} twice");
        }
    }
}
