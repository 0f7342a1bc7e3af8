//! `squillion presets`: the workshop presets (one per scenario of the source articles), their
//! lessons, explanations and models.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use clap::Args;
use serde::Serialize;

use crate::analysis::analyze_offered;
use crate::model::{Model, PresetSource};
use crate::presets::{self, Preset};

/// The long help of `squillion presets`.
pub const LONG_ABOUT: &str = "List the workshop presets, or show one.\n\n\
        Without a name: one line per preset, its name and its one-line lesson (with --json, \
        an array of {name, title, lesson, source, designs}). With a name: the title, lesson, \
        source article, explanation and scale note, a summary of the model, and the round \
        trips of every application unit under every design the preset offers (the numbers \
        the explanation refers to). With --model: the preset's model file, to save and edit.\n\n\
        Exit codes: 0 done, 2 unknown preset or usage error.";

/// The examples after the help of `squillion presets`.
pub const EXAMPLES: &str = "Examples:\n  squillion presets\n  squillion presets --json\n  squillion presets host-logs\n  squillion presets host-logs --model > host-logs.json";

/// Arguments of `squillion presets`.
#[derive(Debug, Args)]
pub struct PresetsArgs {
    /// The preset to show; none lists them all.
    pub name: Option<String>,
    /// Print JSON: the list as an array, one preset as its summary object.
    #[arg(long)]
    pub json: bool,
    /// Print the preset's model file (JSON) instead of its explanation.
    #[arg(long, requires = "name", conflicts_with = "json")]
    pub model: bool,
}

/// One preset in `squillion presets --json`.
#[derive(Debug, Serialize)]
struct Listed<'a> {
    name: &'a str,
    title: &'a str,
    lesson: &'a str,
    source: Option<PresetSource>,
    designs: Vec<String>,
}

impl<'a> Listed<'a> {
    fn of(p: &'a Preset) -> anyhow::Result<Self> {
        let meta = p.model()?.preset;
        Ok(Listed {
            name: p.name,
            title: &p.title,
            lesson: &p.lesson,
            source: meta.as_ref().map(|m| m.source.clone()),
            designs: meta.map(|m| m.designs).unwrap_or_default(),
        })
    }
}

impl PresetsArgs {
    /// Lists the presets or shows one; returns 2 (through the error) for an unknown name.
    pub fn run(self) -> anyhow::Result<ExitCode> {
        let stdout = io::stdout();
        let mut out = BufWriter::new(stdout.lock());
        match &self.name {
            None => list(&mut out, self.json)?,
            Some(name) => {
                let p = presets::find(name)?;
                if self.model {
                    out.write_all(p.text.as_bytes())?;
                } else if self.json {
                    serde_json::to_writer_pretty(&mut out, &Listed::of(p)?)?;
                    writeln!(out)?;
                } else {
                    show(&mut out, p)?;
                }
            }
        }
        out.flush()?;
        Ok(ExitCode::SUCCESS)
    }
}

fn list(out: &mut impl Write, json: bool) -> anyhow::Result<()> {
    if json {
        let all = presets::all()
            .iter()
            .map(Listed::of)
            .collect::<anyhow::Result<Vec<_>>>()?;
        serde_json::to_writer_pretty(&mut *out, &all)?;
        writeln!(out)?;
        return Ok(());
    }
    let width = presets::all()
        .iter()
        .map(|p| p.name.len())
        .max()
        .unwrap_or(0);
    for p in presets::all() {
        writeln!(out, "{:width$}  {}", p.name, p.lesson)?;
    }
    Ok(())
}

fn show(out: &mut impl Write, p: &Preset) -> anyhow::Result<()> {
    let m = p.model()?;
    let Some(meta) = &m.preset else {
        anyhow::bail!("preset {} has no preset object", p.name);
    };
    writeln!(out, "{}\n", meta.title)?;
    writeln!(out, "Lesson: {}", meta.lesson)?;
    let tips = if meta.source.tips.is_empty() {
        String::new()
    } else {
        let t: Vec<String> = meta.source.tips.iter().map(|t| format!("#{t}")).collect();
        format!(", tips {}", t.join(", "))
    };
    writeln!(out, "Source: article {}{tips}\n", meta.source.article)?;
    for para in meta.explanation.split("\n\n") {
        writeln!(out, "{para}\n")?;
    }
    writeln!(out, "Scale: {}\n", meta.scale_note)?;
    summary(out, p, &m)?;
    Ok(())
}

/// Writes the model's summary and the round trips of every unit under every offered design.
fn summary(out: &mut impl Write, p: &Preset, m: &Model) -> anyhow::Result<()> {
    writeln!(
        out,
        "Model: presets/{}.json (squillion presets {} --model > {}.json)",
        p.name, p.name, p.name
    )?;
    for e in &m.entities {
        writeln!(
            out,
            "  entity {}: {} documents at full scale, {} fields",
            e.name,
            crate::human::thousands(e.count as u64),
            e.fields.0.len()
        )?;
    }
    for r in &m.relationships {
        writeln!(
            out,
            "  relationship {}: {} → {}, largest {}{}",
            r.name,
            r.parent,
            r.child,
            crate::human::thousands(r.cardinality.max() as u64),
            if r.growth_largest() > 0.0 {
                format!(", growing {}/day", r.growth_largest())
            } else {
                String::new()
            }
        )?;
    }
    let analyses = analyze_offered(m)?;
    let mut rows: Vec<(String, Vec<String>)> = Vec::new();
    let mut fan_out = false;
    for (i, u) in m.workload.iter().enumerate() {
        let cells = analyses
            .iter()
            .map(|(_, a)| {
                let plan = a.layout.plan.units.get(i);
                let fans = plan.is_some_and(|p| p.commands.iter().any(|c| c.fan_out.is_some()));
                fan_out |= fans;
                let q = plan.map_or(0, |p| p.queries());
                format!("{q}{}", if fans { "*" } else { "" })
            })
            .collect();
        rows.push((u.name.clone(), cells));
    }
    let per_design = |f: &dyn Fn(&crate::analysis::Analysis) -> String| -> Vec<String> {
        analyses.iter().map(|(_, a)| f(a)).collect()
    };
    rows.push((
        "indexes (besides _id)".into(),
        per_design(&|a| {
            let n: usize = a.layout.collections.iter().map(|c| c.indexes.len()).sum();
            n.to_string()
        }),
    ));
    rows.push((
        "largest document (bytes)".into(),
        per_design(&|a| {
            a.stats
                .iter()
                .flat_map(|s| &s.shapes)
                .max_by_key(|s| s.max.bytes)
                .map_or_else(String::new, |s| {
                    let approx = if s.max.exact { "" } else { "~" };
                    format!("{approx}{}", crate::human::thousands(s.max.bytes))
                })
        }),
    ));
    rows.push((
        "warnings".into(),
        per_design(&|a| a.warnings.len().to_string()),
    ));
    let label_width = rows
        .iter()
        .map(|(l, _)| l.chars().count())
        .max()
        .unwrap_or(0);
    let widths: Vec<usize> = analyses
        .iter()
        .enumerate()
        .map(|(j, (n, _))| {
            rows.iter()
                .filter_map(|(_, c)| c.get(j).map(|c| c.chars().count()))
                .chain([n.chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    writeln!(out, "\nRound trips per application unit, by design:")?;
    write!(out, "  {:label_width$}", "unit")?;
    for ((n, _), w) in analyses.iter().zip(&widths) {
        write!(out, "  {n:>w$}")?;
    }
    writeln!(out)?;
    for (label, cells) in &rows {
        write!(out, "  {label:label_width$}")?;
        for (c, w) in cells.iter().zip(&widths) {
            write!(out, "  {c:>w$}")?;
        }
        writeln!(out)?;
    }
    if fan_out {
        writeln!(
            out,
            "  * writes one document per follower in one round trip (fan-out)"
        )?;
    }
    writeln!(
        out,
        "  ~ estimate (field lengths vary); other sizes are exact BSON bytes"
    )?;
    Ok(())
}
