//! The strategy picker's choices (`model::design::strategies_for`): exactly the strategies validation
//! accepts for each relationship, each laid out and analysed for every preset.
#![cfg(not(target_arch = "wasm32"))]

use squillion::analysis::analyze;
use squillion::model::design::{strategies_for, Strategy};
use squillion::model::{parse_model, Model};
use squillion::presets;

use crate::common::design_override;
use design_override::with_override;

#[test]
fn the_choices_are_exactly_what_validation_accepts_and_each_one_lays_out() {
    let mut checked = 0;
    for p in presets::all() {
        let m = p.model().unwrap();
        for r in &m.relationships {
            let offered: Vec<Strategy> = strategies_for(&m, &r.name);
            assert!(!offered.is_empty(), "{} {}", p.name, r.name);
            for name in Strategy::names() {
                // Every strategy by name, with 10 for whichever parameter it needs.
                let json =
                    serde_json::json!({"strategy": name, "k": 10, "size": 10, "threshold": 10});
                let mut json = json.as_object().unwrap().clone();
                let keep: &[&str] = match name {
                    "embed_subset" => &["strategy", "k"],
                    "bucket" | "bucketed_fan_out" => &["strategy", "size"],
                    "continuation" => &["strategy", "threshold"],
                    _ => &["strategy"],
                };
                json.retain(|k, _| keep.contains(&k.as_str()));
                let text = with_override(p.text, &r.name, json.into());
                let accepted = parse_model(&text).is_ok();
                let is_offered = offered.iter().any(|s| s.name() == name);
                assert_eq!(accepted, is_offered, "{} {} {name}", p.name, r.name);
            }
            for s in &offered {
                let text = with_override(p.text, &r.name, serde_json::to_value(s).unwrap());
                let m: Model = parse_model(&text)
                    .unwrap_or_else(|e| panic!("{} {} {}: {e}", p.name, r.name, s.name()));
                analyze(&m).unwrap_or_else(|e| panic!("{} {} {}: {e}", p.name, r.name, s.name()));
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn a_feed_takes_the_feed_strategies_with_default_parameters() {
    let m = presets::find("social-feed").unwrap().model().unwrap();
    assert_eq!(
        strategies_for(&m, "feed"),
        vec![
            Strategy::FanOutOnRead,
            Strategy::FanOutOnWrite,
            Strategy::BucketedFanOut { size: 50 }
        ]
    );
    assert!(strategies_for(&m, "no-such-relationship").is_empty());
    let blog = presets::find("blog").unwrap().model().unwrap();
    let names: Vec<&str> = strategies_for(&blog, "comments")
        .iter()
        .map(Strategy::name)
        .collect();
    // The one-to-many strategies, single_collection among them.
    assert_eq!(names.len(), 10);
    assert!(names.contains(&"single_collection"), "{names:?}");
    assert!(!names.iter().any(|n| n.contains("fan_out")), "{names:?}");
}

#[test]
fn a_parameter_is_read_and_set_on_the_strategies_that_have_one() {
    let s = Strategy::Continuation { threshold: 1000 };
    assert_eq!(s.parameter(), Some(("threshold", 1000)));
    assert_eq!(s.with_parameter(7), Strategy::Continuation { threshold: 7 });
    assert_eq!(
        Strategy::EmbedSubset { k: 3 }.with_parameter(5).parameter(),
        Some(("k", 5))
    );
    assert_eq!(
        Strategy::BucketedFanOut { size: 50 }.with_parameter(9),
        Strategy::BucketedFanOut { size: 9 }
    );
    assert_eq!(Strategy::Embed.parameter(), None);
    assert_eq!(Strategy::Embed.with_parameter(9), Strategy::Embed);
}

#[test]
fn a_preset_may_not_call_a_design_custom() {
    let text = presets::find("blog")
        .unwrap()
        .text
        .replace("\"one-query\"", "\"custom\"");
    let e = parse_model(&text).unwrap_err();
    assert!(
        e.to_string().contains("$.preset.custom_designs.custom"),
        "{e}"
    );
}
