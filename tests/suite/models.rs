//! Every preset in presets/ (one per scenario of the source articles) parses, lays out
//! under its own design and the three named ones, generates a small sample and is checked.
#![cfg(not(target_arch = "wasm32"))]

use squillion::design::{layout_model, layout_named, DesignName};
use squillion::model::parse_model;

fn models() -> Vec<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/presets");
    let mut out: Vec<(String, String)> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .map(|p| {
                    (
                        p.display().to_string(),
                        std::fs::read_to_string(&p).unwrap_or_default(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

#[test]
fn every_model_lays_out_generates_and_checks() {
    let all = models();
    assert!(all.len() >= 14, "found {}", all.len());
    for (path, text) in all {
        let model = parse_model(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
        let mut layouts = vec![layout_model(&model).unwrap_or_else(|e| panic!("{path}: {e}"))];
        for name in [
            DesignName::Normalized,
            DesignName::Denormalized,
            DesignName::Bucketed,
        ] {
            layouts.push(
                layout_named(&model, name).unwrap_or_else(|e| panic!("{path} {name:?}: {e}")),
            );
        }
        for layout in &layouts {
            assert!(!layout.collections.is_empty(), "{path}");
            let data = squillion::generate::generate(&model, layout);
            assert!(
                data.document_count() > 0 && data.document_count() <= 5000,
                "{path}: {}",
                data.document_count()
            );
            for c in &layout.collections {
                let st = squillion::stats::collection_stats(c, &model.start_date);
                assert!(st.total_bytes.is_finite(), "{path}");
            }
            let warnings = squillion::warning::check(&model, layout);
            if std::env::var("SQUILLION_SHOW").is_ok() {
                println!("== {path} [{}]", layout.design);
                for c in &layout.collections {
                    let st = squillion::stats::collection_stats(c, &model.start_date);
                    for s in &st.shapes {
                        println!(
                            "  {} / {}: count {:.0} avg {} max {} ({})",
                            c.name,
                            s.label,
                            s.count,
                            s.average.bytes,
                            s.max.bytes,
                            if s.max.exact { "exact" } else { "estimate" }
                        );
                    }
                    for i in &c.indexes {
                        println!("  {}", i.mongosh());
                    }
                }
                for u in &layout.plan.units {
                    for c in &u.commands {
                        println!("  [{}] {}", u.unit, c.mongosh());
                    }
                }
                for w in &warnings {
                    println!(
                        "  {:?} {} {}.{}: {}",
                        w.severity, w.code, w.collection, w.path, w.message
                    );
                }
            }
        }
    }
}

/// In every generated sample, references resolve: each parent reference in a child names a
/// generated parent, and link documents name generated parents and children.
#[test]
fn references_resolve_in_every_sample() {
    use std::collections::HashSet;
    for (path, text) in models() {
        let model = parse_model(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
        for name in [
            DesignName::Normalized,
            DesignName::Denormalized,
            DesignName::Bucketed,
        ] {
            let layout = layout_named(&model, name).unwrap_or_else(|e| panic!("{path}: {e}"));
            let data = squillion::generate::generate(&model, &layout);
            let ids_of = |entity: &str| -> HashSet<bson::oid::ObjectId> {
                layout
                    .collection_of(entity)
                    .and_then(|c| data.collection(&c.name))
                    .map(|c| {
                        c.documents
                            .iter()
                            .filter_map(|d| d.get_object_id("_id").ok())
                            .collect()
                    })
                    .unwrap_or_default()
            };
            for r in &model.relationships {
                let parents = ids_of(&r.parent);
                if parents.is_empty() {
                    continue;
                }
                let pref = r.parent_ref();
                for c in &layout.collections {
                    let Some(g) = data.collection(&c.name) else {
                        continue;
                    };
                    for d in &g.documents {
                        if let Ok(id) = d.get_object_id(&pref) {
                            assert!(
                                parents.contains(&id),
                                "{path} {name:?}: {}.{pref} = {id} names no {}",
                                c.name,
                                r.parent
                            );
                        }
                    }
                }
            }
        }
    }
}
