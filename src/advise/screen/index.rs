//! Index costs without the engine: the bytes of every index at full scale and the index keys a
//! write inserts or deletes, by the evaluation's own definitions (`index_bytes`: keys ×
//! (mean key bytes + 8 for the record id); `index_keys_written`: keys inserted plus deleted,
//! `_id_` included, one per array element of a multikey index), from the layout's fields
//! alone.

use bson::{Bson, Document};

use crate::arith::{value_size, At};
use crate::design::{Collection, Command, CommandKind, DocShape};
use crate::model::distribution::round_count;
use crate::model::{BsonType, Distribution, Field, Fields};

/// Bytes of the record id in each index entry, as the evaluation counts them.
const RECORD_ID_BYTES: f64 = 8.0;

/// Elements of one array the evaluation's sample holds at most (`generate`'s `max_elements`):
/// its index keys per document are counted on arrays cut there.
const SAMPLE_MAX_ELEMENTS: f64 = 10_000.0;

/// Elements an array may reach at its largest for the evaluation's sample to hold it whole in
/// every document: past it, the sample's per-collection element budget and 10,000-element cut
/// shorten the long arrays, and 500 documents seldom draw a heavy tail, so the engine's index
/// estimate counts fewer keys than the full scale has.
const SAMPLE_FULL_ELEMENTS: f64 = 1_000.0;

/// Index keys one write puts in or takes out, for the typical subject, with the low and high
/// ends of what the engine may count.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct KeyBand {
    /// The screened figure.
    pub mid: f64,
    /// The fewest the engine may count.
    pub low: f64,
    /// The most.
    pub high: f64,
}

impl KeyBand {
    /// Returns a band with no width.
    fn exact(v: f64) -> KeyBand {
        KeyBand {
            mid: v,
            low: v,
            high: v,
        }
    }

    /// Returns the sum of two bands.
    fn plus(self, o: KeyBand) -> KeyBand {
        KeyBand {
            mid: self.mid + o.mid,
            low: self.low + o.low,
            high: self.high + o.high,
        }
    }

    /// Returns the band times `k`.
    pub fn times(self, k: f64) -> KeyBand {
        KeyBand {
            mid: self.mid * k,
            low: self.low * k,
            high: self.high * k,
        }
    }
}

/// One key path as it resolves in a document shape.
struct KeyPath {
    /// The array the path runs through (multikey), with its element counts.
    array: Option<Distribution>,
    /// Mean bytes of the key value (0 when missing: a null key).
    value_bytes: f64,
}

/// Returns how `path` resolves in `fields`.
fn resolve(fields: &Fields, path: &str) -> KeyPath {
    let mut fields = fields;
    let mut array = None;
    let mut presence = 1.0;
    let mut segments = path.split('.').peekable();
    while let Some(seg) = segments.next() {
        let Some(f) = fields.get(seg) else {
            // Missing: one null key a document (the same one for every element of an array,
            // which a multikey index keeps once).
            return KeyPath {
                array: None,
                value_bytes: 0.0,
            };
        };
        presence *= f.presence();
        let last = segments.peek().is_none();
        let (value, next): (Field, Option<&Fields>) = if f.ty == BsonType::Array {
            if array.is_none() {
                array = f.count.clone();
            }
            (f.element(), (!last).then_some(&f.fields))
        } else {
            (f.clone(), (!last).then_some(&f.fields))
        };
        if last {
            return KeyPath {
                array,
                value_bytes: presence * value_size(&value, At::Mean).bytes,
            };
        }
        match next {
            Some(n) if value.ty == BsonType::Object || f.ty == BsonType::Array => fields = n,
            _ => {
                return KeyPath {
                    array,
                    value_bytes: 0.0,
                }
            }
        }
    }
    KeyPath {
        array,
        value_bytes: 0.0,
    }
}

/// The key paths of an index, `_id_`'s for `None`.
fn paths(keys: Option<&Document>) -> Vec<String> {
    keys.map_or_else(|| vec!["_id".to_string()], |k| k.keys().cloned().collect())
}

/// Every index of `c`, `_id_` first, as its key paths.
fn indexes(c: &Collection) -> Vec<Vec<String>> {
    std::iter::once(paths(None))
        .chain(c.indexes.iter().map(|i| paths(Some(&i.keys))))
        .collect()
}

/// Keys an array of `n` elements puts in a multikey index: one per element, one (undefined)
/// for an empty array.
fn keys_for(n: f64) -> f64 {
    n.max(1.0)
}

/// Returns the mean keys per document and the mean bytes per key of one index over `shape`,
/// and whether the index runs through an array the evaluation's sample may cut short (one
/// whose largest count passes [`SAMPLE_FULL_ELEMENTS`]).
fn index_of_shape(shape: &DocShape, paths: &[String], sample: f64) -> (f64, f64, bool) {
    let resolved: Vec<KeyPath> = paths.iter().map(|p| resolve(&shape.fields, p)).collect();
    let key_bytes: f64 = resolved
        .iter()
        .enumerate()
        .map(|(i, k)| 1.0 + (crate::arith::digits(i as u64) + 1) as f64 + k.value_bytes)
        .sum();
    match resolved.iter().find_map(|k| k.array.as_ref()) {
        Some(d) => {
            let keys = |x: f64| keys_for(round_count(x) as f64).min(SAMPLE_MAX_ELEMENTS);
            let mean = d.integrate(keys);
            // What a sample of `sample` documents seldom draws: the tail past its (1 − 1/n)
            // quantile. When that tail holds a tenth of the mean or more (a heavy tail), the
            // sample's estimate may fall short of the mean integrated here; so may a
            // collection smaller than the sample, materialized whole and each document drawn,
            // and an array longer than the sample's documents of an entity (references to
            // them repeat some: the engine counts a document's equal keys once).
            let sample = sample.max(1.0);
            let edge = d.quantile(1.0 - 1.0 / sample);
            let below_edge = d.integrate(|x| keys(x.min(edge)));
            let heavy = mean > 0.0 && (mean - below_edge) / mean >= 0.1;
            (
                mean,
                key_bytes,
                d.max() > SAMPLE_FULL_ELEMENTS || d.max() > sample || shape.count < sample || heavy,
            )
        }
        None => (1.0, key_bytes, false),
    }
}

/// The index bytes of a collection at full scale.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct IndexBytes {
    /// Keys × (mean key bytes + 8), every index, `_id_` included.
    pub bytes: f64,
    /// Of those, the bytes of the keys past the first of each document in multikey indexes
    /// over arrays the evaluation's sample cuts short: its estimate, made from the elements
    /// its sample holds (at most 10,000 an array, fewer under its memory budget, and seldom
    /// the heavy tail of a 500-document sample), may leave them out. Arrays over
    /// [`SAMPLE_FULL_ELEMENTS`] at their largest count as cut.
    pub sample_may_miss: f64,
}

/// Returns the bytes of every index of `c` at full scale (`_id_` included); `sample` is the
/// documents per entity the evaluation materializes (its keys are counted there).
pub fn index_bytes(c: &Collection, sample: f64) -> IndexBytes {
    let mut out = IndexBytes::default();
    for paths in indexes(c) {
        for s in &c.shapes {
            let (per_doc, key_bytes, cut) = index_of_shape(s, &paths, sample);
            let bytes = (per_doc * s.count).round() * (key_bytes + RECORD_ID_BYTES);
            out.bytes += bytes;
            if cut {
                out.sample_may_miss += bytes - s.count * (key_bytes + RECORD_ID_BYTES);
            }
        }
    }
    out
}

/// Returns the keys one new (or deleted) document of `shape` has in every index of `c`: at
/// the median element counts (the typical subject's), between the least and the largest.
fn document_keys(c: &Collection, shape: &DocShape) -> KeyBand {
    indexes(c)
        .iter()
        .map(|paths| {
            let resolved: Vec<KeyPath> = paths.iter().map(|p| resolve(&shape.fields, p)).collect();
            match resolved.iter().find_map(|k| k.array.as_ref()) {
                Some(d) => KeyBand {
                    mid: keys_for(d.count_at(0.5) as f64),
                    low: keys_for(round_count(d.min()) as f64),
                    high: keys_for(round_count(d.max()) as f64).min(SAMPLE_MAX_ELEMENTS),
                },
                None => KeyBand::exact(1.0),
            }
        })
        .fold(KeyBand::default(), KeyBand::plus)
}

/// Returns the index keys write `c` (on collection `coll`) inserts plus deletes in one
/// document, for the typical subject, with the band the engine may count within.
pub fn written(coll: &Collection, c: &Command) -> KeyBand {
    match c.kind {
        CommandKind::Insert => {
            let shape = c
                .insert_shape
                .as_deref()
                .and_then(|l| coll.shape(l))
                .or(coll.shapes.first());
            match shape {
                // A continuation document is created holding one child id.
                Some(s) if s.label.ends_with(" continuation") => {
                    KeyBand::exact(indexes(coll).len() as f64)
                }
                Some(s) => document_keys(coll, s),
                None => KeyBand::exact(1.0),
            }
        }
        CommandKind::Delete => coll
            .shapes
            .first()
            .map_or(KeyBand::exact(1.0), |s| document_keys(coll, s)),
        CommandKind::Update => updated(coll, c),
        CommandKind::Find | CommandKind::Aggregate => KeyBand::default(),
    }
}

/// Returns the keys an update changes: per index whose key path it touches, one key per
/// element pushed or pulled (and one more when a `$slice` drops the oldest), two for a value
/// set (the old key out, the new in); 0 when the value written is the one there.
fn updated(coll: &Collection, c: &Command) -> KeyBand {
    let Some(u) = &c.update else {
        return KeyBand::default();
    };
    let ixs = indexes(coll);
    let mut band = KeyBand::default();
    for (op, body) in u {
        let Bson::Document(body) = body else { continue };
        for (field, v) in body {
            let touched = ixs
                .iter()
                .filter(|paths| paths.iter().any(|p| overlaps(p, field)))
                .count() as f64;
            if touched == 0.0 {
                continue;
            }
            let per = match op.as_str() {
                "$push" | "$addToSet" => {
                    let (each, slice) = match v {
                        Bson::Document(d) => (
                            d.get_array("$each").map_or(1, |a| a.len()) as f64,
                            d.contains_key("$slice"),
                        ),
                        _ => (1.0, false),
                    };
                    // A capped push may drop as many as it adds, or leave the array as it was.
                    KeyBand {
                        mid: each,
                        low: 0.0,
                        high: if slice { 2.0 * each } else { each },
                    }
                }
                "$pull" | "$pop" => KeyBand {
                    mid: 1.0,
                    low: 0.0,
                    high: 1.0,
                },
                _ => KeyBand {
                    mid: 2.0,
                    low: 0.0,
                    high: 2.0,
                },
            };
            band = band.plus(per.times(touched));
        }
    }
    if c.upsert {
        // An upsert that matches nothing inserts a whole document.
        if let Some(s) = coll.shapes.first() {
            band.high = band.high.max(document_keys(coll, s).high);
        }
    }
    band
}

/// Whether an index key path and an updated field name the same value or one inside the
/// other (`items` and `items.damage`).
fn overlaps(key: &str, field: &str) -> bool {
    let field = field.split(".$").next().unwrap_or(field);
    key == field || key.starts_with(&format!("{field}.")) || field.starts_with(&format!("{key}."))
}
