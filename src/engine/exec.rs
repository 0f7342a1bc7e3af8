//! Runs a [`Plan`]: walks the collection or the index ranges, fetches, filters, sorts, skips
//! and limits, counting keys and documents examined as mongod does.
//!
//! Counting rules: a COLLSCAN examines every document, stopping early only when a LIMIT is
//! satisfied without a blocking sort. An IXSCAN examines every key it reads in its ranges;
//! keys that fail the bounds of a later compound field are examined too. After a range whose
//! bounds are not all single values (or `[MinKey, MaxKey]`), the scan reads one more key to see
//! that the range ended, and counts it, when such a key exists. Equality scans over N keys
//! examine N keys. A multikey scan fetches each record once.

use crate::engine::collection::Collection;
use crate::engine::columns::Column;
use crate::engine::error::Result;
use crate::engine::index::{Index, IndexKey, KeyPart, RecordId};
use crate::engine::plan::Interval;
use crate::engine::planner::{Access, Plan, Query};
use crate::engine::scan::ScanFilter;
use crate::engine::stats::ExecStats;
use bson::{Bson, Document};
use std::cmp::Ordering;
use std::collections::BTreeSet;
use std::ops::Bound;
use std::sync::Arc;

/// The start and end bounds of one walk over an index's ordered set.
type KeyBounds = (Bound<(IndexKey, RecordId)>, Bound<(IndexKey, RecordId)>);

/// One contiguous range of the index, in key order.
struct Range {
    start: (IndexKey, RecordId),
    start_inc: bool,
    end: (IndexKey, RecordId),
    end_inc: bool,
}

fn edge(desc: bool, max: bool) -> Bson {
    if desc == max {
        Bson::MinKey
    } else {
        Bson::MaxKey
    }
}

fn ranges(index: &Index, bounds: &[Vec<Interval>]) -> Vec<Range> {
    let fields = &index.spec.fields;
    // Leading fields whose intervals are all points are expanded into prefixes.
    let mut prefixes: Vec<IndexKey> = vec![Vec::new()];
    let mut k = 0;
    for (list, (_, desc)) in bounds.iter().zip(fields.iter()) {
        if !list.iter().all(Interval::is_point)
            || prefixes.len() * list.len().max(1) > 1000
            || k + 1 == fields.len()
        {
            break;
        }
        let mut next = Vec::new();
        for p in &prefixes {
            for i in list {
                let mut q = p.clone();
                q.push(KeyPart {
                    value: i.lo.clone(),
                    desc: *desc,
                });
                next.push(q);
            }
        }
        prefixes = next;
        k += 1;
    }
    let mut out = Vec::new();
    let Some(((_, desc), list)) = fields.get(k).zip(bounds.get(k)) else {
        return out;
    };
    let rest: Vec<bool> = fields.iter().skip(k + 1).map(|(_, d)| *d).collect();
    for p in &prefixes {
        for i in list {
            let (s, s_inc, e, e_inc) = if *desc {
                (&i.hi, i.hi_inc, &i.lo, i.lo_inc)
            } else {
                (&i.lo, i.lo_inc, &i.hi, i.hi_inc)
            };
            let mut start = p.clone();
            start.push(KeyPart {
                value: s.clone(),
                desc: *desc,
            });
            start.extend(rest.iter().map(|d| KeyPart {
                value: edge(*d, !s_inc),
                desc: *d,
            }));
            let mut end = p.clone();
            end.push(KeyPart {
                value: e.clone(),
                desc: *desc,
            });
            end.extend(rest.iter().map(|d| KeyPart {
                value: edge(*d, e_inc),
                desc: *d,
            }));
            out.push(Range {
                start: (start, if s_inc { 0 } else { RecordId::MAX }),
                start_inc: s_inc,
                end: (end, if e_inc { RecordId::MAX } else { 0 }),
                end_inc: e_inc,
            });
        }
    }
    out.sort_by(|a, b| a.start.cmp(&b.start));
    out
}

fn bounds_of(r: &Range) -> Option<KeyBounds> {
    match r.start.cmp(&r.end) {
        Ordering::Greater => None,
        Ordering::Equal if !(r.start_inc && r.end_inc) => None,
        _ => Some((
            if r.start_inc {
                Bound::Included(r.start.clone())
            } else {
                Bound::Excluded(r.start.clone())
            },
            if r.end_inc {
                Bound::Included(r.end.clone())
            } else {
                Bound::Excluded(r.end.clone())
            },
        )),
    }
}

fn in_bounds(key: &IndexKey, bounds: &[Vec<Interval>]) -> bool {
    key.iter()
        .zip(bounds.iter())
        .all(|(part, list)| list.iter().any(|i| i.contains(&part.value)))
}

/// Loads a record (counting it as examined) and keeps it when it matches; returns true when
/// it was kept.
fn fetch(
    coll: &Collection,
    rid: RecordId,
    q: &Query,
    stats: &mut ExecStats,
    matched: &mut Vec<(RecordId, Document)>,
) -> bool {
    let Some(doc) = coll.docs.get(&rid) else {
        return false;
    };
    stats.docs_examined += 1;
    if q.filter.matches(doc) {
        matched.push((rid, doc.clone()));
        return true;
    }
    false
}

/// Walks an index between bounds, counting keys examined (including the key past the end of
/// each range, see the module notes), calling `visit` for each key inside the bounds until it
/// returns true.
fn scan(
    index: &Index,
    bounds: &[Vec<Interval>],
    backward: bool,
    stats: &mut ExecStats,
    visit: &mut dyn FnMut(&IndexKey, RecordId, &mut ExecStats) -> bool,
) {
    let has_range = bounds
        .iter()
        .any(|l| l.iter().any(|i| !i.is_point() && !i.is_full()));
    let mut list = ranges(index, bounds);
    if backward {
        list.reverse();
    }
    for r in &list {
        let Some(b) = bounds_of(r) else { continue };
        let iter: Box<dyn Iterator<Item = &(IndexKey, RecordId)>> = if backward {
            Box::new(index.entries.range(b).rev())
        } else {
            Box::new(index.entries.range(b))
        };
        for (key, rid) in iter {
            stats.keys_examined += 1;
            if in_bounds(key, bounds) && visit(key, *rid, stats) {
                return;
            }
        }
        if has_range {
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
                stats.keys_examined += 1;
            }
        }
    }
}

/// Returns the document a covered plan builds from an index key: the projected index fields,
/// in key pattern order.
fn covered_doc(index: &Index, key: &IndexKey, q: &Query) -> Document {
    let mut d = Document::new();
    for ((field, _), part) in index.spec.fields.iter().zip(key.iter()) {
        if q.projection.as_ref().is_some_and(|p| p.includes(field)) {
            let parts: Vec<String> = field.split('.').map(str::to_string).collect();
            let _ = crate::engine::update::fields::set(&mut d, &parts, part.value.clone());
        }
    }
    d
}

/// Returns how many keys lie in the bounds (at most `cap`), the planner's cost estimate.
pub fn count_keys(index: &Index, bounds: &[Vec<Interval>], cap: u64) -> u64 {
    if bounds
        .iter()
        .all(|l| l.len() == 1 && l.iter().all(Interval::is_full))
    {
        return (index.entries.len() as u64).min(cap);
    }
    let mut n = 0;
    for r in ranges(index, bounds) {
        let Some(b) = bounds_of(&r) else { continue };
        for (key, _) in index.entries.range(b) {
            if in_bounds(key, bounds) {
                n += 1;
                if n >= cap {
                    return n;
                }
            }
        }
    }
    n
}

/// The largest skip + limit for which a sorted collection scan keeps only the first documents
/// as they come ([`keep_top`]) instead of sorting every match.
const TOP_K_MAX: usize = 1000;

/// Adds `item` to `top`, the first `keep` items so far in the stable order of `compare`:
/// after the items that compare equal (they came first), and not at all when it would fall
/// beyond `keep`. Fed every item in turn, `top` ends as a stable sort of them all, truncated.
fn keep_top<T>(top: &mut Vec<T>, keep: usize, item: T, compare: impl Fn(&T, &T) -> Ordering) {
    if top.len() >= keep
        && top
            .last()
            .is_none_or(|last| compare(&item, last) != Ordering::Less)
    {
        return;
    }
    let at = top.partition_point(|x| compare(x, &item) != Ordering::Greater);
    top.insert(at, item);
    top.truncate(keep);
}

/// Runs the plan; returns the matching documents (after sort, skip and limit, before
/// projection) with their record ids, and the statistics (nReturned = documents returned).
pub fn execute(
    coll: Option<&Collection>,
    plan: &Plan,
    q: &Query,
) -> Result<(Vec<(RecordId, Document)>, ExecStats)> {
    let mut stats = ExecStats {
        execution_stages: Some(plan.root.clone()),
        ..Default::default()
    };
    let mut matched: Vec<(RecordId, Document)> = Vec::new();
    let want = if plan.blocking_sort {
        None
    } else {
        q.limit.map(|l| l.saturating_add(q.skip))
    };
    let enough = |n: usize| want.is_some_and(|w| n as u64 >= w);
    let mut sorted = false;
    if let Some(coll) = coll {
        match &plan.access {
            Access::Eof => {}
            Access::Collscan if plan.blocking_sort => {
                // Sort references and clone only the documents that survive skip and limit.
                let keep = q.limit.map_or(usize::MAX, |l| {
                    usize::try_from(l.saturating_add(q.skip)).unwrap_or(usize::MAX)
                });
                let filter = ScanFilter::new(&q.filter, coll);
                let mut keyed: Vec<(Vec<Bson>, RecordId, &Document)> = Vec::new();
                // Sort keys from columns: a column without `Other` cells holds, for each
                // document, the value `sort_value` returns for a path that meets no array.
                // Only a scan that keeps its top documents asks for them (a full sort reads
                // every matching document anyway); every path is asked, so that all get built.
                let sort_columns: Option<Vec<Arc<Column>>> = if keep <= TOP_K_MAX {
                    let asked: Vec<Option<Arc<Column>>> = q
                        .sort
                        .keys
                        .iter()
                        .map(|(p, _)| {
                            coll.columns
                                .get(p, coll.docs.values())
                                .filter(|c| !c.has_other && c.cells.len() == coll.docs.len())
                        })
                        .collect();
                    asked.into_iter().collect()
                } else {
                    None
                };
                let rows = sort_columns
                    .as_ref()
                    .and_then(|_| filter.matching_rows(coll.docs.len()));
                if let (Some(columns), Some(rows)) = (sort_columns, rows) {
                    // Only the documents kept are read.
                    let mut top: Vec<(Vec<Bson>, usize)> = Vec::new();
                    for row in rows {
                        let key: Option<Vec<Bson>> =
                            columns.iter().map(|c| c.sort_value(row)).collect();
                        if let Some(key) = key {
                            keep_top(&mut top, keep, (key, row), |a, b| {
                                q.sort.compare_keys(&a.0, &b.0)
                            });
                        }
                    }
                    stats.docs_examined += coll.docs.len() as u64;
                    let rids = coll.columns.rids(coll.docs.keys().copied());
                    keyed = top
                        .into_iter()
                        .filter_map(|(key, row)| {
                            let (rid, doc) = coll.docs.get_key_value(rids.get(row)?)?;
                            Some((key, *rid, doc))
                        })
                        .collect();
                } else if keep <= TOP_K_MAX {
                    stats.docs_examined += filter.for_each_match(coll, |_, rid, doc| {
                        keep_top(&mut keyed, keep, (q.sort.key(doc), rid, doc), |a, b| {
                            q.sort.compare_keys(&a.0, &b.0)
                        });
                        false
                    });
                } else {
                    stats.docs_examined += filter.for_each_match(coll, |_, rid, doc| {
                        keyed.push((q.sort.key(doc), rid, doc));
                        false
                    });
                    keyed.sort_by(|a, b| q.sort.compare_keys(&a.0, &b.0));
                }
                matched = keyed
                    .into_iter()
                    .take(keep)
                    .map(|(_, rid, doc)| (rid, doc.clone()))
                    .collect();
                sorted = true;
            }
            Access::Collscan => {
                if want != Some(0) {
                    let filter = ScanFilter::new(&q.filter, coll);
                    stats.docs_examined += filter.for_each_match(coll, |_, rid, doc| {
                        matched.push((rid, doc.clone()));
                        enough(matched.len())
                    });
                }
            }
            Access::Index {
                pos,
                bounds,
                backward,
            } => {
                if let (Some(index), false) = (coll.indexes.get(*pos), want == Some(0)) {
                    let mut seen: BTreeSet<RecordId> = BTreeSet::new();
                    scan(
                        index,
                        bounds,
                        *backward,
                        &mut stats,
                        &mut |key, rid, stats| {
                            if !seen.insert(rid) {
                                return false;
                            }
                            if plan.covered {
                                // The bounds are exact: build the document from the key.
                                matched.push((rid, covered_doc(index, key, q)));
                                return enough(matched.len());
                            }
                            fetch(coll, rid, q, stats, &mut matched) && enough(matched.len())
                        },
                    );
                }
            }
            Access::Or { scans } => {
                let mut seen: BTreeSet<RecordId> = BTreeSet::new();
                for (pos, bounds) in scans {
                    let Some(index) = coll.indexes.get(*pos) else {
                        continue;
                    };
                    if want == Some(0) || enough(matched.len()) {
                        break;
                    }
                    scan(index, bounds, false, &mut stats, &mut |_, rid, stats| {
                        seen.insert(rid)
                            && fetch(coll, rid, q, stats, &mut matched)
                            && enough(matched.len())
                    });
                }
            }
        }
    }
    if plan.blocking_sort && !sorted {
        let mut keyed: Vec<(Vec<Bson>, (RecordId, Document))> =
            matched.into_iter().map(|m| (q.sort.key(&m.1), m)).collect();
        keyed.sort_by(|a, b| q.sort.compare_keys(&a.0, &b.0));
        matched = keyed.into_iter().map(|(_, m)| m).collect();
    }
    let skip = usize::try_from(q.skip).unwrap_or(usize::MAX);
    let mut out: Vec<(RecordId, Document)> = matched.into_iter().skip(skip).collect();
    if let Some(l) = q.limit {
        out.truncate(usize::try_from(l).unwrap_or(usize::MAX));
    }
    stats.n_returned = out.len() as u64;
    Ok((out, stats))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `keep_top` fed items one by one equals a stable sort truncated, ties included.
    #[test]
    fn keep_top_is_a_stable_sort_truncated() {
        // (key, arrival): many ties on the key.
        let items: Vec<(u8, usize)> = (0..200).map(|i| (((i * 37) % 7) as u8, i)).collect();
        for keep in [0, 1, 3, 20, 199, 200, 500] {
            let mut top = Vec::new();
            for it in &items {
                keep_top(&mut top, keep, *it, |a, b| a.0.cmp(&b.0));
            }
            let mut all = items.clone();
            all.sort_by_key(|a| a.0);
            all.truncate(keep);
            assert_eq!(top, all, "keep {keep}");
        }
    }

    /// A sorted scan with skip and limit returns the documents of the full sort, ties in
    /// natural order, whichever way it keeps them.
    #[test]
    fn sorted_scan_with_limit_matches_the_full_sort() {
        use crate::engine::{Database, FindCommand};
        let mut db = Database::new();
        let docs = (0..3000)
            .map(|i| bson::doc! {"_id": i, "k": (i * 13) % 5, "t": [i % 3, 7]})
            .collect();
        assert!(db.insert_many("c", docs, true).is_ok());
        let find = |sort: bson::Document, skip: u64, limit: Option<u64>| {
            let f = FindCommand {
                filter: bson::doc! {"_id": {"$gte": 10}},
                sort: Some(sort),
                skip,
                limit,
                hint: crate::engine::Hint::Collscan,
                ..Default::default()
            };
            db.find("c", &f)
                .map(|r| (r.documents, r.stats.exec.docs_examined))
        };
        for sort in [
            bson::doc! {"k": -1},
            bson::doc! {"t": 1},
            bson::doc! {"k": 1, "t": -1},
        ] {
            let Ok((all, _)) = find(sort.clone(), 0, None) else {
                panic!("find failed");
            };
            for (skip, limit) in [(0, 1), (0, 20), (7, 20), (990, 10), (0, 1500), (2980, 50)] {
                let Ok((some, examined)) = find(sort.clone(), skip, Some(limit)) else {
                    panic!("find failed");
                };
                let want: Vec<_> = all
                    .iter()
                    .skip(skip as usize)
                    .take(limit as usize)
                    .cloned()
                    .collect();
                assert_eq!(some, want, "{sort} skip {skip} limit {limit}");
                assert_eq!(examined, 3000);
            }
        }
    }
}
