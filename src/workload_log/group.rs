//! Operations grouped by shape, as mloginfo's `--queries` groups them by namespace,
//! operation and pattern: per shape, its count and mongod's figures summed, its plans
//! counted, and its durations in a bounded quantile sketch. Memory is per shape, never per
//! line, and the number of shapes is bounded ([`MAX_SHAPES`]).

use std::collections::{BTreeMap, HashMap};

use serde_json::Value;

use super::entry::{Figures, Kind, Operation, Totals};
use crate::infer::sketch::Sketch;

/// The most shapes kept; operations of further shapes are counted apart
/// ([`Groups::overflow`]). A real application has tens to hundreds.
pub const MAX_SHAPES: usize = 10_000;

/// The most distinct plans kept per shape; the others are counted as `other`.
pub const MAX_PLANS: usize = 8;

/// What identifies a shape: namespace, command and the shapes of its parts.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ShapeKey {
    /// `database.collection`.
    pub namespace: String,
    /// The command.
    pub kind: Kind,
    /// The filter's shape, as compact JSON.
    pub filter: String,
    /// The sort, as compact JSON (empty: none).
    pub sort: String,
    /// The projection, as compact JSON (empty: none).
    pub projection: String,
    /// The update's shape, as compact JSON (empty: none).
    pub update: String,
    /// An aggregation's stage names (empty: not an aggregation).
    pub pipeline: String,
}

/// Everything seen of one shape.
#[derive(Debug, Clone)]
pub struct ShapeStats {
    /// The operation first seen with it (its shapes; its limit is the largest seen).
    pub operation: Operation,
    /// Operations counted.
    pub count: u64,
    /// Sum of `keysExamined` over the operations that report it, and how many do.
    pub keys_examined: (u64, u64),
    /// Sum of `docsExamined`, and how many report it.
    pub docs_examined: (u64, u64),
    /// Sum of `nreturned`, and how many report it.
    pub nreturned: (u64, u64),
    /// The largest `docsExamined` of a collection scan (`COLLSCAN`): the collection's size
    /// when it was read whole.
    pub collscan_docs: Option<u64>,
    /// Plan summary → times used (at most [`MAX_PLANS`], then `other`).
    pub plans: BTreeMap<String, u64>,
    /// Durations in milliseconds.
    pub durations: Sketch,
    /// Where it was first seen: source and line.
    pub first_seen: (String, u64),
    /// Operations counted from grouped entries (`$queryStats`), and their rate: each
    /// entry's count over its own span (at least a second), added up.
    pub grouped: (u64, f64),
    /// Grouped entries' execution times in microseconds: sum, operations, min, max.
    pub grouped_micros: Option<(u64, u64, u64, u64)>,
}

/// Shapes and their statistics, in the order first seen.
#[derive(Debug, Clone, Default)]
pub struct Groups {
    /// Shape → index into `shapes`.
    index: HashMap<ShapeKey, usize>,
    /// The shapes, in the order first seen.
    pub shapes: Vec<(ShapeKey, ShapeStats)>,
    /// Operations of shapes past [`MAX_SHAPES`].
    pub overflow: u64,
}

impl Groups {
    /// Counts `op` with its figures, first seen at `source`:`line`; returns its shape's
    /// index in [`Groups::shapes`] (none past [`MAX_SHAPES`]).
    pub fn add(
        &mut self,
        op: Operation,
        figures: &Figures,
        source: &str,
        line: u64,
    ) -> Option<usize> {
        let limit = op.limit;
        let i = self.slot(op, source, line)?;
        let s = self.shapes.get_mut(i).map(|(_, s)| s)?;
        s.count += 1;
        let sum = |total: &mut (u64, u64), n: Option<u64>| {
            if let Some(n) = n {
                total.0 = total.0.saturating_add(n);
                total.1 += 1;
            }
        };
        sum(&mut s.keys_examined, figures.keys_examined);
        sum(&mut s.docs_examined, figures.docs_examined);
        sum(&mut s.nreturned, figures.nreturned);
        if let Some(plan) = &figures.plan_summary {
            s.count_plan(plan, figures.docs_examined);
        }
        if let Some(d) = figures.duration_ms {
            s.durations.add(d);
        }
        s.widen_limit(limit);
        Some(i)
    }

    /// Counts the operations of a grouped entry (`$queryStats`) of `op`'s shape, first seen
    /// at `source`:`line`.
    pub fn add_totals(&mut self, op: Operation, totals: &Totals, source: &str, line: u64) {
        let limit = op.limit;
        let Some(s) = self
            .slot(op, source, line)
            .and_then(|i| self.shapes.get_mut(i))
            .map(|(_, s)| s)
        else {
            return;
        };
        let n = totals.count;
        s.count += n;
        let seconds = totals
            .span_ms
            .map_or(0.0, |(a, b)| (b - a).max(0) as f64 / 1000.0)
            .max(1.0);
        s.grouped = (s.grouped.0 + n, s.grouped.1 + n as f64 / seconds);
        let sum = |total: &mut (u64, u64), v: Option<u64>| {
            if let Some(v) = v {
                total.0 = total.0.saturating_add(v);
                total.1 += n;
            }
        };
        sum(&mut s.keys_examined, totals.keys_examined);
        sum(&mut s.docs_examined, totals.docs_examined);
        sum(&mut s.nreturned, totals.nreturned);
        if let Some((total, min, max)) = totals.micros.filter(|_| n > 0) {
            s.grouped_micros = Some(match s.grouped_micros {
                None => (total, n, min, max),
                Some((t, c, lo, hi)) => (t.saturating_add(total), c + n, lo.min(min), hi.max(max)),
            });
        }
        s.widen_limit(limit);
    }

    /// Returns the index of `op`'s shape, its statistics made when first seen (at
    /// `source`:`line`); none past [`MAX_SHAPES`] (counted as overflow).
    fn slot(&mut self, op: Operation, source: &str, line: u64) -> Option<usize> {
        let key = ShapeKey::of(&op);
        let i = match self.index.get(&key) {
            Some(i) => *i,
            None if self.shapes.len() >= MAX_SHAPES => {
                self.overflow += 1;
                return None;
            }
            None => {
                self.index.insert(key.clone(), self.shapes.len());
                self.shapes.push((key, ShapeStats::new(op, source, line)));
                self.shapes.len() - 1
            }
        };
        Some(i)
    }
}

impl ShapeKey {
    /// Returns the key of `op`'s shape.
    fn of(op: &Operation) -> ShapeKey {
        let text = |v: &Option<Value>| v.as_ref().map(Value::to_string).unwrap_or_default();
        ShapeKey {
            namespace: format!("{}.{}", op.database, op.collection),
            kind: op.kind,
            filter: op.filter.to_string(),
            sort: text(&op.sort),
            projection: text(&op.projection),
            update: text(&op.update),
            pipeline: op
                .pipeline
                .as_ref()
                .map(|p| p.join(","))
                .unwrap_or_default(),
        }
    }
}

impl ShapeStats {
    /// Returns the empty statistics of `op`'s shape, first seen at `source`:`line`.
    fn new(op: Operation, source: &str, line: u64) -> ShapeStats {
        ShapeStats {
            operation: op,
            count: 0,
            keys_examined: (0, 0),
            docs_examined: (0, 0),
            nreturned: (0, 0),
            collscan_docs: None,
            plans: BTreeMap::new(),
            durations: Sketch::default(),
            first_seen: (source.to_string(), line),
            grouped: (0, 0.0),
            grouped_micros: None,
        }
    }

    /// Counts a use of `plan` (and, for a collection scan, its documents examined).
    fn count_plan(&mut self, plan: &str, docs_examined: Option<u64>) {
        if plan == "COLLSCAN" {
            if let Some(d) = docs_examined {
                self.collscan_docs = Some(self.collscan_docs.map_or(d, |m| m.max(d)));
            }
        }
        let known = self.plans.contains_key(plan);
        let key = if known || self.plans.len() < MAX_PLANS {
            plan.to_string()
        } else {
            "other".to_string()
        };
        *self.plans.entry(key).or_insert(0) += 1;
    }

    /// Keeps the largest limit seen.
    fn widen_limit(&mut self, limit: Option<u64>) {
        if let Some(l) = limit {
            self.operation.limit = Some(self.operation.limit.map_or(l, |m| m.max(l)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn find(field: &str) -> Operation {
        Operation {
            filter: json!({ field: "?string" }),
            ..Operation::new("app", "c", Kind::Find)
        }
    }

    #[test]
    fn shapes_past_the_most_kept_are_counted_apart() {
        let mut groups = Groups::default();
        let figures = Figures::default();
        for i in 0..MAX_SHAPES + 5 {
            groups.add(find(&format!("f{i}")), &figures, "x.log", i as u64 + 1);
        }
        // A shape already kept is still counted.
        groups.add(find("f0"), &figures, "x.log", 1);
        assert_eq!(groups.shapes.len(), MAX_SHAPES);
        assert_eq!(groups.overflow, 5);
        assert_eq!(groups.shapes[0].1.count, 2);
    }

    #[test]
    fn plans_past_the_most_kept_are_other_and_collection_scans_give_a_size() {
        let mut groups = Groups::default();
        for i in 0..MAX_PLANS + 3 {
            let figures = Figures {
                plan_summary: Some(format!("IXSCAN {{ a{i}: 1 }}")),
                ..Figures::default()
            };
            groups.add(find("a"), &figures, "x.log", 1);
        }
        let scan = Figures {
            plan_summary: Some("COLLSCAN".to_string()),
            docs_examined: Some(4_200),
            duration_ms: Some(7),
            ..Figures::default()
        };
        groups.add(find("a"), &scan, "x.log", 2);
        let s = &groups.shapes[0].1;
        assert_eq!(s.plans.len(), MAX_PLANS + 1);
        assert_eq!(s.plans.get("other"), Some(&4));
        assert_eq!(s.collscan_docs, Some(4_200));
        assert_eq!(
            (s.count, s.durations.count(), s.docs_examined),
            (12, 1, (4_200, 1))
        );
    }
}
