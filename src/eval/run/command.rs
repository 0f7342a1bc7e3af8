//! Running one command of a plan on the engine and measuring it: bound to the subject's
//! values, skipped when the application would not send it (nothing to fetch), run (a fan-out
//! as one update per follower, a bulk tree move, a full-at-full-scale room check), its
//! results kept for the commands after it, its sample figures scaled to full scale
//! ([`crate::eval::scale`]), and refused where mongod refuses a document over 16 MiB.

use bson::Bson;

use super::undo::Target;
use super::write::{follower_doc, insert_documents, into_open_slot, is_continuation};
use crate::design::plan::{CONTINUATION, CONTINUATION_DOCUMENTS, HOLDERS, MORE};
use crate::design::{Command, CommandKind};
use crate::engine::{self, FindCommand, UpdateCommand};
use crate::eval::bind::{bind_doc, Binder};
use crate::eval::room;
use crate::eval::run::Ctx;
use crate::eval::scale::{full_metrics, relationship_matches};
use crate::eval::shards::{route, ShardRouting};
use crate::eval::{CommandEval, FanOut, Metrics, SampleStats};
use crate::generate::entity_oid;

pub(super) fn to_engine(c: &Command, b: &Binder) -> engine::Command {
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
pub(super) fn bound(c: &Command, b: &Binder) -> Command {
    let mut out = c.clone();
    out.filter = bind_doc(&c.filter, b);
    out.update = c.update.as_ref().map(|u| bind_doc(u, b));
    out.array_filters = c.array_filters.iter().map(|d| bind_doc(d, b)).collect();
    out.pipeline = c.pipeline.iter().map(|d| bind_doc(d, b)).collect();
    out
}

pub(in crate::eval) fn add(a: &mut engine::CommandResult, r: engine::CommandResult) {
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

/// Returns the field whose `$in` list bound to nothing, when a find can match nothing for this
/// subject and so is not sent (`{_id: {$in: user.tbc}}` for a user without continuation
/// documents): a top-level `{field: {$in: []}}` (an `$and` of the filter's fields) whose
/// full-scale count, when the arithmetic knows one, is 0 too. A list empty only because the
/// sample is small (the links of a child the sample links to no parent, while at full scale it
/// has hundreds) keeps the command: the full-scale figures say what it fetches.
pub(super) fn nothing_to_fetch(
    ctx: &Ctx,
    b: &Binder,
    c: &Command,
    shown: &Command,
    q: f64,
) -> Option<String> {
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
pub(super) fn unrouted(ctx: &Ctx, c: &Command, shown: &Command) -> ShardRouting {
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
pub(super) fn not_sent(
    c: &Command,
    shown: &Command,
    shards: ShardRouting,
    why: String,
) -> CommandEval {
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
/// document (at full scale for a continuation room check, see [`crate::eval::room`]).
pub(super) fn run_command(
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
    let bulk = bind_first(ctx, b, target, c);
    let shown = bound(c, b);
    if let Some(field) = nothing_to_fetch(ctx, b, c, &shown, q) {
        let shards = unrouted(ctx, c, &shown);
        let why =
            format!("the {field} list is empty for this subject: nothing to fetch, no round trip");
        return not_sent(c, &shown, shards, why);
    }
    let full_check = c.kind == CommandKind::Update
        && c.fan_out.is_none()
        && room::at_full_scale(ctx, c, q) == Some(false);
    let sent = send(ctx, b, target, c, q, n, matched, bulk, full_check, &shown);
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
        sent.writes_routed,
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
        fan_out: sent.fan_out,
        error: None,
        not_sent: None,
    };
    let r = match sent.result {
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
        if let Some(k) = kept_as(c) {
            b.results.insert(k.clone(), r.documents.clone());
            kept = Some(k);
        }
    }
    ce.lookups = r.stats.lookups.len() as u64;
    ce.sample = sample_stats(c, &r);
    if let Some(p) = &r.plan {
        ce.plan = p.access();
        ce.plan_tree = Some(p.to_json());
    }
    let full_count = ctx
        .layout
        .collection(&c.collection)
        .map_or(0.0, |x| x.count());
    ce.no_supporting_index = ce.plan == "COLLSCAN" && full_count >= crate::eval::LARGE_COLLECTION;
    ce.full = full_metrics(
        ctx,
        c,
        &ce,
        &r,
        q,
        sent.extra_bytes,
        shown.filter.get("_id"),
    );
    room_figures(ctx, c, q, room_at_full, full_check, &mut ce);
    if let Some(f) = &c.file {
        crate::eval::files::count(ctx, c, f, q, &mut ce);
    }
    if let Some(k) = kept {
        b.full_counts.insert(k, ce.full.docs_returned.value);
    }
    refuse_too_large(c, &mut ce);
    ce
}

/// Binds what a command's mongosh shows of a fan-out, a file or a bulk tree move: the first
/// follower, the file's id, the first moved node. Returns whether the command is a bulk move.
fn bind_first(ctx: &Ctx, b: &mut Binder, target: &mut Target, c: &Command) -> bool {
    if let Some(r) = c.fan_out.as_deref().and_then(|x| ctx.model.relationship(x)) {
        // The mongosh shown is the first follower's.
        let f = follower_doc(ctx, target, c, r, 0);
        b.fresh.insert("follower".into(), f.into());
    }
    if let Some(f) = c.file.as_ref().filter(|_| c.kind != CommandKind::Insert) {
        crate::eval::files::bind_file_id(ctx, b, f);
    }
    let bulk = crate::eval::tree::is_bulk(c);
    if bulk {
        // The mongosh shown is the first moved node's.
        if let Some(first) = crate::eval::tree::moved(b).into_iter().next() {
            b.fresh.insert("each".into(), Bson::Document(first));
        }
    }
    bulk
}

/// What sending a command gave: the engine's result, the fan-out's figures, the bytes to add
/// arithmetically (the recipients a capped fan-out on read left out), the writes a fan-out
/// routes at full scale.
struct Sent {
    result: engine::error::Result<engine::CommandResult>,
    fan_out: Option<FanOut>,
    extra_bytes: u64,
    writes_routed: Option<u64>,
}

/// Sends a command to the engine as its kind asks: an insert of the documents it writes, an
/// update per follower for a fan-out, a bulk tree move, the find of a room check that is full
/// at full scale, else the command itself (`matched`: whether an update matched).
#[allow(clippy::too_many_arguments)]
fn send(
    ctx: &Ctx,
    b: &mut Binder,
    target: &mut Target,
    c: &Command,
    q: f64,
    n: &mut u64,
    matched: &mut bool,
    bulk: bool,
    full_check: bool,
    shown: &Command,
) -> Sent {
    let mut fan_out = None;
    let mut extra_bytes = 0u64;
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
            let (result, fan, routed) = update_each_follower(ctx, b, target, c, q);
            fan_out = fan;
            writes_routed = Some(routed);
            result
        }
        CommandKind::Update if bulk => {
            crate::eval::tree::bulk(b, |b| target.run(&c.collection, to_engine(c, b)))
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
    Sent {
        result,
        fan_out,
        extra_bytes,
        writes_routed,
    }
}

/// Sends a fan-out's update once per follower (one bulk write, one round trip), capped;
/// returns the summed result, the fan-out's figures and the followers at full scale.
fn update_each_follower(
    ctx: &Ctx,
    b: &mut Binder,
    target: &mut Target,
    c: &Command,
    q: f64,
) -> (
    engine::error::Result<engine::CommandResult>,
    Option<FanOut>,
    u64,
) {
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
    let fan_out = r.map(|r| FanOut {
        relationship: r.name.clone(),
        full_scale: followers,
        written: real,
        cap: ctx.cap,
        capped: real < followers,
    });
    let result = match err {
        Some(e) => Err(e),
        None => Ok(acc),
    };
    (result, fan_out, followers)
}

/// Returns the name later commands bind a find's results by (`links`, `children`,
/// `buckets`…), read from the command's note, or `None` when nothing binds them.
fn kept_as(c: &Command) -> Option<String> {
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
    key.map(str::to_string)
        .or_else(|| crate::design::plan::tree::kept(&c.note))
}

/// Returns the sample figures of a command's result (an insert returns nothing).
fn sample_stats(c: &Command, r: &engine::CommandResult) -> SampleStats {
    let st = &r.stats;
    SampleStats {
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
    }
}

/// Puts the full-scale figures of a room check where the sample lacks the document: an
/// append with room at full scale (`room_at_full`) writes the document the sample lacks, a
/// check full at full scale (`full_check`) examines its one key and document.
fn room_figures(
    ctx: &Ctx,
    c: &Command,
    q: f64,
    room_at_full: bool,
    full_check: bool,
    ce: &mut CommandEval,
) {
    if room_at_full && ce.full.docs_written.value == 0.0 {
        // The sample lacks the document the append writes: its full-scale figures.
        if let Some(bytes) = room::appended_bytes(ctx, c, q) {
            ce.full.docs_written = crate::eval::Figure::full(1.0);
            ce.full.bytes_written = crate::eval::Figure::full(bytes as f64);
            ce.full.keys_examined = crate::eval::Figure::full(1.0);
            ce.full.docs_examined = crate::eval::Figure::full(1.0);
        }
    }
    if full_check && ce.full.docs_examined.value == 0.0 {
        // The full document exists at full scale (the sample may not hold that continuation
        // document): the `_id` lookup examines its one key and document.
        ce.full.keys_examined = crate::eval::Figure::full(1.0);
        ce.full.docs_examined = crate::eval::Figure::full(1.0);
    }
}

/// Makes a write of one document over 16 MiB at full scale the error mongod gives.
fn refuse_too_large(c: &Command, ce: &mut CommandEval) {
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
}
