//! What a step costs at full scale, from the same statistics as the evaluation
//! ([`crate::stats::of_layout`]): documents and bytes read and written (the bytes written are
//! the oplog's volume), index keys built, and the seconds this takes at the plan's write rate;
//! and the one risk a migration refuses, a target document over 16 MiB.

use serde::Serialize;

use crate::design::{Collection, Layout};
use crate::human::thousands;
use crate::lang::Text;
use crate::size::MAX_BSON_SIZE;
use crate::stats::{of_layout, CollectionStats};

use super::{MigrateError, Side};

/// The oplog entry of an update besides the fields it sets: its `op`, `ns`, `ui`, `o2` (the
/// `_id`), `ts`, `t`, `v`, `wall` and the `$v: 2` diff's own keys, about 60 bytes for an
/// ObjectId `_id` (measured on mongod 7's `local.oplog.rs` entries of one-field updates).
pub(super) const UPDATE_OVERHEAD: f64 = 60.0;

/// A step's cost at full scale.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Cost {
    /// Documents read.
    pub docs_read: f64,
    /// Documents written (inserted or updated).
    pub docs_written: f64,
    /// Bytes read.
    pub bytes_read: f64,
    /// Bytes written: the documents inserted and the updates' changes, as the oplog holds them.
    pub bytes_written: f64,
    /// Index keys built or written.
    pub index_keys: f64,
    /// Seconds at the plan's write rate: documents written ÷ rate + index keys ÷ (10 × rate).
    pub seconds: f64,
}

impl Cost {
    /// Returns the sum of two costs.
    pub fn plus(&self, o: &Cost) -> Cost {
        Cost {
            docs_read: self.docs_read + o.docs_read,
            docs_written: self.docs_written + o.docs_written,
            bytes_read: self.bytes_read + o.bytes_read,
            bytes_written: self.bytes_written + o.bytes_written,
            index_keys: self.index_keys + o.index_keys,
            seconds: self.seconds + o.seconds,
        }
    }

    /// Returns this cost with its seconds at `rate` documents written per second.
    pub(super) fn timed(mut self, rate: f64) -> Cost {
        let rate = rate.max(1.0);
        self.seconds = self.docs_written / rate + self.index_keys / (rate * 10.0);
        self
    }
}

/// The full-scale statistics of both layouts, with the lookups the planner prices steps by.
pub(super) struct Sizes<'a> {
    from: &'a Layout,
    to: &'a Layout,
    from_stats: Vec<CollectionStats>,
    to_stats: Vec<CollectionStats>,
}

impl<'a> Sizes<'a> {
    /// Computes the statistics of both sides (each collection's size simulation once).
    pub(super) fn new(from: Side<'a>, to: Side<'a>) -> Sizes<'a> {
        Sizes {
            from: from.layout,
            to: to.layout,
            from_stats: of_layout(from.layout, &from.model.start_date),
            to_stats: of_layout(to.layout, &to.model.start_date),
        }
    }

    fn stats(&self, target: bool, coll: &str) -> Option<&CollectionStats> {
        let s = if target {
            &self.to_stats
        } else {
            &self.from_stats
        };
        crate::stats::named(s, coll)
    }

    /// Returns the documents of `coll` at full scale (in the target when `target`, else the
    /// source; 0 where it does not exist).
    pub(super) fn docs(&self, target: bool, coll: &str) -> f64 {
        self.stats(target, coll).map_or(0.0, |s| s.count)
    }

    /// Returns the bytes of `coll` at full scale.
    pub(super) fn bytes(&self, target: bool, coll: &str) -> f64 {
        self.stats(target, coll).map_or(0.0, |s| s.total_bytes)
    }

    /// Returns the mean bytes of array `field` in `coll`'s documents: its key, header and
    /// elements at their mean count and mean size.
    pub(super) fn array_bytes(&self, target: bool, coll: &str, field: &str) -> f64 {
        let layout = if target { self.to } else { self.from };
        let (Some(c), Some(st)) = (layout.collection(coll), self.stats(target, coll)) else {
            return 0.0;
        };
        let mut total = 0.0;
        let mut docs = 0.0;
        for (shape, ss) in c.shapes.iter().zip(&st.shapes) {
            let Some(a) = ss.arrays.iter().find(|a| a.field == field) else {
                continue;
            };
            let n = shape
                .growing
                .iter()
                .find(|g| g.field == field)
                .map_or(0.0, |g| g.count.mean());
            let digits = if n >= 10.0 {
                n.log10().floor() + 1.0
            } else {
                1.0
            };
            let value = 5.0 + n * (2.0 + a.element_bytes.bytes as f64 + digits);
            total += ss.count * (2.0 + field.len() as f64 + value);
            docs += ss.count;
        }
        if docs > 0.0 {
            total / docs
        } else {
            0.0
        }
    }

    /// Returns the indexes (with `_id`) of `coll` in the target: the keys each document
    /// written there adds.
    pub(super) fn indexes(&self, coll: &str) -> f64 {
        1.0 + self.to.collection(coll).map_or(0, |c| c.indexes.len()) as f64
    }
}

/// Returns the bytes of an update that sets fields of `field_bytes` (name and value) in one
/// document, as the oplog holds it.
pub(super) fn update_bytes(field_bytes: f64) -> f64 {
    UPDATE_OVERHEAD + field_bytes
}

/// Returns the bytes of one reference field named `name` holding an ObjectId.
pub(super) fn reference_bytes(name: &str) -> f64 {
    2.0 + name.len() as f64 + 12.0
}

impl Sizes<'_> {
    /// Refuses the migration when a document the target lays out is over 16 MiB at full
    /// scale where the source's documents of the same collection are not: the step that writes
    /// it would fail there (mongod refuses documents over 16 MiB), so the plan names the
    /// documents and the design's own fix instead. Read from the statistics the planner prices
    /// its steps by, computed once.
    pub(super) fn refuse_over_limit(&self) -> Result<(), MigrateError> {
        // `of_layout` keeps the layout's order.
        for (c, st) in self.to.collections.iter().zip(&self.to_stats) {
            let before = self.stats(false, &c.name);
            for ss in &st.shapes {
                let Some(over) = &ss.over_limit else {
                    continue;
                };
                let was_over = before.is_some_and(|b| {
                    b.shapes
                        .iter()
                        .any(|x| x.label == ss.label && x.over_limit.is_some())
                });
                if was_over {
                    continue;
                }
                return Err(MigrateError::OverLimit {
                    collection: c.name.clone(),
                    documents: over_limit_documents(ss, over.documents),
                    fix: fix_for(c, ss),
                });
            }
        }
        Ok(())
    }
}

/// Names the documents over 16 MiB: how many, and from which count of which array.
fn over_limit_documents(ss: &crate::stats::ShapeStats, documents: f64) -> Text {
    let n = documents.ceil().max(1.0) as u64;
    let arrays = ss
        .arrays
        .iter()
        .filter_map(|a| {
            let b = a.break_point.as_ref()?;
            Some(
                Text::new("migrate-over-array")
                    .arg("field", &a.field)
                    .arg("count", thousands(b.count))
                    .arg("largest", thousands(a.max_count)),
            )
        })
        .collect::<Vec<_>>();
    let text = if arrays.is_empty() {
        Text::new("migrate-over-documents")
    } else {
        Text::new("migrate-over-documents-arrays").clauses("arrays", arrays)
    };
    text.arg("count", thousands(n))
        .arg("total", thousands(ss.count.round() as u64))
        .arg("shape", &ss.label)
        .arg("bytes", thousands(ss.largest().0.bytes))
        .arg("allowed", thousands(MAX_BSON_SIZE))
}

/// Returns the design's own fix for a collection whose documents pass 16 MiB.
fn fix_for(c: &Collection, ss: &crate::stats::ShapeStats) -> Text {
    let arrays: Vec<&str> = ss
        .arrays
        .iter()
        .filter(|a| a.break_point.is_some())
        .map(|a| a.relationship.as_str())
        .collect();
    if arrays.is_empty() {
        return Text::new("migrate-fix-fields").arg("collection", &c.name);
    }
    Text::new("migrate-fix-arrays").arg("relationships", arrays.join(", "))
}
