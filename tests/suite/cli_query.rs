//! `squillion query` run as a real binary in a temporary directory: loading NDJSON files into
//! collections, results as relaxed Extended JSON, `--explain`, stdin, exit codes 0/1/2.
#![cfg(not(target_arch = "wasm32"))]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn squillion(args: &[&str], dir: &Path, stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_squillion"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run squillion");
    let input = stdin.to_string();
    let mut pipe = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(input.as_bytes());
    });
    let output = child.wait_with_output().expect("wait for squillion");
    writer.join().expect("stdin writer");
    output
}

fn out(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8 output")
}

fn err(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("UTF-8 output")
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exit code")
}

const USERS: &str = r#"{"_id": 1, "name": "ann", "followers": [2, 3, 4], "joined": {"$date": "2024-01-02T00:00:00Z"}}
{"_id": 2, "name": "bob", "followers": [1]}
{_id: 3, name: 'cy', followers: [1, 2, 4]}
"#;

fn setup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("users.ndjson"), USERS).expect("write users");
    std::fs::write(dir.path().join("bad.ndjson"), "{\"a\": 1}\n{\"a\": ]}\n").expect("write");
    dir
}

#[test]
fn find_prints_relaxed_extended_json_one_per_line() {
    let dir = setup();
    let o = squillion(
        &[
            "query",
            "--data",
            "users.ndjson:users",
            "db.users.find({ followers: { $size: 3 } }).sort({ _id: -1 })",
        ],
        dir.path(),
        "",
    );
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert_eq!(
        out(&o),
        "{\"_id\":3,\"name\":\"cy\",\"followers\":[1,2,4]}\n\
         {\"_id\":1,\"name\":\"ann\",\"followers\":[2,3,4],\"joined\":{\"$date\":\"2024-01-02T00:00:00.000Z\"}}\n"
    );
}

#[test]
fn explain_adds_the_statistics_line() {
    let dir = setup();
    let o = squillion(
        &[
            "query",
            "--data",
            "users.ndjson",
            "--explain",
            "db.users.find({ followers: 4 }, { _id: 1 })",
        ],
        dir.path(),
        "",
    );
    assert_eq!(code(&o), 0, "{}", err(&o));
    let text = out(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(&lines[..2], ["{\"_id\":1}", "{\"_id\":3}"]);
    let stats: serde_json::Value = serde_json::from_str(lines[2]).expect("JSON statistics");
    assert_eq!(stats["executionStats"]["nReturned"], 2);
    assert_eq!(stats["executionStats"]["totalDocsExamined"], 3);
    assert_eq!(stats["executionStats"]["totalKeysExamined"], 0);
    assert_eq!(
        stats["queryPlanner"]["winningPlan"]["inputStage"]["stage"],
        "COLLSCAN"
    );
}

#[test]
fn writes_and_indexes_from_stdin() {
    let dir = setup();
    let script = "db.users.updateMany(\n  { followers: 1 },\n  { $inc: { n: 1 } }\n)";
    let o = squillion(
        &["query", "--data", "users.ndjson:users", "--explain", "-"],
        dir.path(),
        script,
    );
    assert_eq!(code(&o), 0, "{}", err(&o));
    let text = out(&o);
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("{\"acknowledged\":true,\"insertedId\":null,\"matchedCount\":2,\"modifiedCount\":2,\"upsertedCount\":0}")
    );
    let stats: serde_json::Value =
        serde_json::from_str(lines.next().unwrap_or("")).expect("JSON statistics");
    assert_eq!(stats["writeStats"]["nModified"], 2);
    let o = squillion(
        &[
            "query",
            "--data",
            "users.ndjson:u",
            "db.u.createIndex({ followers: 1 })",
        ],
        dir.path(),
        "",
    );
    assert_eq!(out(&o), "\"followers_1\"\n");
}

#[test]
fn server_errors_exit_one_like_mongosh() {
    let dir = setup();
    let o = squillion(
        &[
            "query",
            "--data",
            "users.ndjson:users",
            "db.users.insertOne({ _id: 2 })",
        ],
        dir.path(),
        "",
    );
    assert_eq!(code(&o), 1);
    assert!(
        err(&o).starts_with("MongoServerError[DuplicateKey]: E11000 duplicate key error"),
        "{}",
        err(&o)
    );
    assert!(err(&o).contains("(code 11000)"));
    let o = squillion(&["query", "db.users.find().collation({})"], dir.path(), "");
    assert_eq!(code(&o), 1);
    assert!(err(&o).contains("line 1, column 17"), "{}", err(&o));
}

#[test]
fn input_errors_exit_two_with_file_line_and_column() {
    let dir = setup();
    let o = squillion(
        &["query", "--data", "bad.ndjson:b", "db.b.find()"],
        dir.path(),
        "",
    );
    assert_eq!(code(&o), 2);
    assert!(err(&o).contains("bad.ndjson:2:7"), "{}", err(&o));
    let o = squillion(&["query", "db.b.find({ a: })"], dir.path(), "");
    assert_eq!(code(&o), 2);
    assert!(
        err(&o).contains("SyntaxError: line 1, column 16"),
        "{}",
        err(&o)
    );
    let o = squillion(
        &["query", "--data", "missing.ndjson:m", "db.m.find()"],
        dir.path(),
        "",
    );
    assert_eq!(code(&o), 2);
    let o = squillion(&["query"], dir.path(), "");
    assert_eq!(code(&o), 2);
}
