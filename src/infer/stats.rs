//! What was seen of each field, accumulated document by document in bounded memory: type
//! counts, presence, length and count sketches, number and date ranges, sub-fields.

use std::collections::{BTreeMap, HashMap};

use bson::{Bson, Document};

use super::sketch::Sketch;
use crate::ejson::type_alias;
use crate::model::validate::MAX_FIELDS;

/// The sub-fields seen in documents (or in the objects of one field), in first-seen order.
#[derive(Debug, Clone, Default)]
pub struct ObjectStats {
    /// Objects seen (the denominator of each field's presence).
    pub seen: u64,
    /// Field name → what was seen of it, in the order names first appeared.
    pub fields: Vec<(String, FieldStats)>,
    /// Position of each name in `fields`.
    index: HashMap<String, usize>,
    /// Names not tracked because the object already had [`MAX_FIELDS`] of them.
    pub dropped_names: u64,
}

impl ObjectStats {
    /// Records one document or embedded object.
    pub fn add(&mut self, doc: &Document) {
        self.seen += 1;
        for (name, value) in doc {
            let slot = match self.index.get(name) {
                Some(&i) => self.fields.get_mut(i),
                None if self.fields.len() < MAX_FIELDS => {
                    self.index.insert(name.clone(), self.fields.len());
                    self.fields.push((name.clone(), FieldStats::default()));
                    self.fields.last_mut()
                }
                None => {
                    self.dropped_names += 1;
                    None
                }
            };
            if let Some((_, stats)) = slot {
                stats.add(value);
            }
        }
    }
}

/// What was seen of one field (or of the elements of one array).
#[derive(Debug, Clone, Default)]
pub struct FieldStats {
    /// Values seen (documents holding the field, or array elements).
    pub present: u64,
    /// `$type` alias → values of that type.
    pub types: BTreeMap<&'static str, u64>,
    /// Payload lengths of strings, binData, regex patterns and code.
    pub lengths: Sketch,
    /// Smallest and largest number seen.
    pub numbers: Option<(f64, f64)>,
    /// Earliest and latest date seen (milliseconds since the epoch).
    pub dates: Option<(i64, i64)>,
    /// Sub-fields of the objects seen.
    pub object: Option<Box<ObjectStats>>,
    /// Element counts and elements of the arrays seen.
    pub array: Option<Box<ArrayStats>>,
}

/// The arrays of one field: how many elements each had, and the elements themselves.
#[derive(Debug, Clone, Default)]
pub struct ArrayStats {
    /// Elements per array.
    pub counts: Sketch,
    /// Every element, as one field.
    pub elements: FieldStats,
}

impl FieldStats {
    /// Records one value.
    pub fn add(&mut self, value: &Bson) {
        self.present += 1;
        *self.types.entry(type_alias(value)).or_insert(0) += 1;
        match value {
            Bson::String(s) | Bson::Symbol(s) | Bson::JavaScriptCode(s) => {
                self.lengths.add(s.len() as u64)
            }
            Bson::JavaScriptCodeWithScope(c) => self.lengths.add(c.code.len() as u64),
            Bson::Binary(b) => self.lengths.add(b.bytes.len() as u64),
            Bson::RegularExpression(r) => self.lengths.add(r.pattern.len() as u64),
            Bson::Int32(n) => self.number(f64::from(*n)),
            Bson::Int64(n) => self.number(*n as f64),
            Bson::Double(n) if n.is_finite() => self.number(*n),
            Bson::Decimal128(d) => {
                if let Ok(n) = d.to_string().parse::<f64>() {
                    if n.is_finite() {
                        self.number(n);
                    }
                }
            }
            Bson::DateTime(d) => {
                let ms = d.timestamp_millis();
                self.dates = Some(match self.dates {
                    Some((lo, hi)) => (lo.min(ms), hi.max(ms)),
                    None => (ms, ms),
                });
            }
            Bson::Document(doc) => self.object.get_or_insert_with(Default::default).add(doc),
            Bson::Array(items) => {
                let array = self.array.get_or_insert_with(Default::default);
                array.counts.add(items.len() as u64);
                for item in items {
                    array.elements.add(item);
                }
            }
            _ => {}
        }
    }

    /// Records a number.
    fn number(&mut self, n: f64) {
        self.numbers = Some(match self.numbers {
            Some((lo, hi)) => (lo.min(n), hi.max(n)),
            None => (n, n),
        });
    }

    /// Returns the types seen, the most frequent first (ties by name), with their counts.
    pub fn ranked_types(&self) -> Vec<(&'static str, u64)> {
        let mut v: Vec<_> = self.types.iter().map(|(&t, &n)| (t, n)).collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        v
    }
}
