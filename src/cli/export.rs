//! `squillion export`: a design's documents, scripts and README written to a folder, ready
//! for mongoimport and mongosh, streamed document by document ([`write_export`], which also
//! builds the page's `.zip`).

use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;

use super::eval::{chosen_design, ModelSource};
use super::progress::{Progress, Unit};
use crate::export::estimate::{estimate, parse_max_bytes, round_up_size, DEFAULT_MAX_SIZE};
use crate::export::{
    planned_documents, write_export, ExportPlan, ExportSink, Scale, DEFAULT_MAX_DOCUMENTS,
};
use crate::human::binary_size;

/// Long help of `squillion export`.
pub const LONG_ABOUT: &str = "Export a design to a real MongoDB cluster: one mongoimport-ready \
file per collection (canonical Extended JSON, one document per line), setup.js for mongosh \
(createCollection with $jsonSchema validators, createIndex, sh.enableSharding / \
sh.shardCollection), workload.js (every operation as mongosh code), manifest.json (counts, \
BSON bytes, snappy estimate, validators) and a README with the commands.\n\n\
Documents are generated, encoded and written one at a time: memory stays bounded whatever \
the scale. --scale N generates N root entities (the model's first entity that is not the \
child of a one-to-many relationship, e.g. users); each one-to-many child and each link \
collection gets its sampled parents' children (each parent the cardinality at its quantile), \
and every other collection is scaled by the same factor, at most --max-documents per \
collection. Arrays past --max-elements (default 10,000) are cut short.\n\n\
Before anything is written, the bytes of the files are estimated (each collection's mean \
document size at full scale × the documents exported × Extended JSON's overhead over BSON, \
measured on a few of the documents); past --max-bytes (default 1 GiB) the export is refused \
with the estimate, and nothing is written.\n\n\
Exit codes: 0 written, 1 written but some document is over 16 MiB (mongoimport would refuse \
it), 2 a usage or input error, or an export larger than --max-bytes (nothing written).";

/// Examples of `squillion export`.
pub const EXAMPLES: &str = "Examples:\n  \
squillion export --preset social-feed --design denormalized --scale 1000000 --out feed\n  \
squillion export model.json --design bucketed --out export --json";

/// Arguments of `squillion export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The model file or preset.
    #[command(flatten)]
    pub source: ModelSource,
    /// `normalized`, `denormalized`, `bucketed`, one of a preset's designs, or a JSON file
    /// with a design; default: the model's own design.
    #[arg(long)]
    pub design: Option<String>,
    /// Root entities to generate (e.g. users); their children follow the cardinality, every
    /// other collection is scaled by the same factor. Default: the model's sample.
    #[arg(long, value_name = "N")]
    pub scale: Option<u64>,
    /// Documents per collection at most (the --scale root entities are never cut).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_DOCUMENTS)]
    pub max_documents: u64,
    /// Elements per array at most: a longer array is cut short and counted in the
    /// manifest's `truncated_arrays` (the evaluation's 10,000 by default; a larger value
    /// writes a one-to-squillions array whole, past 16 MiB if the model says so).
    #[arg(long, value_name = "N", default_value_t = crate::generate::GenOptions::default().max_elements)]
    pub max_elements: u64,
    /// The folder to write (created if missing; files in it are replaced).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Bytes the export may write at most (estimated before writing; past it, exit 2 and
    /// nothing is written): 5GiB, 512MiB, 1.5g or a number of bytes.
    #[arg(long, value_name = "SIZE", default_value = DEFAULT_MAX_SIZE, value_parser = parse_max_bytes)]
    pub max_bytes: u64,
    /// Show a progress bar on stderr even when it is not a terminal.
    #[arg(long)]
    pub progress: bool,
    /// Print the manifest as JSON instead of the summary (docs/cli.md).
    #[arg(long)]
    pub json: bool,
}

/// The export's folder: each file through a 1 MiB buffer.
struct Folder {
    dir: PathBuf,
    file: Option<BufWriter<File>>,
}

impl ExportSink for Folder {
    fn start(&mut self, name: &str) -> std::io::Result<&mut dyn Write> {
        let file = File::create(self.dir.join(name))?;
        Ok(self.file.insert(BufWriter::with_capacity(1 << 20, file)))
    }

    fn end(&mut self) -> std::io::Result<()> {
        match self.file.take() {
            Some(mut w) => w.flush(),
            None => Ok(()),
        }
    }
}

impl ExportArgs {
    /// Writes the export; exit 1 when a document is over 16 MiB.
    pub fn run(self) -> anyhow::Result<ExitCode> {
        let Ok(model) = self.source.read(super::lang::or_env(None), self.json) else {
            return Ok(ExitCode::from(2));
        };
        let (model, layout, name) = chosen_design(&model, self.design.as_deref())?;
        let scale = Scale::new(&model, self.scale, self.max_documents.max(1))
            .with_max_elements(self.max_elements);
        let size = estimate(&model, &layout, &scale);
        if size.file_bytes > self.max_bytes as f64 {
            eprintln!(
                "squillion: not exporting: the files would take about {} ({} documents, about \
                 {} of BSON written as Extended JSON), over the limit of {} a run. Nothing was \
                 written. To write it anyway, raise the limit with --max-bytes {} (or more); \
                 or export fewer documents (--scale, --max-documents).",
                binary_size(size.file_bytes.round() as u64),
                crate::human::thousands(size.documents),
                binary_size(size.bson_bytes.round() as u64),
                binary_size(self.max_bytes),
                round_up_size(size.file_bytes)
            );
            return Ok(ExitCode::from(2));
        }
        std::fs::create_dir_all(&self.out)
            .with_context(|| format!("cannot create {}", self.out.display()))?;
        let planned = planned_documents(&model, &layout, &scale);
        let mut progress = Progress::new(
            self.progress || std::io::stderr().is_terminal(),
            planned.iter().map(|(_, n)| n).sum(),
            Unit::Documents,
        );
        let plan = ExportPlan {
            model: &model,
            layout: &layout,
            design: name,
            scale,
            // The workload as the evaluation runs it: same seed, and a sample no larger than
            // the export, so its bound ids are documents of the export.
            workload_sample: self
                .scale
                .map(|n| n.clamp(1, crate::model::Sample::DEFAULT_MAX_DOCUMENTS)),
        };
        let mut folder = Folder {
            dir: self.out.clone(),
            file: None,
        };
        let manifest = write_export(&plan, &mut folder, &mut |n, what| progress.update(n, what))
            .with_context(|| format!("exporting to {}", self.out.display()))?;
        progress.finish();
        if self.json {
            println!("{}", serde_json::to_string_pretty(&manifest)?);
        } else {
            println!(
                "{}: {} documents in {} collection(s) ({} design)",
                self.out.display(),
                manifest.documents(),
                manifest.collections.len(),
                manifest.design
            );
            for c in &manifest.collections {
                let capped = if c.uncapped_documents > c.documents {
                    format!(" (of {} at this scale)", c.uncapped_documents)
                } else {
                    String::new()
                };
                println!(
                    "  {:<24} {:>12} documents{capped}, {} BSON bytes, ~{} on disk (snappy estimate)",
                    c.file, c.documents, c.bson_bytes, c.compressed_bytes
                );
            }
            println!("  setup.js, workload.js, manifest.json, README.md");
        }
        let over = manifest.collections.iter().any(|c| c.over_limit > 0);
        Ok(ExitCode::from(u8::from(over)))
    }
}
