//! A preset's model text with one relationship's strategy overridden, as the page's strategy
//! picker writes it: shared by the tests that walk every strategy the picker offers.

/// Returns the preset's model with `relationship` overridden by `strategy` (as JSON).
pub fn with_override(text: &str, relationship: &str, strategy: serde_json::Value) -> String {
    let mut v: serde_json::Value = serde_json::from_str(text).unwrap();
    let design = v
        .as_object_mut()
        .unwrap()
        .entry("design")
        .or_insert_with(|| serde_json::json!({}));
    let overrides = design
        .as_object_mut()
        .unwrap()
        .entry("relationships")
        .or_insert_with(|| serde_json::json!({}));
    overrides[relationship] = strategy;
    v.to_string()
}
