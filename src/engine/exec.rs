//! Runs a plan tree ([`PlanStage`]) as the planner built it and explain prints it: each
//! stage pushes its rows (a record id with its index key or document) to the stage above,
//! which answers whether it needs more, so that a LIMIT stops the scans under it. Counts keys
//! and documents examined as mongod does.
//!
//! Counting rules: a COLLSCAN examines every document, stopping early only when a LIMIT is
//! satisfied without a blocking sort. An IXSCAN examines every key it reads in its ranges;
//! keys that fail the bounds of a later compound field are examined too. After a range whose
//! bounds are not all single values (or `[MinKey, MaxKey]`), the scan reads one more key to see
//! that the range ended, and counts it, when such a key exists. Equality scans over N keys
//! examine N keys. A multikey scan fetches each record once. A FETCH examines each document
//! it loads.

mod sort;

use crate::engine::aggregate;
use crate::engine::collection::{decode, Collection};
use crate::engine::error::Result;
use crate::engine::index::{Index, IndexKey, RecordId};
use crate::engine::plan::PlanStage;
use crate::engine::planner::ranges::{has_range, in_bounds, key_ranges};
use crate::engine::planner::Interval;
use crate::engine::projection::Projection;
use crate::engine::query::Filter;
use crate::engine::returned::Returned;
use crate::engine::scan::ScanFilter;
use crate::engine::sort::SortSpec;
use crate::engine::stats::Stats;
use bson::{Bson, Document, RawDocument};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Bound;

/// What one stage hands the stage above: a record (absent once an aggregation stage made
/// new documents), its index key (from an IXSCAN) and its document (once fetched).
struct Row<'a> {
    rid: Option<RecordId>,
    key: Option<&'a IndexKey>,
    doc: Option<Cow<'a, Document>>,
    /// The stored document while no stage has made a new one (`doc` is then `None`), or
    /// the bytes of the top-level fields a projection kept of it: decoded only where a
    /// stage needs a `Document`.
    raw: Option<Cow<'a, RawDocument>>,
}

impl<'a> Row<'a> {
    /// Returns the row's document, decoding the stored one when it has not been yet.
    fn into_document(self) -> Result<Option<Cow<'a, Document>>> {
        match (self.doc, self.raw) {
            (Some(d), _) => Ok(Some(d)),
            (None, Some(raw)) => Ok(Some(Cow::Owned(decode(&raw)?))),
            (None, None) => Ok(None),
        }
    }
}

/// Where a stage pushes its rows; returns true when it needs no more.
type Emit<'e, 'a> = &'e mut dyn FnMut(Row<'a>, &mut Stats) -> Result<bool>;

/// What the stages read: the collections (for `$lookup`) and the one the plan scans.
struct Source<'a> {
    collections: &'a BTreeMap<String, Collection>,
    coll: Option<&'a Collection>,
}

/// The documents a plan returns, each with its record id while it is a stored document.
pub type Found = Vec<(Option<RecordId>, Document)>;

/// The rows a plan returns as `T`s, each with its record id while it is a stored document.
pub type Rows<T> = Vec<(Option<RecordId>, T)>;

/// Runs the plan on collection `source`; returns the documents the root stage produced (with
/// their record ids while they are stored documents) and the statistics (nReturned = rows
/// returned, executionStages = the plan).
pub fn execute(
    collections: &BTreeMap<String, Collection>,
    source: &str,
    plan: &PlanStage,
) -> Result<(Found, Stats)> {
    collect_rows(collections, source, plan, |d| match d {
        Out::Made(d) => Ok(d),
        Out::Stored(raw) => decode(&raw),
    })
}

/// Runs the plan as [`execute`] does, returning each stored document as a copy of its bytes
/// (decoded only if the caller reads it) and each document a stage made as it is.
pub fn execute_shared(
    collections: &BTreeMap<String, Collection>,
    source: &str,
    plan: &PlanStage,
) -> Result<(Rows<Returned>, Stats)> {
    collect_rows(collections, source, plan, |d| {
        Ok(match d {
            Out::Made(d) => Returned::from(d),
            Out::Stored(Cow::Borrowed(raw)) => Returned::from_raw(raw),
            Out::Stored(Cow::Owned(raw)) => Returned::from_raw_buf(raw),
        })
    })
}

/// A row the root stage produced: a document a stage made, or the stored document reached.
enum Out<'a> {
    /// A document a stage made (projected, aggregated).
    Made(Document),
    /// A stored document (or the bytes a projection kept of it).
    Stored(Cow<'a, RawDocument>),
}

/// Runs the plan, turning each row the root stage produced into a `T`.
fn collect_rows<T>(
    collections: &BTreeMap<String, Collection>,
    source: &str,
    plan: &PlanStage,
    make: impl Fn(Out<'_>) -> Result<T>,
) -> Result<(Rows<T>, Stats)> {
    let src = Source {
        collections,
        coll: collections.get(source),
    };
    let mut stats = Stats::default();
    let mut out = Vec::new();
    run(plan, &src, &mut stats, &mut |row, _| {
        let rid = row.rid;
        let item = match (row.doc, row.raw) {
            (Some(d), _) => make(Out::Made(d.into_owned()))?,
            (None, Some(raw)) => make(Out::Stored(raw))?,
            // A covered scan read by a write (its projection removed): the stored document.
            (None, None) => match rid.and_then(|rid| src.coll.and_then(|c| c.docs.get(&rid))) {
                Some(d) => make(Out::Stored(Cow::Borrowed(d.as_ref())))?,
                None => return Ok(false),
            },
        };
        out.push((rid, item));
        Ok(false)
    })?;
    stats.exec.n_returned = out.len() as u64;
    stats.exec.execution_stages = Some(plan.clone());
    Ok((out, stats))
}

/// Runs one stage, pushing its rows to `emit`; returns true when `emit` asked to stop.
fn run<'a>(
    stage: &'a PlanStage,
    src: &Source<'a>,
    stats: &mut Stats,
    emit: Emit<'_, 'a>,
) -> Result<bool> {
    match stage {
        PlanStage::Eof => Ok(false),
        PlanStage::Collscan { filter } => collscan(filter.as_ref(), src, stats, emit),
        PlanStage::Ixscan {
            index_name,
            backward,
            bounds,
            ..
        } => index_rows(index_name, bounds, *backward, src, stats, emit),
        PlanStage::Fetch { filter, input } => match src.coll {
            Some(coll) => fetch(coll, filter.as_ref(), input, src, stats, emit),
            None => Ok(false),
        },
        PlanStage::Or { inputs } => {
            let mut seen: BTreeSet<RecordId> = BTreeSet::new();
            for input in inputs {
                let stopped = run(input, src, stats, &mut |row, stats| match row.rid {
                    Some(rid) if !seen.insert(rid) => Ok(false),
                    _ => emit(row, stats),
                })?;
                if stopped {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        PlanStage::Sort {
            sort,
            limit_amount,
            input,
            ..
        } => sorted(sort, *limit_amount, input, src, stats, emit),
        PlanStage::Skip { skip_amount, input } => {
            let mut skipped = 0;
            run(input, src, stats, &mut |row, stats| {
                if skipped < *skip_amount {
                    skipped += 1;
                    return Ok(false);
                }
                emit(row, stats)
            })
        }
        PlanStage::Limit {
            limit_amount,
            input,
        } => {
            if *limit_amount == 0 {
                return Ok(false);
            }
            let mut passed = 0;
            run(input, src, stats, &mut |row, stats| {
                passed += 1;
                Ok(emit(row, stats)? || passed >= *limit_amount)
            })
        }
        PlanStage::Projection { projection, input } => {
            projected(input, projection, src, stats, emit)
        }
        PlanStage::ProjectionCovered { projection, input } => {
            let fields = scanned_fields(input);
            run(input, src, stats, &mut |row, stats| {
                let Some(key) = row.key else {
                    return Ok(false);
                };
                let doc = projection.apply(&covered_doc(fields, key, projection))?;
                let row = Row {
                    doc: Some(Cow::Owned(doc)),
                    raw: None,
                    ..row
                };
                emit(row, stats)
            })
        }
        PlanStage::Stage { stage, input, .. } => {
            let docs = collect(input, src, stats)?;
            let docs = aggregate::apply(stage, docs, src.collections, stats)?;
            push_all(docs, stats, emit)
        }
        PlanStage::Lookup { lookup, input, .. } => {
            let docs = collect(input, src, stats)?;
            let (docs, ls) = lookup.run(src.collections, docs)?;
            stats.lookups.push(ls);
            push_all(docs, stats, emit)
        }
    }
}

/// IXSCAN: pushes each record of the index `index_name` within `bounds` once (a multikey
/// index holds several keys of one record), with its key and no document.
fn index_rows<'a>(
    index_name: &str,
    bounds: &[Vec<Interval>],
    backward: bool,
    src: &Source<'a>,
    stats: &mut Stats,
    emit: Emit<'_, 'a>,
) -> Result<bool> {
    let Some(index) = src
        .coll
        .and_then(|c| c.indexes.iter().find(|i| i.spec.name == *index_name))
    else {
        return Ok(false);
    };
    let mut seen: BTreeSet<RecordId> = BTreeSet::new();
    ixscan(index, bounds, backward, stats, &mut |key, rid, stats| {
        if !seen.insert(rid) {
            return Ok(false);
        }
        let row = Row {
            rid: Some(rid),
            key: Some(key),
            doc: None,
            raw: None,
        };
        emit(row, stats)
    })
}

/// FETCH: loads the stored document in `coll` of each record `input` pushes (one document
/// examined each) and pushes those that pass the rest of the filter, still as stored bytes.
fn fetch<'a>(
    coll: &'a Collection,
    filter: Option<&'a Filter>,
    input: &'a PlanStage,
    src: &Source<'a>,
    stats: &mut Stats,
    emit: Emit<'_, 'a>,
) -> Result<bool> {
    run(input, src, stats, &mut |row, stats| {
        let Some(doc) = row.rid.and_then(|rid| coll.docs.get(&rid)) else {
            return Ok(false);
        };
        stats.exec.docs_examined += 1;
        if filter.is_some_and(|f| !f.matches_raw(doc)) {
            return Ok(false);
        }
        let row = Row {
            doc: None,
            raw: Some(Cow::Borrowed(doc)),
            ..row
        };
        emit(row, stats)
    })
}

/// SORT: takes every row of `input` (a collection scan straight under it is sorted while
/// scanning, `sort::sorted_scan`), sorts them and pushes the first `limit_amount`.
fn sorted<'a>(
    sort: &'a SortSpec,
    limit_amount: Option<u64>,
    input: &'a PlanStage,
    src: &Source<'a>,
    stats: &mut Stats,
    emit: Emit<'_, 'a>,
) -> Result<bool> {
    let keep = limit_amount.map_or(usize::MAX, |l| usize::try_from(l).unwrap_or(usize::MAX));
    let rows = match (input, src.coll) {
        (PlanStage::Collscan { filter }, Some(coll)) => {
            sort::sorted_scan(coll, filter.as_ref(), sort, keep, stats)
        }
        _ => {
            let mut keyed: Vec<(Vec<Bson>, Row<'a>)> = Vec::new();
            run(input, src, stats, &mut |row, _| {
                let key = match (row.doc.as_deref(), row.raw.as_deref()) {
                    (Some(d), _) => sort.key(d),
                    (None, Some(raw)) => sort.key_raw(raw),
                    (None, None) => Vec::new(),
                };
                keyed.push((key, row));
                Ok(false)
            })?;
            keyed.sort_by(|a, b| sort.compare_keys(&a.0, &b.0));
            keyed.into_iter().take(keep).map(|(_, row)| row).collect()
        }
    };
    for row in rows {
        if emit(row, stats)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// PROJECTION: pushes each row of `input` projected; a stored document whose kept fields
/// are all top-level stays bytes (nothing decoded).
fn projected<'a>(
    input: &'a PlanStage,
    projection: &'a Projection,
    src: &Source<'a>,
    stats: &mut Stats,
    emit: Emit<'_, 'a>,
) -> Result<bool> {
    run(input, src, stats, &mut |row, stats| {
        let projected = match (row.doc.as_deref(), row.raw.as_deref()) {
            (Some(doc), _) => projection.apply(doc)?,
            (None, Some(raw)) => match projection.apply_raw_bytes(raw) {
                // Top-level fields kept: their bytes, nothing decoded.
                Some(bytes) => {
                    let row = Row {
                        doc: None,
                        raw: Some(Cow::Owned(bytes)),
                        ..row
                    };
                    return emit(row, stats);
                }
                None => projection.apply_raw(raw)?,
            },
            (None, None) => return Ok(false),
        };
        let row = Row {
            doc: Some(Cow::Owned(projected)),
            raw: None,
            ..row
        };
        emit(row, stats)
    })
}

/// Runs a stage to its end and returns its documents (for the blocking pipeline stages).
fn collect<'a>(stage: &'a PlanStage, src: &Source<'a>, stats: &mut Stats) -> Result<Vec<Document>> {
    let mut docs = Vec::new();
    run(stage, src, stats, &mut |row, _| {
        if let Some(d) = row.into_document()? {
            docs.push(d.into_owned());
        }
        Ok(false)
    })?;
    Ok(docs)
}

/// Pushes documents made by a pipeline stage, until `emit` asks to stop.
fn push_all<'a>(docs: Vec<Document>, stats: &mut Stats, emit: Emit<'_, 'a>) -> Result<bool> {
    for d in docs {
        let row = Row {
            rid: None,
            key: None,
            doc: Some(Cow::Owned(d)),
            raw: None,
        };
        if emit(row, stats)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Returns the fields of the index scanned under a covered projection.
fn scanned_fields(stage: &PlanStage) -> &[(String, bool)] {
    match stage {
        PlanStage::Ixscan { fields, .. } => fields,
        other => other.input().map(scanned_fields).unwrap_or(&[]),
    }
}

/// Scans the collection in natural order, pushing the documents that match.
fn collscan<'a>(
    filter: Option<&'a Filter>,
    src: &Source<'a>,
    stats: &mut Stats,
    emit: Emit<'_, 'a>,
) -> Result<bool> {
    let Some(coll) = src.coll else {
        return Ok(false);
    };
    let all = Filter::And(Vec::new());
    let scan = ScanFilter::new(filter.unwrap_or(&all), coll);
    let mut failed = None;
    let mut stopped = false;
    let examined = scan.for_each_match(coll, |_, rid, doc| {
        let row = Row {
            rid: Some(rid),
            key: None,
            doc: None,
            raw: Some(Cow::Borrowed(doc)),
        };
        match emit(row, stats) {
            Ok(stop) => {
                stopped = stop;
                stop
            }
            Err(e) => {
                failed = Some(e);
                true
            }
        }
    });
    stats.exec.docs_examined += examined;
    match failed {
        Some(e) => Err(e),
        None => Ok(stopped),
    }
}

/// Walks an index between bounds, counting keys examined (including the key past the end of
/// each range, see the module notes), calling `visit` for each key inside the bounds until it
/// returns true; returns true when it did.
fn ixscan<'a>(
    index: &'a Index,
    bounds: &[Vec<Interval>],
    backward: bool,
    stats: &mut Stats,
    visit: &mut dyn FnMut(&'a IndexKey, RecordId, &mut Stats) -> Result<bool>,
) -> Result<bool> {
    let ranged = has_range(bounds);
    let mut list = key_ranges(index, bounds);
    if backward {
        list.reverse();
    }
    for r in &list {
        let Some(b) = r.walk() else { continue };
        let iter: Box<dyn Iterator<Item = &'a (IndexKey, RecordId)>> = if backward {
            Box::new(index.entries.range(b).rev())
        } else {
            Box::new(index.entries.range(b))
        };
        for (key, rid) in iter {
            stats.exec.keys_examined += 1;
            if in_bounds(key, bounds) && visit(key, *rid, stats)? {
                return Ok(true);
            }
        }
        if ranged {
            let beyond = if backward {
                let end = if r.start_inc {
                    Bound::Excluded(r.start.clone())
                } else {
                    Bound::Included(r.start.clone())
                };
                index
                    .entries
                    .range((Bound::Unbounded, end))
                    .next_back()
                    .is_some()
            } else {
                let start = if r.end_inc {
                    Bound::Excluded(r.end.clone())
                } else {
                    Bound::Included(r.end.clone())
                };
                index
                    .entries
                    .range((start, Bound::Unbounded))
                    .next()
                    .is_some()
            };
            if beyond {
                stats.exec.keys_examined += 1;
            }
        }
    }
    Ok(false)
}

/// Returns the document a covered plan builds from an index key: the projected index fields,
/// in key pattern order.
fn covered_doc(fields: &[(String, bool)], key: &IndexKey, projection: &Projection) -> Document {
    let mut d = Document::new();
    for ((field, _), part) in fields.iter().zip(key.iter()) {
        if projection.includes(field) {
            let parts: Vec<String> = field.split('.').map(str::to_string).collect();
            let _ = crate::engine::update::fields::set(&mut d, &parts, part.value.clone());
        }
    }
    d
}
