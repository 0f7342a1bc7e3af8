//! The tree steps on the engine: which node a run starts from (and where a move takes it),
//! the values an application computes from that node (the path prefix of its subtree, the ids
//! its path names, the new node's fields, the nested-set shifts of a move), and the bulk write
//! that rewrites a moved subtree one `updateOne` per node (see `design::plan::tree`).

use bson::{Bson, Document};

use super::bind::Binder;
use super::run::Ctx;
use super::Subject;
use crate::design::names::{ANCESTORS, CHILDREN, LEFT, PARENT, PATH, RIGHT};
use crate::design::{Command, Strategy};
use crate::engine::{self, Database, FindCommand};
use crate::model::design::Tree;
use crate::model::{Relationship, Step};

/// The tree relationship of a tree step, its strategy and the sample's tree.
fn site<'a>(ctx: &'a Ctx, step: &Step) -> Option<(&'a Relationship, &'a Strategy, Tree)> {
    if !step.op().is_tree() {
        return None;
    }
    let r = ctx.model.relationship(step.relationship()?)?;
    let s = ctx.layout.strategy(&r.name).filter(|s| s.is_tree())?;
    let count = ctx
        .model
        .entity(&r.parent)
        .map_or(0, |e| ctx.model.sample.sample_count(e.count));
    Some((r, s, Tree::of(r, count)))
}

/// Returns the node a run of `step` starts from and, for a move, the new parent: for the
/// typical run a node at the middle of the tree's middle level (a subtree of a few levels,
/// about half the tree on each side; for a move at least level 2, whose parent has a
/// neighbour to move under); for the largest the worst node of the step: the root
/// for its subtree and children, the deepest node for its ancestors, the first deepest node
/// for an insert (a nested set renumbers everything after it), the root's first child moved
/// under its last (the largest subtree moved the farthest).
fn nodes(step: &Step, t: &Tree, largest: bool) -> (u64, Option<u64>) {
    let d = t.depth();
    if !largest {
        // A move goes under the neighbour of the node's parent: the root has none, so a
        // move starts at level 2 at least (in a tree that deep).
        let top = if let Step::MoveSubtree { .. } = step {
            2
        } else {
            1
        };
        let node = t.middle_of_level((d / 2).max(top).min(d));
        let new_parent = t.parent(node).map(|p| {
            let (first, n) = t.level(t.depth_of(p));
            if p + 1 < first + n {
                p + 1
            } else {
                p.saturating_sub(1).max(first)
            }
        });
        return (node, new_parent);
    }
    match step {
        Step::ReadAncestors { .. } => (t.count.saturating_sub(1), None),
        Step::InsertNode { .. } => (t.level(d).0, None),
        Step::MoveSubtree { .. } => {
            let (first, n) = t.level(1);
            (first, Some(first + n.saturating_sub(1)))
        }
        _ => (0, None),
    }
}

/// Returns the document of node `i` of the tree of `r` as `db` stores it when the step
/// starts (an earlier write of the unit may have moved or renumbered it: the application
/// holds the node as it is now), else as the sample generated it.
fn node_doc(ctx: &Ctx, db: &Database, r: &Relationship, i: u64) -> Option<Document> {
    let id = Bson::ObjectId(crate::generate::entity_oid(ctx.model.seed, &r.parent, i));
    let coll = ctx.layout.collection_name(&r.parent);
    let find = FindCommand {
        filter: bson::doc! { "_id": id.clone() },
        limit: Some(1),
        ..Default::default()
    };
    if let Some(d) = db
        .find(&coll, &find)
        .ok()
        .and_then(|x| x.documents.into_iter().next())
    {
        return Some(d.into_document());
    }
    ctx.data
        .collection(&coll)?
        .documents
        .iter()
        .find(|d| d.get("_id") == Some(&id))
        .cloned()
}

/// Returns the subject of a unit whose first step is a tree step: the node it starts from.
pub(super) fn subject(ctx: &Ctx, step: &Step, largest: bool) -> Option<Subject> {
    let (_, _, t) = site(ctx, step)?;
    let (node, _) = nodes(step, &t, largest);
    Some(Subject {
        which: if largest { "largest" } else { "typical" }.to_string(),
        quantile: if largest { 1.0 } else { 0.5 },
        document: node as usize,
    })
}

/// Returns the path prefix of the subtree of `node`: its own path (`,` for the root) and
/// its id, then a comma.
fn subtree_path(node: &Document) -> String {
    let path = match node.get(PATH) {
        Some(Bson::String(p)) => p.clone(),
        _ => ",".to_string(),
    };
    let id = match node.get("_id") {
        Some(Bson::ObjectId(o)) => o.to_hex(),
        _ => String::new(),
    };
    format!("{path}{id},")
}

fn int(d: &Document, k: &str) -> i64 {
    match d.get(k) {
        Some(Bson::Int32(v)) => i64::from(*v),
        Some(Bson::Int64(v)) => *v,
        _ => 0,
    }
}

fn ids(d: &Document, k: &str) -> Vec<Bson> {
    match d.get(k) {
        Some(Bson::Array(a)) => a.clone(),
        _ => Vec::new(),
    }
}

/// Binds what a tree step starts from: `node` (and `level0`/`up0`, the first level of a walk),
/// `prefix` (the anchored regex of its subtree's paths), `child_path`, `path_ids`, the new node
/// of an insert (`child`), the new parent of a move and its nested-set shifts (`ns`).
pub(super) fn prepare(ctx: &Ctx, b: &mut Binder, step: &Step, n: &mut u64, db: &Database) {
    let Some((r, s, t)) = site(ctx, step) else {
        return;
    };
    let (i, np) = nodes(step, &t, b.largest);
    let Some(node) = node_doc(ctx, db, r, i) else {
        return;
    };
    let under = subtree_path(&node);
    let path_ids: Vec<Bson> = node
        .get_str(PATH)
        .unwrap_or_default()
        .split(',')
        .filter_map(|h| bson::oid::ObjectId::parse_str(h).ok().map(Bson::ObjectId))
        .collect();
    if let (Ok(pattern), Ok(options)) = (
        bson::raw::CString::try_from(format!("^{under}")),
        bson::raw::CString::try_from(""),
    ) {
        b.fresh.insert(
            "prefix".into(),
            Bson::RegularExpression(bson::Regex { pattern, options }),
        );
    }
    b.fresh
        .insert("child_path".into(), Bson::String(under.clone()));
    b.fresh.insert("path_ids".into(), Bson::Array(path_ids));
    b.results.insert("level0".into(), vec![node.clone().into()]);
    b.results.insert("up0".into(), vec![node.clone().into()]);
    let id = node.get("_id").cloned().unwrap_or(Bson::Null);
    if let Step::InsertNode { .. } = step {
        let fields = ctx
            .layout
            .collection_of(&r.parent)
            .and_then(|c| c.shape(&r.parent))
            .map(|x| x.fields.clone())
            .unwrap_or_default();
        *n += 1;
        let mut child = b.new_document(&fields, &r.parent, *n);
        child.insert(
            "_id",
            Bson::ObjectId(crate::generate::entity_oid(
                ctx.model.seed,
                &format!("new/{}", r.parent),
                *n,
            )),
        );
        let right = int(&node, RIGHT);
        for (k, v) in [
            (PARENT, id.clone()),
            (CHILDREN, Bson::Array(Vec::new())),
            (ANCESTORS, {
                let mut a = ids(&node, ANCESTORS);
                a.push(id.clone());
                Bson::Array(a)
            }),
            (PATH, Bson::String(under.clone())),
            (LEFT, Bson::Int32(right as i32)),
            (RIGHT, Bson::Int32(right as i32 + 1)),
        ] {
            if child.contains_key(k) {
                child.insert(k, v);
            }
        }
        b.fresh.insert("child".into(), Bson::Document(child));
    }
    if let Some(p) = np.and_then(|p| node_doc(ctx, db, r, p)) {
        if matches!(s, Strategy::NestedSets) {
            let (nl, nr, pr) = (int(&node, LEFT), int(&node, RIGHT), int(&p, RIGHT));
            let w = nr - nl + 1;
            // Below every number: an earlier insert of the unit may have raised them.
            let big = (2 * t.count as i64 + 2).max(nr + 1);
            let at = if pr > nr { pr - w } else { pr };
            b.fresh.insert(
                "ns".into(),
                Bson::Document(bson::doc! {
                    "park": -big, "close": -w, "at": at, "open": w, "unpark": big + at - nl,
                }),
            );
        }
        b.fresh.insert("new_parent".into(), Bson::Document(p));
    }
    b.fresh.insert("node".into(), Bson::Document(node));
}

/// Returns true for the bulk write that rewrites a moved subtree.
pub(super) fn is_bulk(c: &Command) -> bool {
    c.note.ends_with(crate::design::plan::tree::BULK)
}

/// Returns the documents the bulk write of a move sets, one per moved node (the node first,
/// then the subtree read before): its `_id`, its new `ancestors` and `parent` or its new
/// `path`, each the new parent's followed by what lay below the moved node.
pub(super) fn moved(b: &Binder) -> Vec<Document> {
    let (Some(Bson::Document(node)), Some(Bson::Document(np))) =
        (b.fresh.get("node"), b.fresh.get("new_parent"))
    else {
        return Vec::new();
    };
    let old_anc = ids(node, ANCESTORS).len();
    let mut new_anc = ids(np, ANCESTORS);
    new_anc.extend(np.get("_id").cloned());
    let old_path = node.get_str(PATH).unwrap_or(",").to_string();
    let new_path = subtree_path(np);
    let below = b.results.get("moved").cloned().unwrap_or_default();
    std::iter::once(node.clone())
        .chain(
            below
                .into_iter()
                .map(crate::engine::Returned::into_document),
        )
        .map(|d| {
            let mut e = bson::doc! { "_id": d.get("_id").cloned().unwrap_or(Bson::Null) };
            let mut anc = new_anc.clone();
            anc.extend(ids(&d, ANCESTORS).into_iter().skip(old_anc));
            e.insert(ANCESTORS, anc);
            let parent = if d.get("_id") == node.get("_id") {
                np.get("_id").cloned()
            } else {
                d.get(PARENT).cloned()
            };
            e.insert(PARENT, parent.unwrap_or(Bson::Null));
            let path = d.get_str(PATH).unwrap_or(",");
            let rest = path.get(old_path.len()..).unwrap_or_default();
            e.insert(PATH, format!("{new_path}{rest}"));
            e
        })
        .collect()
}

/// Runs the bulk write of a move: one `updateOne` per moved node, its figures summed (one
/// round trip); `run` sends each bound update.
pub(super) fn bulk(
    b: &mut Binder,
    mut run: impl FnMut(&Binder) -> engine::error::Result<engine::CommandResult>,
) -> engine::error::Result<engine::CommandResult> {
    let mut acc = engine::CommandResult::default();
    for each in moved(b) {
        b.fresh.insert("each".into(), Bson::Document(each));
        let r = run(b)?;
        super::run::add(&mut acc, r);
    }
    Ok(acc)
}
