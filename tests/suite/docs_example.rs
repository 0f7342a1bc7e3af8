//! The annotated example in docs/model.md parses, lays out under every design, generates and
//! is checked.
#![cfg(not(target_arch = "wasm32"))]

use squillion::design::{layout_model, layout_named, DesignName};
use squillion::model::parse_model;

fn docs_example() -> String {
    let text = include_str!("../../docs/model.md");
    let start = text.find("```json\n").map(|i| i + 8).unwrap_or(0);
    let end = text[start..].find("```").map_or(text.len(), |i| start + i);
    text[start..end].to_string()
}

#[test]
fn docs_example_parses() {
    let model = parse_model(&docs_example()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(model.entities.len(), 2);
    assert_eq!(model.relationships.len(), 2);
    let layout = layout_model(&model).unwrap_or_else(|e| panic!("{e}"));
    if std::env::var("SQUILLION_SHOW").is_ok() {
        for c in &layout.collections {
            let st = squillion::stats::collection_stats(c, &model.start_date);
            println!("{}", serde_json::to_string_pretty(&st).unwrap_or_default());
            for i in &c.indexes {
                println!("{}", i.mongosh());
            }
        }
        for u in &layout.plan.units {
            for c in &u.commands {
                println!("{}: {}", u.unit, c.mongosh());
            }
        }
        for w in squillion::warning::check(&model, &layout) {
            println!(
                "{:?} {} {} {}: {}",
                w.severity, w.code, w.collection, w.path, w.message
            );
        }
    }
    for name in [
        DesignName::Normalized,
        DesignName::Denormalized,
        DesignName::Bucketed,
    ] {
        let l = layout_named(&model, name).unwrap_or_else(|e| panic!("{e}"));
        let data = squillion::generate::generate(&model, &l);
        assert!(data.document_count() > 0);
        assert!(data.document_count() < 5000, "{}", data.document_count());
    }
}

/// docs/model.schema.json is a draft 2020-12 JSON Schema whose top-level keys are the model's.
/// (It is generated, see tests/suite/model_schema.rs; it was also checked with Python's `jsonschema`
/// Draft202012Validator against every model in presets/ and tests/models/ and the docs
/// example: no errors.)
#[test]
fn schema_is_draft_2020_12_and_lists_the_top_level_keys() {
    let schema: serde_json::Value =
        serde_json::from_str(include_str!("../../docs/model.schema.json"))
            .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    let props: Vec<&str> = schema["properties"]
        .as_object()
        .map(|m| m.keys().map(String::as_str).collect())
        .unwrap_or_default();
    for k in [
        "entities",
        "relationships",
        "workload",
        "sharding",
        "design",
        "sample",
        "seed",
        "start_date",
    ] {
        assert!(props.contains(&k), "{k}");
    }
}

/// The analysis of every design serializes to JSON (what the CLI and the page print).
#[test]
fn analysis_serializes() {
    let model = parse_model(&docs_example()).unwrap_or_else(|e| panic!("{e}"));
    let all = squillion::analysis::compare(&model).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(all.len(), 4);
    let json = serde_json::to_value(&all).unwrap_or_default();
    assert_eq!(json[0]["layout"]["design"], "normalized");
    assert!(json[3]["stats"][0]["shapes"].is_array());
}
