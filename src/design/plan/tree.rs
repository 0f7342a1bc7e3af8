//! The tree steps (the MongoDB manual's "Model Tree Structures"): a node's subtree, its
//! ancestors, its children; insert a node; move a subtree. Each strategy sends what an
//! application sends: parent and child references walk the tree one level per round trip, an
//! array of ancestors or a materialized path reads a subtree or the ancestors in one query,
//! nested sets read either with one range query and renumber half the tree on a write.
//!
//! The node a step starts from is in the application's hands (the page shows it): its fields
//! are parameters (`node._id`, `node.path`, `node.left`), bound by the evaluation
//! (`eval::tree`), as are the values an application computes from them (the path prefix of the
//! subtree, the nested-set shifts of a move). The results of one level are the parameters of
//! the next (`level1._id`): each is kept under the name [`kept`] reads from the note.

use bson::{doc, Bson, Document};

use super::{param, Command, CommandKind::*, Commands, Placement};
use crate::design::names::{ANCESTORS, CHILDREN, LEFT, PARENT, PATH, RIGHT};
use crate::model::design::{Strategy, Tree};
use crate::model::{Relationship, Step};

/// The note of a level-by-level read: `level 2 of the subtree`, `ancestor 3 up`.
const LEVEL: &str = "level ";
/// The note of a read one level up.
const UP: &str = "ancestor ";
/// The note of the read of a moved subtree, whose documents the bulk write rewrites.
pub const MOVED: &str = "the subtree that moves";
/// The note of the bulk write that rewrites every moved node (one `updateOne` each, one
/// round trip).
pub const BULK: &str = "one bulkWrite: an updateOne per moved node";

/// Returns the name a read's results are kept under for the next command (`level2`, `up1`,
/// `moved`), from its note.
pub fn kept(note: &str) -> Option<String> {
    let tail = note.split(": ").nth(1)?;
    if tail == MOVED {
        return Some("moved".into());
    }
    let word = |prefix: &str, name: &str| {
        tail.strip_prefix(prefix)
            .and_then(|r| r.split(' ').next())
            .filter(|n| n.parse::<u64>().is_ok())
            .map(|n| format!("{name}{n}"))
    };
    word(LEVEL, "level").or_else(|| word(UP, "up"))
}

/// Returns true for a read of a level-by-level walk (a level of the subtree, an ancestor up):
/// its `$in` list is the previous level's, empty when that level has no more to give.
pub fn walks(c: &Command) -> bool {
    kept(&c.note).is_some_and(|k| k.starts_with("level") || k.starts_with("up"))
}

/// Appends the commands of a tree step.
pub(super) fn commands(p: &Placement, step: &Step, out: &mut Commands) {
    let Some(rel) = step.relationship() else {
        return;
    };
    let Some((r, s, coll, _)) = p.site(rel) else {
        return;
    };
    if !s.is_tree() {
        return;
    }
    let count = p.model.entity(&r.parent).map_or(0.0, |e| e.count).max(0.0) as u64;
    // One read per level below the deepest node's parent, and the read that finds no more.
    let depth = Tree::of(r, count).depth();
    // A write of the tree earlier in the unit (an insert, a move) may deepen it, by at most
    // its depth and one: a walk takes as many more levels per such step, those it does not
    // need not sent (their `$in` lists are empty).
    let mut writes: Vec<usize> = out
        .list
        .iter()
        .filter(|c| c.collection == coll && matches!(c.kind, Insert | Update))
        .map(|c| c.step)
        .collect();
    writes.dedup();
    let depth = depth + writes.len() as u64 * (depth + 1);
    let name = r.name.as_str();
    let find = |out: &Commands, filter: Document, note: String| {
        out.command(&coll, Find, filter, format!("{name}: {note}"))
    };
    let update = |out: &Commands, filter: Document, u: Document, multi: bool, note: &str| {
        let mut c = out.command(&coll, Update, filter, format!("{name}: {note}"));
        c.update = Some(u);
        c.multi = multi;
        c
    };
    let id = param("node._id");
    match step {
        Step::ReadSubtree { .. } => subtree(out, s, depth, &id, &find),
        Step::ReadAncestors { .. } => ancestors(out, s, depth, &find),
        Step::ReadChildren { .. } => {
            let f = match s {
                Strategy::ChildReferences => {
                    doc! { "_id": { "$in": param(format!("node.{CHILDREN}")) } }
                }
                Strategy::MaterializedPaths => doc! { PATH: param("child_path") },
                _ => doc! { PARENT: id },
            };
            out.push(find(out, f, "the children".into()));
        }
        Step::InsertNode { .. } => insert_node(out, s, r, &coll, &id, &update),
        Step::MoveSubtree { .. } => moves(out, s, &id, &find, &update),
        _ => {}
    }
}

/// Appends the reads of the node's subtree (`read_subtree`), one per level for the reference
/// strategies (`depth` of them and the read that finds no more).
fn subtree(
    out: &mut Commands,
    s: &Strategy,
    depth: u64,
    id: &Bson,
    find: &dyn Fn(&Commands, Document, String) -> Command,
) {
    let id = id.clone();
    match s {
        Strategy::ParentReferences => {
            for k in 1..=depth + 1 {
                let f = doc! { PARENT: { "$in": param(format!("level{}._id", k - 1)) } };
                out.push(find(out, f, format!("{LEVEL}{k} of the subtree")));
            }
        }
        Strategy::ChildReferences => {
            for k in 1..=depth {
                let f = doc! { "_id": { "$in": param(format!("level{}.{CHILDREN}", k - 1)) } };
                out.push(find(out, f, format!("{LEVEL}{k} of the subtree")));
            }
        }
        Strategy::ArrayOfAncestors => {
            out.push(find(out, doc! { ANCESTORS: id }, "the subtree".into()));
        }
        Strategy::MaterializedPaths => {
            let f = doc! { PATH: param("prefix") };
            out.push(find(out, f, "the subtree, by its path prefix".into()));
        }
        Strategy::NestedSets => {
            let f = doc! {
                LEFT: { "$gt": param("node.left") },
                RIGHT: { "$lt": param("node.right") },
            };
            out.push(find(
                out,
                f,
                "the subtree, between its left and right".into(),
            ));
        }
        _ => {}
    }
}

/// Appends the reads of the node's ancestors (`read_ancestors`), one per level up for the
/// reference strategies.
fn ancestors(
    out: &mut Commands,
    s: &Strategy,
    depth: u64,
    find: &dyn Fn(&Commands, Document, String) -> Command,
) {
    match s {
        Strategy::ParentReferences => {
            for k in 1..=depth {
                let f = doc! { "_id": { "$in": param(format!("up{}.{PARENT}", k - 1)) } };
                out.push(find(out, f, format!("{UP}{k} up")));
            }
        }
        Strategy::ChildReferences => {
            for k in 1..=depth + 1 {
                let f = doc! { CHILDREN: { "$in": param(format!("up{}._id", k - 1)) } };
                out.push(find(out, f, format!("{UP}{k} up")));
            }
        }
        Strategy::ArrayOfAncestors => {
            let f = doc! { "_id": { "$in": param(format!("node.{ANCESTORS}")) } };
            out.push(find(out, f, "the ancestors".into()));
        }
        Strategy::MaterializedPaths => {
            let f = doc! { "_id": { "$in": param("path_ids") } };
            out.push(find(out, f, "the ancestors its path names".into()));
        }
        Strategy::NestedSets => {
            let f = doc! {
                LEFT: { "$lt": param("node.left") },
                RIGHT: { "$gt": param("node.right") },
            };
            out.push(find(
                out,
                f,
                "the ancestors, around its left and right".into(),
            ));
        }
        _ => {}
    }
}

/// Appends the writes of a new node (`insert_node`): nested sets make room first, child
/// references list it in its parent.
fn insert_node(
    out: &mut Commands,
    s: &Strategy,
    r: &Relationship,
    coll: &str,
    id: &Bson,
    update: &dyn Fn(&Commands, Document, Document, bool, &str) -> Command,
) {
    let name = r.name.as_str();
    let id = id.clone();
    if let Strategy::NestedSets = s {
        let right = param("node.right");
        out.push(update(
            out,
            doc! { RIGHT: { "$gte": right.clone() } },
            doc! { "$inc": { RIGHT: 2 } },
            true,
            "make room: every right from the parent's on",
        ));
        out.push(update(
            out,
            doc! { LEFT: { "$gt": right } },
            doc! { "$inc": { LEFT: 2 } },
            true,
            "make room: every left after it",
        ));
    }
    let mut c = out.command(
        coll,
        Insert,
        Document::new(),
        format!("{name}: the new node"),
    );
    c.insert_shape = Some(r.child.clone());
    out.push(c);
    if let Strategy::ChildReferences = s {
        out.push(update(
            out,
            doc! { "_id": id },
            doc! { "$push": { CHILDREN: param("child._id") } },
            false,
            "the parent lists it",
        ));
    }
}

/// Appends the commands that move the node's subtree under `new_parent`.
fn moves(
    out: &mut Commands,
    s: &Strategy,
    id: &Bson,
    find: &dyn Fn(&Commands, Document, String) -> Command,
    update: &dyn Fn(&Commands, Document, Document, bool, &str) -> Command,
) {
    let new_parent = param("new_parent._id");
    match s {
        Strategy::ParentReferences => out.push(update(
            out,
            doc! { "_id": id.clone() },
            doc! { "$set": { PARENT: new_parent } },
            false,
            "point the node at its new parent",
        )),
        Strategy::ChildReferences => {
            out.push(update(
                out,
                doc! { CHILDREN: id.clone() },
                doc! { "$pull": { CHILDREN: id.clone() } },
                false,
                "remove it from the old parent",
            ));
            out.push(update(
                out,
                doc! { "_id": new_parent },
                doc! { "$push": { CHILDREN: id.clone() } },
                false,
                "add it to the new parent",
            ));
        }
        Strategy::ArrayOfAncestors | Strategy::MaterializedPaths => {
            // Every node of the subtree holds the moved node's ancestors: read them, then
            // rewrite each (the node's own parent too) in one bulk write.
            let filter = match s {
                Strategy::ArrayOfAncestors => doc! { ANCESTORS: id.clone() },
                _ => doc! { PATH: param("prefix") },
            };
            out.push(find(out, filter, MOVED.to_string()));
            let field = if matches!(s, Strategy::ArrayOfAncestors) {
                ANCESTORS
            } else {
                PATH
            };
            let mut set = doc! { field: param(format!("each.{field}")) };
            if matches!(s, Strategy::ArrayOfAncestors) {
                set.insert(PARENT, param(format!("each.{PARENT}")));
            }
            out.push(update(
                out,
                doc! { "_id": param("each._id") },
                doc! { "$set": set },
                false,
                BULK,
            ));
        }
        Strategy::NestedSets => {
            // Park the subtree below zero, close its gap, open one at the new parent's right,
            // bring it back there: everything between the two places is renumbered.
            let steps: [(Document, Document, &str); 6] = [
                (
                    doc! { LEFT: { "$gte": param("node.left") }, RIGHT: { "$lte": param("node.right") } },
                    doc! { "$inc": { LEFT: param("ns.park"), RIGHT: param("ns.park") } },
                    "park the subtree below zero",
                ),
                (
                    doc! { LEFT: { "$gt": param("node.right") } },
                    doc! { "$inc": { LEFT: param("ns.close") } },
                    "close its gap: every left after it",
                ),
                (
                    doc! { RIGHT: { "$gt": param("node.right") } },
                    doc! { "$inc": { RIGHT: param("ns.close") } },
                    "close its gap: every right after it",
                ),
                (
                    doc! { LEFT: { "$gt": param("ns.at") } },
                    doc! { "$inc": { LEFT: param("ns.open") } },
                    "open a gap at the new parent: every left after it",
                ),
                (
                    doc! { RIGHT: { "$gte": param("ns.at") } },
                    doc! { "$inc": { RIGHT: param("ns.open") } },
                    "open a gap at the new parent: every right from its own on",
                ),
                (
                    doc! { LEFT: { "$lt": 0 } },
                    doc! { "$inc": { LEFT: param("ns.unpark"), RIGHT: param("ns.unpark") } },
                    "bring the subtree into the gap",
                ),
            ];
            for (f, u, note) in steps {
                out.push(update(out, f, u, true, note));
            }
            out.push(update(
                out,
                doc! { "_id": id.clone() },
                doc! { "$set": { PARENT: new_parent } },
                false,
                "point the node at its new parent",
            ));
        }
        _ => {}
    }
}
