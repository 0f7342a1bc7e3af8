//! Many-to-many from both sides: a relationship's `parents_per_child` sizes the array of parent
//! ids a child holds (its p50, p99 and largest), counts a child's parents at full scale, and is
//! validated; without it the layout notes that the tail is assumed.
#![cfg(not(target_arch = "wasm32"))]

use squillion::design::layout_model;
use squillion::model::{parse_model, Distribution, Model};
use squillion::stats::collection_stats;
use squillion::warning::{check, Severity, Warning};

/// 1,000 users following each other: followers per user uniform 0..=400 (mean 200), kept in
/// each follower's `following` (`reference_in_child`); `per_child` is the relationship's
/// `parents_per_child` JSON, if any.
fn model(per_child: Option<&str>, m2m: bool) -> String {
    let ppc = per_child.map_or(String::new(), |d| format!(r#""parents_per_child": {d},"#));
    format!(
        r#"{{
      "entities": [ {{ "name": "user", "count": 1000, "fields": {{
          "name": {{ "type": "string", "length": {{ "shape": "fixed", "value": 5 }} }} }} }} ],
      "relationships": [ {{ "name": "followers", "parent": "user", "child": "user",
          "many_to_many": {m2m}, {ppc} "parent_field": "following",
          "cardinality": {{ "shape": "uniform", "min": 0, "max": 400 }} }} ],
      "design": {{ "relationships": {{ "followers": {{ "strategy": "reference_in_child" }} }} }}
    }}"#
    )
}

fn parse(text: &str) -> Model {
    parse_model(text).unwrap_or_else(|e| panic!("{e}"))
}

fn notes(m: &Model) -> Vec<Warning> {
    let l = layout_model(m).unwrap_or_else(|e| panic!("{e}"));
    check(m, &l)
        .into_iter()
        .filter(|w| w.code.starts_with("PARENTS_PER_CHILD"))
        .collect()
}

/// Returns (p50, p99, max) bytes of the user documents.
fn sizes(m: &Model) -> (u64, u64, u64) {
    let l = layout_model(m).unwrap_or_else(|e| panic!("{e}"));
    let c = l
        .collection("user")
        .unwrap_or_else(|| panic!("no user collection"));
    let s = collection_stats(c, &m.start_date);
    let sh = &s.shapes[0];
    (sh.p50.bytes, sh.p99.bytes, sh.max.bytes)
}

/// Bytes of a user document with `n` ids in `following`: `_id` 17, `name` 1+4+1+(4+5+1) = 16,
/// the array 1+9+1 + 5 + Σ (1 + digits(i) + 1 + 12), and the document's 5.
fn user_bytes(n: u64) -> u64 {
    let elems: u64 = (0..n).map(|i| 14 + i.to_string().len() as u64).sum();
    5 + 17 + 16 + 11 + 5 + elems
}

#[test]
fn without_it_every_child_has_the_mean_and_the_tail_is_assumed() {
    let m = parse(&model(None, true));
    // parents × mean ÷ children = 1,000 × 200 ÷ 1,000: every array holds 200 ids.
    assert_eq!(
        sizes(&m),
        (user_bytes(200), user_bytes(200), user_bytes(200))
    );
    let n = notes(&m);
    assert_eq!(n.len(), 1, "{n:?}");
    assert_eq!(n[0].code, "PARENTS_PER_CHILD_ASSUMED");
    assert_eq!(n[0].severity, Severity::Info);
    assert_eq!(
        (n[0].collection.as_str(), n[0].path.as_str()),
        ("user", "following")
    );
    assert!(
        n[0].message.contains("the mean, 200 ids"),
        "{}",
        n[0].message
    );
}

#[test]
fn stated_it_sizes_the_childs_array_with_its_tail() {
    // Median 180, p99 450, at most 500 (mean ≈ 194: the sides agree, no note).
    let d = r#"{ "shape": "lognormal", "typical": 180, "p99": 450, "max": 500 }"#;
    let m = parse(&model(Some(d), true));
    let ppc = m.relationships[0]
        .parents_per_child
        .clone()
        .unwrap_or_else(|| panic!("parents_per_child"));
    assert!(matches!(ppc, Distribution::Lognormal { .. }));
    let (p50, p99, max) = sizes(&m);
    assert_eq!(p50, user_bytes(180));
    assert_eq!(p99, user_bytes(450));
    assert_eq!(max, user_bytes(500));
    let mean = ppc.mean();
    assert!((185.0..205.0).contains(&mean), "{mean}");
    assert!(notes(&m).is_empty(), "{:?}", notes(&m));
}

#[test]
fn sides_that_count_different_links_are_noted() {
    // 1,000 × 200 followers, but 1,000 × ≈ 50 followed.
    let d = r#"{ "shape": "fixed", "value": 50 }"#;
    let n = notes(&parse(&model(Some(d), true)));
    assert_eq!(n.len(), 1, "{n:?}");
    assert_eq!(n[0].code, "PARENTS_PER_CHILD_DISAGREES");
    assert_eq!(n[0].severity, Severity::Info);
    assert!(n[0].message.contains("= 200,000"), "{}", n[0].message);
    assert!(n[0].message.contains("= 50,000"), "{}", n[0].message);
}

#[test]
fn only_a_many_to_many_relationship_states_it() {
    let d = r#"{ "shape": "fixed", "value": 3 }"#;
    let e = match parse_model(&model(Some(d), false)) {
        Ok(_) => panic!("expected an error"),
        Err(e) => e,
    };
    assert!(
        e.errors
            .iter()
            .any(|x| x.path == "$.relationships[0].parents_per_child"
                && x.message.contains("many_to_many")),
        "{e}"
    );
    // A bad distribution is reported at its own path.
    let bad = r#"{ "shape": "uniform", "min": 9, "max": 2 }"#;
    let e = match parse_model(&model(Some(bad), true)) {
        Ok(_) => panic!("expected an error"),
        Err(e) => e,
    };
    assert!(
        e.errors
            .iter()
            .any(|x| x.path.starts_with("$.relationships[0].parents_per_child")),
        "{e}"
    );
}

#[test]
fn the_generated_children_follow_it() {
    let d = r#"{ "shape": "lognormal", "typical": 150, "p99": 450, "max": 500 }"#;
    let m = parse(&model(Some(d), true));
    let l = layout_model(&m).unwrap_or_else(|e| panic!("{e}"));
    let data = squillion::generate::generate(&m, &l);
    let users = data
        .collection("user")
        .unwrap_or_else(|| panic!("no users generated"));
    let lens: Vec<usize> = users
        .documents
        .iter()
        .map(|d| d.get_array("following").map_or(0, Vec::len))
        .collect();
    // Document 0 is the largest (every count at its max), document 1 at p99.
    assert_eq!(lens.first(), Some(&500));
    assert_eq!(lens.get(1), Some(&450));
    assert!(lens.iter().all(|&n| n <= 500));
}
