//! `squillion eval` and `squillion compare`: a model's designs run for real on the engine.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;

use crate::design::{DesignSpec, Layout};
use crate::eval::offer::{offer, CUSTOM};
use crate::eval::text::{compare_report, comparison, report};
use crate::eval::{compare, evaluate_layout, EvalOptions};
use crate::lang::Lang;
use crate::model::{parse_model, Model, ModelError};

/// Where the model comes from: a file or a preset (`eval`, `compare` and `export` alike).
#[derive(Debug, Args)]
pub struct ModelSource {
    /// The model (JSON, see docs/model.md).
    #[arg(required_unless_present = "preset", conflicts_with = "preset")]
    pub model: Option<PathBuf>,
    /// A preset instead of a model file (`squillion presets` lists them).
    #[arg(long, value_name = "NAME")]
    pub preset: Option<String>,
}

impl ModelSource {
    /// Reads and checks the model, printing every problem with its place in `lang` (on
    /// stderr) and, with `json`, the problems as JSON on stdout ([`problems_json`]).
    pub(super) fn read(&self, lang: Lang, json: bool) -> Result<Model, Reported> {
        self.parse().map_err(|failure| {
            failure.report(lang, json);
            Reported
        })
    }

    /// Reads and checks the model; a failure holds what to print.
    pub(super) fn parse(&self) -> Result<Model, Failure> {
        match (self.model.as_deref(), self.preset.as_deref()) {
            (_, Some(name)) => {
                let p = crate::presets::find(name).map_err(|e| Failure::Other(e.to_string()))?;
                p.model().map_err(|errs| Failure::Problems {
                    lead: format!("preset {name}"),
                    errors: errs.errors,
                })
            }
            (Some(path), None) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| Failure::Other(format!("cannot read {}: {e}", path.display())))?;
                parse_model(&text).map_err(|errs| Failure::Problems {
                    lead: path.display().to_string(),
                    errors: errs.errors,
                })
            }
            (None, None) => Err(Failure::Other(
                "give a model file or --preset NAME".to_string(),
            )),
        }
    }
}

/// Why a model could not be read: it could not be found or opened, or it has problems.
pub(super) enum Failure {
    /// No model to read (a file that cannot be read, an unknown preset), in English.
    Other(String),
    /// The model's problems, each to print after `lead` (the file, or `preset NAME`).
    Problems {
        /// The file's path, or `preset NAME`.
        lead: String,
        /// Every problem, in document order.
        errors: Vec<ModelError>,
    },
}

impl Failure {
    /// Prints the failure on stderr: `squillion: why`, or one line per problem in `lang`,
    /// `FILE: $.path: message` (`FILE: line L, column C: message`); with `json`, also the
    /// problems object on stdout.
    pub(super) fn report(&self, lang: Lang, json: bool) {
        match self {
            Failure::Other(why) => eprintln!("squillion: {why}"),
            Failure::Problems { lead, errors } => {
                for e in errors {
                    eprintln!("{lead}: {}", e.to_string_in(lang));
                }
                if json {
                    println!("{}", problems_json(errors));
                }
            }
        }
    }
}

/// Returns the problems as `--json` prints them: `{"valid": …, "problems": [{"path", "code",
/// "args", "message", "line"?, "column"?}]}` (docs/cli.md), each message in English.
pub(super) fn problems_json(errors: &[ModelError]) -> String {
    let v = serde_json::json!({ "valid": errors.is_empty(), "problems": errors });
    serde_json::to_string_pretty(&v).unwrap_or_default()
}

/// An input problem, already printed: exit code 2.
pub(super) struct Reported;

/// How much is materialized and the machine it is measured against (`eval`, `compare`).
#[derive(Debug, Args)]
pub struct Sizing {
    /// Entities materialized per entity (default: the model's sample, else 500, lowered to fit
    /// the memory budget; a size given here or in the model that does not fit is refused).
    #[arg(long, value_name = "N")]
    pub scale: Option<u64>,
    /// RAM of each machine, for the WiredTiger cache the working set is compared to
    /// (`16GiB`, `512MiB`, bytes; default: the model's `ram_gb`, else 16GiB).
    #[arg(long, value_name = "SIZE", value_parser = parse_ram)]
    pub ram: Option<u64>,
}

impl Sizing {
    /// Returns the evaluation options these flags ask for.
    fn options(&self) -> EvalOptions {
        EvalOptions {
            max_documents: self.scale,
            ram_bytes: self.ram,
            ..EvalOptions::default()
        }
    }
}

/// Arguments of `squillion eval`.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// The model file or preset.
    #[command(flatten)]
    pub source: ModelSource,
    /// `normalized`, `denormalized`, `bucketed`, one of a preset's designs (`squillion
    /// presets NAME` lists them), `custom` (the model's own design, the page's Custom), or a
    /// JSON file with a design (`{"base": …, "relationships": {…}}`); default: the model's own
    /// design.
    #[arg(long)]
    pub design: Option<String>,
    /// Sample size and RAM.
    #[command(flatten)]
    pub sizing: Sizing,
    /// Print the evaluation as JSON (docs/cli.md).
    #[arg(long)]
    pub json: bool,
    /// The language of the warnings: en or zh-CN; default: LC_ALL, LC_MESSAGES or LANG,
    /// English unless Chinese. --json is the same in every language (its warnings carry
    /// `text`, their message ids and values).
    #[arg(long, value_name = "LANG", value_parser = super::lang::parse)]
    pub lang: Option<Lang>,
}

/// Arguments of `squillion compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The model file or preset.
    #[command(flatten)]
    pub source: ModelSource,
    /// Sample size and RAM.
    #[command(flatten)]
    pub sizing: Sizing,
    /// Print the comparison as JSON (docs/cli.md).
    #[arg(long)]
    pub json: bool,
    /// The language of the warnings: en or zh-CN; default: LC_ALL, LC_MESSAGES or LANG,
    /// English unless Chinese. --json is the same in every language.
    #[arg(long, value_name = "LANG", value_parser = super::lang::parse)]
    pub lang: Option<Lang>,
}

/// Returns the design `arg` names, laid out: one the model offers by its id
/// ([`crate::eval::offer::offer`]: a preset's design with its sharding, a named design, or
/// `custom`, the default), else a JSON file with a design. With the model it lays out and its
/// name as reports give it.
pub(super) fn chosen_design(
    model: &Model,
    arg: Option<&str>,
) -> anyhow::Result<(Model, Layout, String)> {
    if let Some(offer) = offer(model, arg.unwrap_or(CUSTOM)) {
        let layout = offer.layout()?;
        let name = offer.report_name(&layout);
        return Ok((offer.model, layout, name));
    }
    let file = arg.unwrap_or_default();
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read design file {file}"))?;
    let spec: DesignSpec = serde_json::from_str(&text)
        .with_context(|| format!("{file}: not a design (line:column in the message)"))?;
    // Planned and evaluated under its own field and lifecycle patterns, as the advisor
    // verifies it (`eval::offer::lowered`).
    let (model, spec) = crate::eval::offer::lowered(model, &spec);
    let layout = Layout::build(&model, &spec)?;
    let name = layout.design.clone();
    Ok((model, layout, name))
}

/// Parses `--ram`.
fn parse_ram(text: &str) -> Result<u64, String> {
    crate::storage::parse_bytes(text)
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("not a memory size: {text} (write 16GiB, 512MiB or bytes)"))
}

impl EvalArgs {
    /// Evaluates the design; exit 1 when an error-severity warning is found.
    pub fn run(self) -> anyhow::Result<ExitCode> {
        let lang = super::lang::or_env(self.lang);
        let Ok(model) = self.source.read(lang, self.json) else {
            return Ok(ExitCode::from(2));
        };
        // The same offers by id as the page's design bar (a preset's designs with their
        // sharding, the named designs, `custom`), or a design file.
        let (model, layout, name) = chosen_design(&model, self.design.as_deref())?;
        let mut e = evaluate_layout(&model, layout, &self.sizing.options())?;
        e.design = name;
        if self.json {
            writeln!(std::io::stdout(), "{}", serde_json::to_string_pretty(&e)?)?;
        } else {
            write!(std::io::stdout(), "{}", report(&e, lang))?;
        }
        Ok(ExitCode::from(u8::from(e.has_errors())))
    }
}

impl CompareArgs {
    /// Evaluates every design side by side; exit 1 when any has an error-severity warning.
    pub fn run(self) -> anyhow::Result<ExitCode> {
        let lang = super::lang::or_env(self.lang);
        let Ok(model) = self.source.read(lang, self.json) else {
            return Ok(ExitCode::from(2));
        };
        let mut c = comparison(compare(&model, &self.sizing.options())?);
        // JSON names the designs in English whatever the language; the text report in `lang`.
        let labels = if self.json { Lang::En } else { lang };
        c.verdict = Some(crate::advise::verdict::of_compared(
            &model, &c.designs, labels,
        ));
        if self.json {
            writeln!(std::io::stdout(), "{}", serde_json::to_string_pretty(&c)?)?;
        } else {
            write!(std::io::stdout(), "{}", compare_report(&c, lang))?;
        }
        Ok(ExitCode::from(u8::from(
            c.designs.iter().any(|e| e.has_errors()),
        )))
    }
}
