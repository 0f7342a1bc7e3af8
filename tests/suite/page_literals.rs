//! No user-visible English in the page's code: every label, button, tooltip, aria-label and
//! placeholder of `src/ui` comes from the page catalogue (`locales/<code>/page.ftl`, through
//! `squillion::lang::Msg`), so that the page reads wholly in the chosen language.
//!
//! The scanner finds string literals that a `view!` shows: a text node (a literal between a
//! tag or a `{…}` block and the next tag or block) and the value of a `title=`,
//! `aria-label=`, `placeholder=`, `alt=` or `aria-description=` attribute. A literal passes
//! when it has no letters (symbols, numbers, spaces: `×`, `…`, `": "`) or when every word in
//! it is in [`ALLOWED`]: MongoDB's, the product's and the units' own words, which read the same
//! in every language. docs/i18n.md ("The page") says how to add a label.
#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};

/// Words a page literal may show as they are, in every language.
const ALLOWED: &[&str] = &[
    // The product, its logo and the formats it reads and writes.
    "Squillion",
    "JSON",
    "EJSON",
    "BSON",
    "SQL",
    "CSV",
    "NDJSON",
    // MongoDB's own names and its shell's.
    "MongoDB",
    "mongod",
    "mongosh",
    "mongoexport",
    "mongodump",
    "GridFS",
    "ObjectId",
    "ISODate",
    "NumberLong",
    "_id",
    "db",
    "find",
    "aggregate",
    // Units.
    "B",
    "KiB",
    "MiB",
    "GiB",
    "TiB",
    "s",
    "ms",
    "µs",
    // Percentiles.
    "p50",
    "p99",
    // Keys of the keyboard shortcuts.
    "Ctrl",
    "Shift",
    "Esc",
    "Enter",
    "Tab",
    "W",
    "Z",
    "Y",
];

/// Views still in English (issue #22): each file here is skipped, and listed in docs/i18n.md
/// ("What remains English"). A file that has no user-visible literal left fails the test until
/// it is taken off, so the list only shrinks.
const NOT_YET: &[&str] = &[];

/// A string literal a view shows: where it is and what it says.
#[derive(Debug, Clone, PartialEq)]
struct Shown {
    line: usize,
    text: String,
}

/// Returns every string literal of `source` with its byte span and line (comments, char
/// literals and lifetimes skipped; raw strings read whole).
fn literals(source: &str) -> Vec<(usize, usize, usize, String)> {
    let b = source.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line = 1;
    while i < b.len() {
        match b[i] {
            b'\n' => {
                line += 1;
                i += 1;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                    line += usize::from(b[i] == b'\n');
                    i += 1;
                }
                i += 2;
            }
            b'\'' => {
                // A char literal ('x', '\n', '"') or a lifetime ('a): skip the literal only.
                if b.get(i + 1) == Some(&b'\\') {
                    i += 2;
                    while i < b.len() && b[i] != b'\'' {
                        i += 1;
                    }
                    i += 1;
                } else {
                    let ch_len = source[i + 1..].chars().next().map_or(1, char::len_utf8);
                    if b.get(i + 1 + ch_len) == Some(&b'\'') {
                        i += 2 + ch_len;
                    } else {
                        i += 1;
                    }
                }
            }
            b'r' if (b.get(i + 1) == Some(&b'"') || b.get(i + 1) == Some(&b'#'))
                && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')) =>
            {
                let mut j = i + 1;
                let mut hashes = 0;
                while b.get(j) == Some(&b'#') {
                    hashes += 1;
                    j += 1;
                }
                if b.get(j) != Some(&b'"') {
                    i += 1;
                    continue;
                }
                let close: String = std::iter::once('"')
                    .chain("#".repeat(hashes).chars())
                    .collect();
                let start = j + 1;
                let end = source[start..].find(&close).map_or(b.len(), |k| start + k);
                let text = source[start..end].to_string();
                out.push((i, end + close.len(), line, text.clone()));
                line += text.matches('\n').count();
                i = end + close.len();
            }
            b'"' => {
                let start = i + 1;
                let mut j = start;
                while j < b.len() && b[j] != b'"' {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                let text = source[start..j.min(b.len())].to_string();
                out.push((i, j + 1, line, text.clone()));
                line += text.matches('\n').count();
                i = j + 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// Returns the literals of `source` that a view shows and [`ALLOWED`] does not cover.
fn shown_literals(source: &str) -> Vec<Shown> {
    const ATTRIBUTES: &[&str] = &[
        "title=",
        "aria-label=",
        "placeholder=",
        "alt=",
        "aria-description=",
    ];
    let mut out = Vec::new();
    for (start, end, line, text) in literals(source) {
        let before = source[..start].trim_end();
        let after = source[end.min(source.len())..].trim_start();
        let attribute = ATTRIBUTES.iter().any(|a| {
            before.ends_with(a)
                && !before[..before.len() - a.len()]
                    .ends_with(|c: char| c.is_alphanumeric() || c == '-' || c == '_')
        });
        let text_node = (before.ends_with('>') || before.ends_with('}') || before.ends_with('"'))
            && (after.starts_with('<') || after.starts_with('{') || after.starts_with('"'));
        if (attribute || text_node) && !allowed(&text) {
            out.push(Shown { line, text });
        }
    }
    out
}

/// Returns true when every word of `text` is one of [`ALLOWED`] (a text without letters has
/// none).
fn allowed(text: &str) -> bool {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .filter(|w| w.chars().any(char::is_alphabetic))
        // `$lookup`, `$size`: MongoDB's operators read the same in every language.
        .all(|w| ALLOWED.contains(&w) || w.starts_with('$'))
}

/// Returns every `.rs` file under `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("src/ui").flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out.sort();
    out
}

#[test]
fn no_user_visible_literal_in_the_page() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    let mut done = Vec::new();
    for path in rust_files(&root.join("src/ui")) {
        let source = std::fs::read_to_string(&path).expect("source");
        let rel = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .display()
            .to_string();
        let shown = shown_literals(&source);
        if NOT_YET.contains(&rel.as_str()) {
            if shown.is_empty() {
                done.push(rel);
            }
            continue;
        }
        for s in shown {
            found.push(format!("{rel}:{}: {:?}", s.line, s.text));
        }
    }
    assert!(done.is_empty(), "translated now: take {done:?} off NOT_YET");
    assert!(
        found.is_empty(),
        "{} user-visible literal(s) in src/ui: put each in locales/en/page.ftl and \
         locales/zh-CN/page.ftl and show it with tr!(Id) (docs/i18n.md, \"The page\"):\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_scanner_finds_a_planted_literal() {
    let planted = r#"
        view! {
            <button title="Close the dialog" aria-label=tr!(Close)>"Save"</button>
            <p>{tr!(Note)}"Consider: "{fix}</p>
            <input placeholder="name"/>
        }
    "#;
    let found: Vec<String> = shown_literals(planted)
        .into_iter()
        .map(|s| s.text)
        .collect();
    assert_eq!(found, ["Close the dialog", "Save", "Consider: ", "name"]);
}

#[test]
fn the_scanner_lets_symbols_code_words_and_code_pass() {
    let fine = r##"
        // A comment may say <b>"anything"</b>.
        let c = '"';
        let r = r#"<p>"raw"</p>"#;
        view! {
            <span class="logo">"{ }"</span>
            <span>"×"</span>{" · "}<kbd>"Ctrl+Z"</kbd>
            <code>"$lookup"</code><span>"16 MiB"</span><span>"Squillion"</span>
            <div class="card" data-testid="loaded-preset" aria-label=tr!(Close)></div>
        }
        let s = format!("{}", "not shown");
    "##;
    assert_eq!(shown_literals(fine), []);
}
