//! How a sharded collection's documents and bytes spread over the shards, and an offline
//! shard-key report in the spirit of MongoDB's `analyzeShardKey` (cardinality, frequency,
//! monotonicity, and the share of the workload's reads that reach one shard).
//!
//! The spread is an estimate from the sample: the balancer evens out data by size, so every
//! shard holds its share of the collection, except that the documents of one shard-key value
//! can never be split (one chunk, on one shard): a value larger than a shard's share makes
//! that shard hot, and a value larger than the chunk size (128 MiB) is a jumbo chunk. The
//! largest value's size is its sample documents scaled to full scale.

use std::collections::BTreeMap;

use bson::{Bson, Document};
use serde::{Deserialize, Serialize};

use super::{Figure, OperationEval, Routing};
use crate::design::{CommandKind, Layout};
use crate::generate::Dataset;
use crate::model::field::{BsonType, ValueKind};
use crate::model::Model;
use crate::stats::CollectionStats;

/// MongoDB's default chunk size since 6.0: 128 MiB.
pub const CHUNK_BYTES: f64 = 128.0 * 1024.0 * 1024.0;

/// A shard is hot when it holds more than this many times its even share.
pub const HOT_SHARD_FACTOR: f64 = 1.5;

/// One shard's part of a collection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShardShare {
    /// Shard number (0-based; shard 0 holds the largest shard-key value).
    pub shard: u32,
    /// Documents at full scale.
    pub documents: Figure,
    /// BSON bytes at full scale.
    pub bytes: Figure,
}

/// Share of the workload's commands on a collection by how they reach the shards, weighted
/// by rate (`analyzeShardKey`'s `readDistribution` / `writeDistribution`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Distribution {
    /// Commands per second in all.
    pub per_sec: f64,
    /// Share that reaches one shard (targeted).
    pub single_shard: f64,
    /// Share that reaches several shards, each targeted.
    pub multi_shard: f64,
    /// Share that reaches every shard (scatter-gather).
    pub scatter_gather: f64,
}

/// The most common shard-key value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CommonValue {
    /// The value (relaxed Extended JSON of the key's fields).
    pub value: serde_json::Value,
    /// Its share of the sample's documents.
    pub share: f64,
    /// Its documents at full scale.
    pub documents: Figure,
    /// Its bytes at full scale.
    pub bytes: Figure,
}

/// Whether the shard key grows with insertion order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Monotonicity {
    /// True when new documents always get the largest key (ranged keys only).
    pub monotonic: bool,
    /// Why.
    pub reason: String,
    /// The key's first field, the one `reason` is about.
    #[serde(default)]
    pub field: String,
    /// Why it grows with insertion order, when it does (the warning's text says it in any
    /// language).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<Growth>,
}

/// Why a shard key's first field grows with insertion order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Growth {
    /// An ObjectId `_id`: its first four bytes are its creation time.
    ObjectId,
    /// A date or timestamp of creation.
    Date,
    /// A sequence number.
    Sequence,
}

impl Growth {
    /// Returns the id of the message that says it (`locales/*/messages.ftl`).
    pub fn message_id(self) -> &'static str {
        match self {
            Growth::ObjectId => "monotonic-object-id",
            Growth::Date => "monotonic-date",
            Growth::Sequence => "monotonic-sequence",
        }
    }
}

/// The shard-key report of one collection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KeyReport {
    /// Distinct shard-key values in the sample.
    pub sample_cardinality: u64,
    /// Distinct values at full scale.
    pub cardinality: Figure,
    /// The most frequent value.
    pub most_common: Option<CommonValue>,
    /// Whether the key is monotonically increasing.
    pub monotonicity: Monotonicity,
    /// How the workload's reads reach the shards.
    pub reads: Distribution,
    /// How the workload's writes reach the shards.
    pub writes: Distribution,
}

/// How one sharded collection spreads over the shards.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShardSpread {
    /// Collection.
    pub collection: String,
    /// The shard key.
    pub shard_key: serde_json::Value,
    /// True for a hashed key.
    pub hashed: bool,
    /// Shards.
    pub shards: u32,
    /// Each shard's part, shard 0 first.
    pub per_shard: Vec<ShardShare>,
    /// Largest shard's bytes ÷ an even share (1.0 = perfectly even).
    pub imbalance: f64,
    /// Chunks at full scale (bytes ÷ 128 MiB, at least 2 per shard for hashed keys).
    pub chunks: Figure,
    /// Shard-key values larger than a chunk: chunks that can never be split or moved.
    pub jumbo_chunks: Figure,
    /// The shard-key report.
    pub key: KeyReport,
}

/// Returns the spread of every sharded collection of the layout (`stats`: the statistics of
/// its collections, in layout order).
pub(super) fn spreads(
    model: &Model,
    layout: &Layout,
    data: &Dataset,
    stats: &[CollectionStats],
    ops: &[OperationEval],
) -> Vec<ShardSpread> {
    let shards = model.sharding.as_ref().map_or(1, |s| s.shards.max(1));
    if shards < 2 {
        return Vec::new();
    }
    layout
        .collections
        .iter()
        .zip(stats)
        .filter_map(|(c, st)| {
            let key = c.shard_key.as_ref()?;
            let docs = data
                .collection(&c.name)
                .map_or(&[][..], |g| &g.documents[..]);
            let full_docs = c.count();
            let full_bytes = st.total_bytes;
            let sample = Sharded {
                model,
                layout,
                collection: &c.name,
                key,
                docs,
                full_docs,
            };
            Some(spread(&sample, full_bytes, shards, ops))
        })
        .collect()
}

/// Returns the value of the shard key's fields in `d` (missing fields as null).
fn key_value(key: &Document, d: &Document) -> Document {
    key.keys()
        .map(|f| {
            let v = crate::engine::path::get(d, &crate::engine::path::split(f))
                .cloned()
                .unwrap_or(Bson::Null);
            (f.clone(), v)
        })
        .collect()
}

/// One sharded collection's sample, as its spread reads it.
#[derive(Clone, Copy)]
struct Sharded<'a> {
    model: &'a Model,
    layout: &'a Layout,
    /// The collection's name.
    collection: &'a str,
    /// Its shard key.
    key: &'a Document,
    /// Its sample's documents.
    docs: &'a [Document],
    /// Its documents at full scale.
    full_docs: f64,
}

/// Returns how the collection of `sample` (`full_bytes` at full scale) spreads over `shards`
/// shards, and how the workload's `ops` reach them.
fn spread(
    sample: &Sharded<'_>,
    full_bytes: f64,
    shards: u32,
    ops: &[OperationEval],
) -> ShardSpread {
    let Sharded {
        model,
        layout,
        collection,
        key,
        full_docs,
        ..
    } = *sample;
    let hashed = key.values().any(|v| v.as_str() == Some("hashed"));
    let groups = KeyGroups::of(sample);
    let distinct = groups.values.len() as u64;
    let mean_bytes = if full_docs > 0.0 {
        full_bytes / full_docs
    } else {
        0.0
    };
    // A key that is exactly the parent reference of a one-to-many relationship: the largest
    // value holds the largest parent's children (the celebrity), from the distribution.
    let parent = parent_of(model, layout, collection, key);
    let cardinality = match &parent {
        Some((_, parents)) => parents.min(full_docs.max(1.0)),
        None => (distinct as f64 * groups.ratio)
            .min(full_docs.max(1.0))
            .round(),
    };
    let (big_docs, big_bytes) = match &parent {
        Some((card, _)) => {
            let n = card.quantile(1.0).max(0.0).min(full_docs);
            (n, n * mean_bytes)
        }
        None => groups.largest(),
    };
    // Shard 0 holds the largest value (it cannot be split); the balancer evens out the rest.
    let even_bytes = full_bytes / f64::from(shards);
    let even_docs = full_docs / f64::from(shards);
    let first_bytes = even_bytes.max(big_bytes).min(full_bytes);
    let first_docs = if big_bytes > even_bytes {
        big_docs.min(full_docs)
    } else {
        even_docs
    };
    // With a parent-reference key the most common value is the largest parent.
    let most_common = groups.most_common().map(|mut c| {
        if parent.is_some() {
            c.documents = Figure::estimate(big_docs.round());
            c.bytes = Figure::estimate(big_bytes.round());
        }
        c
    });
    let chunk_floor = if hashed { 2.0 * f64::from(shards) } else { 1.0 };
    let jumbo = match &parent {
        Some((card, parents)) if mean_bytes > 0.0 => {
            parents * share_above(card, CHUNK_BYTES / mean_bytes)
        }
        Some(_) => 0.0,
        None => groups.jumbo_values(),
    };
    ShardSpread {
        collection: collection.to_string(),
        shard_key: crate::design::plan::doc_to_json(key),
        hashed,
        shards,
        per_shard: shares(shards, (first_docs, first_bytes), (full_docs, full_bytes)),
        imbalance: if even_bytes > 0.0 {
            first_bytes / even_bytes
        } else {
            1.0
        },
        chunks: Figure::estimate((full_bytes / CHUNK_BYTES).ceil().max(chunk_floor)),
        jumbo_chunks: Figure::estimate(jumbo.round().min(cardinality)),
        key: KeyReport {
            sample_cardinality: distinct,
            cardinality: Figure::estimate(cardinality),
            most_common,
            monotonicity: monotonicity(layout, collection, key, hashed),
            reads: distribution(ops, collection, true),
            writes: distribution(ops, collection, false),
        },
    }
}

/// Returns each shard's share of `full` (documents, bytes): shard 0 holds `first`, the
/// others the rest evenly.
fn shares(shards: u32, first: (f64, f64), full: (f64, f64)) -> Vec<ShardShare> {
    let (first_docs, first_bytes) = first;
    let (full_docs, full_bytes) = full;
    let rest = f64::from(shards - 1);
    (0..shards)
        .map(|i| {
            let (d, b) = if i == 0 {
                (first_docs, first_bytes)
            } else {
                (
                    (full_docs - first_docs).max(0.0) / rest,
                    (full_bytes - first_bytes).max(0.0) / rest,
                )
            };
            ShardShare {
                shard: i,
                documents: Figure::estimate(d.round()),
                bytes: Figure::estimate(b.round()),
            }
        })
        .collect()
}

/// The sample grouped by shard-key value, and how many full-scale values and documents one
/// sample value and document stand for.
struct KeyGroups {
    /// Each value (by its canonical Extended JSON): the key's fields, documents, bytes.
    values: BTreeMap<String, (Document, u64, u64)>,
    /// The sample's documents (at least 1).
    n: f64,
    /// Full-scale values one sample value stands for (at least 1).
    ratio: f64,
    /// Full-scale documents one sample document stands for.
    per_sample_doc: f64,
}

impl KeyGroups {
    /// Groups the documents of `sample` by its shard key.
    fn of(sample: &Sharded<'_>) -> Self {
        let Sharded {
            model,
            layout,
            collection,
            key,
            docs,
            full_docs,
        } = *sample;
        let n = docs.len().max(1) as f64;
        let mut values: BTreeMap<String, (Document, u64, u64)> = BTreeMap::new();
        for d in docs {
            let v = key_value(key, d);
            let text = crate::ejson::to_canonical_ejson(&v);
            let e = values.entry(text).or_insert((v, 0, 0));
            e.1 += 1;
            e.2 += crate::size::document_size(d);
        }
        // How many full-scale values one sample value stands for: all documents distinct →
        // one per document; a reference to an entity → that entity's full ÷ sampled count;
        // else 1.
        let ratio = if values.len() as f64 >= n && n > 0.0 {
            full_docs / n
        } else {
            ref_ratio(model, layout, collection, key).unwrap_or(1.0)
        }
        .max(1.0);
        KeyGroups {
            values,
            n,
            ratio,
            per_sample_doc: full_docs / n,
        }
    }

    /// Returns `x` (a value's sample documents or bytes) at full scale.
    fn full(&self, x: u64) -> f64 {
        x as f64 * self.per_sample_doc / self.ratio
    }

    /// Returns the largest value's documents and bytes at full scale (the most bytes, then
    /// the most documents).
    fn largest(&self) -> (f64, f64) {
        self.values
            .values()
            .max_by(|a, b| a.2.cmp(&b.2).then(a.1.cmp(&b.1)))
            .map_or((0.0, 0.0), |g| (self.full(g.1), self.full(g.2)))
    }

    /// Returns the value most documents hold, with its share of the sample.
    fn most_common(&self) -> Option<CommonValue> {
        self.values
            .values()
            .max_by_key(|g| g.1)
            .map(|g| CommonValue {
                value: serde_json::from_str(&crate::ejson::to_relaxed_ejson(&g.0))
                    .unwrap_or(serde_json::Value::Null),
                share: g.1 as f64 / self.n,
                documents: Figure::estimate(self.full(g.1).round()),
                bytes: Figure::estimate(self.full(g.2).round()),
            })
    }

    /// Returns the full-scale values whose bytes pass a chunk (each a jumbo chunk).
    fn jumbo_values(&self) -> f64 {
        self.values
            .values()
            .filter(|g| self.full(g.2) > CHUNK_BYTES)
            .count() as f64
            * self.ratio
    }
}

/// Returns the cardinality distribution and full-scale parent count of the one-to-many
/// relationship whose parent reference is the whole shard key (hashed or ranged).
fn parent_of(
    model: &Model,
    layout: &Layout,
    collection: &str,
    key: &Document,
) -> Option<(crate::model::Distribution, f64)> {
    let mut fields = key.keys();
    let (first, None) = (fields.next()?, fields.next()) else {
        return None;
    };
    let c = layout.collection(collection)?;
    let r = model.relationships.iter().find(|r| {
        !r.many_to_many
            && r.parent_ref() == *first
            && c.shapes
                .iter()
                .any(|s| s.entity.as_deref() == Some(r.child.as_str()))
    })?;
    Some((r.cardinality.clone(), model.entity(&r.parent)?.count))
}

/// Returns the share of a distribution's values above `x` (by bisection on its quantiles).
fn share_above(d: &crate::model::Distribution, x: f64) -> f64 {
    if d.quantile(1.0) <= x {
        return 0.0;
    }
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..60 {
        let mid = (lo + hi) / 2.0;
        if d.quantile(mid) > x {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    // At least the largest parent.
    (1.0 - hi).max(0.0)
}

/// Returns full ÷ sampled count of the entity the key's first field references, if it does.
fn ref_ratio(model: &Model, layout: &Layout, collection: &str, key: &Document) -> Option<f64> {
    let first = key.keys().next()?;
    let c = layout.collection(collection)?;
    let f = c.shapes.iter().find_map(|s| s.fields.get(first))?;
    if f.ty != BsonType::ObjectId {
        return None;
    }
    // The entity: a relationship whose parent or child reference (or feed author / owner)
    // this field is.
    let entity = model.relationships.iter().find_map(|r| {
        if *first == r.parent_ref() || (r.feed.is_some() && (first == "owner" || first == "author"))
        {
            Some(r.parent.clone())
        } else if *first == crate::design::names::child_ref(r) {
            Some(r.child.clone())
        } else {
            None
        }
    })?;
    let e = model.entity(&entity)?;
    let sampled = model.sample.sample_count(e.count).max(1) as f64;
    Some(e.count / sampled)
}

/// Returns whether the key's first field grows with insertion order: an ObjectId `_id`
/// (its first bytes are a timestamp), a date or timestamp, or a sequence number.
fn monotonicity(layout: &Layout, collection: &str, key: &Document, hashed: bool) -> Monotonicity {
    let Some(first) = key.keys().next() else {
        return Monotonicity {
            monotonic: false,
            reason: "no shard key".into(),
            field: String::new(),
            why: None,
        };
    };
    let field = layout
        .collection(collection)
        .and_then(|c| c.shapes.iter().find_map(|s| s.fields.get(first)));
    let why = match field {
        _ if first == "_id" && field.is_none_or(|f| f.ty == BsonType::ObjectId) => Some((
            "an ObjectId _id starts with its creation time",
            Growth::ObjectId,
        )),
        Some(f) if matches!(f.ty, BsonType::Date | BsonType::Timestamp) => {
            Some(("a creation date or timestamp grows with time", Growth::Date))
        }
        Some(f) if f.kind == Some(ValueKind::Sequence) => {
            Some(("a sequence number only grows", Growth::Sequence))
        }
        _ => None,
    };
    match (why, hashed) {
        (Some((w, id)), false) => Monotonicity {
            monotonic: true,
            reason: format!("{first}: {w}: every insert goes to the last chunk, on one shard"),
            field: first.to_string(),
            why: Some(id),
        },
        (Some((w, id)), true) => Monotonicity {
            monotonic: false,
            reason: format!("{first}: {w}, but hashing spreads the inserts"),
            field: first.to_string(),
            why: Some(id),
        },
        (None, _) => Monotonicity {
            monotonic: false,
            reason: format!("{first}: not insertion-ordered"),
            field: first.to_string(),
            why: None,
        },
    }
}

/// Returns the rate-weighted routing of the workload's reads (or writes) on `collection`.
fn distribution(ops: &[OperationEval], collection: &str, reads: bool) -> Distribution {
    let mut d = Distribution::default();
    for o in ops {
        for c in o
            .typical
            .commands
            .iter()
            // A command not sent reaches no shard.
            .filter(|c| c.collection == collection && c.not_sent.is_none())
        {
            let is_read = matches!(c.kind, CommandKind::Find | CommandKind::Aggregate);
            if is_read != reads {
                continue;
            }
            d.per_sec += o.rate_per_sec;
            match c.shards.routing {
                Routing::Unsharded | Routing::Targeted => d.single_shard += o.rate_per_sec,
                Routing::Multi => d.multi_shard += o.rate_per_sec,
                Routing::ScatterGather => d.scatter_gather += o.rate_per_sec,
            }
        }
    }
    if d.per_sec > 0.0 {
        d.single_shard /= d.per_sec;
        d.multi_shard /= d.per_sec;
        d.scatter_gather /= d.per_sec;
    }
    d
}
