//! `squillion size` run as a real binary in a temporary directory: exact sizes, error lines,
//! exit codes 0/1/2, stdin, and `--json` output.
#![cfg(not(target_arch = "wasm32"))]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn squillion(args: &[&str], dir: &Path, stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_squillion"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run squillion");
    let input = stdin.unwrap_or("").to_string();
    let mut pipe = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(input.as_bytes());
    });
    let output = child.wait_with_output().expect("wait for squillion");
    writer.join().expect("stdin writer");
    output
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

fn code(output: &Output) -> i32 {
    output.status.code().expect("exit code")
}

const DOCS: &str = "{a: 1}\n{\"_id\": {\"$oid\": \"5f0c3c0b9d1e8a3f2c4b6a10\"}, \"n\": {\"$numberLong\": \"5\"}}\n\n{\n  tags: ['x', 'y'],\n}\n";

#[test]
fn sizes_of_a_file_are_exact_and_exit_zero() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("docs.ndjson"), DOCS).unwrap();
    let out = squillion(&["size", "docs.ndjson"], dir.path(), None);
    assert_eq!(
        stdout(&out),
        "12\t0.00%\tline 1\n33\t0.00%\tline 2\n34\t0.00%\tline 4\n"
    );
    assert_eq!(code(&out), 0);
}

#[test]
fn stdin_is_read_when_the_file_is_dash_or_absent() {
    let dir = tempfile::tempdir().unwrap();
    for args in [&["size", "-"][..], &["size"][..]] {
        let out = squillion(args, dir.path(), Some(DOCS));
        assert_eq!(
            stdout(&out),
            "12\t0.00%\tline 1\n33\t0.00%\tline 2\n34\t0.00%\tline 4\n"
        );
        assert_eq!(code(&out), 0);
    }
}

#[test]
fn a_json_array_of_documents_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let out = squillion(
        &["size"],
        dir.path(),
        Some("[\n  {\"a\": 1},\n  {\"b\": [1, 2, 3]}\n]\n"),
    );
    assert_eq!(stdout(&out), "12\t0.00%\tline 2\n34\t0.00%\tline 3\n");
    assert_eq!(code(&out), 0);
}

#[test]
fn unreadable_documents_are_reported_with_line_and_column_and_exit_one() {
    let dir = tempfile::tempdir().unwrap();
    let input = "{a: 1}\n{b 2}\n{c: Foo(1)}\n{d: 4}\n";
    let out = squillion(&["size"], dir.path(), Some(input));
    assert_eq!(
        stdout(&out),
        "12\t0.00%\tline 1\n\
         error\tline 2, column 4: expected ':' after the field name\n\
         error\tline 3, column 5: unknown function Foo(…)\n\
         12\t0.00%\tline 4\n"
    );
    assert_eq!(code(&out), 1);
}

#[test]
fn limits_are_exact_to_the_byte() {
    let dir = tempfile::tempdir().unwrap();
    // {"s": <string>} takes 4 + (1 + 2) + (4 + len + 1) + 1 = len + 13 bytes.
    let at_limit = format!("{{\"s\": \"{}\"}}\n", "x".repeat(16_777_216 - 13));
    let over = format!("{{\"s\": \"{}\"}}\n", "x".repeat(16_777_216 - 12));
    std::fs::write(dir.path().join("at.json"), &at_limit).unwrap();
    std::fs::write(dir.path().join("over.json"), &over).unwrap();

    let out = squillion(&["size", "at.json"], dir.path(), None);
    assert_eq!(stdout(&out), "16777216\t100.00%\tline 1\tWARNING ≥80%\n");
    assert_eq!(code(&out), 0);

    let out = squillion(&["size", "over.json"], dir.path(), None);
    assert_eq!(
        stdout(&out),
        "16777217\t100.00%\tline 1\tOVER LIMIT (+1 bytes)\n"
    );
    assert_eq!(code(&out), 1);
}

#[test]
fn documents_nested_deeper_than_100_levels_are_flagged() {
    let dir = tempfile::tempdir().unwrap();
    let deep = |levels: usize| {
        format!(
            "{}1{}",
            "{a: ".repeat(levels - 1) + "{a: ",
            "}".repeat(levels)
        )
    };
    let input = format!("{}\n{}\n", deep(100), deep(104));
    let out = squillion(&["size"], dir.path(), Some(&input));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(!lines[0].contains("TOO DEEP"), "{text}");
    assert!(
        lines[1].ends_with("\tline 2\tTOO DEEP (depth 104 > 100)"),
        "{text}"
    );
    assert_eq!(code(&out), 1);
}

#[test]
fn json_output_is_one_parseable_object_per_document() {
    let dir = tempfile::tempdir().unwrap();
    let out = squillion(
        &["size", "--json"],
        dir.path(),
        Some("{a: [1, {b: 'x'}]}\n{oops 1}\n"),
    );
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    let objects: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    assert_eq!(objects.len(), 2);
    let doc = &objects[0];
    assert_eq!(doc["line"], 1);
    assert_eq!(doc["size"], 37);
    assert_eq!(doc["limit"], 16_777_216);
    assert_eq!(doc["status"], "ok");
    assert_eq!(doc["depth"], 3);
    assert_eq!(doc["field_name_bytes"], 4);
    assert_eq!(doc["array_index_bytes"], 4);
    assert_eq!(doc["share"].as_f64(), Some(37.0 / 16_777_216.0));
    let paths: Vec<&str> = doc["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, vec!["a", "a.0", "a.1", "a.1.b"]);
    let a = &doc["fields"][0];
    assert_eq!(
        (
            a["type"].as_str(),
            a["key_bytes"].as_u64(),
            a["value_bytes"].as_u64(),
            a["elements"].as_u64()
        ),
        (Some("array"), Some(3), Some(29), Some(2))
    );
    assert!(doc["fields"][1]["elements"].is_null());
    let error = &objects[1];
    assert_eq!(error["line"], 2);
    assert_eq!(error["error"]["line"], 2);
    assert_eq!(error["error"]["column"], 7);
    assert!(error["error"]["message"]
        .as_str()
        .unwrap()
        .contains("expected ':'"));
}

#[test]
fn usage_errors_exit_two_and_help_exits_zero() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(code(&squillion(&["size", "--bogus"], dir.path(), None)), 2);
    assert_eq!(code(&squillion(&["bogus"], dir.path(), None)), 2);
    assert_eq!(code(&squillion(&[], dir.path(), None)), 2);
    let missing = squillion(&["size", "missing.json"], dir.path(), None);
    assert_eq!(code(&missing), 2);
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot read missing.json"));

    let help = squillion(&["--help"], dir.path(), None);
    assert_eq!(code(&help), 0);
    assert!(stdout(&help).contains("size"));
    let help = squillion(&["size", "--help"], dir.path(), None);
    assert_eq!(code(&help), 0);
    let text = stdout(&help);
    assert!(
        text.contains("16,777,216") && text.contains("Exit codes"),
        "{text}"
    );
}

#[test]
fn input_that_is_not_utf8_is_an_input_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.json"), b"{a: '\xff'}").unwrap();
    let out = squillion(&["size", "bad.json"], dir.path(), None);
    assert_eq!(code(&out), 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("not UTF-8"));
}
