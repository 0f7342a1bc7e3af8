//! The filter of one collection scan: the query's [`Filter`] with each path predicate bound
//! to its column when the collection has one (see `engine::columns`), so that most documents
//! are accepted or rejected from the columns alone.
//!
//! The result for every document is the result of [`Filter::matches`]: a column cell gives
//! the value the path reaches, on which [`PathOp::matches_reached`] runs the matcher's own
//! code, and a cell that cannot say sends the predicate to the document. Within `$and`,
//! `$or` and `$nor` the children that need no document are tested first; the children are
//! pure, so their order changes what is read, never the answer.

use crate::engine::collection::Collection;
use crate::engine::columns::{Cell as ColumnCell, Column};
use crate::engine::compare::{cmp_num, Num};
use crate::engine::index::RecordId;
use crate::engine::path::CompiledPath;
use crate::engine::query::{Filter, PathOp};
use bson::{Bson, RawDocument, RawDocumentBuf};
use std::cell::Cell;
use std::cmp::Ordering;
use std::sync::Arc;

/// A remembered answer for one distinct string: not yet asked, no, yes.
const UNKNOWN: u8 = 0;
const NO: u8 = 1;
const YES: u8 = 2;

/// A predicate bound to its column.
struct Bound<'a> {
    op: &'a PathOp,
    at: &'a CompiledPath,
    column: Arc<Column>,
    /// Answers for the column's strings, filled as they are met.
    strings: Vec<Cell<u8>>,
    /// Answers for a missing path, `null`, `false` and `true`.
    fixed: [bool; 4],
    /// For a comparison with a number (not NaN): the number and which orders of a cell's
    /// number against it match (see [`numeric`]).
    numeric: Option<(Num, [bool; 3])>,
}

/// Returns the number and the matching orders (less, equal, greater) of `$eq`, `$gt`,
/// `$gte`, `$lt` or `$lte` with a number that is not NaN: for a number that is not NaN
/// reached without arrays, such an operator holds exactly when the order of that number
/// against the operand is one of these (both are in the number type bracket, and `equal`
/// and `compare` reduce to `cmp_num`).
fn numeric(op: &PathOp) -> Option<(Num, [bool; 3])> {
    let (v, orders) = match op {
        PathOp::Eq(v) => (v, [false, true, false]),
        PathOp::Gt(v) => (v, [false, false, true]),
        PathOp::Gte(v) => (v, [false, true, true]),
        PathOp::Lt(v) => (v, [true, false, false]),
        PathOp::Lte(v) => (v, [true, true, false]),
        _ => return None,
    };
    match v {
        Bson::Int32(i) => Some((Num::Int(i64::from(*i)), orders)),
        Bson::Int64(i) => Some((Num::Int(*i), orders)),
        Bson::Double(f) if !f.is_nan() => Some((Num::Float(*f), orders)),
        _ => None,
    }
}

enum Node<'a> {
    All(Vec<Node<'a>>),
    Any(Vec<Node<'a>>),
    None(Vec<Node<'a>>),
    Column(Box<Bound<'a>>),
    Document(&'a Filter),
}

/// The filter of one scan over one collection.
pub struct ScanFilter<'a> {
    root: Node<'a>,
}

impl<'a> ScanFilter<'a> {
    /// Returns the scan filter of `filter` over `coll`, with the columns `coll` has or builds
    /// now (see [`crate::engine::columns::ColumnCache`]).
    pub fn new(filter: &'a Filter, coll: &Collection) -> ScanFilter<'a> {
        ScanFilter {
            root: node(filter, coll),
        }
    }

    /// Returns true when the document at position `row` of the scan (in natural order)
    /// matches.
    pub fn matches(&self, row: usize, doc: &RawDocument) -> bool {
        self.root.matches(row, doc)
    }

    /// Returns the matching rows of a collection of `n` documents when the columns answer
    /// for every document, `None` when some document must be read.
    pub fn matching_rows(&self, n: usize) -> Option<Vec<usize>> {
        if self.root.reads_document() {
            return None;
        }
        // No predicate reads a document: the document given is never looked at.
        let none = RawDocumentBuf::new();
        Some((0..n).filter(|r| self.root.matches(*r, &none)).collect())
    }

    /// Calls `visit` with the row, record id and document of each matching document of
    /// `coll` in natural order until it returns true; returns how many documents were
    /// examined (all of them, or up to the one on which `visit` returned true).
    ///
    /// When the columns answer for every document, the matching rows are found from the
    /// columns alone and only their documents are looked up (by record id when they are few,
    /// else by walking the collection), so that the records that do not match are not read.
    pub fn for_each_match<'c>(
        &self,
        coll: &'c Collection,
        mut visit: impl FnMut(usize, RecordId, &'c RawDocument) -> bool,
    ) -> u64 {
        let n = coll.docs.len();
        if self.root.reads_document() {
            for (row, (rid, doc)) in coll.docs.iter().enumerate() {
                if self.root.matches(row, doc) && visit(row, *rid, doc) {
                    return row as u64 + 1;
                }
            }
            return n as u64;
        }
        let rows = self.matching_rows(n).unwrap_or_default();
        if rows.len().saturating_mul(8) < n {
            let rids = coll.columns.rids(coll.docs.keys().copied());
            for &row in &rows {
                let Some((rid, doc)) = rids.get(row).and_then(|rid| coll.docs.get_key_value(rid))
                else {
                    continue;
                };
                if visit(row, *rid, doc) {
                    return row as u64 + 1;
                }
            }
        } else {
            let mut next = rows.iter().copied().peekable();
            for (row, (rid, doc)) in coll.docs.iter().enumerate() {
                if next.peek().is_none() {
                    break;
                }
                if next.next_if_eq(&row).is_some() && visit(row, *rid, doc) {
                    return row as u64 + 1;
                }
            }
        }
        n as u64
    }
}

fn node<'a>(filter: &'a Filter, coll: &Collection) -> Node<'a> {
    let children = |c: &'a [Filter]| {
        let mut nodes: Vec<Node<'a>> = c.iter().map(|f| node(f, coll)).collect();
        // Stable: the children needing no document first.
        nodes.sort_by_key(|n| n.reads_document());
        nodes
    };
    match filter {
        Filter::And(c) => Node::All(children(c)),
        Filter::Or(c) => Node::Any(children(c)),
        Filter::Nor(c) => Node::None(children(c)),
        Filter::Path { path, op, at } => match coll.columns.get(path, coll.documents()) {
            Some(column) if column.cells.len() == coll.docs.len() => {
                let strings = column.strings.iter().map(|_| Cell::new(UNKNOWN)).collect();
                let fixed = [
                    op.matches_reached(None),
                    op.matches_reached(Some(&Bson::Null)),
                    op.matches_reached(Some(&Bson::Boolean(false))),
                    op.matches_reached(Some(&Bson::Boolean(true))),
                ];
                Node::Column(Box::new(Bound {
                    op,
                    at,
                    column,
                    strings,
                    fixed,
                    numeric: numeric(op),
                }))
            }
            _ => Node::Document(filter),
        },
        Filter::Expr(_) => Node::Document(filter),
    }
}

impl Node<'_> {
    /// Returns true when some predicate under this node may read the document.
    fn reads_document(&self) -> bool {
        match self {
            Node::All(c) | Node::Any(c) | Node::None(c) => c.iter().any(Node::reads_document),
            Node::Column(b) => b.column.has_other,
            Node::Document(_) => true,
        }
    }

    fn matches(&self, row: usize, doc: &RawDocument) -> bool {
        match self {
            Node::All(c) => c.iter().all(|n| n.matches(row, doc)),
            Node::Any(c) => c.iter().any(|n| n.matches(row, doc)),
            Node::None(c) => !c.iter().any(|n| n.matches(row, doc)),
            Node::Column(b) => b.matches(row, doc),
            Node::Document(f) => f.matches_raw(doc),
        }
    }
}

impl Bound<'_> {
    fn matches(&self, row: usize, doc: &RawDocument) -> bool {
        let reached = |v: Bson| {
            let n = match v {
                Bson::Int32(i) => Some(Num::Int(i64::from(i))),
                Bson::Int64(i) => Some(Num::Int(i)),
                Bson::Double(f) if !f.is_nan() => Some(Num::Float(f)),
                _ => None,
            };
            match (self.numeric, n) {
                (Some((operand, [lt, eq, gt])), Some(n)) => match cmp_num(n, operand) {
                    Ordering::Less => lt,
                    Ordering::Equal => eq,
                    Ordering::Greater => gt,
                },
                _ => self.op.matches_reached(Some(&v)),
            }
        };
        let [missing, null, no, yes] = self.fixed;
        match self
            .column
            .cells
            .get(row)
            .copied()
            .unwrap_or(ColumnCell::Other)
        {
            ColumnCell::Missing => missing,
            ColumnCell::Null => null,
            ColumnCell::Bool(b) => {
                if b {
                    yes
                } else {
                    no
                }
            }
            ColumnCell::Int32(i) => reached(Bson::Int32(i)),
            ColumnCell::Int64(i) => reached(Bson::Int64(i)),
            ColumnCell::Double(f) => reached(Bson::Double(f)),
            ColumnCell::Str(id) => {
                let id = id as usize;
                let (Some(memo), Some(s)) = (self.strings.get(id), self.column.strings.get(id))
                else {
                    return self.op.matches_at_raw(doc, self.at);
                };
                match memo.get() {
                    YES => true,
                    NO => false,
                    _ => {
                        let yes = self.op.matches_reached(Some(s));
                        memo.set(if yes { YES } else { NO });
                        yes
                    }
                }
            }
            ColumnCell::Other => self.op.matches_at_raw(doc, self.at),
        }
    }
}
