//! Deterministic synthetic documents: the same model and seed always give the same documents,
//! with realistic values (names, e-mails, usernames, dates, prices, lorem-like text of the
//! requested length) and ObjectIds derived from the seed.
//!
//! Every collection is materialized at sample scale ([`crate::model::Sample`]), but the tail is
//! never lost: document 0 of every collection is the largest parent (every count at its
//! distribution's `max`) and document 1 sits at p99; the others are drawn (or, for a scaled
//! export, spread evenly: [`Spread`]). Arrays longer than
//! [`GenOptions::max_elements`] are truncated and recorded in [`Truncation`], so their full
//! size is available exactly from [`crate::arith`].

mod bucket;
mod spread;
mod tree;

pub use spread::Spread;

use bson::{oid::ObjectId, Binary, Bson, DateTime, Document};
use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::design::names::CONTINUATION_FIELD;
use crate::design::{DocShape, Layout, Strategy};
use crate::model::distribution::Distribution;
use crate::model::field::{BsonType, Field, Fields, ValueKind};
use crate::model::Model;

/// Options of generation.
#[derive(Debug, Clone, PartialEq)]
pub struct GenOptions {
    /// Arrays longer than this are truncated (and recorded), so that the largest parent of a
    /// one-to-squillions relationship stays instant.
    pub max_elements: u64,
    /// Array elements per document, all arrays together (nested arrays multiply).
    pub max_document_elements: u64,
    /// Bytes of strings, binary data and regexes per document: arrays stop materializing
    /// elements once a document holds this much (recorded in [`Truncation`]), and a value that
    /// would pass it is cut short (the document is listed in
    /// [`GeneratedCollection::shortened`] with the bytes cut, so its full size stays exact).
    /// Half of 16 MiB by default: the rest is room for keys, numbers and framing of up to
    /// [`GenOptions::max_document_elements`] elements, so every sampled document fits the
    /// engine, which refuses documents over 16 MiB as mongod does.
    pub max_document_bytes: u64,
    /// Documents generated in all, all collections together; the rest are counted in
    /// [`Dataset::omitted_documents`].
    pub max_total_documents: u64,
    /// Bytes of strings, binary data and regexes in all (plus 64 per array element, per
    /// sub-document field and per document), all collections together; once reached, no further documents are generated (counted in [`Dataset::omitted_documents`]).
    pub max_total_bytes: u64,
}

impl Default for GenOptions {
    fn default() -> Self {
        GenOptions {
            max_elements: 10_000,
            max_document_elements: 100_000,
            max_document_bytes: crate::size::MAX_BSON_SIZE / 2,
            max_total_documents: 200_000,
            max_total_bytes: 4 * crate::size::MAX_BSON_SIZE,
        }
    }
}

/// All generated collections.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Dataset {
    /// In layout order.
    pub collections: Vec<GeneratedCollection>,
    /// Documents of the sample not generated because the dataset reached
    /// [`GenOptions::max_total_documents`] or [`GenOptions::max_total_bytes`] (0 normally).
    pub omitted_documents: u64,
}

impl Dataset {
    /// Returns the collection called `name`.
    pub fn collection(&self, name: &str) -> Option<&GeneratedCollection> {
        self.collections.iter().find(|c| c.name == name)
    }

    /// Returns the full-scale size of document `index` of collection `name`: its encoded size
    /// plus the bytes its values lost, plus, for every array cut short, the bytes of the
    /// missing elements (keys included, computed in closed form). Exact when the materialized
    /// elements all have the same size, which the second value says.
    pub fn full_size(&self, name: &str, index: usize) -> Option<(u64, bool)> {
        let c = self.collection(name)?;
        let doc = c.documents.get(index)?;
        let mut size = crate::size::document_size(doc).saturating_add(c.shortened_bytes(index));
        let mut exact = true;
        for t in c.truncated.iter().filter(|t| t.document == index) {
            let Ok(arr) = doc.get_array(&t.field) else {
                exact = false;
                continue;
            };
            let sizes: Vec<u64> = arr.iter().map(element_value_size).collect();
            let (Some(&lo), Some(&hi)) = (sizes.iter().min(), sizes.iter().max()) else {
                exact = false;
                continue;
            };
            exact &= lo == hi;
            size = size
                .saturating_sub(crate::arith::array_size(t.materialized, lo))
                .saturating_add(crate::arith::array_size(t.full_count, lo));
        }
        Some((size, exact))
    }

    /// Returns the number of generated documents.
    pub fn document_count(&self) -> usize {
        self.collections.iter().map(|c| c.documents.len()).sum()
    }
}

/// The documents of one collection.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GeneratedCollection {
    /// Collection name.
    pub name: String,
    /// The documents.
    pub documents: Vec<Document>,
    /// Arrays cut short (full counts are in the arithmetic).
    pub truncated: Vec<Truncation>,
    /// Documents in which a value was cut short (to stay within
    /// [`GenOptions::max_document_bytes`], or to the 16 MiB a value can have in the sample):
    /// their encoded sizes are smaller than at full scale by exactly the bytes cut.
    pub shortened: Vec<Shortened>,
    /// References that name a document the sample does not hold (a parent's ids of children
    /// past the sample's share of them, a reference to an entity with no sampled document):
    /// every other ObjectId a document holds, but its own `_id` and a field the model itself
    /// declares `objectId`, is the `_id` of a document of the sample or of a sub-document of
    /// an entity that lives only embedded.
    pub outside: Vec<Outside>,
    /// The documents of each shape, in generation order (shape by shape).
    pub shapes: Vec<ShapeSpan>,
}

/// The documents of one shape within a generated collection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShapeSpan {
    /// The shape's label.
    pub label: String,
    /// Index of its first document in the collection.
    pub first: usize,
    /// Its documents generated.
    pub count: usize,
}

/// References of one document that point outside the sample.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outside {
    /// Index of the document in its collection.
    pub document: usize,
    /// Dotted path of the references, without array indexes (`tasks`, `activities.author`).
    pub field: String,
    /// References at that path naming a document the sample does not hold.
    pub count: u64,
}

/// A document whose values were generated shorter than drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shortened {
    /// Index of the document in its collection.
    pub document: usize,
    /// Bytes the values lost: the document's full-scale size is its encoded size plus these.
    pub bytes: u64,
}

impl GeneratedCollection {
    /// Returns the index of the document whose `_id` is `id` among those the sample cut
    /// short (an array truncated or a value shortened): the only ones whose full-scale size
    /// differs from their encoded size.
    pub fn cut_document(&self, id: &Bson) -> Option<usize> {
        let truncated = self.truncated.iter().map(|t| t.document);
        truncated
            .chain(self.shortened.iter().map(|s| s.document))
            .find(|&i| self.documents.get(i).and_then(|d| d.get("_id")) == Some(id))
    }

    /// Returns the bytes the values of document `index` lost (0 when none were cut).
    pub fn shortened_bytes(&self, index: usize) -> u64 {
        self.shortened
            .iter()
            .filter(|s| s.document == index)
            .map(|s| s.bytes)
            .sum()
    }
}

/// An array generated shorter than its drawn count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Truncation {
    /// Index of the document in its collection.
    pub document: usize,
    /// Top-level path of the array.
    pub field: String,
    /// Elements materialized.
    pub materialized: u64,
    /// Elements the document has at full scale.
    pub full_count: u64,
}

/// Returns the bytes of a value as an array element, without its type byte and key.
fn element_value_size(v: &Bson) -> u64 {
    // The value's own bytes: what an element adds past its type byte and key.
    crate::size::value_size(v)
}

/// Returns a 64-bit FNV-1a hash of `s` mixed with `seed` (stable across platforms).
pub fn mix(seed: u64, s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    splitmix(h)
}

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Returns the ObjectId of document `index` of `entity` under `seed`: references to an entity
/// use the same function, so joins find their documents.
pub fn entity_oid(seed: u64, entity: &str, index: u64) -> ObjectId {
    let h = mix(seed, entity);
    let mut b = [0u8; 12];
    // A timestamp in 2024 keeps ids looking real; the rest identifies entity and index.
    let ts: u32 = 1_704_067_200u32.wrapping_add((h % 31_536_000) as u32);
    b[..4].copy_from_slice(&ts.to_be_bytes());
    b[4..8].copy_from_slice(&((h >> 32) as u32).to_be_bytes());
    b[8..12].copy_from_slice(&(index as u32).to_be_bytes());
    ObjectId::from_bytes(b)
}

/// Returns the value of the key field `key` (a unique key other than `_id` that references
/// name: a relationship's `parent_key` or `child_key`) of document `index` of `entity`:
/// references to the entity through that key use the same function, so they resolve. The
/// values are distinct, of the field's type: numbers count up from the field's `min` (1 when
/// unset), strings are the index zero-padded to the field's median length, anything else an
/// ObjectId of its own.
pub fn key_value(seed: u64, entity: &str, key: &str, f: &Field, index: u64) -> Bson {
    let lo = f.min.unwrap_or(1.0).max(0.0);
    match f.ty {
        BsonType::Int => {
            Bson::Int32(i32::try_from((lo as u64).saturating_add(index)).unwrap_or(i32::MAX))
        }
        BsonType::Long => {
            Bson::Int64(i64::try_from((lo as u64).saturating_add(index)).unwrap_or(i64::MAX))
        }
        BsonType::Double => Bson::Double(lo.floor() + index as f64),
        BsonType::Decimal => format!("{}", (lo as u64).saturating_add(index))
            .parse()
            .map_or(Bson::Null, Bson::Decimal128),
        BsonType::String => {
            let width = usize::try_from(f.length_distribution().count_at(0.5)).unwrap_or(0);
            Bson::String(format!("{index:0>width$}"))
        }
        _ => Bson::ObjectId(entity_oid(seed, &format!("{entity}.{key}"), index)),
    }
}

/// Returns the quantile document `index` of a collection sits at: 1.0 (the largest parent) for
/// the first, 0.99 for the second, then a seeded uniform draw.
pub fn document_quantile(seed: u64, collection: &str, index: u64) -> f64 {
    match index {
        0 => 1.0,
        1 => 0.99,
        _ => (splitmix(mix(seed, collection) ^ index) >> 11) as f64 / (1u64 << 53) as f64,
    }
}

/// Generates every collection of `layout` with default options.
pub fn generate(model: &Model, layout: &Layout) -> Dataset {
    generate_with(model, layout, &GenOptions::default())
}

/// Where the ObjectIds of top-level fields and array elements point.
#[derive(Debug, Clone, Default)]
struct Refs {
    /// Field name → (entity, generated count of that entity, cumulative weights of the
    /// generated parents when children follow the cardinality distribution).
    fields: Vec<(String, String, u64, Vec<f64>)>,
    /// A parent's array of its one-to-many children → (cumulative weights of the generated
    /// parents, generated children): the generated children it lists (see [`owned_range`]).
    owned: Vec<(String, Vec<f64>, u64)>,
    /// Reference fields that name their entity through a key other than `_id` → the key's
    /// name and field: their values are [`key_value`]s, not ObjectIds.
    keys: Vec<(String, String, Field)>,
    /// Fields whose document `j` names generated entity `j` (modulo their count): a link names
    /// the next child. A one-to-many child has one parent and so one link, and the links dealt
    /// to one parent are consecutive, so its children are distinct (drawn at random, a child
    /// would be linked twice to the same parent and another never).
    sequential: Vec<String>,
    /// References inside sub-documents, by dotted path → (entity, generated count of it): a
    /// bucketed feed item's `activities.author`, a user of the sample.
    nested: Vec<(String, String, u64)>,
}

/// Returns the generated children `[start, end)` that parent `j` owns in a one-to-many
/// relationship: children are dealt to parents in index order, in proportion to the parents'
/// cumulative weights, so that a child's parent reference ([`owner_of`]) and its parent's
/// array of children agree (a task is in its owner's `tasks` and in nobody else's).
fn owned_range(weights: &[f64], children: u64, j: u64) -> (u64, u64) {
    let Some(&total) = weights.last().filter(|t| **t > 0.0) else {
        return (0, 0);
    };
    let at = |w: f64| dealt_upto(w, total, children);
    let before = match j.checked_sub(1) {
        Some(p) => weights.get(p as usize).copied().unwrap_or(total),
        None => 0.0,
    };
    let upto = weights.get(j as usize).copied().unwrap_or(total);
    (at(before).min(children), at(upto).min(children))
}

/// Returns the parent of generated child `i` of `children`: the inverse of [`owned_range`] (the
/// first parent whose range ends past `i`; a binary search, as the ranges are in order).
fn owner_of(weights: &[f64], children: u64, i: u64) -> u64 {
    let Some(&total) = weights.last().filter(|t| **t > 0.0) else {
        return 0;
    };
    let at = |w: f64| dealt_upto(w, total, children);
    (weights.partition_point(|&w| at(w) <= i) as u64).min(weights.len().saturating_sub(1) as u64)
}

/// Returns how many of `children` go to the parents whose cumulative weight is `w` of
/// `total`: `w` itself when the children are the weights' whole total (a stratified export's,
/// each parent its own count; `w ÷ total × children` could fall a hair short of `w` and move a
/// child to the next parent), else `w`'s share, rounded down.
fn dealt_upto(w: f64, total: f64, children: u64) -> u64 {
    if children as f64 == total && w.fract() == 0.0 {
        w as u64
    } else {
        ((w / total) * children as f64).floor() as u64
    }
}

impl Refs {
    /// Returns the key (name and field) reference field `field` names its entity by, when it
    /// is not `_id`.
    fn key(&self, field: &str) -> Option<(&str, &Field)> {
        self.keys
            .iter()
            .find(|(f, ..)| f == field)
            .map(|(_, k, f)| (k.as_str(), f))
    }

    fn get(&self, field: &str) -> Option<(&str, u64, &[f64])> {
        self.fields
            .iter()
            .find(|(f, ..)| f == field)
            .map(|(_, e, n, w)| (e.as_str(), *n, w.as_slice()))
    }
}

/// Returns the cumulative child counts of the `n` generated parents of `r` (parent `j` sits
/// at its document quantile under `spread`), so that a child picks its parent in proportion to
/// the parent's cardinality: the busiest host gets the most log messages in the sample too.
fn parent_weights(
    model: &Model,
    r: &crate::model::Relationship,
    n: u64,
    spread: Spread,
) -> Vec<f64> {
    let mut acc = 0.0;
    children_per_parent(model, r, n, spread)
        .map(|c| {
            acc += c;
            acc
        })
        .collect()
}

/// Returns the children of each of the `n` generated parents of `r`, in parent order: the
/// cardinality at the parent's document quantile; stratified, a whole number (the quantile's,
/// rounded, so the median parent of a cardinality whose median is 20 has 20).
pub(crate) fn children_per_parent<'a>(
    model: &'a Model,
    r: &'a crate::model::Relationship,
    n: u64,
    spread: Spread,
) -> impl Iterator<Item = f64> + 'a {
    let key = format!("{}/{}", r.parent, r.parent);
    (0..n).map(move |j| {
        let c = r
            .cardinality
            .quantile(spread.quantile(model.seed, &key, j, n))
            .max(0.0);
        if spread == Spread::Stratified {
            c.round()
        } else {
            c
        }
    })
}

/// Generates every collection of `layout`.
pub fn generate_with(model: &Model, layout: &Layout, opts: &GenOptions) -> Dataset {
    let count = |n: f64| model.sample.sample_count(n);
    let mut collections = Vec::new();
    let mut total_documents = 0u64;
    let mut total_bytes = 0u64;
    let mut omitted_documents = 0u64;
    // Each collection gets an equal share of the memory budget, so a collection of huge
    // documents (hosts with every log embedded) cannot leave the next one (the logs in their
    // own collection) with no sample at all.
    let share = opts.max_total_bytes / (layout.collections.len().max(1) as u64);
    for c in &layout.collections {
        let mut collection_bytes = 0u64;
        let mut out = GeneratedCollection {
            name: c.name.clone(),
            ..Default::default()
        };
        for sg in shape_generators(model, layout, c, &count, Spread::Drawn) {
            let n = sg.count;
            let first = out.documents.len();
            for j in 0..n {
                if total_documents >= opts.max_total_documents
                    || total_bytes >= opts.max_total_bytes
                    || collection_bytes >= share
                {
                    omitted_documents = omitted_documents.saturating_add(n - j);
                    break;
                }
                total_documents += 1;
                let g = sg.document(j, opts);
                let doc_index = out.documents.len();
                total_bytes = total_bytes.saturating_add(g.memory);
                collection_bytes = collection_bytes.saturating_add(g.memory);
                if g.shortened > 0 {
                    out.shortened.push(Shortened {
                        document: doc_index,
                        bytes: g.shortened,
                    });
                }
                out.truncated.extend(g.truncated.into_iter().map(
                    |(field, materialized, full_count)| Truncation {
                        document: doc_index,
                        field,
                        materialized,
                        full_count,
                    },
                ));
                out.outside
                    .extend(g.outside.into_iter().map(|(field, count)| Outside {
                        document: doc_index,
                        field,
                        count,
                    }));
                out.documents.push(g.document);
            }
            out.shapes.push(ShapeSpan {
                label: sg.label().to_string(),
                first,
                count: out.documents.len() - first,
            });
        }
        collections.push(out);
    }
    Dataset {
        collections,
        omitted_documents,
    }
}

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
    model: &'a Model,
    shape: &'a DocShape,
    refs: Refs,
    /// `collection/label`: the seed key of the shape's documents.
    key: String,
    primary: bool,
    /// Documents of this shape to generate.
    pub count: u64,
    /// The tree the documents form, when a tree relationship lays out their entity.
    tree: Option<tree::NodeTree>,
    /// Fields that hold the document's own `_id` (a single collection's shared key on the
    /// parent).
    own_id: Vec<String>,
    /// The entity's own key fields that references name it by (a relationship's
    /// `parent_key` or `child_key`): generated as [`key_value`]s, so the references resolve.
    own_keys: Vec<String>,
    /// Where the documents sit on their distributions.
    spread: Spread,
    /// The file field's length distribution, for the `length` of a GridFS files document when
    /// stratified ([`file_length`]).
    file_length: Option<Distribution>,
    /// The arrays the design keeps sorted (`$push` with `$sort`), with their order: generated
    /// sorted, as the writes would leave them (`design::plan::array_order`).
    sorted: Vec<(String, crate::model::Sort)>,
    /// The time column of a time series' buckets: generated in time order, the bounds in
    /// `control` their columns' own ([`bucket`]).
    bucket: Option<bucket::BucketTime>,
    /// The counters of a bucket (one-to-many or a bucketed feed) with the array each counts
    /// ([`crate::design::names::BUCKET_COUNT`]): set to the array's elements at full scale.
    counters: Vec<(String, String)>,
}

/// Returns, under [`Spread::Stratified`], the length distribution of the file field whose
/// GridFS files documents `shape` holds (label `<entity>.<field> file` in `fs.files`): their
/// `length` then follows it at the document's quantile, as the evaluation reads a file's
/// length ([`crate::eval`]'s files), so that the exported files measure back as the field.
/// Drawn (the evaluation's sample), `length` stays a number between the distribution's ends.
fn file_length(
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
    c.shapes
        .iter()
        .map(|shape| ShapeGenerator {
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
            index: j,
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
        for (counter, array) in &self.counters {
            // A bucket counts what it holds: its elements at full scale (the sample may cut
            // the array short; the arithmetic sizes it whole).
            let held = d.get_array(array).map_or(0, |a| a.len() as u64);
            let elements = g
                .truncated
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
            settings.settle(&mut d, position);
        }
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
}

/// Sorts a kept array's sub-documents by `order` (stable), as the design's `$push` with
/// `$sort` leaves them. Each element's key is read once, not once per comparison (arrays run to
/// thousands of elements); dates (the usual key: the newest first) compare as their
/// milliseconds, as [`crate::engine::compare::compare`] orders them, without its type dispatch
/// per comparison and without copying the keys.
fn sort_elements(a: &mut Vec<Bson>, order: &crate::model::Sort) {
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
fn bucket_counters(layout: &Layout, shape: &DocShape) -> Vec<(String, String)> {
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
fn own_keys(model: &Model, shape: &DocShape) -> Vec<String> {
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

/// Works out which top-level fields of a shape hold references to which entity.
fn refs_for(
    model: &Model,
    layout: &Layout,
    shape: &DocShape,
    sample_of: &dyn Fn(&str) -> u64,
    count: &dyn Counts,
    spread: Spread,
) -> Refs {
    let mut refs = Refs::default();
    let plain =
        |field: String, entity: &str| (field, entity.to_string(), sample_of(entity), Vec::new());
    let key_of = |entity: &str, key: &str| -> Option<(String, Field)> {
        let f = model.entity(entity)?.fields.get(key)?;
        (key != "_id").then(|| (key.to_string(), f.clone()))
    };
    for g in &shape.growing {
        if let Some(r) = model.relationship(&g.relationship) {
            refs.fields.push(plain(g.field.clone(), &r.child));
            if let Some((k, f)) = layout
                .strategy(&r.name)
                .and_then(|s| key_of(&r.child, crate::design::names::child_key(r, s)))
            {
                refs.keys.push((g.field.clone(), k, f));
            }
            if !r.many_to_many && r.feed.is_none() && layout.collection_of(&r.child).is_some() {
                let parents = sample_of(&r.parent);
                refs.owned.push((
                    g.field.clone(),
                    parent_weights(model, r, parents, spread),
                    sample_of(&r.child),
                ));
            }
            if matches!(
                layout.strategy(&r.name),
                Some(Strategy::Continuation { .. })
            ) && shape.fields.get(CONTINUATION_FIELD).is_some()
            {
                // Continuation documents are keyed by collection and shape label.
                let label = format!("{} continuation", r.name);
                let coll = layout.collection_of(&r.parent);
                let n = coll
                    .and_then(|c| c.shape(&label))
                    .map_or(0, |c| count.of(c.count));
                let key = format!(
                    "{}/{label}",
                    coll.map_or(r.parent.as_str(), |c| c.name.as_str())
                );
                refs.fields
                    .push((CONTINUATION_FIELD.to_string(), key, n, Vec::new()));
            }
        }
    }
    for r in &model.relationships {
        // A time-series bucket's `meta` is its parent's id.
        let pref = if shape.label == crate::design::names::BUCKET_LABEL
            && shape.entity.as_deref() == Some(r.child.as_str())
        {
            crate::design::names::META.to_string()
        } else {
            r.parent_ref()
        };
        if shape.fields.get(&pref).is_some() && refs.get(&pref).is_none() {
            let n = sample_of(&r.parent);
            // A link of a many-to-many relationship is dealt to its parent as a one-to-many
            // child is when the documents are stratified (links per product follow the
            // cardinality); drawn, it names a parent at random.
            let dealt = !r.many_to_many || (spread == Spread::Stratified && shape.label == "link");
            let weights = if dealt {
                parent_weights(model, r, n, spread)
            } else {
                Vec::new()
            };
            if let Some((k, f)) = layout
                .strategy(&r.name)
                .and_then(|s| key_of(&r.parent, crate::design::names::parent_key(r, s)))
            {
                refs.keys.push((pref.clone(), k, f));
            }
            refs.fields.push((pref, r.parent.clone(), n, weights));
        }
        let cref = crate::design::names::child_ref(r);
        if shape.label == "link" && shape.fields.get(&cref).is_some() {
            refs.sequential.push(cref.clone());
            refs.fields.push(plain(cref, &r.child));
        }
        if r.feed.is_some() {
            for f in ["author", "owner"] {
                if shape.fields.get(f).is_some() {
                    refs.fields.push(plain(f.to_string(), &r.parent));
                }
            }
            // The items a bucket holds name their author too.
            for (name, f) in shape.fields.iter() {
                if f.fields.get("author").is_some() {
                    let n = sample_of(&r.parent);
                    refs.nested
                        .push((format!("{name}.author"), r.parent.clone(), n));
                }
            }
        }
    }
    for (field, key, n) in
        crate::design::gridfs::sample_refs(&layout.collections, shape, &|c, s| count.shape(c, s))
    {
        if refs.get(&field).is_none() {
            refs.fields.push((field, key, n, Vec::new()));
        }
    }
    refs
}

/// State of one document's generation.
struct Gen<'a> {
    rng: ChaCha8Rng,
    q: f64,
    index: u64,
    max_elements: u64,
    budget: u64,
    /// Bytes of strings, binary data and regexes this document may still hold.
    bytes_left: u64,
    /// Bytes values were cut short by, for want of `bytes_left` or past 16 MiB.
    shortened: u64,
    /// Fields of sub-documents made, for the dataset's memory budget.
    fields_made: u64,
    truncated: Vec<(String, u64, u64)>,
    /// References made that name a document the sample does not hold: (path, how many).
    outside: Vec<(String, u64)>,
    /// References inside sub-documents ([`Refs::nested`]).
    nested: &'a [(String, String, u64)],
    seed: u64,
    /// The sub-documents being made, innermost last: each one's values (with their field's
    /// position) until its last field is drawn ([`Gen::object`]).
    pending: Vec<(usize, Bson)>,
    /// Sub-documents of the field names made lately, every value null: a sub-document of the
    /// same names is a copy of one with its values put in ([`Gen::object`]).
    skeletons: Vec<Document>,
}

/// Elements an array reserves room for at once: every element of the sample's arrays (at most
/// [`GenOptions::max_elements`] by default), so that an array of thousands is not copied as it
/// grows; a preview's unbounded counts grow past it.
const ELEMENTS_RESERVED: u64 = 16_384;

/// Sub-document skeletons a document's generation keeps ([`Gen::skeletons`]): the few kinds of
/// sub-documents its arrays hold.
const SKELETONS: usize = 8;

const FIRST: &[&str] = &[
    "Kate", "Wil", "Bruce", "Diana", "Clark", "Ada", "Grace", "Alan", "Linus", "Barbara", "Ken",
    "Dennis", "Margaret", "Edsger", "Frances", "Donald", "Radia", "Tim", "Hedy", "John",
];
const LAST: &[&str] = &[
    "Monster", "Wheaton", "Wayne", "Prince", "Kent", "Lovelace", "Hopper", "Turing", "Torvalds",
    "Liskov", "Thompson", "Ritchie", "Hamilton", "Dijkstra", "Allen", "Knuth", "Perlman",
    "Berners", "Lamarr", "Backus",
];
const WORDS: &[&str] = &[
    "lorem",
    "ipsum",
    "dolor",
    "sit",
    "amet",
    "consectetur",
    "adipiscing",
    "elit",
    "sed",
    "do",
    "eiusmod",
    "tempor",
    "incididunt",
    "ut",
    "labore",
    "et",
    "dolore",
    "magna",
    "aliqua",
    "enim",
    "ad",
    "minim",
    "veniam",
    "quis",
    "nostrud",
    "exercitation",
    "ullamco",
    "laboris",
    "nisi",
    "aliquip",
    "ex",
    "ea",
    "commodo",
    "consequat",
    "grommet",
    "shifter",
];

impl Gen<'_> {
    /// Returns whether an optional field is present: always in the largest document
    /// (quantile 1), where every field is at its maximum.
    fn present(&mut self, f: &Field) -> bool {
        let p = f.presence();
        p >= 1.0 || self.q >= 1.0 || (p > 0.0 && self.rng.random::<f64>() < p)
    }

    fn pick<'a>(&mut self, list: &[&'a str]) -> &'a str {
        list.get(self.rng.random_range(0..list.len().max(1)))
            .copied()
            .unwrap_or("x")
    }

    /// Returns a whole count drawn from `d` (integers uniform for uniform shapes).
    /// Returns a whole length drawn from `d`, at most the BSON limit (a longer value could
    /// never be stored).
    /// Takes the length from the document's byte budget: a value that would pass it is cut
    /// short (and the document marked as shortened).
    /// The largest document (quantile 1) takes every length at its maximum.
    fn draw_len(&mut self, d: &Distribution) -> u64 {
        let drawn = self.draw(d);
        let want = drawn.min(crate::size::MAX_BSON_SIZE);
        let got = want.min(self.bytes_left);
        self.shortened = self.shortened.saturating_add(drawn - got);
        self.bytes_left -= got;
        got
    }

    fn draw(&mut self, d: &Distribution) -> u64 {
        if self.q >= 1.0 {
            return crate::arith::longest(d);
        }
        crate::arith::draw_whole(d, &mut self.rng)
    }

    fn count(&mut self, f: &Field) -> u64 {
        let d = f.count.clone().unwrap_or(Distribution::fixed(0.0));
        if d.is_constant() {
            d.count_at(0.5)
        } else if f.independent && self.q < 1.0 {
            // Drawn on its own; the largest document (quantile 1) has every array full.
            d.count_at(self.rng.random::<f64>())
        } else {
            d.count_at(self.q)
        }
    }

    /// A reference, or an array of them. With `owned` (`[start, end)` of `children` generated
    /// ones), an array lists those children first, then children that were not generated
    /// (indexes from `children` on): a one-to-many parent never lists another's child.
    /// With `key` (its name and field), the references are the entity's values of that key
    /// ([`key_value`]), not ObjectIds.
    fn reference(
        &mut self,
        f: &Field,
        entity: &str,
        count: u64,
        path: FieldPath<'_>,
        owned: Option<((u64, u64), u64)>,
        key: Option<(&str, &Field)>,
    ) -> Bson {
        let mut next_owned = owned.map(|((s, _), _)| s);
        // References past the sample's documents (a parent's children beyond its share of the
        // sampled ones, an entity with none sampled), by path: said in `outside`.
        let mut beyond: Vec<(String, u64)> = Vec::new();
        // Every element of an array notes the same path: compared as it is, rendered once.
        let mut note = |p: FieldPath<'_>| match beyond.iter_mut().find(|(q, _)| p.is(q)) {
            Some((_, n)) => *n += 1,
            None => beyond.push((p.render(), 1)),
        };
        let id = |seed: u64, i: u64| match key {
            Some((k, kf)) => key_value(seed, entity, k, kf, i),
            None => Bson::ObjectId(entity_oid(seed, entity, i)),
        };
        let pick = |g: &mut Gen,
                    next_owned: &mut Option<u64>,
                    at: FieldPath<'_>,
                    note: &mut dyn FnMut(FieldPath<'_>)| {
            if let (Some(k), Some(((_, end), children))) = (*next_owned, owned) {
                if k < end {
                    *next_owned = Some(k + 1);
                    return id(g.seed, k);
                }
                note(at);
                let i = children.saturating_add(g.rng.random_range(0..u32::MAX as u64));
                return id(g.seed, i);
            }
            let i = if count > 0 {
                g.rng.random_range(0..count)
            } else {
                note(at);
                g.rng.random_range(0..u32::MAX as u64)
            };
            id(g.seed, i)
        };
        let id_path = path.child("_id");
        let v = match f.ty {
            BsonType::ObjectId => pick(self, &mut next_owned, path, &mut note),
            ty if key.is_some() && ty != BsonType::Array => {
                pick(self, &mut next_owned, path, &mut note)
            }
            BsonType::Array => {
                let n = self.count(f);
                let m = n.min(self.max_elements).min(self.budget);
                self.budget -= m;
                let elem = f.element();
                let mut out = Vec::with_capacity(m.min(ELEMENTS_RESERVED) as usize);
                // One document names each entity once (a user follows another once, a product
                // lists a part once) while there are enough of them: a repeated id is drawn
                // again, a few times at most.
                // The elements are references: ObjectIds, or a key's values.
                let refs = elem.ty == BsonType::ObjectId || key.is_some();
                let distinct = owned.is_none() && count > 0 && refs;
                // Drawn without replacement (Floyd's algorithm, `rand::seq::index::sample`):
                // the entities a document names are distinct, up to the sample's `count` of
                // them; past that the rest repeat some (every id still names a document of the
                // sample, which an export read back by `squillion infer` needs to resolve).
                let mut chosen: Vec<u64> = if distinct {
                    let (n, k) = (
                        usize::try_from(count).unwrap_or(usize::MAX),
                        usize::try_from(m.min(count)).unwrap_or(usize::MAX),
                    );
                    let mut v: Vec<u64> = rand::seq::index::sample(&mut self.rng, n, k)
                        .into_iter()
                        .map(|i| i as u64)
                        .collect();
                    v.reverse();
                    v
                } else {
                    Vec::new()
                };
                for _ in 0..m {
                    if self.bytes_left == 0 {
                        break;
                    }
                    if refs {
                        let id = match chosen.pop() {
                            Some(i) => id(self.seed, i),
                            None => pick(self, &mut next_owned, path, &mut note),
                        };
                        out.push(id);
                    } else {
                        let mut v = self.value(&elem, path);
                        if let (Bson::Document(d), Some(BsonType::ObjectId)) =
                            (&mut v, elem.fields.get("_id").map(|x| x.ty))
                        {
                            if let Bson::ObjectId(o) =
                                pick(self, &mut next_owned, id_path, &mut note)
                            {
                                d.insert("_id", o);
                            }
                        }
                        out.push(v);
                    }
                }
                self.note_short_array(path, &mut out, m, n);
                Bson::Array(out)
            }
            _ => self.value(f, path),
        };
        self.outside.extend(beyond);
        v
    }

    fn value(&mut self, f: &Field, path: FieldPath<'_>) -> Bson {
        match f.ty {
            BsonType::Double => Bson::Double(self.number(f)),
            BsonType::Decimal => {
                let v = self.number(f);
                Bson::Decimal128(
                    format!("{v:.2}")
                        .parse()
                        .unwrap_or_else(|_| bson::Decimal128::from_bytes([0; 16])),
                )
            }
            BsonType::Int => Bson::Int32(
                self.integer(f)
                    .clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32,
            ),
            BsonType::Long => Bson::Int64(self.integer(f)),
            BsonType::Bool => Bson::Boolean(self.rng.random()),
            BsonType::Date => Bson::DateTime(DateTime::from_millis(self.date(f))),
            BsonType::Timestamp => Bson::Timestamp(bson::Timestamp {
                time: (self.date(f) / 1000) as u32,
                increment: self.rng.random_range(1..1000),
            }),
            BsonType::ObjectId => {
                if let Some(id) = self.nested_reference(path) {
                    return id;
                }
                let mut b = [0u8; 12];
                self.rng.fill(&mut b);
                Bson::ObjectId(ObjectId::from_bytes(b))
            }
            BsonType::Null => Bson::Null,
            BsonType::MinKey => Bson::MinKey,
            BsonType::MaxKey => Bson::MaxKey,
            BsonType::String => Bson::String(self.string(f)),
            BsonType::JavaScript => Bson::JavaScriptCode(self.string(f)),
            BsonType::BinData => Bson::Binary(Binary {
                subtype: bson::spec::BinarySubtype::Generic,
                bytes: self.binary(f),
            }),
            BsonType::Regex => {
                let n = self.draw_len(&f.length_distribution()) as usize;
                let pattern = repeat_to("ab.c*".to_string(), n);
                match (
                    bson::raw::CString::try_from(pattern),
                    bson::raw::CString::try_from(""),
                ) {
                    (Ok(pattern), Ok(options)) => {
                        Bson::RegularExpression(bson::Regex { pattern, options })
                    }
                    _ => Bson::Null,
                }
            }
            BsonType::Object if f.is_map() => Bson::Document(self.map(f, path)),
            BsonType::Object => Bson::Document(self.object(&f.fields, path)),
            BsonType::Array => {
                let n = self.count(f);
                let m = n.min(self.max_elements).min(self.budget);
                self.budget -= m;
                let elem = f.element();
                let mut out = Vec::with_capacity(m.min(ELEMENTS_RESERVED) as usize);
                for _ in 0..m {
                    if self.bytes_left == 0 {
                        break;
                    }
                    out.push(self.value(&elem, path));
                }
                self.note_short_array(path, &mut out, m, n);
                Bson::Array(out)
            }
        }
    }

    /// Returns the id of a document of the sample when `path` is a reference inside a
    /// sub-document ([`Refs::nested`]): one of the entity's generated documents, drawn (or,
    /// when none was generated, an id past them, said in `outside`).
    fn nested_reference(&mut self, path: FieldPath<'_>) -> Option<Bson> {
        if self.nested.is_empty() {
            return None;
        }
        let p = path.render();
        let (_, entity, count) = self.nested.iter().find(|(q, ..)| *q == p)?;
        let i = if *count > 0 {
            self.rng.random_range(0..*count)
        } else {
            match self.outside.iter_mut().find(|(q, _)| *q == p) {
                Some((_, n)) => *n += 1,
                None => self.outside.push((p, 1)),
            }
            self.rng.random_range(0..u32::MAX as u64)
        };
        Some(Bson::ObjectId(entity_oid(self.seed, entity, i)))
    }

    /// Records an array of `n` elements at `path` of which only `out.len()` (at most the `m`
    /// planned) were materialized, and gives back the elements budget it did not use.
    fn note_short_array(&mut self, path: FieldPath<'_>, out: &mut [Bson], m: u64, n: u64) {
        let got = out.len() as u64;
        self.budget = self.budget.saturating_add(m.saturating_sub(got));
        if got < n {
            self.truncated.push((path.render(), got, n));
        }
    }

    /// A map ([`Field::map_of`]): as many entries as an array of its count would have
    /// elements, each named by a distinct key of a drawn length (the entry's number in hex,
    /// then random hex digits: ids, as maps keyed by data hold) and holding a sub-document of
    /// the map's fields.
    fn map(&mut self, f: &Field, path: FieldPath<'_>) -> Document {
        let n = self.count(f);
        let m = n.min(self.max_elements).min(self.budget);
        self.budget -= m;
        let key_length = f.length_distribution();
        let mut d = Document::new();
        for i in 0..m {
            if self.bytes_left == 0 {
                break;
            }
            let len = usize::try_from(self.draw_len(&key_length)).unwrap_or(0);
            let mut key = format!("{i:x}");
            while key.len() < len {
                let digit = char::from_digit(self.rng.random_range(0..16), 16).unwrap_or('0');
                key.push(digit);
            }
            let v = self.object(&f.fields, path);
            d.insert(key, v);
        }
        let got = d.len() as u64;
        self.budget = self.budget.saturating_add(m.saturating_sub(got));
        if got < n {
            self.truncated.push((path.render(), got, n));
        }
        d
    }

    /// A sub-document of `fields`: each present field's value, in field order.
    ///
    /// The values are drawn first (in the same order as ever); the document is then a copy of a
    /// skeleton with the same field names ([`Gen::skeletons`]) with the values put in: the
    /// same document as inserting them one by one, without hashing every name of every
    /// element of an array of thousands of sub-documents (a host's 5,000 log messages).
    fn object(&mut self, fields: &Fields, path: FieldPath<'_>) -> Document {
        let start = self.pending.len();
        for (i, (n, f)) in fields.iter().enumerate() {
            if self.present(f) {
                self.fields_made = self.fields_made.saturating_add(1);
                let v = self.value(f, path.child(n));
                self.pending.push((i, v));
            }
        }
        let names = || {
            self.pending
                .get(start..)
                .unwrap_or_default()
                .iter()
                .filter_map(|(i, _)| fields.0.get(*i).map(|(n, _)| n))
        };
        let same = |sk: &Document| sk.len() == self.pending.len() - start && sk.keys().eq(names());
        let mut d = match self.skeletons.iter().find(|sk| same(sk)).cloned() {
            Some(sk) => sk,
            None => {
                let sk: Document = names().map(|n| (n.clone(), Bson::Null)).collect();
                if sk.len() != self.pending.len() - start {
                    // A name given twice: its later value replaces the earlier in place.
                    return self
                        .pending
                        .drain(start..)
                        .filter_map(|(i, v)| fields.0.get(i).map(|(n, _)| (n.clone(), v)))
                        .collect();
                }
                if self.skeletons.len() >= SKELETONS {
                    self.skeletons.remove(0);
                }
                self.skeletons.push(sk.clone());
                sk
            }
        };
        for ((_, slot), (_, v)) in d.iter_mut().zip(self.pending.drain(start..)) {
            *slot = v;
        }
        d
    }

    fn number(&mut self, f: &Field) -> f64 {
        let (lo, hi) = (
            f.min.unwrap_or(0.0),
            f.max.unwrap_or(if f.kind == Some(ValueKind::Price) {
                100.0
            } else {
                1000.0
            }),
        );
        match f.kind {
            Some(ValueKind::Counter) => 0.0,
            Some(ValueKind::Sequence) => self.index as f64,
            Some(ValueKind::Price) => {
                ((lo + self.rng.random::<f64>() * (hi - lo)) * 100.0).round() / 100.0
            }
            _ => lo + self.rng.random::<f64>() * (hi - lo),
        }
    }

    fn integer(&mut self, f: &Field) -> i64 {
        match f.kind {
            Some(ValueKind::Counter) => 0,
            Some(ValueKind::Sequence) => self.index as i64,
            _ => {
                let lo = f.min.unwrap_or(0.0) as i64;
                let hi = f.max.unwrap_or(1000.0) as i64;
                if hi <= lo {
                    lo
                } else {
                    self.rng.random_range(lo..=hi)
                }
            }
        }
    }

    fn date(&mut self, f: &Field) -> i64 {
        let (a, b) = date_span(f);
        if b <= a {
            a
        } else {
            self.rng.random_range(a..b)
        }
    }

    /// Returns the bytes of a `binData` value: with a textual `kind` ([`binary_is_text`]) the
    /// ASCII text a string of that kind would hold, which compresses as text does; otherwise
    /// seeded pseudo-random bytes, which do not compress, as real attachments (images, PDFs,
    /// archives: already compressed) barely do.
    fn binary(&mut self, f: &Field) -> Vec<u8> {
        if binary_is_text(f) {
            return self.string(f).into_bytes();
        }
        let n = self.draw_len(&f.length_distribution());
        // The document's stream gives 64 bytes, as it always has (the values drawn after this
        // one stay the same); the first 32 seed a stream of the value's own, which fills any
        // length quickly (ChaCha8 runs at gigabytes a second).
        let (mut seed, mut unused) = ([0u8; 32], [0u8; 32]);
        self.rng.fill(&mut seed);
        self.rng.fill(&mut unused);
        let mut bytes = vec![0u8; usize::try_from(n).unwrap_or(0)];
        ChaCha8Rng::from_seed(seed).fill_bytes(&mut bytes);
        bytes
    }

    fn string(&mut self, f: &Field) -> String {
        if !f.values.is_empty() {
            if self.q >= 1.0 {
                // The largest document holds the longest value.
                let longest = f.values.iter().max_by_key(|v| v.len());
                return longest.cloned().unwrap_or_default();
            }
            let i = self.rng.random_range(0..f.values.len());
            return f.values.get(i).cloned().unwrap_or_default();
        }
        let len = self.draw_len(&f.length_distribution()) as usize;
        let kind = f.kind.unwrap_or(ValueKind::Text);
        let s = match kind {
            ValueKind::Name => format!("{} {}", self.pick(FIRST), self.pick(LAST)),
            ValueKind::Username => format!(
                "{}{}",
                self.pick(FIRST).to_lowercase(),
                self.rng.random_range(1..999)
            ),
            ValueKind::Email => {
                let local = format!(
                    "{}.{}",
                    self.pick(FIRST).to_lowercase(),
                    self.pick(LAST).to_lowercase()
                );
                let domain = "@example.com";
                let room = len.saturating_sub(domain.len()).max(1);
                let local = fit(local, room, self);
                return fit(format!("{local}{domain}"), len, self);
            }
            ValueKind::Hostname => format!("{}.example.com", self.pick(WORDS)),
            ValueKind::Ip => format!(
                "10.{}.{}.{}",
                self.rng.random_range(0..256),
                self.rng.random_range(0..256),
                self.rng.random_range(0..256)
            ),
            ValueKind::Url => format!(
                "https://example.com/{}/{}",
                self.pick(WORDS),
                self.pick(WORDS)
            ),
            ValueKind::Code => format!(
                "{:03}-{}-{:03}",
                self.rng.random_range(0..1000),
                self.pick(&["aff", "bcd", "xyz"]),
                self.rng.random_range(0..1000)
            ),
            ValueKind::Word => self.pick(WORDS).to_string(),
            _ => {
                // Words up to 256 bytes; longer text repeats them (cheap for megabytes).
                // Room for the last word too, so the text is allocated once.
                let mut t = String::with_capacity(len.min(256) + 16);
                while t.len() < len.min(256) {
                    if !t.is_empty() {
                        t.push(' ');
                    }
                    t.push_str(self.pick(WORDS));
                }
                repeat_to(t, len)
            }
        };
        fit(s, len, self)
    }
}

/// Returns the range a date field's values are drawn from, in milliseconds since the epoch:
/// its `from` and `to` days, 2020-01-01 to 2025-01-01 when not given.
fn date_span(f: &Field) -> (i64, i64) {
    let day =
        |s: &Option<String>, d: i64| s.as_deref().and_then(crate::date::parse_date).unwrap_or(d);
    let (a, b) = (day(&f.from, 18_262), day(&f.to, 20_089));
    (a.min(b) * 86_400_000, a.max(b) * 86_400_000)
}

/// Returns true when a `binData` field holds text: its `kind` is one that generates text
/// (`text`, `name`, `email`, `username`, `word`, `hostname`, `ip`, `url`, `code`, or `enum`
/// with its `values`). Without a kind, or with a numeric or date kind (meaningless for bytes),
/// the bytes are random (docs/metrics.md, "What the storage estimate assumes").
pub fn binary_is_text(f: &Field) -> bool {
    matches!(
        f.kind,
        Some(
            ValueKind::Text
                | ValueKind::Name
                | ValueKind::Email
                | ValueKind::Username
                | ValueKind::Word
                | ValueKind::Hostname
                | ValueKind::Ip
                | ValueKind::Url
                | ValueKind::Code
                | ValueKind::Enum
        )
    )
}

/// Returns `s` cut or padded (with lorem letters) to exactly `len` bytes (all ASCII).
fn fit(mut s: String, len: usize, g: &mut Gen) -> String {
    if s.len() > len {
        s.truncate(len);
    }
    while s.len() < len.min(256) {
        let w = g.pick(WORDS);
        let room = len - s.len();
        s.push_str(w.get(..room.min(w.len())).unwrap_or("x"));
    }
    repeat_to(s, len)
}

/// Returns the ASCII text `s` repeated (or cut) to exactly `len` bytes; `s` empty gives `x`s.
fn repeat_to(mut s: String, len: usize) -> String {
    // Long enough: cut in place, not copied (the copy below would hold the same bytes).
    if s.len() >= len && s.is_char_boundary(len) {
        s.truncate(len);
        return s;
    }
    let block = if s.is_empty() { "x".to_string() } else { s };
    let mut out = String::with_capacity(len);
    while out.len() < len {
        let room = len - out.len();
        out.push_str(block.get(..room.min(block.len())).unwrap_or("x"));
    }
    out
}

/// Returns one document with `fields`, every array at quantile `q` of its count distribution
/// (arrays with a fixed count get exactly that count), for tests and previews.
pub fn document_from_fields(fields: &Fields, q: f64, seed: u64) -> Document {
    let mut g = Gen {
        rng: ChaCha8Rng::seed_from_u64(seed),
        q,
        index: 0,
        max_elements: u64::MAX,
        budget: u64::MAX,
        bytes_left: u64::MAX,
        shortened: 0,
        fields_made: 0,
        truncated: vec![],
        outside: vec![],
        nested: &[],
        seed,
        pending: Vec::new(),
        skeletons: Vec::new(),
    };
    g.object(fields, FieldPath::root(""))
}

/// Where a generated value sits (`a.b.c`), spelled out only when an array is cut short
/// (writing it for every value cost a string per field of every generated document).
#[derive(Debug, Clone, Copy)]
struct FieldPath<'a> {
    parent: Option<&'a FieldPath<'a>>,
    name: &'a str,
}

impl<'a> FieldPath<'a> {
    /// Returns a top-level path (`name` as is).
    fn root(name: &'a str) -> FieldPath<'a> {
        FieldPath { parent: None, name }
    }

    /// Returns the path of field `name` under this one.
    fn child(&'a self, name: &'a str) -> FieldPath<'a> {
        FieldPath {
            parent: Some(self),
            name,
        }
    }

    /// Returns the path as text: the parent's, a dot, the name.
    fn render(&self) -> String {
        match self.parent {
            Some(p) => format!("{}.{}", p.render(), self.name),
            None => self.name.to_string(),
        }
    }

    /// True when the path as text ([`FieldPath::render`]) is `text`, found without rendering
    /// it (a reference array notes its path once per element).
    fn is(&self, text: &str) -> bool {
        let Some(rest) = text.strip_suffix(self.name) else {
            return false;
        };
        match self.parent {
            Some(p) => rest.strip_suffix('.').is_some_and(|r| p.is(r)),
            None => rest.is_empty(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{document_from_fields, owned_range, owner_of};
    use crate::model::distribution::Distribution;
    use crate::model::field::{BsonType, Field, Fields};
    use bson::Bson;

    /// An array's sub-documents (copies of the last ones' names, [`super::Gen::object`]) hold
    /// exactly their present fields in field order, whichever are present; a name given twice
    /// holds its later value in the earlier place, as inserting one by one leaves it.
    #[test]
    fn sub_documents_hold_their_present_fields_in_order() {
        let optional = Field {
            presence: Some(0.5),
            ..Field::of(BsonType::Int)
        };
        let item = Fields(vec![
            ("t".to_string(), Field::of(BsonType::Date)),
            ("o".to_string(), optional),
            ("m".to_string(), Field::string_of_len(5)),
        ]);
        let twice = Fields(vec![
            ("a".to_string(), Field::of(BsonType::Int)),
            ("b".to_string(), Field::of(BsonType::Bool)),
            ("a".to_string(), Field::string_of_len(3)),
        ]);
        let fields = Fields(vec![
            (
                "items".to_string(),
                Field::array_of_objects(item, Distribution::fixed(200.0)),
            ),
            (
                "twice".to_string(),
                Field::array_of_objects(twice, Distribution::fixed(3.0)),
            ),
        ]);
        let d = document_from_fields(&fields, 0.5, 11);
        let Ok(items) = d.get_array("items") else {
            panic!("items");
        };
        let mut shapes = std::collections::BTreeSet::new();
        for v in items {
            let Bson::Document(e) = v else {
                panic!("a sub-document");
            };
            let keys: Vec<&str> = e.keys().map(String::as_str).collect();
            assert!(keys == ["t", "o", "m"] || keys == ["t", "m"], "{keys:?}");
            assert!(matches!(e.get("t"), Some(Bson::DateTime(_))));
            assert!(matches!(e.get("m"), Some(Bson::String(m)) if m.len() == 5));
            assert!(e.get("o").is_none_or(|o| matches!(o, Bson::Int32(_))));
            shapes.insert(keys.len());
        }
        assert_eq!(shapes.len(), 2, "both with and without the optional field");
        let Ok(twice) = d.get_array("twice") else {
            panic!("twice");
        };
        for v in twice {
            let Bson::Document(e) = v else {
                panic!("a sub-document");
            };
            let keys: Vec<&str> = e.keys().map(String::as_str).collect();
            assert_eq!(keys, ["a", "b"]);
            assert!(matches!(e.get("a"), Some(Bson::String(a)) if a.len() == 3));
        }
    }

    /// Every generated child is in exactly one parent's range, and `owner_of` names it.
    #[test]
    fn owned_ranges_partition_the_children_and_invert() {
        let weights = [3.0, 3.0, 10.0, 10.5, 40.0, 40.0, 41.0];
        for children in [0u64, 1, 7, 100, 1_000] {
            let mut next = 0;
            for j in 0..weights.len() as u64 {
                let (s, e) = owned_range(&weights, children, j);
                assert_eq!(s, next, "{children} {j}");
                for i in s..e {
                    assert_eq!(owner_of(&weights, children, i), j, "{children} {i}");
                }
                next = e;
            }
            assert_eq!(next, children);
        }
        // A parent with no weight (the second, 3.0 → 3.0) owns nothing.
        assert_eq!(
            owned_range(&weights, 1_000, 1).0,
            owned_range(&weights, 1_000, 1).1
        );
        assert_eq!(owned_range(&[], 10, 0), (0, 0));
    }
}
