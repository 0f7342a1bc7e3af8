//! The logical answer of the tree steps (`read_children`, `read_ancestors`, `read_subtree`,
//! `insert_node`, `move_subtree`), checked on the engine.
//!
//! The logical tree is decoded from the nodes' documents, once per encoding the design keeps
//! (a `parent` reference, `children` lists, an `ancestors` array, a materialized `path`,
//! nested-set `left`/`right` numbers; array of ancestors and nested sets keep `parent` too),
//! each into the same form: every node's ancestors, root first. The sample as generated
//! gives the tree a step starts from; every encoding must agree on it, and after a write
//! every encoding must hold the tree the write leaves (the new node the last child of its
//! parent; the moved node and its whole subtree under the new parent, nowhere under the old
//! one), so that a write that keeps one encoding and forgets another (a path rewritten but
//! not the nested-set numbers, a node pulled from its old parent's children but never
//! pushed to the new one's) fails. A read returns exactly the nodes the tree names (the
//! node's children, every ancestor up to the root, every descendant), each with its
//! fields, whatever round trips the plan makes to get them.

use std::collections::{BTreeMap, BTreeSet};

use bson::{Bson, Document};

use crate::design::names::TYPE_FIELD;
use crate::design::names::{ANCESTORS, CHILDREN, LEFT, PARENT, PATH, RIGHT};
use crate::design::Layout;
use crate::engine::Database;
use crate::eval::bind::Binder;
use crate::model::{Model, Op, Relationship, Step};

/// What the check of one tree step sees of a run.
pub(super) struct Seen<'a, 'd> {
    /// The database as the unit left it.
    pub db: &'a Database,
    /// The sample as generated, never written to: the tree the step starts from.
    pub before: &'a Database,
    pub model: &'a Model,
    pub layout: &'a Layout,
    /// The values of the run: `node` (the node the step starts from), `child` (the new node
    /// of an insert), `new_parent` (of a move).
    pub binder: &'a Binder<'d>,
    /// What each sent command returned, with its step.
    pub returned: &'a [(usize, Vec<Document>)],
    /// The step's index in its unit.
    pub step: usize,
    /// The unit's steps: a write is checked on the state the unit leaves, which a later
    /// write may change; a read on the tree it saw, which an earlier write may have changed.
    pub steps: &'a [Step],
    /// True when the sample holds every write of the run.
    pub complete: bool,
}

/// A node's identity in a decoded tree: its `_id` as a path names it (an ObjectId's 24
/// hexadecimal digits), else as the value prints.
type Key = String;

/// A logical tree: every node's ancestors, root first (empty for a root).
type Ancestry = BTreeMap<Key, Vec<Key>>;

fn key(v: &Bson) -> Key {
    match v {
        Bson::ObjectId(o) => o.to_hex(),
        Bson::String(s) => s.clone(),
        v => v.to_string(),
    }
}

/// Checks tree step `step`: `Ok(None)` when its plan gives the logical answer, `Ok(Some(_))`
/// with what is wrong, `Err(_)` with why the run cannot be checked.
pub(super) fn check(seen: &Seen, step: &Step) -> Result<Option<String>, String> {
    let Some(r) = step.relationship().and_then(|n| seen.model.relationship(n)) else {
        return Err("a tree step names no relationship".into());
    };
    let Some(node) = seen.binder.value("node._id") else {
        return Err(format!(
            "{}: the sample holds no node to start from",
            r.name
        ));
    };
    if seen.layout.collection_of(&r.parent).is_none() {
        return Err(format!(
            "{}: the nodes have no collection of their own",
            r.name
        ));
    }
    let writes = |s: &[Step]| s.iter().any(|s| writes(s.op()));
    let earlier = writes(seen.steps.get(..seen.step).unwrap_or_default());
    let later = writes(seen.steps.get(seen.step + 1..).unwrap_or_default());
    let is_read = !writes(std::slice::from_ref(step));
    // The tree the step starts from: the sample as generated, or for a read after the
    // unit's writes the tree they left.
    let (start, when) = match (is_read && earlier, later) {
        (false, _) => (seen.before, "the sample as generated"),
        (true, false) => (seen.db, "the tree the unit's writes left"),
        (true, true) => {
            return Err(format!(
                "{}: writes before and after the read change the tree it sees",
                r.name
            ))
        }
    };
    if !is_read && (earlier || later) {
        return Err(format!(
            "{}: other writes of the unit change the tree the write starts from or leaves",
            r.name
        ));
    }
    let before = match agreed(start, seen.layout, r) {
        Ok(t) => t,
        Err(e) => return Ok(Some(format!("{}: {when}: {e}", r.name))),
    };
    let node = key(&node);
    if !before.contains_key(&node) {
        return Err(format!(
            "{}: the node the run starts from is not stored",
            r.name
        ));
    }
    let read = |expected: BTreeSet<Key>, what: &str| {
        Ok(read_answer(seen, start, r, &expected).map(|p| format!("{}: {what}: {p}", r.name)))
    };
    match step {
        Step::ReadChildren { .. } => read(
            before
                .iter()
                .filter(|(_, a)| a.last() == Some(&node))
                .map(|(k, _)| k.clone())
                .collect(),
            "the node's children",
        ),
        Step::ReadAncestors { .. } => read(
            before
                .get(&node)
                .map(|a| a.iter().cloned().collect())
                .unwrap_or_default(),
            "the node's ancestors",
        ),
        Step::ReadSubtree { .. } => read(
            before
                .iter()
                .filter(|(_, a)| a.contains(&node))
                .map(|(k, _)| k.clone())
                .collect(),
            "the node's subtree",
        ),
        Step::InsertNode { .. } | Step::MoveSubtree { .. } => {
            if !seen.complete {
                return Err(format!(
                    "{}: the write reaches documents the sample does not hold",
                    r.name
                ));
            }
            let (expected, what) = if let Step::InsertNode { .. } = step {
                let Some(child) = seen.binder.value("child._id") else {
                    return Err(format!("{}: the run binds no new node", r.name));
                };
                let child = key(&child);
                if !stored(seen.db, seen.layout, r, &child) {
                    return Ok(Some(format!("{}: the new node is never stored", r.name)));
                }
                let mut t = before.clone();
                let mut a = before.get(&node).cloned().unwrap_or_default();
                a.push(node.clone());
                t.insert(child, a);
                (t, "after the insert")
            } else {
                let Some(np) = seen.binder.value("new_parent._id") else {
                    return Err(format!("{}: the run binds no new parent", r.name));
                };
                let np = key(&np);
                if before.get(&node).and_then(|a| a.last()) == Some(&np) {
                    return Err(format!(
                        "{}: the move keeps the node under its parent (no other inner node at its parent's level)",
                        r.name
                    ));
                }
                (moved(&before, &node, &np), "after the move")
            };
            let wrong: Vec<String> = decode_all(seen.db, seen.layout, r)
                .into_iter()
                .filter_map(|(enc, t)| match t {
                    Ok(t) => differs(&expected, &t).map(|d| format!("{enc}: {d}")),
                    Err(e) => Some(format!("{enc}: {e}")),
                })
                .collect();
            Ok((!wrong.is_empty()).then(|| format!("{}: {what}, {}", r.name, wrong.join("; "))))
        }
        _ => Err(format!("{}: not a tree step", r.name)),
    }
}

/// Returns the tree after moving `node` (with its subtree) under `np`: the ancestors of
/// every node of the subtree are the new parent's, the new parent, then what lay below the
/// moved node's old parent.
fn moved(before: &Ancestry, node: &Key, np: &Key) -> Ancestry {
    let old = before.get(node).map_or(0, Vec::len);
    let mut new = before.get(np).cloned().unwrap_or_default();
    new.push(np.clone());
    before
        .iter()
        .map(|(k, a)| {
            let under = k == node || a.contains(node);
            let a = if under {
                new.iter()
                    .chain(a.iter().skip(old))
                    .cloned()
                    .collect::<Vec<_>>()
            } else {
                a.clone()
            };
            (k.clone(), a)
        })
        .collect()
}

/// Returns what is wrong when the documents step `seen.step` returned are not exactly the
/// nodes `expected`, each with its `_id` and every field of the entity as `db` (the
/// database the read saw) holds them.
fn read_answer(
    seen: &Seen,
    db: &Database,
    r: &Relationship,
    expected: &BTreeSet<Key>,
) -> Option<String> {
    let got: Vec<&Document> = seen
        .returned
        .iter()
        .filter(|(s, _)| *s == seen.step)
        .flat_map(|(_, d)| d)
        .collect();
    let ids: BTreeSet<Key> = got.iter().filter_map(|d| d.get("_id")).map(key).collect();
    let missing = expected.difference(&ids).count();
    let extra = ids.difference(expected).count();
    if missing > 0 || extra > 0 {
        return Some(format!(
            "{} nodes asked for, {missing} of them not returned, {extra} other nodes returned",
            expected.len()
        ));
    }
    let mut wanted = vec!["_id".to_string()];
    if let Some(e) = seen.model.entity(&r.parent) {
        wanted.extend(e.fields.iter().map(|(n, _)| n.clone()));
    }
    let bare = nodes(db, seen.layout, r)
        .into_iter()
        .filter(|d| d.get("_id").is_some_and(|id| expected.contains(&key(id))))
        .filter(|d| {
            !got.iter().any(|g| {
                wanted
                    .iter()
                    .filter(|f| d.contains_key(f.as_str()))
                    .all(|f| g.get(f.as_str()) == d.get(f.as_str()))
            })
        })
        .count();
    (bare > 0).then(|| {
        format!(
            "{bare} of the {} nodes are returned without their fields {}",
            expected.len(),
            wanted.join(", ")
        )
    })
}

/// Returns the documents of the nodes of tree `r`: its entity's collection (only the
/// entity's own documents where a single collection holds several types).
fn nodes(db: &Database, layout: &Layout, r: &Relationship) -> Vec<Document> {
    let Some(coll) = layout.collection_of(&r.parent) else {
        return Vec::new();
    };
    super::documents(db, &coll.name)
        .into_iter()
        .filter(
            |d: &Document| !matches!(d.get(TYPE_FIELD), Some(Bson::String(t)) if *t != r.parent),
        )
        .collect()
}

/// Returns whether a node whose `_id` is `id` is stored.
fn stored(db: &Database, layout: &Layout, r: &Relationship, id: &Key) -> bool {
    nodes(db, layout, r)
        .iter()
        .any(|d| d.get("_id").is_some_and(|x| key(x) == *id))
}

/// The encodings a design may keep of a tree, each decoded on its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Encoding {
    /// `parent`: the parent's id (none on a root).
    Parent,
    /// `children`: the children's ids.
    Children,
    /// `ancestors`: the ancestors' ids, root first.
    Ancestors,
    /// `path`: `,root,…,parent,` (none on a root).
    Path,
    /// `left`, `right`: a descendant's numbers lie between its ancestor's.
    NestedSets,
}

impl Encoding {
    const ALL: [Encoding; 5] = [
        Encoding::Parent,
        Encoding::Children,
        Encoding::Ancestors,
        Encoding::Path,
        Encoding::NestedSets,
    ];

    fn field(self) -> &'static str {
        match self {
            Encoding::Parent => PARENT,
            Encoding::Children => CHILDREN,
            Encoding::Ancestors => ANCESTORS,
            Encoding::Path => PATH,
            Encoding::NestedSets => LEFT,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Encoding::Parent => "the parent references",
            Encoding::Children => "the children lists",
            Encoding::Ancestors => "the ancestors arrays",
            Encoding::Path => "the materialized paths",
            Encoding::NestedSets => "the nested-set numbers",
        }
    }

    /// Decodes the tree `docs` hold under this encoding, or says why they hold none.
    fn decode(self, docs: &[Document]) -> Result<Ancestry, String> {
        let ids: Vec<Key> = docs
            .iter()
            .map(|d| d.get("_id").map(key).unwrap_or_default())
            .collect();
        match self {
            Encoding::Parent => {
                let parents = docs
                    .iter()
                    .zip(&ids)
                    .map(|(d, k)| {
                        let p = d.get(PARENT).filter(|p| **p != Bson::Null).map(key);
                        (k.clone(), p)
                    })
                    .collect();
                chains(&parents)
            }
            Encoding::Children => {
                let mut parents: BTreeMap<Key, Option<Key>> =
                    ids.iter().map(|k| (k.clone(), None)).collect();
                for (d, k) in docs.iter().zip(&ids) {
                    for c in list(d, CHILDREN) {
                        let c = key(&c);
                        match parents.get_mut(&c) {
                            None => return Err(format!("{k} lists a child that is not stored")),
                            Some(Some(other)) => {
                                return Err(format!("{c} is listed by {other} and by {k}"))
                            }
                            Some(p) => *p = Some(k.clone()),
                        }
                    }
                }
                chains(&parents)
            }
            Encoding::Ancestors => Ok(docs
                .iter()
                .zip(&ids)
                .map(|(d, k)| (k.clone(), list(d, ANCESTORS).iter().map(key).collect()))
                .collect()),
            Encoding::Path => Ok(docs
                .iter()
                .zip(&ids)
                .map(|(d, k)| {
                    let path = match d.get(PATH) {
                        Some(Bson::String(p)) => p.as_str(),
                        _ => "",
                    };
                    let a = path
                        .split(',')
                        .filter(|s| !s.is_empty())
                        .map(str::to_string)
                        .collect();
                    (k.clone(), a)
                })
                .collect()),
            Encoding::NestedSets => {
                let mut spans: Vec<(i64, i64, &Key)> = Vec::new();
                for (d, k) in docs.iter().zip(&ids) {
                    let (Some(l), Some(r)) = (int(d, LEFT), int(d, RIGHT)) else {
                        return Err(format!("{k} has no left and right"));
                    };
                    if l >= r {
                        return Err(format!("{k}: left {l} is not below right {r}"));
                    }
                    spans.push((l, r, k));
                }
                let mut numbers: Vec<i64> = spans.iter().flat_map(|(l, r, _)| [*l, *r]).collect();
                numbers.sort_unstable();
                if let Some(w) = numbers.windows(2).find(|w| w.first() == w.get(1)) {
                    return Err(format!(
                        "the number {} is taken twice",
                        w.first().copied().unwrap_or_default()
                    ));
                }
                spans.sort_unstable();
                // A depth-first walk: the enclosing spans of a node are its ancestors.
                let mut open: Vec<(i64, &Key)> = Vec::new();
                let mut out = Ancestry::new();
                for (l, r, k) in spans {
                    while open.last().is_some_and(|(or, _)| *or < l) {
                        open.pop();
                    }
                    if let Some((or, o)) = open.last() {
                        if *or < r {
                            return Err(format!(
                                "{k} ({l}, {r}) overlaps {o} (…, {or}) without nesting in it"
                            ));
                        }
                    }
                    out.insert(k.clone(), open.iter().map(|(_, o)| (*o).clone()).collect());
                    open.push((r, k));
                }
                Ok(out)
            }
        }
    }
}

/// Returns true for the steps that write (what a later read of the tree sees changed).
fn writes(op: Op) -> bool {
    !matches!(
        op,
        Op::Read
            | Op::FindParents
            | Op::ReadFeed
            | Op::List
            | Op::FindByAttribute
            | Op::ReadSubtree
            | Op::ReadAncestors
            | Op::ReadChildren
    )
}

fn int(d: &Document, k: &str) -> Option<i64> {
    match d.get(k) {
        Some(Bson::Int32(v)) => Some(i64::from(*v)),
        Some(Bson::Int64(v)) => Some(*v),
        Some(Bson::Double(v)) if v.fract() == 0.0 => Some(*v as i64),
        _ => None,
    }
}

fn list(d: &Document, k: &str) -> Vec<Bson> {
    match d.get(k) {
        Some(Bson::Array(a)) => a.clone(),
        _ => Vec::new(),
    }
}

/// Returns every node's ancestors from every node's parent, or what makes them no tree (a
/// parent that is not stored, a cycle).
fn chains(parents: &BTreeMap<Key, Option<Key>>) -> Result<Ancestry, String> {
    let mut out = Ancestry::new();
    for k in parents.keys() {
        let mut a = Vec::new();
        let mut at = k;
        while let Some(p) = parents.get(at).and_then(Option::as_ref) {
            if !parents.contains_key(p) {
                return Err(format!("{at} names a parent that is not stored ({p})"));
            }
            if a.len() > parents.len() {
                return Err(format!("{k} is its own ancestor"));
            }
            a.push(p.clone());
            at = p;
        }
        a.reverse();
        out.insert(k.clone(), a);
    }
    Ok(out)
}

/// Returns the tree each encoding the layout keeps for `r` holds (by the fields of the
/// nodes' shape).
fn decode_all(
    db: &Database,
    layout: &Layout,
    r: &Relationship,
) -> Vec<(&'static str, Result<Ancestry, String>)> {
    let fields = layout
        .collection_of(&r.parent)
        .and_then(|c| c.shape(&r.parent))
        .map(|s| s.fields.clone())
        .unwrap_or_default();
    let docs = nodes(db, layout, r);
    Encoding::ALL
        .into_iter()
        .filter(|e| fields.get(e.field()).is_some())
        .map(|e| (e.name(), e.decode(&docs)))
        .collect()
}

/// Returns the tree every encoding the layout keeps for `r` agrees on, or how they
/// disagree (or that none is kept).
fn agreed(db: &Database, layout: &Layout, r: &Relationship) -> Result<Ancestry, String> {
    let mut first: Option<(&str, Ancestry)> = None;
    for (enc, t) in decode_all(db, layout, r) {
        let t = t.map_err(|e| format!("{enc}: {e}"))?;
        match &first {
            None => first = Some((enc, t)),
            Some((a, ft)) => {
                if let Some(d) = differs(ft, &t) {
                    return Err(format!("{enc} disagree with {a}: {d}"));
                }
            }
        }
    }
    first
        .map(|(_, t)| t)
        .ok_or_else(|| "the design keeps no tree encoding".to_string())
}

/// Returns how tree `got` differs from `want`: nodes missing, nodes that should not be
/// there, and nodes under other ancestors (the first of them, with both), or `None`.
fn differs(want: &Ancestry, got: &Ancestry) -> Option<String> {
    let missing = want.keys().filter(|k| !got.contains_key(*k)).count();
    let extra = got.keys().filter(|k| !want.contains_key(*k)).count();
    let placed: Vec<(&Key, &Vec<Key>, &Vec<Key>)> = want
        .iter()
        .filter_map(|(k, a)| got.get(k).filter(|g| *g != a).map(|g| (k, a, g)))
        .collect();
    if missing == 0 && extra == 0 && placed.is_empty() {
        return None;
    }
    let mut parts = Vec::new();
    if missing > 0 {
        parts.push(format!("{missing} nodes missing"));
    }
    if extra > 0 {
        parts.push(format!("{extra} nodes that should not be there"));
    }
    if let Some((k, a, g)) = placed.first() {
        // The first level where the two chains part (root first).
        let at = a.iter().zip(g.iter()).take_while(|(x, y)| x == y).count();
        let name = |a: &Vec<Key>| a.get(at).cloned().unwrap_or_else(|| "none".into());
        parts.push(format!(
            "{} nodes under other ancestors (node {k}, depth {} where {} is expected: its ancestor at level {at} is {}, expected {})",
            placed.len(),
            g.len(),
            a.len(),
            name(g),
            name(a)
        ));
    }
    Some(parts.join(", "))
}
