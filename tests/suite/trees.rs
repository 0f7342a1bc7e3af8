//! Trees (the MongoDB manual's "Model Tree Structures", issue #20): the tree fields of the
//! generated nodes agree with each other under every strategy, their sizes equal pymongo's
//! `bson.encode`, and the planner bounds an anchored prefix regex on an index as mongod does
//! (same results as a collection scan and as mingo, only the subtree's keys examined).
#![cfg(not(target_arch = "wasm32"))]

use crate::common::pymongo;

use bson::oid::ObjectId;
use bson::{doc, Bson, Document};
use squillion::design::Layout;
use squillion::engine::planner::regex::simple_prefix;
use squillion::engine::{Database, FindCommand, Hint, IndexOptions};
use squillion::eval::answer::check_offered;
use squillion::eval::offer::offer;
use squillion::eval::EvalOptions;
use squillion::generate::generate;
use squillion::model::{parse_model, Model};
use squillion::presets;
use squillion::size::document_size;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

const DESIGNS: [&str; 5] = [
    "parent-references",
    "child-references",
    "array-of-ancestors",
    "materialized-paths",
    "nested-sets",
];

/// The category-tree preset under one of its designs: the model and the generated nodes.
fn nodes(design: &str) -> (Model, Vec<Document>) {
    let m = presets::find("category-tree")
        .unwrap_or_else(|e| panic!("{e}"))
        .model()
        .unwrap_or_else(|e| panic!("{e}"));
    let o = offer(&m, design).unwrap_or_else(|| panic!("no design {design}"));
    let layout = Layout::build(&o.model, &o.model.design).unwrap_or_else(|e| panic!("{e}"));
    let data = generate(&o.model, &layout);
    let docs = data
        .collection("category")
        .map(|c| c.documents.clone())
        .unwrap_or_default();
    (o.model, docs)
}

fn by_id(docs: &[Document]) -> BTreeMap<ObjectId, &Document> {
    docs.iter()
        .filter_map(|d| d.get_object_id("_id").ok().map(|id| (id, d)))
        .collect()
}

fn oid(v: &Bson) -> ObjectId {
    v.as_object_id().unwrap()
}

#[test]
fn every_strategy_stores_the_same_tree() {
    // Parent references are the truth: each other strategy's fields must say the same.
    let (_, truth) = nodes("parent-references");
    assert_eq!(truth.len(), 4681);
    let parent_of: BTreeMap<ObjectId, Option<ObjectId>> = truth
        .iter()
        .map(|d| {
            (
                d.get_object_id("_id").unwrap(),
                d.get_object_id("parent").ok(),
            )
        })
        .collect();
    // The root has no parent; everyone else's parent exists.
    assert_eq!(parent_of.values().filter(|p| p.is_none()).count(), 1);
    for p in parent_of.values().flatten() {
        assert!(parent_of.contains_key(p));
    }
    let ancestors = |id: ObjectId| {
        let mut out = Vec::new();
        let mut at = id;
        while let Some(Some(p)) = parent_of.get(&at) {
            out.push(*p);
            at = *p;
        }
        out.reverse();
        out
    };

    let (_, kids) = nodes("child-references");
    for d in &kids {
        let id = d.get_object_id("_id").unwrap();
        for c in d.get_array("children").unwrap() {
            assert_eq!(parent_of[&oid(c)], Some(id));
        }
    }
    assert_eq!(
        kids.iter()
            .map(|d| d.get_array("children").unwrap().len())
            .sum::<usize>(),
        4680
    );

    let (_, anc) = nodes("array-of-ancestors");
    for d in &anc {
        let id = d.get_object_id("_id").unwrap();
        let got: Vec<ObjectId> = d.get_array("ancestors").unwrap().iter().map(oid).collect();
        assert_eq!(got, ancestors(id), "{id}");
        assert_eq!(d.get_object_id("parent").ok(), parent_of[&id]);
    }

    let (_, paths) = nodes("materialized-paths");
    for d in &paths {
        let id = d.get_object_id("_id").unwrap();
        let want: String = ancestors(id)
            .iter()
            .map(|a| format!("{},", a.to_hex()))
            .collect();
        match d.get_str("path") {
            Ok(p) => assert_eq!(p, format!(",{want}")),
            Err(_) => assert!(want.is_empty(), "only the root has no path"),
        }
    }

    let (_, nested) = nodes("nested-sets");
    let ns = by_id(&nested);
    let mut numbers: Vec<i32> = Vec::new();
    for d in &nested {
        let (l, r) = (d.get_i32("left").unwrap(), d.get_i32("right").unwrap());
        numbers.extend([l, r]);
        if let Ok(p) = d.get_object_id("parent") {
            let pd = ns[&p];
            assert!(pd.get_i32("left").unwrap() < l && r < pd.get_i32("right").unwrap());
        }
    }
    numbers.sort_unstable();
    assert_eq!(numbers, (1..=2 * 4681).collect::<Vec<_>>());
}

#[test]
fn the_arithmetic_sizes_match_the_sample_tree() {
    // The whole tree is materialized: the collection's total from the shapes' means (the
    // arithmetic sizes an array by a whole count: 3.86 ancestors on average count as 4) is
    // within 2% of the sum of the generated documents' sizes.
    for design in DESIGNS {
        let (m, docs) = nodes(design);
        let layout = Layout::build(&m, &m.design).unwrap();
        let c = layout.collection("category").unwrap();
        let stats = squillion::stats::collection_stats(c, &m.start_date);
        let sample: u64 = docs.iter().map(document_size).sum();
        let ratio = stats.total_bytes / sample as f64;
        assert!((ratio - 1.0).abs() < 0.02, "{design}: {ratio}");
    }
}

#[test]
fn tree_document_sizes_equal_pymongo() {
    // The root, a node of the middle level, a leaf: under every strategy, with what each
    // holds (ids, arrays of ids, the path string, the nested-set numbers).
    let mut docs = Vec::new();
    for design in DESIGNS {
        let (_, all) = nodes(design);
        for i in [0usize, 41, 4680] {
            docs.push(all[i].clone());
        }
    }
    let ours: Vec<u64> = docs.iter().map(document_size).collect();
    assert_eq!(pymongo::sizes(&docs), ours);
}

/// Documents with paths: a small tree of named categories (with characters a regex treats
/// specially), `_id` an int for the comparison.
fn path_docs() -> Vec<Document> {
    let paths = [
        None,
        Some(",Books,"),
        Some(",Books,Programming,"),
        Some(",Books,Programming,Databases,"),
        Some(",Books,Programming,Languages,"),
        Some(",Books,Programming-Languages,"),
        Some(",Books,Programmer,"),
        Some(",Books,History,"),
        Some(",Books,C++,"),
        Some(",Books,C++,Templates,"),
        Some(",Books,a.b,"),
        Some(",Books,axb,"),
        Some(",books,programming,"),
        Some(",Books,Ünïcode,"),
        Some(",Books,Ünïcode,Sub,"),
    ];
    let mut out: Vec<Document> = paths
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut d = doc! { "_id": i as i32 };
            if let Some(p) = p {
                d.insert("path", *p);
            }
            d
        })
        .collect();
    out.push(doc! { "_id": 100, "path": 7 });
    out.push(doc! { "_id": 101, "path": ["x", ",Books,Programming,Other,"] });
    out
}

/// Regexes on `path`: anchored literal prefixes (bounded), prefixes followed by more
/// (bounded, re-checked), and ones mongod does not bound (scanned).
const REGEXES: [(&str, &str, bool); 11] = [
    ("^,Books,Programming,", "", true),
    ("^,Books,Programming", "", true),
    ("^,Books,C\\+\\+,", "", true),
    ("^,Books,a\\.b,", "", true),
    ("^,Books,Ünïcode,", "", true),
    ("^,Books,Pro.*Languages", "", true),
    ("^,Books,Programmers?", "", true),
    ("^,Books,Programming,", "i", false),
    (",Programming,", "", false),
    ("^,Books,History,|^,Books,C", "", false),
    ("^,Books,\\w+,$", "", true),
];

fn regex(p: &str, o: &str) -> Bson {
    Bson::RegularExpression(bson::Regex {
        pattern: p.to_string().try_into().unwrap(),
        options: o.to_string().try_into().unwrap(),
    })
}

fn ids(r: &squillion::engine::CommandResult) -> Vec<i32> {
    let mut v: Vec<i32> = r
        .documents
        .iter()
        .filter_map(|d| d.get_i32("_id").ok())
        .collect();
    v.sort_unstable();
    v
}

#[test]
fn an_anchored_prefix_regex_scans_only_its_range_of_the_index() {
    let mut db = Database::new();
    db.create_index("c", doc! { "path": 1 }, IndexOptions::default())
        .unwrap();
    db.insert_many("c", path_docs(), true).unwrap();
    for (p, o, bounded) in REGEXES {
        let f = doc! { "path": regex(p, o) };
        let find = |hint| {
            db.find(
                "c",
                &FindCommand {
                    filter: f.clone(),
                    hint,
                    ..Default::default()
                },
            )
            .unwrap()
        };
        let auto = find(Hint::Auto);
        let scan = find(Hint::Collscan);
        assert_eq!(ids(&auto), ids(&scan), "/{p}/{o}");
        let plan = auto.plan.as_ref().unwrap();
        // Every regex uses the index, as mongod's planner does: a simple prefix its range, any
        // other regex every string key (["", {}) and the regex point).
        assert_eq!(plan.access(), "path_1", "/{p}/{o}");
        if !bounded {
            let strings = path_docs()
                .iter()
                .map(|d| match d.get("path") {
                    Some(Bson::String(_)) => 1,
                    Some(Bson::Array(a)) => a.iter().filter(|x| x.as_str().is_some()).count(),
                    _ => 0,
                })
                .sum::<usize>() as u64;
            assert!(
                auto.stats.exec.keys_examined >= strings,
                "/{p}/{o}: {} keys, {strings} string keys",
                auto.stats.exec.keys_examined
            );
        }
        if bounded {
            // Only the keys of the prefix's range are examined (and the one past its end).
            let (prefix, _) = simple_prefix(p, o).unwrap();
            let in_range = path_docs()
                .iter()
                .flat_map(|d| match d.get("path") {
                    Some(Bson::String(s)) => vec![s.clone()],
                    Some(Bson::Array(a)) => a
                        .iter()
                        .filter_map(|x| x.as_str().map(str::to_string))
                        .collect(),
                    _ => vec![],
                })
                .filter(|s| s.starts_with(&prefix))
                .count() as u64;
            assert!(
                auto.stats.exec.keys_examined <= in_range + 1,
                "/{p}/{o}: {} keys, {in_range} in range",
                auto.stats.exec.keys_examined
            );
        }
    }
    // The bounds explain prints, as mongod's explain does.
    let r = db
        .find(
            "c",
            &FindCommand {
                filter: doc! { "path": regex("^,Books,Programming,", "") },
                ..Default::default()
            },
        )
        .unwrap();
    let text = r.plan.as_ref().unwrap().to_string();
    assert!(
        text.contains(r#"[",Books,Programming,", ",Books,Programming-")"#),
        "{text}"
    );
    assert!(text.contains("/^,Books,Programming,/"), "{text}");
    assert_eq!(ids(&r), vec![2, 3, 4, 101]);
}

#[test]
fn prefix_regexes_return_what_mingo_returns() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/differential");
    if !dir.join("node_modules/mingo").exists() {
        eprintln!(
            "tests/differential/node_modules missing: run `npm ci --prefix tests/differential`"
        );
        return;
    }
    let docs = path_docs();
    let mut db = Database::new();
    db.create_index("c", doc! { "path": 1 }, IndexOptions::default())
        .unwrap();
    db.insert_many("c", docs.clone(), true).unwrap();
    let cases: Vec<Bson> = REGEXES
        .iter()
        .map(|(p, o, _)| Bson::Document(doc! { "filter": { "path": regex(p, o) } }))
        .collect();
    let input = doc! {
        "docs": docs.into_iter().map(Bson::Document).collect::<Vec<_>>(),
        "cases": cases,
    };
    let tmp = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(
        tmp.path(),
        Bson::Document(input).into_canonical_extjson().to_string(),
    )
    .unwrap();
    let out = Command::new("node")
        .arg(dir.join("run.mjs"))
        .arg(tmp.path())
        .output()
        .unwrap_or_else(|e| panic!("cannot run node: {e}"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<serde_json::Value> = text
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    assert_eq!(lines.len(), REGEXES.len());
    for ((p, o, _), line) in REGEXES.iter().zip(&lines) {
        let mut theirs: Vec<i32> = line["ids"]
            .as_array()
            .unwrap_or_else(|| panic!("/{p}/{o}: {line}"))
            .iter()
            .filter_map(|x| x.as_i64().map(|v| v as i32))
            .collect();
        theirs.sort_unstable();
        let ours = db
            .find(
                "c",
                &FindCommand {
                    filter: doc! { "path": regex(p, o) },
                    ..Default::default()
                },
            )
            .unwrap();
        assert_eq!(ids(&ours), theirs, "/{p}/{o}");
    }
}

#[test]
fn tree_steps_need_a_tree_relationship() {
    let text = r#"{
      "name": "t", "entities": [{"name": "a", "count": 10, "fields": {}}, {"name": "b", "count": 10, "fields": {}}],
      "relationships": [{"name": "ab", "parent": "a", "child": "b", "cardinality": {"shape": "fixed", "value": 1}}],
      "workload": [{"name": "u", "rate_per_sec": 1, "steps": [{"op": "read_subtree", "relationship": "ab"}]}],
      "design": {"relationships": {"ab": {"strategy": "nested_sets"}}}
    }"#;
    let errs = match parse_model(text) {
        Ok(_) => panic!("a tree step on a relationship between two entities is refused"),
        Err(e) => format!("{e:?}"),
    };
    assert!(
        errs.contains("read_subtree reads or changes a tree"),
        "{errs}"
    );
    assert!(
        errs.contains("\\\"nested_sets\\\" lays out a tree"),
        "{errs}"
    );
}

/// Checks every design of `m` in `designs` for the logical answer of its tree steps
/// (`eval::answer`): no problem, nothing left unchecked, and `want` steps checked (five tree
/// units, each for the typical and the largest node). Returns the failures.
fn tree_answers(m: &Model, what: &str, designs: &[&str], opts: &EvalOptions) -> Vec<String> {
    let mut failures = Vec::new();
    for design in designs {
        let r = match check_offered(m, design, opts) {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("{what} / {design}: not evaluated: {e}"));
                continue;
            }
        };
        failures.extend(r.problems.iter().map(|p| format!("{what} / {design}: {p}")));
        if r.checked != 10 || !r.unchecked.is_empty() {
            failures.push(format!(
                "{what} / {design}: {} tree steps checked of 10; not checked: {:?}",
                r.checked, r.unchecked
            ));
        }
    }
    failures
}

#[test]
fn tree_steps_give_the_logical_answer_under_every_encoding() {
    // The whole category tree (4,681 nodes) and a sample of 60 of them, under each of the
    // five designs: every read returns exactly the nodes the tree names, every write leaves
    // the tree the step asks for under every encoding the design keeps.
    let m = presets::find("category-tree")
        .unwrap_or_else(|e| panic!("{e}"))
        .model()
        .unwrap_or_else(|e| panic!("{e}"));
    let mut failures = tree_answers(&m, "category-tree", &DESIGNS, &EvalOptions::default());
    let small = EvalOptions {
        max_documents: Some(60),
        ..Default::default()
    };
    failures.extend(tree_answers(&m, "category-tree (60)", &DESIGNS, &small));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A tree of `count` nodes of fan-out `fan_out` (its last level partly filled when the count
/// says so) with the five tree steps, laid out by `strategy`.
fn tree_model(count: u64, fan_out: u64, strategy: &str) -> String {
    let steps: Vec<String> = [
        "read_children",
        "read_ancestors",
        "read_subtree",
        "insert_node",
        "move_subtree",
    ]
    .iter()
    .map(|op| {
        format!(
            r#"{{ "name": "{op}", "rate_per_sec": 1, "steps": [ {{ "op": "{op}", "relationship": "sub" }} ] }}"#
        )
    })
    .collect();
    format!(
        r#"{{
      "name": "tree", "seed": 7, "sample": {{ "max_documents": {count} }},
      "entities": [ {{ "name": "node", "count": {count}, "fields": {{ "label": {{ "type": "string" }}, "rank": {{ "type": "int" }} }} }} ],
      "relationships": [ {{ "name": "sub", "parent": "node", "child": "node", "parent_field": "parent", "cardinality": {{ "shape": "fixed", "value": {fan_out} }} }} ],
      "workload": [ {} ],
      "design": {{ "relationships": {{ "sub": {{ "strategy": "{strategy}" }} }} }}
    }}"#,
        steps.join(",\n        ")
    )
}

#[test]
fn tree_steps_give_the_logical_answer_on_trees_of_every_shape() {
    // Fan-outs 2, 3 and 5; complete trees and trees whose last level is partly filled (the
    // largest move takes the root's first child, the deepest insert the first leaf).
    let mut failures = Vec::new();
    for (count, fan_out) in [(31, 2), (30, 2), (40, 3), (23, 3), (100, 5), (7, 2)] {
        for strategy in [
            "parent_references",
            "child_references",
            "array_of_ancestors",
            "materialized_paths",
            "nested_sets",
        ] {
            let m = parse_model(&tree_model(count, fan_out, strategy))
                .unwrap_or_else(|e| panic!("{e:?}"));
            failures.extend(tree_answers(
                &m,
                &format!("{count} nodes of fan-out {fan_out}"),
                &["custom"],
                &EvalOptions::default(),
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A shop: a category tree (40 nodes of fan-out 3) with the five tree steps, and the
/// products of each category (`items`, a one-to-many from category to product) read with
/// their category, the tree laid out by `tree` and the products by `items` (strategies as
/// JSON).
fn shop_model(tree: &str, items: &str) -> String {
    let mut v: serde_json::Value = serde_json::from_str(&tree_model(40, 3, tree)).unwrap();
    v["entities"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({
            "name": "product", "count": 120,
            "fields": { "title": { "type": "string" }, "price": { "type": "double" } }
        }));
    v["relationships"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({
            "name": "items", "parent": "node", "child": "product",
            "cardinality": { "shape": "fixed", "value": 3 }
        }));
    v["workload"].as_array_mut().unwrap().push(serde_json::json!({
        "name": "category page", "rate_per_sec": 10,
        "steps": [ { "op": "read", "entity": "node", "children": [ { "relationship": "items" } ] } ]
    }));
    v["sample"]["max_documents"] = serde_json::json!(200);
    v["design"]["relationships"]["items"] = serde_json::from_str(items).unwrap();
    v.to_string()
}

#[test]
fn tree_steps_give_the_logical_answer_beside_other_relationships() {
    // The tree's nodes hold the products too (embedded, referenced, bucketed, in a single
    // collection with them): the tree steps still answer under every tree strategy and every
    // strategy the picker offers for the products.
    let base = parse_model(&shop_model("parent_references", r#"{"strategy": "embed"}"#))
        .unwrap_or_else(|e| panic!("{e:?}"));
    let mut failures = Vec::new();
    let mut combos = 0;
    for items in squillion::model::design::strategies_for(&base, "items") {
        let items = serde_json::to_string(&items).unwrap();
        for tree in [
            "parent_references",
            "child_references",
            "array_of_ancestors",
            "materialized_paths",
            "nested_sets",
        ] {
            let what = format!("{tree} with items {items}");
            let Ok(m) = parse_model(&shop_model(tree, &items)) else {
                eprintln!("{what}: refused by validation");
                continue;
            };
            let r = match check_offered(&m, "custom", &EvalOptions::default()) {
                Ok(r) => r,
                Err(e) => {
                    failures.push(format!("{what}: not evaluated: {e}"));
                    continue;
                }
            };
            combos += 1;
            failures.extend(r.problems.iter().map(|p| format!("{what}: {p}")));
            // Ten tree steps and the products' read for the typical and the largest node.
            let tree_unchecked: Vec<&String> = r
                .unchecked
                .iter()
                .filter(|u| !u.starts_with("category page"))
                .collect();
            if r.checked < 10 || !tree_unchecked.is_empty() {
                failures.push(format!(
                    "{what}: {} steps checked; not checked: {:?}",
                    r.checked, r.unchecked
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(combos >= 20, "only {combos} combinations");
}

#[test]
fn tree_reads_after_a_tree_write_in_the_same_unit_see_the_written_tree() {
    // A unit that adds a node then reads, and one that moves a subtree then reads: the read
    // answers on the tree the write left (the node it starts from as stored then), under
    // every tree strategy.
    let mut failures = Vec::new();
    for strategy in [
        "parent_references",
        "child_references",
        "array_of_ancestors",
        "materialized_paths",
        "nested_sets",
    ] {
        let mut v: serde_json::Value = serde_json::from_str(&tree_model(40, 3, strategy)).unwrap();
        let mut units = Vec::new();
        for write in ["insert_node", "move_subtree"] {
            for read in ["read_children", "read_ancestors", "read_subtree"] {
                units.push(serde_json::json!({
                    "name": format!("{write} then {read}"), "rate_per_sec": 1,
                    "steps": [
                        { "op": write, "relationship": "sub" },
                        { "op": read, "relationship": "sub" }
                    ]
                }));
            }
        }
        v["workload"] = serde_json::Value::Array(units);
        let m = parse_model(&v.to_string()).unwrap_or_else(|e| panic!("{e:?}"));
        match check_offered(&m, "custom", &EvalOptions::default()) {
            Ok(r) => {
                failures.extend(r.problems.iter().map(|p| format!("{strategy}: {p}")));
                // Each read for the typical and the largest node; the writes are not the
                // units' last steps, so not checked.
                if r.checked != 12 {
                    failures.push(format!(
                        "{strategy}: {} steps checked of 12; not checked: {:?}",
                        r.checked, r.unchecked
                    ));
                }
            }
            Err(e) => failures.push(format!("{strategy}: not evaluated: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
