//! Checks of case-insensitive matching: a `read` step's `case_insensitive` flag and the
//! `case_insensitive_index` field pattern.

use super::{describe, Checker};
use crate::lang::Text;
use serde_json::{Map, Value};

impl Checker {
    /// Checks a step's `case_insensitive`: true or false, and true only with a `by` field
    /// other than `_id` (an ObjectId has no case).
    pub(super) fn case_insensitive(&mut self, m: &Map<String, Value>, path: &str) {
        let Some(v) = m.get("case_insensitive") else {
            return;
        };
        if !v.is_boolean() {
            self.err(
                &format!("{path}.case_insensitive"),
                Text::new("expected-boolean").nested("found", describe(v)),
            );
            return;
        }
        let by = m.get("by").and_then(Value::as_str).unwrap_or("_id");
        if v.as_bool() == Some(true) && by == "_id" {
            self.err(
                &format!("{path}.case_insensitive"),
                Text::new("case-insensitive-by-id"),
            );
        }
    }
}
