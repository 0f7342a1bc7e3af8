//! Issue #22's last part: the core's own words in Chinese. `squillion advise`, `infer`, `eval`,
//! `compare` and `query` with `--lang zh-CN` print Chinese and leave no English sentence (the
//! model's names, mongosh's commands and mongod's messages aside); with `--lang en` they print
//! what they printed before the catalogue took their words; `--json` is the same in both.

use std::path::Path;
use std::process::{Command, Output};

use squillion::advise::text::explanation_text;
use squillion::advise::{advise, AdviseOptions};
use squillion::engine::EngineError;
use squillion::lang::{Lang, Text};

/// The fewest English words in a row that make an untranslated sentence (as
/// `tests/suite/preset_locales.rs` counts them).
const MAX_LATIN_WORDS: usize = 5;

/// Runs the CLI with `args` in `dir`, the environment's language pinned to English.
fn squillion(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_squillion"))
        .args(args)
        .current_dir(dir)
        .env("LANG", "C")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .output()
        .unwrap_or_else(|e| panic!("cannot run squillion {args:?}: {e}"))
}

/// Returns standard output of a run that must succeed (or exit 1 for advise's "none").
fn stdout(args: &[&str]) -> String {
    let out = squillion(args, Path::new(env!("CARGO_MANIFEST_DIR")));
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "squillion {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// Whether `c` ends a run of English words: a CJK character or CJK punctuation.
fn breaks_latin(c: char) -> bool {
    matches!(c,
        '\u{2014}' | '\u{2018}' | '\u{2019}' | '\u{201c}' | '\u{201d}' | '\u{2026}'
        | '\u{3000}'..='\u{303f}' | '\u{3400}'..='\u{9fff}' | '\u{ff00}'..='\u{ffef}')
}

/// Returns the runs of more than [`MAX_LATIN_WORDS`] English words in a row: a sentence
/// left untranslated.
fn latin_runs(s: &str) -> Vec<String> {
    s.split(breaks_latin)
        .filter(|seg| {
            seg.split_whitespace()
                .filter(|w| w.chars().any(|c| c.is_ascii_alphabetic()))
                .count()
                > MAX_LATIN_WORDS
        })
        .map(|seg| seg.trim().to_string())
        .collect()
}

/// Returns whether `s` has Chinese.
fn has_chinese(s: &str) -> bool {
    s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

#[test]
fn advise_speaks_chinese() {
    let zh = stdout(&["advise", "--preset", "social-graph", "--lang", "zh-CN"]);
    assert!(zh.contains("推荐：") && zh.contains("次优选择") && zh.contains("不可行"));
    // The designs are in words, the model's names in them: no strategy id outside the
    // design's JSON (the ids stay in --json's labels and designs).
    let runs = latin_runs(&zh);
    assert!(runs.is_empty(), "English left: {runs:#?}\n{zh}");
    let shown: Vec<&str> = zh.lines().filter(|l| !l.contains("设计：{")).collect();
    for id in [
        "reference_in_child",
        "reference_in_parent",
        "embed_subset",
        "two_way",
    ] {
        assert!(shown.iter().all(|l| !l.contains(id)), "{id} in\n{zh}");
    }
    // English is what it was: the catalogue's words are the report's.
    let en = stdout(&["advise", "--preset", "social-graph", "--lang", "en"]);
    assert!(en.starts_with("social-graph: exhaustive search of 288 designs: 288 screened"));
    assert!(en.contains(
        "\nwhy:\n  Store each user with the ids of the user documents whose followers it is in. \
         “Keep in each user document the ids of its followers” is infeasible: "
    ));
    assert!(en.contains(
        ". The next best is “Keep the newest 20 followers in the user document, every user in \
         its own collection too”: -2,000 read round trips/s, "
    ));
    // --json is the same in every language.
    assert_eq!(
        stdout(&[
            "advise",
            "--preset",
            "social-graph",
            "--json",
            "--lang",
            "zh-CN"
        ]),
        stdout(&["advise", "--preset", "social-graph", "--json"])
    );
}

#[test]
fn every_explanation_of_every_preset_renders_in_chinese() {
    for preset in squillion::presets::all() {
        let model = preset.model().expect("a preset's model");
        let a = advise(
            &model,
            &AdviseOptions {
                verify: false,
                ..AdviseOptions::default()
            },
        );
        for e in &a.explanations {
            let zh = explanation_text(e, Lang::ZhCn);
            assert!(has_chinese(&zh), "{}: {zh}", preset.name);
            assert_eq!(explanation_text(e, Lang::En), e.text);
            for english in ["is infeasible", "Runner-up", "breaks 16 MiB", "No feasible"] {
                assert!(!zh.contains(english), "{}: {zh}", preset.name);
            }
        }
    }
}

#[test]
fn compare_and_eval_speak_chinese_and_their_english_is_kept() {
    for args in [
        vec!["compare", "--preset", "social-feed"],
        vec!["compare", "--preset", "host-logs"],
        vec!["eval", "--preset", "sensor-readings"],
    ] {
        let mut zh_args = args.clone();
        zh_args.extend(["--lang", "zh-CN"]);
        let zh = stdout(&zh_args);
        assert!(zh.contains("集合") && zh.contains("存储（估算值"), "{zh}");
        // Commands are mongosh's, their notes the plan's and a command's error the engine's
        // (after its Chinese lead 错误): what remains English.
        let command = regex_lite::Regex::new(r"db\.\w+\.\w+\(.*\)").expect("regex");
        // The comparison opens with its verdict, every line Chinese (designs by their Chinese
        // names, warning codes and units as they are), then its table: its designs' names and
        // figures beside Chinese row labels.
        let body = match zh.split_once("\n\n") {
            Some((verdict, rest)) if args[0] == "compare" => {
                assert!(verdict.lines().all(has_chinese), "{verdict}");
                assert!(verdict.contains("胜出"), "{verdict}");
                let runs = latin_runs(verdict);
                assert!(
                    runs.is_empty(),
                    "{args:?}: English in the verdict: {runs:#?}"
                );
                let (table, rest) = rest.split_once("\n\n").unwrap_or((rest, ""));
                assert!(table.lines().all(has_chinese), "{table}");
                rest
            }
            _ => zh.as_str(),
        };
        let words: String = body
            .lines()
            .filter(|l| !l.contains("//") && !l.contains(" — 错误 "))
            // An operation's line starts with its application unit's name, the model's id.
            .map(|l| l.split_once(" — ").map_or(l, |(_, rest)| rest))
            .map(|l| command.replace_all(l, "").to_string())
            .collect::<Vec<_>>()
            .join("。");
        let runs = latin_runs(&words);
        assert!(runs.is_empty(), "{args:?}: English left: {runs:#?}");
        let en = stdout(&args);
        for line in [
            "Figures: plain = measured on the sample; (full) = full-scale arithmetic; ≈ = estimate.",
            "\nCollections\n",
            "\nOperations (typical subject; largest in brackets)\n",
            "\nStorage (estimate: snappy on 32 KiB blocks of sample BSON; time-series buckets column-compressed, then zstd)\n",
        ] {
            assert!(en.contains(line), "{args:?}: {line}");
        }
    }
    let zh = stdout(&["compare", "--preset", "social-feed", "--lang", "zh-CN"]);
    let en = stdout(&["compare", "--preset", "social-feed"]);
    // The verdict first, then the table.
    assert!(zh.starts_with("分桶"), "{zh}");
    assert!(en.starts_with("Bucketed feed wins: "), "{en}");
    assert!(zh.contains("\n\n指标（越低越好）"));
    assert!(en.contains("\n\nmetric (lower is better)"));
    assert!(en.contains("\n* best per metric among the feasible designs (ties all marked)."));
    // Chinese labels are two columns wide: the first design's column starts where English's
    // does.
    let column = |s: &str, row: usize| {
        let table = s.split_once("\n\n").map_or(s, |(_, t)| t);
        let line = table.lines().nth(row).expect("row");
        let at = line.find("normalized").expect("the first design");
        unicode_width::UnicodeWidthStr::width(&line[..at])
    };
    assert_eq!(column(&zh, 0), column(&en, 0));
    assert_eq!(
        stdout(&[
            "compare",
            "--preset",
            "social-feed",
            "--json",
            "--lang",
            "zh-CN"
        ]),
        stdout(&["compare", "--preset", "social-feed", "--json"])
    );
}

#[test]
fn infer_summary_speaks_chinese() {
    let dir = std::env::temp_dir().join(format!("squillion-cli-chinese-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(
        dir.join("users.json"),
        concat!(
            r#"{"_id": 1, "name": "Ann", "profile": {}, "orders": [{"sku": "a", "qty": 2}, {"sku": "b", "qty": 1}]}"#,
            "\n",
            r#"{"_id": 2, "name": "Bob", "profile": {}, "orders": [{"sku": "c", "qty": 5}]}"#,
            "\n",
            r#"{"_id": 3, "name": "Cy", "profile": {}, "status": "x"}"#,
            "\n",
        ),
    )
    .expect("write");
    let run = |lang: &str| {
        let out = squillion(
            &["infer", "users.json", "--out", "model.json", "--lang", lang],
            &dir,
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("UTF-8")
    };
    let zh = run("zh-CN");
    let en = run("en");
    let json = squillion(&["infer", "users.json", "--json", "--lang", "zh-CN"], &dir);
    let json_en = squillion(&["infer", "users.json", "--json"], &dir);
    std::fs::remove_dir_all(&dir).ok();
    assert!(zh.contains("假设：数值型 _id 是唯一的"), "{zh}");
    assert!(zh.contains("子文档数组已移出"), "{zh}");
    assert!(
        zh.contains("关系 orders：users → order（内嵌数组 orders）"),
        "{zh}"
    );
    let runs = latin_runs(&zh);
    assert!(runs.is_empty(), "English left: {runs:#?}");
    assert!(en
        .contains("\tassumed: a numeric _id is unique: written as a sequence, not the range seen"));
    assert!(en.contains("relationship orders: users → order (embedded array orders), count 3,"));
    assert!(en.ends_with("0 lines skipped\n"));
    // The report's notes stay English strings in JSON, whatever the language.
    assert_eq!(json.stdout, json_en.stdout);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    assert_eq!(
        v["report"]["entities"][0]["fields"][0]["assumed"][0],
        "a numeric _id is unique: written as a sequence, not the range seen"
    );
}

#[test]
fn engine_errors_have_a_lead_in_every_language() {
    let e = EngineError::new(11000, "DuplicateKey", "E11000 duplicate key error");
    assert_eq!(e.lead().render(Lang::ZhCn), "重复键");
    assert_eq!(e.lead().render(Lang::En), "Duplicate key");
    for name in [
        "BadValue",
        "FailedToParse",
        "TypeMismatch",
        "PathNotViable",
        "ConflictingUpdateOperators",
        "ImmutableField",
        "BSONObjectTooLarge",
        "Overflow",
        "DuplicateKey",
        "CannotIndexParallelArrays",
        "InvalidPipelineOperator",
        "IndexNotFound",
        "InternalError",
    ] {
        let lead = EngineError::new(1, name, "m").lead();
        assert_ne!(lead.id, "engine-error-other", "{name}");
        assert!(lead.is_translated(Lang::ZhCn), "{name}");
        assert!(has_chinese(&lead.render(Lang::ZhCn)), "{name}");
    }
    assert_eq!(
        EngineError::new(17419, "Location17419", "m")
            .lead()
            .render(Lang::ZhCn),
        "服务器错误"
    );
    // squillion query: mongosh's line as it is, then the lead in the chosen language.
    let dir = std::env::temp_dir().join(format!("squillion-cli-chinese-q-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("users.ndjson"), "{\"_id\": 1}\n").expect("write");
    let cmd = "db.users.insertOne({ _id: 1 })";
    let zh = squillion(
        &[
            "query",
            "--data",
            "users.ndjson:users",
            "--lang",
            "zh-CN",
            cmd,
        ],
        &dir,
    );
    let en = squillion(&["query", "--data", "users.ndjson:users", cmd], &dir);
    std::fs::remove_dir_all(&dir).ok();
    let (zh, en) = (
        String::from_utf8_lossy(&zh.stderr).to_string(),
        String::from_utf8_lossy(&en.stderr).to_string(),
    );
    assert!(
        en.starts_with("MongoServerError[DuplicateKey]: E11000"),
        "{en}"
    );
    assert_eq!(en.lines().count(), 1, "{en}");
    assert_eq!(zh.lines().next(), en.lines().next());
    assert_eq!(
        zh.lines().nth(1),
        Some("squillion query：重复键（DuplicateKey）")
    );
}

#[test]
fn progress_steps_are_texts_in_both_languages() {
    for (id, arg) in [
        ("advisor-step-screen", Some(("count", "312"))),
        ("advisor-step-engine", Some(("design", "joins: lookup"))),
        ("advisor-step-explain", None),
    ] {
        let mut t = Text::new(id);
        if let Some((k, v)) = arg {
            t = t.arg(k, v);
        }
        assert!(
            t.is_translated(Lang::En) && t.is_translated(Lang::ZhCn),
            "{id}"
        );
        assert!(has_chinese(&t.render(Lang::ZhCn)), "{id}");
    }
}
