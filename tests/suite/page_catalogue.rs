//! The page's catalogues (`locales/*/page.ftl`): each parses, every language has every message
//! of the English with the same values, each message renders, and a Chinese message keeps
//! English words only where they are MongoDB's, the product's or a unit.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, BTreeSet};

use fluent_syntax::ast::{Entry, Expression, InlineExpression, Pattern, PatternElement};
use squillion::lang::page::{catalogue, catalogue_ids};
use squillion::lang::{Lang, Msg};

/// Returns the names of the values (`$count`) a pattern uses.
fn variables(pattern: &Pattern<&str>, out: &mut BTreeSet<String>) {
    for element in &pattern.elements {
        if let PatternElement::Placeable { expression } = element {
            expression_variables(expression, out);
        }
    }
}

fn expression_variables(e: &Expression<&str>, out: &mut BTreeSet<String>) {
    match e {
        Expression::Inline(i) => inline_variables(i, out),
        Expression::Select { selector, variants } => {
            inline_variables(selector, out);
            for v in variants {
                variables(&v.value, out);
            }
        }
    }
}

fn inline_variables(i: &InlineExpression<&str>, out: &mut BTreeSet<String>) {
    match i {
        InlineExpression::VariableReference { id } => {
            out.insert(id.name.to_string());
        }
        InlineExpression::Placeable { expression } => expression_variables(expression, out),
        _ => {}
    }
}

/// Returns each message of `lang`'s page catalogue: id → the values it uses.
fn messages(lang: Lang) -> BTreeMap<String, BTreeSet<String>> {
    let resource = fluent_syntax::parser::parse(catalogue(lang)).unwrap_or_else(|(_, errors)| {
        panic!(
            "locales/{}/page.ftl does not parse: {errors:?}",
            lang.code()
        )
    });
    let mut out = BTreeMap::new();
    for entry in resource.body {
        if let Entry::Message(m) = entry {
            let mut vars = BTreeSet::new();
            if let Some(p) = &m.value {
                variables(p, &mut vars);
            }
            let fresh = out.insert(m.id.name.to_string(), vars).is_none();
            assert!(fresh, "{}: {} is there twice", lang.code(), m.id.name);
        }
    }
    out
}

#[test]
fn every_language_has_every_message_with_the_same_values() {
    let en = messages(Lang::En);
    assert_eq!(
        en.keys().cloned().collect::<Vec<_>>(),
        Msg::ALL
            .iter()
            .map(|m| m.id().to_string())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect::<Vec<_>>(),
        "Msg (build.rs) and locales/en/page.ftl disagree"
    );
    for lang in Lang::ALL {
        let (_, parsed) = catalogue_ids(lang);
        assert!(
            parsed,
            "locales/{}/page.ftl has a syntax error",
            lang.code()
        );
        let other = messages(lang);
        let missing: Vec<_> = en.keys().filter(|k| !other.contains_key(*k)).collect();
        let extra: Vec<_> = other.keys().filter(|k| !en.contains_key(*k)).collect();
        assert!(missing.is_empty(), "{} lacks {missing:?}", lang.code());
        assert!(
            extra.is_empty(),
            "{} has unknown ids {extra:?}",
            lang.code()
        );
        for (id, vars) in &en {
            assert_eq!(
                &other[id],
                vars,
                "{}: {id} has other values than the English",
                lang.code()
            );
        }
    }
}

#[test]
fn every_message_renders_in_every_language() {
    for &m in Msg::ALL {
        let (_, vars) = messages(Lang::En)
            .into_iter()
            .find(|(id, _)| id == m.id())
            .expect("message");
        let values: Vec<(&str, String)> =
            vars.iter().map(|v| (v.as_str(), "1".to_string())).collect();
        for lang in Lang::ALL {
            let out = m.with(lang, &values);
            assert!(
                !out.trim().is_empty(),
                "{} in {}: {out:?}",
                m.id(),
                lang.code()
            );
            assert!(
                !out.contains('{'),
                "{} in {} leaves a placeable: {out:?}",
                m.id(),
                lang.code()
            );
        }
    }
}

/// Words a Chinese page message may keep in Latin letters.
const KEPT_LATIN: &[&str] = &[
    "MongoDB",
    "mongod",
    "mongosh",
    "mongoexport",
    "mongodump",
    // mongodump's flags (--archive, --gzip) and gzip's file extension, as typed.
    "archive",
    "gzip",
    "gz",
    // The profiler's collection, as mongoexport names it (system.profile).
    "system",
    "profile",
    "squillion",
    "compare",
    "advise",
    "JSON",
    "SQL",
    "CSV",
    "BSON",
    "EJSON",
    "GridFS",
    "lookup",
    "Ctrl",
    "Shift",
    "Esc",
    "Z",
    "Y",
    "W",
    "docs",
    "warnings",
    "md",
    "ms",
    "mongoimport",
    "setup",
    "js",
    "workload",
    "manifest",
    "README",
    "zip",
    "Extended",
    "k",
    "p50",
    "p99",
    "export",
    "aggregate",
    "MiB",
    "KiB",
    "GiB",
    "B",
    "s",
    "json",
    "ObjectId",
    "id",
    // The console and the document-size view: the sample database's name (`test`), the shell
    // method `find()`, the Enter key, the sample data's people, Extended JSON's two modes as
    // its specification names them, and the NUL byte.
    "test",
    "find",
    "Enter",
    "Grace",
    "Alice",
    "canonical",
    "relaxed",
    "NUL",
    // The infer dialog (issue #22): file extensions, SQL's own words, the advisor's doc, and
    // the counts field's example (collection names, which a model keeps as they are).
    "advisor",
    "ndjson",
    "bson",
    "metadata",
    "sql",
    "DDL",
    "CREATE",
    "TABLE",
    "users",
    "orders",
    // The Diagram view's downloads: the picture's file formats, and the command it matches
    // (squillion diagram --format svg).
    "SVG",
    "PNG",
    "diagram",
    "format",
    "svg",
    // The Migrate panel: the command it matches (`squillion migrate --out`), the files it
    // downloads (plan.json, migrate.js) and the script's constants (FROM_STEP, TO_STEP, AFTER).
    "migrate",
    "plan",
    "out",
    "FROM",
    "TO",
    "STEP",
    "AFTER",
];

#[test]
fn chinese_keeps_only_mongodb_words_in_latin_letters() {
    let en = messages(Lang::En);
    let source = catalogue(Lang::ZhCn);
    let mut found = Vec::new();
    for line in source.lines().filter(|l| !l.starts_with('#')) {
        let Some((id, text)) = line.split_once(" = ") else {
            continue;
        };
        if !en.contains_key(id) {
            continue;
        }
        // Values ({ $name }) are not words of the message.
        let mut words = String::new();
        let mut depth = 0;
        for c in text.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ if depth == 0 => words.push(c),
                _ => {}
            }
        }
        for w in words
            .split(|c: char| !c.is_ascii_alphabetic())
            .filter(|w| !w.is_empty())
        {
            if !KEPT_LATIN.contains(&w) {
                found.push(format!("{id}: {w:?} in {text:?}"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "English words in zh-CN/page.ftl:\n{}",
        found.join("\n")
    );
}
