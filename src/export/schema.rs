//! `$jsonSchema` validators derived from a collection's document shapes: `bsonType` for every
//! field (MongoDB's type aliases), `required` for the fields every document has, `items` for
//! arrays, `enum` for fields drawn from a list. Extra fields are allowed (MongoDB's default).

use serde_json::{json, Map, Value};

use crate::design::{Collection, DocShape};
use crate::model::field::{BsonType, Field, Fields};

/// Returns the `$jsonSchema` of collection `c` (`anyOf` its shapes when it has several).
pub fn validator(c: &Collection) -> Value {
    let shapes: Vec<Value> = c.shapes.iter().map(shape_schema).collect();
    match <[Value; 1]>::try_from(shapes) {
        Ok([one]) => one,
        Err(many) => json!({ "bsonType": "object", "anyOf": many }),
    }
}

fn shape_schema(s: &DocShape) -> Value {
    object_schema(&s.fields)
}

fn object_schema(fields: &Fields) -> Value {
    let mut props = Map::new();
    let mut required = Vec::new();
    for (name, f) in fields.iter() {
        props.insert(name.clone(), field_schema(f));
        if f.presence() >= 1.0 {
            required.push(Value::String(name.clone()));
        }
    }
    let mut o = Map::new();
    o.insert("bsonType".into(), json!("object"));
    if !required.is_empty() {
        o.insert("required".into(), Value::Array(required));
    }
    o.insert("properties".into(), Value::Object(props));
    Value::Object(o)
}

/// Returns the schema of one field.
pub fn field_schema(f: &Field) -> Value {
    match f.ty {
        BsonType::Object => object_schema(&f.fields),
        BsonType::Array => json!({ "bsonType": "array", "items": field_schema(&f.element()) }),
        BsonType::String if !f.values.is_empty() => {
            json!({ "bsonType": "string", "enum": f.values })
        }
        t => json!({ "bsonType": t.alias() }),
    }
}
