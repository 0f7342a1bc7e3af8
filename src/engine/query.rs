//! Query filters: parsed once into a [`Filter`] tree (a plan value), then matched per document.
//!
//! Each operator family lives in its own file under `query/` and is reached through the one
//! registry `match` in [`parse_operator`]; [`Filter::matches`] dispatches the same way.

pub mod array;
pub mod collated;
pub mod comparison;
pub mod element;
pub mod evaluation;
pub mod logical;
pub mod raw;

use crate::engine::compare::shell_doc;
use crate::engine::error::{EngineError, Result};
use crate::engine::expr::Expr;
use crate::engine::path::{self, CompiledPath, Item};
use bson::{Bson, Document};
use std::fmt;

/// Searches the items a path reaches: `(expand_leaf, f)` tells whether `f` holds for one of
/// them (a leaf array's elements included when `expand_leaf`).
pub type ItemSearch<'a> = dyn FnMut(bool, &mut dyn FnMut(Item<'_>) -> bool) -> bool + 'a;

/// A parsed query filter.
#[derive(Debug, Clone)]
pub enum Filter {
    /// Every child matches (`$and`, or the fields of one filter document).
    And(Vec<Filter>),
    /// Some child matches.
    Or(Vec<Filter>),
    /// No child matches.
    Nor(Vec<Filter>),
    /// One operator applied at a dotted path.
    Path {
        /// The dotted path, e.g. `items.price`.
        path: String,
        /// What the values at the path must satisfy.
        op: PathOp,
        /// The path split once, for matching (see [`CompiledPath`]).
        at: CompiledPath,
    },
    /// An aggregation expression that must be truthy (`$expr`).
    Expr(Expr),
}

/// An operator applied to the values a path reaches.
#[derive(Debug, Clone)]
pub enum PathOp {
    /// `$eq` (and implicit equality): some value equals, or null matches missing.
    Eq(Bson),
    /// `$ne`: no value equals.
    Ne(Bson),
    /// `$gt`, within the value's type bracket.
    Gt(Bson),
    /// `$gte`, within the value's type bracket.
    Gte(Bson),
    /// `$lt`, within the value's type bracket.
    Lt(Bson),
    /// `$lte`, within the value's type bracket.
    Lte(Bson),
    /// `$in`: equal to one of the values (regexes match strings).
    In(comparison::InList),
    /// `$nin`: not `$in`.
    Nin(comparison::InList),
    /// `$exists`.
    Exists(bool),
    /// `$type` with the type numbers listed (`number` expands to four).
    Type(Vec<i32>),
    /// `$size`: an array of exactly this length.
    Size(i64),
    /// `$all`: every listed value (or `$elemMatch`) matches.
    All(Vec<PathOp>),
    /// `$elemMatch` with a sub-filter on document elements.
    ElemMatchDoc(Box<Filter>),
    /// `$elemMatch` with operators on the elements themselves.
    ElemMatchValue(Vec<PathOp>),
    /// `$regex` (and a regex literal used as a value).
    Regex(evaluation::RegexOp),
    /// `$mod: [divisor, remainder]`.
    Mod(i64, i64),
    /// `$not`: none of the operators matches.
    Not(Vec<PathOp>),
    /// An operator under a query's collation: its operands are folded already, and each
    /// value it is tried on is folded first (`query/collated.rs`).
    Collated(Box<PathOp>, crate::engine::collation::Collation),
}

impl Filter {
    /// Returns the filter applying `op` at the dotted `path`.
    pub fn path(path: impl Into<String>, op: PathOp) -> Filter {
        let path = path.into();
        let at = CompiledPath::new(&path);
        Filter::Path { path, op, at }
    }

    /// Returns the filter for a query document, checking every operator.
    pub fn parse(query: &Document) -> Result<Filter> {
        let mut children = Vec::new();
        for (key, value) in query {
            if let Some(op) = key.strip_prefix('$') {
                children.push(logical::parse_top_level(op, value)?);
            } else {
                children.extend(parse_path(key, value)?);
            }
        }
        Ok(if children.len() == 1 {
            children.remove(0)
        } else {
            Filter::And(children)
        })
    }

    /// Returns true when the document matches.
    pub fn matches(&self, doc: &Document) -> bool {
        match self {
            Filter::And(c) => c.iter().all(|f| f.matches(doc)),
            Filter::Or(c) => c.iter().any(|f| f.matches(doc)),
            Filter::Nor(c) => !c.iter().any(|f| f.matches(doc)),
            Filter::Path { op, at, .. } => op.matches_at(doc, at),
            Filter::Expr(e) => e
                .eval(doc)
                .map(|v| crate::engine::expr::truthy(v.as_ref()))
                .unwrap_or(false),
        }
    }

    /// Returns true when the filter matches every document (the empty filter).
    pub fn is_empty(&self) -> bool {
        matches!(self, Filter::And(c) if c.is_empty())
    }

    /// Returns the filter as mongod prints a parsed filter (`{ a: { $eq: 1 } }`).
    pub fn to_document(&self) -> Document {
        match self {
            Filter::And(c) if c.is_empty() => Document::new(),
            Filter::And(c) => {
                let list: Vec<Bson> = c.iter().map(|f| Bson::Document(f.to_document())).collect();
                bson::doc! {"$and": list}
            }
            Filter::Or(c) => {
                let list: Vec<Bson> = c.iter().map(|f| Bson::Document(f.to_document())).collect();
                bson::doc! {"$or": list}
            }
            Filter::Nor(c) => {
                let list: Vec<Bson> = c.iter().map(|f| Bson::Document(f.to_document())).collect();
                bson::doc! {"$nor": list}
            }
            Filter::Path { path, op, .. } => {
                let mut d = Document::new();
                d.insert(path.clone(), op.to_bson());
                d
            }
            Filter::Expr(e) => bson::doc! {"$expr": e.to_bson()},
        }
    }

    /// Returns the top-level conjuncts (the children of an `$and`, or the filter itself).
    pub fn conjuncts(&self) -> Vec<&Filter> {
        match self {
            Filter::And(c) => c.iter().flat_map(|f| f.conjuncts()).collect(),
            other => vec![other],
        }
    }
}

impl fmt::Display for Filter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&shell_doc(&self.to_document()))
    }
}

/// Returns the filters for one `path: value` entry of a query document.
pub fn parse_path(path: &str, value: &Bson) -> Result<Vec<Filter>> {
    if path.is_empty() {
        return Err(EngineError::bad_value(
            "field names in a filter cannot be empty",
        ));
    }
    let ops = match value {
        Bson::Document(d) if d.keys().next().is_some_and(|k| k.starts_with('$')) => {
            parse_operators(d)?
        }
        Bson::RegularExpression(r) => vec![PathOp::Regex(evaluation::RegexOp::new(
            r.pattern.as_str(),
            r.options.as_str(),
        )?)],
        other => vec![PathOp::Eq(other.clone())],
    };
    Ok(ops.into_iter().map(|op| Filter::path(path, op)).collect())
}

/// Returns the operators of an operator document such as `{ $gt: 1, $lt: 5 }`.
pub fn parse_operators(d: &Document) -> Result<Vec<PathOp>> {
    let mut ops = Vec::new();
    let options = d.get("$options");
    for (name, arg) in d {
        match name.as_str() {
            "$options" => {
                if !d.contains_key("$regex") {
                    return Err(EngineError::bad_value("$options needs a $regex"));
                }
            }
            "$regex" => ops.push(PathOp::Regex(evaluation::RegexOp::parse(arg, options)?)),
            other => ops.push(parse_operator(other, arg)?),
        }
    }
    Ok(ops)
}

/// The operator registry: returns the parsed operator `name` with its argument.
pub fn parse_operator(name: &str, arg: &Bson) -> Result<PathOp> {
    match name {
        "$eq" | "$ne" | "$gt" | "$gte" | "$lt" | "$lte" | "$in" | "$nin" => {
            comparison::parse(name, arg)
        }
        "$exists" | "$type" => element::parse(name, arg),
        "$size" | "$all" | "$elemMatch" => array::parse(name, arg),
        "$mod" | "$where" | "$text" | "$expr" | "$jsonSchema" => evaluation::parse(name, arg),
        "$not" => logical::parse_not(arg),
        other => Err(EngineError::bad_value(format!("unknown operator: {other}"))),
    }
}

impl PathOp {
    /// Returns true when the operator holds at `path` in `doc`.
    pub fn matches_path(&self, doc: &Document, path: &str) -> bool {
        self.matches_at(doc, &CompiledPath::new(path))
    }

    /// Returns true when the operator holds at the compiled path `at` in `doc`: on the items
    /// [`path::items`] lists, searched without listing them (the collection-scan hot path).
    pub fn matches_at(&self, doc: &Document, at: &CompiledPath) -> bool {
        self.matches_items(&mut |expand, f| at.any(doc, expand, f))
    }

    /// Returns true when the operator holds at a path whose walk meets no array before its
    /// end, given what it reaches there (`None`: missing): what [`PathOp::matches_at`] returns
    /// for every document with that value at that path (see `engine::columns`).
    pub fn matches_reached(&self, reached: Option<&Bson>) -> bool {
        self.matches_items(&mut |expand, f| path::any_reached(reached, expand, f))
    }

    /// Returns true when the operator holds on the items `any` searches: `any(expand_leaf,
    /// f)` tells whether `f` holds for one of the items the path reaches (a leaf array's
    /// elements included when `expand_leaf`).
    fn matches_items(&self, any: &mut ItemSearch<'_>) -> bool {
        match self {
            PathOp::Ne(v) => !any(true, &mut |i| comparison::eq_item(v, i)),
            PathOp::Nin(v) => !any(true, &mut |i| comparison::in_item(v, i)),
            PathOp::Not(ops) => !ops.iter().all(|o| o.matches_items(any)),
            PathOp::All(ops) => !ops.is_empty() && ops.iter().all(|o| o.matches_items(any)),
            PathOp::Exists(want) => any(false, &mut |i| matches!(i, Item::Value(_))) == *want,
            PathOp::Size(_) | PathOp::ElemMatchDoc(_) | PathOp::ElemMatchValue(_) => {
                any(false, &mut |i| self.matches_item(i))
            }
            PathOp::Collated(op, c) => op.matches_items(&mut |expand, f| {
                any(expand, &mut |i| collated::with_folded(c, i, &mut *f))
            }),
            _ => any(true, &mut |i| self.matches_item(i)),
        }
    }

    /// Returns true when the operator holds for one reached item (not for negations).
    pub fn matches_item(&self, item: Item<'_>) -> bool {
        match self {
            PathOp::Eq(_)
            | PathOp::Gt(_)
            | PathOp::Gte(_)
            | PathOp::Lt(_)
            | PathOp::Lte(_)
            | PathOp::In(_) => comparison::matches(self, item),
            PathOp::Exists(want) => matches!(item, Item::Value(_)) == *want,
            PathOp::Type(_) => element::matches(self, item),
            PathOp::Size(_) | PathOp::ElemMatchDoc(_) | PathOp::ElemMatchValue(_) => {
                array::matches(self, item)
            }
            PathOp::Regex(r) => r.matches_item(item),
            PathOp::Mod(d, r) => evaluation::matches_mod(*d, *r, item),
            PathOp::All(ops) => !ops.is_empty() && ops.iter().all(|o| o.matches_item(item)),
            PathOp::Ne(v) => !comparison::eq_item(v, item),
            PathOp::Nin(v) => !comparison::in_item(v, item),
            PathOp::Not(ops) => !ops.iter().all(|o| o.matches_item(item)),
            PathOp::Collated(op, c) => collated::with_folded(c, item, &mut |i| op.matches_item(i)),
        }
    }

    /// Returns true when the operator holds for a single value (used by `$elemMatch` on values
    /// and by `$pull` conditions): the value and, if it is an array, its elements.
    pub fn matches_value(&self, value: &Bson) -> bool {
        // What the path `v` reaches in `{ v: value }`: no array before its end, the value at
        // it (a leaf array's elements included), without building that document.
        self.matches_reached(Some(value))
    }

    /// Returns the operator as mongod prints it (`{ $gt: 5 }`).
    pub fn to_bson(&self) -> Bson {
        let one = |k: &str, v: Bson| {
            let mut d = Document::new();
            d.insert(k, v);
            Bson::Document(d)
        };
        match self {
            PathOp::Eq(v) => one("$eq", v.clone()),
            PathOp::Ne(v) => one("$ne", v.clone()),
            PathOp::Gt(v) => one("$gt", v.clone()),
            PathOp::Gte(v) => one("$gte", v.clone()),
            PathOp::Lt(v) => one("$lt", v.clone()),
            PathOp::Lte(v) => one("$lte", v.clone()),
            PathOp::In(v) => one("$in", Bson::Array(v.to_vec())),
            PathOp::Nin(v) => one("$nin", Bson::Array(v.to_vec())),
            PathOp::Exists(b) => one("$exists", Bson::Boolean(*b)),
            PathOp::Type(t) => one(
                "$type",
                Bson::Array(t.iter().map(|n| Bson::Int32(*n)).collect()),
            ),
            PathOp::Size(n) => one("$size", Bson::Int64(*n)),
            PathOp::All(ops) => one(
                "$all",
                Bson::Array(ops.iter().map(|o| o.to_bson()).collect()),
            ),
            PathOp::ElemMatchDoc(f) => one("$elemMatch", Bson::Document(f.to_document())),
            PathOp::ElemMatchValue(ops) => {
                let mut d = Document::new();
                for o in ops {
                    if let Bson::Document(x) = o.to_bson() {
                        d.extend(x);
                    }
                }
                one("$elemMatch", Bson::Document(d))
            }
            PathOp::Regex(r) => one("$regex", r.to_bson()),
            PathOp::Mod(d, r) => one("$mod", Bson::Array(vec![Bson::Int64(*d), Bson::Int64(*r)])),
            PathOp::Not(ops) => {
                let mut d = Document::new();
                for o in ops {
                    if let Bson::Document(x) = o.to_bson() {
                        d.extend(x);
                    }
                }
                one("$not", Bson::Document(d))
            }
            PathOp::Collated(op, _) => op.to_bson(),
        }
    }
}

/// Returns the index of the first array element that made the filter match, for the
/// positional `$` update operator; `None` when no path predicate ran through an array.
pub fn positional_match(filter: &Filter, doc: &Document) -> Option<usize> {
    for f in filter.conjuncts() {
        let Filter::Path { path, op, .. } = f else {
            continue;
        };
        let parts = path::split(path);
        // Find the first array along the path.
        for depth in 1..=parts.len() {
            let (head, tail) = parts.split_at(depth);
            let Some(Bson::Array(arr)) = path::get(doc, head) else {
                continue;
            };
            let prefix = head.join(".");
            let rest = tail.join(".");
            for (i, elem) in arr.iter().enumerate() {
                let hit = if rest.is_empty() {
                    match op {
                        PathOp::ElemMatchDoc(_) | PathOp::ElemMatchValue(_) => {
                            array::matches(op, Item::Value(&Bson::Array(vec![elem.clone()])))
                        }
                        _ => op.matches_value(elem),
                    }
                } else {
                    let sub = format!("{prefix}.{i}.{rest}");
                    op.matches_path(doc, &sub)
                };
                if hit {
                    return Some(i);
                }
            }
            break;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    fn m(filter: Document, d: Document) -> bool {
        Filter::parse(&filter)
            .map(|f| f.matches(&d))
            .unwrap_or(false)
    }

    #[test]
    fn implicit_equality_and_arrays() {
        assert!(m(doc! {"a": 1}, doc! {"a": [1, 2]}));
        assert!(m(doc! {"a": [1, 2]}, doc! {"a": [1, 2]}));
        assert!(m(doc! {"a": [1, 2]}, doc! {"a": [[1, 2], 3]}));
        assert!(!m(doc! {"a": [2, 1]}, doc! {"a": [1, 2]}));
        assert!(m(doc! {"a": {"b": 1}}, doc! {"a": {"b": 1}}));
        assert!(!m(doc! {"a": {"b": 1}}, doc! {"a": {"b": 1, "c": 2}}));
        assert!(m(doc! {"a.b": 2}, doc! {"a": [{"b": 1}, {"b": 2}]}));
        assert!(m(doc! {"a.1": 2}, doc! {"a": [1, 2]}));
    }

    #[test]
    fn null_matches_missing() {
        assert!(m(doc! {"a": null}, doc! {"b": 1}));
        assert!(m(doc! {"a": null}, doc! {"a": null}));
        assert!(!m(doc! {"a": null}, doc! {"a": 0}));
        assert!(m(doc! {"a.b": null}, doc! {"a": [{"b": 1}, {"c": 1}]}));
        assert!(!m(doc! {"a": {"$ne": null}}, doc! {"b": 1}));
    }

    #[test]
    fn ne_and_nin_over_arrays() {
        assert!(!m(doc! {"a": {"$ne": 1}}, doc! {"a": [1, 2]}));
        assert!(m(doc! {"a": {"$ne": 3}}, doc! {"a": [1, 2]}));
        assert!(!m(doc! {"a": {"$nin": [2, 5]}}, doc! {"a": [1, 2]}));
        assert!(m(doc! {"a": {"$nin": [2, 5]}}, doc! {"b": 1}));
    }

    #[test]
    fn refuses_javascript() {
        let e = Filter::parse(&doc! {"$where": "this.a > 1"})
            .err()
            .map(|e| e.message)
            .unwrap_or_default();
        assert!(e.contains("never runs user code"), "{e}");
    }

    #[test]
    fn positional_index() {
        let f = Filter::parse(&doc! {"grades": {"$gte": 85}}).ok();
        let d = doc! {"grades": [80, 85, 90]};
        assert_eq!(f.and_then(|f| positional_match(&f, &d)), Some(1));
    }
}
