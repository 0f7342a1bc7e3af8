//! Any bytes → `bson::Document::from_reader` → `analyze`: never panics, and the analysis agrees
//! with the encoder.
#![no_main]

use libfuzzer_sys::fuzz_target;
use squillion::size::{analyze, analyze_with_limit, document_size};

fuzz_target!(|data: &[u8]| {
    let Ok(doc) = bson::Document::from_reader(data) else {
        return;
    };
    let a = analyze(&doc);
    assert_eq!(a.size, document_size(&doc));
    if let Ok(bytes) = doc.to_vec() {
        assert_eq!(a.size, bytes.len() as u64, "analysis vs encoder");
    }
    let b = analyze_with_limit(&doc, 3);
    assert_eq!(b.size, a.size);
    assert_eq!(b.fields.len() + b.fields_omitted, a.fields.len());
});
