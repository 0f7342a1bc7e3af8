//! `squillion bench`: the native side of the benchmarks in `bench/` (scripts/bench.sh), which
//! time the same work in the peer (npm bson, mingo) in the same run and print the ratio.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context};
use clap::{Args, Subcommand};

use crate::bench::{time_eval, time_queries, time_sizes};
use crate::console::samples::{load_documents, run_script};
use crate::ejson::parse_stream;
use crate::engine::Database;

mod infer;

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
    /// Load an NDJSON file into a collection (untimed), run the setup commands (untimed),
    /// then time each query (at least 3 runs and --min-ms milliseconds) and print
    /// {"docs","queries":[{"command","rounds","ms","n","checksum"}]} as JSON.
    Query {
        /// Newline-delimited documents.
        file: PathBuf,
        /// The collection to load them into.
        #[arg(long, default_value = "docs")]
        collection: String,
        /// A mongosh command to run before timing (e.g. a createIndex); repeatable.
        #[arg(long)]
        setup: Vec<String>,
        /// A read-only mongosh command to time; repeatable.
        #[arg(long, required = true)]
        query: Vec<String>,
        /// The least time spent on each query, in milliseconds.
        #[arg(long, default_value_t = 300.0)]
        min_ms: f64,
    },
    /// Time the evaluation of each model at the default sample scale (target < 100 ms in the
    /// browser) and its full-scale arithmetic with 100 million entities per entity (target
    /// < 1 ms); print one JSON object per model. Default: every presets/*.json.
    Eval {
        /// Model files.
        models: Vec<PathBuf>,
        /// Runs per model (the median is printed).
        #[arg(long, default_value_t = 5)]
        rounds: u32,
    },
    /// Time inferring a model from a mongoexport file (`squillion infer`'s work) and print
    /// {"docs","bytes","rounds","ms","docs_per_sec","peak_bytes","streamed"} as JSON.
    Infer {
        /// A mongoexport file (Extended JSON, one document per line).
        file: PathBuf,
        /// Runs (the median is printed).
        #[arg(long, default_value_t = 3)]
        rounds: u32,
        /// Read from the disk as it goes, not from memory (the file read first, untimed).
        #[arg(long)]
        stream: bool,
    },
    /// Time `squillion advise` on each model (target: the search ≤ 1 s natively): the search
    /// alone (screening, scoring, front, explanations; no engine) and the whole advice with the
    /// engine's verification; print one JSON object per model
    /// {"model","space","explored","method","search_ms","verified_ms","verified"} (medians).
    /// Default: every presets/*.json.
    Advise {
        /// Model files.
        models: Vec<PathBuf>,
        /// Runs per model (the median is printed).
        #[arg(long, default_value_t = 3)]
        rounds: u32,
    },
}

/// Returns the model files given, or every presets/*.json.
fn model_paths(models: Vec<PathBuf>) -> anyhow::Result<Vec<PathBuf>> {
    if !models.is_empty() {
        return Ok(models);
    }
    let dir = std::path::Path::new("presets");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot list {}", dir.display()))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    Ok(paths)
}

/// Returns the median of `v` (0 when empty).
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

impl BenchArgs {
    /// Runs the measurement and prints its JSON.
    pub fn run(self) -> anyhow::Result<ExitCode> {
        match self.what {
            BenchWhat::Sizes { file, rounds } => bench_sizes(&file, rounds),
            BenchWhat::Query {
                file,
                collection,
                setup,
                query,
                min_ms,
            } => bench_query(&file, &collection, &setup, &query, min_ms),
            BenchWhat::Infer {
                file,
                rounds,
                stream,
            } => infer::run(&file, rounds, stream),
            BenchWhat::Eval { models, rounds } => bench_eval(models, rounds),
            BenchWhat::Advise { models, rounds } => bench_advise(models, rounds),
        }
    }
}

/// Returns the model in the file at `p`.
fn read_model(p: &std::path::Path) -> anyhow::Result<crate::model::Model> {
    let text =
        std::fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()))?;
    crate::model::parse_model(&text).map_err(|e| anyhow::anyhow!("{}: {e}", p.display()))
}

/// Times the sizes of the documents in `file` (`rounds` times) and prints the timing's JSON.
fn bench_sizes(file: &std::path::Path, rounds: u32) -> anyhow::Result<ExitCode> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let mut docs = Vec::new();
    for item in parse_stream(&text) {
        match item.result {
            Ok(doc) => docs.push(doc),
            Err(e) => bail!("{}: {e}", file.display()),
        }
    }
    let clock = Instant::now();
    let timing = time_sizes(&docs, rounds, || clock.elapsed().as_secs_f64() * 1e3);
    writeln!(std::io::stdout(), "{}", serde_json::to_string(&timing)?)?;
    Ok(ExitCode::SUCCESS)
}

/// Loads the documents of `file` into `collection`, runs the `setup` commands, times each
/// query (for at least `min_ms`) and prints the documents, their BSON and heap bytes and the
/// queries' timings as JSON.
fn bench_query(
    file: &std::path::Path,
    collection: &str,
    setup: &[String],
    query: &[String],
    min_ms: f64,
) -> anyhow::Result<ExitCode> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let mut db = Database::new();
    let before = super::alloc::current();
    let docs = load_documents(&mut db, collection, &text, &file.display().to_string())?;
    // Heap bytes the engine holds for the collection (documents, record ids,
    // the _id_ index), next to the documents' own BSON bytes.
    let stored_bytes = super::alloc::current()
        .zip(before)
        .map(|(after, before)| after.saturating_sub(before));
    let bson_bytes: u64 = db
        .collection(collection)
        .map(|c| c.documents().map(|d| d.as_bytes().len() as u64).sum())
        .unwrap_or(0);
    for command in setup {
        run_script(&mut db, command, "--setup")?;
    }
    let clock = Instant::now();
    let queries = time_queries(&mut db, query, min_ms, || {
        clock.elapsed().as_secs_f64() * 1e3
    })?;
    let json = serde_json::json!({
        "docs": docs,
        "bson_bytes": bson_bytes,
        "stored_bytes": stored_bytes,
        "queries": queries,
    });
    writeln!(std::io::stdout(), "{json}")?;
    Ok(ExitCode::SUCCESS)
}

/// Times the evaluation of each model (`rounds` times) and prints one JSON line a model.
fn bench_eval(models: Vec<PathBuf>, rounds: u32) -> anyhow::Result<ExitCode> {
    for p in model_paths(models)? {
        let model = read_model(&p)?;
        let clock = Instant::now();
        let mut peak = super::alloc::peak_probe();
        let mut t = time_eval(
            &model,
            rounds,
            || clock.elapsed().as_secs_f64() * 1e3,
            &mut peak,
        )?;
        if t.model.is_empty() {
            t.model = p.display().to_string();
        }
        writeln!(std::io::stdout(), "{}", serde_json::to_string(&t)?)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Times the advisor on each model, its search alone and verified on the engine (the median of
/// `rounds` runs each), and prints one JSON line a model.
fn bench_advise(models: Vec<PathBuf>, rounds: u32) -> anyhow::Result<ExitCode> {
    for p in model_paths(models)? {
        let model = read_model(&p)?;
        let mut search = Vec::new();
        let mut verified = Vec::new();
        let mut last = None;
        for _ in 0..rounds.max(1) {
            for verify in [false, true] {
                let opts = crate::advise::AdviseOptions {
                    verify,
                    ..Default::default()
                };
                let t = Instant::now();
                let a = crate::advise::advise(&model, &opts);
                let ms = t.elapsed().as_secs_f64() * 1e3;
                if verify {
                    verified.push(ms);
                    last = Some(a);
                } else {
                    search.push(ms);
                }
            }
        }
        let Some(a) = last else { continue };
        let runs = a
            .top
            .iter()
            .chain(&a.front)
            .filter(|d| d.engine.is_some())
            .count();
        let json = serde_json::json!({
            "model": p.display().to_string(),
            "space": a.search.space_size,
            "explored": a.search.explored,
            "method": a.search.method,
            "search_ms": median(search),
            "verified_ms": median(verified),
            "verified": runs,
        });
        writeln!(std::io::stdout(), "{json}")?;
    }
    Ok(ExitCode::SUCCESS)
}
