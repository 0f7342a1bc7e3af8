//! Every native integration test, as one test binary.
//!
//! Each file of this folder is a module: one crate to compile and one binary to link instead of
//! one per file (the crate's dependencies and its generic code were compiled and linked 66
//! times), and the test harness spreads all the tests over the cores at once instead of running
//! the files one after another (docs/testing.md). One file: `cargo test --test suite golden::`.
//! The browser tests are their own binary (`tests/web.rs`, built for wasm32).
#![cfg(not(target_arch = "wasm32"))]

mod common;

mod advice_words;
mod advise;
mod arith;
mod bson_props;
mod case_insensitive;
mod catalogues;
mod cli_chinese;
mod cli_query;
mod cli_size;
mod compare_verdict;
mod compression;
mod diagram;
mod differential_mingo;
mod docs_example;
mod edit;
mod edit_refusals;
mod engine_fixtures;
mod engine_limits;
mod engine_props;
mod eval;
mod eval_budget;
mod export;
mod golden;
mod gridfs;
mod hostile;
mod infer;
mod infer_archives;
mod infer_feeds;
mod infer_keys;
mod infer_multiline;
mod infer_peer;
mod infer_roundtrip;
mod infer_sources;
mod infer_sql_dumps;
mod infer_starter_workload;
mod infer_written;
mod lifecycle_patterns;
mod logical_answer;
mod many_to_many;
mod migrate;
mod model_schema;
mod models;
mod no_panic;
mod ordered_reads;
mod page_analytics_time_series;
mod page_catalogue;
mod page_literals;
mod plan_fixes;
mod plan_reads;
mod polymorphic;
mod preset_lessons;
mod preset_locales;
mod presets;
mod robustness;
mod sample_agreement;
mod security;
mod shell_forms;
mod single_collection;
mod sizes_corpus;
mod strategies;
mod strategy_choices;
mod tails;
mod time_series;
mod trees;
mod validate_cli;
mod validation;
mod vocabulary;
mod warnings;
mod workload_logs;
