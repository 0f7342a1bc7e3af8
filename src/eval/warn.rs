//! Warnings from the evaluation: queries that really scan (the winning plan is a COLLSCAN of a
//! collection large at full scale), commands that really reach every shard, and live copies
//! whose counted rewrites cost more than the reads they save. They replace the layout-only
//! versions of the same codes. And indexes no run scans ([`unused`]).

mod case_insensitive;
mod unused;

pub(super) use unused::unused_indexes;

use super::{CommandEval, OperationEval, Routing};
use crate::design::{CommandKind, Layout};
use crate::human::{binary_size, binary_size_f64, thousands};
use crate::lang::Text;
use crate::model::{Model, Step};
use crate::stats::CollectionStats;
use crate::warning::{check_with_stats, Severity, Warning};

/// Codes the evaluation decides from real runs (the layout-only guesses are dropped).
pub const EVALUATED_CODES: [&str; 3] = [
    "UNINDEXED_QUERY",
    "SCATTER_GATHER",
    "LIVE_COPY_AMPLIFICATION",
];

/// A warning-severity finding of the evaluation.
fn warning(code: &'static str, collection: &str, path: &str, message: Text, fix: Text) -> Warning {
    Warning::localized(code, Severity::Warning, collection, path, message, fix)
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

/// Returns the layout's warnings (minus [`EVALUATED_CODES`]) plus the evaluation's; `stats`
/// are the evaluation's statistics of the layout's collections.
pub(super) fn warnings(
    model: &Model,
    layout: &Layout,
    stats: &[CollectionStats],
    ops: &[OperationEval],
) -> Vec<Warning> {
    let mut out: Vec<Warning> = check_with_stats(model, layout, stats)
        .into_iter()
        .filter(|w| !EVALUATED_CODES.contains(&w.code.as_ref()))
        .collect();
    for o in ops {
        for c in &o.typical.commands {
            if c.no_supporting_index {
                out.push(warning(
                    "UNINDEXED_QUERY",
                    &c.collection,
                    "",
                    Text::new("unindexed-query-run")
                        .arg("unit", &o.unit)
                        .arg("command", &c.mongosh)
                        .arg("examined", thousands(c.full.docs_examined.value as u64)),
                    Text::new("unindexed-query-run-fix"),
                ));
            }
            let sent = c.not_sent.is_none();
            if sent && c.kind != CommandKind::Insert && c.shards.routing == Routing::ScatterGather {
                out.push(warning(
                    "SCATTER_GATHER",
                    &c.collection,
                    "",
                    Text::new("scatter-gather-run")
                        .arg("unit", &o.unit)
                        .arg("command", &c.mongosh)
                        .arg(
                            "shard_key",
                            c.shards
                                .shard_key
                                .as_ref()
                                .map(|k| k.to_string())
                                .unwrap_or_default(),
                        )
                        .arg("shards", c.shards.shards)
                        .arg("rate", super::text::num(o.rate_per_sec))
                        .arg(
                            "requests",
                            super::text::num(o.rate_per_sec * f64::from(c.shards.shards)),
                        ),
                    Text::new("scatter-gather-fix"),
                ));
            }
        }
        live_copies(model, o, &mut out);
        case_insensitive::case_insensitive(model, o, &mut out);
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
            let basis = match c.full.docs_written.basis {
                super::Basis::Sample => "basis-sample",
                super::Basis::FullScale => "basis-full-scale",
                super::Basis::Estimate => "basis-estimate",
            };
            out.push(warning(
                "LIVE_COPY_AMPLIFICATION",
                &c.collection,
                path,
                Text::new("live-copy-amplification-run")
                    .arg("unit", &o.unit)
                    .arg("rate", o.rate_per_sec)
                    .arg("per_update", thousands(per_update as u64))
                    .arg("path", path)
                    .arg("largest", thousands(largest as u64))
                    .nested("basis", Text::new(basis))
                    .arg("writes", format!("{writes:.1}"))
                    .arg("reads", reads)
                    .arg("relationship", rel)
                    .arg(
                        "ratio",
                        format!("{:.2}", if writes > 0.0 { reads / writes } else { 0.0 }),
                    ),
                Text::new("live-copy-amplification-fix"),
            ));
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
            out.push(warning(
                "HOT_SHARD",
                &s.collection,
                "",
                Text::new("hot-shard")
                    .arg(
                        "value",
                        big.map(|b| b.value.to_string()).unwrap_or_default(),
                    )
                    .arg(
                        "bytes",
                        binary_size_f64(s.per_shard.first().map_or(0.0, |p| p.bytes.value)),
                    )
                    .arg("factor", format!("{:.1}", s.imbalance))
                    .arg("shards", s.shards),
                Text::new("hot-shard-fix"),
            ));
        }
        if s.jumbo_chunks.value >= 1.0 {
            out.push(warning(
                "JUMBO_CHUNK",
                &s.collection,
                "",
                Text::new("jumbo-chunk").arg("count", thousands(s.jumbo_chunks.value as u64)),
                Text::new("jumbo-chunk-fix"),
            ));
        }
        if s.key.monotonicity.monotonic {
            out.push(warning(
                "MONOTONIC_SHARD_KEY",
                &s.collection,
                "",
                Text::new("monotonic-shard-key")
                    .arg("shard_key", &s.shard_key)
                    .arg("field", &s.key.monotonicity.field)
                    .nested(
                        "why",
                        Text::new(s.key.monotonicity.why.map_or("nothing", |g| g.message_id())),
                    ),
                Text::new("monotonic-shard-key-fix"),
            ));
        }
    }
    if !storage.fits_in_cache {
        out.push(warning(
            "WORKING_SET_EXCEEDS_CACHE",
            "",
            "",
            Text::new("working-set-exceeds-cache")
                .arg(
                    "working_set",
                    binary_size_f64(storage.working_set_per_shard.value),
                )
                .arg("cache", binary_size(storage.cache_bytes))
                .arg("ram", binary_size(storage.ram_bytes)),
            Text::new("working-set-exceeds-cache-fix"),
        ));
    }
    out
}
