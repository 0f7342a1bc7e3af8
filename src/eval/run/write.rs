//! The documents a write sends: what an insert creates (a new document of its shape, the
//! current step's child, a link, a continuation document, a feed item and its copies, one per
//! follower, capped), the follower a fan-out's update addresses, and the open bucket's slot a
//! time series measurement fills.

use bson::{Bson, Document};

use super::undo::Target;
use crate::design::names::{child_ref, relationship_collection_name};
use crate::design::{Command, Strategy};
use crate::engine::{self, FindCommand};
use crate::eval::bind::{bind_doc, Binder};
use crate::eval::run::Ctx;
use crate::eval::FanOut;
use crate::generate::entity_oid;
use crate::model::Relationship;

/// The shape fields of the documents an insert creates.
pub(super) fn shape_fields(ctx: &Ctx, c: &Command) -> crate::model::Fields {
    let coll = ctx.layout.collection(&c.collection);
    let label = c.insert_shape.clone().unwrap_or_default();
    coll.and_then(|x| x.shape(&label).or(x.shapes.first()))
        .map(|s| s.fields.clone())
        .unwrap_or_default()
}

/// The documents an insert writes (one per follower, capped, for a fan-out), and the
/// fan-out's figures.
pub(super) fn insert_documents(
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
pub(super) fn is_continuation(ctx: &Ctx, c: &Command) -> bool {
    continuation_of(ctx, c).is_some()
}

/// Returns the relationship whose continuation documents an insert creates.
pub(super) fn continuation_of<'a>(ctx: &'a Ctx, c: &Command) -> Option<&'a Relationship> {
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
pub(super) fn new_continuation(
    ctx: &Ctx,
    b: &Binder,
    c: &Command,
    n: &mut u64,
) -> Option<Document> {
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
pub(super) fn follower_doc(
    ctx: &Ctx,
    target: &mut Target,
    c: &Command,
    r: &Relationship,
    i: u64,
) -> Document {
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
pub(super) fn into_open_slot(target: &mut Target, b: &Binder, c: &Command) -> Command {
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

pub(super) fn relationship_coll(ctx: &Ctx, r: &Relationship) -> Option<String> {
    ctx.layout
        .strategy(&r.name)
        .map(|s| relationship_collection_name(r, s))
}
