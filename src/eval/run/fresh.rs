//! The fresh values a step binds before its commands run: the new child of an
//! `insert_child`, the posted item of a `post_feed`, the new parent of a `reassign`, the
//! sort value a range-paged `list` continues after, the node a tree step starts from.
//!
//! Apart from the run because they are drawn from the sample (its documents, its seed), not
//! from what the commands return.

use bson::{Bson, Document};

use crate::design::names::CONTINUATION_FIELD;
use crate::design::Strategy;
use crate::engine::Database;
use crate::eval::bind::Binder;
use crate::eval::run::Ctx;
use crate::generate::entity_oid;
use crate::model::{Model, Paging, Relationship, Sort, Step};

/// Returns the parent a `reassign` of `r` moves the subject child to: the sample's next parent
/// after the one holding the child, a parent indeed (not one of the continuation documents
/// that share the parents' collection, not a document of another type in a single
/// collection) and another one than the child's. The child's parent is its reference where it
/// keeps one, else the document listing it (or the parent whose chain that continuation
/// document belongs to).
pub(super) fn new_parent(ctx: &Ctx, b: &Binder, r: &Relationship) -> Option<Document> {
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
pub(in crate::eval) fn list_rows<'d>(
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
pub(super) fn last_seen(
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
pub(super) fn prepare_step(
    ctx: &Ctx,
    b: &mut Binder,
    step: Option<&Step>,
    n: &mut u64,
    db: &Database,
) {
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
        | Step::MoveSubtree { .. } => crate::eval::tree::prepare(ctx, b, step, n, db),
        _ => {}
    }
}
