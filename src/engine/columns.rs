//! Columns: the scalar values one path reaches across a collection, copied into one compact
//! array in natural order, so that a collection scan tests a predicate without reading the
//! document.
//!
//! Why: a `Document` keeps each field's name and value in separate heap blocks, so testing
//! `age` on 100,000 documents costs several cache misses per document (the field's entry,
//! its name, a string value's bytes): scans were bound by memory, at 0.3–1.1× mingo's speed.
//! A column holds 16 bytes per document, read in order.
//!
//! Exactness: a cell holds the value a path reaches only when its walk meets no array (no
//! array on the way, nor at the end) and that value is null, a boolean, a number or a string;
//! otherwise the cell says "look at the document" ([`Cell::Other`]), and the scan runs the
//! ordinary matcher there. For a path whose walk meets no array, every operator's result
//! depends only on the value reached (or on its absence), which is what
//! [`PathOp::matches_reached`](crate::engine::query::PathOp::matches_reached) computes with
//! the very code the ordinary matcher runs. A string operator is evaluated once per distinct
//! string of the column and remembered for the scan.
//!
//! Columns are built on the second scan that needs them and dropped on any write to the
//! collection (see [`ColumnCache`]).

use crate::engine::index::RecordId;
use crate::engine::path::{self, RawReach};
use bson::{Bson, RawBsonRef, RawDocument};
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, PoisonError};

/// The most columns a collection keeps; past it the cache starts again from empty.
const MAX_COLUMNS: usize = 32;

/// What one document has at a column's path.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Cell {
    /// The path is missing (an absent field, or a scalar in the way).
    Missing,
    /// `null`.
    Null,
    /// A boolean.
    Bool(bool),
    /// An int32.
    Int32(i32),
    /// An int64.
    Int64(i64),
    /// A double (every bit kept, NaN included).
    Double(f64),
    /// A string: its position in [`Column::strings`].
    Str(u32),
    /// Anything else (an array met, a document, another type): the document must be read.
    Other,
}

/// One path's cells for every document of a collection, in natural order.
#[derive(Debug, Default)]
pub struct Column {
    /// One cell per document.
    pub cells: Vec<Cell>,
    /// The distinct strings of the column (as `Bson::String`), in order of first appearance.
    pub strings: Vec<Bson>,
    /// Whether some cell is [`Cell::Other`] (some document must be read).
    pub has_other: bool,
}

impl Column {
    /// Returns the column of `path` over `docs` (in natural order).
    pub fn build<'a>(path: &str, docs: impl Iterator<Item = &'a RawDocument>) -> Column {
        let parts: Vec<&str> = path.split('.').collect();
        let mut column = Column::default();
        let mut ids: HashMap<&'a str, u32> = HashMap::new();
        for doc in docs {
            let cell = match path::reach(doc, parts.iter().copied()) {
                RawReach::Missing => Cell::Missing,
                RawReach::Array => Cell::Other,
                RawReach::Value(v) => match v {
                    RawBsonRef::Null => Cell::Null,
                    RawBsonRef::Boolean(b) => Cell::Bool(b),
                    RawBsonRef::Int32(i) => Cell::Int32(i),
                    RawBsonRef::Int64(i) => Cell::Int64(i),
                    RawBsonRef::Double(f) => Cell::Double(f),
                    RawBsonRef::String(s) => match ids.get(s) {
                        Some(id) => Cell::Str(*id),
                        None => match u32::try_from(column.strings.len()) {
                            Ok(id) => {
                                ids.insert(s, id);
                                column.strings.push(Bson::String(s.to_string()));
                                Cell::Str(id)
                            }
                            Err(_) => Cell::Other,
                        },
                    },
                    _ => Cell::Other,
                },
            };
            column.has_other |= cell == Cell::Other;
            column.cells.push(cell);
        }
        column
    }
}

impl Column {
    /// Returns the value of the cell at `row` (null for a missing path, as sort keys take
    /// it), `None` when the document must be read.
    pub fn sort_value(&self, row: usize) -> Option<Bson> {
        Some(match self.cells.get(row)? {
            Cell::Missing | Cell::Null => Bson::Null,
            Cell::Bool(b) => Bson::Boolean(*b),
            Cell::Int32(i) => Bson::Int32(*i),
            Cell::Int64(i) => Bson::Int64(*i),
            Cell::Double(f) => Bson::Double(*f),
            Cell::Str(id) => self.strings.get(*id as usize)?.clone(),
            Cell::Other => return None,
        })
    }
}

/// A path's entry in the cache.
#[derive(Debug, Clone)]
enum Entry {
    /// A scan asked for it once since the last write: the next one builds it.
    Asked,
    /// Built.
    Built(Arc<Column>),
}

/// What the cache holds.
#[derive(Debug, Clone, Default)]
struct Kept {
    columns: BTreeMap<String, Entry>,
    /// The record ids in natural order (row to record).
    rids: Option<Arc<Vec<RecordId>>>,
}

/// A collection's columns by path. A column is built on the second scan that asks for it
/// since the last write, so that a query run once between writes (as the model evaluation
/// does) costs no more than before. Cloning a collection shares its built columns.
#[derive(Debug, Default)]
pub struct ColumnCache {
    kept: Mutex<Kept>,
}

impl Clone for ColumnCache {
    fn clone(&self) -> Self {
        ColumnCache {
            kept: Mutex::new(self.lock().clone()),
        }
    }
}

impl ColumnCache {
    fn lock(&self) -> std::sync::MutexGuard<'_, Kept> {
        self.kept.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Returns the column of `path`, building it over `docs` when this is the second time it
    /// is asked for since the last write; `None` the first time.
    pub fn get<'a>(
        &self,
        path: &str,
        docs: impl Iterator<Item = &'a RawDocument>,
    ) -> Option<Arc<Column>> {
        let mut kept = self.lock();
        match kept.columns.get(path) {
            Some(Entry::Built(c)) => return Some(Arc::clone(c)),
            Some(Entry::Asked) => {}
            None => {
                if kept.columns.len() >= MAX_COLUMNS {
                    kept.columns.clear();
                }
                kept.columns.insert(path.to_string(), Entry::Asked);
                return None;
            }
        }
        let c = Arc::new(Column::build(path, docs));
        kept.columns
            .insert(path.to_string(), Entry::Built(Arc::clone(&c)));
        Some(c)
    }

    /// Returns the record ids of the collection in natural order (`rids` lists them when
    /// they are not kept yet).
    pub fn rids(&self, rids: impl Iterator<Item = RecordId>) -> Arc<Vec<RecordId>> {
        let mut kept = self.lock();
        Arc::clone(kept.rids.get_or_insert_with(|| Arc::new(rids.collect())))
    }

    /// Drops every column: called on every change to the collection's documents.
    pub fn clear(&self) {
        let mut kept = self.lock();
        kept.columns.clear();
        kept.rids = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    #[test]
    fn cells_hold_scalars_reached_without_arrays() {
        let docs = [
            doc! {"a": {"b": 1}, "s": "x"},
            doc! {"a": {"b": "y"}, "s": "x"},
            doc! {"a": [{"b": 2}], "s": 5_i64},
            doc! {"a": 3, "s": null},
            doc! {"a": {"b": [1]}, "s": {"t": 1}},
            doc! {"a": {"c": 1}, "s": 1.5},
            doc! {"a": {"b": true}},
        ];
        let docs: Vec<bson::RawDocumentBuf> = docs
            .iter()
            .filter_map(|d| bson::RawDocumentBuf::try_from(d).ok())
            .collect();
        let c = Column::build("a.b", docs.iter().map(|d| d.as_ref()));
        assert_eq!(
            c.cells,
            vec![
                Cell::Int32(1),
                Cell::Str(0),
                Cell::Other,
                Cell::Missing,
                Cell::Other,
                Cell::Missing,
                Cell::Bool(true)
            ]
        );
        let s = Column::build("s", docs.iter().map(|d| d.as_ref()));
        assert_eq!(
            s.cells,
            vec![
                Cell::Str(0),
                Cell::Str(0),
                Cell::Int64(5),
                Cell::Null,
                Cell::Other,
                Cell::Double(1.5),
                Cell::Missing
            ]
        );
        assert_eq!(s.strings, vec![Bson::String("x".into())]);
    }
}
