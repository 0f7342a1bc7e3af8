//! Any text → `parse_model`; whatever parses is laid out under the three named designs and its
//! own, measured, checked and generated at a small sample, without panicking, hanging or
//! allocating without bound.
#![no_main]

use libfuzzer_sys::fuzz_target;
use squillion::model::parse_model;

#[path = "../common/model_pipeline.rs"]
mod model_pipeline;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(model) = parse_model(text) {
        model_pipeline::run(model);
    }
});
