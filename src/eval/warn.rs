//! Warnings from the evaluation: queries that really scan (the winning plan is a COLLSCAN of a
//! collection large at full scale), commands that really reach every shard, and live copies
//! whose counted rewrites cost more than the reads they save. They replace the layout-only
//! versions of the same codes. And indexes no run scans ([`unused`]).

mod unused;

pub(super) use unused::unused_indexes;

use super::{CommandEval, OperationEval, Routing};
use crate::design::{CommandKind, Layout};
use crate::human::{binary_size, binary_size_f64, thousands};
use crate::model::{Model, Step};
use crate::warning::{check, Severity, Warning};

/// Codes the evaluation decides from real runs (the layout-only guesses are dropped).
pub const EVALUATED_CODES: [&str; 3] = [
    "UNINDEXED_QUERY",
    "SCATTER_GATHER",
    "LIVE_COPY_AMPLIFICATION",
];

/// A warning-severity finding of the evaluation.
fn warning(
    code: &'static str,
    collection: &str,
    path: &str,
    message: String,
    fix: &str,
) -> Warning {
    Warning::new(code, Severity::Warning, collection, path, message, fix)
}

/// Returns the rate of units that read through relationship `rel` (the reads a copy saves).
fn reads_through(model: &Model, rel: &str) -> f64 {
    model
        .workload
        .iter()
        .filter(|u| {
            u.steps.iter().any(|st| match st {
                Step::Read { children, .. } => children.iter().any(|c| c.relationship == rel),
                Step::FindParents { relationship, .. } => relationship == rel,
                _ => false,
            })
        })
        .map(|u| u.rate_per_sec)
        .sum()
}

/// Returns the layout's warnings (minus [`EVALUATED_CODES`]) plus the evaluation's.
pub(super) fn warnings(model: &Model, layout: &Layout, ops: &[OperationEval]) -> Vec<Warning> {
    let mut out: Vec<Warning> = check(model, layout)
        .into_iter()
        .filter(|w| !EVALUATED_CODES.contains(&w.code.as_ref()))
        .collect();
    for o in ops {
        for c in &o.typical.commands {
            if c.no_supporting_index {
                out.push(warning("UNINDEXED_QUERY", &c.collection, "", format!(
                    "\"{}\" runs {} as a COLLSCAN: {} documents examined per run at full scale",
                    o.unit, c.mongosh, thousands(c.full.docs_examined.value as u64)), "Create an index whose first key is the filter's equality field (the layout lists the ones the workload needs)."));
            }
            let sent = c.not_sent.is_none();
            if sent && c.kind != CommandKind::Insert && c.shards.routing == Routing::ScatterGather {
                out.push(warning("SCATTER_GATHER", &c.collection, "", format!(
                    "\"{}\" runs {} without the shard key {}: it reaches all {} shards ({}/s × {} = {} shard requests/s) and waits for the slowest",
                    o.unit, c.mongosh, c.shards.shard_key.as_ref().map(|k| k.to_string()).unwrap_or_default(), c.shards.shards, super::text::num(o.rate_per_sec), c.shards.shards, super::text::num(o.rate_per_sec * f64::from(c.shards.shards))), "Shard by the field reads filter on (e.g. owner for a fan-out-on-write feed), or include the shard key in the filter."));
            }
        }
        live_copies(model, o, &mut out);
    }
    out
}

/// Live copies: the documents an update of a copied field really rewrites, per second,
/// against the reads through the relationship the copy saves.
fn live_copies(model: &Model, o: &OperationEval, out: &mut Vec<Warning>) {
    let copies: Vec<&CommandEval> = o
        .typical
        .commands
        .iter()
        .filter(|c| c.note.starts_with("live copy"))
        .collect();
    for c in copies {
        let rel = c.note.rsplit(" via ").next().unwrap_or_default();
        let path = c
            .note
            .strip_prefix("live copy ")
            .and_then(|x| x.split(" via ").next())
            .unwrap_or_default();
        let per_update = c.full.docs_written.value;
        let largest = o
            .largest
            .commands
            .iter()
            .find(|x| x.note == c.note)
            .map_or(0.0, |x| x.full.docs_written.value);
        let writes = per_update * o.rate_per_sec;
        let reads = reads_through(model, rel);
        if writes > reads {
            out.push(warning("LIVE_COPY_AMPLIFICATION", &c.collection, path, format!(
                "\"{}\" ({}/s) rewrites {} documents per update to keep {path} live ({} for the largest parent; {:?}): {writes:.1} document writes/s to save {reads}/s reads through {rel} (read/write ratio {:.2})",
                o.unit, o.rate_per_sec, thousands(per_update as u64), thousands(largest as u64), c.full.docs_written.basis, if writes > 0.0 { reads / writes } else { 0.0 }),
                "Denormalize only read-mostly fields; keep this field by reference, or copy it as a snapshot if point-in-time is correct."));
        }
    }
}

/// Returns the warnings of the shard spread and the working set: HOT_SHARD, JUMBO_CHUNK,
/// MONOTONIC_SHARD_KEY and WORKING_SET_EXCEEDS_CACHE.
pub(super) fn cluster_warnings(
    spreads: &[super::spread::ShardSpread],
    storage: &super::memory::Storage,
) -> Vec<Warning> {
    let mut out = Vec::new();
    for s in spreads {
        if s.imbalance > super::spread::HOT_SHARD_FACTOR {
            let big = s.key.most_common.as_ref();
            out.push(warning("HOT_SHARD", &s.collection, "", format!(
                "One shard-key value ({}) holds ≈{}, {:.1}× a shard's even share of the collection: its documents cannot be split, so one of the {} shards holds them all (estimate from the sample).",
                big.map(|b| b.value.to_string()).unwrap_or_default(),
                binary_size_f64(s.per_shard.first().map_or(0.0, |p| p.bytes.value)),
                s.imbalance, s.shards),
                "Add a field to the shard key that splits a large value's documents (e.g. { owner: 1, sequence: 1 }), or bucket them."));
        }
        if s.jumbo_chunks.value >= 1.0 {
            out.push(warning("JUMBO_CHUNK", &s.collection, "", format!(
                "≈{} shard-key value(s) hold more than a chunk (128 MiB): such a chunk can never be split or moved by the balancer (estimate from the sample).",
                thousands(s.jumbo_chunks.value as u64)),
                "Choose a shard key with more distinct values per document, or add a second field to it."));
        }
        if s.key.monotonicity.monotonic {
            out.push(warning("MONOTONIC_SHARD_KEY", &s.collection, "", format!(
                "Ranged shard key {}: {}.", s.shard_key, s.key.monotonicity.reason),
                "Use a hashed shard key, or lead the key with a field that is not insertion-ordered."));
        }
    }
    if !storage.fits_in_cache {
        out.push(warning("WORKING_SET_EXCEEDS_CACHE", "", "", format!(
            "Working set ≈{} per shard (hot documents of an hour plus every index) exceeds the WiredTiger cache of {} (50% of {} of RAM − 1 GiB): reads go to disk.",
            binary_size_f64(storage.working_set_per_shard.value),
            binary_size(storage.cache_bytes), binary_size(storage.ram_bytes)),
            "Add RAM or shards, drop unused indexes, or shrink the hot documents."));
    }
    out
}
