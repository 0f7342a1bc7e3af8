//! Whether a sparse or partial index may answer a query at all.

use crate::engine::compare::{compare, rank};
use crate::engine::query::{Filter, PathOp};
use bson::Bson;
use std::cmp::Ordering;

pub(super) fn excludes_missing(op: &PathOp) -> bool {
    match op {
        PathOp::Eq(v) => !matches!(v, Bson::Null),
        PathOp::In(l) => !l.iter().any(|v| matches!(v, Bson::Null)),
        PathOp::Gt(v) | PathOp::Lt(v) => !matches!(v, Bson::MinKey | Bson::MaxKey),
        PathOp::Gte(v) | PathOp::Lte(v) => !matches!(v, Bson::Null | Bson::MinKey | Bson::MaxKey),
        PathOp::Exists(b) => *b,
        PathOp::Type(t) => !t.contains(&10),
        PathOp::Regex(_)
        | PathOp::Size(_)
        | PathOp::ElemMatchDoc(_)
        | PathOp::ElemMatchValue(_)
        | PathOp::Mod(..) => true,
        _ => false,
    }
}

/// Returns true when every predicate of a partial filter is implied by a query conjunct.
pub(super) fn implies(conjuncts: &[&Filter], partial: &Filter) -> bool {
    partial.conjuncts().iter().all(|p| {
        let Filter::Path {
            path: pp, op: pop, ..
        } = p
        else {
            return false;
        };
        conjuncts.iter().any(|c| {
            let Filter::Path { path, op, .. } = c else {
                return false;
            };
            if path != pp {
                return false;
            }
            if format!("{op:?}") == format!("{pop:?}") {
                return true;
            }
            match (op, pop) {
                (PathOp::Eq(v), _) => pop.matches_value(v) && !matches!(v, Bson::Null),
                (_, PathOp::Exists(true)) => excludes_missing(op),
                (PathOp::Gt(a) | PathOp::Gte(a), PathOp::Gt(b)) => {
                    rank(a) == rank(b) && compare(a, b) == Ordering::Greater
                        || matches!(op, PathOp::Gt(_)) && compare(a, b) == Ordering::Equal
                }
                (PathOp::Gt(a) | PathOp::Gte(a), PathOp::Gte(b)) => {
                    rank(a) == rank(b) && compare(a, b) != Ordering::Less
                }
                (PathOp::Lt(a) | PathOp::Lte(a), PathOp::Lt(b)) => {
                    rank(a) == rank(b) && compare(a, b) == Ordering::Less
                        || matches!(op, PathOp::Lt(_)) && compare(a, b) == Ordering::Equal
                }
                (PathOp::Lt(a) | PathOp::Lte(a), PathOp::Lte(b)) => {
                    rank(a) == rank(b) && compare(a, b) != Ordering::Greater
                }
                _ => false,
            }
        })
    })
}
