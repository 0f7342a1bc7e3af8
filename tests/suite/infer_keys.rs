//! `squillion infer` on a copy of MongoDB's sample_analytics in its exact shape
//! (`tests/fixtures/infer/sample_analytics`, written by its `make.py`): references through a
//! unique key other than `_id` (`customers.accounts` and `transactions.account_id` name
//! `accounts.account_id`), a map (`customers.tier_and_details`, an object keyed by 32-hex ids)
//! moved out into a child entity whose entries per parent size the customers as the real
//! documents are, and what must not be taken for a key.
#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};

use crate::common::infer_json;
use infer_json::{infer, squillion};
use serde_json::Value;
use squillion::design::layout_model;
use squillion::stats::collection_stats;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/infer/sample_analytics")
}

fn files(dir: &Path, names: &[&str]) -> Vec<String> {
    names
        .iter()
        .map(|n| dir.join(n).to_string_lossy().into_owned())
        .collect()
}

fn relationship<'a>(report: &'a Value, parent: &str, child: &str) -> &'a Value {
    report["relationships"]
        .as_array()
        .and_then(|rs| {
            rs.iter()
                .find(|r| r["parent"] == parent && r["child"] == child)
        })
        .unwrap_or_else(|| panic!("no relationship {parent} → {child}: {report:#}"))
}

/// pymongo's figures for one collection of the fixture, as `make.py` wrote them to `sizes.txt`
/// (`len(bson.encode(doc))` of every document): p50, p99, largest and mean in bytes.
struct Measured {
    p50: u64,
    p99: u64,
    max: u64,
    mean: f64,
}

/// Returns pymongo's sizes of `collection` from the fixture's `sizes.txt`.
fn measured(collection: &str) -> Measured {
    let text =
        std::fs::read_to_string(fixture().join("sizes.txt")).unwrap_or_else(|e| panic!("{e}"));
    let line = text
        .lines()
        .find(|l| l.split_whitespace().next() == Some(collection))
        .unwrap_or_else(|| panic!("no {collection} in sizes.txt"));
    let words: Vec<&str> = line.split_whitespace().collect();
    let after = |w: &str| -> f64 {
        words
            .iter()
            .position(|x| *x == w)
            .and_then(|i| words.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no {w} in {line}"))
    };
    Measured {
        p50: after("p50") as u64,
        p99: after("p99") as u64,
        max: after("max") as u64,
        mean: after("mean"),
    }
}

#[test]
fn sample_analytics_references_go_through_account_id() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let inputs = files(
        &fixture(),
        &["accounts.json", "customers.json", "transactions.json"],
    );
    let (report, model) = infer(&inputs, dir.path());
    // customers.accounts: an array of account_id ints, every one resolving.
    let accounts = relationship(&report, "customers", "accounts");
    assert_eq!(accounts["layout"], "reference_in_parent");
    assert_eq!(accounts["field"], "accounts");
    assert_eq!(accounts["key"]["field"], "account_id");
    assert_eq!(accounts["key"]["unique"], "data");
    let [values, resolved] = [&accounts["resolved"][0], &accounts["resolved"][1]];
    assert_eq!(values, resolved);
    // Every element of every customer's array (the fixture: 161 accounts over 50 customers).
    assert_eq!(values, 161);
    assert_eq!(accounts["many_to_many"], false);
    // transactions.account_id: one account per bucket document.
    let tx = relationship(&report, "accounts", "transactions");
    assert_eq!(tx["layout"], "reference_in_child");
    assert_eq!(tx["field"], "account_id");
    assert_eq!(tx["key"]["field"], "account_id");
    assert_eq!(tx["resolved"], serde_json::json!([150, 150]));
    assert_eq!(tx["children_per_parent"]["max"], 1);
    // The key stays a field of accounts; the references are no fields any more.
    let entity = |n: &str| {
        model
            .entities
            .iter()
            .find(|e| e.name == n)
            .unwrap_or_else(|| panic!("{n}"))
    };
    assert!(entity("accounts").fields.get("account_id").is_some());
    assert!(entity("customers").fields.get("accounts").is_none());
    assert!(entity("transactions").fields.get("account_id").is_none());
    let rel = model
        .relationships
        .iter()
        .find(|r| r.parent == "accounts" && r.child == "transactions")
        .unwrap_or_else(|| panic!("no relationship"));
    assert_eq!(rel.parent_field.as_deref(), Some("account_id"));
}

#[test]
fn references_through_a_key_are_the_keys_values() {
    use squillion::model::field::BsonType;
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let inputs = files(
        &fixture(),
        &["accounts.json", "customers.json", "transactions.json"],
    );
    let (_, model) = infer(&inputs, dir.path());
    let customers_accounts = model
        .relationships
        .iter()
        .find(|r| r.parent == "customers" && r.child == "accounts")
        .unwrap_or_else(|| panic!("customers → accounts"));
    assert_eq!(customers_accounts.child_key.as_deref(), Some("account_id"));
    assert_eq!(customers_accounts.parent_key, None);
    let layout = layout_model(&model).unwrap_or_else(|e| panic!("{e}"));
    let field = |coll: &str, name: &str| {
        layout
            .collections
            .iter()
            .find(|c| c.name == coll)
            .and_then(|c| c.shapes.first())
            .and_then(|s| s.fields.get(name))
            .cloned()
            .unwrap_or_else(|| panic!("no {coll}.{name}"))
    };
    // The layout's references have the key's type: an array of int32 in the parent, an int32
    // in the child (4 bytes each, where an ObjectId is 12).
    let array = field("customers", "accounts");
    assert_eq!(
        (array.ty, array.items),
        (BsonType::Array, Some(BsonType::Int))
    );
    assert_eq!(field("transactions", "account_id").ty, BsonType::Int);
    // The generated references are account_id values of generated accounts, and the
    // accounts' keys are distinct.
    let data = squillion::generate::generate(&model, &layout);
    let docs = |c: &str| {
        data.collection(c)
            .unwrap_or_else(|| panic!("no {c}"))
            .documents
            .clone()
    };
    let keys: Vec<bson::Bson> = docs("accounts")
        .iter()
        .filter_map(|d| d.get("account_id").cloned())
        .collect();
    let mut distinct = keys.clone();
    distinct.sort_by_key(|k| k.to_string());
    distinct.dedup();
    assert_eq!(distinct.len(), keys.len(), "account_id values repeat");
    let (mut named, mut resolved) = (0, 0);
    for d in docs("customers") {
        for v in d
            .get_array("accounts")
            .map(|a| a.to_vec())
            .unwrap_or_default()
        {
            assert!(matches!(v, bson::Bson::Int32(_)), "{v}");
            resolved += usize::from(keys.contains(&v));
            named += 1;
        }
    }
    // A one-to-many parent lists its own children first, then children the sample did not
    // generate (the generator's rule for `_id`s too): keys past the largest generated one.
    let largest = keys
        .iter()
        .filter_map(bson::Bson::as_i32)
        .max()
        .unwrap_or(0);
    let beyond = docs("customers")
        .iter()
        .flat_map(|d| {
            d.get_array("accounts")
                .map(|a| a.to_vec())
                .unwrap_or_default()
        })
        .filter(|v| v.as_i32().is_some_and(|v| v > largest))
        .count();
    eprintln!("customers.accounts: {resolved} of {named} name a generated account, {beyond} one past them");
    assert_eq!(resolved + beyond, named);
    assert!(resolved * 10 >= named * 9, "{resolved} of {named}");
    for d in docs("transactions") {
        let v = d
            .get("account_id")
            .unwrap_or_else(|| panic!("no account_id: {d}"));
        assert!(
            keys.contains(v),
            "transactions.account_id {v} names no account"
        );
        named += 1;
    }
    assert!(named > 150, "{named}");
    // transactions hold their account's account_id, an int32 as in the data: sized within
    // 2% of pymongo's figures (943 and 1,759 B against 949 and 1,768).
    let real = measured("transactions");
    let coll = layout
        .collections
        .iter()
        .find(|c| c.name == "transactions")
        .unwrap_or_else(|| panic!("transactions"));
    let stats = collection_stats(coll, &model.start_date);
    let t = &stats.shapes[0];
    eprintln!(
        "transactions: pymongo mean {:.1} p50 {} p99 {}; inferred average {} p50 {} p99 {}",
        real.mean, real.p50, real.p99, t.average.bytes, t.p50.bytes, t.p99.bytes
    );
    let off = |a: u64, b: f64| (a as f64 / b - 1.0).abs();
    assert!(off(t.p50.bytes, real.p50 as f64) < 0.02, "p50");
    assert!(off(t.p99.bytes, real.p99 as f64) < 0.02, "p99");
    // Every offered design's plan (the model's own through the keys, the others through
    // `_id`s or a key where they keep the same strategy) gives the logical answer on the
    // engine: the starter workload's reads find the children, its inserts link them.
    for o in squillion::eval::offer::offers(&model) {
        let r = squillion::eval::answer::check_offered(&model, &o.id, &Default::default())
            .unwrap_or_else(|e| panic!("{}: {e}", o.id));
        assert!(r.problems.is_empty(), "{}: {:?}", o.id, r.problems);
        assert!(r.checked > 0, "{}", o.id);
    }
}

#[test]
fn sample_analytics_tier_and_details_is_a_map_sized_as_the_data() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let inputs = files(
        &fixture(),
        &["accounts.json", "customers.json", "transactions.json"],
    );
    let (report, model) = infer(&inputs, dir.path());
    let map = relationship(&report, "customers", "tier_and_detail");
    assert_eq!(map["layout"], "embed");
    assert_eq!(map["map"]["key_field"], "key");
    let keys = map["map"]["keys"].as_u64().unwrap_or(0);
    assert_eq!(map["children_read"], keys, "every key in one customer");
    let c = &map["children_per_parent"];
    assert_eq!(
        (c["values"].as_u64(), c["min"].as_u64(), c["max"].as_u64()),
        (Some(50), Some(0), Some(4))
    );
    // One row for the map, one for its values, its value's fields: not one per key.
    let customers = report["entities"]
        .as_array()
        .and_then(|es| es.iter().find(|e| e["name"] == "customers"))
        .unwrap_or_else(|| panic!("customers"));
    let paths: Vec<&str> = customers["fields"]
        .as_array()
        .unwrap_or_else(|| panic!("fields"))
        .iter()
        .filter_map(|f| f["path"].as_str())
        .collect();
    assert!(paths.len() < 20, "{paths:?}");
    assert!(paths.contains(&"tier_and_details.*.benefits"), "{paths:?}");
    let child = model
        .entities
        .iter()
        .find(|e| e.name == "tier_and_detail")
        .unwrap_or_else(|| panic!("no child entity"));
    let names: Vec<&str> = child.fields.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["key", "tier", "id", "active", "benefits"]);
    // Sizes of the model's own layout against pymongo's sizes of the same documents.
    let real = measured("customers");
    let layout = layout_model(&model).unwrap_or_else(|e| panic!("{e}"));
    let coll = layout
        .collections
        .iter()
        .find(|c| c.name == "customers")
        .unwrap_or_else(|| panic!("customers"));
    let stats = collection_stats(coll, &model.start_date);
    let s = &stats.shapes[0];
    eprintln!(
        "customers: pymongo mean {:.1} p50 {} p99 {} largest {}; inferred average {} p50 {} p99 {} largest {}",
        real.mean, real.p50, real.p99, real.max, s.average.bytes, s.p50.bytes, s.p99.bytes, s.max.bytes
    );
    let off = |a: u64, b: f64| a as f64 / b - 1.0;
    // The entries' `benefits` were fitted over every entry, whichever customer held it: drawn
    // on their own, not all at the customer's quantile (a customer with four entries does not
    // hold four full lists). Drawn at the customer's quantile, p99 was 1,300 B (+25%).
    let benefits = child
        .fields
        .get("benefits")
        .unwrap_or_else(|| panic!("no benefits"));
    assert!(benefits.independent, "{benefits:?}");
    // The median, the p99 and the mean within 2%, 3% and 5% (604, 1,019 and 616 B against
    // 605, 1,037 and 596): the map is laid out as the data has it, an object keyed by the
    // 32-character keys (the `map` pattern; as an array of `{key, …}` each entry cost 11
    // bytes more, its index and the key's field name: 626, 1,063 and 639 B), and the
    // references to accounts are int32 account_ids, as in the data, since the model names
    // the key (653, 1,111 and 667 B when they were also ObjectIds). The largest is the
    // model's bound, not a sample's largest: every count and length at its maximum at once
    // (6 accounts, 4 entries of 4 benefits of 32 B, the longest name and address), which
    // none of the 50 customers is (the real largest has 11 benefits): at least the real
    // figure and under 1.4 times it (1,413 B; 1,457 B as an array, 1,505 B with ObjectId
    // references too; 18,801 B before maps, one optional field per key).
    assert!(off(s.p50.bytes, real.p50 as f64).abs() < 0.02, "p50");
    assert!(off(s.p99.bytes, real.p99 as f64).abs() < 0.03, "p99");
    assert!(off(s.average.bytes, real.mean).abs() < 0.05, "average");
    assert!(
        s.max.bytes >= real.max && off(s.max.bytes, real.max as f64) < 0.40,
        "largest"
    );
    // The largest document expected among the model's customers at full scale (issue #33:
    // within 10% of the real largest): the 1 − 1/count quantile of the size distribution.
    // With 50 customers that quantile (0.98) is below p99, so it is the p99: 1,019 B against
    // pymongo's largest 1,037 B (−1.7%; 1,063 B, +2.5%, with the map as an array; 1,111 B,
    // +7%, with ObjectId references too), where the bound is 1,413 B (+36%).
    eprintln!(
        "customers: count {} largest expected {} {:?}",
        s.count, s.largest_expected.bytes, s.largest_expected_bounds
    );
    assert!(
        off(s.largest_expected.bytes, real.max as f64).abs() < 0.03,
        "largest expected {} against pymongo's largest {}",
        s.largest_expected.bytes,
        real.max
    );
}

#[test]
fn the_human_summary_says_the_key_and_the_map() {
    let inputs = files(
        &fixture(),
        &["accounts.json", "customers.json", "transactions.json"],
    );
    let mut args = vec!["infer"];
    args.extend(inputs.iter().map(String::as_str));
    // The model goes to standard output, the summary to standard error.
    let out = squillion(&args);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(
        text.contains("161 of 161 values resolved through the unique key account_id"),
        "{text}"
    );
    assert!(text.contains("map tier_and_details"), "{text}");
    assert!(
        text.contains("a map: moved out as entity \"tier_and_detail\""),
        "{text}"
    );
}

/// Writes `lines` as a mongoexport file `name.json` in `dir`.
fn write(dir: &Path, name: &str, lines: impl IntoIterator<Item = String>) -> String {
    let path = dir.join(format!("{name}.json"));
    let text: Vec<String> = lines.into_iter().collect();
    std::fs::write(&path, text.join("\n")).unwrap_or_else(|e| panic!("{e}"));
    path.to_string_lossy().into_owned()
}

fn oid(i: usize) -> String {
    format!(
        "{{\"$oid\":\"{:024x}\"}}",
        0x6500_0000_0000_0000_0000_0000_u128 + i as u128
    )
}

#[test]
fn small_numbers_do_not_name_a_small_collection() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    // Ten codes 1 to 10 (too few to be a key), thirty levels 1 to 30 (a key), and order lines
    // whose quantity (1 to 10) and rating (1 to 5) resolve to both by chance.
    let codes = write(
        dir.path(),
        "codes",
        (1..=10).map(|i| format!("{{\"_id\":{},\"code\":{i}}}", oid(i))),
    );
    let levels = write(
        dir.path(),
        "levels",
        (1..=30).map(|i| format!("{{\"_id\":{},\"level\":{i}}}", oid(100 + i))),
    );
    let lines = write(
        dir.path(),
        "lines",
        (0..200).map(|i| {
            format!(
                "{{\"_id\":{},\"quantity\":{},\"rating\":{}}}",
                oid(1000 + i),
                1 + i % 10,
                1 + i % 5
            )
        }),
    );
    let (report, model) = infer(&[codes, levels, lines], dir.path());
    assert_eq!(report["relationships"], serde_json::json!([]), "{report:#}");
    let lines = model
        .entities
        .iter()
        .find(|e| e.name == "lines")
        .unwrap_or_else(|| panic!("lines"));
    assert!(lines.fields.get("quantity").is_some());
    assert!(lines.fields.get("rating").is_some());
}

#[test]
fn an_id_is_preferred_to_a_unique_key() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    // users' _id and legacy.user_id hold the same numbers: orders.user_id names users' _id.
    let users = write(
        dir.path(),
        "users",
        (0..30).map(|i| format!("{{\"_id\":{}}}", 5000 + i)),
    );
    let legacy = write(
        dir.path(),
        "legacy",
        (0..30).map(|i| format!("{{\"_id\":{},\"user_id\":{}}}", oid(i), 5000 + i)),
    );
    let orders = write(
        dir.path(),
        "orders",
        (0..90).map(|i| format!("{{\"_id\":{},\"user_id\":{}}}", oid(100 + i), 5000 + i % 30)),
    );
    let (report, _) = infer(&[users, legacy, orders], dir.path());
    let r = relationship(&report, "users", "orders");
    assert_eq!(r["field"], "user_id");
    assert!(r.get("key").is_none(), "{r:#}");
}

#[test]
fn a_key_is_a_scalar_field_of_its_entity_and_follows_renames() {
    use squillion::model::edit::rename_field;
    use squillion::model::parse_model;
    let model = |parent_key: &str| {
        serde_json::json!({
            "entities": [
                { "name": "account", "count": 10, "fields": {
                    "account_id": { "type": "int" },
                    "products": { "type": "array", "items": "string",
                    "count": { "shape": "fixed", "value": 2 } } } },
                { "name": "tx", "count": 10 }
            ],
            "relationships": [ { "name": "txs", "parent": "account", "child": "tx",
                "cardinality": { "shape": "fixed", "value": 1 },
                "parent_field": "account_id", "parent_key": parent_key } ]
        })
    };
    let codes = |v: &Value| -> Vec<(String, String)> {
        match parse_model(&v.to_string()) {
            Ok(_) => Vec::new(),
            Err(e) => e
                .errors
                .iter()
                .map(|e| (e.path.clone(), e.code.to_string()))
                .collect(),
        }
    };
    assert_eq!(codes(&model("account_id")), []);
    assert_eq!(codes(&model("_id")), []);
    let at = "$.relationships[0].parent_key".to_string();
    assert_eq!(
        codes(&model("nope")),
        [(at.clone(), "no-such-field".into())]
    );
    assert_eq!(codes(&model("products")), [(at, "bad-key-type".into())]);
    // Renaming the key field renames the key.
    let mut v = model("account_id");
    rename_field(&mut v, "account", "account_id", "number").unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(v["relationships"][0]["parent_key"], "number");
    assert_eq!(codes(&v), []);
}

#[test]
fn a_map_is_laid_out_as_an_object_keyed_by_its_keys_and_the_array_form_stays_offered() {
    use squillion::model::design::FieldPattern;
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let inputs = files(
        &fixture(),
        &["accounts.json", "customers.json", "transactions.json"],
    );
    let (_, model) = infer(&inputs, dir.path());
    // The model's own design names the map.
    assert!(
        model.design.fields.iter().any(|p| matches!(p,
            FieldPattern::Map { entity, relationship, key }
                if entity == "customers" && relationship == "tier_and_details" && key == "key")),
        "{:?}",
        model.design.fields
    );
    let customers = |m: &squillion::model::Model| {
        let layout = layout_model(m).unwrap_or_else(|e| panic!("{e}"));
        let coll = layout
            .collections
            .iter()
            .find(|c| c.name == "customers")
            .cloned()
            .unwrap_or_else(|| panic!("customers"));
        (layout, coll)
    };
    let (layout, coll) = customers(&model);
    let map = coll.shapes[0]
        .fields
        .get("tier_and_details")
        .cloned()
        .unwrap_or_else(|| panic!("no tier_and_details"));
    assert!(map.is_map(), "{map:?}");
    assert!(map.fields.get("key").is_none() && map.fields.get("tier").is_some());
    // Generated as the data is: an object whose field names are 32-character keys.
    let data = squillion::generate::generate(&model, &layout);
    let docs = &data
        .collection("customers")
        .unwrap_or_else(|| panic!("customers"))
        .documents;
    let mut entries = 0;
    for d in docs {
        let m = d
            .get_document("tier_and_details")
            .unwrap_or_else(|e| panic!("{e}: {d}"));
        for (k, v) in m {
            assert_eq!(k.len(), 32, "{k}");
            assert!(
                matches!(v, bson::Bson::Document(e) if e.contains_key("tier")),
                "{v}"
            );
            entries += 1;
        }
    }
    assert!(entries > docs.len(), "{entries} entries");
    // Without the pattern (the advisor's other option), the array form: 11 bytes more per
    // entry (its index and the key's name and length prefix, 32-character keys).
    let mut array = model.clone();
    array
        .design
        .fields
        .retain(|p| !matches!(p, FieldPattern::Map { .. }));
    let (_, array_coll) = customers(&array);
    let f = array_coll.shapes[0]
        .fields
        .get("tier_and_details")
        .cloned()
        .unwrap_or_else(|| panic!("no array"));
    assert_eq!(f.ty, squillion::model::field::BsonType::Array);
    let mean = |c: &squillion::design::Collection| {
        collection_stats(c, &model.start_date).shapes[0]
            .average
            .bytes
    };
    let (as_map, as_array) = (mean(&coll), mean(&array_coll));
    let entries_mean = model
        .relationships
        .iter()
        .find(|r| r.name == "tier_and_details")
        .map_or(0.0, |r| r.cardinality.mean());
    eprintln!("customers' average: map {as_map} B, array {as_array} B, {entries_mean:.2} entries");
    let per_entry = (as_array as f64 - as_map as f64) / entries_mean;
    assert!(
        (per_entry - 11.0).abs() < 1.0,
        "{per_entry} bytes per entry"
    );
    // The advisor's space offers both forms of the map.
    let space = squillion::advise::space::space(&model);
    assert!(
        space.dimensions.iter().any(|d| matches!(d,
            squillion::advise::space::Dimension::Field { entity, field, options }
                if entity == "customers" && field == "tier_and_details" && options.len() == 2
                    && options[0].is_none())),
        "{:?}",
        space.dimensions
    );
    // A map's key must be a string field of the child.
    let mut bad = serde_json::to_value(&model).unwrap_or_else(|e| panic!("{e}"));
    for p in bad["design"]["fields"].as_array_mut().into_iter().flatten() {
        if p["pattern"] == "map" {
            p["key"] = serde_json::json!("active");
        }
    }
    let errors = squillion::model::parse_model(&bad.to_string())
        .err()
        .map(|e| {
            e.errors
                .iter()
                .map(|e| e.code.to_string())
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    assert_eq!(errors, ["map-key-not-string"]);
}
