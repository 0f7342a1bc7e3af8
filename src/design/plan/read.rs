//! `read`: one entity by a key field, with some of its children. Embedded children come with
//! the parent (sliced by a projection when limited); children elsewhere cost one more find
//! each (an application-level join), or, with `joins: lookup`, ride along in one `aggregate`
//! with an equality `$lookup` per child collection.
//!
//! The entity itself is read whole (the step reads the entity), unless it holds nothing but
//! the `_id` it is read by (then only its children are read); every find after it projects
//! to what the step uses, as an application would: the children's listed `fields` (their
//! `_id` comes along), the child ids of the links, the id arrays of continuation documents.

use bson::{doc, Bson, Document};

use super::insert_child::{CONTINUATION_DOCUMENTS, MORE};
use super::order::{self, Take};
use super::{param, project, Command, CommandKind::*, Commands, Placement};
use crate::design::names::{
    child_key, child_ref, parent_key, relationship_collection_name, CONTINUATION_FIELD,
};
use crate::model::design::{Joins, Strategy};
use crate::model::{ChildRead, Model, Relationship, Step};

/// Appends the commands of a `read` step.
pub(super) fn commands(p: &Placement, step: &Step, out: &mut Commands) {
    let Step::Read {
        entity,
        by,
        children,
        case_insensitive,
    } = step
    else {
        return;
    };
    let coll = p.collection_for(entity);
    let together = super::single::together(p, entity, by, &coll, children);
    let mut find = match together.first() {
        // The parent and its children in one query on the shared key.
        Some((_, key)) => out.command(
            &coll,
            Find,
            doc! { key.as_str(): param(format!("{entity}._id")) },
            format!(
                "read {entity} with its {} (single collection)",
                together
                    .iter()
                    .map(|(c, _)| c.relationship.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
        None => {
            let mut f = if *case_insensitive {
                super::collation::find(p, out, &coll, entity, by)
            } else {
                out.command(
                    &coll,
                    Find,
                    doc! { by.as_str(): param(format!("{entity}.{by}")) },
                    format!("read {entity} by {by}"),
                )
            };
            f.limit = Some(1);
            f
        }
    };
    let mut projection = Document::new();
    let mut later = Vec::new();
    for c in children {
        if together
            .iter()
            .any(|(t, _)| t.relationship == c.relationship)
        {
            continue;
        }
        child_commands(p, out, entity, &coll, c, &mut projection, &mut later);
    }
    if p.joins == Joins::Lookup && !later.is_empty() && projection.is_empty() {
        if let Some(stages) = lookup_stages(p.model, entity, &later) {
            let mut pipeline = vec![doc! { "$match": find.filter.clone() }, doc! { "$limit": 1 }];
            pipeline.extend(stages);
            // The filter is the `$match` (what the derived indexes serve).
            let mut a = out.command(
                &coll,
                Aggregate,
                find.filter.clone(),
                format!("read {entity} by {by} with its children ($lookup)"),
            );
            a.pipeline = pipeline;
            out.push(a);
            super::files::reads(p, out, entity);
            return;
        }
    }
    if !projection.is_empty() {
        find.projection = Some(projection);
    }
    // A read by `_id` of an entity that holds nothing but its `_id` (a time series' meta, a
    // page by its URL) returns only what the application already has: it reads the children.
    let nothing_but_id = by == "_id"
        && together.is_empty()
        && find.projection.is_none()
        && !later.is_empty()
        && p.model
            .entity(entity)
            .is_some_and(|e| e.fields.iter().all(|(n, _)| n == "_id"));
    if !nothing_but_id {
        out.push(find);
    }
    super::files::reads(p, out, entity);
    for c in later {
        out.push(c);
    }
}

/// Adds what reading the children `c` of `entity` (in collection `coll`) takes: a `$slice` of
/// an embedded array to `projection`, the finds after the parent's to `later`.
fn child_commands(
    p: &Placement,
    out: &Commands,
    entity: &str,
    coll: &str,
    c: &ChildRead,
    projection: &mut Document,
    later: &mut Vec<Command>,
) {
    let Some((r, s)) = p.relationship(&c.relationship) else {
        return;
    };
    let reads = ChildReads {
        p,
        out,
        entity,
        c,
        r,
        arr: r.array_field().to_string(),
        child_coll: p.collection_for(&r.child),
        sort: c.sort.as_ref().map(|s| doc! { s.field.as_str(): s.order }),
        pkey: parent_key(r, s),
        // The ids the parent keeps: its array itself, or the `_id` of each extended reference.
        ids: if matches!(s, Strategy::ExtendedReference { .. }) {
            format!("{entity}.{}._id", r.array_field())
        } else {
            format!("{entity}.{}", r.array_field())
        },
        ckey: child_key(r, s),
    };
    match s {
        Strategy::Embed => reads.embed(projection),
        Strategy::EmbedSubset { k } => reads.embed_subset(*k, projection, later),
        Strategy::ExtendedReference { copy } => reads.extended_reference(copy, projection, later),
        Strategy::ReferenceInParent | Strategy::TwoWay => {
            reads.references_in_parent(projection, later)
        }
        Strategy::ReferenceInChild { .. } => {
            later.push(reads.by_parent(format!("{}: children by parent reference", r.name)));
        }
        Strategy::LinkCollection => reads.link_collection(later),
        Strategy::Bucket { size } => reads.buckets(s, *size, later),
        Strategy::TimeSeries { .. } => later.push(super::timeseries::read(p, out, r, entity, c)),
        Strategy::SingleCollection => {
            later.push(reads.sorted_and_limited(super::single::children(
                out,
                r,
                entity,
                &reads.child_coll,
            )));
        }
        Strategy::Continuation { threshold } => {
            reads.continuation(coll, *threshold, projection, later)
        }
        _ => {}
    }
}

/// The read of the children `c` of `entity` through relationship `r`: what every strategy's
/// finds share (the child collection, the sort, the keys on each side), and one method per
/// strategy that adds its slice or finds.
struct ChildReads<'a> {
    p: &'a Placement<'a>,
    out: &'a Commands,
    entity: &'a str,
    c: &'a ChildRead,
    r: &'a Relationship,
    /// The parent's array field of the children.
    arr: String,
    /// The children's collection.
    child_coll: String,
    /// The read's sort of the children, as a find's `sort`.
    sort: Option<Document>,
    /// The parent's value a child's reference holds: its `_id`, or its key (`parent_key`).
    pkey: &'a str,
    /// The parameter of the ids the parent keeps.
    ids: String,
    /// The children's field the parent's array holds: `_id`, or their key (`child_key`).
    ckey: &'a str,
}

impl ChildReads<'_> {
    /// Returns a find of the children with the read's sort and limit, returning the fields the
    /// step lists (all when it lists none).
    fn sorted_and_limited(&self, mut f: Command) -> Command {
        f.sort = self.sort.clone();
        f.limit = self.c.limit;
        f.projection = project(&self.c.fields, "");
        f
    }

    /// Returns the find of the children by their reference to the parent.
    fn by_parent(&self, note: String) -> Command {
        let (r, entity, pkey) = (self.r, self.entity, self.pkey);
        self.sorted_and_limited(self.out.command(
            &self.child_coll,
            Find,
            doc! { r.parent_ref(): param(format!("{entity}.{pkey}")) },
            note,
        ))
    }

    /// Returns the find of the children by the ids the parent keeps.
    fn by_ids(&self, note: String) -> Command {
        self.sorted_and_limited(self.out.command(
            &self.child_coll,
            Find,
            doc! { self.ckey: { "$in": param(self.ids.clone()) } },
            note,
        ))
    }

    /// Slices the parent's array to the read's limit, if any.
    fn slice(&self, projection: &mut Document) {
        if let Some(l) = self.c.limit {
            projection.insert(self.arr.clone(), doc! { "$slice": l as i64 });
        }
    }

    /// `embed`: the array is kept in the order of the workload's sorted read (`order`): its
    /// front or back holds the newest or oldest N. A map (the `map` pattern) has no order and
    /// no `$slice`: read whole.
    fn embed(&self, projection: &mut Document) {
        let (p, r, c) = (self.p, self.r, self.c);
        let map = crate::design::shape::holds_map(p.collections, r);
        if let Some(l) = c.limit.filter(|_| !map) {
            let kept = order::kept(p.model, &r.name);
            order::project(
                projection,
                &self.arr,
                order::take(kept.as_ref(), c.sort.as_ref(), l),
            );
        }
    }

    /// `embedSubset`: the subset is the first k in its kept order: it holds the read's N only
    /// when they are the first N in that same order.
    fn embed_subset(&self, k: u64, projection: &mut Document, later: &mut Vec<Command>) {
        let (p, r, c) = (self.p, self.r, self.c);
        let kept = order::kept(p.model, &r.name);
        match c
            .limit
            .map(|l| order::take(kept.as_ref(), c.sort.as_ref(), l))
        {
            Some(Take::Front(l)) if l <= k => order::project(projection, &self.arr, Take::Front(l)),
            _ => later.push(self.by_parent(format!("{}: beyond the newest {k}", r.name))),
        }
    }

    /// `extendedReference`: the copies in the parent are kept in the read's order when its
    /// sort field is copied (`order::kept_copy`), so a slice holds the N asked for; otherwise
    /// the whole array, and the children sorted and limited by their own collection.
    fn extended_reference(
        &self,
        copy: &[String],
        projection: &mut Document,
        later: &mut Vec<Command>,
    ) {
        let (p, r, c) = (self.p, self.r, self.c);
        let kept = order::kept_copy(p.model, &r.name, copy);
        let take = c
            .limit
            .map(|l| order::take(kept.as_ref(), c.sort.as_ref(), l));
        if let Some(t) = take {
            order::project(projection, &self.arr, t);
        }
        let sorted_by_copy = c
            .sort
            .as_ref()
            .is_none_or(|s| s.field == "_id" || copy.contains(&s.field));
        let covered = !c.fields.is_empty()
            && c.fields.iter().all(|f| f == "_id" || copy.contains(f))
            && sorted_by_copy;
        if !covered {
            later.push(self.by_ids(format!("{}: fields not copied into the parent", r.name)));
        }
    }

    /// `referenceInParent` and `twoWay`: ids keep insertion order, not the read's: a sorted
    /// read takes every id and lets the children's collection sort and limit them. An array of
    /// keys answers no read of `_id`s.
    fn references_in_parent(&self, projection: &mut Document, later: &mut Vec<Command>) {
        let c = self.c;
        if c.sort.is_none() {
            self.slice(projection);
        }
        if c.sort.is_some() || !ids_only(&c.fields) || self.ckey != "_id" {
            later.push(self.by_ids(format!("{}: application-level join", self.r.name)));
        }
    }

    /// `linkCollection`: the links of the parent, then the children they name unless their
    /// ids are all the read asks for.
    fn link_collection(&self, later: &mut Vec<Command>) {
        let (r, c, entity) = (self.r, self.c, self.entity);
        let mut l = self.out.command(
            &r.name,
            Find,
            doc! { r.parent_ref(): param(format!("{entity}._id")) },
            format!("{}: links", r.name),
        );
        // The links keep no order of the children's: a sorted read takes every link and
        // lets the children's collection sort and limit.
        if c.sort.is_none() {
            l.limit = c.limit;
        }
        // What the next find (or the step) uses of a link: the child's id.
        l.projection = Some(doc! { child_ref(r): 1, "_id": 0 });
        later.push(l);
        if c.sort.is_some() || !ids_only(&c.fields) {
            let cref = child_ref(r);
            later.push(self.sorted_and_limited(self.out.command(
                &self.child_coll,
                Find,
                doc! { "_id": { "$in": param(format!("links.{cref}")) } },
                format!("{}: children of the links", r.name),
            )));
        }
    }

    /// `bucket` (strategy `s`, `size` children a bucket): buckets fill in insertion order,
    /// numbered by `sequence`: the oldest children are in the lowest, the newest in the
    /// highest. A read sorted by arrival time takes the oldest or newest buckets alone
    /// (`order::bucket_order_serves`), an unsorted read any of them; any other sorted read, or
    /// a read of every child, takes every bucket.
    fn buckets(&self, s: &Strategy, size: u64, later: &mut Vec<Command>) {
        let (p, r, c, entity, arr) = (self.p, self.r, self.c, self.entity, &self.arr);
        let ascending = c.sort.as_ref().is_some_and(|s| s.order > 0);
        let some = c.limit.filter(|_| {
            c.sort.is_none() || order::bucket_order_serves(p.model, r, c.sort.as_ref())
        });
        let mut f = self.out.command(
            &relationship_collection_name(r, s),
            Find,
            doc! { r.parent_ref(): param(format!("{entity}._id")) },
            format!(
                "{}: {} buckets",
                r.name,
                match (some, ascending) {
                    (None, _) => "every",
                    (Some(_), true) => "oldest",
                    (Some(_), false) => "newest",
                }
            ),
        );
        f.sort = Some(doc! { "sequence": if ascending { 1 } else { -1 } });
        f.limit = some.map(|l| l.div_ceil(size).max(1).saturating_add(1));
        if r.many_to_many {
            // The buckets hold the children's ids: those, then the children themselves
            // unless the ids are all the read asks for.
            f.projection = Some(doc! { arr.as_str(): 1, "_id": 0 });
            later.push(f);
            if !ids_only(&c.fields) {
                later.push(self.sorted_and_limited(self.out.command(
                    &self.child_coll,
                    Find,
                    doc! { "_id": { "$in": param(format!("buckets.{arr}")) } },
                    format!("{}: children of those buckets", r.name),
                )));
            }
        } else {
            // The listed fields of the children in the bucket's array.
            f.projection = project(&c.fields, &format!("{arr}."));
            later.push(f);
        }
    }

    /// `continuation` (in the parent's collection `coll`): the parent holds the first
    /// `threshold` ids, its continuation documents the rest, in insertion order. Any N
    /// unsorted children within the threshold are the parent's first N; a sorted read, or one
    /// of more, takes the whole chain.
    fn continuation(
        &self,
        coll: &str,
        threshold: u64,
        projection: &mut Document,
        later: &mut Vec<Command>,
    ) {
        let (r, c, entity, arr) = (self.r, self.c, self.entity, &self.arr);
        let chain = c.sort.is_some() || c.limit.is_none_or(|l| l > threshold);
        if !chain {
            self.slice(projection);
            if !ids_only(&c.fields) {
                later.push(self.by_ids(format!("{}: application-level join", r.name)));
            }
            return;
        }
        // A continuation document holds the rest of the array: the ids (its `_id`
        // comes along, as a find returns it).
        let mut more = self.out.command(
            coll,
            Find,
            doc! { "_id": { "$in": param(format!("{entity}.tbc")) } },
            format!("{}: {CONTINUATION_DOCUMENTS}", r.name),
        );
        more.projection = Some(doc! { arr.as_str(): 1 });
        later.push(more);
        if c.sort.is_some() || !ids_only(&c.fields) {
            // The children of every id of the chain, sorted and limited by their own
            // collection (what the application asks after concatenating the arrays).
            later.push(self.sorted_and_limited(self.out.command(
                &self.child_coll,
                Find,
                doc! { "_id": { "$in": param(format!("{entity}.{arr}.concat({MORE}.{arr})")) } },
                format!("{}: application-level join", r.name),
            )));
        }
    }
}

/// Returns true when a child read needs nothing but the children's ids (`fields: ["_id"]`),
/// which references already hold.
fn ids_only(fields: &[String]) -> bool {
    !fields.is_empty() && fields.iter().all(|f| f == "_id")
}

/// Returns the application-level joins of a read (`later`, the finds after the parent's) as
/// equality `$lookup` stages, or `None` when one of them sorts or limits (which an equality
/// `$lookup` cannot) or has a shape this does not know. A projection of the joined children is
/// not carried over: the engine's `$lookup` takes no `pipeline`, so the joined children come
/// whole.
fn lookup_stages(model: &Model, entity: &str, later: &[Command]) -> Option<Vec<Document>> {
    let mut stages = Vec::new();
    for c in later {
        if c.sort.is_some() || c.limit.is_some() || c.kind != Find {
            return None;
        }
        let r = model.relationship(c.note.split(':').next().unwrap_or_default())?;
        let arr = r.array_field();
        let (key, value) = c.filter.iter().next().filter(|_| c.filter.len() == 1)?;
        let name = |v: &Bson| -> Option<String> {
            match v {
                Bson::Document(d) => match d.get("$param") {
                    Some(Bson::String(s)) => Some(s.clone()),
                    _ => None,
                },
                _ => None,
            }
        };
        let links_as = format!("{arr}_links");
        let (local, foreign, as_field) = match value {
            Bson::Document(d) if d.contains_key("$in") => {
                let p = name(d.get("$in")?)?;
                if p.contains(".concat(") {
                    // A continuation chain's ids: no one field holds them all.
                    return None;
                }
                let local = if let Some(field) = p.strip_prefix(&format!("{entity}.")) {
                    field.to_string()
                } else if let Some(field) = p.strip_prefix("links.") {
                    format!("{links_as}.{field}")
                } else {
                    return None;
                };
                let as_field = if local == CONTINUATION_FIELD {
                    CONTINUATION_FIELD.to_string()
                } else {
                    arr.to_string()
                };
                (local, key.clone(), as_field)
            }
            v => {
                // The parent's `_id`, or the key its children's references hold.
                let p = name(v)?;
                let local = p.strip_prefix(&format!("{entity}."))?.to_string();
                let as_field = if c.collection == r.name {
                    links_as.clone()
                } else {
                    arr.to_string()
                };
                (local, key.clone(), as_field)
            }
        };
        stages.push(doc! { "$lookup": { "from": c.collection.clone(), "localField": local, "foreignField": foreign, "as": as_field } });
    }
    Some(stages)
}
