//! The model's vocabularies are one list each (`Op::ALL`, `Shape::ALL`, `ValueKind::ALL`,
//! `BsonType::ALL`, `Strategy::ALL`, `FieldPattern::NAMES`, `Joins::ALL`, …): every entry is
//! named in docs/model.md, spelled as the JSON format spells it, and accepted by validation.
#![cfg(not(target_arch = "wasm32"))]

use serde_json::{json, Map, Value};
use squillion::model::design::{AttributeForm, DesignName, FieldPattern, Joins, Strategy};
use squillion::model::{BsonType, Copies, Distribution, Op, Paging, Shape, Step, ValueKind};

const DOCS: &str = include_str!("../../docs/model.md");

/// Every vocabulary, by name, with its entries as a model writes them.
fn vocabularies() -> Vec<(&'static str, Vec<&'static str>)> {
    vec![
        ("workload ops", Op::ALL.into_iter().map(Op::name).collect()),
        (
            "distribution shapes",
            Shape::ALL.into_iter().map(Shape::name).collect(),
        ),
        (
            "value kinds",
            ValueKind::ALL.into_iter().map(ValueKind::name).collect(),
        ),
        (
            "BSON types",
            BsonType::ALL.into_iter().map(BsonType::alias).collect(),
        ),
        ("strategies", Strategy::names().collect()),
        ("field patterns", FieldPattern::NAMES.to_vec()),
        (
            "attribute forms",
            AttributeForm::ALL
                .into_iter()
                .map(AttributeForm::as_str)
                .collect(),
        ),
        ("joins", Joins::ALL.into_iter().map(Joins::as_str).collect()),
        (
            "named designs",
            DesignName::ALL
                .into_iter()
                .map(DesignName::as_str)
                .collect(),
        ),
        (
            "copies",
            Copies::ALL.into_iter().map(Copies::as_str).collect(),
        ),
        (
            "paging",
            Paging::ALL.into_iter().map(Paging::as_str).collect(),
        ),
    ]
}

#[test]
fn docs_name_every_entry_of_every_vocabulary() {
    for (what, names) in vocabularies() {
        assert!(!names.is_empty(), "{what}");
        for name in names {
            assert!(
                DOCS.contains(&format!("`{name}`")),
                "docs/model.md does not name the {what} entry `{name}`"
            );
        }
    }
}

#[test]
fn no_vocabulary_repeats_a_name() {
    for (what, names) in vocabularies() {
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len(), "{what}: {names:?}");
    }
}

/// Returns `{key: name}` plus `filler` for each other key.
fn object(key: &str, name: &str, keys: &[&str], filler: impl Fn(&str) -> Value) -> Value {
    let mut m = Map::new();
    m.insert(key.to_string(), json!(name));
    for k in keys.iter().filter(|k| **k != key) {
        m.insert(k.to_string(), filler(k));
    }
    Value::Object(m)
}

#[test]
fn every_name_is_spelled_as_serde_spells_it() {
    for op in Op::ALL {
        let (_, required) = op.keys();
        let step = object("op", op.name(), required, |k| match k {
            "sort" => json!({ "field": "f", "order": 1 }),
            _ => json!("x"),
        });
        let step: Step = serde_json::from_value(step).unwrap_or_else(|e| panic!("{op:?}: {e}"));
        assert_eq!(step.op(), op);
    }
    for shape in Shape::ALL {
        let d = object("shape", shape.name(), shape.keys(), |_| json!(1));
        let d: Distribution = serde_json::from_value(d).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(serde_json::to_value(&d).unwrap()["shape"], shape.name());
    }
    for k in ValueKind::ALL {
        assert_eq!(serde_json::to_value(k).unwrap(), k.name());
        assert_eq!(ValueKind::from_name(k.name()), Some(k));
    }
    for t in BsonType::ALL {
        assert_eq!(serde_json::to_value(t).unwrap(), t.alias());
    }
    for s in Strategy::ALL {
        assert_eq!(serde_json::to_value(&s).unwrap()["strategy"], s.name());
        assert_eq!(Strategy::from_name(s.name()), Some(s));
    }
    for name in FieldPattern::NAMES {
        let (_, required) = FieldPattern::keys(name).unwrap();
        let p = object("pattern", name, required, |k| match k {
            "slots" | "every" | "after_days" | "from" | "to" | "series" | "window_seconds" => {
                json!(2)
            }
            "migrated_share" => json!(0.5),
            "form" => json!("keyed"),
            _ => json!("x"),
        });
        let p: FieldPattern = serde_json::from_value(p).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.name(), name);
    }
    for f in AttributeForm::ALL {
        assert_eq!(serde_json::to_value(f).unwrap(), f.as_str());
    }
    for j in Joins::ALL {
        assert_eq!(serde_json::to_value(j).unwrap(), j.as_str());
    }
    for d in DesignName::ALL {
        assert_eq!(serde_json::to_value(d).unwrap(), d.as_str());
        assert_eq!(DesignName::from_name(d.as_str()), Some(d));
    }
    for c in Copies::ALL {
        assert_eq!(serde_json::to_value(c).unwrap(), c.as_str());
    }
    for p in Paging::ALL {
        assert_eq!(serde_json::to_value(p).unwrap(), p.as_str());
    }
}

#[test]
fn validation_names_every_entry_when_it_refuses_a_name() {
    let model = json!({
        "entities": [{ "name": "e", "count": 1, "fields": {
            "f": { "type": "nope", "kind": "nope", "length": { "shape": "nope" } }
        } }],
        "workload": [{ "name": "u", "rate_per_sec": 1, "steps": [{ "op": "nope" }] }],
        "design": {
            "base": "nope",
            "joins": "nope",
            "relationships": { "r": { "strategy": "nope" } },
            "fields": [{ "pattern": "nope" }]
        }
    });
    let errors = squillion::model::validate::validate(&model);
    let message = |path: &str| {
        errors
            .iter()
            .find(|e| e.path == path)
            .map(|e| e.message.clone())
            .unwrap_or_else(|| panic!("no error at {path}: {errors:?}"))
    };
    let lists = vocabularies();
    let list = |what: &str| {
        lists
            .iter()
            .find(|(w, _)| *w == what)
            .map(|(_, l)| l.clone())
            .unwrap_or_default()
    };
    for (path, what) in [
        ("$.entities[0].fields.f.type", "BSON types"),
        ("$.entities[0].fields.f.kind", "value kinds"),
        ("$.entities[0].fields.f.length.shape", "distribution shapes"),
        ("$.workload[0].steps[0].op", "workload ops"),
        ("$.design.base", "named designs"),
        ("$.design.joins", "joins"),
        ("$.design.relationships.r.strategy", "strategies"),
        ("$.design.fields[0].pattern", "field patterns"),
    ] {
        let m = message(path);
        for name in list(what) {
            assert!(m.contains(name), "{path}: {m} lacks {name}");
        }
    }
}
