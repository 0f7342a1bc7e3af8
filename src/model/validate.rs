//! Validation of a model as JSON: unknown keys, wrong types, dangling references and
//! impossible numbers, all collected (not stopping at the first) with their JSON paths.

use serde_json::{Map, Value};

mod collation;
mod design;
mod lifecycle;
pub(crate) mod timeseries;
mod workload;

use super::design::DesignName;
use super::distribution::Shape;
use super::field::{BsonType, ValueKind};
use super::{ModelError, MAX_COUNT};
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

    /// Checks the preset metadata: required texts, the source, and that every offered design
    /// is a named one or defined in `custom_designs` (each checked like `design`).
    fn preset(&mut self, v: &Value, entities: &[EntityInfo], rels: &[RelInfo]) {
        const KEYS: &[&str] = &[
            "title",
            "lesson",
            "source",
            "explanation",
            "scale_note",
            "designs",
            "custom_designs",
            "design_sharding",
            "design_labels",
        ];
        const REQUIRED: &[&str] = &[
            "title",
            "lesson",
            "source",
            "explanation",
            "scale_note",
            "designs",
        ];
        let Some(m) = self.object(v, "$.preset", KEYS, REQUIRED) else {
            return;
        };
        for k in ["title", "lesson", "explanation", "scale_note"] {
            if self
                .string(m, k, "$.preset")
                .is_some_and(|s| s.trim().is_empty())
            {
                self.err(&format!("$.preset.{k}"), Text::new("empty"));
            }
        }
        if let Some(lesson) = m.get("lesson").and_then(Value::as_str) {
            if lesson.contains('\n') {
                self.err("$.preset.lesson", Text::new("lesson-multiline"));
            }
        }
        if let Some(s) = m.get("source") {
            // An article of the seeds, or a published page with its title and address.
            let required: &[&str] = if s.get("title").is_some() && s.get("article").is_none() {
                &["title", "url"]
            } else {
                &["article"]
            };
            let allowed = ["article", "tips", "title", "url"];
            if let Some(sm) = self.object(s, "$.preset.source", &allowed, required) {
                for k in ["article", "title", "url"] {
                    self.string(sm, k, "$.preset.source");
                }
                if let Some(tips) = self.array(sm, "tips", "$.preset.source") {
                    for (i, t) in tips.iter().enumerate() {
                        if t.as_u64().is_none() {
                            self.err(
                                &format!("$.preset.source.tips[{i}]"),
                                Text::new("expected-tip-number").nested("found", describe(t)),
                            );
                        }
                    }
                }
            }
        }
        let mut custom: Vec<String> = Vec::new();
        if let Some(c) = m.get("custom_designs") {
            match c.as_object() {
                Some(cm) => {
                    for (name, d) in cm {
                        if DesignName::from_name(name).is_some() {
                            self.err(
                                &format!("$.preset.custom_designs.{name}"),
                                Text::new("custom-design-named").arg("name", name),
                            );
                        }
                        if ["custom", "model"].contains(&name.as_str()) {
                            self.err(
                                &format!("$.preset.custom_designs.{name}"),
                                Text::new("custom-design-reserved").arg("name", name),
                            );
                        }
                        self.design_at(
                            d,
                            &format!("$.preset.custom_designs.{name}"),
                            entities,
                            rels,
                        );
                        custom.push(name.clone());
                    }
                }
                None => self.err(
                    "$.preset.custom_designs",
                    Text::new("expected-object").nested("found", describe(c)),
                ),
            }
        }
        let offered: Vec<String> = m
            .get("designs")
            .and_then(Value::as_array)
            .map(|l| {
                l.iter()
                    .filter_map(|d| d.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        if let Some(ds) = m.get("design_sharding") {
            match ds.as_object() {
                Some(dm) => {
                    for (name, sh) in dm {
                        let p = format!("$.preset.design_sharding.{name}");
                        if !offered.contains(name) {
                            self.err(&p, Text::new("not-offered-design").arg("name", name));
                        }
                        self.sharding(sh, &p);
                    }
                }
                None => self.err(
                    "$.preset.design_sharding",
                    Text::new("expected-object").nested("found", describe(ds)),
                ),
            }
        }
        if let Some(dl) = m.get("design_labels") {
            self.design_labels(dl, &offered);
        }
        if let Some(list) = self.array(m, "designs", "$.preset") {
            if list.is_empty() {
                self.err("$.preset.designs", Text::new("no-designs"));
            }
            for (i, d) in list.iter().enumerate() {
                let p = format!("$.preset.designs[{i}]");
                match d.as_str() {
                    Some(n)
                        if DesignName::from_name(n).is_some() || custom.iter().any(|c| c == n) => {}
                    Some(n) => self.err(
                        &p,
                        Text::new("unknown-design").arg("name", n).arg(
                            "expected",
                            design_names()
                                .map(str::to_string)
                                .chain(custom.iter().cloned())
                                .collect::<Vec<_>>()
                                .join(", "),
                        ),
                    ),
                    None => self.err(
                        &p,
                        Text::new("expected-design-name").nested("found", describe(d)),
                    ),
                }
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

    fn entity(&mut self, v: &Value, path: &str) -> Option<EntityInfo> {
        let m = self.object(v, path, &["name", "count", "fields"], &["name", "count"])?;
        let name = self.string(m, "name", path).map(str::to_string);
        if let Some(x) = self.number(m, "count", path, true) {
            self.at_most(x, MAX_COUNT, &format!("{path}.count"));
        }
        let mut fields = vec!["_id".to_string()];
        if let Some(f) = m.get("fields") {
            fields.extend(self.fields(f, &format!("{path}.fields"), 1));
        }
        let of_types = |types: &[&str]| -> Vec<String> {
            m.get("fields")
                .and_then(Value::as_object)
                .map(|o| {
                    o.iter()
                        .filter(|(_, f)| {
                            f.get("type")
                                .and_then(Value::as_str)
                                .is_some_and(|t| types.contains(&t))
                        })
                        .map(|(k, _)| k.clone())
                        .collect()
                })
                .unwrap_or_default()
        };
        let files = of_types(&["binData", "string"]);
        let dates = of_types(&["date"]);
        let keys = of_types(&KEY_TYPES);
        let strings = of_types(&["string"]);
        Some(EntityInfo {
            name: name?,
            fields,
            files,
            dates,
            keys,
            strings,
        })
    }

    /// Checks a `fields` object and returns the field names.
    fn fields(&mut self, v: &Value, path: &str, depth: usize) -> Vec<String> {
        let Some(m) = v.as_object() else {
            self.err(
                path,
                Text::new("expected-fields-object").nested("found", describe(v)),
            );
            return Vec::new();
        };
        if m.len() > MAX_FIELDS {
            self.err(
                path,
                Text::new("too-many-fields")
                    .arg("max", MAX_FIELDS)
                    .arg("count", m.len()),
            );
            return Vec::new();
        }
        for (name, f) in m {
            if name.is_empty() {
                self.err(path, Text::new("empty-field-name"));
            } else if name.starts_with('$') || name.contains('.') || name.contains('\0') {
                self.err(&format!("{path}.{name}"), Text::new("bad-field-name"));
            }
            self.field(f, &format!("{path}.{name}"), depth);
        }
        m.keys().cloned().collect()
    }

    fn field(&mut self, v: &Value, path: &str, depth: usize) {
        let Some(m) = self.object(v, path, FIELD_KEYS, &["type"]) else {
            return;
        };
        let ty = self.bson_type(m, "type", path);
        let items = self.bson_type(m, "items", path);
        if let Some(k) = self.string(m, "kind", path) {
            if ValueKind::from_name(k).is_none() {
                let all: Vec<_> = ValueKind::ALL.into_iter().map(ValueKind::name).collect();
                self.err(
                    &format!("{path}.kind"),
                    Text::new("unknown-kind")
                        .arg("kind", k)
                        .arg("expected", all.join(", ")),
                );
            }
            if k == "enum" && !m.contains_key("values") {
                self.err(&format!("{path}.values"), Text::new("enum-needs-values"));
            }
        }
        if let Some(vals) = self.array(m, "values", path) {
            if vals.is_empty() {
                self.err(&format!("{path}.values"), Text::new("empty"));
            }
            for (i, x) in vals.iter().enumerate() {
                if !x.is_string() {
                    self.err(
                        &format!("{path}.values[{i}]"),
                        Text::new("expected-string").nested("found", describe(x)),
                    );
                }
            }
        }
        if let Some(p) = self.number(m, "presence", path, true) {
            if p > 1.0 {
                self.err(
                    &format!("{path}.presence"),
                    Text::new("probability-range").arg("value", p),
                );
            }
        }
        let lo = self.number(m, "min", path, false);
        let hi = self.number(m, "max", path, false);
        if let (Some(lo), Some(hi)) = (lo, hi) {
            if lo > hi {
                self.err(
                    &format!("{path}.min"),
                    Text::new("min-over-max").arg("min", lo).arg("max", hi),
                );
            }
        }
        self.date(m, "from", path);
        self.date(m, "to", path);
        self.boolean(m, "independent", path);
        self.boolean(m, "values_open", path);
        let elem = if ty == Some(BsonType::Array) {
            items
        } else {
            ty
        };
        if let Some(l) = m.get("length") {
            self.distribution(l, &format!("{path}.length"));
            if let Some(t) = elem {
                if !t.has_length() {
                    self.err(
                        &format!("{path}.length"),
                        Text::new("no-length").arg("type", t.alias()),
                    );
                }
            }
        }
        match ty {
            Some(BsonType::Array) => {
                match items {
                    None if !m.contains_key("items") => {
                        self.err(&format!("{path}.items"), Text::new("array-needs-items"))
                    }
                    Some(BsonType::Array) => {
                        self.err(&format!("{path}.items"), Text::new("nested-arrays"))
                    }
                    _ => {}
                }
                match m.get("count") {
                    Some(c) => self.distribution(c, &format!("{path}.count")),
                    None => self.err(&format!("{path}.count"), Text::new("array-needs-count")),
                }
            }
            Some(_) if m.contains_key("count") => {
                self.err(&format!("{path}.count"), Text::new("count-on-non-array"));
            }
            _ => {}
        }
        if elem == Some(BsonType::Object) {
            match m.get("fields") {
                Some(f) => {
                    self.fields(f, &format!("{path}.fields"), depth + 1);
                }
                None => self.err(&format!("{path}.fields"), Text::new("object-needs-fields")),
            }
        } else if m.contains_key("fields") && elem.is_some() {
            self.err(&format!("{path}.fields"), Text::new("fields-on-non-object"));
        }
    }

    fn bson_type(&mut self, m: &Map<String, Value>, key: &str, path: &str) -> Option<BsonType> {
        let s = self.string(m, key, path)?;
        let t = BsonType::from_alias(s);
        if t.is_none() {
            let all: Vec<_> = BsonType::ALL.iter().map(|t| t.alias()).collect();
            self.err(
                &format!("{path}.{key}"),
                Text::new("unknown-bson-type")
                    .arg("type", s)
                    .arg("expected", all.join(", ")),
            );
        }
        t
    }

    fn distribution(&mut self, v: &Value, path: &str) {
        let Some(m) = v.as_object() else {
            self.err(
                path,
                Text::new("expected-distribution").nested("found", describe(v)),
            );
            return;
        };
        let shapes = || Shape::ALL.into_iter().map(Shape::name);
        let Some(shape) = self.string(m, "shape", path) else {
            if !m.contains_key("shape") {
                self.err(
                    &format!("{path}.shape"),
                    Text::new("missing-shape")
                        .arg("expected", shapes().collect::<Vec<_>>().join(", ")),
                );
            }
            return;
        };
        let Some(known) = Shape::from_name(shape) else {
            self.err(
                &format!("{path}.shape"),
                Text::new("unknown-shape")
                    .arg("shape", shape)
                    .nested("expected", or_list(shapes())),
            );
            return;
        };
        let keys: Vec<&str> = std::iter::once("shape")
            .chain(known.keys().iter().copied())
            .collect();
        let keys = keys.as_slice();
        self.object(v, path, keys, keys);
        let n = |c: &mut Self, k: &str| {
            let x = c.number(m, k, path, k != "mean")?;
            c.at_most(x, MAX_COUNT, &format!("{path}.{k}"))
        };
        let min = if keys.contains(&"min") {
            n(self, "min")
        } else {
            Some(0.0)
        };
        let max = if keys.contains(&"max") {
            n(self, "max")
        } else {
            None
        };
        let typical = if keys.contains(&"typical") {
            n(self, "typical")
        } else {
            None
        };
        let p99 = if keys.contains(&"p99") {
            n(self, "p99")
        } else {
            None
        };
        if shape == "fixed" {
            n(self, "value");
        }
        if shape == "normal" {
            n(self, "mean");
            n(self, "sd");
        }
        if let (Some(lo), Some(hi)) = (min, max) {
            if lo > hi {
                self.err(
                    &format!("{path}.min"),
                    Text::new("min-over-max").arg("min", lo).arg("max", hi),
                );
            }
        }
        if let (Some(p), Some(hi)) = (p99, max) {
            if p > hi {
                self.err(
                    &format!("{path}.p99"),
                    Text::new("p99-over-max").arg("p99", p).arg("max", hi),
                );
            }
        }
        if let (Some(t), Some(p)) = (typical, p99) {
            if t > p {
                self.err(
                    &format!("{path}.typical"),
                    Text::new("typical-over-p99")
                        .arg("typical", t)
                        .arg("p99", p),
                );
            }
        }
        if let Some(t) = typical {
            if t <= 0.0 {
                self.err(
                    &format!("{path}.typical"),
                    Text::new("typical-not-positive"),
                );
            }
            if let (Some(lo), true) = (min, shape == "zipf") {
                if lo > t {
                    self.err(
                        &format!("{path}.min"),
                        Text::new("min-over-typical")
                            .arg("min", lo)
                            .arg("typical", t),
                    );
                }
            }
        }
    }

    fn relationship(&mut self, v: &Value, path: &str, entities: &[EntityInfo]) -> Option<RelInfo> {
        let keys = &[
            "name",
            "parent",
            "child",
            "cardinality",
            "many_to_many",
            "parents_per_child",
            "growth_per_day",
            "field",
            "parent_field",
            "parent_key",
            "child_key",
            "feed",
        ];
        let m = self.object(v, path, keys, &["name", "parent", "child", "cardinality"])?;
        let name = self.string(m, "name", path).map(str::to_string);
        let mut ends = Vec::new();
        for end in ["parent", "child"] {
            if let Some(e) = self.string(m, end, path) {
                if !entities.iter().any(|x| x.name == e) {
                    self.err(
                        &format!("{path}.{end}"),
                        Text::new("unknown-entity").arg("name", e),
                    );
                }
                ends.push(e.to_string());
            }
        }
        if let Some(c) = m.get("cardinality") {
            self.distribution(c, &format!("{path}.cardinality"));
        }
        self.boolean(m, "many_to_many", path);
        let many_to_many = m.get("many_to_many").and_then(Value::as_bool) == Some(true);
        if let Some(d) = m.get("parents_per_child") {
            let dp = format!("{path}.parents_per_child");
            if many_to_many {
                self.distribution(d, &dp);
            } else {
                self.err(&dp, Text::new("parents-per-child-one-to-many"));
            }
        }
        if let Some(g) = m.get("growth_per_day") {
            let gp = format!("{path}.growth_per_day");
            if let Some(gm) = self.object(g, &gp, &["typical", "largest"], &["typical"]) {
                self.number(gm, "typical", &gp, true);
                self.number(gm, "largest", &gp, true);
            }
        }
        self.string(m, "field", path);
        let parent_field = self.string(m, "parent_field", path).map(str::to_string);
        let feed = self.string(m, "feed", path).map(str::to_string);
        if let Some(f) = &feed {
            if !entities.iter().any(|x| &x.name == f) {
                self.err(
                    &format!("{path}.feed"),
                    Text::new("unknown-entity").arg("name", f),
                );
            }
        }
        let (parent, child) = match ends.as_slice() {
            [p, c] => (p.clone(), c.clone()),
            _ => return None,
        };
        for (key, end) in [("parent_key", &parent), ("child_key", &child)] {
            let Some(k) = self.string(m, key, path) else {
                continue;
            };
            let Some(e) = entities.iter().find(|e| &e.name == end) else {
                continue;
            };
            if !e.fields.iter().any(|f| f == k) {
                self.err(
                    &format!("{path}.{key}"),
                    Text::new("no-such-field")
                        .arg("entity", end.as_str())
                        .arg("field", k),
                );
            } else if k != "_id" && !e.keys.iter().any(|f| f == k) {
                self.err(
                    &format!("{path}.{key}"),
                    Text::new("bad-key-type").arg("field", k),
                );
            }
        }
        Some(RelInfo {
            name: name?,
            parent_ref: parent_field.unwrap_or_else(|| format!("{parent}Id")),
            parent,
            child,
            feed: feed.is_some(),
            many_to_many,
            tree: false,
        })
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
