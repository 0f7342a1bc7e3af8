//! A filter under a collation: every comparison whose operand holds a string is wrapped in
//! [`PathOp::Collated`] with its operand folded once, and each value it meets is folded
//! before the comparison (`engine::collation`). `$regex`, `$exists`, `$type`, `$size`, `$mod`
//! and `$expr` ignore the collation, as mongod's do.

use super::comparison::InList;
use super::{Filter, PathOp};
use crate::engine::collation::Collation;
use crate::engine::path::Item;
use bson::Bson;

impl Filter {
    /// Returns the filter as it matches under `c` (itself when `c` does not fold strings).
    pub fn collated(self, c: &Collation) -> Filter {
        if !c.folds() {
            return self;
        }
        match self {
            Filter::And(v) => Filter::And(v.into_iter().map(|f| f.collated(c)).collect()),
            Filter::Or(v) => Filter::Or(v.into_iter().map(|f| f.collated(c)).collect()),
            Filter::Nor(v) => Filter::Nor(v.into_iter().map(|f| f.collated(c)).collect()),
            Filter::Path { path, op, at } => Filter::Path {
                path,
                op: op.collated(c),
                at,
            },
            Filter::Expr(e) => Filter::Expr(e),
        }
    }
}

impl PathOp {
    /// Returns the operator as it compares under `c`: comparisons with a string in their
    /// operand wrapped with the operand folded; the others as they are (a comparison without
    /// strings compares the same under any collation, and keeps using any index).
    pub fn collated(self, c: &Collation) -> PathOp {
        let wrap = |op: PathOp| PathOp::Collated(Box::new(op), c.clone());
        match self {
            PathOp::Eq(v) if has_string(&v) => wrap(PathOp::Eq(c.fold(&v))),
            PathOp::Ne(v) if has_string(&v) => wrap(PathOp::Ne(c.fold(&v))),
            PathOp::Gt(v) if has_string(&v) => wrap(PathOp::Gt(c.fold(&v))),
            PathOp::Gte(v) if has_string(&v) => wrap(PathOp::Gte(c.fold(&v))),
            PathOp::Lt(v) if has_string(&v) => wrap(PathOp::Lt(c.fold(&v))),
            PathOp::Lte(v) if has_string(&v) => wrap(PathOp::Lte(c.fold(&v))),
            PathOp::In(l) if l.iter().any(has_string) => wrap(PathOp::In(InList::new(
                l.iter().map(|v| c.fold(v)).collect(),
            ))),
            PathOp::Nin(l) if l.iter().any(has_string) => wrap(PathOp::Nin(InList::new(
                l.iter().map(|v| c.fold(v)).collect(),
            ))),
            PathOp::All(ops) => PathOp::All(ops.into_iter().map(|o| o.collated(c)).collect()),
            PathOp::Not(ops) => PathOp::Not(ops.into_iter().map(|o| o.collated(c)).collect()),
            PathOp::ElemMatchValue(ops) => {
                PathOp::ElemMatchValue(ops.into_iter().map(|o| o.collated(c)).collect())
            }
            PathOp::ElemMatchDoc(f) => PathOp::ElemMatchDoc(Box::new(f.collated(c))),
            other => other,
        }
    }
}

/// True when a value is or holds a string (a regex in an `$in` list is no string).
pub(crate) fn has_string(v: &Bson) -> bool {
    match v {
        Bson::String(_) => true,
        Bson::Array(a) => a.iter().any(has_string),
        Bson::Document(d) => d.values().any(has_string),
        _ => false,
    }
}

/// Returns `f` of the item with its strings folded under `c` (a missing item stays missing).
pub(crate) fn with_folded(
    c: &Collation,
    item: Item<'_>,
    f: &mut dyn FnMut(Item<'_>) -> bool,
) -> bool {
    match item {
        Item::Missing => f(Item::Missing),
        Item::Value(v) if has_string(v) => f(Item::Value(&c.fold(v))),
        Item::Value(v) => f(Item::Value(v)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::{doc, Document};

    fn m(filter: Document, d: Document, strength: i32) -> bool {
        let c = Collation::parse(&doc! { "locale": "en", "strength": strength }).unwrap();
        let f = Filter::parse(&filter).unwrap().collated(&c);
        let raw = bson::RawDocumentBuf::try_from(&d).unwrap();
        let by_doc = f.matches(&d);
        assert_eq!(by_doc, f.matches_raw(&raw), "raw and decoded disagree");
        by_doc
    }

    #[test]
    fn equality_ignores_case_at_strength_two() {
        assert!(m(doc! { "u": "ALICE" }, doc! { "u": "alice" }, 2));
        assert!(m(doc! { "u": "alice" }, doc! { "u": ["x", "Alice"] }, 2));
        assert!(!m(doc! { "u": "alice" }, doc! { "u": "alicé" }, 2));
        assert!(m(doc! { "u": "alice" }, doc! { "u": "ALICÉ" }, 1));
        assert!(!m(doc! { "u": "ALICE" }, doc! { "u": "alice" }, 3));
    }

    #[test]
    fn negations_ranges_and_lists_fold_too() {
        assert!(!m(doc! { "u": { "$ne": "BOB" } }, doc! { "u": "bob" }, 2));
        assert!(m(
            doc! { "u": { "$in": ["X", "BOB"] } },
            doc! { "u": "bob" },
            2
        ));
        assert!(!m(
            doc! { "u": { "$nin": ["BOB"] } },
            doc! { "u": "Bob" },
            2
        ));
        assert!(m(
            doc! { "u": { "$gte": "B", "$lt": "C" } },
            doc! { "u": "bob" },
            2
        ));
        assert!(m(doc! { "n": 5, "u": "X" }, doc! { "n": 5, "u": "x" }, 2));
        assert!(m(
            doc! { "a": { "$elemMatch": { "u": "BOB" } } },
            doc! { "a": [{ "u": "bob" }] },
            2
        ));
    }
}
