//! Documents written as MongoDB's tools write them, for the tests of `squillion infer`
//! (`#[path]` module: each integration test is its own crate): mongoexport's canonical
//! Extended JSON lines and mongodump's concatenated BSON.

use std::path::Path;

use bson::{Bson, Document};

/// Returns `docs` as canonical Extended JSON, one document a line.
#[allow(dead_code)]
pub fn canonical_lines(docs: &[Document]) -> String {
    docs.iter()
        .map(|d| {
            Bson::Document(d.clone())
                .into_canonical_extjson()
                .to_string()
                + "\n"
        })
        .collect()
}

/// Writes `docs` as mongoexport does: canonical Extended JSON, one per line.
#[allow(dead_code)]
pub fn write_json(file: &Path, docs: &[Document]) {
    std::fs::write(file, canonical_lines(docs)).unwrap_or_else(|e| panic!("{e}"));
}

/// Writes `docs` as mongodump does: their BSON, one after the other; returns each one's size.
#[allow(dead_code)]
pub fn write_bson(file: &Path, docs: &[Document]) -> Vec<usize> {
    let mut bytes = Vec::new();
    let mut sizes = Vec::new();
    for d in docs {
        let b = bson::serialize_to_vec(d).unwrap_or_else(|e| panic!("{e}"));
        sizes.push(b.len());
        bytes.extend_from_slice(&b);
    }
    std::fs::write(file, bytes).unwrap_or_else(|e| panic!("{e}"));
    sizes
}
