//! The order a parent keeps an embedded array of children in, so that a read of the newest
//! or oldest N takes exactly those with a `$slice`: every write of the array sorts it
//! (`$push` with `$each` and `$sort`, and `$slice` for a capped subset), in the order of the
//! first read that sorts and limits those children.

use bson::{doc, Bson, Document};

use crate::model::design::{time_field, Strategy};
use crate::model::{Model, Relationship, Sort, Step};

/// Returns the order the parent's array of `relationship`'s children is kept in: the sort of
/// the first read of the workload that sorts and limits them, or `None` when no read does
/// (the array then stays in insertion order, a plain `$push`).
pub(super) fn kept(model: &Model, relationship: &str) -> Option<Sort> {
    model
        .workload
        .iter()
        .flat_map(|u| &u.steps)
        .filter_map(|s| match s {
            Step::Read { children, .. } => Some(children),
            _ => None,
        })
        .flatten()
        .filter(|c| c.relationship == relationship && c.limit.is_some())
        .find_map(|c| c.sort.clone())
}

/// Returns the order an array of extended references (`_id` plus `copy`) is kept in: the
/// read's order when its sort field is among the copies (or is `_id`), which a `$push` with
/// `$sort` can keep; `None` otherwise (the elements then stay in insertion order).
pub(super) fn kept_copy(model: &Model, relationship: &str, copy: &[String]) -> Option<Sort> {
    kept(model, relationship).filter(|s| s.field == "_id" || copy.contains(&s.field))
}

/// Returns the order a design keeps the array of `relationship`'s children (or copies) in
/// under `strategy`: what its writes keep with `$push` and `$sort` (an embedded array, an
/// embedded subset, extended references sorted by a copy), so that generated documents hold
/// their arrays as the writes would have left them. `None`: insertion order.
pub fn array_order(model: &Model, relationship: &str, strategy: &Strategy) -> Option<Sort> {
    match strategy {
        Strategy::Embed | Strategy::EmbedSubset { .. } => kept(model, relationship),
        Strategy::ExtendedReference { copy } => kept_copy(model, relationship, copy),
        _ => None,
    }
}

/// Returns the `$push` argument that adds `element` to an array kept in `kept` order, capped
/// at the first `cap` elements of that order when set: `{ $each: [element], $sort, $slice }`,
/// or the bare element when the array is neither sorted nor capped. A capped array kept in
/// no order holds the newest `cap` insertions, newest first (`$position: 0`).
pub(super) fn push(element: Bson, kept: Option<&Sort>, cap: Option<u64>) -> Bson {
    if kept.is_none() && cap.is_none() {
        return element;
    }
    let mut each = doc! { "$each": [element] };
    match kept {
        Some(s) => {
            each.insert("$sort", doc! { s.field.as_str(): s.order });
        }
        None => {
            each.insert("$position", 0_i64);
        }
    }
    if let Some(k) = cap {
        each.insert("$slice", i64::try_from(k).unwrap_or(i64::MAX));
    }
    Bson::Document(each)
}

/// Where a read of at most `limit` children, in `wanted` order, finds them in an array kept
/// in `kept` order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Take {
    /// The first `n` elements (`$slice: n`): the array's order is the read's (or the read
    /// asks for none).
    Front(u64),
    /// The last `n` elements (`$slice: -n`): the array is kept in the opposite order on the
    /// same field; the application reverses them.
    Back(u64),
    /// No end of the array holds them (another field): the whole array, sorted by the
    /// application.
    Whole,
}

/// Returns where a read of at most `limit` children in `wanted` order finds them in an array
/// kept in `kept` order.
pub(super) fn take(kept: Option<&Sort>, wanted: Option<&Sort>, limit: u64) -> Take {
    match (kept, wanted) {
        (_, None) => Take::Front(limit),
        (Some(k), Some(w)) if k.field == w.field => {
            if k.order == w.order {
                Take::Front(limit)
            } else {
                Take::Back(limit)
            }
        }
        _ => Take::Whole,
    }
}

/// Adds the projection of `take` on array `arr` to `projection`: `{ arr: { $slice: ±n } }`,
/// nothing for the whole array.
pub(super) fn project(projection: &mut Document, arr: &str, take: Take) {
    let n = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
    match take {
        Take::Front(l) => {
            projection.insert(arr, doc! { "$slice": n(l) });
        }
        Take::Back(l) => {
            projection.insert(arr, doc! { "$slice": n(l).saturating_neg() });
        }
        Take::Whole => {}
    }
}

/// Returns true when the order buckets keep (insertion order, numbered by `sequence`) is the
/// order a read sorted by `sort` asks for, so that the read may take the oldest or newest
/// buckets alone: a one-to-many sorted by the child's arrival time, its first `date` field (a
/// time series' `timeField`). The bucket pattern's premise holds for nothing else: a
/// many-to-many links children that exist (the link's time is no field of theirs), and any
/// other sort (or none) finds its first N in any bucket.
pub fn bucket_order_serves(model: &Model, r: &Relationship, sort: Option<&Sort>) -> bool {
    !r.many_to_many && sort.is_some_and(|s| time_field(model, r).is_some_and(|t| t == s.field))
}
