//! The model: what the user describes (entities, relationships, workload, sharding and the
//! chosen design), read from one JSON format shared by the command line and the page.
//!
//! [`parse_model`] checks the whole text and reports every problem at once, each at a JSON
//! path such as `$.relationships[2].cardinality.p99`.

pub mod design;
pub mod distribution;
pub mod edit;
pub mod field;
pub mod lifecycle;
pub mod preset;
#[cfg(not(target_arch = "wasm32"))]
pub mod schema;
pub mod validate;
pub mod workload;

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::lang::{Arg, Lang, Text};

pub use design::{AttributeForm, DesignName, DesignSpec, FieldPattern, Joins, Strategy};
pub use distribution::{Distribution, Shape};
pub use field::{BsonType, Field, Fields, ValueKind};
pub use preset::{PresetMeta, PresetSource};
pub use workload::{ChildRead, Copies, Op, Paging, Sort, Step, Unit};

/// The largest entity count or distribution parameter (count, length, mean, …) a model may
/// use: 10^15, a thousand times the largest real collections, so that every full-scale number
/// stays well within `u64` and exact in `f64`. The model's schema states it as each count's
/// range and validation refuses a larger one (`validate`).
pub const MAX_COUNT: f64 = 1e15;

/// A whole model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[cfg_attr(
    not(target_arch = "wasm32"),
    schemars(
        title = "Squillion model",
        description = "Entities, relationships, workload, sharding and design of a MongoDB schema-design model. See docs/model.md. Cross-references (entity and relationship names, p99 ≤ max, min ≤ max) are checked by parse_model, not by this schema.",
        extend("$id" = "https://squillion.example/model.schema.json")
    )
)]
#[serde(deny_unknown_fields)]
pub struct Model {
    /// Short name (the preset's name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// What the model shows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Seed of the synthetic data: the same seed gives the same documents.
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// The day growth is counted from (`YYYY-MM-DD`), for break-point dates.
    #[serde(default = "default_start")]
    #[cfg_attr(
        not(target_arch = "wasm32"),
        schemars(regex(pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"))
    )]
    pub start_date: String,
    /// How much of the full-scale data is materialized.
    #[serde(default)]
    pub sample: Sample,
    /// The kinds of things.
    #[cfg_attr(not(target_arch = "wasm32"), schemars(length(max = validate::MAX_ENTITIES)))]
    pub entities: Vec<Entity>,
    /// Parent → child relationships.
    #[serde(default)]
    #[cfg_attr(not(target_arch = "wasm32"), schemars(length(max = validate::MAX_RELATIONSHIPS)))]
    pub relationships: Vec<Relationship>,
    /// Application units.
    #[serde(default)]
    pub workload: Vec<Unit>,
    /// Shard count and shard keys, when the cluster is sharded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sharding: Option<Sharding>,
    /// RAM of each machine (each shard) in GiB, for the WiredTiger cache the working set is
    /// compared to (default 16; `squillion eval --ram` overrides it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(not(target_arch = "wasm32"), schemars(range(max = 1_000_000), extend("exclusiveMinimum" = 0)))]
    pub ram_gb: Option<f64>,
    /// The chosen design.
    #[serde(default)]
    pub design: DesignSpec,
    /// Preset metadata, when the model is a preset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<PresetMeta>,
}

fn default_seed() -> u64 {
    1
}

fn default_start() -> String {
    "2025-01-01".to_string()
}

/// A kind of thing with typed fields and a full-scale count.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Entity {
    /// Name (also the default collection name).
    pub name: String,
    /// How many exist at full scale (up to 10^15; arithmetic, never materialized).
    #[cfg_attr(not(target_arch = "wasm32"), schemars(range(min = 0, max = MAX_COUNT)))]
    pub count: f64,
    /// The fields (an `_id` of type objectId is added when not declared).
    #[serde(default)]
    pub fields: Fields,
}

impl Entity {
    /// Returns the names of the fields it declares, without `_id`: what a copy of it (an
    /// extended reference, a reference in child) may copy, and what it holds besides its id.
    pub fn field_names(&self) -> Vec<String> {
        self.fields
            .iter()
            .map(|(n, _)| n.clone())
            .filter(|n| n != "_id")
            .collect()
    }
}

/// Parent → child with a cardinality distribution and a growth rate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Relationship {
    /// Name, used by steps and overrides (`followers`, `addresses`).
    pub name: String,
    /// The parent entity.
    pub parent: String,
    /// The child entity.
    pub child: String,
    /// Children per parent.
    pub cardinality: Distribution,
    /// True when a child can have many parents (follows, parts shared by products).
    #[serde(default)]
    pub many_to_many: bool,
    /// Parents per child, for a many-to-many relationship: the other side's distribution (how
    /// many users one user follows), the length of the array of parent ids a child holds.
    /// Default: every child at the mean (parents × mean children per parent ÷ children), with
    /// no tail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parents_per_child: Option<Distribution>,
    /// Children added per parent per day.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub growth_per_day: Option<Growth>,
    /// Name of the array on the parent (default: the relationship's name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// Name of the parent reference in the child (default: parent name + `Id`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_field: Option<String>,
    /// The parent's field whose value a child's parent reference holds, when it is not `_id`:
    /// a unique key such as `account_id` (inference finds references through such keys).
    /// The reference then has that field's type and size (an int32 key is 4 bytes where an
    /// ObjectId is 12), and the generated references hold the parents' key values. Only
    /// `reference_in_child` and `two_way` lay the child's reference out through it; every
    /// other strategy keeps `_id` references. Default: `_id`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_key: Option<String>,
    /// The child's field whose values the parent's array of child references holds, when it
    /// is not `_id` (`customers.accounts` lists `accounts.account_id`s): as `parent_key`, for
    /// the parent's array under `reference_in_parent` and `two_way`. Default: `_id`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub child_key: Option<String>,
    /// For feeds: the entity an author posts (activities); parent = author, child = follower.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feed: Option<String>,
}

impl Relationship {
    /// Returns the name of the array on the parent.
    pub fn array_field(&self) -> &str {
        self.field.as_deref().unwrap_or(&self.name)
    }

    /// Returns the name of the parent reference in the child.
    pub fn parent_ref(&self) -> String {
        self.parent_field
            .clone()
            .unwrap_or_else(|| format!("{}Id", self.parent))
    }

    /// Returns the mean number of parents of one child: every parent's children spread over
    /// the `children` (parents × mean children per parent ÷ children; 0 with no children).
    pub fn mean_parents_per_child(&self, parents: f64, children: f64) -> f64 {
        if children > 0.0 {
            parents * self.cardinality.mean() / children
        } else {
            0.0
        }
    }

    /// Returns the distribution of parents per child and whether the model states it: the
    /// stated `parents_per_child`, or every child at the rounded mean (its tail assumed).
    pub fn parents_per_child(&self, parents: f64, children: f64) -> (Distribution, bool) {
        match &self.parents_per_child {
            Some(d) => (d.clone(), true),
            None => (
                Distribution::fixed(self.mean_parents_per_child(parents, children).round()),
                false,
            ),
        }
    }

    /// Returns children added per day to a typical parent (0 when not growing).
    pub fn growth_typical(&self) -> f64 {
        self.growth_per_day.as_ref().map_or(0.0, |g| g.typical)
    }

    /// Returns children added per day to the largest parent.
    pub fn growth_largest(&self) -> f64 {
        self.growth_per_day
            .as_ref()
            .map_or(0.0, |g| g.largest.unwrap_or(g.typical))
    }
}

/// Children added per parent per day.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Growth {
    /// For a typical parent.
    #[cfg_attr(not(target_arch = "wasm32"), schemars(range(min = 0)))]
    pub typical: f64,
    /// For the largest parent (default: same as typical).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(not(target_arch = "wasm32"), schemars(range(min = 0)))]
    pub largest: Option<f64>,
}

/// How much of the data is materialized. The default keeps it instant: at most 500
/// ([`Sample::DEFAULT_MAX_DOCUMENTS`]) documents per collection.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Sample {
    /// Fraction of each entity's count to generate (e.g. 0.001).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(not(target_arch = "wasm32"), schemars(range(max = 1), extend("exclusiveMinimum" = 0)))]
    pub scale: Option<f64>,
    /// Upper bound of generated top-level entities per entity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(not(target_arch = "wasm32"), schemars(range(min = 1, max = Sample::MAX_MAX_DOCUMENTS)))]
    pub max_documents: Option<u64>,
}

impl Sample {
    /// Entities generated per entity when nothing is said.
    pub const DEFAULT_MAX_DOCUMENTS: u64 = 500;

    /// The largest `max_documents` a model may ask for (a sample, not the full data).
    pub const MAX_MAX_DOCUMENTS: u64 = 1_000_000;

    /// Returns how many of `count` full-scale entities are generated (at least 1 when any).
    pub fn sample_count(&self, count: f64) -> u64 {
        let scaled = self.scale.map_or(count, |s| (count * s).ceil());
        let cap = self
            .max_documents
            .unwrap_or(Self::DEFAULT_MAX_DOCUMENTS)
            .min(Self::MAX_MAX_DOCUMENTS) as f64;
        let n = scaled.min(cap).min(count);
        if count > 0.0 {
            (n.max(1.0)) as u64
        } else {
            0
        }
    }
}

/// Shard count and shard key per collection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Sharding {
    /// Number of shards.
    #[cfg_attr(not(target_arch = "wasm32"), schemars(range(min = 1, max = validate::MAX_SHARDS)))]
    pub shards: u32,
    /// Collection name → shard key (`{"owner": 1, "sequence": 1}` or `{"_id": "hashed"}`).
    #[serde(default)]
    #[cfg_attr(
        not(target_arch = "wasm32"),
        schemars(schema_with = "schema::shard_keys")
    )]
    pub keys: BTreeMap<String, serde_json::Map<String, serde_json::Value>>,
}

impl Model {
    /// Returns the entity called `name`.
    pub fn entity(&self, name: &str) -> Option<&Entity> {
        self.entities.iter().find(|e| e.name == name)
    }

    /// Returns the relationship called `name`.
    pub fn relationship(&self, name: &str) -> Option<&Relationship> {
        self.relationships.iter().find(|r| r.name == name)
    }
}

/// One problem in a model, at a JSON path: a stable code and its values (rendered in any
/// language by [`ModelError::message_in`]) and the English message they make.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ModelError {
    /// Where: `$.relationships[2].cardinality.p99`.
    pub path: String,
    /// What, as a stable kebab-case code (`unknown-entity`; docs/problems.md lists them).
    pub code: Cow<'static, str>,
    /// The values the message names (`{"name": "user"}`), as the catalogue's placeables
    /// name them; a value that is itself words (the kind of JSON value found) is a nested text.
    pub args: BTreeMap<Cow<'static, str>, Arg>,
    /// Why, in English words a user understands: the code and values rendered in English.
    pub message: String,
    /// 1-based line, for JSON syntax errors.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// 1-based column, for JSON syntax errors.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
}

impl ModelError {
    /// Returns the problem `problem` (a [`Text`] whose id is the problem's code) at `path`.
    pub fn new(path: impl Into<String>, problem: Text) -> ModelError {
        let text = Self::catalogue_text(&problem.id, &problem.args);
        ModelError {
            path: path.into(),
            message: text.render(Lang::En),
            code: problem.id,
            args: problem.args,
            line: None,
            column: None,
        }
    }

    /// Returns the problem at a 1-based `line` and `column` of the text (a JSON syntax error).
    pub fn at_line(problem: Text, line: usize, column: usize) -> ModelError {
        ModelError {
            line: Some(line),
            column: Some(column),
            ..ModelError::new("$", problem)
        }
    }

    /// Returns the problem as a catalogue text: message `problem-<code>` with its values.
    pub fn text(&self) -> Text {
        Self::catalogue_text(&self.code, &self.args)
    }

    fn catalogue_text(code: &str, args: &BTreeMap<Cow<'static, str>, Arg>) -> Text {
        Text {
            id: Cow::Owned(format!("problem-{code}")),
            args: args.clone(),
        }
    }

    /// Returns the problem's message in `lang` (the English is [`ModelError::message`]).
    pub fn message_in(&self, lang: Lang) -> String {
        self.text().render(lang)
    }

    /// Returns the problem with its place in `lang`, as [`Display`](std::fmt::Display) writes
    /// it in English: `$.path: message`, or `line L, column C: message` (第 L 行，第 C 列：…).
    pub fn to_string_in(&self, lang: Lang) -> String {
        let message = self.message_in(lang);
        match (self.line, self.column) {
            (Some(l), Some(c)) => Text::new("problem-place-line")
                .arg("line", l)
                .arg("column", c)
                .arg("message", message)
                .render(lang),
            _ => Text::new("problem-place-path")
                .arg("path", &self.path)
                .arg("message", message)
                .render(lang),
        }
    }
}

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.line, self.column) {
            (Some(l), Some(c)) => write!(f, "line {l}, column {c}: {}", self.message),
            _ => write!(f, "{}: {}", self.path, self.message),
        }
    }
}

/// Every problem found in a model.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{} problem(s) in the model: {}", .errors.len(), .errors.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; "))]
pub struct ModelErrors {
    /// The problems, in document order.
    pub errors: Vec<ModelError>,
}

impl ModelErrors {
    /// Returns true when some problem is reported at exactly `path`.
    pub fn has_path(&self, path: &str) -> bool {
        self.errors.iter().any(|e| e.path == path)
    }
}

/// Reads a model from JSON text, reporting every problem at once.
pub fn parse_model(text: &str) -> Result<Model, ModelErrors> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| ModelErrors {
        errors: vec![ModelError::at_line(
            json_problem("json-syntax", without_place(&e)),
            e.line(),
            e.column(),
        )],
    })?;
    model_from_value(value)
}

/// Returns serde_json's message without the place it appends (" at line 86 column 7"): the
/// error carries its line and column, and every view says them once, its own way.
fn without_place(e: &serde_json::Error) -> String {
    let message = e.to_string();
    let place = format!(" at line {} column {}", e.line(), e.column());
    message
        .strip_suffix(&place)
        .map_or_else(|| message.clone(), str::to_string)
}

/// Returns serde_json's message as a problem, with the limit it hit spelled out: its nesting
/// limit and the range of a double are limits of the model format, and a user should know
/// which. `code` is the problem of any other message (`json-syntax`, `json-shape`); serde's
/// own words stay English, as `detail`.
fn json_problem(code: &'static str, message: String) -> Text {
    let code = if message.starts_with("recursion limit exceeded") {
        "json-too-deep"
    } else if message.starts_with("number out of range") {
        "json-number-out-of-range"
    } else {
        code
    };
    Text::new(code).arg("detail", message)
}

/// Reads a model from an already-parsed JSON value, reporting every problem at once.
pub fn model_from_value(value: serde_json::Value) -> Result<Model, ModelErrors> {
    let errors = validate::validate(&value);
    if !errors.is_empty() {
        return Err(ModelErrors { errors });
    }
    let model: Model = serde_json::from_value(value).map_err(|e| ModelErrors {
        errors: vec![ModelError::new(
            "$",
            json_problem("json-shape", e.to_string()),
        )],
    })?;
    let errors = validate::timeseries::check(&model);
    if errors.is_empty() {
        Ok(model)
    } else {
        Err(ModelErrors { errors })
    }
}
