//! Storage and memory estimates: the on-disk size of a collection under WiredTiger's block
//! compression, and the WiredTiger cache a machine gets.
//!
//! WiredTiger writes collection data in pages (leaf pages of up to 32 KB by default,
//! `leaf_page_max`) and compresses each page with the collection's block compressor: snappy by
//! default, zstd for time-series buckets (MongoDB creates `system.buckets` collections with
//! `block_compressor=zstd`, SERVER-57426, MongoDB 5.0). We approximate a page by 32 KiB of
//! concatenated BSON documents and compress each block with the same algorithm (the `snap`
//! crate's raw snappy format; `ruzstd`'s zstd encoder, see [`Codec::Zstd`]): the ratio is
//! measured on real generated documents, but page headers, free space and checkpoints are
//! ignored, so every figure here is an estimate.

use bson::Document;
use serde::{Deserialize, Serialize};

/// A WiredTiger block compressor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Codec {
    /// Raw snappy (the `snap` crate), WiredTiger's default `block_compressor`.
    #[default]
    Snappy,
    /// A zstd frame per page from `ruzstd`'s pure-Rust encoder at its `Fastest` level (about
    /// zstd's level 1: the crate implements no higher level yet). MongoDB's WiredTiger
    /// compresses zstd pages at level 6 (`zstdCompressionLevel`), so this overstates a page by
    /// the factor docs/metrics.md measures against libzstd at level 6.
    Zstd,
}

/// Bytes of BSON per compressed block: WiredTiger's default `leaf_page_max` (32 KB).
pub const PAGE_BYTES: usize = 32 * 1024;

/// 1 GiB.
pub const GIB: u64 = 1 << 30;

/// The RAM assumed when none is given: 16 GiB.
pub const DEFAULT_RAM: u64 = 16 * GIB;

/// WiredTiger's smallest default cache: 256 MiB.
pub const MIN_CACHE: u64 = 256 << 20;

/// Returns WiredTiger's default cache size for a machine with `ram` bytes of memory: the
/// larger of 50% of (RAM − 1 GB) and 256 MB (MongoDB manual,
/// `storage.wiredTiger.engineConfig.cacheSizeGB`).
pub fn default_cache(ram: u64) -> u64 {
    (ram.saturating_sub(GIB) / 2).max(MIN_CACHE)
}

/// Compresses a stream of BSON documents block by block, as WiredTiger compresses pages.
pub struct BlockCompressor {
    block: Vec<u8>,
    raw: u64,
    compressed: u64,
    codec: Codec,
    encoder: snap::raw::Encoder,
    pages: Option<Vec<Vec<u8>>>,
}

impl std::fmt::Debug for BlockCompressor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BlockCompressor")
            .field("raw", &self.raw)
            .field("compressed", &self.compressed)
            .field("codec", &self.codec)
            .finish()
    }
}

impl Default for BlockCompressor {
    fn default() -> Self {
        Self::new()
    }
}

impl BlockCompressor {
    /// Returns an empty snappy compressor.
    pub fn new() -> Self {
        Self::with_codec(Codec::Snappy)
    }

    /// Returns an empty compressor with `codec`.
    pub fn with_codec(codec: Codec) -> Self {
        BlockCompressor {
            block: Vec::with_capacity(PAGE_BYTES * 2),
            raw: 0,
            compressed: 0,
            codec,
            encoder: snap::raw::Encoder::new(),
            pages: None,
        }
    }

    /// Keeps a copy of every uncompressed page, for [`Self::finish_pages`] (to compare the
    /// compressor with another implementation on the very same bytes).
    pub fn keep_pages(mut self) -> Self {
        self.pages = Some(Vec::new());
        self
    }

    /// Adds one encoded document; a block is compressed once it reaches [`PAGE_BYTES`].
    pub fn push(&mut self, bson: &[u8]) {
        self.raw = self.raw.saturating_add(bson.len() as u64);
        self.block.extend_from_slice(bson);
        if self.block.len() >= PAGE_BYTES {
            self.flush();
        }
    }

    /// Adds one document (encoded here).
    pub fn push_document(&mut self, doc: &Document) {
        let mut bytes = Vec::new();
        if doc.to_writer(&mut bytes).is_ok() {
            self.push(&bytes);
        }
    }

    fn flush(&mut self) {
        if self.block.is_empty() {
            return;
        }
        let n = match self.codec {
            Codec::Snappy => match self.encoder.compress_vec(&self.block) {
                Ok(v) => v.len(),
                Err(_) => self.block.len(),
            },
            Codec::Zstd => ruzstd::encoding::compress_to_vec(
                self.block.as_slice(),
                ruzstd::encoding::CompressionLevel::Fastest,
            )
            .len(),
        };
        if let Some(pages) = self.pages.as_mut() {
            pages.push(self.block.clone());
        }
        self.compressed = self.compressed.saturating_add(n as u64);
        self.block.clear();
    }

    /// Returns (BSON bytes, compressed bytes) of everything pushed.
    pub fn finish(mut self) -> (u64, u64) {
        self.flush();
        (self.raw, self.compressed)
    }

    /// Returns (BSON bytes, compressed bytes, the uncompressed pages) of everything pushed (no
    /// pages unless [`Self::keep_pages`]).
    pub fn finish_pages(mut self) -> (u64, u64, Vec<Vec<u8>>) {
        self.flush();
        (self.raw, self.compressed, self.pages.unwrap_or_default())
    }
}

/// Returns compressed bytes ÷ BSON bytes of `docs` compressed in 32 KiB blocks (1.0 when
/// there is nothing to measure).
pub fn compression_ratio<'a>(docs: impl IntoIterator<Item = &'a Document>) -> f64 {
    let mut c = BlockCompressor::new();
    for d in docs {
        c.push_document(d);
    }
    let (raw, compressed) = c.finish();
    if raw == 0 {
        1.0
    } else {
        compressed as f64 / raw as f64
    }
}

/// Returns [`compression_ratio`] of documents already encoded (the engine's stored bytes:
/// no document is encoded again).
pub fn compression_ratio_of_bytes<'a>(docs: impl IntoIterator<Item = &'a [u8]>) -> f64 {
    let mut c = BlockCompressor::new();
    for d in docs {
        c.push(d);
    }
    let (raw, compressed) = c.finish();
    if raw == 0 {
        1.0
    } else {
        compressed as f64 / raw as f64
    }
}

/// The disk figures of a time-series collection's buckets.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BucketDisk {
    /// BSON bytes of the buckets as the sample holds them (version 1, uncompressed: the size
    /// in memory).
    pub uncompressed: u64,
    /// BSON bytes of the same buckets with their columns compressed (version 2).
    pub column_compressed: u64,
    /// Bytes of the version-2 buckets compressed with zstd in 32 KiB blocks: on disk.
    pub on_disk: u64,
}

impl BucketDisk {
    /// On-disk bytes ÷ uncompressed bytes (1.0 when there is nothing to measure).
    pub fn ratio(&self) -> f64 {
        if self.uncompressed == 0 {
            1.0
        } else {
            self.on_disk as f64 / self.uncompressed as f64
        }
    }
}

/// Returns the disk figures of version-1 time-series `buckets`: each bucket's columns
/// compressed as the server does (bucket version 2,
/// [`crate::size::timeseries::compressed_bucket`]), then the pages compressed with zstd
/// ([`Codec::Zstd`]), as MongoDB stores `system.buckets` collections.
pub fn bucket_disk<'a>(buckets: impl IntoIterator<Item = &'a Document>) -> BucketDisk {
    bucket_disk_pages(buckets, false).0
}

/// [`bucket_disk`], and the uncompressed version-2 pages when `keep` (for comparing the zstd
/// encoder with libzstd on the same bytes).
pub fn bucket_disk_pages<'a>(
    buckets: impl IntoIterator<Item = &'a Document>,
    keep: bool,
) -> (BucketDisk, Vec<Vec<u8>>) {
    let mut c = BlockCompressor::with_codec(Codec::Zstd);
    if keep {
        c = c.keep_pages();
    }
    let mut uncompressed: u64 = 0;
    for b in buckets {
        uncompressed = uncompressed.saturating_add(crate::size::document_size(b));
        match crate::size::timeseries::compressed_bucket(b) {
            Some(v2) => c.push_document(&v2),
            None => c.push_document(b),
        }
    }
    let (column_compressed, on_disk, pages) = c.finish_pages();
    (
        BucketDisk {
            uncompressed,
            column_compressed,
            on_disk,
        },
        pages,
    )
}

/// Parses a memory size: `16GiB`, `512MiB`, `16GB` (taken as GiB, as `cacheSizeGB` does),
/// `64g`, or a plain number of bytes.
pub fn parse_bytes(text: &str) -> Option<u64> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let n: f64 = num.parse().ok()?;
    let k: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        "t" | "tb" | "tib" => 1 << 40,
        _ => return None,
    };
    let v = n * k as f64;
    (0.0..1e18).contains(&v).then_some(v as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_is_half_of_ram_less_one_gib_at_least_256_mib() {
        assert_eq!(default_cache(16 * GIB), 7 * GIB + GIB / 2);
        assert_eq!(default_cache(GIB), MIN_CACHE);
        assert_eq!(default_cache(2 * GIB), GIB / 2);
    }

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_bytes("16GiB"), Some(16 * GIB));
        assert_eq!(parse_bytes("512MiB"), Some(512 << 20));
        assert_eq!(parse_bytes("1.5g"), Some(GIB + GIB / 2));
        assert_eq!(parse_bytes("1000"), Some(1000));
        assert_eq!(parse_bytes("lots"), None);
    }

    #[test]
    fn repetitive_documents_compress_random_ones_do_not() {
        let text: Vec<Document> = (0..2000)
            .map(|i| bson::doc! { "i": i, "t": "lorem ipsum dolor sit amet ".repeat(8) })
            .collect();
        let r = compression_ratio(&text);
        assert!(r < 0.3, "{r}");
        let mut x: u64 = 88_172_645_463_325_252;
        let random: Vec<Document> = (0..2000)
            .map(|_| {
                let bytes: Vec<u8> = (0..200)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        (x & 0xff) as u8
                    })
                    .collect();
                bson::doc! { "b": bson::Binary { subtype: bson::spec::BinarySubtype::Generic, bytes } }
            })
            .collect();
        let r = compression_ratio(&random);
        assert!(r > 0.9, "{r}");
    }
}
