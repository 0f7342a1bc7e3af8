//! The advice in words (`squillion::advise::words`, issue #35): every option of every preset's
//! candidate space, every strategy on every relationship and every field pattern is a clause
//! in English and in Chinese with no strategy id in it; social-feed's and social-graph's
//! recommendations read as sentences in both languages; a recommendation that scores worse
//! than the yardstick says why; the JSON keeps the ids beside the words.
#![cfg(not(target_arch = "wasm32"))]

use squillion::advise::space::space;
use squillion::advise::text::report_in;
use squillion::advise::words::{field_words, option_words, sentence, strategy_words};
use squillion::advise::{advise, AdviseOptions};
use squillion::lang::{Lang, Text};
use squillion::model::design::{AttributeForm, FieldPattern, Strategy};
use squillion::model::Model;

/// Every id a model writes for a strategy, a field pattern or an attribute form that is not
/// also an English word: none may be shown as words.
fn ids() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Strategy::names().filter(|n| n.contains('_')).collect();
    out.extend(FieldPattern::NAMES.iter().filter(|n| n.contains('_')));
    out.extend(
        AttributeForm::ALL
            .map(AttributeForm::as_str)
            .iter()
            .filter(|n| n.contains('_')),
    );
    out.push("gridfs");
    out
}

/// Returns the preset's model.
fn preset(name: &str) -> Model {
    squillion::presets::find(name)
        .expect("preset")
        .model()
        .expect("model")
}

/// Asserts `t` renders in both languages' own words, non-empty, with no id of [`ids`].
fn assert_words(t: &Text, what: &str) {
    for lang in [Lang::En, Lang::ZhCn] {
        let s = t.render(lang);
        assert!(!s.trim().is_empty(), "{what}: empty in {lang}");
        assert!(
            t.is_translated(lang),
            "{what}: not in {lang}'s catalogue: {s}"
        );
        for id in ids() {
            assert!(!s.contains(id), "{what} in {lang} names the id {id}: {s}");
        }
    }
}

#[test]
fn every_option_of_every_preset_space_is_a_clause_in_both_languages() {
    let mut count = 0;
    for p in squillion::presets::all() {
        let m = p.model().expect("model");
        let s = space(&m);
        for d in &s.dimensions {
            for i in 0..d.len() {
                assert_words(
                    &option_words(&m, d, i),
                    &format!("{}: {d:?} option {i}", p.name),
                );
                count += 1;
            }
        }
        // Every strategy on every relationship, whether the space offers it or not.
        for r in &m.relationships {
            for st in Strategy::ALL {
                let with_copy = st.with_copy(vec!["name".into()]);
                for st in [st, with_copy] {
                    assert_words(
                        &strategy_words(r, &st),
                        &format!("{} {}: {st:?}", p.name, r.name),
                    );
                }
            }
        }
    }
    assert!(count > 100, "only {count} options");
}

#[test]
fn every_field_pattern_and_its_absence_is_a_clause_in_both_languages() {
    let patterns = [
        r#"{"pattern":"attribute","entity":"e","field":"f","form":"keyed","key":"k","value":"v"}"#,
        r#"{"pattern":"attribute","entity":"e","field":"f","form":"key_value","key":"k","value":"v"}"#,
        r#"{"pattern":"attribute","entity":"e","field":"f","form":"flattened","key":"k","value":"v"}"#,
        r#"{"pattern":"computed","entity":"e","field":"f","relationship":"r"}"#,
        r#"{"pattern":"computed","entity":"e","field":"f","relationship":"r","sum":"s"}"#,
        r#"{"pattern":"preallocated","entity":"e","field":"f","slots":1440}"#,
        r#"{"pattern":"gridfs","entity":"e","field":"f"}"#,
        r#"{"pattern":"object_storage","entity":"e","field":"f"}"#,
        r#"{"pattern":"approximate","entity":"e","field":"f","every":10}"#,
        r#"{"pattern":"archive","entity":"e","field":"f","after_days":365}"#,
        r#"{"pattern":"document_versioning","entity":"e","field":"f"}"#,
        r#"{"pattern":"schema_versioning","entity":"e","field":"f","from":1,"to":2,"migrated_share":0.5}"#,
        r#"{"pattern":"case_insensitive_index","entity":"e","field":"f"}"#,
        r#"{"pattern":"measurements","entity":"e","meta":"f","series":10,"window_seconds":60,"measurement":"m"}"#,
        r#"{"pattern":"map","entity":"e","relationship":"r","key":"k"}"#,
    ];
    let mut names = Vec::new();
    for text in patterns {
        let p: FieldPattern = serde_json::from_str(text).expect(text);
        names.push(p.name());
        assert_words(&field_words(Some(&p), Some(&p)), text);
        assert_words(&field_words(None, Some(&p)), &format!("without {text}"));
    }
    for n in FieldPattern::NAMES {
        assert!(names.contains(&n), "no case for the pattern {n}");
    }
}

#[test]
fn social_feed_reads_as_words_and_says_why_it_scores_worse_than_the_yardstick() {
    let a = advise(&preset("social-feed"), &AdviseOptions::default());
    let r = a.recommended.as_ref().expect("a recommendation");
    assert_eq!(
        r.description,
        "Copy each activity into the feed of every user it goes to, in buckets of 50 per feed"
    );
    assert!(
        r.label.contains("bucketed_fan_out"),
        "the label keeps the ids: {}",
        r.label
    );
    // It scores worse than the normalized design, which is infeasible: the advice says so.
    assert!(r.score > 0.0, "score {}", r.score);
    let y = a
        .worse_than_yardstick
        .as_ref()
        .expect("why it scores worse");
    assert_eq!(y.reason, "infeasible");
    assert!(y.text.contains("activity.to breaks 16 MiB"), "{}", y.text);
    assert!(y.words.render(Lang::ZhCn).contains("范式化设计不可行"));
    // The report, in both languages: designs in words, no id outside the design's JSON.
    for lang in [Lang::En, Lang::ZhCn] {
        let report = report_in(&a, lang);
        let shown: String = report
            .lines()
            .filter(|l| !l.trim_start().starts_with("design:") && !l.contains("设计：{"))
            .collect::<Vec<_>>()
            .join("\n");
        for id in ids() {
            assert!(!shown.contains(id), "{lang} report names {id}:\n{shown}");
        }
    }
    let zh = report_in(&a, Lang::ZhCn);
    assert!(
        zh.contains("把每条 activity 复制到它要送达的每个 user 的信息流中"),
        "{zh}"
    );
    assert!(zh.contains("因为范式化设计不可行"), "{zh}");
    // The JSON: ids in `label` and `design`, the words in `description`, beside them.
    let v = serde_json::to_value(&a).expect("json");
    assert_eq!(v["recommended"]["description"], r.description.as_str());
    assert_eq!(v["worse_than_yardstick"]["reason"], "infeasible");
}

#[test]
fn social_graph_says_followers_and_activities_in_words() {
    let a = advise(&preset("social-graph"), &AdviseOptions::default());
    let r = a.recommended.as_ref().expect("a recommendation");
    let d = &r.description;
    assert!(d.contains("followers") && d.contains("activity"), "{d}");
    assert!(
        d.contains("store each activity with a reference to its user"),
        "{d}"
    );
    assert!(
        !d.contains("embed_subset") && !d.contains("reference_in_child"),
        "{d}"
    );
    assert!(r.score <= 0.0 && a.worse_than_yardstick.is_none());
    for e in &a.explanations {
        for lang in [Lang::En, Lang::ZhCn] {
            let t = squillion::advise::text::explanation_text(e, lang);
            for id in ids() {
                assert!(!t.contains(id), "{lang} explanation names {id}: {t}");
            }
        }
    }
    let zh = sentence(&r.words, Lang::ZhCn);
    assert!(zh.contains("每个 activity 保存对其 user 的引用"), "{zh}");
    assert!(
        !zh.chars().any(|c| c.is_ascii_alphabetic()) || {
            // Only the model's names are in Latin letters.
            let names = [
                "user",
                "activity",
                "followers",
                "activities",
                "id",
                "lookup",
            ];
            zh.split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                .filter(|w| !w.is_empty() && w.chars().any(|c| c.is_ascii_alphabetic()))
                .all(|w| names.contains(&w))
        },
        "{zh}"
    );
}
