//! Aggregation pipelines: stages parsed into [`Stage`] values, leading `$match`/`$sort`/
//! `$skip`/`$limit` pushed down to the query planner (so they use indexes), the rest stages of
//! the same plan tree over it, each run in memory ([`apply`]) over its input's documents.

pub mod group;
pub mod lookup;
pub mod merge;
pub mod out;
pub mod stages;

use crate::engine::collection::Collection;
use crate::engine::error::{EngineError, Result};
use crate::engine::exec;
use crate::engine::expr::Expr;
use crate::engine::plan::PlanStage;
use crate::engine::planner::{self, Hint, Query};
use crate::engine::projection::Projection;
use crate::engine::query::Filter;
use crate::engine::sort::SortSpec;
use crate::engine::stats::Stats;
use bson::{Bson, Document};
use std::collections::BTreeMap;

/// One parsed pipeline stage.
#[derive(Debug, Clone)]
pub enum Stage {
    /// `$match`.
    Match(Filter),
    /// `$project`.
    Project(Projection),
    /// `$addFields` / `$set`: computed fields.
    AddFields(Vec<(String, Expr)>),
    /// `$unset`: removed fields.
    Unset(Vec<String>),
    /// `$sort`.
    Sort(SortSpec),
    /// `$limit`.
    Limit(u64),
    /// `$skip`.
    Skip(u64),
    /// `$unwind`.
    Unwind(stages::UnwindSpec),
    /// `$group`.
    Group(group::GroupSpec),
    /// `$lookup` (equality form).
    Lookup(lookup::LookupSpec),
    /// `$count`: one document `{ <name>: n }`.
    Count(String),
    /// `$replaceRoot` / `$replaceWith`.
    ReplaceRoot(Expr),
    /// `$out`: the output replaces a collection (the last stage; run by
    /// [`crate::engine::Database::run_aggregate`]).
    Out(out::OutSpec),
    /// `$merge`: the output merged into a collection (the last stage; run by
    /// [`crate::engine::Database::run_aggregate`]).
    Merge(Box<merge::MergeSpec>),
}

impl Stage {
    /// Returns true for the stages that write a collection (`$out`, `$merge`).
    pub fn writes(&self) -> bool {
        matches!(self, Stage::Out(_) | Stage::Merge(_))
    }
}

/// Returns true when a pipeline ends in a stage that writes (`$out` or `$merge`), which only
/// [`crate::engine::Database::run_aggregate`] runs.
pub fn ends_in_write(pipeline: &[Document]) -> bool {
    pipeline
        .last()
        .and_then(|d| d.keys().next())
        .is_some_and(|k| k == "$out" || k == "$merge")
}

const KNOWN_UNSUPPORTED: &[&str] = &[
    "$bucket",
    "$bucketAuto",
    "$facet",
    "$graphLookup",
    "$sample",
    "$sortByCount",
    "$unionWith",
    "$densify",
    "$fill",
    "$geoNear",
    "$redact",
    "$setWindowFields",
    "$collStats",
    "$indexStats",
    "$documents",
];

/// Returns the parsed stage of one pipeline document (`{ $match: {...} }`).
pub fn parse_stage(d: &Document) -> Result<(String, Stage)> {
    if d.len() != 1 {
        return Err(EngineError::new(
            40323,
            "Location40323",
            "A pipeline stage specification object must contain exactly one field.",
        ));
    }
    let Some((name, arg)) = d.iter().next() else {
        return Err(EngineError::new(
            40323,
            "Location40323",
            "A pipeline stage specification object must contain exactly one field.",
        ));
    };
    let need_doc = || match arg {
        Bson::Document(x) => Ok(x),
        _ => Err(EngineError::failed_to_parse(format!(
            "the {name} stage specification must be an object"
        ))),
    };
    let stage = match name.as_str() {
        "$match" => Stage::Match(Filter::parse(need_doc()?)?),
        "$project" => {
            let spec = need_doc()?;
            if spec.is_empty() {
                return Err(EngineError::new(
                    51272,
                    "Location51272",
                    "$project specification must have at least one field",
                ));
            }
            Stage::Project(Projection::parse_aggregation(spec)?)
        }
        "$addFields" | "$set" => {
            let mut fields = Vec::new();
            for (k, v) in need_doc()? {
                fields.push((k.clone(), Expr::parse(v)?));
            }
            Stage::AddFields(stages::flatten_fields(fields))
        }
        "$unset" => match arg {
            Bson::String(s) => Stage::Unset(vec![s.clone()]),
            Bson::Array(a) => Stage::Unset(
                a.iter()
                    .map(|v| {
                        v.as_str().map(str::to_string).ok_or_else(|| {
                            EngineError::failed_to_parse(
                                "$unset specification must be a string or an array of strings",
                            )
                        })
                    })
                    .collect::<Result<_>>()?,
            ),
            _ => {
                return Err(EngineError::failed_to_parse(
                    "$unset specification must be a string or an array",
                ))
            }
        },
        "$sort" => {
            let s = SortSpec::parse(need_doc()?)?;
            if s.is_empty() {
                return Err(EngineError::new(
                    15976,
                    "Location15976",
                    "$sort stage must have at least one sort key",
                ));
            }
            Stage::Sort(s)
        }
        "$limit" => Stage::Limit(positive(name, arg, false)?),
        "$skip" => Stage::Skip(positive(name, arg, true)?),
        "$unwind" => Stage::Unwind(stages::UnwindSpec::parse(arg)?),
        "$group" => Stage::Group(group::GroupSpec::parse(need_doc()?)?),
        "$lookup" => Stage::Lookup(lookup::LookupSpec::parse(need_doc()?)?),
        "$count" => {
            let Bson::String(n) = arg else {
                return Err(EngineError::new(
                    40156,
                    "Location40156",
                    "the count field must be a non-empty string",
                ));
            };
            if n.is_empty() || n.starts_with('$') || n.contains('.') {
                return Err(EngineError::new(40158, "Location40158", "the count field must be a non-empty string, not start with '$' and not contain '.'"));
            }
            Stage::Count(n.clone())
        }
        "$replaceRoot" => Stage::ReplaceRoot(Expr::parse(
            need_doc()?.get("newRoot").unwrap_or(&Bson::Null),
        )?),
        "$replaceWith" => Stage::ReplaceRoot(Expr::parse(arg)?),
        "$out" => Stage::Out(out::OutSpec::parse(arg)?),
        "$merge" => Stage::Merge(Box::new(merge::MergeSpec::parse(arg)?)),
        other if KNOWN_UNSUPPORTED.contains(&other) => {
            return Err(EngineError::new(
                40324,
                "Location40324",
                format!("Pipeline stage {other} is not supported by the playground engine"),
            ))
        }
        other => return Err(EngineError::unknown_stage(other)),
    };
    Ok((name.clone(), stage))
}

/// Returns the documents one pipeline stage makes of its input (`$lookup` runs through
/// [`lookup::LookupSpec::run`], which also reports its cost).
pub fn apply(
    stage: &Stage,
    docs: Vec<Document>,
    collections: &BTreeMap<String, Collection>,
    stats: &mut Stats,
) -> Result<Vec<Document>> {
    Ok(match stage {
        Stage::Match(f) => docs.into_iter().filter(|d| f.matches(d)).collect(),
        Stage::Project(p) => docs.iter().map(|d| p.apply(d)).collect::<Result<_>>()?,
        Stage::AddFields(fields) => stages::add_fields(docs, fields)?,
        Stage::Unset(paths) => stages::unset(docs, paths),
        Stage::Sort(s) => {
            let mut docs = docs;
            s.sort_docs(&mut docs);
            docs
        }
        Stage::Limit(n) => docs
            .into_iter()
            .take(usize::try_from(*n).unwrap_or(usize::MAX))
            .collect(),
        Stage::Skip(n) => docs
            .into_iter()
            .skip(usize::try_from(*n).unwrap_or(usize::MAX))
            .collect(),
        Stage::Unwind(u) => stages::unwind(docs, u),
        Stage::Group(g) => g.run(&docs)?,
        Stage::Lookup(l) => {
            let (out, ls) = l.run(collections, docs)?;
            stats.lookups.push(ls);
            out
        }
        Stage::Count(n) => stages::count(&docs, n),
        Stage::ReplaceRoot(e) => stages::replace_root(docs, e)?,
        Stage::Out(_) | Stage::Merge(_) => return Err(needs_writer()),
    })
}

/// Returns the refusal of a writing stage on the read-only path: code 20 IllegalOperation.
pub fn needs_writer() -> EngineError {
    EngineError::new(
        20,
        "IllegalOperation",
        "a pipeline ending in $out or $merge writes a collection: run it with \
         Database::run_aggregate (or Database::run), not the read-only Database::aggregate",
    )
}

fn positive(name: &str, v: &Bson, zero_ok: bool) -> Result<u64> {
    let f = crate::engine::compare::as_f64(v).filter(|f| f.fract() == 0.0);
    match f {
        Some(f) if f > 0.0 || (zero_ok && f == 0.0) => Ok(f as u64),
        _ => Err(EngineError::new(
            15958,
            "Location15958",
            format!("the {name} must be positive"),
        )),
    }
}

/// The result of a pipeline: documents, statistics and the plan tree.
pub struct Output {
    /// The documents the pipeline produced.
    pub documents: Vec<Document>,
    /// What it cost.
    pub stats: Stats,
    /// The plan: the pushed-down query plan under the in-memory stages (and the writing
    /// stage, when there is one, on top).
    pub plan: PlanStage,
    /// The last stage when it writes (`$out`, `$merge`): not run; `documents` is its input.
    pub writer: Option<Stage>,
}

/// Runs a pipeline on `source` in a database of collections.
pub fn run(
    collections: &BTreeMap<String, Collection>,
    source: &str,
    pipeline: &[Document],
) -> Result<Output> {
    let mut parsed = Vec::new();
    for d in pipeline {
        parsed.push((parse_stage(d)?, d.clone()));
    }
    // A writing stage only comes last (mongod's 40601); it is taken off and returned unrun.
    let last = parsed.len().saturating_sub(1);
    if let Some(((name, _), _)) = parsed
        .iter()
        .enumerate()
        .find(|(i, ((_, s), _))| s.writes() && *i != last)
        .map(|(_, p)| p)
    {
        return Err(EngineError::new(
            40601,
            "Location40601",
            format!("{name} can only be the final stage in the pipeline"),
        ));
    }
    let writer = match parsed.last() {
        Some(((_, s), _)) if s.writes() => parsed.pop(),
        _ => None,
    };
    // Push down leading $match stages, then one $sort, then $skip / $limit.
    let mut query = Query::filter(Filter::And(Vec::new()));
    let mut matches = Vec::new();
    let mut rest = parsed.into_iter().peekable();
    while let Some(((_, Stage::Match(f)), _)) = rest.peek() {
        matches.push(f.clone());
        rest.next();
    }
    if matches.len() == 1 {
        query.filter = matches.remove(0);
    } else if !matches.is_empty() {
        query.filter = Filter::And(matches);
    }
    if let Some(((_, Stage::Sort(s)), _)) = rest.peek() {
        query.sort = s.clone();
        rest.next();
    }
    loop {
        match rest.peek() {
            Some(((_, Stage::Skip(n)), _)) if query.limit.is_none() => {
                query.skip = query.skip.saturating_add(*n);
                rest.next();
            }
            Some(((_, Stage::Limit(n)), _)) => {
                query.limit = Some(query.limit.map_or(*n, |l| l.min(*n)));
                rest.next();
            }
            _ => break,
        }
    }
    query.hint = Hint::Auto;
    // The plan: the pushed-down query, then one stage per remaining pipeline stage.
    let mut root = planner::plan(collections.get(source), &query)?;
    for ((name, stage), spec) in rest {
        root = match stage {
            Stage::Lookup(lookup) => {
                let index_name = lookup.foreign_index(collections);
                PlanStage::Lookup {
                    lookup,
                    index_name,
                    input: Box::new(root),
                }
            }
            stage => PlanStage::Stage {
                spec: spec.get(name.as_str()).cloned().unwrap_or(Bson::Null),
                name,
                stage: Box::new(stage),
                input: Box::new(root),
            },
        };
    }
    let (rows, stats) = exec::execute(collections, source, &root)?;
    let docs = rows.into_iter().map(|(_, d)| d).collect();
    let writer = writer.map(|((name, stage), spec)| {
        root = PlanStage::Stage {
            spec: spec.get(name.as_str()).cloned().unwrap_or(Bson::Null),
            name,
            stage: Box::new(stage.clone()),
            input: Box::new(root.clone()),
        };
        stage
    });
    Ok(Output {
        documents: docs,
        stats,
        plan: root,
        writer,
    })
}
