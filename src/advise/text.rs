//! The advice as text: what `squillion advise` prints without `--json`.

use std::fmt::Write as _;

use super::{Advice, Advised, Alternative};
use crate::human::{binary_size, thousands};

/// Returns a signed per-second figure (`+2,000`, `-0.5`), rounded for people.
fn signed(v: f64) -> String {
    let sign = if v > 0.0 {
        "+"
    } else if v < 0.0 {
        "-"
    } else {
        "±"
    };
    format!("{sign}{}", plain(v.abs()))
}

/// Returns a figure for people: whole numbers with thousands separators, small ones with up
/// to two decimals.
fn plain(v: f64) -> String {
    if v >= 100.0 || v.fract() == 0.0 {
        thousands(v.round() as u64)
    } else {
        let t = format!("{v:.2}");
        t.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// Returns a signed byte difference (`+1.2 GiB`).
fn signed_bytes(v: f64) -> String {
    let sign = if v > 0.0 {
        "+"
    } else if v < 0.0 {
        "-"
    } else {
        "±"
    };
    format!("{sign}{}", binary_size(v.abs().round() as u64))
}

/// Returns what an alternative costs against the recommendation, in words.
fn costs(a: &Alternative) -> String {
    format!(
        "{} read round trips/s, {} docs and {} index keys written/s, {} data and {} index bytes (score {:+.3})",
        signed(a.reads_delta),
        signed(a.writes_delta),
        signed(a.index_keys_delta),
        signed_bytes(a.storage_delta),
        signed_bytes(a.index_bytes_delta),
        a.score_delta
    )
}

/// Returns the sentence explaining one choice: the infeasible alternatives that would have
/// scored better, with the numbers of their break, then the runner-up and what it costs more.
pub fn explanation_sentence(
    dimension: &str,
    chosen: &str,
    runner_up: Option<&Alternative>,
    rejected: &[Alternative],
) -> String {
    let mut t = format!("{dimension}: {chosen}.");
    for r in rejected {
        let why = r
            .infeasible
            .first()
            .map_or_else(String::new, |b| b.message.clone());
        let _ = write!(t, " {} is infeasible: {why}.", r.choice);
    }
    match runner_up {
        Some(a) => {
            let _ = write!(t, " Runner-up {}: {}.", a.choice, costs(a));
        }
        None => t.push_str(" No feasible alternative."),
    }
    t
}

/// Returns one design's figures in a line.
fn figures(a: &Advised) -> String {
    let s = &a.screened;
    let mut t = format!(
        "reads {}/s, writes {} docs + {} index keys/s, storage {} + {} indexes (score {:+.3})",
        plain(s.reads),
        plain(s.writes),
        plain(s.index_keys_written),
        binary_size(s.storage.round() as u64),
        binary_size(s.index_bytes.round() as u64),
        a.score
    );
    if let Some(e) = &a.engine {
        let _ = write!(
            t,
            "; engine: reads {}/s, writes {} docs + {} index keys/s, indexes {}, docs examined {}/s{}",
            plain(e.reads),
            plain(e.writes),
            plain(e.index_keys_written),
            binary_size(e.index_bytes.round() as u64),
            plain(e.docs_examined),
            if e.infeasible.is_empty() {
                String::new()
            } else {
                format!(", infeasible: {}", e.infeasible.join(", "))
            }
        );
    }
    if let Some(err) = &a.engine_error {
        let _ = write!(t, "; engine error: {err}");
    }
    t
}

/// Returns the advice as text.
pub fn report(a: &Advice) -> String {
    let mut t = String::new();
    let s = &a.search;
    let _ = writeln!(
        t,
        "{}: {} search of {} designs: {} screened ({} feasible, {} infeasible within {} days, {} not laid out)",
        if a.model.is_empty() { "model" } else { &a.model },
        s.method,
        thousands(s.space_size),
        thousands(s.explored),
        thousands(s.feasible),
        thousands(s.infeasible),
        thousands(a.horizon_days),
        thousands(s.invalid)
    );
    let _ = writeln!(
        t,
        "weights: reads {}, writes {}, storage {}",
        a.weights.reads, a.weights.writes, a.weights.storage
    );
    match &a.recommended {
        Some(r) => {
            let _ = writeln!(t, "\nrecommended: {}", r.label);
            let _ = writeln!(t, "  {}", figures(r));
            let _ = writeln!(
                t,
                "  design: {}",
                serde_json::to_string(&r.design).unwrap_or_default()
            );
        }
        None => t.push_str("\nno feasible design\n"),
    }
    if !a.explanations.is_empty() {
        t.push_str("\nwhy:\n");
        for e in &a.explanations {
            let _ = writeln!(t, "  {}", e.text);
        }
    }
    t.push_str("\ntop:\n");
    for d in &a.top {
        let _ = writeln!(t, "  {}. {}\n     {}", d.rank, d.label, figures(d));
    }
    t.push_str("\nPareto front (read cost, write cost, storage):\n");
    for d in &a.front {
        let _ = writeln!(t, "  {}. {}\n     {}", d.rank, d.label, figures(d));
    }
    if a.disagreements.is_empty() {
        t.push_str("\nscreen and engine agree within tolerance on every verified design\n");
    } else {
        t.push_str("\nscreen and engine disagree:\n");
        for d in &a.disagreements {
            let _ = writeln!(
                t,
                "  {}: {} screened {}, engine {} (allowed {}–{}) {}",
                d.design,
                d.figure,
                plain(d.screened),
                plain(d.engine),
                plain(d.allowed[0]),
                plain(d.allowed[1]),
                d.note
            );
        }
    }
    t
}
