//! Squillion: a MongoDB schema-design playground.
//!
//! The core (document reading, exact BSON sizes, the in-memory engine, the model and its
//! evaluation) is plain Rust shared by the native `squillion` command-line tool and the
//! WebAssembly page. Only [`cli`] (native) and `ui` (wasm32) touch the outside world.
#![warn(missing_docs)]
// No panics on user input, by construction: a panic in WebAssembly kills the page. Tests may
// unwrap and index; the library may not (see docs/hardening.md).
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing
    )
)]

pub mod advise;
pub mod analysis;
pub mod arith;
pub mod bench;
pub mod chart;
pub mod console;
pub mod date;
pub mod design;
pub mod diagram;
pub mod ejson;
pub mod engine;
pub mod eval;
pub mod export;
pub mod generate;
pub mod history;
pub mod human;
pub mod infer;
pub mod lang;
pub mod migrate;
pub mod model;
pub mod presets;
pub mod share;
pub mod shell;
pub mod size;
pub mod stats;
pub mod storage;
pub mod warning;
pub mod workload_log;

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;

// The page indexes its own constant lists (`EXAMPLES[0]`); it never indexes user data.
#[cfg(target_arch = "wasm32")]
#[allow(clippy::indexing_slicing)]
pub mod ui;
