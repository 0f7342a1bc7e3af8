//! Any text → `parse_document`: never panics; whatever parses sizes exactly, analyzes
//! consistently and survives the writers.
#![no_main]

use bson::{Bson, Document};
use libfuzzer_sys::fuzz_target;
use squillion::ejson::{parse_document, to_canonical_ejson, to_relaxed_ejson, to_shell_string};
use squillion::size::{analyze, document_size};

/// Returns true when some document or sub-document of `doc` has a `$`-prefixed key: the
/// shell writer's documented exception (such a document may read back as a wrapper).
fn has_dollar_key(doc: &Document) -> bool {
    doc.iter()
        .any(|(k, v)| k.starts_with('$') || value_has_dollar_key(v))
}

fn value_has_dollar_key(v: &Bson) -> bool {
    match v {
        Bson::Document(d) => has_dollar_key(d),
        Bson::Array(a) => a.iter().any(value_has_dollar_key),
        Bson::JavaScriptCodeWithScope(c) => has_dollar_key(&c.scope),
        _ => false,
    }
}

/// Returns true when `doc` holds a NaN anywhere, a double's or a decimal's (its sign and
/// payload are not kept: Extended JSON and the shell write one `NaN`, as the BSON corpus's
/// decimal128 cases mark `-NaN` lossy).
fn has_nan(doc: &Document) -> bool {
    fn v(x: &Bson) -> bool {
        match x {
            Bson::Double(f) => f.is_nan(),
            // The combination field's five bits 11111 (`0x7c` of the high byte) mark a NaN.
            Bson::Decimal128(d) => d.bytes()[15] & 0x7c == 0x7c,
            Bson::Document(d) => has_nan(d),
            Bson::Array(a) => a.iter().any(v),
            _ => false,
        }
    }
    doc.iter().any(|(_, x)| v(x))
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(doc) = parse_document(text) else {
        return;
    };
    let bytes = doc
        .to_vec()
        .unwrap_or_else(|e| panic!("a parsed document must encode: {e}\n{text:?}"));
    let size = document_size(&doc);
    assert_eq!(size, bytes.len() as u64, "document_size vs encoder");

    let a = analyze(&doc);
    assert_eq!(a.size, size);
    let top: u64 = a
        .fields
        .iter()
        .filter(|f| f.depth == 1)
        .map(|f| f.key_bytes + f.value_bytes)
        .sum();
    assert_eq!(top + 5, a.size, "top-level rows add up to the size");
    let keys: u64 = a.fields.iter().map(|f| f.key_bytes - 1).sum();
    assert_eq!(keys, a.field_name_bytes + a.array_index_bytes);
    let containers = a.fields.iter().filter(|f| f.elements.is_some()).count() as u64 + 1;
    assert_eq!(a.framing_bytes, a.fields.len() as u64 + 5 * containers);

    let canonical = to_canonical_ejson(&doc);
    let again = parse_document(&canonical)
        .unwrap_or_else(|e| panic!("canonical EJSON reads back: {e}\n{canonical}"));
    // Extended JSON has one NaN: the sign and payload of `-NaN` are not kept (same size).
    if has_nan(&doc) {
        assert_eq!(
            to_canonical_ejson(&again),
            canonical,
            "canonical EJSON round trip"
        );
        assert_eq!(document_size(&again), size);
    } else {
        assert_eq!(
            again.to_vec().ok(),
            Some(bytes.clone()),
            "canonical EJSON round trip\n{canonical}"
        );
    }

    let _ = to_relaxed_ejson(&doc);

    for pretty in [false, true] {
        let shell = to_shell_string(&Bson::Document(doc.clone()), pretty);
        if has_dollar_key(&doc) {
            continue;
        }
        let again = parse_document(&shell)
            .unwrap_or_else(|e| panic!("shell form reads back: {e}\n{shell}"));
        if has_nan(&doc) {
            assert_eq!(
                to_canonical_ejson(&again),
                canonical,
                "shell round trip\n{shell}"
            );
        } else {
            assert_eq!(
                again.to_vec().ok(),
                Some(bytes.clone()),
                "shell round trip\n{shell}"
            );
        }
    }
});
