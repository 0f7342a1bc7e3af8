//! JSON lines: mongod's structured log (4.4 on) and `system.profile` documents exported with
//! mongoexport.
//!
//! A structured log line is `{"t": {"$date": …}, "s", "c", "id", "ctx", "msg", "attr"}`
//! (MongoDB manual, *Log Messages*); an operation slower than `slowms` is the message
//! `"Slow query"` (id 51803, component `COMMAND`, or `WRITE` for a statement), whose `attr`
//! holds `type` (`command`, `update`, `remove`), `ns`, `command`, `planSummary`,
//! `keysExamined`, `docsExamined`, `nreturned` and `durationMillis`. A profiler document is
//! `{op, ns, command (query and updateobj before 3.2), keysExamined, docsExamined,
//! nreturned, millis, planSummary, ts}`, in canonical or relaxed Extended JSON.

use serde_json::Value;

use super::entry::{Figures, LineRead, Logged};
use super::Format;

/// Reads one JSON line, a log entry ([`Format::Json`]) or a profiler document
/// ([`Format::Profile`]); an error says why it is neither.
pub fn read(line: &str) -> Result<(Format, LineRead), String> {
    let value: Value = serde_json::from_str(line)
        .map_err(|e| format!("not JSON (truncated?): {}", without_place(&e)))?;
    let Some(object) = value.as_object() else {
        return Err("a JSON value that is not an object".to_string());
    };
    if object.contains_key("t") && object.contains_key("msg") {
        let time_ms = object.get("t").and_then(date);
        let attr = object.get("attr");
        let slow = object.get("msg").and_then(Value::as_str) == Some("Slow query")
            || object.get("id").and_then(number) == Some(51803);
        if slow && attr.is_some_and(|a| a.get("truncated").is_some()) {
            // mongod cut the command (past `maxLogSizeKB`) and said what it cut.
            return Err(
                "mongod truncated its command (attr.truncated): its shape is not \
                        known, the operation is not read"
                    .to_string(),
            );
        }
        let logged = match attr {
            Some(attr) if slow => Some(Logged {
                time_ms,
                namespace: text(attr.get("ns")).unwrap_or_default(),
                connection: text(object.get("ctx")).filter(|c| c.starts_with("conn")),
                op: match text(attr.get("type")).as_deref() {
                    Some("delete") => "remove".to_string(),
                    Some(t) => t.to_string(),
                    None => "command".to_string(),
                },
                command_name: None,
                command: attr.get("command").cloned(),
                query: None,
                update: None,
                figures: figures(attr, "durationMillis"),
                totals: None,
            }),
            _ => None,
        };
        return Ok((Format::Json, LineRead { time_ms, logged }));
    }
    if object.contains_key("op") && object.contains_key("ns") {
        let time_ms = object.get("ts").and_then(date);
        let op = text(object.get("op")).unwrap_or_default();
        let logged = Logged {
            time_ms,
            namespace: text(object.get("ns")).unwrap_or_default(),
            connection: None,
            op: if op == "delete" {
                "remove".to_string()
            } else {
                op
            },
            command_name: None,
            command: object.get("command").cloned(),
            query: object.get("query").cloned(),
            update: object.get("updateobj").cloned(),
            figures: figures(&value, "millis"),
            totals: None,
        };
        return Ok((
            Format::Profile,
            LineRead {
                time_ms,
                logged: Some(logged),
            },
        ));
    }
    if super::query_stats::is_entry(object) {
        return super::query_stats::read(object).map(|r| (Format::QueryStats, r));
    }
    Err(
        "a JSON object that is neither a mongod log entry (t, msg), a system.profile \
         document (op, ns) nor a $queryStats entry (key.queryShape, metrics)"
            .to_string(),
    )
}

/// Returns the figures of a slow query's `attr` or a profiler document.
fn figures(v: &Value, duration_key: &str) -> Figures {
    let n = |keys: &[&str]| keys.iter().find_map(|k| v.get(*k).and_then(number));
    Figures {
        keys_examined: n(&["keysExamined", "nscanned"]),
        docs_examined: n(&["docsExamined", "nscannedObjects"]),
        nreturned: n(&["nreturned"]),
        duration_ms: n(&[duration_key]),
        plan_summary: text(v.get("planSummary")),
        ntoreturn: n(&["ntoreturn"]),
    }
}

/// Returns a string value.
fn text(v: Option<&Value>) -> Option<String> {
    v.and_then(Value::as_str).map(str::to_string)
}

/// Returns a whole number, plain or in Extended JSON (`{"$numberLong": "5"}`).
pub(super) fn number(v: &Value) -> Option<u64> {
    match v {
        Value::Number(n) => n.as_u64().or_else(|| {
            n.as_f64()
                .filter(|x| *x >= 0.0 && x.is_finite())
                .map(|x| x as u64)
        }),
        Value::Object(m) => m
            .iter()
            .next()
            .filter(|(k, _)| k.starts_with("$number"))
            .and_then(|(_, s)| s.as_str()?.parse::<f64>().ok())
            .filter(|x| *x >= 0.0 && x.is_finite())
            .map(|x| x as u64),
        _ => None,
    }
}

/// Returns the milliseconds since the epoch of `{"$date": "…"}`, `{"$date": {"$numberLong":
/// "…"}}` or `{"$date": 123}`.
pub(super) fn date(v: &Value) -> Option<i64> {
    match v.get("$date")? {
        Value::String(s) => crate::date::parse_iso_date(s).ok(),
        Value::Number(n) => n.as_i64(),
        Value::Object(m) => m.get("$numberLong")?.as_str()?.parse().ok(),
        _ => None,
    }
}

/// serde_json's message without " at line 1 column N": the line is the log's.
fn without_place(e: &serde_json::Error) -> String {
    let message = e.to_string();
    let place = format!(" at line {} column {}", e.line(), e.column());
    match message.strip_suffix(&place) {
        Some(m) => format!("{m} at column {}", e.column()),
        None => message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_manuals_slow_query() {
        let line = r#"{"t":{"$date":"2020-05-20T20:10:08.731+00:00"},"s":"I","c":"COMMAND","id":51803,"ctx":"conn281","msg":"Slow query","attr":{"type":"command","ns":"stocks.trades","appName":"MongoDB Shell","command":{"aggregate":"trades","pipeline":[{"$sort":{"price":-1}}],"cursor":{},"$db":"stocks"},"planSummary":"COLLSCAN","keysExamined":0,"docsExamined":1000001,"nreturned":101,"durationMillis":22427}}"#;
        let (format, read) = read(line).unwrap();
        assert_eq!(format, Format::Json);
        let l = read.logged.unwrap();
        assert_eq!(l.namespace, "stocks.trades");
        assert_eq!(l.figures.docs_examined, Some(1_000_001));
        assert_eq!(l.figures.duration_ms, Some(22427));
        assert_eq!(read.time_ms, Some(1_590_005_408_731));
    }

    #[test]
    fn reads_a_profiler_document_in_canonical_extended_json() {
        let line = r#"{"op":"update","ns":"shop.users","command":{"q":{"_id":{"$oid":"5f0000000000000000000000"}},"u":{"$set":{"name":"x"}}},"keysExamined":{"$numberInt":"1"},"millis":{"$numberInt":"3"},"ts":{"$date":{"$numberLong":"1000"}}}"#;
        let (format, read) = read(line).unwrap();
        assert_eq!(format, Format::Profile);
        let l = read.logged.unwrap();
        assert_eq!(
            (l.op.as_str(), l.figures.keys_examined),
            ("update", Some(1))
        );
        assert_eq!((l.figures.duration_ms, read.time_ms), (Some(3), Some(1000)));
    }

    #[test]
    fn other_json_and_broken_lines_are_errors() {
        assert!(read(r#"{"level":"info","message":"GET /"}"#).is_err());
        assert!(
            read(r#"{"t":{"$date":"2020-05-20T20:10:08.731+00:00"},"msg":"Slo"#)
                .unwrap_err()
                .contains("not JSON")
        );
    }

    #[test]
    fn a_slow_query_whose_command_mongod_truncated_is_an_error() {
        let line = r#"{"t":{"$date":"2024-03-01T10:00:00.000Z"},"msg":"Slow query","id":51803,"attr":{"type":"command","ns":"a.b","command":{"insert":"b","documents":[]},"truncated":{"command":{"documents":{"type":"array","size":40000}}},"size":{"command":50000},"durationMillis":5}}"#;
        assert!(read(line).unwrap_err().contains("truncated"));
    }
}
