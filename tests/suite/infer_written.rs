//! An inferred model as people read it (`squillion infer`'s model text, which the page's
//! "Start from your data" writes with the same core): whole numbers as JSON integers (`180`,
//! not `180.0`), computed parameters at three significant digits, the rounded model still
//! valid (`squillion validate`), and a string field of a few repeated values drawn from them
//! even in a small sample.
#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};

use crate::common::infer_json::squillion;
use serde_json::Value;

fn sample_analytics() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/infer/sample_analytics");
    ["accounts.json", "customers.json", "transactions.json"]
        .iter()
        .map(|n| dir.join(n).to_string_lossy().into_owned())
        .collect()
}

fn sql_fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/sql")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// Runs `squillion infer INPUTS --out model.json` (exit 0) and returns the model's path and
/// text.
fn infer_text(inputs: &[String], dir: &Path) -> (PathBuf, String) {
    let out = dir.join("model.json");
    let out_arg = out.to_string_lossy().into_owned();
    let mut args = vec!["infer"];
    args.extend(inputs.iter().map(String::as_str));
    args.extend(["--out", &out_arg]);
    let run = squillion(&args);
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let text = std::fs::read_to_string(&out).unwrap_or_else(|e| panic!("{e}"));
    (out, text)
}

/// Returns every number of `v` with its JSON path.
fn numbers<'a>(v: &'a Value, path: &str, out: &mut Vec<(String, &'a serde_json::Number)>) {
    match v {
        Value::Number(n) => out.push((path.to_string(), n)),
        Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                numbers(x, &format!("{path}[{i}]"), out);
            }
        }
        Value::Object(map) => {
            for (k, x) in map {
                numbers(x, &format!("{path}.{k}"), out);
            }
        }
        _ => {}
    }
}

/// Asserts that the model text writes no whole number with a decimal point and no computed
/// parameter (a spread, a presence, growth per day) with more than three significant digits.
fn assert_tidy(text: &str) {
    let v: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let mut all = Vec::new();
    numbers(&v, "", &mut all);
    assert!(!all.is_empty());
    for (path, n) in all {
        if let Some(x) = n.as_f64().filter(|_| n.is_f64()) {
            assert!(x.fract() != 0.0, "{path}: {n} is whole: an integer");
            let computed = [".sd", ".presence", ".typical", ".largest", ".mean"]
                .iter()
                .any(|k| path.ends_with(k));
            if computed {
                let digits: String = n
                    .to_string()
                    .chars()
                    .filter(char::is_ascii_digit)
                    .skip_while(|&c| c == '0')
                    .collect();
                assert!(digits.len() <= 3, "{path}: {n} has more than 3 digits");
            }
        }
    }
    assert!(
        !text.contains(".0,") && !text.contains(".0\n"),
        "a whole number with a decimal point:\n{text}"
    );
}

/// Asserts that `squillion validate PATH` finds no problem.
fn assert_valid(path: &Path) {
    let p = path.to_string_lossy().into_owned();
    let out = squillion(&["validate", &p]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn sample_analytics_is_written_with_integers_and_rounded_spreads() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let (path, text) = infer_text(&sample_analytics(), dir.path());
    assert_tidy(&text);
    assert!(text.contains("\"count\": 180,"), "{text}");
    assert!(text.contains("\"min\": 103186,"), "{text}");
    // transaction.symbol's length: sd 0.39015207303618943 before rounding.
    assert!(text.contains("\"sd\": 0.39,"), "{text}");
    assert_valid(&path);
}

#[test]
fn the_json_report_writes_the_model_as_the_text_does() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let mut args = vec!["infer"];
    let inputs = sample_analytics();
    args.extend(inputs.iter().map(String::as_str));
    args.push("--json");
    let out = squillion(&args);
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
    let model = serde_json::to_string_pretty(&v["model"]).unwrap_or_else(|e| panic!("{e}"));
    assert_tidy(&model);
    let (_, text) = infer_text(&inputs, dir.path());
    assert_eq!(model, text.trim_end());
}

#[test]
fn sql_schemas_are_written_with_integers_and_stay_valid() {
    for name in [
        "postgresql-store.sql",
        "mariadb-store.sql",
        "sqlite-store.dump.sql",
    ] {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let (path, text) = infer_text(&[sql_fixture(name)], dir.path());
        assert_tidy(&text);
        assert_valid(&path);
    }
}

#[test]
fn spreads_presences_and_growth_keep_three_digits_and_stay_valid() {
    // 300 documents: a bell-shaped length (normal, a spread of a fraction of a byte), a field
    // in 1 of 3 documents (presence 0.333…), comments dated over 7 days (growth per day).
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let lines: String = (0..300)
        .map(|i: u64| {
            let len = if i.is_multiple_of(25) { 3 } else { 4 };
            let note = if i.is_multiple_of(3) {
                ", \"note\": \"n\""
            } else {
                ""
            };
            let day = 86_400_000 * (i % 7);
            format!(
                "{{\"code\": \"{}\"{note}, \"c\": [{{\"at\": {{\"$date\": {day}}}}}]}}\n",
                "x".repeat(len)
            )
        })
        .collect();
    let input = dir.path().join("posts.json");
    std::fs::write(&input, lines).unwrap_or_else(|e| panic!("{e}"));
    let (path, text) = infer_text(&[input.to_string_lossy().into_owned()], dir.path());
    assert_tidy(&text);
    assert!(text.contains("\"presence\": 0.333"), "{text}");
    assert_valid(&path);
}

#[test]
fn a_few_repeated_strings_in_a_small_sample_are_drawn_from_the_values_seen() {
    // 12 orders: 3 statuses, each seen at least twice; names all different.
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let statuses = ["paid", "shipped", "paid", "refunded"];
    let lines: String = (0..12)
        .map(|i: usize| {
            let status = statuses.get(i % statuses.len()).copied().unwrap_or("paid");
            format!("{{\"status\": \"{status}\", \"name\": \"Customer {i}\"}}\n")
        })
        .collect();
    let input = dir.path().join("orders.json");
    std::fs::write(&input, lines).unwrap_or_else(|e| panic!("{e}"));
    let (path, text) = infer_text(&[input.to_string_lossy().into_owned()], dir.path());
    let model = squillion::model::parse_model(&text).unwrap_or_else(|e| panic!("{e:?}"));
    let orders = model
        .entities
        .iter()
        .find(|e| e.name == "orders")
        .unwrap_or_else(|| panic!("{text}"));
    let status = orders
        .fields
        .get("status")
        .unwrap_or_else(|| panic!("{text}"));
    assert_eq!(
        status.kind,
        Some(squillion::model::ValueKind::Enum),
        "{text}"
    );
    assert_eq!(status.values, ["paid", "refunded", "shipped"], "{text}");
    let name = orders
        .fields
        .get("name")
        .unwrap_or_else(|| panic!("{text}"));
    assert!(name.values.is_empty(), "{text}");
    assert_valid(&path);
}
