//! Matching stored documents on their raw BSON: the rules of [`Filter::matches`], read from
//! the bytes. Comparisons of scalars (numbers, strings, booleans, ObjectIds, dates, null),
//! `$in`/`$nin`, `$exists`, `$type`, `$size`, `$regex` on strings and the logical operators
//! allocate nothing; anything rarer (a sub-document or array compared as a whole,
//! `$elemMatch`, `$mod`, `$expr`) converts just the value reached (for `$expr`, the
//! document) and runs the code for `Document`s, so the answer is the same by construction.

use super::{comparison::InList, evaluation::RegexOp, Filter, PathOp};
use crate::engine::compare::{cmp_num, compare, rank, Num};
use crate::engine::path::{CompiledPath, Item, RawItem};
use crate::engine::raw::elements as raw_elements;
use bson::{Bson, Document, RawBsonRef, RawDocument};
use std::cmp::Ordering;

/// Searches the items a path reaches in a raw document: `(expand_leaf, f)` tells whether `f`
/// holds for one of them.
type RawItemSearch<'a> = dyn FnMut(bool, &mut dyn FnMut(RawItem<'_>) -> bool) -> bool + 'a;

impl Filter {
    /// Returns true when the stored (raw) document matches: what [`Filter::matches`] returns
    /// for the same document decoded.
    pub fn matches_raw(&self, doc: &RawDocument) -> bool {
        match self {
            Filter::And(c) => c.iter().all(|f| f.matches_raw(doc)),
            Filter::Or(c) => c.iter().any(|f| f.matches_raw(doc)),
            Filter::Nor(c) => !c.iter().any(|f| f.matches_raw(doc)),
            Filter::Path { op, at, .. } => op.matches_at_raw(doc, at),
            Filter::Expr(_) => Document::try_from(doc).is_ok_and(|d| self.matches(&d)),
        }
    }
}

impl PathOp {
    /// Returns true when the operator holds at the compiled path `at` in a raw document
    /// ([`PathOp::matches_at`] on the bytes).
    pub fn matches_at_raw(&self, doc: &RawDocument, at: &CompiledPath) -> bool {
        self.matches_items_raw(&mut |expand, f| at.any(doc, expand, f))
    }

    /// `matches_items` over raw items.
    fn matches_items_raw(&self, any: &mut RawItemSearch<'_>) -> bool {
        match self {
            PathOp::Ne(v) => !any(true, &mut |i| eq(v, i)),
            PathOp::Nin(v) => !any(true, &mut |i| in_list(v, i)),
            PathOp::Not(ops) => !ops.iter().all(|o| o.matches_items_raw(any)),
            PathOp::All(ops) => !ops.is_empty() && ops.iter().all(|o| o.matches_items_raw(any)),
            PathOp::Exists(want) => any(false, &mut |i| matches!(i, RawItem::Value(_))) == *want,
            PathOp::Size(_) | PathOp::ElemMatchDoc(_) | PathOp::ElemMatchValue(_) => {
                any(false, &mut |i| self.matches_raw_item(i))
            }
            PathOp::Collated(op, c) => op.matches_items(&mut |expand, f| {
                any(expand, &mut |i| {
                    decoded(i, |i| super::collated::with_folded(c, i, &mut *f))
                })
            }),
            _ => any(true, &mut |i| self.matches_raw_item(i)),
        }
    }

    /// Returns true when the operator holds for one reached raw item:
    /// [`PathOp::matches_item`] on the value decoded.
    pub fn matches_raw_item(&self, item: RawItem<'_>) -> bool {
        match self {
            PathOp::Eq(v) => eq(v, item),
            PathOp::In(list) => in_list(list, item),
            PathOp::Gt(v) => range(v, item, |o| o == Ordering::Greater, false),
            PathOp::Gte(v) => range(v, item, |o| o != Ordering::Less, true),
            PathOp::Lt(v) => range(v, item, |o| o == Ordering::Less, false),
            PathOp::Lte(v) => range(v, item, |o| o != Ordering::Greater, true),
            PathOp::Exists(want) => matches!(item, RawItem::Value(_)) == *want,
            PathOp::Type(codes) => match item {
                RawItem::Value(x) => codes.contains(&i32::from(x.element_type() as u8 as i8)),
                RawItem::Missing => false,
            },
            PathOp::Size(n) => match item {
                RawItem::Value(RawBsonRef::Array(a)) => {
                    i64::try_from(raw_elements(a).count()).is_ok_and(|len| len == *n)
                }
                _ => false,
            },
            PathOp::Regex(r) => regex(r, item),
            PathOp::All(ops) => !ops.is_empty() && ops.iter().all(|o| o.matches_raw_item(item)),
            PathOp::Ne(v) => !eq(v, item),
            PathOp::Nin(v) => !in_list(v, item),
            PathOp::Not(ops) => !ops.iter().all(|o| o.matches_raw_item(item)),
            PathOp::ElemMatchDoc(_)
            | PathOp::ElemMatchValue(_)
            | PathOp::Mod(..)
            | PathOp::Collated(..) => decoded(item, |i| self.matches_item(i)),
        }
    }
}

/// Returns `f` of the item decoded (a value that does not decode matches nothing: stored
/// documents always do).
fn decoded(item: RawItem<'_>, f: impl FnOnce(Item<'_>) -> bool) -> bool {
    match item {
        RawItem::Missing => f(Item::Missing),
        RawItem::Value(x) => Bson::try_from(x).is_ok_and(|b| f(Item::Value(&b))),
    }
}

/// Returns the canonical type rank of a raw value ([`rank`]).
pub fn raw_rank(value: RawBsonRef<'_>) -> u8 {
    match value {
        RawBsonRef::MinKey => 0,
        RawBsonRef::Undefined => 1,
        RawBsonRef::Null => 2,
        RawBsonRef::Int32(_)
        | RawBsonRef::Int64(_)
        | RawBsonRef::Double(_)
        | RawBsonRef::Decimal128(_) => 3,
        RawBsonRef::String(_) | RawBsonRef::Symbol(_) => 4,
        RawBsonRef::Document(_) => 5,
        RawBsonRef::Array(_) => 6,
        RawBsonRef::Binary(_) => 7,
        RawBsonRef::ObjectId(_) => 8,
        RawBsonRef::Boolean(_) => 9,
        RawBsonRef::DateTime(_) => 10,
        RawBsonRef::Timestamp(_) => 11,
        RawBsonRef::RegularExpression(_) => 12,
        RawBsonRef::DbPointer(_) => 13,
        RawBsonRef::JavaScriptCode(_) => 14,
        RawBsonRef::JavaScriptCodeWithScope(_) => 15,
        RawBsonRef::MaxKey => 16,
    }
}

/// Returns an int32, int64 or double as a [`Num`].
fn plain_num(value: RawBsonRef<'_>) -> Option<Num> {
    match value {
        RawBsonRef::Int32(i) => Some(Num::Int(i64::from(i))),
        RawBsonRef::Int64(i) => Some(Num::Int(i)),
        RawBsonRef::Double(f) => Some(Num::Float(f)),
        _ => None,
    }
}

/// Returns [`compare`] of the raw value `x` (decoded) with `v`, reading common scalars from
/// the bytes.
pub fn compare_raw(x: RawBsonRef<'_>, v: &Bson) -> Ordering {
    let (rx, rv) = (raw_rank(x), rank(v));
    if rx != rv {
        return rx.cmp(&rv);
    }
    match (x, v) {
        (RawBsonRef::String(s), Bson::String(t)) => s.as_bytes().cmp(t.as_bytes()),
        (RawBsonRef::Boolean(a), Bson::Boolean(b)) => a.cmp(b),
        (RawBsonRef::ObjectId(a), Bson::ObjectId(b)) => a.bytes().cmp(&b.bytes()),
        (RawBsonRef::DateTime(a), Bson::DateTime(b)) => {
            a.timestamp_millis().cmp(&b.timestamp_millis())
        }
        (RawBsonRef::Null, Bson::Null) => Ordering::Equal,
        _ => {
            let plain = match v {
                Bson::Int32(i) => Some(Num::Int(i64::from(*i))),
                Bson::Int64(i) => Some(Num::Int(*i)),
                Bson::Double(f) => Some(Num::Float(*f)),
                _ => None,
            };
            match (plain_num(x), plain) {
                (Some(a), Some(b)) => cmp_num(a, b),
                // Rarer kinds: the value decoded, compared by the general code (a value
                // that does not decode sorts first; stored documents always decode).
                _ => Bson::try_from(x).map_or(Ordering::Less, |b| compare(&b, v)),
            }
        }
    }
}

/// `$eq` on one raw item (`comparison::eq_item`).
fn eq(v: &Bson, item: RawItem<'_>) -> bool {
    match item {
        RawItem::Missing => matches!(v, Bson::Null),
        RawItem::Value(x) => compare_raw(x, v) == Ordering::Equal,
    }
}

/// `$in` on one raw item (`comparison::in_item`).
fn in_list(list: &InList, item: RawItem<'_>) -> bool {
    list.values
        .iter()
        .any(|v| !matches!(v, Bson::RegularExpression(_)) && eq(v, item))
        || list.regexes.iter().any(|re| regex(re, item))
}

/// A range on one raw item (`comparison::range`).
fn range(v: &Bson, item: RawItem<'_>, ok: impl Fn(Ordering) -> bool, inclusive: bool) -> bool {
    match item {
        RawItem::Missing => inclusive && matches!(v, Bson::Null),
        RawItem::Value(x) => {
            let x_nan = matches!(x, RawBsonRef::Double(f) if f.is_nan());
            let v_nan = matches!(v, Bson::Double(f) if f.is_nan());
            if x_nan || v_nan {
                return inclusive && x_nan && v_nan;
            }
            if matches!(v, Bson::MinKey | Bson::MaxKey) || raw_rank(x) == rank(v) {
                ok(compare_raw(x, v))
            } else {
                false
            }
        }
    }
}

/// `$regex` on one raw item ([`RegexOp::matches_item`]).
fn regex(r: &RegexOp, item: RawItem<'_>) -> bool {
    match item {
        RawItem::Value(RawBsonRef::String(s)) | RawItem::Value(RawBsonRef::Symbol(s)) => {
            r.is_match(s)
        }
        RawItem::Value(RawBsonRef::RegularExpression(x)) => {
            x.pattern.as_str() == r.pattern && x.options.as_str() == r.options
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::query::Filter;
    use bson::{doc, Bson, Document, RawDocumentBuf};

    fn documents() -> Vec<Document> {
        let oid = bson::oid::ObjectId::from_bytes([7; 12]);
        let when = bson::DateTime::from_millis(1_700_000_000_000);
        vec![
            doc! {},
            doc! {"a": 1, "b": "x", "c": {"d": 2.5}},
            doc! {"a": 1.0, "b": "y", "c": {"d": [1, 2, {"e": 3}]}},
            doc! {"a": 2_i64, "b": ["x", "z"], "c": [{"d": 1}, {"d": "q"}, 5]},
            doc! {"a": f64::NAN, "b": null, "c": {"d": null}},
            doc! {"a": [1, [2, 3]], "b": {"x": 1}, "c": []},
            doc! {"a": "1", "b": Bson::Symbol("x".into()), "c": {"0": 4, "d": [[1]]}},
            doc! {"a": Bson::Decimal128("2".parse().unwrap_or(bson::Decimal128::from_bytes([0; 16]))), "b": true, "c": when},
            doc! {"a": oid, "b": Bson::RegularExpression(bson::Regex { pattern: "x".try_into().unwrap_or_else(|_| unreachable!()), options: "i".try_into().unwrap_or_else(|_| unreachable!()) }), "c": Bson::MinKey},
            doc! {"a": {"b": 1}, "c": [[{"d": 9}]], "b": Bson::Undefined},
        ]
    }

    fn filters() -> Vec<Document> {
        let oid = bson::oid::ObjectId::from_bytes([7; 12]);
        vec![
            doc! {"a": 1},
            doc! {"a": null},
            doc! {"a": {"$gt": 1}},
            doc! {"a": {"$gte": 1, "$lt": 2.5}},
            doc! {"a": {"$lte": f64::NAN}},
            doc! {"a": {"$gt": Bson::MinKey}},
            doc! {"a": {"$lt": Bson::MaxKey}},
            doc! {"a": {"$gte": null}},
            doc! {"a": {"$ne": 1}},
            doc! {"a": {"$in": [1, "1", null]}},
            doc! {"a": {"$nin": [2, 3]}},
            doc! {"a": [2, 3]},
            doc! {"a": {"b": 1}},
            doc! {"a": oid},
            doc! {"a": {"$gt": 1.5, "$lt": "2"}},
            doc! {"b": "x"},
            doc! {"b": {"$gt": "x"}},
            doc! {"b": {"$regex": "^x", "$options": "i"}},
            doc! {"b": {"$in": [Bson::RegularExpression(bson::Regex { pattern: "y|z".try_into().unwrap_or_else(|_| unreachable!()), options: "".try_into().unwrap_or_else(|_| unreachable!()) }), true]}},
            doc! {"b": {"$not": {"$regex": "x"}}},
            doc! {"b": {"$exists": false}},
            doc! {"b": {"$type": ["string", "symbol"]}},
            doc! {"b": {"$type": "array"}},
            doc! {"b": {"$size": 2}},
            doc! {"b": {"$all": ["x", "z"]}},
            doc! {"b": {"$elemMatch": {"$gt": "w"}}},
            doc! {"c.d": 1},
            doc! {"c.d": null},
            doc! {"c.d": {"$exists": true}},
            doc! {"c.d.e": 3},
            doc! {"c.0": 4},
            doc! {"c.0.d": {"$gte": 1}},
            doc! {"c.d": [1]},
            doc! {"c": {"$gt": bson::DateTime::from_millis(0)}},
            doc! {"c": {"$elemMatch": {"d": {"$type": "string"}}}},
            doc! {"c": {"$size": 0}},
            doc! {"a": {"$mod": [2, 0]}},
            doc! {"$or": [{"a": 1}, {"b": "y"}], "c.d": {"$ne": null}},
            doc! {"$nor": [{"a": {"$type": "number"}}]},
            doc! {"$and": [{"a": {"$exists": true}}, {"b": {"$nin": ["x", null]}}]},
            doc! {"$expr": {"$eq": ["$a", 1]}},
        ]
    }

    /// On stored bytes, every filter matches exactly the documents it matches decoded.
    #[test]
    fn raw_matching_agrees_with_document_matching() {
        for f in filters() {
            let Ok(filter) = Filter::parse(&f) else {
                panic!("filter {f} does not parse");
            };
            for d in documents() {
                let Ok(raw) = RawDocumentBuf::try_from(&d) else {
                    panic!("{d} does not encode");
                };
                assert_eq!(filter.matches_raw(&raw), filter.matches(&d), "{f} on {d}");
            }
        }
    }
}
