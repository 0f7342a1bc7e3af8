//! One small model per strategy, with layouts and exact sizes computed by hand, checked both
//! against the arithmetic and against the encoded size of generated documents.
//!
//! Base: entity `p` (count 10) with `n: string(3)`; entity `c` (count 20) with `v: int`;
//! relationship `r` p → c with exactly 2 children. Sizes by hand: `_id` element 1+3+1+12 = 17;
//! `n` 1+1+1+(4+3+1) = 11; `v` 1+1+1+4 = 7; an ObjectId array element 1+digits+1+12.
#![cfg(not(target_arch = "wasm32"))]

use squillion::arith::{document_size_of, At};
use squillion::design::{layout_model, Layout};
use squillion::generate::generate;
use squillion::model::{parse_model, Model};
use squillion::size::document_size;
use squillion::stats::collection_stats;

fn model(strategy: &str, card: u64, m2m: bool, patterns: &str) -> Model {
    let text = format!(
        r#"{{
        "entities": [
          {{ "name": "p", "count": 10, "fields": {{ "n": {{ "type": "string", "length": {{ "shape": "fixed", "value": 3 }} }} }} }},
          {{ "name": "c", "count": 20, "fields": {{ "v": {{ "type": "int" }} }} }}
        ],
        "relationships": [
          {{ "name": "r", "parent": "p", "child": "c", "many_to_many": {m2m}, "cardinality": {{ "shape": "fixed", "value": {card} }} }}
        ],
        "design": {{ "relationships": {{ "r": {strategy} }}, "fields": [{patterns}] }}
    }}"#
    );
    parse_model(&text).unwrap_or_else(|e| panic!("{e}"))
}

fn lay(m: &Model) -> Layout {
    layout_model(m).unwrap_or_else(|e| panic!("{e}"))
}

/// Asserts that collection `coll`, shape `label`, has exactly `bytes` per document by the
/// arithmetic and that every generated document of that shape has that size.
fn assert_size(m: &Model, l: &Layout, coll: &str, label: &str, bytes: u64) {
    let c = l
        .collection(coll)
        .unwrap_or_else(|| panic!("no collection {coll}: {:?}", names(l)));
    let s = c
        .shape(label)
        .unwrap_or_else(|| panic!("no shape {label} in {coll}"));
    let size = document_size_of(&s.fields, At::Mean);
    assert!(size.exact, "{coll}/{label} not exact");
    assert_eq!(size.whole(), bytes, "{coll}/{label} arithmetic");
    let data = generate(m, l);
    let docs = data
        .collection(coll)
        .map(|g| g.documents.clone())
        .unwrap_or_default();
    assert!(!docs.is_empty());
    let shaped: Vec<_> = docs
        .iter()
        .filter(|d| {
            d.keys().cloned().collect::<Vec<_>>()
                == s.fields.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>()
        })
        .collect();
    assert!(!shaped.is_empty(), "no generated {coll}/{label}");
    for d in shaped {
        assert_eq!(document_size(d), bytes, "{coll}/{label} generated {d}");
    }
}

fn names(l: &Layout) -> Vec<String> {
    l.collections.iter().map(|c| c.name.clone()).collect()
}

#[test]
fn embed() {
    let m = model(r#"{ "strategy": "embed" }"#, 2, false, "");
    let l = lay(&m);
    assert_eq!(names(&l), ["p"]);
    // r: [{v}, {v}]: each sub-document 4+7+1 = 12, element 1+1+1+12 = 15; array 4+30+1 = 35;
    // field 1+1+1+35 = 38. Document 4+17+11+38+1 = 71.
    assert_size(&m, &l, "p", "p", 71);
}

#[test]
fn embed_subset() {
    let m = model(r#"{ "strategy": "embed_subset", "k": 1 }"#, 2, false, "");
    let l = lay(&m);
    assert_eq!(names(&l), ["p", "c"]);
    // One embedded child, a copy keeping the child's `_id`: {_id, v} 4+17+7+1 = 29, its
    // element 29+3 = 32, array 4+32+1 = 37, field 40: 4+17+11+40+1 = 73.
    assert_size(&m, &l, "p", "p", 73);
    // c: {_id, v, pId}: 4+17+7+17+1 = 46.
    assert_size(&m, &l, "c", "c", 46);
    let cmds: Vec<String> = l
        .plan
        .units
        .iter()
        .flat_map(|u| u.commands.iter().map(|c| c.mongosh()))
        .collect();
    assert!(cmds.is_empty());
}

#[test]
fn extended_reference() {
    let m = model(
        r#"{ "strategy": "extended_reference", "copy": ["v"] }"#,
        2,
        true,
        "",
    );
    let l = lay(&m);
    // r: [{_id, v} × 2]: sub-document 4+17+7+1 = 29, element 32; array 5+64 = 69; field 72.
    assert_size(&m, &l, "p", "p", 4 + 17 + 11 + 72 + 1);
    assert_size(&m, &l, "c", "c", 29);
    let copied = &l
        .collection("p")
        .and_then(|c| c.shape("p"))
        .map(|s| s.copied.clone())
        .unwrap_or_default();
    assert_eq!(copied.len(), 1);
    assert_eq!(copied[0].path, "r.v");
}

#[test]
fn reference_in_parent() {
    let m = model(r#"{ "strategy": "reference_in_parent" }"#, 2, false, "");
    let l = lay(&m);
    // r: [oid, oid]: elements 15 each, array 35, field 38: 71.
    assert_size(&m, &l, "p", "p", 71);
    // c: {_id, v}: 4+17+7+1 = 29.
    assert_size(&m, &l, "c", "c", 29);
}

#[test]
fn reference_in_child() {
    let m = model(r#"{ "strategy": "reference_in_child" }"#, 2, false, "");
    let l = lay(&m);
    assert_size(&m, &l, "p", "p", 33);
    assert_size(&m, &l, "c", "c", 46);
}

#[test]
fn reference_in_child_with_copy() {
    let m = model(
        r#"{ "strategy": "reference_in_child", "copy": ["n"] }"#,
        2,
        false,
        "",
    );
    let l = lay(&m);
    // c gets p_n: 1+3+1+(4+3+1) = 13 → 46 + 13 = 59.
    assert_size(&m, &l, "c", "c", 59);
}

#[test]
fn two_way() {
    let m = model(r#"{ "strategy": "two_way" }"#, 2, false, "");
    let l = lay(&m);
    assert_size(&m, &l, "p", "p", 71);
    assert_size(&m, &l, "c", "c", 46);
}

#[test]
fn link_collection() {
    let m = model(r#"{ "strategy": "link_collection" }"#, 2, true, "");
    let l = lay(&m);
    assert_eq!(names(&l), ["p", "c", "r"]);
    // {_id, pId, cId}: 4+17+17+17+1 = 56; 10 parents × 2 = 20 links.
    assert_size(&m, &l, "r", "link", 56);
    assert_eq!(l.collection("r").map(|c| c.count()), Some(20.0));
}

#[test]
fn bucket() {
    let m = model(r#"{ "strategy": "bucket", "size": 50 }"#, 100, false, "");
    let l = lay(&m);
    assert_eq!(names(&l), ["p", "r_buckets"]);
    // {_id, pId, sequence, count, r: [50 × {v}]}: pId 17, sequence 1+8+1+4 = 14, count 11;
    // array 5 + 50×(2+12) + (10×1 + 40×2) = 795, field 798. 4+17+17+14+11+798+1 = 862.
    assert_size(&m, &l, "r_buckets", "bucket", 862);
    // 100 children per parent → 2 buckets each.
    assert_eq!(l.collection("r_buckets").map(|c| c.count()), Some(20.0));
}

#[test]
fn continuation() {
    let m = model(
        r#"{ "strategy": "continuation", "threshold": 1 }"#,
        3,
        true,
        "",
    );
    let l = lay(&m);
    // p: tbc [2 oids] 1+3+1+35 = 40; r [1 oid] 1+1+1+20 = 23: 4+17+11+40+23+1 = 96.
    assert_size(&m, &l, "p", "p", 96);
    // continuation {_id, r: [1 oid]}: 4+17+23+1 = 45; 2 per parent → 20.
    assert_size(&m, &l, "p", "r continuation", 45);
    let c = l
        .collection("p")
        .and_then(|c| c.shape("r continuation"))
        .map(|s| s.count);
    assert_eq!(c, Some(20.0));
}

fn feed_model(strategy: &str) -> Model {
    let text = format!(
        r#"{{
        "entities": [
          {{ "name": "u", "count": 10, "fields": {{}} }},
          {{ "name": "a", "count": 100, "fields": {{ "t": {{ "type": "int" }} }} }}
        ],
        "relationships": [
          {{ "name": "f", "parent": "u", "child": "u", "many_to_many": true, "feed": "a", "cardinality": {{ "shape": "fixed", "value": 2 }} }}
        ],
        "workload": [
          {{ "name": "post", "rate_per_sec": 1, "steps": [ {{ "op": "post_feed", "relationship": "f" }} ] }},
          {{ "name": "read", "rate_per_sec": 10, "steps": [ {{ "op": "read_feed", "relationship": "f", "page_size": 2 }} ] }}
        ],
        "design": {{ "relationships": {{ "f": {strategy} }} }}
    }}"#
    );
    parse_model(&text).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn fan_out_on_read() {
    let m = feed_model(r#"{ "strategy": "fan_out_on_read" }"#);
    let l = lay(&m);
    // {_id, author, t, to: [2 oids]}: author 1+6+1+12 = 20, to 1+2+1+35 = 39: 4+17+20+7+39+1 = 88.
    assert_size(&m, &l, "a", "feed item", 88);
    // The reader wants the items, not everyone they were addressed to.
    let read = &l.plan.units[1].commands[0];
    assert_eq!(
        read.mongosh(),
        "db.a.find({ to: me._id }, { to: 0 }).sort({ _id: -1 }).limit(2)"
    );
}

#[test]
fn fan_out_on_write() {
    let m = feed_model(r#"{ "strategy": "fan_out_on_write" }"#);
    let l = lay(&m);
    // {_id, owner, author, t}: 4+17+19+20+7+1 = 68; 100 items × 2 followers.
    assert_size(&m, &l, "a", "feed copy", 68);
    assert_eq!(l.collection("a").map(|c| c.count()), Some(200.0));
    assert_eq!(l.plan.units[0].commands[0].fan_out.as_deref(), Some("f"));
}

#[test]
fn bucketed_fan_out() {
    let m = feed_model(r#"{ "strategy": "bucketed_fan_out", "size": 2 }"#);
    let l = lay(&m);
    // activities: [2 × {author, t}]: sub 4+20+7+1 = 32, element 35, array 75, field 1+10+1+75 = 87.
    // 4+17+19+14+11+87+1 = 153.
    assert_size(&m, &l, "a_buckets", "feed bucket", 153);
    // A page of 2 from buckets of 2: the newest bucket, then 1 bucket before it.
    let read = &l.plan.units[1].commands;
    assert_eq!(read.len(), 2);
    assert_eq!(read[0].limit, Some(1));
    assert_eq!(read[1].limit, Some(1));
}

#[test]
fn preallocated_and_computed_fields() {
    let m = model(
        r#"{ "strategy": "reference_in_child" }"#,
        2,
        false,
        r#"{ "pattern": "preallocated", "entity": "p", "field": "minute", "slots": 3 },
           { "pattern": "computed", "entity": "p", "field": "total", "relationship": "r", "sum": "v" }"#,
    );
    let l = lay(&m);
    // minute: {"0": 0, "1": 0, "2": 0}: 4 + 3×7 + 1 = 26, field 1+6+1+26 = 34; total int 1+5+1+4 = 11.
    assert_size(&m, &l, "p", "p", 33 + 34 + 11);
    let w = squillion::warning::check(&m, &l);
    assert!(w.iter().any(|w| w.code == "MMAPV1_PREALLOCATION"));
}

#[test]
fn attribute_forms() {
    let text = |form: &str| {
        format!(
            r#"{{ "entities": [ {{ "name": "s", "count": 100, "fields": {{
              "prices": {{ "type": "array", "items": "object", "count": {{ "shape": "fixed", "value": 3 }}, "fields": {{
                "channel": {{ "type": "string", "kind": "enum", "values": ["web", "app", "box"] }},
                "price": {{ "type": "int" }} }} }} }} }} ],
              "design": {{ "fields": [ {{ "pattern": "attribute", "entity": "s", "field": "prices", "form": "{form}", "key": "channel", "value": "price" }} ] }} }}"#
        )
    };
    // key_value: [{channel: "abc", price}] sub 4 + (1+7+1+8) + (1+5+1+4) + 1 = 33, element 36,
    // array 5 + 108 = 113, field 1+6+1+113 = 121: 4+17+121+1 = 143.
    let m = parse_model(&text("key_value")).unwrap_or_else(|e| panic!("{e}"));
    assert_size(&m, &lay(&m), "s", "s", 143);
    // keyed: {web: int, app: int, box: int}: 4 + 3×(1+3+1+4) + 1 = 32, field 40: 4+17+40+1 = 62.
    let m = parse_model(&text("keyed")).unwrap_or_else(|e| panic!("{e}"));
    assert_size(&m, &lay(&m), "s", "s", 62);
    assert!(squillion::warning::check(&m, &lay(&m))
        .iter()
        .any(|w| w.code == "KEYED_ATTRIBUTES"));
    // flattened: {_id, channel, price} rows: 4+17+17+11+1 = 50, 3 per showing.
    let m = parse_model(&text("flattened")).unwrap_or_else(|e| panic!("{e}"));
    let l = lay(&m);
    assert_size(&m, &l, "s", "s", 50);
    assert_eq!(l.collection("s").map(|c| c.count()), Some(300.0));
}

#[test]
fn named_designs_choose_as_documented() {
    use squillion::design::{layout_named, DesignName, Strategy};
    let m = model(r#"{ "strategy": "embed" }"#, 2, false, "");
    let s = |n| {
        layout_named(&m, n)
            .ok()
            .and_then(|l| l.strategy("r").cloned())
    };
    assert_eq!(
        s(DesignName::Normalized),
        Some(Strategy::ReferenceInChild { copy: vec![] })
    );
    assert_eq!(s(DesignName::Denormalized), Some(Strategy::Embed));
    assert_eq!(
        s(DesignName::Bucketed),
        Some(Strategy::ReferenceInChild { copy: vec![] })
    );
    let m2 = model(r#"{ "strategy": "embed" }"#, 2, true, "");
    let s2 = |n| {
        layout_named(&m2, n)
            .ok()
            .and_then(|l| l.strategy("r").cloned())
    };
    assert_eq!(s2(DesignName::Normalized), Some(Strategy::LinkCollection));
    assert_eq!(
        s2(DesignName::Denormalized),
        Some(Strategy::ExtendedReference { copy: vec![] })
    );
}

#[test]
fn indexes_follow_the_workload() {
    let text = include_str!("../../presets/image-board.json");
    let m = parse_model(text).unwrap_or_else(|e| panic!("{e}"));
    let l = lay(&m);
    let ix: Vec<String> = l
        .collections
        .iter()
        .flat_map(|c| c.indexes.iter().map(|i| i.mongosh()))
        .collect();
    assert_eq!(ix, ["db.image.createIndex({ threadId: 1, date: 1 })"]);
    let stats = collection_stats(
        l.collection("image").unwrap_or_else(|| panic!("image")),
        &m.start_date,
    );
    assert_eq!(stats.count, 50_000_000.0);
}

/// Children pick their parent in proportion to the parent's cardinality, so the busiest host
/// (generated first, at the distribution's max) owns the most log messages of the sample.
#[test]
fn children_follow_the_cardinality_of_their_parents() {
    use squillion::design::{layout_named, DesignName};
    let m =
        parse_model(include_str!("../../presets/host-logs.json")).unwrap_or_else(|e| panic!("{e}"));
    let l = layout_named(&m, DesignName::Normalized).unwrap_or_else(|e| panic!("{e}"));
    let data = generate(&m, &l);
    let logs = data
        .collection("logmsg")
        .map(|c| c.documents.clone())
        .unwrap_or_default();
    let owned = |i: u64| {
        let id = squillion::generate::entity_oid(m.seed, "host", i);
        logs.iter()
            .filter(|d| d.get_object_id("host").ok() == Some(id))
            .count()
    };
    let busiest = owned(0);
    let hosts = data.collection("host").map_or(0, |c| c.documents.len());
    assert!(
        busiest * hosts > logs.len() * 5,
        "busiest {busiest} of {} over {hosts} hosts",
        logs.len()
    );
}

/// The same model and seed give the same documents.
#[test]
fn generation_is_deterministic() {
    let m = parse_model(include_str!("../../presets/shopping-cart.json"))
        .unwrap_or_else(|e| panic!("{e}"));
    let l = lay(&m);
    assert_eq!(generate(&m, &l), generate(&m, &l));
}

/// The plan of the product-parts model (extended reference with the part name copied) reads as
/// mongosh, one round trip per line.
#[test]
fn plan_displays_as_mongosh() {
    let m = parse_model(include_str!("../../presets/product-parts.json"))
        .unwrap_or_else(|e| panic!("{e}"));
    let l = lay(&m);
    let expected = "\
product page with part names (300/s, 1 round trip(s))
  db.product.find({ catalog_number: product.catalog_number }).limit(1)  // read product by catalog_number
products using a part (10/s, 2 round trip(s))
  db.part.find({ partno: part.partno }, { _id: 1 })  // parts: children with that partno
  db.product.find({ \"parts._id\": { $in: children._id } }, { parts: 0 })  // parts: parents by child partno
rename part (2/s, 2 round trip(s))
  db.part.updateOne({ _id: part._id }, { $set: { name: new.name } })  // update part.name
  db.product.updateMany({ \"parts._id\": part._id }, { $set: { \"parts.$[copy].name\": new.name } }, { arrayFilters: [{ \"copy._id\": part._id }] })  // live copy parts.name via parts
rename product (1/s, 1 round trip(s))
  db.product.updateOne({ _id: product._id }, { $set: { name: new.name } })  // update product.name
";
    assert_eq!(l.plan.to_string(), expected);
    let ix: Vec<String> = l
        .collections
        .iter()
        .flat_map(|c| c.indexes.iter().map(|i| i.mongosh()))
        .collect();
    assert_eq!(
        ix,
        [
            "db.product.createIndex({ catalog_number: 1 })",
            "db.product.createIndex({ \"parts._id\": 1 })",
            "db.part.createIndex({ partno: 1 })"
        ]
    );
}

/// Every id in a parent's `tbc` array names a generated continuation document.
#[test]
fn continuation_ids_resolve() {
    let m = model(
        r#"{ "strategy": "continuation", "threshold": 1 }"#,
        3,
        true,
        "",
    );
    let l = lay(&m);
    let data = generate(&m, &l);
    let docs = data
        .collection("p")
        .map(|c| c.documents.clone())
        .unwrap_or_default();
    let ids: Vec<_> = docs
        .iter()
        .filter_map(|d| d.get_object_id("_id").ok())
        .collect();
    let mut checked = 0;
    for d in &docs {
        if let Ok(tbc) = d.get_array("tbc") {
            for t in tbc {
                assert!(
                    t.as_object_id().is_some_and(|o| ids.contains(&o)),
                    "dangling {t}"
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 20);
}

/// Returns the base model with a workload and a strategy for `r`.
fn with_workload(strategy: &str, m2m: bool, workload: &str) -> Model {
    let text = format!(
        r#"{{
        "entities": [
          {{ "name": "p", "count": 10, "fields": {{ "n": {{ "type": "string", "length": {{ "shape": "fixed", "value": 3 }} }} }} }},
          {{ "name": "c", "count": 20, "fields": {{ "v": {{ "type": "int" }} }} }}
        ],
        "relationships": [
          {{ "name": "r", "parent": "p", "child": "c", "many_to_many": {m2m}, "cardinality": {{ "shape": "fixed", "value": 2 }} }}
        ],
        "workload": {workload},
        "design": {{ "relationships": {{ "r": {strategy} }} }}
    }}"#
    );
    parse_model(&text).unwrap_or_else(|e| panic!("{e}"))
}

fn lines(l: &Layout) -> Vec<Vec<String>> {
    l.plan
        .units
        .iter()
        .map(|u| u.commands.iter().map(|c| c.mongosh()).collect())
        .collect()
}

/// Many-to-many with the reference in the child (the subscriber's `following`): linking an
/// existing child pushes the parent's id into the child's array; it inserts nothing.
#[test]
fn many_to_many_reference_in_child_links_by_push() {
    let m = with_workload(
        r#"{ "strategy": "reference_in_child" }"#,
        true,
        r#"[ { "name": "link", "rate_per_sec": 1, "steps": [ { "op": "insert_child", "relationship": "r" } ] } ]"#,
    );
    assert_eq!(
        lines(&lay(&m)),
        [["db.c.updateOne({ _id: child._id }, { $push: { pId: p._id } })"]]
    );
}

/// A child read that needs only the ids takes them from the references: no join.
#[test]
fn id_only_child_reads_skip_the_join() {
    let units = r#"[
      { "name": "ids", "rate_per_sec": 1, "steps": [ { "op": "read", "entity": "p", "children": [ { "relationship": "r", "fields": ["_id"] } ] } ] },
      { "name": "values", "rate_per_sec": 1, "steps": [ { "op": "read", "entity": "p", "children": [ { "relationship": "r", "fields": ["v"] } ] } ] }
    ]"#;
    let trips = |strategy: &str| -> Vec<usize> {
        lay(&with_workload(strategy, true, units))
            .plan
            .units
            .iter()
            .map(|u| u.queries())
            .collect()
    };
    assert_eq!(trips(r#"{ "strategy": "reference_in_parent" }"#), [1, 2]);
    assert_eq!(trips(r#"{ "strategy": "link_collection" }"#), [2, 3]);
}

/// A list pages by range (after the last value seen) or by skip, with a projection, and a
/// sorted scan of the whole collection gets the sort's index.
#[test]
fn list_pages_by_range_or_by_skip() {
    let m = with_workload(
        r#"{ "strategy": "reference_in_child" }"#,
        false,
        r#"[
          { "name": "newest", "rate_per_sec": 1, "steps": [ { "op": "list", "entity": "c", "sort": { "field": "v", "order": -1 }, "limit": 5, "fields": ["v"] } ] },
          { "name": "range", "rate_per_sec": 1, "steps": [ { "op": "list", "entity": "c", "by": "pId", "sort": { "field": "v", "order": 1 }, "page": 3 } ] },
          { "name": "skip", "rate_per_sec": 1, "steps": [ { "op": "list", "entity": "c", "by": "pId", "sort": { "field": "v", "order": 1 }, "page": 3, "paging": "skip" } ] }
        ]"#,
    );
    let l = lay(&m);
    assert_eq!(
        lines(&l),
        [
            ["db.c.find({}, { v: 1, _id: 0 }).sort({ v: -1 }).limit(5)"],
            ["db.c.find({ pId: c.pId, v: { $gt: last.v } }).sort({ v: 1 }).limit(20)"],
            ["db.c.find({ pId: c.pId }).sort({ v: 1 }).skip(40).limit(20)"],
        ]
    );
    let ix: Vec<String> = l
        .collection("c")
        .map(|c| c.indexes.iter().map(|i| i.mongosh()).collect())
        .unwrap_or_default();
    assert_eq!(
        ix,
        [
            "db.c.createIndex({ v: -1 })",
            "db.c.createIndex({ pId: 1, v: 1 })"
        ]
    );
}

/// A list names a field or the parent reference the entity holds; paging is range or skip.
#[test]
fn list_steps_are_validated() {
    let text = r#"{
      "entities": [ { "name": "c", "count": 1, "fields": { "v": { "type": "int" } } } ],
      "workload": [ { "name": "x", "rate_per_sec": 1, "steps": [
        { "op": "list", "entity": "c", "by": "nope", "sort": { "field": "w", "order": 2 }, "fields": ["z"], "paging": "cursor", "page": 0 },
        { "op": "find_by_attribute", "entity": "c", "field": "q", "above": "x" } ] } ]
    }"#;
    let e = parse_model(text).map(|_| ()).unwrap_err();
    for p in [
        "$.workload[0].steps[0].by",
        "$.workload[0].steps[0].sort.field",
        "$.workload[0].steps[0].sort.order",
        "$.workload[0].steps[0].fields[0]",
        "$.workload[0].steps[0].paging",
        "$.workload[0].steps[0].page",
        "$.workload[0].steps[1].field",
        "$.workload[0].steps[1].above",
    ] {
        assert!(e.has_path(p), "{p}: {e}");
    }
}
