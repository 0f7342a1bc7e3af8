//! Any text → `parse_command` (mongosh `db.coll.find(…)…`): never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use squillion::shell::parse_command;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Err(e) = parse_command(text) {
        assert!(
            e.line >= 1 && e.column >= 1,
            "error position is 1-based: {e}"
        );
    }
});
