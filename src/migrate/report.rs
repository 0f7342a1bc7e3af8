//! A plan as people and scripts read it: the JSON `squillion migrate --json` prints and the
//! page's Migrate panel downloads (one function, so that both are the same bytes), a refusal's
//! JSON, and the plan as text in either language.

use serde::{Deserialize, Serialize};

use crate::human::{binary_size, duration, thousands};
use crate::lang::{Lang, Text};

use super::check::CheckReport;
use super::{Cost, MigrateError, Migration, Phase};

/// Returns the plan with its check, as `--json` prints it and `plan.json` holds it: the
/// [`Migration`] and `check: {commands, parents, passed, problems}`.
pub fn plan_json(m: &Migration, r: &CheckReport) -> String {
    let mut v = serde_json::to_value(m).unwrap_or_default();
    if let Some(o) = v.as_object_mut() {
        o.insert(
            "check".into(),
            serde_json::json!({
                "commands": r.commands,
                "parents": r.parents,
                "passed": r.problems.is_empty(),
                "problems": r.problems,
            }),
        );
    }
    serde_json::to_string_pretty(&v).unwrap_or_default()
}

/// Returns a refusal as `--json` prints it, its words in `lang`:
/// `{"refused": {"kind": "unsupported", "what", "why", "message"}}` or
/// `{"refused": {"kind": "over_limit", "collection", "documents", "fix", "message"}}`.
pub fn refusal_json(e: &MigrateError, lang: Lang) -> String {
    let detail = match e {
        MigrateError::Unsupported { what, why } => serde_json::json!({
            "kind": "unsupported", "what": what.render(lang), "why": why.render(lang),
            "message": e.render(lang)
        }),
        MigrateError::OverLimit {
            collection,
            documents,
            fix,
        } => serde_json::json!({
            "kind": "over_limit", "collection": collection, "documents": documents.render(lang),
            "fix": fix.render(lang), "message": e.render(lang)
        }),
    };
    serde_json::to_string_pretty(&serde_json::json!({ "refused": detail })).unwrap_or_default()
}

/// Returns a phase's name in `lang` (the JSON's `phase` stays [`Phase::name`]).
fn phase_name(p: Phase, lang: Lang) -> String {
    Text::new(match p {
        Phase::Create => "migrate-phase-create",
        Phase::Backfill => "migrate-phase-backfill",
        Phase::Switch => "migrate-phase-switch",
        Phase::CleanUp => "migrate-phase-clean-up",
    })
    .render(lang)
}

/// Returns a cost as one line in `lang`: documents and bytes read and written, index keys,
/// duration.
fn cost_line(c: &Cost, lang: Lang) -> String {
    Text::new("migrate-cost")
        .arg("docs_read", thousands(c.docs_read.round() as u64))
        .arg("bytes_read", binary_size(c.bytes_read.round() as u64))
        .arg("docs_written", thousands(c.docs_written.round() as u64))
        .arg("bytes_written", binary_size(c.bytes_written.round() as u64))
        .arg("keys", thousands(c.index_keys.round() as u64))
        .arg("duration", duration(c.seconds))
        .render(lang)
}

/// Returns the sentence that says what the engine's check found, in `lang` (its problems
/// follow it, one a line, when there are any).
fn check_line(r: &CheckReport, lang: Lang) -> String {
    if r.problems.is_empty() {
        Text::new("migrate-checked")
            .arg("commands", thousands(r.commands as u64))
            .arg("parents", thousands(r.parents as u64))
            .render(lang)
    } else {
        Text::new("migrate-check-failed").render(lang)
    }
}

/// Returns the plan's heading in `lang`: "Migration of MODEL from D1 to D2".
fn title(m: &Migration, lang: Lang) -> String {
    let model = m
        .model
        .clone()
        .unwrap_or_else(|| Text::new("migrate-report-the-model").render(lang));
    Text::new("migrate-report-title")
        .arg("model", model)
        .arg("from", &m.from)
        .arg("to", &m.to)
        .render(lang)
}

/// A plan as the page's Migrate panel shows it: every line already in one language, so that
/// the page renders strings and carries none of the planner's words.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// "Migration of MODEL from D1 to D2".
    pub title: String,
    /// One line per relationship whose strategy changes ("tasks: reference_in_child →
    /// two_way"), or the sentence that only indexes change.
    pub changes: Vec<String>,
    /// What the application writes to both layouts until the switch, one line per change.
    pub dual_writes: Vec<String>,
    /// The heading of the steps: full scale, the batch size and the write rate.
    pub steps_heading: String,
    /// The steps, in order.
    pub steps: Vec<SummaryStep>,
    /// The total cost's line.
    pub total: String,
    /// What the engine's check found.
    pub check: String,
    /// True when the check found no difference.
    pub passed: bool,
    /// The differences it found.
    pub problems: Vec<String>,
}

/// One step of a [`Summary`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SummaryStep {
    /// Its number, from 1.
    pub number: usize,
    /// Its phase as the JSON names it (`create`, `backfill`, `switch`, `clean_up`).
    pub phase: String,
    /// Its phase in the summary's language.
    pub phase_name: String,
    /// What it does.
    pub title: String,
    /// Its mongosh command.
    pub command: String,
    /// Its cost's line; empty for a step that costs nothing (an index dropped, the deploy).
    pub cost: String,
}

/// Returns the plan and its check as the page shows them, in `lang`.
pub fn summary(m: &Migration, r: &CheckReport, lang: Lang) -> Summary {
    let say = |id: &'static str| Text::new(id).render(lang);
    let mut changes: Vec<String> = m
        .changes
        .iter()
        .map(|c| format!("{}: {} → {}", c.relationship, c.from, c.to))
        .collect();
    if changes.is_empty() {
        changes.push(say("migrate-report-indexes-only"));
    }
    Summary {
        title: title(m, lang),
        changes,
        dual_writes: m.dual_writes.clone(),
        steps_heading: steps_heading(m, lang),
        steps: m
            .steps
            .iter()
            .map(|s| SummaryStep {
                number: s.number,
                phase: serde_json::to_value(s.phase)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default(),
                phase_name: phase_name(s.phase, lang),
                title: s.title.clone(),
                command: s.command.clone(),
                cost: if s.cost == Cost::default() {
                    String::new()
                } else {
                    cost_line(&s.cost, lang)
                },
            })
            .collect(),
        total: Text::new("migrate-report-total")
            .arg("cost", cost_line(&m.total, lang))
            .render(lang),
        check: check_line(r, lang),
        passed: r.problems.is_empty(),
        problems: r.problems.clone(),
    }
}

/// Returns the heading of the steps: full scale, the batch size and the write rate.
fn steps_heading(m: &Migration, lang: Lang) -> String {
    Text::new("migrate-report-steps")
        .arg("batch", thousands(m.options.batch))
        .arg("rate", thousands(m.options.write_rate.round() as u64))
        .render(lang)
}

/// Returns the plan as text in `lang` (what `squillion migrate` prints without `--json`).
pub fn text(m: &Migration, r: &CheckReport, lang: Lang) -> String {
    // The page's summary, written out: both say the same lines.
    let s = summary(m, r, lang);
    let mut out = format!("{}\n", s.title);
    for c in &s.changes {
        out.push_str(&format!("  {c}\n"));
    }
    if !s.dual_writes.is_empty() {
        let heading = Text::new("migrate-report-dual-writes").render(lang);
        out.push_str(&format!("\n{heading}\n"));
        for w in &s.dual_writes {
            out.push_str(&format!("  - {w}\n"));
        }
    }
    out.push_str(&format!("\n{}\n", s.steps_heading));
    for st in &s.steps {
        out.push_str(&format!(
            "\n{:>2}. [{}] {}\n    {}\n",
            st.number, st.phase_name, st.title, st.command
        ));
        if !st.cost.is_empty() {
            out.push_str(&format!("    {}\n", st.cost));
        }
    }
    out.push_str(&format!("\n{}\n{}\n", s.total, s.check));
    for p in &s.problems {
        out.push_str(&format!("  - {p}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cost_reads_alike_in_both_languages_but_for_its_words() {
        let c = Cost {
            docs_read: 1_500.0,
            bytes_read: 2048.0,
            docs_written: 10.0,
            bytes_written: 1024.0,
            index_keys: 20.0,
            seconds: 200.0,
        };
        assert_eq!(
            cost_line(&c, Lang::En),
            "reads 1,500 docs (2 KiB), writes 10 docs (1 KiB), 20 index keys, 4 min"
        );
        let zh = cost_line(&c, Lang::ZhCn);
        assert!(
            zh.contains("1,500") && zh.contains("4 min") && !zh.contains("reads"),
            "{zh}"
        );
    }
}
