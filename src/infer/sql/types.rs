//! SQL column types to model fields: the BSON type a migration would store, and a length
//! distribution where the SQL type bounds one (docs/cli.md, "SQL schemas").

use sqlparser::ast::{DataType, EnumMember};

use crate::model::{BsonType, Distribution, Field, Fields, ValueKind};

/// Length of text with no declared bound (`TEXT`, `VARCHAR` without `n`, `CLOB`, unknown
/// types): a lognormal with this median, …
pub const TEXT_TYPICAL: f64 = 32.0;
/// … this 99th percentile …
pub const TEXT_P99: f64 = 1024.0;
/// … clamped here (MySQL's `TEXT` limit).
pub const TEXT_MAX: f64 = 65_535.0;

/// Length of bytes with no declared bound (`BLOB`, `BYTEA`, `VARBINARY` without `n`): median.
pub const BLOB_TYPICAL: f64 = 1024.0;
/// Their 99th percentile.
pub const BLOB_P99: f64 = 32_768.0;
/// Their largest (MySQL's `BLOB` limit).
pub const BLOB_MAX: f64 = 65_535.0;

/// The one field of the object a `JSON`/`JSONB` column becomes (its fields are unknown).
pub const JSON_PLACEHOLDER: &str = "json";

/// Elements of a PostgreSQL array column (`INT[]`): uniform from 0 to this.
pub const ARRAY_MAX: f64 = 5.0;

/// A column's type as a field, with what was assumed to get there.
#[derive(Debug, Clone, PartialEq)]
pub struct Mapped {
    /// The field (type, length, kind, enum values; presence is set by the caller).
    pub field: Field,
    /// What was assumed (empty when the SQL type says it all).
    pub assumed: Vec<String>,
}

/// Returns the field a column of SQL type `ty` becomes.
pub fn map(ty: &DataType) -> Mapped {
    if let DataType::Enum(members, _) = ty {
        let values: Vec<String> = members
            .iter()
            .map(|m| match m {
                EnumMember::Name(s) | EnumMember::NamedValue(s, _) => s.clone(),
            })
            .collect();
        let longest = values.iter().map(|v| v.len()).max().unwrap_or(1).max(1);
        let mut field = Field::of(BsonType::String);
        if !values.is_empty() {
            field.kind = Some(ValueKind::Enum);
            field.values = values;
        }
        field.length = Some(Distribution::Uniform {
            min: 0.0,
            max: longest as f64,
        });
        return plain(field);
    }
    if let DataType::Array(_) = ty {
        // `INT[]`, `TEXT ARRAY`, `ARRAY<INT>`: the element type is the text before the brackets.
        let text = ty.to_string();
        let inner = text
            .trim_end_matches("[]")
            .trim_end_matches(" ARRAY")
            .trim_start_matches("ARRAY<")
            .trim_end_matches('>');
        let element = map_text(inner);
        let mut field = Field::of(BsonType::Array);
        field.items = Some(element.field.ty);
        field.length = element.field.length;
        field.count = Some(Distribution::Uniform {
            min: 0.0,
            max: ARRAY_MAX,
        });
        let mut assumed = element.assumed;
        assumed.push(format!("elements per array: uniform 0 to {ARRAY_MAX}"));
        return Mapped { field, assumed };
    }
    map_text(&ty.to_string())
}

/// Returns the field of a type written as text (`VARCHAR(255)`, `INT UNSIGNED`, SQL Server's
/// bracketed `[datetime2](7)`).
fn map_text(text: &str) -> Mapped {
    let upper = text.to_ascii_uppercase().replace(['[', ']'], "");
    let (base, args) = match upper.split_once('(') {
        Some((b, rest)) => (b.trim(), rest.split(')').next().unwrap_or_default()),
        None => (upper.as_str(), ""),
    };
    let n: Option<f64> = args
        .split(',')
        .next()
        .and_then(|a| a.trim().parse::<f64>().ok())
        .filter(|n| *n >= 1.0);
    let word = base.split_whitespace().next().unwrap_or_default();
    let ty = |t| plain(Field::of(t));
    match word {
        "TINYINT" if n == Some(1.0) => ty(BsonType::Bool),
        "BIGINT" | "INT8" | "BIGSERIAL" | "SERIAL8" | "INT64" | "UBIGINT" | "HUGEINT" => {
            ty(BsonType::Long)
        }
        "INT" | "INTEGER" | "SMALLINT" | "TINYINT" | "MEDIUMINT" | "INT2" | "INT4" | "SERIAL"
        | "SERIAL4" | "SMALLSERIAL" | "SERIAL2" | "INT16" | "INT32" | "UINTEGER" | "YEAR" => {
            if base.contains("UNSIGNED") && matches!(word, "INT" | "INTEGER") {
                // An unsigned 32-bit integer may exceed int32.
                ty(BsonType::Long)
            } else {
                ty(BsonType::Int)
            }
        }
        "DECIMAL" | "NUMERIC" | "DEC" | "MONEY" | "SMALLMONEY" | "NUMBER" | "BIGNUMERIC" => {
            ty(BsonType::Decimal)
        }
        "REAL" | "FLOAT" | "DOUBLE" | "FLOAT4" | "FLOAT8" | "FLOAT32" | "FLOAT64" => {
            ty(BsonType::Double)
        }
        "BOOLEAN" | "BOOL" => ty(BsonType::Bool),
        "BIT" if n.unwrap_or(1.0) <= 1.0 => ty(BsonType::Bool),
        "DATE" | "DATETIME" | "DATETIME2" | "DATETIMEOFFSET" | "SMALLDATETIME" | "TIMESTAMP"
        | "TIMESTAMPTZ" | "TIMESTAMP_NTZ" | "TIMESTAMP_LTZ" | "TIMESTAMP_TZ" => ty(BsonType::Date),
        "TIME" | "TIMETZ" => {
            let mut field = Field::of(BsonType::String);
            field.length = Some(Distribution::Fixed { value: 8.0 });
            assumed(field, "a time of day: a string HH:MM:SS")
        }
        "INTERVAL" => assumed(
            Field::of(BsonType::Long),
            "an interval: a long (milliseconds)",
        ),
        "UUID" | "UNIQUEIDENTIFIER" => {
            let mut field = Field::of(BsonType::BinData);
            field.length = Some(Distribution::Fixed { value: 16.0 });
            assumed(field, "a UUID: binData subtype 4, 16 bytes")
        }
        "CHAR" | "CHARACTER" | "NCHAR" | "BPCHAR" if !base.contains("VARYING") => {
            let mut field = Field::of(BsonType::String);
            field.length = Some(Distribution::Fixed {
                value: n.unwrap_or(1.0),
            });
            plain(field)
        }
        "VARCHAR" | "CHARACTER" | "CHAR" | "NVARCHAR" | "VARCHAR2" | "NVARCHAR2" | "STRING"
        | "NATIONAL" => match n {
            Some(n) => plain(bounded(BsonType::String, n)),
            None => text_field("no declared length"),
        },
        "TEXT" | "TINYTEXT" | "MEDIUMTEXT" | "LONGTEXT" | "NTEXT" | "CLOB" | "CITEXT" => {
            text_field("unbounded text")
        }
        "BINARY" => {
            let mut field = Field::of(BsonType::BinData);
            field.length = Some(Distribution::Fixed {
                value: n.unwrap_or(1.0),
            });
            plain(field)
        }
        "VARBINARY" | "BLOB" | "BYTEA" | "LONGBLOB" | "MEDIUMBLOB" | "TINYBLOB" | "IMAGE"
        | "BYTES" | "RAW" => match n {
            Some(n) => plain(bounded(BsonType::BinData, n)),
            None => {
                let mut field = Field::of(BsonType::BinData);
                field.length = Some(Distribution::Lognormal {
                    typical: BLOB_TYPICAL,
                    p99: BLOB_P99,
                    max: BLOB_MAX,
                });
                assumed(
                    field,
                    &format!(
                        "unbounded bytes: length lognormal median {BLOB_TYPICAL}, p99 {BLOB_P99}, max {BLOB_MAX}"
                    ),
                )
            }
        },
        "JSON" | "JSONB" => {
            // A model object needs fields: one string of unbounded text's length stands for
            // the unknown contents, so the document is sized as the JSON text would be.
            let mut field = Field::of(BsonType::Object);
            let text = text_field("").field;
            field.fields = Fields(vec![(JSON_PLACEHOLDER.to_string(), text)]);
            assumed(
                field,
                &format!(
                    "a JSON document of unknown fields: an object with one string {JSON_PLACEHOLDER} \
                     (length lognormal median {TEXT_TYPICAL}, p99 {TEXT_P99}, max {TEXT_MAX})"
                ),
            )
        }
        _ => {
            let mut m = text_field("unknown type");
            m.assumed
                .insert(0, format!("SQL type {text} not recognised: a string"));
            m
        }
    }
}

/// Returns a string or binData field of at most `n` bytes: fixed 1 for `n` = 1, uniform from
/// 1 to `n` up to 4, else a lognormal with median ⌈n/4⌉ (at most 32), p99 ⌈3n/4⌉, max `n`.
pub fn bounded(ty: BsonType, n: f64) -> Field {
    let mut field = Field::of(ty);
    field.length = Some(if n <= 1.0 {
        Distribution::Fixed { value: 1.0 }
    } else if n <= 4.0 {
        Distribution::Uniform { min: 1.0, max: n }
    } else {
        let typical = (n / 4.0).ceil().min(32.0);
        Distribution::Lognormal {
            typical,
            p99: (n * 3.0 / 4.0).ceil().max(typical),
            max: n,
        }
    });
    field
}

/// Returns a string of unbounded text, saying why it was assumed.
fn text_field(why: &str) -> Mapped {
    let mut field = Field::of(BsonType::String);
    field.length = Some(Distribution::Lognormal {
        typical: TEXT_TYPICAL,
        p99: TEXT_P99,
        max: TEXT_MAX,
    });
    assumed(
        field,
        &format!("{why}: length lognormal median {TEXT_TYPICAL}, p99 {TEXT_P99}, max {TEXT_MAX}"),
    )
}

/// Returns a field with nothing assumed.
fn plain(field: Field) -> Mapped {
    Mapped {
        field,
        assumed: Vec::new(),
    }
}

/// Returns a field with one assumption.
fn assumed(field: Field, note: &str) -> Mapped {
    Mapped {
        field,
        assumed: vec![note.to_string()],
    }
}
