//! Migrations between two designs of one model: the ordered steps that take the data laid out
//! under one design (`from`) to the layout of another (`to`), each a mongosh command a user
//! can run, with its cost at full scale and its risks.
//!
//! A plan runs in four phases, as online schema changes do:
//!
//! 1. **create**: the target's new indexes (and a temporary one a backfill's batches need);
//! 2. **backfill**: aggregation pipelines, batch by batch over ranges of the parents' `_id`,
//!    each ending in `$merge`: children moved out of their parent into a collection of their
//!    own (or out of their buckets), parent references set on the children, a parent's array
//!    rebuilt from its children (beside the old one, as `{field}_next`), buckets, link
//!    documents written, copies added;
//! 3. **switch**: the rebuilt arrays take their final name, and the application moves its reads
//!    and writes to the target design (the dual writes it must keep until then are stated);
//! 4. **clean-up**: the fields, collections and indexes only the source design had.
//!
//! What is planned: a change of strategy among `embed`, `embed_subset`, `extended_reference`,
//! `reference_in_parent`, `reference_in_child`, `two_way`, `link_collection` and `bucket`, of a
//! one-to-many relationship whose child is a leaf (no children of its own, one parent) and
//! whose parent has a collection of its own in both designs; any number of such changes
//! together, and index changes alone. Everything else is refused with its reason
//! ([`MigrateError::Unsupported`]), never planned half-way. A target whose documents would pass
//! 16 MiB where the source's do not is refused with the documents named
//! ([`MigrateError::OverLimit`]).
//!
//! Every plan is checked on the engine ([`check`]): it runs on the source design's sample and
//! the logical state of the result must equal the source's logical state read through the
//! target design.

mod change;
pub mod check;
mod cost;
pub mod report;
pub mod script;
mod steps;

use serde::Serialize;

use crate::design::{Layout, Strategy};
use crate::lang::{Lang, Text};
use crate::model::Model;

pub use change::Change;
pub use cost::Cost;

/// How a migration runs: its batch size and the write throughput its durations assume.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct MigrateOptions {
    /// Parents per backfill batch (the `_id` range each `$merge` covers).
    pub batch: u64,
    /// Documents the cluster writes per second for the migration (index keys at ten times
    /// that): what each step's `seconds` assumes.
    pub write_rate: f64,
    /// The language of the plan's words: its steps' titles, its dual writes, a refusal's
    /// reasons (the JSON's `options` leave it out: the words are in the language asked for).
    #[serde(skip)]
    pub lang: Lang,
}

impl Default for MigrateOptions {
    fn default() -> Self {
        MigrateOptions {
            batch: 1_000,
            write_rate: 5_000.0,
            lang: Lang::En,
        }
    }
}

/// A migration plan from one design to another.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Migration {
    /// The model's name, if it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The source design, as reports name it.
    pub from: String,
    /// The target design.
    pub to: String,
    /// The batch size and write rate assumed.
    pub options: MigrateOptions,
    /// The relationships whose strategy changes, with both strategies.
    pub changes: Vec<ChangeSummary>,
    /// The steps, in the order they run.
    pub steps: Vec<Step>,
    /// What the application must write to both layouts between the first backfill and the
    /// switch, one sentence per change.
    pub dual_writes: Vec<String>,
    /// The sum of every step's cost.
    pub total: Cost,
}

/// One relationship's change of strategy.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChangeSummary {
    /// The relationship.
    pub relationship: String,
    /// Its strategy in the source design (`reference_in_child`, `embed_subset k=1000`).
    pub from: String,
    /// Its strategy in the target design.
    pub to: String,
}

/// The phase a step belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Collections and indexes the target needs, made before any data moves.
    Create,
    /// Data written in the target's layout beside the source's, batch by batch.
    Backfill,
    /// Reads and writes moved to the target layout.
    Switch,
    /// What only the source layout used, removed.
    CleanUp,
}

impl Phase {
    /// The phase's name as the plan prints it.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Create => "create",
            Phase::Backfill => "backfill",
            Phase::Switch => "switch",
            Phase::CleanUp => "clean-up",
        }
    }
}

/// One step of a plan.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// Its number, from 1.
    pub number: usize,
    /// Its phase.
    pub phase: Phase,
    /// What it does, in one line.
    pub title: String,
    /// The relationship it serves, if one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relationship: Option<String>,
    /// What it runs (the script and the check read it).
    #[serde(skip)]
    pub action: Action,
    /// The mongosh command (a backfill's with `batch`, the parent ids of one batch).
    pub command: String,
    /// Its cost at full scale.
    pub cost: Cost,
}

/// What a step runs.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// `createIndex` (its mongosh call).
    CreateIndex {
        /// The collection.
        collection: String,
        /// The call.
        mongosh: String,
    },
    /// An aggregation over `collection`, for one batch of the parents in `parents` at a time:
    /// `{$match: {field: {$in: batch}}}` then `pipeline` (which ends in `$merge`).
    Backfill {
        /// The collection aggregated.
        collection: String,
        /// The collection whose `_id`s make the batches.
        parents: String,
        /// The field matched against a batch of those ids.
        field: String,
        /// The stages after the batch's `$match`.
        pipeline: Vec<bson::Document>,
    },
    /// `updateMany(filter, update)` over the whole collection.
    Update {
        /// The collection.
        collection: String,
        /// The filter.
        filter: bson::Document,
        /// The update.
        update: bson::Document,
    },
    /// `drop()` of a collection.
    Drop(String),
    /// `dropIndex(keys)`.
    DropIndex {
        /// The collection.
        collection: String,
        /// The key pattern.
        keys: bson::Document,
    },
    /// Work for the application (deploy its reads and writes of the target design): no
    /// command runs.
    Application,
}

/// Why no migration was planned. Its words are [`Text`]s, rendered in any language
/// ([`MigrateError::render`]); `Display` is the English.
#[derive(Debug, Clone, PartialEq)]
pub enum MigrateError {
    /// The change is not one the planner makes (yet): what and why.
    Unsupported {
        /// The relationship or part of the design that changes.
        what: Text,
        /// Why it is not planned.
        why: Text,
    },
    /// The target design would hold documents over 16 MiB that the source does not.
    OverLimit {
        /// The collection.
        collection: String,
        /// The documents over the limit (how many, which parents, from which count).
        documents: Text,
        /// The design's own fix.
        fix: Text,
    },
}

impl MigrateError {
    /// Returns the whole refusal as one sentence in `lang`.
    pub fn render(&self, lang: Lang) -> String {
        match self {
            MigrateError::Unsupported { what, why } => Text::new("migrate-refused")
                .nested("what", what.clone())
                .nested("why", why.clone()),
            MigrateError::OverLimit {
                collection,
                documents,
                fix,
            } => Text::new("migrate-over-limit")
                .arg("collection", collection)
                .nested("documents", documents.clone())
                .nested("fix", fix.clone()),
        }
        .render(lang)
    }
}

impl std::fmt::Display for MigrateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render(Lang::En))
    }
}

impl std::error::Error for MigrateError {}

/// One side of a migration: a design of the model, laid out, with its name.
#[derive(Debug, Clone, Copy)]
pub struct Side<'a> {
    /// The model as evaluated under this design (a preset's design carries its sharding).
    pub model: &'a Model,
    /// The design laid out.
    pub layout: &'a Layout,
    /// The design's name, as reports give it.
    pub name: &'a str,
}

/// Returns the plan that migrates the data of design `from` to design `to` (two designs of
/// one model: same entities, relationships and field patterns), or why none is made. Counts
/// and sizes are the source model's at full scale.
pub fn plan(from: Side, to: Side, opts: MigrateOptions) -> Result<Migration, MigrateError> {
    let changes = change::between(from, to)?;
    // Each collection's full-scale statistics, simulated once for the refusal and the costs.
    let sizes = cost::Sizes::new(from, to);
    sizes.refuse_over_limit()?;
    let steps = steps::Planner::new(from, to, &changes, opts, sizes).steps();
    let total = steps.iter().fold(Cost::default(), |t, s| t.plus(&s.cost));
    Ok(Migration {
        model: from.model.name.clone(),
        from: from.name.to_string(),
        to: to.name.to_string(),
        options: opts,
        changes: changes
            .iter()
            .map(|c| ChangeSummary {
                relationship: c.relationship.clone(),
                from: strategy_label(&c.source),
                to: strategy_label(&c.target),
            })
            .collect(),
        dual_writes: changes
            .iter()
            .map(|c| c.dual_write(from.model).render(opts.lang))
            .collect(),
        steps,
        total,
    })
}

/// Returns a strategy as plans name it: its name with its parameters
/// (`embed_subset k=1000`, `reference_in_child copy=name,thumbnail`).
pub fn strategy_label(s: &Strategy) -> String {
    let mut out = s.name().to_string();
    if let Some((k, v)) = s.parameter() {
        out.push_str(&format!(" {k}={v}"));
    }
    let copies = match s {
        Strategy::ExtendedReference { copy } | Strategy::ReferenceInChild { copy } => copy,
        _ => return out,
    };
    if !copies.is_empty() {
        out.push_str(&format!(" copy={}", copies.join(",")));
    }
    out
}
