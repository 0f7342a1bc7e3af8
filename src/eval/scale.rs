//! From sample to full scale: what the engine measured on the materialized sample, turned
//! into full-scale figures with their basis (children counted from the cardinality at the
//! subject's quantile, collection scans from the full-scale count, cut arrays given back their
//! bytes, the rest scaled and labelled an estimate).

use bson::{Bson, Document};

use super::run::Ctx;
use super::{Basis, CommandEval, Figure, Metrics};
use crate::design::names::{child_ref, relationship_collection_name};
use crate::design::{Command, CommandKind, Strategy};
use crate::engine;
use crate::size::document_size;

/// Returns the full-scale number of documents a filter `{parentRef: P._id}` matches: the
/// children of the subject parent at its quantile (buckets: ⌈children / size⌉). A list of a
/// child entity by its parent reference (`{threadId: image.threadId}`) matches the same
/// children.
///
/// A search for the parents of a child (`{followers: {$in: children._id}}`, the links of a
/// child, the parents those links name) matches the child's parents: the relationship's
/// `parents_per_child` at the subject's quantile when the model states it, else on average
/// mean(children per parent) × parents ÷ children of them, an estimate.
pub(super) fn relationship_matches(ctx: &Ctx, cmd: &Command, q: f64) -> Option<(f64, Basis)> {
    let (k, v) = cmd.filter.iter().next()?;
    let Bson::Document(p) = v else { return None };
    if let Some(Bson::Document(inner)) = p.get("$in") {
        if let Some(Bson::String(name)) = inner.get("$param") {
            return continuation_matches(ctx, cmd, q, k, name)
                .or_else(|| linked_children(ctx, cmd, q, k, name))
                .or_else(|| referenced_children(ctx, cmd, q, k, name))
                .or_else(|| parent_matches(ctx, cmd, q, k, name));
        }
    }
    let Some(Bson::String(name)) = p.get("$param") else {
        return None;
    };
    if let Some(hit) = parent_matches(ctx, cmd, q, k, name) {
        return Some(hit);
    }
    let parent = name.strip_suffix("._id");
    for r in ctx.model.relationships.iter().filter(|r| match parent {
        Some(p) => r.parent == p,
        None => *name == format!("{}.{}", r.child, r.parent_ref()),
    }) {
        let Some(s) = ctx.layout.strategy(&r.name) else {
            continue;
        };
        let time_series = matches!(s, Strategy::TimeSeries { .. });
        if &r.parent_ref() != k && !(time_series && k == crate::design::names::META) {
            continue;
        }
        let card = r.cardinality.count_at(q) as f64;
        let child_coll = ctx.layout.collection_name(&r.child);
        match s {
            Strategy::Bucket { size } if cmd.collection == relationship_collection_name(r, s) => {
                return Some(((card / *size as f64).ceil(), Basis::FullScale));
            }
            Strategy::TimeSeries { .. } if cmd.collection == relationship_collection_name(r, s) => {
                // An insert goes to the one open bucket, which the server's bucket catalog
                // holds; a read matches every bucket of its meta.
                if cmd.kind == CommandKind::Update {
                    return Some((1.0_f64.min(card), Basis::FullScale));
                }
                let n = crate::design::shape::bucket_capacity(&ctx.layout.collections, r)
                    .unwrap_or(1)
                    .max(1);
                return Some(((card / n as f64).ceil(), Basis::FullScale));
            }
            Strategy::LinkCollection if cmd.collection == r.name => {
                return Some((card, Basis::FullScale));
            }
            // The shared key matches the parent too, unless the type picks the children.
            Strategy::SingleCollection if cmd.collection == child_coll => {
                let parent = !cmd.filter.contains_key(crate::design::names::TYPE_FIELD);
                return Some((card + f64::from(u8::from(parent)), Basis::FullScale));
            }
            _ if cmd.collection == child_coll => return Some((card, Basis::FullScale)),
            _ => {}
        }
    }
    None
}

/// The continuation documents `{_id: {$in: parent.tbc}}` matches: the subject parent keeps
/// `threshold` children and each continuation document as many, so ⌈children ÷ threshold⌉ − 1
/// of them (exact: the sample holds only some of the celebrity's).
fn continuation_matches(
    ctx: &Ctx,
    cmd: &Command,
    q: f64,
    key: &str,
    param: &str,
) -> Option<(f64, Basis)> {
    if key != "_id" {
        return None;
    }
    let entity = param.strip_suffix(".tbc")?;
    ctx.model
        .relationships
        .iter()
        .filter(|r| r.parent == entity)
        .find_map(|r| match ctx.layout.strategy(&r.name) {
            Some(Strategy::Continuation { threshold }) if *threshold > 0 => {
                let pcoll = ctx.layout.collection_name(&r.parent);
                if cmd.collection != pcoll {
                    return None;
                }
                let card = r.cardinality.count_at(q);
                let docs = card.div_ceil(*threshold).saturating_sub(1);
                Some((docs as f64, Basis::FullScale))
            }
            _ => None,
        })
}

/// The children `{_id: {$in: links.partId}}` matches after the links of the subject parent
/// (a link collection): one per link, the children of the parent at its quantile (exact, as the
/// links themselves; a small sample may hold none of the largest parent's links).
fn linked_children(
    ctx: &Ctx,
    cmd: &Command,
    q: f64,
    key: &str,
    param: &str,
) -> Option<(f64, Basis)> {
    if key != "_id" {
        return None;
    }
    let field = param.strip_prefix("links.")?;
    children_at(ctx, cmd, q, |r| {
        matches!(ctx.layout.strategy(&r.name), Some(Strategy::LinkCollection))
            && field == child_ref(r)
    })
}

/// The children at quantile `q` of the subject parent of the first relationship `holds`
/// accepts whose children live in the command's collection (exact: the cardinality at full
/// scale).
fn children_at(
    ctx: &Ctx,
    cmd: &Command,
    q: f64,
    holds: impl Fn(&crate::model::Relationship) -> bool,
) -> Option<(f64, Basis)> {
    ctx.model
        .relationships
        .iter()
        .find(|r| {
            holds(r)
                && ctx
                    .layout
                    .collection_of(&r.child)
                    .is_some_and(|x| x.name == cmd.collection)
        })
        .map(|r| (r.cardinality.count_at(q) as f64, Basis::FullScale))
}

/// The children `{_id: {$in: user.followers}}` matches (an application-level join of the ids a
/// parent keeps, `user.followers.concat(more.followers)` for a continuation chain): every child
/// of the subject parent at its quantile (exact: the sample may hold fewer of the largest
/// parent's ids than it has at full scale).
fn referenced_children(
    ctx: &Ctx,
    cmd: &Command,
    q: f64,
    key: &str,
    param: &str,
) -> Option<(f64, Basis)> {
    if key != "_id" {
        return None;
    }
    let first = param.split(".concat(").next()?;
    let first = first.strip_suffix("._id").unwrap_or(first);
    let (entity, field) = first.split_once('.')?;
    children_at(ctx, cmd, q, |r| {
        r.parent == entity
            && r.array_field() == field
            && matches!(
                ctx.layout.strategy(&r.name),
                Some(
                    Strategy::ReferenceInParent
                        | Strategy::TwoWay
                        | Strategy::Continuation { .. }
                        | Strategy::ExtendedReference { .. }
                )
            )
    })
}

/// The parents of one child (at quantile `q`) that a search by `key` in `{key: {$in: param}}`
/// matches (see [`relationship_matches`]): exactly 1 for a one-to-many relationship.
fn parent_matches(
    ctx: &Ctx,
    cmd: &Command,
    q: f64,
    key: &str,
    param: &str,
) -> Option<(f64, Basis)> {
    for r in &ctx.model.relationships {
        let Some(s) = ctx.layout.strategy(&r.name) else {
            continue;
        };
        let pcoll = ctx.layout.collection_name(&r.parent);
        let arr = r.array_field();
        let own_id = format!("{}._id", r.child);
        let hit = match param {
            p if p == own_id => {
                cmd.collection == pcoll && (key == arr || key == format!("{arr}._id"))
            }
            "children._id" if cmd.collection == pcoll => key == arr || key == format!("{arr}._id"),
            "children._id" => cmd.collection == r.name && key == child_ref(r),
            other => {
                cmd.collection == pcoll
                    && key == "_id"
                    && match s {
                        Strategy::LinkCollection => other == format!("links.{}", r.parent_ref()),
                        Strategy::ReferenceInChild { .. }
                        | Strategy::TwoWay
                        | Strategy::SingleCollection
                        | Strategy::EmbedSubset { .. } => {
                            other == format!("children.{}", r.parent_ref())
                        }
                        _ => false,
                    }
            }
        };
        let continuation_parents = matches!(s, Strategy::Continuation { .. })
            && param == "holders._id"
            && cmd.collection == pcoll
            && key == "tbc";
        if !hit && !continuation_parents {
            continue;
        }
        // The parents listing, in `tbc`, the continuation documents that hold a child: as
        // many as the child's parents whose copy of it lies past the parent's `threshold`.
        let share = match s {
            Strategy::Continuation { threshold } if continuation_parents => {
                let parents = ctx.model.entity(&r.parent).map_or(0.0, |e| e.count);
                continuation_share(r, *threshold as f64, parents)
            }
            _ => 1.0,
        };
        if continuation_parents {
            let per_child = if r.many_to_many {
                r.parents_per_child
                    .as_ref()
                    .map(|d| d.count_at(q) as f64)
                    .unwrap_or_else(|| {
                        let parents = ctx.model.entity(&r.parent).map_or(0.0, |e| e.count);
                        let children = ctx.model.entity(&r.child).map_or(0.0, |e| e.count);
                        r.mean_parents_per_child(parents, children.max(1.0)).round()
                    })
            } else {
                1.0
            };
            return Some(((per_child * share).ceil(), Basis::Estimate));
        }
        if !r.many_to_many {
            // One-to-many: a child has exactly one parent.
            return Some((1.0, Basis::FullScale));
        }
        if let Some(d) = &r.parents_per_child {
            // The model states the other side: the subject child's own count.
            return Some((d.count_at(q) as f64, Basis::FullScale));
        }
        let parents = ctx.model.entity(&r.parent).map_or(0.0, |e| e.count);
        let children = ctx.model.entity(&r.child).map_or(0.0, |e| e.count);
        if children <= 0.0 {
            return None;
        }
        let per_child = r.mean_parents_per_child(parents, children).round();
        return Some((per_child, Basis::Estimate));
    }
    None
}

/// Returns the share of a relationship's child ids that lie in continuation documents when
/// each parent keeps `threshold` of them: Σ max(0, n − threshold) ÷ Σ n over the `parents`,
/// every one at its quantile of the cardinality (200 evenly spaced quantiles) but the largest,
/// which has exactly `max` (social-graph's celebrity holds half of all the links past its
/// threshold).
fn continuation_share(r: &crate::model::Relationship, threshold: f64, parents: f64) -> f64 {
    let (mut past, mut all) = (0.0, 0.0);
    for i in 0..200 {
        let n = r.cardinality.count_at((f64::from(i) + 0.5) / 200.0) as f64;
        past += (n - threshold).max(0.0);
        all += n;
    }
    let others = (parents - 1.0).max(0.0) / 200.0;
    let max = r.cardinality.max();
    let past = past * others + (max - threshold).max(0.0);
    let all = all * others + max;
    if all > 0.0 {
        past / all
    } else {
        0.0
    }
}

/// Turns the sample measurements into full-scale figures.
pub(super) fn full_metrics(
    ctx: &Ctx,
    c: &Command,
    ce: &CommandEval,
    r: &engine::CommandResult,
    q: f64,
    extra_bytes: u64,
    bound_id: Option<&Bson>,
) -> Metrics {
    let full_count = ctx
        .layout
        .collection(&c.collection)
        .map_or(0.0, |x| x.count());
    let s = &ce.sample;
    let sample_n = ctx
        .data
        .collection(&c.collection)
        .map_or(0, |g| g.documents.len()) as f64;
    let ratio = if sample_n > 0.0 {
        (full_count / sample_n).max(1.0)
    } else {
        1.0
    };
    let limit = c.limit.map(|l| l as f64);
    let scaling = Scaling {
        ctx,
        c,
        ce,
        full_count,
        ratio,
        limit,
        sorted_in_memory: r.plan.as_ref().is_some_and(|p| p.contains("SORT")),
        limit_hit: limit.is_some_and(|l| s.n_returned as f64 >= l),
        matches: relationship_matches(ctx, c, q),
    };
    let mut m = Metrics {
        docs_examined: Figure::sample(s.docs_examined as f64),
        keys_examined: Figure::sample(s.keys_examined as f64),
        docs_returned: Figure::sample(s.n_returned as f64),
        bytes_returned: Figure::sample(s.bytes_returned as f64),
        docs_written: Figure::sample(s.docs_written as f64),
        bytes_written: Figure::sample((s.bytes_written + extra_bytes) as f64),
        index_keys_written: Figure::sample(s.index_keys_written as f64),
    };
    if extra_bytes > 0 {
        m.bytes_written.basis = Basis::FullScale;
    }
    let reads = c.kind != CommandKind::Insert;
    if let Some(f) = ce
        .fan_out
        .as_ref()
        .filter(|_| c.kind == CommandKind::Update)
    {
        // One update per follower: per-update figures times the full-scale followers.
        let k = if f.written > 0 {
            f.full_scale as f64 / f.written as f64
        } else {
            0.0
        };
        if k != 1.0 {
            m.keys_examined = Figure::estimate((s.keys_examined as f64 * k).round());
            m.docs_examined = Figure::estimate((s.docs_examined as f64 * k).round());
        }
    } else if reads {
        scaling.examined(&mut m);
        // Bytes: the documents returned as projected, each array the sample cut short (and
        // the projection kept whole) given back its missing elements.
        if c.kind == CommandKind::Find || c.kind == CommandKind::Aggregate {
            scaling.returned_bytes(&mut m, &r.documents);
        }
    }
    scaling.written(&mut m, bound_id);
    m
}

/// What one command's sample measurements are scaled by: the collection at full scale
/// against the sample, the command's limit, and what the relationships say it matches.
struct Scaling<'a> {
    ctx: &'a Ctx<'a>,
    c: &'a Command,
    ce: &'a CommandEval,
    /// The command's collection's documents at full scale.
    full_count: f64,
    /// Full-scale documents per sample document (at least 1).
    ratio: f64,
    /// The command's limit.
    limit: Option<f64>,
    /// The plan sorts in memory (it examines every match before the limit cuts).
    sorted_in_memory: bool,
    /// The sample already returned the limit.
    limit_hit: bool,
    /// The documents the filter matches at full scale, when a relationship says.
    matches: Option<(f64, Basis)>,
}

impl Scaling<'_> {
    /// Returns `x` cut to the command's limit.
    fn cap(&self, x: f64) -> f64 {
        self.limit.map_or(x, |l| x.min(l))
    }

    /// Scales a read's keys and documents examined (and documents returned): a collection
    /// scan examines the whole collection, a case-insensitive match every key, a match a
    /// relationship counts what it matches; else the sample's figures times the ratio.
    fn examined(&self, m: &mut Metrics) {
        let (c, s) = (self.c, &self.ce.sample);
        let (full_count, ratio) = (self.full_count, self.ratio);
        if self.ce.plan == "COLLSCAN" {
            m.docs_examined = Figure::full(full_count);
            m.keys_examined = Figure::full(0.0);
            if !self.limit_hit && ratio > 1.0 {
                m.docs_returned = Figure::estimate(self.cap(s.n_returned as f64 * ratio).round());
            }
        } else if crate::design::plan::matches_any_case(c) {
            // `$regex: /^value$/i`: no index bounds it, the scan examines every key of the
            // index (and, in this engine, fetches every document: docs/engine.md), at full
            // scale the whole collection, as a COLLSCAN's is.
            m.docs_examined = Figure::full(full_count);
            m.keys_examined = Figure::full(full_count);
        } else if let Some((k, basis)) = self.matches {
            // An index scan walks past the skipped keys (and fetches their documents) before
            // it returns the page: page N by skip examines (N − 1) × limit + limit keys. A
            // page by range starts its scan at the page: it examines only what it returns,
            // and nothing when the subject has no such page.
            let skip = c.skip.unwrap_or(0) as f64;
            let before = skip + c.page_offset.unwrap_or(0) as f64;
            let ret = self.cap((k - before).max(0.0));
            let examined = if self.sorted_in_memory {
                k
            } else {
                (skip + ret).min(k)
            };
            m.keys_examined = Figure {
                value: examined,
                basis,
            };
            m.docs_examined = m.keys_examined;
            if c.kind == CommandKind::Find || c.kind == CommandKind::Aggregate {
                m.docs_returned = Figure { value: ret, basis };
            }
        } else {
            let by_id = c.filter.keys().next().is_some_and(|k| k == "_id");
            // A read of one parent with its children joined by `$lookup`: what the engine
            // examined for the subject is the figure (the children it holds in the sample).
            let one_parent_joined = c.kind == CommandKind::Aggregate
                && c.pipeline.iter().any(|s| s.contains_key("$lookup"))
                && c.pipeline
                    .iter()
                    .any(|s| s.get("$limit") == Some(&Bson::Int32(1)));
            if !by_id && !one_parent_joined && !self.limit_hit && ratio > 1.0 {
                let scale = |x: u64| {
                    let v = x as f64 * ratio;
                    if self.sorted_in_memory {
                        v
                    } else {
                        self.cap(v)
                    }
                    .round()
                };
                m.keys_examined = Figure::estimate(scale(s.keys_examined));
                m.docs_examined = Figure::estimate(scale(s.docs_examined));
                if c.kind == CommandKind::Find {
                    m.docs_returned =
                        Figure::estimate(self.cap(s.n_returned as f64 * ratio).round());
                }
            }
        }
    }

    /// Scales a read's bytes returned: `documents` (the sample's, as projected) at full size,
    /// or their mean size times the documents returned at full scale when those differ.
    fn returned_bytes(&self, m: &mut Metrics, documents: &[engine::Returned]) {
        let s = &self.ce.sample;
        let (bytes, exact) = full_bytes(self.ctx, self.c, documents);
        let basis = if exact {
            Basis::FullScale
        } else {
            Basis::Estimate
        };
        if m.docs_returned.value == s.n_returned as f64 {
            if bytes != s.bytes_returned {
                m.bytes_returned = Figure {
                    value: bytes as f64,
                    basis,
                };
            }
        } else {
            let per = if s.n_returned > 0 {
                bytes as f64 / s.n_returned as f64
            } else {
                mean_size(self.ctx, &self.c.collection)
            };
            m.docs_returned.basis = m.docs_returned.basis.max(Basis::FullScale);
            m.bytes_returned = Figure::estimate((per * m.docs_returned.value).round());
        }
    }

    /// Scales the writes that touch more documents at full scale than in the sample: a
    /// fan-out to its full-scale count, a multi-document update to what it matches; a
    /// single-document update (of `bound_id`) rewrites the bytes the sample cut too.
    fn written(&self, m: &mut Metrics, bound_id: Option<&Bson>) {
        let (c, s, ratio) = (self.c, &self.ce.sample, self.ratio);
        let per_doc = |x: u64| {
            if s.docs_written > 0 {
                x as f64 / s.docs_written as f64
            } else {
                0.0
            }
        };
        // Every written figure at `k` documents, each the sample's per document times `k`.
        let mut written_at = |k: f64, basis: Basis| {
            m.docs_written = Figure { value: k, basis };
            m.bytes_written = Figure::estimate((per_doc(s.bytes_written) * k).round());
            m.index_keys_written = Figure::estimate((per_doc(s.index_keys_written) * k).round());
        };
        if let Some(f) = &self.ce.fan_out {
            let scaled = f.capped || f.full_scale != f.written;
            if scaled && (c.kind == CommandKind::Update || c.fan_out.is_some()) {
                written_at(f.full_scale as f64, Basis::FullScale);
            }
        } else if c.kind == CommandKind::Update && c.multi {
            if let Some((k, basis)) = self.matches {
                written_at(k, basis);
            } else if ratio > 1.0 && s.docs_written > 0 {
                m.docs_written = Figure::estimate((s.docs_written as f64 * ratio).round());
                m.bytes_written = Figure::estimate((s.bytes_written as f64 * ratio).round());
                m.index_keys_written =
                    Figure::estimate((s.index_keys_written as f64 * ratio).round());
            }
        } else if c.kind == CommandKind::Update && s.docs_written > 0 {
            // A single-document update rewrites the whole document: add what the sample cut.
            if let Some(id) = bound_id {
                let extra = truncated_bytes(self.ctx, &c.collection, id);
                if extra > 0 {
                    m.bytes_written = Figure::full(s.bytes_written as f64 + extra as f64);
                }
            }
        }
    }
}

/// The bytes the sample cut from the document whose `_id` is `id` (arrays' elements and
/// values' bytes; 0 when none).
fn truncated_bytes(ctx: &Ctx, coll: &str, id: &Bson) -> u64 {
    let Some(g) = ctx.data.collection(coll) else {
        return 0;
    };
    let Some(i) = g.cut_document(id) else {
        return 0;
    };
    let encoded = g.documents.get(i).map_or(0, document_size);
    ctx.data
        .full_size(coll, i)
        .map_or(0, |(full, _)| full.saturating_sub(encoded))
}

/// Returns the full-scale bytes of the documents a read returned, as its projection shaped
/// them: each one's size plus, for every array the sample cut short that the read returns
/// whole (not projected out, not sliced below what the sample holds), the bytes of the missing
/// elements, up to the projection's `$slice` (exact when the materialized elements all have
/// the same size, which the second value says). A projection that drops the arrays gets
/// nothing back: a document projected to `{_id: 1}` is 22 bytes at any scale.
fn full_bytes(ctx: &Ctx, c: &Command, docs: &[crate::engine::Returned]) -> (u64, bool) {
    let mut total = 0u64;
    let mut exact = true;
    let g = ctx.data.collection(&c.collection);
    for d in docs {
        total = total.saturating_add(d.size());
        let Some(g) = g else { continue };
        let Some(id) = d.field("_id") else { continue };
        let Some(source) = g.cut_document(&id) else {
            continue;
        };
        if c.projection.is_none() {
            // Values the sample cut short (a 25 MB attachment held as 8 MiB) come back whole.
            total = total.saturating_add(g.shortened_bytes(source));
        }
        for t in g.truncated.iter().filter(|t| t.document == source) {
            // The element sizes, read from the returned bytes (no decoding) when it has them.
            let sizes: Vec<u64> = match d.raw() {
                Some(raw) => match crate::engine::raw::array_value_sizes(raw, &t.field) {
                    Some(s) => s,
                    None => continue,
                },
                None => match d.get_array(&t.field) {
                    Ok(arr) => arr.iter().map(crate::size::value_size).collect(),
                    Err(_) => continue,
                },
            };
            if (sizes.len() as u64) < t.materialized {
                continue;
            }
            let (Some(&lo), Some(&hi)) = (sizes.iter().min(), sizes.iter().max()) else {
                continue;
            };
            exact &= lo == hi;
            let full = t
                .full_count
                .min(slice_limit(c.projection.as_ref(), &t.field));
            let missing = crate::arith::array_size(full, lo)
                .saturating_sub(crate::arith::array_size(t.materialized, lo));
            total = total.saturating_add(missing);
        }
    }
    (total, exact)
}

/// Returns how many elements of array `field` a projection's `$slice` keeps (`u64::MAX`
/// without one): `{$slice: n}` and `{$slice: -n}` keep n, `{$slice: [skip, n]}` keeps n.
fn slice_limit(projection: Option<&Document>, field: &str) -> u64 {
    let count = |v: &Bson| match v {
        Bson::Int32(n) => Some(i64::from(*n).unsigned_abs()),
        Bson::Int64(n) => Some(n.unsigned_abs()),
        Bson::Double(n) => Some(n.abs() as u64),
        _ => None,
    };
    let slice = projection
        .and_then(|p| p.get_document(field).ok())
        .and_then(|s| s.get("$slice"));
    match slice {
        Some(Bson::Array(a)) => a.get(1).and_then(count),
        Some(v) => count(v),
        None => None,
    }
    .unwrap_or(u64::MAX)
}

/// Mean document size of a collection at full scale (its statistics in the context).
fn mean_size(ctx: &Ctx, coll: &str) -> f64 {
    crate::stats::named(ctx.stats, coll).map_or(0.0, |st| st.mean_bytes())
}
