//! The evaluation entry point of the page's Web Worker.
//!
//! `public/worker.js` loads the page's own wasm module; its start function finds no `window`
//! and calls [`register`] instead of mounting the app, which makes
//! `self.squillionEvaluate(modelText, design, optionsJson)` available to the worker's script.
//! The page calls [`evaluate_json`] directly when no worker can start.

use wasm_bindgen::prelude::*;

use crate::eval::summary::Summary;
use crate::eval::{evaluate_offered, EvalOptions};
use crate::model::parse_model;

/// Returns the evaluation (the page's part of what `squillion eval --design DESIGN --json`
/// prints, as [`Summary`] JSON) of the model in `model_text` under its offered design `design`, with `options_json` an
/// [`EvalOptions`] as JSON (`{"max_documents": 200}`; missing fields take their default), or
/// why it cannot be evaluated.
pub fn evaluate_json(model_text: &str, design: &str, options_json: &str) -> Result<String, String> {
    let model = parse_model(model_text).map_err(|e| {
        let first = e.errors.first().map(|x| x.to_string()).unwrap_or_default();
        format!("the model has {} problem(s): {first}", e.errors.len())
    })?;
    let opts: EvalOptions =
        serde_json::from_str(options_json).map_err(|e| format!("bad evaluation options: {e}"))?;
    let evaluation = evaluate_offered(&model, design, &opts).map_err(|e| e.to_string())?;
    serde_json::to_string(&Summary::of(&evaluation)).map_err(|e| e.to_string())
}

/// Registers `squillionEvaluate` on the worker's global scope; an error comes back as a thrown
/// string.
pub fn register() {
    let evaluate = Closure::<dyn Fn(String, String, String) -> Result<String, JsValue>>::new(
        |model: String, design: String, options: String| {
            evaluate_json(&model, &design, &options).map_err(|e| JsValue::from_str(&e))
        },
    );
    let _ = js_sys::Reflect::set(
        &js_sys::global(),
        &"squillionEvaluate".into(),
        evaluate.as_ref(),
    );
    // The function lives as long as the worker.
    evaluate.forget();
}
