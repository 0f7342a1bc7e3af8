//! Writing values back: the mongosh shell style, and Extended JSON v2 (canonical, relaxed).
//!
//! The Extended JSON writers are ours rather than bson's `extjson` (which needs extra bson
//! features) so that every type is written the way our reader reads it back, including
//! subnormal doubles, which must be `$numberDouble` strings in canonical mode.

use std::fmt::Write as _;

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;
use bson::{spec::BinarySubtype, Binary, Bson, Document};
use serde_json::{json, Map, Value};

use super::dbpointer::db_pointer_parts;
use super::parser::{is_ident_char, is_ident_start, lex_regex_literal};
use crate::date::{format_iso_date, format_rfc3339};

/// Returns `value` in mongosh's style: `{ _id: ObjectId('…'), at: ISODate('…'),
/// n: NumberLong(5), 'odd key': 'text' }`; with `pretty`, one field per line indented by two
/// spaces.
///
/// Our reader reads the result back to the same value, with two exceptions: a document
/// whose keys look like an Extended JSON wrapper (`{ $oid: … }`), and `NaN` payloads.
/// Doubles always show a fraction or an exponent (`1.0`), so that they stay doubles.
pub fn to_shell_string(value: &Bson, pretty: bool) -> String {
    let mut out = String::new();
    write_shell(&mut out, value, pretty, 0);
    out
}

fn write_shell(out: &mut String, value: &Bson, pretty: bool, indent: usize) {
    match value {
        Bson::Document(doc) => write_fields(
            out,
            doc.iter().map(|(k, v)| (Some(k.as_str()), v)),
            doc.len(),
            ('{', '}'),
            pretty,
            indent,
        ),
        Bson::Array(items) => write_fields(
            out,
            items.iter().map(|v| (None, v)),
            items.len(),
            ('[', ']'),
            pretty,
            indent,
        ),
        // The JavaScript literals `NaN`, `Infinity` and `-Infinity` are spelled as a
        // `$numberDouble` wrapper's text, which our reader reads back as a double.
        Bson::Double(v) => out.push_str(&double_text(*v)),
        Bson::String(s) => out.push_str(&quote(s)),
        Bson::Boolean(b) => out.push_str(if *b { "true" } else { "false" }),
        Bson::Null => out.push_str("null"),
        Bson::Undefined => out.push_str("undefined"),
        Bson::Int32(v) => out.push_str(&v.to_string()),
        Bson::Int64(v) if v.unsigned_abs() <= 1 << 53 => {
            let _ = write!(out, "NumberLong({v})");
        }
        Bson::Int64(v) => {
            let _ = write!(out, "NumberLong('{v}')");
        }
        Bson::Decimal128(d) => {
            let _ = write!(out, "NumberDecimal('{d}')");
        }
        Bson::ObjectId(id) => {
            let _ = write!(out, "ObjectId('{}')", id.to_hex());
        }
        Bson::DateTime(dt) => match format_iso_date(dt.timestamp_millis()) {
            Some(iso) => {
                let _ = write!(out, "ISODate('{iso}')");
            }
            None => {
                let _ = write!(out, "new Date({})", dt.timestamp_millis());
            }
        },
        Bson::RegularExpression(re) => {
            let (pattern, options) = (re.pattern.as_str(), re.options.as_str());
            let literal = format!("/{pattern}/{options}");
            // `/*…` would open a comment; unlexable patterns need the constructor.
            let clean = options.chars().all(|c| "imsu".contains(c))
                && !pattern.starts_with('*')
                && lex_regex_literal(&literal) == Some((pattern, options));
            if clean {
                out.push_str(&literal);
            } else {
                let _ = write!(out, "BSONRegExp({}, {})", quote(pattern), quote(options));
            }
        }
        Bson::Binary(bin) => write_binary(out, bin),
        Bson::Timestamp(ts) => {
            let _ = write!(out, "Timestamp({{ t: {}, i: {} }})", ts.time, ts.increment);
        }
        Bson::MinKey => out.push_str("MinKey()"),
        Bson::MaxKey => out.push_str("MaxKey()"),
        Bson::JavaScriptCode(code) => {
            let _ = write!(out, "Code({})", quote(code));
        }
        Bson::JavaScriptCodeWithScope(cws) => {
            let _ = write!(out, "Code({}, ", quote(&cws.code));
            write_shell(out, &Bson::Document(cws.scope.clone()), pretty, indent);
            out.push(')');
        }
        Bson::Symbol(s) => {
            let _ = write!(out, "BSONSymbol({})", quote(s));
        }
        Bson::DbPointer(p) => match db_pointer_parts(p) {
            Some((ns, id)) => {
                let _ = write!(
                    out,
                    "DBPointer({}, ObjectId('{}'))",
                    quote(&ns),
                    id.to_hex()
                );
            }
            None => out.push_str("DBPointer()"),
        },
    }
}

fn write_fields<'v>(
    out: &mut String,
    fields: impl Iterator<Item = (Option<&'v str>, &'v Bson)>,
    len: usize,
    (open, close): (char, char),
    pretty: bool,
    indent: usize,
) {
    out.push(open);
    if len == 0 {
        out.push(close);
        return;
    }
    for (i, (key, value)) in fields.enumerate() {
        if i > 0 {
            out.push(',');
        }
        if pretty {
            out.push('\n');
            out.push_str(&"  ".repeat(indent + 1));
        } else {
            out.push(' ');
        }
        if let Some(key) = key {
            out.push_str(&shell_key(key));
            out.push_str(": ");
        }
        write_shell(out, value, pretty, indent + 1);
    }
    if pretty {
        out.push('\n');
        out.push_str(&"  ".repeat(indent));
    } else {
        out.push(' ');
    }
    out.push(close);
}

fn write_binary(out: &mut String, bin: &Binary) {
    let uuid = (bin.subtype == BinarySubtype::Uuid)
        .then(|| uuid::Uuid::from_slice(&bin.bytes).ok())
        .flatten();
    if let Some(uuid) = uuid {
        let _ = write!(out, "UUID('{}')", uuid.hyphenated());
    } else {
        let _ = write!(
            out,
            "BinData({}, '{}')",
            u8::from(bin.subtype),
            BASE64.encode(&bin.bytes)
        );
    }
}

/// Returns `key` bare when it is an identifier, else single-quoted.
fn shell_key(key: &str) -> String {
    let mut chars = key.chars();
    let bare = chars
        .next()
        .is_some_and(|c| is_ident_start(c) && c.is_ascii())
        && chars.all(|c| is_ident_char(c) && c.is_ascii());
    if bare {
        key.to_string()
    } else {
        quote(key)
    }
}

/// Returns `s` as a single-quoted JavaScript string.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('\'');
    for c in s.chars() {
        match c {
            '\'' => out.push_str("\\'"),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{2028}' || c == '\u{2029}' || c == '\u{7f}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// Returns `doc` as relaxed Extended JSON v2 on one line (numbers as plain JSON numbers,
/// dates from 1970 to 9999 as ISO-8601 strings).
pub fn to_relaxed_ejson(doc: &Document) -> String {
    Value::Object(object(doc, RELAXED)).to_string()
}

/// Returns any value (a document, an array, a number, `null`) as relaxed Extended JSON v2
/// on one line.
pub fn to_relaxed_ejson_value(value: &Bson) -> String {
    ejson(value, RELAXED).to_string()
}

/// Returns `value` as relaxed Extended JSON v2, exactly as bson's `into_relaxed_extjson`
/// writes it (the form of the engine's JSON outputs: explain plans, result documents), without
/// compiling bson's writer into the page (docs/size.md). It differs from
/// [`to_relaxed_ejson_value`] in three details only: dates are RFC 3339 as `time` writes them
/// for bson, with the fraction of a second only when there is one (`2024-01-02T03:04:05Z`,
/// `…:05.5Z`), a date after 9999 is bson's last representable instant, and a NaN with its sign
/// bit set is `-NaN`.
pub fn to_relaxed_json(value: &Bson) -> Value {
    match value {
        Bson::Double(v) if v.is_nan() => {
            json!({ "$numberDouble": if v.is_sign_negative() { "-NaN" } else { "NaN" } })
        }
        Bson::Document(doc) => Value::Object(
            doc.iter()
                .map(|(k, v)| (k.clone(), to_relaxed_json(v)))
                .collect(),
        ),
        Bson::Array(items) => Value::Array(items.iter().map(to_relaxed_json).collect()),
        Bson::JavaScriptCodeWithScope(cws) => json!({
            "$code": cws.code,
            "$scope": to_relaxed_json(&Bson::Document(cws.scope.clone())),
        }),
        Bson::RegularExpression(re) => {
            let mut options: Vec<char> = re.options.as_str().chars().collect();
            options.sort();
            let options: String = options.into_iter().collect();
            json!({
                "$regularExpression": { "pattern": re.pattern.as_str(), "options": options }
            })
        }
        Bson::DateTime(dt) => {
            let ms = dt.timestamp_millis();
            match format_rfc3339(ms) {
                Some(text) if ms >= 0 => json!({ "$date": text }),
                // bson clamps a date after 9999 to the last instant its date library holds.
                _ if ms > LAST_MILLI_OF_9999 => {
                    json!({ "$date": "9999-12-31T23:59:59.999999999Z" })
                }
                _ => json!({ "$date": { "$numberLong": ms.to_string() } }),
            }
        }
        other => ejson(other, RELAXED),
    }
}

/// 9999-12-31T23:59:59.999Z in milliseconds since the epoch.
const LAST_MILLI_OF_9999: i64 = 253_402_300_799_999;

/// Returns `doc` as canonical Extended JSON v2 on one line (every number and date in its
/// type wrapper, so the types survive any JSON tool).
pub fn to_canonical_ejson(doc: &Document) -> String {
    Value::Object(object(doc, CANONICAL)).to_string()
}

/// Returns `value` as *typed* Extended JSON v2: numbers in their canonical type wrappers
/// (`{"$numberInt": "5"}`, `{"$numberLong": "5"}`, `{"$numberDouble": "5.0"}`: the type decides
/// the bytes) and dates in the relaxed form (`{"$date": "2024-01-01T00:00:00Z"}`, exact to the
/// millisecond; canonical before 1970). Every Extended JSON v2 reader accepts both forms, and
/// reads this one back to the very same BSON (same types, same size) where relaxed JSON would
/// turn a `long` 5 or a `double` 5.0 into an `int`.
pub fn to_typed_ejson_value(value: &Bson) -> Value {
    ejson(value, TYPED)
}

/// How numbers and dates are written.
#[derive(Clone, Copy)]
struct Style {
    /// Numbers in their type wrappers.
    numbers: bool,
    /// Dates as `{"$numberLong": …}` milliseconds rather than ISO-8601 strings.
    dates: bool,
}

const CANONICAL: Style = Style {
    numbers: true,
    dates: true,
};
const RELAXED: Style = Style {
    numbers: false,
    dates: false,
};
const TYPED: Style = Style {
    numbers: true,
    dates: false,
};

fn object(doc: &Document, style: Style) -> Map<String, Value> {
    doc.iter()
        .map(|(k, v)| (k.clone(), ejson(v, style)))
        .collect()
}

fn ejson(value: &Bson, style: Style) -> Value {
    match value {
        Bson::Document(doc) => Value::Object(object(doc, style)),
        Bson::Array(items) => Value::Array(items.iter().map(|v| ejson(v, style)).collect()),
        Bson::Double(v) if !style.numbers && v.is_finite() => json!(v),
        Bson::Double(v) => json!({ "$numberDouble": double_text(*v) }),
        Bson::Int32(v) if style.numbers => json!({ "$numberInt": v.to_string() }),
        Bson::Int32(v) => json!(v),
        Bson::Int64(v) if style.numbers => json!({ "$numberLong": v.to_string() }),
        Bson::Int64(v) => json!(v),
        Bson::String(s) => json!(s),
        Bson::Boolean(b) => json!(b),
        Bson::Null => Value::Null,
        Bson::Undefined => json!({ "$undefined": true }),
        Bson::MinKey => json!({ "$minKey": 1 }),
        Bson::MaxKey => json!({ "$maxKey": 1 }),
        Bson::ObjectId(id) => json!({ "$oid": id.to_hex() }),
        Bson::Decimal128(d) => json!({ "$numberDecimal": d.to_string() }),
        Bson::Symbol(s) => json!({ "$symbol": s }),
        Bson::JavaScriptCode(code) => json!({ "$code": code }),
        Bson::JavaScriptCodeWithScope(cws) => json!({
            "$code": cws.code,
            "$scope": Value::Object(object(&cws.scope, style)),
        }),
        Bson::Timestamp(ts) => json!({ "$timestamp": { "t": ts.time, "i": ts.increment } }),
        Bson::RegularExpression(re) => json!({
            "$regularExpression": { "pattern": re.pattern.as_str(), "options": re.options.as_str() }
        }),
        Bson::Binary(bin) => json!({
            "$binary": {
                "base64": BASE64.encode(&bin.bytes),
                "subType": format!("{:02x}", u8::from(bin.subtype)),
            }
        }),
        Bson::DateTime(dt) => {
            let ms = dt.timestamp_millis();
            match format_iso_date(ms) {
                Some(iso) if !style.dates && ms >= 0 => json!({ "$date": iso }),
                _ => json!({ "$date": { "$numberLong": ms.to_string() } }),
            }
        }
        Bson::DbPointer(p) => match db_pointer_parts(p) {
            Some((ns, id)) => {
                json!({ "$dbPointer": { "$ref": ns, "$id": { "$oid": id.to_hex() } } })
            }
            None => Value::Null,
        },
    }
}

/// Returns a double as the text of a `$numberDouble` wrapper.
fn double_text(v: f64) -> String {
    if v.is_nan() {
        "NaN".into()
    } else if v.is_infinite() {
        if v > 0.0 { "Infinity" } else { "-Infinity" }.into()
    } else {
        format!("{v:?}")
    }
}
