//! The check of each step of one run against its logical answer: [`check_steps`] hands each
//! step to one method per kind of step. Here the reads, checked on what the plan returned:
//! the children a `read` returns, the page a `list` returns, the parents `find_parents`
//! returns, a tree step ([`super::tree`]), and the steps checked in their own modules
//! (`read_feed`, `post_feed`: [`super::feed`]; `find_by_attribute`: [`super::attribute`]).
//! The writes (`update`, `delete`, `reassign`, `insert_child`, `insert`) are checked in
//! [`super::writes`].
//!
//! Apart from [`super::check_in`], which runs each unit for each subject and gathers what
//! these checks find, so that each check reads on its own.

use bson::{Bson, Document};

use super::decode::{children_of, documents, parents_with};
use super::missing::{missing_child, missing_in_window};
use super::pool::Pool;
use super::writes::inserted;
use super::{attribute, feed, tree, AnswerProblem, Outcome};
use crate::design::{Layout, Strategy};
use crate::engine::{compare::compare, Database};
use crate::eval::bind::Binder;
use crate::eval::run;
use crate::model::{Model, Relationship, Step, Unit};

/// What the checks of the runs found.
#[derive(Debug, Default)]
pub(super) struct Tally {
    /// Steps whose plans returned or left something else than the logical answer.
    pub found: Vec<AnswerProblem>,
    /// Steps checked.
    pub checked: usize,
    /// Steps not checked, with why.
    pub unchecked: Vec<String>,
}

/// One run of a unit for one subject as its observer sees it before the undo.
#[derive(Clone, Copy)]
pub(super) struct Run<'a, 'd> {
    /// The database as the unit left it.
    pub db: &'a Database,
    /// The sample as generated, never written to.
    pub before: &'a Database,
    pub model: &'a Model,
    pub layout: &'a Layout,
    /// The values the run's commands were bound to.
    pub b: &'a Binder<'d>,
    /// What each sent command returned, with its step.
    pub returned: &'a [(usize, Vec<Document>)],
    /// True when the sample holds every write of the run.
    pub complete: bool,
    /// The key fields of the layout's maps, for the pools of what each step returned.
    pub keys: &'a [String],
    /// The fan-out cap of the run.
    pub cap: u64,
    pub unit: &'a Unit,
    /// The largest subject, else the typical.
    pub largest: bool,
}

/// Checks every step of `run`, adding what it finds to `t`.
pub(super) fn check_steps(run: Run<'_, '_>, t: &mut Tally) {
    for (si, step) in run.unit.steps.iter().enumerate() {
        let mut c = StepCheck { run, si, t };
        let outcome = c.outcome(step);
        c.tally(outcome);
        c.logical(step);
    }
}

/// The check of step `si` of a run, what it finds added to `t`.
pub(super) struct StepCheck<'a, 'd, 't> {
    pub(super) run: Run<'a, 'd>,
    pub(super) si: usize,
    pub(super) t: &'t mut Tally,
}

impl StepCheck<'_, '_, '_> {
    /// Records what is wrong with the step.
    pub(super) fn problem(&mut self, problem: String) {
        self.t.found.push(AnswerProblem {
            unit: self.run.unit.name.clone(),
            step: self.si,
            subject: if self.run.largest {
                "largest"
            } else {
                "typical"
            }
            .to_string(),
            problem,
        });
    }

    /// Returns whether the step is its unit's last.
    fn last(&self) -> bool {
        self.si + 1 == self.run.unit.steps.len()
    }

    /// Returns what a step checked in its own module found, or `None` for the other steps.
    fn outcome(&self, step: &Step) -> Option<Outcome> {
        let Run {
            db,
            before,
            model,
            layout,
            b,
            returned,
            keys,
            cap,
            ..
        } = self.run;
        let si = self.si;
        match step {
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
                    &Pool::of(returned, si, keys),
                )
            }),
            Step::PostFeed { relationship } if self.last() => {
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
            Step::Insert { entity } if self.last() => inserted(db, before, layout, entity),
            _ => None,
        }
    }

    /// Adds what a step checked in its own module found.
    fn tally(&mut self, outcome: Option<Outcome>) {
        match outcome {
            Some(Outcome::Checked(p)) => {
                self.t.checked += 1;
                if let Some(p) = p {
                    self.problem(p);
                }
            }
            Some(Outcome::Unchecked(why)) => {
                self.t
                    .unchecked
                    .push(format!("{}: {why}", self.run.unit.name));
            }
            None => {}
        }
    }

    /// Checks the logical answer of the steps checked here.
    fn logical(&mut self, step: &Step) {
        match step {
            Step::Read {
                entity, children, ..
            } => self.read(entity, children),
            Step::List { .. } => self.list(step),
            Step::FindParents { relationship, by } => self.find_parents(relationship, by),
            Step::Update {
                increment: false, ..
            } => self.update_set(step),
            Step::Update {
                increment: true, ..
            } => self.update_increment(step),
            Step::Delete { entity } if self.last() => self.delete(entity),
            Step::Reassign { relationship } if self.last() => self.reassign(relationship),
            Step::InsertChild { relationship } if !self.run.largest && self.last() => {
                self.insert_child(relationship);
            }
            step if step.op().is_tree() => self.tree(step),
            _ => {}
        }
    }

    /// Checks a `read`: each child read's logical answer is among what the plan returned.
    fn read(&mut self, entity: &str, children: &[crate::model::ChildRead]) {
        let Run {
            db,
            model,
            layout,
            b,
            returned,
            keys,
            unit,
            ..
        } = self.run;
        let si = self.si;
        let Some(pid) = b.value(&format!("{entity}._id")) else {
            return;
        };
        let pool = Pool::of(returned, si, keys);
        for c in children {
            let Some(r) = model.relationship(&c.relationship) else {
                continue;
            };
            let Some(all) = children_of(db, model, layout, r, &pid, Some(c)) else {
                self.t.unchecked.push(format!(
                    "{}: the children of {} are not decoded under its strategy",
                    unit.name, r.name
                ));
                continue;
            };
            self.t.checked += 1;
            if let Some(p) = missing_child(model, r, c, all, &pool) {
                self.problem(p);
            }
        }
    }

    /// Checks a `list`: its page of the entity's documents, in its order, with the fields it asks for.
    fn list(&mut self, step: &Step) {
        let Run {
            db,
            model,
            layout,
            b,
            returned,
            keys,
            unit,
            ..
        } = self.run;
        let si = self.si;
        let Step::List {
            entity,
            by,
            sort,
            limit,
            fields,
            page,
            paging,
        } = step
        else {
            return;
        };
        let Some(coll) = layout.collection_of(entity) else {
            return;
        };
        let docs = documents(db, &coll.name);
        let Some(rows) = run::list_rows(model, b, entity, by.as_deref(), sort, &docs) else {
            return;
        };
        let key = |d: &Document| d.get(&sort.field).cloned().unwrap_or(Bson::Null);
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
            crate::model::Paging::Skip => {
                usize::try_from(page.saturating_sub(1).saturating_mul(limit as u64))
                    .unwrap_or(usize::MAX)
            }
            crate::model::Paging::Range => {
                let Some(last) = b.value(&format!("last.{}", sort.field)) else {
                    self.t.unchecked.push(format!(
                        "{}: the sample holds one page of {entity} at most",
                        unit.name
                    ));
                    return;
                };
                rows.iter()
                    .take_while(|d| order(&key(d), &last).is_le())
                    .count()
            }
        };
        self.t.checked += 1;
        let mut asked_fields = fields.clone();
        if asked_fields.is_empty() {
            asked_fields.push("_id".to_string());
            if let Some(e) = model.entity(entity) {
                asked_fields.extend(e.fields.iter().map(|(n, _)| n.clone()));
            }
        }
        let pool = Pool::of(returned, si, keys);
        if let Some(p) = missing_in_window(&rows, start, limit, &key, &pool, &asked_fields) {
            self.problem(format!("{entity}: {p}"));
        }
    }

    /// Checks a `find_parents`: every parent with a child of that value is among what the plan returned.
    fn find_parents(&mut self, relationship: &str, by: &str) {
        let Run {
            db,
            model,
            layout,
            b,
            returned,
            keys,
            unit,
            ..
        } = self.run;
        let si = self.si;
        let Some(r) = model.relationship(relationship) else {
            return;
        };
        let Some(value) = b.value(&format!("{}.{by}", r.child)) else {
            return;
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
            self.t
                .unchecked
                .push(format!("{}: {}: {why}", unit.name, r.name));
            return;
        }
        let Some(expected) = parents_with(db, model, layout, r, by, &value) else {
            self.t.unchecked.push(format!(
                "{}: the parents of {} are not decoded under its strategy",
                unit.name, r.name
            ));
            return;
        };
        self.t.checked += 1;
        let mut wanted = vec!["_id".to_string()];
        if let Some(e) = model.entity(&r.parent) {
            wanted.extend(e.fields.iter().map(|(n, _)| n.clone()));
        }
        let pool = Pool::of(returned, si, keys);
        let missing = expected.iter().filter(|p| !pool.holds(p, &wanted)).count();
        if missing > 0 {
            self.problem(format!(
                    "{}: {missing} of the {} {} with a child of that {by} are not among what the plan returns",
                    r.name,
                    expected.len(),
                    r.parent
                ));
        }
    }

    /// Checks a tree step ([`tree`]).
    fn tree(&mut self, step: &Step) {
        let Run {
            db,
            before,
            model,
            layout,
            b,
            returned,
            complete,
            unit,
            ..
        } = self.run;
        let si = self.si;
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
                self.t.checked += 1;
                p.into_iter().for_each(|p| self.problem(p));
            }
            Err(why) => self.t.unchecked.push(format!("{}: {why}", unit.name)),
        }
    }
}

/// Returns how many distinct readers a `post_feed` under `r` reaches in the sample: the
/// author's followers at the author's quantile, capped at `cap` written, among the sample's
/// users (the run writes to follower `i` modulo their number).
fn feed_readers(model: &Model, b: &Binder, r: &Relationship, cap: u64) -> usize {
    let q = b.subject(&r.parent).map_or(0.5, |f| f.2);
    let written = r.cardinality.count_at(q).min(cap);
    let users = model
        .entity(&r.child)
        .map_or(1, |e| model.sample.sample_count(e.count).max(1));
    usize::try_from(written.min(users)).unwrap_or(usize::MAX)
}
