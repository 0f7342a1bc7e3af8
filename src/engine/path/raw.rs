//! The path walk of [`super`] over stored documents, which are raw BSON: the same rules
//! ([`super::items`]), read from the bytes without building a `Document`.

use super::{array_index, CompiledPath};
use bson::{Bson, RawArray, RawBsonRef, RawDocument};

/// One value a query path reaches in a raw document, or the fact that the path is missing
/// there: [`super::Item`] over raw BSON.
#[derive(Debug, Clone, Copy)]
pub enum RawItem<'a> {
    /// The path reaches this value.
    Value(RawBsonRef<'a>),
    /// The path stops before its end (absent field or scalar in the way).
    Missing,
}

/// Where a path's walk in a raw document ends when it meets no array: [`super::Reach`] over
/// raw BSON.
#[derive(Debug, Clone, Copy)]
pub enum RawReach<'a> {
    /// The path is missing (an absent field, or a scalar in the way).
    Missing,
    /// An array was met (on the way or at the end).
    Array,
    /// The value reached, with no array on the way.
    Value(RawBsonRef<'a>),
}

/// Returns the value of field `key` in `doc` (the first field of that name), reading only
/// the names before it. A stored document is valid BSON; bytes that do not parse end the
/// search.
pub fn field<'a>(doc: &'a RawDocument, key: &str) -> Option<RawBsonRef<'a>> {
    for element in doc.iter_elements() {
        let element = element.ok()?;
        if element.key().as_str() == key {
            return element.value().ok();
        }
    }
    None
}

/// Returns the elements of a raw array (a stored array is valid BSON).
pub fn elements(array: &RawArray) -> impl Iterator<Item = RawBsonRef<'_>> {
    array.into_iter().map_while(Result::ok)
}

/// Walks the path's `parts` in `doc` as [`super::reach`] does.
pub fn reach<'a, 'p>(
    doc: &'a RawDocument,
    parts: impl IntoIterator<Item = &'p str>,
) -> RawReach<'a> {
    let mut cur = doc;
    let mut parts = parts.into_iter().peekable();
    while let Some(part) = parts.next() {
        match field(cur, part) {
            None => return RawReach::Missing,
            Some(RawBsonRef::Array(_)) => return RawReach::Array,
            Some(v) if parts.peek().is_none() => return RawReach::Value(v),
            Some(RawBsonRef::Document(d)) => cur = d,
            Some(_) => return RawReach::Missing,
        }
    }
    RawReach::Missing
}

impl CompiledPath {
    /// Returns true when `f` holds for one of the items this path reaches in a raw document
    /// ([`CompiledPath::any`] on the bytes).
    pub fn any_raw(
        &self,
        doc: &RawDocument,
        expand_leaf: bool,
        f: &mut dyn FnMut(RawItem<'_>) -> bool,
    ) -> bool {
        any_doc(doc, &self.parts, expand_leaf, f)
    }

    /// Returns where this path's walk in a raw document ends when it meets no array.
    pub fn reach_raw<'a>(&self, doc: &'a RawDocument) -> RawReach<'a> {
        reach(doc, self.parts.iter().map(String::as_str))
    }
}

/// Returns true when `f` holds for one of the items a path reaches when its walk meets no
/// array before its end and reaches `reached` (`None`: missing): [`super::any_reached`].
pub fn any_reached(
    reached: Option<RawBsonRef<'_>>,
    expand_leaf: bool,
    f: &mut dyn FnMut(RawItem<'_>) -> bool,
) -> bool {
    match reached {
        None => f(RawItem::Missing),
        Some(v) => any_value(v, &[], expand_leaf, f),
    }
}

/// `any_doc` of [`super`] over raw BSON.
fn any_doc(
    doc: &RawDocument,
    parts: &[String],
    expand: bool,
    f: &mut dyn FnMut(RawItem<'_>) -> bool,
) -> bool {
    let Some((first, rest)) = parts.split_first() else {
        return false;
    };
    match field(doc, first) {
        None => f(RawItem::Missing),
        Some(v) => any_value(v, rest, expand, f),
    }
}

/// `any_value` of [`super`] over raw BSON.
fn any_value(
    value: RawBsonRef<'_>,
    rest: &[String],
    expand: bool,
    f: &mut dyn FnMut(RawItem<'_>) -> bool,
) -> bool {
    let Some(first) = rest.first() else {
        if f(RawItem::Value(value)) {
            return true;
        }
        return expand
            && matches!(value, RawBsonRef::Array(a) if elements(a).any(|e| f(RawItem::Value(e))));
    };
    match value {
        RawBsonRef::Document(d) => any_doc(d, rest, expand, f),
        RawBsonRef::Array(a) => {
            if let Some(i) = array_index(first) {
                let after = rest.get(1..).unwrap_or(&[]);
                if elements(a)
                    .nth(i)
                    .is_some_and(|e| any_value(e, after, expand, f))
                {
                    return true;
                }
                // As in `walk_value`: only what element documents hold counts.
                let mut values_only =
                    |item: RawItem<'_>| matches!(item, RawItem::Value(_)) && f(item);
                return elements(a).any(|e| {
                    matches!(e, RawBsonRef::Document(d) if any_doc(d, rest, expand, &mut values_only))
                });
            }
            elements(a).any(|e| matches!(e, RawBsonRef::Document(d) if any_doc(d, rest, expand, f)))
        }
        _ => f(RawItem::Missing),
    }
}

/// Returns a raw value decoded (null for bytes that do not decode: stored documents do).
fn decoded(value: RawBsonRef<'_>) -> Bson {
    Bson::try_from(value).unwrap_or(Bson::Null)
}

/// Returns [`super::key_values`] of a raw document: the keys it contributes to one field of
/// an index and the path of the first array met.
pub fn key_values(doc: &RawDocument, parts: &[&str]) -> (Vec<Bson>, Option<String>) {
    let mut out = Vec::new();
    let mut array_at: Option<String> = None;
    key_walk_doc(doc, parts, 0, &mut out, &mut array_at, parts);
    if out.is_empty() {
        out.push(Bson::Null);
    }
    (out, array_at)
}

/// `key_walk_doc` of [`super`] over raw BSON.
fn key_walk_doc(
    doc: &RawDocument,
    parts: &[&str],
    depth: usize,
    out: &mut Vec<Bson>,
    array_at: &mut Option<String>,
    all: &[&str],
) {
    let Some((first, rest)) = parts.split_first() else {
        return;
    };
    match field(doc, first) {
        None => out.push(Bson::Null),
        Some(v) => key_walk_value(v, rest, depth + 1, out, array_at, all),
    }
}

/// `key_walk_value` of [`super`] over raw BSON.
fn key_walk_value(
    value: RawBsonRef<'_>,
    rest: &[&str],
    depth: usize,
    out: &mut Vec<Bson>,
    array_at: &mut Option<String>,
    all: &[&str],
) {
    match value {
        RawBsonRef::Array(a) => {
            if array_at.is_none() {
                *array_at = Some(
                    all.iter()
                        .take(depth)
                        .copied()
                        .collect::<Vec<_>>()
                        .join("."),
                );
            }
            if rest.is_empty() {
                if a.is_empty() {
                    out.push(Bson::Undefined);
                }
                out.extend(elements(a).map(decoded));
                return;
            }
            for e in elements(a) {
                match e {
                    RawBsonRef::Document(d) => key_walk_doc(d, rest, depth, out, array_at, all),
                    _ => out.push(Bson::Null),
                }
            }
        }
        _ if rest.is_empty() => out.push(decoded(value)),
        RawBsonRef::Document(d) => key_walk_doc(d, rest, depth, out, array_at, all),
        _ => out.push(Bson::Null),
    }
}
