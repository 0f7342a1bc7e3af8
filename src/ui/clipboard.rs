//! Copying to the clipboard, best effort: a browser may refuse (no permission, no focus), and
//! the refusal must not surface as an unhandled promise rejection.

/// Copies `text` to the clipboard.
pub fn copy(text: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let promise = window.navigator().clipboard().write_text(text);
    leptos::task::spawn_local(async move {
        let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
    });
}
