//! Editing a model as its JSON value, for the playground's forms: every edit changes the
//! `serde_json::Value` in place, so keys the forms know nothing about (preset metadata, field
//! kinds, sharding, design overrides) stay exactly as they were, in their order.
//!
//! Renames carry their references along (a renamed entity is renamed in relationships, steps,
//! design patterns and shard keys); a rename or removal that would still leave a dangling
//! reference is refused, with the paths that would break.
//!
//! Editing stays in the model layer: everything an edit needs is the model's own (its JSON,
//! validation, and the design vocabulary of [`super::design`]: strategies, specs, what a spec
//! resolves to), so the forms' edits never depend on how a design is laid out.
//!
//! It stays one file: every edit is a function over the model's JSON sharing the same helpers
//! (finding, renaming, swapping, checking), and the forms call them all from here.

mod design;
mod order;

use serde_json::{json, Map, Value};

use super::distribution::{Distribution, Shape};
use super::validate::validate;
use super::workload::Op;
use super::ModelError;
use crate::lang::Text;

pub use design::{clear_strategy, set_base, set_copied, set_design, set_joins, set_strategy};
pub use order::{ordered_keys, path_of_pointer, set_in_order, GROWTH_ORDER};

/// The smallest useful model: one entity with two fields, nothing else. Valid as it is.
pub const BLANK_MODEL: &str = r#"{
  "name": "blank",
  "entities": [
    {
      "name": "item",
      "count": 1000,
      "fields": {
        "title": {
          "type": "string",
          "length": {
            "shape": "uniform",
            "min": 5,
            "max": 40
          }
        },
        "created": {
          "type": "date"
        }
      }
    }
  ],
  "relationships": [],
  "workload": []
}
"#;

/// Why an edit was refused. The value is unchanged. Its words are a [`Text`]
/// ([`EditError::text`], the catalogues' section "Form edits"), so the page says it in its
/// language; `Display` is the English.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EditError {
    /// The new name is empty.
    #[error("{}", self.text())]
    EmptyName,
    /// Another item already has the new name.
    #[error("{}", self.text())]
    NameTaken {
        /// An entity, a relationship, a field.
        what: Thing,
        /// The name asked for.
        name: String,
    },
    /// Nothing has the old name (the model changed under the form).
    #[error("{}", self.text())]
    NotFound {
        /// What was looked for.
        what: Thing,
        /// The name looked for.
        name: String,
    },
    /// The edit would make the model invalid (a design edit: a parameter of 0, a strategy the
    /// relationship cannot take).
    #[error("{}", self.text())]
    Invalid {
        /// What was asked (`Using bucket for “comments”`).
        action: Text,
        /// The problems the edit would add.
        errors: Vec<ModelError>,
    },
    /// The edit would leave references that name nothing.
    #[error("{}", self.text())]
    WouldBreak {
        /// What was asked (`Deleting entity “user”`).
        action: Text,
        /// The problems the edit would add.
        errors: Vec<ModelError>,
    },
}

/// What a refused edit named: the kind of item a name was taken by or not found as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Thing {
    /// An entity.
    Entity,
    /// A relationship.
    Relationship,
    /// A field of an entity.
    Field,
    /// A relationship's strategy override in the model's design.
    StrategyOverride,
    /// A field a strategy copies (a strategy that copies nothing has none).
    CopiedField,
}

impl Thing {
    /// Returns the thing's name alone, as "no entity named …" says it (`edit-thing-*`).
    pub fn text(self) -> Text {
        Text::new(match self {
            Thing::Entity => "edit-thing-entity",
            Thing::Relationship => "edit-thing-relationship",
            Thing::Field => "edit-thing-field",
            Thing::StrategyOverride => "edit-thing-strategy-override",
            Thing::CopiedField => "edit-thing-copied-field",
        })
    }

    /// Returns the thing with its article, as "there is already an entity named …" says it
    /// (`edit-a-*`).
    pub fn with_article(self) -> Text {
        Text::new(match self {
            Thing::Entity => "edit-a-entity",
            Thing::Relationship => "edit-a-relationship",
            Thing::Field => "edit-a-field",
            Thing::StrategyOverride => "edit-a-strategy-override",
            Thing::CopiedField => "edit-a-copied-field",
        })
    }
}

impl EditError {
    /// Returns why the edit was refused as a catalogue text, to render in any language (the
    /// English is [`Display`](std::fmt::Display)'s).
    pub fn text(&self) -> Text {
        match self {
            EditError::EmptyName => Text::new("edit-empty-name"),
            EditError::NameTaken { what, name } => Text::new("edit-name-taken")
                .nested("what", what.with_article())
                .arg("name", name),
            EditError::NotFound { what, name } => Text::new("edit-not-found")
                .nested("what", what.text())
                .arg("name", name),
            EditError::Invalid { action, errors } => Text::new("edit-invalid")
                .nested("action", action.clone())
                .nested("problems", problems(errors)),
            EditError::WouldBreak { action, errors } => {
                let text = if errors.len() == 1 {
                    Text::new("edit-would-break-one")
                } else {
                    Text::new("edit-would-break").arg("count", errors.len())
                };
                text.nested("action", action.clone())
                    .nested("problems", problems(errors))
            }
        }
    }
}

/// The first three problems, each as `path: message` in the language rendered (a message may
/// carry its own parenthesis, "(found 0)", so the path is not wrapped around it in another),
/// joined by `; ` (`；`).
fn problems(errors: &[ModelError]) -> Text {
    let place = |e: &ModelError| {
        Text::new("problem-place-path")
            .arg("path", &e.path)
            .nested("message", e.text())
    };
    let mut shown = errors.iter().take(3).map(place);
    match (shown.next(), shown.next(), shown.next()) {
        (Some(a), Some(b), Some(c)) => Text::new("edit-problems-3")
            .nested("first", a)
            .nested("second", b)
            .nested("third", c),
        (Some(a), Some(b), None) => Text::new("edit-problems-2")
            .nested("first", a)
            .nested("second", b),
        (Some(a), _, _) => Text::new("edit-problems-1").nested("first", a),
        (None, _, _) => Text::new("edit-problems-none"),
    }
}

/// Returns the action `id` (`edit-action-*`) about the item called `name`.
fn action(id: &'static str, name: &str) -> Text {
    Text::new(id).arg("name", name)
}

/// Returns the model as pretty JSON (two-space indents, keys in the order they were written or
/// added: the same value always gives the same text), with a final newline.
pub fn pretty(v: &Value) -> String {
    let mut s = serde_json::to_string_pretty(v).unwrap_or_else(|_| v.to_string());
    s.push('\n');
    s
}

/// Applies `edit` to a copy of `v` and keeps it only if it adds no validation problem; `action`
/// names the edit in the refusal.
fn checked(
    v: &mut Value,
    action: Text,
    edit: impl FnOnce(&mut Value) -> Result<(), EditError>,
) -> Result<(), EditError> {
    let before: Vec<String> = validate(v).into_iter().map(|e| e.message).collect();
    let mut next = v.clone();
    edit(&mut next)?;
    let added: Vec<ModelError> = validate(&next)
        .into_iter()
        .filter(|e| !before.contains(&e.message))
        .collect();
    if !added.is_empty() {
        return Err(EditError::WouldBreak {
            action,
            errors: added,
        });
    }
    *v = next;
    Ok(())
}

fn array_mut<'a>(v: &'a mut Value, key: &str) -> impl Iterator<Item = &'a mut Value> {
    v.get_mut(key)
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
}

fn array<'a>(v: &'a Value, key: &str) -> impl Iterator<Item = &'a Value> {
    v.get(key).and_then(Value::as_array).into_iter().flatten()
}

fn str_of<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

/// Replaces the string at `key` of `v` by `new` when it is `old`.
fn swap(v: &mut Value, key: &str, old: &str, new: &str) {
    if let Some(s) = v.get_mut(key) {
        if s.as_str() == Some(old) {
            *s = Value::String(new.to_string());
        }
    }
}

/// Replaces every string equal to `old` in the array at `key` of `v`.
fn swap_in_list(v: &mut Value, key: &str, old: &str, new: &str) {
    for s in array_mut(v, key) {
        if s.as_str() == Some(old) {
            *s = Value::String(new.to_string());
        }
    }
}

/// Renames the key `old` of the object `v` to `new`, keeping its place.
fn rename_key(v: &mut Value, old: &str, new: &str) {
    let Some(map) = v.as_object_mut() else { return };
    if !map.contains_key(old) || map.contains_key(new) {
        return;
    }
    let entries = std::mem::take(map);
    *map = entries
        .into_iter()
        .map(|(k, x)| {
            if k == old {
                (new.to_string(), x)
            } else {
                (k, x)
            }
        })
        .collect();
}

/// Every design object of the model: `design` and each of `preset.custom_designs`.
fn designs_mut(v: &mut Value) -> Vec<&mut Value> {
    let mut out = Vec::new();
    let Some(map) = v.as_object_mut() else {
        return out;
    };
    for (k, x) in map.iter_mut() {
        match k.as_str() {
            "design" => out.push(x),
            "preset" => {
                if let Some(custom) = x.get_mut("custom_designs").and_then(Value::as_object_mut) {
                    out.extend(custom.values_mut());
                }
            }
            _ => {}
        }
    }
    out
}

/// Every sharding object of the model: `sharding` and each of `preset.design_sharding`.
fn shardings_mut(v: &mut Value) -> Vec<&mut Value> {
    let mut out = Vec::new();
    let Some(map) = v.as_object_mut() else {
        return out;
    };
    for (k, x) in map.iter_mut() {
        match k.as_str() {
            "sharding" => out.push(x),
            "preset" => {
                if let Some(s) = x.get_mut("design_sharding").and_then(Value::as_object_mut) {
                    out.extend(s.values_mut());
                }
            }
            _ => {}
        }
    }
    out
}

/// Every workload step, with children reads inside `read` steps reachable from it.
fn steps_mut(v: &mut Value) -> impl Iterator<Item = &mut Value> {
    array_mut(v, "workload").flat_map(|u| array_mut(u, "steps"))
}

/// Returns the names of the entities.
pub fn entity_names(v: &Value) -> Vec<String> {
    array(v, "entities")
        .filter_map(|e| str_of(e, "name").map(str::to_string))
        .collect()
}

/// Returns the names of the relationships.
pub fn relationship_names(v: &Value) -> Vec<String> {
    array(v, "relationships")
        .filter_map(|r| str_of(r, "name").map(str::to_string))
        .collect()
}

/// Returns the names of the fields of `entity`, in document order.
pub fn field_names(v: &Value, entity: &str) -> Vec<String> {
    entity_value(v, entity)
        .and_then(|e| e.get("fields"))
        .and_then(Value::as_object)
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default()
}

fn entity_value<'a>(v: &'a Value, name: &str) -> Option<&'a Value> {
    array(v, "entities").find(|e| str_of(e, "name") == Some(name))
}

fn entity_mut<'a>(v: &'a mut Value, name: &str) -> Option<&'a mut Value> {
    array_mut(v, "entities").find(|e| str_of(e, "name") == Some(name))
}

/// `(parent, child)` of the relationship called `name`.
fn ends(v: &Value, name: &str) -> Option<(String, String)> {
    let r = array(v, "relationships").find(|r| str_of(r, "name") == Some(name))?;
    Some((
        str_of(r, "parent")?.to_string(),
        str_of(r, "child")?.to_string(),
    ))
}

fn check_name(new: &str, taken: &[String], what: Thing) -> Result<(), EditError> {
    if new.trim().is_empty() {
        return Err(EditError::EmptyName);
    }
    if taken.iter().any(|n| n == new) {
        return Err(EditError::NameTaken {
            what,
            name: new.to_string(),
        });
    }
    Ok(())
}

/// Renames entity `old` to `new`, and every reference to it: relationship ends and feeds,
/// steps, design patterns, shard keys of its collection, and parent references left at their
/// default name (`userId` → `memberId` in steps).
pub fn rename_entity(v: &mut Value, old: &str, new: &str) -> Result<(), EditError> {
    if old == new {
        return Ok(());
    }
    check_name(new, &entity_names(v), Thing::Entity)?;
    if entity_value(v, old).is_none() {
        return Err(EditError::NotFound {
            what: Thing::Entity,
            name: old.to_string(),
        });
    }
    let (old_ref, new_ref) = (format!("{old}Id"), format!("{new}Id"));
    let default_ref = array(v, "relationships")
        .any(|r| str_of(r, "parent") == Some(old) && r.get("parent_field").is_none());
    checked(v, action("edit-action-rename-entity", old), |v| {
        if let Some(e) = entity_mut(v, old) {
            swap(e, "name", old, new);
        }
        for r in array_mut(v, "relationships") {
            for key in ["parent", "child", "feed"] {
                swap(r, key, old, new);
            }
        }
        for s in steps_mut(v) {
            swap(s, "entity", old, new);
            if default_ref {
                swap(s, "by", &old_ref, &new_ref);
            }
        }
        for d in designs_mut(v) {
            for p in array_mut(d, "fields") {
                swap(p, "entity", old, new);
            }
        }
        for s in shardings_mut(v) {
            if let Some(keys) = s.get_mut("keys") {
                rename_key(keys, old, new);
                rename_key(keys, &format!("{old}_buckets"), &format!("{new}_buckets"));
            }
        }
        Ok(())
    })
}

/// Renames relationship `old` to `new`, and every reference to it: steps (and the children
/// they read), design overrides and computed fields.
pub fn rename_relationship(v: &mut Value, old: &str, new: &str) -> Result<(), EditError> {
    if old == new {
        return Ok(());
    }
    check_name(new, &relationship_names(v), Thing::Relationship)?;
    if ends(v, old).is_none() {
        return Err(EditError::NotFound {
            what: Thing::Relationship,
            name: old.to_string(),
        });
    }
    checked(v, action("edit-action-rename-relationship", old), |v| {
        for r in array_mut(v, "relationships") {
            swap(r, "name", old, new);
        }
        for s in steps_mut(v) {
            swap(s, "relationship", old, new);
            for c in array_mut(s, "children") {
                swap(c, "relationship", old, new);
            }
        }
        for d in designs_mut(v) {
            if let Some(rels) = d.get_mut("relationships") {
                rename_key(rels, old, new);
            }
            for p in array_mut(d, "fields") {
                swap(p, "relationship", old, new);
            }
        }
        for s in shardings_mut(v) {
            if let Some(keys) = s.get_mut("keys") {
                rename_key(keys, old, new);
                rename_key(keys, &format!("{old}_buckets"), &format!("{new}_buckets"));
            }
        }
        Ok(())
    })
}

/// Renames field `old` of `entity` to `new` (keeping its place), and every reference to it:
/// steps on the entity, children reads and searches through relationships whose child it is,
/// copied fields, design patterns, shard keys.
pub fn rename_field(v: &mut Value, entity: &str, old: &str, new: &str) -> Result<(), EditError> {
    if old == new {
        return Ok(());
    }
    let names = field_names(v, entity);
    check_name(new, &names, Thing::Field)?;
    if !names.iter().any(|n| n == old) {
        return Err(EditError::NotFound {
            what: Thing::Field,
            name: old.to_string(),
        });
    }
    let rels: Vec<(String, String, String)> = array(v, "relationships")
        .filter_map(|r| {
            Some((
                str_of(r, "name")?.to_string(),
                str_of(r, "parent")?.to_string(),
                str_of(r, "child")?.to_string(),
            ))
        })
        .collect();
    let child_of = |rel: Option<&str>| {
        rels.iter()
            .any(|(n, _, c)| Some(n.as_str()) == rel && c == entity)
    };
    let parent_of = |rel: &str| rels.iter().any(|(n, p, _)| n == rel && p == entity);
    checked(v, action("edit-action-rename-field", old), |v| {
        if let Some(fields) = entity_mut(v, entity).and_then(|e| e.get_mut("fields")) {
            rename_key(fields, old, new);
        }
        for s in steps_mut(v) {
            if str_of(s, "entity") == Some(entity) {
                for key in ["field", "by"] {
                    swap(s, key, old, new);
                }
                swap_in_list(s, "fields", old, new);
                if let Some(sort) = s.get_mut("sort") {
                    swap(sort, "field", old, new);
                }
            }
            if str_of(s, "op") == Some("find_parents") && child_of(str_of(s, "relationship")) {
                swap(s, "by", old, new);
            }
            for c in array_mut(s, "children") {
                if child_of(str_of(c, "relationship")) {
                    swap_in_list(c, "fields", old, new);
                    if let Some(sort) = c.get_mut("sort") {
                        swap(sort, "field", old, new);
                    }
                }
            }
        }
        for d in designs_mut(v) {
            if let Some(overrides) = d.get_mut("relationships").and_then(Value::as_object_mut) {
                for (rel, o) in overrides.iter_mut() {
                    let from_child = str_of(o, "strategy") == Some("extended_reference");
                    let ours = if from_child {
                        child_of(Some(rel.as_str()))
                    } else {
                        parent_of(rel)
                    };
                    if ours {
                        swap_in_list(o, "copy", old, new);
                    }
                }
            }
            for p in array_mut(d, "fields") {
                if str_of(p, "entity") == Some(entity) {
                    swap(p, "field", old, new);
                }
                if child_of(str_of(p, "relationship")) {
                    swap(p, "sum", old, new);
                }
            }
        }
        for s in shardings_mut(v) {
            if let Some(key) = s.get_mut("keys").and_then(|k| k.get_mut(entity)) {
                rename_key(key, old, new);
            }
        }
        // The keys references name an entity by follow the field.
        if let Some(list) = v.get_mut("relationships").and_then(Value::as_array_mut) {
            for r in list {
                if str_of(r, "parent") == Some(entity) {
                    swap(r, "parent_key", old, new);
                }
                if str_of(r, "child") == Some(entity) {
                    swap(r, "child_key", old, new);
                }
            }
        }
        Ok(())
    })
}

/// Removes entity `name`, refused while a relationship, step or pattern still names it.
pub fn remove_entity(v: &mut Value, name: &str) -> Result<(), EditError> {
    checked(v, action("edit-action-delete-entity", name), |v| {
        let list =
            v.get_mut("entities")
                .and_then(Value::as_array_mut)
                .ok_or(EditError::NotFound {
                    what: Thing::Entity,
                    name: name.to_string(),
                })?;
        let before = list.len();
        list.retain(|e| str_of(e, "name") != Some(name));
        if list.len() == before {
            return Err(EditError::NotFound {
                what: Thing::Entity,
                name: name.to_string(),
            });
        }
        Ok(())
    })
}

/// Removes relationship `name`, refused while a step or design override still names it.
pub fn remove_relationship(v: &mut Value, name: &str) -> Result<(), EditError> {
    checked(v, action("edit-action-delete-relationship", name), |v| {
        let list = v
            .get_mut("relationships")
            .and_then(Value::as_array_mut)
            .ok_or(EditError::NotFound {
                what: Thing::Relationship,
                name: name.to_string(),
            })?;
        let before = list.len();
        list.retain(|r| str_of(r, "name") != Some(name));
        if list.len() == before {
            return Err(EditError::NotFound {
                what: Thing::Relationship,
                name: name.to_string(),
            });
        }
        Ok(())
    })
}

/// Removes field `field` of `entity`, refused while a step or design names it.
pub fn remove_field(v: &mut Value, entity: &str, field: &str) -> Result<(), EditError> {
    checked(v, action("edit-action-delete-field", field), |v| {
        let removed = entity_mut(v, entity)
            .and_then(|e| e.get_mut("fields"))
            .and_then(Value::as_object_mut)
            .and_then(|m| m.shift_remove(field));
        match removed {
            Some(_) => Ok(()),
            None => Err(EditError::NotFound {
                what: Thing::Field,
                name: field.to_string(),
            }),
        }
    })
}

/// Moves item `index` of the array at JSON pointer `list` (`/entities`, `/workload/0/steps`)
/// one place up (`up`) or down. Returns false when it cannot move.
pub fn move_item(v: &mut Value, list: &str, index: usize, up: bool) -> bool {
    let Some(list) = v.pointer_mut(list).and_then(Value::as_array_mut) else {
        return false;
    };
    let other = if up {
        index.checked_sub(1)
    } else {
        index.checked_add(1)
    };
    match other {
        Some(o) if o < list.len() && index < list.len() => {
            list.swap(index, o);
            true
        }
        _ => false,
    }
}

/// Moves field `field` of entity `entity` one place up (`up`) or down in its `fields` object,
/// keeping every other key where it was. Returns false when it cannot move. Field order is the
/// order of the generated documents' keys (it changes no size: BSON sizes do not depend on it).
pub fn move_field(v: &mut Value, entity: &str, field: &str, up: bool) -> bool {
    let Some(fields) = entity_mut(v, entity)
        .and_then(|e| e.get_mut("fields"))
        .and_then(Value::as_object_mut)
    else {
        return false;
    };
    let mut entries: Vec<(String, Value)> = std::mem::take(fields).into_iter().collect();
    let at = entries.iter().position(|(k, _)| k == field);
    let other = at.and_then(|i| {
        if up {
            i.checked_sub(1)
        } else {
            i.checked_add(1)
        }
    });
    let moved = match (at, other) {
        (Some(i), Some(o)) if o < entries.len() => {
            entries.swap(i, o);
            true
        }
        _ => false,
    };
    fields.extend(entries);
    moved
}

/// Returns `base`, or `base2`, `base3`… : the first not in `taken`.
pub fn unused_name(base: &str, taken: &[String]) -> String {
    if !taken.iter().any(|n| n == base) {
        return base.to_string();
    }
    (2..)
        .map(|i| format!("{base}{i}"))
        .find(|n| !taken.contains(n))
        .unwrap_or_else(|| base.to_string())
}

fn push_to(v: &mut Value, key: &str, item: Value) {
    let Some(map) = v.as_object_mut() else { return };
    let slot = map
        .entry(key.to_string())
        .or_insert_with(|| Value::Array(Vec::new()));
    if !slot.is_array() {
        *slot = Value::Array(Vec::new());
    }
    if let Some(list) = slot.as_array_mut() {
        list.push(item);
    }
}

/// Adds an entity (`entity`, `entity2`, …) with one string field; returns its name.
pub fn add_entity(v: &mut Value) -> String {
    let name = unused_name("entity", &entity_names(v));
    push_to(
        v,
        "entities",
        json!({
            "name": name,
            "count": 1000,
            "fields": { "title": { "type": "string", "length": { "shape": "uniform", "min": 5, "max": 40 } } }
        }),
    );
    name
}

/// Adds a string field (`field`, `field2`, …) to `entity`; returns its name.
pub fn add_field(v: &mut Value, entity: &str) -> Option<String> {
    let name = unused_name("field", &field_names(v, entity));
    let e = entity_mut(v, entity)?.as_object_mut()?;
    let fields = e
        .entry("fields".to_string())
        .or_insert_with(|| Value::Object(Map::new()));
    fields
        .as_object_mut()?
        .insert(name.clone(), json!({ "type": "string" }));
    Some(name)
}

/// Adds a one-to-many relationship between the first two entities (or the first one and
/// itself); returns its name, or `None` when there is no entity.
pub fn add_relationship(v: &mut Value) -> Option<String> {
    let names = entity_names(v);
    let parent = names.first()?.clone();
    let child = names.get(1).unwrap_or(&parent).clone();
    let name = unused_name(&format!("{child}s"), &relationship_names(v));
    push_to(
        v,
        "relationships",
        json!({
            "name": name,
            "parent": parent,
            "child": child,
            "cardinality": { "shape": "uniform", "min": 0, "max": 10 }
        }),
    );
    Some(name)
}

/// Adds an application unit reading the first entity by `_id`.
pub fn add_unit(v: &mut Value) {
    let names = entity_names(v);
    let unit = unused_name(
        "new operation",
        &array(v, "workload")
            .filter_map(|u| str_of(u, "name").map(str::to_string))
            .collect::<Vec<_>>(),
    );
    let steps = match names.first() {
        Some(e) => vec![json!({ "op": "read", "entity": e })],
        None => Vec::new(),
    };
    push_to(
        v,
        "workload",
        json!({ "name": unit, "rate_per_sec": 10, "steps": steps }),
    );
}

/// Returns a step of kind `op`, keeping the entity or relationship of `old` when the new kind
/// takes the same kind of target, else naming the model's first one.
pub fn step_with_op(v: &Value, old: &Value, op: Op) -> Value {
    let entity = str_of(old, "entity")
        .map(str::to_string)
        .or_else(|| entity_names(v).into_iter().next())
        .unwrap_or_default();
    let feeds: Vec<String> = array(v, "relationships")
        .filter(|r| r.get("feed").is_some())
        .filter_map(|r| str_of(r, "name").map(str::to_string))
        .collect();
    let rel_of = |feed: bool| {
        str_of(old, "relationship")
            .filter(|r| !feed || feeds.iter().any(|f| f == r))
            .map(str::to_string)
            .or_else(|| {
                if feed {
                    feeds.first().cloned()
                } else {
                    relationship_names(v).into_iter().next()
                }
            })
            .unwrap_or_default()
    };
    let first_field = |e: &str| {
        field_names(v, e)
            .into_iter()
            .next()
            .unwrap_or_else(|| "_id".to_string())
    };
    let name = op.name();
    match op {
        Op::Read | Op::Insert | Op::Delete => json!({ "op": name, "entity": entity }),
        Op::Update => json!({ "op": name, "entity": entity, "field": first_field(&entity) }),
        Op::List => {
            json!({ "op": name, "entity": entity, "sort": { "field": first_field(&entity), "order": -1 } })
        }
        Op::FindByAttribute => {
            json!({ "op": name, "entity": entity, "field": first_field(&entity) })
        }
        Op::FindParents => {
            let rel = rel_of(false);
            let child = ends(v, &rel).map(|(_, c)| c).unwrap_or_default();
            json!({ "op": name, "relationship": rel, "by": first_field(&child) })
        }
        Op::PostFeed | Op::ReadFeed => json!({ "op": name, "relationship": rel_of(true) }),
        Op::InsertChild
        | Op::Reassign
        | Op::ReadSubtree
        | Op::ReadAncestors
        | Op::ReadChildren
        | Op::InsertNode
        | Op::MoveSubtree => json!({ "op": name, "relationship": rel_of(false) }),
    }
}

/// Returns the distribution `d` changed to `shape`, its numbers carried over where the shapes
/// share them (the largest stays the largest, the typical the typical) and made consistent
/// (`typical ≤ p99 ≤ max`, `min ≤ max`).
pub fn with_shape(d: &Value, shape: Shape) -> Value {
    let num = |k: &str| d.get(k).and_then(Value::as_f64);
    let max = num("max").or(num("value")).unwrap_or(100.0).max(1.0);
    let min = num("min").unwrap_or(0.0).clamp(0.0, max);
    let typical = num("typical")
        .or(num("mean"))
        .or(num("value"))
        .unwrap_or((min + max) / 2.0)
        .clamp(1.0_f64.min(max), max);
    let p99 = num("p99")
        .unwrap_or((typical * 10.0).min(max))
        .clamp(typical, max);
    let tidy = |x: f64| {
        if x.fract() == 0.0 && x.abs() < 9e15 {
            json!(x as i64)
        } else {
            json!(x)
        }
    };
    match shape {
        Shape::Fixed => json!({ "shape": "fixed", "value": tidy(num("value").unwrap_or(typical)) }),
        Shape::Uniform => json!({ "shape": "uniform", "min": tidy(min), "max": tidy(max) }),
        Shape::Normal => {
            let sd = num("sd").unwrap_or(((max - min) / 6.0).max(1.0).round());
            json!({ "shape": "normal", "mean": tidy(typical), "sd": tidy(sd), "min": tidy(min), "max": tidy(max) })
        }
        Shape::Zipf => json!({
            "shape": "zipf",
            "min": tidy(min.min(typical)),
            "typical": tidy(typical),
            "p99": tidy(p99),
            "max": tidy(max)
        }),
        Shape::Lognormal => {
            json!({ "shape": "lognormal", "typical": tidy(typical), "p99": tidy(p99), "max": tidy(max) })
        }
    }
}

/// Returns `n` points (n ≥ 2) of the distribution's quantile curve, each in 0..=1 of its
/// largest value: the values of parents sorted from the smallest to the largest, the shape the
/// forms draw. `None` when the value is not a valid distribution.
pub fn shape_profile(d: &Value, n: usize) -> Option<Vec<f64>> {
    let dist: Distribution = serde_json::from_value(d.clone()).ok()?;
    let max = dist.max();
    if !max.is_finite() || n < 2 {
        return None;
    }
    let steps = (n - 1) as f64;
    Some(
        (0..n)
            .map(|i| {
                // The last point is the largest parent; the others spread up to p99.9.
                let q = if i + 1 == n {
                    1.0
                } else {
                    i as f64 / steps * 0.999
                };
                let y = dist.quantile(q);
                if max > 0.0 {
                    (y / max).clamp(0.0, 1.0)
                } else {
                    0.0
                }
            })
            .collect(),
    )
}

/// Returns the number typed in a form (`"1e6"`, `" 12 "`) as JSON: a whole number without a
/// fraction, else a float; `None` when it is not a finite number.
pub fn number_value(text: &str) -> Option<Value> {
    let x: f64 = text.trim().parse().ok()?;
    if !x.is_finite() {
        return None;
    }
    Some(if x.fract() == 0.0 && x.abs() < 9e15 {
        json!(x as i64)
    } else {
        json!(x)
    })
}

/// Sets `key` of the object at JSON pointer `parent` to `value` (in place when it exists, else
/// after the other keys), or removes it when `value` is `None`. Returns false when `parent` is
/// not an object.
pub fn set_key(v: &mut Value, parent: &str, key: &str, value: Option<Value>) -> bool {
    let Some(map) = v.pointer_mut(parent).and_then(Value::as_object_mut) else {
        return false;
    };
    match value {
        Some(x) => {
            map.insert(key.to_string(), x);
        }
        None => {
            map.shift_remove(key);
        }
    }
    true
}

/// Returns the JSON pointer of `parts` (`["entities", "0", "a/b"]` → `/entities/0/a~1b`).
pub fn pointer(parts: &[&str]) -> String {
    parts
        .iter()
        .map(|p| format!("/{}", p.replace('~', "~0").replace('/', "~1")))
        .collect()
}

/// Changes the field's `type` to `ty`, dropping the keys that do not apply to the new type and
/// adding the ones it needs (an array's `items` and `count`, an object's `fields`). Keeps
/// `presence`.
pub fn set_field_type(field: &mut Value, ty: &str) {
    let presence = field.get("presence").cloned();
    let length = field.get("length").cloned();
    let mut out = Map::new();
    out.insert("type".into(), Value::String(ty.to_string()));
    match ty {
        "string" | "binData" | "regex" | "javascript" => {
            if let Some(l) = length {
                out.insert("length".into(), l);
            }
        }
        "array" => {
            out.insert("items".into(), json!("string"));
            out.insert(
                "count".into(),
                json!({ "shape": "uniform", "min": 0, "max": 5 }),
            );
        }
        "object" => {
            out.insert("fields".into(), json!({}));
        }
        _ => {}
    }
    if let Some(p) = presence {
        out.insert("presence".into(), p);
    }
    *field = Value::Object(out);
}
