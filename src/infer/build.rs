//! Turning what was seen into model fields, and into the report rows that say what was found
//! and what was assumed.
//!
//! It stays one file: one recursive walk ([`fields`]) over the statistics and what it moves out
//! (children, maps, references) and reports, all writing to the one [`Sink`].

use std::collections::BTreeSet;

use serde::Serialize;

use super::fit::{fit, Observed};
use super::maps::{self, Map};
use super::refs::{self, Created, IdSet, Reference};
use super::sketch::Sketch;
use super::stats::{ArrayStats, FieldStats, ObjectStats, StringStats, MAX_ENUM_VALUES};
use crate::lang::Text;
use crate::model::{BsonType, Distribution, Field, Fields, Growth, ValueKind};

/// How often each value of an enum must have been seen (once is a coincidence of the sample:
/// names, ids and text seldom repeat, a status or a category does). No number of strings is
/// asked for beyond it: a field of a small sample whose few values all repeat (3 statuses in
/// 30 documents) is drawn from those values, which are the data's, not from lorem-like text.
pub const MIN_ENUM_REPEATS: u64 = 2;

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
    /// Children per parent among the parents holding the array (what a split of a
    /// polymorphic parent refits: [`super::split`]).
    pub held: Sketch,
    /// The elements' creation times, when they have them.
    pub created: Option<Created>,
    /// Children added per day to a typical and to the largest parent, from `created`.
    pub growth: Option<Growth>,
    /// The data holds the children as a map (an object keyed by data, [`maps`]), not an array.
    pub map: Option<MapReport>,
}

/// A map moved out into a child entity: what made it one, and where its key went.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MapReport {
    /// Distinct keys seen (a lower bound when `sampled`).
    pub keys: usize,
    /// Share of the parents' objects holding the median key.
    pub median_key_share: f64,
    /// The child's field holding the key (`key`, or `map_key` when the values have a `key`).
    pub key_field: String,
    /// Keys beyond the most a model may hold were not read: the child's fields come from the
    /// keys kept (the entries per parent count them all).
    pub sampled: bool,
}

/// A field of an entity found to refer to another collection's `_id`s: it leaves the
/// entity's fields and becomes a relationship.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    /// The entity holding the field.
    pub holder: String,
    /// The field's name.
    pub field: String,
    /// What it refers to, and the values grouped per referenced document.
    pub reference: Reference,
    /// An array of ids (a reference in the parent), not one id (a reference in the child).
    pub in_array: bool,
    /// For an array of ids: the ids per holder, a missing array counted as 0.
    pub array_counts: Option<Observed>,
    /// The holder's documents read.
    pub holders: u64,
    /// The holders' creation times, when they have them.
    pub created: Option<Created>,
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
    /// The `_id`s of every collection read, for references to resolve against.
    pub ids: &'a [IdSet<'a>],
    /// Fields found to be references, taken out of their entities.
    pub references: &'a mut Vec<Found>,
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
    /// An enum's values, the most frequent first, with their share of the strings.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<ValueShare>,
    /// What the model assumes where the data could not be written as seen: texts in any
    /// language (`## Infer summary`), English in JSON.
    #[serde(
        skip_serializing_if = "Vec::is_empty",
        serialize_with = "crate::lang::text::serialize_english"
    )]
    pub assumed: Vec<Text>,
}

/// One value of an enum and the share of the strings that had it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ValueShare {
    /// The string.
    pub value: String,
    /// Share of the field's strings (0–1).
    pub share: f64,
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
///
/// A field whose values resolve to another collection's `_id`s or unique key (see
/// [`refs::resolve`]) is reported and pushed to `sink.references` instead of being a field.
pub fn fields(obj: &ObjectStats, entity: &str, prefix: &str, sink: &mut Sink<'_>) -> Fields {
    let mut out = Fields::default();
    for (name, stats, path, presence) in each_field(obj, prefix) {
        if let Some(map) = maps::detect(stats, obj.seen) {
            move_out_map(entity, name, &path, stats, map, presence, sink);
            continue;
        }
        if let Some(array) = sub_documents(stats) {
            move_out(obj, entity, name, &path, stats, array, presence, sink);
            continue;
        }
        if let Some(found) = reference(obj, entity, name, stats, sink.ids) {
            let at = sink.rows.len();
            present_field(stats, &path, presence, sink.rows);
            if let Some(row) = sink.rows.get_mut(at) {
                let r = &found.reference;
                let what = match &r.key {
                    Some(k) => Text::new("infer-assumed-reference-key")
                        .arg("key", &k.field)
                        .nested(
                            "unique",
                            Text::new(if k.unique == "index" {
                                "infer-unique-by-index"
                            } else {
                                "infer-unique-in-data"
                            }),
                        ),
                    None => Text::new("infer-assumed-reference"),
                };
                row.assumed.push(
                    what.arg("resolved", r.resolved)
                        .arg("values", r.values)
                        .arg("target", &r.target)
                        .nested(
                            "sampled",
                            Text::new(if r.sampled {
                                "infer-assumed-sampled"
                            } else {
                                "infer-empty"
                            }),
                        )
                        .nested(
                            "where",
                            Text::new(if found.in_array {
                                "infer-in-the-parent"
                            } else {
                                "infer-in-the-child"
                            }),
                        ),
                );
            }
            sink.references.push(found);
            continue;
        }
        out.push(
            name.clone(),
            present_field(stats, &path, presence, sink.rows),
        );
    }
    out
}

/// Returns the reference field `name` of entity `entity` (its objects `obj`) makes, if any:
/// one id per value (a reference in the child) or an array of ids (in the parent).
fn reference(
    obj: &ObjectStats,
    entity: &str,
    name: &str,
    stats: &FieldStats,
    ids: &[IdSet<'_>],
) -> Option<Found> {
    if name == "_id" {
        return None;
    }
    let dominant = stats.ranked_types().first().map(|(t, _)| *t)?;
    let (reference, in_array, array_counts) = if dominant == "array" {
        let array = stats.array.as_deref()?;
        let r = refs::resolve(&array.elements, name, entity, ids)?;
        let mut counts = array.counts.clone();
        counts.add_many(0, obj.seen.saturating_sub(array.counts.count()));
        (r, true, Some(Observed::of(&counts)))
    } else {
        (refs::resolve(stats, name, entity, ids)?, false, None)
    };
    Some(Found {
        holder: entity.to_string(),
        field: name.to_string(),
        reference,
        in_array,
        array_counts,
        holders: obj.seen,
        created: refs::created(obj),
    })
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

/// Returns the names of a relationship and a child entity moved out of `entity`'s field
/// `name` (the child named by the field's singular), each fresh among the names taken and
/// taken from now on.
fn name_moved_out(sink: &mut Sink<'_>, name: &str, entity: &str) -> (String, String) {
    let relationship = fresh(&sink.names.relationships, name, entity);
    sink.names.relationships.insert(relationship.clone());
    let child = fresh(&sink.names.entities, &singular(name), entity);
    sink.names.entities.insert(child.clone());
    (relationship, child)
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
    let (relationship, child) = name_moved_out(sink, name, entity);
    // Every parent without an array (missing, null, another type) has no children.
    let arrays = array.counts.count();
    let without_array = obj.seen.saturating_sub(arrays);
    let mut counts: Sketch = array.counts.clone();
    counts.add_many(0, without_array);
    let observed = Observed::of(&counts);
    let types = type_shares(stats);
    let mut assumed = vec![Text::new("infer-assumed-moved-out")
        .arg("child", &child)
        .arg("relationship", &relationship)];
    if without_array > 0 {
        assumed.push(
            Text::new("infer-assumed-without-array")
                .arg("count", without_array)
                .arg("of", obj.seen),
        );
    }
    let elements = &array.elements;
    let others = elements
        .present
        .saturating_sub(elements.object.as_deref().map_or(0, |o| o.seen));
    if others > 0 {
        assumed.push(
            Text::new("infer-assumed-not-sub-documents")
                .arg("count", others)
                .arg("of", elements.present),
        );
    }
    sink.rows.push(FieldReport {
        path: path.to_string(),
        ty: BsonType::Array,
        types,
        presence,
        length: None,
        count: Some(observed.clone()),
        values: Vec::new(),
        assumed,
    });
    // The elements' own row (`items.[]`: their types), as any array's elements have.
    sink.rows.push(FieldReport {
        path: format!("{path}.[]"),
        ty: BsonType::Object,
        types: type_shares(elements),
        presence: 1.0,
        length: None,
        count: None,
        values: Vec::new(),
        assumed: Vec::new(),
    });
    // The child goes before the children of its elements, which the recursion adds.
    let at = sink.children.len();
    let mut element_fields = match elements.object.as_deref() {
        Some(o) => fields(o, &child, &format!("{path}.[]"), sink),
        None => Fields::default(),
    };
    pooled(&mut element_fields);
    let created = elements.object.as_deref().and_then(refs::created);
    let growth = created
        .as_ref()
        .map(|c| growth(elements.present, obj.seen, observed.max, c.days));
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
            held: array.counts.clone(),
            created,
            growth,
            map: None,
        },
    );
}

/// Marks every array among `fields` (at any depth) as counted on its own
/// ([`Field::independent`]): they are the fields of elements of a parent's array or map,
/// whose counts were fitted over every element whichever parent held it, so a parent's
/// elements do not all take their counts at the parent's quantile.
fn pooled(fields: &mut Fields) {
    for (_, f) in &mut fields.0 {
        if f.ty == BsonType::Array {
            f.independent = true;
        }
        pooled(&mut f.fields);
    }
}

/// Returns the `$type` shares of a field's values, the dominant one first.
fn type_shares(stats: &FieldStats) -> Vec<TypeShare> {
    let total = stats.present.max(1) as f64;
    stats
        .ranked_types()
        .iter()
        .map(|(t, n)| TypeShare {
            ty: (*t).to_string(),
            share: *n as f64 / total,
        })
        .collect()
}

/// Moves the map `name` (at `path`) of `entity` out into a child entity, one per entry, its
/// key in a field `key` (`map_key` when the values have a `key`) beside the value's fields (or
/// beside `value` when the values are not sub-documents), and an embedded relationship whose
/// children per parent are the entries per object, reporting the map's row (its keys'
/// lengths, its entries) with what was assumed.
fn move_out_map(
    entity: &str,
    name: &str,
    path: &str,
    stats: &FieldStats,
    map: Map,
    presence: f64,
    sink: &mut Sink<'_>,
) {
    let (relationship, child) = name_moved_out(sink, name, entity);
    let observed = Observed::of(&map.entries);
    let values = &map.values;
    let objects = values.object.as_deref().filter(|o| {
        values.ranked_types().first().map(|(t, _)| *t) == Some("object") && !o.fields.is_empty()
    });
    let key_field = if objects.is_some_and(|o| o.fields.iter().any(|(n, _)| n == "key")) {
        "map_key"
    } else {
        "key"
    };
    let key_lengths = Observed::of(&map.key_lengths);
    let mut assumed = vec![Text::new("infer-assumed-map")
        .arg("keys", map.keys)
        .arg("share", format!("{:.1}", map.median_share * 100.0))
        .arg("child", &child)
        .arg("key", key_field)
        .arg("relationship", &relationship)];
    if map.without > 0 {
        assumed.push(
            Text::new("infer-assumed-without-map")
                .arg("count", map.without)
                .arg("of", observed.values),
        );
    }
    sink.rows.push(FieldReport {
        path: path.to_string(),
        ty: BsonType::Object,
        types: type_shares(stats),
        presence,
        length: Some(key_lengths.clone()),
        count: Some(observed.clone()),
        values: Vec::new(),
        assumed,
    });
    let value_path = format!("{path}.*");
    let mut key = Field::of(BsonType::String);
    key.length = Some(fit(&key_lengths));
    let mut child_fields = Fields::default();
    child_fields.push(key_field, key);
    let at = sink.children.len();
    match objects {
        Some(o) => {
            sink.rows.push(FieldReport {
                path: value_path.clone(),
                ty: BsonType::Object,
                types: type_shares(values),
                presence: 1.0,
                length: None,
                count: None,
                values: Vec::new(),
                assumed: Vec::new(),
            });
            let f = fields(o, &child, &value_path, sink);
            child_fields.0.extend(f.0);
        }
        None => {
            let f = present_field(values, &value_path, 1.0, sink.rows);
            child_fields.push("value", f);
        }
    }
    pooled(&mut child_fields);
    let elements = (observed.mean * observed.values as f64).round() as u64;
    let created = objects.and_then(refs::created);
    let growth = created
        .as_ref()
        .map(|c| growth(elements, observed.values, observed.max, c.days));
    sink.children.insert(
        at,
        Child {
            relationship,
            parent: entity.to_string(),
            entity: child,
            field: name.to_string(),
            fields: child_fields,
            elements,
            cardinality: fit(&observed),
            observed,
            without_array: map.without,
            held: map.held.clone(),
            created,
            growth,
            map: Some(MapReport {
                keys: map.keys,
                median_key_share: map.median_share,
                key_field: key_field.to_string(),
                sampled: map.sampled,
            }),
        },
    );
}

/// Returns children added per day to a typical parent (`children` ÷ `days` ÷ `parents`) and
/// to the largest (its `largest` children ÷ `days`): the children seen are taken to have
/// been created evenly over the `days` their creation times span.
pub fn growth(children: u64, parents: u64, largest: u64, days: f64) -> Growth {
    let typical = if parents == 0 || days <= 0.0 {
        0.0
    } else {
        children as f64 / days / parents as f64
    };
    let largest = if days <= 0.0 {
        0.0
    } else {
        largest as f64 / days
    };
    Growth {
        typical,
        largest: (largest > typical).then_some(largest),
    }
}

/// Returns the values of an enum, the most frequent first (ties by value), if the strings
/// seen are one: at most [`MAX_ENUM_VALUES`] distinct values, each seen at least
/// [`MIN_ENUM_REPEATS`] times.
pub fn enum_values(strings: &StringStats) -> Option<Vec<ValueShare>> {
    if strings.many
        || strings.distinct.is_empty()
        || strings.distinct.len() > MAX_ENUM_VALUES
        || strings.distinct.values().any(|&n| n < MIN_ENUM_REPEATS)
    {
        return None;
    }
    let mut v: Vec<(&String, u64)> = strings.distinct.iter().map(|(s, &n)| (s, n)).collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    Some(
        v.into_iter()
            .map(|(value, n)| ValueShare {
                value: value.clone(),
                share: n as f64 / strings.seen as f64,
            })
            .collect(),
    )
}

/// Returns the kind every string seen has (`email`, `url`, `ip`), if they all have one.
pub fn string_kind(strings: &StringStats) -> Option<ValueKind> {
    let all = |n: u64| strings.seen > 0 && n == strings.seen;
    if all(strings.emails) {
        Some(ValueKind::Email)
    } else if all(strings.urls) {
        Some(ValueKind::Url)
    } else if all(strings.ips) {
        Some(ValueKind::Ip)
    } else {
        None
    }
}

/// Returns `name` if it is not in `taken`, else `parent_name`, else `parent_name2`, ….
pub fn fresh(taken: &BTreeSet<String>, name: &str, parent: &str) -> String {
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

/// Returns an English noun's plural, roughly (`post` → `posts`, `category` → `categories`,
/// `address` → `addresses`); a name already ending in a single `s` is kept (`news`, `orders`).
pub fn plural(name: &str) -> String {
    let lower = name.to_ascii_lowercase();
    if lower.ends_with('s') && !lower.ends_with("ss") {
        return name.to_string();
    }
    if let Some(stem) = name.strip_suffix('y') {
        if !stem.ends_with(['a', 'e', 'i', 'o', 'u']) && !stem.is_empty() {
            return format!("{stem}ies");
        }
    }
    if ["ss", "x", "ch", "sh", "z"]
        .iter()
        .any(|e| lower.ends_with(e))
    {
        return format!("{name}es");
    }
    format!("{name}s")
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
    let types = type_shares(stats);
    let mut assumed = Vec::new();
    let seen = stats
        .ranked_types()
        .first()
        .map(|(t, _)| *t)
        .unwrap_or("null");
    let mut ty = model_type(seen, &mut assumed);
    let row_at = rows.len();
    rows.push(FieldReport {
        path: path.to_string(),
        ty,
        types,
        presence,
        length: None,
        count: None,
        values: Vec::new(),
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
            assumed.push(Text::new("infer-assumed-numeric-id"));
        }
        BsonType::Int | BsonType::Long | BsonType::Double | BsonType::Decimal => {
            if let Some((lo, hi)) = stats.numbers {
                field.min = Some(lo);
                field.max = Some(hi);
            }
        }
        BsonType::String => {
            if let Some(strings) = stats.strings.as_deref() {
                string_values(&mut field, strings, &mut assumed, rows.get_mut(row_at));
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
                    assumed.push(Text::new("infer-assumed-empty-objects"));
                    ty = BsonType::Null;
                    field = Field::of(ty);
                }
            }
        }
        BsonType::Array => {
            if let Some(array) = stats.array.as_deref() {
                let o = Observed::of(&array.counts);
                field.count = Some(fit(&o));
                array_elements(&mut field, array, path, &mut assumed, rows);
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

/// Draws a string field from the strings seen: an enum of the values that repeat (noted when
/// they are uneven, each value reported in `row`), else the kind of string they look like.
fn string_values(
    field: &mut Field,
    strings: &StringStats,
    assumed: &mut Vec<Text>,
    row: Option<&mut FieldReport>,
) {
    let Some(values) = enum_values(strings) else {
        field.kind = string_kind(strings);
        return;
    };
    field.kind = Some(ValueKind::Enum);
    field.values = values.iter().map(|v| v.value.clone()).collect();
    if values.windows(2).any(|w| match w {
        [a, b] => a.share > b.share * 1.5,
        _ => false,
    }) {
        assumed.push(Text::new("infer-assumed-enum-even"));
    }
    if let Some(r) = row {
        r.values = values;
    }
}

/// Gives an array field (at `path`) its elements' type and, when they hold values, their
/// field's figures (reported at `path.[]`); an array seen only empty or holding arrays has
/// null elements, noted.
fn array_elements(
    field: &mut Field,
    array: &ArrayStats,
    path: &str,
    assumed: &mut Vec<Text>,
    rows: &mut Vec<FieldReport>,
) {
    let elements = &array.elements;
    let element_seen = elements.ranked_types().first().map(|(t, _)| *t);
    let items = match element_seen {
        None => {
            assumed.push(Text::new("infer-assumed-empty-arrays"));
            BsonType::Null
        }
        Some("array") => {
            assumed.push(Text::new("infer-assumed-nested-arrays"));
            BsonType::Null
        }
        Some(_) => {
            let element = value_field(elements, &format!("{path}.[]"), 1.0, rows);
            field.length = element.length;
            field.fields = element.fields;
            field.min = element.min;
            field.max = element.max;
            field.kind = element.kind;
            field.values = element.values;
            field.from = element.from;
            field.to = element.to;
            element.ty
        }
    };
    field.items = Some(items);
}

/// Returns the model type for a `$type` alias, noting the types a model cannot hold.
fn model_type(alias: &str, assumed: &mut Vec<Text>) -> BsonType {
    if let Some(t) = BsonType::from_alias(alias) {
        return t;
    }
    let (t, why) = match alias {
        "symbol" => (BsonType::String, "infer-assumed-symbol"),
        "javascriptWithScope" => (BsonType::JavaScript, "infer-assumed-code-with-scope"),
        "dbPointer" => (BsonType::ObjectId, "infer-assumed-db-pointer"),
        _ => (BsonType::Null, "infer-assumed-undefined"),
    };
    assumed.push(Text::new(why));
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
