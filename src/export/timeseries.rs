//! A native time-series collection in `setup.js`: the application creates the view `<child>`
//! with `db.createCollection(name, { timeseries: { timeField, metaField, granularity } })`, and
//! the server makes `system.buckets.<child>` and its `{ meta: 1, control.min.<time>: 1,
//! control.max.<time>: 1 }` index itself (a script may not create a `system.` collection).

use crate::design::names::buckets_collection_name;
use crate::design::Layout;
use crate::model::design::{time_field, Strategy};
use crate::model::Model;

/// Returns the `createCollection` call of the time series whose buckets are collection
/// `collection` (`system.buckets.<child>`), or `None` when it holds no time series' buckets.
pub fn create_collection(model: &Model, layout: &Layout, collection: &str) -> Option<String> {
    model.relationships.iter().find_map(|r| {
        if buckets_collection_name(r) != collection {
            return None;
        }
        let granularity = layout.strategies.iter().find_map(|(name, s)| match s {
            Strategy::TimeSeries { granularity } if *name == r.name => Some(*granularity),
            _ => None,
        })?;
        let time = time_field(model, r)?;
        let options = serde_json::json!({
            "timeseries": {
                "timeField": time,
                "metaField": crate::design::names::META,
                "granularity": granularity.name(),
            }
        });
        Some(format!(
            "db.createCollection({}, {options});",
            serde_json::Value::String(r.child.clone())
        ))
    })
}
