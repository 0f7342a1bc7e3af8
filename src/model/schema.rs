//! The JSON Schema of the model format, generated from the model's types with `schemars`:
//! `docs/model.schema.json` is [`model_schema`]'s output, written by `tests/suite/model_schema.rs`.
//! Native only: the page never needs it.
//!
//! The schema says what one JSON value can say (types, names, required keys, bounds); the
//! cross-references (entity, relationship and field names, `p99 ≤ max`, `min ≤ max`) are
//! checked by [`super::parse_model`] only.

use std::borrow::Cow;

use schemars::generate::SchemaSettings;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde_json::Value;

use super::field::{Field, Fields};
use super::validate::MAX_FIELDS;
use super::Model;

/// Returns the JSON Schema (draft 2020-12) of a model.
pub fn model_schema() -> Value {
    let schema = SchemaSettings::draft2020_12()
        .into_generator()
        .into_root_schema_for::<Model>();
    let mut value = schema.to_value();
    no_null(&mut value);
    tidy_descriptions(&mut value);
    head_first(value)
}

/// Returns the schema with what says what it is first: `$schema`, `$id`, `title`,
/// `description`, then the rest in the generated order.
fn head_first(v: Value) -> Value {
    let Value::Object(mut m) = v else {
        return v;
    };
    let mut out = serde_json::Map::new();
    for key in ["$schema", "$id", "title", "description"] {
        if let Some(x) = m.shift_remove(key) {
            out.insert(key.to_string(), x);
        }
    }
    out.extend(m);
    Value::Object(out)
}

/// Turns every description from doc-comment text into plain text: the lines of a paragraph
/// joined by spaces, and rustdoc links (``[`Sample`]``) written as the code they name.
fn tidy_descriptions(v: &mut Value) {
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                match x {
                    Value::String(s) if k == "description" => {
                        *s = s
                            .split("\n\n")
                            .map(|p| p.replace('\n', " "))
                            .collect::<Vec<_>>()
                            .join("\n\n")
                            .replace("[`", "`")
                            .replace("`]", "`");
                    }
                    other => tidy_descriptions(other),
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(tidy_descriptions),
        _ => {}
    }
}

/// Removes `null` from every optional value's schema: an optional key of a model is left out,
/// never written `null` (validation refuses a `null` wherever a value is expected).
fn no_null(v: &mut Value) {
    match v {
        Value::Object(m) => {
            if let Some(Value::Array(types)) = m.get_mut("type") {
                types.retain(|t| t != "null");
                if let [only] = types.as_slice() {
                    let only = only.clone();
                    m.insert("type".into(), only);
                }
            }
            let any_of_null = m.get("anyOf").and_then(Value::as_array).and_then(|a| {
                let is_null = |x: &Value| x.get("type").and_then(Value::as_str) == Some("null");
                match a.as_slice() {
                    [x, n] if is_null(n) => Some(x.clone()),
                    _ => None,
                }
            });
            if let Some(Value::Object(inner)) = any_of_null {
                m.shift_remove("anyOf");
                for (k, x) in inner {
                    m.entry(k).or_insert(x);
                }
            }
            for x in m.values_mut() {
                no_null(x);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(no_null),
        _ => {}
    }
}

/// The schema of a shard key per collection: collection name → `{field: 1 | "hashed"}`, with at
/// least one field.
pub(super) fn shard_keys(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "type": "object",
        "additionalProperties": {
            "type": "object",
            "minProperties": 1,
            "additionalProperties": { "enum": [1, "hashed"] }
        }
    })
}

impl JsonSchema for Fields {
    fn schema_name() -> Cow<'static, str> {
        "Fields".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "Named fields in document order: field name → field. A name is not empty, does not start with `$` and holds no `.` or NUL.",
            "type": "object",
            "maxProperties": MAX_FIELDS,
            "propertyNames": { "pattern": "^[^$.\u{0}][^.\u{0}]*$" },
            "additionalProperties": generator.subschema_for::<Field>()
        })
    }
}
