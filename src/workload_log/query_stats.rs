//! `$queryStats` output (MongoDB 7.1 on, 6.0.7 and 7.0.12 on Atlas): one entry per query
//! shape and client, as the manual's *$queryStats (aggregation)* page gives it:
//! `{key: {queryShape: {cmdNs: {db, coll}, command, filter, sort, projection, limit …},
//! client …}, metrics: {execCount, totalExecMicros: {sum, max, min}, docsReturned: {sum …},
//! keysExamined: {sum …}, docsExamined: {sum …}, firstSeenTimestamp, latestSeenTimestamp}}`,
//! exported with mongoexport (after `$out`) or printed by `EJSON.stringify`, one entry a
//! line, the whole output as one JSON array on one line, or either pretty-printed over
//! lines (gathered into one by [`super::LogReading`]).
//!
//! An entry is many operations already grouped: its shape's values are already parameters
//! (`{item: {$eq: "?string"}}`), its figures sums over `execCount` runs. The shape is read
//! back through [`super::entry::classify`] as a logged command would be, each parameter
//! standing for a value of its type ([`representative`]), so that an entry and a logged
//! operation of the same query have the same shape. The limit is a parameter too
//! (`"?number"`): the most documents a run returned (`docsReturned.max`) stands for it.

use serde_json::{json, Map, Value};

use super::entry::{LineRead, Logged, Totals};
use super::structured::{date, number};

/// True when `object` is a `$queryStats` entry (`key.queryShape` and `metrics`).
pub fn is_entry(object: &Map<String, Value>) -> bool {
    object
        .get("key")
        .is_some_and(|k| k.get("queryShape").is_some())
        && object.contains_key("metrics")
}

/// Reads one entry; an error says what it lacks.
pub fn read(object: &Map<String, Value>) -> Result<LineRead, String> {
    let shape = object
        .get("key")
        .and_then(|k| k.get("queryShape"))
        .and_then(Value::as_object)
        .ok_or("a $queryStats entry without key.queryShape")?;
    let metrics = object
        .get("metrics")
        .ok_or("a $queryStats entry without metrics")?;
    let ns = shape
        .get("cmdNs")
        .ok_or("a $queryStats entry without key.queryShape.cmdNs")?;
    let text = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
    let (Some(db), Some(coll)) = (text(ns, "db"), text(ns, "coll")) else {
        return Err("a $queryStats entry whose cmdNs has no db and coll".to_string());
    };
    let command = text(&Value::Object(shape.clone()), "command").unwrap_or_default();
    let sum = |k: &str| metrics.get(k).and_then(|m| m.get("sum")).and_then(number);
    let returned_max = metrics
        .get("docsReturned")
        .and_then(|m| m.get("max"))
        .and_then(number);
    let micros = metrics.get("totalExecMicros").and_then(|m| {
        let part = |k: &str| m.get(k).and_then(number);
        Some((part("sum")?, part("min")?, part("max")?))
    });
    let seen = |k: &str| metrics.get(k).and_then(date);
    let first = seen("firstSeenTimestamp");
    let latest = seen("latestSeenTimestamp").or_else(|| seen("lastSeenTimestamp"));
    let totals = Totals {
        count: metrics.get("execCount").and_then(number).unwrap_or(0),
        keys_examined: sum("keysExamined"),
        docs_examined: sum("docsExamined"),
        nreturned: sum("docsReturned"),
        micros,
        span_ms: first.zip(latest).or(latest.map(|t| (t, t))),
    };
    let logged = Logged {
        time_ms: None,
        namespace: format!("{db}.{coll}"),
        op: "command".to_string(),
        command: Some(command_of(&command, &coll, shape, returned_max)),
        totals: Some(totals),
        ..Logged::default()
    };
    Ok(LineRead {
        time_ms: None,
        logged: Some(logged),
    })
}

/// Reads a line holding a JSON array of entries (`EJSON.stringify` of `$queryStats`'
/// output); an error says why it is not one.
pub fn read_array(line: &str) -> Result<Vec<LineRead>, String> {
    let value: Value =
        serde_json::from_str(line).map_err(|e| format!("not a JSON array (truncated?): {e}"))?;
    let items = value.as_array().ok_or("not a JSON array")?;
    items
        .iter()
        .enumerate()
        .map(|(i, item)| match item.as_object().filter(|o| is_entry(o)) {
            Some(o) => read(o).map_err(|e| format!("element {i}: {e}")),
            None => Err(format!("element {i} is not a $queryStats entry")),
        })
        .collect()
}

/// Returns the command an entry's shape stands for (`{find: coll, filter: …}`), its
/// parameters as representative values.
fn command_of(
    command: &str,
    coll: &str,
    shape: &Map<String, Value>,
    returned_max: Option<u64>,
) -> Value {
    let mut out = Map::new();
    out.insert(command.to_string(), json!(coll));
    for (k, v) in shape {
        match k.as_str() {
            "cmdNs" | "command" => {}
            "sort" => {
                out.insert(k.clone(), v.clone());
            }
            "limit" => {
                if let Some(n) = returned_max.filter(|n| *n > 0) {
                    out.insert(k.clone(), json!(n));
                }
            }
            _ => {
                out.insert(k.clone(), representative(v));
            }
        }
    }
    Value::Object(out)
}

/// Returns a value standing for a normalized one: each parameter (`"?string"`, `"?number"`,
/// `"?array<?number>"` …) a value of its type, `{$eq: X}` the equality `X`.
pub fn representative(v: &Value) -> Value {
    match v {
        Value::String(s) if s.starts_with("?array") => json!([]),
        Value::String(s) => match s.as_str() {
            "?number" => json!(0),
            "?bool" => json!(true),
            "?null" => Value::Null,
            "?objectId" => json!({"$oid": "000000000000000000000000"}),
            "?date" => json!({"$date": "1970-01-01T00:00:00Z"}),
            "?binData" => json!({"$binary": {"base64": "", "subType": "00"}}),
            "?timestamp" => json!({"$timestamp": {"t": 0, "i": 0}}),
            "?object" => json!({}),
            _ => json!("s"),
        },
        Value::Object(m) => match m.iter().next() {
            Some((k, eq)) if m.len() == 1 && k == "$eq" => representative(eq),
            _ => Value::Object(
                m.iter()
                    .map(|(k, v)| (k.clone(), representative(v)))
                    .collect(),
            ),
        },
        Value::Array(items) => Value::Array(items.iter().map(representative).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workload_log::entry::{classify, Kind};

    #[test]
    fn the_manuals_find_entry_is_a_find_by_item_with_its_totals() {
        let line = r#"{"key":{"queryShape":{"cmdNs":{"db":"test","coll":"products"},"command":"find","filter":{"item":{"$eq":"?string"}}},"collectionType":"collection"},"metrics":{"lastExecutionMicros":{"$numberLong":"4254"},"execCount":{"$numberLong":"1"},"totalExecMicros":{"sum":{"$numberLong":"4254"},"max":{"$numberLong":"4254"},"min":{"$numberLong":"4254"}},"docsReturned":{"sum":{"$numberLong":"1"},"max":{"$numberLong":"1"},"min":{"$numberLong":"1"}},"firstSeenTimestamp":{"$date":"2023-09-14T12:30:27.989Z"},"latestSeenTimestamp":{"$date":"2023-09-14T12:30:27.989Z"}}}"#;
        let v: Value = serde_json::from_str(line).unwrap();
        let read = read(v.as_object().unwrap()).unwrap();
        let logged = read.logged.unwrap();
        let op = classify(&logged).unwrap();
        assert_eq!(
            (op.kind, op.filter),
            (Kind::Find, json!({"item": "?string"}))
        );
        let t = logged.totals.unwrap();
        assert_eq!(
            (t.count, t.nreturned, t.micros),
            (1, Some(1), Some((4254, 4254, 4254)))
        );
        assert_eq!(t.span_ms.map(|(a, b)| b - a), Some(0));
    }

    #[test]
    fn parameters_stand_for_values_of_their_type() {
        let filter = json!({"qty": {"$gt": "?number"}, "tags": {"$in": "?array<?string>"},
            "$or": [{"a": {"$eq": "?objectId"}}]});
        let shape = crate::workload_log::shape::of(&representative(&filter));
        assert_eq!(
            shape,
            json!({"qty": {"$gt": "?number"}, "tags": {"$in": "?array"},
                "$or": [{"a": "?objectId"}]})
        );
    }
}
