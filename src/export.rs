//! Export to a real MongoDB cluster: the generated documents of every collection as
//! mongoimport-ready files (canonical Extended JSON, one document per line), `setup.js`
//! (collections with `$jsonSchema` validators, indexes, sharding), `workload.js` (every
//! operation as mongosh code) and a README with the commands.
//!
//! Documents are generated, encoded and written one at a time ([`ShapeGenerator`]), so an
//! export of millions of documents runs in bounded memory: nothing but the current document,
//! a 32 KiB compression block and the writer's buffer is held.

pub mod schema;
pub mod scripts;
pub mod zip;

use std::io::{self, Write};

use serde::Serialize;

use crate::design::{Collection, Layout};
use crate::generate::{shape_generators, GenOptions, ShapeGenerator};
use crate::model::Model;
use crate::storage::BlockCompressor;

/// Documents per collection an export writes at most unless told otherwise.
pub const DEFAULT_MAX_DOCUMENTS: u64 = 1_000_000;

/// How many documents an export generates.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Scale {
    /// The root entity `--scale` counts (the first entity that is not the child of a
    /// one-to-many relationship: users, products, hosts).
    pub root: String,
    /// Root entities asked for (`None`: the model's own sample).
    pub roots: Option<u64>,
    /// Full-scale counts are multiplied by this (roots ÷ the root's full-scale count).
    pub factor: Option<f64>,
    /// Documents per collection at most (the root entities are never cut).
    pub max_documents: u64,
    /// The root's full-scale count.
    pub root_count: f64,
}

impl Scale {
    /// Returns the scale of an export of `roots` root entities (or the model's sample when
    /// `None`), at most `max_documents` documents per collection.
    pub fn new(model: &Model, roots: Option<u64>, max_documents: u64) -> Scale {
        let root = root_entity(model);
        let full = model.entity(&root).map_or(0.0, |e| e.count);
        let factor = roots.map(|n| if full > 0.0 { n as f64 / full } else { 0.0 });
        Scale {
            root,
            roots,
            factor,
            max_documents,
            root_count: full,
        }
    }

    /// Returns the number of documents generated for a full-scale count, before the cap.
    pub fn uncapped(&self, model: &Model, full: f64) -> u64 {
        match self.factor {
            Some(k) => {
                // Rounded up, but 200.00000000000003 (float noise) is 200.
                let x = full * k;
                let n = if (x - x.round()).abs() <= 1e-9 * x.abs().max(1.0) {
                    x.round()
                } else {
                    x.ceil()
                };
                if full > 0.0 {
                    n.clamp(1.0, 1e15) as u64
                } else {
                    0
                }
            }
            None => model.sample.sample_count(full),
        }
    }

    /// Returns the number of documents generated for a full-scale count: at most
    /// `max_documents`, except the root entities themselves (the million users of `--scale
    /// 1000000` are never cut; nor is a collection exactly as large as the root's).
    pub fn count(&self, model: &Model, full: f64) -> u64 {
        let n = self.uncapped(model, full);
        if self.roots.is_some() && full == self.root_count {
            n
        } else {
            n.min(self.max_documents)
        }
    }
}

/// Returns the root entity: the first that is no one-to-many child (else the first).
pub fn root_entity(model: &Model) -> String {
    model
        .entities
        .iter()
        .find(|e| {
            !model
                .relationships
                .iter()
                .any(|r| r.child == e.name && !r.many_to_many && r.parent != e.name)
        })
        .or(model.entities.first())
        .map(|e| e.name.clone())
        .unwrap_or_default()
}

/// One exported collection.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CollectionExport {
    /// Collection name.
    pub name: String,
    /// File name (`<collection>.json`).
    pub file: String,
    /// Documents written.
    pub documents: u64,
    /// Documents at this scale before the per-collection cap.
    pub uncapped_documents: u64,
    /// Exact BSON bytes of the documents written (what `Object.bsonsize()` sums to).
    pub bson_bytes: u64,
    /// Bytes of the Extended JSON file.
    pub file_bytes: u64,
    /// Estimated bytes on disk: the BSON compressed with snappy in 32 KiB blocks.
    pub compressed_bytes: u64,
    /// Arrays generated shorter than their drawn count (`GenOptions::max_elements`).
    pub truncated_arrays: u64,
    /// Documents over 16 MiB (mongoimport would refuse them).
    pub over_limit: u64,
    /// The collection's `$jsonSchema` validator.
    pub validator: serde_json::Value,
}

/// What an export wrote: also written as `manifest.json`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Manifest {
    /// The model's name.
    pub model: String,
    /// The design's name.
    pub design: String,
    /// The model's seed.
    pub seed: u64,
    /// How many documents were generated.
    pub scale: Scale,
    /// The collections, in layout order.
    pub collections: Vec<CollectionExport>,
}

impl Manifest {
    /// Returns the documents written in all.
    pub fn documents(&self) -> u64 {
        self.collections.iter().map(|c| c.documents).sum()
    }
}

/// Returns the generators of collection `c` at `scale`.
pub fn generators<'a>(
    model: &'a Model,
    layout: &'a Layout,
    c: &'a Collection,
    scale: &Scale,
) -> Vec<ShapeGenerator<'a>> {
    shape_generators(model, layout, c, &|n| scale.count(model, n))
}

/// Returns the documents every collection will have, in layout order (for progress).
pub fn planned_documents(model: &Model, layout: &Layout, scale: &Scale) -> Vec<(String, u64)> {
    layout
        .collections
        .iter()
        .map(|c| {
            let n = c.shapes.iter().map(|s| scale.count(model, s.count)).sum();
            (c.name.clone(), n)
        })
        .collect()
}

/// Writes collection `c` to `out`, one canonical Extended JSON document per line, calling
/// `progress` with the documents written so far every few thousand documents.
pub fn write_collection(
    model: &Model,
    layout: &Layout,
    c: &Collection,
    scale: &Scale,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(u64),
) -> io::Result<CollectionExport> {
    let opts = GenOptions::default();
    let mut compressor = BlockCompressor::new();
    let (mut documents, mut file_bytes, mut truncated, mut over) = (0u64, 0u64, 0u64, 0u64);
    let mut uncapped = 0u64;
    for s in &c.shapes {
        uncapped = uncapped.saturating_add(scale.uncapped(model, s.count));
    }
    let mut bytes = Vec::new();
    for g in generators(model, layout, c, scale) {
        for j in 0..g.count {
            let d = g.document(j, &opts);
            bytes.clear();
            d.document
                .to_writer(&mut bytes)
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?;
            compressor.push(&bytes);
            if bytes.len() as u64 > crate::size::MAX_BSON_SIZE {
                over += 1;
            }
            truncated += d.truncated.len() as u64;
            let line = crate::ejson::to_canonical_ejson(&d.document);
            out.write_all(line.as_bytes())?;
            out.write_all(b"\n")?;
            file_bytes += line.len() as u64 + 1;
            documents += 1;
            if documents % 4096 == 0 {
                progress(documents);
            }
        }
    }
    progress(documents);
    let (bson_bytes, compressed_bytes) = compressor.finish();
    Ok(CollectionExport {
        name: c.name.clone(),
        file: file_name(&c.name),
        documents,
        uncapped_documents: uncapped,
        bson_bytes,
        file_bytes,
        compressed_bytes,
        truncated_arrays: truncated,
        over_limit: over,
        validator: schema::validator(c),
    })
}

/// Returns the file name of a collection's documents: `<name>.json`, with any character
/// outside `[A-Za-z0-9._-]` replaced by `_`.
pub fn file_name(collection: &str) -> String {
    let safe: String = collection
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{safe}.json")
}
