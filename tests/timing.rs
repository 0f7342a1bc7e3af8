//! Timings, run by hand: `cargo test --release --test timing -- --ignored --nocapture`.
#![cfg(not(target_arch = "wasm32"))]

use std::time::Instant;

use squillion::design::{layout_named, DesignName};
use squillion::model::parse_model;

#[test]
#[ignore]
fn timings() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/presets");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .map(|r| r.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    paths.sort();
    for p in paths {
        let text = std::fs::read_to_string(&p).unwrap_or_default();
        let Ok(model) = parse_model(&text) else {
            continue;
        };
        for name in [
            DesignName::Normalized,
            DesignName::Denormalized,
            DesignName::Bucketed,
        ] {
            let t = Instant::now();
            let Ok(layout) = layout_named(&model, name) else {
                continue;
            };
            let t_layout = t.elapsed();
            let t = Instant::now();
            let stats: Vec<_> = layout
                .collections
                .iter()
                .map(|c| squillion::arith::collection_stats(c, &model.start_date))
                .collect();
            let t_stats = t.elapsed();
            let t = Instant::now();
            let data = squillion::generate::generate(&model, &layout);
            let t_gen = t.elapsed();
            let t = Instant::now();
            let w = squillion::warning::check(&model, &layout);
            let t_warn = t.elapsed();
            let docs: f64 = stats.iter().map(|s| s.count).sum();
            println!(
                "{:<22} {:<12} layout {:>8.3?} stats {:>8.3?} ({} collections, {docs:.3e} docs) generate {:>8.3?} ({} docs) warnings {:>8.3?} ({})",
                p.file_name().map(|f| f.to_string_lossy().to_string()).unwrap_or_default(),
                name.as_str(),
                t_layout,
                t_stats,
                stats.len(),
                t_gen,
                data.document_count(),
                t_warn,
                w.len()
            );
        }
    }
}
