//! Validation of a model as JSON: unknown keys, wrong types, dangling references and
//! impossible numbers, all collected (not stopping at the first) with their JSON paths.
//!
//! One `Checker` walks the model; this file holds its readers of JSON values and the model's
//! top level, each part of the model its own file: entities and fields (`fields.rs`),
//! relationships (`relationship.rs`), the workload (`workload.rs`), designs (`design.rs`),
//! the preset's metadata (`preset.rs`), the lifecycle and time-series patterns
//! (`lifecycle.rs`, `timeseries.rs`) and collations (`collation.rs`).

use serde_json::{Map, Value};

mod collation;
mod design;
mod fields;
mod lifecycle;
mod preset;
mod relationship;
pub(crate) mod timeseries;
mod workload;

use super::design::DesignName;
use super::ModelError;
use crate::lang::Text;

const TOP: &[&str] = &[
    "name",
    "description",
    "seed",
    "start_date",
    "sample",
    "entities",
    "relationships",
    "workload",
    "sharding",
    "ram_gb",
    "design",
    "preset",
];
const FIELD_KEYS: &[&str] = &[
    "type",
    "items",
    "kind",
    "length",
    "count",
    "fields",
    "presence",
    "values",
    "min",
    "max",
    "from",
    "to",
    "independent",
    "values_open",
];

/// The most entities a model may declare (each is a collection in the normalized design, and
/// every design compares entities pairwise): far more than any schema worth designing by hand,
/// few enough that a pasted or linked model of 100,000 entities cannot hang the page.
pub const MAX_ENTITIES: usize = 1_000;

/// The most relationships a model may declare (same reason as [`MAX_ENTITIES`]).
pub const MAX_RELATIONSHIPS: usize = 1_000;

/// The most fields one object of a model may declare (an entity's or a sub-document's):
/// MongoDB has no such limit, but a document of more than 10,000 top-level fields is not a
/// design, and every field is laid out, sized and generated for every design.
pub const MAX_FIELDS: usize = 10_000;

/// Returns every problem in `v` (empty when the model is valid).
pub fn validate(v: &Value) -> Vec<ModelError> {
    let mut c = Checker { errors: Vec::new() };
    c.model(v);
    c.errors
}

struct Checker {
    errors: Vec<ModelError>,
}

/// The most shards a model may have. MongoDB sets no hard limit, but the evaluation reports
/// each shard's documents and bytes, and the largest clusters run hundreds of shards.
pub const MAX_SHARDS: u64 = 1_000;

/// The longest design label a preset may give (`$.preset.design_labels`): a design button
/// holds about this many characters on one line at 1280 px.
pub const DESIGN_LABEL_MAX: usize = 40;

/// What the reference checks need to know about one entity.
struct EntityInfo {
    name: String,
    fields: Vec<String>,
    /// The top-level fields of type `binData` or `string`: those a GridFS or object-storage
    /// pattern may store outside the document.
    files: Vec<String>,
    /// The top-level fields of type `date`: a time series' `timeField` is the first.
    dates: Vec<String>,
    /// The top-level fields a reference may name as a key (`parent_key`, `child_key`): of a
    /// scalar type whose values can be unique (numbers, strings, ObjectIds).
    keys: Vec<String>,
    /// The top-level fields of type `string`: those whose values may name a map's entries.
    strings: Vec<String>,
}

/// Returns the `(entity, field)` of every `preallocated` field pattern in the raw model: its
/// design's and its preset's custom designs'.
fn preallocated_fields(m: &Map<String, Value>) -> Vec<(String, String)> {
    let mut specs: Vec<&Value> = m.get("design").into_iter().collect();
    if let Some(Value::Object(custom)) = m.get("preset").and_then(|p| p.get("custom_designs")) {
        specs.extend(custom.values());
    }
    specs
        .into_iter()
        .filter_map(|d| d.get("fields").and_then(Value::as_array))
        .flatten()
        .filter(|p| p.get("pattern").and_then(Value::as_str) == Some("preallocated"))
        .filter_map(|p| {
            Some((
                p.get("entity")?.as_str()?.to_string(),
                p.get("field")?.as_str()?.to_string(),
            ))
        })
        .collect()
}

/// What the reference checks need to know about one relationship.
struct RelInfo {
    name: String,
    parent: String,
    child: String,
    feed: bool,
    /// Many-to-many.
    many_to_many: bool,
    /// The parent reference a child holds (`parent_field`, default parent name + `Id`).
    parent_ref: String,
    /// A tree: one-to-many from an entity to itself, named by a tree step of the workload.
    tree: bool,
}

/// Returns the relationships the tree steps of the workload name (`read_subtree`, …).
fn tree_step_relationships(m: &Map<String, Value>) -> Vec<&str> {
    m.get("workload")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|u| u.get("steps").and_then(Value::as_array))
        .flatten()
        .filter(|s| {
            s.get("op")
                .and_then(Value::as_str)
                .and_then(crate::model::workload::Op::from_name)
                .is_some_and(crate::model::workload::Op::is_tree)
        })
        .filter_map(|s| s.get("relationship").and_then(Value::as_str))
        .collect()
}

/// Returns `names` as the end of a sentence, a clause of its own: `a, b or c` (`a, b 或 c`).
fn or_list<'a>(names: impl IntoIterator<Item = &'a str>) -> Text {
    let names: Vec<&str> = names.into_iter().collect();
    match names.split_last() {
        Some((last, [])) => Text::new("problem-alternative").arg("name", last),
        Some((last, rest)) => Text::new("problem-alternatives")
            .arg("rest", rest.join(", "))
            .arg("last", last),
        None => Text::new("problem-alternative").arg("name", ""),
    }
}

/// Returns every named design's name, in [`DesignName::ALL`]'s order.
fn design_names() -> impl Iterator<Item = &'static str> {
    DesignName::ALL.into_iter().map(DesignName::as_str)
}

/// Returns the kind of JSON value `v` is, as a clause a problem's `found` nests ("an object").
fn describe(v: &Value) -> Text {
    Text::new(match v {
        Value::Null => "problem-kind-null",
        Value::Bool(_) => "problem-kind-boolean",
        Value::Number(_) => "problem-kind-number",
        Value::String(_) => "problem-kind-string",
        Value::Array(_) => "problem-kind-array",
        Value::Object(_) => "problem-kind-object",
    })
}

impl Checker {
    /// Reports `problem` (its id the problem's code, docs/problems.md) at `path`.
    fn err(&mut self, path: &str, problem: Text) {
        self.errors.push(ModelError::new(path, problem));
    }

    /// Checks that `v` is an object with only `allowed` keys and all `required` ones.
    fn object<'a>(
        &mut self,
        v: &'a Value,
        path: &str,
        allowed: &[&str],
        required: &[&str],
    ) -> Option<&'a Map<String, Value>> {
        let Some(m) = v.as_object() else {
            self.err(
                path,
                Text::new("expected-object").nested("found", describe(v)),
            );
            return None;
        };
        for k in m.keys() {
            if !allowed.contains(&k.as_str()) {
                self.err(
                    &format!("{path}.{k}"),
                    Text::new("unknown-key")
                        .arg("key", k)
                        .arg("expected", allowed.join(", ")),
                );
            }
        }
        for r in required {
            if !m.contains_key(*r) {
                self.err(
                    &format!("{path}.{r}"),
                    Text::new("missing-key").arg("key", r),
                );
            }
        }
        Some(m)
    }

    fn string<'a>(&mut self, m: &'a Map<String, Value>, key: &str, path: &str) -> Option<&'a str> {
        let v = m.get(key)?;
        match v.as_str() {
            Some(s) => Some(s),
            None => {
                self.err(
                    &format!("{path}.{key}"),
                    Text::new("expected-string").nested("found", describe(v)),
                );
                None
            }
        }
    }

    /// Returns `x` when it is at most `max` (in absolute value); reports it otherwise.
    fn at_most(&mut self, x: f64, max: f64, path: &str) -> Option<f64> {
        if x.abs() > max {
            self.err(
                path,
                Text::new("too-large")
                    .arg("max", format!("{max:e}"))
                    .arg("value", format!("{x:e}")),
            );
            return None;
        }
        Some(x)
    }

    fn boolean(&mut self, m: &Map<String, Value>, key: &str, path: &str) {
        if let Some(v) = m.get(key) {
            if !v.is_boolean() {
                self.err(
                    &format!("{path}.{key}"),
                    Text::new("expected-boolean").nested("found", describe(v)),
                );
            }
        }
    }

    /// Returns a finite number at `key`, reporting wrong types, NaN and negatives (when
    /// `nonneg`).
    fn number(
        &mut self,
        m: &Map<String, Value>,
        key: &str,
        path: &str,
        nonneg: bool,
    ) -> Option<f64> {
        let v = m.get(key)?;
        let p = format!("{path}.{key}");
        let Some(n) = v.as_f64() else {
            let msg = if v.as_str().is_some_and(|s| s.eq_ignore_ascii_case("nan")) {
                Text::new("nan")
            } else {
                Text::new("expected-number").nested("found", describe(v))
            };
            self.err(&p, msg);
            return None;
        };
        if !n.is_finite() {
            self.err(&p, Text::new("not-finite"));
            return None;
        }
        if nonneg && n < 0.0 {
            self.err(&p, Text::new("negative").arg("value", n));
            return None;
        }
        Some(n)
    }

    fn integer(
        &mut self,
        m: &Map<String, Value>,
        key: &str,
        path: &str,
        at_least: u64,
    ) -> Option<u64> {
        let v = m.get(key)?;
        let p = format!("{path}.{key}");
        match v.as_u64() {
            Some(n) if n >= at_least => Some(n),
            Some(n) => {
                self.err(
                    &p,
                    Text::new("below-minimum")
                        .arg("min", at_least)
                        .arg("value", n),
                );
                None
            }
            None => {
                self.err(
                    &p,
                    describe_num(Text::new("expected-whole-number").arg("min", at_least), v),
                );
                None
            }
        }
    }

    fn array<'a>(
        &mut self,
        m: &'a Map<String, Value>,
        key: &str,
        path: &str,
    ) -> Option<&'a Vec<Value>> {
        let v = m.get(key)?;
        match v.as_array() {
            Some(a) => Some(a),
            None => {
                self.err(
                    &format!("{path}.{key}"),
                    Text::new("expected-array").nested("found", describe(v)),
                );
                None
            }
        }
    }

    fn date(&mut self, m: &Map<String, Value>, key: &str, path: &str) {
        if let Some(s) = self.string(m, key, path) {
            if crate::date::parse_date(s).is_none() {
                self.err(
                    &format!("{path}.{key}"),
                    Text::new("expected-date").arg("value", s),
                );
            }
        }
    }

    fn model(&mut self, v: &Value) {
        let Some(m) = self.object(v, "$", TOP, &["entities"]) else {
            return;
        };
        self.string(m, "name", "$");
        self.string(m, "description", "$");
        self.integer(m, "seed", "$", 0);
        self.date(m, "start_date", "$");
        if let Some(s) = m.get("sample") {
            if let Some(sm) = self.object(s, "$.sample", &["scale", "max_documents"], &[]) {
                if let Some(x) = self.number(sm, "scale", "$.sample", true) {
                    if x == 0.0 || x > 1.0 {
                        self.err(
                            "$.sample.scale",
                            Text::new("sample-scale-range").arg("value", x),
                        );
                    }
                }
                if let Some(n) = self.integer(sm, "max_documents", "$.sample", 1) {
                    let cap = super::Sample::MAX_MAX_DOCUMENTS;
                    if n > cap {
                        self.err(
                            "$.sample.max_documents",
                            Text::new("sample-too-large")
                                .arg("max", cap)
                                .arg("value", n),
                        );
                    }
                }
            }
        }
        let mut entities = Vec::new();
        if let Some(list) = self.array(m, "entities", "$") {
            if list.len() > MAX_ENTITIES {
                self.err(
                    "$.entities",
                    Text::new("too-many-entities")
                        .arg("max", MAX_ENTITIES)
                        .arg("count", list.len()),
                );
                return;
            }
            for (i, e) in list.iter().enumerate() {
                if let Some(info) = self.entity(e, &format!("$.entities[{i}]")) {
                    if entities.iter().any(|x: &EntityInfo| x.name == info.name) {
                        self.err(
                            &format!("$.entities[{i}].name"),
                            Text::new("duplicate-entity").arg("name", &info.name),
                        );
                    }
                    entities.push(info);
                }
            }
        }
        let mut rels = Vec::new();
        if let Some(list) = self.array(m, "relationships", "$") {
            if list.len() > MAX_RELATIONSHIPS {
                self.err(
                    "$.relationships",
                    Text::new("too-many-relationships")
                        .arg("max", MAX_RELATIONSHIPS)
                        .arg("count", list.len()),
                );
                return;
            }
            for (i, r) in list.iter().enumerate() {
                if let Some(info) =
                    self.relationship(r, &format!("$.relationships[{i}]"), &entities)
                {
                    if rels.iter().any(|x: &RelInfo| x.name == info.name) {
                        self.err(
                            &format!("$.relationships[{i}].name"),
                            Text::new("duplicate-relationship").arg("name", &info.name),
                        );
                    }
                    rels.push(info);
                }
            }
        }
        // A pre-allocated counter object (a field pattern of the model's design or of a
        // preset's custom design) is a field the workload may update, even in a design that
        // creates its counters on demand.
        for (entity, field) in preallocated_fields(m) {
            if let Some(e) = entities.iter_mut().find(|e| e.name == entity) {
                if !e.fields.contains(&field) {
                    e.fields.push(field);
                }
            }
        }
        let tree_steps = tree_step_relationships(m);
        for r in &mut rels {
            r.tree = r.parent == r.child
                && !r.many_to_many
                && !r.feed
                && tree_steps.contains(&r.name.as_str());
        }
        if let Some(list) = self.array(m, "workload", "$") {
            for (i, u) in list.iter().enumerate() {
                self.unit(u, &format!("$.workload[{i}]"), &entities, &rels);
            }
        }
        if let Some(s) = m.get("sharding") {
            self.sharding(s, "$.sharding");
        }
        if let Some(r) = self.number(m, "ram_gb", "$", true) {
            if !(r > 0.0 && r <= 1e6) {
                self.err("$.ram_gb", Text::new("ram-range").arg("value", r));
            }
        }
        if let Some(d) = m.get("design") {
            self.design(d, &entities, &rels);
        }
        if let Some(p) = m.get("preset") {
            self.preset(p, &entities, &rels);
        }
    }

    /// Checks a sharding object (shard count and shard keys) at `path`.
    fn sharding(&mut self, s: &Value, path: &str) {
        if let Some(sm) = self.object(s, path, &["shards", "keys"], &["shards"]) {
            if let Some(n) = self.integer(sm, "shards", path, 1) {
                if n > MAX_SHARDS {
                    self.err(
                        &format!("{path}.shards"),
                        Text::new("too-many-shards")
                            .arg("max", MAX_SHARDS)
                            .arg("value", n),
                    );
                }
            }
            if let Some(k) = sm.get("keys") {
                if let Some(km) = k.as_object() {
                    for (coll, key) in km {
                        self.shard_key(key, &format!("{path}.keys.{coll}"));
                    }
                } else {
                    self.err(
                        &format!("{path}.keys"),
                        Text::new("expected-object").nested("found", describe(k)),
                    );
                }
            }
        }
    }

    /// Checks `$.preset.design_labels`: each key an offered design, each label a non-empty
    /// text short enough for a design button (at most [`DESIGN_LABEL_MAX`] characters).
    fn design_labels(&mut self, v: &Value, offered: &[String]) {
        let Some(labels) = v.as_object() else {
            self.err(
                "$.preset.design_labels",
                Text::new("expected-object").nested("found", describe(v)),
            );
            return;
        };
        for (name, label) in labels {
            let p = format!("$.preset.design_labels.{name}");
            if !offered.contains(name) {
                self.err(&p, Text::new("not-offered-design").arg("name", name));
            }
            match label.as_str() {
                Some(t) if t.trim().is_empty() => self.err(&p, Text::new("empty")),
                Some(t) if t.chars().count() > DESIGN_LABEL_MAX => self.err(
                    &p,
                    Text::new("design-label-too-long").arg("max", DESIGN_LABEL_MAX),
                ),
                Some(_) => {}
                None => self.err(
                    &p,
                    Text::new("expected-string").nested("found", describe(label)),
                ),
            }
        }
    }

    fn shard_key(&mut self, v: &Value, path: &str) {
        let Some(m) = v.as_object() else {
            self.err(
                path,
                Text::new("expected-shard-key").nested("found", describe(v)),
            );
            return;
        };
        if m.is_empty() {
            self.err(path, Text::new("empty-shard-key"));
        }
        for (k, x) in m {
            let ok = x.as_i64().is_some_and(|n| n == 1) || x.as_str() == Some("hashed");
            if !ok {
                self.err(&format!("{path}.{k}"), Text::new("shard-key-value"));
            }
        }
    }
}

/// The BSON types of a field a reference may name as its key (`parent_key`, `child_key`).
const KEY_TYPES: [&str; 6] = ["int", "long", "double", "decimal", "string", "objectId"];

/// Returns `problem` with `found` set to what `v` is: the number itself, else its kind.
fn describe_num(problem: Text, v: &Value) -> Text {
    match v {
        Value::Number(n) => problem.arg("found", n),
        other => problem.nested("found", describe(other)),
    }
}
