//! A form edit's refusal in either language (issue #22): every `EditError` the edits give is a
//! catalogue text whose English is its `Display`, byte for byte what it was when the words were
//! built with `format!`, and whose Chinese is Chinese, the model's names and the problems'
//! places and words apart.
#![cfg(not(target_arch = "wasm32"))]

use serde_json::Value;
use squillion::lang::{Arg, Lang, Text};
use squillion::model::design::Strategy;
use squillion::model::edit::*;
use squillion::model::ModelError;
use squillion::presets;

fn preset(name: &str) -> Value {
    serde_json::from_str(presets::find(name).unwrap().text).unwrap()
}

/// The refusal as the error wrote it before it had a text (the old `format!`s).
fn old_english(e: &EditError) -> String {
    let problems = |errors: &[ModelError]| {
        errors
            .iter()
            .take(3)
            .map(|e| format!("{}: {}", e.path, e.message))
            .collect::<Vec<_>>()
            .join("; ")
    };
    let a = |t: Thing| match t {
        Thing::Entity => "an entity",
        Thing::Relationship => "a relationship",
        Thing::Field => "a field",
        Thing::StrategyOverride => "a strategy override for a relationship",
        Thing::CopiedField => "a copied field in the strategy",
    };
    let bare = |t: Thing| a(t).split_once(' ').unwrap().1.to_string();
    match e {
        EditError::EmptyName => "a name cannot be empty".into(),
        EditError::NameTaken { what, name } => {
            format!("there is already {} named “{name}”", a(*what))
        }
        EditError::NotFound { what, name } => format!("no {} named “{name}”", bare(*what)),
        EditError::Invalid { action, errors } => {
            format!("{action} was refused: {}", problems(errors))
        }
        EditError::WouldBreak { action, errors } => {
            let n = errors.len();
            let refs = if n == 1 {
                "1 reference".to_string()
            } else {
                format!("{n} references")
            };
            format!("{action} would break {refs}: {}", problems(errors))
        }
    }
}

/// Every plain value of the text and of the texts nested in it: the names the model writes.
fn values(t: &Text, out: &mut Vec<String>) {
    for a in t.args.values() {
        match a {
            Arg::Plain(s) => out.push(s.clone()),
            Arg::List(l) => out.extend(l.iter().cloned()),
            Arg::Nested(n) => values(n, out),
            Arg::Sentences { sentences: ts }
            | Arg::Items { items: ts }
            | Arg::Clauses { clauses: ts } => ts.iter().for_each(|t| values(t, out)),
        }
    }
}

/// One refusal of every kind and of every thing, each from a real edit where one gives it.
fn refusals() -> Vec<EditError> {
    let mut out = Vec::new();
    let mut v = preset("social-feed");
    out.push(rename_entity(&mut v, "user", " ").unwrap_err());
    out.push(rename_entity(&mut v, "user", "activity").unwrap_err());
    let mut blog = preset("blog");
    let rel = relationship_names(&blog);
    out.push(rename_relationship(&mut blog, &rel[0], &rel[1]).unwrap_err());
    out.push(remove_relationship(&mut blog, &rel[0]).unwrap_err());
    out.push(rename_field(&mut v, "user", "username", "activityCount").unwrap_err());
    out.push(rename_entity(&mut v, "nobody", "somebody").unwrap_err());
    out.push(remove_relationship(&mut v, "nope").unwrap_err());
    out.push(remove_field(&mut v, "user", "nope").unwrap_err());
    // References: deleting a referenced entity breaks several, a field one or more.
    out.push(remove_entity(&mut v, "user").unwrap_err());
    for f in field_names(&v, "user") {
        if let Err(e) = remove_field(&mut v.clone(), "user", &f) {
            out.push(e);
        }
    }
    // Design edits: a strategy the relationship cannot take, a parameter of 0, no such base.
    out.push(set_strategy(&mut v, "feed", &Strategy::Embed).unwrap_err());
    out.push(set_strategy(&mut v, "feed", &Strategy::BucketedFanOut { size: 0 }).unwrap_err());
    out.push(set_base(&mut v, "flat").unwrap_err());
    out.push(set_joins(&mut v, "merge").unwrap_err());
    out.push(clear_strategy(&mut v, "feed").unwrap_err());
    out.push(set_copied(&mut v, "feed", &Strategy::Embed, "x", true).unwrap_err());
    // Things no edit names with an article today: the words are there all the same.
    for what in [Thing::StrategyOverride, Thing::CopiedField] {
        out.push(EditError::NameTaken {
            what,
            name: "x".into(),
        });
    }
    out
}

#[test]
fn the_english_of_every_refusal_is_its_display_as_it_was() {
    let all = refusals();
    for kind in [
        "EmptyName",
        "NameTaken",
        "NotFound",
        "Invalid",
        "WouldBreak",
    ] {
        assert!(
            all.iter().any(|e| format!("{e:?}").starts_with(kind)),
            "no {kind} among {all:?}"
        );
    }
    for e in &all {
        assert_eq!(e.text().render(Lang::En), e.to_string());
        assert_eq!(e.to_string(), old_english(e));
    }
    let deleted = all
        .iter()
        .find(|e| {
            e.to_string()
                .starts_with("Deleting entity “user” would break ")
        })
        .unwrap();
    assert!(deleted.to_string().contains(" references: $."), "{deleted}");
}

#[test]
fn every_refusal_renders_in_chinese() {
    for e in refusals() {
        let text = e.text();
        assert!(text.is_translated(Lang::ZhCn), "{e}");
        let zh = text.render(Lang::ZhCn);
        assert!(
            zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
            "{zh}"
        );
        // What is left once the problems (their own test checks their words) and the model's
        // names are taken out has no Latin word.
        let mut rest = zh.clone();
        if let EditError::Invalid { errors, .. } | EditError::WouldBreak { errors, .. } = &e {
            for p in errors.iter().take(3) {
                let place = p.to_string_in(Lang::ZhCn);
                assert!(zh.contains(&place), "{zh} lacks {place}");
                rest = rest.replace(&place, "");
            }
        }
        let mut names = Vec::new();
        values(&text, &mut names);
        names.sort_by_key(|n| std::cmp::Reverse(n.len()));
        for n in names {
            rest = rest.replace(&n, "");
        }
        assert!(
            !rest.chars().any(|c| c.is_ascii_alphabetic()),
            "untranslated words in {zh:?} (left: {rest:?})"
        );
    }
}

#[test]
fn a_refusal_reads_as_the_articles_say_it() {
    let mut v = preset("social-feed");
    let e = rename_entity(&mut v, "user", "activity").unwrap_err();
    assert_eq!(e.text().render(Lang::ZhCn), "已经有名为“activity”的实体");
    let e = remove_entity(&mut v, "user").unwrap_err();
    let zh = e.text().render(Lang::ZhCn);
    assert!(zh.starts_with("删除实体“user”会破坏 "), "{zh}");
    assert!(zh.contains(" 处引用：$."), "{zh}");
    let e = set_strategy(&mut v, "feed", &Strategy::Embed).unwrap_err();
    let zh = e.text().render(Lang::ZhCn);
    assert!(
        zh.starts_with("无法对“feed”使用 embed：$.design.relationships.feed.strategy：关系“feed”"),
        "{zh}"
    );
    // Problems are joined as the language joins sentences.
    if let EditError::WouldBreak { errors, .. } = &e {
        if errors.len() > 1 {
            assert!(zh.contains("；$."), "{zh}");
        }
    }
}
