//! A query's shape: its values replaced by typed parameters, as `$queryStats` does.
//!
//! `{email: "a@b.c", age: {$gt: 30}}` becomes `{email: "?string", age: {$gt: "?number"}}`,
//! so that every run of the same query in the application is one shape, whatever values it
//! was run with. Field names and operators are kept in their order (the application writes
//! them in that order); the logical operators (`$and`, `$or`, `$nor`) keep the shapes of
//! their clauses; any other array (`$in: [1, 2, 3]`) is one `"?array"` parameter, so that
//! the number of values does not make new shapes. Sort and projection specifications are
//! not parameters: their `1` and `-1` are kept (`{date: -1}`), as `$queryStats` keeps them.

use serde_json::{Map, Value};

/// Returns the shape of a filter (or of an update document): every value a parameter.
pub fn of(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            if let Some(parameter) = extended_json_type(map) {
                return Value::String(parameter.to_string());
            }
            let mut out = Map::new();
            for (key, v) in map {
                let shaped = match (key.as_str(), v) {
                    ("$and" | "$or" | "$nor", Value::Array(items)) => {
                        Value::Array(items.iter().map(of).collect())
                    }
                    _ => of(v),
                };
                out.insert(key.clone(), shaped);
            }
            Value::Object(out)
        }
        Value::Array(_) => Value::String("?array".to_string()),
        Value::String(_) => Value::String("?string".to_string()),
        Value::Number(_) => Value::String("?number".to_string()),
        Value::Bool(_) => Value::String("?bool".to_string()),
        Value::Null => Value::String("?null".to_string()),
    }
}

/// Returns a sort or projection specification as its shape: numbers written as whole
/// numbers (`1.0` is `1`), other values (`{$meta: "textScore"}`, `$slice`) kept.
pub fn spec(value: &Value) -> Value {
    match value {
        Value::Number(n) => match n.as_f64() {
            Some(x) if x.fract() == 0.0 && x.abs() < 1e15 => Value::from(x as i64),
            _ => value.clone(),
        },
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), spec(v)))
                .collect::<Map<_, _>>(),
        ),
        _ => value.clone(),
    }
}

/// Returns the parameter of an Extended JSON value (`{"$oid": …}` → `"?objectId"`), or
/// `None` for an ordinary sub-document.
fn extended_json_type(map: &Map<String, Value>) -> Option<&'static str> {
    let (key, _) = map.iter().next()?;
    let parameter = match key.as_str() {
        "$oid" => "?objectId",
        "$date" => "?date",
        "$numberInt" | "$numberLong" | "$numberDouble" | "$numberDecimal" => "?number",
        "$binary" | "$uuid" => "?binData",
        "$regex" | "$regularExpression" => "?regex",
        "$timestamp" => "?timestamp",
        "$minKey" | "$maxKey" => "?minMaxKey",
        "$symbol" => "?string",
        "$code" => "?javascript",
        _ => return None,
    };
    // `{$regex: "^a", $options: "i"}` is the query operator, not a value: keep it.
    (map.len() == 1 || key == "$binary" || key == "$regularExpression").then_some(parameter)
}

/// Returns the compact text of a shape (the key shapes are grouped by).
pub fn text(shape: &Value) -> String {
    shape.to_string()
}

/// Returns the BSON type alias (`string`, `objectId` …) a parameter stands for, if known.
pub fn parameter_type(parameter: &str) -> Option<&'static str> {
    Some(match parameter {
        "?string" => "string",
        "?number" => "double",
        "?bool" => "bool",
        "?objectId" => "objectId",
        "?date" => "date",
        "?binData" => "binData",
        "?timestamp" => "timestamp",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_become_typed_parameters() {
        let filter = json!({"email": "a@b.c", "age": {"$gt": 30}, "_id": {"$oid": "5f"},
            "tags": {"$in": [1, 2, 3]}, "$or": [{"a": true}, {"b": null}],
            "name": {"$regex": "^a", "$options": "i"}});
        assert_eq!(
            of(&filter),
            json!({"email": "?string", "age": {"$gt": "?number"}, "_id": "?objectId",
                "tags": {"$in": "?array"}, "$or": [{"a": "?bool"}, {"b": "?null"}],
                "name": {"$regex": "?string", "$options": "?string"}})
        );
    }

    #[test]
    fn the_same_query_with_other_values_has_the_same_shape() {
        let a = of(&json!({"user": "alice", "n": {"$in": [1]}}));
        let b = of(&json!({"user": "bob", "n": {"$in": [1, 2, 3, 4]}}));
        assert_eq!(text(&a), text(&b));
        assert_ne!(text(&a), text(&of(&json!({"user": 1, "n": {"$in": []}}))));
    }

    #[test]
    fn sort_directions_are_kept() {
        assert_eq!(
            spec(&json!({"date": -1.0, "a": 1})),
            json!({"date": -1, "a": 1})
        );
    }
}
