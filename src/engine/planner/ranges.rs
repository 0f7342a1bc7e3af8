//! The key ranges an index's bounds cover: what an IXSCAN walks, and how many keys lie in
//! them (the planner's cost estimate when candidates must be compared).

use super::Interval;
use crate::engine::index::{Index, IndexKey, KeyPart, RecordId};
use bson::Bson;
use std::cmp::Ordering;
use std::ops::Bound;

/// The intervals of an index scan: one list per index field, in value order.
pub type IndexBounds = Vec<Vec<Interval>>;

/// The start and end bounds of one walk over an index's ordered set.
pub type KeyBounds = (Bound<(IndexKey, RecordId)>, Bound<(IndexKey, RecordId)>);

/// Leading point fields expand into at most this many key prefixes.
const MAX_PREFIXES: usize = 1000;

/// One contiguous range of the index, in key order.
#[derive(Debug, Clone)]
pub struct KeyRange {
    /// The first key (with the record id that starts or skips it).
    pub start: (IndexKey, RecordId),
    /// True when the first key is in the range.
    pub start_inc: bool,
    /// The last key (with the record id that ends or skips it).
    pub end: (IndexKey, RecordId),
    /// True when the last key is in the range.
    pub end_inc: bool,
}

impl KeyRange {
    /// Returns the range as bounds of the index's ordered set, `None` when it is empty.
    pub fn walk(&self) -> Option<KeyBounds> {
        match self.start.cmp(&self.end) {
            Ordering::Greater => None,
            Ordering::Equal if !(self.start_inc && self.end_inc) => None,
            _ => Some((
                if self.start_inc {
                    Bound::Included(self.start.clone())
                } else {
                    Bound::Excluded(self.start.clone())
                },
                if self.end_inc {
                    Bound::Included(self.end.clone())
                } else {
                    Bound::Excluded(self.end.clone())
                },
            )),
        }
    }
}

fn edge(desc: bool, max: bool) -> Bson {
    if desc == max {
        Bson::MinKey
    } else {
        Bson::MaxKey
    }
}

/// Returns the ranges of the index the bounds cover, in key order: leading fields whose
/// intervals are all points expand into key prefixes; the next field's intervals give one
/// range per prefix; later fields are open (`[MinKey, MaxKey]`) and checked key by key
/// ([`in_bounds`]).
pub fn key_ranges(index: &Index, bounds: &[Vec<Interval>]) -> Vec<KeyRange> {
    let fields = &index.spec.fields;
    let mut prefixes: Vec<IndexKey> = vec![Vec::new()];
    let mut k = 0;
    for (list, (_, desc)) in bounds.iter().zip(fields.iter()) {
        if !list.iter().all(Interval::is_point)
            || prefixes.len() * list.len().max(1) > MAX_PREFIXES
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
            out.push(KeyRange {
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

/// Returns true when every part of the key lies in its field's intervals.
pub fn in_bounds(key: &IndexKey, bounds: &[Vec<Interval>]) -> bool {
    key.iter()
        .zip(bounds.iter())
        .all(|(part, list)| list.iter().any(|i| i.contains(&part.value)))
}

/// Returns true when some field is bounded by a range (neither a single value nor
/// `[MinKey, MaxKey]`): such a scan reads one key past each range to see that it ended.
pub fn has_range(bounds: &[Vec<Interval>]) -> bool {
    bounds
        .iter()
        .any(|l| l.iter().any(|i| !i.is_point() && !i.is_full()))
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
    for r in key_ranges(index, bounds) {
        let Some(b) = r.walk() else { continue };
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

/// Returns the bounds as explain prints them: per field, its intervals in the order the scan
/// meets them (reversed for a field walked from its high end).
pub fn shown(
    fields: &[(String, bool)],
    bounds: &[Vec<Interval>],
    backward: bool,
) -> Vec<(String, Vec<String>)> {
    fields
        .iter()
        .zip(bounds.iter())
        .map(|((f, desc), list)| {
            let reverse = *desc != backward;
            let mut shown: Vec<String> = list
                .iter()
                .map(|i| {
                    if reverse {
                        Interval {
                            lo: i.hi.clone(),
                            lo_inc: i.hi_inc,
                            hi: i.lo.clone(),
                            hi_inc: i.lo_inc,
                        }
                        .to_string()
                    } else {
                        i.to_string()
                    }
                })
                .collect();
            if reverse {
                shown.reverse();
            }
            (f.clone(), shown)
        })
        .collect()
}
