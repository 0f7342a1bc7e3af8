//! Validation problems on the command line (issue #22, item 3): `squillion validate` prints
//! each problem in the language asked for (`--lang`, else the environment), `--json` gives
//! every problem's `code` and `args` beside its English `message`, and `eval` says the same
//! problems in the same language.
#![cfg(not(target_arch = "wasm32"))]

use std::process::{Command, Output};

/// A model with three problems: a negative count, an unknown BSON type, an unknown entity.
const BAD: &str = r#"{"entities": [{"name": "user", "count": -5, "fields": {"a": {"type": "strin"}}}],
 "relationships": [{"name": "r", "parent": "user", "child": "post", "cardinality": {"shape": "fixed", "value": 1}}]}"#;

/// Runs the CLI on `model` (written to a temporary file) with `args` and `LANG=lang_env`.
fn run(model: &str, args: &[&str], lang_env: &str) -> (Output, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("model.json");
    std::fs::write(&path, model).expect("write model");
    let path = path.display().to_string();
    let out = Command::new(env!("CARGO_BIN_EXE_squillion"))
        .args(args)
        .arg(&path)
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env("LANG", lang_env)
        .output()
        .expect("squillion runs");
    (out, path)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8")
}

#[test]
fn validate_prints_problems_in_chinese_with_lang_zh_cn() {
    let (out, path) = run(BAD, &["validate", "--lang", "zh-CN"], "C");
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert_eq!(
        stdout,
        format!(
            "{path}: $.entities[0].count：不能为负数（实际为 -5）\n\
             {path}: $.entities[0].fields.a.type：未知的 BSON 类型“strin”；应为以下之一：double, string, object, array, binData, objectId, bool, date, null, regex, javascript, int, timestamp, long, decimal, minKey, maxKey\n\
             {path}: $.relationships[0].child：未知的实体“post”\n"
        )
    );
    // The environment chooses without --lang; --lang wins over it.
    let (env, _) = run(BAD, &["validate"], "zh_CN.UTF-8");
    assert!(text(&env.stdout).contains("未知的实体“post”"), "{:?}", env);
    let (en, _) = run(BAD, &["validate", "--lang", "en"], "zh_CN.UTF-8");
    let en = text(&en.stdout);
    assert!(
        en.contains("$.relationships[0].child: unknown entity \"post\"\n"),
        "{en}"
    );
    assert!(
        !en.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
        "{en}"
    );
}

#[test]
fn validate_json_gives_codes_and_values_beside_the_english_message() {
    let (zh, _) = run(BAD, &["validate", "--json", "--lang", "zh-CN"], "C");
    let (env, _) = run(BAD, &["validate", "--json"], "zh_CN.UTF-8");
    assert_eq!(zh.stdout, env.stdout, "JSON is the same in every language");
    assert_eq!(zh.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&zh.stdout).expect("JSON");
    assert_eq!(v["valid"], false);
    let p = &v["problems"];
    assert_eq!(p.as_array().map(Vec::len), Some(3));
    assert_eq!(p[0]["code"], "negative");
    assert_eq!(p[0]["args"]["value"], "-5");
    assert_eq!(p[0]["message"], "must not be negative (found -5)");
    assert_eq!(p[2]["path"], "$.relationships[0].child");
    assert_eq!(p[2]["code"], "unknown-entity");
    assert_eq!(p[2]["args"], serde_json::json!({"name": "post"}));
    // A syntax error: its line and column, serde_json's detail as a value.
    let (syn, _) = run(
        "{\"entities\": [\n  {\"name\": 1,}\n]}",
        &["validate", "--json"],
        "C",
    );
    let v: serde_json::Value = serde_json::from_slice(&syn.stdout).expect("JSON");
    let p = &v["problems"][0];
    assert_eq!(
        (p["code"].as_str(), p["line"].as_u64(), p["column"].as_u64()),
        (Some("json-syntax"), Some(2), Some(14))
    );
    assert_eq!(p["args"]["detail"], "trailing comma");
}

#[test]
fn validate_says_a_valid_model_is_valid_and_exits_0() {
    let ok = r#"{"entities": [{"name": "user", "count": 10}]}"#;
    let (zh, _) = run(ok, &["validate", "--lang", "zh-CN"], "C");
    assert_eq!(
        (zh.status.code(), text(&zh.stdout)),
        (Some(0), "模型有效。\n".to_string())
    );
    let (js, _) = run(ok, &["validate", "--json"], "C");
    let v: serde_json::Value = serde_json::from_slice(&js.stdout).expect("JSON");
    assert_eq!(v, serde_json::json!({"valid": true, "problems": []}));
    let missing = Command::new(env!("CARGO_BIN_EXE_squillion"))
        .args(["validate", "/no/such/model.json"])
        .output()
        .expect("squillion runs");
    assert_eq!(missing.status.code(), Some(2));
}

#[test]
fn eval_prints_the_problems_in_the_language_of_the_environment_and_exits_2() {
    let (zh, path) = run(
        "{\"entities\": [\n  {\"name\": 1,}\n]}",
        &["eval"],
        "zh_CN.UTF-8",
    );
    assert_eq!(zh.status.code(), Some(2));
    assert_eq!(
        text(&zh.stderr),
        format!("{path}: 第 2 行，第 14 列：JSON 语法错误：trailing comma\n")
    );
    let (en, path) = run(BAD, &["eval", "--lang", "en"], "zh_CN.UTF-8");
    assert!(
        text(&en.stderr).contains(&format!(
            "{path}: $.relationships[0].child: unknown entity \"post\"\n"
        )),
        "{en:?}"
    );
    // With --json the problems are JSON on stdout too.
    let (js, _) = run(BAD, &["eval", "--json"], "C");
    let v: serde_json::Value = serde_json::from_slice(&js.stdout).expect("JSON");
    assert_eq!(v["problems"][1]["code"], "unknown-bson-type");
}
