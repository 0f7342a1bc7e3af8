//! Warnings about a layout: documents at or heading for the 16 MiB limit, unbounded arrays,
//! index and collection counts, nesting depth, live copies that cost more than they save,
//! queries without a supporting index, scatter-gather queries, pre-allocation tricks that
//! only paid off on MMAPv1, reads that separate data accessed together and hot `$lookup`s.
//! Every code, threshold and its source is in `docs/warnings.md`.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::arith::tail::Exceedance;
use crate::arith::{collection_stats, CollectionStats};
use crate::design::{AttributeForm, CommandKind, FieldPattern, Index, Layout};
use crate::human::{binary_size, thousands};
use crate::model::field::{BsonType, Fields};
use crate::model::{Copies, Model, Step};
use crate::size::MAX_BSON_SIZE;

pub mod lookups;
pub mod many_to_many;
pub mod separated;

/// Documents at or above this size are "within 20% of the limit": ⌈0.8 × 16 MiB⌉.
pub const NEAR_LIMIT: u64 = 13_421_773;
/// Compass's "bloated document" threshold (the size statistics count the documents over it).
pub const BLOATED: u64 = crate::arith::collection::BLOATED_BYTES;
/// Compass's unbounded-array threshold (elements of objects, ids or strings).
pub const UNBOUNDED_ELEMENTS: u64 = 250;
/// Compass's "too many indexes" threshold.
pub const MANY_INDEXES: usize = 10;
/// MongoDB's hard limit of indexes per collection.
pub const MAX_INDEXES: usize = 64;
/// Compass's "too many collections" threshold.
pub const MANY_COLLECTIONS: usize = 10_000;
/// MongoDB's documented nesting limit.
pub const MAX_DEPTH: usize = 100;

/// How serious a warning is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Worth knowing.
    Info,
    /// Will hurt at scale.
    Warning,
    /// mongod will refuse it.
    Error,
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Warning {
    /// Stable code (`DOC_OVER_LIMIT`), documented in `docs/warnings.md` (owned only when read
    /// back from an evaluation's JSON, as the page does).
    pub code: Cow<'static, str>,
    /// How serious.
    pub severity: Severity,
    /// The collection concerned (empty for layout-wide findings).
    pub collection: String,
    /// The field path concerned (empty when the whole document is).
    pub path: String,
    /// What is wrong, with the numbers.
    pub message: String,
    /// What to do about it.
    pub fix: String,
}

impl Warning {
    /// Returns a finding with a stable `code` (documented in `docs/warnings.md`).
    pub fn new(
        code: &'static str,
        severity: Severity,
        collection: &str,
        path: &str,
        message: String,
        fix: &str,
    ) -> Warning {
        Warning {
            code: Cow::Borrowed(code),
            severity,
            collection: collection.to_string(),
            path: path.to_string(),
            message,
            fix: fix.to_string(),
        }
    }
}

fn label(exact: bool) -> &'static str {
    if exact {
        "exact"
    } else {
        "estimate"
    }
}

/// Returns every warning for `layout` of `model`, using the layout's own indexes.
pub fn check(model: &Model, layout: &Layout) -> Vec<Warning> {
    let indexes: Vec<Index> = layout
        .collections
        .iter()
        .flat_map(|c| c.indexes.clone())
        .collect();
    check_with_indexes(model, layout, &indexes)
}

/// Returns every warning for `layout` of `model`, judging queries against `indexes` (the
/// indexes that actually exist, which the user may have edited).
pub fn check_with_indexes(model: &Model, layout: &Layout, indexes: &[Index]) -> Vec<Warning> {
    let mut out = Vec::new();
    let stats: Vec<CollectionStats> = layout
        .collections
        .iter()
        .map(|c| collection_stats(c, &model.start_date))
        .collect();
    for (c, st) in layout.collections.iter().zip(&stats) {
        for (shape, ss) in c.shapes.iter().zip(&st.shapes) {
            let max = ss.max.bytes;
            let what = format!("the largest {} document", shape.label);
            if let Some(over) = ss.over_limit.as_ref().filter(|_| max > MAX_BSON_SIZE) {
                let fix = fix_for(&shape.fields, &over.fields);
                let path = over.fields.join(", ");
                if over.expected() {
                    let message = format!("{what} would be {} ({}), {} over the 16 MiB limit: mongod rejects it (BSONObjectTooLarge, code 10334; 17419 for an update's result); {}", binary_size(max), label(ss.max.exact), binary_size(max - MAX_BSON_SIZE), how_many(over, &shape.label));
                    out.push(Warning::new(
                        "DOC_OVER_LIMIT",
                        Severity::Error,
                        &c.name,
                        &path,
                        message,
                        &fix,
                    ));
                } else {
                    let message = format!("{what} the model allows (every field present at its longest, every array full) would be {}, {} over the 16 MiB limit; but the longest values rarely meet: {} (fewer than one expected)", binary_size(max), binary_size(max - MAX_BSON_SIZE), how_many(over, &shape.label));
                    out.push(Warning::new(
                        "DOC_CAN_EXCEED_LIMIT",
                        Severity::Warning,
                        &c.name,
                        &path,
                        message,
                        &fix,
                    ));
                }
            } else if max >= NEAR_LIMIT {
                out.push(Warning::new(
                    "DOC_NEAR_LIMIT",
                    Severity::Warning,
                    &c.name,
                    "",
                    format!(
                        "{what} is {} ({}), within 20% of the 16 MiB limit (≥ {})",
                        binary_size(max),
                        label(ss.max.exact),
                        binary_size(NEAR_LIMIT)
                    ),
                    "Leave headroom: cap or move the growing part before it reaches the limit.",
                ));
            }
            if let Some(b) = ss.bloated.as_ref().filter(|_| max > BLOATED) {
                let message = format!("{what} is {}, over Compass's bloated-document threshold of 10 MB ({}); {}: every read and rewrite moves them whole", binary_size(max), binary_size(BLOATED), how_many(b, &shape.label));
                let fix = format!(
                    "Move rarely-read or growing parts into their own collection. {}",
                    fix_for(&shape.fields, &b.fields)
                );
                out.push(Warning::new(
                    "BLOATED_DOCUMENT",
                    Severity::Warning,
                    &c.name,
                    &b.fields.join(", "),
                    message,
                    &fix,
                ));
            }
            for a in &ss.arrays {
                let g = shape.growing.iter().find(|g| g.field == a.field);
                let growth = g.map_or(0.0, |g| g.growth_largest);
                if let Some(bp) = a.break_point {
                    let when = if a.max_count >= bp.count {
                        String::new()
                    } else {
                        match (&a.largest_reaches, &a.typical_reaches) {
                        (Some(l), Some(t)) => format!("; growing {growth}/day the largest parent reaches it {l}, a typical parent {t}"),
                        (Some(l), None) => format!("; growing {growth}/day the largest parent reaches it {l}"),
                        _ => String::new(),
                        }
                    };
                    let already = if a.max_count >= bp.count {
                        format!(
                            " — the largest parent already has {}",
                            thousands(a.max_count)
                        )
                    } else {
                        String::new()
                    };
                    out.push(Warning::new("ARRAY_BREAK_POINT", if a.max_count >= bp.count { Severity::Error } else { Severity::Info }, &c.name, &a.field, format!("{}.{} breaks the 16 MiB limit at {} elements ({}, {} per element){already}{when}", c.name, a.field, thousands(bp.count), label(bp.exact), binary_size(a.element_bytes.bytes)), "Keep the array bounded: continuation documents past a threshold, buckets, or a reference in the child."));
                }
                let elem_ty = shape.fields.get(&a.field).and_then(|f| f.items);
                let heavy = matches!(
                    elem_ty,
                    Some(BsonType::Object | BsonType::ObjectId | BsonType::String)
                );
                if !a.capped && ((heavy && a.max_count >= UNBOUNDED_ELEMENTS) || growth > 0.0) {
                    out.push(Warning::new("UNBOUNDED_ARRAY", Severity::Warning, &c.name, &a.field, format!("{}.{} is unbounded: up to {} elements{} (Compass flags arrays of ≥ 250 objects, ids or strings)", c.name, a.field, thousands(a.max_count), if growth > 0.0 { format!(", still growing {growth}/day with no cap") } else { String::new() }), "Never embed unbounded growth: use a reference in the child, buckets, or keep only the newest k."));
                }
            }
            // Declared arrays (not a relationship's) can be unbounded too.
            for (name, f) in shape.fields.iter() {
                if f.ty != BsonType::Array || shape.growing.iter().any(|g| &g.field == name) {
                    continue;
                }
                let heavy = matches!(
                    f.items,
                    Some(BsonType::Object | BsonType::ObjectId | BsonType::String)
                );
                let max = f.count.as_ref().map_or(0, |c| c.max_count());
                if heavy && max >= UNBOUNDED_ELEMENTS {
                    out.push(Warning::new(
                        "UNBOUNDED_ARRAY",
                        Severity::Warning,
                        &c.name,
                        name,
                        format!(
                            "{}.{name} is unbounded: up to {} elements (Compass flags arrays of ≥ 250 objects, ids or strings)",
                            c.name,
                            thousands(max)
                        ),
                        "Cap the array or move its elements into their own collection.",
                    ));
                }
            }
            let depth = fields_depth(&shape.fields) + 1;
            if depth > MAX_DEPTH {
                out.push(Warning::new(
                    "DEPTH_OVER_LIMIT",
                    Severity::Error,
                    &c.name,
                    "",
                    format!(
                        "documents nest {depth} levels deep, beyond the documented limit of 100"
                    ),
                    "Flatten the structure or reference deep parts.",
                ));
            }
        }
        if c.indexes.len() > MAX_INDEXES {
            out.push(Warning::new(
                "INDEX_LIMIT",
                Severity::Error,
                &c.name,
                "",
                format!(
                    "{} indexes: a collection can have at most 64",
                    c.indexes.len()
                ),
                "Use an array of {k, v} with one multikey index instead of one index per key.",
            ));
        } else if c.indexes.len() > MANY_INDEXES {
            out.push(Warning::new("TOO_MANY_INDEXES", Severity::Warning, &c.name, "", format!("{} indexes, more than Compass's threshold of 10: every write updates them all", c.indexes.len()), "Merge indexes with common prefixes; use the attribute pattern for per-key indexes."));
        }
    }
    if layout.collections.len() > MANY_COLLECTIONS {
        out.push(Warning::new(
            "TOO_MANY_COLLECTIONS",
            Severity::Warning,
            "",
            "",
            format!(
                "{} collections, more than Compass's threshold of 10,000",
                layout.collections.len()
            ),
            "Put documents of the same shape in one collection with a discriminating field.",
        ));
    }
    patterns(model, layout, &mut out);
    live_copies(model, layout, &mut out);
    queries(model, layout, indexes, &mut out);
    out.extend(many_to_many::check(model, layout));
    out.extend(separated::check(model, layout));
    out.extend(lookups::check(layout));
    out
}

/// Returns "at full scale ≈ 0.021% of message documents (≈ 41) are over it, because of
/// attachment": how
/// many documents of a shape pass a threshold at full scale, and which fields put them there.
fn how_many(e: &Exceedance, shape: &str) -> String {
    let about = if e.exact { "" } else { "≈ " };
    let because = match e.fields.as_slice() {
        [] => String::new(),
        [one] => format!(", because of {one}"),
        many => format!(", because of {}", many.join(" and ")),
    };
    format!(
        "at full scale {about}{} of {shape} documents ({about}{}) are over it{because}",
        crate::human::percent(e.share),
        thousands(crate::model::distribution::round_count(e.documents)),
    )
}

/// Returns the fix that fits what makes a document too big: an array is capped, bucketed or
/// continued; a string or binary value goes to GridFS or object storage; a sub-document moves
/// out.
fn fix_for(fields: &Fields, responsible: &[String]) -> String {
    let of = |ty: &dyn Fn(BsonType) -> bool| -> Vec<&str> {
        responsible
            .iter()
            .filter(|n| fields.get(n).is_some_and(|f| ty(f.ty)))
            .map(String::as_str)
            .collect()
    };
    let arrays = of(&|t| t == BsonType::Array);
    let values = of(&|t| t.has_length());
    let objects = of(&|t| t == BsonType::Object);
    let mut out = Vec::new();
    if !values.is_empty() {
        out.push(format!("Store {} outside the document: in GridFS (fs.files + fs.chunks in 255 KiB chunks, any size; the gridfs field pattern), or in object storage (S3, GCS, Azure Blob) with a reference (its URL or key) in the document; or keep the value well under 16 MiB.", values.join(" and ")));
    }
    if !arrays.is_empty() {
        out.push(format!("Cap {} (embed a subset, bucket, continuation documents) or reference the children from their own collection.", arrays.join(" and ")));
    }
    if !objects.is_empty() {
        out.push(format!(
            "Move {} into its own collection and reference it.",
            objects.join(" and ")
        ));
    }
    if out.is_empty() {
        out.push("Cap the array (embed a subset, bucket, continuation documents) or reference the children from their own collection.".to_string());
    }
    out.join(" ")
}

/// Returns how deep objects and arrays nest below a document with `fields` (0 when flat).
pub fn fields_depth(fields: &Fields) -> usize {
    fields
        .iter()
        .map(|(_, f)| match f.ty {
            BsonType::Object => 1 + fields_depth(&f.fields),
            BsonType::Array => {
                1 + if f.items == Some(BsonType::Object) {
                    1 + fields_depth(&f.fields)
                } else {
                    0
                }
            }
            _ => 0,
        })
        .max()
        .unwrap_or(0)
}

fn patterns(model: &Model, layout: &Layout, out: &mut Vec<Warning>) {
    for p in &model.design.fields {
        match p {
            FieldPattern::Preallocated {
                entity,
                field,
                slots,
            } => {
                let coll = layout.collection_name(entity);
                out.push(Warning::new("MMAPV1_PREALLOCATION", Severity::Info, &coll, field, format!("{field} pre-allocates {slots} counters. Pre-allocation (and padding, usePowerOf2Sizes) paid off on the old MMAPv1 engine, where a growing document had to move on disk; WiredTiger writes a new version of the whole document on every update, so zeros written in advance buy no in-place growth"), "Keep the pre-populated shape only if it makes reads simpler; otherwise let $inc create counters on first use."));
            }
            FieldPattern::Attribute {
                entity,
                field,
                form: AttributeForm::Keyed,
                ..
            } => {
                let coll = layout.collection_name(entity);
                let keys = layout
                    .collection_of(entity)
                    .and_then(|c| c.shapes.first())
                    .and_then(|s| s.fields.get(field))
                    .map_or(0, |f| f.fields.0.len());
                out.push(Warning::new("KEYED_ATTRIBUTES", Severity::Warning, &coll, field, format!("{field} is a sub-document keyed by attribute: querying by any attribute needs one index per key ({keys} keys), and a new key needs a new index"), "Use an array of {k, v} with one multikey index on {k: 1, v: 1}."));
            }
            _ => {}
        }
    }
}

/// Live copies: a write to the source rewrites every copy. Warned when the copies' write rate
/// exceeds the rate of reads they save.
fn live_copies(model: &Model, layout: &Layout, out: &mut Vec<Warning>) {
    for c in &layout.collections {
        for s in &c.shapes {
            for cf in &s.copied {
                let Some(r) = model.relationship(&cf.relationship) else {
                    continue;
                };
                let mut writes = 0.0;
                for u in &model.workload {
                    for st in &u.steps {
                        if let Step::Update {
                            entity,
                            field,
                            copies: Copies::Live,
                            ..
                        } = st
                        {
                            if entity == &cf.entity && field == &cf.source {
                                writes += u.rate_per_sec;
                            }
                        }
                    }
                }
                if writes == 0.0 {
                    continue;
                }
                // Documents holding one source value's copy.
                let per_write = if r.child == cf.entity {
                    let (p, ch) = (
                        model.entity(&r.parent).map_or(0.0, |e| e.count),
                        model.entity(&r.child).map_or(1.0, |e| e.count),
                    );
                    if r.many_to_many && ch > 0.0 {
                        p * r.cardinality.mean() / ch
                    } else {
                        1.0
                    }
                } else {
                    r.cardinality.mean()
                };
                let reads: f64 = model
                    .workload
                    .iter()
                    .filter(|u| u.steps.iter().any(|st| matches!(st, Step::Read { children, .. } if children.iter().any(|ch| ch.relationship == r.name)) || matches!(st, Step::FindParents { relationship, .. } if relationship == &r.name)))
                    .map(|u| u.rate_per_sec)
                    .sum();
                let copy_writes = writes * per_write;
                if copy_writes > reads {
                    out.push(Warning::new("LIVE_COPY_AMPLIFICATION", Severity::Warning, &c.name, &cf.path, format!("{} copies {}.{} live: {writes}/s updates rewrite ≈{:.1} copies each ({copy_writes:.1} document writes/s) to save {reads}/s reads (read/write ratio {:.2})", cf.path, cf.entity, cf.source, per_write, if copy_writes > 0.0 { reads / copy_writes } else { 0.0 }), "Denormalize only read-mostly fields; keep this field by reference, or copy it as a snapshot if point-in-time is correct."));
                }
            }
        }
    }
}

/// Queries without a supporting index, and scatter-gather queries on sharded collections.
fn queries(model: &Model, layout: &Layout, indexes: &[Index], out: &mut Vec<Warning>) {
    let shards = model.sharding.as_ref().map_or(1, |s| s.shards);
    for u in &layout.plan.units {
        for cmd in &u.commands {
            if matches!(cmd.kind, CommandKind::Insert | CommandKind::Aggregate) {
                continue;
            }
            if let Some(keys) = crate::design::indexes::key_for(&cmd.filter, None) {
                let supported = indexes.iter().any(|ix| {
                    ix.collection == cmd.collection
                        && keys
                            .keys()
                            .next()
                            .is_some_and(|k| ix.keys.keys().next() == Some(k))
                });
                if !supported {
                    out.push(Warning::new(
                        "UNINDEXED_QUERY",
                        Severity::Warning,
                        &cmd.collection,
                        "",
                        format!(
                            "\"{}\" runs {} with no index on {}: a collection scan",
                            u.unit,
                            cmd.mongosh(),
                            keys.keys().cloned().collect::<Vec<_>>().join(", ")
                        ),
                        "Create the index shown in the layout.",
                    ));
                }
            }
            if shards > 1 {
                if let Some(sk) = layout
                    .collection(&cmd.collection)
                    .and_then(|c| c.shard_key.as_ref())
                {
                    let first = sk.keys().next();
                    let targeted = first.is_some_and(|k| cmd.filter.contains_key(k));
                    if !targeted {
                        out.push(Warning::new("SCATTER_GATHER", Severity::Warning, &cmd.collection, "", format!("\"{}\" runs {} without the shard key {}: it reaches all {shards} shards and waits for the slowest", u.unit, cmd.mongosh(), crate::design::plan::shell(&bson::Bson::Document(sk.clone()))), "Shard by the field reads filter on (e.g. owner for a fan-out-on-write feed), or include the shard key in the filter."));
                    }
                }
            }
        }
    }
}
