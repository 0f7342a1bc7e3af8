//! Pretty JSON for people: one entry per line, two spaces of indentation, except that a
//! container short enough to fit the line is kept on one line. So a type wrapper stays
//! readable (`"_id": { "$oid": "66d2…" }` rather than three lines) and a short array of
//! numbers takes one line, the way mongosh prints documents.

use serde_json::Value;

/// Widest a container written on one line may be, indentation included.
pub const PRETTY_WIDTH: usize = 80;

/// Returns `value` pretty-printed: containers that fit in [`PRETTY_WIDTH`] columns on one line,
/// others one entry per line. The text is JSON: any JSON reader reads it back to `value`.
pub fn pretty_json(value: &Value) -> String {
    let mut out = String::new();
    write(&mut out, value, 0, 0);
    out
}

/// Writes `value` at `indent` levels, `used` columns of the line already taken by its key.
fn write(out: &mut String, value: &Value, indent: usize, used: usize) {
    let room = PRETTY_WIDTH.saturating_sub(indent * 2 + used);
    if let Some(flat) = flat(value, room) {
        out.push_str(&flat);
        return;
    }
    let pad = "  ".repeat(indent + 1);
    match value {
        Value::Object(map) => {
            out.push('{');
            let mut first = true;
            for (k, v) in map {
                out.push_str(if first { "\n" } else { ",\n" });
                first = false;
                out.push_str(&pad);
                let key = quoted(k);
                out.push_str(&key);
                out.push_str(": ");
                write(out, v, indent + 1, key.chars().count() + 2);
            }
            out.push('\n');
            out.push_str(&"  ".repeat(indent));
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            let mut first = true;
            for v in items {
                out.push_str(if first { "\n" } else { ",\n" });
                first = false;
                out.push_str(&pad);
                write(out, v, indent + 1, 0);
            }
            out.push('\n');
            out.push_str(&"  ".repeat(indent));
            out.push(']');
        }
        // A scalar longer than the line (a long string) stays whole.
        other => out.push_str(&other.to_string()),
    }
}

/// Returns `value` on one line (`{ "a": 1, "b": [1, 2] }`) if that takes at most `room`
/// characters; containers give up as soon as they are past it.
fn flat(value: &Value, room: usize) -> Option<String> {
    let mut out = String::new();
    flat_into(&mut out, value, room).then_some(out)
}

fn flat_into(out: &mut String, value: &Value, room: usize) -> bool {
    match value {
        Value::Object(map) if map.is_empty() => out.push_str("{}"),
        Value::Array(items) if items.is_empty() => out.push_str("[]"),
        Value::Object(map) => {
            out.push_str("{ ");
            for (i, (k, v)) in map.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&quoted(k));
                out.push_str(": ");
                if !flat_into(out, v, room) {
                    return false;
                }
            }
            out.push_str(" }");
        }
        Value::Array(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                if !flat_into(out, v, room) {
                    return false;
                }
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
    out.chars().count() <= room
}

fn quoted(key: &str) -> String {
    Value::String(key.to_string()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn short_containers_stay_on_one_line_long_ones_break() {
        let v = json!({
            "_id": { "$oid": "66d21b961b2e738600000024" },
            "tags": ["a", "b"],
            "empty": {},
            "long": ["aaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbb", "cccccccccccccccccccc", "dddddddddddddddd"]
        });
        let text = pretty_json(&v);
        assert_eq!(
            text,
            "{\n  \"_id\": { \"$oid\": \"66d21b961b2e738600000024\" },\n  \"tags\": [\"a\", \"b\"],\n  \"empty\": {},\n  \"long\": [\n    \"aaaaaaaaaaaaaaaaaaaa\",\n    \"bbbbbbbbbbbbbbbbbbbb\",\n    \"cccccccccccccccccccc\",\n    \"dddddddddddddddd\"\n  ]\n}"
        );
        // It is JSON, and the same value.
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), v);
        assert!(text.lines().all(|l| l.chars().count() <= PRETTY_WIDTH));
    }

    #[test]
    fn keys_and_strings_are_escaped() {
        let v = json!({ "a\"b": "line\nbreak" });
        let text = pretty_json(&v);
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), v);
    }
}
