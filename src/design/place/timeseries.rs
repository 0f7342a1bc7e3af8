//! The native time-series strategy's collection: the bucket documents the server keeps in
//! `system.buckets.<child>` (MongoDB 5.0+), one per parent (the `metaField`) and time span,
//! with the measurements stored column by column (bucket version 1, uncompressed).

use super::{oid, Builder, DocShape};
use crate::design::error::DesignError;
use crate::design::names::{BUCKET_LABEL, META};
use crate::model::design::{time_series_fits, Granularity};
use crate::model::distribution::Distribution;
use crate::model::field::{BsonType, Field, Fields, ValueKind};
use crate::model::Relationship;

/// The most measurements a bucket holds: the server parameter `timeseriesBucketMaxCount`.
pub const BUCKET_MAX_COUNT: u64 = 1_000;

/// The most bytes of measurements a bucket holds: the server parameter
/// `timeseriesBucketMaxSize` (the measurements' BSON sizes summed).
pub const BUCKET_MAX_SIZE: u64 = 128_000;

/// Seconds in a day: the unit of a relationship's growth.
const DAY_SECONDS: f64 = 86_400.0;

/// Returns the measurements a bucket document holds, as the server's time-series view returns
/// them: one document per slot of its `data` columns (`{"0": v, …}`, in slot order) with the
/// value of every column that has that slot, and the bucket's `meta` under `parent_ref` when
/// given. `None` when `bucket` is not a bucket (or a projection of one): its `data` is not a
/// document of columns, each a document keyed by slot numbers.
pub fn unpack_bucket(
    bucket: &bson::Document,
    parent_ref: Option<&str>,
) -> Option<Vec<bson::Document>> {
    use bson::Bson;
    let Some(Bson::Document(data)) = bucket.get("data") else {
        return None;
    };
    let columns = !data.is_empty()
        && data.iter().all(|(_, c)| match c {
            Bson::Document(c) => c.keys().all(|k| k.parse::<u64>().is_ok()),
            _ => false,
        });
    if !columns {
        return None;
    }
    let mut slots: Vec<(u64, bson::Document)> = Vec::new();
    for (field, column) in data {
        let Bson::Document(column) = column else {
            continue;
        };
        for (slot, v) in column {
            let Ok(i) = slot.parse::<u64>() else {
                continue;
            };
            match slots.iter_mut().find(|(j, _)| *j == i) {
                Some((_, d)) => {
                    d.insert(field.clone(), v.clone());
                }
                None => {
                    let mut d = bson::Document::new();
                    d.insert(field.clone(), v.clone());
                    slots.push((i, d));
                }
            }
        }
    }
    slots.sort_by_key(|(i, _)| *i);
    Some(
        slots
            .into_iter()
            .map(|(_, mut d)| {
                if let (Some(m), Some(p)) = (bucket.get(META), parent_ref) {
                    d.insert(p, m.clone());
                }
                d
            })
            .collect(),
    )
}

/// Returns the measurements in one bucket of a typical parent: the fewest of the count rule
/// ([`BUCKET_MAX_COUNT`]), the size rule ([`BUCKET_MAX_SIZE`] ÷ one measurement's BSON bytes)
/// and the span rule (the typical parent's measurements per day × the granularity's span; a
/// relationship without growth is bounded by count and size only). At least 1.
pub fn measurements_per_bucket(
    r: &Relationship,
    granularity: Granularity,
    measurement_bytes: u64,
) -> u64 {
    let by_size = BUCKET_MAX_SIZE / measurement_bytes.max(1);
    let mut n = BUCKET_MAX_COUNT.min(by_size);
    let per_day = r.growth_typical();
    if per_day > 0.0 {
        let by_span = (per_day * granularity.span_seconds() as f64 / DAY_SECONDS).floor();
        n = n.min(by_span as u64);
    }
    n.max(1)
}

/// Returns `fields` as a column of `n` values: an object `{"0": v, "1": v, …}`.
fn column(field: &Field, n: u64) -> Field {
    Field {
        fields: Fields((0..n).map(|i| (i.to_string(), field.clone())).collect()),
        ..Field::of(BsonType::Object)
    }
}

impl Builder<'_> {
    /// Returns the measurement documents' fields as the application inserts them: `_id`, the
    /// child's own fields and the parent's id under the relationship's parent reference.
    pub(super) fn measurement_fields(&self, r: &Relationship) -> Result<Fields, DesignError> {
        let child = self.entity(&r.child)?;
        let mut f = Fields::default();
        f.push("_id", oid());
        for (n, x) in self.own_fields(child)?.iter() {
            f.push(n.clone(), x.clone());
        }
        f.push(r.parent_ref(), self.meta_field(r)?);
        Ok(f)
    }

    /// Returns the field the buckets' `meta` holds: the parent's `_id` as the parent declares
    /// it (a page's URL), an ObjectId otherwise.
    fn meta_field(&self, r: &Relationship) -> Result<Field, DesignError> {
        let parent = self.entity(&r.parent)?;
        Ok(parent.fields.get("_id").cloned().unwrap_or_else(oid))
    }

    /// Returns the shape of the bucket documents: `_id` (an ObjectId whose timestamp is the
    /// bucket's rounded minimum time), `control: {version: 1, min, max}` over every data field,
    /// `meta` (the parent's id) and `data: {field: {"0": v, …}}`, full buckets of
    /// [`measurements_per_bucket`] measurements.
    pub(super) fn time_series_shape(
        &self,
        r: &Relationship,
        granularity: Granularity,
    ) -> Result<DocShape, DesignError> {
        let parent = self.entity(&r.parent)?;
        let child = self.entity(&r.child)?;
        if !time_series_fits(self.model, r) {
            return Err(DesignError::Unsupported {
                relationship: r.name.clone(),
                message: format!(
                    "time_series needs \"{}\" to be a measurement: a date field, in no other relationship, and no workload step that reads, updates, deletes or moves one by itself",
                    r.child
                ),
            });
        }
        let measurement = self.measurement_fields(r)?;
        let pref = r.parent_ref();
        let data: Fields = Fields(
            measurement
                .iter()
                .filter(|(n, _)| **n != pref)
                .map(|(n, f)| (n.clone(), f.clone()))
                .collect(),
        );
        let bytes = crate::arith::document_size_of(&measurement, crate::arith::At::Mean).whole();
        let n = measurements_per_bucket(r, granularity, bytes);
        let mut control = Fields::default();
        control.push(
            "version",
            Field {
                kind: Some(ValueKind::Counter),
                ..Field::of(BsonType::Int)
            },
        );
        let bounds = Field {
            fields: data.clone(),
            ..Field::of(BsonType::Object)
        };
        control.push("min", bounds.clone());
        control.push("max", bounds);
        let mut f = Fields::default();
        f.push("_id", oid());
        f.push(
            "control",
            Field {
                fields: control,
                ..Field::of(BsonType::Object)
            },
        );
        f.push(META, self.meta_field(r)?);
        f.push(
            "data",
            Field {
                fields: Fields(
                    data.iter()
                        .map(|(name, x)| (name.clone(), column(x, n)))
                        .collect(),
                ),
                ..Field::of(BsonType::Object)
            },
        );
        let per = Distribution::Chunks {
            of: Box::new(r.cardinality.clone()),
            size: n as f64,
            less: 0.0,
        };
        Ok(DocShape {
            label: BUCKET_LABEL.into(),
            entity: Some(child.name.clone()),
            count: parent.count * per.mean(),
            fields: f,
            growing: vec![],
            copied: vec![],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rel(per_day: f64) -> Relationship {
        serde_json::from_value(serde_json::json!({
            "name": "logs", "parent": "host", "child": "logmsg",
            "cardinality": { "shape": "fixed", "value": 10 },
            "growth_per_day": { "typical": per_day }
        }))
        .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn the_tightest_rule_sets_the_bucket() {
        // 5,000 a day: 208 in an hour (seconds); in a day (minutes) 1,000 by count for
        // 120-byte measurements (1,066 fit 128,000 bytes), 984 by size for 130-byte ones.
        assert_eq!(
            measurements_per_bucket(&rel(5_000.0), Granularity::Seconds, 130),
            208
        );
        assert_eq!(
            measurements_per_bucket(&rel(5_000.0), Granularity::Minutes, 120),
            1_000
        );
        assert_eq!(
            measurements_per_bucket(&rel(5_000.0), Granularity::Minutes, 130),
            984
        );
        // 500-byte measurements: 256 by size.
        assert_eq!(
            measurements_per_bucket(&rel(5_000.0), Granularity::Hours, 500),
            256
        );
        // 10 a day at seconds: 0.4 an hour, still one measurement a bucket.
        assert_eq!(
            measurements_per_bucket(&rel(10.0), Granularity::Seconds, 130),
            1
        );
    }
}
