//! The evaluation plan: every application unit as a list of engine commands, as plain data
//! (collection, kind, filter, sort, limit, projection, update), each with its mongosh code.
//!
//! Values that only exist at run time are parameters, written `{"$param": "user._id"}` inside
//! filters and updates; the evaluator binds them from the materialized documents (the largest
//! parent, a random parent, …). In mongosh they appear as plain variables (`user._id`).

use bson::{doc, Bson, Document};
use serde::Serialize;

use super::layout::{child_ref, relationship_collection_name, Layout};
use super::strategy::{FieldPattern, Strategy};
use crate::model::{Copies, Model, Relationship, Step};

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
    /// The commands, in order; each is one round trip.
    pub commands: Vec<Command>,
}

impl UnitPlan {
    /// Returns the round trips one run of the unit makes.
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
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
    /// Aggregation pipeline (aggregate).
    #[serde(serialize_with = "ser_docs")]
    pub pipeline: Vec<Document>,
    /// When set, the command writes one document per child of this relationship (a fan-out:
    /// `insertMany`/bulk write in one round trip).
    pub fan_out: Option<String>,
    /// Why this command exists.
    pub note: String,
}

impl Command {
    fn new(
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
            limit: None,
            projection: None,
            update: None,
            insert_shape: None,
            multi: false,
            upsert: false,
            pipeline: vec![],
            fan_out: None,
            note: note.into(),
        }
    }

    /// Returns the mongosh code of the command.
    pub fn mongosh(&self) -> String {
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
                if let Some(l) = self.limit {
                    s.push_str(&format!(".limit({l})"));
                }
                s
            }
            CommandKind::Insert => {
                let what = self.insert_shape.as_deref().unwrap_or("document");
                match &self.fan_out {
                    Some(r) => format!("db.{c}.insertMany(/* one {what} per child of {r} */ docs)"),
                    None => format!("db.{c}.insertOne(/* new {what} */ doc)"),
                }
            }
            CommandKind::Update => {
                let m = if self.multi || self.fan_out.is_some() {
                    "updateMany"
                } else {
                    "updateOne"
                };
                let u = self.update.clone().unwrap_or_default();
                let opts = if self.upsert {
                    ", { upsert: true }"
                } else {
                    ""
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

/// Renders a value as mongosh source (`{ userId: 1, date: -1 }`, parameters as variables).
pub fn shell(v: &Bson) -> String {
    match v {
        Bson::Document(d) => {
            if let (1, Some(Bson::String(p))) = (d.len(), d.get("$param")) {
                return p.clone();
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
        other => other.to_string(),
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

/// Builds the plan of every unit of `model` under `layout`.
pub fn build(model: &Model, layout: &Layout) -> Plan {
    let mut units = Vec::new();
    for u in &model.workload {
        let mut commands = Vec::new();
        for (i, s) in u.steps.iter().enumerate() {
            step_commands(model, layout, i, s, &mut commands);
        }
        units.push(UnitPlan {
            unit: u.name.clone(),
            rate_per_sec: u.rate_per_sec,
            commands,
        });
    }
    Plan { units }
}

fn collection_for(layout: &Layout, entity: &str) -> String {
    layout
        .collection_of(entity)
        .map_or_else(|| entity.to_string(), |c| c.name.clone())
}

/// The collection and array path where an embedded entity lives (when it has no collection).
fn embedding_of<'a>(model: &'a Model, layout: &Layout, entity: &str) -> Option<&'a Relationship> {
    model
        .relationships
        .iter()
        .find(|r| r.child == entity && matches!(layout.strategy(&r.name), Some(Strategy::Embed)))
}

fn step_commands(model: &Model, layout: &Layout, i: usize, step: &Step, out: &mut Vec<Command>) {
    use CommandKind::*;
    match step {
        Step::Read {
            entity,
            by,
            children,
        } => {
            let coll = collection_for(layout, entity);
            let mut find = Command::new(
                i,
                &coll,
                Find,
                doc! { by.as_str(): param(format!("{entity}.{by}")) },
                format!("read {entity} by {by}"),
            );
            find.limit = Some(1);
            let mut projection = Document::new();
            let mut later = Vec::new();
            for c in children {
                let Some(r) = model.relationship(&c.relationship) else {
                    continue;
                };
                let Some(s) = layout.strategy(&r.name) else {
                    continue;
                };
                let arr = r.array_field().to_string();
                let child_coll = collection_for(layout, &r.child);
                let sort = c.sort.as_ref().map(|s| doc! { s.field.as_str(): s.order });
                let ids = param(format!("{entity}.{arr}"));
                let by_ids = |note: &str| {
                    let mut f = Command::new(
                        i,
                        &child_coll,
                        Find,
                        doc! { "_id": { "$in": ids.clone() } },
                        note.to_string(),
                    );
                    f.sort = sort.clone();
                    f.limit = c.limit;
                    f
                };
                match s {
                    Strategy::Embed => {
                        if let Some(l) = c.limit {
                            projection.insert(arr.clone(), doc! { "$slice": l as i64 });
                        }
                    }
                    Strategy::EmbedSubset { k } => {
                        if c.limit.is_some_and(|l| l <= *k) {
                            projection.insert(
                                arr.clone(),
                                doc! { "$slice": c.limit.unwrap_or(*k) as i64 },
                            );
                        } else {
                            let mut f = Command::new(
                                i,
                                &child_coll,
                                Find,
                                doc! { r.parent_ref(): param(format!("{entity}._id")) },
                                format!("{}: beyond the newest {k}", r.name),
                            );
                            f.sort = sort.clone();
                            f.limit = c.limit;
                            later.push(f);
                        }
                    }
                    Strategy::ExtendedReference { copy } => {
                        let covered = !c.fields.is_empty()
                            && c.fields.iter().all(|f| f == "_id" || copy.contains(f));
                        if !covered {
                            later.push(by_ids(&format!(
                                "{}: fields not copied into the parent",
                                r.name
                            )));
                        }
                    }
                    Strategy::ReferenceInParent | Strategy::TwoWay => {
                        if let Some(l) = c.limit {
                            projection.insert(arr.clone(), doc! { "$slice": l as i64 });
                        }
                        later.push(by_ids(&format!("{}: application-level join", r.name)));
                    }
                    Strategy::ReferenceInChild { .. } => {
                        let mut f = Command::new(
                            i,
                            &child_coll,
                            Find,
                            doc! { r.parent_ref(): param(format!("{entity}._id")) },
                            format!("{}: children by parent reference", r.name),
                        );
                        f.sort = sort.clone();
                        f.limit = c.limit;
                        later.push(f);
                    }
                    Strategy::LinkCollection => {
                        let mut l = Command::new(
                            i,
                            &r.name,
                            Find,
                            doc! { r.parent_ref(): param(format!("{entity}._id")) },
                            format!("{}: links", r.name),
                        );
                        l.limit = c.limit;
                        later.push(l);
                        let cref = child_ref(r);
                        let mut f = Command::new(
                            i,
                            &child_coll,
                            Find,
                            doc! { "_id": { "$in": param(format!("links.{cref}")) } },
                            format!("{}: children of the links", r.name),
                        );
                        f.sort = sort.clone();
                        f.limit = c.limit;
                        later.push(f);
                    }
                    Strategy::Bucket { size } => {
                        let mut f = Command::new(
                            i,
                            &relationship_collection_name(r, s),
                            Find,
                            doc! { r.parent_ref(): param(format!("{entity}._id")) },
                            format!("{}: newest buckets", r.name),
                        );
                        f.sort = Some(doc! { "sequence": -1 });
                        f.limit = Some(c.limit.map_or(1, |l| l.div_ceil(*size).max(1) + 1));
                        later.push(f);
                    }
                    Strategy::Continuation { threshold } => {
                        if let Some(l) = c.limit {
                            projection.insert(arr.clone(), doc! { "$slice": l as i64 });
                        }
                        if !(c.fields.is_empty() || c.fields.iter().all(|f| f == "_id")) {
                            later.push(by_ids(&format!("{}: application-level join", r.name)));
                        }
                        if c.limit.is_none_or(|l| l > *threshold) {
                            let f = Command::new(
                                i,
                                &coll,
                                Find,
                                doc! { "_id": { "$in": param(format!("{entity}.tbc")) } },
                                format!("{}: continuation documents", r.name),
                            );
                            later.push(f);
                        }
                    }
                    _ => {}
                }
            }
            if !projection.is_empty() {
                find.projection = Some(projection);
            }
            out.push(find);
            out.extend(later);
        }
        Step::FindParents { relationship, by } => {
            let Some(r) = model.relationship(relationship) else {
                return;
            };
            let Some(s) = layout.strategy(&r.name) else {
                return;
            };
            let pcoll = collection_for(layout, &r.parent);
            let ccoll = collection_for(layout, &r.child);
            let arr = r.array_field();
            let value = param(format!("{}.{by}", r.child));
            let note = format!("{}: parents by child {by}", r.name);
            let child_lookup = Command::new(
                i,
                &ccoll,
                Find,
                doc! { by.as_str(): value.clone() },
                format!("{}: children with that {by}", r.name),
            );
            match s {
                Strategy::Embed | Strategy::EmbedSubset { .. } => {
                    out.push(Command::new(
                        i,
                        &pcoll,
                        Find,
                        doc! { format!("{arr}.{by}"): value },
                        note,
                    ));
                }
                Strategy::ExtendedReference { copy } if copy.contains(by) => {
                    out.push(Command::new(
                        i,
                        &pcoll,
                        Find,
                        doc! { format!("{arr}.{by}"): value },
                        note,
                    ));
                }
                Strategy::ExtendedReference { .. } => {
                    out.push(child_lookup);
                    out.push(Command::new(
                        i,
                        &pcoll,
                        Find,
                        doc! { format!("{arr}._id"): { "$in": param("children._id") } },
                        note,
                    ));
                }
                Strategy::ReferenceInParent | Strategy::Continuation { .. } => {
                    out.push(child_lookup);
                    out.push(Command::new(
                        i,
                        &pcoll,
                        Find,
                        doc! { arr: { "$in": param("children._id") } },
                        note,
                    ));
                }
                Strategy::ReferenceInChild { .. } | Strategy::TwoWay => {
                    out.push(child_lookup);
                    out.push(Command::new(
                        i,
                        &pcoll,
                        Find,
                        doc! { "_id": { "$in": param(format!("children.{}", r.parent_ref())) } },
                        note,
                    ));
                }
                Strategy::LinkCollection => {
                    out.push(child_lookup);
                    out.push(Command::new(
                        i,
                        &r.name,
                        Find,
                        doc! { child_ref(r): { "$in": param("children._id") } },
                        format!("{}: links of those children", r.name),
                    ));
                    out.push(Command::new(
                        i,
                        &pcoll,
                        Find,
                        doc! { "_id": { "$in": param(format!("links.{}", r.parent_ref())) } },
                        note,
                    ));
                }
                Strategy::Bucket { .. } => {
                    let bcoll = relationship_collection_name(r, s);
                    let f = if r.many_to_many {
                        doc! { arr: { "$in": param("children._id") } }
                    } else {
                        doc! { format!("{arr}.{by}"): value }
                    };
                    if r.many_to_many {
                        out.push(child_lookup);
                    }
                    out.push(Command::new(
                        i,
                        &bcoll,
                        Find,
                        f,
                        format!("{}: buckets holding them", r.name),
                    ));
                    out.push(Command::new(
                        i,
                        &pcoll,
                        Find,
                        doc! { "_id": { "$in": param(format!("buckets.{}", r.parent_ref())) } },
                        note,
                    ));
                }
                _ => {}
            }
        }
        Step::InsertChild { relationship } => {
            let Some(r) = model.relationship(relationship) else {
                return;
            };
            let Some(s) = layout.strategy(&r.name) else {
                return;
            };
            let pcoll = collection_for(layout, &r.parent);
            let ccoll = collection_for(layout, &r.child);
            let arr = r.array_field().to_string();
            let pid = param(format!("{}._id", r.parent));
            let insert_child = |note: &str| {
                let mut c = Command::new(i, &ccoll, Insert, Document::new(), note.to_string());
                c.insert_shape = Some(r.child.clone());
                c
            };
            let mut parent_update: Option<Document> = None;
            match s {
                Strategy::Embed => {
                    parent_update = Some(doc! { "$push": { arr.as_str(): param("child") } })
                }
                Strategy::EmbedSubset { k } => {
                    out.push(insert_child("the child in its own collection"));
                    parent_update = Some(
                        doc! { "$push": { arr.as_str(): { "$each": [param("child")], "$slice": -(*k as i64) } } },
                    );
                }
                Strategy::ExtendedReference { copy } => {
                    if !r.many_to_many {
                        out.push(insert_child("the child"));
                    }
                    let mut e = doc! { "_id": param("child._id") };
                    for c in copy {
                        e.insert(c.clone(), param(format!("child.{c}")));
                    }
                    parent_update = Some(doc! { "$push": { arr.as_str(): e } });
                }
                Strategy::ReferenceInParent | Strategy::TwoWay => {
                    if !r.many_to_many {
                        out.push(insert_child("the child"));
                    }
                    parent_update = Some(doc! { "$push": { arr.as_str(): param("child._id") } });
                }
                Strategy::ReferenceInChild { .. } => {
                    out.push(insert_child("the child with its parent reference"))
                }
                Strategy::LinkCollection => {
                    let mut c = Command::new(i, &r.name, Insert, Document::new(), "the link");
                    c.insert_shape = Some("link".into());
                    out.push(c);
                }
                Strategy::Bucket { size } => {
                    let mut c = Command::new(
                        i,
                        &relationship_collection_name(r, s),
                        Update,
                        doc! { r.parent_ref(): pid.clone(), "count": { "$lt": *size as i64 } },
                        "append to the open bucket (upsert opens the next)",
                    );
                    let pushed = if r.many_to_many {
                        param("child._id")
                    } else {
                        param("child")
                    };
                    c.update = Some(
                        doc! { "$push": { arr.as_str(): pushed }, "$inc": { "count": 1 }, "$setOnInsert": { "sequence": param("next_sequence") } },
                    );
                    c.upsert = true;
                    out.push(c);
                }
                Strategy::Continuation { threshold } => {
                    let full = format!("{arr}.{}", threshold.saturating_sub(1));
                    let mut c = Command::new(
                        i,
                        &pcoll,
                        Update,
                        doc! { "_id": pid.clone(), full: { "$exists": false } },
                        "append while the parent has room (else the last continuation document)",
                    );
                    c.update = Some(doc! { "$push": { arr.as_str(): param("child._id") } });
                    out.push(c);
                }
                _ => {}
            }
            // Stored totals kept with $inc.
            let mut inc = Document::new();
            for p in &model.design.fields {
                if let FieldPattern::Computed {
                    field,
                    relationship,
                    sum,
                    ..
                } = p
                {
                    if relationship == &r.name {
                        let by = sum
                            .as_ref()
                            .map_or(Bson::Int32(1), |s| param(format!("child.{s}")));
                        inc.insert(field.clone(), by);
                    }
                }
            }
            if let Some(mut u) = parent_update {
                if !inc.is_empty() {
                    u.insert("$inc", inc);
                }
                let mut c = Command::new(
                    i,
                    &pcoll,
                    Update,
                    doc! { "_id": pid },
                    format!("{}: update the parent", r.name),
                );
                c.update = Some(u);
                out.push(c);
            } else if !inc.is_empty() {
                let mut c = Command::new(
                    i,
                    &pcoll,
                    Update,
                    doc! { "_id": pid },
                    "keep the stored total",
                );
                c.update = Some(doc! { "$inc": inc });
                out.push(c);
            }
        }
        Step::Insert { entity } => {
            let mut c = Command::new(
                i,
                &collection_for(layout, entity),
                Insert,
                Document::new(),
                format!("insert {entity}"),
            );
            c.insert_shape = Some(entity.clone());
            out.push(c);
        }
        Step::Update {
            entity,
            field,
            copies,
            increment,
        } => {
            let op = if *increment { "$inc" } else { "$set" };
            let value = if *increment {
                Bson::Int32(1)
            } else {
                param(format!("new.{field}"))
            };
            let id = param(format!("{entity}._id"));
            if let (None, Some(r)) = (
                layout.collection_of(entity),
                embedding_of(model, layout, entity),
            ) {
                let arr = r.array_field();
                let mut c = Command::new(
                    i,
                    &collection_for(layout, &r.parent),
                    Update,
                    doc! { format!("{arr}.{field}"): param(format!("old.{field}")) },
                    format!("update embedded {entity}"),
                );
                c.update = Some(doc! { op: { format!("{arr}.$.{field}"): value.clone() } });
                c.multi = r.many_to_many;
                out.push(c);
            } else {
                let mut c = Command::new(
                    i,
                    &collection_for(layout, entity),
                    Update,
                    doc! { "_id": id.clone() },
                    format!("update {entity}.{field}"),
                );
                c.update = Some(doc! { op: { field.as_str(): value.clone() } });
                out.push(c);
            }
            if *copies == Copies::Snapshot {
                return;
            }
            for coll in &layout.collections {
                for shape in &coll.shapes {
                    for cf in shape
                        .copied
                        .iter()
                        .filter(|c| &c.entity == entity && &c.source == field)
                    {
                        let Some(r) = model.relationship(&cf.relationship) else {
                            continue;
                        };
                        let (filter, path) = if r.child == *entity {
                            (
                                doc! { format!("{}._id", r.array_field()): id.clone() },
                                format!("{}.$.{field}", r.array_field()),
                            )
                        } else {
                            (doc! { r.parent_ref(): id.clone() }, cf.path.clone())
                        };
                        let mut c = Command::new(
                            i,
                            &coll.name,
                            Update,
                            filter,
                            format!("live copy {} via {}", cf.path, r.name),
                        );
                        c.update = Some(doc! { op: { path: value.clone() } });
                        c.multi = true;
                        out.push(c);
                    }
                }
            }
        }
        Step::Delete { entity } => {
            let id = param(format!("{entity}._id"));
            let mut c = Command::new(
                i,
                &collection_for(layout, entity),
                Delete,
                doc! { "_id": id.clone() },
                format!("delete {entity}"),
            );
            c.multi = false;
            out.push(c);
            for r in model.relationships.iter().filter(|r| &r.child == entity) {
                let coll = collection_for(layout, &r.parent);
                match layout.strategy(&r.name) {
                    Some(
                        Strategy::ReferenceInParent
                        | Strategy::TwoWay
                        | Strategy::Continuation { .. },
                    ) => {
                        let mut u = Command::new(
                            i,
                            &coll,
                            Update,
                            doc! { r.array_field(): id.clone() },
                            format!("{}: remove the reference", r.name),
                        );
                        u.update = Some(doc! { "$pull": { r.array_field(): id.clone() } });
                        u.multi = r.many_to_many;
                        out.push(u);
                    }
                    Some(Strategy::ExtendedReference { .. }) => {
                        let mut u = Command::new(
                            i,
                            &coll,
                            Update,
                            doc! { format!("{}._id", r.array_field()): id.clone() },
                            format!("{}: remove the reference", r.name),
                        );
                        u.update =
                            Some(doc! { "$pull": { r.array_field(): { "_id": id.clone() } } });
                        u.multi = r.many_to_many;
                        out.push(u);
                    }
                    Some(Strategy::LinkCollection) => {
                        let mut d = Command::new(
                            i,
                            &r.name,
                            Delete,
                            doc! { child_ref(r): id.clone() },
                            format!("{}: remove the links", r.name),
                        );
                        d.multi = true;
                        out.push(d);
                    }
                    _ => {}
                }
            }
        }
        Step::PostFeed { relationship } => {
            let Some(r) = model.relationship(relationship) else {
                return;
            };
            let Some(s) = layout.strategy(&r.name) else {
                return;
            };
            let coll = relationship_collection_name(r, s);
            match s {
                Strategy::FanOutOnRead => {
                    let mut c = Command::new(
                        i,
                        &coll,
                        Insert,
                        Document::new(),
                        "one item with all followers in `to`",
                    );
                    c.insert_shape = Some("feed item".into());
                    out.push(c);
                }
                Strategy::FanOutOnWrite => {
                    let mut c =
                        Command::new(i, &coll, Insert, Document::new(), "one copy per follower");
                    c.insert_shape = Some("feed copy".into());
                    c.fan_out = Some(r.name.clone());
                    out.push(c);
                }
                Strategy::BucketedFanOut { size } => {
                    let mut c = Command::new(
                        i,
                        &coll,
                        Update,
                        doc! { "owner": param("follower._id"), "count": { "$lt": *size as i64 } },
                        "append to every follower's open bucket",
                    );
                    c.update = Some(
                        doc! { "$push": { "activities": param("item") }, "$inc": { "count": 1 } },
                    );
                    c.upsert = true;
                    c.fan_out = Some(r.name.clone());
                    out.push(c);
                }
                _ => {}
            }
        }
        Step::ReadFeed {
            relationship,
            page_size,
        } => {
            let Some(r) = model.relationship(relationship) else {
                return;
            };
            let Some(s) = layout.strategy(&r.name) else {
                return;
            };
            let coll = relationship_collection_name(r, s);
            let date = model
                .entity(r.feed.as_deref().unwrap_or_default())
                .and_then(|e| {
                    e.fields
                        .iter()
                        .find(|(_, f)| f.ty == crate::model::BsonType::Date)
                        .map(|(n, _)| n.clone())
                })
                .unwrap_or_else(|| "_id".into());
            let me = param("me._id");
            let mut c = match s {
                Strategy::FanOutOnRead => {
                    Command::new(i, &coll, Find, doc! { "to": me }, "items addressed to me")
                }
                Strategy::FanOutOnWrite => {
                    Command::new(i, &coll, Find, doc! { "owner": me }, "my copies")
                }
                Strategy::BucketedFanOut { .. } => {
                    Command::new(i, &coll, Find, doc! { "owner": me }, "my newest buckets")
                }
                _ => return,
            };
            if let Strategy::BucketedFanOut { size } = s {
                c.sort = Some(doc! { "sequence": -1 });
                c.limit = Some(page_size.div_ceil(*size) + 1);
            } else {
                c.sort = Some(doc! { date: -1 });
                c.limit = Some(*page_size);
            }
            out.push(c);
        }
    }
}
