//! `measurements`: the alternative to pre-aggregated counters that MongoDB 5.0+ users weigh:
//! every event an `$inc` counted is stored as a measurement in a native time-series
//! collection, and a read of one counter document becomes a read of the series' buckets over
//! the document's window (the application groups the measurements in an aggregation).
//!
//! The entity of counters (`pageview`) is replaced by two entities and a relationship the
//! `time_series` strategy already lays out, plans and runs:
//!
//! - the series (`page`, named after the `meta` field): `series` documents whose `_id` is the
//!   `meta` value (the page URL), the buckets' `meta`;
//! - the measurement (`hit`): `{_id, time}` (the time field keeps the entity's first date
//!   field's values), one per event: the counting units' rate × the time the entity's
//!   documents cover (`count` ÷ `series` documents of `window_seconds` each);
//! - the relationship `<measurement>s` (series → measurement, parent reference `meta`) under
//!   `time_series` at the pattern's granularity, every series gaining rate × 86,400 ÷ `series`
//!   measurements a day.
//!
//! Each `$inc` of the entity becomes an insert of one measurement; each read of one document
//! becomes a read of the series by its id with the measurements of the newest window
//! (sorted by time, limited to the window's measurements).

use super::DAY;
use crate::model::design::Granularity;
use crate::model::field::BsonType;
use crate::model::{
    ChildRead, DesignSpec, Distribution, Entity, Fields, Growth, Model, Relationship, Sort, Step,
    Strategy,
};

/// The name of the measurement's time field (the time-series collection's `timeField`).
pub const TIME_FIELD: &str = "time";

/// The parameters of a `measurements` pattern.
#[derive(Debug, Clone, Copy)]
pub struct Measured<'a> {
    /// The entity of counters.
    pub entity: &'a str,
    /// The field naming the series (and the series entity).
    pub meta: &'a str,
    /// Distinct series.
    pub series: u64,
    /// Seconds one counter document summarizes.
    pub window_seconds: u64,
    /// The measurement entity's name.
    pub measurement: &'a str,
    /// The time-series granularity.
    pub granularity: Granularity,
}

impl Measured<'_> {
    /// Returns the name of the relationship from the series to its measurements (`hits`).
    pub fn relationship(&self) -> String {
        format!("{}s", self.measurement)
    }
}

/// True for a step that counts an event of `entity`: an `$inc` of it.
fn counts(step: &Step, entity: &str) -> bool {
    matches!(step, Step::Update { entity: e, increment: true, .. } if e == entity)
}

/// Returns the events per second the workload counts in `entity` (its `$inc` units' rates).
pub fn events_per_sec(model: &Model, entity: &str) -> f64 {
    model
        .workload
        .iter()
        .map(|u| u.rate_per_sec * u.steps.iter().filter(|s| counts(s, entity)).count() as f64)
        .sum()
}

/// Replaces the counters of `m.entity` by measurements (see the module).
pub(super) fn apply(model: &mut Model, spec: &mut DesignSpec, m: Measured<'_>) {
    let Some(e) = model.entity(m.entity).cloned() else {
        return;
    };
    let Some(meta) = e.fields.get(m.meta).cloned() else {
        return;
    };
    let Some(time) = e
        .fields
        .iter()
        .find(|(_, f)| f.ty == BsonType::Date)
        .map(|(_, f)| f.clone())
    else {
        return;
    };
    if model.entity(m.meta).is_some() || model.entity(m.measurement).is_some() {
        return;
    }
    let series = m.series.max(1) as f64;
    let rate = events_per_sec(model, m.entity);
    let covered = e.count / series * m.window_seconds as f64;
    let per_series = (rate * covered / series).round();
    let per_day = rate * DAY / series;
    let per_window = (per_day * m.window_seconds as f64 / DAY).round().max(1.0) as u64;
    let rel = m.relationship();

    let mut parent_fields = Fields::default();
    parent_fields.push("_id", meta);
    let mut child_fields = Fields::default();
    child_fields.push(TIME_FIELD, time);
    let at = model
        .entities
        .iter()
        .position(|x| x.name == m.entity)
        .unwrap_or(model.entities.len());
    model.entities.retain(|x| x.name != m.entity);
    let added = [
        Entity {
            name: m.meta.to_string(),
            count: series,
            fields: parent_fields,
        },
        Entity {
            name: m.measurement.to_string(),
            count: per_series * series,
            fields: child_fields,
        },
    ];
    let at = at.min(model.entities.len());
    model.entities.splice(at..at, added);
    model.relationships.push(Relationship {
        name: rel.clone(),
        parent: m.meta.to_string(),
        child: m.measurement.to_string(),
        cardinality: Distribution::fixed(per_series),
        many_to_many: false,
        parents_per_child: None,
        growth_per_day: Some(Growth {
            typical: per_day,
            largest: None,
        }),
        field: Some(rel.clone()),
        parent_field: Some(m.meta.to_string()),
        parent_key: None,
        child_key: None,
        feed: None,
    });
    for u in &mut model.workload {
        for s in &mut u.steps {
            if counts(s, m.entity) {
                *s = Step::InsertChild {
                    relationship: rel.clone(),
                };
            } else if matches!(s, Step::Read { entity, .. } if entity == m.entity) {
                *s = Step::Read {
                    entity: m.meta.to_string(),
                    by: "_id".into(),
                    children: vec![ChildRead {
                        relationship: rel.clone(),
                        limit: Some(per_window),
                        sort: Some(Sort {
                            field: TIME_FIELD.into(),
                            order: -1,
                        }),
                        fields: Vec::new(),
                    }],
                    case_insensitive: false,
                };
            }
        }
    }
    spec.fields.retain(|p| p.entity() != m.entity);
    spec.relationships.insert(
        rel,
        Strategy::TimeSeries {
            granularity: m.granularity,
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_analytics_hits_become_measurements() {
        let p = crate::presets::find("page-analytics").unwrap();
        let mut model = p.model().unwrap();
        let mut spec = DesignSpec::default();
        apply(
            &mut model,
            &mut spec,
            Measured {
                entity: "pageview",
                meta: "page",
                series: 100_000,
                window_seconds: 21_600,
                measurement: "hit",
                granularity: Granularity::Seconds,
            },
        );
        // 20,000 hits a second over the 365 days 146,000,000 6-hour documents cover.
        let hits = model.entity("hit").unwrap();
        assert_eq!(hits.count, 20_000.0 * 365.0 * 86_400.0);
        assert_eq!(model.entity("page").unwrap().count, 100_000.0);
        assert!(model.entity("pageview").is_none());
        let r = model.relationship("hits").unwrap();
        assert_eq!(r.growth_typical(), 17_280.0);
        assert_eq!(r.parent_ref(), "page");
        // The chart reads the newest 6 hours: 4,320 hits of a page.
        let Step::Read { children, by, .. } = &model.workload[1].steps[0] else {
            panic!("not a read");
        };
        assert_eq!((by.as_str(), children[0].limit), ("_id", Some(4_320)));
        assert!(matches!(
            model.workload[0].steps[0],
            Step::InsertChild { .. }
        ));
    }
}
