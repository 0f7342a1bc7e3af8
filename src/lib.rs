//! Squillion: a MongoDB schema-design playground.
//!
//! The core (document reading, exact BSON sizes, the in-memory engine, the model and its
//! evaluation) is plain Rust shared by the native `squillion` command-line tool and the
//! WebAssembly page. Only [`cli`] (native) and `ui` (wasm32) touch the outside world.
#![warn(missing_docs)]

pub mod analysis;
pub mod arith;
pub mod bench;
pub mod chart;
pub mod design;
pub mod ejson;
pub mod engine;
pub mod eval;
pub mod generate;
pub mod human;
pub mod model;
pub mod shell;
pub mod size;
pub mod warning;

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;

#[cfg(target_arch = "wasm32")]
pub mod ui;
