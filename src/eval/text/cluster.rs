//! The cluster sections of a report: each sharded collection's spread over the shards and
//! its shard key's quality, then the storage and whether the working set fits the cache.

use std::fmt::Write as _;

use super::{fig_in, human_bytes, num, say, say_with};
use crate::eval::memory::Storage;
use crate::eval::spread::{KeyReport, ShardSpread};
use crate::eval::Evaluation;
use crate::lang::Lang;

/// Writes the shard spread, shard-key report and storage sections of a report.
pub(super) fn cluster_report(s: &mut String, e: &Evaluation, lang: Lang) {
    for sp in &e.sharding {
        sharding_section(s, sp, lang);
    }
    storage_section(s, &e.storage, lang);
}

/// Writes one sharded collection's section: its key, the documents and bytes per shard, the
/// balance, then the key's quality.
fn sharding_section(s: &mut String, sp: &ShardSpread, lang: Lang) {
    let _ = writeln!(
        s,
        "\n{}",
        say_with(
            lang,
            "cli-sharding",
            &[
                ("collection", sp.collection.clone()),
                ("key", sp.shard_key.to_string()),
                (
                    "hashed",
                    if sp.hashed {
                        say(lang, "cli-hashed")
                    } else {
                        String::new()
                    }
                ),
                ("shards", sp.shards.to_string()),
            ]
        )
    );
    for p in &sp.per_shard {
        let _ = writeln!(
            s,
            "  {}",
            say_with(
                lang,
                "cli-shard",
                &[
                    ("shard", p.shard.to_string()),
                    ("documents", fig_in(p.documents, lang)),
                    ("bytes", human_bytes(p.bytes.value)),
                ]
            )
        );
    }
    let _ = writeln!(
        s,
        "  {}",
        say_with(
            lang,
            "cli-shard-balance",
            &[
                ("imbalance", format!("{:.2}", sp.imbalance)),
                ("chunks", fig_in(sp.chunks, lang)),
                ("jumbo", fig_in(sp.jumbo_chunks, lang)),
            ]
        )
    );
    shard_key_lines(s, &sp.key, lang);
}

/// Writes a shard key's quality: its cardinality, most common value and monotonicity, then
/// how the reads and the writes spread (single shard, several, every shard).
fn shard_key_lines(s: &mut String, k: &KeyReport, lang: Lang) {
    let _ = writeln!(
        s,
        "  {}",
        say_with(
            lang,
            if k.monotonicity.monotonic {
                "cli-shard-key-monotonic"
            } else {
                "cli-shard-key-not-monotonic"
            },
            &[
                ("cardinality", fig_in(k.cardinality, lang)),
                ("sample", k.sample_cardinality.to_string()),
                (
                    "common",
                    k.most_common
                        .as_ref()
                        .map(|c| c.value.to_string())
                        .unwrap_or_default()
                ),
                (
                    "share",
                    format!(
                        "{:.2}",
                        k.most_common.as_ref().map_or(0.0, |c| c.share * 100.0)
                    )
                ),
                (
                    "documents",
                    k.most_common
                        .as_ref()
                        .map(|c| fig_in(c.documents, lang))
                        .unwrap_or_default()
                ),
                ("reason", k.monotonicity.reason.to_string()),
            ]
        )
    );
    for (what, d) in [
        ("cli-spread-reads", k.reads),
        ("cli-spread-writes", k.writes),
    ] {
        if d.per_sec > 0.0 {
            let _ = writeln!(
                s,
                "  {}",
                say_with(
                    lang,
                    what,
                    &[
                        ("rate", num(d.per_sec)),
                        ("single", format!("{:.1}", d.single_shard * 100.0)),
                        ("multi", format!("{:.1}", d.multi_shard * 100.0)),
                        ("scatter", format!("{:.1}", d.scatter_gather * 100.0)),
                    ]
                )
            );
        }
    }
}

/// Writes the storage section: each collection's data, disk and index bytes, then the total
/// and whether the working set fits the cache.
fn storage_section(s: &mut String, st: &Storage, lang: Lang) {
    let _ = writeln!(s, "\n{}", say(lang, "cli-storage"));
    for c in &st.collections {
        let _ = writeln!(
            s,
            "  {}",
            say_with(
                lang,
                "cli-storage-collection",
                &[
                    ("collection", c.collection.clone()),
                    ("data", human_bytes(c.data_bytes.value)),
                    ("disk", human_bytes(c.disk_bytes.value)),
                    ("ratio", format!("{:.2}", c.compression_ratio)),
                    ("indexes", human_bytes(c.index_bytes.value)),
                    ("hot", human_bytes(c.hot_bytes.value)),
                ]
            )
        );
    }
    let _ = writeln!(
        s,
        "  {}",
        say_with(
            lang,
            if st.fits_in_cache {
                "cli-storage-total-fits"
            } else {
                "cli-storage-total-exceeds"
            },
            &[
                ("data", human_bytes(st.data_bytes.value)),
                ("disk", human_bytes(st.disk_bytes.value)),
                ("indexes", human_bytes(st.index_bytes.value)),
                ("working_set", human_bytes(st.working_set.value)),
                ("per_shard", human_bytes(st.working_set_per_shard.value)),
                ("shards", st.shards.to_string()),
                ("cache", human_bytes(st.cache_bytes as f64)),
                ("ram", human_bytes(st.ram_bytes as f64)),
            ]
        )
    );
}
