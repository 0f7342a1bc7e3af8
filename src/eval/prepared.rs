//! A design's sample, generated and inserted once and kept for the next design that lays out
//! the same collections.
//!
//! The advisor evaluates several designs of one model, and checks each one's logical answers on
//! a smaller sample. Designs that differ only in how their reads join (`$lookup` or the
//! application), or in a plan that derives the same indexes, have the same collections with the
//! same document shapes: the same documents are generated and inserted for each. Generating,
//! inserting and dropping a sample is most of an evaluation's time (about half of host-logs'
//! advice), so [`Samples`] keeps the few latest ones and hands each later evaluation a copy of
//! the inserted database (a copy of bytes, far cheaper than encoding and indexing again).
//!
//! What a sample depends on is compared whole: the fitted model (its counts, seed and sample
//! size), the strategies (the order of kept arrays, trees, buckets) and the collections (their
//! shapes and indexes). The plan is not read by generation or insertion.

use std::cell::OnceCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use crate::design::{Collection, Layout, Strategy};
use crate::engine::Database;
use crate::generate::{generate, Dataset};
use crate::model::Model;

use super::{fitted_sample, materialize, memory, EvalError, EvalOptions};

/// Samples kept at most: enough for the designs the advisor verifies one after another (a
/// design and its `$lookup` twin, for the evaluation and for the answer check), few enough
/// that memory holds a handful of samples, not one per design.
const KEPT: usize = 4;

/// One sample: what it was made from, the documents and the database they were inserted into.
pub struct Prepared {
    /// The model fitted to the sample ([`fitted_sample`]): the evaluation reads its counts.
    pub model: Model,
    strategies: Vec<(String, Strategy)>,
    collections: Vec<Collection>,
    /// The generated documents.
    pub data: Dataset,
    /// Every document inserted and every index created, before any operation ran: a run
    /// works on a copy.
    pub db: Database,
    /// The compression ratios the storage estimate uses (time-series buckets, then every
    /// other collection), measured when first asked for: the answer check never asks.
    ratios: OnceCell<(BTreeMap<String, f64>, BTreeMap<String, f64>)>,
}

impl Prepared {
    /// Generates and inserts the sample of `layout` for `model` (fitted to it).
    fn new(model: Model, layout: &Layout) -> Result<Prepared, EvalError> {
        let data = generate(&model, layout);
        let db = materialize(layout, &data)?;
        Ok(Prepared {
            model,
            strategies: layout.strategies.clone(),
            collections: layout.collections.clone(),
            data,
            db,
            ratios: OnceCell::new(),
        })
    }

    /// Returns the compression ratios of the sample's collections: time-series buckets (by
    /// column compression and zstd), then the others (by snappy over their stored bytes).
    pub fn ratios(&self) -> &(BTreeMap<String, f64>, BTreeMap<String, f64>) {
        self.ratios.get_or_init(|| {
            let buckets = memory::bucket_ratios(&self.data, &self.collections);
            let stored = memory::stored_ratios(&self.data, &self.db, &buckets);
            (buckets, stored)
        })
    }

    /// True when this sample is the one `layout` of `model` would generate (`fitted` being
    /// `model` fitted to `layout` under the same options).
    fn serves(&self, fitted: &Model, layout: &Layout) -> bool {
        self.collections == layout.collections
            && self.strategies == layout.strategies
            && self.model == *fitted
    }
}

/// The latest samples made, reused by designs that lay out the same collections.
#[derive(Default)]
pub struct Samples {
    /// Oldest first.
    kept: Vec<Rc<Prepared>>,
}

impl Samples {
    /// Returns no samples yet.
    pub fn new() -> Samples {
        Samples::default()
    }

    /// Returns the sample of `layout` of `model` under `opts`: a kept one when it is the same,
    /// otherwise a new one, kept in place of the oldest.
    pub fn prepare(
        &mut self,
        model: &Model,
        layout: &Layout,
        opts: &EvalOptions,
    ) -> Result<Rc<Prepared>, EvalError> {
        let fitted = fitted_sample(model, layout, opts)?;
        if let Some(p) = self.kept.iter().find(|p| p.serves(&fitted, layout)) {
            return Ok(Rc::clone(p));
        }
        let p = Rc::new(Prepared::new(fitted, layout)?);
        if self.kept.len() >= KEPT {
            self.kept.remove(0);
        }
        self.kept.push(Rc::clone(&p));
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::Samples;
    use crate::design::{DesignName, DesignSpec, Joins, Layout};
    use crate::eval::{answer, evaluate_layout, evaluate_layout_in, EvalOptions};

    /// A design evaluated (and its answers checked) on a kept sample gives exactly what it
    /// gives on a sample of its own: each design of blog and social-feed, application joins
    /// then `$lookup` (the same collections: the second takes the first's sample), with
    /// another design between them (a miss that keeps the first sample).
    #[test]
    fn a_kept_sample_evaluates_and_checks_as_a_fresh_one() {
        for preset in ["blog", "social-feed"] {
            let model = crate::presets::find(preset).unwrap().model().unwrap();
            let spec = |base, joins| {
                let mut s = DesignSpec::named(base, &model.design);
                s.joins = joins;
                s
            };
            let specs = [
                spec(DesignName::Normalized, Joins::Application),
                spec(DesignName::Denormalized, Joins::Application),
                spec(DesignName::Normalized, Joins::Lookup),
            ];
            let small = EvalOptions {
                max_documents: Some(30),
                ..EvalOptions::default()
            };
            let mut samples = Samples::new();
            for s in &specs {
                let layout = Layout::build(&model, s).unwrap();
                let kept =
                    evaluate_layout_in(&model, layout.clone(), &small, &mut samples, &mut |_| {})
                        .unwrap();
                let fresh = evaluate_layout(&model, layout.clone(), &small).unwrap();
                assert_eq!(
                    serde_json::to_value(&kept).unwrap(),
                    serde_json::to_value(&fresh).unwrap(),
                    "{preset} {s:?}"
                );
                let stats = crate::stats::of_layout(&layout, &model.start_date);
                let kept = answer::check_in(&model, &layout, &small, &mut samples, &stats).unwrap();
                let fresh = answer::check(&model, &layout, &small).unwrap();
                assert_eq!(kept.problems, fresh.problems, "{preset} {s:?}");
                assert_eq!(kept.checked, fresh.checked, "{preset} {s:?}");
            }
            // Normalized with `$lookup` took the sample of normalized with application joins.
            assert_eq!(samples.kept.len(), 2, "{preset}");
        }
    }
}
