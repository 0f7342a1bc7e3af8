//! The `squillion` binary of this build, and `squillion infer --json --out`, whose report and
//! model an inference test reads back (shared by the reference-key and starter-workload tests).

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;
use squillion::model::{parse_model, Model};

/// Runs this build's `squillion` with `args`.
pub fn squillion(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_squillion"))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Runs this build's `squillion` with `args`, which must exit 0, and returns its standard
/// output read as JSON (`--json`).
pub fn squillion_json(args: &[&str]) -> Value {
    let out = squillion(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"))
}

/// Runs `squillion infer INPUTS --json --out model.json` in `dir`, which must exit 0: the
/// report and the model.
pub fn infer(inputs: &[String], dir: &Path) -> (Value, Model) {
    let out_path = dir.join("model.json").to_string_lossy().into_owned();
    let mut args = vec!["infer"];
    args.extend(inputs.iter().map(String::as_str));
    args.extend(["--json", "--out", &out_path]);
    let out = squillion(&args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
    let text = std::fs::read_to_string(&out_path).unwrap_or_else(|e| panic!("{e}"));
    let model = parse_model(&text).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    (report["report"].clone(), model)
}
