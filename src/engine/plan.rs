//! Query plans as values: the tree explain's `queryPlanner.winningPlan` shows, with a
//! `Display` that prints it indented as mongosh does and a `Serialize` to explain-like JSON.

use crate::engine::compare::{compare, rank, shell};
use bson::{Bson, Document};
use serde::ser::{Serialize, Serializer};
use std::cmp::Ordering;
use std::fmt;

/// The memory a blocking SORT may use before spilling, as mongod's default (100 MiB).
pub const SORT_MEM_LIMIT: u64 = 104_857_600;

/// An interval of values in one index field, in BSON order.
#[derive(Debug, Clone, PartialEq)]
pub struct Interval {
    /// The low end.
    pub lo: Bson,
    /// True when the low end is included.
    pub lo_inc: bool,
    /// The high end.
    pub hi: Bson,
    /// True when the high end is included.
    pub hi_inc: bool,
}

impl Interval {
    /// Returns the interval holding only `v`.
    pub fn point(v: Bson) -> Interval {
        Interval {
            lo: v.clone(),
            lo_inc: true,
            hi: v,
            hi_inc: true,
        }
    }

    /// Returns `[MinKey, MaxKey]`, every value.
    pub fn full() -> Interval {
        Interval {
            lo: Bson::MinKey,
            lo_inc: true,
            hi: Bson::MaxKey,
            hi_inc: true,
        }
    }

    /// Returns true for a single value.
    pub fn is_point(&self) -> bool {
        self.lo_inc
            && self.hi_inc
            && compare(&self.lo, &self.hi) == Ordering::Equal
            && rank(&self.lo) == rank(&self.hi)
    }

    /// Returns true for `[MinKey, MaxKey]`.
    pub fn is_full(&self) -> bool {
        matches!(self.lo, Bson::MinKey) && matches!(self.hi, Bson::MaxKey)
    }

    /// Returns true when `v` lies in the interval.
    pub fn contains(&self, v: &Bson) -> bool {
        let lo = compare(v, &self.lo);
        let hi = compare(v, &self.hi);
        (lo == Ordering::Greater || (self.lo_inc && lo == Ordering::Equal))
            && (hi == Ordering::Less || (self.hi_inc && hi == Ordering::Equal))
    }

    /// Returns the intersection, `None` when empty.
    pub fn intersect(&self, other: &Interval) -> Option<Interval> {
        let (lo, lo_inc) = match compare(&self.lo, &other.lo) {
            Ordering::Greater => (self.lo.clone(), self.lo_inc),
            Ordering::Less => (other.lo.clone(), other.lo_inc),
            Ordering::Equal => (self.lo.clone(), self.lo_inc && other.lo_inc),
        };
        let (hi, hi_inc) = match compare(&self.hi, &other.hi) {
            Ordering::Less => (self.hi.clone(), self.hi_inc),
            Ordering::Greater => (other.hi.clone(), other.hi_inc),
            Ordering::Equal => (self.hi.clone(), self.hi_inc && other.hi_inc),
        };
        match compare(&lo, &hi) {
            Ordering::Greater => None,
            Ordering::Equal if !(lo_inc && hi_inc) => None,
            _ => Some(Interval {
                lo,
                lo_inc,
                hi,
                hi_inc,
            }),
        }
    }
}

impl fmt::Display for Interval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}, {}{}",
            if self.lo_inc { '[' } else { '(' },
            shell(&self.lo),
            shell(&self.hi),
            if self.hi_inc { ']' } else { ')' }
        )
    }
}

/// One stage of a plan, with its input stage(s).
#[derive(Debug, Clone, PartialEq)]
pub enum PlanStage {
    /// Nothing to scan: the collection does not exist.
    Eof,
    /// Scan every document in natural order.
    Collscan {
        /// The filter applied to each document.
        filter: Option<Document>,
        /// `forward` or `backward`.
        direction: String,
    },
    /// Walk an index between bounds.
    Ixscan {
        /// The index name.
        index_name: String,
        /// The key pattern.
        key_pattern: Document,
        /// True when some document put several keys in the index.
        is_multi_key: bool,
        /// True for a unique index.
        is_unique: bool,
        /// True for a sparse index.
        is_sparse: bool,
        /// True for a partial index.
        is_partial: bool,
        /// `forward` or `backward`.
        direction: String,
        /// The intervals walked, per field, as mongod prints them (`[5, 5]`).
        index_bounds: Vec<(String, Vec<String>)>,
    },
    /// Load each document the index points to and apply the rest of the filter.
    Fetch {
        /// The part of the filter the index bounds do not answer.
        filter: Option<Document>,
        /// The input.
        input: Box<PlanStage>,
    },
    /// A blocking in-memory sort.
    Sort {
        /// The sort.
        sort_pattern: Document,
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
        /// True for PROJECTION_SIMPLE.
        simple: bool,
        /// The projection.
        transform_by: Document,
        /// The input.
        input: Box<PlanStage>,
    },
    /// A projection built from index keys alone (no FETCH): `PROJECTION_COVERED`.
    ProjectionCovered {
        /// The projection.
        transform_by: Document,
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
        /// The stage's specification.
        spec: Bson,
        /// The input.
        input: Box<PlanStage>,
    },
    /// `$lookup` by equality, with how the foreign collection is searched.
    Lookup {
        /// The foreign collection.
        from: String,
        /// The local field.
        local_field: String,
        /// The foreign field.
        foreign_field: String,
        /// The output array field.
        as_field: String,
        /// `IndexedLoopJoin` (with an index name) or `NestedLoopJoin` (a COLLSCAN per document).
        strategy: String,
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
            PlanStage::Projection { simple: true, .. } => "PROJECTION_SIMPLE".into(),
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
            PlanStage::Collscan { filter, direction } => {
                if let Some(f) = filter {
                    out.push(("filter", Bson::Document(f.clone())));
                }
                out.push(("direction", s(direction)));
            }
            PlanStage::Ixscan {
                index_name,
                key_pattern,
                is_multi_key,
                is_unique,
                is_sparse,
                is_partial,
                direction,
                index_bounds,
            } => {
                out.push(("keyPattern", Bson::Document(key_pattern.clone())));
                out.push(("indexName", s(index_name)));
                out.push(("isMultiKey", Bson::Boolean(*is_multi_key)));
                out.push(("isUnique", Bson::Boolean(*is_unique)));
                out.push(("isSparse", Bson::Boolean(*is_sparse)));
                out.push(("isPartial", Bson::Boolean(*is_partial)));
                out.push(("direction", s(direction)));
                let mut b = Document::new();
                for (f, list) in index_bounds {
                    b.insert(f.clone(), Bson::Array(list.iter().map(|x| s(x)).collect()));
                }
                out.push(("indexBounds", Bson::Document(b)));
            }
            PlanStage::Fetch { filter, .. } => {
                if let Some(f) = filter {
                    out.push(("filter", Bson::Document(f.clone())));
                }
            }
            PlanStage::Sort {
                sort_pattern,
                mem_limit,
                limit_amount,
                ..
            } => {
                out.push(("sortPattern", Bson::Document(sort_pattern.clone())));
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
            PlanStage::Projection { transform_by, .. }
            | PlanStage::ProjectionCovered { transform_by, .. } => {
                out.push(("transformBy", Bson::Document(transform_by.clone())))
            }
            PlanStage::Stage { spec, .. } => out.push(("spec", spec.clone())),
            PlanStage::Lookup {
                from,
                local_field,
                foreign_field,
                as_field,
                strategy,
                index_name,
                ..
            } => {
                out.push(("from", s(from)));
                out.push(("as", s(as_field)));
                out.push(("localField", s(local_field)));
                out.push(("foreignField", s(foreign_field)));
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

    fn write_indented(&self, f: &mut fmt::Formatter<'_>, indent: usize) -> fmt::Result {
        let pad = "  ".repeat(indent + 1);
        writeln!(f, "{{")?;
        for (k, v) in self.fields() {
            writeln!(f, "{pad}{k}: {},", shell(&v))?;
        }
        if let Some(i) = self.input() {
            write!(f, "{pad}inputStage: ")?;
            i.write_indented(f, indent + 1)?;
            writeln!(f)?;
        }
        if let PlanStage::Or { inputs } = self {
            writeln!(f, "{pad}inputStages: [")?;
            for i in inputs {
                write!(f, "{pad}  ")?;
                i.write_indented(f, indent + 2)?;
                writeln!(f, ",")?;
            }
            writeln!(f, "{pad}]")?;
        }
        write!(f, "{}}}", "  ".repeat(indent))
    }
}

impl fmt::Display for PlanStage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_indented(f, 0)
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
    fn intervals() {
        let a = Interval {
            lo: Bson::Int32(1),
            lo_inc: false,
            hi: Bson::Double(f64::INFINITY),
            hi_inc: true,
        };
        let b = Interval {
            lo: Bson::Double(f64::NEG_INFINITY),
            lo_inc: true,
            hi: Bson::Int32(5),
            hi_inc: false,
        };
        let c = a.intersect(&b);
        assert_eq!(c.as_ref().map(|c| c.to_string()).as_deref(), Some("(1, 5)"));
        assert!(Interval::point(Bson::Int32(3)).is_point());
        assert_eq!(a.to_string(), "(1, inf.0]");
    }

    #[test]
    fn display_is_indented_like_explain() {
        let plan = PlanStage::Fetch {
            filter: Some(doc! {"b": {"$eq": 1}}),
            input: Box::new(PlanStage::Collscan {
                filter: None,
                direction: "forward".into(),
            }),
        };
        let text = plan.to_string();
        assert_eq!(
            text,
            "{\n  stage: \"FETCH\",\n  filter: { b: { $eq: 1 } },\n  inputStage: {\n    stage: \"COLLSCAN\",\n    direction: \"forward\",\n  }\n}"
        );
    }
}
