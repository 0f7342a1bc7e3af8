//! Every plan gives its step's logical answer (`eval::answer`): for every preset, every design
//! it offers and every strategy the picker offers for each of its relationships, each `read`
//! returns the children its step asks for (their fields, the first N in its order) and each
//! `insert_child` leaves the child stored and linked to its parent, on the engine.
#![cfg(not(target_arch = "wasm32"))]

use squillion::eval::answer::{check_offered, AnswerReport};
use squillion::eval::offer::offers;
use squillion::eval::EvalOptions;
use squillion::model::design::strategies_for;
use squillion::model::{parse_model, Model};
use squillion::presets;

#[path = "common/design_override.rs"]
mod design_override;
use design_override::with_override;

/// Checks design `id` of `m`, adding what is wrong to `failures`; returns the report.
fn run(m: &Model, what: &str, id: &str, failures: &mut Vec<String>) -> Option<AnswerReport> {
    // A sample of 60 documents per entity keeps every plan path (the largest parent is
    // document 0 of every sample) at a fraction of the evaluation's time.
    let opts = EvalOptions {
        max_documents: Some(60),
        ..Default::default()
    };
    // A design whose 60 documents do not fit the memory budget gets the smaller sample the
    // evaluation itself would fit.
    let checked =
        check_offered(m, id, &opts).or_else(|_| check_offered(m, id, &EvalOptions::default()));
    match checked {
        Ok(r) => {
            failures.extend(r.problems.iter().map(|p| format!("{what}: {p}")));
            Some(r)
        }
        // A design that cannot be laid out or sampled is refused elsewhere (validation, the
        // memory budget); it answers nothing.
        Err(e) => {
            eprintln!("{what}: not evaluated: {e}");
            None
        }
    }
}

#[test]
fn every_preset_design_gives_the_logical_answer() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for p in presets::all() {
        let m = p.model().unwrap();
        for o in offers(&m) {
            let what = format!("{} / {}", p.name, o.id);
            if let Some(r) = run(&m, &what, &o.id, &mut failures) {
                checked += r.checked;
                for u in &r.unchecked {
                    eprintln!("{what}: not checked: {u}");
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked > 50, "only {checked} steps checked");
}

#[test]
fn every_offered_strategy_gives_the_logical_answer() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for p in presets::all() {
        let m = p.model().unwrap();
        for r in &m.relationships {
            for s in strategies_for(&m, &r.name) {
                let text = with_override(p.text, &r.name, serde_json::to_value(&s).unwrap());
                let Ok(om) = parse_model(&text) else {
                    continue;
                };
                let what = format!("{} / {} {}", p.name, r.name, s.name());
                if let Some(rep) = run(&om, &what, "custom", &mut failures) {
                    checked += rep.checked;
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked > 100, "only {checked} steps checked");
}
