//! Design edits for the playground's strategy picker: a relationship's strategy override and
//! the whole `design` object, written into the model's JSON value like every other form edit.

use serde_json::{Map, Value};

use super::{array, checked, field_names, pointer, relationship_names, str_of, EditError, Thing};
use crate::lang::Text;
use crate::model::design::{DesignSpec, Strategy};

/// Sets the strategy of the relationship called `relationship` in the model's own design
/// (`design.relationships.<name>`, created when missing; other keys keep their place). Refused,
/// with the problems, when the model would gain a validation problem (a feed strategy on a
/// relationship that is not a feed, a parameter of 0).
pub fn set_strategy(
    v: &mut Value,
    relationship: &str,
    strategy: &Strategy,
) -> Result<(), EditError> {
    let action = Text::new("edit-action-use-strategy")
        .arg("strategy", strategy.name())
        .arg("relationship", relationship);
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
            what: Thing::StrategyOverride,
            name: relationship.to_string(),
        });
    }
    let action = Text::new("edit-action-reset").arg("relationship", relationship);
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
    let action = Text::new("edit-action-base").arg("base", base);
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
    let action = Text::new("edit-action-joins").arg("joins", joins);
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
            what: Thing::CopiedField,
            name: current.name().to_string(),
        });
    };
    let Some(rel) = array(v, "relationships").find(|r| str_of(r, "name") == Some(relationship))
    else {
        return Err(EditError::NotFound {
            what: Thing::Relationship,
            name: relationship.to_string(),
        });
    };
    let entity = str_of(rel, from_key).unwrap_or_default().to_string();
    let fields = field_names(v, &entity);
    if !fields.iter().any(|f| f == field) {
        return Err(EditError::NotFound {
            what: Thing::Field,
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
        Text::new("edit-action-copy")
    } else {
        Text::new("edit-action-uncopy")
    }
    .arg("field", field)
    .arg("relationship", relationship);
    write_override(v, relationship, &current.with_copy(next), action)
}

/// Writes `strategy` as the override of `relationship`, refused (as `action`) when the model
/// would gain a validation problem.
fn write_override(
    v: &mut Value,
    relationship: &str,
    strategy: &Strategy,
    action: Text,
) -> Result<(), EditError> {
    if !relationship_names(v).iter().any(|n| n == relationship) {
        return Err(EditError::NotFound {
            what: Thing::Relationship,
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
    invalid(checked(v, Text::new("edit-action-custom-design"), |v| {
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
