//! The design advisor (`squillion advise`, docs/advisor.md): on every preset its
//! recommendation is feasible and at least as good as the article's own on the article's
//! criterion (or the exception is listed here with its numbers); over random small models no
//! recommendation is infeasible and the screened figures of every verified design equal the
//! engine's within the documented tolerance; the CLI's JSON shape and exit codes.
#![cfg(not(target_arch = "wasm32"))]

use std::process::Command;

use crate::common::fixed_seed;
use proptest::prelude::*;
use squillion::advise::screen::{screen, Screen};
use squillion::advise::{advise, advise_with, Advice, AdviseOptions, DEFAULT_HORIZON_YEARS};
use squillion::design::Layout;
use squillion::model::{parse_model, Model};

/// The objective an article's recommendation is judged on.
#[derive(Debug, Clone, Copy)]
enum Criterion {
    /// Read round trips per second.
    Reads,
    /// Data bytes at full scale.
    Storage,
    /// The largest document at full scale.
    LargestDocument,
}

impl Criterion {
    fn of(self, s: &Screen) -> f64 {
        match self {
            Criterion::Reads => s.reads,
            Criterion::Storage => s.storage,
            Criterion::LargestDocument => s.largest_document as f64,
        }
    }
}

/// Per preset: the design its article recommends (docs/presets.md, docs/advisor.md), the
/// criterion the article gives, and whether the advisor's default weights make a different
/// trade (then the test asserts the numbers docs/advisor.md gives for it).
const ARTICLES: [(&str, &str, Criterion); 16] = [
    ("social-graph", "tbc", Criterion::Reads),
    ("shopping-cart", "snapshot", Criterion::Reads),
    ("blog", "one-query", Criterion::Reads),
    ("image-board", "normalized", Criterion::Reads),
    ("page-analytics", "on-demand", Criterion::Storage),
    ("game-inventory", "array", Criterion::Reads),
    ("fruit-totals", "stored-total", Criterion::Reads),
    ("person-addresses", "denormalized", Criterion::Reads),
    ("product-parts", "part-ids", Criterion::Reads),
    ("host-logs", "normalized", Criterion::Reads),
    ("person-tasks", "two-way", Criterion::Reads),
    ("movie-prices", "array", Criterion::Storage),
    ("social-feed", "bucketed", Criterion::Storage),
    (
        "message-attachments",
        "object_storage",
        Criterion::LargestDocument,
    ),
    // The manual's materialized paths: a subtree, the children and the ancestors in one
    // query each.
    ("category-tree", "materialized-paths", Criterion::Reads),
    // The single-collection pattern: a product page (the product and its reviews) in one
    // query on the shared key.
    ("product-catalog", "single-collection", Criterion::Reads),
];

fn preset(name: &str) -> Model {
    squillion::presets::find(name)
        .unwrap_or_else(|e| panic!("{e}"))
        .model()
        .unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

fn horizon(m: &Model) -> u64 {
    squillion::date::days_in_years(&m.start_date, DEFAULT_HORIZON_YEARS).unwrap()
}

/// The screen of the design `id` a preset offers, laid out as the page and `eval` do.
fn offered(m: &Model, id: &str) -> Screen {
    let o = squillion::eval::offer::offer(m, id).unwrap_or_else(|| panic!("no design {id}"));
    let layout = o.layout().unwrap();
    screen(&o.model, &layout, horizon(m))
}

#[test]
fn every_preset_gets_a_feasible_recommendation_as_good_as_its_article_or_an_explained_exception() {
    let mut report = Vec::new();
    let mut failures = Vec::new();
    for (name, article, criterion) in ARTICLES {
        let m = preset(name);
        let a = advise(&m, &AdviseOptions::default());
        let r = a
            .recommended
            .as_ref()
            .unwrap_or_else(|| panic!("{name}: no recommendation"));
        assert!(r.screened.feasible(), "{name}: {:?}", r.screened.infeasible);
        let e = r.engine.as_ref().unwrap();
        assert!(
            e.sound(),
            "{name}: {:?} {:?}",
            e.infeasible,
            e.command_errors
        );
        // Every verified design of every preset: the engine within the screen's tolerance.
        assert!(a.disagreements.is_empty(), "{name}: {:#?}", a.disagreements);
        // The recommendation is a model design: laid out from the model it screens the same.
        let again = screen(&m, &Layout::build(&m, &r.design).unwrap(), horizon(&m));
        assert_eq!(again, r.screened, "{name}");
        let theirs = offered(&m, article);
        let (ours, art) = (criterion.of(&r.screened), criterion.of(&theirs));
        report.push(format!(
            "{name}: {criterion:?} advisor {ours} ({}) vs {article} {art} (feasible {}); write cost {} vs {}, storage cost {} vs {}",
            r.label,
            theirs.feasible(),
            r.screened.write_cost(),
            theirs.write_cost(),
            r.screened.storage_cost(),
            theirs.storage_cost()
        ));
        match name {
            // The article embeds the comments: the busiest post breaks 16 MiB in 47 days.
            "blog" => {
                assert!(!theirs.feasible());
                let b = &theirs.infeasible[0];
                assert_eq!(b.code, "BREAKS_WITHIN_HORIZON");
                assert_eq!(b.days, Some(47), "{b:?}");
                assert!(ours <= art, "{name}: {ours} > {art}");
            }
            // The keys are open (new items, new channels: `values_open`), so keyed attributes
            // with one index per key are infeasible (OPEN_KEYS_INDEXED): a createIndex for every
            // new key, past 64 indexes in time. The article's array of {k, v} with its multikey
            // index is recommended. docs/advisor.md gives the deciding terms.
            "game-inventory" | "movie-prices" => {
                assert!(r.label.contains("key_value"), "{name}: {}", r.label);
                let keyed = offered(&m, "keyed");
                assert!(
                    keyed
                        .infeasible
                        .iter()
                        .any(|b| b.code == "OPEN_KEYS_INDEXED"),
                    "{name}: {:?}",
                    keyed.infeasible
                );
                assert!(ours <= art * (1.0 + 1e-12), "{name}: {ours} > {art}");
                if name == "game-inventory" {
                    // Signing in with a case-insensitive index: 1 key examined, not 2,000,000.
                    assert!(r.label.contains("case_insensitive_index"), "{}", r.label);
                } else {
                    // Flattened rows repeat the showing 13.5 times: their working set passes
                    // the cache and the channel listing reads from disk.
                    let flat = a
                        .top
                        .iter()
                        .chain(&a.front)
                        .find(|d| d.label.contains("flattened"))
                        .and_then(|d| d.cost.clone())
                        .unwrap_or_else(|| panic!("flattened was not verified"));
                    assert_eq!(flat.terms[0].figure, "docs_from_disk", "{flat:?}");
                    let own = r.cost.as_ref().unwrap();
                    assert!(own.score < flat.score);
                    assert!(
                        !own.terms
                            .iter()
                            .any(|t| t.figure == "docs_from_disk" && t.us_per_sec > 0.0),
                        "{own:?}"
                    );
                }
            }
            // The article's buckets: fan-out on write reads 1 round trip a page where buckets
            // read 2, but its working set (a feed item a document) is far past the cache, so
            // the items its pages read come from disk; buckets of 50 hold 50 items a
            // document. Fan-out on write ties at about 4 reads per write (today 55).
            "social-feed" => {
                assert!(r.label.contains("bucketed_fan_out 50"), "{}", r.label);
                let fan_out = a
                    .flips
                    .iter()
                    .find(|f| f.design.contains("fan_out_on_write"))
                    .unwrap_or_else(|| panic!("{:#?}", a.flips));
                let (today, at) = (
                    fan_out.reads_per_write.unwrap_or(0.0),
                    fan_out.reads_per_write_at_flip.unwrap_or(f64::INFINITY),
                );
                assert!(at < today, "{fan_out:?}");
            }
            _ => {
                if ours > art * (1.0 + 1e-12) {
                    failures.push(format!(
                        "{name}: {criterion:?} {ours} worse than the article's {article} {art}"
                    ));
                }
            }
        }
    }
    println!("{}", report.join("\n"));
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn the_front_holds_no_dominated_design_and_the_top_is_in_score_order() {
    let m = preset("social-graph");
    let a = advise(&m, &AdviseOptions::default());
    assert_eq!(a.search.method, "exhaustive");
    assert_eq!(a.search.explored, a.search.space_size);
    for x in &a.front {
        for y in &a.front {
            let (p, q) = (x.screened.objectives(), y.screened.objectives());
            let dominated = q.iter().zip(&p).all(|(b, a)| b <= a) && q != p;
            assert!(!dominated, "{} dominated by {}", x.label, y.label);
        }
    }
    assert!(a.top.windows(2).all(|w| w[0].score <= w[1].score));
    // The article's break point is in the explanation of followers.
    let why = &a.explanations[0];
    assert_eq!(why.dimension, "followers");
    assert!(why.text.contains("844,411"), "{}", why.text);
}

#[test]
fn index_costs_are_screened_as_the_evaluation_reports_them() {
    // Designs whose indexes hold no array the sample cuts: the screen's index keys written and
    // index bytes are the engine's, to the key and to the byte; the keyed attributes' 21
    // indexes cost their bytes in storage.
    for (name, design, keys, bytes) in [
        ("host-logs", "normalized", 100_000.0, 57_000_000_000.0),
        ("message-attachments", "gridfs", 6_000.0, 124_600_000_000.0),
        (
            "social-feed",
            "denormalized",
            200_000.0,
            61_500_000_000_000.0,
        ),
    ] {
        let m = preset(name);
        let o = squillion::eval::offer::offer(&m, design).unwrap();
        let layout = o.layout().unwrap();
        let s = screen(&o.model, &layout, horizon(&m));
        let e = squillion::eval::evaluate_layout(&o.model, layout, &Default::default()).unwrap();
        let engine = squillion::advise::verify::EngineFigures::of(&e);
        assert_eq!(s.index_keys_written, keys, "{name} {design}");
        assert_eq!(engine.index_keys_written, keys, "{name} {design}");
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-3 * b;
        assert!(
            close(s.index_bytes, bytes),
            "{name} {design}: {}",
            s.index_bytes
        );
        assert!(
            close(engine.index_bytes, bytes),
            "{name} {design}: {}",
            engine.index_bytes
        );
        assert_eq!(s.write_cost(), s.writes + keys);
        assert_eq!(s.storage_cost(), s.storage + s.index_bytes);
    }
}

#[test]
fn weights_change_the_recommendation() {
    let m = preset("social-feed");
    let w = squillion::advise::Weights::parse("reads=0,writes=0,storage=1").unwrap();
    let a = advise(
        &m,
        &AdviseOptions {
            weights: w,
            ..AdviseOptions::default()
        },
    );
    let r = a.recommended.unwrap();
    let min = a
        .front
        .iter()
        .map(|d| d.screened.storage_cost())
        .fold(f64::INFINITY, f64::min);
    assert_eq!(r.screened.storage_cost(), min, "{}", r.label);
    assert!(squillion::advise::Weights::parse("reads=-1").is_err());
    assert!(squillion::advise::Weights::parse("speed=1").is_err());
}

/// A small random model: a parent and a child entity, one relationship with a random
/// cardinality (and growth), a read of the parent with its children and an insert of a child.
fn small_model(
    parents: u64,
    typical: u64,
    max: u64,
    growth: u64,
    m2m: bool,
    limit: Option<u64>,
    with_list: bool,
) -> Model {
    let p99 = typical + (max - typical) / 2;
    let growth = if growth == 0 {
        String::new()
    } else {
        format!(r#", "growth_per_day": {{ "typical": {growth} }}"#)
    };
    let limit = limit.map_or(String::new(), |l| {
        format!(r#", "limit": {l}, "sort": {{ "field": "at", "order": -1 }}"#)
    });
    let list = if with_list {
        r#", { "name": "list", "rate_per_sec": 7, "steps": [ { "op": "list", "entity": "c", "sort": { "field": "at", "order": -1 } } ] }"#
    } else {
        ""
    };
    let text = format!(
        r#"{{
        "name": "random",
        "sample": {{ "max_documents": 60 }},
        "entities": [
          {{ "name": "p", "count": {parents}, "fields": {{ "n": {{ "type": "string", "length": {{ "shape": "uniform", "min": 3, "max": 30 }} }} }} }},
          {{ "name": "c", "count": {children}, "fields": {{ "v": {{ "type": "int" }}, "at": {{ "type": "date" }}, "text": {{ "type": "string", "length": {{ "shape": "uniform", "min": 10, "max": 300 }} }} }} }}
        ],
        "relationships": [
          {{ "name": "r", "parent": "p", "child": "c", "many_to_many": {m2m},
             "cardinality": {{ "shape": "lognormal", "typical": {typical}, "p99": {p99}, "max": {max} }}{growth} }}
        ],
        "workload": [
          {{ "name": "page", "rate_per_sec": 100, "steps": [ {{ "op": "read", "entity": "p", "children": [ {{ "relationship": "r"{limit} }} ] }} ] }},
          {{ "name": "add", "rate_per_sec": 10, "steps": [ {{ "op": "insert_child", "relationship": "r" }} ] }}{list}
        ]
    }}"#,
        children = parents * typical.max(1)
    );
    parse_model(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// The property test's cases and seed (`common/fixed_seed.rs`): 12 cases from seed 19.
fn advise_config() -> ProptestConfig {
    fixed_seed::fixed_seed(12, 19)
}

proptest! {
    #![proptest_config(advise_config())]

    #[test]
    fn no_recommendation_is_infeasible_and_verified_screens_match_the_engine(
        parents in 10u64..2_000,
        typical in 1u64..50,
        extra in 1u64..2_000_000,
        growth in prop_oneof![Just(0u64), 1u64..5_000],
        m2m in any::<bool>(),
        limit in proptest::option::of(1u64..30),
        with_list in any::<bool>(),
    ) {
        let m = small_model(parents, typical, typical + extra, growth, m2m, limit, with_list);
        let a = advise(&m, &AdviseOptions { top: 2, ..AdviseOptions::default() });
        if let Some(r) = &a.recommended {
            prop_assert!(r.screened.feasible(), "{:?}", r.screened.infeasible);
            let e = r.engine.as_ref().unwrap();
            prop_assert!(e.sound(), "{:?} {:?}", e.infeasible, e.command_errors);
        }
        // Every verified design: the engine within the screen's tolerance.
        prop_assert!(a.disagreements.is_empty(), "{:#?}", a.disagreements);
        let verified = a.top.iter().chain(&a.front).filter(|d| d.engine.is_some()).count();
        prop_assert!(verified > 0 || a.top.is_empty());
    }
}

#[test]
fn the_advice_reports_each_phase_and_reads_back_from_its_json() {
    // What the page's worker does: the phases as they start (screening, one engine run per
    // design verified, the explanations), then the advice as JSON, read back by the page.
    let m = preset("shopping-cart");
    let mut phases = Vec::new();
    let a = advise_with(&m, &AdviseOptions::default(), &mut |p| {
        phases.push((p.step, p.of, p.what.clone()))
    });
    assert_eq!(
        a,
        advise(&m, &AdviseOptions::default()),
        "progress changes nothing"
    );
    let steps: Vec<usize> = phases.iter().map(|p| p.0).collect();
    assert_eq!(steps, (1..=phases.len()).collect::<Vec<_>>(), "{phases:?}");
    let of = phases.last().map(|p| p.1).unwrap_or_default();
    assert_eq!(of, phases.len(), "the last phase is phase `of`: {phases:?}");
    // The count is known once the designs to verify are: it never shrinks.
    assert!(phases.windows(2).all(|w| w[0].1 <= w[1].1), "{phases:?}");
    assert!(
        phases[0].2.starts_with("screening a space of 240 designs"),
        "{phases:?}"
    );
    assert_eq!(phases[of - 1].2, "explaining the recommendation");
    let runs = phases
        .iter()
        .filter(|p| p.2.starts_with("running on the engine: "))
        .count();
    // The top's and the front's, and the runners-up of the choices run for their flips.
    let verified = a
        .top
        .iter()
        .chain(&a.front)
        .filter(|d| d.engine.is_some())
        .map(|d| &d.label)
        .chain(
            a.explanations
                .iter()
                .filter_map(|e| e.flip.as_ref().map(|f| &f.design)),
        );
    let mut labels: Vec<&String> = verified.collect();
    labels.sort();
    labels.dedup();
    assert_eq!(
        runs,
        labels.len(),
        "one phase per design run on the engine: {phases:?}"
    );
    let json = serde_json::to_string(&a).expect("serializes");
    let back: Advice = serde_json::from_str(&json).expect("reads back");
    assert_eq!(back, a);
}

fn cli(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_squillion"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_cli_prints_the_documented_json_and_exit_codes() {
    let (code, out, err) = cli(&[
        "advise",
        "--preset",
        "person-addresses",
        "--json",
        "--top",
        "2",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for key in [
        "model",
        "horizon_days",
        "weights",
        "search",
        "reference",
        "recommended",
        "top",
        "front",
        "explanations",
        "disagreements",
        "cost_model",
        "flips",
    ] {
        assert!(v.get(key).is_some(), "no {key}");
    }
    for key in [
        "method",
        "space_size",
        "explored",
        "feasible",
        "infeasible",
        "invalid",
    ] {
        assert!(v["search"].get(key).is_some(), "no search.{key}");
    }
    let r = &v["recommended"];
    for key in [
        "rank", "label", "design", "score", "screened", "engine", "cost",
    ] {
        assert!(r.get(key).is_some(), "no recommended.{key}");
    }
    for key in [
        "read_us",
        "write_us",
        "storage_bytes",
        "read_ops_per_sec",
        "write_ops_per_sec",
        "terms",
        "score",
    ] {
        assert!(r["cost"].get(key).is_some(), "no cost.{key}");
    }
    // Every term the cost model prices, once.
    let mut figures: Vec<&str> = r["cost"]["terms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["figure"].as_str().unwrap())
        .collect();
    figures.sort_unstable();
    assert_eq!(
        figures,
        [
            "bytes_returned",
            "bytes_written",
            "docs_examined",
            "docs_from_disk",
            "docs_written",
            "index_keys_written",
            "keys_examined",
            "round_trips"
        ]
    );
    for key in [
        "reads",
        "writes",
        "storage",
        "write_round_trips",
        "largest_document",
        "tolerance",
        "infeasible",
    ] {
        assert!(r["screened"].get(key).is_some(), "no screened.{key}");
    }
    for key in [
        "reads",
        "writes",
        "storage",
        "docs_examined",
        "keys_examined",
        "shard_requests",
        "infeasible",
    ] {
        assert!(r["engine"].get(key).is_some(), "no engine.{key}");
    }
    assert_eq!(v["top"].as_array().unwrap().len(), 2);
    assert_eq!(v["horizon_days"], 1826);
    let e = &v["explanations"][0];
    for key in ["dimension", "chosen", "rejected", "text"] {
        assert!(e.get(key).is_some(), "no explanations[0].{key}");
    }

    // The recommended design, written to a file, is what `squillion eval --design` runs.
    let dir = std::env::temp_dir().join(format!("squillion-advise-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("design.json");
    std::fs::write(&file, r["design"].to_string()).unwrap();
    let (_, eval_out, eval_err) = cli(&[
        "eval",
        "--preset",
        "person-addresses",
        "--design",
        file.to_str().unwrap(),
        "--json",
    ]);
    let ev: serde_json::Value =
        serde_json::from_str(&eval_out).unwrap_or_else(|e| panic!("{e}: {eval_err}"));
    let written = ev["totals"]["per_sec"]["docs_written"]["value"]
        .as_f64()
        .unwrap();
    assert_eq!(written, r["engine"]["writes"].as_f64().unwrap());
    let _ = std::fs::remove_dir_all(&dir);

    // Usage errors: 2.
    assert_eq!(
        cli(&["advise", "--preset", "blog", "--weights", "reads=x"]).0,
        2
    );
    assert_eq!(
        cli(&["advise", "--preset", "blog", "--horizon", "soon"]).0,
        2
    );
    assert_eq!(cli(&["advise", "--preset", "no-such-preset"]).0, 2);
    // A cost file: an unknown constant is a usage error; a known one changes the costs.
    let dir = std::env::temp_dir().join(format!("squillion-advise-cost-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.json");
    std::fs::write(&bad, r#"{"latency_us": 1}"#).unwrap();
    let (code, _, err) = cli(&[
        "advise",
        "--preset",
        "person-addresses",
        "--cost",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("latency_us"), "{err}");
    let good = dir.join("good.json");
    std::fs::write(&good, r#"{"round_trip_us": 3000}"#).unwrap();
    let (code, out, _) = cli(&[
        "advise",
        "--preset",
        "person-addresses",
        "--cost",
        good.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(code, 0);
    let slow: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(slow["cost_model"]["round_trip_us"], 3000.0);
    let trips = |v: &serde_json::Value| {
        v["recommended"]["cost"]["terms"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["figure"] == "round_trips")
            .map(|t| t["us_per_sec"].as_f64().unwrap())
            .unwrap()
    };
    assert!((trips(&slow) - 10.0 * trips(&v)).abs() < 1e-6 * trips(&slow));
    let _ = std::fs::remove_dir_all(&dir);
    let (code, text, _) = cli(&["advise", "--preset", "person-addresses"]);
    assert_eq!(code, 0);
    assert!(text.contains("recommended: "), "{text}");
    assert!(text.contains("Pareto front"), "{text}");
    assert!(text.contains("cost: "), "{text}");
}

#[test]
fn a_model_with_no_feasible_design_exits_1() {
    // Every design keeps a 20,000,000-byte binData in one document: nothing is feasible.
    let text = r#"{
        "entities": [ { "name": "blob", "count": 10, "fields": {
            "data": { "type": "binData", "length": { "shape": "fixed", "value": 20000000 } } } } ],
        "workload": [ { "name": "get", "rate_per_sec": 1, "steps": [ { "op": "read", "entity": "blob" } ] } ]
    }"#;
    let dir = std::env::temp_dir().join(format!("squillion-advise-none-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("model.json");
    std::fs::write(&file, text).unwrap();
    let (code, out, err) = cli(&["advise", file.to_str().unwrap(), "--json"]);
    assert_eq!(code, 1, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["recommended"].is_null());
    assert_eq!(v["search"]["feasible"], 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_space_past_100000_designs_is_searched_locally_and_says_how_much() {
    // A parent with seven child entities: about 10^7 designs.
    let kids: Vec<String> = (1..=7).map(|i| format!("c{i}")).collect();
    let entities: Vec<String> = kids
        .iter()
        .map(|k| format!(r#"{{ "name": "{k}", "count": 100000, "fields": {{ "v": {{ "type": "int" }}, "at": {{ "type": "date" }} }} }}"#))
        .collect();
    let rels: Vec<String> = kids
        .iter()
        .map(|k| format!(r#"{{ "name": "r{k}", "parent": "p", "child": "{k}", "cardinality": {{ "shape": "lognormal", "typical": 10, "p99": 400, "max": 5000 }} }}"#))
        .collect();
    let children: Vec<String> = kids
        .iter()
        .map(|k| format!(r#"{{ "relationship": "r{k}", "limit": 5, "sort": {{ "field": "at", "order": -1 }} }}"#))
        .collect();
    let text = format!(
        r#"{{ "name": "star", "sample": {{ "max_documents": 40 }},
        "entities": [ {{ "name": "p", "count": 10000, "fields": {{ "n": {{ "type": "string", "length": {{ "shape": "fixed", "value": 8 }} }} }} }}, {} ],
        "relationships": [ {} ],
        "workload": [ {{ "name": "page", "rate_per_sec": 100, "steps": [ {{ "op": "read", "entity": "p", "children": [ {} ] }} ] }},
                      {{ "name": "add", "rate_per_sec": 10, "steps": [ {{ "op": "insert_child", "relationship": "rc1" }} ] }} ] }}"#,
        entities.join(", "),
        rels.join(", "),
        children.join(", ")
    );
    let m = parse_model(&text).unwrap_or_else(|e| panic!("{e}"));
    let a = advise(&m, &AdviseOptions::default());
    assert_eq!(a.search.method, "local");
    assert!(a.search.space_size > squillion::advise::search::EXHAUSTIVE_LIMIT);
    assert!(a.search.explored > 0 && a.search.explored <= squillion::advise::search::LOCAL_BUDGET);
    let r = a.recommended.expect("a recommendation");
    assert!(r.screened.feasible());
    // Local search never does worse than the named designs it starts from.
    for base in ["normalized", "denormalized", "bucketed"] {
        let o = squillion::eval::offer::offer(&m, base).unwrap();
        let s = screen(&m, &o.layout().unwrap(), horizon(&m));
        if s.feasible() {
            let reference = a.reference.as_ref().unwrap().objectives();
            let theirs = squillion::advise::search::score(&s.objectives(), &reference, &a.weights);
            assert!(r.score <= theirs + 1e-12, "{base}: {} > {theirs}", r.score);
        }
    }
}

/// A design is planned under its own field patterns, not the model's: movie-prices' model keeps
/// its prices as an array, and a design that flattens them must query the flattened rows
/// (`{channel: …}`), as the preset's own flattened design does, or its channel listing finds
/// nothing (which the advisor once verified as the cheapest).
#[test]
fn a_design_is_planned_under_its_own_field_patterns() {
    use squillion::eval::{evaluate, evaluate_offered, Design, EvalOptions};
    let m = preset("movie-prices");
    let spec: squillion::design::DesignSpec = serde_json::from_str(
        r#"{"base": "normalized", "fields": [{"pattern": "attribute", "entity": "showing",
            "field": "provider", "form": "flattened", "key": "channel", "value": "price"}]}"#,
    )
    .unwrap();
    let opts = EvalOptions::default();
    let listing = |e: &squillion::eval::Evaluation| {
        let o = e
            .operations
            .iter()
            .find(|o| o.unit == "showings sold on a channel")
            .unwrap();
        (
            o.typical.commands[0].mongosh.clone(),
            o.typical.total.docs_returned.value,
        )
    };
    let file = evaluate(&m, &Design::Spec(spec.clone()), &opts).unwrap();
    let offered = evaluate_offered(&m, "flattened", &opts).unwrap();
    let (query, returned) = listing(&file);
    assert!(query.contains("{ channel: "), "{query}");
    assert!(returned > 1_000_000.0, "{returned}");
    assert_eq!(listing(&file), listing(&offered));
    // The advisor's screen lays it out the same way.
    let layout = Layout::build(&m, &spec).unwrap();
    let find = layout
        .plan
        .units
        .iter()
        .find(|u| u.unit == "showings sold on a channel")
        .unwrap();
    assert!(
        find.commands[0].filter.contains_key("channel"),
        "{:?}",
        find.commands[0].filter
    );
}

/// Per preset, the recommendation (its label) and what decides it against the runner-up of
/// the decision (the next sound verified design by the cost model): the side of the decision
/// score that differs the most (`reads`, `writes`, `storage`) and, for work, the cost term
/// that grows the most. docs/advisor.md, "The presets against their articles", explains each.
const DECISIONS: [(&str, &str, &str, Option<&str>); 17] = [
    ("blog", "posts: reference_in_child; comments: embed_subset 50; joins: application", "reads", Some("docs_from_disk")),
    ("category-tree", "subcategories: array_of_ancestors", "storage", None),
    ("fruit-totals", "fruits: embed; joins: application; basket.total: no pattern", "storage", None),
    ("game-inventory", "player.items: attribute key_value; player.username: case_insensitive_index", "reads", Some("docs_examined")),
    ("host-logs", "logs: embed_subset 1,000; joins: application", "writes", Some("docs_from_disk")),
    ("image-board", "images: single_collection", "storage", None),
    ("message-attachments", "messages: reference_in_child; message.attachment: object_storage", "storage", None),
    ("movie-prices", "showing.provider: attribute key_value", "reads", Some("docs_from_disk")),
    ("page-analytics", "pageview.minutes: no pattern; pageview.hours: no pattern; pageview.page: no pattern", "writes", Some("docs_from_disk")),
    ("person-addresses", "addresses: embed; joins: application", "storage", None),
    ("person-tasks", "tasks: embed_subset 50; joins: application", "reads", Some("round_trips")),
    ("product-catalog", "reviews: embed; joins: application", "reads", Some("round_trips")),
    ("product-parts", "parts: reference_in_child; joins: lookup", "reads", Some("docs_examined")),
    ("sensor-readings", "readings: embed_subset 60; joins: application; sensor.readingCount: approximate; reading.at: no pattern; sensor.schema_version: no pattern; sensor.revision: no pattern", "writes", Some("bytes_written")),
    ("shopping-cart", "orders: reference_in_parent; items: embed; joins: application", "storage", None),
    ("social-feed", "feed: bucketed_fan_out 50", "reads", Some("docs_from_disk")),
    ("social-graph", "followers: reference_in_child; activities: reference_in_child; joins: application", "reads", Some("docs_from_disk")),
];

#[test]
fn every_preset_recommends_its_design_for_its_deciding_term_and_says_where_each_choice_flips() {
    assert_eq!(DECISIONS.len(), squillion::presets::all().len());
    for (name, label, decided_by, term) in DECISIONS {
        let m = preset(name);
        let a = advise(&m, &AdviseOptions::default());
        let r = a.recommended.as_ref().unwrap_or_else(|| panic!("{name}"));
        assert_eq!(r.label, label, "{name}");
        assert!(r.cost.is_some(), "{name}: not priced");
        // The runner-up of the decision costs more, for the documented reason.
        let ru = a
            .runner_up
            .as_ref()
            .unwrap_or_else(|| panic!("{name}: no runner-up"));
        assert!(ru.sound(), "{name}: {ru:?}");
        assert_ne!(ru.design, r.label, "{name}");
        assert_eq!(
            (ru.decided_by.as_deref(), ru.term.as_deref()),
            (Some(decided_by), term),
            "{name}: {ru:?}"
        );
        assert!(
            ru.flip.as_ref().is_some_and(|f| f.score_delta > 0.0),
            "{name}: {ru:?}"
        );
        // Each relationship with a feasible runner-up says where its choice flips, from both
        // engine runs (a join or a field pattern when its runner-up was verified anyway): the
        // runner-up is the recommendation with that choice alone changed.
        for e in &a.explanations {
            let relationship = m.relationships.iter().any(|x| x.name == e.dimension);
            let (Some(runner), Some(f)) = (&e.runner_up, &e.flip) else {
                assert!(
                    e.flip.is_none() && !(relationship && e.runner_up.is_some()),
                    "{name} {}: {:?}",
                    e.dimension,
                    e.flip
                );
                continue;
            };
            let changed: Vec<(&str, &str)> = r
                .label
                .split("; ")
                .zip(f.design.split("; "))
                .filter(|(x, y)| x != y)
                .collect();
            assert_eq!(
                changed.len(),
                1,
                "{name} {}: {} / {}",
                e.dimension,
                r.label,
                f.design
            );
            assert!(
                changed[0].1.contains(runner.choice.as_str()),
                "{name}: {changed:?} {}",
                runner.choice
            );
            // A sound runner-up is priced; the recommendation never costs more than it (a
            // cheaper one would have become the recommendation).
            if f.sound() {
                let delta = f.flip.as_ref().map_or(0.0, |x| x.score_delta);
                assert!(delta >= 0.0, "{name} {}: {f:?}", e.dimension);
                assert!(
                    f.work_delta_us.is_some() && f.storage_delta_bytes.is_some(),
                    "{f:?}"
                );
            } else {
                assert!(f.flip.is_none() && f.work_delta_us.is_none(), "{f:?}");
            }
            assert!(
                e.text.contains("On the engine") || e.text.contains("The engine could not"),
                "{name}: {}",
                e.text
            );
        }
    }
}
