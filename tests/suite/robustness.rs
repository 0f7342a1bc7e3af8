//! Mutated models never make the core panic: parsing reports errors, and whatever parses lays
//! out, sizes and is checked.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use serde_json::Value;

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-1e13f64..1e13)
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        (0u64..2000).prop_map(Value::from),
        prop::sample::select(vec![
            "user",
            "post",
            "fixed",
            "zipf",
            "uniform",
            "array",
            "object",
            "string",
            "embed",
            "bucket",
            "read",
            "followers",
            "NaN",
            "objectId",
            "live",
            "continuation",
            "_id",
        ])
        .prop_map(|s| Value::String(s.to_string())),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop::sample::select(vec![
                        "shape", "value", "min", "max", "type", "name", "count", "strategy", "k",
                        "op"
                    ]),
                    inner
                ),
                0..4
            )
            .prop_map(|kv| Value::Object(
                kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
            )),
        ]
    })
}

/// Returns every path (as a list of keys/indexes) in `v`.
fn paths(v: &Value, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    out.push(prefix.clone());
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                let mut p = prefix.clone();
                p.push(k.clone());
                paths(x, p, out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                let mut p = prefix.clone();
                p.push(i.to_string());
                paths(x, p, out);
            }
        }
        _ => {}
    }
}

fn replace(v: &mut Value, path: &[String], with: Value) {
    match path.split_first() {
        None => *v = with,
        Some((k, rest)) => match v {
            Value::Object(m) => {
                if let Some(x) = m.get_mut(k) {
                    replace(x, rest, with);
                }
            }
            Value::Array(a) => {
                if let Some(x) = k.parse::<usize>().ok().and_then(|i| a.get_mut(i)) {
                    replace(x, rest, with);
                }
            }
            _ => {}
        },
    }
}

const MODELS: [&str; 5] = [
    include_str!("../../presets/social-graph.json"),
    include_str!("../../presets/shopping-cart.json"),
    include_str!("../../presets/host-logs.json"),
    include_str!("../../presets/movie-prices.json"),
    include_str!("../../presets/social-feed.json"),
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn mutated_models_never_panic(which in 0usize..5, pick in any::<prop::sample::Index>(), with in arb_json()) {
        let mut v: Value = serde_json::from_str(MODELS[which]).unwrap_or(Value::Null);
        let mut all = Vec::new();
        paths(&v, vec![], &mut all);
        let path = pick.get(&all).clone();
        replace(&mut v, &path, with);
        let text = v.to_string();
        match squillion::model::parse_model(&text) {
            Err(e) => prop_assert!(!e.errors.is_empty()),
            Ok(model) => {
                if let Ok(layout) = squillion::design::layout_model(&model) {
                    for c in &layout.collections {
                        let _ = squillion::stats::collection_stats(c, &model.start_date);
                    }
                    let _ = squillion::warning::check(&model, &layout);
                }
            }
        }
    }

    #[test]
    fn garbage_text_is_an_error_not_a_panic(text in ".{0,200}") {
        let _ = squillion::model::parse_model(&text);
    }
}
