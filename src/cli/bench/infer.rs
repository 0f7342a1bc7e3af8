//! `squillion bench infer`: the native side of `bench/infer.mjs`, which times npm
//! `mongodb-schema` on the same documents in the same run.

use std::fs::File;
use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use serde::Serialize;

use crate::infer::input::Kind;
use crate::infer::Inference;

/// One measurement: documents, the median time of the rounds, and the peak memory.
#[derive(Debug, Serialize)]
struct InferTiming {
    /// Documents read per round.
    docs: u64,
    /// Bytes of the file.
    bytes: u64,
    /// Rounds run.
    rounds: u32,
    /// Median milliseconds of a round (reading, parsing, statistics and the model).
    ms: f64,
    /// Documents per second at the median.
    docs_per_sec: f64,
    /// The most bytes allocated at once during the rounds, above what was allocated before
    /// (the file's text, when read into memory first, is not counted).
    peak_bytes: Option<u64>,
    /// Read from the disk as it goes (`--stream`) rather than from memory.
    streamed: bool,
}

/// Times inferring a model from a mongoexport file: from memory (the file read first,
/// untimed) or, with `stream`, from the disk as `squillion infer` reads it; prints the JSON.
pub fn run(file: &Path, rounds: u32, stream: bool) -> anyhow::Result<ExitCode> {
    let text = if stream {
        Vec::new()
    } else {
        std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?
    };
    let bytes = std::fs::metadata(file)
        .with_context(|| format!("cannot read {}", file.display()))?
        .len();
    let mut times = Vec::new();
    let mut docs = 0;
    let mut peak = super::super::alloc::peak_probe();
    peak();
    for _ in 0..rounds.max(1) {
        let clock = Instant::now();
        let mut inference = Inference::new();
        // Through `read_input`, as `squillion infer` and the page read (gzip and archives told
        // by the first bytes).
        let mut none = |_, _| {};
        let read = if stream {
            let f = File::open(file).with_context(|| format!("cannot open {}", file.display()))?;
            inference.read_input(Kind::Json, "docs", "bench", f, &mut none)?
        } else {
            inference.read_input(Kind::Json, "docs", "bench", text.as_slice(), &mut none)?
        };
        let inferred = inference.finish(&Default::default())?;
        times.push(clock.elapsed().as_secs_f64() * 1e3);
        docs = read.iter().map(|s| s.documents).sum();
        drop(inferred);
    }
    let peak_bytes = peak();
    times.sort_by(f64::total_cmp);
    let ms = times.get(times.len() / 2).copied().unwrap_or(0.0);
    let timing = InferTiming {
        docs,
        bytes,
        rounds: rounds.max(1),
        ms,
        docs_per_sec: if ms > 0.0 {
            docs as f64 / ms * 1e3
        } else {
            0.0
        },
        peak_bytes,
        streamed: stream,
    };
    writeln!(std::io::stdout(), "{}", serde_json::to_string(&timing)?)?;
    Ok(ExitCode::SUCCESS)
}
