//! MongoDB's "unnecessary indexes" anti-pattern, decided from the runs: an index of the layout
//! that no workload command's winning plan scans (nor any `$lookup`'s foreign side), with what
//! it costs: its size at full scale and the index keys written per second to maintain it.
//!
//! Not judged: `_id_` (every collection has it), a shard key's index (sharding requires it),
//! a unique index (kept for its constraint: GridFS's `fs.chunks {files_id: 1, n: 1}`) and the
//! other index a GridFS driver creates (`fs.files {filename: 1, uploadDate: 1}`: a driver makes
//! it again on an empty bucket's first upload).

use std::collections::BTreeSet;

use bson::{Bson, Document};

use super::warning;
use crate::design::{CommandKind, Index, Layout};
use crate::engine::index::default_name;
use crate::eval::{CollectionEval, OperationEval};
use crate::human::{binary_size_f64, thousands};
use crate::warning::Warning;

/// The `reason` prefix of the indexes a GridFS driver creates (`design::indexes`).
const GRIDFS_REASON: &str = "GridFS";

/// How many unused indexes a message names one by one; the rest are counted.
const LISTED: usize = 5;

/// Returns one `UNUSED_INDEX` per collection with judged indexes that no run of the workload
/// scans (one suggestion per collection, as Atlas's "Remove unnecessary indexes" makes).
pub(in crate::eval) fn unused_indexes(
    layout: &Layout,
    collections: &[CollectionEval],
    ops: &[OperationEval],
) -> Vec<Warning> {
    let used = used_indexes(ops);
    let mut out = Vec::new();
    for c in &layout.collections {
        let eval = collections.iter().find(|x| x.name == c.name);
        let docs = eval.map_or(0.0, |e| e.stats.count);
        let mut named = Vec::new();
        let (mut bytes, mut keys, mut writes) = (0.0, 0.0, 0.0);
        for ix in &c.indexes {
            let name = default_name(&ix.keys);
            if used.contains(&(c.name.clone(), name.clone())) || !judged(ix, c.shard_key.as_ref()) {
                continue;
            }
            let ie = eval.and_then(|e| e.indexes.iter().find(|i| i.name == name));
            let size = ie.map_or(0.0, |i| i.bytes.value);
            let per_doc = match ie {
                Some(i) if docs > 0.0 => i.keys_full.value / docs,
                _ => 1.0,
            };
            let (w, k) = maintenance(layout, ops, &c.name, ix, per_doc);
            bytes += size;
            keys += k;
            writes = w;
            named.push(format!(
                "{} (≈{}, ≈{} keys written/s)",
                crate::design::plan::shell(&Bson::Document(ix.keys.clone())),
                binary_size_f64(size),
                thousands(k.round() as u64)
            ));
        }
        let Some(first) = named.first().cloned() else {
            continue;
        };
        let n = named.len();
        let list = if n > LISTED {
            format!(
                "{} and {} more",
                named.get(..LISTED).unwrap_or_default().join(", "),
                n - LISTED
            )
        } else {
            named.join(", ")
        };
        let message = if n == 1 {
            format!(
                "Index {first} is scanned by no command of the workload (no winning plan nor $lookup uses it); {} documents written/s in {} maintain it (estimate)",
                thousands(writes.round() as u64),
                c.name
            )
        } else {
            format!(
                "{n} indexes are scanned by no command of the workload (no winning plan nor $lookup uses them): {list}; together ≈{} at full scale and ≈{} index keys written/s to maintain them ({} documents written/s in {}; estimate)",
                binary_size_f64(bytes),
                thousands(keys.round() as u64),
                thousands(writes.round() as u64),
                c.name
            )
        };
        out.push(warning(
            "UNUSED_INDEX",
            &c.name,
            "",
            message,
            &format!(
                "Drop what no query needs (db.{}.dropIndex(name)); hide an index first (db.{}.hideIndex(name)) to see whether anything outside the workload slows down.",
                c.name, c.name
            ),
        ));
    }
    out
}

/// Returns true for an index the warning judges: not a shard key's, not unique, not one a
/// GridFS driver creates.
fn judged(ix: &Index, shard_key: Option<&Document>) -> bool {
    shard_key != Some(&ix.keys) && !ix.unique() && !ix.reason.starts_with(GRIDFS_REASON)
}

/// Returns every `(collection, index name)` some run's winning plan scans: the command's own
/// access and each `$lookup`'s foreign index, read from the explain trees.
fn used_indexes(ops: &[OperationEval]) -> BTreeSet<(String, String)> {
    let mut used = BTreeSet::new();
    for o in ops {
        for c in o.typical.commands.iter().chain(&o.largest.commands) {
            if let Some(tree) = &c.plan_tree {
                walk(tree, &c.collection, &mut used);
            }
        }
    }
    used
}

/// Adds the indexes an explain tree scans; a `$lookup` node's index is its `from` collection's.
fn walk(node: &serde_json::Value, coll: &str, used: &mut BTreeSet<(String, String)>) {
    let Some(m) = node.as_object() else {
        return;
    };
    if let Some(name) = m.get("indexName").and_then(|v| v.as_str()) {
        let on = if m.get("stage").and_then(|v| v.as_str()) == Some("$lookup") {
            m.get("from").and_then(|v| v.as_str()).unwrap_or(coll)
        } else {
            coll
        };
        used.insert((on.to_string(), name.to_string()));
    }
    if let Some(i) = m.get("inputStage") {
        walk(i, coll, used);
    }
    if let Some(list) = m.get("inputStages").and_then(|v| v.as_array()) {
        for i in list {
            walk(i, coll, used);
        }
    }
}

/// Returns the documents written per second in `coll` by the typical runs, and the index keys
/// of `ix` those writes add or remove: `per_doc` keys for each document inserted or deleted,
/// twice that (old and new keys) for each document an update rewrites when it changes a field
/// the index holds (compared on the top-level field: an estimate).
fn maintenance(
    layout: &Layout,
    ops: &[OperationEval],
    coll: &str,
    ix: &Index,
    per_doc: f64,
) -> (f64, f64) {
    let (mut writes, mut keys) = (0.0, 0.0);
    for (o, unit) in ops.iter().zip(&layout.plan.units) {
        for c in o.typical.commands.iter().filter(|c| c.collection == coll) {
            let docs = c.full.docs_written.value * o.rate_per_sec;
            writes += docs;
            keys += match c.kind {
                CommandKind::Insert | CommandKind::Delete => docs * per_doc,
                CommandKind::Update => {
                    let touches = unit.commands.iter().any(|p| {
                        p.step == c.step
                            && p.collection == coll
                            && p.kind == CommandKind::Update
                            && p.update.as_ref().is_some_and(|u| changes(u, &ix.keys))
                    });
                    if touches {
                        2.0 * docs * per_doc
                    } else {
                        0.0
                    }
                }
                CommandKind::Find | CommandKind::Aggregate => 0.0,
            };
        }
    }
    (writes, keys)
}

/// Returns true when update document `u` may change a field of key pattern `keys`: a
/// replacement does; an operator does when a path it sets shares its top-level field with a key.
fn changes(u: &Document, keys: &Document) -> bool {
    let top = |p: &str| p.split('.').next().unwrap_or(p).to_string();
    let indexed: BTreeSet<String> = keys.keys().map(|k| top(k)).collect();
    u.iter().any(|(op, v)| {
        if !op.starts_with('$') {
            return true;
        }
        v.as_document()
            .is_some_and(|d| d.keys().any(|p| indexed.contains(&top(p))))
    })
}
