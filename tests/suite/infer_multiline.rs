//! `squillion infer` of documents spread over several lines (a pretty-printed array, mongosh's
//! output), of standard input (`-`, `-:collection`), and its `--progress` line, which goes to
//! standard error only.
#![cfg(not(target_arch = "wasm32"))]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

/// Runs `squillion ARGS` with `stdin` as its standard input.
fn squillion(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_squillion"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    if let Some(mut input) = child.stdin.take() {
        // A run that fails before reading its input closes the pipe: not this test's error.
        let _ = input.write_all(stdin);
    }
    child.wait_with_output().unwrap_or_else(|e| panic!("{e}"))
}

fn path(p: &Path) -> &str {
    p.to_str()
        .unwrap_or_else(|| panic!("not UTF-8: {}", p.display()))
}

/// Runs `squillion infer ARGS --json` (exit 0) and returns its output.
fn infer_json(args: &[&str], stdin: &[u8]) -> Value {
    let mut all = vec!["infer"];
    all.extend_from_slice(args);
    all.push("--json");
    let out = squillion(&all, stdin);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"))
}

/// Four documents, one a line (as mongoexport writes them by default).
const LINES: &str = r#"{"_id": {"$oid": "65a1b2c3d4e5f60718293a4b"}, "name": "Ann", "tags": ["a", "b"], "age": 31}
{"_id": {"$oid": "65a1b2c3d4e5f60718293a4c"}, "name": "Bob", "tags": [], "address": {"city": "Lyon"}}
{"_id": {"$oid": "65a1b2c3d4e5f60718293a4d"}, "name": "Cy { ] \" x", "tags": ["c"], "age": 40}
{"_id": {"$oid": "65a1b2c3d4e5f60718293a4e"}, "name": "Dee", "tags": ["d", "e", "f"]}
"#;

/// The same documents as `mongoexport --jsonArray --pretty` writes them: one array, each
/// document over several lines.
fn pretty_array() -> String {
    let docs: Vec<String> = LINES
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}"));
            serde_json::to_string_pretty(&v).unwrap_or_else(|e| panic!("{e}"))
        })
        .collect();
    format!("[\n{}\n]\n", docs.join(",\n"))
}

#[test]
fn a_pretty_printed_array_gives_the_model_of_the_same_documents_one_a_line() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let lines = dir.path().join("lines.json");
    let pretty = dir.path().join("pretty.json");
    std::fs::write(&lines, LINES).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(&pretty, pretty_array()).unwrap_or_else(|e| panic!("{e}"));
    let a = infer_json(&[&format!("{}:users", path(&lines))], b"");
    let b = infer_json(&[&format!("{}:users", path(&pretty))], b"");
    assert_eq!(b["report"]["sources"][0]["documents"], 4);
    assert_eq!(b["report"]["skipped_lines"], 0);
    assert_eq!(a["model"], b["model"]);
    assert_eq!(a["report"]["entities"], b["report"]["entities"]);
}

#[test]
fn standard_input_is_read_as_a_collection() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let file = dir.path().join("users.json");
    std::fs::write(&file, LINES).unwrap_or_else(|e| panic!("{e}"));
    let from_file = infer_json(&[path(&file)], b"");

    // `-:users`: the same model as the file users.json.
    let named = infer_json(&["-:users"], LINES.as_bytes());
    assert_eq!(named["model"], from_file["model"]);
    assert_eq!(named["report"]["sources"][0]["source"], "(stdin)");

    // `-` alone: the collection `stdin`; a pretty array read as well.
    let plain = infer_json(&["-"], pretty_array().as_bytes());
    assert_eq!(plain["model"]["entities"][0]["name"], "stdin");
    assert_eq!(plain["report"]["sources"][0]["collection"], "stdin");
    assert_eq!(plain["report"]["sources"][0]["documents"], 4);

    // Standard input cannot be read twice, nor as a SQL schema.
    let twice = squillion(&["infer", "-", "-:other"], LINES.as_bytes());
    assert_eq!(twice.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&twice.stderr).contains("standard input (-) can be read once"));
    let sql = squillion(&["infer", "-", "--sql"], b"CREATE TABLE t (id INT);");
    assert_eq!(sql.status.code(), Some(2));
}

#[test]
fn progress_goes_to_standard_error_only() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let file = dir.path().join("users.json");
    let text = pretty_array();
    std::fs::write(&file, &text).unwrap_or_else(|e| panic!("{e}"));
    for extra in [&[][..], &["--json"][..]] {
        let mut args = vec!["infer", path(&file)];
        args.extend_from_slice(extra);
        let quiet = squillion(&args, b"");
        args.push("--progress");
        let shown = squillion(&args, b"");
        assert_eq!(shown.status.code(), Some(0));
        // Standard output is the same with and without the progress line.
        assert_eq!(shown.stdout, quiet.stdout, "{extra:?}");
        let err = String::from_utf8_lossy(&shown.stderr);
        let size = text.len();
        assert!(
            err.contains(&format!("100.0% {size} B/{size} B 4 documents")),
            "{err}"
        );
        // Not a terminal and no --progress: no bar.
        assert!(!String::from_utf8_lossy(&quiet.stderr).contains("100.0%"));
    }
}
