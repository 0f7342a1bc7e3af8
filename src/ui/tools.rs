//! The tools module on the page itself, for when no Web Worker can start: inference, the
//! advisor and the export live in a module of their own (`src/bin/squillion-tools.rs`, docs/size.md)
//! that the page's module does not carry. `public/boot.js` gives the page
//! `window.squillionLoadTools()`, which fetches and starts that module once (its start puts
//! `squillionAdvise` and `squillionExport` on the window, as in a worker); [`call`] then calls
//! one of them by name.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Loads the tools module into the page, once (a second call waits for the first load).
pub async fn load() -> Result<(), String> {
    let window = web_sys::window().ok_or("no window")?;
    let loader = js_sys::Reflect::get(&window, &"squillionLoadTools".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .ok_or("the page cannot load its tools (no squillionLoadTools: an older boot.js)")?;
    let promise = loader
        .call0(&window)
        .ok()
        .and_then(|p| p.dyn_into::<js_sys::Promise>().ok())
        .ok_or("the page cannot load its tools")?;
    wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map(|_| ())
        .map_err(|e| format!("the page's tools did not load ({})", said(&e)))
}

/// Calls the loaded tools module's function `name` (on the window) with `args`: its answer, or
/// what it threw (a string for the tool's own errors).
pub fn call(name: &str, args: &[JsValue]) -> Result<JsValue, String> {
    let window = web_sys::window().ok_or("no window")?;
    let f = js_sys::Reflect::get(&window, &name.into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .ok_or_else(|| format!("the page's tools have no {name}"))?;
    f.apply(&window, &args.iter().collect::<js_sys::Array>())
        .map_err(|e| said(&e))
}

/// What a thrown value says: the string itself, or an error's message.
fn said(e: &JsValue) -> String {
    e.as_string()
        .or_else(|| {
            e.dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
        })
        .unwrap_or_else(|| format!("{e:?}"))
}
