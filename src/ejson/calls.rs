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
    let call = Call {
        parser,
        name,
        name_offset,
        is_new,
        args,
    };
    match name {
        "ObjectId" | "ObjectID" => call.object_id(),
        "ISODate" | "Date" => call.date(),
        "NumberLong" | "Long" => call.integer::<i64>(64, Bson::Int64),
        "NumberInt" | "Int32" => call.integer::<i32>(32, Bson::Int32),
        "Double" => call.double(),
        "NumberDecimal" | "Decimal128" => call.decimal(),
        "UUID" => call.uuid(),
        "MD5" => call.md5(),
        "BinData" | "HexData" => call.bin_data(),
        "Timestamp" => call.timestamp(),
        "MinKey" | "MaxKey" => {
            call.arity(0, 0, "no arguments")?;
            Ok(if name == "MinKey" {
                Bson::MinKey
            } else {
                Bson::MaxKey
            })
        }
        "Code" => call.code(),
        "BSONSymbol" | "Symbol" => {
            call.arity(1, 1, "one string")?;
            Ok(Bson::Symbol(call.string_arg(0, "a string")?))
        }
        "BSONRegExp" | "RegExp" => call.regex(),
        "DBPointer" => call.db_pointer(),
        "DBRef" => call.db_ref(),
        _ => Err(call.at_name(format!("unknown function {name}(…)"))),
    }
}

/// One constructor call being read: its name, where it stands and its arguments, with the
/// argument checks every constructor shares, and one method per constructor family.
struct Call<'p, 's> {
    parser: &'p Parser<'s>,
    name: &'p str,
    name_offset: usize,
    is_new: bool,
    args: Vec<(Bson, usize)>,
}

impl Call<'_, '_> {
    /// Returns an error at the function name.
    fn at_name(&self, message: String) -> ParseError {
        self.parser.error_at(self.name_offset, message)
    }

    /// Fails unless the call has between `min` and `max` arguments; `usage` says what it takes.
    fn arity(&self, min: usize, max: usize, usage: &str) -> Result<(), ParseError> {
        if self.args.len() < min || self.args.len() > max {
            Err(self.at_name(format!("{} expects {usage}", self.name)))
        } else {
            Ok(())
        }
    }

    /// Returns argument `i`, or null when there is none.
    fn arg(&self, i: usize) -> &Bson {
        self.args.get(i).map(|(v, _)| v).unwrap_or(&Bson::Null)
    }

    /// Returns an error at argument `i` (at the name when there is no such argument).
    fn fail_arg(&self, i: usize, message: String) -> ParseError {
        self.parser.error_at(
            self.args.get(i).map_or(self.name_offset, |(_, o)| *o),
            message,
        )
    }

    /// Returns argument `i` as a string, or an error saying the call wanted `what`.
    fn string_arg(&self, i: usize, what: &str) -> Result<String, ParseError> {
        match self.arg(i) {
            Bson::String(s) => Ok(s.clone()),
            other => Err(self.fail_arg(
                i,
                format!("{} expects {what}, found {}", self.name, type_alias(other)),
            )),
        }
    }

    /// `ObjectId('…')`: 24 hex digits; an empty call is refused because it would differ on
    /// every run.
    fn object_id(&self) -> Result<Bson, ParseError> {
        let name = self.name;
        if self.args.is_empty() {
            return Err(self.at_name(format!(
                "{name}() would make a new id on every run: write {name}('…') with 24 hex digits"
            )));
        }
        self.arity(1, 1, "one string of 24 hex digits")?;
        let hex = self.string_arg(0, "a string of 24 hex digits")?;
        ObjectId::parse_str(&hex)
            .map(Bson::ObjectId)
            .map_err(|_| self.fail_arg(0, wrapper::object_id_message(&hex)))
    }

    /// `ISODate('…')` and `new Date(…)`: an ISO-8601 string, or (for `Date`) milliseconds;
    /// `Date()` without `new` and the empty call are refused, as JavaScript would not give a
    /// fixed date.
    fn date(&self) -> Result<Bson, ParseError> {
        let name = self.name;
        if name == "Date" && !self.is_new {
            return Err(self.at_name(
                "Date(…) without new returns a string in JavaScript: write new Date(…) or ISODate(…)"
                    .into(),
            ));
        }
        if self.args.is_empty() {
            return Err(self.at_name(format!(
                "{}{name}() would be the current time, different on every run: give a date",
                if self.is_new { "new " } else { "" }
            )));
        }
        self.arity(1, 1, "one ISO-8601 date string or a number of milliseconds")?;
        match self.arg(0) {
            Bson::String(s) => date::parse_iso_date(s)
                .map(|ms| Bson::DateTime(DateTime::from_millis(ms)))
                .map_err(|m| self.fail_arg(0, m)),
            Bson::Int32(ms) if name == "Date" => {
                Ok(Bson::DateTime(DateTime::from_millis(i64::from(*ms))))
            }
            Bson::Int64(ms) if name == "Date" => Ok(Bson::DateTime(DateTime::from_millis(*ms))),
            Bson::Double(ms) if name == "Date" && ms.fract() == 0.0 && ms.abs() <= 8.64e15 => {
                Ok(Bson::DateTime(DateTime::from_millis(*ms as i64)))
            }
            other => Err(self.fail_arg(
                0,
                format!(
                    "{name} expects an ISO-8601 date string, found {}",
                    type_alias(other)
                ),
            )),
        }
    }

    /// `NumberLong(…)` and `NumberInt(…)`: an integer or a string of digits that fits in
    /// `bits` bits, made into BSON by `make`.
    fn integer<T: std::str::FromStr>(
        &self,
        bits: u32,
        make: fn(T) -> Bson,
    ) -> Result<Bson, ParseError> {
        let name = self.name;
        self.arity(1, 1, "one integer or string of digits")?;
        let text = integer_text(self.arg(0)).ok_or_else(|| {
            self.fail_arg(
                0,
                format!("{name} expects an integer or a string of digits"),
            )
        })?;
        text.parse::<T>()
            .map(make)
            .map_err(|_| self.fail_arg(0, format!("{name}({text}) does not fit in {bits} bits")))
    }

    /// `Double(…)`: a number or a numeric string.
    fn double(&self) -> Result<Bson, ParseError> {
        self.arity(1, 1, "one number or numeric string")?;
        match self.arg(0) {
            Bson::Double(v) => Ok(Bson::Double(*v)),
            Bson::Int32(v) => Ok(Bson::Double(f64::from(*v))),
            Bson::Int64(v) => Ok(Bson::Double(*v as f64)),
            Bson::String(s) => wrapper::parse_double_text(s)
                .map(Bson::Double)
                .ok_or_else(|| self.fail_arg(0, format!("'{s}' is not a number"))),
            other => Err(self.fail_arg(
                0,
                format!("Double expects a number, found {}", type_alias(other)),
            )),
        }
    }

    /// `NumberDecimal('…')`: a decimal string (numbers are read through their text).
    fn decimal(&self) -> Result<Bson, ParseError> {
        self.arity(1, 1, "one decimal string such as '9.99'")?;
        let text = match self.arg(0) {
            Bson::String(s) => s.clone(),
            Bson::Int32(v) => v.to_string(),
            Bson::Int64(v) => v.to_string(),
            Bson::Double(v) => v.to_string(),
            other => {
                return Err(self.fail_arg(
                    0,
                    format!(
                        "{} expects a decimal string, found {}",
                        self.name,
                        type_alias(other)
                    ),
                ))
            }
        };
        text.parse::<Decimal128>()
            .map(Bson::Decimal128)
            .map_err(|_| self.fail_arg(0, format!("'{text}' is not a decimal number")))
    }

    /// `UUID('…')`: a UUID string; the empty call is refused as it would differ on every run.
    fn uuid(&self) -> Result<Bson, ParseError> {
        if self.args.is_empty() {
            return Err(
                self.at_name("UUID() would make a new id on every run: write UUID('…')".into())
            );
        }
        self.arity(1, 1, "one UUID string")?;
        let s = self.string_arg(0, "a UUID string")?;
        uuid_binary(&s).ok_or_else(|| self.fail_arg(0, UUID_MESSAGE.into()))
    }

    /// `MD5('…')`: 32 hex digits, binary subtype 5.
    fn md5(&self) -> Result<Bson, ParseError> {
        self.arity(1, 1, "one string of 32 hex digits")?;
        let s = self.string_arg(0, "a string of 32 hex digits")?;
        match hex::decode(&s).ok() {
            Some(bytes) if bytes.len() == 16 => Ok(Bson::Binary(Binary {
                subtype: BinarySubtype::Md5,
                bytes,
            })),
            _ => Err(self.fail_arg(0, "MD5 expects 32 hex digits".into())),
        }
    }

    /// `BinData(subtype, base64)` and `HexData(subtype, hex)`.
    fn bin_data(&self) -> Result<Bson, ParseError> {
        let name = self.name;
        self.arity(2, 2, "a subtype number and a string")?;
        let subtype = match self.arg(0) {
            Bson::Int32(v) => u8::try_from(*v).ok(),
            _ => None,
        }
        .ok_or_else(|| {
            self.fail_arg(
                0,
                format!("{name} expects a subtype between 0 and 255 first"),
            )
        })?;
        let text = self.string_arg(1, "a string")?;
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
            self.fail_arg(
                1,
                if name == "BinData" {
                    "invalid base64".into()
                } else {
                    "invalid hex digits".into()
                },
            )
        })
    }

    /// `Timestamp(t, i)` or `Timestamp({ t, i })`, both 32-bit unsigned.
    fn timestamp(&self) -> Result<Bson, ParseError> {
        let (t, i) = match self.args.as_slice() {
            [(Bson::Document(d), _)] if d.len() == 2 => (d.get("t"), d.get("i")),
            [(t, _), (i, _)] => (Some(t), Some(i)),
            _ => return Err(self.at_name("Timestamp expects (t, i) or ({ t, i })".into())),
        };
        match (t.and_then(wrapper::as_u32), i.and_then(wrapper::as_u32)) {
            (Some(time), Some(increment)) => {
                Ok(Bson::Timestamp(bson::Timestamp { time, increment }))
            }
            _ => Err(self.fail_arg(
                0,
                "Timestamp expects t and i between 0 and 4294967295".into(),
            )),
        }
    }

    /// `Code('…')` or `Code('…', { scope })`.
    fn code(&self) -> Result<Bson, ParseError> {
        self.arity(1, 2, "a code string and an optional scope document")?;
        let code = self.string_arg(0, "a code string")?;
        match self.args.get(1) {
            None => Ok(Bson::JavaScriptCode(code)),
            Some((Bson::Document(scope), _)) => Ok(Bson::JavaScriptCodeWithScope(
                bson::JavaScriptCodeWithScope {
                    code,
                    scope: scope.clone(),
                },
            )),
            Some(_) => Err(self.fail_arg(
                1,
                "Code expects a scope document as its second argument".into(),
            )),
        }
    }

    /// `RegExp('pattern', 'flags')`, the flags optional.
    fn regex(&self) -> Result<Bson, ParseError> {
        self.arity(1, 2, "a pattern string and an optional flags string")?;
        let pattern = self.string_arg(0, "a pattern string")?;
        let flags = if self.args.len() > 1 {
            self.string_arg(1, "a flags string")?
        } else {
            String::new()
        };
        let options = regex_options(&flags).map_err(|m| self.fail_arg(1, m))?;
        make_regex(&pattern, &options).map_err(|m| self.fail_arg(0, m))
    }

    /// `DBPointer('db.coll', ObjectId('…'))`.
    fn db_pointer(&self) -> Result<Bson, ParseError> {
        self.arity(2, 2, "a namespace string and an ObjectId")?;
        let ns = self.string_arg(0, "a namespace string")?;
        match self.arg(1) {
            Bson::ObjectId(id) => dbpointer::db_pointer(&ns, *id)
                .ok_or_else(|| self.fail_arg(0, "this namespace cannot be stored".into())),
            other => Err(self.fail_arg(
                1,
                format!("DBPointer expects an ObjectId, found {}", type_alias(other)),
            )),
        }
    }

    /// `DBRef('coll', id)` or `DBRef('coll', id, 'db')`: a `{ $ref, $id, $db }` document.
    fn db_ref(&self) -> Result<Bson, ParseError> {
        self.arity(
            2,
            3,
            "a collection name, an id and an optional database name",
        )?;
        let coll = self.string_arg(0, "a collection name")?;
        let mut reference = doc! { "$ref": coll, "$id": self.arg(1).clone() };
        if self.args.len() == 3 {
            reference.insert("$db", self.string_arg(2, "a database name")?);
        }
        Ok(Bson::Document(reference))
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
