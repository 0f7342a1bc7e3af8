//! `squillion bench`: the native side of the benchmarks in `bench/` (scripts/bench.sh), which
//! time the same work in the peer (npm bson, mingo) in the same run and print the ratio.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context};
use clap::{Args, Subcommand};

use crate::bench::time_sizes;
use crate::ejson::parse_stream;

/// Arguments of `squillion bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Which measurement.
    #[command(subcommand)]
    pub what: BenchWhat,
}

/// The measurements.
#[derive(Debug, Subcommand)]
pub enum BenchWhat {
    /// Time sizing every document of an NDJSON file (reading the file is not timed) and
    /// print {"docs","rounds","ms","checksum"} as JSON.
    Sizes {
        /// Newline-delimited documents (Extended JSON or mongosh syntax).
        file: PathBuf,
        /// Passes over all documents.
        #[arg(long, default_value_t = 5)]
        rounds: u32,
    },
}

impl BenchArgs {
    /// Runs the measurement and prints its JSON.
    pub fn run(self) -> anyhow::Result<ExitCode> {
        match self.what {
            BenchWhat::Sizes { file, rounds } => {
                let text = std::fs::read_to_string(&file)
                    .with_context(|| format!("cannot read {}", file.display()))?;
                let mut docs = Vec::new();
                for item in parse_stream(&text) {
                    match item.result {
                        Ok(doc) => docs.push(doc),
                        Err(e) => bail!("{}: {e}", file.display()),
                    }
                }
                let clock = Instant::now();
                let timing = time_sizes(&docs, rounds, || clock.elapsed().as_secs_f64() * 1e3);
                println!("{}", serde_json::to_string(&timing)?);
                Ok(ExitCode::SUCCESS)
            }
        }
    }
}
