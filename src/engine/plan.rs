//! Query plans as values: the tree the planner builds, the executor (`engine::exec`) runs and
//! explain's `queryPlanner.winningPlan` shows, with a `Display` that prints it indented as
//! mongosh does and a `Serialize` to explain-like JSON.

use crate::engine::aggregate::lookup::LookupSpec;
use crate::engine::aggregate::Stage;
use crate::engine::planner::ranges::{shown, IndexBounds};
use crate::engine::projection::Projection;
use crate::engine::query::Filter;
use crate::engine::sort::SortSpec;
use bson::{Bson, Document};
use serde::ser::{Serialize, Serializer};
use std::fmt;

/// The memory a blocking SORT may use before spilling, as mongod's default (100 MiB).
pub const SORT_MEM_LIMIT: u64 = 104_857_600;

/// One stage of a plan, with its input stage(s). The planner builds the tree, the executor
/// (`engine::exec`) runs it stage by stage, and explain prints it: each stage holds what it
/// runs (a parsed filter, bounds, a sort, a projection, a pipeline stage), and its explain
/// fields are read from that.
#[derive(Debug, Clone)]
pub enum PlanStage {
    /// Nothing to scan: the collection does not exist.
    Eof,
    /// Scan every document in natural order (forward).
    Collscan {
        /// The filter applied to each document.
        filter: Option<Filter>,
    },
    /// Walk an index between bounds.
    Ixscan {
        /// The index name (the executor finds the index by it).
        index_name: String,
        /// The key pattern.
        key_pattern: Document,
        /// The fields and directions (`true` = descending).
        fields: Vec<(String, bool)>,
        /// True when some document put several keys in the index.
        is_multi_key: bool,
        /// True for a unique index.
        is_unique: bool,
        /// True for a sparse index.
        is_sparse: bool,
        /// True for a partial index.
        is_partial: bool,
        /// True when the index is walked backward (to give a descending sort).
        backward: bool,
        /// The intervals walked, per field, in value order.
        bounds: IndexBounds,
    },
    /// Load each document the index points to and apply the rest of the filter.
    Fetch {
        /// The part of the filter the index bounds do not answer.
        filter: Option<Filter>,
        /// The input.
        input: Box<PlanStage>,
    },
    /// A blocking in-memory sort.
    Sort {
        /// The sort.
        sort: SortSpec,
        /// The memory limit.
        mem_limit: u64,
        /// Keep only the first n (sort with limit).
        limit_amount: Option<u64>,
        /// The input.
        input: Box<PlanStage>,
    },
    /// Stop after n documents.
    Limit {
        /// n.
        limit_amount: u64,
        /// The input.
        input: Box<PlanStage>,
    },
    /// Drop the first n documents.
    Skip {
        /// n.
        skip_amount: u64,
        /// The input.
        input: Box<PlanStage>,
    },
    /// A projection: `PROJECTION_SIMPLE` (top-level fields) or `PROJECTION_DEFAULT`.
    Projection {
        /// The projection.
        projection: Projection,
        /// The input.
        input: Box<PlanStage>,
    },
    /// A projection built from index keys alone (no FETCH): `PROJECTION_COVERED`.
    ProjectionCovered {
        /// The projection.
        projection: Projection,
        /// The input (an IXSCAN, possibly under SKIP/LIMIT).
        input: Box<PlanStage>,
    },
    /// The union of several index scans (one per `$or` clause), record ids deduplicated.
    Or {
        /// The scans.
        inputs: Vec<PlanStage>,
    },
    /// An aggregation stage (`$group`, `$unwind`, ...) over its input.
    Stage {
        /// The stage name, e.g. `$group`.
        name: String,
        /// The stage's specification, as written.
        spec: Bson,
        /// The parsed stage.
        stage: Box<Stage>,
        /// The input.
        input: Box<PlanStage>,
    },
    /// `$lookup` by equality: an `IndexedLoopJoin` when the foreign field has a usable index
    /// (one index scan per input document), else a `NestedLoopJoin` (a COLLSCAN each).
    Lookup {
        /// The lookup.
        lookup: LookupSpec,
        /// The foreign index used, if any.
        index_name: Option<String>,
        /// The input.
        input: Box<PlanStage>,
    },
}

impl PlanStage {
    /// Returns the stage name as explain prints it.
    pub fn name(&self) -> String {
        match self {
            PlanStage::Eof => "EOF".into(),
            PlanStage::Collscan { .. } => "COLLSCAN".into(),
            PlanStage::Ixscan { .. } => "IXSCAN".into(),
            PlanStage::Fetch { .. } => "FETCH".into(),
            PlanStage::Sort { .. } => "SORT".into(),
            PlanStage::Limit { .. } => "LIMIT".into(),
            PlanStage::Skip { .. } => "SKIP".into(),
            PlanStage::Projection { projection, .. } if projection.is_simple() => {
                "PROJECTION_SIMPLE".into()
            }
            PlanStage::Projection { .. } => "PROJECTION_DEFAULT".into(),
            PlanStage::ProjectionCovered { .. } => "PROJECTION_COVERED".into(),
            PlanStage::Or { .. } => "OR".into(),
            PlanStage::Stage { name, .. } => name.clone(),
            PlanStage::Lookup { .. } => "$lookup".into(),
        }
    }

    /// Returns the input stage, if any.
    pub fn input(&self) -> Option<&PlanStage> {
        match self {
            PlanStage::Fetch { input, .. }
            | PlanStage::Sort { input, .. }
            | PlanStage::Limit { input, .. }
            | PlanStage::Skip { input, .. }
            | PlanStage::Projection { input, .. }
            | PlanStage::ProjectionCovered { input, .. }
            | PlanStage::Stage { input, .. }
            | PlanStage::Lookup { input, .. } => Some(input),
            _ => None,
        }
    }

    /// Returns the name of the index the plan scans, or `COLLSCAN` / `EOF`.
    pub fn access(&self) -> String {
        match self {
            PlanStage::Ixscan { index_name, .. } => index_name.clone(),
            PlanStage::Collscan { .. } => "COLLSCAN".into(),
            PlanStage::Eof => "EOF".into(),
            PlanStage::Or { inputs } => {
                format!(
                    "OR({})",
                    inputs
                        .iter()
                        .map(|i| i.access())
                        .collect::<Vec<_>>()
                        .join(",")
                )
            }
            other => other
                .input()
                .map(|i| i.access())
                .unwrap_or_else(|| "EOF".into()),
        }
    }

    /// Returns the name of the one index the plan scans (`None` for a COLLSCAN, EOF or OR).
    pub fn index_name(&self) -> Option<&str> {
        match self {
            PlanStage::Ixscan { index_name, .. } => Some(index_name),
            PlanStage::Collscan { .. } | PlanStage::Eof | PlanStage::Or { .. } => None,
            other => other.input().and_then(PlanStage::index_name),
        }
    }

    /// Returns the stage under a final projection: what a write reads (it projects the one
    /// document it returns itself).
    pub fn unprojected(&self) -> &PlanStage {
        match self {
            PlanStage::Projection { input, .. } | PlanStage::ProjectionCovered { input, .. } => {
                input
            }
            other => other,
        }
    }

    /// Returns true when a stage of this name appears in the tree.
    pub fn contains(&self, name: &str) -> bool {
        self.name() == name
            || self.input().is_some_and(|i| i.contains(name))
            || matches!(self, PlanStage::Or { inputs } if inputs.iter().any(|i| i.contains(name)))
    }

    /// Returns the stage's own fields (not its input), as explain names them.
    pub fn fields(&self) -> Vec<(&'static str, Bson)> {
        let s = |v: &str| Bson::String(v.to_string());
        let mut out = vec![("stage", s(&self.name()))];
        match self {
            PlanStage::Eof | PlanStage::Or { .. } => {}
            PlanStage::Collscan { filter } => {
                if let Some(f) = filter {
                    out.push(("filter", Bson::Document(f.to_document())));
                }
                out.push(("direction", s("forward")));
            }
            PlanStage::Ixscan {
                index_name,
                key_pattern,
                fields,
                is_multi_key,
                is_unique,
                is_sparse,
                is_partial,
                backward,
                bounds,
            } => {
                out.push(("keyPattern", Bson::Document(key_pattern.clone())));
                out.push(("indexName", s(index_name)));
                out.push(("isMultiKey", Bson::Boolean(*is_multi_key)));
                out.push(("isUnique", Bson::Boolean(*is_unique)));
                out.push(("isSparse", Bson::Boolean(*is_sparse)));
                out.push(("isPartial", Bson::Boolean(*is_partial)));
                out.push((
                    "direction",
                    s(if *backward { "backward" } else { "forward" }),
                ));
                let mut b = Document::new();
                for (f, list) in shown(fields, bounds, *backward) {
                    b.insert(f, Bson::Array(list.iter().map(|x| s(x)).collect()));
                }
                out.push(("indexBounds", Bson::Document(b)));
            }
            PlanStage::Fetch { filter, .. } => {
                if let Some(f) = filter {
                    out.push(("filter", Bson::Document(f.to_document())));
                }
            }
            PlanStage::Sort {
                sort,
                mem_limit,
                limit_amount,
                ..
            } => {
                out.push(("sortPattern", Bson::Document(sort.to_document())));
                out.push(("memLimit", Bson::Int64(*mem_limit as i64)));
                if let Some(l) = limit_amount {
                    out.push(("limitAmount", Bson::Int64(*l as i64)));
                }
                out.push(("type", s("simple")));
            }
            PlanStage::Limit { limit_amount, .. } => {
                out.push(("limitAmount", Bson::Int64(*limit_amount as i64)))
            }
            PlanStage::Skip { skip_amount, .. } => {
                out.push(("skipAmount", Bson::Int64(*skip_amount as i64)))
            }
            PlanStage::Projection { projection, .. }
            | PlanStage::ProjectionCovered { projection, .. } => {
                out.push(("transformBy", Bson::Document(projection.spec.clone())))
            }
            PlanStage::Stage { spec, .. } => out.push(("spec", spec.clone())),
            PlanStage::Lookup {
                lookup, index_name, ..
            } => {
                out.push(("from", s(&lookup.from)));
                out.push(("as", s(&lookup.as_field)));
                out.push(("localField", s(&lookup.local_field)));
                out.push(("foreignField", s(&lookup.foreign_field)));
                let strategy = if index_name.is_some() {
                    "IndexedLoopJoin"
                } else {
                    "NestedLoopJoin"
                };
                out.push(("strategy", s(strategy)));
                if let Some(i) = index_name {
                    out.push(("indexName", s(i)));
                }
            }
        }
        out
    }

    /// Returns the plan as explain-like JSON (`{ stage, ..., inputStage: {...} }`).
    pub fn to_json(&self) -> serde_json::Value {
        let mut m = serde_json::Map::new();
        for (k, v) in self.fields() {
            m.insert(k.to_string(), crate::ejson::to_relaxed_json(&v));
        }
        if let Some(i) = self.input() {
            m.insert("inputStage".into(), i.to_json());
        }
        if let PlanStage::Or { inputs } = self {
            let list = inputs.iter().map(|i| i.to_json()).collect();
            m.insert("inputStages".into(), serde_json::Value::Array(list));
        }
        serde_json::Value::Object(m)
    }

    /// Returns the plan as explain's document (`{ stage, …, inputStage: { … } }`), numbers
    /// that fit 32 bits as mongod sends them (`limitAmount: 10`, not a 64-bit `Long`).
    pub fn to_document(&self) -> Document {
        let mut d = Document::new();
        for (k, v) in self.fields() {
            let v = match v {
                Bson::Int64(n) => i32::try_from(n).map_or(Bson::Int64(n), Bson::Int32),
                other => other,
            };
            d.insert(k, v);
        }
        if let Some(i) = self.input() {
            d.insert("inputStage", i.to_document());
        }
        if let PlanStage::Or { inputs } = self {
            let list = inputs.iter().map(|i| Bson::Document(i.to_document()));
            d.insert("inputStages", Bson::Array(list.collect()));
        }
        d
    }
}

/// Two plans are equal when explain shows them the same.
impl PartialEq for PlanStage {
    fn eq(&self, other: &Self) -> bool {
        self.to_json() == other.to_json()
    }
}

/// Prints the plan as mongosh prints explain's `winningPlan` (`util.inspect`: single-quoted
/// strings, quoted keys where they are not identifiers, no trailing commas).
impl fmt::Display for PlanStage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::ejson::inspect_all(&Bson::Document(
            self.to_document(),
        )))
    }
}

impl Serialize for PlanStage {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(serializer)
    }
}

/// Serializes a document as relaxed extended JSON (for `#[serde(serialize_with)]`).
pub fn ser_doc<S: Serializer>(d: &Document, serializer: S) -> Result<S::Ok, S::Error> {
    crate::ejson::to_relaxed_json(&Bson::Document(d.clone())).serialize(serializer)
}

/// Serializes an optional document as relaxed extended JSON.
pub fn ser_opt_doc<S: Serializer>(d: &Option<Document>, serializer: S) -> Result<S::Ok, S::Error> {
    d.as_ref()
        .map(|d| crate::ejson::to_relaxed_json(&Bson::Document(d.clone())))
        .serialize(serializer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    #[test]
    fn display_is_indented_like_explain() {
        let filter = Filter::parse(&doc! {"b": 1}).ok();
        let plan = PlanStage::Fetch {
            filter,
            input: Box::new(PlanStage::Collscan { filter: None }),
        };
        let text = plan.to_string();
        // As mongosh prints it (Node's util.inspect of the same object): three levels fit on
        // one line; no trailing commas.
        assert_eq!(
            text,
            "{\n  stage: 'FETCH',\n  filter: { b: { '$eq': 1 } },\n  inputStage: { stage: 'COLLSCAN', direction: 'forward' }\n}"
        );
    }
}
