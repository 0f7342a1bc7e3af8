//! Every plan gives its step's logical answer (`eval::answer`): for every preset, every design
//! it offers and every strategy the picker offers for each of its relationships, each `read`
//! returns the children its step asks for (their fields, the first N in its order) and each
//! `insert_child` leaves the child stored and linked to its parent, on the engine.
#![cfg(not(target_arch = "wasm32"))]

use crate::common::fixed_seed;
use proptest::prelude::*;
use squillion::eval::answer::{check_offered, AnswerReport};
use squillion::eval::offer::offers;
use squillion::eval::{EvalError, EvalOptions};
use squillion::model::design::strategies_for;
use squillion::model::{parse_model, Model};
use squillion::presets;

use crate::common::design_override;
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
    // A step the small sample cannot check (a typical reader whose feed is empty among 60
    // users) is checked on the evaluation's own sample.
    let checked = check_offered(m, id, &opts)
        .and_then(|r| {
            if r.unchecked.is_empty() {
                Ok(r)
            } else {
                check_offered(m, id, &EvalOptions::default())
            }
        })
        .or_else(|_| check_offered(m, id, &EvalOptions::default()));
    match checked {
        Ok(r) => {
            failures.extend(r.problems.iter().map(|p| format!("{what}: {p}")));
            Some(r)
        }
        // A design that cannot be laid out or sampled is refused elsewhere (validation, the
        // memory budget); it answers nothing. An engine that refuses the design's own
        // collections or indexes is a bug.
        Err(e @ (EvalError::Design(_) | EvalError::TooBig(_))) => {
            eprintln!("{what}: not evaluated: {e}");
            None
        }
        Err(e) => {
            failures.push(format!("{what}: not evaluated: {e}"));
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
                failures.extend(
                    r.unchecked
                        .iter()
                        .map(|u| format!("{what}: not checked: {u}")),
                );
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

/// One read of the parent with its children, as a random model's workload asks it.
#[derive(Debug, Clone)]
struct RandomRead {
    /// At most this many children.
    limit: Option<u64>,
    /// The sort field (`at`, `v` or `text`) and order.
    sort: Option<(&'static str, i32)>,
    /// Only these child fields (empty: all).
    fields: Vec<&'static str>,
}

impl RandomRead {
    fn json(&self) -> String {
        let mut parts = vec![r#""relationship": "r""#.to_string()];
        if let Some(l) = self.limit {
            parts.push(format!(r#""limit": {l}"#));
        }
        if let Some((f, o)) = self.sort {
            parts.push(format!(r#""sort": {{ "field": "{f}", "order": {o} }}"#));
        }
        if !self.fields.is_empty() {
            let fields: Vec<String> = self.fields.iter().map(|f| format!("\"{f}\"")).collect();
            parts.push(format!(r#""fields": [{}]"#, fields.join(", ")));
        }
        format!("{{ {} }}", parts.join(", "))
    }
}

/// A random model: parent `p`, child `c`, one relationship `r` (one-to-many or many-to-many)
/// whose cardinality is `cardinality` (a distribution as JSON) with optional growth, one or
/// two reads of the parent with its children, an insert of a child, with `find_parents` a
/// search of the parents by a child's `v`, with `update` a change of one field of a child
/// (`c.v`, `c.text`) or of the parent (`p.n`), its copies live or snapshot, and with
/// `reassign` (one-to-many) a move of a child to another parent, with `increment` an `$inc`
/// of the child's `v` (its copies live or snapshot), and with `delete` the deletion of a child
/// or of a parent.
#[allow(clippy::too_many_arguments)]
fn random_model(
    parents: u64,
    cardinality: &str,
    typical: u64,
    growth: u64,
    m2m: bool,
    reads: &[RandomRead],
    find_parents: bool,
    update: Option<(&str, &str, bool)>,
    reassign: bool,
    increment: Option<bool>,
    delete: Option<&str>,
) -> String {
    let increment = increment.map_or(String::new(), |live| {
        format!(
            r#",
          {{ "name": "count", "rate_per_sec": 4, "steps": [ {{ "op": "update", "entity": "c", "field": "v", "increment": true, "copies": "{}" }} ] }}"#,
            if live { "live" } else { "snapshot" }
        )
    });
    let delete = delete.map_or(String::new(), |entity| {
        format!(
            r#",
          {{ "name": "remove", "rate_per_sec": 1, "steps": [ {{ "op": "delete", "entity": "{entity}" }} ] }}"#
        )
    });
    // A child moves to another parent: one-to-many only.
    let reassign = if reassign && !m2m {
        r#",
          { "name": "move", "rate_per_sec": 2, "steps": [ { "op": "reassign", "relationship": "r" } ] }"#
    } else {
        ""
    };
    let update = update.map_or(String::new(), |(entity, field, live)| {
        format!(
            r#",
          {{ "name": "edit", "rate_per_sec": 3, "steps": [ {{ "op": "update", "entity": "{entity}", "field": "{field}", "copies": "{}" }} ] }}"#,
            if live { "live" } else { "snapshot" }
        )
    });
    let growth = if growth == 0 {
        String::new()
    } else {
        format!(r#", "growth_per_day": {{ "typical": {growth} }}"#)
    };
    let reads: Vec<String> = reads
        .iter()
        .enumerate()
        .map(|(i, r)| {
            format!(
                r#"{{ "name": "page {i}", "rate_per_sec": 100, "steps": [ {{ "op": "read", "entity": "p", "children": [ {} ] }} ] }}"#,
                r.json()
            )
        })
        .collect();
    format!(
        r#"{{
        "name": "random",
        "sample": {{ "max_documents": {sample} }},
        "entities": [
          {{ "name": "p", "count": {parents}, "fields": {{ "n": {{ "type": "string", "length": {{ "shape": "uniform", "min": 3, "max": 30 }} }} }} }},
          {{ "name": "c", "count": {children}, "fields": {{ "v": {{ "type": "int" }}, "at": {{ "type": "date" }}, "text": {{ "type": "string", "length": {{ "shape": "uniform", "min": 10, "max": 300 }} }} }} }}
        ],
        "relationships": [
          {{ "name": "r", "parent": "p", "child": "c", "many_to_many": {m2m}, "cardinality": {cardinality}{growth} }}
        ],
        "workload": [
          {},
          {{ "name": "add", "rate_per_sec": 10, "steps": [ {{ "op": "insert_child", "relationship": "r" }} ] }}{}{update}{reassign}{increment}{delete}
        ]
    }}"#,
        reads.join(",\n          "),
        if find_parents {
            r#",
          { "name": "who has it", "rate_per_sec": 5, "steps": [ { "op": "find_parents", "relationship": "r", "by": "v" } ] }"#
        } else {
            ""
        },
        children = parents * typical.max(1),
        sample = (parents * typical.max(1)).max(parents)
    )
}

/// A cardinality distribution as JSON, with its typical value.
fn cardinality() -> impl Strategy<Value = (String, u64)> {
    prop_oneof![
        (0u64..40).prop_map(|v| (format!(r#"{{ "shape": "fixed", "value": {v} }}"#), v)),
        (0u64..20, 0u64..200).prop_map(|(min, w)| (
            format!(
                r#"{{ "shape": "uniform", "min": {min}, "max": {} }}"#,
                min + w
            ),
            min + w / 2
        )),
        (1u64..40, 0u64..400, 0u64..1_500).prop_map(|(t, p, m)| (
            format!(
                r#"{{ "shape": "lognormal", "typical": {t}, "p99": {}, "max": {} }}"#,
                t + p,
                t + p + m
            ),
            t
        )),
        (1u64..40, 0u64..400, 0u64..1_500).prop_map(|(t, p, m)| (
            format!(
                r#"{{ "shape": "zipf", "min": 0, "typical": {t}, "p99": {}, "max": {} }}"#,
                t + p,
                t + p + m
            ),
            t
        )),
    ]
}

fn random_read() -> impl Strategy<Value = RandomRead> {
    let sort = proptest::option::of((
        prop_oneof![Just("at"), Just("v"), Just("text")],
        prop_oneof![Just(1), Just(-1)],
    ));
    let fields = prop_oneof![
        3 => Just(Vec::new()),
        1 => Just(vec!["at"]),
        1 => Just(vec!["v", "text"]),
    ];
    (proptest::option::of(1u64..60), sort, fields).prop_map(|(limit, sort, fields)| RandomRead {
        limit,
        sort,
        fields,
    })
}

/// The property test's cases and seed (`common/fixed_seed.rs`): 500 cases from seed 31.
fn answer_config() -> ProptestConfig {
    ProptestConfig {
        failure_persistence: None,
        ..fixed_seed::fixed_seed(500, 31)
    }
}

proptest! {
    #![proptest_config(answer_config())]

    /// Random models × every strategy the picker offers (with random parameters) × reads with
    /// and without sort, limit and fields × cardinality shapes: every plan gives the logical
    /// answer, or validation refuses the design before it is evaluated.
    #[test]
    fn random_models_give_the_logical_answer_under_every_offered_strategy(
        parents in 2u64..50,
        (card, typical) in cardinality(),
        growth in prop_oneof![Just(0u64), 1u64..5_000],
        m2m in any::<bool>(),
        reads in proptest::collection::vec(random_read(), 1..=2),
        pick in any::<prop::sample::Index>(),
        param in 1u64..120,
        find_parents in any::<bool>(),
        update in proptest::option::of((
            prop_oneof![Just(("c", "v")), Just(("c", "text")), Just(("p", "n"))],
            any::<bool>(),
        )),
        reassign in any::<bool>(),
        increment in proptest::option::of(any::<bool>()),
        delete in proptest::option::of(prop_oneof![Just("c"), Just("p")]),
    ) {
        let update = update.map(|((e, f), live)| (e, f, live));
        let Ok(first) = parse_model(&random_model(parents, &card, 1, growth, m2m, &reads, find_parents, update, reassign, increment, delete)) else {
            // A combination validation refuses (a uniform minimum above its p99, …) is no case.
            return Ok(());
        };
        // As many children as the parents' cardinality holds (and the largest parent's), so
        // that the model's counts agree with each other.
        let c = &first.relationships[0].cardinality;
        let per_parent = (c.mean().ceil() as u64).max(c.max() as u64 / parents).max(1);
        let _ = typical;
        let text = random_model(parents, &card, per_parent, growth, m2m, &reads, find_parents, update, reassign, increment, delete);
        let Ok(m) = parse_model(&text) else {
            return Ok(());
        };
        let offered = strategies_for(&m, "r");
        prop_assume!(!offered.is_empty());
        let s = offered[pick.index(offered.len())].clone();
        let mut v = serde_json::to_value(&s).unwrap();
        for key in ["k", "threshold", "size"] {
            if let Some(x) = v.get_mut(key) {
                *x = serde_json::json!(param);
            }
        }
        let om = match parse_model(&with_override(&text, "r", v.clone())) {
            Ok(om) => om,
            // Refused with a problem at its path: the picker would not offer it either.
            Err(_) => return Ok(()),
        };
        // Every document in the sample (the model's `sample` holds them all), so that the
        // logical state is whole: a parent's every child, a chain's every continuation.
        let report = check_offered(&om, "custom", &EvalOptions::default());
        let failures: Vec<String> = match &report {
            Ok(r) => r.problems.iter().map(|p| format!("{v}: {p}")).collect(),
            Err(e) => vec![format!("{v}: not evaluated: {e}")],
        };
        prop_assert!(failures.is_empty(), "{}\n{}", failures.join("\n"), text);
    }
}

/// A delete of a child and an increment of its `v`, under every strategy the picker offers for
/// a one-to-many and a many-to-many: the deleted child is stored and listed nowhere (its
/// document, a subset's or an extended reference's copy, a parent's or a bucket's list, a
/// link), the counter grew by one everywhere its copies are live; and both steps were checked.
#[test]
fn deletes_and_increments_under_every_strategy() {
    let read = [RandomRead {
        limit: None,
        sort: None,
        fields: vec![],
    }];
    let mut failures = Vec::new();
    let mut strategies = 0;
    for m2m in [false, true] {
        let card = r#"{ "shape": "uniform", "min": 1, "max": 8 }"#;
        let model = |increment, delete| {
            random_model(
                6, card, 8, 0, m2m, &read, false, None, false, increment, delete,
            )
        };
        let base = model(None, None);
        let with = model(Some(true), Some("c"));
        for s in strategies_for(&parse_model(&base).unwrap(), "r") {
            let v = serde_json::to_value(&s).unwrap();
            let (Ok(plain), Ok(om)) = (
                parse_model(&with_override(&base, "r", v.clone())),
                parse_model(&with_override(&with, "r", v.clone())),
            ) else {
                continue;
            };
            let (Ok(a), Ok(b)) = (
                check_offered(&plain, "custom", &EvalOptions::default()),
                check_offered(&om, "custom", &EvalOptions::default()),
            ) else {
                failures.push(format!("{v}: not evaluated"));
                continue;
            };
            failures.extend(b.problems.iter().map(|p| format!("{v} (m2m {m2m}): {p}")));
            let extra = b.checked - a.checked;
            // Both steps for the typical and the largest subject; an embedded or bucketed
            // child without an `_id` is deleted as a whole element, and its increment is
            // found by its old value.
            if extra < 4 {
                failures.push(format!(
                    "{v} (m2m {m2m}): only {extra} more steps checked; not checked: {:?}",
                    b.unchecked
                ));
            }
            strategies += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(strategies >= 12, "only {strategies} strategies");
}

/// Returns `text` (a preset) with its workload cut to the units `keep` accepts.
fn with_units(text: &str, keep: &dyn Fn(&serde_json::Value) -> bool) -> String {
    let mut v: serde_json::Value = serde_json::from_str(text).unwrap();
    if let Some(w) = v["workload"].as_array_mut() {
        w.retain(|u| keep(u));
    }
    v.to_string()
}

/// Returns `text` with every attribute pattern laid out in `form`.
fn with_form(text: &str, form: &str) -> String {
    let mut v: serde_json::Value = serde_json::from_str(text).unwrap();
    if let Some(fs) = v["design"]["fields"].as_array_mut() {
        for f in fs.iter_mut().filter(|f| f["pattern"] == "attribute") {
            f["form"] = form.into();
        }
    }
    v.to_string()
}

/// The feed steps under every feed strategy (each reader's newest page; a post reaching every
/// follower the run writes to, in their newest bucket) and `find_by_attribute` under every
/// attribute form (exactly the documents holding a matching attribute): no problem, and every
/// one of those steps really checked, for the typical and the largest subject.
#[test]
fn feeds_and_attributes_under_every_form() {
    let mut failures = Vec::new();
    let is_op = |u: &serde_json::Value, op: &str| {
        u["steps"].as_array().unwrap().iter().any(|s| s["op"] == op)
    };
    let opts = EvalOptions::default();
    let feed = presets::find("social-feed").unwrap();
    let base = parse_model(feed.text).unwrap();
    let mut strategies = 0;
    for s in strategies_for(&base, "feed") {
        let v = serde_json::to_value(&s).unwrap();
        let Ok(m) = parse_model(&with_override(feed.text, "feed", v.clone())) else {
            continue;
        };
        let r = check_offered(&m, "custom", &opts).unwrap();
        failures.extend(r.problems.iter().map(|p| format!("feed {v}: {p}")));
        // Two reads and one post, each for two subjects.
        if r.checked < 6 || !r.unchecked.is_empty() {
            failures.push(format!(
                "feed {v}: {} checked; not checked: {:?}",
                r.checked, r.unchecked
            ));
        }
        strategies += 1;
    }
    assert!(strategies >= 3, "only {strategies} feed strategies");
    // A key and a bound together: the same element must hold both (`$elemMatch`).
    let sharp_swords = serde_json::json!({
        "name": "swords with damage > 30", "rate_per_sec": 1,
        "steps": [{ "op": "find_by_attribute", "entity": "player", "field": "items",
                    "key": "sword", "above": 30 }]
    });
    for (name, units) in [("game-inventory", 3), ("movie-prices", 1)] {
        let p = presets::find(name).unwrap();
        let mut text: serde_json::Value = serde_json::from_str(p.text).unwrap();
        if name == "game-inventory" {
            text["workload"]
                .as_array_mut()
                .unwrap()
                .push(sharp_swords.clone());
        }
        let text = text.to_string();
        for form in ["keyed", "key_value", "flattened"] {
            let all = with_form(&text, form);
            let without = with_units(&all, &|u| !is_op(u, "find_by_attribute"));
            let (Ok(m), Ok(rest)) = (parse_model(&all), parse_model(&without)) else {
                failures.push(format!("{name} {form}: not a valid model"));
                continue;
            };
            let (Ok(a), Ok(b)) = (
                check_offered(&rest, "custom", &opts),
                check_offered(&m, "custom", &opts),
            ) else {
                failures.push(format!("{name} {form}: not evaluated"));
                continue;
            };
            failures.extend(b.problems.iter().map(|p| format!("{name} {form}: {p}")));
            if b.checked < a.checked + 2 * units {
                failures.push(format!(
                    "{name} {form}: {} find_by_attribute steps checked of {}",
                    b.checked - a.checked,
                    2 * units
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// An `insert` of every entity that is nobody's child (nor a feed's item, which `post_feed`
/// posts), in every preset's own design (a
/// GridFS file's metadata, a time-series measurement, a single collection's type): a new
/// document of the entity is stored, checked for both subjects.
#[test]
fn inserts_store_the_entity_in_every_preset() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for p in presets::all() {
        let m = p.model().unwrap();
        let roots: Vec<&str> = m
            .entities
            .iter()
            .map(|e| e.name.as_str())
            .filter(|e| {
                !m.relationships
                    .iter()
                    .any(|r| r.child == *e || r.feed.as_deref() == Some(e))
            })
            .collect();
        let mut v: serde_json::Value = serde_json::from_str(p.text).unwrap();
        v["workload"] = roots
            .iter()
            .map(|e| {
                serde_json::json!({ "name": format!("insert {e}"), "rate_per_sec": 1,
                                          "steps": [{ "op": "insert", "entity": e }] })
            })
            .collect();
        let Ok(om) = parse_model(&v.to_string()) else {
            failures.push(format!("{}: inserts refused", p.name));
            continue;
        };
        match check_offered(&om, "custom", &EvalOptions::default()) {
            Ok(r) => {
                failures.extend(r.problems.iter().map(|x| format!("{}: {x}", p.name)));
                if r.checked < 2 * roots.len() {
                    failures.push(format!(
                        "{}: {} of {} inserts checked; not checked: {:?}",
                        p.name,
                        r.checked,
                        2 * roots.len(),
                        r.unchecked
                    ));
                }
                checked += r.checked;
            }
            Err(e) => failures.push(format!("{}: not evaluated: {e}", p.name)),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 30, "only {checked} inserts checked");
}
