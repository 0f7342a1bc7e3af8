//! Collections a relationship strategy creates of its own: link collections, buckets and the
//! three feed collections.

use super::{int_field, oid, Builder, Collection, DocShape, GrowingArray};
use crate::design::error::DesignError;
use crate::design::names::{child_ref, relationship_collection_name, BUCKET_COUNT};
use crate::model::design::Strategy;
use crate::model::distribution::Distribution;
use crate::model::field::{BsonType, Field, Fields, ValueKind};
use crate::model::{Entity, Relationship};

impl Builder<'_> {
    pub(super) fn relationship_collection(
        &self,
        r: &Relationship,
        s: &Strategy,
    ) -> Result<Option<Collection>, DesignError> {
        let parent = self.entity(&r.parent)?;
        let child = self.entity(&r.child)?;
        let pref = r.parent_ref();
        let shape = match s {
            Strategy::LinkCollection => {
                let mut f = Fields::default();
                f.push("_id", oid());
                f.push(pref.clone(), oid());
                f.push(child_ref(r), oid());
                DocShape {
                    label: "link".into(),
                    entity: None,
                    count: parent.count * r.cardinality.mean(),
                    fields: f,
                    growing: vec![],
                    copied: vec![],
                }
            }
            Strategy::Bucket { size } => self.bucket_shape(r, parent, child, *size)?,
            Strategy::FanOutOnRead | Strategy::FanOutOnWrite | Strategy::BucketedFanOut { .. } => {
                self.feed_shape(r, s)?
            }
            Strategy::TimeSeries { granularity } => self.time_series_shape(r, *granularity)?,
            _ => return Ok(None),
        };
        Ok(Some(Collection {
            name: relationship_collection_name(r, s),
            shapes: vec![shape],
            indexes: vec![],
            shard_key: None,
        }))
    }

    /// Returns the shape of a bucket of `size` children of `parent` (relationship `r`): their
    /// ids (many-to-many) or the embedded children, numbered by `sequence`, with their count.
    fn bucket_shape(
        &self,
        r: &Relationship,
        parent: &Entity,
        child: &Entity,
        size: u64,
    ) -> Result<DocShape, DesignError> {
        let mut f = Fields::default();
        f.push("_id", oid());
        f.push(r.parent_ref(), oid());
        f.push("sequence", int_field(ValueKind::Sequence));
        f.push(BUCKET_COUNT, int_field(ValueKind::Counter));
        let full = Distribution::fixed(size as f64);
        let elem = if r.many_to_many {
            Field::array_of(BsonType::ObjectId, full.clone())
        } else {
            let mut v = Vec::new();
            Field::array_of_objects(self.embedded_fields(child, &mut v)?, full.clone())
        };
        f.push(r.array_field(), elem);
        let per = Distribution::Chunks {
            of: Box::new(r.cardinality.clone()),
            size: size as f64,
            less: 0.0,
        };
        Ok(DocShape {
            label: "bucket".into(),
            entity: Some(child.name.clone()),
            count: parent.count * per.mean(),
            fields: f,
            growing: vec![GrowingArray::full(r.array_field(), &r.name, full)],
            copied: vec![],
        })
    }

    /// Returns the shape of a feed's documents under fan-out strategy `s`: one item with its
    /// recipients (`fanOutOnRead`), one copy per recipient (`fanOutOnWrite`), or buckets of
    /// copies per recipient (`bucketedFanOut`).
    fn feed_shape(&self, r: &Relationship, s: &Strategy) -> Result<DocShape, DesignError> {
        let item_name = r.feed.clone().unwrap_or_default();
        let item = self.entity(&item_name)?;
        let mut item_fields = Fields::default();
        item_fields.push("author", oid());
        for (n, f) in self.own_fields(item)?.iter() {
            item_fields.push(n.clone(), f.clone());
        }
        let mut f = Fields::default();
        f.push("_id", oid());
        Ok(match s {
            Strategy::FanOutOnRead => {
                for (n, x) in item_fields.iter() {
                    f.push(n.clone(), x.clone());
                }
                f.push(
                    "to",
                    Field::array_of(BsonType::ObjectId, r.cardinality.clone()),
                );
                DocShape {
                    label: "feed item".into(),
                    entity: Some(item.name.clone()),
                    count: item.count,
                    fields: f,
                    growing: vec![GrowingArray {
                        field: "to".into(),
                        relationship: r.name.clone(),
                        count: r.cardinality.clone(),
                        growth_typical: r.growth_typical(),
                        growth_largest: r.growth_largest(),
                        capped: false,
                    }],
                    copied: vec![],
                }
            }
            Strategy::FanOutOnWrite => {
                f.push("owner", oid());
                for (n, x) in item_fields.iter() {
                    f.push(n.clone(), x.clone());
                }
                DocShape {
                    label: "feed copy".into(),
                    entity: Some(item.name.clone()),
                    count: item.count * r.cardinality.mean(),
                    fields: f,
                    growing: vec![],
                    copied: vec![],
                }
            }
            _ => {
                let size = if let Strategy::BucketedFanOut { size } = s {
                    *size
                } else {
                    1
                };
                f.push("owner", oid());
                f.push("sequence", int_field(ValueKind::Sequence));
                f.push(BUCKET_COUNT, int_field(ValueKind::Counter));
                let full = Distribution::fixed(size as f64);
                f.push(
                    "activities",
                    Field::array_of_objects(item_fields, full.clone()),
                );
                DocShape {
                    label: "feed bucket".into(),
                    entity: Some(item.name.clone()),
                    count: item.count * r.cardinality.mean() / size as f64,
                    fields: f,
                    growing: vec![GrowingArray::full("activities", &r.name, full)],
                    copied: vec![],
                }
            }
        })
    }
}
