//! The message catalogues (`locales/*/messages.ftl`): every language has every message with
//! the same values, Chinese messages keep only MongoDB's own words in Latin letters, and every
//! warning the golden evaluations hold renders in both languages, its English equal to the
//! `message` and `fix` the JSON carries.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use squillion::lang::text::catalogue_ids;
use squillion::lang::Lang;
use squillion::warning::Warning;

/// Words a Chinese message may keep in Latin letters: MongoDB's names, operators, limits and
/// units, which the glossary (docs/i18n.md) leaves as they are.
const KEPT_LATIN: &[&str] = &[
    "mongod",
    "BSONObjectTooLarge",
    "GridFS",
    "fs",
    "files",
    "chunks",
    "KiB",
    "MiB",
    "MB",
    "GiB",
    "gridfs",
    "S3",
    "GCS",
    "Azure",
    "Blob",
    "URL",
    "Compass",
    "id",
    "k",
    "v",
    "db",
    "dropIndex",
    "name",
    "hideIndex",
    "MMAPv1",
    "usePowerOf2Sizes",
    "WiredTiger",
    "inc",
    "COLLSCAN",
    "owner",
    "sequence",
    "embed",
    "extended_reference",
    "copy",
    "lookup",
    "parents_per_child",
    "p50",
    "p99",
    "ObjectId",
    "_id",
    "control",
    "minutes",
    "hours",
    // The core's words of issue #22's last part (advisor, infer summary, engine errors, the
    // CLI report): the storage engine's names, BSON type aliases as `$type` writes them, and
    // the command a line of `squillion query` comes from.
    "BSON",
    "snappy",
    // The block compressor of time-series buckets (WiredTiger's `block_compressor=zstd`).
    "zstd",
    "null",
    "string",
    "objectId",
    "symbol",
    "javascript",
    "javascriptWithScope",
    "dbPointer",
    "undefined",
    "squillion",
    "query",
    // A rate's unit, as the page writes it too (`22,500/s`).
    "s",
    // What the infer summary says of mongod logs: their format, the profiler's collection
    // (system.profile), the server's own databases, a duration percentile, gzip.
    "JSON",
    "system",
    "profile",
    "admin",
    "local",
    "config",
    "p95",
    "gzip",
    // The aggregation stage whose output `squillion infer --log` reads (`$queryStats`).
    "queryStats",
    // A migration's words (`migrate-*`): the strategies as the model writes them, the model's
    // keys, the server's resharding command, and the files `squillion migrate --out` writes.
    "embed_subset",
    "reference_in_child",
    "reference_in_parent",
    "two_way",
    "link_collection",
    "bucket",
    "parent_key",
    "child_key",
    "reshardCollection",
    "plan",
    "json",
    "migrate",
    "js",
    "steps",
];

/// Words a model problem's Chinese (`problem-*`) may keep in Latin letters besides
/// [`KEPT_LATIN`]: the model format's own keys and values, which a user types as they are
/// (docs/model.md), and the formats' names.
const KEPT_LATIN_PROBLEMS: &[&str] = &[
    "JSON",
    "BSON",
    "NaN",
    "NUL",
    "YYYY",
    "MM",
    "DD",
    "8e308",
    "Squillion",
    "null",
    "true",
    "false",
    "string",
    "binData",
    // The BSON types a reference key may have (`bad-key-type`), as a model writes them.
    "int",
    "long",
    "double",
    "decimal",
    "enum",
    "kind",
    "values",
    "items",
    "count",
    "fields",
    "shape",
    "min",
    "max",
    "typical",
    "feed",
    "hashed",
    "joins",
    "form",
    "granularity",
    "meta",
    "by",
    "order",
    "copies",
    "paging",
    "reassign",
    "many_to_many",
    "time_series",
    "timeField",
    "fan_out_on_read",
    "fan_out_on_write",
    "bucketed_fan_out",
    "parent_references",
    "child_references",
    "array_of_ancestors",
    "materialized_paths",
    "nested_sets",
];

/// Returns each message of a catalogue: id → its text (the lines after `id =` up to the next
/// message, comment or blank line).
fn messages(lang: Lang) -> BTreeMap<String, String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("locales")
        .join(lang.code())
        .join("messages.ftl");
    let text = std::fs::read_to_string(&path).expect("catalogue");
    let mut out = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            current = None;
        } else if line.starts_with(' ') {
            if let Some(id) = &current {
                let m: &mut String = out.get_mut(id).expect("message");
                m.push('\n');
                m.push_str(line);
            }
        } else if let Some((id, value)) = line.split_once(" = ") {
            out.insert(id.to_string(), value.to_string());
            current = Some(id.to_string());
        } else {
            panic!("{}: not a message line: {line}", lang.code());
        }
    }
    out
}

/// Returns the values (`$name`) a message uses: inside its placeables (`{ $name }`), not in
/// its text (`$lookup`, MongoDB's operator) nor in a string literal (`{"$lookup"}`).
fn variables(message: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let (mut depth, mut in_string) = (0usize, false);
    let mut chars = message.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if depth > 0 => in_string = !in_string,
            '{' if !in_string => depth += 1,
            '}' if !in_string => depth = depth.saturating_sub(1),
            '$' if depth > 0 && !in_string => {
                let mut name = String::new();
                while let Some(&n) = chars.peek() {
                    if !(n.is_ascii_alphanumeric() || n == '_' || n == '-') {
                        break;
                    }
                    name.push(n);
                    chars.next();
                }
                if !name.is_empty() {
                    out.insert(name);
                }
            }
            _ => {}
        }
    }
    out
}

/// Returns the message's text outside its placeables (`{ … }`).
fn outside_placeables(message: &str) -> String {
    let mut depth = 0usize;
    let mut out = String::new();
    for c in message.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

#[test]
fn every_language_has_every_message_with_the_same_values() {
    let en = messages(Lang::En);
    assert!(en.len() >= 80, "{} English messages", en.len());
    for lang in Lang::ALL {
        let (ids, parsed) = catalogue_ids(lang);
        assert!(parsed, "{}: messages.ftl has a syntax error", lang.code());
        let unique: BTreeSet<&String> = ids.iter().collect();
        assert_eq!(unique.len(), ids.len(), "{}: a duplicate id", lang.code());
        let theirs = messages(lang);
        assert_eq!(
            theirs.keys().collect::<Vec<_>>(),
            en.keys().collect::<Vec<_>>(),
            "{}: the ids differ from English",
            lang.code()
        );
        for (id, text) in &theirs {
            assert_eq!(
                variables(text),
                variables(&en[id]),
                "{}: {id} uses other values than English",
                lang.code()
            );
        }
    }
}

#[test]
fn chinese_messages_keep_only_mongodb_words_in_latin_letters() {
    let en = messages(Lang::En);
    let mut problems = Vec::new();
    for (id, zh) in messages(Lang::ZhCn) {
        let words: Vec<String> = outside_placeables(&zh)
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| w.chars().any(|c| c.is_ascii_alphabetic()))
            .map(str::to_string)
            .collect();
        for w in words {
            let problem_word =
                id.starts_with("problem-") && KEPT_LATIN_PROBLEMS.contains(&w.as_str());
            if !KEPT_LATIN.contains(&w.as_str()) && !problem_word {
                problems.push(format!("{id}: \"{w}\""));
            }
        }
        let english = outside_placeables(&en[&id]);
        if english.chars().any(|c| c.is_ascii_alphabetic()) && english == outside_placeables(&zh) {
            problems.push(format!("{id}: the same text as English"));
        }
    }
    assert!(problems.is_empty(), "untranslated words: {problems:#?}");
}

/// Collects every warning object (one with `code`, `severity` and `message`) in a JSON value.
fn warnings_in(v: &serde_json::Value, out: &mut Vec<Warning>) {
    match v {
        serde_json::Value::Object(o) => {
            if o.contains_key("code") && o.contains_key("severity") && o.contains_key("fix") {
                out.push(serde_json::from_value(v.clone()).expect("a warning"));
            } else {
                o.values().for_each(|x| warnings_in(x, out));
            }
        }
        serde_json::Value::Array(a) => a.iter().for_each(|x| warnings_in(x, out)),
        _ => {}
    }
}

#[test]
fn every_golden_warning_renders_in_every_language() {
    let mut files = Vec::new();
    let mut dirs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).expect("golden folder") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "json") {
                files.push(p);
            }
        }
    }
    let mut warnings = Vec::new();
    for f in &files {
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(f).expect("golden file"))
                .expect("golden JSON");
        warnings_in(&v, &mut warnings);
    }
    let codes: BTreeSet<String> = warnings.iter().map(|w| w.code.to_string()).collect();
    assert!(codes.len() >= 15, "only {codes:?} in the golden files");
    for w in &warnings {
        let text = w
            .text
            .as_ref()
            .unwrap_or_else(|| panic!("{} has no text to translate", w.code));
        for lang in Lang::ALL {
            assert!(
                text.message.is_translated(lang) && text.fix.is_translated(lang),
                "{} does not render in {}: {:?}",
                w.code,
                lang.code(),
                text
            );
        }
        assert_eq!(text.message.render(Lang::En), w.message, "{}", w.code);
        assert_eq!(text.fix.render(Lang::En), w.fix, "{}", w.code);
        let zh = w.message_in(Lang::ZhCn);
        assert_ne!(zh, w.message, "{}: no Chinese", w.code);
        assert!(
            zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
            "{}: {zh}",
            w.code
        );
    }
}

/// Runs the CLI with the shell's locale set to `lang_env`.
fn squillion(args: &[&str], lang_env: &str) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_squillion"))
        .args(args)
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env("LANG", lang_env)
        .output()
        .expect("squillion runs")
}

#[test]
fn the_cli_prints_warnings_in_the_language_asked_for() {
    let zh = squillion(
        &[
            "eval",
            "--preset",
            "host-logs",
            "--design",
            "embed-all",
            "--lang",
            "zh-CN",
        ],
        "C",
    );
    assert_eq!(
        zh.status.code(),
        Some(1),
        "host-logs embed-all has an error"
    );
    let zh = String::from_utf8(zh.stdout).expect("UTF-8");
    let section = zh.split("\n警告\n").nth(1).expect("a 警告 section");
    assert!(
        section.contains(
            "[错误] DOC_OVER_LIMIT host.logmsgs: 全量 10,000 个 host 文档中预计最大的一个将达到"
        ),
        "{section}"
    );
    assert!(section.contains("修复：限制 logmsgs 的长度"), "{section}");
    assert!(!section.contains("fix:"), "{section}");
    // The environment chooses when --lang is absent; --lang wins over it.
    let env = squillion(
        &["eval", "--preset", "host-logs", "--design", "embed-all"],
        "zh_CN.UTF-8",
    );
    assert_eq!(String::from_utf8(env.stdout).expect("UTF-8"), zh);
    let en = squillion(
        &[
            "eval",
            "--preset",
            "host-logs",
            "--design",
            "embed-all",
            "--lang",
            "en",
        ],
        "zh_CN.UTF-8",
    );
    let en = String::from_utf8(en.stdout).expect("UTF-8");
    assert!(
        en.contains(
            "\nWarnings\n  [Error] DOC_OVER_LIMIT host.logmsgs: the largest host document expected among 10,000 at full scale would be"
        ),
        "{en}"
    );
    // JSON is the same whatever the language.
    let j1 = squillion(
        &[
            "eval",
            "--preset",
            "host-logs",
            "--design",
            "embed-all",
            "--json",
            "--lang",
            "zh-CN",
        ],
        "C",
    );
    let j2 = squillion(
        &[
            "eval",
            "--preset",
            "host-logs",
            "--design",
            "embed-all",
            "--json",
        ],
        "zh_CN.UTF-8",
    );
    assert_eq!(j1.stdout, j2.stdout);
    // A language Squillion does not speak is a usage error.
    let fr = squillion(
        &[
            "eval",
            "--preset",
            "host-logs",
            "--design",
            "embed-all",
            "--lang",
            "fr",
        ],
        "C",
    );
    assert_eq!(fr.status.code(), Some(2));
}

/// Messages of the "Model problems" section that are not a problem's code: what the views
/// say around the problems (a valid model, "and 2 more", the syntax error's "Show line").
const NOT_CODES: &[&str] = &["none", "and-more", "show-line"];

/// Returns the text of every source file of the validator (where problems are made) and of
/// the views that say the section's other messages.
fn validator_sources() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = vec![
        root.join("model.rs"),
        root.join("model/validate.rs"),
        root.join("cli/validate.rs"),
        root.join("ui/editor.rs"),
        root.join("ui/editor/json.rs"),
    ];
    let dir = root.join("model/validate");
    for e in std::fs::read_dir(&dir).expect("src/model/validate") {
        files.push(e.expect("entry").path());
    }
    files
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(&f).expect("source");
            (f.display().to_string(), text)
        })
        .collect()
}

/// Returns every catalogue id the validator's sources name: `Text::new("code")` is problem
/// `problem-code` (a nested clause names its full id, `problem-kind-object`), and
/// `json_problem("code", …)` and the codes it chooses between are JSON problems.
fn ids_the_validator_names() -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (file, text) in validator_sources() {
        for lead in [
            "Text::new(\"",
            "json_problem(\"",
            "Value::Null => \"",
            "_) => \"",
        ] {
            for part in text.split(lead).skip(1) {
                let code: String = part
                    .chars()
                    .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-')
                    .collect();
                if code.is_empty() || !part[code.len()..].starts_with('"') {
                    continue;
                }
                out.insert(if code.starts_with("problem-") {
                    code
                } else {
                    format!("problem-{code}")
                });
            }
        }
        // The codes `json_problem` picks by serde_json's message (in src/model.rs).
        if !file.ends_with("model.rs") {
            continue;
        }
        for part in text.split("\"json-").skip(1) {
            let rest: String = part
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '-')
                .collect();
            if part[rest.len()..].starts_with('"') {
                out.insert(format!("problem-json-{rest}"));
            }
        }
    }
    out
}

#[test]
fn every_problem_the_validator_reports_has_its_message_and_none_is_left_over() {
    let named = ids_the_validator_names();
    assert!(named.len() >= 100, "only {} problem ids found", named.len());
    for lang in Lang::ALL {
        let (ids, _) = catalogue_ids(lang);
        let ids: BTreeSet<String> = ids
            .into_iter()
            .filter(|i| i.starts_with("problem-"))
            .collect();
        let missing: Vec<&String> = named.difference(&ids).collect();
        assert!(
            missing.is_empty(),
            "{}: no message for {missing:?}",
            lang.code()
        );
        let unused: Vec<&String> = ids.difference(&named).collect();
        assert!(
            unused.is_empty(),
            "{}: messages no problem uses: {unused:?}",
            lang.code()
        );
    }
}

#[test]
fn every_problem_code_is_documented() {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/problems.md"))
            .expect("docs/problems.md");
    let missing: Vec<String> = ids_the_validator_names()
        .into_iter()
        .filter_map(|id| id.strip_prefix("problem-").map(str::to_string))
        .filter(|code| {
            !(code.starts_with("kind-")
                || code.starts_with("place-")
                || code.starts_with("alternative")
                || NOT_CODES.contains(&code.as_str()))
        })
        .filter(|code| !doc.contains(&format!("| `{code}` |")))
        .collect();
    assert!(missing.is_empty(), "docs/problems.md lacks {missing:?}");
}

/// Returns the problems of every invalid model the tests hold: the hostile models that fail
/// to parse and one model per kind of mistake below.
fn invalid_models() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile/models");
    for e in std::fs::read_dir(&dir).expect("hostile models") {
        let p = e.expect("entry").path();
        if p.extension().is_some_and(|x| x == "json") {
            let text = std::fs::read_to_string(&p).unwrap_or_default();
            out.push((p.display().to_string(), text));
        }
    }
    let bad = [
        "{\"entities\": [}",
        "[1, 2",
        &format!("{}1{}", "[".repeat(200), "]".repeat(200)),
        "{\"entities\": [], \"seed\": 1e999}",
        r#"{"entities": [{"name": "a", "count": -1, "fields": {"x": {"type": "array", "items": "array"}, "$y": {"type": "strin"}, "z": {"type": "string", "count": {"shape": "fixed", "value": 1}}}}], "extra": 1, "ram_gb": 0, "sample": {"scale": 2, "max_documents": 0}}"#,
        r#"{"entities": [{"name": "a", "count": 1}, {"name": "a", "count": "many"}], "relationships": [{"name": "r", "parent": "a", "child": "b", "cardinality": {"shape": "zipf", "typical": 5, "p99": 4, "max": 3, "min": 9}, "parents_per_child": {"shape": "fixed", "value": 1}}], "workload": [{"name": "u", "rate_per_sec": 1, "steps": [{"op": "fly"}, {"op": "read", "entity": "zz", "by": "q"}, {"op": "list", "entity": "a", "sort": {"field": "_id", "order": 2}, "paging": "pages"}]}], "design": {"base": "best", "joins": "nested", "relationships": {"nope": {"strategy": "embed"}, "r": {"strategy": "teleport"}}, "fields": [{"pattern": "magic"}]}, "sharding": {"shards": 0, "keys": {"a": {}}}, "start_date": "tomorrow"}"#,
    ];
    for (i, t) in bad.iter().enumerate() {
        out.push((format!("inline #{i}"), t.to_string()));
    }
    out
}

#[test]
fn every_problem_of_the_invalid_models_renders_in_every_language() {
    let mut codes = BTreeSet::new();
    for (name, text) in invalid_models() {
        let Err(errs) = squillion::model::parse_model(&text) else {
            continue;
        };
        for e in &errs.errors {
            codes.insert(e.code.to_string());
            for lang in Lang::ALL {
                assert!(
                    e.text().is_translated(lang),
                    "{name}: {} does not render in {}: {e:?}",
                    e.code,
                    lang.code()
                );
            }
            assert_eq!(e.message_in(Lang::En), e.message, "{name}: {}", e.code);
            assert_eq!(
                e.to_string_in(Lang::En),
                e.to_string(),
                "{name}: {}",
                e.code
            );
            let zh = e.to_string_in(Lang::ZhCn);
            assert!(
                zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                "{name}: {zh}"
            );
            if let (Some(l), Some(c)) = (e.line, e.column) {
                assert!(zh.starts_with(&format!("第 {l} 行，第 {c} 列：")), "{zh}");
            } else {
                assert!(zh.starts_with(&format!("{}：", e.path)), "{zh}");
            }
        }
    }
    assert!(codes.len() >= 40, "only {} codes: {codes:?}", codes.len());
}
