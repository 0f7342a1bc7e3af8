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
mod steps;
mod tree;
mod writes;

use bson::Document;

use super::run::{self, Ctx};
use super::{EvalError, EvalOptions};
use crate::design::Layout;
use crate::engine::Database;
use crate::model::Model;
use crate::stats::CollectionStats;
pub use decode::documents;
use decode::map_keys;
use missing::missing_in_window;
use pool::Pool;
use steps::{check_steps, Run, Tally};

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
            let mut tally = Tally::default();
            let mut observe = |db: &Database,
                               b: &super::bind::Binder,
                               returned: &[(usize, Vec<Document>)],
                               complete: bool| {
                let run = Run {
                    db,
                    before,
                    model,
                    layout,
                    b,
                    returned,
                    complete,
                    keys: &keys,
                    cap,
                    unit,
                    largest,
                };
                check_steps(run, &mut tally);
            };
            run::run_unit_observed(&ctx, &mut db, ui, largest, Some(&mut observe))?;
            report.problems.extend(tally.found);
            report.checked += tally.checked;
            for u in tally.unchecked {
                if !report.unchecked.contains(&u) {
                    report.unchecked.push(u);
                }
            }
        }
    }
    Ok(report)
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

/// Returns the logical children of every parent of relationship `relationship` in `db`, a
/// database laid out as `layout`: each parent's `_id` with its children, decoded from the
/// documents whatever the strategy ([`decode::children_of`]: embedded elements, ids, links,
/// parent references). `None` when the relationship or its parents' collection is unknown,
/// or the strategy's documents are not decoded. The migration check compares a migrated
/// database read through the target layout with the source read through its own.
pub fn logical_children(
    db: &Database,
    model: &Model,
    layout: &Layout,
    relationship: &str,
) -> Option<Vec<(bson::Bson, Vec<Document>)>> {
    let r = model.relationship(relationship)?;
    let parents = decode::sample_parents(db, layout, r)?;
    parents
        .iter()
        .filter_map(|p| p.get("_id"))
        .map(|pid| {
            decode::children_of(db, model, layout, r, pid, None).map(|c| (pid.clone(), c.docs))
        })
        .collect()
}
