//! The in-memory document engine: a [`Database`] of collections of BSON documents with
//! MongoDB's query, update, projection, index and aggregation semantics, and for every command
//! the statistics `explain("executionStats")` and the write results would report.
//!
//! Commands are values ([`Command`]) run by [`Database::run`], which returns a
//! [`CommandResult`]: documents, [`Stats`] and, for reads, the winning plan ([`PlanStage`]).
//! The engine never reads a clock: "now" (for `$currentDate` and generated ObjectIds) is set
//! with [`Database::set_now`], so runs are reproducible and the engine works in WebAssembly.

pub mod aggregate;
pub mod collation;
pub mod collection;
pub mod columns;
pub mod command;
pub mod compare;
pub mod encode;
pub mod error;
pub mod exec;
pub mod expr;
pub mod index;
pub mod path;
pub mod plan;
pub mod planner;
pub mod projection;
pub mod query;
pub mod raw;
pub mod returned;
pub mod scan;
pub mod sort;
pub mod stats;
pub mod update;
pub mod write;

pub use collection::Collection;
pub use command::{Command, FindCommand, UpdateCommand};
pub use error::EngineError;
pub use index::{IndexOptions, IndexSpec};
pub use plan::PlanStage;
pub use planner::Hint;
pub use returned::Returned;
pub use stats::{ExecStats, LookupStats, Stats, WriteStats};

use crate::engine::error::Result;
use crate::engine::planner::Query;
use crate::engine::projection::Projection;
use crate::engine::query::Filter;
use crate::engine::sort::SortSpec;
use bson::{Bson, Document};
use serde::Serialize;
use std::collections::BTreeMap;

/// What a command returns: documents (found, aggregated, or the document of a
/// findOneAndUpdate), statistics, and the plan for commands that read.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CommandResult {
    /// The documents the command returns (stored documents as a shared copy of their bytes,
    /// decoded when read).
    #[serde(serialize_with = "ser_docs")]
    pub documents: Vec<Returned>,
    /// The `_id`s inserted (by an insert or an upsert).
    #[serde(serialize_with = "ser_values")]
    pub inserted_ids: Vec<Bson>,
    /// What the command cost.
    pub stats: Stats,
    /// The winning plan, for commands that read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plan: Option<PlanStage>,
}

impl CommandResult {
    /// Returns the result as `explain("executionStats")` shows it: `queryPlanner.winningPlan`
    /// and `executionStats` with mongod's names (`totalKeysExamined`, `totalDocsExamined`).
    pub fn explain(&self) -> serde_json::Value {
        let plan = self
            .plan
            .as_ref()
            .map(PlanStage::to_json)
            .unwrap_or(serde_json::Value::Null);
        let lookups: Vec<serde_json::Value> = self
            .stats
            .lookups
            .iter()
            .filter_map(|l| serde_json::to_value(l).ok())
            .collect();
        serde_json::json!({
            "queryPlanner": { "winningPlan": plan.clone() },
            "executionStats": {
                "nReturned": self.stats.exec.n_returned,
                "totalKeysExamined": self.stats.exec.keys_examined,
                "totalDocsExamined": self.stats.exec.docs_examined,
                "executionStages": plan,
                "lookups": lookups,
            }
        })
    }
}

fn ser_docs<S: serde::Serializer>(d: &[Returned], s: S) -> std::result::Result<S::Ok, S::Error> {
    d.iter()
        .map(|x| crate::ejson::to_relaxed_json(&Bson::Document(x.document().clone())))
        .collect::<Vec<_>>()
        .serialize(s)
}

fn ser_values<S: serde::Serializer>(d: &[Bson], s: S) -> std::result::Result<S::Ok, S::Error> {
    d.iter()
        .map(crate::ejson::to_relaxed_json)
        .collect::<Vec<_>>()
        .serialize(s)
}

/// A database: named collections, created on first write.
#[derive(Debug, Clone)]
pub struct Database {
    /// The database name used in messages (`test`).
    pub name: String,
    pub(crate) collections: BTreeMap<String, Collection>,
    now_millis: i64,
    oid_counter: u32,
}

impl Default for Database {
    fn default() -> Self {
        Database::new()
    }
}

impl Database {
    /// Returns an empty database named `test`, with "now" at 2024-01-01T00:00:00Z.
    pub fn new() -> Database {
        Database {
            name: "test".into(),
            collections: BTreeMap::new(),
            now_millis: 1_704_067_200_000,
            oid_counter: 0,
        }
    }

    /// Sets the time the engine uses for `$currentDate` and new ObjectIds (ms since epoch).
    pub fn set_now(&mut self, millis: i64) {
        self.now_millis = millis;
    }

    /// Returns the engine's current time (ms since epoch).
    pub fn now(&self) -> i64 {
        self.now_millis
    }

    /// Returns a new ObjectId: the "now" seconds, a fixed process part, a counter.
    pub fn next_object_id(&mut self) -> bson::oid::ObjectId {
        self.oid_counter = self.oid_counter.wrapping_add(1) & 0x00ff_ffff;
        let c = self.oid_counter.to_be_bytes();
        let secs = u32::try_from((self.now_millis / 1000).max(0)).unwrap_or(u32::MAX);
        bson::oid::ObjectId::from_parts(secs, [0x53, 0x71, 0x75, 0x69, 0x6c], [c[1], c[2], c[3]])
    }

    /// Returns the collection, if it exists.
    pub fn collection(&self, name: &str) -> Option<&Collection> {
        self.collections.get(name)
    }

    /// Returns the collection, creating it (with its `_id_` index) when missing.
    pub fn collection_mut(&mut self, name: &str) -> &mut Collection {
        let db = self.name.clone();
        self.collections
            .entry(name.to_string())
            .or_insert_with(|| Collection::new(&db, name))
    }

    /// Returns the collection names in order.
    pub fn collection_names(&self) -> Vec<String> {
        self.collections.keys().cloned().collect()
    }

    /// Drops every collection's scan caches (columns), so the next query runs as the first
    /// one after a load or a write does: what the benchmarks time as a cold run.
    pub fn drop_caches(&mut self) {
        for c in self.collections.values() {
            c.columns.clear();
        }
    }

    /// Drops a collection; returns true when it existed.
    pub fn drop_collection(&mut self, name: &str) -> bool {
        self.collections.remove(name).is_some()
    }

    /// Runs one command on one collection.
    pub fn run(&mut self, collection: &str, command: Command) -> Result<CommandResult> {
        match command {
            Command::Insert { documents, ordered } => {
                self.insert_many(collection, documents, ordered)
            }
            Command::Find(f) => self.find(collection, &f),
            Command::FindOne(mut f) => {
                f.limit = Some(1);
                self.find(collection, &f)
            }
            Command::Count(f) => self.count_documents(collection, &f),
            Command::Update(u) => self.update(collection, &u),
            Command::Delete { filter, multi } => self.delete(collection, &filter, multi),
            Command::FindOneAndUpdate {
                find,
                update,
                return_new,
            } => self.find_one_and_update(collection, &find, &update, return_new),
            Command::Aggregate { pipeline } => self.run_aggregate(collection, &pipeline),
            Command::CreateIndex { keys, options } => {
                let (name, written) = self
                    .collection_mut(collection)
                    .create_index(&keys, &options)?;
                let mut r = CommandResult::default();
                r.documents.push(bson::doc! {"name": name}.into());
                r.stats.write.index_keys_written = written;
                Ok(r)
            }
            Command::DropIndex { name } => {
                match self.collections.get_mut(collection) {
                    Some(c) => c.drop_index(&name)?,
                    None => {
                        return Err(EngineError::new(
                            26,
                            "NamespaceNotFound",
                            format!("ns not found {}.{collection}", self.name),
                        ))
                    }
                }
                Ok(CommandResult::default())
            }
            Command::ListIndexes => {
                let Some(c) = self.collections.get(collection) else {
                    return Err(EngineError::new(
                        26,
                        "NamespaceNotFound",
                        format!("ns does not exist: {}.{collection}", self.name),
                    ));
                };
                let mut r = CommandResult::default();
                for i in c.indexes() {
                    let mut d =
                        bson::doc! {"v": 2, "key": i.spec.key.clone(), "name": i.spec.name.clone()};
                    if i.spec.unique && i.spec.name != "_id_" {
                        d.insert("unique", true);
                    }
                    if i.spec.sparse {
                        d.insert("sparse", true);
                    }
                    if let Some(p) = &i.spec.partial_filter_expression {
                        d.insert("partialFilterExpression", p.clone());
                    }
                    r.documents.push(d.into());
                }
                Ok(r)
            }
        }
    }

    /// Returns the parsed query of a find command.
    pub fn parse_query(f: &FindCommand) -> Result<Query> {
        let collation = collation::parse_opt(f.collation.as_ref())?;
        let filter = Filter::parse(&f.filter)?;
        Ok(Query {
            filter: match &collation {
                Some(c) => filter.collated(c),
                None => filter,
            },
            collation,
            sort: match &f.sort {
                Some(s) => SortSpec::parse(s)?,
                None => SortSpec::default(),
            },
            skip: f.skip,
            limit: f.limit.filter(|l| *l > 0),
            projection: match &f.projection {
                Some(p) if !p.is_empty() => Some(Projection::parse(p)?),
                _ => None,
            },
            hint: f.hint.clone(),
        })
    }

    /// `find`: the documents in plan order (or sorted), projected, with the plan and stats.
    pub fn find(&self, collection: &str, f: &FindCommand) -> Result<CommandResult> {
        let q = Self::parse_query(f)?;
        let plan = planner::plan(self.collections.get(collection), &q)?;
        let (found, stats) = exec::execute_shared(&self.collections, collection, &plan)?;
        Ok(CommandResult {
            documents: found.into_iter().map(|(_, d)| d).collect(),
            inserted_ids: Vec::new(),
            stats,
            plan: Some(plan),
        })
    }

    /// `countDocuments`: one document `{ n: <count> }`; nReturned is the count.
    pub fn count_documents(&self, collection: &str, f: &FindCommand) -> Result<CommandResult> {
        let mut r = self.find(
            collection,
            &FindCommand {
                projection: None,
                sort: None,
                ..f.clone()
            },
        )?;
        let n = r.documents.len() as i64;
        r.documents = vec![bson::doc! {"n": n}.into()];
        Ok(r)
    }

    /// `aggregate`, read-only: a pipeline ending in `$out` or `$merge` is refused (code 20
    /// IllegalOperation), since it writes; [`Database::run_aggregate`] runs those.
    pub fn aggregate(&self, collection: &str, pipeline: &[Document]) -> Result<CommandResult> {
        if aggregate::ends_in_write(pipeline) {
            return Err(aggregate::needs_writer());
        }
        let out = aggregate::run(&self.collections, collection, pipeline)?;
        Ok(CommandResult {
            documents: out.documents.into_iter().map(Returned::from).collect(),
            inserted_ids: Vec::new(),
            stats: out.stats,
            plan: Some(out.plan),
        })
    }

    /// `explain` of an aggregate: the pipeline's stages run read-only for their statistics and
    /// plan, and a final `$out` or `$merge` is shown on top of the plan and checked (its
    /// target's `on` index) but never run: as mongod's explain, which does not write at any
    /// verbosity.
    pub fn explain_aggregate(
        &self,
        collection: &str,
        pipeline: &[Document],
    ) -> Result<CommandResult> {
        let out = aggregate::run(&self.collections, collection, pipeline)?;
        let mut stats = out.stats;
        if let Some(aggregate::Stage::Merge(spec)) = &out.writer {
            spec.check_target(self.collections.get(&spec.into))?;
        }
        let documents = match out.writer {
            Some(_) => {
                stats.exec.n_returned = 0;
                Vec::new()
            }
            None => out.documents.into_iter().map(Returned::from).collect(),
        };
        Ok(CommandResult {
            documents,
            inserted_ids: Vec::new(),
            stats,
            plan: Some(out.plan),
        })
    }

    /// `aggregate` that may write: a pipeline ending in `$out` (the output replaces a
    /// collection) or `$merge` (merged into one) runs its stages, then writes through the
    /// insert and update paths; the result has no documents (mongod returns an empty cursor),
    /// the read statistics of the stages, the write statistics of the writes, and the plan
    /// with the writing stage on top. Any other pipeline runs as [`Database::aggregate`] does.
    pub fn run_aggregate(
        &mut self,
        collection: &str,
        pipeline: &[Document],
    ) -> Result<CommandResult> {
        let out = aggregate::run(&self.collections, collection, pipeline)?;
        let mut stats = out.stats;
        stats.write = match out.writer {
            None => {
                return Ok(CommandResult {
                    documents: out.documents.into_iter().map(Returned::from).collect(),
                    inserted_ids: Vec::new(),
                    stats,
                    plan: Some(out.plan),
                })
            }
            Some(aggregate::Stage::Out(spec)) => self.write_out(&spec, out.documents)?,
            Some(aggregate::Stage::Merge(spec)) => self.write_merge(&spec, out.documents)?,
            Some(_) => return Err(aggregate::needs_writer()),
        };
        stats.exec.n_returned = 0;
        Ok(CommandResult {
            documents: Vec::new(),
            inserted_ids: Vec::new(),
            stats,
            plan: Some(out.plan),
        })
    }

    /// `insertOne`.
    pub fn insert_one(&mut self, collection: &str, doc: Document) -> Result<CommandResult> {
        self.insert_many(collection, vec![doc], true)
    }

    /// `updateOne`.
    pub fn update_one(
        &mut self,
        collection: &str,
        filter: Document,
        update: Document,
        upsert: bool,
    ) -> Result<CommandResult> {
        self.update(
            collection,
            &UpdateCommand {
                filter,
                update,
                upsert,
                ..Default::default()
            },
        )
    }

    /// `updateMany`.
    pub fn update_many(
        &mut self,
        collection: &str,
        filter: Document,
        update: Document,
        upsert: bool,
    ) -> Result<CommandResult> {
        self.update(
            collection,
            &UpdateCommand {
                filter,
                update,
                upsert,
                multi: true,
                ..Default::default()
            },
        )
    }

    /// `replaceOne`.
    pub fn replace_one(
        &mut self,
        collection: &str,
        filter: Document,
        replacement: Document,
        upsert: bool,
    ) -> Result<CommandResult> {
        self.update(
            collection,
            &UpdateCommand {
                filter,
                update: replacement,
                upsert,
                replace: true,
                ..Default::default()
            },
        )
    }

    /// `deleteOne`.
    pub fn delete_one(&mut self, collection: &str, filter: Document) -> Result<CommandResult> {
        self.delete(collection, &filter, false)
    }

    /// `deleteMany`.
    pub fn delete_many(&mut self, collection: &str, filter: Document) -> Result<CommandResult> {
        self.delete(collection, &filter, true)
    }

    /// `findOne`: the first matching document, if any.
    pub fn find_one(&self, collection: &str, filter: Document) -> Result<Option<Document>> {
        let r = self.find(
            collection,
            &FindCommand {
                filter,
                limit: Some(1),
                ..Default::default()
            },
        )?;
        Ok(r.documents.into_iter().next().map(Returned::into_document))
    }

    /// `createIndex`; returns the index name.
    pub fn create_index(
        &mut self,
        collection: &str,
        keys: Document,
        options: IndexOptions,
    ) -> Result<String> {
        Ok(self
            .collection_mut(collection)
            .create_index(&keys, &options)?
            .0)
    }

    /// `dropIndex`.
    pub fn drop_index(&mut self, collection: &str, name: &str) -> Result<()> {
        self.run(
            collection,
            Command::DropIndex {
                name: name.to_string(),
            },
        )
        .map(|_| ())
    }

    /// `listIndexes`: the index definitions.
    pub fn list_indexes(&self, collection: &str) -> Vec<IndexSpec> {
        self.collections
            .get(collection)
            .map(|c| c.indexes().iter().map(|i| i.spec.clone()).collect())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    #[test]
    fn results_serialize_with_explain_names() {
        let mut db = Database::new();
        assert!(db
            .insert_many(
                "c",
                vec![doc! {"_id": 1, "a": 1}, doc! {"_id": 2, "a": 2}],
                true
            )
            .is_ok());
        assert!(db
            .create_index("c", doc! {"a": 1}, IndexOptions::default())
            .is_ok());
        let r = db.find(
            "c",
            &FindCommand {
                filter: doc! {"a": 2},
                ..Default::default()
            },
        );
        let json = r
            .ok()
            .and_then(|r| serde_json::to_value(&r).ok())
            .unwrap_or_default();
        let stats = &json["stats"];
        assert_eq!(stats["nReturned"], 1);
        assert_eq!(stats["keysExamined"], 1);
        assert_eq!(stats["docsExamined"], 1);
        assert_eq!(stats["indexKeysWritten"], 0);
        assert_eq!(json["plan"]["stage"], "FETCH");
        assert_eq!(json["plan"]["inputStage"]["indexName"], "a_1");
        assert_eq!(json["plan"]["inputStage"]["indexBounds"]["a"][0], "[2, 2]");
        assert_eq!(json["documents"][0]["_id"], 1 + 1);
        let r = db.find(
            "c",
            &FindCommand {
                filter: doc! {"a": 2},
                ..Default::default()
            },
        );
        let e = r.map(|r| r.explain()).unwrap_or_default();
        assert_eq!(e["executionStats"]["totalKeysExamined"], 1);
        assert_eq!(e["queryPlanner"]["winningPlan"]["stage"], "FETCH");
    }

    #[test]
    fn commands_are_values() {
        let mut db = Database::new();
        let cmd = Command::Insert {
            documents: vec![doc! {"_id": 1}, doc! {"_id": 2}],
            ordered: true,
        };
        let r = db.run("c", cmd);
        assert_eq!(r.map(|r| r.stats.write.n_inserted).ok(), Some(2));
        let r = db.run("c", Command::Find(FindCommand::default()));
        assert_eq!(r.map(|r| r.documents.len()).ok(), Some(2));
    }
}
