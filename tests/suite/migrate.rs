//! Migrations between designs, planned and run on the engine (`squillion::migrate`): every
//! planned migration of every preset reaches the target design's logical state of the source's
//! data, and so does every migration between random strategies of random models; a target
//! over 16 MiB is refused with its documents named; the scripts are valid JavaScript.

use proptest::prelude::*;
use squillion::design::{Layout, Strategy};
use squillion::eval::offer::compared;
use squillion::lang::Lang;
use squillion::migrate::script::{script, step_script};
use squillion::migrate::{check::check, plan, MigrateError, MigrateOptions, Migration, Side};
use squillion::model::{parse_model, Model};

/// Plans `a` → `b` of `model`'s offers with batches of 7 parents (so that every backfill runs
/// in several batches on the sample).
fn plan_offers(
    a: &squillion::eval::offer::Offer,
    b: &squillion::eval::offer::Offer,
) -> (Layout, Layout, Result<Migration, MigrateError>) {
    let (la, lb) = (a.layout().unwrap(), b.layout().unwrap());
    let opts = MigrateOptions {
        batch: 7,
        ..MigrateOptions::default()
    };
    let m = plan(
        Side {
            model: &a.model,
            layout: &la,
            name: &a.id,
        },
        Side {
            model: &b.model,
            layout: &lb,
            name: &b.id,
        },
        opts,
    );
    (la, lb, m)
}

fn listing(m: &Migration) -> String {
    m.steps
        .iter()
        .map(|s| format!("{}. {}\n   {}", s.number, s.title, s.command))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every ordered pair of every preset's designs: planned and checked on the engine with no
/// difference, or refused with a reason. The pairs the planner covers are named.
#[test]
fn planned_pairs_of_the_presets_reach_the_target_state() {
    let mut planned = Vec::new();
    for p in squillion::presets::all() {
        let model = p.model().unwrap();
        let offers = compared(&model);
        for a in &offers {
            for b in offers.iter().filter(|b| b.id != a.id) {
                let (la, lb, m) = plan_offers(a, b);
                let name = format!("{} {}→{}", p.name, a.id, b.id);
                match m {
                    Ok(m) => {
                        let from = Side {
                            model: &a.model,
                            layout: &la,
                            name: &a.id,
                        };
                        let to = Side {
                            model: &b.model,
                            layout: &lb,
                            name: &b.id,
                        };
                        let r = check(from, to, &m, 12).unwrap();
                        assert!(
                            r.problems.is_empty(),
                            "{name}: {:#?}\n{}",
                            r.problems,
                            listing(&m)
                        );
                        assert!(r.parents > 0, "{name}: no parent compared");
                        planned.push(name);
                    }
                    Err(MigrateError::Unsupported { why, .. }) => {
                        assert!(!why.render(Lang::En).is_empty())
                    }
                    Err(MigrateError::OverLimit { documents, fix, .. }) => {
                        let (documents, fix) = (documents.render(Lang::En), fix.render(Lang::En));
                        assert!(documents.contains("breaks at") && !fix.is_empty(), "{name}")
                    }
                }
            }
        }
    }
    for pair in [
        "person-addresses normalized→denormalized",
        "person-addresses denormalized→normalized",
        "person-tasks normalized→person-ids",
        "person-tasks normalized→two-way",
        "person-tasks person-ids→normalized",
        "person-tasks person-ids→two-way",
        "person-tasks two-way→normalized",
        "person-tasks two-way→person-ids",
        "blog normalized→denormalized",
        "blog denormalized→normalized",
        "shopping-cart normalized→denormalized",
        "host-logs embed-all→newest-1000",
        "host-logs newest-1000→denormalized",
        "host-logs denormalized→newest-1000",
        "product-parts part-ids→part-ids-lookup",
        "host-logs normalized→bucket-200",
        "host-logs embed-all→bucket-200",
        "host-logs bucket-200→newest-1000",
        "host-logs bucket-200→denormalized",
    ] {
        assert!(planned.iter().any(|p| p == pair), "{pair} is not planned");
    }
    assert_eq!(planned.len(), 34, "{planned:#?}");
}

/// host-logs' embed-all holds every log in its host, past 16 MiB: a migration to it is refused,
/// naming the documents, the array's break point and the design's fixes.
#[test]
fn a_target_over_16_mib_is_refused_with_the_documents_named() {
    let model = squillion::presets::find("host-logs")
        .unwrap()
        .model()
        .unwrap();
    let offers = compared(&model);
    let get = |id: &str| offers.iter().find(|o| o.id == id).unwrap();
    let (_, _, m) = plan_offers(get("normalized"), get("embed-all"));
    match m {
        Err(e @ MigrateError::OverLimit { .. }) => {
            let MigrateError::OverLimit {
                collection,
                documents,
                fix,
            } = &e
            else {
                unreachable!()
            };
            let (documents, fix) = (documents.render(Lang::En), fix.render(Lang::En));
            assert_eq!(collection, "host");
            // The same refusal in Chinese names the same documents and numbers.
            let zh = e.render(Lang::ZhCn);
            assert!(
                zh.contains("突破 16 MiB") && zh.contains("10,000") && zh.contains("139,573"),
                "{zh}"
            );
            assert!(
                documents.contains("of its 10,000 host documents"),
                "{documents}"
            );
            assert!(documents.contains("`logmsgs` breaks at"), "{documents}");
            assert!(
                fix.contains("embed_subset") && fix.contains("bucket"),
                "{fix}"
            );
        }
        other => panic!("not refused: {other:?}"),
    }
}

/// The whole script and every step's script of some plans pass `node --check`.
#[test]
fn the_scripts_are_valid_javascript() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for (preset, from, to) in [
        ("host-logs", "embed-all", "denormalized"),
        ("person-tasks", "person-ids", "two-way"),
        ("blog", "denormalized", "normalized"),
    ] {
        let model = squillion::presets::find(preset).unwrap().model().unwrap();
        let offers = compared(&model);
        let get = |id: &str| offers.iter().find(|o| o.id == id).unwrap();
        let (_, _, m) = plan_offers(get(from), get(to));
        let m = m.unwrap();
        let f = dir.path().join(format!("{preset}-{from}-{to}.js"));
        std::fs::write(&f, script(&m)).unwrap();
        files.push(f);
        for s in &m.steps {
            let f = dir
                .path()
                .join(format!("{preset}-{from}-{to}-{}.js", s.number));
            std::fs::write(&f, step_script(&m, s)).unwrap();
            files.push(f);
        }
    }
    for f in files {
        let out = std::process::Command::new("node")
            .arg("--check")
            .arg(&f)
            .output()
            .expect("node is installed by scripts/setup.sh's requirements");
        assert!(
            out.status.success(),
            "{}: {}\n{}",
            f.display(),
            String::from_utf8_lossy(&out.stderr),
            std::fs::read_to_string(&f).unwrap()
        );
    }
}

/// The strategies the planner moves between (buckets of 2), with a child's or a parent's
/// copies where the strategy takes them.
fn strategy(i: usize, copy: bool) -> Strategy {
    match i {
        0 => Strategy::Embed,
        1 => Strategy::EmbedSubset { k: 3 },
        2 => Strategy::ExtendedReference {
            copy: if copy { vec!["a".into()] } else { vec![] },
        },
        3 => Strategy::ReferenceInParent,
        4 => Strategy::ReferenceInChild {
            copy: if copy { vec!["label".into()] } else { vec![] },
        },
        5 => Strategy::TwoWay,
        6 => Strategy::LinkCollection,
        _ => Strategy::Bucket { size: 2 },
    }
}

/// A model of a parent and a child with `fields` of the child's four (each optional or not),
/// children per parent between `min` and `max`, and a read of the newest when `sorted`.
fn model(fields: usize, optional: bool, min: u64, max: u64, sorted: bool) -> Model {
    let all = [
        r#""a": {"type": "int", "min": 0, "max": 1000}"#,
        r#""b": {"type": "string", "kind": "word", "length": {"shape": "uniform", "min": 2, "max": 12}}"#,
        r#""at": {"type": "date"}"#,
        r#""c": {"type": "double", "min": 0, "max": 5}"#,
    ];
    let mut child: Vec<String> = all
        .iter()
        .take(fields.max(1))
        .map(|s| s.to_string())
        .collect();
    if optional {
        child[0] = child[0].replacen('}', r#", "presence": 0.5}"#, 1);
    }
    let sort = if sorted {
        r#", "sort": {"field": "at", "order": -1}, "limit": 3"#
    } else {
        ""
    };
    let sorted_child = if sorted && fields < 3 {
        r#", "at": {"type": "date"}"#
    } else {
        ""
    };
    // As many children as the parents hold (a model whose counts disagree with its
    // cardinality generates children no parent lists).
    let kids = (1000 * (min + max) / 2).max(1);
    let text = format!(
        r#"{{"name": "random", "entities": [
            {{"name": "parent", "count": 1000, "fields": {{"label": {{"type": "string", "kind": "word", "length": {{"shape": "fixed", "value": 6}}}}}}}},
            {{"name": "kid", "count": {kids}, "fields": {{{}{sorted_child}}}}}],
          "relationships": [{{"name": "kids", "parent": "parent", "child": "kid",
            "cardinality": {{"shape": "uniform", "min": {min}, "max": {max}}}}}],
          "workload": [{{"name": "read", "rate_per_sec": 10, "steps": [{{"op": "read", "entity": "parent", "children": [{{"relationship": "kids"{sort}}}]}}]}}]}}"#,
        child.join(", ")
    );
    parse_model(&text).unwrap_or_else(|e| panic!("{text}: {:?}", e.errors))
}

/// Lays `m` out with relationship `kids` under `s`.
fn layout(m: &Model, s: &Strategy) -> (Model, Layout) {
    let mut m = m.clone();
    m.design.relationships.insert("kids".into(), s.clone());
    let l = Layout::build(&m, &m.design).unwrap();
    (m, l)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    /// Any change between two planned strategies of a random model (its child's fields and
    /// their presence, its cardinality with or without childless parents, a sorted read or
    /// none, copies or none) reaches the target's logical state on the engine.
    #[test]
    fn random_changes_reach_the_target_state(
        from in 0usize..8,
        to in 0usize..8,
        copy_from in any::<bool>(),
        copy_to in any::<bool>(),
        fields in 1usize..5,
        optional in any::<bool>(),
        min in 0u64..3,
        extra in 1u64..12,
        sorted in any::<bool>(),
        batch in 1u64..6,
    ) {
        // The generator's two_way samples with childless parents hold children that no
        // parent lists (their reference names a parent whose array lacks them): the source's
        // own reads never return them, so no target can hold the same state.
        prop_assume!(!(from == 5 && min == 0));
        // A bucket's size does not change (refused, with its reason).
        prop_assume!(!(from == 7 && to == 7));
        let m = model(fields, optional, min, min + extra, sorted);
        let (fm, fl) = layout(&m, &strategy(from, copy_from));
        let (tm, tl) = layout(&m, &strategy(to, copy_to));
        let a = Side { model: &fm, layout: &fl, name: "from" };
        let b = Side { model: &tm, layout: &tl, name: "to" };
        let opts = MigrateOptions { batch, ..MigrateOptions::default() };
        let plan = plan(a, b, opts).unwrap();
        let r = check(a, b, &plan, 20).unwrap();
        prop_assert!(r.problems.is_empty(), "{:?} → {:?}: {:#?}\n{}", fl.strategies, tl.strategies, r.problems, listing(&plan));
    }
}

/// `squillion migrate`: the plan as JSON with its check and its exit codes (0 planned and
/// checked, 1 refused with the reason in JSON, 2 an unknown design), and `--out`'s files.
#[test]
fn the_cli_prints_the_plan_its_cost_and_its_check() {
    use crate::common::infer_json::{squillion, squillion_json};
    let v = squillion_json(&[
        "migrate",
        "--preset",
        "person-tasks",
        "--from",
        "normalized",
        "--to",
        "person-ids",
        "--json",
        "--write-rate",
        "1000",
    ]);
    assert_eq!(v["from"], "normalized");
    assert_eq!(v["to"], "person-ids");
    assert_eq!(v["changes"][0]["relationship"], "tasks");
    assert_eq!(v["changes"][0]["to"], "reference_in_parent");
    assert_eq!(v["check"]["passed"], true);
    let steps = v["steps"].as_array().unwrap();
    let phases: Vec<&str> = steps.iter().map(|s| s["phase"].as_str().unwrap()).collect();
    assert!(
        phases.windows(2).all(|w| {
            let rank = |p: &str| {
                ["create", "backfill", "switch", "clean_up"]
                    .iter()
                    .position(|x| *x == p)
            };
            rank(w[0]) <= rank(w[1])
        }),
        "{phases:?}"
    );
    // One person per task's parent: 1,000,000 persons' arrays written, at 1,000 writes/s.
    let rebuild = steps
        .iter()
        .find(|s| s["command"].as_str().unwrap().contains("$group"))
        .unwrap();
    assert_eq!(rebuild["cost"]["docs_written"], 1_000_000.0);
    assert_eq!(rebuild["cost"]["seconds"], 1_000.0);
    assert!(v["total"]["bytes_written"].as_f64().unwrap() > 0.0);

    let refused = squillion(&[
        "migrate",
        "--preset",
        "host-logs",
        "--from",
        "normalized",
        "--to",
        "embed-all",
        "--json",
    ]);
    assert_eq!(refused.status.code(), Some(1));
    let r: serde_json::Value = serde_json::from_slice(&refused.stdout).unwrap();
    assert_eq!(r["refused"]["kind"], "over_limit");
    assert_eq!(r["refused"]["collection"], "host");

    let unknown = squillion(&[
        "migrate",
        "--preset",
        "blog",
        "--from",
        "normalized",
        "--to",
        "nowhere",
    ]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("nowhere"));

    let dir = tempfile::tempdir().unwrap();
    let out = squillion(&[
        "migrate",
        "--preset",
        "blog",
        "--from",
        "denormalized",
        "--to",
        "normalized",
        "--out",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Checked on the engine"), "{text}");
    let plan: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("plan.json")).unwrap())
            .unwrap();
    let n = plan["steps"].as_array().unwrap().len();
    assert_eq!(
        std::fs::read_dir(dir.path().join("steps")).unwrap().count(),
        n
    );
    assert!(std::fs::read_to_string(dir.path().join("migrate.js"))
        .unwrap()
        .contains("FROM_STEP"));
}
