//! The peer for BSON sizes: pymongo's `bson.encode`, run by python3 on canonical Extended JSON.
//! Shared by the tests that check a layout's documents byte for byte (`#[path]` module: each
//! integration test is its own crate). pymongo is installed by scripts/setup.sh, so a missing
//! peer fails the test rather than skipping it.

use std::io::Write;
use std::process::{Command, Stdio};

use bson::{Bson, Document};

/// Returns pymongo's size of each document of `docs`, in order.
#[allow(dead_code)]
pub fn sizes(docs: &[Document]) -> Vec<u64> {
    let corpus: String = docs
        .iter()
        .map(|d| {
            Bson::Document(d.clone())
                .into_canonical_extjson()
                .to_string()
                + "\n"
        })
        .collect();
    let sizes = sizes_of_lines(&corpus);
    assert_eq!(sizes.len(), docs.len(), "pymongo read every document");
    sizes
}

/// Returns pymongo's size of the document on each line of `corpus` (canonical Extended JSON,
/// one document a line).
pub fn sizes_of_lines(corpus: &str) -> Vec<u64> {
    let script = "import sys, bson\nfrom bson import json_util\n\
        o = json_util.CANONICAL_JSON_OPTIONS\n\
        for line in sys.stdin:\n    print(len(bson.encode(json_util.loads(line, json_options=o))))\n";
    let mut child = Command::new("python3")
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("python3 with pymongo is needed (scripts/setup.sh): {e}"));
    let mut stdin = child.stdin.take().unwrap_or_else(|| panic!("stdin"));
    let text = corpus.to_string();
    // Written from another thread: a corpus larger than the pipe would block otherwise.
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    let out = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
    writer
        .join()
        .unwrap_or_else(|_| panic!("writer"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        out.status.success(),
        "pymongo failed (scripts/setup.sh installs it): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.trim().parse().unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}
