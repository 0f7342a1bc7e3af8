//! Time-series granularity: how the server buckets a native time-series collection's
//! measurements (MongoDB 5.0+, `timeseries.granularity`).

use serde::{Deserialize, Serialize};

/// The fewest measurements a bucket should hold: below this a bucket is mostly its `_id`,
/// `control` and `meta` (`SPARSE_TIME_SERIES_BUCKETS` warns, and the picker fits the
/// granularity so that a typical series reaches it).
pub const MIN_BUCKET: u64 = 10;

/// Seconds in a day: the unit of a relationship's growth.
const DAY_SECONDS: f64 = 86_400.0;

/// The `granularity` of a native time-series collection: the bucket's rounding
/// (`bucketRoundingSeconds`) and maximum span (`bucketMaxSpanSeconds`) the server derives from it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Granularity {
    /// Rounding 60 s, span 3,600 s (the server's default).
    #[default]
    Seconds,
    /// Rounding 3,600 s, span 86,400 s.
    Minutes,
    /// Rounding 86,400 s, span 2,592,000 s (30 days).
    Hours,
}

impl Granularity {
    /// Every granularity, finest first: the one list validation and the docs read.
    pub const ALL: [Granularity; 3] = [
        Granularity::Seconds,
        Granularity::Minutes,
        Granularity::Hours,
    ];

    /// Returns the granularity's name as written in a model.
    pub fn name(self) -> &'static str {
        match self {
            Granularity::Seconds => "seconds",
            Granularity::Minutes => "minutes",
            Granularity::Hours => "hours",
        }
    }

    /// Returns the granularity called `name`, if there is one.
    pub fn from_name(name: &str) -> Option<Granularity> {
        Granularity::ALL.into_iter().find(|g| g.name() == name)
    }

    /// Returns `bucketRoundingSeconds`: a bucket's minimum time is its first measurement's time
    /// rounded down to a multiple of this (and that is the timestamp of the bucket's `_id`).
    pub fn rounding_seconds(self) -> u64 {
        match self {
            Granularity::Seconds => 60,
            Granularity::Minutes => 3_600,
            Granularity::Hours => 86_400,
        }
    }

    /// Returns the finest granularity whose span holds at least [`MIN_BUCKET`] of a series'
    /// `per_day` measurements (the manual's advice: the granularity closest to the ingestion
    /// rate of one series), or `None` when even `hours` (30 days) holds fewer.
    pub fn fitting(per_day: f64) -> Option<Granularity> {
        Granularity::ALL
            .into_iter()
            .find(|g| per_day * g.span_seconds() as f64 / DAY_SECONDS >= MIN_BUCKET as f64)
    }

    /// Returns `bucketMaxSpanSeconds`: a measurement at or past the bucket's minimum time plus
    /// this goes into a new bucket.
    pub fn span_seconds(self) -> u64 {
        match self {
            Granularity::Seconds => 3_600,
            Granularity::Minutes => 86_400,
            Granularity::Hours => 2_592_000,
        }
    }
}
