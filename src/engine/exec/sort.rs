//! The SORT stage over a COLLSCAN: the scan keeps only the documents the sort's limit keeps,
//! reading sort keys from the collection's columns when it can; only the documents kept are
//! handed on (still raw).

use super::Row;
use crate::engine::collection::Collection;
use crate::engine::columns::Column;
use crate::engine::index::RecordId;
use crate::engine::query::Filter;
use crate::engine::scan::ScanFilter;
use crate::engine::sort::SortSpec;
use crate::engine::stats::Stats;
use bson::{Bson, RawDocument};
use std::borrow::Cow;
use std::cmp::Ordering;
use std::sync::Arc;

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

/// A SORT over a COLLSCAN: sorts references and hands on only the documents kept (`keep`: the
/// sort's limit). Sort keys come from columns when the scan keeps its top documents: a column
/// without `Other` cells holds, for each document, the value `sort_value` returns for a path
/// that meets no array; a full sort reads every matching document anyway, so it asks for none.
pub(super) fn sorted_scan<'a>(
    coll: &'a Collection,
    filter: Option<&Filter>,
    sort: &SortSpec,
    keep: usize,
    stats: &mut Stats,
) -> Vec<Row<'a>> {
    let all = Filter::And(Vec::new());
    let filter = ScanFilter::new(filter.unwrap_or(&all), coll);
    let mut keyed: Vec<(Vec<Bson>, RecordId, &'a RawDocument)> = Vec::new();
    // Every path is asked, so that all get built.
    let sort_columns: Option<Vec<Arc<Column>>> = if keep <= TOP_K_MAX {
        let asked: Vec<Option<Arc<Column>>> = sort
            .keys
            .iter()
            .map(|(p, _)| {
                coll.columns
                    .get(p, coll.documents())
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
            let key: Option<Vec<Bson>> = columns.iter().map(|c| c.sort_value(row)).collect();
            if let Some(key) = key {
                keep_top(&mut top, keep, (key, row), |a, b| {
                    sort.compare_keys(&a.0, &b.0)
                });
            }
        }
        stats.exec.docs_examined += coll.docs.len() as u64;
        let rids = coll.columns.rids(coll.docs.keys().copied());
        keyed = top
            .into_iter()
            .filter_map(|(key, row)| {
                let (rid, doc) = coll.docs.get_key_value(rids.get(row)?)?;
                Some((key, *rid, doc.as_ref().as_ref()))
            })
            .collect();
    } else if keep <= TOP_K_MAX {
        stats.exec.docs_examined += filter.for_each_match(coll, |_, rid, doc| {
            keep_top(&mut keyed, keep, (sort.key_raw(doc), rid, doc), |a, b| {
                sort.compare_keys(&a.0, &b.0)
            });
            false
        });
    } else {
        stats.exec.docs_examined += filter.for_each_match(coll, |_, rid, doc| {
            keyed.push((sort.key_raw(doc), rid, doc));
            false
        });
        keyed.sort_by(|a, b| sort.compare_keys(&a.0, &b.0));
    }
    keyed
        .into_iter()
        .take(keep)
        .map(|(_, rid, doc)| Row {
            rid: Some(rid),
            key: None,
            doc: None,
            raw: Some(Cow::Borrowed(doc)),
        })
        .collect()
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
