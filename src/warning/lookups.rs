//! MongoDB's "reduce `$lookup` operations" anti-pattern: a workload read that joins another
//! collection with `$lookup` on every call, often, while the joined documents change rarely,
//! so copying what it reads into the document read (embed, extended reference) costs less
//! than joining it each time (article 002's read/write ratio).

use std::collections::BTreeMap;

use super::{Severity, Warning};
use crate::design::{CommandKind, Layout};

/// The `$lookup` rate from which a read is a hot path: once a second.
pub const HOT_LOOKUPS_PER_SEC: f64 = 1.0;

/// Returns one `EXCESSIVE_LOOKUP` per workload unit and joined collection whose `$lookup`s run
/// at least [`HOT_LOOKUPS_PER_SEC`] and more often than the workload writes that collection.
pub fn check(layout: &Layout) -> Vec<Warning> {
    let mut writes: BTreeMap<&str, f64> = BTreeMap::new();
    for u in &layout.plan.units {
        for c in &u.commands {
            if matches!(
                c.kind,
                CommandKind::Insert | CommandKind::Update | CommandKind::Delete
            ) {
                *writes.entry(c.collection.as_str()).or_default() += u.rate_per_sec;
            }
        }
    }
    let mut out = Vec::new();
    for u in &layout.plan.units {
        let mut joined: BTreeMap<&str, u64> = BTreeMap::new();
        for c in u
            .commands
            .iter()
            .filter(|c| c.kind == CommandKind::Aggregate)
        {
            for from in c
                .pipeline
                .iter()
                .filter_map(|s| s.get_document("$lookup").ok())
                .filter_map(|l| l.get_str("from").ok())
            {
                *joined.entry(from).or_default() += 1;
            }
        }
        for (from, n) in joined {
            let lookups = u.rate_per_sec * n as f64;
            let written = writes.get(from).copied().unwrap_or(0.0);
            if lookups < HOT_LOOKUPS_PER_SEC || lookups <= written {
                continue;
            }
            let ratio = if written > 0.0 {
                format!("read/write ratio {:.0}", lookups / written)
            } else {
                "never written by the workload".to_string()
            };
            out.push(Warning::new(
                "EXCESSIVE_LOOKUP",
                Severity::Warning,
                from,
                "",
                format!(
                    "\"{}\" ({}/s) joins {from} with $lookup on every call: {lookups} $lookups/s into {from}, which the workload writes {written} times/s ({ratio}). Each $lookup reads a second collection for data that changes far less often than it is joined",
                    u.unit, u.rate_per_sec
                ),
                &format!(
                    "Copy what the read shows of {from} into the document it reads: embed it where it is bounded, or keep an extended reference (strategy extended_reference with copy); keep $lookup for rare reads or data that changes as often as it is read."
                ),
            ));
        }
    }
    out
}
