//! The plan as plain data: every unit's commands ([`Plan`], [`UnitPlan`]), each command one
//! round trip with its mongosh code (and the GridFS file it reads or writes, [`FileUse`]), and
//! the helpers that render documents as mongosh source and as JSON. The planner
//! ([`super::plan`]) makes these; the indexes, the evaluation and the views read them.

use bson::{doc, Bson, Document};
use serde::{Deserialize, Serialize};

/// Which part of a GridFS file a command reads or writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FilePart {
    /// The `fs.files` document.
    File,
    /// The `fs.chunks` documents.
    Chunks,
}

/// The GridFS file a command reads or writes: entity `entity`'s field `field` of the subject.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FileUse {
    /// The entity whose field is stored as a file.
    pub entity: String,
    /// The field.
    pub field: String,
    /// The files document or the chunks.
    pub part: FilePart,
}

/// Every unit's commands.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Plan {
    /// One entry per application unit, in workload order.
    pub units: Vec<UnitPlan>,
}

/// One application unit's commands.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnitPlan {
    /// The unit's name.
    pub unit: String,
    /// Runs per second.
    pub rate_per_sec: f64,
    /// The commands, in order; each is one round trip when sent (a find whose `$in` list
    /// binds to nothing for a subject is not: the evaluation says so per run).
    pub commands: Vec<Command>,
}

impl UnitPlan {
    /// Returns the round trips one run of the unit makes at most (every command sent).
    pub fn queries(&self) -> usize {
        self.commands.len()
    }
}

impl std::fmt::Display for UnitPlan {
    /// Writes the unit as its mongosh lines, one round trip per line, with why each exists.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{} ({}/s, {} round trip(s))",
            self.unit,
            self.rate_per_sec,
            self.queries()
        )?;
        for c in &self.commands {
            writeln!(f, "  {}  // {}", c.mongosh(), c.note)?;
        }
        Ok(())
    }
}

impl std::fmt::Display for Plan {
    /// Writes every unit's commands.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for u in &self.units {
            write!(f, "{u}")?;
        }
        Ok(())
    }
}

/// The kind of a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CommandKind {
    /// `find`.
    Find,
    /// `insert` (one document, or one per child when `fan_out` is set).
    Insert,
    /// `update`.
    Update,
    /// `delete`.
    Delete,
    /// `aggregate`.
    Aggregate,
}

impl CommandKind {
    /// True for a read (`find`, `aggregate`), false for a write.
    pub fn is_read(self) -> bool {
        matches!(self, CommandKind::Find | CommandKind::Aggregate)
    }
}

/// One command sent to the database: one round trip.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Command {
    /// Index of the logical step it implements.
    pub step: usize,
    /// Target collection.
    pub collection: String,
    /// Command kind.
    pub kind: CommandKind,
    /// Query filter (find, update, delete).
    #[serde(serialize_with = "ser_doc")]
    pub filter: Document,
    /// Sort (find).
    #[serde(serialize_with = "ser_opt_doc")]
    pub sort: Option<Document>,
    /// Documents skipped before the first returned (find with `skip`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skip: Option<u64>,
    /// Documents that come before this page in its order, for a page read by range (after
    /// the last value seen) rather than by `skip`: the evaluator needs it to know whether the
    /// page exists for the subject, since the range itself names no position.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_offset: Option<u64>,
    /// Limit (find).
    pub limit: Option<u64>,
    /// Projection (find).
    #[serde(serialize_with = "ser_opt_doc")]
    pub projection: Option<Document>,
    /// Update document (update).
    #[serde(serialize_with = "ser_opt_doc")]
    pub update: Option<Document>,
    /// Label of the document shape an insert creates (the generator makes the document).
    pub insert_shape: Option<String>,
    /// Update or delete every match.
    pub multi: bool,
    /// Update with `upsert: true`.
    pub upsert: bool,
    /// The `arrayFilters` of an update whose path names `$[<id>]`: every element matching
    /// its filter changes (a copy held twice in one array included), where the positional
    /// `$` changes only the first.
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        serialize_with = "ser_docs"
    )]
    pub array_filters: Vec<Document>,
    /// Aggregation pipeline (aggregate).
    #[serde(serialize_with = "ser_docs")]
    pub pipeline: Vec<Document>,
    /// When set, the command writes one document per child of this relationship (a fan-out:
    /// `insertMany`/bulk write in one round trip).
    pub fan_out: Option<String>,
    /// When set, the command reads or writes a GridFS file of the subject (its files document
    /// or its chunks): the evaluation counts it from the file's length
    /// ([`super::gridfs`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<FileUse>,
    /// When set, the command is the application's `if`: it runs only under this condition of
    /// the commands before it in its step (a continuation document written only when the
    /// parent is full); otherwise it is not sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when: Option<When>,
    /// True when the update's result is kept in `r` (`r = db.…`) for a conditional command
    /// after it ([`When`]): the first of a chain of attempts.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub keeps_result: bool,
    /// The collation a find runs under (`{ locale: "en", strength: 2 }`: a case-insensitive
    /// read served by an index with the same collation).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "ser_opt_doc"
    )]
    pub collation: Option<Document>,
    /// Why this command exists.
    pub note: String,
}

/// The condition under which a conditional command runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum When {
    /// No update before it in its step matched a document (`if (r.matchedCount === 0)`, `r`
    /// being the last update's result): the fallback of an update that found no room.
    NoneMatched,
}

impl When {
    /// Returns the condition as the application's JavaScript (`if (…) `), for the mongosh code.
    pub fn mongosh(self) -> &'static str {
        match self {
            When::NoneMatched => "if (r.matchedCount === 0) ",
        }
    }
}

impl Command {
    pub(crate) fn new(
        step: usize,
        collection: &str,
        kind: CommandKind,
        filter: Document,
        note: impl Into<String>,
    ) -> Self {
        Command {
            step,
            collection: collection.to_string(),
            kind,
            filter,
            sort: None,
            skip: None,
            page_offset: None,
            limit: None,
            projection: None,
            update: None,
            insert_shape: None,
            multi: false,
            upsert: false,
            array_filters: vec![],
            pipeline: vec![],
            fan_out: None,
            file: None,
            when: None,
            keeps_result: false,
            collation: None,
            note: note.into(),
        }
    }

    /// Returns the mongosh code of the command, a conditional one behind its `if`.
    pub fn mongosh(&self) -> String {
        match self.when {
            // An update keeps its result in `r`, for the next condition.
            Some(w) if self.kind == CommandKind::Update => {
                format!("{}r = {}", w.mongosh(), self.code())
            }
            Some(w) => format!("{}{}", w.mongosh(), self.code()),
            None if self.keeps_result && self.kind == CommandKind::Update => {
                format!("r = {}", self.code())
            }
            None => self.code(),
        }
    }

    /// Returns the mongosh code of the command itself.
    fn code(&self) -> String {
        let c = &self.collection;
        match self.kind {
            CommandKind::Find => {
                let mut s = format!(
                    "db.{c}.find({}",
                    shell(&Bson::Document(self.filter.clone()))
                );
                if let Some(p) = &self.projection {
                    s.push_str(&format!(", {}", shell(&Bson::Document(p.clone()))));
                }
                s.push(')');
                if let Some(o) = &self.sort {
                    s.push_str(&format!(".sort({})", shell(&Bson::Document(o.clone()))));
                }
                if let Some(k) = self.skip {
                    s.push_str(&format!(".skip({k})"));
                }
                if let Some(l) = self.limit {
                    s.push_str(&format!(".limit({l})"));
                }
                if let Some(c) = &self.collation {
                    s.push_str(&format!(
                        ".collation({})",
                        shell(&Bson::Document(c.clone()))
                    ));
                }
                s
            }
            CommandKind::Insert => {
                let what = self.insert_shape.as_deref().unwrap_or("document");
                if self
                    .file
                    .as_ref()
                    .is_some_and(|f| f.part == FilePart::Chunks)
                {
                    return format!(
                        "db.{c}.insertMany(/* the file's chunks: n = 0, 1, …, 261,120 bytes each, the last the rest */ chunks)"
                    );
                }
                match &self.fan_out {
                    Some(r) => format!("db.{c}.insertMany(/* one {what} per child of {r} */ docs)"),
                    None => format!("db.{c}.insertOne(/* new {what} */ doc)"),
                }
            }
            CommandKind::Update if self.fan_out.is_some() && !self.multi => {
                // One updateOne per child, sent as one bulk write (one round trip).
                let u = self.update.clone().unwrap_or_default();
                let upsert = if self.upsert { ", upsert: true" } else { "" };
                format!(
                    "db.{c}.bulkWrite([{{ updateOne: {{ filter: {}, update: {}{upsert} }} }}, /* … one per child of {} */])",
                    shell(&Bson::Document(self.filter.clone())),
                    shell(&Bson::Document(u)),
                    self.fan_out.as_deref().unwrap_or_default()
                )
            }
            CommandKind::Update => {
                let m = if self.multi || self.fan_out.is_some() {
                    "updateMany"
                } else {
                    "updateOne"
                };
                let u = self.update.clone().unwrap_or_default();
                let mut options = Vec::new();
                if self.upsert {
                    options.push("upsert: true".to_string());
                }
                if !self.array_filters.is_empty() {
                    let f: Vec<String> = self
                        .array_filters
                        .iter()
                        .map(|d| shell(&Bson::Document(d.clone())))
                        .collect();
                    options.push(format!("arrayFilters: [{}]", f.join(", ")));
                }
                let opts = if options.is_empty() {
                    String::new()
                } else {
                    format!(", {{ {} }}", options.join(", "))
                };
                format!(
                    "db.{c}.{m}({}, {}{opts})",
                    shell(&Bson::Document(self.filter.clone())),
                    shell(&Bson::Document(u))
                )
            }
            CommandKind::Delete => {
                let m = if self.multi {
                    "deleteMany"
                } else {
                    "deleteOne"
                };
                format!(
                    "db.{c}.{m}({})",
                    shell(&Bson::Document(self.filter.clone()))
                )
            }
            CommandKind::Aggregate => {
                let p: Vec<String> = self
                    .pipeline
                    .iter()
                    .map(|d| shell(&Bson::Document(d.clone())))
                    .collect();
                format!("db.{c}.aggregate([{}])", p.join(", "))
            }
        }
    }
}

/// Returns a document as JSON (numbers, strings, nested documents; other BSON values as their
/// relaxed Extended JSON text), for reports and `serde` output.
pub fn doc_to_json(d: &Document) -> serde_json::Value {
    serde_json::Value::Object(
        d.iter()
            .map(|(k, v)| (k.clone(), bson_to_json(v)))
            .collect(),
    )
}

fn bson_to_json(v: &Bson) -> serde_json::Value {
    use serde_json::Value as J;
    match v {
        Bson::Document(d) => doc_to_json(d),
        Bson::Array(a) => J::Array(a.iter().map(bson_to_json).collect()),
        Bson::String(s) => J::String(s.clone()),
        Bson::Int32(i) => J::from(*i),
        Bson::Int64(i) => J::from(*i),
        Bson::Double(f) => serde_json::Number::from_f64(*f).map_or(J::Null, J::Number),
        Bson::Boolean(b) => J::Bool(*b),
        Bson::Null => J::Null,
        other => J::String(other.to_string()),
    }
}

/// Returns a JSON object as a document (whole numbers become int32 when they fit, else
/// int64; other numbers double).
pub fn json_to_doc(m: &serde_json::Map<String, serde_json::Value>) -> Document {
    m.iter()
        .map(|(k, v)| (k.clone(), json_to_bson(v)))
        .collect()
}

fn json_to_bson(v: &serde_json::Value) -> Bson {
    use serde_json::Value as J;
    match v {
        J::Null => Bson::Null,
        J::Bool(b) => Bson::Boolean(*b),
        J::Number(n) => match n.as_i64() {
            Some(i) => i32::try_from(i).map_or(Bson::Int64(i), Bson::Int32),
            None => Bson::Double(n.as_f64().unwrap_or(f64::NAN)),
        },
        J::String(s) => Bson::String(s.clone()),
        J::Array(a) => Bson::Array(a.iter().map(json_to_bson).collect()),
        J::Object(m) => Bson::Document(json_to_doc(m)),
    }
}

/// Serializes a document field as JSON (`serialize_with`).
pub fn ser_doc<S: serde::Serializer>(d: &Document, s: S) -> Result<S::Ok, S::Error> {
    serde::Serialize::serialize(&doc_to_json(d), s)
}

/// Serializes an optional document field as JSON (`serialize_with`).
pub fn ser_opt_doc<S: serde::Serializer>(d: &Option<Document>, s: S) -> Result<S::Ok, S::Error> {
    serde::Serialize::serialize(&d.as_ref().map(doc_to_json), s)
}

/// Serializes a list of documents as JSON (`serialize_with`).
pub fn ser_docs<S: serde::Serializer>(d: &[Document], s: S) -> Result<S::Ok, S::Error> {
    serde::Serialize::serialize(&d.iter().map(doc_to_json).collect::<Vec<_>>(), s)
}

/// Returns a parameter placeholder: `{"$param": name}`.
pub fn param(name: impl Into<String>) -> Bson {
    Bson::Document(doc! { "$param": name.into() })
}

/// Returns a placeholder for a parameter matched whatever its case: bound to the regex
/// `/^value$/i` (the value's regex characters escaped), shown as `new RegExp(…, "i")`.
pub fn param_case_insensitive(name: impl Into<String>) -> Bson {
    Bson::Document(doc! { CASE_INSENSITIVE_PARAM: name.into() })
}

/// The key of a [`param_case_insensitive`] placeholder.
pub const CASE_INSENSITIVE_PARAM: &str = "$paramCaseInsensitive";

/// Renders a value as mongosh source (`{ userId: 1, date: -1 }`, parameters as variables).
pub fn shell(v: &Bson) -> String {
    match v {
        Bson::Document(d) => {
            if let (1, Some(Bson::String(p))) = (d.len(), d.get("$param")) {
                return p.clone();
            }
            if let (1, Some(Bson::String(p))) = (d.len(), d.get(CASE_INSENSITIVE_PARAM)) {
                return format!("new RegExp(\"^\" + escapeRegExp({p}) + \"$\", \"i\")");
            }
            if d.is_empty() {
                return "{}".into();
            }
            let parts: Vec<String> = d
                .iter()
                .map(|(k, v)| format!("{}: {}", shell_key(k), shell(v)))
                .collect();
            format!("{{ {} }}", parts.join(", "))
        }
        Bson::Array(a) => format!("[{}]", a.iter().map(shell).collect::<Vec<_>>().join(", ")),
        Bson::String(s) => format!("{s:?}"),
        Bson::Int32(i) => i.to_string(),
        Bson::Int64(i) => i.to_string(),
        Bson::Double(f) => f.to_string(),
        Bson::Boolean(b) => b.to_string(),
        Bson::Null => "null".into(),
        Bson::ObjectId(_) => v.to_string(),
        // Dates, decimals, binary data… in mongosh syntax (`ISODate('…')`), not bson's
        // debugging form (`DateTime("…")`), so that the code runs in mongosh.
        other => crate::ejson::to_shell_string(other, false),
    }
}

fn shell_key(k: &str) -> String {
    let ident = k
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if ident {
        k.to_string()
    } else {
        format!("{k:?}")
    }
}
