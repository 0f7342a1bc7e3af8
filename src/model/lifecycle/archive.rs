//! `archive`: documents older than `after_days` moved to `<entity>_archive`. The live
//! collection keeps the last `after_days` days of growth, the archive the rest; the move is an
//! insert into the archive and a delete from the live collection at the entity's growth rate;
//! `old_share` of the reads of the entity read the archive too (one more query).

use super::{inserts_per_sec, DAY};
use crate::model::{
    ChildRead, DesignSpec, Distribution, Model, Relationship, Step, Strategy, Unit,
};

/// Returns the name of the archive of `entity` (`reading_archive`): its entity, its collection.
pub fn archive_name(entity: &str) -> String {
    format!("{entity}_archive")
}

/// How an archive splits an entity's documents.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Archived {
    /// New documents a day (the growth the move keeps pace with).
    pub per_day: f64,
    /// Documents in the live collection: the last `after_days` days of growth, at most all.
    pub live: f64,
    /// Documents in the archive: the rest.
    pub archived: f64,
}

impl Archived {
    /// Returns how `after_days` splits the `count` documents of `entity` in `model`.
    pub fn of(model: &Model, entity: &str, after_days: u64) -> Archived {
        let count = model.entity(entity).map_or(0.0, |e| e.count);
        let per_day = growth_per_day(model, entity);
        let live = (per_day * after_days as f64).min(count).round();
        Archived {
            per_day,
            live,
            archived: (count - live).max(0.0),
        }
    }
}

/// Returns the documents of `entity` created a day: the workload's inserts of it, else the
/// growth of the relationships it is the child of (a typical parent's growth × parents).
pub fn growth_per_day(model: &Model, entity: &str) -> f64 {
    let by_workload = inserts_per_sec(model, entity) * DAY;
    if by_workload > 0.0 {
        return by_workload;
    }
    model
        .relationships
        .iter()
        .filter(|r| r.child == entity && !r.many_to_many)
        .filter_map(|r| {
            let g = r.growth_per_day.as_ref()?;
            Some(g.typical * model.entity(&r.parent)?.count)
        })
        .sum()
}

/// Returns `d` with every count multiplied by `k` (rounded, the median at least 1 where the
/// shape needs one).
fn scaled(d: &Distribution, k: f64) -> Distribution {
    let s = |x: f64| (x * k).round();
    let pos = |x: f64| (x * k).round().max(1.0);
    match d {
        Distribution::Fixed { value } => Distribution::Fixed { value: s(*value) },
        Distribution::Uniform { min, max } => Distribution::Uniform {
            min: s(*min),
            max: s(*max),
        },
        Distribution::Normal { mean, sd, min, max } => Distribution::Normal {
            mean: mean * k,
            sd: sd * k,
            min: s(*min),
            max: s(*max),
        },
        Distribution::Zipf {
            min,
            typical,
            p99,
            max,
        } => Distribution::Zipf {
            min: s(*min).min(pos(*typical)),
            typical: pos(*typical),
            p99: pos(*p99),
            max: pos(*max),
        },
        Distribution::Lognormal { typical, p99, max } => Distribution::Lognormal {
            typical: pos(*typical),
            p99: pos(*p99),
            max: pos(*max),
        },
        other => other.clone(),
    }
}

/// Splits `entity` into its live documents and `<entity>_archive` (see the module).
pub(super) fn apply(
    model: &mut Model,
    spec: &mut DesignSpec,
    entity: &str,
    after_days: u64,
    old_share: f64,
) {
    let name = archive_name(entity);
    let Some(e) = model.entity(entity).cloned() else {
        return;
    };
    if model.entity(&name).is_some() || e.count <= 0.0 {
        return;
    }
    let split = Archived::of(model, entity, after_days);
    let (live_k, old_k) = (split.live / e.count, split.archived / e.count);
    let mut archive = e.clone();
    archive.name = name.clone();
    archive.count = split.archived;
    if let Some(live) = model.entities.iter_mut().find(|x| x.name == entity) {
        live.count = split.live;
    }
    model.entities.push(archive);
    // Each relationship the entity is the child of: the live children are the last days',
    // and the archive's documents keep their parent reference.
    let mut archived_rels: Vec<(String, String)> = Vec::new();
    let mut added: Vec<Relationship> = Vec::new();
    for r in model
        .relationships
        .iter_mut()
        .filter(|r| r.child == entity && !r.many_to_many)
    {
        let mut a = r.clone();
        a.name = archive_name(&r.name);
        a.child = name.clone();
        a.cardinality = scaled(&r.cardinality, old_k);
        a.growth_per_day = None;
        a.field = Some(archive_name(r.array_field()));
        a.parent_field = Some(r.parent_ref());
        r.cardinality = scaled(&r.cardinality, live_k);
        spec.relationships.insert(
            a.name.clone(),
            Strategy::ReferenceInChild { copy: Vec::new() },
        );
        archived_rels.push((r.name.clone(), a.name.clone()));
        added.push(a);
    }
    model.relationships.extend(added);
    let mut out: Vec<Unit> = Vec::with_capacity(model.workload.len() + 1);
    for u in model.workload.drain(..) {
        let old = old_reads(&u.steps, entity, &name, &archived_rels);
        match old {
            Some(steps) if old_share > 0.0 => {
                out.push(Unit {
                    name: u.name.clone(),
                    rate_per_sec: u.rate_per_sec * (1.0 - old_share),
                    steps: u.steps.clone(),
                });
                out.push(Unit {
                    name: format!("{} (old data)", u.name),
                    rate_per_sec: u.rate_per_sec * old_share,
                    steps,
                });
            }
            _ => out.push(u),
        }
    }
    out.push(Unit {
        name: format!("archive {entity} older than {after_days} days"),
        rate_per_sec: split.per_day / DAY,
        steps: vec![
            Step::Insert {
                entity: name.clone(),
            },
            Step::Delete {
                entity: entity.to_string(),
            },
        ],
    });
    model.workload = out;
}

/// Returns the steps of a unit reading old data as well, when it reads the entity: a read of
/// its children also reads the archive's, a list of it also lists the archive.
fn old_reads(
    steps: &[Step],
    entity: &str,
    archive: &str,
    rels: &[(String, String)],
) -> Option<Vec<Step>> {
    let mut touched = false;
    let mut out = Vec::with_capacity(steps.len() + 1);
    for s in steps {
        match s {
            Step::Read {
                entity: e,
                by,
                children,
                case_insensitive,
            } => {
                let mut more: Vec<ChildRead> = Vec::new();
                for c in children {
                    more.push(c.clone());
                    if let Some((_, a)) = rels.iter().find(|(r, _)| r == &c.relationship) {
                        let mut old = c.clone();
                        old.relationship = a.clone();
                        more.push(old);
                        touched = true;
                    }
                }
                out.push(Step::Read {
                    entity: e.clone(),
                    by: by.clone(),
                    children: more,
                    case_insensitive: *case_insensitive,
                });
            }
            Step::List { entity: e, .. } if e == entity => {
                out.push(s.clone());
                let mut old = s.clone();
                if let Step::List { entity: e, .. } = &mut old {
                    *e = archive.to_string();
                }
                out.push(old);
                touched = true;
            }
            other => out.push(other.clone()),
        }
    }
    touched.then_some(out)
}
