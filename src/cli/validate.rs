//! `squillion validate`: checks a model and prints every problem, in the language asked for.

use std::io::Write as _;
use std::process::ExitCode;

use clap::Args;

use super::eval::{problems_json, Failure, ModelSource};
use crate::lang::Lang;

/// The long help of `squillion validate`.
pub const LONG_ABOUT: &str = "Check a model (or a preset) against the model format \
(docs/model.md) and print every problem at its JSON path, or its line and column for a JSON \
syntax error, in English or 简体中文. Each problem has a stable code (docs/problems.md); \
--json prints them with their values.\n\n\
Exit codes: 0 the model is valid, 1 it has problems, 2 no model to read (a file that cannot \
be read, an unknown preset) or a usage error.";

/// Examples of `squillion validate`.
pub const EXAMPLES: &str = "Examples:\n  squillion validate model.json\n  squillion validate model.json --lang zh-CN\n  squillion validate model.json --json\n\nReference: docs/cli.md, docs/problems.md";

/// Arguments of `squillion validate`.
#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// The model file or preset.
    #[command(flatten)]
    pub source: ModelSource,
    /// Print `{"valid": …, "problems": […]}` on stdout, each problem with its `code`, `args`
    /// and English `message` (docs/cli.md).
    #[arg(long)]
    pub json: bool,
    /// The language of the problems: en or zh-CN; default: LC_ALL, LC_MESSAGES or LANG,
    /// English unless Chinese. --json is the same in every language.
    #[arg(long, value_name = "LANG", value_parser = super::lang::parse)]
    pub lang: Option<Lang>,
}

impl ValidateArgs {
    /// Checks the model: exit 0 valid, 1 problems (one per line on stdout, or the JSON),
    /// 2 no model to read.
    pub fn run(self) -> anyhow::Result<ExitCode> {
        let lang = super::lang::or_env(self.lang);
        let mut out = std::io::stdout();
        match self.source.parse() {
            Ok(_) if self.json => writeln!(out, "{}", problems_json(&[]))?,
            Ok(_) => writeln!(
                out,
                "{}",
                crate::lang::Text::new("problem-none").render(lang)
            )?,
            Err(Failure::Problems { lead, errors }) => {
                if self.json {
                    writeln!(out, "{}", problems_json(&errors))?;
                } else {
                    for e in &errors {
                        writeln!(out, "{lead}: {}", e.to_string_in(lang))?;
                    }
                }
                return Ok(ExitCode::from(1));
            }
            Err(other) => {
                other.report(lang, false);
                return Ok(ExitCode::from(2));
            }
        }
        Ok(ExitCode::SUCCESS)
    }
}
