//! Running one unit's commands on the engine for one subject: binding, fresh documents for
//! inserts and fan-outs, the undo log that puts the sample back after each run.
//!
//! This module holds the run of a unit (its subject, its commands in order, what an observer
//! sees before the undo); one concept a submodule: the fresh values a step binds
//! ([`fresh`]), one command run and measured ([`command`]), the documents a write sends
//! ([`write`]) and the undo log ([`undo`]).

mod command;
mod fresh;
mod undo;
mod write;

use std::collections::BTreeMap;

use bson::Document;

use super::bind::Binder;
use super::{EvalError, Metrics, RunEval, Subject};
use crate::design::{CommandKind, Layout, When};
use crate::engine::{self, Database};
use crate::generate::Dataset;
use crate::model::{Model, Step};
use crate::stats::CollectionStats;
pub(super) use command::add;
use command::{not_sent, run_command, unrouted};
pub(super) use fresh::list_rows;
use fresh::prepare_step;
use undo::{Target, Undo};

/// What the evaluator needs besides the database.
pub(super) struct Ctx<'a> {
    pub model: &'a Model,
    pub layout: &'a Layout,
    pub data: &'a Dataset,
    /// The full-scale statistics of the layout's collections, computed once by whoever made
    /// this context ([`crate::stats::of_layout`]).
    pub stats: &'a [CollectionStats],
    pub cap: u64,
}

/// Returns the entity a unit's step is about (its subject).
fn step_subject(model: &Model, step: &Step) -> Option<String> {
    let rel = |n: &str| model.relationship(n);
    match step {
        Step::Read { entity, .. }
        | Step::List { entity, .. }
        | Step::FindByAttribute { entity, .. }
        | Step::Insert { entity }
        | Step::Update { entity, .. }
        | Step::Delete { entity } => Some(entity.clone()),
        Step::FindParents { relationship, .. }
        | Step::ReadFeed { relationship, .. }
        | Step::Reassign { relationship } => rel(relationship).map(|r| r.child.clone()),
        Step::InsertChild { relationship } | Step::PostFeed { relationship } => {
            rel(relationship).map(|r| r.parent.clone())
        }
        Step::ReadSubtree { relationship }
        | Step::ReadAncestors { relationship }
        | Step::ReadChildren { relationship }
        | Step::InsertNode { relationship }
        | Step::MoveSubtree { relationship } => rel(relationship).map(|r| r.parent.clone()),
    }
}

/// Runs unit `ui` for the typical (or the largest) subject on `db`, then undoes its writes
/// (restoring every document it changed or deleted, removing every document it inserted), so
/// that the next run sees the materialized sample again.
pub(super) fn run_unit(
    ctx: &Ctx,
    db: &mut Database,
    ui: usize,
    largest: bool,
) -> Result<RunEval, EvalError> {
    run_unit_observed(ctx, db, ui, largest, None)
}

/// What a run shows an observer before its writes are undone: the database as the unit left
/// it, the values its commands were bound to (the subject, the new child) and what each sent
/// command returned.
///
/// The last argument says whether the sample holds every write of the run: false when a write
/// goes to a document that exists only at full scale (the celebrity's last continuation
/// document), whose figures come from the arithmetic.
pub(super) type Observer<'o> =
    &'o mut dyn FnMut(&Database, &Binder, &[(usize, Vec<Document>)], bool);

/// Runs unit `ui` as [`run_unit`] does, showing `observe` the run before it is undone.
pub(super) fn run_unit_observed(
    ctx: &Ctx,
    db: &mut Database,
    ui: usize,
    largest: bool,
    observe: Option<Observer>,
) -> Result<RunEval, EvalError> {
    let Some(up) = ctx.layout.plan.units.get(ui) else {
        return Err(EvalError::Engine(engine::EngineError::bad_value(
            "no such unit",
        )));
    };
    let unit = ctx.model.workload.get(ui);
    let mut b = Binder {
        model: ctx.model,
        layout: ctx.layout,
        data: ctx.data,
        largest,
        results: BTreeMap::new(),
        full_counts: BTreeMap::new(),
        fresh: BTreeMap::new(),
        cache: Default::default(),
        returned: observe.is_some().then(Vec::new),
    };
    let first = unit.and_then(|u| u.steps.first());
    let tree_subject = first.and_then(|s| super::tree::subject(ctx, s, largest));
    let subject = first
        .filter(|_| tree_subject.is_none())
        .and_then(|s| step_subject(ctx.model, s))
        .and_then(|e| b.subject(&e))
        .map_or(
            Subject {
                which: which(largest),
                quantile: if largest { 1.0 } else { 0.5 },
                document: 0,
            },
            |f| Subject {
                which: which(largest),
                quantile: f.2,
                document: f.1,
            },
        );
    let subject = tree_subject.unwrap_or(subject);
    let mut undo = Undo::default();
    let mut step_no = usize::MAX;
    let mut fresh_n = 0u64;
    let mut commands = Vec::new();
    // Whether the last update sent in the current step matched a document (the
    // application's `r`).
    let mut matched_any = false;
    for c in &up.commands {
        if c.step != step_no {
            step_no = c.step;
            matched_any = false;
            let st = unit.and_then(|u| u.steps.get(c.step));
            prepare_step(ctx, &mut b, st, &mut fresh_n, db);
        }
        if c.when == Some(When::NoneMatched) && matched_any {
            // Shown unbound: its parameters may name nothing for this subject.
            let shards = unrouted(ctx, c, c);
            commands.push(not_sent(
                c,
                c,
                shards,
                "an update before it matched (r.matchedCount is 1): the application skips it, no round trip".to_string(),
            ));
            continue;
        }
        let q = subject.quantile;
        let mut matched = false;
        let ce = run_command(
            ctx,
            &mut b,
            &mut Target {
                db,
                undo: &mut undo,
            },
            c,
            q,
            &mut fresh_n,
            &mut matched,
        );
        // The application's `r`: the result of the last update sent.
        if c.kind == CommandKind::Update {
            matched_any = matched;
        }
        commands.push(ce);
    }
    if let Some(observe) = observe {
        // The last step's fresh values (the new child, the new parent) are what the observer
        // checks the state against, even when the plan sends nothing for that step: a plan
        // that skips a write must fail its check, not escape it.
        let last = unit.map_or(0, |u| u.steps.len().saturating_sub(1));
        if step_no != last {
            let st = unit.and_then(|u| u.steps.get(last));
            prepare_step(ctx, &mut b, st, &mut fresh_n, db);
        }
        let returned = b.returned.take().unwrap_or_default();
        let complete = !commands.iter().any(|c| {
            c.not_sent.is_none() && c.sample.docs_written == 0 && c.full.docs_written.value > 0.0
        });
        observe(db, &b, &returned, complete);
    }
    undo.apply(db)?;
    let total = commands
        .iter()
        .fold(Metrics::default(), |acc, c| acc.plus(&c.full));
    let max_shards = commands.iter().map(|c| c.shards.touched).max().unwrap_or(0);
    Ok(RunEval {
        subject,
        queries: commands.iter().map(|c| c.queries).sum(),
        lookups: commands.iter().map(|c| c.lookups).sum(),
        commands,
        total,
        max_shards,
    })
}

fn which(largest: bool) -> String {
    if largest { "largest" } else { "typical" }.to_string()
}
