//! `docs/model.schema.json` is generated from the model's types (`model::schema`, schemars):
//! this test fails when the checked-in file is stale. After a change of the model's types,
//! re-write it with
//!
//! ```sh
//! SQUILLION_BLESS=1 cargo test --test suite model_schema::
//! ```
//!
//! and read the diff: it is the change of the format.
#![cfg(not(target_arch = "wasm32"))]

use squillion::model::schema::model_schema;

const FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/model.schema.json");

#[test]
fn the_checked_in_schema_is_the_generated_one() {
    let mut text = serde_json::to_string_pretty(&model_schema()).unwrap_or_else(|e| panic!("{e}"));
    text.push('\n');
    if std::env::var_os("SQUILLION_BLESS").is_some() {
        std::fs::write(FILE, &text).unwrap_or_else(|e| panic!("cannot write {FILE}: {e}"));
        return;
    }
    let checked_in = std::fs::read_to_string(FILE).unwrap_or_default();
    assert!(
        checked_in == text,
        "docs/model.schema.json is stale: re-write it with `SQUILLION_BLESS=1 cargo test --test suite model_schema::` and read the diff"
    );
}
