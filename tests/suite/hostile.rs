//! Hostile input never crashes or hangs Squillion. Every file under
//! `tests/fixtures/hostile/documents/` goes through the real `squillion size` binary (plain and
//! `--json`); every model under `tests/fixtures/hostile/models/` goes through `parse_model`,
//! the three named designs and its own, the full-scale numbers, the warnings and generation at
//! the model's own sample (with a smaller dataset budget, see [`options`]). Each case has 20 seconds; `expected.tsv` says what each must answer.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use squillion::analysis::compare;
use squillion::eval::budget::fit;
use squillion::generate::{generate_with, GenOptions};
use squillion::model::parse_model;

/// How long one case may take before it counts as a hang.
const LIMIT: Duration = Duration::from_secs(20);

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile")
}

/// Returns `expected.tsv`: case (relative path) → (expected outcome, text the output must hold).
fn expected() -> BTreeMap<String, (String, String)> {
    let text = std::fs::read_to_string(dir().join("expected.tsv")).expect("expected.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut cols = l.splitn(3, '\t');
            let case = cols.next().unwrap_or_default().to_string();
            let outcome = cols.next().unwrap_or_default().to_string();
            let needle = cols.next().unwrap_or_default().to_string();
            (case, (outcome, needle))
        })
        .collect()
}

fn cases(sub: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir().join(sub))
        .expect("hostile fixtures")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    files
}

/// Runs the binary with `args`, killing it after [`LIMIT`]; returns (exit code, stdout + stderr).
fn run_cli(args: &[&str]) -> Result<(i32, String), String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_squillion"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("spawn: {e}"))?;
    // Drain the pipes on threads so that a large output cannot block the child.
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let out_t = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out.read_to_end(&mut s);
        s
    });
    let err_t = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if start.elapsed() > LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("hang: killed after {} s", LIMIT.as_secs()));
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut text = String::from_utf8_lossy(&out_t.join().unwrap_or_default()).into_owned();
    text.push_str(&String::from_utf8_lossy(&err_t.join().unwrap_or_default()));
    match status.code() {
        Some(code) => Ok((code, text)),
        None => Err(format!("crash: killed by a signal ({status})")),
    }
}

/// Checks one outcome against its line in `expected.tsv`; returns the problem, if any.
fn check(
    case: &str,
    outcome: &str,
    output: &str,
    want: Option<&(String, String)>,
) -> Option<String> {
    let Some((want_outcome, needle)) = want else {
        return Some(format!(
            "{case}: no line in expected.tsv (got {outcome}: {output:.300})"
        ));
    };
    if outcome != want_outcome {
        return Some(format!(
            "{case}: expected {want_outcome}, got {outcome}: {output:.300}"
        ));
    }
    if !output.contains(needle.as_str()) {
        return Some(format!("{case}: output lacks {needle:?}: {output:.300}"));
    }
    None
}

#[test]
fn hostile_documents_through_the_cli() {
    let want = expected();
    let mut problems = Vec::new();
    for path in cases("documents") {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let case = format!("documents/{name}");
        let file = path.to_str().expect("UTF-8 path");
        for json in [false, true] {
            let mut args = vec!["size", file];
            if json {
                args.push("--json");
            }
            let (outcome, output) = match run_cli(&args) {
                Ok((code, output)) => (format!("exit {code}"), output),
                Err(e) => (e.clone(), e),
            };
            // The JSON form must say the same thing; its wording may differ (escaped quotes).
            let w = want.get(&case);
            let problem = if json {
                w.and_then(|(o, _)| {
                    (o != &outcome).then(|| {
                        format!("{case} --json: expected {o}, got {outcome}: {output:.300}")
                    })
                })
            } else {
                check(&case, &outcome, &output, w)
            };
            problems.extend(problem);
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

/// Returns the generation options of the test: the defaults, but a dataset budget of 32 MiB
/// instead of 64 MiB, so that a debug build under load stays far from the 20 s limit. The
/// budget is the same code path whatever its value; the presets need up to 128 MB.
fn options() -> GenOptions {
    GenOptions {
        max_total_bytes: 2 * squillion::size::MAX_BSON_SIZE,
        ..GenOptions::default()
    }
}

/// Returns what Squillion makes of one model: "error" with the paths of its problems, or "ok"
/// with the number of documents generated.
fn run_model(text: String) -> (String, String) {
    let model = match parse_model(&text) {
        Ok(m) => m,
        Err(e) => return ("error".into(), e.to_string()),
    };
    let analyses = match compare(&model) {
        Ok(a) => a,
        Err(e) => return ("design error".into(), e.to_string()),
    };
    // An evaluation refuses, before generating anything, a sample the user sized beyond the
    // memory budget (eval::budget; a default sample is lowered to fit instead).
    let explicit = model.sample.max_documents.is_some();
    for a in &analyses {
        let mut m = model.clone();
        if let Err(e) = fit(&mut m, &a.layout, &GenOptions::default(), explicit) {
            return ("refused".into(), e.to_string());
        }
    }
    let mut documents = 0;
    let mut warnings = 0;
    for a in &analyses {
        warnings += a.warnings.len();
        let data = generate_with(&model, &a.layout, &options());
        for c in &data.collections {
            for i in 0..c.documents.len() {
                let _ = data.full_size(&c.name, i);
            }
            documents += c.documents.len();
        }
    }
    (
        "ok".into(),
        format!(
            "{} designs, {documents} documents, {warnings} warnings",
            analyses.len()
        ),
    )
}

#[test]
fn hostile_models_in_process() {
    let want = expected();
    let mut problems = Vec::new();
    for path in cases("models") {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let case = format!("models/{name}");
        let text = std::fs::read_to_string(&path).expect("model text");
        let (tx, rx) = mpsc::channel();
        let start = Instant::now();
        let worker = std::thread::Builder::new()
            .stack_size(8 << 20)
            .spawn(move || {
                let _ = tx.send(run_model(text));
            })
            .expect("thread");
        let (outcome, output) = match rx.recv_timeout(LIMIT) {
            Ok(r) => r,
            // The worker is left running; the test fails and the process ends with it.
            Err(mpsc::RecvTimeoutError::Timeout) => ("hang".into(), String::new()),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                let _ = worker.join();
                ("crash (panic)".into(), String::new())
            }
        };
        // Shown with `cargo test --test suite hostile:: -- --nocapture`.
        eprintln!("{case}: {outcome} in {} ms", start.elapsed().as_millis());
        problems.extend(check(&case, &outcome, &output, want.get(&case)));
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

#[test]
fn hostile_documents_as_bson_bytes() {
    // The same files read as BSON (most are not): the reader refuses them, and whatever it
    // accepts is sized without panicking. `claims-200mb.bson` says 200 MB in 17 bytes.
    for path in cases("documents") {
        let bytes = std::fs::read(&path).expect("fixture");
        if let Ok(doc) = bson::Document::from_reader(bytes.as_slice()) {
            let a = squillion::size::analyze(&doc);
            assert_eq!(Some(a.size), doc.to_vec().ok().map(|b| b.len() as u64));
        }
    }
}

/// Regressions: arithmetic that overflowed (a panic in debug builds, a wrong number in
/// release) on numbers a model can ask for.
#[test]
fn arithmetic_saturates_on_hostile_numbers() {
    use squillion::arith::{array_size, first_count_over, index_digits_sum};
    use squillion::date::{add_days, format_date};
    assert_eq!(index_digits_sum(u64::MAX), u64::MAX);
    assert_eq!(array_size(1_000_000_000_000_000, 16_777_216), u64::MAX);
    assert_eq!(array_size(3, 1), 5 + 3 * 3 + 3);
    assert_eq!(first_count_over(10, u64::MAX, 16_777_216), None);
    assert_eq!(first_count_over(10, u64::MAX - 1, 16_777_216), None);
    // Days beyond the calendar have no date, and do not overflow.
    assert_eq!(format_date(i64::MAX), None);
    assert_eq!(format_date(i64::MIN), None);
    assert_eq!(format_date(0).as_deref(), Some("1970-01-01"));
    assert_eq!(add_days("2025-01-01", i64::MAX as u64), None);
    // A break date beyond any calendar is "not within 100 years", its days saturated.
    let far = squillion::arith::break_date(0, u64::MAX, 1e-300, "2025-01-01");
    assert_eq!(
        far.map(|d| (d.days, d.date, d.beyond_years)),
        Some((u64::MAX, None, Some(100)))
    );
}

/// Every hostile model travels through a share link intact: the page's fragment
/// (`#playground&model=…`) carries the same text back, or, for a model whose link would be too
/// long, a refusal that says so. The page itself opens a few of them (e2e/hostile.test.mjs);
/// what it then shows is the editor's answer to the same text, checked for every model there.
#[test]
fn hostile_models_through_a_share_link() {
    use squillion::share::{fragment, read_fragment, Link, ShareError};
    let mut carried = 0;
    for path in cases("models") {
        let bytes = std::fs::read(&path).expect("model bytes");
        // As the page receives a file: lossy UTF-8.
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let link = Link {
            model: text.clone(),
            design: Some("custom".into()),
            view: None,
        };
        let hash = fragment("playground", &link);
        match read_fragment(&hash) {
            Some(Ok(back)) => {
                assert_eq!(
                    back.model,
                    text,
                    "{}: the link changed the model",
                    path.display()
                );
                assert_eq!(back.design.as_deref(), Some("custom"));
                carried += 1;
            }
            Some(Err(ShareError::TooLong(n))) => {
                assert!(n > squillion::share::MAX_LINK_CHARS, "{}", path.display())
            }
            other => panic!("{}: {other:?}", path.display()),
        }
    }
    assert!(carried >= 40, "only {carried} models carried by a link");
}
