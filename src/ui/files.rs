//! Files: download the model as a `.json` file or the export as a `.zip`, read a chosen or
//! dropped file.

use std::time::Duration;

use leptos::prelude::set_timeout_with_handle;
use wasm_bindgen::JsCast;

/// Returns `name` made safe as a file name: letters, digits, `-` and `_` (others become `-`).
pub fn safe_file_name(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .take(80)
        .collect();
    let trimmed = cleaned.trim_matches('-');
    if trimmed.is_empty() {
        "model".to_string()
    } else {
        trimmed.to_string()
    }
}

/// Offers `text` for download as `file_name` (a JSON file). Best effort: does nothing when the
/// browser refuses.
pub fn download(file_name: &str, text: &str) {
    let _ = offer(
        file_name,
        gloo_file::Blob::new_with_options(text, Some("application/json")),
    );
}

/// Offers `blob` for download as `file_name`; returns `None` when the browser refuses.
pub fn offer(file_name: &str, blob: gloo_file::Blob) -> Option<()> {
    let document = web_sys::window()?.document()?;
    let url = gloo_file::ObjectUrl::from(blob);
    let a: web_sys::HtmlAnchorElement = document.create_element("a").ok()?.dyn_into().ok()?;
    a.set_href(&url);
    a.set_download(file_name);
    document.body()?.append_child(&a).ok()?;
    a.click();
    a.remove();
    // The download has started; the object URL is revoked (dropped) once the click is handled.
    set_timeout_with_handle(move || drop(url), Duration::from_secs(1)).ok()?;
    Some(())
}

/// Returns the text of `file` (UTF-8), or why it could not be read.
pub async fn read_text(file: &gloo_file::File) -> Result<String, String> {
    gloo_file::futures::read_as_text(file)
        .await
        .map_err(|_| "the file could not be read".to_string())
}
