//! Native time-series collections whose granularity is too fine for the measurements' rate:
//! the span rule closes each bucket after a few measurements, so the buckets hold little more
//! than one document each and cost their `control` block for every few values.

use super::{Severity, Warning};
use crate::design::names::buckets_collection_name;
use crate::design::shape::bucket_capacity;
use crate::design::Layout;
use crate::lang::Text;
use crate::model::design::Strategy;
use crate::model::Model;

/// Below this many measurements a bucket, `SPARSE_TIME_SERIES_BUCKETS` is raised: the
/// manual's advice is a granularity that matches the ingestion rate of one series, and a
/// bucket of fewer than 10 measurements is mostly its `_id`, `control` and `meta`
/// ([`crate::model::design::MIN_BUCKET`], which the picker's granularity reaches too).
pub const SPARSE_BUCKET: u64 = crate::model::design::MIN_BUCKET;

/// Returns one `SPARSE_TIME_SERIES_BUCKETS` per time-series relationship whose full bucket
/// holds fewer than [`SPARSE_BUCKET`] measurements.
pub fn check(model: &Model, layout: &Layout) -> Vec<Warning> {
    let mut out = Vec::new();
    for r in &model.relationships {
        let Some(Strategy::TimeSeries { granularity }) = layout.strategy(&r.name) else {
            continue;
        };
        let Some(n) = bucket_capacity(&layout.collections, r) else {
            continue;
        };
        if n >= SPARSE_BUCKET {
            continue;
        }
        out.push(Warning::localized(
            "SPARSE_TIME_SERIES_BUCKETS",
            Severity::Warning,
            &buckets_collection_name(r),
            "data",
            Text::new("sparse-time-series-buckets")
                .arg("granularity", granularity.name())
                .arg("span", crate::human::thousands(granularity.span_seconds()))
                .arg("parent", &r.parent)
                .arg("growth", r.growth_typical())
                .arg("child", &r.child)
                .arg("count", n),
            Text::new("sparse-time-series-buckets-fix"),
        ));
    }
    out
}
