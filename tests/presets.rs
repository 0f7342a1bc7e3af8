//! The workshop presets (presets/*.json): one runner checks that every file parses, validates
//! and is analysed under every design it offers, and that `presets::all()` lists exactly the
//! files; then one test per preset asserts its lesson as numbers, through the same analysis the
//! command line prints (round trips per unit from the plan, break points and their dates,
//! indexes, warnings, document sizes, shard keys).
#![cfg(not(target_arch = "wasm32"))]

use squillion::analysis::{analyze_offered, Analysis};
use squillion::model::Model;
use squillion::presets;

/// Returns the preset's model and the analysis of every design it offers, by design name.
fn load(name: &str) -> (Model, Vec<(String, Analysis)>) {
    let p = presets::get(name).unwrap_or_else(|| panic!("no preset {name}"));
    let m = p.model().unwrap_or_else(|e| panic!("{name}: {e}"));
    let a = analyze_offered(&m).unwrap_or_else(|e| panic!("{name}: {e}"));
    if std::env::var("SQUILLION_SHOW").is_ok_and(|s| s == name || s == "all") {
        show(&m, &a);
    }
    (m, a)
}

fn show(m: &Model, all: &[(String, Analysis)]) {
    for (design, a) in all {
        println!(
            "== {} [{design}] {}",
            m.name.as_deref().unwrap_or(""),
            a.layout.design
        );
        for st in &a.stats {
            for s in &st.shapes {
                println!(
                    "  {} / {}: count {:.0} avg {} p99 {} max {} ({})",
                    st.name,
                    s.label,
                    s.count,
                    s.average.bytes,
                    s.p99.bytes,
                    s.max.bytes,
                    if s.max.exact { "exact" } else { "estimate" }
                );
                for ar in &s.arrays {
                    println!(
                        "    array {} max {} elem {} break {:?} largest {:?} typical {:?} capped {}",
                        ar.field,
                        ar.max_count,
                        ar.element_bytes.bytes,
                        ar.break_point,
                        ar.largest_reaches,
                        ar.typical_reaches,
                        ar.capped
                    );
                }
            }
        }
        for c in &a.layout.collections {
            for i in &c.indexes {
                println!("  {}", i.mongosh());
            }
            if let Some(k) = &c.shard_key {
                println!("  shard {}: {k}", c.name);
            }
        }
        print!("{}", a.layout.plan);
        for w in &a.warnings {
            println!(
                "  {:?} {} {}.{}: {}",
                w.severity, w.code, w.collection, w.path, w.message
            );
        }
    }
}

/// Every file in presets/ is listed by `presets::all()` (and nothing else), parses with its
/// preset metadata, and lays out and is analysed under every design it offers.
#[test]
fn every_preset_file_is_listed_parses_and_evaluates() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/presets");
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .filter_map(|e| {
                    e.file_name()
                        .to_str()
                        .and_then(|n| n.strip_suffix(".json"))
                        .map(str::to_string)
                })
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let mut listed: Vec<String> = presets::all().iter().map(|p| p.name.to_string()).collect();
    listed.sort();
    assert_eq!(files, listed);
    assert_eq!(listed.len(), 13);
    for p in presets::all() {
        let text = std::fs::read_to_string(format!("{dir}/{}.json", p.name))
            .unwrap_or_else(|e| panic!("{}: {e}", p.name));
        assert_eq!(text, p.text, "{}: embedded text is stale", p.name);
        let (m, analyses) = load(p.name);
        assert_eq!(m.name.as_deref(), Some(p.name));
        let meta = m
            .preset
            .as_ref()
            .unwrap_or_else(|| panic!("{}: no preset object", p.name));
        assert_eq!(meta.title, p.title);
        assert_eq!(meta.lesson, p.lesson);
        assert!(!p.lesson.contains('\n'));
        assert!(meta.designs.len() >= 2, "{}: {:?}", p.name, meta.designs);
        assert_eq!(analyses.len(), meta.designs.len(), "{}", p.name);
        for (d, a) in &analyses {
            assert!(!a.layout.collections.is_empty(), "{} [{d}]", p.name);
            assert_eq!(
                a.layout.plan.units.len(),
                m.workload.len(),
                "{} [{d}]",
                p.name
            );
            assert!(
                a.stats.iter().all(|s| s.total_bytes.is_finite()),
                "{} [{d}]",
                p.name
            );
        }
    }
}

#[test]
fn unknown_preset_lists_the_known_ones() {
    let e = presets::find("social").map(|p| p.name).unwrap_err();
    let msg = e.to_string();
    assert!(msg.contains("\"social\""), "{msg}");
    for p in presets::all() {
        assert!(msg.contains(p.name), "{msg}");
    }
}
