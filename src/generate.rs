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
//!
//! Where each part lives: the dataset, the seeds and the driver ([`generate_with`]) here; one
//! kind of document as a generator in `shape.rs`; where references point and how children
//! are dealt to parents in `refs.rs`; the values of one document in `values.rs`; buckets,
//! trees and a scaled export's spread in `bucket.rs`, `tree.rs` and `spread.rs`.

mod bucket;
mod refs;
mod shape;
mod spread;
mod tree;
mod values;

pub(crate) use refs::children_per_parent;
pub use shape::{shape_generators, Counts, GeneratedDocument, ShapeGenerator};
pub use spread::Spread;
use values::date_span;
pub use values::{binary_is_text, document_from_fields};

use bson::{oid::ObjectId, Bson, Document};

use crate::design::Layout;
use crate::model::field::{BsonType, Field};
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

#[cfg(test)]
mod tests {
    use super::document_from_fields;
    use super::refs::{owned_range, owner_of};
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
