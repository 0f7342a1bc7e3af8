//! Structure-aware model fuzzing: one of the preset models (presets/) with a few leaves
//! replaced, keys removed or added and elements duplicated, the choices driven by the fuzzer's
//! bytes, so that most inputs are valid models with hostile numbers and references. Then the
//! same checks as the `model` target.
#![no_main]

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};
use squillion::model::parse_model;

#[path = "../common/model_pipeline.rs"]
mod model_pipeline;

const SEEDS: &[&str] = &[
    include_str!("../../presets/blog.json"),
    include_str!("../../presets/fruit-totals.json"),
    include_str!("../../presets/game-inventory.json"),
    include_str!("../../presets/host-logs.json"),
    include_str!("../../presets/image-board.json"),
    include_str!("../../presets/movie-prices.json"),
    include_str!("../../presets/page-analytics.json"),
    include_str!("../../presets/person-addresses.json"),
    include_str!("../../presets/person-tasks.json"),
    include_str!("../../presets/product-parts.json"),
    include_str!("../../presets/shopping-cart.json"),
    include_str!("../../presets/social-feed.json"),
    include_str!("../../presets/social-graph.json"),
];

/// Numbers a user (or a typo) can write.
const NUMBERS: &[f64] = &[
    0.0,
    -0.0,
    -1.0,
    0.5,
    1.0,
    2.0,
    99.0,
    100.0,
    101.0,
    250.0,
    1000.0,
    65535.0,
    16777216.0,
    16777217.0,
    2147483648.0,
    1e9,
    1e12,
    1e15,
    1.000001e15,
    9.007199254740993e15,
    1.8446744073709552e19,
    1e300,
    -1e300,
    1e-300,
    5e-324,
];

/// Whole numbers at the edges of the integer types (sizes, limits, slots, seeds, shards).
const WHOLE: &[u64] = &[
    0,
    1,
    10_000,
    10_001,
    100_000,
    1_000_000,
    1_000_001,
    u32::MAX as u64,
    1 << 53,
    (1 << 53) + 1,
    i64::MAX as u64,
    1 << 63,
    u64::MAX - 1,
    u64::MAX,
];

const WORDS: &[&str] = &[
    "",
    "NaN",
    "_id",
    "user",
    "post",
    "tbc",
    "a.b",
    "$x",
    "fixed",
    "zipf",
    "uniform",
    "normal",
    "lognormal",
    "array",
    "object",
    "string",
    "binData",
    "regex",
    "embed",
    "embed_subset",
    "extended_reference",
    "reference_in_parent",
    "reference_in_child",
    "two_way",
    "link_collection",
    "bucket",
    "continuation",
    "fan_out_on_read",
    "fan_out_on_write",
    "bucketed_fan_out",
    "normalized",
    "denormalized",
    "bucketed",
    "read",
    "insert_child",
    "update",
    "post",
    "live",
    "snapshot",
    "hashed",
    "text",
    "enum",
    "2025-01-01",
    "9999-12-31",
];

const KEYS: &[&str] = &[
    "count",
    "length",
    "items",
    "fields",
    "presence",
    "values",
    "min",
    "max",
    "typical",
    "p99",
    "mean",
    "sd",
    "value",
    "k",
    "size",
    "threshold",
    "limit",
    "rate_per_sec",
    "growth_per_day",
    "many_to_many",
    "feed",
    "field",
    "parent_field",
    "sample",
    "scale",
    "max_documents",
    "sharding",
    "shards",
    "strategy",
    "kind",
    "type",
];

/// Every path to a value of `v`, as (keys or indexes).
fn paths(v: &Value, prefix: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    out.push(prefix.clone());
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                prefix.push(Value::String(k.clone()));
                paths(x, prefix, out);
                prefix.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                prefix.push(json!(i));
                paths(x, prefix, out);
                prefix.pop();
            }
        }
        _ => {}
    }
}

fn at<'a>(v: &'a mut Value, path: &[Value]) -> Option<&'a mut Value> {
    let mut cur = v;
    for p in path {
        cur = match (cur, p) {
            (Value::Object(m), Value::String(k)) => m.get_mut(k)?,
            (Value::Array(a), Value::Number(i)) => a.get_mut(usize::try_from(i.as_u64()?).ok()?)?,
            _ => return None,
        };
    }
    Some(cur)
}

fn hostile_value(u: &mut Unstructured) -> Result<Value> {
    Ok(match u.int_in_range(0..=6)? {
        0 | 1 => json!(*u.choose(NUMBERS)?),
        2 => json!(u.arbitrary::<i64>()?),
        6 => json!(*u.choose(WHOLE)?),
        3 => json!(*u.choose(WORDS)?),
        4 => json!(u.arbitrary::<bool>()?),
        _ => json!({ "shape": "fixed", "value": *u.choose(NUMBERS)? }),
    })
}

fn mutate(u: &mut Unstructured) -> Result<Option<Value>> {
    let seed = *u.choose(SEEDS)?;
    let Ok(mut model) = serde_json::from_str::<Value>(seed) else {
        return Ok(None);
    };
    for _ in 0..u.int_in_range(1..=6)? {
        let mut all = Vec::new();
        paths(&model, &mut Vec::new(), &mut all);
        let path = u.choose(&all)?.clone();
        let op = u.int_in_range(0..=4)?;
        let replacement = hostile_value(u)?;
        let key = *u.choose(KEYS)?;
        let pick = u.arbitrary::<usize>()?;
        let Some(node) = at(&mut model, &path) else {
            continue;
        };
        match (op, node) {
            (0, node) => *node = replacement,
            (1, Value::Object(m)) if !m.is_empty() => {
                let k = m.keys().nth(pick % m.len()).cloned().unwrap_or_default();
                m.remove(&k);
            }
            (2, Value::Object(m)) => {
                m.insert(key.to_string(), replacement);
            }
            (3, Value::Array(a)) if !a.is_empty() => {
                let x = a.get(pick % a.len()).cloned().unwrap_or(Value::Null);
                a.push(x);
            }
            (4, Value::Array(a)) if !a.is_empty() => {
                a.remove(pick % a.len());
            }
            (_, node) => *node = replacement,
        }
    }
    Ok(Some(model))
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok(Some(model)) = mutate(&mut u) else {
        return;
    };
    let Ok(text) = serde_json::to_string(&model) else {
        return;
    };
    // To see what a crashing input builds: SQUILLION_FUZZ_PRINT=1 cargo fuzz run … <file>.
    if std::env::var_os("SQUILLION_FUZZ_PRINT").is_some() {
        eprintln!("{text}");
    }
    if let Ok(model) = parse_model(&text) {
        model_pipeline::run(model);
    }
});
