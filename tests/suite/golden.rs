//! Golden evaluations: what `squillion` prints for every preset's every design and for every
//! model held in `tests/models/`, checked in under `tests/golden/`. Every number the CLI and
//! the page show comes from these outputs, so a change of any number is a diff someone reads.
//!
//! The test runs the real binary and compares its standard output byte for byte, and its exit
//! code, with the checked-in files (nothing is left out: the outputs hold no timings or other
//! volatile parts). On a difference it names each changed JSON value by its path. After a
//! reviewed change, re-bless with
//!
//! ```sh
//! SQUILLION_BLESS=1 cargo test --test suite golden::
//! ```
//!
//! which rewrites `tests/golden/` (and removes files no case writes any more); explain every
//! changed number in the commit.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use serde_json::Value;

/// The folder of the golden files.
const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden");

/// The models of `tests/` that are evaluated beside the presets.
const MODELS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models");

/// The file that records each case's exit code (0, or 1 for an error-severity warning).
const EXIT_CODES: &str = "exit-codes.txt";

/// Designs a model file (not a preset) is evaluated under: the named three and its own.
const MODEL_DESIGNS: [&str; 4] = ["normalized", "denormalized", "bucketed", "custom"];

/// Where the most differing values are listed per file.
const MAX_LISTED: usize = 40;

/// One command and the golden file of its standard output.
struct Case {
    /// Path of the golden file under `tests/golden/`, with `/` separators.
    file: String,
    /// The command's arguments.
    args: Vec<String>,
}

/// What one case printed.
struct Output {
    stdout: String,
    code: i32,
}

fn squillion(args: &[String]) -> Output {
    // The language is pinned to English whatever the shell's locale: JSON ignores the
    // environment anyway, and a command that prints words must not change its golden file.
    let out = Command::new(env!("CARGO_BIN_EXE_squillion"))
        .args(args)
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env("LANG", "C")
        .output()
        .unwrap_or_else(|e| panic!("cannot run squillion {args:?}: {e}"));
    let code = out.status.code().unwrap_or(-1);
    assert!(
        code == 0 || code == 1,
        "squillion {} exited {code}:\n{}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    Output {
        stdout: String::from_utf8(out.stdout).expect("UTF-8 output"),
        code,
    }
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

/// Every case: the preset list, each preset's designs (and its own, `custom`) and comparison,
/// and each model file's named designs, own design and comparison.
fn cases_of(presets: &Value) -> Vec<Case> {
    let mut out = Vec::new();
    for p in presets.as_array().expect("presets --json is an array") {
        let name = p["name"].as_str().expect("a preset name");
        let mut designs: Vec<&str> = p["designs"]
            .as_array()
            .expect("a preset's designs")
            .iter()
            .map(|d| d.as_str().expect("a design name"))
            .collect();
        designs.push("custom");
        for d in designs {
            out.push(Case {
                file: format!("presets/{name}/{d}.json"),
                args: strings(&["eval", "--preset", name, "--design", d, "--json"]),
            });
        }
        out.push(Case {
            file: format!("presets/{name}/compare.json"),
            args: strings(&["compare", "--preset", name, "--json"]),
        });
    }
    let mut models: Vec<PathBuf> = std::fs::read_dir(MODELS)
        .expect("tests/models")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    models.sort();
    assert!(!models.is_empty(), "no model in {MODELS}");
    for path in models {
        let stem = path.file_stem().expect("a file name").to_string_lossy();
        let file = path.display().to_string();
        for d in MODEL_DESIGNS {
            out.push(Case {
                file: format!("models/{stem}/{d}.json"),
                args: strings(&["eval", &file, "--design", d, "--json"]),
            });
        }
        out.push(Case {
            file: format!("models/{stem}/compare.json"),
            args: strings(&["compare", &file, "--json"]),
        });
    }
    out
}

/// Runs the cases on every core; returns their outputs in case order.
fn run_all(cases: &[Case]) -> Vec<Output> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Output>>> = Mutex::new((0..cases.len()).map(|_| None).collect());
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(case) = cases.get(i) else { break };
                let out = squillion(&case.args);
                results.lock().expect("no worker panicked")[i] = Some(out);
            });
        }
    });
    results
        .into_inner()
        .expect("no worker panicked")
        .into_iter()
        .map(|o| o.expect("every case ran"))
        .collect()
}

/// Lists where two JSON values differ, one line per differing leaf: `path: old → new`.
fn json_diff(path: &str, old: &Value, new: &Value, out: &mut Vec<String>) {
    match (old, new) {
        (Value::Object(a), Value::Object(b)) => {
            let keys: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
            for k in keys {
                member_diff(&format!("{path}.{k}"), a.get(k), b.get(k), out);
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            for i in 0..a.len().max(b.len()) {
                member_diff(&format!("{path}[{i}]"), a.get(i), b.get(i), out);
            }
        }
        _ if old != new => out.push(format!("{path}: {} → {}", brief(old), brief(new))),
        _ => {}
    }
}

/// Lists how a key's or an element's value differs: changed inside, gone, or new.
fn member_diff(path: &str, old: Option<&Value>, new: Option<&Value>, out: &mut Vec<String>) {
    match (old, new) {
        (Some(x), Some(y)) => json_diff(path, x, y, out),
        (Some(x), None) => out.push(format!("{path}: {} → (gone)", brief(x))),
        (None, Some(y)) => out.push(format!("{path}: (new) → {}", brief(y))),
        (None, None) => {}
    }
}

/// A value in at most 120 characters.
fn brief(v: &Value) -> String {
    let s = v.to_string();
    match s.char_indices().nth(120) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s,
    }
}

/// Describes how `new` differs from the golden `old` (both a command's output).
fn describe(old: &str, new: &str) -> String {
    match (
        serde_json::from_str::<Value>(old),
        serde_json::from_str::<Value>(new),
    ) {
        (Ok(a), Ok(b)) => {
            let mut lines = Vec::new();
            json_diff("$", &a, &b, &mut lines);
            if lines.is_empty() {
                return "  the same values, written differently (key order or spacing)\n".into();
            }
            let mut s = String::new();
            for l in lines.iter().take(MAX_LISTED) {
                let _ = writeln!(s, "  {l}");
            }
            if lines.len() > MAX_LISTED {
                let _ = writeln!(s, "  … and {} more", lines.len() - MAX_LISTED);
            }
            s
        }
        _ => "  not JSON on one side\n".into(),
    }
}

fn exit_codes(cases: &[Case], outputs: &[Output]) -> String {
    let mut s = String::from(
        "# The exit code of each golden case (1: an error-severity warning). Written by\n\
         # SQUILLION_BLESS=1 cargo test --test suite golden::.\n",
    );
    for (c, o) in cases.iter().zip(outputs) {
        let _ = writeln!(s, "{} {}", o.code, c.file);
    }
    s
}

/// Every file under `dir`, as paths relative to it with `/` separators.
fn files_under(dir: &Path, prefix: &str, out: &mut BTreeSet<String>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd {
        let path = e.expect("a directory entry").path();
        let name = path
            .file_name()
            .expect("a name")
            .to_string_lossy()
            .to_string();
        let rel = if prefix.is_empty() {
            name
        } else {
            format!("{prefix}/{name}")
        };
        if path.is_dir() {
            files_under(&path, &rel, out);
        } else {
            out.insert(rel);
        }
    }
}

#[test]
fn golden_evaluations() {
    let bless = std::env::var_os("SQUILLION_BLESS").is_some_and(|v| v != "0");
    let list = squillion(&strings(&["presets", "--json"]));
    let presets: Value = serde_json::from_str(&list.stdout).expect("presets --json");
    let mut cases = vec![Case {
        file: "presets.json".into(),
        args: strings(&["presets", "--json"]),
    }];
    cases.extend(cases_of(&presets));
    let mut outputs = vec![list];
    outputs.extend(run_all(&cases[1..]));

    let root = Path::new(GOLDEN);
    let mut expected: BTreeSet<String> = cases.iter().map(|c| c.file.clone()).collect();
    expected.insert(EXIT_CODES.into());
    let codes = exit_codes(&cases, &outputs);

    if bless {
        let mut present = BTreeSet::new();
        files_under(root, "", &mut present);
        for stale in present.difference(&expected) {
            std::fs::remove_file(root.join(stale)).expect("remove a stale golden file");
        }
        for (c, o) in cases.iter().zip(&outputs) {
            let path = root.join(&c.file);
            std::fs::create_dir_all(path.parent().expect("a folder")).expect("create a folder");
            std::fs::write(&path, &o.stdout).expect("write a golden file");
        }
        std::fs::write(root.join(EXIT_CODES), &codes).expect("write the exit codes");
        eprintln!("blessed {} golden files in {GOLDEN}", cases.len());
        return;
    }

    let mut report = String::new();
    for (c, o) in cases.iter().zip(&outputs) {
        match std::fs::read_to_string(root.join(&c.file)) {
            Ok(old) if old == o.stdout => {}
            Ok(old) => {
                let _ = writeln!(
                    report,
                    "{} (squillion {}) differs:\n{}",
                    c.file,
                    c.args.join(" "),
                    describe(&old, &o.stdout)
                );
            }
            Err(_) => {
                let _ = writeln!(
                    report,
                    "{} is missing (squillion {})",
                    c.file,
                    c.args.join(" ")
                );
            }
        }
    }
    match std::fs::read_to_string(root.join(EXIT_CODES)) {
        Ok(old) if old == codes => {}
        Ok(old) => {
            let _ = writeln!(report, "{EXIT_CODES} differs:");
            for (a, b) in old.lines().zip(codes.lines()).filter(|(a, b)| a != b) {
                let _ = writeln!(report, "  {a} → {b}");
            }
        }
        Err(_) => {
            let _ = writeln!(report, "{EXIT_CODES} is missing");
        }
    }
    let mut present = BTreeSet::new();
    files_under(root, "", &mut present);
    for stale in present.difference(&expected) {
        let _ = writeln!(report, "{stale} is no case's output any more");
    }
    assert!(
        report.is_empty(),
        "the golden evaluations changed:\n\n{report}\n\
         If every change is intended, re-bless with `SQUILLION_BLESS=1 cargo test --test suite golden::` \
         and explain each changed number in the commit."
    );
}
