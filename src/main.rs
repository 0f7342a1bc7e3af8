//! Entry points: the page on wasm32, the command-line tool everywhere else.

#[cfg(target_arch = "wasm32")]
fn main() {
    squillion::ui::mount();
}

/// Counts allocated bytes for `squillion bench` (bytes per document, peak memory).
#[cfg(not(target_arch = "wasm32"))]
#[global_allocator]
static ALLOCATOR: squillion::cli::alloc::Counting = squillion::cli::alloc::Counting;

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    squillion::cli::main()
}
