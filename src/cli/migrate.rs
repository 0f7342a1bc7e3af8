//! `squillion migrate`: the plan that takes a model's data from one design to another, each
//! step a mongosh command with its cost at full scale, checked on the engine.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;

use super::eval::{chosen_design, ModelSource};
use crate::lang::{Lang, Text};
use crate::migrate::check::check;
use crate::migrate::report::{plan_json, refusal_json, text};
use crate::migrate::script::{script, step_script};
use crate::migrate::{plan, MigrateOptions, Migration, Side};

/// The long help of `squillion migrate`.
pub const LONG_ABOUT: &str = "Plan the migration of a model's data from one design to another.\n\n\
    The plan runs in four phases: create (the target's new indexes, and temporary ones the \
    backfill's batches need), backfill (aggregation pipelines ending in $merge, run in \
    resumable batches of parent _ids: children moved out of an embedded array or buckets, parent \
    references set, a parent's array rebuilt beside the old one as FIELD_next, link documents \
    written, buckets written, copies added), switch (the rebuilt arrays renamed; the application deploys its \
    reads and writes of the target design; the dual writes it keeps until then are stated) and \
    clean-up (the fields, collections and indexes only the source used).\n\n\
    Each step has its cost at full scale: documents and bytes read and written (the bytes \
    written are the oplog's volume), index keys built, and its duration at --write-rate \
    documents per second (index keys at ten times that).\n\n\
    Every plan is checked on the engine before it is printed: it runs, batch by batch, on the \
    source design's sample, and the result must hold the same data as the source read through \
    the target design (every parent's children, every entity, every copy, no field, \
    collection or index left over).\n\n\
    Planned: changes among embed, embed_subset, extended_reference, reference_in_parent, \
    reference_in_child, two_way, link_collection and bucket of one-to-many relationships whose child \
    has no other relationship, and index changes. Anything else is refused with its reason. \
    A target whose documents pass 16 MiB where the source's do not is refused with the \
    documents named and the design's fix.\n\n\
    --out DIR writes plan.json (what --json prints), migrate.js (the whole plan: FROM_STEP and \
    TO_STEP run a part, AFTER resumes a backfill after the last _id it printed) and one script \
    per step (steps/NN-PHASE.js).\n\n\
    Exit codes: 0 planned and checked, 1 refused (not planned, over 16 MiB) or the check \
    found a difference, 2 a usage or input error.";

/// Examples shown after the help.
pub const EXAMPLES: &str = "Examples:\n  squillion migrate --preset person-tasks --from normalized --to two-way\n  squillion migrate --preset host-logs --from embed-all --to newest-1000 --out migration/\n  squillion migrate model.json --from custom --to denormalized --json\n  squillion migrate --preset blog --from normalized --to denormalized --write-rate 20000\n\nReference: docs/migrate.md";

/// Arguments of `squillion migrate`.
#[derive(Debug, Args)]
pub struct MigrateArgs {
    /// The model file or preset.
    #[command(flatten)]
    pub source: ModelSource,
    /// The design the data is in, as `squillion eval --design` takes it (a named design, one
    /// of a preset's designs, `custom`, or a design file).
    #[arg(long, value_name = "DESIGN")]
    pub from: String,
    /// The design to move it to.
    #[arg(long, value_name = "DESIGN")]
    pub to: String,
    /// Write plan.json, migrate.js and one script per step into this folder.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print the plan (and the check) as JSON (docs/migrate.md).
    #[arg(long)]
    pub json: bool,
    /// Documents the cluster writes per second for the migration: what the durations assume.
    #[arg(long, value_name = "N", default_value_t = 5_000.0, value_parser = positive_rate)]
    pub write_rate: f64,
    /// Parents per backfill batch.
    #[arg(long, value_name = "N", default_value_t = 1_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub batch: u64,
    /// Entities per entity in the sample the plan is checked on.
    #[arg(long, value_name = "N", default_value_t = 40, value_parser = clap::value_parser!(u64).range(1..))]
    pub scale: u64,
    /// The language of the plan's words (its steps, dual writes, a refusal's reasons): en or
    /// zh-CN; default: LC_ALL, LC_MESSAGES or LANG for the text, English for --json.
    #[arg(long, value_name = "LANG", value_parser = super::lang::parse)]
    pub lang: Option<Lang>,
}

/// Parses `--write-rate`.
fn positive_rate(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|r| r.is_finite() && *r > 0.0)
        .ok_or_else(|| format!("not a positive number of documents per second: {text}"))
}

impl MigrateArgs {
    /// Plans, checks and prints the migration.
    pub fn run(self) -> anyhow::Result<ExitCode> {
        let lang = super::lang::or_env(self.lang);
        // JSON follows --lang only, never the environment (docs/i18n.md).
        let words = if self.json {
            self.lang.unwrap_or_default()
        } else {
            lang
        };
        let Ok(model) = self.source.read(lang, self.json) else {
            return Ok(ExitCode::from(2));
        };
        let (fm, fl, fname) = chosen_design(&model, Some(&self.from))
            .with_context(|| format!("--from {}", self.from))?;
        let (tm, tl, tname) =
            chosen_design(&model, Some(&self.to)).with_context(|| format!("--to {}", self.to))?;
        let from = Side {
            model: &fm,
            layout: &fl,
            name: &fname,
        };
        let to = Side {
            model: &tm,
            layout: &tl,
            name: &tname,
        };
        let opts = MigrateOptions {
            batch: self.batch,
            write_rate: self.write_rate,
            lang: words,
        };
        let m = match plan(from, to, opts) {
            Ok(m) => m,
            Err(e) => {
                if self.json {
                    println!("{}", refusal_json(&e, words));
                }
                eprintln!("squillion: {}", e.render(words));
                return Ok(ExitCode::from(1));
            }
        };
        let report = check(from, to, &m, self.scale)?;
        let json = plan_json(&m, &report);
        if let Some(dir) = &self.out {
            write_out(dir, &m, &json)?;
        }
        if self.json {
            println!("{json}");
        } else {
            print!("{}", text(&m, &report, words));
            if let Some(dir) = &self.out {
                let written = Text::new("migrate-report-written").arg("dir", dir.display());
                println!("{}", written.render(words));
            }
        }
        Ok(if report.problems.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        })
    }
}

/// Writes plan.json, migrate.js and steps/NN-PHASE.js into `dir`.
fn write_out(dir: &Path, m: &Migration, json: &str) -> anyhow::Result<()> {
    let steps = dir.join("steps");
    std::fs::create_dir_all(&steps)
        .with_context(|| format!("cannot create {}", steps.display()))?;
    let write = |p: PathBuf, text: &str| {
        std::fs::write(&p, text).with_context(|| format!("cannot write {}", p.display()))
    };
    write(dir.join("plan.json"), &format!("{json}\n"))?;
    write(dir.join("migrate.js"), &script(m))?;
    for s in &m.steps {
        let name = format!("{:02}-{}.js", s.number, s.phase.name());
        write(steps.join(name), &step_script(m, s))?;
    }
    Ok(())
}
