//! The evaluation plan: every application unit as a list of engine commands, as plain data
//! (collection, kind, filter, sort, limit, projection, update), each with its mongosh code.
//!
//! Values that only exist at run time are parameters, written `{"$param": "user._id"}` inside
//! filters and updates; the evaluator binds them from the materialized documents (the largest
//! parent, a random parent, …). In mongosh they appear as plain variables (`user._id`).
//!
//! Each kind of workload step has a module of its own, and `step_commands` is the one
//! `match` that dispatches a step to it: to add a step kind, add its `Step` variant in the
//! model and its module here.

mod collation;
mod delete;
mod files;
mod find_by_attribute;
mod find_parents;
mod insert;
mod insert_child;
pub use insert_child::MAP_KEY;
mod list;
mod order;
mod post_feed;
pub use collation::{case_insensitive_collation, matches_any_case};
mod read;
mod read_feed;
mod reassign;
mod single;
pub mod timeseries;
pub mod tree;
mod update;

pub use find_by_attribute::pattern_of as attribute_pattern;
pub use find_parents::HOLDERS;
pub use insert_child::{CONTINUATION, CONTINUATION_DOCUMENTS, LAST, MORE};
pub use list::equality_param;
pub use order::{array_order, bucket_order_serves};
pub use read_feed::order_field as feed_order_field;
pub use update::increment_by;

pub use super::command::{
    doc_to_json, json_to_doc, param, ser_doc, ser_docs, ser_opt_doc, shell, Command, CommandKind,
    When,
};
use super::command::{Plan, UnitPlan};
use super::shape::{collection_holding, collection_name_holding, strategy_in, Collection};
use crate::model::design::{Joins, Strategy};
use crate::model::{Model, Relationship, Step};

/// Where a design puts every document, as the plan reads it: the model, each relationship's
/// strategy, the collections with their document shapes (their indexes come from the plan,
/// after it) and how reads join.
pub(super) struct Placement<'a> {
    /// The model whose workload is planned.
    pub model: &'a Model,
    /// The strategy of every relationship, in model order.
    pub strategies: &'a [(String, Strategy)],
    /// The collections and their shapes.
    pub collections: &'a [Collection],
    /// How reads join collections.
    pub joins: Joins,
}

impl Placement<'_> {
    /// Returns the strategy of relationship `name`.
    fn strategy(&self, name: &str) -> Option<&Strategy> {
        strategy_in(self.strategies, name)
    }

    /// Returns the relationship called `name` with its strategy.
    fn relationship(&self, name: &str) -> Option<(&Relationship, &Strategy)> {
        let r = self.model.relationship(name)?;
        Some((r, self.strategy(&r.name)?))
    }

    /// Returns relationship `name` as placed: the relationship, its strategy, and the
    /// collections of its parent and of its child (what every step about a relationship reads
    /// first).
    fn site(&self, name: &str) -> Option<(&Relationship, &Strategy, String, String)> {
        let (r, s) = self.relationship(name)?;
        Some((
            r,
            s,
            self.collection_for(&r.parent),
            self.collection_for(&r.child),
        ))
    }

    /// Returns the collection that holds entity `entity` as top-level documents, if any.
    fn collection_of(&self, entity: &str) -> Option<&Collection> {
        collection_holding(self.collections, entity)
    }

    /// Returns the name of the collection holding `entity` (the entity's own name when none
    /// does).
    fn collection_for(&self, entity: &str) -> String {
        collection_name_holding(self.collections, entity)
    }

    /// Returns the relationship that embeds `entity` in its parent, when one does.
    fn embedding_of(&self, entity: &str) -> Option<&Relationship> {
        self.model
            .relationships
            .iter()
            .find(|r| r.child == entity && matches!(self.strategy(&r.name), Some(Strategy::Embed)))
    }
}

/// The commands of one unit as its steps are planned: each command made belongs to the step
/// being planned.
pub(super) struct Commands {
    /// Index of the step being planned in its unit.
    step: usize,
    /// The unit's commands so far, in order.
    list: Vec<Command>,
}

impl Commands {
    /// Returns a command of the step being planned (no sort, limit or update yet).
    fn command(
        &self,
        collection: &str,
        kind: CommandKind,
        filter: bson::Document,
        note: impl Into<String>,
    ) -> Command {
        Command::new(self.step, collection, kind, filter, note)
    }

    /// Appends a command: one more round trip.
    fn push(&mut self, c: Command) {
        self.list.push(c);
    }
}

/// Returns the projection of a read that needs only `fields` (each under `prefix`, e.g.
/// `items.` for the elements of a bucket's array), as an application writes it: `{name: 1}`,
/// `_id` coming along unless a prefix puts the fields inside an array (then the holder's `_id`
/// is left out: the step does not use it); `None` (whole documents) when `fields` is empty.
fn project(fields: &[String], prefix: &str) -> Option<bson::Document> {
    if fields.is_empty() {
        return None;
    }
    let mut p = bson::Document::new();
    for f in fields {
        p.insert(format!("{prefix}{f}"), 1);
    }
    if !prefix.is_empty() {
        p.insert("_id", 0);
    }
    Some(p)
}

/// Returns the plan of every unit of the placed model's workload.
pub(super) fn build(p: &Placement) -> Plan {
    let units = p
        .model
        .workload
        .iter()
        .map(|u| {
            let mut out = Commands {
                step: 0,
                list: Vec::new(),
            };
            for (i, s) in u.steps.iter().enumerate() {
                out.step = i;
                let before = out.list.len();
                step_commands(p, s, &mut out);
                single::name_types(p, s, out.list.iter_mut().skip(before));
            }
            UnitPlan {
                unit: u.name.clone(),
                rate_per_sec: u.rate_per_sec,
                commands: out.list,
            }
        })
        .collect();
    Plan { units }
}

/// Appends the commands of `step` to `out`: the one dispatch of a step kind to its module.
/// Each module's `commands` reads the fields of its own kind of step.
fn step_commands(p: &Placement, step: &Step, out: &mut Commands) {
    match step {
        Step::Read { .. } => read::commands(p, step, out),
        Step::FindParents { .. } => find_parents::commands(p, step, out),
        Step::InsertChild { .. } => insert_child::commands(p, step, out),
        Step::Reassign { .. } => reassign::commands(p, step, out),
        Step::Insert { .. } => insert::commands(p, step, out),
        Step::Update { .. } => update::commands(p, step, out),
        Step::Delete { .. } => delete::commands(p, step, out),
        Step::PostFeed { .. } => post_feed::commands(p, step, out),
        Step::ReadFeed { .. } => read_feed::commands(p, step, out),
        Step::FindByAttribute { .. } => find_by_attribute::commands(p, step, out),
        Step::List { .. } => list::commands(p, step, out),
        Step::ReadSubtree { .. }
        | Step::ReadAncestors { .. }
        | Step::ReadChildren { .. }
        | Step::InsertNode { .. }
        | Step::MoveSubtree { .. } => tree::commands(p, step, out),
    }
}
