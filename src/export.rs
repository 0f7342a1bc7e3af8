//! Export to a real MongoDB cluster: the generated documents of every collection as
//! mongoimport-ready files (canonical Extended JSON, one document per line), `setup.js`
//! (collections with `$jsonSchema` validators, indexes, sharding), `workload.js` (every
//! operation as mongosh code) and a README with the commands.
//!
//! Documents are generated, encoded and written one at a time ([`ShapeGenerator`]), so an
//! export of millions of documents runs in bounded memory: nothing but the current document,
//! a 32 KiB compression block and the writer's buffer is held.
//!
//! [`write_export`] writes every file to an [`ExportSink`]: `squillion export` gives it a
//! folder, the page a [`zip::ZipWriter`] in memory ([`export_offered_zip`]), so both produce
//! the same files from the same code.

pub mod estimate;
pub mod schema;
pub mod scripts;
pub mod timeseries;
pub mod zip;

use std::collections::BTreeMap;
use std::io::{self, Write};

use serde::Serialize;

use crate::design::{Collection, Layout};
use crate::eval::{evaluate_layout, fitted_sample, offered_layout, EvalError, EvalOptions};
use crate::generate::{shape_generators, GenOptions, ShapeGenerator, Spread};
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
    /// Elements per array at most (`--max-elements`; the evaluation's 10,000 by default): a
    /// longer array is cut short and counted in `truncated_arrays`.
    pub max_elements: u64,
    /// The root's full-scale count.
    pub root_count: f64,
    /// With `--scale`, the documents (before the cap) of each one-to-many child entity, by its
    /// name, and of each many-to-many relationship's link collection, by the relationship's
    /// name: the children of the sampled parents, each parent at its quantile of the
    /// cardinality ([`Scale::new`]).
    #[serde(skip)]
    pub dealt: BTreeMap<String, u64>,
}

impl Scale {
    /// Returns the scale of an export of `roots` root entities (or the model's sample when
    /// `None`), at most `max_documents` documents per collection.
    pub fn new(model: &Model, roots: Option<u64>, max_documents: u64) -> Scale {
        let root = root_entity(model);
        let full = model.entity(&root).map_or(0.0, |e| e.count);
        let factor = roots.map(|n| if full > 0.0 { n as f64 / full } else { 0.0 });
        let mut scale = Scale {
            root,
            roots,
            factor,
            max_documents,
            max_elements: GenOptions::default().max_elements,
            root_count: full,
            dealt: BTreeMap::new(),
        };
        if roots.is_some() {
            scale.dealt = scale.dealt_counts(model);
        }
        scale
    }

    /// Returns the children a scaled export generates for its sampled parents: a one-to-many
    /// child entity (children of its first one-to-many relationship, parents before
    /// children) and each many-to-many relationship's links get, per generated parent, the
    /// cardinality at the parent's quantile. A sample is then what sampled parents hold in
    /// the data: each customer its orders, the largest its thousands, whatever the model's
    /// own count of the children says (a count that is not the parents' × the cardinality's
    /// mean is the model's full-scale figure, and its sample is its distribution's).
    fn dealt_counts(&self, model: &Model) -> BTreeMap<String, u64> {
        let owner = |child: &str| {
            model.relationships.iter().find(|r| {
                r.child == child && !r.many_to_many && r.feed.is_none() && r.parent != child
            })
        };
        let mut dealt: BTreeMap<String, u64> = BTreeMap::new();
        let total = |dealt: &BTreeMap<String, u64>, r: &crate::model::Relationship| {
            let parents = self.entity_documents(model, dealt, &r.parent, None);
            crate::generate::children_per_parent(model, r, parents, Spread::Stratified).sum::<f64>()
                as u64
        };
        // A pass per level of the hierarchy: a child once its parent is known.
        for _ in 0..=model.entities.len() {
            let mut more = false;
            for e in &model.entities {
                let Some(r) = owner(&e.name) else { continue };
                if dealt.contains_key(&e.name)
                    || (owner(&r.parent).is_some() && !dealt.contains_key(&r.parent))
                {
                    continue;
                }
                let n = total(&dealt, r);
                dealt.insert(e.name.clone(), n);
                more = true;
            }
            if !more {
                break;
            }
        }
        for r in model.relationships.iter().filter(|r| r.many_to_many) {
            let n = total(&dealt, r);
            dealt.insert(r.name.clone(), n);
        }
        dealt
    }

    /// Returns the documents generated of entity `name` for the full-scale count `full` (the
    /// entity's, or its share in one of several collections; `None`: the entity's own), at
    /// most `max_documents` but for the root.
    fn entity_documents(
        &self,
        model: &Model,
        dealt: &BTreeMap<String, u64>,
        name: &str,
        full: Option<f64>,
    ) -> u64 {
        let own = model.entity(name).map_or(0.0, |e| e.count);
        let full = full.unwrap_or(own);
        match dealt.get(name) {
            Some(&d) => {
                let n = if full == own || own <= 0.0 {
                    d
                } else {
                    (d as f64 * full / own).round() as u64
                };
                n.min(self.max_documents)
            }
            None => self.count(model, full),
        }
    }

    /// Returns the documents of `shape` in collection `c` before the cap, where the scale
    /// deals them ([`Scale::dealt`]); `None` for a shape scaled by the factor.
    fn dealt_shape(
        &self,
        model: &Model,
        c: &Collection,
        shape: &crate::design::DocShape,
    ) -> Option<u64> {
        if shape.label == "link" {
            return self.dealt.get(&c.name).copied();
        }
        // A shape of an entity's documents (its own, its continuations, the GridFS files of
        // its file fields, labelled `<entity>.<field> …`) follows the entity's sample.
        let e = match shape.entity.as_deref() {
            Some(e) => e,
            None if [crate::design::names::FILES, crate::design::names::CHUNKS]
                .contains(&c.name.as_str()) =>
            {
                shape.label.split_once('.').map(|(e, _)| e)?
            }
            None => return None,
        };
        let d = *self.dealt.get(e)?;
        let own = model.entity(e).map_or(0.0, |e| e.count);
        Some(if shape.count == own || own <= 0.0 {
            d
        } else {
            // A share of the entity's documents as generated (capped: a capped message
            // collection keeps its attachments' files in proportion).
            (d.min(self.max_documents) as f64 * shape.count / own).round() as u64
        })
    }

    /// Returns the documents of `shape` in collection `c` at this scale, before the cap.
    pub fn shape_uncapped(
        &self,
        model: &Model,
        c: &Collection,
        shape: &crate::design::DocShape,
    ) -> u64 {
        self.dealt_shape(model, c, shape)
            .unwrap_or_else(|| self.uncapped(model, shape.count))
    }

    /// Returns the documents of `shape` in collection `c` at this scale: at most
    /// `max_documents` (but the root's).
    pub fn shape_count(
        &self,
        model: &Model,
        c: &Collection,
        shape: &crate::design::DocShape,
    ) -> u64 {
        match self.dealt_shape(model, c, shape) {
            Some(n) => n.min(self.max_documents),
            None => self.count(model, shape.count),
        }
    }

    /// Returns the scale with arrays cut at `max_elements` elements rather than 10,000.
    pub fn with_max_elements(mut self, max_elements: u64) -> Scale {
        self.max_elements = max_elements.max(1);
        self
    }

    /// Returns the generator's options at this scale: arrays cut at
    /// [`Scale::max_elements`] (and a document's elements, all arrays together, at least as
    /// many).
    pub fn gen_options(&self) -> GenOptions {
        let d = GenOptions::default();
        GenOptions {
            max_elements: self.max_elements,
            max_document_elements: d.max_document_elements.max(self.max_elements),
            ..d
        }
    }

    /// Returns where the documents sit on their distributions: the evaluation's draws for its
    /// own sample (the same documents), evenly spaced quantiles for `--scale` (so the N roots'
    /// children per parent, median and p99 are the model's, not a draw's).
    pub fn spread(&self) -> Spread {
        if self.roots.is_some() {
            Spread::Stratified
        } else {
            Spread::Drawn
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
    shape_generators(model, layout, c, &Scaled { scale, model }, scale.spread())
}

/// A scale's counts for the generator ([`crate::generate::Counts`]).
struct Scaled<'a> {
    scale: &'a Scale,
    model: &'a Model,
}

impl crate::generate::Counts for Scaled<'_> {
    fn of(&self, full: f64) -> u64 {
        self.scale.count(self.model, full)
    }

    fn entity(&self, name: &str, full: f64) -> u64 {
        self.scale
            .entity_documents(self.model, &self.scale.dealt, name, Some(full))
    }

    fn shape(&self, c: &Collection, shape: &crate::design::DocShape) -> u64 {
        self.scale.shape_count(self.model, c, shape)
    }
}

/// Returns the documents every collection will have, in layout order (for progress).
pub fn planned_documents(model: &Model, layout: &Layout, scale: &Scale) -> Vec<(String, u64)> {
    layout
        .collections
        .iter()
        .map(|c| {
            let n = c
                .shapes
                .iter()
                .map(|s| scale.shape_count(model, c, s))
                .sum();
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
    let opts = scale.gen_options();
    let mut compressor = BlockCompressor::new();
    let (mut documents, mut file_bytes, mut truncated, mut over) = (0u64, 0u64, 0u64, 0u64);
    let mut uncapped = 0u64;
    for s in &c.shapes {
        uncapped = uncapped.saturating_add(scale.shape_uncapped(model, c, s));
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

/// Where an export's files go: a folder (the CLI) or a zip archive in memory (the page).
pub trait ExportSink {
    /// Starts the file `name` (a bare file name) and returns where its bytes go.
    fn start(&mut self, name: &str) -> io::Result<&mut dyn Write>;
    /// Ends the file started last (flushing it).
    fn end(&mut self) -> io::Result<()>;
}

impl ExportSink for zip::ZipWriter {
    fn start(&mut self, name: &str) -> io::Result<&mut dyn Write> {
        zip::ZipWriter::start(self, name)?;
        Ok(self)
    }

    fn end(&mut self) -> io::Result<()> {
        // The entry ends at the next start or at finish.
        Ok(())
    }
}

/// Why an export could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// A file could not be written.
    #[error("cannot write {file}: {source}")]
    Write {
        /// The file (as named in the export).
        file: String,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// The design could not be laid out or evaluated (`workload.js` needs its evaluation).
    #[error(transparent)]
    Eval(#[from] EvalError),
    /// The manifest could not be encoded.
    #[error("cannot encode the manifest: {0}")]
    Json(#[from] serde_json::Error),
}

/// What an export writes.
#[derive(Debug, Clone)]
pub struct ExportPlan<'a> {
    /// The model (under the design exported).
    pub model: &'a Model,
    /// The model laid out under the design.
    pub layout: &'a Layout,
    /// The design's name, as the manifest and README give it.
    pub design: String,
    /// How many documents.
    pub scale: Scale,
    /// Documents per entity of the evaluation `workload.js` binds its parameters from (`None`:
    /// the model's sample); no larger than the export, so its ids are exported documents.
    pub workload_sample: Option<u64>,
}

/// The files of an export besides the collections', in the order written.
pub const SCRIPT_FILES: [&str; 4] = ["setup.js", "workload.js", "README.md", "manifest.json"];

/// Writes the export of `plan` to `sink`: one file per collection (in layout order), then
/// `setup.js`, `workload.js`, `README.md` and `manifest.json`; `progress` is called with the
/// documents written so far, all collections together, and the collection being written.
/// Returns the manifest.
pub fn write_export(
    plan: &ExportPlan,
    sink: &mut dyn ExportSink,
    progress: &mut dyn FnMut(u64, &str),
) -> Result<Manifest, ExportError> {
    let (model, layout) = (plan.model, plan.layout);
    let mut manifest = Manifest {
        model: model.name.clone().unwrap_or_else(|| "model".into()),
        design: plan.design.clone(),
        seed: model.seed,
        scale: plan.scale.clone(),
        collections: Vec::new(),
    };
    let mut done = 0u64;
    for c in &layout.collections {
        let file = file_name(&c.name);
        let failed = |source| ExportError::Write {
            file: file.clone(),
            source,
        };
        let w = sink.start(&file).map_err(failed)?;
        let ce = write_collection(model, layout, c, &plan.scale, w, &mut |n| {
            progress(done + n, &c.name)
        })
        .map_err(failed)?;
        sink.end().map_err(failed)?;
        done += ce.documents;
        manifest.collections.push(ce);
    }
    let eval = evaluate_layout(
        model,
        layout.clone(),
        &EvalOptions {
            max_documents: plan.workload_sample,
            ..EvalOptions::default()
        },
    )?;
    let json = serde_json::to_string_pretty(&manifest)?;
    let texts = [
        scripts::setup_js(model, layout, &manifest),
        scripts::workload_js(model, layout, &eval, &plan.scale, &manifest),
        scripts::readme(&manifest),
        json,
    ];
    for (file, text) in SCRIPT_FILES.iter().zip(texts) {
        let failed = |source| ExportError::Write {
            file: file.to_string(),
            source,
        };
        sink.start(file)
            .and_then(|w| w.write_all(text.as_bytes()))
            .map_err(failed)?;
        sink.end().map_err(failed)?;
    }
    Ok(manifest)
}

/// Bytes the page's archive may hold: a tab builds it in memory, then hands it to the browser.
pub const PAGE_ARCHIVE_LIMIT: u64 = 256 << 20;

/// An export as one zip archive.
#[derive(Debug, Clone)]
pub struct Archive {
    /// The archive's bytes.
    pub bytes: Vec<u8>,
    /// What it holds.
    pub manifest: Manifest,
}

/// Returns the export of `model` under its offered design `name` (as the design bar and
/// `squillion eval --design NAME` name it) as a zip archive of at most `limit` bytes: exactly
/// the sample the evaluation under `opts` materializes (its sample size, fitted to the
/// evaluation's memory budget, so an export never needs more memory than the evaluation the
/// page has already run), with the files `squillion export` writes in a folder.
pub fn export_offered_zip(
    model: &Model,
    name: &str,
    opts: &EvalOptions,
    limit: u64,
) -> Result<Archive, ExportError> {
    let offered = offered_layout(model, name)?;
    let design = offered.name();
    let m = fitted_sample(&offered.model, &offered.layout, opts).map_err(EvalError::from)?;
    let plan = ExportPlan {
        model: &m,
        layout: &offered.layout,
        design,
        scale: Scale::new(&m, None, DEFAULT_MAX_DOCUMENTS),
        workload_sample: None,
    };
    let mut zip = zip::ZipWriter::new(limit);
    let manifest = write_export(&plan, &mut zip, &mut |_, _| {})?;
    let bytes = zip.finish().map_err(|source| ExportError::Write {
        file: "the archive".to_string(),
        source,
    })?;
    Ok(Archive { bytes, manifest })
}
