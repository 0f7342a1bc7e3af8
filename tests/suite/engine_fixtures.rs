//! Runs every fixture under `tests/fixtures/engine/*.txt` against the engine, through the
//! reader the CLI's `query` and the page's console use ([`squillion::console::execute`]: a
//! mongosh command read by `shell::parse_command`, turned into engine commands).
//!
//! A fixture is a text file of directives (lines starting with `@`), each followed by its
//! content up to the next directive:
//!
//! - `@collection NAME` — the collection later `@docs`, `@index` and `@expect-collection` use
//!   (default `c`)
//! - `@docs` — documents, one (relaxed or canonical extended JSON) per line
//! - `@index {keys}, {options}` — an index on the current collection (`createIndex`'s
//!   arguments)
//! - `@command db.c.find({...}).sort({...})` — a mongosh command; every command before the
//!   last must succeed, expectations are about the last one
//! - `@expect` — the documents returned, one per line, in order (exact types and field order):
//!   a cursor's, or for a command that replies with one value (`findOne`,
//!   `findOneAndUpdate`, `countDocuments`) the engine's result documents
//! - `@expect-unordered` — the documents returned, in any order
//! - `@expect-ids [..]` — the `_id`s returned, in order
//! - `@expect-collection` — the current collection's documents afterwards, in natural order
//! - `@expect-index NAME|COLLSCAN|EOF` — the access path of the winning plan
//! - `@expect-stats k=v ...` — explain names: keysExamined, docsExamined, nReturned, nMatched,
//!   nModified, nUpserted, nDeleted, nInserted, docsWritten, bytesWritten, indexKeysWritten
//! - `@expect-stage NAME` / `@expect-no-stage NAME` — a stage (not) in the plan tree
//! - `@expect-plan` — the plan's `Display`, verbatim (golden text)
//! - `@expect-error CODE` — the last command fails with this code
//! - `@expect-lookup NAME keysExamined=.. docsExamined=..` — how the first `$lookup` searched
#![cfg(not(target_arch = "wasm32"))]

use bson::{Bson, Document};
use squillion::console::{self, ConsoleError, Reply};
use squillion::engine::Database;
use std::path::Path;

#[derive(Default)]
struct Fixture {
    commands: Vec<String>,
    expect: Option<(Vec<Document>, bool)>,
    expect_ids: Option<Vec<Bson>>,
    expect_collection: Option<(String, Vec<Document>)>,
    expect_index: Option<String>,
    expect_stats: Vec<(String, u64)>,
    expect_stage: Vec<(String, bool)>,
    expect_plan: Option<String>,
    expect_error: Option<i32>,
    expect_lookup: Option<(String, Vec<(String, u64)>)>,
}

fn json_values(text: &str) -> Result<Vec<Bson>, String> {
    let stream = serde_json::Deserializer::from_str(text).into_iter::<serde_json::Value>();
    let mut out = Vec::new();
    for v in stream {
        let v = v.map_err(|e| format!("bad JSON: {e} in {text}"))?;
        out.push(Bson::try_from(v).map_err(|e| format!("bad extended JSON: {e}"))?);
    }
    Ok(out)
}

fn json_docs(text: &str) -> Result<Vec<Document>, String> {
    json_values(text)?
        .into_iter()
        .map(|b| match b {
            Bson::Document(d) => Ok(d),
            other => Err(format!("expected a document, found {other}")),
        })
        .collect()
}

fn pairs(text: &str) -> Result<Vec<(String, u64)>, String> {
    text.split_whitespace()
        .map(|kv| {
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| format!("expected key=value, found {kv}"))?;
            Ok((
                k.to_string(),
                v.parse().map_err(|_| format!("not a number in {kv}"))?,
            ))
        })
        .collect()
}

fn run_fixture(text: &str) -> Result<(), String> {
    let mut db = Database::new();
    let mut current = "c".to_string();
    let mut fx = Fixture::default();
    // Split into (directive line, content) blocks.
    let mut blocks: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        if let Some(d) = line.strip_prefix('@') {
            blocks.push((d.to_string(), String::new()));
        } else if let Some((_, content)) = blocks.last_mut() {
            if !line.trim_start().starts_with('#') {
                content.push_str(line);
                content.push('\n');
            }
        }
    }
    for (head, content) in &blocks {
        let (name, rest) = head.split_once(' ').unwrap_or((head.as_str(), ""));
        let body = format!("{rest}\n{content}");
        match name {
            "collection" => current = rest.trim().to_string(),
            "docs" => {
                let docs = json_docs(&body)?;
                db.insert_many(&current, docs, true)
                    .map_err(|e| format!("@docs failed: {e}"))?;
            }
            "index" => {
                let text = format!("db.getCollection({current:?}).createIndex({})", body.trim());
                console::execute(&mut db, &text).map_err(|e| format!("@index failed: {e}"))?;
            }
            "command" => fx.commands.push(body.trim().to_string()),
            "expect" => fx.expect = Some((json_docs(&body)?, true)),
            "expect-unordered" => fx.expect = Some((json_docs(&body)?, false)),
            "expect-ids" => match json_values(&body)?.into_iter().next() {
                Some(Bson::Array(a)) => fx.expect_ids = Some(a),
                _ => return Err("@expect-ids needs a JSON array".into()),
            },
            "expect-collection" => {
                fx.expect_collection = Some((current.clone(), json_docs(&body)?))
            }
            "expect-index" => fx.expect_index = Some(rest.trim().to_string()),
            "expect-stats" => fx.expect_stats.extend(pairs(&body)?),
            "expect-stage" => fx.expect_stage.push((rest.trim().to_string(), true)),
            "expect-no-stage" => fx.expect_stage.push((rest.trim().to_string(), false)),
            "expect-plan" => fx.expect_plan = Some(content.trim_end().to_string()),
            "expect-error" => {
                fx.expect_error = Some(
                    rest.trim()
                        .parse()
                        .map_err(|_| "@expect-error needs a code")?,
                )
            }
            "expect-lookup" => {
                let (index, stats) = rest.split_once(' ').unwrap_or((rest, ""));
                fx.expect_lookup = Some((index.to_string(), pairs(stats)?));
            }
            other => return Err(format!("unknown directive @{other}")),
        }
    }
    let Some((last, setup)) = fx.commands.split_last() else {
        return Err("no @command".into());
    };
    for c in setup {
        console::execute(&mut db, c).map_err(|e| format!("setup command {c} failed: {e}"))?;
    }
    let outcome = match (console::execute(&mut db, last), fx.expect_error) {
        (Err(ConsoleError::Server(e)), Some(code)) if e.code == code => {
            return check_collection(&db, &fx)
        }
        (Err(e), _) => return Err(format!("command failed: {e}")),
        (Ok(_), Some(code)) => return Err(format!("expected error {code}, command succeeded")),
        (Ok(o), None) => o,
    };
    let r = outcome.result;
    let documents: Vec<Document> = match outcome.reply {
        Reply::Documents(d) => d,
        Reply::Value(_) => r.documents.clone(),
    }
    .into_iter()
    .map(squillion::engine::Returned::into_document)
    .collect();
    let show = |docs: &[Document]| {
        docs.iter()
            .map(|d| format!("{d}"))
            .collect::<Vec<_>>()
            .join("\n  ")
    };
    if let Some((want, ordered)) = &fx.expect {
        let same = |a: &Document, b: &Document| a.to_vec().ok() == b.to_vec().ok();
        let ok = if *ordered {
            want.len() == documents.len() && want.iter().zip(&documents).all(|(a, b)| same(a, b))
        } else {
            want.len() == documents.len()
                && want.iter().all(|w| documents.iter().any(|g| same(w, g)))
        };
        if !ok {
            return Err(format!(
                "documents differ\n want:\n  {}\n got:\n  {}",
                show(want),
                show(&documents)
            ));
        }
    }
    if let Some(ids) = &fx.expect_ids {
        let got: Vec<Bson> = documents
            .iter()
            .map(|d| d.get("_id").cloned().unwrap_or(Bson::Null))
            .collect();
        if got != *ids {
            return Err(format!("ids differ: want {ids:?}, got {got:?}"));
        }
    }
    let plan = r.plan.clone();
    if let Some(want) = &fx.expect_index {
        let got = plan.as_ref().map(|p| p.access()).unwrap_or_default();
        if got != *want {
            return Err(format!(
                "index: want {want}, got {got}\n{}",
                plan.map(|p| p.to_string()).unwrap_or_default()
            ));
        }
    }
    let s = &r.stats;
    for (k, want) in &fx.expect_stats {
        let got = match k.as_str() {
            "keysExamined" => s.exec.keys_examined,
            "docsExamined" => s.exec.docs_examined,
            "nReturned" => s.exec.n_returned,
            "nMatched" => s.write.n_matched,
            "nModified" => s.write.n_modified,
            "nUpserted" => s.write.n_upserted,
            "nDeleted" => s.write.n_deleted,
            "nInserted" => s.write.n_inserted,
            "docsWritten" => s.write.docs_written,
            "bytesWritten" => s.write.bytes_written,
            "indexKeysWritten" => s.write.index_keys_written,
            other => return Err(format!("unknown stat {other}")),
        };
        if got != *want {
            return Err(format!("{k}: want {want}, got {got}\nstats: {s:?}"));
        }
    }
    for (stage, present) in &fx.expect_stage {
        let has = plan.as_ref().is_some_and(|p| p.contains(stage));
        if has != *present {
            return Err(format!(
                "stage {stage} present={has}, expected {present}\n{}",
                plan.map(|p| p.to_string()).unwrap_or_default()
            ));
        }
    }
    if let Some(want) = &fx.expect_plan {
        let got = plan.map(|p| p.to_string()).unwrap_or_default();
        if got != *want {
            return Err(format!("plan differs\n want:\n{want}\n got:\n{got}"));
        }
    }
    if let Some((index, stats)) = &fx.expect_lookup {
        let l = s.lookups.first().ok_or("no $lookup stats")?;
        if l.index_name != *index {
            return Err(format!("$lookup index: want {index}, got {}", l.index_name));
        }
        for (k, want) in stats {
            let got = match k.as_str() {
                "keysExamined" => l.keys_examined,
                "docsExamined" => l.docs_examined,
                "nQueries" => l.n_queries,
                other => return Err(format!("unknown lookup stat {other}")),
            };
            if got != *want {
                return Err(format!("$lookup {k}: want {want}, got {got}"));
            }
        }
    }
    check_collection(&db, &fx)
}

fn check_collection(db: &Database, fx: &Fixture) -> Result<(), String> {
    if let Some((name, want)) = &fx.expect_collection {
        let got: Vec<Document> = db
            .collection(name)
            .map(|c| c.decoded_documents())
            .unwrap_or_default();
        let same = want.len() == got.len()
            && want
                .iter()
                .zip(&got)
                .all(|(a, b)| a.to_vec().ok() == b.to_vec().ok());
        if !same {
            let show = |docs: &[Document]| {
                docs.iter()
                    .map(|d| format!("{d}"))
                    .collect::<Vec<_>>()
                    .join("\n  ")
            };
            return Err(format!(
                "collection differs\n want:\n  {}\n got:\n  {}",
                show(want),
                show(&got)
            ));
        }
    }
    Ok(())
}

#[test]
fn engine_fixtures() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/engine");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map(|it| {
            it.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "txt"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    assert!(
        files.len() >= 40,
        "expected at least 40 fixtures in {}, found {}",
        dir.display(),
        files.len()
    );
    let mut failures = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        if let Err(e) = run_fixture(&text) {
            failures.push(format!(
                "{}: {e}",
                f.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} fixtures failed:\n\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}
