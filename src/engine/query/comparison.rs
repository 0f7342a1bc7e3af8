//! `$eq $ne $gt $gte $lt $lte $in $nin`: equality across types, ranges within a type bracket.

use super::{evaluation::RegexOp, PathOp};
use crate::engine::compare::{compare, equal, rank};
use crate::engine::error::{EngineError, Result};
use crate::engine::path::Item;
use bson::Bson;
use std::cmp::Ordering;

/// Returns the parsed comparison operator.
pub fn parse(name: &str, arg: &Bson) -> Result<PathOp> {
    let list = || match arg {
        Bson::Array(a) => Ok(a.clone()),
        _ => Err(EngineError::bad_value(format!("{name} needs an array"))),
    };
    Ok(match name {
        "$eq" => PathOp::Eq(arg.clone()),
        "$ne" => PathOp::Ne(arg.clone()),
        "$gt" => PathOp::Gt(arg.clone()),
        "$gte" => PathOp::Gte(arg.clone()),
        "$lt" => PathOp::Lt(arg.clone()),
        "$lte" => PathOp::Lte(arg.clone()),
        "$in" => PathOp::In(InList::new(checked_in(list()?)?)),
        _ => PathOp::Nin(InList::new(checked_in(list()?)?)),
    })
}

fn checked_in(values: Vec<Bson>) -> Result<Vec<Bson>> {
    for v in &values {
        if let Bson::Document(d) = v {
            if d.keys().next().is_some_and(|k| k.starts_with('$')) {
                return Err(EngineError::bad_value("cannot nest $ under $in"));
            }
        }
        if let Bson::RegularExpression(r) = v {
            RegexOp::new(r.pattern.as_str(), r.options.as_str())?;
        }
    }
    Ok(values)
}

/// Returns true when one reached item satisfies a positive comparison operator.
pub fn matches(op: &PathOp, item: Item<'_>) -> bool {
    match op {
        PathOp::Eq(v) => eq_item(v, item),
        PathOp::In(list) => in_item(list, item),
        PathOp::Gt(v) => range(v, item, |o| o == Ordering::Greater, false),
        PathOp::Gte(v) => range(v, item, |o| o != Ordering::Less, true),
        PathOp::Lt(v) => range(v, item, |o| o == Ordering::Less, false),
        PathOp::Lte(v) => range(v, item, |o| o != Ordering::Greater, true),
        _ => false,
    }
}

/// The list of `$in` / `$nin`: the values as given, with their regexes compiled once (a
/// scan tries the list on every value of every document).
#[derive(Debug, Clone)]
pub struct InList {
    pub(super) values: Vec<Bson>,
    pub(super) regexes: Vec<RegexOp>,
}

impl InList {
    /// Returns the list of `values`; a regex that does not compile matches nothing (the
    /// parser refuses it first: [`parse`]).
    pub fn new(values: Vec<Bson>) -> InList {
        let regexes = values
            .iter()
            .filter_map(|v| match v {
                Bson::RegularExpression(r) => {
                    RegexOp::new(r.pattern.as_str(), r.options.as_str()).ok()
                }
                _ => None,
            })
            .collect();
        InList { values, regexes }
    }
}

impl std::ops::Deref for InList {
    type Target = [Bson];

    /// The values as given, regexes included.
    fn deref(&self) -> &[Bson] {
        &self.values
    }
}

/// Returns true when one reached item equals one of `list` (`$in`; regexes match strings).
pub fn in_item(list: &InList, item: Item<'_>) -> bool {
    list.values
        .iter()
        .any(|v| !matches!(v, Bson::RegularExpression(_)) && eq_item(v, item))
        || list.regexes.iter().any(|re| re.matches_item(item))
}

/// Returns true when one reached item equals `v` (`$eq`; null also matches missing).
pub fn eq_item(v: &Bson, item: Item<'_>) -> bool {
    match item {
        Item::Missing => matches!(v, Bson::Null),
        Item::Value(x) => equal(x, v),
    }
}

/// A range only compares values of the same canonical type (type bracketing); null bounds
/// with `$gte`/`$lte` also match missing fields. MinKey/MaxKey bounds span every type.
fn range(v: &Bson, item: Item<'_>, ok: impl Fn(Ordering) -> bool, inclusive: bool) -> bool {
    match item {
        Item::Missing => inclusive && matches!(v, Bson::Null),
        Item::Value(x) => {
            let nan = |b: &Bson| matches!(b, Bson::Double(f) if f.is_nan());
            if nan(x) || nan(v) {
                // mongod: NaN is only "in range" of itself, through $gte/$lte.
                return inclusive && nan(x) && nan(v);
            }
            if matches!(v, Bson::MinKey | Bson::MaxKey) || rank(x) == rank(v) {
                ok(compare(x, v))
            } else {
                false
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::query::Filter;
    use bson::{doc, Document};

    fn m(f: Document, d: Document) -> bool {
        Filter::parse(&f).map(|f| f.matches(&d)).unwrap_or(false)
    }

    #[test]
    fn ranges_stay_in_their_type_bracket() {
        assert!(m(doc! {"a": {"$gt": 1}}, doc! {"a": 1.5}));
        assert!(!m(doc! {"a": {"$gt": 1}}, doc! {"a": "2"}));
        assert!(!m(doc! {"a": {"$lt": "b"}}, doc! {"a": 1}));
        assert!(m(doc! {"a": {"$lt": "b"}}, doc! {"a": ["z", "a"]}));
        assert!(m(doc! {"a": {"$gte": null}}, doc! {}));
        assert!(!m(doc! {"a": {"$gt": null}}, doc! {}));
        assert!(m(doc! {"a": {"$gt": bson::Bson::MinKey}}, doc! {"a": "x"}));
    }

    #[test]
    fn in_and_nin() {
        assert!(m(doc! {"a": {"$in": [null]}}, doc! {}));
        assert!(m(doc! {"a": {"$in": [2, 3]}}, doc! {"a": [1, 3]}));
        assert!(!m(doc! {"a": {"$nin": [2, 3]}}, doc! {"a": [1, 3]}));
        assert!(Filter::parse(&doc! {"a": {"$in": 1}}).is_err());
        assert!(Filter::parse(&doc! {"a": {"$in": [{"$gt": 1}]}}).is_err());
    }
}
