//! Security audit, as tests: no user text is ever run as code, the page renders user text as
//! text, and the Content-Security-Policy allows only the app's own scripts and WebAssembly.
#![cfg(not(target_arch = "wasm32"))]

use bson::doc;
use squillion::engine::{Command, Database, FindCommand};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Server-side JavaScript is refused wherever MongoDB would run it: `$where` in a filter (at
/// the top, under `$and`/`$or`/`$elemMatch`), `$function` in an expression (`$expr`,
/// `$project`, `$addFields`), `$accumulator` and `$function` in `$group`. The error says the
/// playground never runs user code, and nothing is written.
#[test]
fn server_side_javascript_is_refused_everywhere() {
    let mut db = Database::new();
    db.insert_many("c", vec![doc! {"_id": 1, "a": [{"b": 1}]}], true)
        .unwrap_or_else(|e| panic!("{e}"));
    let js = doc! {"body": "function() { while (true) {} }", "args": [], "lang": "js"};
    let filters = [
        doc! {"$where": "while (true) {}"},
        doc! {"$and": [{"$where": "sleep(1000)"}]},
        doc! {"$or": [{"a": 1}, {"$where": "1"}]},
        doc! {"a": {"$elemMatch": {"$where": "1"}}},
        doc! {"$expr": {"$function": js.clone()}},
    ];
    for f in filters {
        let e = db
            .find(
                "c",
                &FindCommand {
                    filter: f.clone(),
                    ..Default::default()
                },
            )
            .err()
            .unwrap_or_else(|| panic!("{f} was accepted"));
        assert!(
            e.message.contains("never runs user code") || e.code == 2,
            "{f}: {e}"
        );
        let e = db
            .update_many("c", f.clone(), doc! {"$set": {"x": 1}}, false)
            .err()
            .unwrap_or_else(|| panic!("update with {f} was accepted"));
        assert!(e.message.contains("never runs user code"), "{f}: {e}");
        let e = db.delete_many("c", f.clone()).err();
        assert!(e.is_some(), "delete with {f} was accepted");
    }
    let pipelines = [
        vec![doc! {"$match": {"$where": "1"}}],
        vec![doc! {"$project": {"x": {"$function": js.clone()}}}],
        vec![doc! {"$addFields": {"x": {"$function": js.clone()}}}],
        vec![doc! {"$group": {"_id": null, "x": {"$accumulator": {"init": "function() {}"}}}}],
        vec![doc! {"$group": {"_id": {"$function": js.clone()}}}],
    ];
    for p in pipelines {
        let e = db
            .run(
                "c",
                Command::Aggregate {
                    pipeline: p.clone(),
                },
            )
            .err()
            .unwrap_or_else(|| panic!("{p:?} was accepted"));
        assert!(e.message.contains("never runs user code"), "{p:?}: {e}");
    }
    // Nothing was written.
    let all = db.find("c", &FindCommand::default());
    assert_eq!(
        all.map(|r| r.documents).ok(),
        Some(vec![doc! {"_id": 1, "a": [{"b": 1}]}.into()])
    );
}

/// The page never hands user text to the browser as HTML or code: no `inner_html`, no
/// `innerHTML`, no `eval`, no `Function` constructor, no `document.write` in the UI sources
/// or the boot script.
#[test]
fn the_page_renders_user_text_as_text() {
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    files.push(root().join("public/boot.js"));
    let forbidden = [
        "inner_html",
        "innerHTML",
        "outer_html",
        "outerHTML",
        "insert_adjacent_html",
        "js_sys::eval",
        // Calling a function handed over by a script of ours (the worker's progress callback)
        // is fine; making one from text (`Function::new_with_args`, `new_no_args`) is not.
        "Function::new",
        "document.write",
        "new Function(",
        "set_inner_html",
    ];
    let mut found = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        for (n, line) in text.lines().enumerate() {
            for w in forbidden {
                if line.contains(w) && !line.trim_start().starts_with("//") {
                    found.push(format!("{}:{}: {w}", f.display(), n + 1));
                }
            }
        }
    }
    assert!(found.is_empty(), "{found:#?}");
    assert!(
        files.len() > 20,
        "the scan found only {} files",
        files.len()
    );
}

/// The Content-Security-Policy allows scripts from the app's own origin and WebAssembly only:
/// no inline scripts, no `eval`, no other origin, no plugins, no `<base>` rewriting.
#[test]
fn the_csp_allows_only_the_apps_own_scripts_and_wasm() {
    let html = std::fs::read_to_string(root().join("index.html")).unwrap_or_default();
    let start = html
        .find("Content-Security-Policy")
        .unwrap_or_else(|| panic!("index.html has no CSP"));
    let rest = html.get(start..).unwrap_or_default();
    let content = rest
        .split("content=\"")
        .nth(1)
        .and_then(|c| c.split('"').next())
        .unwrap_or_else(|| panic!("no content in the CSP"));
    let directives: Vec<(String, Vec<String>)> = content
        .split(';')
        .filter_map(|d| {
            let mut w = d.split_whitespace();
            let name = w.next()?.to_string();
            Some((name, w.map(str::to_string).collect()))
        })
        .collect();
    let get = |name: &str| {
        directives
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| panic!("no {name} in {content}"))
    };
    assert_eq!(get("default-src"), vec!["'self'"]);
    assert_eq!(get("script-src"), vec!["'self'", "'wasm-unsafe-eval'"]);
    assert_eq!(get("object-src"), vec!["'none'"]);
    assert_eq!(get("base-uri"), vec!["'none'"]);
    for (name, values) in &directives {
        for v in values {
            assert!(
                !matches!(
                    v.as_str(),
                    "'unsafe-eval'" | "*" | "data:" | "http:" | "https:"
                ) || (name == "img-src" && v == "data:"),
                "{name} allows {v}"
            );
            if name != "style-src" {
                assert_ne!(v, "'unsafe-inline'", "{name} allows inline code");
            }
        }
    }
    // No inline script in the page itself: every <script> has a src.
    for tag in html.split("<script").skip(1) {
        let head = tag.split('>').next().unwrap_or_default();
        assert!(head.contains("src="), "inline <script{head}>");
    }
}
