//! Dotted-path resolution with MongoDB's array rules, for query matching and index keys.
//!
//! A query path such as `a.b` reaches every `b` of every document element of the array `a`;
//! a numeric component (`a.1`) is both an array position and a field name; a leaf array yields
//! itself and each of its elements, and a path that stops short yields "missing".

mod raw;

pub use raw::{
    any_reached as any_reached_raw, array_value_sizes as raw_array_value_sizes,
    decode as decode_raw, element_bytes as raw_element_bytes, elements as raw_elements,
    field as raw_field, key_values as key_values_raw, object_id_array as raw_object_id_array,
    reach as reach_raw, select_fields as raw_select_fields, to_bson as raw_to_bson,
};
pub use raw::{RawItem, RawReach};

use bson::{Bson, Document};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// One value a query path reaches in a document, or the fact that the path is missing there.
#[derive(Debug, Clone, Copy)]
pub enum Item<'a> {
    /// The path reaches this value.
    Value(&'a Bson),
    /// The path stops before its end (absent field or scalar in the way).
    Missing,
}

/// Returns the path split at dots.
pub fn split(path: &str) -> Vec<&str> {
    path.split('.').collect()
}

/// Returns the value of field `key` in `doc`. Small documents are searched in order, which
/// is faster than hashing the key (the collection-scan hot path).
pub fn field<'a>(doc: &'a Document, key: &str) -> Option<&'a Bson> {
    if doc.len() <= 16 {
        doc.iter().find(|(k, _)| k.as_str() == key).map(|(_, v)| v)
    } else {
        doc.get(key)
    }
}

/// Where a path's walk ends when it meets no array.
#[derive(Debug, Clone, Copy)]
pub enum Reach<'a> {
    /// The path is missing (an absent field, or a scalar in the way).
    Missing,
    /// An array was met (on the way or at the end): the general rules of [`items`] apply.
    Array,
    /// The value reached, with no array on the way: the one item [`items`] lists.
    Value(&'a Bson),
}

/// Walks the path's `parts` in `doc` as [`items`] does while no array is met (the columns of
/// a scan and the sort keys take their fast path from it).
pub fn reach<'a, 'p>(doc: &'a Document, parts: impl IntoIterator<Item = &'p str>) -> Reach<'a> {
    let mut cur = doc;
    let mut parts = parts.into_iter().peekable();
    while let Some(part) = parts.next() {
        match field(cur, part) {
            None => return Reach::Missing,
            Some(Bson::Array(_)) => return Reach::Array,
            Some(v) if parts.peek().is_none() => return Reach::Value(v),
            Some(Bson::Document(d)) => cur = d,
            Some(_) => return Reach::Missing,
        }
    }
    Reach::Missing
}

/// Returns `part` as an array index when it is all ASCII digits.
pub fn array_index(part: &str) -> Option<usize> {
    if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    part.parse().ok()
}

/// Returns every item the path reaches in `doc`.
///
/// With `expand_leaf`, a leaf array yields itself then each element (what `$eq`, `$gt`, `$in`,
/// `$type`, `$regex` see); without it, only the array (what `$size` and `$elemMatch` see).
pub fn items<'a>(doc: &'a Document, parts: &[&str], expand_leaf: bool) -> Vec<Item<'a>> {
    let mut out = Vec::new();
    walk_doc(doc, parts, expand_leaf, &mut out);
    out
}

fn walk_doc<'a>(doc: &'a Document, parts: &[&str], expand: bool, out: &mut Vec<Item<'a>>) {
    let Some((first, rest)) = parts.split_first() else {
        return;
    };
    match field(doc, first) {
        None => out.push(Item::Missing),
        Some(v) => walk_value(v, rest, expand, out),
    }
}

fn walk_value<'a>(value: &'a Bson, rest: &[&str], expand: bool, out: &mut Vec<Item<'a>>) {
    let Some((first, after)) = rest.split_first() else {
        out.push(Item::Value(value));
        if expand {
            if let Bson::Array(a) = value {
                out.extend(a.iter().map(Item::Value));
            }
        }
        return;
    };
    match value {
        Bson::Document(d) => walk_doc(d, rest, expand, out),
        Bson::Array(a) => {
            if let Some(i) = array_index(first) {
                if let Some(e) = a.get(i) {
                    walk_value(e, after, expand, out);
                }
                // Element documents may also have a field named like the index; only what they
                // hold counts (their lack of it does not make the path "missing").
                let mut inner = Vec::new();
                for e in a {
                    if let Bson::Document(d) = e {
                        walk_doc(d, rest, expand, &mut inner);
                    }
                }
                out.extend(inner.into_iter().filter(|i| matches!(i, Item::Value(_))));
                return;
            }
            for e in a {
                if let Bson::Document(d) = e {
                    walk_doc(d, rest, expand, out);
                }
            }
        }
        _ => out.push(Item::Missing),
    }
}

/// A query path split once at its dots, with a guess for each component of where its field
/// sits in a document. The documents of a collection usually share one field order, so a
/// lookup first compares the key at the position where that component was last found (one
/// key comparison instead of one per preceding field) and searches only when it differs. The
/// key is always compared, so the guess changes how fast a field is found, never what.
#[derive(Debug, Default)]
pub struct CompiledPath {
    parts: Vec<String>,
    guesses: Vec<AtomicUsize>,
}

impl Clone for CompiledPath {
    fn clone(&self) -> Self {
        CompiledPath {
            parts: self.parts.clone(),
            guesses: self
                .guesses
                .iter()
                .map(|g| AtomicUsize::new(g.load(Relaxed)))
                .collect(),
        }
    }
}

impl CompiledPath {
    /// Returns the compiled form of a dotted path.
    pub fn new(path: &str) -> CompiledPath {
        let parts: Vec<String> = path.split('.').map(str::to_string).collect();
        let guesses = parts.iter().map(|_| AtomicUsize::new(0)).collect();
        CompiledPath { parts, guesses }
    }

    /// Returns true when `f` holds for one of the items [`items`] would list for this path
    /// (with the same `expand_leaf`), without building the list.
    pub fn any(
        &self,
        doc: &Document,
        expand_leaf: bool,
        f: &mut dyn FnMut(Item<'_>) -> bool,
    ) -> bool {
        any_doc(doc, &self.parts, &self.guesses, expand_leaf, f)
    }
}

/// Returns true when `f` holds for one of the items a path reaches when its walk meets no
/// array before its end and reaches `reached` (`None`: the path is missing): the last step
/// of [`CompiledPath::any`].
pub fn any_reached(
    reached: Option<&Bson>,
    expand_leaf: bool,
    f: &mut dyn FnMut(Item<'_>) -> bool,
) -> bool {
    match reached {
        None => f(Item::Missing),
        Some(v) => any_value(v, &[], &[], expand_leaf, f),
    }
}

/// Returns the value of field `key` in `doc`, trying the position `guess` first and updating
/// it when the field is found elsewhere (see [`CompiledPath`]).
fn field_guessed<'a>(doc: &'a Document, key: &str, guess: &AtomicUsize) -> Option<&'a Bson> {
    if let Some((k, v)) = doc.iter().nth(guess.load(Relaxed)) {
        if k.as_str() == key {
            return Some(v);
        }
    }
    if doc.len() > 16 {
        return doc.get(key);
    }
    let (i, v) = doc
        .iter()
        .enumerate()
        .find_map(|(i, (k, v))| (k.as_str() == key).then_some((i, v)))?;
    guess.store(i, Relaxed);
    Some(v)
}

/// [`walk_doc`] as a short-circuiting search.
fn any_doc(
    doc: &Document,
    parts: &[String],
    guesses: &[AtomicUsize],
    expand: bool,
    f: &mut dyn FnMut(Item<'_>) -> bool,
) -> bool {
    let (Some((first, rest)), Some((guess, guesses_rest))) =
        (parts.split_first(), guesses.split_first())
    else {
        return false;
    };
    match field_guessed(doc, first, guess) {
        None => f(Item::Missing),
        Some(v) => any_value(v, rest, guesses_rest, expand, f),
    }
}

/// [`walk_value`] as a short-circuiting search.
fn any_value(
    value: &Bson,
    rest: &[String],
    guesses: &[AtomicUsize],
    expand: bool,
    f: &mut dyn FnMut(Item<'_>) -> bool,
) -> bool {
    let Some(first) = rest.first() else {
        if f(Item::Value(value)) {
            return true;
        }
        return expand && matches!(value, Bson::Array(a) if a.iter().any(|e| f(Item::Value(e))));
    };
    match value {
        Bson::Document(d) => any_doc(d, rest, guesses, expand, f),
        Bson::Array(a) => {
            if let Some(i) = array_index(first) {
                let (after, guesses_after) = (
                    rest.get(1..).unwrap_or(&[]),
                    guesses.get(1..).unwrap_or(&[]),
                );
                if a.get(i)
                    .is_some_and(|e| any_value(e, after, guesses_after, expand, f))
                {
                    return true;
                }
                // As in `walk_value`: only what element documents hold counts.
                let mut values_only = |item: Item<'_>| matches!(item, Item::Value(_)) && f(item);
                return a.iter().any(|e| {
                    matches!(e, Bson::Document(d) if any_doc(d, rest, guesses, expand, &mut values_only))
                });
            }
            a.iter()
                .any(|e| matches!(e, Bson::Document(d) if any_doc(d, rest, guesses, expand, f)))
        }
        _ => f(Item::Missing),
    }
}

/// Returns the single value at a dotted path without array expansion (numeric parts index
/// arrays), as updates and `$rename` see it.
pub fn get<'a>(doc: &'a Document, parts: &[&str]) -> Option<&'a Bson> {
    let (first, rest) = parts.split_first()?;
    let mut cur = field(doc, first)?;
    for p in rest {
        cur = match cur {
            Bson::Document(d) => field(d, p)?,
            Bson::Array(a) => a.get(array_index(p)?)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// Returns the keys a document contributes to one field of an index, and whether an array was
/// met on the way (the index becomes multikey). A missing field is keyed as null, an empty
/// array as undefined, as mongod does.
pub fn key_values(doc: &Document, parts: &[&str]) -> (Vec<Bson>, Option<String>) {
    let mut out = Vec::new();
    let mut array_at: Option<String> = None;
    key_walk_doc(doc, parts, 0, &mut out, &mut array_at, parts);
    if out.is_empty() {
        out.push(Bson::Null);
    }
    (out, array_at)
}

fn key_walk_doc(
    doc: &Document,
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

fn key_walk_value(
    value: &Bson,
    rest: &[&str],
    depth: usize,
    out: &mut Vec<Bson>,
    array_at: &mut Option<String>,
    all: &[&str],
) {
    match value {
        Bson::Array(a) => {
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
                out.extend(a.iter().cloned());
                return;
            }
            for e in a {
                match e {
                    Bson::Document(d) => key_walk_doc(d, rest, depth, out, array_at, all),
                    _ => out.push(Bson::Null),
                }
            }
        }
        _ if rest.is_empty() => out.push(value.clone()),
        Bson::Document(d) => key_walk_doc(d, rest, depth, out, array_at, all),
        _ => out.push(Bson::Null),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    fn values(doc: &Document, path: &str) -> Vec<String> {
        items(doc, &split(path), true)
            .iter()
            .map(|i| match i {
                Item::Value(v) => v.to_string(),
                Item::Missing => "missing".into(),
            })
            .collect()
    }

    #[test]
    fn arrays_of_documents_reach_every_element() {
        let d = doc! {"a": [{"b": 1}, {"c": 2}, 3, {"b": [4, 5]}]};
        assert_eq!(values(&d, "a.b"), vec!["1", "missing", "[4, 5]", "4", "5"]);
        assert_eq!(values(&d, "a.0.b"), vec!["1"]);
        assert_eq!(values(&d, "x"), vec!["missing"]);
        assert_eq!(values(&doc! {"a": 5}, "a.b"), vec!["missing"]);
    }

    #[test]
    fn index_keys_expand_one_array() {
        let (k, arr) = key_values(&doc! {"a": [{"b": 1}, {"b": 2}, {}]}, &["a", "b"]);
        assert_eq!(k, vec![Bson::Int32(1), Bson::Int32(2), Bson::Null]);
        assert_eq!(arr.as_deref(), Some("a"));
        let (k, _) = key_values(&doc! {"a": []}, &["a"]);
        assert_eq!(k, vec![Bson::Undefined]);
    }
}
