//! Running one unit's commands on the engine for one subject: binding, fresh documents for
//! inserts and fan-outs, the undo log that puts the sample back after each run.

use std::collections::BTreeMap;

use bson::{Bson, Document};

use super::bind::{bind_doc, Binder};
use super::room;
use super::scale::{full_metrics, relationship_matches};
use super::shards::{route, ShardRouting};
use super::{CommandEval, EvalError, FanOut, Metrics, RunEval, SampleStats, Subject};
use crate::design::names::{child_ref, relationship_collection_name, CONTINUATION_FIELD};
use crate::design::plan::{CONTINUATION, CONTINUATION_DOCUMENTS, HOLDERS, MORE};
use crate::design::{Command, CommandKind, Layout, Strategy, When};
use crate::engine::{self, Database, FindCommand, UpdateCommand};
use crate::generate::{entity_oid, Dataset};
use crate::model::{Model, Paging, Relationship, Sort, Step};
use crate::stats::CollectionStats;

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

fn to_engine(c: &Command, b: &Binder) -> engine::Command {
    let filter = bind_doc(&c.filter, b);
    match c.kind {
        CommandKind::Find => engine::Command::Find(FindCommand {
            filter,
            projection: c.projection.clone(),
            sort: c.sort.clone(),
            skip: c.skip.unwrap_or(0),
            limit: c.limit,
            collation: c.collation.clone(),
            ..Default::default()
        }),
        CommandKind::Aggregate => engine::Command::Aggregate {
            pipeline: c.pipeline.iter().map(|d| bind_doc(d, b)).collect(),
        },
        CommandKind::Update => engine::Command::Update(UpdateCommand {
            filter,
            update: c
                .update
                .as_ref()
                .map(|u| bind_doc(u, b))
                .unwrap_or_default(),
            multi: c.multi,
            upsert: c.upsert,
            array_filters: c.array_filters.iter().map(|d| bind_doc(d, b)).collect(),
            ..Default::default()
        }),
        CommandKind::Delete => engine::Command::Delete {
            filter,
            multi: c.multi,
        },
        CommandKind::Insert => engine::Command::Insert {
            documents: vec![],
            ordered: true,
        },
    }
}

/// Returns a command with its parameters bound (for its mongosh code).
fn bound(c: &Command, b: &Binder) -> Command {
    let mut out = c.clone();
    out.filter = bind_doc(&c.filter, b);
    out.update = c.update.as_ref().map(|u| bind_doc(u, b));
    out.array_filters = c.array_filters.iter().map(|d| bind_doc(d, b)).collect();
    out.pipeline = c.pipeline.iter().map(|d| bind_doc(d, b)).collect();
    out
}

/// The shape fields of the documents an insert creates.
fn shape_fields(ctx: &Ctx, c: &Command) -> crate::model::Fields {
    let coll = ctx.layout.collection(&c.collection);
    let label = c.insert_shape.clone().unwrap_or_default();
    coll.and_then(|x| x.shape(&label).or(x.shapes.first()))
        .map(|s| s.fields.clone())
        .unwrap_or_default()
}

/// Returns the parent a `reassign` of `r` moves the subject child to: the sample's next parent
/// after the one holding the child, a parent indeed (not one of the continuation documents
/// that share the parents' collection, not a document of another type in a single
/// collection) and another one than the child's. The child's parent is its reference where it
/// keeps one, else the document listing it (or the parent whose chain that continuation
/// document belongs to).
fn new_parent(ctx: &Ctx, b: &Binder, r: &Relationship) -> Option<Document> {
    let pcoll = ctx.layout.collection_name(&r.parent);
    let docs = &ctx.data.collection(&pcoll)?.documents;
    let child = b.value(&format!("{}._id", r.child));
    let lists = |d: &Document, field: &str, id: &Bson| match d.get(field) {
        Some(Bson::Array(a)) => a.iter().any(|e| match e {
            Bson::Document(x) => x.get("_id") == Some(id),
            e => e == id,
        }),
        _ => false,
    };
    let continuations: Vec<&Bson> = docs
        .iter()
        .filter_map(|d| match d.get(CONTINUATION_FIELD) {
            Some(Bson::Array(a)) => Some(a.iter()),
            _ => None,
        })
        .flatten()
        .collect();
    let is_parent = |d: &Document| {
        let other_type = matches!(
            d.get(crate::design::names::TYPE_FIELD),
            Some(Bson::String(t)) if *t != r.parent
        );
        !other_type && d.get("_id").is_some_and(|id| !continuations.contains(&id))
    };
    let holder = b
        .value(&format!("{}.{}", r.child, r.parent_ref()))
        .or_else(|| {
            let child = child.as_ref()?;
            let held = docs.iter().find(|d| lists(d, r.array_field(), child))?;
            let id = held.get("_id")?;
            if continuations.contains(&id) {
                docs.iter()
                    .find(|d| lists(d, CONTINUATION_FIELD, id))
                    .and_then(|d| d.get("_id"))
                    .cloned()
            } else {
                Some(id.clone())
            }
        });
    let at = docs
        .iter()
        .position(|d| holder.is_some() && d.get("_id") == holder.as_ref())
        .map_or(0, |i| i + 1);
    docs.iter()
        .skip(at)
        .chain(docs.iter().take(at))
        .find(|d| is_parent(d) && (holder.is_none() || d.get("_id") != holder.as_ref()))
        .cloned()
}

/// Returns the documents of `docs` (one collection's) that a `list` of `entity` reads, in its
/// order: the entity's own (not another type's in a single collection), equal to the value
/// its equality binds (an array field holding it), sorted by `sort`. `None` when that value
/// is not bound. What the evaluation pages through and the logical answer of the step.
pub(super) fn list_rows<'d>(
    model: &Model,
    b: &Binder,
    entity: &str,
    by: Option<&str>,
    sort: &Sort,
    docs: impl IntoIterator<Item = &'d Document>,
) -> Option<Vec<&'d Document>> {
    let wanted = match by {
        Some(f) => Some((
            f,
            b.value(&crate::design::plan::equality_param(model, entity, f))?,
        )),
        None => None,
    };
    let key = |d: &Document| d.get(&sort.field).cloned().unwrap_or(Bson::Null);
    let mut rows: Vec<&Document> = docs
        .into_iter()
        .filter(|d| {
            let other_type = matches!(
                d.get(crate::design::names::TYPE_FIELD),
                Some(Bson::String(t)) if t != entity
            );
            let matched = wanted.as_ref().is_none_or(|(f, v)| match d.get(*f) {
                Some(Bson::Array(a)) => a.contains(v),
                Some(x) => x == v,
                None => false,
            });
            !other_type && matched
        })
        .collect();
    rows.sort_by(|x, y| {
        let o = crate::engine::compare::compare(&key(x), &key(y));
        if sort.order < 0 {
            o.reverse()
        } else {
            o
        }
    });
    Some(rows)
}

/// Returns what a range-paged `list` continues after (`last.<sort field>`): the sort value the
/// previous page ended with, in the sample's order of the documents the list filters, or where
/// the sample holds fewer than the pages before it, the value that leaves one last full page
/// (the full-scale figures count the pages before by arithmetic, `page_offset`). `None` when
/// the sample holds no more than one page.
fn last_seen(
    ctx: &Ctx,
    b: &Binder,
    entity: &str,
    by: Option<&str>,
    sort: &Sort,
    limit: u64,
    page: u64,
) -> Option<Document> {
    let coll = ctx.layout.collection_of(entity)?;
    let docs = &ctx.data.collection(&coll.name)?.documents;
    let rows = list_rows(ctx.model, b, entity, by, sort, docs)?;
    let key = |d: &Document| d.get(&sort.field).cloned().unwrap_or(Bson::Null);
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    let before =
        usize::try_from(page.saturating_sub(1).saturating_mul(limit as u64)).unwrap_or(usize::MAX);
    let at = before.min(rows.len().saturating_sub(limit));
    let last = rows.get(at.checked_sub(1)?)?;
    let mut out = Document::new();
    out.insert(sort.field.clone(), key(last));
    Some(out)
}

/// Prepares the fresh values of a step: the new child, the posted item, the tree node it
/// starts from (as `db` holds it when the step starts).
fn prepare_step(ctx: &Ctx, b: &mut Binder, step: Option<&Step>, n: &mut u64, db: &Database) {
    b.fresh.clear();
    b.results.clear();
    b.full_counts.clear();
    let Some(step) = step else { return };
    match step {
        Step::List {
            entity,
            by,
            sort,
            limit,
            page,
            paging: Paging::Range,
            ..
        } if *page > 1 => {
            if let Some(d) = last_seen(ctx, b, entity, by.as_deref(), sort, *limit, *page) {
                b.fresh.insert("last".into(), Bson::Document(d));
            }
        }
        Step::Reassign { relationship } => {
            let Some(r) = ctx.model.relationship(relationship) else {
                return;
            };
            // The whole document: a continuation chain appends to its last continuation
            // document (`new_parent.tbc.at(-1)`).
            if let Some(d) = new_parent(ctx, b, r) {
                b.fresh.insert("new_parent".into(), Bson::Document(d));
            }
        }
        Step::InsertChild { relationship } => {
            let Some(r) = ctx.model.relationship(relationship) else {
                return;
            };
            let parent_id = b.value(&format!("{}._id", r.parent));
            // The child as stored: in its own collection when it has one, else embedded.
            let own = ctx.layout.collection_of(&r.child);
            let fields = if let Some(c) = own {
                c.shape(&r.child)
                    .map(|s| s.fields.clone())
                    .unwrap_or_default()
            } else {
                ctx.layout
                    .collection_of(&r.parent)
                    .and_then(|c| c.shapes.first())
                    .and_then(|s| s.fields.get(r.array_field()))
                    .map(|f| f.element().fields)
                    .or_else(|| ctx.model.entity(&r.child).map(|e| e.fields.clone()))
                    .unwrap_or_default()
            };
            *n += 1;
            let mut child = b.new_document(&fields, &r.child, *n);
            // A measurement of a time series gets its `_id` from the driver too.
            let measurement = matches!(
                ctx.layout.strategy(&r.name),
                Some(Strategy::TimeSeries { .. })
            );
            if !child.contains_key("_id") && (own.is_some() || measurement) {
                child.insert(
                    "_id",
                    Bson::ObjectId(entity_oid(ctx.model.seed, &format!("new/{}", r.child), *n)),
                );
            }
            // Many-to-many links an existing child (following a user who exists): the typical
            // (or the largest) sample document of the child's collection that is not the
            // parent itself.
            if r.many_to_many {
                if let Some(id) = b.existing(&r.child, parent_id.as_ref()) {
                    child.insert("_id", id);
                }
            }
            // The child's reference holds the parent's `_id`, or its key (`parent_key`).
            let pkey = ctx
                .layout
                .strategy(&r.name)
                .map_or("_id", |s| crate::design::names::parent_key(r, s));
            let parent_ref_value = if pkey == "_id" {
                parent_id
            } else {
                b.value(&format!("{}.{pkey}", r.parent))
            };
            if let Some(pid) = parent_ref_value {
                if child.contains_key(r.parent_ref()) {
                    child.insert(r.parent_ref(), pid);
                }
            }
            b.fresh.insert("child".into(), Bson::Document(child));
            // A map's new entry needs a key of its own.
            b.fresh.insert(
                crate::design::plan::MAP_KEY.into(),
                Bson::String(format!("new{:08x}", *n)),
            );
        }
        Step::PostFeed { relationship } => {
            let Some(r) = ctx.model.relationship(relationship) else {
                return;
            };
            let Some(item) = r.feed.as_ref().and_then(|f| ctx.model.entity(f)) else {
                return;
            };
            *n += 1;
            let mut fields = crate::model::Fields::default();
            fields.push(
                "author",
                crate::model::Field::of(crate::model::BsonType::ObjectId),
            );
            for (k, f) in item.fields.iter() {
                fields.push(k.clone(), f.clone());
            }
            let mut d = b.new_document(&fields, &item.name, *n);
            if let Some(a) = b.value(&format!("{}._id", r.parent)) {
                d.insert("author", a);
            }
            b.fresh.insert("item".into(), Bson::Document(d));
        }
        Step::ReadSubtree { .. }
        | Step::ReadAncestors { .. }
        | Step::ReadChildren { .. }
        | Step::InsertNode { .. }
        | Step::MoveSubtree { .. } => super::tree::prepare(ctx, b, step, n, db),
        _ => {}
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

/// What a run changed, to put back afterwards.
#[derive(Default)]
struct Undo {
    /// (collection, document before the write), in write order.
    restore: Vec<(String, engine::Returned)>,
    /// (collection, `_id`) of documents the run inserted.
    remove: Vec<(String, Bson)>,
}

impl Undo {
    /// Puts the database back: inserted documents removed, changed and deleted ones restored
    /// (in reverse order, so the oldest image wins).
    fn apply(self, db: &mut Database) -> Result<(), EvalError> {
        for (coll, id) in self.remove.into_iter().rev() {
            db.run(
                &coll,
                engine::Command::Delete {
                    filter: bson::doc! { "_id": id },
                    multi: false,
                },
            )?;
        }
        for (coll, doc) in self.restore.into_iter().rev() {
            let Some(id) = doc.field("_id") else {
                continue;
            };
            let doc = doc.into_document();
            db.run(
                &coll,
                engine::Command::Update(UpdateCommand {
                    filter: bson::doc! { "_id": id },
                    update: doc,
                    upsert: true,
                    replace: true,
                    ..Default::default()
                }),
            )?;
        }
        Ok(())
    }
}

/// The database a run writes to, with its undo log.
struct Target<'a> {
    db: &'a mut Database,
    undo: &'a mut Undo,
}

impl Target<'_> {
    /// Runs a command, first saving the documents an update or delete may change and then
    /// noting the documents it inserts.
    fn run(
        &mut self,
        coll: &str,
        c: engine::Command,
    ) -> engine::error::Result<engine::CommandResult> {
        let filter = match &c {
            engine::Command::Update(u) => Some((u.filter.clone(), u.multi)),
            engine::Command::Delete { filter, multi } => Some((filter.clone(), *multi)),
            _ => None,
        };
        if let Some((filter, multi)) = filter {
            let found = self.db.find(
                coll,
                &FindCommand {
                    filter,
                    limit: (!multi).then_some(1),
                    ..Default::default()
                },
            )?;
            self.undo
                .restore
                .extend(found.documents.into_iter().map(|d| (coll.to_string(), d)));
        }
        let r = match c {
            engine::Command::Find(f) => self.db.find(coll, &f),
            engine::Command::Aggregate { pipeline } => self.db.aggregate(coll, &pipeline),
            other => self.db.run(coll, other),
        }?;
        self.undo.remove.extend(
            r.inserted_ids
                .iter()
                .map(|id| (coll.to_string(), id.clone())),
        );
        Ok(r)
    }
}

pub(super) fn add(a: &mut engine::CommandResult, r: engine::CommandResult) {
    a.stats.exec.n_returned += r.stats.exec.n_returned;
    a.stats.exec.keys_examined += r.stats.exec.keys_examined;
    a.stats.exec.docs_examined += r.stats.exec.docs_examined;
    let (w, x) = (&mut a.stats.write, r.stats.write);
    w.n_matched += x.n_matched;
    w.n_modified += x.n_modified;
    w.n_upserted += x.n_upserted;
    w.n_deleted += x.n_deleted;
    w.n_inserted += x.n_inserted;
    w.docs_written += x.docs_written;
    w.bytes_written += x.bytes_written;
    w.index_keys_written += x.index_keys_written;
    a.stats.lookups.extend(r.stats.lookups);
    a.documents.extend(r.documents);
    if a.plan.is_none() {
        a.plan = r.plan;
    }
}

/// The documents an insert writes (one per follower, capped, for a fan-out), and the
/// fan-out's figures.
fn insert_documents(
    ctx: &Ctx,
    b: &Binder,
    c: &Command,
    q: f64,
    n: &mut u64,
) -> (Vec<Document>, Option<FanOut>, u64) {
    let label = c.insert_shape.clone().unwrap_or_default();
    if let Some(d) = new_continuation(ctx, b, c, n) {
        return (vec![d], None, 0);
    }
    // The child of the current insert-child step.
    if let Some(Bson::Document(child)) = b.fresh.get("child") {
        let is_child = ctx.model.relationships.iter().any(|r| r.child == label);
        if is_child
            && ctx
                .layout
                .collection_of(&label)
                .is_some_and(|x| x.name == c.collection)
        {
            return (vec![child.clone()], None, 0);
        }
    }
    let fields = shape_fields(ctx, c);
    *n += 1;
    let mut d = b.new_document(&fields, &format!("{}/{label}", c.collection), *n);
    if !d.contains_key("_id") {
        d.insert(
            "_id",
            Bson::ObjectId(entity_oid(ctx.model.seed, &format!("new/{label}"), *n)),
        );
    }
    // A single collection's parent holds its own id as the shared key.
    if let (Some(shape), Some(id)) = (
        ctx.layout
            .collection(&c.collection)
            .and_then(|x| x.shape(&label)),
        d.get("_id").cloned(),
    ) {
        let keys = crate::design::place::single::own_id_keys(
            &ctx.model.relationships,
            &ctx.layout.strategies,
            shape,
        );
        for k in keys {
            d.insert(k, id.clone());
        }
    }
    // Links: the parent and a child of the current step.
    if label == "link" {
        if let Some(r) = ctx
            .model
            .relationships
            .iter()
            .find(|r| r.name == c.collection)
        {
            if let Some(p) = b.value(&format!("{}._id", r.parent)) {
                d.insert(r.parent_ref(), p);
            }
            let cid = b.value("child._id").unwrap_or(Bson::ObjectId(entity_oid(
                ctx.model.seed,
                &r.child,
                1,
            )));
            d.insert(child_ref(r), cid);
        }
        return (vec![d], None, 0);
    }
    // Feed items and copies.
    let feed: Option<&Relationship> = ctx
        .model
        .relationships
        .iter()
        .find(|r| r.feed.is_some() && relationship_coll(ctx, r) == Some(c.collection.clone()));
    let Some(r) = feed else {
        return (vec![d], None, 0);
    };
    if let Some(Bson::Document(item)) = b.fresh.get("item") {
        for (k, v) in item {
            if k != "_id" && d.contains_key(k) {
                d.insert(k.clone(), v.clone());
            }
        }
    }
    let followers = r.cardinality.count_at(q);
    let real = followers.min(ctx.cap);
    let sample_users = ctx
        .model
        .entity(&r.child)
        .map_or(1, |e| ctx.model.sample.sample_count(e.count).max(1));
    let follower = |i: u64| Bson::ObjectId(entity_oid(ctx.model.seed, &r.child, i % sample_users));
    let fan = FanOut {
        relationship: r.name.clone(),
        full_scale: followers,
        written: real,
        cap: ctx.cap,
        capped: real < followers,
    };
    if c.fan_out.is_some() {
        let docs = (0..real)
            .map(|i| {
                let mut x = d.clone();
                *n += 1;
                x.insert(
                    "_id",
                    Bson::ObjectId(entity_oid(ctx.model.seed, &format!("new/{label}"), *n)),
                );
                x.insert("owner", follower(i));
                x
            })
            .collect();
        return (docs, Some(fan), 0);
    }
    // Fan-out on read: one item whose `to` lists the followers (capped; the bytes of the
    // missing elements are added arithmetically).
    if d.contains_key("to") {
        d.insert("to", Bson::Array((0..real).map(follower).collect()));
        let missing = crate::arith::array_size(followers, 12) - crate::arith::array_size(real, 12);
        return (vec![d], Some(fan), missing);
    }
    (vec![d], None, 0)
}

/// Returns whether an insert creates a continuation document (`followers continuation`).
fn is_continuation(ctx: &Ctx, c: &Command) -> bool {
    continuation_of(ctx, c).is_some()
}

/// Returns the relationship whose continuation documents an insert creates.
fn continuation_of<'a>(ctx: &'a Ctx, c: &Command) -> Option<&'a Relationship> {
    let label = c.insert_shape.as_deref()?;
    ctx.model.relationships.iter().find(|r| {
        matches!(
            ctx.layout.strategy(&r.name),
            Some(Strategy::Continuation { .. })
        ) && label == format!("{} continuation", r.name)
    })
}

/// Returns the continuation document a continuation append creates: a new `_id` and the
/// child's id, the only element of its array.
fn new_continuation(ctx: &Ctx, b: &Binder, c: &Command, n: &mut u64) -> Option<Document> {
    let r = continuation_of(ctx, c)?;
    *n += 1;
    let id = Bson::ObjectId(entity_oid(
        ctx.model.seed,
        &format!("new/{} continuation", r.name),
        *n,
    ));
    // The new child of an insert, or the child a reassign moves.
    let child = b
        .value("child._id")
        .or_else(|| b.value(&format!("{}._id", r.child)))
        .unwrap_or(Bson::Null);
    Some(bson::doc! { "_id": id, r.array_field(): [child] })
}

/// Returns follower `i` of a fan-out as the parameters its commands bind: its `_id` and, when
/// the command addresses a bucket by `sequence`, the number of the bucket its next item goes
/// into (the newest bucket while it holds fewer than the bucket size, else the next one): what
/// the application computes from the follower's item counter in the article's scheme.
fn follower_doc(ctx: &Ctx, target: &mut Target, c: &Command, r: &Relationship, i: u64) -> Document {
    let id = entity_oid(ctx.model.seed, &r.child, i);
    let mut f = bson::doc! { "_id": id };
    let size = match ctx.layout.strategy(&r.name) {
        Some(Strategy::BucketedFanOut { size }) => *size,
        _ => return f,
    };
    if !c.filter.contains_key("sequence") {
        return f;
    }
    let newest = target
        .run(
            &c.collection,
            engine::Command::Find(FindCommand {
                filter: bson::doc! { "owner": id },
                sort: Some(bson::doc! { "sequence": -1 }),
                limit: Some(1),
                ..Default::default()
            }),
        )
        .ok()
        .and_then(|r| r.documents.into_iter().next());
    let number = |d: &Document, k: &str| match d.get(k) {
        Some(Bson::Int32(v)) => i64::from(*v),
        Some(Bson::Int64(v)) => *v,
        Some(Bson::Double(v)) => *v as i64,
        _ => 0,
    };
    let sequence = match newest {
        Some(d) if (number(&d, crate::design::names::BUCKET_COUNT) as u64) < size => {
            number(&d, "sequence")
        }
        Some(d) => number(&d, "sequence").saturating_add(1),
        None => 0,
    };
    f.insert("sequence", sequence);
    f
}

/// Returns the insert of a measurement into its parent's open bucket with the slot it fills:
/// the number of measurements the open bucket holds (0 when none is open: the upsert opens
/// one), as the server's bucket catalog knows it; the engine counts the open bucket's `_id`
/// column. The fields the measurement lacks are left out of the update, as the server stores
/// and bounds only the fields a measurement has.
fn into_open_slot(target: &mut Target, b: &Binder, c: &Command) -> Command {
    let open = target
        .run(
            &c.collection,
            engine::Command::Find(FindCommand {
                filter: bind_doc(&c.filter, b),
                limit: Some(1),
                ..Default::default()
            }),
        )
        .ok()
        .and_then(|r| r.documents.into_iter().next());
    let slot = open
        .as_ref()
        .and_then(|d| d.get_document("data").ok())
        .and_then(|d| d.get_document("_id").ok())
        .map_or(0, |ids| ids.len() as u64);
    let mut out = c.clone();
    out.update = c.update.as_ref().map(|u| {
        crate::design::plan::timeseries::at_slot(u, slot, |v| match v {
            Bson::Document(p) => match p.get("$param") {
                Some(Bson::String(name)) => b.value(name).is_some(),
                _ => true,
            },
            _ => true,
        })
    });
    out
}

fn relationship_coll(ctx: &Ctx, r: &Relationship) -> Option<String> {
    ctx.layout
        .strategy(&r.name)
        .map(|s| relationship_collection_name(r, s))
}

/// Returns the field whose `$in` list bound to nothing, when a find can match nothing for this
/// subject and so is not sent (`{_id: {$in: user.tbc}}` for a user without continuation
/// documents): a top-level `{field: {$in: []}}` (an `$and` of the filter's fields) whose
/// full-scale count, when the arithmetic knows one, is 0 too. A list empty only because the
/// sample is small (the links of a child the sample links to no parent, while at full scale it
/// has hundreds) keeps the command: the full-scale figures say what it fetches.
fn nothing_to_fetch(ctx: &Ctx, b: &Binder, c: &Command, shown: &Command, q: f64) -> Option<String> {
    if c.kind != CommandKind::Find {
        return None;
    }
    let field = shown.filter.iter().find_map(|(k, v)| match v {
        Bson::Document(d) => match d.get("$in") {
            Some(Bson::Array(a)) if a.is_empty() => Some(k.clone()),
            _ => None,
        },
        _ => None,
    })?;
    // A list made of an earlier command's results (`links.partId`) is empty at full scale
    // only when that command returns nothing there either.
    // A tree walk's lists come from the sample's own tree: empty there is empty.
    let earlier = match c
        .filter
        .get(&field)
        .filter(|_| !crate::design::plan::tree::walks(c))
    {
        Some(Bson::Document(d)) => match d.get("$in") {
            Some(Bson::Document(p)) => match p.get("$param") {
                Some(Bson::String(name)) => name
                    .split('.')
                    .next()
                    .and_then(|head| b.full_counts.get(head))
                    .copied(),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    };
    let full = relationship_matches(ctx, c, q).map_or(0.0, |(n, _)| n);
    (full <= 0.0 && earlier.is_none_or(|n| n <= 0.0)).then_some(field)
}

/// Returns the shard routing of a command that is not sent: no shard reached.
fn unrouted(ctx: &Ctx, c: &Command, shown: &Command) -> ShardRouting {
    let mut shards = route(
        ctx.model,
        ctx.layout,
        &c.collection,
        c.kind,
        &shown.filter,
        None,
    );
    shards.touched = 0;
    shards
}

/// Returns a command that was not sent: no round trip, no figure, the reason.
fn not_sent(c: &Command, shown: &Command, shards: ShardRouting, why: String) -> CommandEval {
    CommandEval {
        step: c.step,
        collection: c.collection.clone(),
        kind: c.kind,
        note: c.note.clone(),
        mongosh: shown.mongosh(),
        queries: 0,
        lookups: 0,
        plan: String::new(),
        plan_tree: None,
        no_supporting_index: false,
        shards,
        sample: SampleStats::default(),
        full: Metrics::default(),
        fan_out: None,
        error: None,
        not_sent: Some(why),
    }
}

/// Runs one command and returns what it cost; `matched` says whether an update matched a
/// document (at full scale for a continuation room check, see [`super::room`]).
fn run_command(
    ctx: &Ctx,
    b: &mut Binder,
    target: &mut Target,
    c: &Command,
    q: f64,
    n: &mut u64,
    matched: &mut bool,
) -> CommandEval {
    let slotted;
    let c = if crate::design::plan::timeseries::writes_slot(c) {
        slotted = into_open_slot(target, b, c);
        &slotted
    } else {
        c
    };
    if let Some(r) = c.fan_out.as_deref().and_then(|x| ctx.model.relationship(x)) {
        // The mongosh shown is the first follower's.
        let f = follower_doc(ctx, target, c, r, 0);
        b.fresh.insert("follower".into(), f.into());
    }
    if let Some(f) = c.file.as_ref().filter(|_| c.kind != CommandKind::Insert) {
        super::files::bind_file_id(ctx, b, f);
    }
    let bulk = super::tree::is_bulk(c);
    if bulk {
        // The mongosh shown is the first moved node's.
        if let Some(first) = super::tree::moved(b).into_iter().next() {
            b.fresh.insert("each".into(), Bson::Document(first));
        }
    }
    let shown = bound(c, b);
    if let Some(field) = nothing_to_fetch(ctx, b, c, &shown, q) {
        let shards = unrouted(ctx, c, &shown);
        let why =
            format!("the {field} list is empty for this subject: nothing to fetch, no round trip");
        return not_sent(c, &shown, shards, why);
    }
    let mut fan_out = None;
    let mut extra_bytes = 0u64;
    let full_check = c.kind == CommandKind::Update
        && c.fan_out.is_none()
        && room::at_full_scale(ctx, c, q) == Some(false);
    let mut writes_routed = None;
    let result: engine::error::Result<engine::CommandResult> = match c.kind {
        CommandKind::Insert => {
            let (docs, fan, extra) = insert_documents(ctx, b, c, q, n);
            if is_continuation(ctx, c) {
                if let Some(d) = docs.first() {
                    b.fresh
                        .insert(CONTINUATION.into(), Bson::Document(d.clone()));
                }
            }
            extra_bytes = extra;
            if c.fan_out.is_some() {
                writes_routed = fan.as_ref().map(|f| f.full_scale);
            }
            fan_out = fan;
            target.run(
                &c.collection,
                engine::Command::Insert {
                    documents: docs,
                    ordered: true,
                },
            )
        }
        CommandKind::Update if c.fan_out.is_some() => {
            // One update per follower (one bulk write, one round trip).
            let r = c.fan_out.as_deref().and_then(|x| ctx.model.relationship(x));
            let followers = r.map_or(0, |r| r.cardinality.count_at(q));
            let real = followers.min(ctx.cap);
            let users = r
                .and_then(|r| ctx.model.entity(&r.child))
                .map_or(1, |e| ctx.model.sample.sample_count(e.count).max(1));
            let child = r.map(|r| r.child.clone()).unwrap_or_default();
            let mut acc = engine::CommandResult::default();
            let mut err = None;
            for i in 0..real {
                let f = match r {
                    Some(r) => follower_doc(ctx, target, c, r, i % users),
                    None => bson::doc! { "_id": entity_oid(ctx.model.seed, &child, i % users) },
                };
                b.fresh.insert("follower".into(), f.into());
                match target.run(&c.collection, to_engine(c, b)) {
                    Ok(r) => add(&mut acc, r),
                    Err(e) => {
                        err = Some(e);
                        break;
                    }
                }
            }
            fan_out = r.map(|r| FanOut {
                relationship: r.name.clone(),
                full_scale: followers,
                written: real,
                cap: ctx.cap,
                capped: real < followers,
            });
            writes_routed = Some(followers);
            match err {
                Some(e) => Err(e),
                None => Ok(acc),
            }
        }
        CommandKind::Update if bulk => {
            super::tree::bulk(b, |b| target.run(&c.collection, to_engine(c, b)))
        }
        CommandKind::Update if full_check => {
            // Full at full scale (the sample holds fewer elements): the update finds the
            // document by `_id` and matches nothing, as mongod does; the engine is asked for
            // the document to measure what the check examines.
            let find = FindCommand {
                filter: room::without_room(&shown.filter),
                limit: Some(1),
                ..Default::default()
            };
            target
                .run(&c.collection, engine::Command::Find(find))
                .map(|mut r| {
                    r.documents.clear();
                    r
                })
        }
        _ => {
            let r = target.run(&c.collection, to_engine(c, b));
            if let Ok(x) = &r {
                *matched = x.stats.write.n_matched > 0 || x.stats.write.n_upserted > 0;
            }
            r
        }
    };
    // A room check that has room at full scale matches, even where the sample does not hold
    // the document (the celebrity's last continuation document).
    let room_at_full = c.fan_out.is_none() && room::at_full_scale(ctx, c, q) == Some(true);
    if room_at_full {
        *matched = true;
    }
    let routing = route(
        ctx.model,
        ctx.layout,
        &c.collection,
        c.kind,
        &shown.filter,
        writes_routed,
    );
    let mut ce = CommandEval {
        step: c.step,
        collection: c.collection.clone(),
        kind: c.kind,
        note: c.note.clone(),
        mongosh: shown.mongosh(),
        queries: 1,
        lookups: 0,
        plan: String::new(),
        plan_tree: None,
        no_supporting_index: false,
        shards: routing,
        sample: SampleStats::default(),
        full: Metrics::default(),
        fan_out,
        error: None,
        not_sent: None,
    };
    let r = match result {
        Ok(r) => r,
        Err(e) => {
            ce.error = Some(e.to_string());
            return ce;
        }
    };
    if let Some(all) = b.returned.as_mut() {
        all.push((
            c.step,
            r.documents.iter().map(|d| d.document().clone()).collect(),
        ));
    }
    // Keep what later commands bind to.
    let mut kept = None;
    if c.kind == CommandKind::Find {
        let key = if c.note.contains(": links") || c.note.contains("links of those") {
            Some("links")
        } else if c.note.contains("children with that") {
            Some("children")
        } else if c.note.contains("buckets holding them") || c.note.ends_with(" buckets") {
            Some("buckets")
        } else if c.note.contains("my newest bucket") {
            Some("newest")
        } else if c.note.contains("the parent holding it") {
            Some("holder")
        } else if c.note.ends_with(HOLDERS) {
            Some("holders")
        } else if c.note.ends_with(CONTINUATION_DOCUMENTS) {
            Some(MORE)
        } else {
            None
        };
        let key = key
            .map(str::to_string)
            .or_else(|| crate::design::plan::tree::kept(&c.note));
        if let Some(k) = key {
            b.results.insert(k.clone(), r.documents.clone());
            kept = Some(k);
        }
    }
    let st = &r.stats;
    ce.lookups = st.lookups.len() as u64;
    ce.sample = SampleStats {
        n_returned: if c.kind == CommandKind::Insert {
            0
        } else {
            r.documents.len() as u64
        },
        keys_examined: st.exec.keys_examined
            + st.lookups.iter().map(|l| l.keys_examined).sum::<u64>(),
        docs_examined: st.exec.docs_examined
            + st.lookups.iter().map(|l| l.docs_examined).sum::<u64>(),
        bytes_returned: if c.kind == CommandKind::Insert {
            0
        } else {
            r.documents.iter().map(engine::Returned::size).sum()
        },
        docs_written: st.write.docs_written,
        bytes_written: st.write.bytes_written,
        index_keys_written: st.write.index_keys_written,
    };
    if let Some(p) = &r.plan {
        ce.plan = p.access();
        ce.plan_tree = Some(p.to_json());
    }
    let full_count = ctx
        .layout
        .collection(&c.collection)
        .map_or(0.0, |x| x.count());
    ce.no_supporting_index = ce.plan == "COLLSCAN" && full_count >= super::LARGE_COLLECTION;
    ce.full = full_metrics(ctx, c, &ce, &r, q, extra_bytes, shown.filter.get("_id"));
    if room_at_full && ce.full.docs_written.value == 0.0 {
        // The sample lacks the document the append writes: its full-scale figures.
        if let Some(bytes) = room::appended_bytes(ctx, c, q) {
            ce.full.docs_written = super::Figure::full(1.0);
            ce.full.bytes_written = super::Figure::full(bytes as f64);
            ce.full.keys_examined = super::Figure::full(1.0);
            ce.full.docs_examined = super::Figure::full(1.0);
        }
    }
    if full_check && ce.full.docs_examined.value == 0.0 {
        // The full document exists at full scale (the sample may not hold that continuation
        // document): the `_id` lookup examines its one key and document.
        ce.full.keys_examined = super::Figure::full(1.0);
        ce.full.docs_examined = super::Figure::full(1.0);
    }
    if let Some(f) = &c.file {
        super::files::count(ctx, c, f, q, &mut ce);
    }
    if let Some(k) = kept {
        b.full_counts.insert(k, ce.full.docs_returned.value);
    }
    // One document written whose full-scale size is over the limit: mongod refuses it (a
    // file's chunks are many documents of at most 261,182 bytes).
    let one = ce.sample.docs_written == 1 && c.fan_out.is_none() && c.file.is_none();
    if one && ce.full.bytes_written.value > crate::size::MAX_BSON_SIZE as f64 {
        let code = if c.kind == CommandKind::Insert {
            "BSONObjectTooLarge, code 10334"
        } else {
            "code 17419"
        };
        ce.error = Some(format!(
            "at full scale this writes a {} document, {} over the 16 MiB limit: mongod refuses it ({code})",
            crate::human::binary_size_f64(ce.full.bytes_written.value),
            crate::human::binary_size_f64(
                ce.full.bytes_written.value - crate::size::MAX_BSON_SIZE as f64
            )
        ));
    }
    ce
}
