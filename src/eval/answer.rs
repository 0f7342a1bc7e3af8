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
//! The logical state is decoded in [`decode`], the places an update's field is held in
//! [`held`], what a plan left out of its answer in [`missing`].
//! A strategy whose children cannot be decoded from the documents
//! (a time series' compressed buckets) is reported as not checked, never passed silently.

mod attribute;
mod decode;
mod feed;
mod held;
mod missing;
mod pool;
mod tree;

use bson::{doc, Bson, Document};

use super::run::{self, Ctx};
use super::{EvalError, EvalOptions};
use crate::design::{Layout, Strategy};
use crate::engine::{compare::compare, Database, FindCommand};
use crate::model::{Model, Relationship, Step};
use crate::stats::CollectionStats;
use decode::{
    children_of, documents, listed_by, listings, map_keys, parents_holding, parents_with, stored_as,
};
use held::{element_updated, grown_by, total, values_of, Change, Held};
use missing::{missing_child, missing_in_window, same_child};
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
