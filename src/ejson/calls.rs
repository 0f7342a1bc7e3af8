//! mongosh constructor calls (`ObjectId("…")`, `ISODate("…")`, `NumberLong(…)`, …) turned
//! into BSON values.

use bson::{doc, oid::ObjectId, spec::BinarySubtype, Binary, Bson, DateTime, Decimal128};

use super::parser::{make_regex, regex_options, Parser};
use super::{dbpointer, type_alias, wrapper, ParseError};
use crate::date;

/// The message for a malformed UUID string.
pub(super) const UUID_MESSAGE: &str =
    "expected a UUID string of 32 hex digits (dashes allowed), e.g. '3b241101-e2bb-4255-8caf-4136c566a962'";

/// Returns the value of the call `name(args…)` (with `new` if `is_new`), or an error at the
/// offending argument.
pub(super) fn call(
    parser: &Parser<'_>,
    name: &str,
    name_offset: usize,
    is_new: bool,
    args: Vec<(Bson, usize)>,
) -> Result<Bson, ParseError> {
    let at_name = |message: String| parser.error_at(name_offset, message);
    let arity = |min: usize, max: usize, usage: &str| -> Result<(), ParseError> {
        if args.len() < min || args.len() > max {
            Err(at_name(format!("{name} expects {usage}")))
        } else {
            Ok(())
        }
    };
    let arg = |i: usize| args.get(i).map(|(v, _)| v).unwrap_or(&Bson::Null);
    let fail_arg = |i: usize, message: String| {
        parser.error_at(args.get(i).map_or(name_offset, |(_, o)| *o), message)
    };
    let string_arg = |i: usize, what: &str| -> Result<String, ParseError> {
        match arg(i) {
            Bson::String(s) => Ok(s.clone()),
            other => Err(fail_arg(
                i,
                format!("{name} expects {what}, found {}", type_alias(other)),
            )),
        }
    };
    match name {
        "ObjectId" | "ObjectID" => {
            if args.is_empty() {
                return Err(at_name(format!(
                    "{name}() would make a new id on every run: write {name}('…') with 24 hex digits"
                )));
            }
            arity(1, 1, "one string of 24 hex digits")?;
            let hex = string_arg(0, "a string of 24 hex digits")?;
            ObjectId::parse_str(&hex)
                .map(Bson::ObjectId)
                .map_err(|_| fail_arg(0, wrapper::object_id_message(&hex)))
        }
        "ISODate" | "Date" => {
            if name == "Date" && !is_new {
                return Err(at_name(
                    "Date(…) without new returns a string in JavaScript: write new Date(…) or ISODate(…)"
                        .into(),
                ));
            }
            if args.is_empty() {
                return Err(at_name(format!(
                    "{}{name}() would be the current time, different on every run: give a date",
                    if is_new { "new " } else { "" }
                )));
            }
            arity(1, 1, "one ISO-8601 date string or a number of milliseconds")?;
            match arg(0) {
                Bson::String(s) => date::parse_iso_date(s)
                    .map(|ms| Bson::DateTime(DateTime::from_millis(ms)))
                    .map_err(|m| fail_arg(0, m)),
                Bson::Int32(ms) if name == "Date" => {
                    Ok(Bson::DateTime(DateTime::from_millis(i64::from(*ms))))
                }
                Bson::Int64(ms) if name == "Date" => Ok(Bson::DateTime(DateTime::from_millis(*ms))),
                Bson::Double(ms) if name == "Date" && ms.fract() == 0.0 && ms.abs() <= 8.64e15 => {
                    Ok(Bson::DateTime(DateTime::from_millis(*ms as i64)))
                }
                other => Err(fail_arg(
                    0,
                    format!(
                        "{name} expects an ISO-8601 date string, found {}",
                        type_alias(other)
                    ),
                )),
            }
        }
        "NumberLong" | "Long" => {
            arity(1, 1, "one integer or string of digits")?;
            let text = integer_text(arg(0)).ok_or_else(|| {
                fail_arg(
                    0,
                    format!("{name} expects an integer or a string of digits"),
                )
            })?;
            text.parse::<i64>()
                .map(Bson::Int64)
                .map_err(|_| fail_arg(0, format!("{name}({text}) does not fit in 64 bits")))
        }
        "NumberInt" | "Int32" => {
            arity(1, 1, "one integer or string of digits")?;
            let text = integer_text(arg(0)).ok_or_else(|| {
                fail_arg(
                    0,
                    format!("{name} expects an integer or a string of digits"),
                )
            })?;
            text.parse::<i32>()
                .map(Bson::Int32)
                .map_err(|_| fail_arg(0, format!("{name}({text}) does not fit in 32 bits")))
        }
        "Double" => {
            arity(1, 1, "one number or numeric string")?;
            match arg(0) {
                Bson::Double(v) => Ok(Bson::Double(*v)),
                Bson::Int32(v) => Ok(Bson::Double(f64::from(*v))),
                Bson::Int64(v) => Ok(Bson::Double(*v as f64)),
                Bson::String(s) => wrapper::parse_double_text(s)
                    .map(Bson::Double)
                    .ok_or_else(|| fail_arg(0, format!("'{s}' is not a number"))),
                other => Err(fail_arg(
                    0,
                    format!("Double expects a number, found {}", type_alias(other)),
                )),
            }
        }
        "NumberDecimal" | "Decimal128" => {
            arity(1, 1, "one decimal string such as '9.99'")?;
            let text = match arg(0) {
                Bson::String(s) => s.clone(),
                Bson::Int32(v) => v.to_string(),
                Bson::Int64(v) => v.to_string(),
                Bson::Double(v) => v.to_string(),
                other => {
                    return Err(fail_arg(
                        0,
                        format!(
                            "{name} expects a decimal string, found {}",
                            type_alias(other)
                        ),
                    ))
                }
            };
            text.parse::<Decimal128>()
                .map(Bson::Decimal128)
                .map_err(|_| fail_arg(0, format!("'{text}' is not a decimal number")))
        }
        "UUID" => {
            if args.is_empty() {
                return Err(at_name(
                    "UUID() would make a new id on every run: write UUID('…')".into(),
                ));
            }
            arity(1, 1, "one UUID string")?;
            let s = string_arg(0, "a UUID string")?;
            uuid_binary(&s).ok_or_else(|| fail_arg(0, UUID_MESSAGE.into()))
        }
        "MD5" => {
            arity(1, 1, "one string of 32 hex digits")?;
            let s = string_arg(0, "a string of 32 hex digits")?;
            match hex::decode(&s).ok() {
                Some(bytes) if bytes.len() == 16 => Ok(Bson::Binary(Binary {
                    subtype: BinarySubtype::Md5,
                    bytes,
                })),
                _ => Err(fail_arg(0, "MD5 expects 32 hex digits".into())),
            }
        }
        "BinData" | "HexData" => {
            arity(2, 2, "a subtype number and a string")?;
            let subtype = match arg(0) {
                Bson::Int32(v) => u8::try_from(*v).ok(),
                _ => None,
            }
            .ok_or_else(|| {
                fail_arg(
                    0,
                    format!("{name} expects a subtype between 0 and 255 first"),
                )
            })?;
            let text = string_arg(1, "a string")?;
            let value = if name == "BinData" {
                binary_from_base64(&text, BinarySubtype::from(subtype))
            } else {
                hex::decode(&text).ok().map(|bytes| {
                    Bson::Binary(Binary {
                        subtype: BinarySubtype::from(subtype),
                        bytes,
                    })
                })
            };
            value.ok_or_else(|| {
                fail_arg(
                    1,
                    if name == "BinData" {
                        "invalid base64".into()
                    } else {
                        "invalid hex digits".into()
                    },
                )
            })
        }
        "Timestamp" => {
            let (t, i) = match args.as_slice() {
                [(Bson::Document(d), _)] if d.len() == 2 => (d.get("t"), d.get("i")),
                [(t, _), (i, _)] => (Some(t), Some(i)),
                _ => return Err(at_name("Timestamp expects (t, i) or ({ t, i })".into())),
            };
            match (t.and_then(wrapper::as_u32), i.and_then(wrapper::as_u32)) {
                (Some(time), Some(increment)) => {
                    Ok(Bson::Timestamp(bson::Timestamp { time, increment }))
                }
                _ => Err(fail_arg(
                    0,
                    "Timestamp expects t and i between 0 and 4294967295".into(),
                )),
            }
        }
        "MinKey" | "MaxKey" => {
            arity(0, 0, "no arguments")?;
            Ok(if name == "MinKey" {
                Bson::MinKey
            } else {
                Bson::MaxKey
            })
        }
        "Code" => {
            arity(1, 2, "a code string and an optional scope document")?;
            let code = string_arg(0, "a code string")?;
            match args.get(1) {
                None => Ok(Bson::JavaScriptCode(code)),
                Some((Bson::Document(scope), _)) => Ok(Bson::JavaScriptCodeWithScope(
                    bson::JavaScriptCodeWithScope {
                        code,
                        scope: scope.clone(),
                    },
                )),
                Some(_) => Err(fail_arg(
                    1,
                    "Code expects a scope document as its second argument".into(),
                )),
            }
        }
        "BSONSymbol" | "Symbol" => {
            arity(1, 1, "one string")?;
            Ok(Bson::Symbol(string_arg(0, "a string")?))
        }
        "BSONRegExp" | "RegExp" => {
            arity(1, 2, "a pattern string and an optional flags string")?;
            let pattern = string_arg(0, "a pattern string")?;
            let flags = if args.len() > 1 {
                string_arg(1, "a flags string")?
            } else {
                String::new()
            };
            let options = regex_options(&flags).map_err(|m| fail_arg(1, m))?;
            make_regex(&pattern, &options).map_err(|m| fail_arg(0, m))
        }
        "DBPointer" => {
            arity(2, 2, "a namespace string and an ObjectId")?;
            let ns = string_arg(0, "a namespace string")?;
            match arg(1) {
                Bson::ObjectId(id) => dbpointer::db_pointer(&ns, *id)
                    .ok_or_else(|| fail_arg(0, "this namespace cannot be stored".into())),
                other => Err(fail_arg(
                    1,
                    format!("DBPointer expects an ObjectId, found {}", type_alias(other)),
                )),
            }
        }
        "DBRef" => {
            arity(
                2,
                3,
                "a collection name, an id and an optional database name",
            )?;
            let coll = string_arg(0, "a collection name")?;
            let mut reference = doc! { "$ref": coll, "$id": arg(1).clone() };
            if args.len() == 3 {
                reference.insert("$db", string_arg(2, "a database name")?);
            }
            Ok(Bson::Document(reference))
        }
        _ => Err(at_name(format!("unknown function {name}(…)"))),
    }
}

/// Returns the decimal digits of an integer argument given as a number or a string.
fn integer_text(value: &Bson) -> Option<String> {
    match value {
        Bson::Int32(v) => Some(v.to_string()),
        Bson::Int64(v) => Some(v.to_string()),
        Bson::Double(v) if v.fract() == 0.0 && v.abs() < 9.3e18 => Some(format!("{v:.0}")),
        Bson::String(s) => {
            let t = s.trim();
            let digits = t.strip_prefix('-').unwrap_or(t);
            (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
                .then(|| t.to_string())
        }
        _ => None,
    }
}

/// Returns a UUID (binary subtype 4) from 32 hex digits, dashes allowed in the usual places.
pub(super) fn uuid_binary(text: &str) -> Option<Bson> {
    // The two spellings mongosh's `UUID()` reads; the `uuid` crate would also read `{…}` and
    // `urn:uuid:…`.
    if text.len() != 32 && text.len() != 36 {
        return None;
    }
    let uuid = uuid::Uuid::try_parse(text).ok()?;
    Some(Bson::Binary(Binary {
        subtype: BinarySubtype::Uuid,
        bytes: uuid.as_bytes().to_vec(),
    }))
}

/// Returns binary data decoded from standard base64.
pub(super) fn binary_from_base64(text: &str, subtype: BinarySubtype) -> Option<Bson> {
    Binary::from_base64(text, subtype).ok().map(Bson::Binary)
}
