//! Extended JSON v2 type wrappers (`{"$oid": …}`, `{"$date": …}`, …) turned into BSON values.

use bson::{oid::ObjectId, spec::BinarySubtype, Bson, DateTime, Decimal128, Document};

use super::parser::{make_regex, regex_options, Parser};
use super::{calls, dbpointer, ParseError};
use crate::date;

/// The keys that make an object an Extended JSON type wrapper.
const WRAPPER_KEYS: [&str; 17] = [
    "$oid",
    "$date",
    "$numberInt",
    "$numberLong",
    "$numberDouble",
    "$numberDecimal",
    "$binary",
    "$uuid",
    "$regularExpression",
    "$timestamp",
    "$minKey",
    "$maxKey",
    "$undefined",
    "$symbol",
    "$code",
    "$scope",
    "$dbPointer",
];

/// Returns `doc` as a document, or the value it wraps if it is an Extended JSON wrapper.
///
/// `start` is the offset of its `{`; `spans` holds each field's key and value offsets.
pub(super) fn convert(
    parser: &Parser<'_>,
    start: usize,
    doc: Document,
    spans: &[(usize, usize)],
) -> Result<Bson, ParseError> {
    let Some(kind) = doc
        .keys()
        .find(|k| WRAPPER_KEYS.contains(&k.as_str()))
        .cloned()
    else {
        return Ok(Bson::Document(doc));
    };
    let kind = if kind == "$scope" {
        "$code".to_string()
    } else {
        kind
    };
    let allowed: &[&str] = match kind.as_str() {
        "$code" => &["$code", "$scope"],
        "$binary" => &["$binary", "$type"],
        _ => &[],
    };
    for ((key, _), (key_offset, _)) in doc.iter().zip(spans) {
        if *key != kind && !allowed.contains(&key.as_str()) {
            return Err(parser.error_at(
                *key_offset,
                format!("unexpected field '{key}' in an Extended JSON {kind} value"),
            ));
        }
    }
    let value_offset = |key: &str| {
        doc.keys()
            .zip(spans)
            .find(|(k, _)| *k == key)
            .map_or(start, |(_, (_, v))| *v)
    };
    let at = value_offset(&kind);
    let fail = |message: String| parser.error_at(at, message);
    let Some(value) = doc.get(&kind) else {
        return Err(parser.error_at(start, format!("missing {kind}")));
    };
    match kind.as_str() {
        "$binary" => binary(&doc, value, &fail),
        "$code" => {
            let Bson::String(code) = value else {
                return Err(fail("$code expects a string".into()));
            };
            match doc.get("$scope") {
                None => Ok(Bson::JavaScriptCode(code.clone())),
                Some(Bson::Document(scope)) => Ok(Bson::JavaScriptCodeWithScope(
                    bson::JavaScriptCodeWithScope {
                        code: code.clone(),
                        scope: scope.clone(),
                    },
                )),
                Some(_) => {
                    Err(parser.error_at(value_offset("$scope"), "$scope expects a document"))
                }
            }
        }
        other => single(parser, other, value, at),
    }
}

/// Returns the wrapper key `key` when it is a wrapper of one key only (every one but
/// `$binary`, which may have `$type`, and `$code` and `$scope`, which go together).
pub(super) fn single_kind(key: &str) -> Option<&'static str> {
    WRAPPER_KEYS
        .iter()
        .find(|k| **k == key)
        .copied()
        .filter(|k| !matches!(*k, "$binary" | "$code" | "$scope"))
}

/// Returns the value that the one-key wrapper `{kind: value}` stands for, or why it cannot
/// (located at `at`, the value's offset).
pub(super) fn single(
    parser: &Parser<'_>,
    kind: &str,
    value: &Bson,
    at: usize,
) -> Result<Bson, ParseError> {
    let fail = |message: String| parser.error_at(at, message);
    match kind {
        "$oid" => match value {
            Bson::String(hex) => ObjectId::parse_str(hex)
                .map(Bson::ObjectId)
                .map_err(|_| fail(oid_message(hex))),
            _ => Err(fail("$oid expects a string of 24 hex digits".into())),
        },
        "$symbol" => match value {
            Bson::String(s) => Ok(Bson::Symbol(s.clone())),
            _ => Err(fail("$symbol expects a string".into())),
        },
        "$numberInt" => match value {
            Bson::String(s) if is_integer_text(s) => s
                .parse::<i32>()
                .map(Bson::Int32)
                .map_err(|_| fail(format!("$numberInt '{s}' does not fit in 32 bits"))),
            _ => Err(fail("$numberInt expects a string of decimal digits".into())),
        },
        "$numberLong" => match value {
            Bson::String(s) if is_integer_text(s) => s
                .parse::<i64>()
                .map(Bson::Int64)
                .map_err(|_| fail(format!("$numberLong '{s}' does not fit in 64 bits"))),
            _ => Err(fail(
                "$numberLong expects a string of decimal digits".into(),
            )),
        },
        "$numberDouble" => match value {
            Bson::String(s) => parse_double_text(s)
                .map(Bson::Double)
                .ok_or_else(|| fail(format!("$numberDouble '{s}' is not a number"))),
            _ => Err(fail("$numberDouble expects a string".into())),
        },
        "$numberDecimal" => match value {
            Bson::String(s) => s
                .parse::<Decimal128>()
                .map(Bson::Decimal128)
                .map_err(|_| fail(format!("$numberDecimal '{s}' is not a decimal number"))),
            _ => Err(fail("$numberDecimal expects a string".into())),
        },
        "$uuid" => match value {
            Bson::String(s) => {
                calls::uuid_binary(s).ok_or_else(|| fail(calls::UUID_MESSAGE.into()))
            }
            _ => Err(fail(calls::UUID_MESSAGE.into())),
        },
        "$regularExpression" => {
            let sub = expect_keys(value, &["pattern", "options"]).ok_or_else(|| {
                fail("$regularExpression expects {pattern, options} strings".into())
            })?;
            match (sub.get("pattern"), sub.get("options")) {
                (Some(Bson::String(p)), Some(Bson::String(o))) => {
                    let options = regex_options(o).map_err(&fail)?;
                    make_regex(p, &options).map_err(&fail)
                }
                _ => Err(fail(
                    "$regularExpression expects {pattern, options} strings".into(),
                )),
            }
        }
        "$timestamp" => {
            let sub = expect_keys(value, &["t", "i"])
                .ok_or_else(|| fail("$timestamp expects {t, i}".into()))?;
            match (sub.get("t").and_then(as_u32), sub.get("i").and_then(as_u32)) {
                (Some(time), Some(increment)) => {
                    Ok(Bson::Timestamp(bson::Timestamp { time, increment }))
                }
                _ => Err(fail(
                    "$timestamp expects t and i between 0 and 4294967295".into(),
                )),
            }
        }
        "$minKey" | "$maxKey" => match value {
            Bson::Int32(1) if kind == "$minKey" => Ok(Bson::MinKey),
            Bson::Int32(1) => Ok(Bson::MaxKey),
            _ => Err(fail(format!("{kind} expects the number 1"))),
        },
        "$undefined" => match value {
            Bson::Boolean(true) => Ok(Bson::Undefined),
            _ => Err(fail("$undefined expects true".into())),
        },
        "$dbPointer" => {
            let sub = expect_keys(value, &["$ref", "$id"])
                .ok_or_else(|| fail("$dbPointer expects {$ref, $id}".into()))?;
            match (sub.get("$ref"), sub.get("$id")) {
                (Some(Bson::String(ns)), Some(Bson::ObjectId(id))) => {
                    dbpointer::db_pointer(ns, *id)
                        .ok_or_else(|| fail("$dbPointer namespace cannot be stored".into()))
                }
                _ => Err(fail(
                    "$dbPointer expects {$ref: string, $id: ObjectId}".into(),
                )),
            }
        }
        "$date" => match value {
            Bson::Int64(ms) => Ok(Bson::DateTime(DateTime::from_millis(*ms))),
            Bson::Int32(ms) => Ok(Bson::DateTime(DateTime::from_millis(i64::from(*ms)))),
            Bson::String(s) => date::parse_iso_date(s)
                .map(|ms| Bson::DateTime(DateTime::from_millis(ms)))
                .map_err(fail),
            _ => Err(fail(
                "$date expects an ISO-8601 string or {\"$numberLong\": …}".into(),
            )),
        },
        _ => Err(fail(format!("unsupported Extended JSON key {kind}"))),
    }
}

fn binary(
    doc: &Document,
    value: &Bson,
    fail: &dyn Fn(String) -> ParseError,
) -> Result<Bson, ParseError> {
    let (base64, subtype) = match (value, doc.get("$type")) {
        (Bson::Document(_), None) => {
            let sub = expect_keys(value, &["base64", "subType"])
                .ok_or_else(|| fail("$binary expects {base64, subType}".into()))?;
            match (sub.get("base64"), sub.get("subType")) {
                (Some(Bson::String(b)), Some(Bson::String(t))) => (b.clone(), t.clone()),
                _ => {
                    return Err(fail(
                        "$binary expects {base64: string, subType: hex string}".into(),
                    ))
                }
            }
        }
        (Bson::String(b), Some(Bson::String(t))) => (b.clone(), t.clone()),
        _ => return Err(fail("$binary expects {base64, subType}".into())),
    };
    let subtype = parse_subtype_hex(&subtype).ok_or_else(|| {
        fail(format!(
            "binary subType '{subtype}' is not one or two hex digits"
        ))
    })?;
    calls::binary_from_base64(&base64, subtype)
        .ok_or_else(|| fail("invalid base64 in $binary".into()))
}

/// Returns the binary subtype written as one or two hex digits.
fn parse_subtype_hex(text: &str) -> Option<BinarySubtype> {
    if text.is_empty() || text.len() > 2 {
        return None;
    }
    u8::from_str_radix(text, 16).ok().map(BinarySubtype::from)
}

fn expect_keys<'d>(value: &'d Bson, keys: &[&str]) -> Option<&'d Document> {
    match value {
        Bson::Document(d) if d.len() == keys.len() && keys.iter().all(|k| d.contains_key(k)) => {
            Some(d)
        }
        _ => None,
    }
}

/// Returns an int32 or int64 that fits a u32 (a Timestamp's seconds or increment), else None.
pub(super) fn as_u32(value: &Bson) -> Option<u32> {
    match value {
        Bson::Int32(v) => u32::try_from(*v).ok(),
        Bson::Int64(v) => u32::try_from(*v).ok(),
        _ => None,
    }
}

/// Returns whether `s` is an optional minus sign followed by decimal digits.
pub(crate) fn is_integer_text(s: &str) -> bool {
    let digits = s.strip_prefix('-').unwrap_or(s);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Returns the double written in `s` ("1.5", "-0.0", "1e300", "Infinity", "-Infinity",
/// "NaN"), refusing Rust-only spellings such as "inf".
pub(crate) fn parse_double_text(s: &str) -> Option<f64> {
    match s {
        "Infinity" => return Some(f64::INFINITY),
        "-Infinity" => return Some(f64::NEG_INFINITY),
        "NaN" => return Some(f64::NAN),
        "-NaN" => return Some(-f64::NAN),
        _ => {}
    }
    if s.is_empty()
        || !s
            .bytes()
            .all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b))
    {
        return None;
    }
    s.parse::<f64>().ok()
}

fn oid_message(hex: &str) -> String {
    format!("'{hex}' is not an ObjectId: expected 24 hex digits")
}

/// Returns the message for a malformed ObjectId string.
pub(super) fn object_id_message(hex: &str) -> String {
    oid_message(hex)
}
