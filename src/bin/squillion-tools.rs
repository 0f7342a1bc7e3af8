//! The page's tools module (`dist/squillion-tools_bg.wasm`): inference from data and SQL
//! schemas (`sqlparser`, the dump and archive readers, gzip), which most visits never use. The
//! page fetches it the first time "Start from your data" infers (in the Web Worker that runs
//! it, `public/worker.js`) and the service worker keeps it for offline use; the page's own
//! module leaves that code out (docs/size.md, "Modules by when they are needed").
//!
//! A binary of its own because Trunk builds one WebAssembly module per binary, and the linker
//! keeps only what a binary's `main` reaches: this `main` reaches the tools and not the page's
//! views, the page's `main` the views and the evaluation and not the tools.

#[cfg(target_arch = "wasm32")]
fn main() {
    squillion::ui::register_tools();
}

/// Natively there is nothing to run: the command-line tool is `squillion`.
#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    eprintln!(
        "squillion-tools is the web page's tools module; the command-line tool is `squillion`"
    );
    std::process::ExitCode::from(2)
}
