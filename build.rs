//! Generates `Msg`, one variant per message of the page's catalogue
//! (`locales/en/page.ftl`, the source text), so that a label the catalogue lacks does not
//! compile (docs/i18n.md, "The page"). `tests/suite/catalogues.rs` checks that every language's
//! `page.ftl` has the same ids with the same values.
//!
//! Also sets `SQUILLION_SOURCE_HASH`, a hash of everything an evaluation's numbers follow from
//! (the sources, the presets, the catalogues, the locked dependencies): the page keeps its last
//! evaluation across reloads only for the build that made it (`ui::playground::remembered`).

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let source = "locales/en/page.ftl";
    println!("cargo:rerun-if-changed={source}");
    println!("cargo:rerun-if-changed=build.rs");
    let text = std::fs::read_to_string(source).unwrap_or_default();
    let mut out = String::from(
        "/// A message of the page's catalogue (`locales/<code>/page.ftl`), by its id.\n\
         #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]\n\
         pub enum Msg {\n",
    );
    let mut ids = Vec::new();
    let mut twice = Vec::new();
    for line in text.lines() {
        // A message starts a line with its id (lower-case, digits, hyphens) and ` =`;
        // comments (`#`), terms (`-`), attributes and continuation lines are indented or
        // start otherwise.
        let Some((id, _)) = line.split_once('=') else {
            continue;
        };
        let id = id.trim_end();
        let is_id = id.starts_with(|c: char| c.is_ascii_lowercase())
            && id
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if is_id && !line.starts_with(char::is_whitespace) {
            if ids.iter().any(|known| known == id) {
                // Fluent keeps the first of two messages of one id: a second is a mistake.
                twice.push(id.to_string());
                continue;
            }
            ids.push(id.to_string());
        }
    }
    for id in &ids {
        let _ = writeln!(out, "    /// `{id}`\n    {},", camel(id));
    }
    out.push_str("}\n\nimpl Msg {\n    /// Every message, in catalogue order.\n    pub const ALL: &'static [Msg] = &[\n");
    for id in &ids {
        let _ = writeln!(out, "        Msg::{},", camel(id));
    }
    out.push_str("    ];\n\n    /// Returns the message's id in the catalogue.\n    pub fn id(self) -> &'static str {\n        match self {\n");
    for id in &ids {
        let _ = writeln!(out, "            Msg::{} => \"{id}\",", camel(id));
    }
    out.push_str("        }\n    }\n}\n");
    for id in twice {
        let _ = writeln!(out, "compile_error!(\"{source}: `{id}` is there twice\");");
    }
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap_or_default()).join("page_msg.rs");
    if let Err(e) = std::fs::write(&dest, out) {
        println!("cargo:warning=cannot write {}: {e}", dest.display());
    }
    source_hash();
}

/// Sets `SQUILLION_SOURCE_HASH` (hex) from every file under the inputs of the build, by path
/// and content, in path order. `DefaultHasher::new()` has fixed keys, so one toolchain gives
/// one hash for one source; another toolchain may give another, which only forgets a kept
/// evaluation once.
fn source_hash() {
    use std::hash::{Hash, Hasher};
    const INPUTS: [&str; 5] = ["src", "presets", "locales", "Cargo.toml", "Cargo.lock"];
    let mut files = Vec::new();
    for input in INPUTS {
        println!("cargo:rerun-if-changed={input}");
        collect(Path::new(input), &mut files);
    }
    files.sort();
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for f in &files {
        f.hash(&mut hasher);
        std::fs::read(f).unwrap_or_default().hash(&mut hasher);
    }
    println!(
        "cargo:rustc-env=SQUILLION_SOURCE_HASH={:016x}",
        hasher.finish()
    );
}

/// Adds `path` (a file) or every file below it (a folder) to `files`.
fn collect(path: &Path, files: &mut Vec<std::path::PathBuf>) {
    match std::fs::read_dir(path) {
        Ok(entries) => {
            for entry in entries.flatten() {
                collect(&entry.path(), files);
            }
        }
        Err(_) if path.is_file() => files.push(path.to_path_buf()),
        Err(_) => {}
    }
}

/// Returns `skip-to-results` as `SkipToResults`.
fn camel(id: &str) -> String {
    id.split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}
