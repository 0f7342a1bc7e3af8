//! `squillion diagram`: a design's collections (or the model's entities) drawn as Mermaid,
//! Graphviz DOT or SVG.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, ValueEnum};

use super::eval::{chosen_design, ModelSource};
use crate::diagram::drawing::{self, Drawing};
use crate::diagram::{changes, dot, mermaid, svg};
use crate::lang::{Lang, Text};

/// The long help of `squillion diagram`.
pub const LONG_ABOUT: &str = "Draw a design, or the model before any design.\n\n\
    With --design: one box per collection of the design's layout, holding its document \
    shapes (embedded documents and arrays of them as boxes nested in their document, arrays \
    with their element counts p50/p99/max, copied fields marked with where they come from), \
    its indexes and its figures (documents, p99 and largest document size, as `squillion \
    eval` computes them); GridFS and time-series collections are marked as such, and a \
    collection whose documents can pass 16 MiB or that holds an unbounded array is flagged. \
    One arrow per reference: the field that holds the ids, to the collection it names, with \
    how many documents stand at each end. Without --design: the model's entities and its \
    relationships with their cardinality distributions and growth.\n\n\
    With --since D0 beside --design: what moved since design D0 is marked (a box D0 does not \
    have, a box whose fields, indexes or kinds of documents differ; figures are not compared, \
    since every design moves them), and standard error lists those boxes and the ones that \
    went.\n\n\
    Formats: mermaid (a classDiagram, the default), dot (Graphviz) and svg (a standalone \
    picture, laid out by the layout-rs crate).\n\n\
    Exit codes: 0 drawn, 2 a usage or input error.";

/// Examples shown after the help.
pub const EXAMPLES: &str = "Examples:\n  squillion diagram presets/blog.json --design denormalized\n  squillion diagram --preset blog\n  squillion diagram --preset social-graph --design followers --format svg --out graph.svg\n  squillion diagram --preset blog --design one-query --since normalized --format svg\n  squillion diagram model.json --design my-design.json --format dot | dot -Tpng -o d.png\n\nReference: docs/cli.md";

/// The formats a diagram is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Mermaid source (a classDiagram).
    Mermaid,
    /// Graphviz DOT source.
    Dot,
    /// A standalone SVG picture.
    Svg,
}

/// Arguments of `squillion diagram`.
#[derive(Debug, Args)]
pub struct DiagramArgs {
    /// The model file or preset.
    #[command(flatten)]
    pub source: ModelSource,
    /// The design to draw, as `squillion eval --design` takes it: `normalized`,
    /// `denormalized`, `bucketed`, one of a preset's designs, `custom` (the model's own
    /// design) or a JSON file with a design; default: the model's entities and relationships,
    /// before any design.
    #[arg(long)]
    pub design: Option<String>,
    /// Mark what moved since this design (taken as --design takes it): a box it does not have
    /// says `✚ not in D0`, a box that holds other fields or indexes says `± changed from D0`,
    /// both outlined blue; standard error lists them and the boxes that went.
    #[arg(long, value_name = "D0", requires = "design")]
    pub since: Option<String>,
    /// The format to write.
    #[arg(long, value_enum, default_value_t = Format::Mermaid)]
    pub format: Format,
    /// Write to this file instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// The language of the diagram's words: en or zh-CN; default: LC_ALL, LC_MESSAGES or
    /// LANG, English unless Chinese.
    #[arg(long, value_name = "LANG", value_parser = super::lang::parse)]
    pub lang: Option<Lang>,
}

impl DiagramArgs {
    /// Draws the diagram and writes it.
    pub fn run(self) -> anyhow::Result<ExitCode> {
        let lang = super::lang::or_env(self.lang);
        let Ok(model) = self.source.read(lang, false) else {
            return Ok(ExitCode::from(2));
        };
        let design_drawing = |design: &str| -> anyhow::Result<Drawing> {
            let (model, layout, name) = chosen_design(&model, Some(design))?;
            Ok(drawing::of_layout(&model, &layout, name, lang))
        };
        let picture: Drawing = match self.design.as_deref() {
            Some(design) => {
                let mut picture = design_drawing(design)?;
                if let Some(since) = self.since.as_deref() {
                    let before = design_drawing(since)?;
                    let changes = changes::mark(&mut picture, &before, lang);
                    eprintln!("{}", changes.line(lang));
                }
                picture
            }
            None => drawing::of_entities(&model, lang),
        };
        let text = match self.format {
            Format::Mermaid => mermaid::render(&picture),
            Format::Dot => dot::render(&picture),
            Format::Svg => svg::render(&picture),
        };
        match &self.out {
            Some(path) => {
                std::fs::write(path, &text)
                    .with_context(|| format!("cannot write {}", path.display()))?;
                eprintln!(
                    "{}",
                    Text::new("cli-diagram-written")
                        .arg("path", path.display())
                        .render(lang)
                );
            }
            None => write!(std::io::stdout(), "{text}")?,
        }
        Ok(ExitCode::SUCCESS)
    }
}
