//! The `squillion` binary as the CLI tests run it: a command whose exit code must be one of a
//! few, and an inference whose model is read back (shared by the round trip and the feed test).

use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Output};

use squillion::model::{parse_model, Model};

/// Runs `bin` with `args`, panicking with its standard error unless it exits with one of
/// `codes`.
pub fn run<I, S>(bin: &Path, args: I, codes: &[i32]) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let out = Command::new(bin)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", bin.display()));
    assert!(
        out.status.code().is_some_and(|c| codes.contains(&c)),
        "{:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Runs `squillion infer` with `args` and `--out` a file in `dir`; returns the model it wrote
/// and the summary it printed.
pub fn infer<I, S>(bin: &Path, args: I, dir: &Path) -> (Model, String)
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let path = dir.join("inferred.json");
    let mut all: Vec<std::ffi::OsString> = vec!["infer".into()];
    all.extend(args.into_iter().map(|a| a.as_ref().to_os_string()));
    all.extend(["--out".into(), path.clone().into_os_string()]);
    let out = run(bin, &all, &[0]);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
    let model = parse_model(&text).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    (model, String::from_utf8_lossy(&out.stdout).into_owned())
}
