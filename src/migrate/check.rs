//! A migration checked on the engine: its steps run, batch by batch as the script runs them,
//! on the source design's sample, and the result must hold the same data as the source, read
//! through the target design.
//!
//! Compared, for the same sample:
//! - every relationship's children of every parent ([`crate::eval::answer::logical_children`]
//!   of the source read through the source layout, and of the result through the target's),
//!   each child by the fields its entity declares (with its `_id`, unless the child is embedded
//!   or bucketed in one of the designs, where it has none of its own);
//! - every entity kept in a collection of its own in both designs, document by document;
//! - the copies the target keeps (an embedded subset's elements, extended references, a
//!   child's copies of its parent's fields) against their originals, and a subset's first `k`
//!   in the target's order;
//! - nothing left over: no collection, top-level field or index the target does not lay out,
//!   and every index it does.

use std::collections::{BTreeMap, BTreeSet};

use bson::{Bson, Document};

use crate::design::{Layout, Strategy};
use crate::engine::compare::compare;
use crate::engine::{Database, FindCommand};
use crate::eval::answer::documents;
use crate::eval::{EvalError, EvalOptions, Samples};
use crate::model::Model;

use super::script::batch_command;
use super::{Action, Migration, Side};

/// What the check found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CheckReport {
    /// Commands run on the engine (a backfill's batches one each).
    pub commands: usize,
    /// Parents whose children were compared.
    pub parents: usize,
    /// Every difference, in words; none when the migration reached the target's state.
    pub problems: Vec<String>,
}

/// Runs `migration` (planned from `from` to `to`) on the source's sample of `scale` entities
/// per entity (fewer where that many do not fit the memory budget) and compares the result
/// with the target's logical state of the same data.
pub fn check(
    from: Side,
    to: Side,
    migration: &Migration,
    scale: u64,
) -> Result<CheckReport, EvalError> {
    // The scale asked for, halved until the sample fits the memory budget (a model with
    // large documents fits only a few).
    let mut scale = scale.max(1);
    let sample = loop {
        let opts = EvalOptions {
            max_documents: Some(scale),
            ..EvalOptions::default()
        };
        match Samples::new().prepare(from.model, from.layout, &opts) {
            Err(EvalError::TooBig(_)) if scale > 1 => scale /= 2,
            other => break other?,
        }
    };
    let model = &sample.model;
    let mut db = sample.db.clone();
    let mut report = CheckReport::default();
    let batch = migration.options.batch.max(1) as usize;
    for step in &migration.steps {
        let texts: Vec<String> = match &step.action {
            Action::Application => continue,
            Action::Backfill { parents, .. } => {
                let mut ids: Vec<Bson> = documents(&db, parents)
                    .into_iter()
                    .filter_map(|d| d.get("_id").cloned())
                    .collect();
                ids.sort_by(compare);
                ids.chunks(batch)
                    .filter_map(|b| batch_command(&step.action, b))
                    .collect()
            }
            _ => vec![step.command.clone()],
        };
        for t in texts {
            report.commands += 1;
            if let Err(e) = crate::console::execute(&mut db, &t) {
                report
                    .problems
                    .push(format!("step {} ({}): {e}", step.number, step.title));
            }
        }
    }
    if !report.problems.is_empty() {
        return Ok(report);
    }
    let embedded = embedded_children(model, from.layout, to.layout);
    for r in &model.relationships {
        let before = crate::eval::answer::logical_children(&sample.db, model, from.layout, &r.name);
        let after = crate::eval::answer::logical_children(&db, model, to.layout, &r.name);
        let (Some(before), Some(after)) = (before, after) else {
            report.problems.push(format!(
                "{}: the children are not decoded in one of the designs",
                r.name
            ));
            continue;
        };
        let fields = declared(model, &r.child, embedded.contains(&r.child));
        let keep = |d: &Document| canonical(d, &fields);
        let state = |v: &[(Bson, Vec<Document>)]| -> BTreeMap<String, Vec<String>> {
            v.iter()
                .map(|(p, c)| {
                    let mut c: Vec<String> = c.iter().map(keep).collect();
                    c.sort();
                    (text(p), c)
                })
                .collect()
        };
        let (b, a) = (state(&before), state(&after));
        report.parents += b.len();
        if b != a {
            report.problems.push(difference(&r.name, &b, &a));
        }
        // The copies a changed relationship's target keeps were written by the migration;
        // those of an unchanged one are the sample's own.
        if migration.changes.iter().any(|c| c.relationship == r.name) {
            copies(&db, model, to.layout, r, &after, &mut report.problems);
        }
    }
    for e in &model.entities {
        let (Some(fc), Some(tc)) = (
            from.layout.collection_of(&e.name),
            to.layout.collection_of(&e.name),
        ) else {
            continue;
        };
        let fields = declared(model, &e.name, false);
        let docs = |db: &Database, c: &str| {
            let mut v: Vec<String> = documents(db, c)
                .iter()
                .filter(|d| !matches!(d.get(crate::design::names::TYPE_FIELD), Some(Bson::String(t)) if *t != e.name))
                .map(|d| canonical(d, &fields))
                .collect();
            v.sort();
            v
        };
        if docs(&sample.db, &fc.name) != docs(&db, &tc.name) {
            report.problems.push(format!(
                "entity {}: its documents differ after the migration",
                e.name
            ));
        }
    }
    leftovers(&db, to.layout, &mut report.problems);
    Ok(report)
}

/// The document of `coll` whose `_id` is `id`, if any.
fn by_id(db: &Database, coll: &str, id: &Bson) -> Option<Document> {
    let find = FindCommand {
        filter: bson::doc! { "_id": id.clone() },
        ..FindCommand::default()
    };
    db.find(coll, &find)
        .ok()?
        .documents
        .into_iter()
        .next()
        .map(|d| d.into_document())
}

/// The entities embedded or bucketed (without an `_id` of their own) in either layout.
fn embedded_children(model: &Model, from: &Layout, to: &Layout) -> BTreeSet<String> {
    model
        .relationships
        .iter()
        .filter(|r| {
            [from, to].iter().any(|l| {
                matches!(
                    l.strategy(&r.name),
                    Some(Strategy::Embed | Strategy::Bucket { .. })
                )
            })
        })
        .filter(|r| {
            model
                .entity(&r.child)
                .is_some_and(|e| e.fields.get("_id").is_none())
        })
        .map(|r| r.child.clone())
        .collect()
}

/// The fields entity `name` declares, with `_id` unless `without_id`.
fn declared(model: &Model, name: &str, without_id: bool) -> Vec<String> {
    let mut out: Vec<String> = if without_id {
        vec![]
    } else {
        vec!["_id".to_string()]
    };
    if let Some(e) = model.entity(name) {
        out.extend(e.field_names());
    }
    out
}

/// `d` cut to `fields`, as canonical Extended JSON.
fn canonical(d: &Document, fields: &[String]) -> String {
    let mut out = Document::new();
    for f in fields {
        if let Some(v) = d.get(f) {
            out.insert(f.clone(), v.clone());
        }
    }
    text(&Bson::Document(out))
}

fn text(v: &Bson) -> String {
    v.clone().into_canonical_extjson().to_string()
}

/// Describes the first parent whose children differ.
fn difference(
    name: &str,
    before: &BTreeMap<String, Vec<String>>,
    after: &BTreeMap<String, Vec<String>>,
) -> String {
    if before.len() != after.len() {
        return format!(
            "{name}: {} parents before the migration, {} after",
            before.len(),
            after.len()
        );
    }
    for (p, c) in before {
        match after.get(p) {
            None => return format!("{name}: parent {p} is gone"),
            Some(a) if a != c => {
                return format!(
                "{name}: parent {p} had {} children, now {} (first before: {}; first after: {})",
                c.len(),
                a.len(),
                c.first().map_or("none", String::as_str),
                a.first().map_or("none", String::as_str)
            )
            }
            _ => {}
        }
    }
    format!("{name}: the children differ")
}

/// Checks the copies the target keeps of each child (subset elements, extended references)
/// and of each parent (a child's copies of its fields) against their originals.
fn copies(
    db: &Database,
    model: &Model,
    to: &Layout,
    r: &crate::model::Relationship,
    after: &[(Bson, Vec<Document>)],
    problems: &mut Vec<String>,
) {
    let Some(s) = to.strategy(&r.name) else {
        return;
    };
    let pc = to.collection_name(&r.parent);
    let arr = r.array_field();
    match s {
        Strategy::EmbedSubset { .. } | Strategy::ExtendedReference { .. } => {
            let order = crate::design::plan::array_order(model, &r.name, s);
            for (pid, children) in after {
                let parent = by_id(db, &pc, pid);
                let elems: Vec<Document> = match parent.as_ref().and_then(|p| p.get(arr)) {
                    Some(Bson::Array(a)) => {
                        a.iter().filter_map(|v| v.as_document().cloned()).collect()
                    }
                    _ => Vec::new(),
                };
                for e in &elems {
                    let Some(c) = children.iter().find(|c| c.get("_id") == e.get("_id")) else {
                        problems.push(format!(
                            "{}: parent {} keeps a copy of a child it does not have",
                            r.name,
                            text(pid)
                        ));
                        return;
                    };
                    if e.iter().any(|(f, v)| c.get(f) != Some(v)) {
                        problems.push(format!(
                            "{}: parent {} keeps a copy that differs from its child",
                            r.name,
                            text(pid)
                        ));
                        return;
                    }
                }
                if let Strategy::EmbedSubset { k } = s {
                    let want = children.len().min(*k as usize);
                    if elems.len() != want {
                        problems.push(format!(
                            "{}: parent {} keeps {} of its children, not {want}",
                            r.name,
                            text(pid),
                            elems.len()
                        ));
                        return;
                    }
                    if let Some(o) = &order {
                        let mut sorted = children.clone();
                        sorted.sort_by(|a, b| {
                            let x = compare(
                                a.get(&o.field).unwrap_or(&Bson::Null),
                                b.get(&o.field).unwrap_or(&Bson::Null),
                            );
                            if o.order < 0 {
                                x.reverse()
                            } else {
                                x
                            }
                        });
                        let key = |d: &Document| d.get(&o.field).cloned();
                        let first: Vec<_> = sorted.iter().take(want).map(key).collect();
                        let kept: Vec<_> = elems.iter().map(key).collect();
                        if first != kept {
                            problems.push(format!(
                                "{}: parent {} keeps other children than its first {k} by {}",
                                r.name,
                                text(pid),
                                o.field
                            ));
                            return;
                        }
                    }
                } else if elems.len() != children.len() {
                    problems.push(format!(
                        "{}: parent {} references {} children, not {}",
                        r.name,
                        text(pid),
                        elems.len(),
                        children.len()
                    ));
                    return;
                }
            }
        }
        Strategy::ReferenceInChild { copy } if !copy.is_empty() => {
            for (pid, children) in after {
                let parent = by_id(db, &pc, pid);
                for c in children {
                    for f in copy {
                        let want = parent.as_ref().and_then(|p| p.get(f));
                        if c.get(crate::design::names::parent_copy_field(r, f)) != want {
                            problems.push(format!(
                                "{}: a {} does not copy its {}'s {f}",
                                r.name, r.child, r.parent
                            ));
                            return;
                        }
                    }
                }
            }
        }
        _ => {}
    }
}

/// Reports collections, top-level fields and indexes the target does not lay out, and its
/// indexes that are missing.
fn leftovers(db: &Database, to: &Layout, problems: &mut Vec<String>) {
    for name in db.collection_names() {
        let Some(c) = to.collection(&name) else {
            problems.push(format!("collection {name} is left over"));
            continue;
        };
        let fields: BTreeSet<&str> = c
            .shapes
            .iter()
            .flat_map(|s| s.fields.iter().map(|(n, _)| n.as_str()))
            .chain(["_id"])
            .collect();
        let mut extra: BTreeSet<String> = BTreeSet::new();
        for d in documents(db, &name) {
            for k in d.keys() {
                if !fields.contains(k.as_str()) {
                    extra.insert(k.clone());
                }
            }
        }
        if !extra.is_empty() {
            problems.push(format!(
                "{name}: fields left over: {}",
                extra.into_iter().collect::<Vec<_>>().join(", ")
            ));
        }
        let have: BTreeSet<String> = db
            .list_indexes(&name)
            .into_iter()
            .filter(|i| i.name != "_id_")
            .map(|i| text(&Bson::Document(i.key)))
            .collect();
        let want: BTreeSet<String> = c
            .indexes
            .iter()
            .map(|i| text(&Bson::Document(i.keys.clone())))
            .collect();
        if have != want {
            problems.push(format!(
                "{name}: indexes {:?}, the target lays out {:?}",
                have, want
            ));
        }
    }
}
