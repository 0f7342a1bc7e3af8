//! Bad models: every problem is reported at once, each at its JSON path.
#![cfg(not(target_arch = "wasm32"))]

use squillion::model::parse_model;

fn errors(text: &str) -> squillion::model::ModelErrors {
    match parse_model(text) {
        Ok(_) => panic!("expected errors"),
        Err(e) => e,
    }
}

#[test]
fn syntax_errors_carry_line_and_column() {
    let e = errors("{\n  \"entities\": [\n    { \"name\": \"user\", }\n  ]\n}");
    assert_eq!(e.errors.len(), 1);
    assert_eq!(e.errors[0].line, Some(3));
    assert_eq!(e.errors[0].column, Some(23));
    // The place is said once: the message is the reason alone, the line and column are fields
    // (the CLI and the page each say them their own way).
    assert_eq!(e.errors[0].message, "trailing comma");
    assert_eq!(e.errors[0].to_string(), "line 3, column 23: trailing comma");
    assert_eq!(e.to_string().matches("line 3").count(), 1, "{e}");
    assert!(!e.to_string().contains(" at line "), "{e}");
}

#[test]
fn all_problems_at_once_with_paths() {
    let text = r#"{
      "entites": [],
      "seed": -1,
      "entities": [
        { "name": "user", "count": -5, "fields": {
            "email": { "type": "strin" },
            "tags": { "type": "array", "items": "string" },
            "bio": { "type": "string", "length": { "shape": "uniform", "min": 10, "max": 2 } },
            "p": { "type": "int", "presence": 1.5, "colour": "red" }
        } },
        { "name": "post", "count": 10 }
      ],
      "relationships": [
        { "name": "a", "parent": "user", "child": "post", "cardinality": { "shape": "fixed", "value": 1 } },
        { "name": "b", "parent": "ghost", "child": "post", "cardinality": { "shape": "fixed", "value": 1 } },
        { "name": "c", "parent": "user", "child": "post", "cardinality": { "shape": "zipf", "min": 0, "typical": 5, "p99": 900, "max": 100 } },
        { "name": "d", "parent": "user", "child": "post", "cardinality": { "shape": "uniform", "min": 0, "max": "NaN" }, "growth_per_day": { "typical": -2 } }
      ],
      "workload": [
        { "name": "x", "rate_per_sec": -1, "steps": [
          { "op": "read", "entity": "user", "children": [ { "relationship": "nope" } ] },
          { "op": "insert_child", "relationship": "zzz" },
          { "op": "fly" }
        ] }
      ],
      "design": { "base": "normalised", "relationships": { "q": { "strategy": "embed" }, "a": { "strategy": "bucket" } } }
    }"#;
    let e = errors(text);
    let expected = [
        "$.entites",
        "$.seed",
        "$.entities[0].count",
        "$.entities[0].fields.email.type",
        "$.entities[0].fields.tags.count",
        "$.entities[0].fields.bio.length.min",
        "$.entities[0].fields.p.presence",
        "$.entities[0].fields.p.colour",
        "$.relationships[1].parent",
        "$.relationships[2].cardinality.p99",
        "$.relationships[3].cardinality.max",
        "$.relationships[3].growth_per_day.typical",
        "$.workload[0].rate_per_sec",
        "$.workload[0].steps[0].children[0].relationship",
        "$.workload[0].steps[1].relationship",
        "$.workload[0].steps[2].op",
        "$.design.base",
        "$.design.relationships.q",
        "$.design.relationships.a.size",
    ];
    for p in expected {
        assert!(
            e.has_path(p),
            "missing {p}; got:\n{}",
            e.errors
                .iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
    assert!(e.errors.len() >= expected.len());
    let p99 = e
        .errors
        .iter()
        .find(|x| x.path == "$.relationships[2].cardinality.p99")
        .map(|x| x.message.clone());
    assert_eq!(p99.as_deref(), Some("p99 (900) is greater than max (100)"));
}

#[test]
fn dangling_fields_and_copies() {
    let text = r#"{
      "entities": [ { "name": "p", "count": 1, "fields": { "n": { "type": "int" } } }, { "name": "c", "count": 1 } ],
      "relationships": [ { "name": "r", "parent": "p", "child": "c", "cardinality": { "shape": "fixed", "value": 1 } } ],
      "workload": [ { "name": "u", "rate_per_sec": 1, "steps": [
        { "op": "update", "entity": "p", "field": "missing", "copies": "sometimes" },
        { "op": "read", "entity": "c", "children": [ { "relationship": "r" } ] },
        { "op": "post_feed", "relationship": "r" }
      ] } ],
      "design": { "relationships": { "r": { "strategy": "extended_reference", "copy": ["nothing"] } },
                  "fields": [ { "pattern": "computed", "entity": "p", "field": "t", "relationship": "r", "sum": "zz" } ] }
    }"#;
    let e = errors(text);
    for p in [
        "$.workload[0].steps[0].field",
        "$.workload[0].steps[0].copies",
        "$.workload[0].steps[1].children[0].relationship",
        "$.workload[0].steps[2].relationship",
        "$.design.relationships.r.copy[0]",
        "$.design.fields[0].sum",
    ] {
        assert!(e.has_path(p), "missing {p}: {e}");
    }
}

#[test]
fn valid_models_have_no_errors() {
    let ok = r#"{ "entities": [ { "name": "x", "count": 1e12 } ] }"#;
    let m = parse_model(ok).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(m.entities[0].count, 1e12);
    assert_eq!(m.seed, 1);
}

#[test]
fn serialization_round_trips() {
    for text in [
        include_str!("../../presets/social-graph.json"),
        include_str!("../../presets/shopping-cart.json"),
    ] {
        let m = parse_model(text).unwrap_or_else(|e| panic!("{e}"));
        let again = serde_json::to_string(&m).unwrap_or_default();
        let m2 = parse_model(&again).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(m, m2);
    }
}

/// The size limits of a model, each with its path, the limit and what was found; checked
/// before the per-item work, so that 100,000 entities are refused at once instead of compared
/// pairwise for duplicates.
#[test]
fn size_limits_of_a_model_are_clear_errors() {
    let entities: Vec<String> = (0..100_000)
        .map(|i| format!(r#"{{"name":"e{i}","count":1,"fields":{{}}}}"#))
        .collect();
    let t = std::time::Instant::now();
    let e = errors(&format!(r#"{{"entities":[{}]}}"#, entities.join(",")));
    assert!(t.elapsed() < std::time::Duration::from_secs(5));
    assert_eq!(e.errors.len(), 1);
    assert_eq!(e.errors[0].path, "$.entities");
    assert!(
        e.errors[0]
            .message
            .contains("at most 1000 entities (found 100000)"),
        "{e}"
    );

    let fields: Vec<String> = (0..10_001)
        .map(|i| format!(r#""f{i}":{{"type":"int"}}"#))
        .collect();
    let e = errors(&format!(
        r#"{{"entities":[{{"name":"a","count":1,"fields":{{"s":{{"type":"object","fields":{{{}}}}}}}}}]}}"#,
        fields.join(",")
    ));
    assert_eq!(e.errors[0].path, "$.entities[0].fields.s.fields");
    assert!(
        e.errors[0]
            .message
            .contains("at most 10000 fields (found 10001)"),
        "{e}"
    );

    let rels: Vec<String> = (0..1001)
        .map(|i| format!(r#"{{"name":"r{i}","parent":"a","child":"a","cardinality":{{"shape":"fixed","value":1}}}}"#))
        .collect();
    let e = errors(&format!(
        r#"{{"entities":[{{"name":"a","count":1,"fields":{{}}}}],"relationships":[{}]}}"#,
        rels.join(",")
    ));
    assert_eq!(e.errors[0].path, "$.relationships");
    assert!(
        e.errors[0]
            .message
            .contains("at most 1000 relationships (found 1001)"),
        "{e}"
    );

    // JSON nesting and numbers beyond a double name the limit they hit.
    let e = errors(&format!("{}{}", "[".repeat(200), "]".repeat(200)));
    assert!(e.to_string().contains("recursion limit exceeded"), "{e}");
    assert!(e.to_string().contains("at most 128 levels"), "{e}");
    let e = errors(r#"{"entities": [], "seed": 1e400}"#);
    assert!(e.to_string().contains("finite doubles"), "{e}");
}

/// A child the workload reads by itself (a page of images of a thread) cannot live only inside
/// other documents: embedding or bucketing it (one-to-many) is refused at the override's path,
/// and the picker does not offer them; a many-to-many bucket (ids of children kept elsewhere)
/// and the strategies that keep the child's own collection stay.
#[test]
fn a_child_read_by_itself_is_neither_embedded_nor_bucketed() {
    let text = |strategy: &str| {
        format!(
            r#"{{
      "entities": [
        {{ "name": "thread", "count": 100, "fields": {{ "title": {{ "type": "string" }} }} }},
        {{ "name": "image", "count": 10000, "fields": {{ "date": {{ "type": "date" }} }} }}
      ],
      "relationships": [
        {{ "name": "images", "parent": "thread", "child": "image", "cardinality": {{ "shape": "fixed", "value": 100 }} }}
      ],
      "workload": [
        {{ "name": "page", "rate_per_sec": 10, "steps": [ {{ "op": "list", "entity": "image", "by": "threadId", "sort": {{ "field": "date", "order": 1 }}, "limit": 20 }} ] }}
      ],
      "design": {{ "relationships": {{ "images": {strategy} }} }}
    }}"#
        )
    };
    for refused in [
        r#"{"strategy": "embed"}"#,
        r#"{"strategy": "bucket", "size": 50}"#,
    ] {
        let e = errors(&text(refused));
        let p = e
            .errors
            .iter()
            .find(|p| p.path == "$.design.relationships.images.strategy")
            .unwrap_or_else(|| panic!("{refused}: {e}"));
        let said = p.to_string();
        assert!(said.contains("image") && said.contains("page"), "{said}");
    }
    let m = squillion::model::parse_model(&text(r#"{"strategy": "reference_in_child"}"#)).unwrap();
    let offered: Vec<&str> = squillion::model::design::strategies_for(&m, "images")
        .iter()
        .map(|s| s.name())
        .collect();
    assert!(
        !offered.contains(&"embed") && !offered.contains(&"bucket"),
        "{offered:?}"
    );
    assert!(offered.contains(&"reference_in_child") && offered.contains(&"embed_subset"));
}
