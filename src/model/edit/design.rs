//! Design edits for the playground's strategy picker: a relationship's strategy override and
//! the whole `design` object, written into the model's JSON value like every other form edit.

use serde_json::{Map, Value};

use super::{array, checked, field_names, pointer, relationship_names, str_of, EditError};
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
    let action = format!("Using {} for “{relationship}”", strategy.name());
    write_override(v, relationship, strategy, action)
}

/// Removes the override of the relationship called `relationship`, which then follows the
/// base design again (`design.relationships` goes when it is left empty, as the design
/// serializes). Refused when there is no such override: nothing to reset.
pub fn clear_strategy(v: &mut Value, relationship: &str) -> Result<(), EditError> {
    let has = v
        .pointer(&pointer(&["design", "relationships", relationship]))
        .is_some();
    if !has {
        return Err(EditError::NotFound {
            what: "strategy override for a relationship",
            name: relationship.to_string(),
        });
    }
    let action = format!("Resetting “{relationship}” to the base design");
    invalid(checked(v, action, |v| {
        if let Some(design) = v.get_mut("design").and_then(Value::as_object_mut) {
            let empty = match design
                .get_mut("relationships")
                .and_then(Value::as_object_mut)
            {
                Some(overrides) => {
                    overrides.shift_remove(relationship);
                    overrides.is_empty()
                }
                None => false,
            };
            if empty {
                design.shift_remove("relationships");
            }
        }
        Ok(())
    }))
}

/// Sets the base of the model's own design (`design.base`: `normalized`, `denormalized` or
/// `bucketed`, written first in `design` when it was missing). Relationships without an
/// override follow the new base. Refused, with validation's error, for a name that is no
/// design.
pub fn set_base(v: &mut Value, base: &str) -> Result<(), EditError> {
    let action = format!("Basing the design on “{base}”");
    invalid(checked(v, action, |v| {
        if let Some(design) = object_in(v, "design").and_then(Value::as_object_mut) {
            let value = Value::String(base.to_string());
            if let Some(slot) = design.get_mut("base") {
                *slot = value;
            } else {
                design.shift_insert(0, "base".to_string(), value);
            }
        }
        Ok(())
    }))
}

/// Sets how reads join collections (`design.joins`: `application`, the default, which removes
/// the key as the design serializes, or `lookup`). Refused, with validation's error, for any
/// other name.
pub fn set_joins(v: &mut Value, joins: &str) -> Result<(), EditError> {
    let action = format!("Joining with “{joins}”");
    invalid(checked(v, action, |v| {
        if let Some(design) = object_in(v, "design").and_then(Value::as_object_mut) {
            if joins == "application" {
                design.shift_remove("joins");
            } else {
                design.insert("joins".to_string(), Value::String(joins.to_string()));
            }
        }
        Ok(())
    }))
}

/// Copies `field` (when `copied`) or stops copying it in the relationship's strategy `current`
/// (the strategy the relationship has now, an override or the base's): an extended reference
/// copies child fields next to each id, a reference in child copies parent fields into each
/// child. The `copy` list keeps the entity's field order (names it does not declare stay,
/// after them); the result is written as an override. Refused for a strategy that copies
/// nothing, a field the entity does not have, and whatever validation refuses.
pub fn set_copied(
    v: &mut Value,
    relationship: &str,
    current: &Strategy,
    field: &str,
    copied: bool,
) -> Result<(), EditError> {
    let (Some(copy), Some(from_key)) = (current.copy(), current.copies_from()) else {
        return Err(EditError::NotFound {
            what: "copied field in the strategy",
            name: current.name().to_string(),
        });
    };
    let Some(rel) = array(v, "relationships").find(|r| str_of(r, "name") == Some(relationship))
    else {
        return Err(EditError::NotFound {
            what: "relationship",
            name: relationship.to_string(),
        });
    };
    let entity = str_of(rel, from_key).unwrap_or_default().to_string();
    let fields = field_names(v, &entity);
    if !fields.iter().any(|f| f == field) {
        return Err(EditError::NotFound {
            what: "field",
            name: format!("{entity}.{field}"),
        });
    }
    let keep = |f: &str| {
        if f == field {
            copied
        } else {
            copy.iter().any(|c| c == f)
        }
    };
    let mut next: Vec<String> = fields.iter().filter(|f| keep(f)).cloned().collect();
    let others: Vec<String> = copy
        .iter()
        .filter(|c| !fields.contains(c) && !next.contains(c))
        .cloned()
        .collect();
    next.extend(others);
    let action = if copied {
        format!("Copying “{field}” for “{relationship}”")
    } else {
        format!("No longer copying “{field}” for “{relationship}”")
    };
    write_override(v, relationship, &current.with_copy(next), action)
}

/// Writes `strategy` as the override of `relationship`, refused (as `action`) when the model
/// would gain a validation problem.
fn write_override(
    v: &mut Value,
    relationship: &str,
    strategy: &Strategy,
    action: String,
) -> Result<(), EditError> {
    if !relationship_names(v).iter().any(|n| n == relationship) {
        return Err(EditError::NotFound {
            what: "relationship",
            name: relationship.to_string(),
        });
    }
    let value = serde_json::to_value(strategy).unwrap_or(Value::Null);
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
    use crate::design::{resolve, strategies_for, DesignName, Joins};
    use crate::history::{Change, History};
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
        assert!(e.to_string().starts_with("Using embed for “feed” was refused: $.design.relationships.feed.strategy: relationship \"feed\" is a feed"), "{e}");
        assert_eq!(v, before);
        let e = set_strategy(&mut v, "feed", &Strategy::BucketedFanOut { size: 0 }).unwrap_err();
        // One parenthesis, the message's own.
        assert!(
            e.to_string().ends_with(
                "refused: $.design.relationships.feed.size: must be at least 1 (found 0)"
            ),
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
        let following = m
            .preset
            .as_ref()
            .unwrap()
            .design("following", &m.design)
            .unwrap();
        set_design(&mut v, &following).unwrap();
        let again = parse_model(&v.to_string()).unwrap();
        assert_eq!(again.design, following);
        assert_eq!(again.preset, m.preset);
    }

    /// Applies `edit` as the page does (one recorded step) and returns the history.
    fn one_step(v: &mut Value, edit: impl FnOnce(&mut Value) -> Result<(), EditError>) -> History {
        let mut h = History::new(super::super::pretty(v));
        edit(v).unwrap();
        assert!(h.record(super::super::pretty(v), Change::Form, 0.0));
        h
    }

    fn resolved(v: &Value, relationship: &str) -> Strategy {
        let m = parse_model(&v.to_string()).unwrap();
        resolve(&m, &m.design)
            .into_iter()
            .find(|(n, _)| n == relationship)
            .unwrap()
            .1
    }

    #[test]
    fn the_base_changes_what_relationships_without_an_override_take() {
        let mut v = preset("blog");
        clear_strategy(&mut v, "comments").unwrap();
        let before = super::super::pretty(&v);
        // No base written: normalized.
        assert!(v["design"].get("base").is_none());
        assert_eq!(resolved(&v, "comments").name(), "reference_in_child");
        let mut h = one_step(&mut v, |v| set_base(v, "bucketed"));
        // Written first; the override stays; the others follow the new base.
        assert_eq!(
            v["design"].as_object().unwrap().keys().collect::<Vec<_>>(),
            ["base", "relationships"]
        );
        assert_eq!(v["design"]["base"], "bucketed");
        assert_eq!(
            v["design"]["relationships"]["posts"]["strategy"],
            "reference_in_child"
        );
        assert_eq!(resolved(&v, "comments").name(), "bucket");
        assert_eq!(h.undo(), Some(before.as_str()));
        assert_eq!(h.undo(), None, "one step");
        // In place when there is one.
        set_base(&mut v, "denormalized").unwrap();
        assert_eq!(v["design"]["base"], "denormalized");
        // A design without a base gets one, first.
        let mut w = preset("image-board");
        set_joins(&mut w, "lookup").unwrap();
        set_base(&mut w, "normalized").unwrap();
        assert_eq!(
            w["design"].as_object().unwrap().keys().collect::<Vec<_>>(),
            ["base", "joins"]
        );
        assert_eq!(
            parse_model(&w.to_string()).unwrap().design.base,
            DesignName::Normalized
        );
    }

    #[test]
    fn an_unknown_base_or_joins_is_refused_with_the_validation_error() {
        let mut v = preset("blog");
        let before = v.clone();
        let e = set_base(&mut v, "flat").unwrap_err();
        assert!(matches!(e, EditError::Invalid { .. }), "{e}");
        assert!(
            e.to_string().starts_with(
                "Basing the design on “flat” was refused: $.design.base: unknown design \"flat\""
            ),
            "{e}"
        );
        assert_eq!(v, before);
        let e = set_joins(&mut v, "merge").unwrap_err();
        assert!(
            e.to_string().contains("$.design.joins: unknown joins"),
            "{e}"
        );
        assert_eq!(v, before);
    }

    #[test]
    fn joins_are_written_and_the_default_removes_the_key() {
        let mut v = preset("blog");
        let before = super::super::pretty(&v);
        let mut h = one_step(&mut v, |v| set_joins(v, "lookup"));
        assert_eq!(v["design"]["joins"], "lookup");
        assert_eq!(
            parse_model(&v.to_string()).unwrap().design.joins,
            Joins::Lookup
        );
        assert_eq!(h.undo(), Some(before.as_str()));
        set_joins(&mut v, "application").unwrap();
        assert!(v["design"].get("joins").is_none());
        assert_eq!(super::super::pretty(&v), before);
    }

    #[test]
    fn reset_removes_the_override_and_the_row_follows_the_base() {
        let mut v = preset("blog");
        set_strategy(&mut v, "comments", &Strategy::Bucket { size: 20 }).unwrap();
        let before = super::super::pretty(&v);
        let mut h = one_step(&mut v, |v| clear_strategy(v, "comments"));
        assert!(v["design"]["relationships"].get("comments").is_none());
        assert_eq!(resolved(&v, "comments").name(), "reference_in_child");
        assert_eq!(h.undo(), Some(before.as_str()));
        // The last override takes `relationships` with it.
        clear_strategy(&mut v, "posts").unwrap();
        assert_eq!(v["design"], serde_json::json!({}));
        // Nothing to reset: refused, nothing changed.
        let still = v.clone();
        let e = clear_strategy(&mut v, "posts").unwrap_err();
        assert!(matches!(e, EditError::NotFound { .. }), "{e}");
        assert!(clear_strategy(&mut v, "nope").is_err());
        assert_eq!(v, still);
    }

    #[test]
    fn copied_fields_toggle_in_the_entitys_field_order() {
        let mut v = preset("blog");
        let er = Strategy::ExtendedReference { copy: vec![] };
        // Child fields of comments (post → comment), in the model's order.
        let fields = field_names(&v, "comment");
        assert!(fields.len() >= 3, "{fields:?}");
        let (first, last) = (fields[0].clone(), fields[fields.len() - 1].clone());
        set_copied(&mut v, "comments", &er, &last, true).unwrap();
        let now = resolved(&v, "comments");
        let before = super::super::pretty(&v);
        let mut h = one_step(&mut v, |v| set_copied(v, "comments", &now, &first, true));
        assert_eq!(
            v["design"]["relationships"]["comments"],
            serde_json::json!({"strategy": "extended_reference", "copy": [first, last]})
        );
        assert_eq!(h.undo(), Some(before.as_str()));
        v = serde_json::from_str(&before).unwrap();
        let now = resolved(&v, "comments");
        set_copied(&mut v, "comments", &now, &last, false).unwrap();
        assert_eq!(
            resolved(&v, "comments"),
            Strategy::ExtendedReference { copy: vec![] }
        );
        // A reference in child copies parent fields (post → comment: the post's).
        let ric = Strategy::ReferenceInChild { copy: vec![] };
        let title = field_names(&v, "post")[0].clone();
        set_copied(&mut v, "comments", &ric, &title, true).unwrap();
        assert_eq!(
            resolved(&v, "comments"),
            Strategy::ReferenceInChild { copy: vec![title] }
        );
        // Refused: a strategy without copies, a field the entity lacks; nothing changed.
        let still = v.clone();
        assert!(set_copied(&mut v, "comments", &Strategy::Embed, &first, true).is_err());
        assert!(set_copied(&mut v, "comments", &er, "no_such_field", true).is_err());
        assert!(set_copied(&mut v, "nope", &er, &first, true).is_err());
        assert_eq!(v, still);
    }

    #[test]
    fn a_base_design_strategy_gets_its_copies_as_an_override() {
        // Denormalized gives an unbounded relationship an extended reference copying the
        // fields the workload reads: toggling one keeps the others.
        for p in presets::all() {
            let v = preset(p.name);
            for r in relationship_names(&v) {
                let s = resolved(&v, &r);
                let Some(copy) = s.copy().filter(|c| !c.is_empty()).map(<[String]>::to_vec) else {
                    continue;
                };
                let mut w = v.clone();
                set_copied(&mut w, &r, &s, &copy[0], false)
                    .unwrap_or_else(|e| panic!("{} {r}: {e}", p.name));
                assert_eq!(
                    resolved(&w, &r),
                    s.with_copy(copy[1..].to_vec()),
                    "{} {r}",
                    p.name
                );
                return;
            }
        }
        panic!("no preset copies a field under its design");
    }
}
