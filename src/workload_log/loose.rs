//! The objects of legacy (pre-4.4) mongod log lines, read into JSON values.
//!
//! Legacy text logs print commands and queries the way the old shell did, not as JSON: bare
//! keys (`{ cid: ObjectId('50b4…'), name: "x" }`), constructor calls (`ObjectId('…')`,
//! `UUID("…")`, `new Date(1397085947000)`, `Timestamp 1397085947000|1`, `BinData(0, 3F…)`),
//! regular expressions (`/^a/i`), and, in logs with redaction, bare values
//! (`{ _id: 0bcaf812… }`). Only the query's *shape* is kept later ([`super::shape`]), so each
//! value is read into the Extended JSON form that says its type (`{"$oid": …}`,
//! `{"$date": …}`, `{"$regex": …}`, `{"$binary": …}`) and bare words are strings. A value
//! that does not close (a line mongod truncated) is an error with the byte offset where it
//! broke.

use serde_json::{Map, Value};

/// Reads the object starting at `text`'s first byte (`{`); returns it and the bytes read.
pub fn object(text: &str) -> Result<(Value, usize), String> {
    let mut reader = Reader { text, at: 0 };
    let value = reader.value(0)?;
    Ok((value, reader.at))
}

/// Nesting deeper than this is refused (mongod's own documents nest at most 100 levels
/// before the log adds its wrappers).
const MAX_DEPTH: usize = 200;

/// A cursor over the text of one value.
struct Reader<'a> {
    /// The text.
    text: &'a str,
    /// Byte offset of the next character.
    at: usize,
}

impl Reader<'_> {
    /// The next character, if any.
    fn peek(&self) -> Option<char> {
        self.text.get(self.at..).and_then(|r| r.chars().next())
    }

    /// Skips spaces.
    fn spaces(&mut self) {
        while let Some(c) = self.peek() {
            if !c.is_whitespace() {
                break;
            }
            self.at += c.len_utf8();
        }
    }

    /// The rest of the text.
    fn rest(&self) -> &str {
        self.text.get(self.at..).unwrap_or_default()
    }

    /// Reads one value.
    fn value(&mut self, depth: usize) -> Result<Value, String> {
        if depth > MAX_DEPTH {
            return Err(format!("nested deeper than {MAX_DEPTH} levels"));
        }
        self.spaces();
        match self.peek() {
            Some('{') => self.map(depth),
            Some('[') => self.list(depth),
            Some(q @ ('"' | '\'')) => Ok(Value::String(self.quoted(q)?)),
            Some('/') => self.regex(),
            Some(_) => self.bare(),
            None => Err(format!("ends at byte {} inside a value", self.at)),
        }
    }

    /// Reads `{ key: value, … }`.
    fn map(&mut self, depth: usize) -> Result<Value, String> {
        self.at += 1;
        let mut map = Map::new();
        loop {
            self.spaces();
            match self.peek() {
                Some('}') => {
                    self.at += 1;
                    return Ok(Value::Object(map));
                }
                Some(',') => {
                    self.at += 1;
                    continue;
                }
                None => return Err(format!("object not closed at byte {}", self.at)),
                Some(_) => {}
            }
            let key = self.key()?;
            let value = self.value(depth + 1)?;
            map.insert(key, value);
        }
    }

    /// Reads a key and its colon.
    fn key(&mut self) -> Result<String, String> {
        let key = match self.peek() {
            Some(q @ ('"' | '\'')) => self.quoted(q)?,
            _ => {
                let rest = self.rest();
                let end = rest
                    .find([':', '}', ','])
                    .ok_or_else(|| format!("key not followed by ':' at byte {}", self.at))?;
                let key = rest.get(..end).unwrap_or_default().trim().to_string();
                self.at += end;
                key
            }
        };
        self.spaces();
        if self.peek() != Some(':') {
            return Err(format!(
                "key \"{key}\" not followed by ':' at byte {}",
                self.at
            ));
        }
        self.at += 1;
        Ok(key)
    }

    /// Reads `[ value, … ]`.
    fn list(&mut self, depth: usize) -> Result<Value, String> {
        self.at += 1;
        let mut items = Vec::new();
        loop {
            self.spaces();
            match self.peek() {
                Some(']') => {
                    self.at += 1;
                    return Ok(Value::Array(items));
                }
                Some(',') => {
                    self.at += 1;
                }
                None => return Err(format!("array not closed at byte {}", self.at)),
                Some(_) => items.push(self.value(depth + 1)?),
            }
        }
    }

    /// Reads a string quoted by `q`, with backslash escapes.
    fn quoted(&mut self, q: char) -> Result<String, String> {
        let start = self.at;
        self.at += 1;
        let mut out = String::new();
        let mut escaped = false;
        while let Some(c) = self.peek() {
            self.at += c.len_utf8();
            if escaped {
                out.push(c);
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                return Ok(out);
            } else {
                out.push(c);
            }
        }
        Err(format!("string opened at byte {start} not closed"))
    }

    /// Reads `/pattern/flags`.
    fn regex(&mut self) -> Result<Value, String> {
        let start = self.at;
        self.at += 1;
        let mut escaped = false;
        while let Some(c) = self.peek() {
            self.at += c.len_utf8();
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '/' {
                while self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
                    self.at += 1;
                }
                let source = self.text.get(start..self.at).unwrap_or_default();
                return Ok(tagged("$regex", Value::String(source.to_string())));
            }
        }
        Err(format!(
            "regular expression opened at byte {start} not closed"
        ))
    }

    /// Reads a bare value: a number, `true`, `false`, `null`, a constructor call, or a bare
    /// word (redacted or unquoted text), up to the next `,`, `}` or `]` outside parentheses.
    fn bare(&mut self) -> Result<Value, String> {
        let start = self.at;
        let mut parens = 0usize;
        while let Some(c) = self.peek() {
            match c {
                '(' => parens += 1,
                ')' => parens = parens.saturating_sub(1),
                ',' | '}' | ']' if parens == 0 => break,
                '"' | '\'' if parens > 0 => {
                    self.quoted(c)?;
                    continue;
                }
                _ => {}
            }
            self.at += c.len_utf8();
        }
        if self.peek().is_none() {
            return Err(format!("value at byte {start} not closed"));
        }
        let word = self.text.get(start..self.at).unwrap_or_default().trim();
        Ok(typed(word))
    }
}

/// Returns `{tag: value}`, the Extended JSON form of a typed value.
fn tagged(tag: &str, value: Value) -> Value {
    let mut map = Map::new();
    map.insert(tag.to_string(), value);
    Value::Object(map)
}

/// Returns the value a bare word of a legacy log stands for, typed as Extended JSON.
fn typed(word: &str) -> Value {
    let call = |name: &str| {
        word.strip_prefix(name)
            .is_some_and(|r| r.trim_start().starts_with('('))
    };
    let inner = || Value::String(word.to_string());
    match word {
        "true" | "True" => return Value::Bool(true),
        "false" | "False" => return Value::Bool(false),
        "null" => return Value::Null,
        _ => {}
    }
    if let Ok(n) = word.parse::<i64>() {
        return Value::from(n);
    }
    if let Ok(x) = word.parse::<f64>() {
        if let Some(n) = serde_json::Number::from_f64(x) {
            return Value::Number(n);
        }
    }
    if call("ObjectId") {
        tagged("$oid", inner())
    } else if call("new Date") || call("ISODate") || call("Date") {
        tagged("$date", inner())
    } else if word.starts_with("Timestamp") {
        tagged("$timestamp", inner())
    } else if call("BinData") || call("UUID") || call("HexData") {
        tagged("$binary", inner())
    } else if call("NumberLong") || call("NumberInt") || call("NumberDecimal") {
        tagged("$numberLong", inner())
    } else if word == "MinKey" || word == "MaxKey" {
        tagged("$minKey", Value::from(1))
    } else {
        inner()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_shell_forms_of_a_legacy_query() {
        let text = "{ $query: { groupId: ObjectId('51c44d167fe227e9f18ce94a'), active: true }, \
                    $orderby: { name: 1 } } planSummary: IXSCAN";
        let (v, used) = object(text).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"$query": {"groupId": {"$oid": "ObjectId('51c44d167fe227e9f18ce94a')"},
                "active": true}, "$orderby": {"name": 1}})
        );
        assert_eq!(text.get(used..), Some(" planSummary: IXSCAN"));
    }

    #[test]
    fn reads_bare_redacted_values_and_regexes() {
        let (v, _) =
            object("{ _id: 0bcaf8127fb736e6, n: /^ab,c/i, t: Timestamp 1397|1, x: 1.5 }").unwrap();
        assert_eq!(v["_id"], "0bcaf8127fb736e6");
        assert_eq!(v["n"]["$regex"], "/^ab,c/i");
        assert_eq!(v["t"]["$timestamp"], "Timestamp 1397|1");
        assert_eq!(v["x"], 1.5);
    }

    #[test]
    fn a_truncated_object_is_an_error() {
        let e = object("{ a: { b: 1 }, c: [ 1, 2").unwrap_err();
        assert!(e.contains("not closed"), "{e}");
        assert!(object("{ a: \"open").is_err());
    }
}
