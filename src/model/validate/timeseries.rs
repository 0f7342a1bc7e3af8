//! The check of `time_series` overrides that needs the whole model: the relationship's child
//! must be a measurement ([`time_series_fits`]) whose typical parent fills a bucket at some
//! granularity ([`Granularity::fitting`]), exactly where the picker offers the strategy.

use crate::model::design::{time_series_fits, DesignSpec, Granularity, Strategy};
use crate::model::{Model, ModelError};

/// Returns an error for every `time_series` override of the model's design and of its preset's
/// custom designs on a relationship whose child is not a measurement that fills a bucket.
pub(crate) fn check(model: &Model) -> Vec<ModelError> {
    let mut specs: Vec<(String, &DesignSpec)> = vec![("$.design".to_string(), &model.design)];
    if let Some(p) = &model.preset {
        for (name, spec) in &p.custom_designs {
            specs.push((format!("$.preset.custom_designs.{name}"), spec));
        }
    }
    let mut out = Vec::new();
    for (at, spec) in specs {
        for (rel, s) in &spec.relationships {
            if !matches!(s, Strategy::TimeSeries { .. }) {
                continue;
            }
            let Some(r) = model.relationship(rel) else {
                continue;
            };
            let message = if !time_series_fits(model, r) {
                format!("\"time_series\" needs \"{}\" to be a measurement: a date field, in no relationship but \"{rel}\", and no workload step that reads, updates, deletes or moves one by itself", r.child)
            } else if Granularity::fitting(r.growth_typical()).is_none() {
                format!("\"time_series\" needs a series that fills a bucket: a typical \"{}\" adds {} \"{}\" a day, fewer than 10 in the 30 days of the coarsest granularity", r.parent, r.growth_typical(), r.child)
            } else {
                continue;
            };
            out.push(ModelError {
                path: format!("{at}.relationships.{rel}.strategy"),
                message,
                line: None,
                column: None,
            });
        }
    }
    out
}
