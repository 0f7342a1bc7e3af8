//! The chosen design's last evaluation, kept across reloads: a returning visitor (a workshop
//! presenter reloading the page) sees the numbers as soon as the page is built, while the
//! worker starts and evaluates the other designs behind them.
//!
//! An evaluation is a pure function of the model's text, the design, the sample scale and the
//! code that evaluates (generation is seeded, the engine deterministic), so a kept one is not an
//! approximation: it is taken only when all four are the same, the code checked by
//! `SQUILLION_SOURCE_HASH` (build.rs: every source file, preset, catalogue and the lockfile).
//! One evaluation is kept (tens of KB in local storage, beside the model's autosave); storage
//! that is full or disabled keeps nothing and the page evaluates as before.

use crate::eval::Evaluation;
use crate::ui::storage;

use super::pipeline::Key;

/// The local-storage key of the kept evaluation.
const KEY: &str = "squillion.evaluation";

/// The build's source hash (build.rs).
const SOURCE: &str = env!("SQUILLION_SOURCE_HASH");

/// What is stored: the evaluation's inputs, its JSON (the worker's answer) and its time.
#[derive(serde::Serialize, serde::Deserialize)]
struct Kept {
    source: String,
    text: String,
    design: String,
    scale: Option<u64>,
    ms: f64,
    json: String,
}

/// Keeps `evaluation`, the evaluation of `key`, and how long it took, replacing the one kept
/// before. (Its JSON reads back to the same value: serde_json's `float_roundtrip`.)
pub fn keep(key: &Key, evaluation: &Evaluation, ms: f64) {
    let Ok(json) = serde_json::to_string(evaluation) else {
        return;
    };
    let kept = Kept {
        source: SOURCE.to_string(),
        text: key.text.to_string(),
        design: key.design.clone(),
        scale: key.scale,
        ms,
        json,
    };
    if let Ok(text) = serde_json::to_string(&kept) {
        storage::save(KEY, &text);
    }
}

/// Returns the kept evaluation's JSON and time when it was made by this build for `key`.
pub fn recall(key: &Key) -> Option<(String, f64)> {
    let kept: Kept = serde_json::from_str(&storage::load(KEY)?).ok()?;
    (kept.source == SOURCE
        && *kept.text == *key.text
        && kept.design == key.design
        && kept.scale == key.scale)
        .then_some((kept.json, kept.ms))
}
