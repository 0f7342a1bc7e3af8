//! What an export would write, estimated before anything is written, so that `squillion
//! export` can refuse a run that would fill a disk ([`DEFAULT_MAX_BYTES`] unless raised).
//!
//! BSON bytes come from the arithmetic: each shape's mean document size at full scale
//! ([`crate::stats::collection_stats`]) × the documents the export generates of it (its first
//! two, the largest and the p99 document, generated and measured exactly). Extended JSON is
//! larger than BSON (an ObjectId's 12 bytes are `{"$oid":"…24 hex digits…"}`, binary data is
//! base64, every key is quoted), so the file bytes are the BSON bytes × the ratio of Extended
//! JSON lines to BSON bytes measured on a few of the export's own documents.
//!
//! The export cuts arrays past [`GenOptions::max_elements`] (10,000 elements), so the mean
//! loses, for each growing array that can pass it, the elements past the cap on average (the
//! mean of min(count, 10,000) over the count's distribution).

use serde::Serialize;

use super::{generators, Scale};
use crate::design::{Collection, DocShape, Layout};
use crate::generate::{GenOptions, ShapeGenerator};
use crate::model::Model;
use crate::stats::ShapeStats;

/// Bytes an export writes at most unless told otherwise: 1 GiB a run.
pub const DEFAULT_MAX_BYTES: u64 = 1 << 30;

/// [`DEFAULT_MAX_BYTES`] as `--max-bytes` writes it (its default in `--help`).
pub const DEFAULT_MAX_SIZE: &str = "1GiB";

/// Documents of each shape measured for the Extended JSON ratio, at most.
const RATIO_DOCUMENTS: u64 = 32;

/// BSON bytes of each shape measured for the ratio, at most (at least one document).
const RATIO_BYTES: u64 = 1 << 20;

/// The generator's first documents of a shape, the largest and the p99 one, measured exactly.
const HEAD_DOCUMENTS: u64 = 2;

/// Quantiles of a count distribution averaged for the mean of a capped count.
const GRID: u32 = 4096;

/// What one collection's file would hold.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CollectionEstimate {
    /// Collection name.
    pub name: String,
    /// Documents the export generates (after the per-collection cap).
    pub documents: u64,
    /// BSON bytes of those documents: the largest and the p99 document of each shape as
    /// generated, the others at the shape's mean size.
    pub bson_bytes: f64,
    /// Extended JSON bytes (with the newline) per BSON byte (1.0 when there is nothing).
    pub ejson_per_bson: f64,
    /// Estimated bytes of the file: the first documents' lines as generated, the others' BSON
    /// × the Extended JSON ratio measured on a few of them.
    pub file_bytes: f64,
}

/// What an export would write.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExportEstimate {
    /// Per collection, in layout order.
    pub collections: Vec<CollectionEstimate>,
    /// Documents in all.
    pub documents: u64,
    /// BSON bytes in all.
    pub bson_bytes: f64,
    /// Bytes of the collection files in all (the scripts and the manifest add a few KB).
    pub file_bytes: f64,
}

/// Returns what exporting `layout` at `scale` would write, without writing anything: constant
/// time in the number of documents (a few are generated to measure Extended JSON's overhead).
pub fn estimate(model: &Model, layout: &Layout, scale: &Scale) -> ExportEstimate {
    let collections: Vec<CollectionEstimate> = layout
        .collections
        .iter()
        .map(|c| collection_estimate(model, layout, c, scale))
        .collect();
    ExportEstimate {
        documents: collections.iter().map(|c| c.documents).sum(),
        bson_bytes: collections.iter().map(|c| c.bson_bytes).sum(),
        file_bytes: collections.iter().map(|c| c.file_bytes).sum(),
        collections,
    }
}

/// Returns the estimate of one collection.
fn collection_estimate(
    model: &Model,
    layout: &Layout,
    c: &Collection,
    scale: &Scale,
) -> CollectionEstimate {
    let stats = crate::stats::collection_stats(c, &model.start_date);
    let opts = scale.gen_options();
    let (mut documents, mut bson_bytes, mut file_bytes) = (0u64, 0.0, 0.0);
    let gens = generators(model, layout, c, scale);
    for ((g, s), shape) in gens.iter().zip(&stats.shapes).zip(&c.shapes) {
        let n = g.count;
        documents = documents.saturating_add(n);
        // The generator's first two documents are the largest and the p99 one: measured as
        // the export writes them (arrays cut at 10,000 elements).
        let head = n.min(HEAD_DOCUMENTS);
        let (head_bson, head_file) = measure(g, 0..head, &opts, u64::MAX);
        // The others: the arithmetic's mean document × their number, as Extended JSON at the
        // ratio measured on a few of them.
        let rest = n - head;
        let (bson, file) = measure(g, head..n, &opts, RATIO_BYTES);
        let ratio = if bson > 0 {
            file as f64 / bson as f64
        } else {
            1.0
        };
        let mean = (s.average.bytes as f64 - cut_bytes(shape, s, opts.max_elements)).max(0.0);
        let rest_bson = mean * rest as f64;
        bson_bytes += head_bson as f64 + rest_bson;
        file_bytes += head_file as f64 + rest_bson * ratio;
    }
    CollectionEstimate {
        name: c.name.clone(),
        documents,
        bson_bytes,
        ejson_per_bson: if bson_bytes > 0.0 {
            file_bytes / bson_bytes
        } else {
            1.0
        },
        file_bytes,
    }
}

/// Returns the bytes a mean document of `shape` loses when the export cuts its growing
/// arrays at `cap` elements: for each, (its mean count − the mean of min(count, cap)) × an
/// element past the cap (2 bytes of type and NUL, 5 key digits, the mean value). The mean of
/// min(count, cap) is taken over [`GRID`] quantiles of the count's distribution.
fn cut_bytes(shape: &DocShape, stats: &ShapeStats, cap: u64) -> f64 {
    stats
        .arrays
        .iter()
        .filter_map(|a| {
            let g = shape.growing.iter().find(|g| g.field == a.field)?;
            if g.count.max_count() <= cap {
                return None;
            }
            let capped: f64 = (0..GRID)
                .map(|i| g.count.count_at((i as f64 + 0.5) / GRID as f64).min(cap) as f64)
                .sum::<f64>()
                / GRID as f64;
            let cut = (g.count.mean() - capped).max(0.0);
            Some(cut * (2.0 + 5.0 + a.element_bytes.bytes as f64))
        })
        .sum()
}

/// Returns the BSON bytes and the Extended JSON bytes (each line with its newline, as the
/// export writes it) of the documents `range` of `g`: at most [`RATIO_DOCUMENTS`] of them,
/// and no more once `max_bytes` of BSON are measured.
fn measure(
    g: &ShapeGenerator,
    range: std::ops::Range<u64>,
    opts: &GenOptions,
    max_bytes: u64,
) -> (u64, u64) {
    let (mut bson, mut ejson) = (0u64, 0u64);
    for j in range.take(RATIO_DOCUMENTS as usize) {
        if bson >= max_bytes {
            break;
        }
        let d = g.document(j, opts).document;
        bson = bson.saturating_add(crate::size::document_size(&d));
        let line = crate::ejson::to_canonical_ejson(&d).len() as u64 + 1;
        ejson = ejson.saturating_add(line);
    }
    (bson, ejson)
}

/// Parses a size for `--max-bytes`: `5GiB`, `512MiB`, `1.5g`, or a plain number of bytes (the
/// units of [`crate::storage::parse_bytes`]; KB, MB, GB and TB are read as binary units too).
pub fn parse_max_bytes(text: &str) -> Result<u64, String> {
    crate::storage::parse_bytes(text).ok_or_else(|| {
        format!("'{text}' is not a size (expected e.g. 5GiB, 512MiB or a number of bytes)")
    })
}

/// Returns the smallest round size at least `bytes`, as `--max-bytes` reads it: whole GiB
/// from 1 GiB on, else whole MiB (`13GiB`, `700MiB`).
pub fn round_up_size(bytes: f64) -> String {
    const MIB: f64 = (1u64 << 20) as f64;
    const GIB: f64 = (1u64 << 30) as f64;
    if bytes >= GIB {
        format!("{}GiB", (bytes / GIB).ceil() as u64)
    } else {
        format!("{}MiB", (bytes / MIB).ceil().max(1.0) as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_round_up_to_what_the_flag_reads() {
        assert_eq!(round_up_size(13.2 * (1u64 << 30) as f64), "14GiB");
        assert_eq!(round_up_size((1u64 << 30) as f64), "1GiB");
        assert_eq!(round_up_size(700.5 * (1u64 << 20) as f64), "701MiB");
        assert_eq!(round_up_size(10.0), "1MiB");
        assert_eq!(parse_max_bytes("5GiB"), Ok(5 << 30));
        assert_eq!(parse_max_bytes(DEFAULT_MAX_SIZE), Ok(DEFAULT_MAX_BYTES));
        assert!(parse_max_bytes("lots").is_err());
    }
}
