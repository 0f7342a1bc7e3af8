//! Index bounds: the intervals each predicate allows in an index field, type-bracketed, merged
//! and intersected, and the bounds a whole conjunction gives an index (multikey-aware).

use super::Interval;
use crate::engine::compare::{compare, rank};
use crate::engine::index::Index;
use crate::engine::query::{Filter, PathOp};
use bson::oid::ObjectId;
use bson::{Bson, Document};
use std::cmp::Ordering;

/// Returns the interval(s) a predicate bounds a field to, and whether they are exact (the
/// predicate needs no re-check); `None` when the operator cannot use an index.
pub fn predicate_intervals(op: &PathOp) -> Option<(Vec<Interval>, bool)> {
    match op {
        PathOp::Eq(v) => Some(eq_intervals(v)),
        PathOp::In(list) => {
            let mut out = Vec::new();
            let mut exact = true;
            for v in list.iter() {
                if matches!(v, Bson::RegularExpression(_)) {
                    return None;
                }
                let (i, e) = eq_intervals(v);
                out.extend(i);
                exact &= e;
            }
            Some((normalize(out), exact))
        }
        PathOp::Gt(v) | PathOp::Gte(v) | PathOp::Lt(v) | PathOp::Lte(v) => {
            if matches!(
                v,
                Bson::Array(_) | Bson::RegularExpression(_) | Bson::MinKey | Bson::MaxKey
            ) {
                return None;
            }
            if matches!(v, Bson::Null) {
                return Some((vec![Interval::point(Bson::Null)], false));
            }
            let (blo, bhi, bhi_inc) = bracket(v);
            let i = match op {
                PathOp::Gt(_) => Interval {
                    lo: v.clone(),
                    lo_inc: false,
                    hi: bhi,
                    hi_inc: bhi_inc,
                },
                PathOp::Gte(_) => Interval {
                    lo: v.clone(),
                    lo_inc: true,
                    hi: bhi,
                    hi_inc: bhi_inc,
                },
                PathOp::Lt(_) => Interval {
                    lo: blo,
                    lo_inc: true,
                    hi: v.clone(),
                    hi_inc: false,
                },
                _ => Interval {
                    lo: blo,
                    lo_inc: true,
                    hi: v.clone(),
                    hi_inc: true,
                },
            };
            let exact = rank(v) != 0 && !matches!(v, Bson::Double(f) if f.is_nan());
            Some((vec![i], exact && rank(v) < 6))
        }
        PathOp::Regex(r) => super::regex::intervals(r),
        _ => None,
    }
}

/// Returns [`predicate_intervals`] for one index, which its collation decides: an index with
/// a case-insensitive collation stores folded string keys, so it bounds only the comparisons
/// of a query under the same collation ([`PathOp::Collated`]) and those without strings, and
/// scans every string key for a regex; an index without one bounds no collated comparison.
pub fn index_intervals(index: &Index, op: &PathOp) -> Option<(Vec<Interval>, bool)> {
    match (op, index.spec.collator.as_ref()) {
        (PathOp::Collated(inner, c), Some(ic)) if c == ic => predicate_intervals(inner),
        (PathOp::Collated(..), _) => None,
        (PathOp::Regex(r), Some(_)) => Some(super::regex::all_strings(r)),
        (op, Some(_)) if compares_strings(op) => None,
        (op, _) => predicate_intervals(op),
    }
}

/// True when a comparison's operand holds a string (its result depends on the collation).
fn compares_strings(op: &PathOp) -> bool {
    use crate::engine::query::collated::has_string;
    match op {
        PathOp::Eq(v) | PathOp::Gt(v) | PathOp::Gte(v) | PathOp::Lt(v) | PathOp::Lte(v) => {
            has_string(v)
        }
        PathOp::In(l) => l.iter().any(has_string),
        _ => false,
    }
}

pub(super) fn eq_intervals(v: &Bson) -> (Vec<Interval>, bool) {
    match v {
        Bson::Array(a) => {
            let first = a.first().cloned().unwrap_or(Bson::Undefined);
            (
                normalize(vec![Interval::point(first), Interval::point(v.clone())]),
                false,
            )
        }
        Bson::Null => (vec![Interval::point(Bson::Null)], false),
        other => (vec![Interval::point(other.clone())], true),
    }
}

/// Returns the smallest and largest values of a value's type bracket (hi inclusive flag).
pub(super) fn bracket(v: &Bson) -> (Bson, Bson, bool) {
    match rank(v) {
        3 => (
            Bson::Double(f64::NEG_INFINITY),
            Bson::Double(f64::INFINITY),
            true,
        ),
        4 => (
            Bson::String(String::new()),
            Bson::Document(Document::new()),
            false,
        ),
        5 => (
            Bson::Document(Document::new()),
            Bson::Array(Vec::new()),
            false,
        ),
        8 => (
            Bson::ObjectId(ObjectId::from_bytes([0; 12])),
            Bson::ObjectId(ObjectId::from_bytes([0xff; 12])),
            true,
        ),
        9 => (Bson::Boolean(false), Bson::Boolean(true), true),
        10 => (
            Bson::DateTime(bson::DateTime::from_millis(i64::MIN)),
            Bson::DateTime(bson::DateTime::from_millis(i64::MAX)),
            true,
        ),
        11 => (
            Bson::Timestamp(bson::Timestamp {
                time: 0,
                increment: 0,
            }),
            Bson::Timestamp(bson::Timestamp {
                time: u32::MAX,
                increment: u32::MAX,
            }),
            true,
        ),
        _ => (Bson::MinKey, Bson::MaxKey, true),
    }
}

/// Returns intervals sorted and merged.
pub fn normalize(mut list: Vec<Interval>) -> Vec<Interval> {
    list.sort_by(|a, b| compare(&a.lo, &b.lo).then_with(|| b.lo_inc.cmp(&a.lo_inc)));
    let mut out: Vec<Interval> = Vec::new();
    for i in list {
        if let Some(last) = out.last_mut() {
            let o = compare(&i.lo, &last.hi);
            if o == Ordering::Less || (o == Ordering::Equal && (i.lo_inc || last.hi_inc)) {
                match compare(&i.hi, &last.hi) {
                    Ordering::Greater => {
                        last.hi = i.hi;
                        last.hi_inc = i.hi_inc;
                    }
                    Ordering::Equal => last.hi_inc |= i.hi_inc,
                    Ordering::Less => {}
                }
                continue;
            }
        }
        out.push(i);
    }
    out
}

pub(super) fn intersect_lists(a: &[Interval], b: &[Interval]) -> Vec<Interval> {
    let mut out = Vec::new();
    for x in a {
        for y in b {
            if let Some(i) = x.intersect(y) {
                out.push(i);
            }
        }
    }
    normalize(out)
}

pub(super) fn bounds_for(index: &Index, conjuncts: &[&Filter]) -> (Vec<Vec<Interval>>, Vec<usize>) {
    let mut bounds = Vec::new();
    let mut absorbed = Vec::new();
    let mut used_prefixes: Vec<String> = Vec::new();
    for (field, _) in &index.spec.fields {
        let mut preds: Vec<(usize, Vec<Interval>, bool, bool)> = Vec::new();
        for (ci, c) in conjuncts.iter().enumerate() {
            if let Filter::Path { path, op, .. } = c {
                if path == field {
                    if let Some((iv, exact)) = index_intervals(index, op) {
                        let is_eq = match op {
                            PathOp::Collated(inner, _) => {
                                matches!(**inner, PathOp::Eq(_) | PathOp::In(_))
                            }
                            _ => matches!(op, PathOp::Eq(_) | PathOp::In(_)),
                        };
                        preds.push((ci, iv, exact, is_eq));
                    }
                }
            }
        }
        let prefixes: Vec<String> = index
            .multikey_paths
            .iter()
            .filter(|p| *field == **p || field.starts_with(&format!("{p}.")))
            .cloned()
            .collect();
        let shares = prefixes.iter().any(|p| used_prefixes.contains(p));
        if preds.is_empty() || shares {
            bounds.push(vec![Interval::full()]);
            continue;
        }
        if !prefixes.is_empty() {
            // Multikey: one predicate only; prefer an equality.
            preds.sort_by_key(|p| !p.3);
            let Some((ci, iv, exact, _)) = preds.into_iter().next() else {
                continue;
            };
            if exact && !index.field_is_multikey(field) {
                absorbed.push(ci);
            }
            bounds.push(iv);
            used_prefixes.extend(prefixes);
            continue;
        }
        let mut acc = vec![Interval::full()];
        for (ci, iv, exact, _) in preds {
            acc = intersect_lists(&acc, &iv);
            if exact {
                absorbed.push(ci);
            }
        }
        bounds.push(acc);
    }
    (bounds, absorbed)
}

pub(super) fn eq_prefix(bounds: &[Vec<Interval>]) -> usize {
    bounds
        .iter()
        .take_while(|b| b.len() == 1 && b.first().is_some_and(Interval::is_point))
        .count()
}
