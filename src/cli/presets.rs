//! `squillion presets`: the workshop presets (one per scenario of the source articles), their
//! lessons, explanations and models.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use clap::Args;
use serde::Serialize;

use crate::analysis::analyze_offered;
use crate::lang::Lang;
use crate::model::{Model, PresetSource};
use crate::presets::{self, Preset};

/// The long help of `squillion presets`.
pub const LONG_ABOUT: &str = "List the workshop presets, or show one.\n\n\
        Without a name: one line per preset, its name and its one-line lesson (with --json, \
        an array of {name, title, lesson, source, designs}). With a name: the title, lesson, \
        source article, explanation and scale note, a summary of the model, and the round \
        trips of every application unit under every design the preset offers (the numbers \
        the explanation refers to). With --model: the preset's model file, to save and edit.\n\n\
        Language: --lang zh-CN prints the titles, lessons, explanation and scale note in \
        简体中文 (--lang en in English); without --lang the text follows LC_ALL, LC_MESSAGES \
        or LANG (zh_CN.UTF-8 is Chinese, anything else English). --json keeps its keys and \
        follows --lang only, never the environment.\n\n\
        Exit codes: 0 done, 2 unknown preset, unsupported language or usage error.";

/// The examples after the help of `squillion presets`.
pub const EXAMPLES: &str = "Examples:\n  squillion presets\n  squillion presets --json\n  squillion presets host-logs\n  squillion presets host-logs --lang zh-CN\n  squillion presets host-logs --model > host-logs.json";

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
    /// Language of the text: en or zh-CN (also zh, zh_CN.UTF-8); default: LC_ALL, LC_MESSAGES
    /// or LANG, English unless Chinese. --json follows --lang only.
    #[arg(long, value_name = "LANG", value_parser = super::lang::parse)]
    pub lang: Option<Lang>,
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
    /// The summary of `p`, its title and lesson in `lang` (the keys stay the same).
    fn of(p: &'a Preset, lang: Lang) -> anyhow::Result<Self> {
        let meta = p.model()?.preset;
        let text = p.text(lang);
        Ok(Listed {
            name: p.name,
            title: &text.title,
            lesson: &text.lesson,
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
        // JSON is for programs: the environment's locale does not change it, --lang does.
        let lang = if self.json {
            self.lang.unwrap_or_default()
        } else {
            super::lang::or_env(self.lang)
        };
        match &self.name {
            None => list(&mut out, self.json, lang)?,
            Some(name) => {
                let p = presets::find(name)?;
                if self.model {
                    out.write_all(p.text.as_bytes())?;
                } else if self.json {
                    serde_json::to_writer_pretty(&mut out, &Listed::of(p, lang)?)?;
                    writeln!(out)?;
                } else {
                    show(&mut out, p, lang)?;
                }
            }
        }
        out.flush()?;
        Ok(ExitCode::SUCCESS)
    }
}

fn list(out: &mut impl Write, json: bool, lang: Lang) -> anyhow::Result<()> {
    if json {
        let all = presets::all()
            .iter()
            .map(|p| Listed::of(p, lang))
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
        writeln!(out, "{:width$}  {}", p.name, p.text(lang).lesson)?;
    }
    Ok(())
}

fn show(out: &mut impl Write, p: &Preset, lang: Lang) -> anyhow::Result<()> {
    let m = p.model()?;
    let Some(meta) = &m.preset else {
        anyhow::bail!("preset {} has no preset object", p.name);
    };
    let text = p.text(lang);
    let w = Words::of(lang);
    writeln!(out, "{}\n", text.title)?;
    writeln!(out, "{}{}", w.lesson, text.lesson)?;
    let tips = if meta.source.tips.is_empty() {
        String::new()
    } else {
        let t: Vec<String> = meta.source.tips.iter().map(|t| format!("#{t}")).collect();
        format!("{}{}", w.tips, t.join(w.list_sep))
    };
    match (&meta.source.article, &meta.source.url) {
        (Some(article), _) => writeln!(out, "{}{}{article}{tips}\n", w.source, w.article)?,
        // A published page: its title (translated where the preset's translation gives it)
        // and its address.
        (None, url) => writeln!(
            out,
            "{}{}{}\n",
            w.source,
            text.source_title,
            url.as_deref()
                .map(|u| format!(" <{u}>"))
                .unwrap_or_default()
        )?,
    }
    for para in text.explanation.split("\n\n") {
        writeln!(out, "{para}\n")?;
    }
    writeln!(out, "{}{}\n", w.scale, text.scale_note)?;
    summary(out, p, &m, lang)?;
    Ok(())
}

/// The fixed words of `squillion presets NAME` in one language (the preset's own text comes
/// from its translation file).
struct Words {
    lesson: &'static str,
    source: &'static str,
    article: &'static str,
    tips: &'static str,
    list_sep: &'static str,
    scale: &'static str,
    round_trips: &'static str,
    unit: &'static str,
    indexes: &'static str,
    largest: &'static str,
    warnings: &'static str,
    fan_out: &'static str,
    estimate: &'static str,
}

impl Words {
    fn of(lang: Lang) -> Words {
        match lang {
            Lang::En => Words {
                lesson: "Lesson: ",
                source: "Source: ",
                article: "article ",
                tips: ", tips ",
                list_sep: ", ",
                scale: "Scale: ",
                round_trips: "Round trips per application unit, by design:",
                unit: "unit",
                indexes: "indexes (besides _id)",
                largest: "largest document (bytes)",
                warnings: "warnings",
                fan_out: "* writes one document per follower in one round trip (fan-out)",
                estimate: "~ estimate (field lengths vary); other sizes are exact BSON bytes",
            },
            Lang::ZhCn => Words {
                lesson: "要点：",
                source: "来源：",
                article: "文章 ",
                tips: "，技巧 ",
                list_sep: "、",
                scale: "规模：",
                round_trips: "各设计下每个应用程序单元的往返次数：",
                unit: "单元",
                indexes: "索引数（不含 _id）",
                largest: "最大文档（字节）",
                warnings: "警告数",
                fan_out: "* 在一次往返中为每个粉丝写一个文档（扇出）",
                estimate: "~ 估算值（字段长度不定）；其余大小均为精确的 BSON 字节数",
            },
        }
    }
}

/// Returns how many terminal columns `s` takes: CJK characters and full-width forms take
/// two, so the table's columns line up in Chinese.
fn columns(s: &str) -> usize {
    s.chars()
        .map(|c| match c {
            '\u{1100}'..='\u{115f}'
            | '\u{2e80}'..='\u{303e}'
            | '\u{3041}'..='\u{33ff}'
            | '\u{3400}'..='\u{4dbf}'
            | '\u{4e00}'..='\u{9fff}'
            | '\u{a000}'..='\u{a4cf}'
            | '\u{ac00}'..='\u{d7a3}'
            | '\u{f900}'..='\u{faff}'
            | '\u{fe30}'..='\u{fe4f}'
            | '\u{ff00}'..='\u{ff60}'
            | '\u{ffe0}'..='\u{ffe6}' => 2,
            _ => 1,
        })
        .sum()
}

/// Returns `s` followed by spaces up to `width` columns.
fn pad(s: &str, width: usize) -> String {
    format!("{s}{}", " ".repeat(width.saturating_sub(columns(s))))
}

/// Writes the model's summary and the round trips of every unit under every offered design.
fn summary(out: &mut impl Write, p: &Preset, m: &Model, lang: Lang) -> anyhow::Result<()> {
    let w = Words::of(lang);
    let zh = lang == Lang::ZhCn;
    write_model(out, p, m, zh)?;
    let analyses = analyze_offered(m)?;
    let (rows, fan_out) = round_trip_rows(m, &analyses, &w);
    write_table(out, &w, &analyses, &rows, fan_out)?;
    Ok(())
}

/// Writes where the model is (and how to get it), its entities and its relationships.
fn write_model(out: &mut impl Write, p: &Preset, m: &Model, zh: bool) -> anyhow::Result<()> {
    let n = p.name;
    if zh {
        writeln!(
            out,
            "模型：presets/{n}.json（squillion presets {n} --model > {n}.json）"
        )?;
    } else {
        writeln!(
            out,
            "Model: presets/{n}.json (squillion presets {n} --model > {n}.json)"
        )?;
    }
    for e in &m.entities {
        let count = crate::human::thousands(e.count as u64);
        let fields = e.fields.0.len();
        if zh {
            writeln!(
                out,
                "  实体 {}：全量 {count} 个文档，{fields} 个字段",
                e.name
            )?;
        } else {
            writeln!(
                out,
                "  entity {}: {count} documents at full scale, {fields} fields",
                e.name
            )?;
        }
    }
    for r in &m.relationships {
        let largest = crate::human::thousands(r.cardinality.max() as u64);
        let growth = r.growth_largest();
        let (name, parent, child) = (&r.name, &r.parent, &r.child);
        if zh {
            let growing = if growth > 0.0 {
                format!("，每天增长 {growth}")
            } else {
                String::new()
            };
            writeln!(
                out,
                "  关系 {name}：{parent} → {child}，最大 {largest}{growing}"
            )?;
        } else {
            let growing = if growth > 0.0 {
                format!(", growing {growth}/day")
            } else {
                String::new()
            };
            writeln!(
                out,
                "  relationship {name}: {parent} → {child}, largest {largest}{growing}"
            )?;
        }
    }
    Ok(())
}

/// Returns the table's rows, each a label and a cell per offered design: every unit's round
/// trips (`*` where a command fans out), then the indexes, the largest document and the
/// warnings; and whether any command fans out.
fn round_trip_rows(
    m: &Model,
    analyses: &[(String, crate::analysis::Analysis)],
    w: &Words,
) -> (Vec<(String, Vec<String>)>, bool) {
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
        w.indexes.into(),
        per_design(&|a| {
            let n: usize = a.layout.collections.iter().map(|c| c.indexes.len()).sum();
            n.to_string()
        }),
    ));
    rows.push((
        w.largest.into(),
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
        w.warnings.into(),
        per_design(&|a| a.warnings.len().to_string()),
    ));
    (rows, fan_out)
}

/// Writes the round trips' table: a column per offered design, each as wide as its widest
/// cell, the labels padded to the widest (in terminal columns), then its notes.
fn write_table(
    out: &mut impl Write,
    w: &Words,
    analyses: &[(String, crate::analysis::Analysis)],
    rows: &[(String, Vec<String>)],
    fan_out: bool,
) -> anyhow::Result<()> {
    let label_width = rows
        .iter()
        .map(|(l, _)| columns(l))
        .chain([columns(w.unit)])
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
    writeln!(out, "\n{}", w.round_trips)?;
    write!(out, "  {}", pad(w.unit, label_width))?;
    for ((n, _), w) in analyses.iter().zip(&widths) {
        write!(out, "  {n:>w$}")?;
    }
    writeln!(out)?;
    for (label, cells) in rows {
        write!(out, "  {}", pad(label, label_width))?;
        for (c, w) in cells.iter().zip(&widths) {
            write!(out, "  {c:>w$}")?;
        }
        writeln!(out)?;
    }
    if fan_out {
        writeln!(out, "  {}", w.fan_out)?;
    }
    writeln!(out, "  {}", w.estimate)?;
    Ok(())
}
