//! The presets in 简体中文 (`locales/zh-CN/presets/NAME.json`): every preset has a translation
//! of every field and a label for every design it offers; the translation keeps every number,
//! every backticked code span and every warning code of the English; no sentence is left in
//! English; the files parse with no unknown keys; and `Preset::text` falls back to English.
//! The checks are functions over (English, Chinese) so that the last tests can show each one
//! failing on a broken translation.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;

use squillion::lang::Lang;
use squillion::presets::{self, PresetText};

/// Numbers the English writes with a scale word the Chinese writes as a Chinese numeral:
/// (preset, field, the English number token, the Chinese word that replaces it). The English
/// "50 million" reads 五千万, not "50 million" or "5000 万" (which would be a new number).
/// Every other number token must appear in the Chinese exactly as often as in the English.
const SPELLED: &[(&str, &str, &str, &str)] = &[
    ("social-graph", "explanation", "50", "五千万"),
    ("social-graph", "scale_note", "5", "五十亿"),
];

/// The longest label the design bar takes (`validate.rs`'s limit for `design_labels`).
const MAX_LABEL_CHARS: usize = 40;

/// The fewest English words in a row that make an untranslated sentence.
const MAX_LATIN_WORDS: usize = 5;

/// The four translated fields of a text, by their JSON key.
fn fields(t: &PresetText) -> [(&'static str, &str); 4] {
    [
        ("title", &t.title),
        ("lesson", &t.lesson),
        ("explanation", &t.explanation),
        ("scale_note", &t.scale_note),
    ]
}

/// Returns the number tokens of `s` (`844,405`, `2.1`, `16`), counted.
fn numbers(s: &str) -> BTreeMap<String, i64> {
    let re = regex_lite::Regex::new(r"\d+(?:,\d{3})*(?:\.\d+)?").unwrap();
    let mut out = BTreeMap::new();
    for m in re.find_iter(s) {
        *out.entry(m.as_str().to_string()).or_insert(0) += 1;
    }
    out
}

/// Returns the backticked code spans of `s`, backticks included.
fn code_spans(s: &str) -> Vec<&str> {
    let re = regex_lite::Regex::new(r"`[^`]*`").unwrap();
    re.find_iter(s).map(|m| m.as_str()).collect()
}

/// Returns the warning codes (`ARRAY_BREAK_POINT`) of `s` outside code spans.
fn codes(s: &str) -> Vec<String> {
    let plain = regex_lite::Regex::new(r"`[^`]*`")
        .unwrap()
        .replace_all(s, " ");
    let re = regex_lite::Regex::new(r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b").unwrap();
    re.find_iter(&plain)
        .map(|m| m.as_str().to_string())
        .collect()
}

/// Whether `c` ends a run of English words: a CJK character or CJK punctuation.
fn breaks_latin(c: char) -> bool {
    matches!(c,
        '\u{2014}' | '\u{2018}' | '\u{2019}' | '\u{201c}' | '\u{201d}' | '\u{2026}'
        | '\u{3000}'..='\u{303f}' | '\u{3400}'..='\u{9fff}' | '\u{ff00}'..='\u{ffef}')
}

/// Returns the runs of more than [`MAX_LATIN_WORDS`] English words in a row outside code
/// spans: a sentence left untranslated.
fn latin_runs(s: &str) -> Vec<String> {
    let plain = regex_lite::Regex::new(r"`[^`]*`")
        .unwrap()
        .replace_all(s, " ");
    plain
        .split(breaks_latin)
        .filter(|seg| {
            seg.split_whitespace()
                .filter(|w| w.chars().any(|c| c.is_ascii_alphabetic()))
                .count()
                > MAX_LATIN_WORDS
        })
        .map(|seg| seg.trim().to_string())
        .collect()
}

/// Returns what the translation `zh` of the field `field` of preset `name` lost or left in
/// English, compared with `en`; empty when it is faithful.
fn problems(name: &str, field: &str, en: &str, zh: &str) -> Vec<String> {
    let mut out = Vec::new();
    if zh.trim().is_empty() {
        out.push("empty".to_string());
        return out;
    }
    let mut want = numbers(en);
    for &(p, f, n, word) in SPELLED {
        if p == name && f == field && zh.contains(word) {
            if let Some(c) = want.get_mut(n) {
                *c -= 1;
            }
        }
    }
    want.retain(|_, c| *c != 0);
    let got = numbers(zh);
    if want != got {
        out.push(format!("numbers: English {want:?}, Chinese {got:?}"));
    }
    for span in code_spans(en) {
        if !zh.contains(span) {
            out.push(format!("code span {span} missing"));
        }
    }
    for code in codes(en) {
        if !zh.contains(&code) {
            out.push(format!("warning code {code} missing"));
        }
    }
    if en.matches("\n\n").count() != zh.matches("\n\n").count() {
        out.push("not the same number of paragraphs".to_string());
    }
    if !en.contains('\n') && zh.contains('\n') {
        out.push("a line break the English has not".to_string());
    }
    for run in latin_runs(zh) {
        out.push(format!("untranslated: {run:?}"));
    }
    out
}

#[test]
fn every_preset_has_a_complete_zh_cn_translation() {
    let mut failures = Vec::new();
    for p in presets::all() {
        let t = match presets::translation(p.name, Lang::ZhCn) {
            Some(Ok(t)) => t,
            Some(Err(e)) => {
                failures.push(e.to_string());
                continue;
            }
            None => {
                failures.push(format!(
                    "{}: no locales/zh-CN/presets/{}.json",
                    p.name, p.name
                ));
                continue;
            }
        };
        let en = PresetText::english(p.text);
        for ((field, zh), (_, en)) in fields(&t).into_iter().zip(fields(&en)) {
            for problem in problems(p.name, field, en, zh) {
                failures.push(format!("{} {field}: {problem}", p.name));
            }
        }
        let offered = p.model().unwrap().preset.unwrap().designs;
        for d in &offered {
            match t.design_labels.get(d) {
                None => failures.push(format!("{}: no label for design {d}", p.name)),
                Some(l) if l.trim().is_empty() => {
                    failures.push(format!("{}: empty label for design {d}", p.name));
                }
                Some(l) if l.chars().count() > MAX_LABEL_CHARS => {
                    failures.push(format!("{}: label of {d} over {MAX_LABEL_CHARS}", p.name));
                }
                Some(_) => {}
            }
        }
        for d in t.design_labels.keys() {
            if !offered.contains(d) {
                failures.push(format!(
                    "{}: label for {d}, a design it does not offer",
                    p.name
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every workload operation a preset's designs run (lifecycle patterns add their own), by name.
fn operations(p: &presets::Preset) -> std::collections::BTreeSet<String> {
    let model = p.model().unwrap();
    squillion::eval::offer::offers(&model)
        .iter()
        .flat_map(|o| o.layout().unwrap().plan.units)
        .map(|u| u.unit)
        .collect()
}

#[test]
fn every_operation_of_every_preset_has_a_chinese_name() {
    let mut failures = Vec::new();
    for p in presets::all() {
        let t = p.text(Lang::ZhCn);
        let ops = operations(p);
        for op in &ops {
            match t.units.get(op) {
                None => failures.push(format!("{}: no name for operation “{op}”", p.name)),
                Some(l) if !l.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)) => {
                    failures.push(format!("{}: “{l}” for “{op}” is not Chinese", p.name));
                }
                Some(l) if numbers(l) != numbers(op) => {
                    failures.push(format!("{}: “{l}” for “{op}” changes a number", p.name));
                }
                Some(l) => assert_eq!(p.unit_label(op, Lang::ZhCn), *l),
            }
            assert_eq!(
                p.unit_label(op, Lang::En),
                *op,
                "English is the name itself"
            );
        }
        for op in t.units.keys() {
            if !ops.contains(op) {
                failures.push(format!(
                    "{}: a name for “{op}”, which no design runs",
                    p.name
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_translation_file_is_a_preset_and_embedded() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/locales/zh-CN/presets");
    let mut on_disk: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    on_disk.sort();
    let mut embedded: Vec<String> = presets::translation_files()
        .iter()
        .map(|(n, l, _)| {
            assert_eq!(*l, Lang::ZhCn);
            format!("{n}.json")
        })
        .collect();
    embedded.sort();
    assert_eq!(on_disk, embedded);
    let mut names: Vec<String> = presets::known_names()
        .iter()
        .map(|n| format!("{n}.json"))
        .collect();
    names.sort();
    assert_eq!(embedded, names);
}

/// Every preset names each design it offers by what it does, in every language: an explicit
/// label (`preset.design_labels`, and the translation's), never the id read as words alone.
#[test]
fn every_preset_names_its_designs_by_what_they_do_in_every_language() {
    for p in presets::all() {
        let m = p.model().unwrap_or_else(|e| panic!("{}: {e}", p.name));
        let meta = m.preset.as_ref().unwrap_or_else(|| panic!("{}", p.name));
        for d in &meta.designs {
            assert!(
                meta.design_labels.contains_key(d),
                "{}: design {d} has no English label",
                p.name
            );
            for lang in Lang::ALL {
                assert!(
                    p.text(lang)
                        .design_labels
                        .get(d)
                        .is_some_and(|l| !l.trim().is_empty()),
                    "{}: design {d} has no label in {lang:?}",
                    p.name
                );
            }
        }
    }
}

#[test]
fn text_is_chinese_with_english_as_the_fallback() {
    let p = presets::find("social-feed").unwrap();
    let en = p.text(Lang::En);
    assert_eq!(en.title, p.title);
    assert_eq!(en.lesson, p.lesson);
    let zh = p.text(Lang::ZhCn);
    assert_eq!(zh.title, "社交信息流：读时扇出、写时扇出与分桶");
    assert!(zh.explanation.contains("分散-聚集"));
    assert_eq!(p.design_label("bucketed", Lang::ZhCn), "分桶（块状）");
    assert_eq!(p.design_label("bucketed", Lang::En), "Bucketed feed");
    assert_eq!(p.design_label("normalized", Lang::En), "Fan-out on read");
    let graph = presets::find("social-graph").unwrap();
    assert_eq!(graph.design_label("tbc", Lang::En), "Continuation (tbc)");
    assert_eq!(graph.design_label("tbc", Lang::ZhCn), "连续文档（tbc）");

    // A partial translation: each missing or empty field, each missing label, is English.
    let english = PresetText::english(p.text);
    let partial = PresetText::parse(r#"{ "title": "标题", "lesson": " " }"#)
        .unwrap()
        .or(&english);
    assert_eq!(partial.title, "标题");
    assert_eq!(partial.lesson, english.lesson);
    assert_eq!(partial.explanation, english.explanation);
    assert_eq!(partial.scale_note, english.scale_note);
}

#[test]
fn an_unknown_key_is_an_error() {
    let e = PresetText::parse(r#"{ "title": "x", "lessons": "y" }"#).unwrap_err();
    assert!(e.to_string().contains("unknown field `lessons`"), "{e}");
}

#[test]
fn the_checks_fail_on_a_broken_translation() {
    let p = presets::find("social-feed").unwrap();
    let en = PresetText::english(p.text);
    let zh = p.text(Lang::ZhCn);
    assert!(problems(p.name, "explanation", &en.explanation, &zh.explanation).is_empty());

    // A number changed (844,405 → 844405), a code span and a warning code dropped.
    let broken = zh
        .explanation
        .replace("844,405", "844405")
        .replace("`{ owner: me }`", "owner")
        .replace("SCATTER_GATHER", "分散聚集");
    let found = problems(p.name, "explanation", &en.explanation, &broken).join("\n");
    assert!(found.contains("numbers"), "{found}");
    assert!(found.contains("`{ owner: me }`"), "{found}");
    assert!(found.contains("SCATTER_GATHER"), "{found}");

    // A sentence left in English (code spans do not count as English words).
    let untranslated = format!(
        "{} Reads outnumber writes here, the reason to choose it.",
        zh.scale_note
    );
    let found = problems(p.name, "scale_note", &en.scale_note, &untranslated).join("\n");
    assert!(found.contains("untranslated"), "{found}");
    assert!(
        latin_runs("使用 `db.activity.find({ to: me }).sort({ date: -1 }).limit(20)` 读取")
            .is_empty()
    );

    // An empty field, a lost paragraph.
    assert_eq!(problems(p.name, "title", &en.title, " "), ["empty"]);
    let one_paragraph = zh.explanation.replace("\n\n", "");
    let found = problems(p.name, "explanation", &en.explanation, &one_paragraph).join("\n");
    assert!(found.contains("paragraphs"), "{found}");

    // A spelled-out number counts only where it is listed, and only when the word is there.
    let graph = presets::find("social-graph").unwrap();
    let en = PresetText::english(graph.text);
    let zh = graph.text(Lang::ZhCn);
    assert!(problems(graph.name, "explanation", &en.explanation, &zh.explanation).is_empty());
    let without = zh.explanation.replace("五千万", "很多");
    let found = problems(graph.name, "explanation", &en.explanation, &without).join("\n");
    assert!(found.contains("numbers"), "{found}");
}

/// Runs `squillion ARGS` with the locale variables `env` (none of the caller's); returns the
/// exit code and stdout.
fn squillion(args: &[&str], env: &[(&str, &str)]) -> (i32, String) {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_squillion"));
    cmd.args(args)
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("LANG");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn cli_prints_presets_in_the_chosen_language() {
    let logs = presets::find("host-logs").unwrap();
    let zh = logs.text(Lang::ZhCn);
    let (code, out) = squillion(&["presets", "host-logs", "--lang", "zh-CN"], &[]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with(&format!("{}\n\n要点：{}\n", zh.title, zh.lesson)),
        "{out}"
    );
    assert!(out.contains("来源：文章 002\n"), "{out}");
    assert!(out.contains(&format!("规模：{}\n", zh.scale_note)), "{out}");
    for para in zh.explanation.split("\n\n") {
        assert!(out.contains(para), "{para}");
    }
    // The table: the same figures as in English, the CJK labels padded to line up.
    let (_, en) = squillion(&["presets", "host-logs"], &[]);
    // Returns the column where a row's first figure ends (CJK characters two columns wide)
    // and the figures.
    let figures = |s: &str, label: &str| -> (usize, String) {
        let line = s
            .lines()
            .find(|l| l.trim_start().starts_with(label))
            .unwrap();
        let rest = line.trim_start().strip_prefix(label).unwrap();
        let cols = |t: &str| {
            t.chars()
                .map(|c| if c.is_ascii() { 1 } else { 2 })
                .sum::<usize>()
        };
        let first = rest.split_whitespace().next().unwrap();
        let spaces = rest.len() - rest.trim_start().len();
        let indent = line.len() - line.trim_start().len();
        (
            indent + cols(label) + spaces + first.len(),
            rest.trim().to_string(),
        )
    };
    let (en_at, en_row) = figures(&en, "largest document (bytes)");
    let (zh_at, zh_row) = figures(&out, "最大文档（字节）");
    assert_eq!(zh_row, en_row);
    assert_eq!(
        zh_row.split_whitespace().collect::<Vec<_>>(),
        ["148", "242,888,979", "134,979", "178", "23,569", "25,013"]
    );
    let (zh_first, _) = figures(&out, "host dashboard: newest 1000");
    assert_eq!(zh_at, zh_first, "{out}");
    assert_eq!(en_at, figures(&en, "host dashboard: newest 1000").0);

    // LANG chooses when --lang is absent; LC_ALL wins over LANG; --lang wins over both.
    let listed = |out: &str, lang: Lang| {
        presets::all().iter().all(|p| {
            out.lines()
                .any(|l| l.starts_with(p.name) && l.ends_with(&p.text(lang).lesson))
        })
    };
    let (code, out) = squillion(&["presets"], &[("LANG", "zh_CN.UTF-8")]);
    assert_eq!(code, 0);
    assert!(listed(&out, Lang::ZhCn), "{out}");
    let (_, out) = squillion(&["presets"], &[("LANG", "zh_CN.UTF-8"), ("LC_ALL", "C")]);
    assert!(listed(&out, Lang::En), "{out}");
    let (_, out) = squillion(&["presets", "--lang", "en"], &[("LANG", "zh_CN.UTF-8")]);
    assert!(listed(&out, Lang::En), "{out}");
    let (_, out) = squillion(&["presets", "--lang", "zh"], &[("LANG", "en_US.UTF-8")]);
    assert!(listed(&out, Lang::ZhCn), "{out}");

    // JSON: the environment changes nothing; --lang changes the values, never the keys.
    let (_, plain) = squillion(&["presets", "--json"], &[]);
    let (_, env_zh) = squillion(&["presets", "--json"], &[("LANG", "zh_CN.UTF-8")]);
    assert_eq!(plain, env_zh);
    let (code, json_zh) = squillion(&["presets", "--json", "--lang", "zh-CN"], &[]);
    assert_eq!(code, 0);
    let en: serde_json::Value = serde_json::from_str(&plain).unwrap();
    let zh: serde_json::Value = serde_json::from_str(&json_zh).unwrap();
    for (e, z) in en.as_array().unwrap().iter().zip(zh.as_array().unwrap()) {
        let keys =
            |v: &serde_json::Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
        assert_eq!(keys(e), keys(z));
        assert_eq!(e["designs"], z["designs"]);
        let p = presets::find(e["name"].as_str().unwrap()).unwrap();
        assert_eq!(z["title"], p.text(Lang::ZhCn).title.as_str());
        assert_eq!(z["lesson"], p.text(Lang::ZhCn).lesson.as_str());
    }

    // A language Squillion does not speak is a usage error, not English.
    let (code, out) = squillion(&["presets", "--lang", "fr"], &[]);
    assert_eq!((code, out.as_str()), (2, ""));
}
