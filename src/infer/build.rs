//! Turning what was seen into model fields, and into the report rows that say what was found
//! and what was assumed.

use serde::Serialize;

use super::fit::{fit, Observed};
use super::stats::{FieldStats, ObjectStats};
use crate::model::{BsonType, Field, Fields, ValueKind};

/// One field as inferred: its path, its dominant type, the shares of every type seen, its
/// presence, and what was observed of its lengths, counts and ranges.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldReport {
    /// Dotted path (`address.city`; `tags.[]` for the elements of an array).
    pub path: String,
    /// The type written in the model.
    #[serde(rename = "type")]
    pub ty: BsonType,
    /// Every `$type` alias seen with its share of the values (the dominant one first).
    pub types: Vec<TypeShare>,
    /// Share of the enclosing documents (or array elements) holding the field.
    pub presence: f64,
    /// Observed lengths in bytes (strings, binData, regex, code).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub length: Option<Observed>,
    /// Observed element counts (arrays).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<Observed>,
    /// What the model assumes where the data could not be written as seen.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub assumed: Vec<String>,
}

/// One `$type` alias and the share of the values that had it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TypeShare {
    /// The `$type` alias (`string`, `int`, … also `symbol`, `undefined`, which models lack).
    #[serde(rename = "type")]
    pub ty: String,
    /// Share of the values (0–1).
    pub share: f64,
}

/// Returns the model fields of `obj`, and appends a report row per field to `rows`.
pub fn fields(obj: &ObjectStats, prefix: &str, rows: &mut Vec<FieldReport>) -> Fields {
    let mut out = Fields::default();
    for (name, stats) in &obj.fields {
        let path = if prefix.is_empty() {
            name.clone()
        } else {
            format!("{prefix}.{name}")
        };
        let presence = if obj.seen == 0 {
            0.0
        } else {
            stats.present as f64 / obj.seen as f64
        };
        let mut field = value_field(stats, &path, presence, rows);
        if presence < 1.0 {
            field.presence = Some(presence);
        }
        out.push(name.clone(), field);
    }
    out
}

/// Returns the model field of one value's statistics (without presence), reporting it at `path`.
fn value_field(
    stats: &FieldStats,
    path: &str,
    presence: f64,
    rows: &mut Vec<FieldReport>,
) -> Field {
    let ranked = stats.ranked_types();
    let total = stats.present.max(1) as f64;
    let types = ranked
        .iter()
        .map(|(t, n)| TypeShare {
            ty: (*t).to_string(),
            share: *n as f64 / total,
        })
        .collect();
    let mut assumed = Vec::new();
    let seen = ranked.first().map(|(t, _)| *t).unwrap_or("null");
    let mut ty = model_type(seen, &mut assumed);
    let row_at = rows.len();
    rows.push(FieldReport {
        path: path.to_string(),
        ty,
        types,
        presence,
        length: None,
        count: None,
        assumed: Vec::new(),
    });
    let mut field = Field::of(ty);
    if ty.has_length() && stats.lengths.count() > 0 {
        let o = Observed::of(&stats.lengths);
        field.length = Some(fit(&o));
        if let Some(r) = rows.get_mut(row_at) {
            r.length = Some(o);
        }
    }
    match ty {
        BsonType::Int | BsonType::Long | BsonType::Double | BsonType::Decimal => {
            if let Some((lo, hi)) = stats.numbers {
                field.min = Some(lo);
                field.max = Some(hi);
            }
        }
        BsonType::Date => {
            if let Some((lo, hi)) = stats.dates {
                if let (Some(from), Some(to)) = (day(lo), day(hi)) {
                    field.kind = Some(ValueKind::DateRange);
                    field.from = Some(from);
                    field.to = Some(to);
                }
            }
        }
        BsonType::Object => {
            let sub = stats.object.as_deref().map(|o| fields(o, path, rows));
            match sub {
                Some(f) if !f.is_empty() => field.fields = f,
                _ => {
                    assumed.push(
                        "only empty objects seen: written as null (a model object needs fields)"
                            .to_string(),
                    );
                    ty = BsonType::Null;
                    field = Field::of(ty);
                }
            }
        }
        BsonType::Array => {
            if let Some(array) = stats.array.as_deref() {
                let o = Observed::of(&array.counts);
                field.count = Some(fit(&o));
                let element_path = format!("{path}.[]");
                let elements = &array.elements;
                let element_seen = elements.ranked_types().first().map(|(t, _)| *t);
                let items = match element_seen {
                    None => {
                        assumed
                            .push("only empty arrays seen: elements written as null".to_string());
                        BsonType::Null
                    }
                    Some("array") => {
                        assumed.push(
                            "arrays of arrays are not supported: elements written as null"
                                .to_string(),
                        );
                        BsonType::Null
                    }
                    Some(_) => {
                        let element = value_field(elements, &element_path, 1.0, rows);
                        field.length = element.length;
                        field.fields = element.fields;
                        field.min = element.min;
                        field.max = element.max;
                        field.kind = element.kind;
                        field.from = element.from;
                        field.to = element.to;
                        element.ty
                    }
                };
                field.items = Some(items);
                if let Some(r) = rows.get_mut(row_at) {
                    r.count = Some(o);
                }
            }
        }
        _ => {}
    }
    if let Some(r) = rows.get_mut(row_at) {
        r.ty = ty;
        r.assumed = assumed;
    }
    field
}

/// Returns the model type for a `$type` alias, noting the types a model cannot hold.
fn model_type(alias: &str, assumed: &mut Vec<String>) -> BsonType {
    if let Some(t) = BsonType::from_alias(alias) {
        return t;
    }
    let (t, why) = match alias {
        "symbol" => (BsonType::String, "symbol (deprecated) written as string"),
        "javascriptWithScope" => (
            BsonType::JavaScript,
            "javascriptWithScope written as javascript (its scope not counted)",
        ),
        "dbPointer" => (
            BsonType::ObjectId,
            "dbPointer written as objectId (its namespace not counted)",
        ),
        _ => (BsonType::Null, "undefined written as null"),
    };
    assumed.push(why.to_string());
    t
}

/// Returns the `YYYY-MM-DD` day of a time in milliseconds since the epoch.
fn day(ms: i64) -> Option<String> {
    let text = bson::DateTime::from_millis(ms)
        .try_to_rfc3339_string()
        .ok()?;
    let d = text.get(..10)?;
    (d.len() == 10 && !d.starts_with('-')).then(|| d.to_string())
}
