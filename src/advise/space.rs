//! The candidate space: for every relationship the strategies validation allows it, with
//! parameters drawn from the model; the two ways of joining; and for every field a pattern of
//! the model (or of its preset's designs) names, that pattern or none. A candidate is one
//! choice per dimension, and becomes a [`DesignSpec`] a model can hold as its `design`.

use std::collections::BTreeMap;

use crate::design::Layout;
use crate::model::design::{
    named_strategy, strategies_for, DesignName, DesignSpec, FieldPattern, Joins, Strategy,
    DEFAULT_BUCKET, DEFAULT_SUBSET, DEFAULT_THRESHOLD,
};
use crate::model::{Model, Relationship, Step};

/// Continuation documents are sized to at most this share of the 16 MiB limit: the threshold
/// offered is the largest 1-2-5 number of ids at most an eighth of the relationship's
/// break point (social-graph: 844,411 → 100,000, the article's own threshold).
pub const CONTINUATION_SHARE: u64 = 8;

/// One dimension of the space: what varies and its options.
#[derive(Debug, Clone, PartialEq)]
pub enum Dimension {
    /// The strategy of one relationship.
    Relationship {
        /// The relationship's name.
        name: String,
        /// Its options, in [`Strategy::ALL`] order, parameters ascending.
        options: Vec<Strategy>,
    },
    /// How reads join.
    Joins(Vec<Joins>),
    /// One field's pattern: none, or one of the patterns named for it.
    Field {
        /// The entity.
        entity: String,
        /// The field.
        field: String,
        /// `None` (no pattern) first, then each pattern.
        options: Vec<Option<FieldPattern>>,
    },
}

impl Dimension {
    /// Returns how many options the dimension has.
    pub fn len(&self) -> usize {
        match self {
            Dimension::Relationship { options, .. } => options.len(),
            Dimension::Joins(j) => j.len(),
            Dimension::Field { options, .. } => options.len(),
        }
    }

    /// Returns true when the dimension has no option (never, for a space [`space`] makes).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The candidate space of a model.
#[derive(Debug, Clone, PartialEq)]
pub struct Space {
    /// The dimensions, relationships first (model order), then joins, then fields.
    pub dimensions: Vec<Dimension>,
}

/// One candidate: the option chosen in each dimension, by index.
pub type Candidate = Vec<usize>;

impl Space {
    /// Returns the number of designs in the space (the product of the dimensions' sizes,
    /// saturating).
    pub fn size(&self) -> u64 {
        self.dimensions
            .iter()
            .fold(1u64, |n, d| n.saturating_mul(d.len() as u64))
    }

    /// Returns the candidate with index `i` in mixed radix (dimension 0 varies slowest).
    pub fn nth(&self, mut i: u64) -> Candidate {
        let mut out = vec![0; self.dimensions.len()];
        for (slot, d) in out.iter_mut().zip(&self.dimensions).rev() {
            let n = d.len().max(1) as u64;
            *slot = usize::try_from(i % n).unwrap_or(0);
            i /= n;
        }
        out
    }

    /// Returns the design a candidate stands for, written as compactly as the model's
    /// `design` allows: the named base that needs the fewest overrides, then the
    /// relationships whose strategy differs from that base's.
    pub fn spec(&self, model: &Model, c: &Candidate) -> DesignSpec {
        let mut strategies: Vec<(&Relationship, Strategy)> = Vec::new();
        let mut joins = Joins::Application;
        let mut fields = Vec::new();
        for (d, &i) in self.dimensions.iter().zip(c) {
            match d {
                Dimension::Relationship { name, options } => {
                    if let (Some(r), Some(s)) = (model.relationship(name), options.get(i)) {
                        strategies.push((r, s.clone()));
                    }
                }
                Dimension::Joins(j) => joins = j.get(i).copied().unwrap_or_default(),
                Dimension::Field { options, .. } => {
                    if let Some(Some(p)) = options.get(i) {
                        fields.push(p.clone());
                    }
                }
            }
        }
        let overrides = |base: DesignName| -> BTreeMap<String, Strategy> {
            strategies
                .iter()
                .filter(|(r, s)| named_strategy(base, r, model) != *s)
                .map(|(r, s)| (r.name.clone(), s.clone()))
                .collect()
        };
        let (base, relationships) = DesignName::ALL
            .into_iter()
            .map(|b| (b, overrides(b)))
            .min_by_key(|(_, o)| o.len())
            .unwrap_or((DesignName::Normalized, BTreeMap::new()));
        DesignSpec {
            base,
            relationships,
            fields,
            joins,
            polymorphic: model.design.polymorphic.clone(),
        }
    }

    /// Returns the candidate closest to `spec`: each relationship's resolved strategy (or
    /// the option of the same strategy name), the spec's joins, and each field's pattern; the
    /// first option where nothing matches.
    pub fn candidate_of(&self, model: &Model, spec: &DesignSpec) -> Candidate {
        let resolved = crate::model::design::resolve(model, spec);
        self.dimensions
            .iter()
            .map(|d| match d {
                Dimension::Relationship { name, options } => {
                    let s = resolved.iter().find(|(n, _)| n == name).map(|(_, s)| s);
                    s.and_then(|s| {
                        options
                            .iter()
                            .position(|o| o == s)
                            .or_else(|| options.iter().position(|o| o.name() == s.name()))
                    })
                    .unwrap_or(0)
                }
                Dimension::Joins(j) => j.iter().position(|x| *x == spec.joins).unwrap_or(0),
                Dimension::Field {
                    entity,
                    field,
                    options,
                } => {
                    let p = spec.fields.iter().find(|p| target(p) == (entity, field));
                    options.iter().position(|o| o.as_ref() == p).unwrap_or(0)
                }
            })
            .collect()
    }
}

/// Returns the entity and field a pattern applies to.
pub fn target(p: &FieldPattern) -> (&str, &str) {
    match p {
        FieldPattern::Attribute { entity, field, .. }
        | FieldPattern::Computed { entity, field, .. }
        | FieldPattern::Preallocated { entity, field, .. }
        | FieldPattern::Gridfs { entity, field }
        | FieldPattern::ObjectStorage { entity, field }
        | FieldPattern::Approximate { entity, field, .. }
        | FieldPattern::Archive { entity, field, .. }
        | FieldPattern::DocumentVersioning { entity, field }
        | FieldPattern::SchemaVersioning { entity, field, .. }
        | FieldPattern::CaseInsensitiveIndex { entity, field } => (entity, field),
        // The whole entity's counters, addressed by the series field.
        FieldPattern::Measurements { entity, meta, .. } => (entity, meta),
        // The relationship whose embedded children it lays out.
        FieldPattern::Map {
            entity,
            relationship,
            ..
        } => (entity, relationship),
    }
}

/// Returns the candidate space of `model`.
pub fn space(model: &Model) -> Space {
    let mut dimensions: Vec<Dimension> = model
        .relationships
        .iter()
        .map(|r| Dimension::Relationship {
            name: r.name.clone(),
            options: relationship_options(model, r),
        })
        .collect();
    let joins_matter = model
        .workload
        .iter()
        .flat_map(|u| &u.steps)
        .any(|s| matches!(s, Step::Read { children, .. } if !children.is_empty()));
    dimensions.push(Dimension::Joins(if joins_matter {
        Joins::ALL.to_vec()
    } else {
        vec![Joins::Application]
    }));
    dimensions.extend(field_dimensions(model));
    Space { dimensions }
}

/// Returns the strategies relationship `r` may take, each parameter drawn from the model.
fn relationship_options(model: &Model, r: &Relationship) -> Vec<Strategy> {
    let limits = read_limits(model, r);
    let mut out: Vec<Strategy> = Vec::new();
    let mut add = |s: Strategy| {
        if !out.contains(&s) {
            out.push(s);
        }
    };
    for s in strategies_for(model, &r.name) {
        match s {
            Strategy::EmbedSubset { .. } => {
                for k in with_default(&limits, DEFAULT_SUBSET) {
                    add(Strategy::EmbedSubset { k });
                }
            }
            Strategy::Bucket { .. } => {
                for size in with_default(&limits, DEFAULT_BUCKET) {
                    add(Strategy::Bucket { size });
                }
            }
            Strategy::BucketedFanOut { .. } => {
                for size in with_default(&limits, DEFAULT_BUCKET) {
                    add(Strategy::BucketedFanOut { size });
                }
            }
            Strategy::Continuation { .. } => {
                for threshold in thresholds(model, r) {
                    add(Strategy::Continuation { threshold });
                }
            }
            Strategy::ReferenceInChild { .. } => {
                add(Strategy::ReferenceInChild { copy: Vec::new() });
                // The denormalized design's copies of the parent's lookup fields.
                let named = named_strategy(DesignName::Denormalized, r, model);
                if matches!(named, Strategy::ReferenceInChild { .. }) {
                    add(named);
                }
            }
            other => add(other),
        }
    }
    out
}

/// Returns `limits` with `default`, ascending, each once.
fn with_default(limits: &[u64], default: u64) -> Vec<u64> {
    let mut v: Vec<u64> = limits.iter().copied().filter(|&n| n > 0).collect();
    v.push(default);
    v.sort_unstable();
    v.dedup();
    v
}

/// Returns the numbers of children the workload reads of `r` at once: each read's `limit` of
/// them, each feed page's size.
fn read_limits(model: &Model, r: &Relationship) -> Vec<u64> {
    let mut out = Vec::new();
    for s in model.workload.iter().flat_map(|u| &u.steps) {
        match s {
            Step::Read { children, .. } => out.extend(
                children
                    .iter()
                    .filter(|c| c.relationship == r.name)
                    .filter_map(|c| c.limit),
            ),
            Step::ReadFeed {
                relationship,
                page_size,
            } if *relationship == r.name => out.push(*page_size),
            _ => {}
        }
    }
    out
}

/// Returns the continuation thresholds offered for `r`: the default, the p99 parent's count
/// (rounded up to 1-2-5) when it is far from the limit (a p99 parent then needs no
/// continuation document), and the largest 1-2-5 number at most an eighth of the break point
/// of an array of its ids ([`CONTINUATION_SHARE`]).
fn thresholds(model: &Model, r: &Relationship) -> Vec<u64> {
    let mut out = vec![DEFAULT_THRESHOLD];
    let break_point = ids_break_point(model, r);
    let cap = break_point.map_or(u64::MAX, |b| b / 2);
    let p99 = r.cardinality.count_at(0.99);
    let p99_up = nice_ceil(p99);
    if p99_up > 0 && p99_up <= cap {
        out.push(p99_up);
    }
    if let Some(b) = break_point {
        let safe = nice_floor(b / CONTINUATION_SHARE);
        if safe > 0 {
            out.push(safe);
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Returns the break point of `r`'s parent holding an array of its child ids (the arrays'
/// statistics, [`crate::stats::array_stats`], of the `reference_in_parent` layout: what
/// [`crate::stats::collection_stats`] reports, without simulating the sizes).
fn ids_break_point(model: &Model, r: &Relationship) -> Option<u64> {
    let mut spec = DesignSpec::default();
    spec.relationships
        .insert(r.name.clone(), Strategy::ReferenceInParent);
    let layout = Layout::build(model, &spec).ok()?;
    let parent = layout.collection_of(&r.parent)?;
    parent
        .shapes
        .iter()
        .flat_map(|s| crate::stats::array_stats(s, &model.start_date))
        .find(|a| a.relationship == r.name)
        .and_then(|a| a.break_point)
        .map(|b| b.count)
        .filter(|&c| c > 0)
}

/// Returns the largest 1-2-5 number (1, 2, 5, 10, 20, …) at most `n` (0 for 0).
pub fn nice_floor(n: u64) -> u64 {
    let mut best = 0;
    let mut p: u64 = 1;
    while p <= n {
        for m in [1, 2, 5] {
            let v = p.saturating_mul(m);
            if v <= n {
                best = v;
            }
        }
        p = p.saturating_mul(10);
        if p == u64::MAX {
            break;
        }
    }
    best
}

/// Returns the smallest 1-2-5 number at least `n` (0 for 0).
pub fn nice_ceil(n: u64) -> u64 {
    if n == 0 {
        return 0;
    }
    let f = nice_floor(n);
    if f == n {
        return n;
    }
    let mut p: u64 = 1;
    loop {
        for m in [1, 2, 5] {
            let v = p.saturating_mul(m);
            if v >= n {
                return v;
            }
        }
        if p > u64::MAX / 10 {
            return u64::MAX;
        }
        p *= 10;
    }
}

/// Returns the field dimensions: every field a pattern of the model's design or of one of its
/// preset's designs applies to, with no pattern (not for an attribute array: it has a form in
/// every design) and each pattern named for it.
fn field_dimensions(model: &Model) -> Vec<Dimension> {
    let mut all: Vec<&FieldPattern> = model.design.fields.iter().collect();
    if let Some(p) = &model.preset {
        all.extend(p.custom_designs.values().flat_map(|d| &d.fields));
    }
    let mut out: Vec<Dimension> = Vec::new();
    for p in all {
        let (entity, field) = target(p);
        let existing = out.iter_mut().find(|d| {
            matches!(d, Dimension::Field { entity: e, field: f, .. } if e == entity && f == field)
        });
        match existing {
            Some(Dimension::Field { options, .. }) => {
                if !options.iter().any(|o| o.as_ref() == Some(p)) {
                    options.push(Some(p.clone()));
                }
            }
            // An attribute array has a form whatever the design: without a pattern it is the
            // `key_value` array with no names for its key and value, so a `find_by_attribute`
            // step could not be planned on it. Its options are the attribute forms only.
            _ => out.push(Dimension::Field {
                entity: entity.to_string(),
                field: field.to_string(),
                options: if matches!(p, FieldPattern::Attribute { .. }) {
                    vec![Some(p.clone())]
                } else {
                    vec![None, Some(p.clone())]
                },
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_two_five_numbers() {
        assert_eq!(nice_floor(105_551), 100_000);
        assert_eq!(nice_floor(4_999), 2_000);
        assert_eq!(nice_floor(0), 0);
        assert_eq!(nice_ceil(4_999), 5_000);
        assert_eq!(nice_ceil(5_000), 5_000);
        assert_eq!(nice_ceil(1), 1);
        assert_eq!(nice_ceil(11), 20);
    }

    #[test]
    fn social_graph_offers_the_articles_threshold() {
        let m = crate::presets::find("social-graph")
            .unwrap()
            .model()
            .unwrap();
        let s = space(&m);
        let Dimension::Relationship { options, .. } = &s.dimensions[0] else {
            panic!("{:?}", s.dimensions[0]);
        };
        assert!(options.contains(&Strategy::Continuation { threshold: 100_000 }));
        // Every candidate is a design the model validates.
        for i in 0..s.size() {
            let spec = s.spec(&m, &s.nth(i));
            let mut v = serde_json::to_value(&m).unwrap();
            v["design"] = serde_json::to_value(&spec).unwrap();
            crate::model::parse_model(&v.to_string()).unwrap();
        }
    }
}
