//! Everything Squillion says about one design of one model, in one serializable value: the
//! layout (collections, shapes, indexes, plan), full-scale statistics and warnings. The command
//! line and the page both print this, so they show the same numbers.

use serde::Serialize;

use crate::design::{DesignError, DesignName, Layout};
use crate::model::Model;
use crate::stats::CollectionStats;
use crate::warning::{check_with_stats, Warning};

/// One design's layout, numbers and findings.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Analysis {
    /// The layout (with its plan and indexes).
    pub layout: Layout,
    /// Full-scale statistics per collection, in layout order.
    pub stats: Vec<CollectionStats>,
    /// Every warning.
    pub warnings: Vec<Warning>,
    /// The design run on the engine (filled by [`compare`]; `None` from [`analyze`], which
    /// stays instant).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evaluation: Option<Box<crate::eval::Evaluation>>,
}

/// Returns the analysis of `layout` (a layout of `model`).
pub fn analyze_layout(model: &Model, layout: Layout) -> Analysis {
    let stats = crate::stats::of_layout(&layout, &model.start_date);
    let warnings = check_with_stats(model, &layout, &stats);
    Analysis {
        layout,
        stats,
        warnings,
        evaluation: None,
    }
}

/// Returns the analysis of the model's own design.
pub fn analyze(model: &Model) -> Result<Analysis, DesignError> {
    Ok(analyze_layout(model, crate::design::layout_model(model)?))
}

/// Returns the analysis of the model under each named design, then its own design when it has
/// overrides: the side-by-side comparison, each with its evaluation on the engine
/// ([`crate::eval::evaluate_layout`] with default options; `None` if the engine refused the
/// sample).
pub fn compare(model: &Model) -> Result<Vec<Analysis>, DesignError> {
    let mut out = Vec::new();
    for name in [
        DesignName::Normalized,
        DesignName::Denormalized,
        DesignName::Bucketed,
    ] {
        out.push(analyze_layout(
            model,
            crate::design::layout_named(model, name)?,
        ));
    }
    if !model.design.relationships.is_empty() {
        out.push(analyze(model)?);
    }
    for a in &mut out {
        a.evaluation = crate::eval::evaluate_layout(model, a.layout.clone(), &Default::default())
            .ok()
            .map(Box::new);
    }
    Ok(out)
}

/// Returns the analysis of every design `squillion compare` sets side by side
/// ([`crate::eval::offer::compared`]: a preset's own designs), in order, each with its id.
pub fn analyze_offered(model: &Model) -> Result<Vec<(String, Analysis)>, DesignError> {
    crate::eval::offer::compared(model)
        .into_iter()
        .map(|o| Ok((o.id.clone(), analyze_layout(&o.model, o.layout()?))))
        .collect()
}
