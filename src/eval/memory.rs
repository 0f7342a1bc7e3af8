//! Storage and memory of a design: on-disk size under WiredTiger's block compression (the
//! ratio measured by compressing the sample's BSON in 32 KiB blocks, see [`crate::storage`]:
//! snappy, or for a time-series collection zstd over its buckets with their columns
//! compressed), index sizes, and the working set against the WiredTiger cache.
//!
//! The working set is the indexes (every index of a busy collection is read on every write)
//! plus the hot documents: the bytes the workload examines or writes in an hour
//! ([`HOT_WINDOW_SECS`]), at most the whole collection. Everything here is an estimate.

use serde::{Deserialize, Serialize};

use super::{CollectionEval, Figure, OperationEval};
use crate::generate::Dataset;
use crate::storage::{
    bucket_disk, compression_ratio, compression_ratio_of_bytes, default_cache, Codec,
};
use std::collections::BTreeMap;

/// Documents touched within this many seconds count as hot: one hour.
pub const HOT_WINDOW_SECS: f64 = 3600.0;

/// One collection's storage.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CollectionStorage {
    /// Collection name.
    pub collection: String,
    /// BSON bytes at full scale.
    pub data_bytes: Figure,
    /// Bytes on disk ÷ BSON bytes, measured on the sample in 32 KiB blocks with
    /// [`Self::block_compressor`] (after the column compression of a time-series bucket).
    pub compression_ratio: f64,
    /// The block compressor the ratio comes from: `snappy` (WiredTiger's default), or `zstd`
    /// for a time-series collection (MongoDB's default for `system.buckets`).
    #[serde(default)]
    pub block_compressor: Codec,
    /// True when the documents are time-series buckets whose columns are compressed before
    /// the block compressor (bucket version 2: `data_bytes` stays the uncompressed bucket, the
    /// size in memory; only `disk_bytes` sees the column compression).
    #[serde(default)]
    pub column_compressed: bool,
    /// Estimated bytes on disk (data × ratio).
    pub disk_bytes: Figure,
    /// Estimated bytes of the indexes (uncompressed; WiredTiger's prefix compression makes
    /// them smaller).
    pub index_bytes: Figure,
    /// Bytes of documents the workload touches in an hour, at most the collection.
    pub hot_bytes: Figure,
}

/// Storage and memory of a design.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Storage {
    /// Per collection.
    pub collections: Vec<CollectionStorage>,
    /// Data bytes, all collections.
    pub data_bytes: Figure,
    /// Bytes on disk, all collections (block compressor estimate).
    pub disk_bytes: Figure,
    /// Index bytes, all collections.
    pub index_bytes: Figure,
    /// Working set: hot documents plus every index.
    pub working_set: Figure,
    /// Shards the data is spread over (1 when not sharded).
    pub shards: u32,
    /// Working set per shard (even spread).
    pub working_set_per_shard: Figure,
    /// RAM of each machine (bytes).
    pub ram_bytes: u64,
    /// WiredTiger's default cache on that RAM: max(50% of (RAM − 1 GiB), 256 MiB).
    pub cache_bytes: u64,
    /// True when the working set per shard fits in the cache.
    pub fits_in_cache: bool,
}

/// Returns each collection's compression ratio read from the engine's stored bytes right
/// after [`super::materialize`], where they are the sample's documents in order, encoded as
/// [`compression_ratio`] would encode them. A collection whose generated documents do not all
/// start with `_id` (the engine moves it first, so its bytes differ) is left out and measured
/// from the sample.
/// Collections in `skip` (the time-series collections of [`bucket_ratios`], measured with
/// zstd instead) are not compressed here.
pub(super) fn stored_ratios(
    data: &Dataset,
    db: &crate::engine::Database,
    skip: &BTreeMap<String, f64>,
) -> BTreeMap<String, f64> {
    data.collections
        .iter()
        .filter(|g| !skip.contains_key(&g.name))
        .filter_map(|g| {
            let stored = db.collection(&g.name)?;
            let same = stored.len() == g.documents.len()
                && g.documents
                    .iter()
                    .all(|d| d.keys().next().is_some_and(|k| k == "_id"));
            same.then(|| {
                let ratio = compression_ratio_of_bytes(stored.documents().map(|d| d.as_bytes()));
                (g.name.clone(), ratio)
            })
        })
        .collect()
}

/// Returns the on-disk ratio of every time-series collection of `layout` (its documents are
/// version-1 buckets): zstd over the version-2 buckets ÷ the version-1 bytes
/// ([`crate::storage::bucket_disk`]).
pub(super) fn bucket_ratios(
    data: &Dataset,
    collections: &[crate::design::Collection],
) -> BTreeMap<String, f64> {
    collections
        .iter()
        .filter(|c| {
            !c.shapes.is_empty()
                && c.shapes
                    .iter()
                    .all(|s| s.label == crate::design::names::BUCKET_LABEL)
        })
        .filter_map(|c| {
            let g = data.collection(&c.name)?;
            Some((c.name.clone(), bucket_disk(&g.documents).ratio()))
        })
        .collect()
}

/// Returns the storage of a design: `ratios` are the snappy ratios of [`stored_ratios`],
/// `buckets` the zstd ratios of time-series collections ([`bucket_ratios`]), which win.
pub(super) fn storage(
    data: &Dataset,
    ratios: &BTreeMap<String, f64>,
    buckets: &BTreeMap<String, f64>,
    collections: &[CollectionEval],
    ops: &[OperationEval],
    shards: u32,
    ram: u64,
) -> Storage {
    let per = collections
        .iter()
        .map(|c| {
            let docs = data
                .collection(&c.name)
                .map_or(&[][..], |g| &g.documents[..]);
            let bucket = buckets.get(&c.name).copied();
            let ratio = bucket
                .or_else(|| ratios.get(&c.name).copied())
                .unwrap_or_else(|| compression_ratio(docs));
            let total = c.stats.total_bytes;
            let mean = c.stats.mean_bytes();
            let touched_per_sec: f64 = ops
                .iter()
                .map(|o| {
                    o.typical
                        .commands
                        .iter()
                        .filter(|k| k.collection == c.name)
                        .map(|k| {
                            (k.full.docs_examined.value * mean + k.full.bytes_written.value)
                                * o.rate_per_sec
                        })
                        .sum::<f64>()
                })
                .sum();
            CollectionStorage {
                collection: c.name.clone(),
                data_bytes: Figure::estimate(total.round()),
                compression_ratio: ratio,
                block_compressor: if bucket.is_some() {
                    Codec::Zstd
                } else {
                    Codec::Snappy
                },
                column_compressed: bucket.is_some(),
                disk_bytes: Figure::estimate((total * ratio).round()),
                index_bytes: c.index_bytes,
                // `+ 0.0` turns a −0 (nothing touched) into 0.
                hot_bytes: Figure::estimate(
                    (touched_per_sec * HOT_WINDOW_SECS)
                        .min(total)
                        .max(0.0)
                        .round()
                        + 0.0,
                ),
            }
        })
        .collect::<Vec<_>>();
    let sum = |f: fn(&CollectionStorage) -> f64| per.iter().map(f).sum::<f64>();
    let data_bytes = sum(|c| c.data_bytes.value);
    let disk = sum(|c| c.disk_bytes.value);
    let index = sum(|c| c.index_bytes.value);
    let ws = sum(|c| c.hot_bytes.value) + index;
    let shards = shards.max(1);
    let per_shard = ws / f64::from(shards);
    let cache = default_cache(ram);
    Storage {
        collections: per,
        data_bytes: Figure::estimate(data_bytes),
        disk_bytes: Figure::estimate(disk),
        index_bytes: Figure::estimate(index),
        working_set: Figure::estimate(ws),
        shards,
        working_set_per_shard: Figure::estimate(per_shard.round()),
        ram_bytes: ram,
        cache_bytes: cache,
        fits_in_cache: per_shard <= cache as f64,
    }
}
