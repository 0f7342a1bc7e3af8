//! One kind of document of a layout as a generator ([`ShapeGenerator`]): its count at sample
//! scale, its references, and document `j` made from them, with arrays sorted and buckets
//! counted as the layout says.

use crate::design::{DocShape, Layout, Strategy};
use crate::model::distribution::Distribution;
use crate::model::field::BsonType;
use crate::model::Model;
use bson::{Bson, Document};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::refs::{owned_range, owner_of, refs_for, Refs};
use super::spread::Spread;
use super::values::{FieldPath, Gen};
use super::{bucket, tree};
use super::{entity_oid, key_value, mix, splitmix, GenOptions};

/// One generated document with what generation had to leave out.
#[derive(Debug, Clone, PartialEq)]
pub struct GeneratedDocument {
    /// The document.
    pub document: Document,
    /// Arrays cut short: (top-level path, materialized, full count).
    pub truncated: Vec<(String, u64, u64)>,
    /// Bytes the values were cut short by (for want of the document's byte budget, or to the
    /// 16 MiB one value can have): the full-scale size is the encoded size plus these.
    pub shortened: u64,
    /// References naming a document the sample does not hold: (dotted path, how many); see
    /// [`GeneratedCollection::outside`].
    pub outside: Vec<(String, u64)>,
    /// Rough bytes of memory the document holds (strings and binary data, plus 64 per array
    /// element, per sub-document field and per document), for the dataset's budget.
    pub memory: u64,
}

/// Generates the documents of one shape of a collection one at a time: document `j` depends
/// only on the model's seed, the shape and `j`, so a dataset can be streamed to disk document
/// by document ([`crate::export`]) and is the same documents [`generate_with`] holds.
pub struct ShapeGenerator<'a> {
    pub(super) model: &'a Model,
    pub(super) shape: &'a DocShape,
    pub(super) refs: Refs,
    /// `collection/label`: the seed key of the shape's documents.
    pub(super) key: String,
    pub(super) primary: bool,
    /// Documents of this shape to generate.
    pub count: u64,
    /// The number of the collection's documents generated before this shape's (those of
    /// its earlier shapes): where its `sequence` fields start.
    pub(super) first_index: u64,
    /// The tree the documents form, when a tree relationship lays out their entity.
    pub(super) tree: Option<tree::NodeTree>,
    /// Fields that hold the document's own `_id` (a single collection's shared key on the
    /// parent).
    pub(super) own_id: Vec<String>,
    /// The entity's own key fields that references name it by (a relationship's
    /// `parent_key` or `child_key`): generated as [`key_value`]s, so the references resolve.
    pub(super) own_keys: Vec<String>,
    /// Where the documents sit on their distributions.
    pub(super) spread: Spread,
    /// The file field's length distribution, for the `length` of a GridFS files document when
    /// stratified ([`file_length`]).
    pub(super) file_length: Option<Distribution>,
    /// The arrays the design keeps sorted (`$push` with `$sort`), with their order: generated
    /// sorted, as the writes would leave them (`design::plan::array_order`).
    pub(super) sorted: Vec<(String, crate::model::Sort)>,
    /// The time column of a time series' buckets: generated in time order, the bounds in
    /// `control` their columns' own ([`bucket`]).
    pub(super) bucket: Option<bucket::BucketTime>,
    /// The counters of a bucket (one-to-many or a bucketed feed) with the array each counts
    /// ([`crate::design::names::BUCKET_COUNT`]): set to the array's elements at full scale.
    pub(super) counters: Vec<(String, String)>,
}

/// Returns, under [`Spread::Stratified`], the length distribution of the file field whose
/// GridFS files documents `shape` holds (label `<entity>.<field> file` in `fs.files`): their
/// `length` then follows it at the document's quantile, as the evaluation reads a file's
/// length ([`crate::eval`]'s files), so that the exported files measure back as the field.
/// Drawn (the evaluation's sample), `length` stays a number between the distribution's ends.
pub(super) fn file_length(
    model: &Model,
    c: &crate::design::Collection,
    shape: &DocShape,
    spread: Spread,
) -> Option<Distribution> {
    if spread != Spread::Stratified || c.name != crate::design::names::FILES {
        return None;
    }
    let (entity, field) = shape.label.strip_suffix(" file")?.split_once('.')?;
    let f = model.entity(entity)?.fields.get(field)?;
    Some(f.length_distribution())
}

/// How many documents a generation makes: the evaluation's sample maps every full-scale count
/// alike (any `Fn(f64) -> u64`, its `sample_count`); a scaled export
/// ([`crate::export::Scale`]) gives a one-to-many child's documents and a link collection's
/// links their own count (their sampled parents' children, each parent at its quantile).
pub trait Counts {
    /// Returns the documents generated for a full-scale count.
    fn of(&self, full: f64) -> u64;

    /// Returns the documents generated of entity `name` for its full-scale count `full` (the
    /// entity's own count, or a share of it where a design splits the entity).
    fn entity(&self, name: &str, full: f64) -> u64 {
        let _ = name;
        self.of(full)
    }

    /// Returns the documents generated of `shape` in collection `c`: an entity's own shape
    /// counts as the entity ([`Counts::entity`]), any other by its full-scale count.
    fn shape(&self, c: &crate::design::Collection, shape: &DocShape) -> u64 {
        let _ = c;
        match shape.entity.as_deref().filter(|e| *e == shape.label) {
            Some(e) => self.entity(e, shape.count),
            None => self.of(shape.count),
        }
    }
}

impl<F: Fn(f64) -> u64> Counts for F {
    fn of(&self, full: f64) -> u64 {
        self(full)
    }
}

/// Returns one generator per shape of collection `c`, in shape order. `count` maps a
/// full-scale count to the number generated (the sample's `sample_count`, or an export's
/// scale): it sizes every shape and every entity references point into. `spread` places the
/// documents on their distributions (the evaluation's: [`Spread::Drawn`]).
pub fn shape_generators<'a>(
    model: &'a Model,
    layout: &'a Layout,
    c: &'a crate::design::Collection,
    count: &dyn Counts,
    spread: Spread,
) -> Vec<ShapeGenerator<'a>> {
    let sample_of = |entity: &str| {
        model
            .entity(entity)
            .map_or(0, |e| count.entity(entity, e.count))
    };
    // A sequence runs through the collection in insertion order: each shape's documents
    // continue the numbers of the shapes before it (a GridFS file's full chunks and last
    // chunk share `fs.chunks`, whose `(files_id, n)` is unique).
    let mut first_index = 0u64;
    c.shapes
        .iter()
        .map(|shape| ShapeGenerator {
            first_index: {
                let first = first_index;
                first_index = first_index.saturating_add(count.shape(c, shape));
                first
            },
            model,
            shape,
            refs: refs_for(model, layout, shape, &sample_of, count, spread),
            key: format!("{}/{}", c.name, shape.label),
            primary: shape.label == shape.entity.clone().unwrap_or_default(),
            count: count.shape(c, shape),
            tree: shape
                .entity
                .as_deref()
                .filter(|e| *e == shape.label)
                .and_then(|e| tree::of(model, layout, e, count.shape(c, shape))),
            own_id: crate::design::place::single::own_id_keys(
                &model.relationships,
                &layout.strategies,
                shape,
            ),
            own_keys: own_keys(model, shape),
            spread,
            file_length: file_length(model, c, shape, spread),
            sorted: shape
                .growing
                .iter()
                .filter_map(|g| {
                    let s = layout.strategy(&g.relationship)?;
                    crate::design::plan::array_order(model, &g.relationship, s)
                        .map(|o| (g.field.clone(), o))
                })
                .collect(),
            bucket: bucket::of(model, layout, shape),
            counters: bucket_counters(layout, shape),
        })
        .collect()
}

impl ShapeGenerator<'_> {
    /// Returns the shape's label.
    pub fn label(&self) -> &str {
        &self.shape.label
    }

    /// Generates document `j` of the shape.
    pub fn document(&self, j: u64, opts: &GenOptions) -> GeneratedDocument {
        let (model, shape, refs, key) = (self.model, self.shape, &self.refs, &self.key);
        let q = self.spread.quantile(model.seed, key, j, self.count);
        let mut g = Gen {
            rng: ChaCha8Rng::seed_from_u64(mix(model.seed, key) ^ splitmix(j)),
            q,
            index: self.first_index.saturating_add(j),
            max_elements: opts.max_elements,
            budget: opts.max_document_elements,
            bytes_left: opts.max_document_bytes,
            shortened: 0,
            fields_made: 0,
            truncated: Vec::new(),
            outside: Vec::new(),
            nested: &refs.nested,
            seed: model.seed,
            pending: Vec::new(),
            skeletons: Vec::new(),
        };
        let mut d = Document::new();
        for (name, f) in shape.fields.iter() {
            if let Some(v) = self
                .tree
                .as_ref()
                .and_then(|t| t.value(model.seed, name, j))
            {
                if let Some(v) = v {
                    d.insert(name.clone(), v);
                }
                continue;
            }
            if !g.present(f) {
                continue;
            }
            if self.own_id.contains(name) {
                if let Some(id) = d.get("_id").cloned() {
                    d.insert(name.clone(), id);
                    continue;
                }
            }
            if self.own_keys.contains(name) {
                let entity = shape.entity.as_deref().unwrap_or_default();
                d.insert(name.clone(), key_value(model.seed, entity, name, f, j));
                continue;
            }
            let v = if let Some(d) = self.file_length.as_ref().filter(|_| name == "length") {
                Bson::Int64(i64::try_from(d.count_at(q)).unwrap_or(i64::MAX))
            } else if name == "_id" && f.ty == BsonType::ObjectId {
                let ent = if self.primary {
                    shape.entity.clone().unwrap_or_default()
                } else {
                    key.clone()
                };
                Bson::ObjectId(entity_oid(model.seed, &ent, j))
            } else if let Some((ent, count, weights)) = refs.get(name) {
                let key = refs.key(name);
                let id = |i: u64| match key {
                    Some((k, kf)) => key_value(model.seed, ent, k, kf, i),
                    None => Bson::ObjectId(entity_oid(model.seed, ent, i)),
                };
                // One reference (an ObjectId, or a key's value), not an array of them.
                let single =
                    f.ty == BsonType::ObjectId || (key.is_some() && f.ty != BsonType::Array);
                match (single, weights.last()) {
                    (true, _) if count > 0 && refs.sequential.contains(name) => id(j % count),
                    (true, Some(&total)) if total > 0.0 => {
                        // The parent whose array lists this child (see `owned_range`).
                        id(owner_of(weights, self.count, j))
                    }
                    _ => {
                        let owned = refs
                            .owned
                            .iter()
                            .find(|(field, ..)| field == name)
                            .map(|(_, w, children)| (owned_range(w, *children, j), *children));
                        g.reference(f, ent, count, FieldPath::root(name), owned, key)
                    }
                }
            } else {
                g.value(f, FieldPath::root(name))
            };
            d.insert(name.clone(), v);
        }
        self.settle(&mut d, &g.truncated, j);
        // Strings and binary data, plus a rough 64 bytes of memory per element and per
        // document, so that millions of small values count too.
        let elements = opts
            .max_document_elements
            .saturating_sub(g.budget)
            .saturating_add(g.fields_made);
        let memory = opts
            .max_document_bytes
            .saturating_sub(g.bytes_left)
            .saturating_add(elements.saturating_add(1).saturating_mul(64));
        GeneratedDocument {
            document: d,
            truncated: g.truncated,
            shortened: g.shortened,
            outside: g.outside,
            memory,
        }
    }

    /// What document `j` gets once its fields are made: each bucket's counter set to the
    /// elements it holds at full scale (`truncated`: the arrays the sample cut short), the kept
    /// arrays sorted as the design's `$push` with `$sort` leaves them, and a bucket's own
    /// fields settled from its position among its parent's buckets.
    fn settle(&self, d: &mut Document, truncated: &[(String, u64, u64)], j: u64) {
        let refs = &self.refs;
        for (counter, array) in &self.counters {
            // A bucket counts what it holds: its elements at full scale (the sample may cut
            // the array short; the arithmetic sizes it whole).
            let held = d.get_array(array).map_or(0, |a| a.len() as u64);
            let elements = truncated
                .iter()
                .find(|(path, ..)| path == array)
                .map_or(held, |(_, _, full)| *full);
            if d.contains_key(counter) {
                d.insert(
                    counter.clone(),
                    Bson::Int32(i32::try_from(elements).unwrap_or(i32::MAX)),
                );
            }
        }
        for (field, order) in &self.sorted {
            if let Some(Bson::Array(a)) = d.get_mut(field) {
                sort_elements(a, order);
            }
        }
        if let Some(settings) = &self.bucket {
            // Bucket `k` of its parent's `m` (the parent's buckets are dealt in index order).
            let position = refs
                .get(crate::design::names::META)
                .filter(|(_, _, w)| !w.is_empty())
                .map(|(_, _, w)| {
                    let (s, e) = owned_range(w, self.count, owner_of(w, self.count, j));
                    (j.saturating_sub(s), e.saturating_sub(s))
                });
            settings.settle(d, position);
        }
    }
}

/// Sorts a kept array's sub-documents by `order` (stable), as the design's `$push` with
/// `$sort` leaves them. Each element's key is read once, not once per comparison (arrays run to
/// thousands of elements); dates (the usual key: the newest first) compare as their
/// milliseconds, as [`crate::engine::compare::compare`] orders them, without its type dispatch
/// per comparison and without copying the keys.
pub(super) fn sort_elements(a: &mut Vec<Bson>, order: &crate::model::Sort) {
    fn key<'a>(v: &'a Bson, field: &str) -> Option<&'a Bson> {
        match v {
            Bson::Document(e) => e.get(field),
            _ => None,
        }
    }
    let field = order.field.as_str();
    let date = |v: &Bson| match key(v, field) {
        Some(Bson::DateTime(d)) => Some(d.timestamp_millis()),
        _ => None,
    };
    if a.iter().all(|v| date(v).is_some()) {
        let ms = |v: &Bson| date(v).unwrap_or_default();
        if order.order < 0 {
            a.sort_by_cached_key(|v| std::cmp::Reverse(ms(v)));
        } else {
            a.sort_by_cached_key(ms);
        }
        return;
    }
    let mut keyed: Vec<(Bson, Bson)> = std::mem::take(a)
        .into_iter()
        .map(|v| (key(&v, field).cloned().unwrap_or(Bson::Null), v))
        .collect();
    keyed.sort_by(|(x, _), (y, _)| {
        let o = crate::engine::compare::compare(x, y);
        if order.order < 0 {
            o.reverse()
        } else {
            o
        }
    });
    *a = keyed.into_iter().map(|(_, v)| v).collect();
}

/// Returns the counters of `shape` that count a bucket's elements, with the array each counts:
/// `count` beside the array of a one-to-many bucket or a bucketed feed.
pub(super) fn bucket_counters(layout: &Layout, shape: &DocShape) -> Vec<(String, String)> {
    use crate::design::names::BUCKET_COUNT;
    if shape.fields.get(BUCKET_COUNT).is_none() {
        return Vec::new();
    }
    shape
        .growing
        .iter()
        .filter(|g| {
            matches!(
                layout.strategy(&g.relationship),
                Some(Strategy::Bucket { .. } | Strategy::BucketedFanOut { .. })
            )
        })
        .map(|g| (BUCKET_COUNT.to_string(), g.field.clone()))
        .take(1)
        .collect()
}

/// Returns the key fields (not `_id`) by which references name the entity of `shape`, when
/// the shape is the entity's own documents.
pub(super) fn own_keys(model: &Model, shape: &DocShape) -> Vec<String> {
    let Some(entity) = shape.entity.as_deref().filter(|e| *e == shape.label) else {
        return Vec::new();
    };
    let mut out: Vec<String> = Vec::new();
    for r in &model.relationships {
        for (end, key) in [(&r.parent, &r.parent_key), (&r.child, &r.child_key)] {
            if let Some(k) = key.as_ref().filter(|k| end == entity && *k != "_id") {
                if !out.contains(k) {
                    out.push(k.clone());
                }
            }
        }
    }
    out
}
