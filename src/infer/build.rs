//! Turning what was seen into model fields, and into the report rows that say what was found
//! and what was assumed.

use std::collections::BTreeSet;

use serde::Serialize;

use super::fit::{fit, Observed};
use super::sketch::Sketch;
use super::stats::{ArrayStats, FieldStats, ObjectStats};
use crate::model::{BsonType, Distribution, Field, Fields, ValueKind};

/// An array of sub-documents moved out of its entity into a child entity of its own, with an
/// embedded relationship (the data's layout) that any design can lay out otherwise.
#[derive(Debug, Clone, PartialEq)]
pub struct Child {
    /// The relationship's name (the array's name, made unique).
    pub relationship: String,
    /// The parent entity.
    pub parent: String,
    /// The child entity (the array's name in the singular, made unique).
    pub entity: String,
    /// The array's name on the parent.
    pub field: String,
    /// The child entity's fields, inferred from the elements.
    pub fields: Fields,
    /// Elements (children) seen.
    pub elements: u64,
    /// Children per parent as fitted (a missing array counted as 0 children).
    pub cardinality: Distribution,
    /// Children per parent as observed, a missing array counted as 0.
    pub observed: Observed,
    /// Parents without the array (missing, null or another type): counted as 0 children.
    pub without_array: u64,
}

/// Entity and relationship names already taken, so that moved-out children get fresh ones.
#[derive(Debug, Clone, Default)]
pub struct Names {
    /// Entity names taken.
    pub entities: BTreeSet<String>,
    /// Relationship names taken.
    pub relationships: BTreeSet<String>,
}

/// Where [`fields`] puts what it moves out and reports.
#[derive(Debug)]
pub struct Sink<'a> {
    /// A report row per field.
    pub rows: &'a mut Vec<FieldReport>,
    /// Arrays of sub-documents moved out, a parent before the arrays of its elements.
    pub children: &'a mut Vec<Child>,
    /// Names taken.
    pub names: &'a mut Names,
}

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

/// Returns the model fields of `obj`, the objects of entity `entity`, appending a report row
/// per field to `sink.rows`; an array of sub-documents directly in `obj` becomes a child
/// entity in `sink.children` (recursively: arrays of sub-documents in its elements too)
/// instead of a field.
pub fn fields(obj: &ObjectStats, entity: &str, prefix: &str, sink: &mut Sink<'_>) -> Fields {
    let mut out = Fields::default();
    for (name, stats, path, presence) in each_field(obj, prefix) {
        if let Some(array) = sub_documents(stats) {
            move_out(obj, entity, name, &path, stats, array, presence, sink);
            continue;
        }
        out.push(
            name.clone(),
            present_field(stats, &path, presence, sink.rows),
        );
    }
    out
}

/// Returns the model fields of a nested object's `obj`, every array kept in place (a
/// relationship's array lies at its parent's top level), appending a report row per field.
fn kept_fields(obj: &ObjectStats, prefix: &str, rows: &mut Vec<FieldReport>) -> Fields {
    let mut out = Fields::default();
    for (name, stats, path, presence) in each_field(obj, prefix) {
        out.push(name.clone(), present_field(stats, &path, presence, rows));
    }
    out
}

/// Returns each field of `obj` with its dotted path and its presence.
fn each_field<'o>(
    obj: &'o ObjectStats,
    prefix: &'o str,
) -> impl Iterator<Item = (&'o String, &'o FieldStats, String, f64)> + 'o {
    obj.fields.iter().map(move |(name, stats)| {
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
        (name, stats, path, presence)
    })
}

/// Returns the model field of a field's statistics with its presence (when below 1).
fn present_field(
    stats: &FieldStats,
    path: &str,
    presence: f64,
    rows: &mut Vec<FieldReport>,
) -> Field {
    let mut field = value_field(stats, path, presence, rows);
    if presence < 1.0 {
        field.presence = Some(presence);
    }
    field
}

/// Returns the arrays of a field whose values are mostly arrays whose elements are mostly
/// sub-documents with fields: the arrays that become child entities.
fn sub_documents(stats: &FieldStats) -> Option<&ArrayStats> {
    if stats.ranked_types().first().map(|(t, _)| *t) != Some("array") {
        return None;
    }
    let array = stats.array.as_deref()?;
    let elements = &array.elements;
    let objects = elements.object.as_deref()?;
    let dominant = elements.ranked_types().first().map(|(t, _)| *t);
    (dominant == Some("object") && !objects.fields.is_empty()).then_some(array)
}

/// Moves the array of sub-documents `name` (at `path`) of `entity` out into a child entity
/// and an embedded relationship, reporting the array's row with what was assumed.
#[allow(clippy::too_many_arguments)]
fn move_out(
    obj: &ObjectStats,
    entity: &str,
    name: &str,
    path: &str,
    stats: &FieldStats,
    array: &ArrayStats,
    presence: f64,
    sink: &mut Sink<'_>,
) {
    let relationship = fresh(&sink.names.relationships, name, entity);
    sink.names.relationships.insert(relationship.clone());
    let child = fresh(&sink.names.entities, &singular(name), entity);
    sink.names.entities.insert(child.clone());
    // Every parent without an array (missing, null, another type) has no children.
    let arrays = array.counts.count();
    let without_array = obj.seen.saturating_sub(arrays);
    let mut counts: Sketch = array.counts.clone();
    counts.add_many(0, without_array);
    let observed = Observed::of(&counts);
    let total = stats.present.max(1) as f64;
    let types = stats
        .ranked_types()
        .iter()
        .map(|(t, n)| TypeShare {
            ty: (*t).to_string(),
            share: *n as f64 / total,
        })
        .collect();
    let mut assumed = vec![format!(
        "array of sub-documents moved out: entity \"{child}\", relationship \"{relationship}\" \
         (embedded in the model's design)"
    )];
    if without_array > 0 {
        assumed.push(format!(
            "{without_array} of {} without the array (missing, null or another type) counted as \
             0 children; embedded, they are written as an empty array",
            obj.seen
        ));
    }
    let elements = &array.elements;
    let others = elements
        .present
        .saturating_sub(elements.object.as_deref().map_or(0, |o| o.seen));
    if others > 0 {
        assumed.push(format!(
            "{others} of {} elements not sub-documents: counted as children, their values not \
             kept",
            elements.present
        ));
    }
    sink.rows.push(FieldReport {
        path: path.to_string(),
        ty: BsonType::Array,
        types,
        presence,
        length: None,
        count: Some(observed.clone()),
        assumed,
    });
    // The elements' own row (`items.[]`: their types), as any array's elements have.
    let element_total = elements.present.max(1) as f64;
    sink.rows.push(FieldReport {
        path: format!("{path}.[]"),
        ty: BsonType::Object,
        types: (elements.ranked_types().iter())
            .map(|(t, n)| TypeShare {
                ty: (*t).to_string(),
                share: *n as f64 / element_total,
            })
            .collect(),
        presence: 1.0,
        length: None,
        count: None,
        assumed: Vec::new(),
    });
    // The child goes before the children of its elements, which the recursion adds.
    let at = sink.children.len();
    let element_fields = match elements.object.as_deref() {
        Some(o) => fields(o, &child, &format!("{path}.[]"), sink),
        None => Fields::default(),
    };
    sink.children.insert(
        at,
        Child {
            relationship,
            parent: entity.to_string(),
            entity: child,
            field: name.to_string(),
            fields: element_fields,
            elements: elements.present,
            cardinality: fit(&observed),
            observed,
            without_array,
        },
    );
}

/// Returns `name` if it is not in `taken`, else `parent_name`, else `parent_name2`, ….
fn fresh(taken: &BTreeSet<String>, name: &str, parent: &str) -> String {
    if !taken.contains(name) {
        return name.to_string();
    }
    let base = format!("{parent}_{name}");
    let mut candidate = base.clone();
    let mut n = 2u32;
    while taken.contains(&candidate) {
        candidate = format!("{base}{n}");
        n += 1;
    }
    candidate
}

/// Returns an English plural's singular, roughly (`addresses` → `address`, `categories` →
/// `category`, `items` → `item`); a name that is not plural (`history`, `status`, `analysis`) gets `_item` (`history` →
/// `history_item`) so that the child never shares its array's name.
pub fn singular(name: &str) -> String {
    let lower = name.to_ascii_lowercase();
    if let Some(stem) = name.strip_suffix("ies").filter(|s| !s.is_empty()) {
        return format!("{stem}y");
    }
    for suffix in ["sses", "xes", "ches", "shes", "zzes"] {
        if lower.ends_with(suffix) {
            return name.get(..name.len() - 2).unwrap_or(name).to_string();
        }
    }
    let not_plural = ["ss", "us", "is"].iter().any(|e| lower.ends_with(e));
    if lower.ends_with('s') && !not_plural && name.len() > 1 {
        return name.get(..name.len() - 1).unwrap_or(name).to_string();
    }
    format!("{name}_item")
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
        // A numeric `_id` is unique: the seen range (1 to 3 in a small file) cannot hold a
        // full-scale or even a sample's distinct values (E11000 on insert), so it is written
        // as a sequence, which the generator numbers 0, 1, 2 …
        BsonType::Int | BsonType::Long if path == "_id" => {
            field.kind = Some(ValueKind::Sequence);
            assumed.push(
                "a numeric _id is unique: written as a sequence, not the range seen".to_string(),
            );
        }
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
            let sub = stats.object.as_deref().map(|o| kept_fields(o, path, rows));
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
