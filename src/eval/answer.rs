//! The logical answer of a step, checked on the engine: whatever the design, a read returns
//! the children its step asks for (their fields, the first N in the step's order) and an
//! insert of a child leaves that child stored and linked to its parent.
//!
//! The check asks every question twice, as SQLancer's oracles do: once through the design's
//! plan, run on the engine over the design's own sample (what [`super::run`] measures), and
//! once through the logical state that sample holds, decoded strategy by strategy from the
//! documents ([`children_of`]: an embedded array's elements, the ids a parent or a continuation
//! chain keeps, the links of a link collection, a bucket's elements, a parent reference). The
//! plan is right when everything the logical answer holds is among what its commands
//! returned, field for field: a plan that returns ids where the step asks for children, the
//! oldest where it asks for the newest, or that never stores the child it pushes an id of,
//! fails. The application's last steps (sorting what several round trips returned, cutting
//! at the limit) are its own; what the plan must do is fetch everything they need.
//!
//! Checked: `read` steps with children (for the typical and the largest subject),
//! `find_parents`, `insert_child` (for the typical parent: the largest parent's continuation
//! documents may lie outside the sample), `update` (a `$set`: the entity holds the new
//! value and, for `live` copies, so does every copy of it: every sub-document with its `_id`
//! in any collection, and the fields its children copy from it; an `$inc`: the field and its
//! live copies grew by the increment), `reassign` (the child among its new parent's children,
//! and no other parent's), `delete` (nothing stores the entity or lists it any more) and
//! `list` (its page of the entity's documents, in its order, with the fields it asks for),
//! `insert` (a new document of the entity in its collection), `find_by_attribute` (exactly
//! the documents holding a matching attribute, [`attribute`]), `read_feed` (the reader's
//! newest page) and `post_feed` (the item in the feed of every follower written to, in their
//! newest bucket) ([`feed`]).
//! A strategy whose children cannot be decoded from the documents
//! (a time series' compressed buckets) is reported as not checked, never passed silently.

mod attribute;
mod feed;
mod pool;
mod tree;

use bson::{doc, Bson, Document};

use super::run::{self, Ctx};
use super::{EvalError, EvalOptions};
use crate::design::names::{child_ref, relationship_collection_name, CONTINUATION_FIELD};
use crate::design::{Layout, Strategy};
use crate::engine::{compare::compare, Database, FindCommand};
use crate::model::{ChildRead, Model, Relationship, Step};
use crate::stats::CollectionStats;
use pool::Pool;

/// A step whose plan does not give its logical answer.
#[derive(Debug, Clone, PartialEq)]
pub struct AnswerProblem {
    /// The unit.
    pub unit: String,
    /// The step's index in its unit.
    pub step: usize,
    /// `typical` or `largest`.
    pub subject: String,
    /// What is wrong.
    pub problem: String,
}

impl std::fmt::Display for AnswerProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} (step {}, {} subject): {}",
            self.unit, self.step, self.subject, self.problem
        )
    }
}

/// What checking one step found (for the steps checked in their own modules).
enum Outcome {
    /// Checked: `None` when the plan gave the logical answer, else what is wrong.
    Checked(Option<String>),
    /// Not checked, with why.
    Unchecked(String),
}

/// What the check found for one design.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AnswerReport {
    /// Steps whose plans returned or left something else than the logical answer.
    pub problems: Vec<AnswerProblem>,
    /// Steps checked (a step counts once per subject).
    pub checked: usize,
    /// Steps that could not be checked, with why (a strategy whose children are not decoded).
    pub unchecked: Vec<String>,
}

/// Runs every unit of `layout`'s plan on its sample and compares what each `read` and
/// `insert_child` step returned or left with the logical answer of the same data.
pub fn check(
    model: &Model,
    layout: &Layout,
    opts: &EvalOptions,
) -> Result<AnswerReport, EvalError> {
    let stats = crate::stats::of_layout(layout, &model.start_date);
    check_in(model, layout, opts, &mut super::Samples::new(), &stats)
}

/// [`check`] on a sample from `samples` (one kept from an earlier check of a design with the
/// same collections, or one made now and kept), with `stats` the full-scale statistics of
/// `layout`'s collections (the units' runs read them: the advisor hands over its evaluation's
/// of the same layout rather than simulating the sizes again).
pub fn check_in(
    model: &Model,
    layout: &Layout,
    opts: &EvalOptions,
    samples: &mut super::Samples,
    stats: &[CollectionStats],
) -> Result<AnswerReport, EvalError> {
    let sample = samples.prepare(model, layout, opts)?;
    let (model, data) = (&sample.model, &sample.data);
    // The sample as generated, never written to: what a step's subject was before the run
    // (the kept sample's database; the run works on a copy).
    let before = &sample.db;
    let mut db = before.clone();
    let cap = opts.fan_out_cap.max(1);
    let ctx = Ctx {
        model,
        layout,
        data,
        stats,
        cap,
    };
    // The key fields of the layout's maps, for the pools of what each step returned.
    let keys = map_keys(model, layout);
    let mut report = AnswerReport::default();
    for (ui, unit) in model.workload.iter().enumerate() {
        for largest in [false, true] {
            let subject = if largest { "largest" } else { "typical" };
            let mut found = Vec::new();
            let mut checked = 0;
            let mut unchecked = Vec::new();
            let mut observe = |db: &Database,
                               b: &super::bind::Binder,
                               returned: &[(usize, Vec<Document>)],
                               complete: bool| {
                for (si, step) in unit.steps.iter().enumerate() {
                    let mut problem = |problem: String| {
                        found.push(AnswerProblem {
                            unit: unit.name.clone(),
                            step: si,
                            subject: subject.to_string(),
                            problem,
                        })
                    };
                    let outcome = match step {
                        Step::ReadFeed {
                            relationship,
                            page_size,
                        } => model.relationship(relationship).and_then(|r| {
                            let me = b.value("me._id")?;
                            feed::check_read(
                                db,
                                model,
                                layout,
                                r,
                                &me,
                                *page_size,
                                &Pool::of(returned, si, &keys),
                            )
                        }),
                        Step::PostFeed { relationship } if si + 1 == unit.steps.len() => {
                            model.relationship(relationship).and_then(|r| {
                                let Some(Bson::Document(item)) = b.value("item") else {
                                    return None;
                                };
                                let readers = feed_readers(model, b, r, cap);
                                feed::check_post(db, layout, r, &item, readers)
                            })
                        }
                        Step::FindByAttribute {
                            entity,
                            field,
                            key,
                            above,
                        } => {
                            let top: Vec<Document> = returned
                                .iter()
                                .filter(|(s, _)| *s == si)
                                .flat_map(|(_, d)| d.iter().cloned())
                                .collect();
                            let asked = attribute::Asked {
                                entity,
                                field,
                                key: key.as_deref(),
                                above: *above,
                            };
                            attribute::check(db, model, layout, &asked, &top)
                        }
                        Step::Insert { entity } if si + 1 == unit.steps.len() => {
                            inserted(db, before, layout, entity)
                        }
                        _ => None,
                    };
                    match outcome {
                        Some(Outcome::Checked(p)) => {
                            checked += 1;
                            if let Some(p) = p {
                                problem(p);
                            }
                        }
                        Some(Outcome::Unchecked(why)) => {
                            unchecked.push(format!("{}: {why}", unit.name));
                        }
                        None => {}
                    }
                    match step {
                        Step::Read {
                            entity, children, ..
                        } => {
                            let Some(pid) = b.value(&format!("{entity}._id")) else {
                                continue;
                            };
                            let pool = Pool::of(returned, si, &keys);
                            for c in children {
                                let Some(r) = model.relationship(&c.relationship) else {
                                    continue;
                                };
                                let Some(all) = children_of(db, model, layout, r, &pid, Some(c))
                                else {
                                    unchecked.push(format!(
                                        "{}: the children of {} are not decoded under its strategy",
                                        unit.name, r.name
                                    ));
                                    continue;
                                };
                                checked += 1;
                                if let Some(p) = missing_child(model, r, c, all, &pool) {
                                    problem(p);
                                }
                            }
                        }
                        Step::List {
                            entity,
                            by,
                            sort,
                            limit,
                            fields,
                            page,
                            paging,
                        } => {
                            let Some(coll) = layout.collection_of(entity) else {
                                continue;
                            };
                            let docs = documents(db, &coll.name);
                            let Some(rows) =
                                run::list_rows(model, b, entity, by.as_deref(), sort, &docs)
                            else {
                                continue;
                            };
                            let key =
                                |d: &Document| d.get(&sort.field).cloned().unwrap_or(Bson::Null);
                            let order = |x: &Bson, y: &Bson| {
                                let o = compare(x, y);
                                if sort.order < 0 {
                                    o.reverse()
                                } else {
                                    o
                                }
                            };
                            let limit = usize::try_from(*limit).unwrap_or(usize::MAX);
                            let start = match paging {
                                _ if *page <= 1 => 0,
                                crate::model::Paging::Skip => usize::try_from(
                                    page.saturating_sub(1).saturating_mul(limit as u64),
                                )
                                .unwrap_or(usize::MAX),
                                crate::model::Paging::Range => {
                                    let Some(last) = b.value(&format!("last.{}", sort.field))
                                    else {
                                        unchecked.push(format!(
                                            "{}: the sample holds one page of {entity} at most",
                                            unit.name
                                        ));
                                        continue;
                                    };
                                    rows.iter()
                                        .take_while(|d| order(&key(d), &last).is_le())
                                        .count()
                                }
                            };
                            checked += 1;
                            let mut asked_fields = fields.clone();
                            if asked_fields.is_empty() {
                                asked_fields.push("_id".to_string());
                                if let Some(e) = model.entity(entity) {
                                    asked_fields.extend(e.fields.iter().map(|(n, _)| n.clone()));
                                }
                            }
                            let pool = Pool::of(returned, si, &keys);
                            if let Some(p) =
                                missing_in_window(&rows, start, limit, &key, &pool, &asked_fields)
                            {
                                problem(format!("{entity}: {p}"));
                            }
                        }
                        Step::FindParents { relationship, by } => {
                            let Some(r) = model.relationship(relationship) else {
                                continue;
                            };
                            let Some(value) = b.value(&format!("{}.{by}", r.child)) else {
                                continue;
                            };
                            let why = match layout.strategy(&r.name) {
                                // The plan reads the children's side, the decoding the
                                // parents'; the sample generates the two independently.
                                Some(Strategy::TwoWay) if r.many_to_many => Some(
                                    "the two sides of its many-to-many two-way references are generated independently",
                                ),
                                _ => None,
                            };
                            if let Some(why) = why {
                                unchecked.push(format!("{}: {}: {why}", unit.name, r.name));
                                continue;
                            }
                            let Some(expected) = parents_with(db, model, layout, r, by, &value)
                            else {
                                unchecked.push(format!(
                                    "{}: the parents of {} are not decoded under its strategy",
                                    unit.name, r.name
                                ));
                                continue;
                            };
                            checked += 1;
                            let mut wanted = vec!["_id".to_string()];
                            if let Some(e) = model.entity(&r.parent) {
                                wanted.extend(e.fields.iter().map(|(n, _)| n.clone()));
                            }
                            let pool = Pool::of(returned, si, &keys);
                            let missing =
                                expected.iter().filter(|p| !pool.holds(p, &wanted)).count();
                            if missing > 0 {
                                problem(format!(
                                    "{}: {missing} of the {} {} with a child of that {by} are not among what the plan returns",
                                    r.name,
                                    expected.len(),
                                    r.parent
                                ));
                            }
                        }
                        Step::Update {
                            entity,
                            field,
                            also,
                            copies,
                            increment: false,
                        } => {
                            let Some(id) = b.value(&format!("{entity}._id")) else {
                                // An element without an `_id` is found by its old value.
                                let changes: Vec<(String, Change)> = std::iter::once(field)
                                    .chain(also)
                                    .filter_map(|f| {
                                        Some((
                                            f.clone(),
                                            Change::Set(b.value(&format!("new.{f}"))?),
                                        ))
                                    })
                                    .collect();
                                if let Some(Bson::Document(whole)) = b.value(entity) {
                                    checked += 1;
                                    if !element_updated(db, layout, &whole, &changes) {
                                        problem(format!(
                                            "no {entity} element holds the new value (found by its old value)"
                                        ));
                                    }
                                }
                                continue;
                            };
                            for f in std::iter::once(field).chain(also) {
                                let Some(new) = b.value(&format!("new.{f}")) else {
                                    continue;
                                };
                                let held = values_of(db, model, layout, entity, &id, f);
                                if held.is_empty() {
                                    unchecked.push(format!(
                                        "{}: {entity}.{f}: no document holds the {entity} by its _id",
                                        unit.name
                                    ));
                                    continue;
                                }
                                checked += 1;
                                let stale: Vec<&Held> =
                                    held.iter().filter(|h| h.value != new).collect();
                                if !held.iter().any(|h| h.value == new) {
                                    problem(format!(
                                        "the {entity}'s {f} is not the new value anywhere ({} places hold it)",
                                        held.len()
                                    ));
                                } else if *copies == crate::model::Copies::Live && !stale.is_empty()
                                {
                                    let places: Vec<&str> =
                                        stale.iter().map(|h| h.place.as_str()).collect();
                                    problem(format!(
                                        "{} of the {} live copies of {entity}.{f} keep the old value: {}",
                                        stale.len(),
                                        held.len(),
                                        places.join(", ")
                                    ));
                                }
                            }
                        }
                        Step::Update {
                            entity,
                            field,
                            also,
                            copies,
                            increment: true,
                        } => {
                            let Some(id) = b.value(&format!("{entity}._id")) else {
                                // An element without an `_id` is found by its old value.
                                let changes: Vec<(String, Change)> = std::iter::once(field)
                                    .chain(also)
                                    .map(|f| {
                                        let by = total(&crate::design::plan::increment_by(
                                            model, entity, f,
                                        ));
                                        (f.clone(), Change::Grow(by))
                                    })
                                    .collect();
                                if let Some(Bson::Document(whole)) = b.value(entity) {
                                    checked += 1;
                                    if !element_updated(db, layout, &whole, &changes) {
                                        problem(format!(
                                            "no {entity} element grew by its increment (found by its old value)"
                                        ));
                                    }
                                }
                                continue;
                            };
                            for f in std::iter::once(field).chain(also) {
                                let by =
                                    total(&crate::design::plan::increment_by(model, entity, f));
                                let now = values_of(db, model, layout, entity, &id, f);
                                if now.is_empty() {
                                    unchecked.push(format!(
                                        "{}: {entity}.{f}: no document holds the {entity} by its _id",
                                        unit.name
                                    ));
                                    continue;
                                }
                                checked += 1;
                                let was = values_of(before, model, layout, entity, &id, f);
                                let grown = grown_by(&was, &now);
                                let counted = grown.iter().filter(|(_, d)| *d == by).count();
                                if counted == 0 {
                                    problem(format!(
                                        "the {entity}'s {f} did not grow by {by} anywhere ({} places hold it)",
                                        now.len()
                                    ));
                                } else if *copies == crate::model::Copies::Live
                                    && counted < now.len()
                                {
                                    let places: Vec<&str> = grown
                                        .iter()
                                        .filter(|(_, d)| *d != by)
                                        .map(|(p, _)| p.as_str())
                                        .collect();
                                    problem(format!(
                                        "{} of the {} live copies of {entity}.{f} did not grow by {by}: {}",
                                        places.len(),
                                        now.len(),
                                        places.join(", ")
                                    ));
                                }
                            }
                        }
                        Step::Delete { entity } if si + 1 == unit.steps.len() => {
                            // Found by its `_id`, else (an element embedded or bucketed
                            // without one) as a whole.
                            let (id, mut left) =
                                match (b.value(&format!("{entity}._id")), b.value(entity)) {
                                    (Some(id), _) => {
                                        let left =
                                            stored_as(db, layout, &|d| d.get("_id") == Some(&id));
                                        (id, left)
                                    }
                                    (None, Some(Bson::Document(whole))) => {
                                        (Bson::Null, stored_as(db, layout, &|d| *d == whole))
                                    }
                                    _ => continue,
                                };
                            let mut decoded = true;
                            for r in model
                                .relationships
                                .iter()
                                .filter(|r| r.child == *entity && id != Bson::Null)
                            {
                                match listed_by(db, layout, r, &id) {
                                    Some(places) => left.extend(places),
                                    None => {
                                        decoded = false;
                                        unchecked.push(format!(
                                            "{}: the children of {} are not decoded under its strategy",
                                            unit.name, r.name
                                        ));
                                    }
                                }
                            }
                            if !decoded {
                                continue;
                            }
                            checked += 1;
                            if !left.is_empty() && complete {
                                left.dedup();
                                problem(format!(
                                    "the deleted {entity} is still stored or listed: {}",
                                    left.join(", ")
                                ));
                            }
                        }
                        Step::Reassign { relationship } if si + 1 == unit.steps.len() => {
                            let Some(r) = model.relationship(relationship) else {
                                continue;
                            };
                            let (Some(cid), Some(np)) = (
                                b.value(&format!("{}._id", r.child)),
                                b.value("new_parent._id"),
                            ) else {
                                continue;
                            };
                            let (Some(kids), Some(holders)) = (
                                children_of(db, model, layout, r, &np, None),
                                parents_holding(db, model, layout, r, &cid),
                            ) else {
                                unchecked.push(format!(
                                    "{}: the children of {} are not decoded under its strategy",
                                    unit.name, r.name
                                ));
                                continue;
                            };
                            // The sample's links, chains and references are drawn per
                            // strategy and may leave a child under no parent, or list it
                            // under two: a move is checked from one parent to one.
                            let held = parents_holding(before, model, layout, r, &cid);
                            // A chain's continuation documents are drawn apart from its
                            // parent, and may list a child the parent lists too: a move is
                            // checked where one document lists the child, as in real data.
                            let lists = listings(before, layout, r, &cid).map_or(0, |(_, n)| n);
                            if lists > 1 {
                                unchecked.push(format!(
                                    "{}: {}: the sample lists the moved {} in {lists} documents",
                                    unit.name, r.name, r.child
                                ));
                                continue;
                            }
                            if held != Some(1) {
                                unchecked.push(format!(
                                    "{}: {}: the sample holds the moved {} under {} parents",
                                    unit.name,
                                    r.name,
                                    r.child,
                                    held.unwrap_or(0)
                                ));
                                continue;
                            }
                            checked += 1;
                            if !kids.docs.iter().any(|d| d.get("_id") == Some(&cid)) {
                                problem(format!(
                                    "{}: the moved {} is not among its new {}'s children",
                                    r.name, r.child, r.parent
                                ));
                            } else if holders > 1 && complete {
                                problem(format!(
                                    "{}: the moved {} is still among the children of {} other {}",
                                    r.name,
                                    r.child,
                                    holders - 1,
                                    r.parent
                                ));
                            }
                        }
                        Step::InsertChild { relationship }
                            if !largest && si + 1 == unit.steps.len() =>
                        {
                            let Some(r) = model.relationship(relationship) else {
                                continue;
                            };
                            let (Some(Bson::Document(child)), Some(pid)) =
                                (b.value("child"), b.value(&format!("{}._id", r.parent)))
                            else {
                                continue;
                            };
                            let Some(all) = children_of(db, model, layout, r, &pid, None) else {
                                unchecked.push(format!(
                                    "{}: the children of {} are not decoded under its strategy",
                                    unit.name, r.name
                                ));
                                continue;
                            };
                            checked += 1;
                            let linked = all
                                .docs
                                .iter()
                                .any(|d| same_child(&child, d, r.many_to_many));
                            // Stored: in the child's own collection where it has one (a new
                            // child, or for a many-to-many the one that exists and is linked),
                            // else among the children of its parent (embedded, in a bucket).
                            let own = layout.collection_of(&r.child);
                            let stored = match (own, child.get("_id")) {
                                (Some(cc), Some(id)) => db
                                    .find(
                                        &cc.name,
                                        &FindCommand {
                                            filter: doc! { "_id": id.clone() },
                                            ..Default::default()
                                        },
                                    )
                                    .is_ok_and(|x| !x.documents.is_empty()),
                                _ => linked,
                            };
                            if !stored {
                                problem(format!("the new {} is never stored", r.child));
                            } else if !linked && complete {
                                // Linked where the sample holds every write of the run (a
                                // write to a document only the full scale has is arithmetic).
                                problem(format!(
                                    "the new {} is stored but not linked to its {} afterwards ({} children found)",
                                    r.child,
                                    r.parent,
                                    all.docs.len()
                                ));
                            }
                        }
                        step if step.op().is_tree() => {
                            let seen = tree::Seen {
                                db,
                                before,
                                model,
                                layout,
                                binder: b,
                                returned,
                                step: si,
                                steps: &unit.steps,
                                complete,
                            };
                            match tree::check(&seen, step) {
                                Ok(p) => {
                                    checked += 1;
                                    p.into_iter().for_each(&mut problem);
                                }
                                Err(why) => unchecked.push(format!("{}: {why}", unit.name)),
                            }
                        }
                        _ => {}
                    }
                }
            };
            run::run_unit_observed(&ctx, &mut db, ui, largest, Some(&mut observe))?;
            report.problems.extend(found);
            report.checked += checked;
            for u in unchecked {
                if !report.unchecked.contains(&u) {
                    report.unchecked.push(u);
                }
            }
        }
    }
    Ok(report)
}

/// Returns how many distinct readers a `post_feed` under `r` reaches in the sample: the
/// author's followers at the author's quantile, capped at `cap` written, among the sample's
/// users (the run writes to follower `i` modulo their number).
fn feed_readers(model: &Model, b: &super::bind::Binder, r: &Relationship, cap: u64) -> usize {
    let q = b.subject(&r.parent).map_or(0.5, |f| f.2);
    let written = r.cardinality.count_at(q).min(cap);
    let users = model
        .entity(&r.child)
        .map_or(1, |e| model.sample.sample_count(e.count).max(1));
    usize::try_from(written.min(users)).unwrap_or(usize::MAX)
}

/// Checks an `insert` step of `entity`: its collection holds a document it did not hold
/// before the run.
fn inserted(db: &Database, before: &Database, layout: &Layout, entity: &str) -> Option<Outcome> {
    let Some(coll) = layout.collection_of(entity) else {
        return Some(Outcome::Unchecked(format!(
            "{entity} has no collection of its own under this design"
        )));
    };
    let ids = |db: &Database| -> Vec<Bson> {
        documents(db, &coll.name)
            .into_iter()
            .filter_map(|d| d.get("_id").cloned())
            .collect()
    };
    let was = ids(before);
    let new = ids(db).into_iter().filter(|id| !was.contains(id)).count();
    Some(Outcome::Checked((new == 0).then(|| {
        format!("no new {entity} is stored in {}", coll.name)
    })))
}

/// Returns every document of collection `coll` in the sample (none where it has none).
fn documents(db: &Database, coll: &str) -> Vec<Document> {
    db.find(coll, &FindCommand::default())
        .map(|x| x.documents.into_iter().map(|d| d.into_document()).collect())
        .unwrap_or_default()
}

/// Returns the key field of the children that relationship `r` keeps as a map in `layout`
/// (the `map` pattern): the child's field the map's values lack, which names the entries.
fn map_key(model: &Model, layout: &Layout, r: &Relationship) -> Option<String> {
    if !crate::design::shape::holds_map(&layout.collections, r) {
        return None;
    }
    let value = layout
        .collections
        .iter()
        .flat_map(|c| &c.shapes)
        .filter(|s| s.entity.as_deref() == Some(r.parent.as_str()))
        .find_map(|s| s.fields.get(r.array_field()))?;
    model
        .entity(&r.child)?
        .fields
        .iter()
        .map(|(n, _)| n)
        .find(|n| value.fields.get(n.as_str()).is_none())
        .cloned()
}

/// Returns the key fields of every map of `layout` ([`map_key`]).
fn map_keys(model: &Model, layout: &Layout) -> Vec<String> {
    model
        .relationships
        .iter()
        .filter_map(|r| map_key(model, layout, r))
        .collect()
}

/// Returns the entries of map `field` of `d` as the children they stand for: each value with
/// its key in the field `key`, first.
fn map_entries(d: &Document, field: &str, key: &str) -> Vec<Bson> {
    match d.get(field) {
        Some(Bson::Document(m)) => m
            .iter()
            .filter_map(|(k, v)| match v {
                Bson::Document(v) => {
                    let mut e = doc! { key: k.clone() };
                    e.extend(v.clone());
                    Some(Bson::Document(e))
                }
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Returns what is wrong when the logical answer of child read `c` (the children of one
/// parent, `all`) is not among what the plan returned (`pool`), or `None` when it is.
fn missing_child(
    model: &Model,
    r: &Relationship,
    c: &ChildRead,
    children: Children,
    pool: &Pool,
) -> Option<String> {
    let mut all = children.docs;
    if children.insertion_ordered {
        // The newest last: a read of the newest takes them from the end.
        if c.sort.as_ref().is_some_and(|s| s.order < 0) {
            all.reverse();
        }
        let n = c.limit.map_or(all.len(), |l| (l as usize).min(all.len()));
        let wanted = wanted_fields(model, r, c);
        return all
            .get(..n)
            .unwrap_or_default()
            .iter()
            .position(|e| !pool.holds(e, &wanted))
            .map(|i| {
                format!(
                    "{}: child #{} of the {n} asked for (in insertion order) is not among what the plan returns",
                    r.name,
                    i + 1
                )
            });
    }
    let key = |d: &Document| {
        c.sort.as_ref().map_or(Bson::Null, |s| {
            d.get(&s.field).cloned().unwrap_or(Bson::Null)
        })
    };
    if let Some(s) = &c.sort {
        all.sort_by(|a, b| {
            let o = compare(&key(a), &key(b));
            if s.order < 0 {
                o.reverse()
            } else {
                o
            }
        });
    }
    let wanted = wanted_fields(model, r, c);
    let n = c.limit.map_or(all.len(), |l| (l as usize).min(all.len()));
    if c.sort.is_none() {
        // Any N children answer an unsorted read: enough distinct children must be there.
        let found = all.iter().filter(|e| pool.holds(e, &wanted)).count();
        return (found < n).then(|| {
            format!(
                "{} asks for {n} of the {} {} children; {found} of them are among what the plan returns",
                r.name,
                all.len(),
                r.child
            )
        });
    }
    let asked = all.get(..n).unwrap_or_default();
    let edge = asked.last().map(key)?;
    // Ties at the cut: any of the children sharing the last key will do.
    for (i, e) in asked.iter().enumerate() {
        if compare(&key(e), &edge).is_eq() {
            let needed = asked
                .iter()
                .filter(|x| compare(&key(x), &edge).is_eq())
                .count();
            let present = all
                .iter()
                .filter(|x| compare(&key(x), &edge).is_eq() && pool.holds(x, &wanted))
                .count();
            if present < needed {
                return Some(format!(
                    "{}: {needed} children at the cut ({} {edge}) are asked for, {present} returned",
                    r.name,
                    c.sort.as_ref().map_or("", |s| s.field.as_str())
                ));
            }
            break;
        }
        if !pool.holds(e, &wanted) {
            return Some(format!(
                "{}: child #{} of the {n} asked for (by {} {}) is not among what the plan returns, with its fields {}",
                r.name,
                i + 1,
                c.sort.as_ref().map_or("", |s| s.field.as_str()),
                key(e),
                wanted.join(", ")
            ));
        }
    }
    None
}

/// Returns what is wrong when the documents `rows[start..start + n]` (sorted by `key`) are
/// not all among what the plan returned (`pool`, with the `wanted` fields), or `None` when
/// they are. At either edge of the window, documents sharing the edge's key are
/// interchangeable: any of them will do, as many as the window holds.
fn missing_in_window(
    rows: &[&Document],
    start: usize,
    n: usize,
    key: &dyn Fn(&Document) -> Bson,
    pool: &Pool,
    wanted: &[String],
) -> Option<String> {
    let end = start.saturating_add(n).min(rows.len());
    let window = rows.get(start.min(end)..end).unwrap_or_default();
    let (Some(first), Some(last)) = (
        window.first().map(|d| key(d)),
        window.last().map(|d| key(d)),
    ) else {
        return None;
    };
    for edge in [&first, &last] {
        let needed = window.iter().filter(|d| key(d) == *edge).count();
        let present = rows
            .iter()
            .filter(|d| key(d) == *edge && pool.holds(d, wanted))
            .count();
        if present < needed {
            return Some(format!(
                "{needed} documents with the key {edge} at the page's edge are asked for, {present} returned"
            ));
        }
    }
    window
        .iter()
        .enumerate()
        .find(|(_, d)| key(d) != first && key(d) != last && !pool.holds(d, wanted))
        .map(|(i, d)| {
            format!(
                "document #{} of the page (key {}) is not among what the plan returns, with its fields {}",
                start + i + 1,
                key(d),
                wanted.join(", ")
            )
        })
}

/// Returns the fields of the children a read asks for: those it lists, else all of the
/// child's.
fn wanted_fields(model: &Model, r: &Relationship, c: &ChildRead) -> Vec<String> {
    if c.fields.is_empty() {
        model
            .entity(&r.child)
            .map(|e| e.fields.iter().map(|(n, _)| n.clone()).collect())
            .unwrap_or_default()
    } else {
        c.fields.clone()
    }
}

/// Returns whether `stored` is the new child `child`: the same `_id` (a link to a child that
/// exists, `link_only`, must carry it), else, for a copy kept without its `_id` (a
/// many-to-many child embedded in each of its parents), the same values in every field both
/// hold.
fn same_child(child: &Document, stored: &Document, link_only: bool) -> bool {
    if let (Some(a), Some(b)) = (child.get("_id"), stored.get("_id")) {
        return a == b;
    }
    if link_only && stored.contains_key("_id") {
        return false;
    }
    let shared: Vec<&String> = child
        .keys()
        .filter(|k| stored.contains_key(k.as_str()))
        .collect();
    !shared.is_empty()
        && shared
            .iter()
            .all(|k| child.get(k.as_str()) == stored.get(k.as_str()))
}

/// One place that holds a field of one entity: its own document, an embedded copy of it
/// (any sub-document with its `_id`), or a field a child copies from it.
struct Held {
    /// Where: `collection:path`.
    place: String,
    /// The value held there.
    value: Bson,
}

/// Returns every place in the sample that holds `field` of the `entity` whose `_id` is
/// `id`: its own document, every sub-document with that `_id` in any collection (embedded,
/// subset and extended-reference copies; ids are drawn per entity, so an `_id` names one
/// entity), and the copies the layout keeps in its children (`authorName` beside `authorId`).
fn values_of(
    db: &Database,
    model: &Model,
    layout: &Layout,
    entity: &str,
    id: &Bson,
    field: &str,
) -> Vec<Held> {
    fn walk(v: &Bson, path: &str, id: &Bson, field: &str, coll: &str, out: &mut Vec<Held>) {
        match v {
            Bson::Document(d) => {
                if d.get("_id") == Some(id) {
                    if let Some(x) = d.get(field) {
                        out.push(Held {
                            place: format!(
                                "{coll}:{}",
                                if path.is_empty() {
                                    field.to_string()
                                } else {
                                    format!("{path}.{field}")
                                }
                            ),
                            value: x.clone(),
                        });
                    }
                }
                for (k, x) in d {
                    let p = if path.is_empty() {
                        k.clone()
                    } else {
                        format!("{path}.{k}")
                    };
                    walk(x, &p, id, field, coll, out);
                }
            }
            Bson::Array(a) => a.iter().for_each(|x| walk(x, path, id, field, coll, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for c in &layout.collections {
        let Ok(all) = db.find(&c.name, &FindCommand::default()) else {
            continue;
        };
        let docs: Vec<Document> = all
            .documents
            .into_iter()
            .map(|d| d.into_document())
            .collect();
        for d in &docs {
            walk(&Bson::Document(d.clone()), "", id, field, &c.name, &mut out);
        }
        // Copies of a parent's field kept in its children: beside the parent reference.
        for cf in c
            .shapes
            .iter()
            .flat_map(|s| s.copied.iter())
            .filter(|cf| cf.entity == entity && cf.source == field)
        {
            let Some(r) = model.relationship(&cf.relationship) else {
                continue;
            };
            if r.parent != entity {
                continue;
            }
            let parent_ref = r.parent_ref();
            for d in docs.iter().filter(|d| d.get(&parent_ref) == Some(id)) {
                if let Some(x) = super::bind::get_path(d, &cf.path) {
                    out.push(Held {
                        place: format!("{}:{}", c.name, cf.path),
                        value: x,
                    });
                }
            }
        }
    }
    out
}

/// Returns the sum of the numbers `v` holds (itself, or every number in a slotted counter
/// object), as a double: what an increment changes.
fn total(v: &Bson) -> f64 {
    match v {
        Bson::Int32(n) => f64::from(*n),
        Bson::Int64(n) => *n as f64,
        Bson::Double(n) => *n,
        Bson::Decimal128(d) => d.to_string().parse().unwrap_or(0.0),
        Bson::Document(d) => d.values().map(total).sum(),
        _ => 0.0,
    }
}

/// Pairs the places that hold a field after a step (`now`) with the same places before it
/// (`was`) and returns, per place, how much its value grew. The places are listed in the
/// order the documents are walked, which an increment does not change; a place the field
/// was missing from grew from 0 (`$inc` creates it).
fn grown_by(was: &[Held], now: &[Held]) -> Vec<(String, f64)> {
    let mut used = vec![false; was.len()];
    now.iter()
        .map(|h| {
            let before = was
                .iter()
                .enumerate()
                .find(|(i, w)| w.place == h.place && !used.get(*i).copied().unwrap_or(true))
                .map(|(i, w)| {
                    if let Some(u) = used.get_mut(i) {
                        *u = true;
                    }
                    total(&w.value)
                })
                .unwrap_or(0.0);
            (h.place.clone(), total(&h.value) - before)
        })
        .collect()
}

/// How an update changes one field of an element.
enum Change {
    /// `$set` to this value.
    Set(Bson),
    /// `$inc` by this much (the sum of a slotted counter's slots).
    Grow(f64),
}

/// Returns whether the sample stores element `was` (an embedded or bucketed element without
/// an `_id`, found by its old value) as `changes` leave it: every other field as it was, each
/// changed field set to its new value or grown by its increment.
fn element_updated(
    db: &Database,
    layout: &Layout,
    was: &Document,
    changes: &[(String, Change)],
) -> bool {
    let is_it = |d: &Document| {
        let same_rest = was
            .iter()
            .filter(|(k, _)| !changes.iter().any(|(f, _)| f == *k))
            .all(|(k, v)| d.get(k) == Some(v));
        same_rest
            && changes.iter().all(|(f, c)| match c {
                Change::Set(v) => d.get(f) == Some(v),
                Change::Grow(by) => {
                    let old = was.get(f).map_or(0.0, total);
                    d.get(f).is_some_and(|now| total(now) - old == *by)
                }
            })
    };
    !stored_as(db, layout, &is_it).is_empty()
}

/// Returns where the sample still stores a document or sub-document that `is_it`: the
/// entity's own document, an embedded or bucketed element, a subset's or an extended
/// reference's copy.
fn stored_as(db: &Database, layout: &Layout, is_it: &dyn Fn(&Document) -> bool) -> Vec<String> {
    fn walk(
        v: &Bson,
        path: &str,
        is_it: &dyn Fn(&Document) -> bool,
        coll: &str,
        out: &mut Vec<String>,
    ) {
        match v {
            Bson::Document(d) => {
                if is_it(d) {
                    out.push(if path.is_empty() {
                        format!("{coll}: its document")
                    } else {
                        format!("{coll}:{path}")
                    });
                }
                for (k, x) in d {
                    let p = if path.is_empty() {
                        k.clone()
                    } else {
                        format!("{path}.{k}")
                    };
                    walk(x, &p, is_it, coll, out);
                }
            }
            Bson::Array(a) => a.iter().for_each(|x| walk(x, path, is_it, coll, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for c in &layout.collections {
        let Ok(all) = db.find(&c.name, &FindCommand::default()) else {
            continue;
        };
        for d in all.documents {
            walk(
                &Bson::Document(d.into_document()),
                "",
                is_it,
                &c.name,
                &mut out,
            );
        }
    }
    out
}

/// Returns how many of the documents that list the children of `r` (the parents' arrays, their
/// continuation documents, buckets, links) list `id`, with their collection: `Some(("", 0))`
/// where the child alone knows its parent, `None` where the strategy's documents are not
/// decoded.
fn listings(
    db: &Database,
    layout: &Layout,
    r: &Relationship,
    id: &Bson,
) -> Option<(String, usize)> {
    let s = layout.strategy(&r.name)?;
    let arr = r.array_field();
    let lists = |d: &Document| match d.get(arr) {
        Some(Bson::Array(a)) => a.iter().any(|e| match e {
            Bson::Document(x) => x.get("_id") == Some(id),
            e => e == id,
        }),
        _ => false,
    };
    // The collection listing the children, and for links the field naming the child.
    let (coll, link) = match s {
        Strategy::Embed
        | Strategy::EmbedSubset { .. }
        | Strategy::ExtendedReference { .. }
        | Strategy::ReferenceInParent
        | Strategy::TwoWay
        | Strategy::Continuation { .. } => (layout.collection_name(&r.parent), None),
        Strategy::Bucket { .. } => (relationship_collection_name(r, s), None),
        Strategy::LinkCollection => (r.name.clone(), Some(child_ref(r))),
        Strategy::ReferenceInChild { .. } | Strategy::SingleCollection => {
            return Some((String::new(), 0))
        }
        _ => return None,
    };
    let n = db
        .find(&coll, &FindCommand::default())
        .map(|x| {
            x.documents
                .into_iter()
                .map(|d| d.into_document())
                .filter(|d| match &link {
                    Some(key) => d.get(key) == Some(id),
                    None => lists(d),
                })
                .count()
        })
        .unwrap_or(0);
    Some((coll, n))
}

/// Returns where the documents that list the children of `r` still list `id` (see
/// [`listings`]), or `None` where the strategy's documents are not decoded.
fn listed_by(db: &Database, layout: &Layout, r: &Relationship, id: &Bson) -> Option<Vec<String>> {
    let (coll, n) = listings(db, layout, r, id)?;
    Some(if n == 0 {
        Vec::new()
    } else {
        vec![format!("{coll}: listed by {n} documents ({})", r.name)]
    })
}

/// Returns the parents in the sample that have a child of `r` whose `by` is `value`: the
/// logical answer of a `find_parents` step, decoded parent by parent ([`children_of`]; the
/// copies of `by` where the design keeps them).
/// `None` when the parent has no collection of its own.
fn parents_with(
    db: &Database,
    model: &Model,
    layout: &Layout,
    r: &Relationship,
    by: &str,
    value: &Bson,
) -> Option<Vec<Document>> {
    // A question of the `by` field alone: where the design keeps copies of it for this
    // (extended references copying it), the copies answer, as the plan reads them.
    let asked = ChildRead {
        relationship: r.name.clone(),
        limit: None,
        sort: None,
        fields: vec![by.to_string()],
    };
    let mut out = Vec::new();
    for p in sample_parents(db, layout, r)? {
        let Some(id) = p.get("_id") else {
            continue;
        };
        let kids = children_with_fields(db, model, layout, r, id, Some(&asked), Some(&[by]))?;
        if kids.docs.iter().any(|c| c.get(by) == Some(value)) {
            out.push(p);
        }
    }
    Some(out)
}

/// Returns the parents of `r` in the sample: the documents of the parent's collection that
/// are parents (not continuation documents, which share it and are each listed in a parent's
/// `tbc`; not documents of another type in a single collection). `None` when the parent has no
/// collection of its own.
fn sample_parents(db: &Database, layout: &Layout, r: &Relationship) -> Option<Vec<Document>> {
    let coll = layout.collection_of(&r.parent)?;
    let docs: Vec<Document> = db
        .find(&coll.name, &FindCommand::default())
        .ok()?
        .documents
        .into_iter()
        .map(|d| d.into_document())
        .collect();
    let continuations: Vec<Bson> = docs
        .iter()
        .filter_map(|d| match d.get(CONTINUATION_FIELD) {
            Some(Bson::Array(a)) => Some(a.clone()),
            _ => None,
        })
        .flatten()
        .collect();
    Some(
        docs.into_iter()
            .filter(|p| {
                let other_type = matches!(
                    p.get(crate::design::names::TYPE_FIELD),
                    Some(Bson::String(t)) if *t != r.parent
                );
                !other_type && p.get("_id").is_some_and(|id| !continuations.contains(id))
            })
            .collect(),
    )
}

/// Returns how many parents in the sample list the child `cid` among their children under
/// `r` (decoded as [`children_of`] decodes them), or `None` where they are not decoded.
fn parents_holding(
    db: &Database,
    model: &Model,
    layout: &Layout,
    r: &Relationship,
    cid: &Bson,
) -> Option<usize> {
    let mut n = 0;
    for p in sample_parents(db, layout, r)? {
        let Some(id) = p.get("_id") else {
            continue;
        };
        let kids = children_with_fields(db, model, layout, r, id, None, Some(&["_id"]))?;
        if kids.docs.iter().any(|c| c.get("_id") == Some(cid)) {
            n += 1;
        }
    }
    Some(n)
}

/// The children of one parent as a design keeps them.
struct Children {
    /// The children (or the copies a read of them may rely on), in storage order.
    docs: Vec<Document>,
    /// True when storage order is insertion order and a sorted read relies on it (a bucket's
    /// children: the bucket pattern's premise is that children arrive in the order they are
    /// read in, the newest last).
    insertion_ordered: bool,
}

/// Returns the children of parent `pid` under `r`, decoded from the design's documents, or
/// `None` when the strategy's documents are not decoded (a time series).
///
/// With `read`, the children that read may rely on where the design keeps copies for it: an
/// embedded subset holds its first `k` in the kept order (a read of at most `k` reads them),
/// extended references hold the copied fields (a read of only those, in an order the copies
/// keep, reads them). Elsewhere the children themselves.
fn children_of(
    db: &Database,
    model: &Model,
    layout: &Layout,
    r: &Relationship,
    pid: &Bson,
    read: Option<&ChildRead>,
) -> Option<Children> {
    children_with_fields(db, model, layout, r, pid, read, None)
}

/// Returns the children of parent `pid` under `r` as [`children_of`] does, those read from
/// the child's collection holding only the top-level fields `keep` (all of them with `None`).
/// A caller that compares one field of every parent's children (who holds a child, who has
/// a child with a value) reads that field from the stored bytes instead of decoding every
/// child whole, once per parent: a child that is a parent itself (a user following users)
/// may hold thousands of ids.
fn children_with_fields(
    db: &Database,
    model: &Model,
    layout: &Layout,
    r: &Relationship,
    pid: &Bson,
    read: Option<&ChildRead>,
    keep: Option<&[&str]>,
) -> Option<Children> {
    // The documents of `coll` that `filter` matches: whole, or holding only the top-level
    // fields `keep`, read from the stored bytes.
    let find_keeping = |coll: &str, filter: Document, keep: Option<&[&str]>| -> Vec<Document> {
        let Ok(found) = db.find(
            coll,
            &FindCommand {
                filter,
                ..Default::default()
            },
        ) else {
            return Vec::new();
        };
        match keep {
            None => found
                .documents
                .into_iter()
                .map(|d| d.into_document())
                .collect(),
            Some(keep) => found
                .documents
                .iter()
                .map(|d| {
                    keep.iter()
                        .filter_map(|k| d.field(k).map(|v| ((*k).to_string(), v)))
                        .collect()
                })
                .collect(),
        }
    };
    let find = |coll: &str, filter: Document| find_keeping(coll, filter, None);
    let pcoll = layout.collection_name(&r.parent);
    let ccoll = layout.collection_name(&r.child);
    let arr = r.array_field();
    let s = layout.strategy(&r.name)?;
    // The children's field a parent's array of references holds (`_id` or `child_key`).
    let ckey = crate::design::names::child_key(r, s);
    // The parent's value its children's references hold: its `_id`, or its `parent_key`.
    let pkey = crate::design::names::parent_key(r, s);
    // The parent, holding only the fields read of it here (its children's array, the key
    // its children reference, its continuation documents' ids).
    let parent = || -> Option<Document> {
        let read = [arr, pkey, CONTINUATION_FIELD];
        find_keeping(&pcoll, doc! { "_id": pid.clone() }, Some(&read))
            .into_iter()
            .next()
    };
    // The documents of the child's collection `filter` matches, with the fields `keep`.
    let find_children = |filter: Document| find_keeping(&ccoll, filter, keep);
    let elements = |d: &Document, field: &str| -> Vec<Bson> {
        match d.get(field) {
            Some(Bson::Array(a)) => a.clone(),
            _ => Vec::new(),
        }
    };
    // The parent's array `field` itself, the parent being read for it alone (no copy of an
    // array of thousands of embedded children).
    let taken = |mut d: Document, field: &str| -> Vec<Bson> {
        match d.remove(field) {
            Some(Bson::Array(a)) => a,
            _ => Vec::new(),
        }
    };
    let by_ids = |ids: Vec<Bson>| -> Vec<Document> {
        let ids: Vec<Bson> = ids
            .into_iter()
            .map(|v| match v {
                Bson::Document(d) => d.get("_id").cloned().unwrap_or(Bson::Null),
                v => v,
            })
            .collect();
        find_children(doc! { ckey: { "$in": ids } })
    };
    let pref_value = || -> Bson {
        if pkey == "_id" {
            pid.clone()
        } else {
            parent()
                .and_then(|p| p.get(pkey).cloned())
                .unwrap_or(Bson::Null)
        }
    };
    let docs = |v: Vec<Bson>| -> Vec<Document> {
        v.into_iter()
            .filter_map(|x| match x {
                Bson::Document(d) => Some(d),
                _ => None,
            })
            .collect()
    };
    let plain = |docs| Children {
        docs,
        insertion_ordered: false,
    };
    // The copies a read relies on, when the design keeps them for it.
    if let Some(c) = read {
        let order = crate::design::plan::array_order(model, &r.name, s);
        let in_order = c.sort.is_none()
            || c.sort
                .as_ref()
                .is_some_and(|w| order.as_ref().is_some_and(|k| k.field == w.field));
        match s {
            Strategy::EmbedSubset { k } if in_order && c.limit.is_some_and(|l| l <= *k) => {
                return Some(plain(
                    parent().map(|p| docs(taken(p, arr))).unwrap_or_default(),
                ));
            }
            Strategy::ExtendedReference { copy }
                if !c.fields.is_empty()
                    && c.fields.iter().all(|f| f == "_id" || copy.contains(f))
                    && c.sort
                        .as_ref()
                        .is_none_or(|w| w.field == "_id" || copy.contains(&w.field)) =>
            {
                return Some(plain(
                    parent().map(|p| docs(taken(p, arr))).unwrap_or_default(),
                ));
            }
            _ => {}
        }
    }
    Some(plain(match s {
        Strategy::Bucket { .. } => {
            let mut buckets = find(
                &relationship_collection_name(r, s),
                doc! { r.parent_ref(): pid.clone() },
            );
            buckets.sort_by(|a, b| {
                compare(
                    a.get("sequence").unwrap_or(&Bson::Null),
                    b.get("sequence").unwrap_or(&Bson::Null),
                )
            });
            let held: Vec<Bson> = buckets.iter().flat_map(|b| elements(b, arr)).collect();
            return Some(Children {
                docs: if r.many_to_many {
                    by_ids(held)
                } else {
                    docs(held)
                },
                insertion_ordered: crate::design::plan::bucket_order_serves(
                    model,
                    r,
                    read.and_then(|c| c.sort.as_ref()),
                ),
            });
        }
        Strategy::Embed => parent()
            .map(|p| match map_key(model, layout, r) {
                Some(k) => docs(map_entries(&p, arr, &k)),
                None => docs(taken(p, arr)),
            })
            .unwrap_or_default(),
        Strategy::ExtendedReference { .. } | Strategy::ReferenceInParent | Strategy::TwoWay => {
            parent().map(|p| by_ids(taken(p, arr))).unwrap_or_default()
        }
        Strategy::Continuation { .. } => {
            let Some(p) = parent() else {
                return Some(plain(Vec::new()));
            };
            let mut ids = elements(&p, arr);
            for more in find(
                &pcoll,
                doc! { "_id": { "$in": elements(&p, CONTINUATION_FIELD) } },
            ) {
                ids.extend(elements(&more, arr));
            }
            by_ids(ids)
        }
        Strategy::EmbedSubset { .. } | Strategy::ReferenceInChild { .. } => {
            find_children(doc! { r.parent_ref(): pref_value() })
        }
        Strategy::SingleCollection => find_children(doc! {
            r.parent_ref(): pid.clone(),
            crate::design::names::TYPE_FIELD: r.child.clone(),
        }),
        Strategy::TimeSeries { .. } => {
            // The measurements of the parent's buckets, as the time-series view unpacks them.
            let buckets = find(
                &crate::design::names::buckets_collection_name(r),
                doc! { crate::design::names::META: pid.clone() },
            );
            buckets
                .iter()
                .filter_map(|b| crate::design::place::unpack_bucket(b, Some(&r.parent_ref())))
                .flatten()
                .collect()
        }
        Strategy::LinkCollection => {
            let links = find(&r.name, doc! { r.parent_ref(): pid.clone() });
            by_ids(
                links
                    .iter()
                    .filter_map(|l| l.get(child_ref(r)).cloned())
                    .collect(),
            )
        }
        _ => return None,
    }))
}

/// Checks design `id` of the designs `model` offers (a named design, `custom`), laid out
/// as the evaluation lays it out.
pub fn check_offered(
    model: &Model,
    id: &str,
    opts: &EvalOptions,
) -> Result<AnswerReport, EvalError> {
    let o = super::offered_layout(model, id)?;
    check(&o.model, &o.layout, opts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{fitted_sample, materialize};
    use crate::generate::generate;

    /// The children read with only some fields kept are the children [`children_of`]
    /// decodes whole, in the same order: for every parent of every relationship of every
    /// design compared (a parent with no children among them), and for a parent the sample
    /// lacks; a field no child holds is left out, not made up.
    #[test]
    fn children_with_fields_are_the_children_of_a_parent_with_the_kept_fields() {
        for preset in ["social-graph", "blog"] {
            let m = crate::presets::find(preset).unwrap().model().unwrap();
            for o in crate::eval::offer::compared(&m) {
                let offered = crate::eval::offered_layout(&m, &o.id).unwrap();
                let opts = EvalOptions {
                    max_documents: Some(30),
                    ..EvalOptions::default()
                };
                let model = fitted_sample(&offered.model, &offered.layout, &opts).unwrap();
                let data = generate(&model, &offered.layout);
                let db = materialize(&offered.layout, &data).unwrap();
                let layout = &offered.layout;
                for r in &model.relationships {
                    let Some(parents) = sample_parents(&db, layout, r) else {
                        continue;
                    };
                    let mut pids: Vec<Bson> = parents
                        .iter()
                        .filter_map(|p| p.get("_id").cloned())
                        .collect();
                    pids.push(Bson::String("no such parent".to_string()));
                    for pid in &pids {
                        let all = children_of(&db, &model, layout, r, pid, None);
                        let kept = children_with_fields(
                            &db,
                            &model,
                            layout,
                            r,
                            pid,
                            None,
                            Some(&["_id", "no such field"]),
                        );
                        let (all, kept) = match (all, kept) {
                            (Some(all), Some(kept)) => (all, kept),
                            (None, None) => continue,
                            _ => panic!("{preset} {}: {}: decoded one way only", o.id, r.name),
                        };
                        let ids = |c: &Children| -> Vec<Option<Bson>> {
                            c.docs.iter().map(|d| d.get("_id").cloned()).collect()
                        };
                        assert_eq!(ids(&kept), ids(&all), "{preset} {}: {}", o.id, r.name);
                        assert_eq!(kept.insertion_ordered, all.insertion_ordered);
                        assert!(kept.docs.iter().all(|d| !d.contains_key("no such field")));
                    }
                }
            }
        }
    }
}
