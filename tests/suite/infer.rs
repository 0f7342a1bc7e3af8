//! `squillion infer`: models inferred from what `squillion export` wrote, checked against the
//! exported documents (names, types, presence, average BSON size) and evaluated; malformed
//! lines reported and skipped.
#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use squillion::design::layout_model;
use squillion::model::design::Strategy;
use squillion::model::{parse_model, BsonType, Distribution, Model};
use squillion::stats::collection_stats;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_squillion"))
}

fn run(cmd: &mut Command) -> Output {
    cmd.output().unwrap_or_else(|e| panic!("{e}"))
}

/// Exports preset `name` (its own design, its sample) into `dir`.
fn export(name: &str, dir: &Path) {
    let out = run(bin().args(["export", "--preset", name, "--out"]).arg(dir));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs `squillion infer ARGS --out model.json` and returns the model, parsed back.
fn infer(args: &[&str], dir: &Path) -> (Model, Output) {
    let path = dir.join("inferred-model.json");
    let out = run(bin().arg("infer").args(args).arg("--out").arg(&path));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
    let model = parse_model(&text).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    (model, out)
}

/// Returns the mean exact BSON size of the documents of an exported file.
fn exported_average(path: &Path) -> f64 {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{e}"));
    let sizes: Vec<u64> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let doc = squillion::ejson::parse_document(l).unwrap_or_else(|e| panic!("{e}"));
            squillion::size::document_size(&doc)
        })
        .collect();
    assert!(!sizes.is_empty());
    sizes.iter().sum::<u64>() as f64 / sizes.len() as f64
}

/// Returns the average document size of `collection` in the model's own layout.
fn inferred_average(model: &Model, collection: &str) -> f64 {
    let shapes = shape_averages(model, collection);
    assert_eq!(shapes.len(), 1);
    shapes[0].1
}

/// Returns each document shape of `collection` in the model's own layout (a polymorphic
/// collection's kinds) with its average size.
fn shape_averages(model: &Model, collection: &str) -> Vec<(String, f64)> {
    let layout = layout_model(model).unwrap_or_else(|e| panic!("{e}"));
    let c = layout
        .collections
        .iter()
        .find(|c| c.name == collection)
        .unwrap_or_else(|| panic!("no collection {collection}"));
    let stats = collection_stats(c, &model.start_date);
    stats
        .shapes
        .iter()
        .map(|s| (s.label.clone(), s.average.bytes as f64))
        .collect()
}

/// Asserts that `squillion eval` accepts the model file under `design` (default: its own).
fn evaluates(dir: &Path, design: Option<&str>) {
    let mut cmd = bin();
    cmd.arg("eval")
        .arg(dir.join("inferred-model.json"))
        .arg("--json");
    if let Some(d) = design {
        cmd.args(["--design", d]);
    }
    let out = run(&mut cmd);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
    assert!(v["collections"].is_array(), "{v}");
}

fn within(inferred: f64, exported: f64, share: f64) {
    let off = (inferred / exported - 1.0).abs();
    eprintln!(
        "average size: inferred {inferred} B, exported {exported:.1} B ({:+.2}%)",
        (inferred / exported - 1.0) * 100.0
    );
    assert!(
        off < share,
        "inferred {inferred} vs exported {exported}: {:.2}% off",
        off * 100.0
    );
}

fn field<'a>(model: &'a Model, entity: &str, name: &str) -> &'a squillion::model::Field {
    let e = model
        .entities
        .iter()
        .find(|e| e.name == entity)
        .unwrap_or_else(|| panic!("{entity}"));
    e.fields
        .get(name)
        .unwrap_or_else(|| panic!("{entity}.{name}"))
}

#[test]
fn person_addresses_round_trips_names_types_and_sizes() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    export("person-addresses", dir.path());
    let file = dir.path().join("person.json");
    let (model, out) = infer(&[file.to_str().unwrap_or_default()], dir.path());
    // The embedded addresses become a child entity of their own.
    let names: Vec<_> = model.entities.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["person", "address"]);
    let fields: Vec<_> = model.entities[0]
        .fields
        .iter()
        .map(|(n, _)| n.as_str())
        .collect();
    assert_eq!(fields, ["_id", "name", "ssn"]);
    assert_eq!(field(&model, "person", "_id").ty, BsonType::ObjectId);
    let ssn = field(&model, "person", "ssn");
    assert_eq!(
        (ssn.ty, ssn.length.clone()),
        (BsonType::String, Some(Distribution::fixed(11.0)))
    );
    let sub: Vec<_> = model.entities[1]
        .fields
        .iter()
        .map(|(n, _)| n.as_str())
        .collect();
    assert_eq!(sub, ["street", "city", "cc"]);
    assert!(model
        .entities
        .iter()
        .all(|e| e.fields.iter().all(|(_, f)| f.presence.is_none())));
    assert_eq!(model.entities[0].count, 500.0);

    // One-to-many, embedded as in the data, 1 to 4 addresses per person as the preset says.
    assert_eq!(model.relationships.len(), 1);
    let r = &model.relationships[0];
    assert_eq!(
        (r.name.as_str(), r.parent.as_str(), r.child.as_str()),
        ("addresses", "person", "address")
    );
    assert!(!r.many_to_many);
    assert_eq!(r.array_field(), "addresses");
    assert_eq!(
        model.design.relationships.get("addresses"),
        Some(&Strategy::Embed)
    );
    let preset = squillion::presets::find("person-addresses")
        .unwrap_or_else(|e| panic!("{e}"))
        .model()
        .unwrap_or_else(|e| panic!("{e:?}"));
    let stated = &preset.relationships[0].cardinality;
    let found = &r.cardinality;
    eprintln!("children per person: preset {stated:?}, inferred {found:?}");
    assert_eq!(
        (found.min(), found.p50(), found.max()),
        (stated.min(), stated.p50(), stated.max())
    );
    assert_eq!(r.cardinality, Distribution::Uniform { min: 1.0, max: 4.0 });
    // 500 people with 2.5 addresses on average: about 1,250 addresses.
    let addresses = model.entities[1].count;
    assert!((1100.0..1400.0).contains(&addresses), "{addresses}");

    within(
        inferred_average(&model, "person"),
        exported_average(&file),
        0.05,
    );
    evaluates(dir.path(), None);
    evaluates(dir.path(), Some("normalized"));
    evaluates(dir.path(), Some("custom"));
    let summary = String::from_utf8_lossy(&out.stdout);
    assert!(summary.contains("person: 500 documents read"), "{summary}");
    assert!(
        summary.contains("relationship addresses: person → address"),
        "{summary}"
    );
    assert!(summary.contains("0 lines skipped"), "{summary}");
}

/// Normalized, the addresses get their own collection with a reference to their person.
#[test]
fn inferred_children_move_out_under_normalized() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    export("person-addresses", dir.path());
    let file = dir.path().join("person.json");
    let (model, _) = infer(&[file.to_str().unwrap_or_default()], dir.path());
    let out = run(bin()
        .arg("eval")
        .arg(dir.path().join("inferred-model.json"))
        .args(["--design", "normalized", "--json"]));
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<_> = v["collections"]
        .as_array()
        .unwrap_or_else(|| panic!("{v}"))
        .iter()
        .filter_map(|c| c["name"].as_str())
        .collect();
    assert_eq!(names, ["person", "address"], "{v}");
    assert_eq!(model.relationships[0].parent_ref(), "personId");
}

#[test]
fn optional_fields_counts_and_collection_names() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    export("message-attachments", dir.path());
    let message = dir.path().join("message.json");
    let conversation = dir.path().join("conversation.json");
    let conv_arg = format!("{}:conversations", conversation.display());
    let (model, _) = infer(
        &[
            message.to_str().unwrap_or_default(),
            &conv_arg,
            "--count",
            "message=1000000000",
        ],
        dir.path(),
    );
    let names: Vec<_> = model.entities.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["message", "conversations"]);
    assert_eq!(model.entities[0].count, 1e9);
    assert_eq!(model.entities[1].count, 500.0);
    // The preset's attachment is present 30% of the time; GridFS keeps its file id instead.
    let file_id = field(&model, "message", "attachmentFileId");
    assert_eq!(file_id.ty, BsonType::ObjectId);
    let p = file_id.presence.unwrap_or(1.0);
    assert!((0.2..0.4).contains(&p), "{p}");
    let at = field(&model, "message", "at");
    assert_eq!(at.ty, BsonType::Date);
    assert!(
        at.from.as_deref().is_some_and(|d| d.starts_with("2024")),
        "{at:?}"
    );
    within(
        inferred_average(&model, "message"),
        exported_average(&message),
        0.05,
    );
    within(
        inferred_average(&model, "conversations"),
        exported_average(&conversation),
        0.05,
    );
    evaluates(dir.path(), None);
}

#[test]
fn orders_with_decimals_and_sub_documents_keep_their_size() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    export("shopping-cart", dir.path());
    let order = dir.path().join("order.json");
    let (model, _) = infer(&[order.to_str().unwrap_or_default()], dir.path());
    // The order's items become an entity embedded in it.
    let r = &model.relationships[0];
    assert_eq!(
        (r.name.as_str(), r.parent.as_str(), r.child.as_str()),
        ("items", "order", "item")
    );
    assert_eq!(field(&model, "item", "price").ty, BsonType::Decimal);
    assert_eq!(field(&model, "item", "qty").ty, BsonType::Int);
    assert_eq!(
        field(&model, "order", "customer_address").ty,
        BsonType::Object
    );
    within(
        inferred_average(&model, "order"),
        exported_average(&order),
        0.05,
    );
    evaluates(dir.path(), None);

    // The same documents in relaxed Extended JSON (as `mongoexport --jsonFormat relaxed`
    // writes them) give the same model.
    let text = std::fs::read_to_string(&order).unwrap_or_else(|e| panic!("{e}"));
    let relaxed: String = text
        .lines()
        .map(|l| {
            let doc = squillion::ejson::parse_document(l).unwrap_or_else(|e| panic!("{e}"));
            squillion::ejson::to_relaxed_ejson(&doc) + "\n"
        })
        .collect();
    assert!(relaxed != text, "relaxed differs from canonical");
    let relaxed_file = dir.path().join("relaxed.json");
    std::fs::write(&relaxed_file, relaxed).unwrap_or_else(|e| panic!("{e}"));
    let spec = format!("{}:order", relaxed_file.display());
    let (again, _) = infer(&[&spec], dir.path());
    assert_eq!(again.entities, model.entities);
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap_or_else(|e| panic!("{e}"));
    p
}

#[test]
fn malformed_lines_are_reported_and_skipped() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let f = write(
        dir.path(),
        "users.json",
        "{\"_id\": {\"$oid\": \"670a27a15762a4e400000000\"}, \"n\": 1, \"s\": \"ab\"}\n\
         {\"_id\": {\"$oid\": \"670a27a15762a4e400000001\"}, \"n\": 2}\n\
         {\"_id\": {\"$oid\": \"670a27a15762a4e40000\"}, \"n\": 3}\n\
         \n\
         {\"_id\": {\"$oid\": \"670a27a15762a4e400000003\"}, \"n\": {\"$numberLong\": \"4\"}, \"s\": \"abcd\"}\n\
         {\"_id\": {\"$oid\": \"670a27a15762a4e400000004\"}, \"n\": 5, \"s\"\n",
    );
    let path = dir.path().join("m.json");
    let out = run(bin().arg("infer").arg(&f).arg("--out").arg(&path));
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 3: column"), "{err}");
    assert!(err.contains("line 6: column"), "{err}");
    assert!(!err.contains("line 4"), "{err}");
    let summary = String::from_utf8_lossy(&out.stdout);
    assert!(summary.contains("users: 3 documents read"), "{summary}");
    assert!(summary.contains("2 lines skipped"), "{summary}");
    // n: two ints and a long; s in two documents of three.
    assert!(summary.contains("types int 66.7%, long 33.3%"), "{summary}");
    let model = parse_model(&std::fs::read_to_string(&path).unwrap_or_default())
        .unwrap_or_else(|e| panic!("{e:?}"));
    let s = field(&model, "users", "s");
    // 2 of 3, at the three significant digits a computed parameter keeps.
    assert_eq!(s.presence, Some(0.667), "{s:?}");
    assert_eq!(field(&model, "users", "n").ty, BsonType::Int);

    // --json: the skipped lines with their numbers, and the model.
    let out = run(bin().arg("infer").arg(&f).arg("--json"));
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(v["report"]["skipped_lines"], 2);
    assert_eq!(v["report"]["skipped"][0]["line"], 3);
    assert_eq!(v["model"]["entities"][0]["name"], "users");
}

#[test]
fn a_json_array_is_read_too() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let one_line = write(
        dir.path(),
        "a.json",
        "[{\"x\": 1},{\"x\": 2},{\"x\": \"three\"}]\n",
    );
    let spread = write(
        dir.path(),
        "b.json",
        "[\n{\"x\": 1},\n{\"x\": 2},\n{\"y\": true}\n]\n",
    );
    let (model, _) = infer(
        &[
            one_line.to_str().unwrap_or_default(),
            spread.to_str().unwrap_or_default(),
        ],
        dir.path(),
    );
    assert_eq!(model.entities[0].name, "a");
    assert_eq!(model.entities[1].name, "b");
    assert_eq!(field(&model, "a", "x").ty, BsonType::Int);
    let y = field(&model, "b", "y");
    // 1 of 3, at the three significant digits a computed parameter keeps.
    assert_eq!((y.ty, y.presence), (BsonType::Bool, Some(0.333)));
}

#[test]
fn nothing_readable_exits_1_and_bad_usage_exits_2() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let bad = write(dir.path(), "bad.json", "not json\n{\"a\": \n");
    let out = run(bin().arg("infer").arg(&bad));
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let good = write(dir.path(), "good.json", "{\"a\": 1}\n");
    let out = run(bin().arg("infer").arg(&good).args(["--count", "nope=5"]));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("\"nope\""));
    let out = run(bin().arg("infer").arg(dir.path().join("missing.json")));
    assert_eq!(out.status.code(), Some(2));
}

/// Writes `products.json`: 60 books (`isbn`, `pages`) and 40 films (`runtime`, `director`)
/// told apart by `type`, all with `title`, `price` and a `status` of three values that
/// selects no fields.
fn media_lines(dir: &Path) -> PathBuf {
    let lines: Vec<String> = (0..100)
        .map(|i| {
            let status = ["new", "listed", "sold"][i % 3];
            let head = format!(
                "{{\"_id\":{{\"$oid\":\"{:024x}\"}},\"type\":\"{}\",\"title\":\"Title {i}\",\"price\":{}.5,\"status\":\"{status}\"",
                0x6500_0000_u64 + i as u64,
                if i % 5 < 3 { "book" } else { "film" },
                10 + i % 7
            );
            if i % 5 < 3 {
                format!("{head},\"isbn\":\"978-{i:010}\",\"pages\":{}}}", 100 + i)
            } else {
                format!(
                    "{head},\"runtime\":{},\"director\":\"Director {}\"}}",
                    80 + i,
                    i % 9
                )
            }
        })
        .collect();
    let path = dir.join("products.json");
    std::fs::write(&path, lines.join("\n")).unwrap_or_else(|e| panic!("{e}"));
    path
}

#[test]
fn a_discriminator_that_selects_fields_is_reported_as_polymorphic() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let input = media_lines(dir.path());
    let input = input.to_string_lossy();
    let (_, out) = infer(&[&input, "--json"], dir.path());
    let report: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
    let p = &report["report"]["entities"][0]["polymorphic"];
    assert_eq!(p["field"], "type", "{report:#}");
    let variants: Vec<(String, f64, Vec<String>)> = p["variants"]
        .as_array()
        .unwrap_or_else(|| panic!("no variants: {p:#}"))
        .iter()
        .map(|v| {
            (
                v["value"].as_str().unwrap_or("").to_string(),
                v["share"].as_f64().unwrap_or(0.0),
                serde_json::from_value(v["fields"].clone()).unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        variants,
        [
            ("book".into(), 0.6, vec!["isbn".into(), "pages".into()]),
            (
                "film".into(),
                0.4,
                vec!["runtime".into(), "director".into()]
            ),
        ]
    );
    // The human summary (standard output beside `--out`) says it under the collection.
    let (_, out) = infer(&[&input], dir.path());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "polymorphic: documents of several kinds told apart by type: book 60.0% (isbn, pages); film 40.0% (runtime, director)"
        ),
        "{text}"
    );
}

/// Returns the mean pymongo size of the documents on `lines` whose `field` is `value`.
fn peer_mean(lines: &str, field: &str, value: &str) -> f64 {
    let kind: String = lines
        .lines()
        .filter(|l| l.contains(&format!("\"{field}\":\"{value}\"")))
        .map(|l| {
            let doc = squillion::ejson::parse_document(l).unwrap_or_else(|e| panic!("{e}"));
            bson::Bson::Document(doc)
                .into_canonical_extjson()
                .to_string()
                + "\n"
        })
        .collect();
    let sizes = crate::common::pymongo::sizes_of_lines(&kind);
    assert!(!sizes.is_empty(), "no {value}");
    sizes.iter().sum::<u64>() as f64 / sizes.len() as f64
}

#[test]
fn a_polymorphic_collection_becomes_one_entity_per_kind_in_one_collection() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let input = media_lines(dir.path());
    let lines = std::fs::read_to_string(&input).unwrap_or_else(|e| panic!("{e}"));
    let (model, _) = infer(&[&input.to_string_lossy()], dir.path());
    let names: Vec<(&str, f64)> = model
        .entities
        .iter()
        .map(|e| (e.name.as_str(), e.count))
        .collect();
    assert_eq!(names, [("book", 60.0), ("film", 40.0)]);
    assert_eq!(
        model.design.polymorphic.get("products"),
        Some(&vec!["book".to_string(), "film".to_string()])
    );
    // Each kind has its own fields, always present among its documents; the discriminator
    // `type` is the pattern's tag, not a field of the kinds.
    let book = &model.entities[0].fields;
    assert!(book.get("isbn").is_some_and(|f| f.presence.is_none()));
    assert!(book.get("runtime").is_none() && book.get("type").is_none());
    let film = &model.entities[1].fields;
    assert!(film.get("director").is_some_and(|f| f.presence.is_none()));
    assert!(film.get("pages").is_none());
    // Each kind's documents, laid out in the one collection, are the size pymongo gives
    // that kind's documents.
    let shapes = shape_averages(&model, "products");
    assert_eq!(shapes.len(), 2);
    for (kind, average) in shapes {
        within(average, peer_mean(&lines, "type", &kind), 0.02);
    }
    evaluates(dir.path(), None);
}

#[test]
fn a_kind_owns_the_relationship_only_its_documents_hold() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    // The discriminator is `kind`, and only films have a cast.
    let lines: Vec<String> = (0..60)
        .map(|i| {
            let id = format!("{{\"$oid\":\"{:024x}\"}}", 0x6600_0000_u64 + i);
            if i % 2 == 0 {
                format!("{{\"_id\":{id},\"kind\":\"book\",\"title\":\"T{i}\",\"isbn\":\"978-{i:010}\"}}")
            } else {
                format!(
                    "{{\"_id\":{id},\"kind\":\"film\",\"title\":\"T{i}\",\"cast\":[{{\"name\":\"A\",\"role\":\"lead\"}},{{\"name\":\"B\",\"role\":\"extra\"}}]}}"
                )
            }
        })
        .collect();
    let path = write(dir.path(), "items.json", &lines.join("\n"));
    let (model, out) = infer(&[&path.to_string_lossy()], dir.path());
    let cast = model
        .relationships
        .iter()
        .find(|r| r.name == "cast")
        .unwrap_or_else(|| panic!("no cast: {:?}", model.relationships));
    assert_eq!(cast.parent, "film");
    // Counted over the films alone: every film has its two actors (over every document, half
    // of them books without a cast, it was 0 to 2).
    assert_eq!(cast.cardinality, Distribution::fixed(2.0));
    // A discriminator not named `type` stays a field of each kind, with the kind's value.
    let film = model.entities.iter().find(|e| e.name == "film");
    let kind = film.and_then(|e| e.fields.get("kind"));
    assert_eq!(
        kind.map(|f| f.values.clone()),
        Some(vec!["film".to_string()])
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("laid out as one entity per kind (book, film)"),
        "{text}"
    );
    evaluates(dir.path(), None);
}

#[test]
fn a_polymorphic_collection_other_collections_reference_stays_one_entity() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let input = media_lines(dir.path());
    let orders: Vec<String> = (0..50)
        .map(|i| {
            format!(
                "{{\"_id\":{{\"$oid\":\"{:024x}\"}},\"productsId\":{{\"$oid\":\"{:024x}\"}},\"qty\":{}}}",
                0x6700_0000_u64 + i,
                0x6500_0000_u64 + i % 100,
                1 + i % 3
            )
        })
        .collect();
    let orders = write(dir.path(), "orders.json", &orders.join("\n"));
    let path = dir.path().join("report.json");
    let out = run(bin()
        .args(["infer", "--json"])
        .arg(&input)
        .arg(&orders)
        .arg("--out")
        .arg(&path));
    assert_eq!(out.status.code(), Some(0));
    let report: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
    let products = &report["report"]["entities"][0];
    assert_eq!(products["name"], "products", "{report:#}");
    assert_eq!(
        products["polymorphic"]["kept_whole"]["reason"], "referenced",
        "{products:#}"
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
    let model = parse_model(&text).unwrap_or_else(|e| panic!("{e:?}"));
    assert!(model.entities.iter().any(|e| e.name == "products"));
    assert!(model.design.polymorphic.is_empty());
}
