//! The page's benchmark hook. Opened with `?bench`, the page registers
//! `window.squillionBenchSizes(ndjson, rounds)`, which reads the documents (untimed) and times
//! the same sizing loop the native benchmark times. `scripts/bench.sh` calls it from headless
//! Chromium next to npm `bson` in the same page.
//!
//! `window.squillionBenchEval(model, rounds)` times evaluations of a model's own design and
//! its full-scale arithmetic, as `squillion bench eval` does (`bench/eval.mjs`).
//!
//! It also registers `window.squillionBenchQuery(ndjson, collection, setup, queries, minMs)`:
//! loads the documents and runs the setup commands (untimed), then times each query as
//! `squillion bench query` does, and returns the timings as a JSON string
//! (`bench/query.mjs` times mingo in the same page).
//!
//! `window.squillionBenchInfer(text, rounds)` times inferring a model from mongoexport text as
//! `squillion bench infer` does (`bench/infer.mjs` times npm mongodb-schema in the same page).
//! Inference lives in the tools module, so that hook is registered by the tools module's start
//! ([`register_infer_if_requested`]), once the page has loaded it (`squillionLoadTools()`).

use wasm_bindgen::prelude::*;

use crate::bench::{time_queries, time_sizes};
use crate::console::samples::{load_documents, run_script};
use crate::ejson::parse_stream;
use crate::engine::Database;

/// The page's window when its query string asks for the benchmark hooks (`?bench`).
fn requested() -> Option<web_sys::Window> {
    let window = web_sys::window()?;
    let search = window.location().search().unwrap_or_default();
    search.contains("bench").then_some(window)
}

/// Registers the hook when the page's query string asks for it.
pub fn register_if_requested() {
    let Some(window) = requested() else {
        return;
    };
    let hook = Closure::<dyn Fn(String, u32) -> Result<JsValue, JsValue>>::new(run);
    let _ = js_sys::Reflect::set(&window, &"squillionBenchSizes".into(), hook.as_ref());
    // The hooks live as long as the page.
    hook.forget();
    let query = Closure::<
        dyn Fn(String, String, Vec<String>, Vec<String>, f64) -> Result<String, JsValue>,
    >::new(run_queries);
    let _ = js_sys::Reflect::set(&window, &"squillionBenchQuery".into(), query.as_ref());
    query.forget();
    let eval = Closure::<dyn Fn(String, u32) -> Result<String, JsValue>>::new(run_eval);
    let _ = js_sys::Reflect::set(&window, &"squillionBenchEval".into(), eval.as_ref());
    eval.forget();
}

/// Registers the inference benchmark's hook (the tools module's) when the page's query string
/// asks for it.
pub fn register_infer_if_requested() {
    let Some(window) = requested() else {
        return;
    };
    let infer = Closure::<dyn Fn(String, u32) -> Result<String, JsValue>>::new(run_infer);
    let _ = js_sys::Reflect::set(&window, &"squillionBenchInfer".into(), infer.as_ref());
    infer.forget();
}

/// Returns the bytes of the page's WebAssembly memory (it only grows: its growth during a run
/// bounds what the run allocated at its peak).
fn wasm_memory_bytes() -> f64 {
    wasm_bindgen::memory()
        .dyn_into::<js_sys::WebAssembly::Memory>()
        .map_or(0.0, |m| {
            f64::from(js_sys::ArrayBuffer::from(m.buffer()).byte_length())
        })
}

/// Times `rounds` inferences of a model from mongoexport `text` (reading, parsing, statistics
/// and the model, as `squillion bench infer` times them); returns the median as JSON with the
/// WebAssembly memory before and after.
fn run_infer(text: String, rounds: u32) -> Result<String, JsValue> {
    let err = |e: &dyn std::fmt::Display| JsValue::from_str(&e.to_string());
    let performance = web_sys::window()
        .and_then(|w| w.performance())
        .ok_or_else(|| JsValue::from_str("no performance clock"))?;
    let memory_before = wasm_memory_bytes();
    let mut times = Vec::new();
    let mut docs = 0;
    for _ in 0..rounds.max(1) {
        let t0 = performance.now();
        let mut inference = crate::infer::Inference::new();
        // Through `read_input`, as the page's "Start from your data" reads a file.
        let read = inference
            .read_input(
                crate::infer::input::Kind::Json,
                "docs",
                "bench",
                text.as_bytes(),
                &mut |_, _| {},
            )
            .map_err(|e| err(&e))?;
        let inferred = inference.finish(&Default::default()).map_err(|e| err(&e))?;
        times.push(performance.now() - t0);
        docs = read.iter().map(|s| s.documents).sum::<u64>();
        drop(inferred);
    }
    times.sort_by(f64::total_cmp);
    let ms = times.get(times.len() / 2).copied().unwrap_or(0.0);
    let json = serde_json::json!({
        "docs": docs,
        "rounds": rounds.max(1),
        "ms": ms,
        "docs_per_sec": if ms > 0.0 { docs as f64 / ms * 1e3 } else { 0.0 },
        "memory_before": memory_before,
        "memory_after": wasm_memory_bytes(),
    });
    Ok(json.to_string())
}

/// Reads a model (untimed) and times `rounds` evaluations of its own design and of the
/// full-scale arithmetic at 100 million entities, as `squillion bench eval` does; returns the
/// timing as JSON.
fn run_eval(model: String, rounds: u32) -> Result<String, JsValue> {
    let err = |e: &dyn std::fmt::Display| JsValue::from_str(&e.to_string());
    let model = crate::model::parse_model(&model).map_err(|e| err(&e))?;
    let performance = web_sys::window()
        .and_then(|w| w.performance())
        .ok_or_else(|| JsValue::from_str("no performance clock"))?;
    let timing = crate::bench::time_eval(&model, rounds, || performance.now(), &mut || None)
        .map_err(|e| err(&e))?;
    serde_json::to_string(&timing).map_err(|e| err(&e))
}

/// Loads `ndjson` into `collection`, runs `setup`, times each of `queries`; returns JSON.
fn run_queries(
    ndjson: String,
    collection: String,
    setup: Vec<String>,
    queries: Vec<String>,
    min_ms: f64,
) -> Result<String, JsValue> {
    let err = |e: &dyn std::fmt::Display| JsValue::from_str(&e.to_string());
    let mut db = Database::new();
    let docs = load_documents(&mut db, &collection, &ndjson, "bench").map_err(|e| err(&e))?;
    for command in &setup {
        run_script(&mut db, command, "setup").map_err(|e| err(&e))?;
    }
    let performance = web_sys::window()
        .and_then(|w| w.performance())
        .ok_or_else(|| JsValue::from_str("no performance clock"))?;
    let timings =
        time_queries(&mut db, &queries, min_ms, || performance.now()).map_err(|e| err(&e))?;
    let json = serde_json::json!({ "docs": docs, "queries": timings });
    Ok(json.to_string())
}

/// Reads newline-delimited documents and times sizing them `rounds` times.
fn run(ndjson: String, rounds: u32) -> Result<JsValue, JsValue> {
    let mut docs = Vec::new();
    for item in parse_stream(&ndjson) {
        docs.push(item.result.map_err(|e| JsValue::from_str(&e.to_string()))?);
    }
    let performance = web_sys::window()
        .and_then(|w| w.performance())
        .ok_or_else(|| JsValue::from_str("no performance clock"))?;
    let timing = time_sizes(&docs, rounds, || performance.now());
    let out = js_sys::Object::new();
    for (key, value) in [
        ("docs", timing.docs as f64),
        ("rounds", f64::from(timing.rounds)),
        ("ms", timing.ms),
        ("checksum", timing.checksum as f64),
    ] {
        js_sys::Reflect::set(&out, &key.into(), &value.into())?;
    }
    Ok(out.into())
}
