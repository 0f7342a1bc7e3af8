//! Shapes become the model's workload steps, with their measured rates.
//!
//! | shape | step |
//! | --- | --- |
//! | find (or aggregate's `$match`) with equalities, no sort | `read` by the equality (`_id` first when it is one) |
//! | find with a sort | `list` by the first equality, sorted by the first sort key, limit the largest seen (20 without) |
//! | find with only ranges or `$in`s | `list` sorted by the first field compared (assumed) |
//! | find by `<array>.<field>`, the array of a relationship of the entity (with documents) | `find_parents` through it by the field |
//! | find of everything | `list` sorted by `_id` (assumed) |
//! | insert | `insert`, or `insert_child` of the one relationship whose child it is |
//! | update, findAndModify | `update` of the first field set (`also` the others; `increment` when all are `$inc`); a `$push`/`$addToSet` to a relationship's array: `insert_child` |
//! | delete, findAndModify with `remove` | `delete` |
//! | count, distinct, update pipelines | none: the model has no such operation (reported) |
//!
//! Whatever the step cannot say (other conditions of the filter, more sort keys, an upsert,
//! the pipeline's other stages) is listed as assumed in the shape's row. Shapes that become
//! the same step are one unit, their rates added. A dotted field (`minutes.180`) is its
//! top-level field (`minutes`): the model's fields and patterns are top-level.

pub mod children;

use serde::Serialize;
use serde_json::{json, Map, Value};

use super::entry::Kind;
use super::group::{ShapeKey, ShapeStats};
use super::LogWorkload;
use crate::model::Model;

/// The entity count of a collection known only from the logs when no collection scan shows
/// its size (as `squillion infer` assumes of a SQL table).
pub const ASSUMED_COUNT: f64 = 1_000.0;

/// The page size of a `list` whose find has no limit (the model's default).
pub const DEFAULT_LIMIT: u64 = 20;

/// One plan and how often it was used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlanCount {
    /// The plan summary.
    pub plan: String,
    /// Operations that used it.
    pub count: u64,
}

/// Durations in milliseconds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Durations {
    /// The shortest.
    pub min: u64,
    /// The median (within 1%).
    pub p50: u64,
    /// The 95th percentile (within 1%).
    pub p95: u64,
    /// The 99th percentile (within 1%).
    pub p99: u64,
    /// The longest.
    pub max: u64,
    /// The mean.
    pub mean: f64,
}

/// Execution times of grouped operations (`$queryStats`' `totalExecMicros`), in
/// milliseconds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupedDurations {
    /// The shortest.
    pub min: f64,
    /// The longest.
    pub max: f64,
    /// The mean.
    pub mean: f64,
}

/// Where something was first seen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SeenAt {
    /// The input.
    pub source: String,
    /// 1-based line.
    pub line: u64,
}

/// One shape, as the report lists it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShapeReport {
    /// `database.collection`.
    pub namespace: String,
    /// The command.
    pub command: Kind,
    /// The filter's shape.
    pub filter: Value,
    /// The sort.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sort: Option<Value>,
    /// The projection.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub projection: Option<Value>,
    /// The update's shape.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub update: Option<Value>,
    /// An aggregation's stages.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pipeline: Option<Vec<String>>,
    /// The largest limit seen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
    /// Operations of this shape.
    pub count: u64,
    /// Operations a second over the logs' span.
    pub rate_per_sec: f64,
    /// Mean `keysExamined` per operation (of those reporting it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keys_examined: Option<f64>,
    /// Mean `docsExamined` per operation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub docs_examined: Option<f64>,
    /// Mean `nreturned` per operation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nreturned: Option<f64>,
    /// The plans used, most used first.
    pub plans: Vec<PlanCount>,
    /// Durations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<Durations>,
    /// Execution times of the operations `$queryStats` entries grouped (no percentiles:
    /// an entry keeps none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grouped_ms: Option<GroupedDurations>,
    /// Its first line.
    pub first_seen: SeenAt,
    /// The workload unit it became.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// What the unit's step assumes of it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub assumed: Vec<String>,
    /// Why it became no unit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_mapped: Option<String>,
    /// The read this shape's operations follow as its children (an application-level join,
    /// [`children`]); its unit is that read's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub children_of: Option<ChildrenOf>,
}

/// The read a shape's operations follow as its children.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChildrenOf {
    /// That read's shape, described ([`ShapeReport::describe`]).
    pub shape: String,
    /// How many of this shape's operations followed it on their connection.
    pub joined: u64,
}

impl ShapeReport {
    /// Returns the shape as the summary says it: command, namespace, filter (but for an
    /// insert), sort, projection, update, pipeline (`find shop.users filter
    /// {"email":"?string"}`).
    pub fn describe(&self) -> String {
        let mut parts = vec![format!("{} {}", self.command.name(), self.namespace)];
        if self.command != Kind::Insert {
            parts.push(format!("filter {}", self.filter));
        }
        if let Some(v) = &self.sort {
            parts.push(format!("sort {v}"));
        }
        if let Some(v) = &self.projection {
            parts.push(format!("projection {v}"));
        }
        if let Some(v) = &self.update {
            parts.push(format!("update {v}"));
        }
        if let Some(p) = &self.pipeline {
            parts.push(format!("pipeline [{}]", p.join(", ")));
        }
        parts.join(" ")
    }
}

/// The step a shape becomes, with what it assumes; or why there is none.
type Mapping = Result<(Value, Vec<String>), String>;

/// The top-level field of a path (`minutes.180` → `minutes`).
fn top(path: &str) -> &str {
    path.split('.').next().unwrap_or(path)
}

/// The fields a filter compares for equality, and those it compares otherwise, in order.
fn filter_fields(filter: &Value) -> (Vec<String>, Vec<String>, Vec<String>) {
    let mut equal = Vec::new();
    let mut other = Vec::new();
    let mut logical = Vec::new();
    let Some(map) = filter.as_object() else {
        return (equal, other, logical);
    };
    for (key, v) in map {
        if key.starts_with('$') {
            logical.push(key.clone());
            continue;
        }
        let is_equality = match v {
            Value::String(_) => true,
            Value::Object(m) => m.len() == 1 && m.contains_key("$eq"),
            _ => false,
        };
        let is_operator = v
            .as_object()
            .is_some_and(|m| m.keys().next().is_some_and(|k| k.starts_with('$')));
        if is_equality || !is_operator {
            equal.push(key.clone());
        } else {
            other.push(key.clone());
        }
    }
    (equal, other, logical)
}

/// The first key and direction of a sort.
fn first_sort(sort: &Value) -> Option<(String, i64)> {
    let (k, v) = sort.as_object()?.iter().next()?;
    let order = if v.as_f64().is_some_and(|x| x < 0.0) {
        -1
    } else {
        1
    };
    Some((k.clone(), order))
}

/// Returns the step a read shape becomes.
fn read_step(entity: &str, key: &ShapeKey, s: &ShapeStats, model: Option<&Model>) -> Mapping {
    let op = &s.operation;
    let (equal, other, logical) = filter_fields(&op.filter);
    let mut assumed = Vec::new();
    if key.kind == Kind::Aggregate {
        let stages = op.pipeline.clone().unwrap_or_default().join(", ");
        assumed.push(format!(
            "an aggregation ({stages}) read as a find of its $match: its other stages are \
             not in the model"
        ));
    }
    if !logical.is_empty() {
        assumed.push(format!("its {} not in the model", logical.join(", ")));
    }
    let by = equal
        .iter()
        .find(|f| f.as_str() == "_id")
        .or(equal.first())
        .cloned();
    let rest: Vec<&String> = equal
        .iter()
        .filter(|f| Some(*f) != by.as_ref())
        .chain(other.iter())
        .collect();
    if !rest.is_empty() {
        let names: Vec<&str> = rest.iter().map(|s| s.as_str()).collect();
        assumed.push(format!(
            "its other conditions ({}) are not in the model",
            names.join(", ")
        ));
    }
    // `{"parts.partno": …}` on the parent of `parts`, whose array is `parts`: the parents
    // whose children have that value.
    if let (Some(path), Some(m), None) = (by.as_deref(), model, &op.sort) {
        if let Some((array, child_field)) = path.split_once('.') {
            let through = m
                .relationships
                .iter()
                .find(|r| r.parent == entity && r.array_field() == array && r.feed.is_none());
            if let Some(r) = through {
                let step =
                    json!({"op": "find_parents", "relationship": r.name, "by": top(child_field)});
                return Ok((step, assumed));
            }
        }
    }
    let by_top = by.as_deref().map(top).map(str::to_string);
    if by.as_deref() != by_top.as_deref() {
        assumed.push(format!(
            "{} read as its top-level field {}",
            by.as_deref().unwrap_or_default(),
            by_top.as_deref().unwrap_or_default()
        ));
    }
    match (&op.sort, by_top) {
        (None, Some(by)) => {
            if op.limit.is_some_and(|l| l > 1) {
                assumed.push(format!(
                    "a read of one {entity}: its limit {} is not in the model",
                    op.limit.unwrap_or_default()
                ));
            }
            Ok((json!({"op": "read", "entity": entity, "by": by}), assumed))
        }
        (sort, by) => {
            let (field, order) = match sort.as_ref().and_then(first_sort) {
                Some(s) => {
                    if sort
                        .as_ref()
                        .and_then(Value::as_object)
                        .is_some_and(|m| m.len() > 1)
                    {
                        assumed.push("sorted by its first sort key only".to_string());
                    }
                    s
                }
                None => match other.first() {
                    Some(f) => {
                        assumed.push(format!(
                            "a find by range on {f} read as a list sorted by {f}"
                        ));
                        (f.clone(), 1)
                    }
                    None => {
                        assumed.push("a find of every document read as a list by _id".into());
                        ("_id".to_string(), 1)
                    }
                },
            };
            let limit = op.limit.unwrap_or_else(|| {
                assumed.push(format!("no limit: a page of {DEFAULT_LIMIT}"));
                DEFAULT_LIMIT
            });
            let mut step = json!({"op": "list", "entity": entity,
                "sort": {"field": top(&field), "order": order}, "limit": limit});
            if let (Some(by), Some(m)) = (by, step.as_object_mut()) {
                m.insert("by".to_string(), Value::String(by));
            }
            let fields = projected(op.projection.as_ref());
            if let (false, Some(m)) = (fields.is_empty(), step.as_object_mut()) {
                m.insert("fields".to_string(), Value::Array(fields));
            }
            Ok((step, assumed))
        }
    }
}

/// The top-level fields a projection includes (none: every field).
fn projected(projection: Option<&Value>) -> Vec<Value> {
    projection
        .and_then(Value::as_object)
        .map(|p| {
            p.iter()
                .filter(|(_, v)| v.as_f64().is_some_and(|x| x > 0.0))
                .map(|(k, _)| Value::String(top(k).to_string()))
                .collect()
        })
        .unwrap_or_default()
}

/// The fields an update document changes, whether all are increments, and pushes.
struct UpdateFields {
    /// Top-level fields changed, in order.
    fields: Vec<String>,
    /// Every operator is `$inc`.
    increment: bool,
    /// Fields `$push`ed or `$addToSet`ed.
    pushed: Vec<String>,
    /// Set without operators (a replacement).
    replacement: bool,
}

/// Reads an update's shape.
fn update_fields(update: &Value) -> Option<UpdateFields> {
    let map = update.as_object()?;
    let replacement = !map.keys().any(|k| k.starts_with('$'));
    let mut out = UpdateFields {
        fields: Vec::new(),
        increment: !replacement,
        pushed: Vec::new(),
        replacement,
    };
    let add = |f: &str, fields: &mut Vec<String>| {
        let f = top(f).to_string();
        if f != "_id" && !fields.contains(&f) {
            fields.push(f);
        }
    };
    for (key, v) in map {
        if replacement {
            add(key, &mut out.fields);
            continue;
        }
        if key != "$inc" {
            out.increment = false;
        }
        for field in v.as_object().map(|m| m.keys()).into_iter().flatten() {
            add(field, &mut out.fields);
            if key == "$push" || key == "$addToSet" {
                add(field, &mut out.pushed);
            }
        }
    }
    Some(out)
}

/// Returns the step a write shape becomes, given the model's relationships (if any).
fn write_step(entity: &str, key: &ShapeKey, s: &ShapeStats, model: Option<&Model>) -> Mapping {
    let op = &s.operation;
    let mut assumed = Vec::new();
    let child_of = |entity: &str| -> Vec<String> {
        model
            .map(|m| {
                m.relationships
                    .iter()
                    .filter(|r| r.child == entity && r.feed.is_none() && r.parent != r.child)
                    .map(|r| r.name.clone())
                    .collect()
            })
            .unwrap_or_default()
    };
    match key.kind {
        Kind::Insert => {
            let relationships = child_of(entity);
            match relationships.as_slice() {
                [] => Ok((json!({"op": "insert", "entity": entity}), assumed)),
                [r, rest @ ..] => {
                    if !rest.is_empty() {
                        assumed.push(format!(
                            "{entity} is the child of {}: inserted into {r}",
                            relationships.join(", ")
                        ));
                    }
                    Ok((json!({"op": "insert_child", "relationship": r}), assumed))
                }
            }
        }
        Kind::Delete => Ok((json!({"op": "delete", "entity": entity}), assumed)),
        Kind::FindAndModify if op.remove => {
            Ok((json!({"op": "delete", "entity": entity}), assumed))
        }
        Kind::Update | Kind::FindAndModify => {
            let Some(u) = op.update.as_ref() else {
                return Err("no update document".to_string());
            };
            if u.is_array() {
                return Err("an update pipeline: the model's update sets fields".to_string());
            }
            let Some(fields) = update_fields(u) else {
                return Err("an update that is not a document".to_string());
            };
            if op.upsert {
                assumed
                    .push("its upsert (an insert when nothing matches) is not in the model".into());
            }
            if fields.replacement {
                assumed.push("a replacement read as an update of its fields".to_string());
            }
            // A push into the array of a relationship of this entity adds a child.
            if let Some(m) = model {
                for pushed in &fields.pushed {
                    if let Some(r) = m
                        .relationships
                        .iter()
                        .find(|r| r.parent == entity && r.array_field() == pushed)
                    {
                        if fields.fields.len() > 1 {
                            assumed.push("its other fields are not in the model".to_string());
                        }
                        return Ok((
                            json!({"op": "insert_child", "relationship": r.name}),
                            assumed,
                        ));
                    }
                }
            }
            let Some((first, also)) = fields.fields.split_first() else {
                return Err("an update that changes no field".to_string());
            };
            let mut step = json!({"op": "update", "entity": entity, "field": first});
            if let Some(m) = step.as_object_mut() {
                if !also.is_empty() {
                    m.insert("also".to_string(), json!(also));
                }
                if fields.increment {
                    m.insert("increment".to_string(), Value::Bool(true));
                }
            }
            assumed.push("copies of it elsewhere are live (the log cannot say)".to_string());
            Ok((step, assumed))
        }
        _ => Err("not a write".to_string()),
    }
}

/// Returns the step `key` becomes (on entity `entity`), with what it assumes.
fn step_of(entity: &str, key: &ShapeKey, s: &ShapeStats, model: Option<&Model>) -> Mapping {
    match key.kind {
        Kind::Find | Kind::Aggregate => read_step(entity, key, s, model),
        Kind::Count => Err("a count: the model has no operation that counts".to_string()),
        Kind::Distinct => Err("a distinct: the model has no operation for it".to_string()),
        _ => write_step(entity, key, s, model),
    }
}

/// The workload read from logs, for a model.
#[derive(Debug, Clone, PartialEq)]
pub struct Mapped {
    /// The workload units (`{name, rate_per_sec, steps}`), rates measured.
    pub units: Vec<Value>,
    /// Every shape, with the unit it became or why none.
    pub shapes: Vec<ShapeReport>,
}

/// Maps every shape of `log` to a unit, on the entity its collection names (`model`, when
/// given, says which relationships a child insert or a push joins).
pub fn map(log: &LogWorkload, model: Option<&Model>) -> Mapped {
    let seconds = log.rate_seconds;
    let steps: Vec<Mapping> = log
        .groups
        .shapes
        .iter()
        .map(|(key, s)| step_of(&s.operation.collection, key, s, model))
        .collect();
    let kept = children::kept(log, model, &steps);
    let mut order: Vec<usize> = (0..log.groups.shapes.len()).collect();
    // Most frequent first, so that a unit is named after its most frequent shape.
    order.sort_by_key(|i| std::cmp::Reverse(log.groups.shapes.get(*i).map_or(0, |(_, s)| s.count)));
    // Each unit: its name, step, operations logged and grouped entries' rate.
    let mut units: Vec<(String, Value, u64, f64)> = Vec::new();
    // Each shape's report, by the shape's index.
    let mut reports: Vec<Option<ShapeReport>> = vec![None; log.groups.shapes.len()];
    for &i in &order {
        let (Some((key, s)), Some(mapping)) = (log.groups.shapes.get(i), steps.get(i)) else {
            continue;
        };
        if kept.iter().any(|k| k.child == i) {
            continue;
        }
        let mut report = shape_report(key, s, seconds);
        match mapping.clone() {
            Ok((mut step, mut assumed)) => {
                let mine: Vec<&children::Kept> = kept.iter().filter(|k| k.parent == i).collect();
                if let (false, Some(m)) = (mine.is_empty(), step.as_object_mut()) {
                    let reads = mine.iter().map(|k| k.children.clone()).collect();
                    m.insert("children".to_string(), Value::Array(reads));
                    assumed.extend(mine.iter().map(|k| k.parent_note.clone()));
                }
                report.assumed = assumed;
                let logged = s.count - s.grouped.0;
                let name = match units.iter_mut().find(|(_, st, _, _)| *st == step) {
                    Some(unit) => {
                        unit.2 += logged;
                        unit.3 += s.grouped.1;
                        unit.0.clone()
                    }
                    None => {
                        let name = unique(unit_name(&step), &units);
                        units.push((name.clone(), step, logged, s.grouped.1));
                        name
                    }
                };
                report.unit = Some(name);
            }
            Err(why) => report.not_mapped = Some(why),
        }
        if let Some(slot) = reports.get_mut(i) {
            *slot = Some(report);
        }
    }
    for k in &kept {
        let (Some((key, s)), Some(parent)) =
            (log.groups.shapes.get(k.child), reports.get(k.parent))
        else {
            continue;
        };
        let mut report = shape_report(key, s, seconds);
        report.unit = parent.as_ref().and_then(|p| p.unit.clone());
        report.children_of = parent.as_ref().map(|p| ChildrenOf {
            shape: p.describe(),
            joined: k.joined,
        });
        report.assumed = vec![k.child_note.clone()];
        if let Some(slot) = reports.get_mut(k.child) {
            *slot = Some(report);
        }
    }
    let shapes = order
        .iter()
        .filter_map(|i| reports.get_mut(*i).and_then(Option::take))
        .collect();
    let units = units
        .into_iter()
        .map(|(name, step, count, grouped)| {
            // A computed parameter, rounded as inference rounds them (infer::tidy); the
            // report's rates are exact.
            let rate = crate::infer::tidy::significant(count as f64 / seconds + grouped);
            json!({"name": name, "rate_per_sec": rate, "steps": [step]})
        })
        .collect();
    Mapped { units, shapes }
}

/// A unit's name from its step: "read user by email", "list order by customer sorted by
/// date", "update user name", "insert order".
fn unit_name(step: &Value) -> String {
    let s = |k: &str| step.get(k).and_then(Value::as_str).unwrap_or_default();
    match s("op") {
        "read" => {
            let children: Vec<&str> = step
                .get("children")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|c| c.get("relationship").and_then(Value::as_str))
                .collect();
            match children.as_slice() {
                [] => format!("read {} by {}", s("entity"), s("by")),
                names => format!(
                    "read {} by {} with {}",
                    s("entity"),
                    s("by"),
                    names.join(", ")
                ),
            }
        }
        "list" => {
            let by = step.get("by").and_then(Value::as_str);
            let sort = step
                .pointer("/sort/field")
                .and_then(Value::as_str)
                .unwrap_or_default();
            match by {
                Some(by) => format!("list {} by {by} sorted by {sort}", s("entity")),
                None => format!("list {} sorted by {sort}", s("entity")),
            }
        }
        "update" => format!("update {} {}", s("entity"), s("field")),
        "insert_child" => format!("insert into {}", s("relationship")),
        "find_parents" => format!("find parents in {} by {}", s("relationship"), s("by")),
        op => format!("{op} {}", s("entity")),
    }
}

/// Returns `name`, or `name (2)`, `name (3)` … when a unit has it.
fn unique(name: String, units: &[(String, Value, u64, f64)]) -> String {
    let taken = |n: &str| units.iter().any(|(u, _, _, _)| u == n);
    if !taken(&name) {
        return name;
    }
    (2..)
        .map(|i| format!("{name} ({i})"))
        .find(|n| !taken(n))
        .unwrap_or(name)
}

/// Returns a shape's operations a second: those logged over the logs' `seconds`, plus the
/// grouped entries' own rates.
fn rate(s: &ShapeStats, seconds: f64) -> f64 {
    (s.count - s.grouped.0) as f64 / seconds + s.grouped.1
}

/// Returns the report row of a shape (its unit filled in later).
fn shape_report(key: &ShapeKey, s: &ShapeStats, seconds: f64) -> ShapeReport {
    let mean = |(sum, n): (u64, u64)| (n > 0).then(|| sum as f64 / n as f64);
    let mut plans: Vec<PlanCount> = s
        .plans
        .iter()
        .map(|(plan, count)| PlanCount {
            plan: plan.clone(),
            count: *count,
        })
        .collect();
    plans.sort_by(|a, b| b.count.cmp(&a.count).then(a.plan.cmp(&b.plan)));
    let d = &s.durations;
    ShapeReport {
        namespace: key.namespace.clone(),
        command: key.kind,
        filter: s.operation.filter.clone(),
        sort: s.operation.sort.clone(),
        projection: s.operation.projection.clone(),
        update: s.operation.update.clone(),
        pipeline: s.operation.pipeline.clone(),
        limit: s.operation.limit,
        count: s.count,
        rate_per_sec: rate(s, seconds),
        keys_examined: mean(s.keys_examined),
        docs_examined: mean(s.docs_examined),
        nreturned: mean(s.nreturned),
        plans,
        duration_ms: (d.count() > 0).then(|| Durations {
            min: d.min(),
            p50: d.quantile(0.5),
            p95: d.quantile(0.95),
            p99: d.quantile(0.99),
            max: d.max(),
            mean: d.mean(),
        }),
        grouped_ms: s.grouped_micros.map(|(sum, n, min, max)| GroupedDurations {
            min: min as f64 / 1000.0,
            max: max as f64 / 1000.0,
            mean: sum as f64 / n as f64 / 1000.0,
        }),
        first_seen: SeenAt {
            source: s.first_seen.0.clone(),
            line: s.first_seen.1,
        },
        unit: None,
        assumed: Vec::new(),
        not_mapped: None,
        children_of: None,
    }
}

/// The entities a log alone implies: one per collection its shapes name, with the fields
/// they compare, sort, project and change (typed by the parameters compared or set, else
/// `string`, assumed), and a count (the largest collection scan's documents, else
/// [`ASSUMED_COUNT`]).
pub fn entities(log: &LogWorkload) -> (Vec<Value>, Vec<String>) {
    let mut entities: Vec<(String, Map<String, Value>, Option<u64>)> = Vec::new();
    let mut assumed = Vec::new();
    for (_, s) in &log.groups.shapes {
        let op = &s.operation;
        let i = match entities.iter().position(|(n, _, _)| *n == op.collection) {
            Some(i) => i,
            None => {
                entities.push((op.collection.clone(), Map::new(), None));
                entities.len() - 1
            }
        };
        let Some((_, fields, count)) = entities.get_mut(i) else {
            continue;
        };
        if let Some(d) = s.collscan_docs {
            *count = Some(count.map_or(d, |c| c.max(d)));
        }
        let mut add = |path: &str, parameter: Option<&Value>| {
            let name = top(path);
            if name.is_empty() || name.starts_with('$') {
                return;
            }
            let dotted = name != path;
            let ty = if dotted {
                Some("object")
            } else {
                parameter
                    .and_then(Value::as_str)
                    .and_then(super::shape::parameter_type)
            };
            match (fields.get(name), ty) {
                (Some(_), None) => {}
                (Some(Value::Object(f)), Some(t)) if f.get("type") == Some(&json!(t)) => {}
                (_, ty) => {
                    let field = match ty {
                        Some("object") => json!({"type": "object", "fields": {}}),
                        ty => json!({"type": ty.unwrap_or("string")}),
                    };
                    fields.insert(name.to_string(), field);
                }
            }
        };
        walk_filter(&op.filter, &mut add);
        for spec in [&op.sort, &op.projection].into_iter().flatten() {
            for k in spec.as_object().map(|m| m.keys()).into_iter().flatten() {
                add(k, None);
            }
        }
        if let Some(Value::Object(u)) = &op.update {
            for (k, v) in u {
                match v {
                    Value::Object(fields) if k.starts_with('$') => {
                        for (f, p) in fields {
                            let p = if k == "$inc" || k == "$mul" {
                                Some(Value::String("?number".into()))
                            } else if k == "$set" || k == "$setOnInsert" {
                                Some(p.clone())
                            } else {
                                None
                            };
                            add(f, p.as_ref());
                        }
                    }
                    other => add(k, Some(other)),
                }
            }
        }
    }
    let values = entities
        .into_iter()
        .map(|(name, mut fields, count)| {
            fields.remove("_id");
            let count = match count {
                Some(c) => {
                    assumed.push(format!(
                        "{name}: {c} documents, the most a collection scan of it examined (a \
                         scan stopped by a limit examines fewer)"
                    ));
                    c as f64
                }
                None => {
                    assumed.push(format!(
                        "{name}: {ASSUMED_COUNT} documents (no collection scan shows its size)"
                    ));
                    ASSUMED_COUNT
                }
            };
            json!({"name": name, "count": count, "fields": fields})
        })
        .collect();
    (values, assumed)
}

/// Calls `add` with every field a filter compares and the parameter it is compared with, in
/// the clauses of `$and`, `$or` and `$nor` too.
fn walk_filter(filter: &Value, add: &mut dyn FnMut(&str, Option<&Value>)) {
    let Some(m) = filter.as_object() else { return };
    for (k, v) in m {
        if k.starts_with('$') {
            for clause in v.as_array().into_iter().flatten() {
                walk_filter(clause, add);
            }
            continue;
        }
        let parameter = match v {
            Value::Object(ops) => ops.values().find(|p| p.is_string()),
            other => Some(other),
        };
        add(k, parameter);
    }
}
