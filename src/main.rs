//! Entry points: the page on wasm32, the command-line tool everywhere else.

#[cfg(target_arch = "wasm32")]
fn main() {
    squillion::ui::mount();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    squillion::cli::main()
}
