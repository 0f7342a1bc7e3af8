//! The query planner: index bounds from a filter, candidate indexes ranked deterministically,
//! and the winning plan as a [`PlanStage`] tree, the one the executor runs and explain prints.
//!
//! Rules: an index is a candidate when the filter bounds its first field or it gives the
//! requested sort; a sparse index only when the filter excludes missing values; a partial index
//! only when the filter implies its partialFilterExpression. Candidates rank by (1) most
//! leading fields bound to one value, (2) fewest keys in bounds, (3) giving the sort,
//! (4) index name. No candidate (or `hint: {$natural: 1}`) means a COLLSCAN. A multikey field
//! never intersects two ranges (an array can satisfy each by a different element) and never
//! gives a sort.

mod bounds;
mod eligibility;
mod interval;
pub mod ranges;
pub mod regex;

pub use bounds::{index_intervals, normalize, predicate_intervals};
pub use interval::Interval;
pub use ranges::IndexBounds;

use bounds::{bounds_for, eq_prefix};
use eligibility::{excludes_missing, implies};

use crate::engine::collation::Collation;
use crate::engine::collection::Collection;
use crate::engine::error::{EngineError, Result};
use crate::engine::index::Index;
use crate::engine::plan::{PlanStage, SORT_MEM_LIMIT};
use crate::engine::projection::Projection;
use crate::engine::query::Filter;
use crate::engine::sort::SortSpec;
use bson::Bson;

/// How the caller wants the collection read.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum Hint {
    /// Let the planner choose.
    #[default]
    Auto,
    /// Force a collection scan (`hint: { $natural: 1 }`).
    Collscan,
    /// Force the index with this name.
    Index(String),
}

/// A parsed read: what a find (or the query part of a write) asks for.
#[derive(Debug, Clone)]
pub struct Query {
    /// The filter.
    pub filter: Filter,
    /// The sort (empty for natural order).
    pub sort: SortSpec,
    /// Documents to skip.
    pub skip: u64,
    /// The most documents to return (`None`: all).
    pub limit: Option<u64>,
    /// The projection.
    pub projection: Option<Projection>,
    /// The hint.
    pub hint: Hint,
    /// The collation strings compare under (its filter is collated already).
    pub collation: Option<crate::engine::collation::Collation>,
}

impl Query {
    /// Returns a query with only a filter.
    pub fn filter(filter: Filter) -> Query {
        Query {
            filter,
            sort: SortSpec::default(),
            skip: 0,
            limit: None,
            projection: None,
            hint: Hint::Auto,
            collation: None,
        }
    }
}

/// The bounds one index would scan for a filter.
struct Candidate {
    pos: usize,
    bounds: IndexBounds,
    absorbed: Vec<usize>,
    eq_prefix: usize,
    sort: Option<bool>,
    keys_estimate: u64,
}

/// Returns `Some(backward)` when scanning the index yields the requested sort order.
fn sort_direction(
    index: &Index,
    bounds: &[Vec<Interval>],
    sort: &SortSpec,
    collation: Option<&Collation>,
) -> Option<bool> {
    if sort.is_empty() {
        return Some(false);
    }
    // Folded keys give the order of the collation, which only a query under it asks for.
    if index.spec.collator.is_some() && index.spec.collator.as_ref() != collation {
        return None;
    }
    let fields = &index.spec.fields;
    let points = eq_prefix(bounds);
    let mut dir: Option<bool> = None;
    let mut next = points;
    for (path, desc) in &sort.keys {
        if index.field_is_multikey(path) {
            return None;
        }
        if fields.iter().take(points).any(|(f, _)| f == path) {
            continue;
        }
        let (f, fdesc) = fields.get(next)?;
        if f != path {
            return None;
        }
        let backward = desc != fdesc;
        if dir.is_some_and(|d| d != backward) {
            return None;
        }
        dir = Some(backward);
        next += 1;
    }
    Some(dir.unwrap_or(false))
}

/// Returns the plan tree for a query on a collection (an EOF when it does not exist).
pub fn plan(coll: Option<&Collection>, q: &Query) -> Result<PlanStage> {
    let Some(coll) = coll else {
        return Ok(PlanStage::Eof);
    };
    let conjuncts = q.filter.conjuncts();
    let mut chosen: Option<Candidate> = None;
    match &q.hint {
        Hint::Collscan => {}
        Hint::Index(name) => {
            let by_name = coll.indexes.iter().position(|i| i.spec.name == *name);
            // A key-pattern hint arrives as its default name; match indexes named otherwise too.
            let by_key = || {
                coll.indexes
                    .iter()
                    .position(|i| crate::engine::index::default_name(&i.spec.key) == *name)
            };
            let pos = by_name.or_else(by_key).ok_or_else(|| {
                EngineError::bad_value("error processing query: planner returned error :: caused by :: hint provided does not correspond to an existing index")
            })?;
            chosen = Some(candidate(
                coll,
                pos,
                &conjuncts,
                &q.sort,
                q.collation.as_ref(),
            ));
        }
        Hint::Auto => {
            chosen = best_candidate(coll, &conjuncts, &q.sort, q.collation.as_ref());
            if chosen.is_none() {
                if let [Filter::Or(clauses)] = conjuncts.as_slice() {
                    if let Some(plan) = or_plan(coll, q, clauses) {
                        return Ok(plan);
                    }
                }
            }
        }
    }
    Ok(build(coll, q, &conjuncts, chosen))
}

/// Returns the best index candidate for a conjunction, by the ranking rules.
fn best_candidate(
    coll: &Collection,
    conjuncts: &[&Filter],
    sort: &SortSpec,
    collation: Option<&Collation>,
) -> Option<Candidate> {
    let mut cands: Vec<Candidate> = Vec::new();
    for (pos, index) in coll.indexes.iter().enumerate() {
        let first = index
            .spec
            .fields
            .first()
            .map(|(f, _)| f.as_str())
            .unwrap_or("");
        let first_bound = conjuncts.iter().any(|c| {
            matches!(c, Filter::Path { path, op, .. } if path == first && index_intervals(index, op).is_some())
        });
        if index.spec.sparse {
            let ok = conjuncts.iter().any(|c| {
                matches!(c, Filter::Path { path, op, .. } if index.spec.fields.iter().any(|(f, _)| f == path) && excludes_missing(op))
            });
            if !ok {
                continue;
            }
        }
        if let Some(p) = &index.partial {
            if !implies(conjuncts, p) {
                continue;
            }
        }
        let c = candidate(coll, pos, conjuncts, sort, collation);
        if !first_bound && (sort.is_empty() || c.sort.is_none()) {
            continue;
        }
        cands.push(c);
    }
    if cands.len() > 1 {
        for c in &mut cands {
            if let Some(index) = coll.indexes.get(c.pos) {
                c.keys_estimate = ranges::count_keys(index, &c.bounds, 1_000_000);
            }
        }
    }
    cands.sort_by(|a, b| {
        b.eq_prefix
            .cmp(&a.eq_prefix)
            .then(a.keys_estimate.cmp(&b.keys_estimate))
            .then(b.sort.is_some().cmp(&a.sort.is_some()))
            .then_with(|| name_of(coll, a.pos).cmp(name_of(coll, b.pos)))
    });
    cands.into_iter().next()
}

/// Returns an OR plan for a filter that is one `$or` whose every clause can use an index:
/// `FETCH` (the whole filter) over `OR` over one IXSCAN per clause, record ids deduplicated.
fn or_plan(coll: &Collection, q: &Query, clauses: &[Filter]) -> Option<PlanStage> {
    let mut stages = Vec::new();
    for clause in clauses {
        let conjuncts = clause.conjuncts();
        let c = best_candidate(coll, &conjuncts, &SortSpec::default(), None)?;
        let index = coll.indexes.get(c.pos)?;
        stages.push(ixscan_stage(index, c.bounds, false));
    }
    let fetch = PlanStage::Fetch {
        filter: Some(q.filter.clone()),
        input: Box::new(PlanStage::Or { inputs: stages }),
    };
    let blocking_sort = !q.sort.is_empty();
    Some(wrap(fetch, q, blocking_sort, false))
}

fn ixscan_stage(index: &Index, bounds: IndexBounds, backward: bool) -> PlanStage {
    PlanStage::Ixscan {
        index_name: index.spec.name.clone(),
        key_pattern: index.spec.key.clone(),
        fields: index.spec.fields.clone(),
        is_multi_key: index.is_multikey(),
        is_unique: index.spec.unique,
        is_sparse: index.spec.sparse,
        is_partial: index.partial.is_some(),
        backward,
        bounds,
    }
}

/// Puts the SORT, SKIP, LIMIT and projection stages over an access stage.
fn wrap(mut root: PlanStage, q: &Query, blocking_sort: bool, covered: bool) -> PlanStage {
    if blocking_sort {
        root = PlanStage::Sort {
            sort: q.sort.clone(),
            mem_limit: SORT_MEM_LIMIT,
            limit_amount: q.limit.map(|l| l.saturating_add(q.skip)),
            input: Box::new(root),
        };
    }
    if q.skip > 0 {
        root = PlanStage::Skip {
            skip_amount: q.skip,
            input: Box::new(root),
        };
    }
    if let (Some(l), false) = (q.limit, blocking_sort) {
        root = PlanStage::Limit {
            limit_amount: l,
            input: Box::new(root),
        };
    }
    match &q.projection {
        Some(p) if covered => PlanStage::ProjectionCovered {
            projection: p.clone(),
            input: Box::new(root),
        },
        Some(p) => PlanStage::Projection {
            projection: p.clone(),
            input: Box::new(root),
        },
        None => root,
    }
}

fn name_of(coll: &Collection, pos: usize) -> &str {
    coll.indexes
        .get(pos)
        .map(|i| i.spec.name.as_str())
        .unwrap_or("")
}

fn candidate(
    coll: &Collection,
    pos: usize,
    conjuncts: &[&Filter],
    sort: &SortSpec,
    collation: Option<&Collation>,
) -> Candidate {
    let Some(index) = coll.indexes.get(pos) else {
        return Candidate {
            pos,
            bounds: Vec::new(),
            absorbed: Vec::new(),
            eq_prefix: 0,
            sort: None,
            keys_estimate: u64::MAX,
        };
    };
    let (bounds, absorbed) = bounds_for(index, conjuncts);
    let sort_dir = sort_direction(index, &bounds, sort, collation);
    // Counted only when candidates must be compared (see `best_candidate`).
    let keys_estimate = 0;
    Candidate {
        pos,
        eq_prefix: eq_prefix(&bounds),
        bounds,
        absorbed,
        sort: sort_dir,
        keys_estimate,
    }
}

/// Returns the conjunction of filters as one filter (`None` for none).
fn conjunction(list: &[&Filter]) -> Option<Filter> {
    match list {
        [] => None,
        [one] => Some((*one).clone()),
        many => Some(Filter::And(many.iter().map(|f| (*f).clone()).collect())),
    }
}

/// Returns true when the index answers the query and its projection alone: every conjunct is
/// absorbed by exact bounds, the projection only includes index fields (and drops `_id` unless
/// indexed), the index is not multikey, no blocking sort is needed, and every projected field's
/// bounds exclude null (so a missing field cannot be mistaken for a null key).
fn is_covered(index: &Index, c: &Candidate, q: &Query, residual: &[&Filter]) -> bool {
    let Some(p) = &q.projection else { return false };
    // Folded keys are not the stored strings: a case-insensitive index covers nothing.
    if index.spec.collator.is_some()
        || !residual.is_empty()
        || !p.inclusion
        || index.is_multikey()
        || (c.sort.is_none() && !q.sort.is_empty())
    {
        return false;
    }
    let mut leaves = Vec::new();
    if !include_leaves(&p.fields, "", &mut leaves) {
        return false;
    }
    leaves.iter().all(|(path, included)| {
        let pos = index.spec.fields.iter().position(|(f, _)| f == path);
        match (pos, included) {
            (None, false) => path == "_id",
            (None, true) => false,
            (Some(_), false) => true,
            (Some(i), true) => c.bounds.get(i).is_some_and(|list| {
                list.iter()
                    .all(|iv| !iv.contains(&Bson::Null) && !iv.contains(&Bson::Undefined))
            }),
        }
    })
}

/// Collects the projection's leaves as (path, included); false if any leaf is not a plain
/// inclusion or exclusion.
fn include_leaves(
    fields: &[(String, crate::engine::projection::Node)],
    prefix: &str,
    out: &mut Vec<(String, bool)>,
) -> bool {
    use crate::engine::projection::Node;
    for (k, node) in fields {
        let path = if prefix.is_empty() {
            k.clone()
        } else {
            format!("{prefix}.{k}")
        };
        match node {
            Node::Include => out.push((path, true)),
            Node::Exclude => out.push((path, false)),
            Node::Children(c) => {
                if !include_leaves(c, &path, out) {
                    return false;
                }
            }
            _ => return false,
        }
    }
    true
}

/// Returns the tree for one chosen index (or a COLLSCAN without one): the scan, a FETCH with
/// the filter the bounds do not answer unless the index covers the query, then the SORT,
/// SKIP, LIMIT and projection stages.
fn build(
    coll: &Collection,
    q: &Query,
    conjuncts: &[&Filter],
    chosen: Option<Candidate>,
) -> PlanStage {
    match chosen.and_then(|c| coll.indexes.get(c.pos).map(|i| (c, i))) {
        Some((c, index)) => {
            let backward = c.sort.unwrap_or(false);
            let residual: Vec<&Filter> = conjuncts
                .iter()
                .enumerate()
                .filter(|(i, _)| !c.absorbed.contains(i))
                .map(|(_, f)| *f)
                .collect();
            let covered = is_covered(index, &c, q, &residual);
            let blocking_sort = c.sort.is_none() && !q.sort.is_empty();
            let ixscan = ixscan_stage(index, c.bounds, backward);
            let access = if covered {
                ixscan
            } else {
                PlanStage::Fetch {
                    filter: conjunction(&residual),
                    input: Box::new(ixscan),
                }
            };
            wrap(access, q, blocking_sort, covered)
        }
        None => {
            let scan = PlanStage::Collscan {
                filter: conjunction(conjuncts),
            };
            wrap(scan, q, !q.sort.is_empty(), false)
        }
    }
}
