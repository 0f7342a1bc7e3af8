//! The checks of strategy overrides that need the whole model, exactly where the picker offers
//! the strategy: a `time_series` relationship's child must be a measurement
//! ([`time_series_fits`]) whose typical parent fills a bucket at some granularity
//! ([`Granularity::fitting`]); an embedded or one-to-many bucketed child must not be read by
//! itself ([`read_by_itself`]: its plan would read a collection that does not exist).

use crate::lang::Text;
use crate::model::design::{
    leaves_without_collection, read_by_itself, time_series_fits, DesignSpec, Granularity, Strategy,
};
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
            let Some(r) = model.relationship(rel) else {
                continue;
            };
            if leaves_without_collection(s, r) {
                if let Some((unit, step)) = read_by_itself(r, model) {
                    out.push(ModelError::new(
                        format!("{at}.relationships.{rel}.strategy"),
                        Text::new("read-by-itself")
                            .arg("strategy", s.name())
                            .arg("entity", &r.child)
                            .arg("unit", unit)
                            .arg("op", step.op().name()),
                    ));
                }
                continue;
            }
            if !matches!(s, Strategy::TimeSeries { .. }) {
                continue;
            }
            let problem = if !time_series_fits(model, r) {
                Text::new("time-series-not-measurement")
                    .arg("entity", &r.child)
                    .arg("relationship", rel)
            } else if Granularity::fitting(r.growth_typical()).is_none() {
                Text::new("time-series-sparse")
                    .arg("parent", &r.parent)
                    .arg("growth", r.growth_typical())
                    .arg("child", &r.child)
            } else {
                continue;
            };
            out.push(ModelError::new(
                format!("{at}.relationships.{rel}.strategy"),
                problem,
            ));
        }
    }
    out
}
