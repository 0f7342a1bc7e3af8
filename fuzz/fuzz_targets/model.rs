//! Any text → `parse_model`; whatever parses is laid out under the three named designs and its
//! own, measured, checked and generated at a small sample, without panicking, hanging or
//! allocating without bound.
#![no_main]

use libfuzzer_sys::fuzz_target;
use squillion::design::{layout_model, layout_named, DesignName};
use squillion::generate::generate;
use squillion::model::parse_model;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(mut model) = parse_model(text) else {
        return;
    };
    // A small sample: the fuzzer explores shapes, not volume.
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
        let a = squillion::analysis::analyze_layout(&model, layout);
        let data = generate(&model, &a.layout);
        for c in &data.collections {
            for i in 0..c.documents.len() {
                let _ = data.full_size(&c.name, i);
            }
        }
    }
});
