//! `squillion infer` reads a feed laid out as fan-out on read back as a feed: social-feed's
//! normalized export (`activity {author, date, type, content, to: [user ids]}` beside `user`)
//! infers to the preset's own relationship (`user → user`, many-to-many, `feed: activity`),
//! its recipients per activity fitted to the original's median, laid out in the data's design
//! (fan-out on read) with `author` and `to` back in `activity`, and re-laid out by the other
//! designs as any feed is.
#![cfg(not(target_arch = "wasm32"))]

use std::path::Path;

use crate::common::squillion_cli as cli;

use squillion::design::layout_model;
use squillion::eval::offer::offer;
use squillion::model::design::Strategy;
use squillion::model::Model;
use squillion::stats::collection_stats;

/// Users exported (each with about 100 activities, each activity to its author's followers).
const SCALE: &str = "20";

fn bin() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_squillion"))
}

/// Exports social-feed's normalized design at [`SCALE`] into `dir`.
fn export(dir: &Path) {
    let out = dir.to_string_lossy();
    let args = [
        "export",
        "--preset",
        "social-feed",
        "--design",
        "normalized",
        "--scale",
        SCALE,
        "--out",
        &out,
    ];
    cli::run(bin(), args, &[0]);
}

/// Infers `activity.json` and `user.json` of `dir` with `extra` arguments; returns the model
/// and the summary printed.
fn infer(dir: &Path, extra: &[&str]) -> (Model, String) {
    let mut args = vec![
        dir.join("activity.json").into_os_string(),
        dir.join("user.json").into_os_string(),
    ];
    args.extend(extra.iter().map(std::ffi::OsString::from));
    cli::infer(bin(), args, dir)
}

#[test]
fn a_fan_out_on_read_export_infers_back_to_the_feed() {
    let original = squillion::presets::find("social-feed")
        .unwrap_or_else(|e| panic!("{e}"))
        .model()
        .unwrap_or_else(|e| panic!("{e:?}"));
    let want = original
        .relationships
        .iter()
        .find(|r| r.feed.is_some())
        .unwrap_or_else(|| panic!("social-feed has a feed"));
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    export(dir.path());
    let counts: Vec<String> = original
        .entities
        .iter()
        .flat_map(|e| ["--count".to_string(), format!("{}={}", e.name, e.count)])
        .collect();
    let counts: Vec<&str> = counts.iter().map(String::as_str).collect();
    let (model, summary) = infer(dir.path(), &counts);

    // The one relationship is the preset's feed, named as the preset names it.
    let [got] = model.relationships.as_slice() else {
        panic!("{:?}", model.relationships)
    };
    assert_eq!(
        (got.name.as_str(), got.parent.as_str(), got.child.as_str()),
        (
            want.name.as_str(),
            want.parent.as_str(),
            want.child.as_str()
        )
    );
    assert!(got.many_to_many);
    assert_eq!(got.feed, want.feed);
    let (median, original_median) = (
        got.cardinality.quantile(0.5),
        want.cardinality.quantile(0.5),
    );
    assert!(
        (median - original_median).abs() <= 0.05 * original_median,
        "recipients per activity: median {median}, the original's {original_median}"
    );
    assert_eq!(
        model.design.relationships.get(&got.name),
        Some(&Strategy::FanOutOnRead)
    );

    // --count: the entities at the preset's full scale.
    for e in &original.entities {
        let inferred = model.entities.iter().find(|i| i.name == e.name);
        assert_eq!(inferred.map(|i| i.count), Some(e.count), "{}", e.name);
    }
    // The activity keeps its own fields, not the references the feed lays out again.
    let activity = model
        .entities
        .iter()
        .find(|e| e.name == "activity")
        .unwrap_or_else(|| panic!("activity"));
    let names: Vec<&str> = activity.fields.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["_id", "date", "type", "content"]);

    // Laid out in its own design: `activity` holds the author and `to` as the original's
    // normalized layout does, a document per activity at full scale.
    let layout = layout_model(&model).unwrap_or_else(|e| panic!("{e}"));
    let c = layout
        .collection("activity")
        .unwrap_or_else(|| panic!("an activity collection"));
    let shape = c.shapes.first().unwrap_or_else(|| panic!("a shape"));
    assert!(shape.fields.get("author").is_some(), "author in activity");
    assert!(shape.fields.get("to").is_some(), "to in activity");
    let exported = offer(&original, "normalized").unwrap_or_else(|| panic!("normalized"));
    let mut o = original.clone();
    o.design = exported.design.clone();
    let original_layout = layout_model(&o).unwrap_or_else(|e| panic!("{e}"));
    let names = |l: &squillion::design::Layout| -> Vec<String> {
        l.collections.iter().map(|c| c.name.clone()).collect()
    };
    assert_eq!(names(&layout), names(&original_layout));
    let stats = collection_stats(c, &model.start_date);
    assert_eq!(stats.count, 1e9);

    // The other designs lay the inferred feed out as any feed: fan-out on write copies each
    // activity to every recipient.
    let denormalized = offer(&model, "denormalized")
        .unwrap_or_else(|| panic!("denormalized"))
        .layout()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        denormalized.strategy(&got.name),
        Some(&Strategy::FanOutOnWrite)
    );
    let copies = denormalized
        .collection("activity")
        .map(|c| collection_stats(c, &model.start_date).count)
        .unwrap_or_default();
    assert!(copies > 1e9 * 50.0, "fan-out on write: {copies} copies");

    // The summary says a fan-out-on-read feed was recognized, and why.
    assert!(
        summary.contains("relationship feed: user → user (fan-out-on-read feed activity"),
        "{summary}"
    );
    assert!(summary.contains("one author reference and an array of recipients"));
}
