//! The `squillion` command-line tool: a thin shell over the core.
//!
//! Each subcommand is one file in `cli/` holding its clap `Args` struct with a
//! `run(self) -> anyhow::Result<ExitCode>` method; adding one is a `mod` line and a line in
//! `commands!`. Exit codes, for every subcommand: 0 nothing to report, 1 a finding (an
//! invalid document, a document over a limit), 2 a usage or input error.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod advise;
pub mod alloc;
mod bench;
mod diagram;
mod eval;
mod export;
mod infer;
mod lang;
mod migrate;
mod presets;
mod progress;
mod query;
mod size;
mod validate;

/// Exact BSON sizes, query counts and 16 MiB break points for MongoDB schema designs.
#[derive(Debug, Parser)]
#[command(
    name = "squillion",
    version,
    about,
    long_about = "Squillion: a MongoDB schema-design playground on the command line.\n\n\
        Every number matches what MongoDB itself computes: document sizes are the exact \
        length of the encoded BSON (what Object.bsonsize() reports), checked against \
        mongod's limit of 16 MiB = 16,777,216 bytes per document.\n\n\
        Exit codes: 0 everything is fine, 1 a finding (an unreadable document, a document \
        over a limit), 2 a usage or input error.",
    after_help = "Reference: docs/cli.md"
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Declares the subcommands: each variant wraps the `Args` of one module in `cli/`.
macro_rules! commands {
    ($($(#[$meta:meta])* $variant:ident($module:ident::$args:ident),)*) => {
        /// The subcommands of `squillion`.
        #[derive(Debug, Subcommand)]
        pub enum Command {
            $($(#[$meta])* $variant($module::$args),)*
        }

        impl Command {
            /// Runs the subcommand and returns its exit code.
            pub fn run(self) -> anyhow::Result<ExitCode> {
                match self {
                    $(Command::$variant(args) => args.run(),)*
                }
            }
        }
    };
}

commands! {
    /// Report the exact BSON size of each document (and whether mongod would accept it).
    #[command(long_about = size::LONG_ABOUT, after_help = size::EXAMPLES)]
    Size(size::SizeArgs),
    /// List the workshop presets with their lessons, or show one (explanation, model, numbers).
    #[command(long_about = presets::LONG_ABOUT, after_help = presets::EXAMPLES)]
    Presets(presets::PresetsArgs),
    /// Run a mongosh command on the in-memory engine over NDJSON files; print the results.
    #[command(long_about = query::LONG_ABOUT, after_help = query::EXAMPLES)]
    Query(query::QueryArgs),
    /// Check a model: every problem at its JSON path, with its code (exit 1 when any).
    #[command(long_about = validate::LONG_ABOUT, after_help = validate::EXAMPLES)]
    Validate(validate::ValidateArgs),
    /// Run a model's workload on the engine under one design: queries, documents examined and
    /// written, plans, shards, warnings.
    Eval(eval::EvalArgs),
    /// Evaluate every design of a model side by side, the best per metric marked.
    Compare(eval::CompareArgs),
    /// Search every design of a model for its workload: the recommended one with why, the
    /// best few and the Pareto front, verified on the engine.
    #[command(long_about = advise::LONG_ABOUT, after_help = advise::EXAMPLES)]
    Advise(advise::AdviseArgs),
    /// Export a design for a real MongoDB cluster: mongoimport files, setup.js, workload.js.
    #[command(long_about = export::LONG_ABOUT, after_help = export::EXAMPLES)]
    Export(export::ExportArgs),
    /// Plan the migration of a model's data from one design to another: mongosh steps with
    /// their full-scale cost, checked on the engine.
    #[command(long_about = migrate::LONG_ABOUT, after_help = migrate::EXAMPLES)]
    Migrate(migrate::MigrateArgs),
    /// Draw a design's collections, or the model's entities, as Mermaid, Graphviz DOT or SVG.
    #[command(long_about = diagram::LONG_ABOUT, after_help = diagram::EXAMPLES)]
    Diagram(diagram::DiagramArgs),
    /// Infer a model from mongoexport or mongodump files (one entity per collection, typed
    /// fields with presence and fitted distributions) or from a SQL schema.
    #[command(long_about = infer::LONG_ABOUT, after_help = infer::EXAMPLES)]
    Infer(infer::InferArgs),
    /// Benchmark measurements, driven by scripts/bench.sh (prints JSON).
    #[command(hide = true)]
    Bench(bench::BenchArgs),
}

/// Runs the command line and returns its exit code (0 ok, 1 a finding, 2 a usage error).
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    match cli.command.run() {
        Ok(code) => code,
        // A reader that stops early (`squillion eval … | head`) closes the pipe: that is
        // not an error of ours, so stop quietly as other Unix tools do.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("squillion: {}", chain_text(&e));
            ExitCode::from(2)
        }
    }
}

/// Returns the error's message and its causes, `a: b: c`, leaving out a cause whose message
/// the text already ends with (an error that shows its source in its own message, as the
/// evaluation's "materializing collection …: <the engine's error>" does).
fn chain_text(e: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if out.is_empty() {
            out = text;
        } else if !out.ends_with(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
    }
    out
}

/// Returns true when `e` comes from writing to a closed pipe.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
