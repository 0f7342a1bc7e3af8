//! Autosave: what the user typed survives a reload. Local storage only; nothing leaves the
//! browser. Storage can be full or disabled (private windows): then saving silently does
//! nothing, and the page keeps working.
//!
//! Not gloo-storage: it stores every value as JSON (the texts saved so far are raw, so a reload
//! after an update would lose them) and throws when storage is disabled (docs/size.md).

/// The local-storage key of the model editor's text.
pub const MODEL_KEY: &str = "squillion.model";
/// The local-storage key of the model that a shared link replaced, so it can be restored.
pub const MODEL_BEFORE_LINK_KEY: &str = "squillion.model.before-link";
/// The local-storage key of the document sizer's text.
pub const DOCUMENT_KEY: &str = "squillion.document";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// Returns the text saved under `key`, if any.
pub fn load(key: &str) -> Option<String> {
    storage()?.get_item(key).ok().flatten()
}

/// Saves `text` under `key` (best effort).
pub fn save(key: &str, text: &str) {
    if let Some(s) = storage() {
        let _ = s.set_item(key, text);
    }
}
