//! The Leptos page. Components only: every number comes from the core.

/// Mounts the app on the page's body.
pub fn mount() {}
