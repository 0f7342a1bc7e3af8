//! Files: download the model as a `.json` file or the export as a `.zip`, read a chosen or
//! dropped file.

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
    let _ = try_download(file_name, text);
}

fn try_download(file_name: &str, text: &str) -> Option<()> {
    offer(file_name, &text.into(), "application/json")
}

/// Offers `bytes` (a `Uint8Array`) for download as `file_name`, of MIME type `mime`; returns
/// `None` when the browser refuses.
pub fn download_bytes(file_name: &str, bytes: &js_sys::Uint8Array, mime: &str) -> Option<()> {
    offer(file_name, bytes, mime)
}

/// Offers one blob part (a string or a typed array) for download.
fn offer(file_name: &str, part: &wasm_bindgen::JsValue, mime: &str) -> Option<()> {
    let document = web_sys::window()?.document()?;
    let parts = js_sys::Array::of1(part);
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_buffer_source_sequence_and_options(&parts, &options).ok()?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).ok()?;
    let a: web_sys::HtmlAnchorElement = document.create_element("a").ok()?.dyn_into().ok()?;
    a.set_href(&url);
    a.set_download(file_name);
    document.body()?.append_child(&a).ok()?;
    a.click();
    a.remove();
    // The download has started; the object URL can go once the click is handled.
    let revoke = wasm_bindgen::closure::Closure::once_into_js(move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    });
    web_sys::window()?
        .set_timeout_with_callback_and_timeout_and_arguments_0(revoke.unchecked_ref(), 1000)
        .ok()?;
    Some(())
}

/// Returns the text of `file` (UTF-8), or why it could not be read.
pub async fn read_text(file: &web_sys::File) -> Result<String, String> {
    let text = wasm_bindgen_futures::JsFuture::from(file.text())
        .await
        .map_err(|_| "the file could not be read".to_string())?;
    text.as_string()
        .ok_or_else(|| "the file is not text".to_string())
}
