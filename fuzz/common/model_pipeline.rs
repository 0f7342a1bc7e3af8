//! What the model targets run on a parsed model: every design, its numbers and warnings, and
//! generation at a small sample, with every document sized at full scale.

use squillion::analysis::analyze_layout;
use squillion::design::{layout_model, layout_named, DesignName};
use squillion::generate::generate;
use squillion::model::Model;

/// Runs the whole pipeline on `model`; it must not panic, hang or allocate without bound.
pub fn run(mut model: Model) {
    // A small sample: the fuzzer explores shapes, not volume (the caps of generation itself
    // are tested by tests/suite/hostile.rs with the model's own sample).
    let cap = model.sample.max_documents.unwrap_or(3).min(3);
    model.sample.max_documents = Some(cap);
    let mut layouts = Vec::new();
    for name in [
        DesignName::Normalized,
        DesignName::Denormalized,
        DesignName::Bucketed,
    ] {
        if let Ok(l) = layout_named(&model, name) {
            layouts.push(l);
        }
    }
    if let Ok(l) = layout_model(&model) {
        layouts.push(l);
    }
    for layout in layouts {
        let _ = layout.plan.to_string();
        let a = analyze_layout(&model, layout);
        let data = generate(&model, &a.layout);
        for c in &data.collections {
            for i in 0..c.documents.len() {
                let _ = data.full_size(&c.name, i);
            }
        }
    }
}
