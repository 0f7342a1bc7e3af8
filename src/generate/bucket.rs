//! The buckets of a native time-series collection as the server leaves them. Measurements
//! arrive in time order, so a parent's buckets cover successive spans of time that do not
//! overlap, each bucket's slots are in time order, and each bucket's `control.min` and
//! `control.max` are the bounds of its own data columns. Drawn independently, a bucket's
//! bounds would say nothing of its measurements, and a read of the newest buckets (sorted by
//! `control.min.<time>`) would not find the newest measurements.

use bson::{Bson, DateTime, Document};

use crate::design::names::BUCKET_LABEL;
use crate::design::{DocShape, Layout, Strategy};
use crate::model::design::time_field;
use crate::model::Model;

/// The time column of one bucket shape and the span its values are drawn from.
#[derive(Debug, Clone)]
pub(super) struct BucketTime {
    /// The measurement's time field (a column of `data`), when it has one.
    time: Option<String>,
    /// The start and end of the time field's range, in milliseconds since the epoch.
    span: (i64, i64),
}

/// Returns the bucket settings of `shape` when it is the bucket shape of a time series.
pub(super) fn of(model: &Model, layout: &Layout, shape: &DocShape) -> Option<BucketTime> {
    if shape.label != BUCKET_LABEL {
        return None;
    }
    let entity = shape.entity.as_deref()?;
    let r = model.relationships.iter().find(|r| {
        r.child == entity && matches!(layout.strategy(&r.name), Some(Strategy::TimeSeries { .. }))
    })?;
    let time = time_field(model, r);
    let span = time
        .as_deref()
        .and_then(|t| model.entity(entity)?.fields.get(t).map(super::date_span))
        .unwrap_or((0, 0));
    Some(BucketTime { time, span })
}

impl BucketTime {
    /// Puts bucket `d` in order: its time column in slot order and, when `position` says it is
    /// bucket `k` of its parent's `m`, inside the `k`-th of `m` equal spans of the time range
    /// (each value keeps its place within the range, scaled into the span); then every
    /// column's bounds into `control.min` and `control.max` (a column no slot holds has none).
    pub(super) fn settle(&self, d: &mut Document, position: Option<(u64, u64)>) {
        if let Some(t) = &self.time {
            self.order_times(d, t, position);
        }
        let Ok(data) = d.get_document("data") else {
            return;
        };
        let mut min = Document::new();
        let mut max = Document::new();
        for (field, column) in data {
            let Bson::Document(column) = column else {
                continue;
            };
            let mut values = column.values();
            let Some(first) = values.next() else {
                continue;
            };
            let (lo, hi) = values.fold((first, first), |(lo, hi), v| {
                use std::cmp::Ordering::{Greater, Less};
                let cmp = crate::engine::compare::compare;
                (
                    if cmp(v, lo) == Less { v } else { lo },
                    if cmp(v, hi) == Greater { v } else { hi },
                )
            });
            min.insert(field.clone(), lo.clone());
            max.insert(field.clone(), hi.clone());
        }
        if let Ok(control) = d.get_document_mut("control") {
            control.insert("min", min);
            control.insert("max", max);
        }
    }

    /// Sorts the time column of `d` into slot order and moves it into its bucket's span.
    fn order_times(&self, d: &mut Document, time: &str, position: Option<(u64, u64)>) {
        let Some(Bson::Document(column)) = d
            .get_document_mut("data")
            .ok()
            .and_then(|data| data.get_mut(time))
        else {
            return;
        };
        let (a, b) = self.span;
        let place = |ms: i64| -> i64 {
            match position {
                Some((k, m)) if m > 1 && b > a => {
                    let (range, m, k) = (i128::from(b - a), i128::from(m), i128::from(k));
                    let at = (k * range + i128::from(ms.clamp(a, b) - a)) / m;
                    a.saturating_add(i64::try_from(at).unwrap_or(0))
                }
                _ => ms,
            }
        };
        let mut times: Vec<i64> = column
            .values()
            .filter_map(|v| match v {
                Bson::DateTime(t) => Some(place(t.timestamp_millis())),
                _ => None,
            })
            .collect();
        times.sort_unstable();
        let mut sorted = times.into_iter();
        for (_, v) in column.iter_mut() {
            if matches!(v, Bson::DateTime(_)) {
                if let Some(t) = sorted.next() {
                    *v = Bson::DateTime(DateTime::from_millis(t));
                }
            }
        }
    }
}
