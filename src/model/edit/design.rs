//! Design edits for the playground's strategy picker: a relationship's strategy override and
//! the whole `design` object, written into the model's JSON value like every other form edit.

use serde_json::{Map, Value};

use super::{checked, relationship_names, EditError};
use crate::design::{DesignSpec, Strategy};

/// Sets the strategy of the relationship called `relationship` in the model's own design
/// (`design.relationships.<name>`, created when missing; other keys keep their place). Refused,
/// with the problems, when the model would gain a validation problem (a feed strategy on a
/// relationship that is not a feed, a parameter of 0).
pub fn set_strategy(
    v: &mut Value,
    relationship: &str,
    strategy: &Strategy,
) -> Result<(), EditError> {
    if !relationship_names(v).iter().any(|n| n == relationship) {
        return Err(EditError::NotFound {
            what: "relationship",
            name: relationship.to_string(),
        });
    }
    let value = serde_json::to_value(strategy).unwrap_or(Value::Null);
    let action = format!("Using {} for “{relationship}”", strategy.name());
    invalid(checked(v, action, |v| {
        if let Some(overrides) = object_in(v, "design")
            .and_then(|d| object_in(d, "relationships"))
            .and_then(Value::as_object_mut)
        {
            overrides.insert(relationship.to_string(), value);
        }
        Ok(())
    }))
}

/// Replaces the model's own design by `spec` (what the page's Custom design starts from: the
/// design the bar showed). Refused, with the problems, when the model would gain a validation
/// problem.
pub fn set_design(v: &mut Value, spec: &DesignSpec) -> Result<(), EditError> {
    let value = serde_json::to_value(spec).unwrap_or(Value::Null);
    invalid(checked(v, "Starting the custom design".to_string(), |v| {
        if let Some(map) = v.as_object_mut() {
            map.insert("design".to_string(), value);
        }
        Ok(())
    }))
}

/// Says "refused" rather than "would break references": a design edit adds no reference.
fn invalid(r: Result<(), EditError>) -> Result<(), EditError> {
    r.map_err(|e| match e {
        EditError::WouldBreak { action, errors } => EditError::Invalid { action, errors },
        other => other,
    })
}

/// Returns the object at `key` of `v`, made an empty one when missing or not an object
/// (`None` when `v` is no object).
fn object_in<'a>(v: &'a mut Value, key: &str) -> Option<&'a mut Value> {
    let slot = v
        .as_object_mut()?
        .entry(key)
        .or_insert_with(|| Value::Object(Map::new()));
    if !slot.is_object() {
        *slot = Value::Object(Map::new());
    }
    Some(slot)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::strategies_for;
    use crate::model::parse_model;
    use crate::presets;

    fn preset(name: &str) -> Value {
        serde_json::from_str(presets::find(name).unwrap().text).unwrap()
    }

    #[test]
    fn a_strategy_is_written_as_an_override_and_read_back() {
        let mut v = preset("blog");
        let keys: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        set_strategy(&mut v, "comments", &Strategy::Bucket { size: 20 }).unwrap();
        assert_eq!(
            v["design"]["relationships"]["comments"],
            serde_json::json!({"strategy": "bucket", "size": 20})
        );
        // The other override and the key order are kept.
        assert_eq!(
            v["design"]["relationships"]["posts"]["strategy"],
            "reference_in_child"
        );
        assert_eq!(
            v.as_object().unwrap().keys().cloned().collect::<Vec<_>>(),
            keys
        );
        let m = parse_model(&super::super::pretty(&v)).unwrap();
        assert_eq!(
            m.design.relationships.get("comments"),
            Some(&Strategy::Bucket { size: 20 })
        );
    }

    #[test]
    fn a_model_without_a_design_gets_one() {
        let mut v = preset("image-board");
        assert!(v.get("design").is_none());
        set_strategy(&mut v, "images", &Strategy::Embed).unwrap();
        let m = parse_model(&v.to_string()).unwrap();
        assert_eq!(m.design.relationships.get("images"), Some(&Strategy::Embed));
    }

    #[test]
    fn an_invalid_combination_is_refused_with_the_validation_error_and_changes_nothing() {
        let mut v = preset("social-feed");
        let before = v.clone();
        let e = set_strategy(&mut v, "feed", &Strategy::Embed).unwrap_err();
        assert!(e.to_string().starts_with("Using embed for “feed” was refused: $.design.relationships.feed.strategy (relationship \"feed\" is a feed"), "{e}");
        assert_eq!(v, before);
        let e = set_strategy(&mut v, "feed", &Strategy::BucketedFanOut { size: 0 }).unwrap_err();
        assert!(
            e.to_string().contains("$.design.relationships.feed.size"),
            "{e}"
        );
        assert_eq!(v, before);
        let e = set_strategy(&mut v, "nope", &Strategy::FanOutOnRead).unwrap_err();
        assert!(matches!(e, EditError::NotFound { .. }), "{e}");
        assert_eq!(v, before);
    }

    #[test]
    fn every_offered_strategy_of_every_preset_is_accepted() {
        for p in presets::all() {
            let v = preset(p.name);
            for r in relationship_names(&v) {
                let m = parse_model(p.text).unwrap();
                for s in strategies_for(&m, &r) {
                    let mut w = v.clone();
                    set_strategy(&mut w, &r, &s)
                        .unwrap_or_else(|e| panic!("{} {r} {}: {e}", p.name, s.name()));
                }
            }
        }
    }

    #[test]
    fn a_design_replaces_the_models_own() {
        let mut v = preset("social-graph");
        let m = parse_model(&v.to_string()).unwrap();
        let (_, tbc) = m
            .offered_designs()
            .into_iter()
            .find(|(n, _)| n == "following")
            .unwrap();
        set_design(&mut v, &tbc.design).unwrap();
        let again = parse_model(&v.to_string()).unwrap();
        assert_eq!(again.design, tbc.design);
        assert_eq!(again.preset, m.preset);
    }
}
