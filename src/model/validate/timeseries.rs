//! The check of `time_series` overrides that needs the whole model: the relationship's child
//! must be a measurement ([`time_series_fits`]) whose typical parent fills a bucket at some
//! granularity ([`Granularity::fitting`]), exactly where the picker offers the strategy.

use crate::lang::Text;
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
