//! `find_by_attribute`: the entities whose attribute (an element of an array-of-objects field)
//! matches, one find whose filter follows the field's attribute pattern: the key is part of
//! the path in a keyed sub-document (an `$or` naming every key when no key is given), a
//! condition on the key and value fields of flattened rows, a multikey condition (or
//! `$elemMatch`) on an array of `{k, v}`.

use bson::{doc, Bson, Document};

use super::{CommandKind::Find, Commands, Placement};
use crate::model::design::{AttributeForm, FieldPattern};
use crate::model::{Model, Step};

/// Appends the command of a `find_by_attribute` step.
pub(super) fn commands(p: &Placement, step: &Step, out: &mut Commands) {
    let Step::FindByAttribute {
        entity,
        field,
        key,
        above,
    } = step
    else {
        return;
    };
    let coll = p.collection_for(entity);
    let pattern = pattern_of(p.model, entity, field);
    let cond = |above: Option<f64>| -> Bson {
        match above {
            Some(a) => doc! { "$gt": a }.into(),
            None => doc! { "$exists": true }.into(),
        }
    };
    let (filter, note) = match pattern {
        Some((AttributeForm::Keyed, kf, _)) => {
            let keys = p
                .model
                .entity(entity)
                .and_then(|e| e.fields.get(field))
                .and_then(|f| f.fields.get(&kf))
                .map(|k| k.values.clone())
                .unwrap_or_default();
            match key {
                Some(k) => (
                    doc! { format!("{field}.{k}"): cond(*above) },
                    format!("{field}.{k}: the key is part of the path"),
                ),
                None => {
                    let clauses: Vec<Bson> = keys
                        .iter()
                        .map(|k| doc! { format!("{field}.{k}"): cond(*above) }.into())
                        .collect();
                    (
                        doc! { "$or": clauses },
                        format!("any key of {field}: every key named ({})", keys.len()),
                    )
                }
            }
        }
        Some((AttributeForm::Flattened, kf, vf)) => {
            let mut f = Document::new();
            if let Some(k) = key {
                f.insert(kf, k.clone());
            }
            if above.is_some() || key.is_none() {
                f.insert(vf, cond(*above));
            }
            (f, format!("one row per {field} element"))
        }
        form => {
            let (kf, vf) = form.map_or_else(
                || ("key".to_string(), "value".to_string()),
                |(_, k, v)| (k, v),
            );
            let f = match (key, above) {
                (Some(k), Some(a)) => {
                    doc! { field.as_str(): { "$elemMatch": { kf: k.clone(), vf: { "$gt": a } } } }
                }
                (Some(k), None) => doc! { format!("{field}.{kf}"): k.clone() },
                (None, a) => doc! { format!("{field}.{vf}"): cond(*a) },
            };
            (f, format!("{field} as an array: one multikey index"))
        }
    };
    out.push(out.command(&coll, Find, filter, note));
}

/// Returns the attribute pattern the design applies to `entity.field`: its form, key field
/// and value field, or `None` where the field keeps the entity's own layout (an array).
pub fn pattern_of(
    model: &Model,
    entity: &str,
    field: &str,
) -> Option<(AttributeForm, String, String)> {
    model.design.fields.iter().find_map(|pat| match pat {
        FieldPattern::Attribute {
            entity: e,
            field: f,
            form,
            key,
            value,
        } if e == entity && f == field => Some((*form, key.clone(), value.clone())),
        _ => None,
    })
}
