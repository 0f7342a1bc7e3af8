//! Any text → `parse_stream`: never panics, and every item (document or error) has a line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use squillion::ejson::parse_stream;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let lines = text.lines().count().max(1);
    for item in parse_stream(text) {
        assert!(item.line >= 1, "line numbers are 1-based");
        assert!(
            item.line <= lines + 1,
            "line {} past the end ({lines})",
            item.line
        );
        if let Err(e) = &item.result {
            assert!(
                e.line >= 1 && e.column >= 1,
                "error position is 1-based: {e}"
            );
        }
    }
});
