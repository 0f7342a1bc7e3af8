//! Dotted-path resolution with MongoDB's array rules, for query matching and index keys.
//!
//! A query path such as `a.b` reaches every `b` of every document element of the array `a`;
//! a numeric component (`a.1`) is both an array position and a field name; a leaf array yields
//! itself and each of its elements, and a path that stops short yields "missing".

mod view;

pub use view::View;

use bson::{Bson, Document, RawBsonRef};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// One value a query path reaches in a document (of either form, [`View`]), or the fact that
/// the path is missing there.
#[derive(Debug, Clone, Copy)]
pub enum ItemOf<V> {
    /// The path reaches this value.
    Value(V),
    /// The path stops before its end (absent field or scalar in the way).
    Missing,
}

/// An item a path reaches in a decoded document.
pub type Item<'a> = ItemOf<&'a Bson>;

/// An item a path reaches in a stored (raw) document.
pub type RawItem<'a> = ItemOf<RawBsonRef<'a>>;

/// Where a path's walk ends when it meets no array.
#[derive(Debug, Clone, Copy)]
pub enum ReachOf<V> {
    /// The path is missing (an absent field, or a scalar in the way).
    Missing,
    /// An array was met (on the way or at the end): the general rules of [`items`] apply.
    Array,
    /// The value reached, with no array on the way: the one item [`items`] lists.
    Value(V),
}

/// Where a path's walk ends in a decoded document.
pub type Reach<'a> = ReachOf<&'a Bson>;

/// Where a path's walk ends in a stored (raw) document.
pub type RawReach<'a> = ReachOf<RawBsonRef<'a>>;

/// Returns the path split at dots.
pub fn split(path: &str) -> Vec<&str> {
    path.split('.').collect()
}

/// Returns `part` as an array index when it is all ASCII digits.
pub fn array_index(part: &str) -> Option<usize> {
    if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    part.parse().ok()
}

/// Walks the path's `parts` in `doc` as [`items`] does while no array is met (the columns of
/// a scan and the sort keys take their fast path from it).
pub fn reach<'a, 'p, D: View<'a>>(
    doc: D,
    parts: impl IntoIterator<Item = &'p str>,
) -> ReachOf<D::Value> {
    let mut cur = doc;
    let mut parts = parts.into_iter().peekable();
    while let Some(part) = parts.next() {
        let Some(v) = cur.field(part) else {
            return ReachOf::Missing;
        };
        if D::is_array(v) {
            return ReachOf::Array;
        }
        if parts.peek().is_none() {
            return ReachOf::Value(v);
        }
        match D::as_document(v) {
            Some(d) => cur = d,
            None => return ReachOf::Missing,
        }
    }
    ReachOf::Missing
}

/// Returns every item the path reaches in `doc`, in order.
///
/// With `expand_leaf`, a leaf array yields itself then each element (what `$eq`, `$gt`, `$in`,
/// `$type`, `$regex` see); without it, only the array (what `$size` and `$elemMatch` see).
pub fn items<'a, D: View<'a>>(doc: D, parts: &[&str], expand_leaf: bool) -> Vec<ItemOf<D::Value>> {
    let mut out = Vec::new();
    any_doc(doc, parts, &[], expand_leaf, &mut |item: ItemOf<
        D::Value,
    >| {
        out.push(item);
        false
    });
    out
}

/// Returns true when `f` holds for one of the items [`items`] lists, without listing them.
pub fn any<'a, D: View<'a>>(
    doc: D,
    parts: &[&str],
    expand_leaf: bool,
    f: &mut dyn FnMut(ItemOf<D::Value>) -> bool,
) -> bool {
    any_doc(doc, parts, &[], expand_leaf, f)
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
    pub fn any<'a, D: View<'a>>(
        &self,
        doc: D,
        expand_leaf: bool,
        f: &mut dyn FnMut(ItemOf<D::Value>) -> bool,
    ) -> bool {
        any_doc(doc, &self.parts, &self.guesses, expand_leaf, f)
    }

    /// Returns where this path's walk in `doc` ends when it meets no array ([`reach`]).
    pub fn reach<'a, D: View<'a>>(&self, doc: D) -> ReachOf<D::Value> {
        reach(doc, self.parts.iter().map(String::as_str))
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
    any_reached_in::<&Document>(reached, expand_leaf, f)
}

fn any_reached_in<'a, D: View<'a>>(
    reached: Option<D::Value>,
    expand_leaf: bool,
    f: &mut dyn FnMut(ItemOf<D::Value>) -> bool,
) -> bool {
    match reached {
        None => f(ItemOf::Missing),
        Some(v) => any_value::<D, &str>(v, &[], &[], expand_leaf, f),
    }
}

/// The search of [`CompiledPath::any`] from a document: `guesses` may be shorter than
/// `parts` (empty: no guesses), a component without one is looked up plainly.
///
/// The test `f` is a `dyn` closure, so that the walk is compiled once per form of document
/// (the numeric-component rule wraps it in another closure as it recurses).
fn any_doc<'a, D, S>(
    doc: D,
    parts: &[S],
    guesses: &[AtomicUsize],
    expand: bool,
    f: &mut dyn FnMut(ItemOf<D::Value>) -> bool,
) -> bool
where
    D: View<'a>,
    S: AsRef<str>,
{
    let Some((first, rest)) = parts.split_first() else {
        return false;
    };
    let (found, guesses_rest) = match guesses.split_first() {
        Some((guess, guesses_rest)) => (doc.field_guessed(first.as_ref(), guess), guesses_rest),
        None => (doc.field(first.as_ref()), guesses),
    };
    match found {
        None => f(ItemOf::Missing),
        Some(v) => any_value::<D, S>(v, rest, guesses_rest, expand, f),
    }
}

/// The search of [`any_doc`] from a value the path reached, `rest` the components after it.
fn any_value<'a, D, S>(
    value: D::Value,
    rest: &[S],
    guesses: &[AtomicUsize],
    expand: bool,
    f: &mut dyn FnMut(ItemOf<D::Value>) -> bool,
) -> bool
where
    D: View<'a>,
    S: AsRef<str>,
{
    let Some(first) = rest.first() else {
        if f(ItemOf::Value(value)) {
            return true;
        }
        return expand && D::elements(value).is_some_and(|mut a| a.any(|e| f(ItemOf::Value(e))));
    };
    if let Some(d) = D::as_document(value) {
        return any_doc(d, rest, guesses, expand, f);
    }
    let Some(elements) = D::elements(value) else {
        return f(ItemOf::Missing);
    };
    let documents = |e| D::as_document(e);
    if let Some(i) = array_index(first.as_ref()) {
        let after = rest.get(1..).unwrap_or(&[]);
        let guesses_after = guesses.get(1..).unwrap_or(&[]);
        if D::element(value, i)
            .is_some_and(|e| any_value::<D, S>(e, after, guesses_after, expand, f))
        {
            return true;
        }
        // Element documents may also have a field named like the index; only what they hold
        // counts (their lack of it does not make the path "missing").
        let mut values_only = |item: ItemOf<D::Value>| matches!(item, ItemOf::Value(_)) && f(item);
        return elements
            .filter_map(documents)
            .any(|d| any_doc(d, rest, guesses, expand, &mut values_only));
    }
    elements
        .filter_map(documents)
        .any(|d| any_doc(d, rest, guesses, expand, f))
}

/// Returns the single value at a dotted path without array expansion (numeric parts index
/// arrays), as updates and `$rename` see it.
pub fn get<'a>(doc: &'a Document, parts: &[&str]) -> Option<&'a Bson> {
    let (first, rest) = parts.split_first()?;
    let mut cur = doc.field(first)?;
    for p in rest {
        cur = match cur {
            Bson::Document(d) => d.field(p)?,
            Bson::Array(a) => a.get(array_index(p)?)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// Returns the keys a document contributes to one field of an index, and the path of the
/// first array met on the way (the index becomes multikey). A missing field is keyed as null,
/// an empty array as undefined, as mongod does.
pub fn key_values<'a, D: View<'a>>(doc: D, parts: &[&str]) -> (Vec<Bson>, Option<String>) {
    let mut keys = Keys {
        all: parts,
        out: Vec::new(),
        array_at: None,
    };
    keys.walk_doc(doc, parts, 0);
    if keys.out.is_empty() {
        keys.out.push(Bson::Null);
    }
    (keys.out, keys.array_at)
}

/// The walk of [`key_values`]: the whole path, the keys so far and the first array met.
struct Keys<'p> {
    all: &'p [&'p str],
    out: Vec<Bson>,
    array_at: Option<String>,
}

impl Keys<'_> {
    fn walk_doc<'a, D: View<'a>>(&mut self, doc: D, parts: &[&str], depth: usize) {
        let Some((first, rest)) = parts.split_first() else {
            return;
        };
        match doc.field(first) {
            None => self.out.push(Bson::Null),
            Some(v) => self.walk_value::<D>(v, rest, depth + 1),
        }
    }

    fn walk_value<'a, D: View<'a>>(&mut self, value: D::Value, rest: &[&str], depth: usize) {
        if let Some(elements) = D::elements(value) {
            if self.array_at.is_none() {
                self.array_at = Some(
                    self.all
                        .iter()
                        .take(depth)
                        .copied()
                        .collect::<Vec<_>>()
                        .join("."),
                );
            }
            if rest.is_empty() {
                let n = D::element_count(value);
                if n == 0 {
                    self.out.push(Bson::Undefined);
                }
                self.out.reserve(n);
                self.out.extend(elements.map(D::to_bson));
                return;
            }
            for e in elements {
                match D::as_document(e) {
                    Some(d) => self.walk_doc(d, rest, depth),
                    None => self.out.push(Bson::Null),
                }
            }
            return;
        }
        if rest.is_empty() {
            self.out.push(D::to_bson(value));
            return;
        }
        match D::as_document(value) {
            Some(d) => self.walk_doc(d, rest, depth),
            None => self.out.push(Bson::Null),
        }
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

    /// The rules read both forms of a document alike: the items every path reaches, its end
    /// without arrays and its index keys are the same in a document and in its stored bytes.
    #[test]
    fn decoded_and_stored_documents_reach_the_same_items() {
        let docs = [
            doc! {"a": [{"b": 1}, {"c": 2}, 3, {"b": [4, 5]}], "x": {"y": {"z": "deep"}}},
            doc! {"a": {"0": "named", "b": null}, "n": [[1, 2], [], {"0": 7}]},
            doc! {"a": [], "n": [{"0": [8]}, 9], "x": 5},
        ];
        let paths = [
            "a", "a.b", "a.0", "a.0.b", "a.1.c", "n.0", "n.0.0", "n.1", "x.y.z", "x.y", "q",
        ];
        let show = |v: Bson| v.to_string();
        for d in &docs {
            let Ok(stored) = bson::RawDocumentBuf::try_from(d) else {
                panic!("encodes");
            };
            let stored: &bson::RawDocument = &stored;
            for p in paths {
                let parts = split(p);
                for expand in [false, true] {
                    let decoded: Vec<String> = items(d, &parts, expand)
                        .into_iter()
                        .map(|i| match i {
                            ItemOf::Value(v) => show(v.clone()),
                            ItemOf::Missing => "missing".into(),
                        })
                        .collect();
                    let raw: Vec<String> = items(stored, &parts, expand)
                        .into_iter()
                        .map(|i| match i {
                            ItemOf::Value(v) => show(<&bson::RawDocument as View>::to_bson(v)),
                            ItemOf::Missing => "missing".into(),
                        })
                        .collect();
                    assert_eq!(decoded, raw, "{p} in {d}, expand {expand}");
                    let compiled = CompiledPath::new(p);
                    let mut seen = 0;
                    compiled.any(stored, expand, &mut |_| {
                        seen += 1;
                        false
                    });
                    assert_eq!(seen, raw.len(), "{p}: the search visits what items lists");
                }
                let reached = |r: ReachOf<String>| format!("{r:?}");
                let from_decoded = match reach(d, parts.iter().copied()) {
                    ReachOf::Value(v) => ReachOf::Value(show(v.clone())),
                    ReachOf::Array => ReachOf::Array,
                    ReachOf::Missing => ReachOf::Missing,
                };
                let from_stored = match reach(stored, parts.iter().copied()) {
                    ReachOf::Value(v) => {
                        ReachOf::Value(show(<&bson::RawDocument as View>::to_bson(v)))
                    }
                    ReachOf::Array => ReachOf::Array,
                    ReachOf::Missing => ReachOf::Missing,
                };
                assert_eq!(reached(from_decoded), reached(from_stored), "{p}");
                assert_eq!(key_values(d, &parts), key_values(stored, &parts), "{p}");
            }
        }
    }
}
