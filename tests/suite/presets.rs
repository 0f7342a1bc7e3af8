//! The workshop presets (presets/*.json): one runner checks that every file parses, validates
//! and is analysed under every design it offers, and that `presets::all()` lists exactly the
//! files; then one test per preset asserts its lesson as numbers, through the same analysis the
//! command line prints (round trips per unit from the plan, break points and their dates,
//! indexes, warnings, document sizes, shard keys).
#![cfg(not(target_arch = "wasm32"))]

use squillion::analysis::{analyze_offered, Analysis};
use squillion::model::Model;
use squillion::presets;

/// Returns the preset's model and the analysis of every design it offers, by design name.
fn load(name: &str) -> (Model, Vec<(String, Analysis)>) {
    let p = presets::get(name).unwrap_or_else(|| panic!("no preset {name}"));
    let m = p.model().unwrap_or_else(|e| panic!("{name}: {e}"));
    let a = analyze_offered(&m).unwrap_or_else(|e| panic!("{name}: {e}"));
    if std::env::var("SQUILLION_SHOW").is_ok_and(|s| s == name || s == "all") {
        show(&m, &a);
    }
    (m, a)
}

fn show(m: &Model, all: &[(String, Analysis)]) {
    for (design, a) in all {
        println!(
            "== {} [{design}] {}",
            m.name.as_deref().unwrap_or(""),
            a.layout.design
        );
        for st in &a.stats {
            for s in &st.shapes {
                println!(
                    "  {} / {}: count {:.0} avg {} p99 {} max {} ({})",
                    st.name,
                    s.label,
                    s.count,
                    s.average.bytes,
                    s.p99.bytes,
                    s.max.bytes,
                    if s.max.exact { "exact" } else { "estimate" }
                );
                for ar in &s.arrays {
                    println!(
                        "    array {} max {} elem {} break {:?} largest {:?} typical {:?} capped {}",
                        ar.field,
                        ar.max_count,
                        ar.element_bytes.bytes,
                        ar.break_point,
                        ar.largest_reaches,
                        ar.typical_reaches,
                        ar.capped
                    );
                }
            }
        }
        for c in &a.layout.collections {
            for i in &c.indexes {
                println!("  {}", i.mongosh());
            }
            if let Some(k) = &c.shard_key {
                println!("  shard {}: {k}", c.name);
            }
        }
        print!("{}", a.layout.plan);
        for w in &a.warnings {
            println!(
                "  {:?} {} {}.{}: {}",
                w.severity, w.code, w.collection, w.path, w.message
            );
        }
    }
}

/// Every file in presets/ is listed by `presets::all()` (and nothing else), parses with its
/// preset metadata, and lays out and is analysed under every design it offers.
#[test]
fn every_preset_file_is_listed_parses_and_evaluates() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/presets");
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .filter_map(|e| {
                    e.file_name()
                        .to_str()
                        .and_then(|n| n.strip_suffix(".json"))
                        .map(str::to_string)
                })
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let mut listed: Vec<String> = presets::all().iter().map(|p| p.name.to_string()).collect();
    listed.sort();
    assert_eq!(files, listed);
    assert_eq!(listed.len(), 17);
    for p in presets::all() {
        let text = std::fs::read_to_string(format!("{dir}/{}.json", p.name))
            .unwrap_or_else(|e| panic!("{}: {e}", p.name));
        assert_eq!(text, p.text, "{}: embedded text is stale", p.name);
        let (m, analyses) = load(p.name);
        assert_eq!(m.name.as_deref(), Some(p.name));
        let meta = m
            .preset
            .as_ref()
            .unwrap_or_else(|| panic!("{}: no preset object", p.name));
        assert_eq!(meta.title, p.title);
        assert_eq!(meta.lesson, p.lesson);
        assert!(!p.lesson.contains('\n'));
        assert!(meta.designs.len() >= 2, "{}: {:?}", p.name, meta.designs);
        assert_eq!(analyses.len(), meta.designs.len(), "{}", p.name);
        for (d, a) in &analyses {
            assert!(!a.layout.collections.is_empty(), "{} [{d}]", p.name);
            // A lifecycle pattern (archive, approximation) adds units to the offered model.
            let units = squillion::eval::offer::offer(&m, d)
                .map_or(m.workload.len(), |o| o.model.workload.len());
            assert_eq!(a.layout.plan.units.len(), units, "{} [{d}]", p.name);
            assert!(
                a.stats.iter().all(|s| s.total_bytes.is_finite()),
                "{} [{d}]",
                p.name
            );
        }
    }
}

/// Every preset names where its lesson comes from, for people: one of the source articles
/// (000 to 004, the seed files) or a published page with its title and an https address,
/// titled in every language; never the project's own history (an issue number).
#[test]
fn every_preset_cites_an_article_or_a_published_page() {
    use squillion::lang::Lang;
    for p in presets::all() {
        let m = p.model().unwrap_or_else(|e| panic!("{}: {e}", p.name));
        let source = m.preset.as_ref().map(|meta| meta.source.clone());
        let source = source.unwrap_or_else(|| panic!("{}: no preset.source", p.name));
        match (&source.article, &source.title, &source.url) {
            (Some(a), None, None) => assert!(
                ["000", "001", "002", "003", "004"].contains(&a.as_str()),
                "{}: article {a} is not one of the source articles",
                p.name
            ),
            (None, Some(t), Some(u)) => {
                assert!(u.starts_with("https://www.mongodb.com/"), "{}: {u}", p.name);
                assert!(!t.to_lowercase().contains("issue"), "{}: {t}", p.name);
                for lang in Lang::ALL {
                    assert!(
                        !p.text(lang).source_title.trim().is_empty(),
                        "{}: no source title in {lang:?}",
                        p.name
                    );
                }
            }
            other => panic!(
                "{}: an article, or a title and an address: {other:?}",
                p.name
            ),
        }
    }
}

/// A published page needs its address: a source with a title alone is refused at its path.
#[test]
fn a_source_page_without_its_address_is_refused() {
    let text = presets::get("category-tree")
        .map(|p| p.text)
        .unwrap_or_default()
        .replace(
            "\"url\": \"https://www.mongodb.com/docs/manual/applications/data-models-tree-structures/\"",
            "\"tips\": []",
        );
    let e = squillion::model::parse_model(&text).expect_err("a title without its url");
    assert!(e.to_string().contains("$.preset.source.url"), "{e}");
}

#[test]
fn unknown_preset_lists_the_known_ones() {
    let e = presets::find("social").map(|p| p.name).unwrap_err();
    let msg = e.to_string();
    assert!(msg.contains("\"social\""), "{msg}");
    for p in presets::all() {
        assert!(msg.contains(p.name), "{msg}");
    }
}

// ---------------------------------------------------------------------------------------------
// Helpers: the numbers the command line prints, looked up by name.

use squillion::design::Command;
use squillion::stats::ArrayStats;
use squillion::warning::{Severity, Warning};

/// Returns the analysis of design `name`.
fn design<'a>(all: &'a [(String, Analysis)], name: &str) -> &'a Analysis {
    all.iter()
        .find(|(n, _)| n == name)
        .map(|(_, a)| a)
        .unwrap_or_else(|| panic!("no design {name}"))
}

/// Returns the commands of unit `unit`.
fn commands<'a>(a: &'a Analysis, unit: &str) -> &'a [Command] {
    a.layout
        .plan
        .units
        .iter()
        .find(|u| u.unit == unit)
        .map(|u| u.commands.as_slice())
        .unwrap_or_else(|| panic!("no unit {unit}"))
}

/// Returns the round trips of unit `unit`.
fn trips(a: &Analysis, unit: &str) -> usize {
    commands(a, unit).len()
}

/// Returns the round trips of `unit` under each design named, in order.
fn trips_by(all: &[(String, Analysis)], unit: &str, designs: &[&str]) -> Vec<usize> {
    designs
        .iter()
        .map(|d| trips(design(all, d), unit))
        .collect()
}

/// Returns the mongosh lines of unit `unit`.
fn mongosh(a: &Analysis, unit: &str) -> Vec<String> {
    commands(a, unit).iter().map(|c| c.mongosh()).collect()
}

/// Returns the statistics of the relationship array `field` in collection `coll`.
fn array<'a>(a: &'a Analysis, coll: &str, field: &str) -> &'a ArrayStats {
    a.stats
        .iter()
        .filter(|s| s.name == coll)
        .flat_map(|s| &s.shapes)
        .flat_map(|s| &s.arrays)
        .find(|x| x.field == field)
        .unwrap_or_else(|| panic!("no array {coll}.{field}"))
}

/// Returns the warning `code` (on `path`, when given).
fn warning<'a>(a: &'a Analysis, code: &str, path: Option<&str>) -> Option<&'a Warning> {
    a.warnings
        .iter()
        .find(|w| w.code == code && path.is_none_or(|p| w.path == p))
}

/// Returns the `createIndex` calls of collection `coll`.
fn indexes(a: &Analysis, coll: &str) -> Vec<String> {
    a.layout
        .collection(coll)
        .map(|c| c.indexes.iter().map(|i| i.mongosh()).collect())
        .unwrap_or_default()
}

/// Returns the largest document of shape `label` in collection `coll`: (bytes, exact).
fn largest(a: &Analysis, coll: &str, label: &str) -> (u64, bool) {
    a.stats
        .iter()
        .filter(|s| s.name == coll)
        .flat_map(|s| &s.shapes)
        .find(|s| s.label == label)
        .map(|s| (s.max.bytes, s.max.exact))
        .unwrap_or_else(|| panic!("no shape {coll}/{label}"))
}

const LIMIT: u64 = 16_777_216;

// ---------------------------------------------------------------------------------------------
// One test per preset: its lesson as numbers.

#[test]
fn social_graph() {
    let (_, all) = load("social-graph");
    let notify = "notify all followers";
    assert_eq!(
        trips_by(
            &all,
            notify,
            &["following", "followers", "normalized", "tbc"]
        ),
        [2, 1, 2, 2]
    );
    // following in the subscriber: notifying searches every user's `following`, and reads
    // only the ids of those found (issue #15: the plan had no projection).
    let following = design(&all, "following");
    assert_eq!(
        mongosh(following, notify)[1],
        "db.user.find({ following: user._id }, { _id: 1 })"
    );
    assert!(indexes(following, "user").contains(&"db.user.createIndex({ following: 1 })".into()));
    assert_eq!(trips(following, "follow someone"), 1);
    // followers in the producer: the celebrity breaks 16 MiB at an exact count.
    let followers = design(&all, "followers");
    let arr = array(followers, "user", "followers");
    assert_eq!(arr.max_count, 50_000_000);
    assert_eq!(arr.element_bytes.bytes, 12);
    assert_eq!(arr.break_point.as_ref().map(|b| b.count), Some(844_411));
    assert_eq!(
        arr.largest_reaches.as_ref().and_then(|d| d.date.as_deref()),
        Some("2025-01-01")
    );
    let bp = warning(followers, "ARRAY_BREAK_POINT", Some("followers"))
        .unwrap_or_else(|| panic!("{:?}", followers.warnings));
    assert_eq!(bp.severity, Severity::Error);
    assert!(warning(followers, "DOC_OVER_LIMIT", None).is_some());
    // Whom I follow: a search of every producer's `followers` array, which the users found
    // need not bring back (article 000; issue #15: the plan returned the arrays).
    assert_eq!(
        mongosh(
            followers,
            "whom I follow (for the activities of the users I follow)"
        )[1],
        "db.user.find({ followers: { $in: children._id } }, { followers: 0 })"
    );
    // Continuation documents: every document stays under the limit.
    let tbc = design(&all, "tbc");
    assert_eq!(
        mongosh(tbc, notify)[1],
        "db.user.find({ _id: { $in: user.tbc } }, { followers: 1 })"
    );
    assert_eq!(
        largest(tbc, "user", "followers continuation"),
        (1_888_928, true)
    );
    assert!(largest(tbc, "user", "user").0 < LIMIT);
    assert!(array(tbc, "user", "followers").capped);
    assert!(warning(tbc, "DOC_OVER_LIMIT", None).is_none());
    assert!(warning(tbc, "ARRAY_BREAK_POINT", None).is_none());
    // The followers collection: users stay small.
    assert!(largest(design(&all, "normalized"), "user", "user").0 < 200);
}

#[test]
fn shopping_cart() {
    let (_, all) = load("shopping-cart");
    assert_eq!(
        trips_by(
            &all,
            "order page",
            &["normalized", "denormalized", "snapshot"]
        ),
        [2, 1, 1]
    );
    let snap = design(&all, "snapshot");
    // Point-in-time copies: the address is in the order, the price in each item, and neither
    // a sale nor a move rewrites an order.
    let order = snap
        .layout
        .collection("order")
        .and_then(|c| c.shape("order"))
        .unwrap_or_else(|| panic!("order shape"));
    assert!(order
        .copied
        .iter()
        .any(|c| c.entity == "customer" && c.source == "address"));
    assert!(order.fields.get("items").is_some());
    for unit in ["product on sale (-20%)", "customer moves house"] {
        assert_eq!(trips(snap, unit), 1, "{unit}");
        assert!(commands(snap, unit).iter().all(|c| c.collection != "order"));
    }
    // One-to-few: no unbounded array, a small order document.
    assert!(warning(snap, "UNBOUNDED_ARRAY", None).is_none());
    assert!(largest(snap, "order", "order").0 < 2_000);
}

#[test]
fn blog() {
    let (_, all) = load("blog");
    assert_eq!(
        trips_by(
            &all,
            "post page",
            &["normalized", "denormalized", "one-query"]
        ),
        [2, 2, 1]
    );
    let one = design(&all, "one-query");
    assert_eq!(
        mongosh(one, "post page"),
        ["db.post.find({ slug: post.slug }, { comments: { $slice: 50 } }).limit(1)"]
    );
    // The author subset is copied into the post.
    let post = one
        .layout
        .collection("post")
        .and_then(|c| c.shape("post"))
        .unwrap_or_else(|| panic!("post shape"));
    let copied: Vec<&str> = post.copied.iter().map(|c| c.source.as_str()).collect();
    assert_eq!(copied, ["name", "thumbnail"]);
    // The home page: 1 query, 10 partial documents, on the date index.
    assert_eq!(
        mongosh(one, "home page: 10 newest posts"),
        ["db.post.find({}, { title: 1, slug: 1, summary: 1, _id: 0 }).sort({ date: -1 }).limit(10)"]
    );
    assert!(indexes(one, "post").contains(&"db.post.createIndex({ date: -1 })".into()));
    assert_eq!(trips(one, "tag page: 20 newest posts with a tag"), 1);
    // Comments are unbounded growth: warned, with a break point and its date.
    assert!(warning(one, "UNBOUNDED_ARRAY", Some("comments")).is_some());
    let c = array(one, "post", "comments");
    // With every other field of the largest post at its maximum (the 100,000-byte body): #15.
    assert_eq!(c.break_point.as_ref().map(|b| b.count), Some(43_087));
    assert_eq!(
        c.largest_reaches
            .as_ref()
            .map(|d| (d.days, d.date.as_deref())),
        Some((47, Some("2025-02-17")))
    );
    assert!(warning(design(&all, "normalized"), "UNBOUNDED_ARRAY", None).is_none());
}

#[test]
fn image_board() {
    let (_, all) = load("image-board");
    let a = design(&all, "normalized");
    assert_eq!(
        indexes(a, "image"),
        ["db.image.createIndex({ threadId: 1, date: 1 })"]
    );
    for unit in [
        "thread page 1",
        "thread page 50 by date range",
        "thread page 50 by skip",
    ] {
        assert_eq!(trips(a, unit), 1, "{unit}");
    }
    let range = &commands(a, "thread page 50 by date range")[0];
    assert_eq!(range.skip, None);
    assert_eq!(
        range.mongosh(),
        "db.image.find({ threadId: image.threadId, date: { $gt: last.date } }).sort({ date: 1 }).limit(20)"
    );
    // skip walks (page − 1) × 20 keys before the page.
    let skip = &commands(a, "thread page 50 by skip")[0];
    assert_eq!(skip.skip, Some(980));
    assert_eq!(skip.limit, Some(20));
    assert!(warning(a, "UNINDEXED_QUERY", None).is_none());
}

#[test]
fn page_analytics() {
    let (_, all) = load("page-analytics");
    let pre = design(&all, "preallocated");
    let od = design(&all, "on-demand");
    // $inc on counters that exist: 1 round trip, the document never changes size.
    assert_eq!(trips(pre, "count a hit (minute, hour, total)"), 1);
    assert!(commands(pre, "count a hit (minute, hour, total)")[0]
        .update
        .as_ref()
        .is_some_and(|u| u.contains_key("$inc")));
    let shape = pre
        .stats
        .iter()
        .flat_map(|s| &s.shapes)
        .find(|s| s.label == "pageview")
        .unwrap_or_else(|| panic!("pageview"));
    assert!(shape.arrays.is_empty());
    assert!(shape.max.exact);
    assert_eq!(shape.max.bytes, shape.p50.bytes);
    assert_eq!(largest(pre, "pageview", "pageview"), (3_321, true));
    assert_eq!(largest(od, "pageview", "pageview"), (123, true));
    // The MMAPv1 note, on both pre-allocated fields, and only where they are.
    for f in ["minutes", "hours"] {
        let w = warning(pre, "MMAPV1_PREALLOCATION", Some(f))
            .unwrap_or_else(|| panic!("{:?}", pre.warnings));
        assert_eq!(w.severity, Severity::Info);
        assert!(w.message.contains("WiredTiger"));
    }
    assert!(warning(od, "MMAPV1_PREALLOCATION", None).is_none());
}

#[test]
fn game_inventory() {
    let (_, all) = load("game-inventory");
    let arr = design(&all, "array");
    let keyed = design(&all, "keyed");
    let q = "weapons with damage > 20";
    assert_eq!(
        mongosh(arr, q),
        ["db.player.find({ \"items.damage\": { $gt: 20 } })"]
    );
    assert!(arr.layout.collection("player").is_some_and(|c| c
        .indexes
        .iter()
        .any(|i| i.multikey && i.keys.contains_key("items.damage"))));
    assert_eq!(indexes(arr, "player").len(), 3);
    // Keyed by item name: the query names all 20 keys, and each needs its own index.
    let c = &commands(keyed, q)[0];
    assert_eq!(
        c.filter
            .get_array("$or")
            .map(|a| a.len())
            .unwrap_or_default(),
        20
    );
    assert_eq!(indexes(keyed, "player").len(), 21);
    assert!(warning(keyed, "TOO_MANY_INDEXES", None).is_some());
    assert!(warning(keyed, "KEYED_ATTRIBUTES", Some("items")).is_some());
    assert!(warning(arr, "TOO_MANY_INDEXES", None).is_none());
    // Abilities stay a sub-document in both.
    for a in [arr, keyed] {
        let f = a
            .layout
            .collection("player")
            .and_then(|c| c.shape("player"))
            .and_then(|s| s.fields.get("abilities"))
            .map(|f| f.fields.0.len());
        assert_eq!(f, Some(6));
    }
}

#[test]
fn fruit_totals() {
    let (_, all) = load("fruit-totals");
    let stored = design(&all, "stored-total");
    let computed = design(&all, "computed-at-read");
    assert_eq!(
        trips_by(
            &all,
            "show the total",
            &["computed-at-read", "stored-total"]
        ),
        [2, 1]
    );
    assert_eq!(
        mongosh(stored, "add fruit"),
        ["db.basket.updateOne({ _id: basket._id }, { $push: { fruits: child }, $inc: { total: child.qty } })"]
    );
    assert_eq!(trips(computed, "add fruit"), 1);
    let has_total = |a: &Analysis| {
        a.layout
            .collection("basket")
            .and_then(|c| c.shape("basket"))
            .is_some_and(|s| s.fields.get("total").is_some())
    };
    assert!(has_total(stored));
    assert!(!has_total(computed));
}

#[test]
fn person_addresses() {
    let (_, all) = load("person-addresses");
    let unit = "show person with addresses";
    assert_eq!(
        trips_by(&all, unit, &["normalized", "denormalized"]),
        [2, 1]
    );
    let d = design(&all, "denormalized");
    assert!(d.layout.collection("address").is_none());
    // The largest person: every address at its longest strings (#15), still small.
    assert!(largest(d, "person", "person").0 < 500);
    assert!(warning(d, "UNBOUNDED_ARRAY", None).is_none());
    assert!(d.warnings.iter().all(|w| w.severity == Severity::Info));
}

#[test]
fn product_parts() {
    let (_, all) = load("product-parts");
    let page = "product page with part names";
    assert_eq!(
        trips_by(&all, page, &["normalized", "part-ids", "part-names"]),
        [3, 2, 1]
    );
    assert_eq!(
        mongosh(design(&all, "part-ids"), page)[1],
        "db.part.find({ _id: { $in: product.parts } }, { name: 1 })"
    );
    // Denormalized part names: a rename follows the copies.
    assert_eq!(
        trips_by(&all, "rename part", &["part-ids", "part-names"]),
        [1, 2]
    );
    assert!(warning(design(&all, "part-names"), "LIVE_COPY_AMPLIFICATION", None).is_none());
    // The product name copied into each part: a product rename follows it.
    let pn = design(&all, "product-names");
    assert_eq!(trips(pn, "rename product"), 2);
    assert!(mongosh(pn, "rename product")[1].starts_with("db.part.updateMany("));
}

#[test]
fn host_logs() {
    let (_, all) = load("host-logs");
    // Embedding every message breaks 16 MiB at an exact count, with dates.
    let embed = design(&all, "embed-all");
    let arr = array(embed, "host", "logmsgs");
    let bp = arr
        .break_point
        .as_ref()
        .unwrap_or_else(|| panic!("break point"));
    assert_eq!((bp.count, bp.exact), (139_573, true));
    assert_eq!(
        arr.largest_reaches.as_ref().map(|d| d.days),
        Some(0),
        "the busiest host is already past it"
    );
    assert_eq!(
        arr.typical_reaches
            .as_ref()
            .map(|d| (d.days, d.date.as_deref())),
        Some((18, Some("2025-01-19")))
    );
    assert!(warning(embed, "DOC_OVER_LIMIT", None).is_some());
    // The parent reference never breaks it.
    let norm = design(&all, "normalized");
    assert_eq!(largest(norm, "host", "host"), (75, true));
    assert_eq!(largest(norm, "logmsg", "logmsg"), (148, true));
    assert!(norm.warnings.is_empty(), "{:?}", norm.warnings);
    assert!(
        indexes(norm, "logmsg").contains(&"db.logmsg.createIndex({ host: 1, time: -1 })".into())
    );
    // The newest 1000 on the host: bounded, kept newest first by $push/$each/$sort/$slice
    // (the article's `$sort: { time: 1 }, $slice: -1000` in the dashboard's order), which the
    // dashboard reads from the front.
    let sub = design(&all, "newest-1000");
    assert!(array(sub, "host", "logmsgs").capped);
    // Each copy keeps its message's `_id` (17 bytes): 1,000 × 17 over the copies alone.
    assert_eq!(largest(sub, "host", "host"), (134_979, true));
    assert!(sub.warnings.is_empty(), "{:?}", sub.warnings);
    assert_eq!(
        mongosh(sub, "log a message")[1],
        "db.host.updateOne({ _id: host._id }, { $push: { logmsgs: { $each: [child], $sort: { time: -1 }, $slice: 1000 } } })"
    );
    assert_eq!(
        mongosh(sub, "host dashboard: newest 1000")[0],
        "db.host.find({ ipaddr: host.ipaddr }, { logmsgs: { $slice: 1000 } }).limit(1)"
    );
    assert_eq!(
        trips_by(
            &all,
            "host dashboard: newest 1000",
            &["normalized", "newest-1000"]
        ),
        [2, 1]
    );
    assert_eq!(trips(sub, "newest 5000 of a host"), 2);
    assert_eq!(trips(sub, "log a message"), 2);
}

#[test]
fn person_tasks() {
    let (_, all) = load("person-tasks");
    let two = design(&all, "two-way");
    assert_eq!(trips(two, "a person's task ids"), 1);
    assert_eq!(trips(two, "a task with its owner id"), 1);
    let has = |a: &Analysis, coll: &str, field: &str| {
        a.layout
            .collection(coll)
            .and_then(|c| c.shape(coll))
            .is_some_and(|s| s.fields.get(field).is_some())
    };
    assert!(has(two, "person", "tasks") && has(two, "task", "owner"));
    // Keeping both sides costs two writes per new task, in two collections.
    let add = commands(two, "add task");
    assert_eq!(add.len(), 2);
    assert_eq!(add[0].collection, "task");
    assert_eq!(add[1].collection, "person");
    assert_eq!(
        trips_by(&all, "add task", &["normalized", "person-ids", "two-way"]),
        [1, 2, 2]
    );
    assert_eq!(trips(two, "my tasks by due date"), 2);
    // Bounded: at most 200 ids, under Compass's 250.
    assert!(warning(two, "UNBOUNDED_ARRAY", None).is_none());
}

#[test]
fn movie_prices() {
    let (_, all) = load("movie-prices");
    let keyed = design(&all, "keyed");
    let flat = design(&all, "flattened");
    let arr = design(&all, "array");
    let q = "showings sold on a channel";
    // Keyed by channel: one index per channel (24) plus scheduleId.
    assert_eq!(indexes(keyed, "showing").len(), 25);
    let w =
        warning(keyed, "TOO_MANY_INDEXES", None).unwrap_or_else(|| panic!("{:?}", keyed.warnings));
    assert!(w.message.contains("25 indexes"), "{}", w.message);
    assert!(warning(keyed, "KEYED_ATTRIBUTES", Some("provider")).is_some());
    assert_eq!(
        mongosh(keyed, q),
        ["db.showing.find({ \"provider.maoyan\": { $exists: true } })"]
    );
    // Array of {channel, price}: two indexes, one of them multikey.
    assert_eq!(
        indexes(arr, "showing"),
        [
            "db.showing.createIndex({ scheduleId: 1 })",
            "db.showing.createIndex({ \"provider.channel\": 1 })"
        ]
    );
    assert!(arr
        .layout
        .collection("showing")
        .is_some_and(|c| c.indexes.iter().any(|i| i.multikey)));
    assert_eq!(
        mongosh(arr, q),
        ["db.showing.find({ \"provider.channel\": \"maoyan\" })"]
    );
    assert!(warning(arr, "TOO_MANY_INDEXES", None).is_none());
    // Flattened: two indexes, but 13.5 rows per showing with its fields repeated.
    assert_eq!(indexes(flat, "showing").len(), 2);
    let count = |a: &Analysis| a.stats.iter().map(|s| s.count).sum::<f64>();
    assert_eq!(count(arr), 5_000_000.0);
    assert_eq!(count(flat), 67_500_000.0);
    let bytes = |a: &Analysis| a.stats.iter().map(|s| s.total_bytes).sum::<f64>();
    assert!(
        bytes(flat) > 2.0 * bytes(arr),
        "{} vs {}",
        bytes(flat),
        bytes(arr)
    );
}

#[test]
fn social_feed() {
    let (_, all) = load("social-feed");
    let read = design(&all, "normalized");
    let write = design(&all, "denormalized");
    let bucket = design(&all, "bucketed");
    let page = "read a page of 20";
    // Fan-out on read, sharded by author: a page reaches all 8 shards.
    assert_eq!(
        read.layout
            .collection("activity")
            .and_then(|c| c.shard_key.as_ref())
            .map(|k| k.to_string()),
        Some("{ \"author\": 1 }".into())
    );
    let sg = warning(read, "SCATTER_GATHER", None).unwrap_or_else(|| panic!("{:?}", read.warnings));
    assert!(sg.message.contains("all 8 shards"), "{}", sg.message);
    assert_eq!(commands(read, "post").len(), 1);
    assert!(commands(read, "post")[0].fan_out.is_none());
    // ...and the celebrity's `to` array breaks 16 MiB (every other field at its longest: #15).
    assert_eq!(
        array(read, "activity", "to")
            .break_point
            .as_ref()
            .map(|b| b.count),
        Some(844_398)
    );
    // Fan-out on write, sharded by owner: a page is targeted; a post writes one copy per
    // follower.
    assert!(warning(write, "SCATTER_GATHER", None).is_none());
    assert_eq!(
        mongosh(write, page),
        ["db.activity.find({ owner: me._id }).sort({ date: -1 }).limit(20)"]
    );
    assert_eq!(commands(write, "post")[0].fan_out.as_deref(), Some("feed"));
    // Bucketed fan-out, as the article reads it: 50 activities are 2 reads, the newest bucket
    // and the one before it, both on the shard key's owner.
    let fifty = commands(bucket, "read 50 activities");
    assert_eq!(fifty.len(), 2);
    assert_eq!(fifty[0].limit, Some(1));
    assert_eq!(fifty[1].limit, Some(1));
    assert!(fifty.iter().all(|c| c.collection == "activity_buckets"));
    assert!(warning(bucket, "SCATTER_GATHER", None).is_none());
    // Posting: every follower's item counter, then an upsert into its newest bucket.
    let post = commands(bucket, "post");
    assert_eq!(post.len(), 2);
    assert!(post.iter().all(|c| c.fan_out.as_deref() == Some("feed")));
    assert_eq!(post[0].collection, "user");
    assert!(post[1].upsert);
    assert!(array(bucket, "activity_buckets", "activities").capped);
    assert_eq!(
        trips_by(&all, page, &["normalized", "denormalized", "bucketed"]),
        [1, 1, 2]
    );
}

// ---------------------------------------------------------------------------------------------
// The preset object is validated like the rest of the model.

fn with_preset(preset: &str) -> Result<Model, squillion::model::ModelErrors> {
    squillion::model::parse_model(&format!(
        r#"{{ "entities": [ {{ "name": "a", "count": 1 }}, {{ "name": "b", "count": 1 }} ],
             "relationships": [ {{ "name": "r", "parent": "a", "child": "b", "cardinality": {{ "shape": "fixed", "value": 1 }} }} ],
             "preset": {preset} }}"#
    ))
}

#[test]
fn preset_object_is_validated() {
    let ok = r#"{ "title": "t", "lesson": "l", "source": { "article": "002" }, "explanation": "e",
                  "scale_note": "s", "designs": ["normalized", "mine"],
                  "custom_designs": { "mine": { "relationships": { "r": { "strategy": "embed" } } } } }"#;
    let m = with_preset(ok).unwrap_or_else(|e| panic!("{e}"));
    let offered = squillion::eval::offer::compared(&m);
    assert_eq!(offered.len(), 2);
    assert_eq!(offered[1].id, "mine");
    // Without `design_labels` a design shows its id capitalized.
    assert_eq!(
        (offered[0].label.as_str(), offered[1].label.as_str()),
        ("Normalized", "Mine")
    );
    let labelled = ok.replace(
        r#""designs": ["#,
        r#""design_labels": { "mine": "My own mix" }, "designs": ["#,
    );
    let m = with_preset(&labelled).unwrap_or_else(|e| panic!("{e}"));
    let offered = squillion::eval::offer::compared(&m);
    assert_eq!(offered[1].label, "My own mix");
    assert_eq!(offered[1].id, "mine", "a label never changes the id");
    let bad = r#"{ "title": "", "lesson": "a\nb", "source": { "tips": ["x"] }, "explanation": "e",
                   "scale_note": "s", "designs": ["nope", "normalized", "denormalized"], "extra": 1,
                   "custom_designs": { "bucketed": {}, "mine": { "relationships": { "zz": { "strategy": "embed" } } } },
                   "design_sharding": { "other": { "shards": 0 } },
                   "design_labels": { "other": "x", "normalized": " ",
                                      "denormalized": "a label far too long for any design button" } }"#;
    let e = with_preset(bad).map(|_| ()).unwrap_err();
    for path in [
        "$.preset.title",
        "$.preset.lesson",
        "$.preset.source.article",
        "$.preset.source.tips[0]",
        "$.preset.designs[0]",
        "$.preset.extra",
        "$.preset.custom_designs.bucketed",
        "$.preset.custom_designs.mine.relationships.zz",
        "$.preset.design_sharding.other",
        "$.preset.design_sharding.other.shards",
        "$.preset.design_labels.other",
        "$.preset.design_labels.normalized",
        "$.preset.design_labels.denormalized",
    ] {
        assert!(e.has_path(path), "{path}: {e}");
    }
}

// ---------------------------------------------------------------------------------------------
// The command line.

fn squillion(args: &[&str]) -> (i32, String, String) {
    // English whatever the shell's locale (tests/suite/preset_locales.rs runs the Chinese).
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_squillion"))
        .args(args)
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env("LANG", "C")
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn cli_lists_shows_and_prints_models() {
    let (code, out, _) = squillion(&["presets"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 17);
    for p in presets::all() {
        assert!(
            out.lines()
                .any(|l| l.starts_with(p.name) && l.ends_with(&p.lesson)),
            "{}",
            p.name
        );
    }
    let (code, out, _) = squillion(&["presets", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_default();
    assert_eq!(v.as_array().map(Vec::len), Some(17));
    assert_eq!(v[0]["name"], "social-graph");
    assert_eq!(v[0]["source"]["article"], "000");
    assert_eq!(v[0]["designs"][3], "tbc");
    let (code, out, _) = squillion(&["presets", "host-logs"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("Round trips per application unit, by design:"),
        "{out}"
    );
    let row = |label: &str| -> Vec<String> {
        out.lines()
            .find_map(|l| l.trim_start().strip_prefix(label))
            .map(|rest| rest.split_whitespace().map(str::to_string).collect())
            .unwrap_or_default()
    };
    assert_eq!(
        row("host dashboard: newest 1000"),
        ["2", "1", "1", "2", "2", "2"],
        "{out}"
    );
    assert_eq!(
        row("largest document (bytes)"),
        ["148", "242,888,979", "134,979", "178", "23,569", "25,013"],
        "{out}"
    );
    let (code, out, _) = squillion(&["presets", "host-logs", "--model"]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        presets::get("host-logs")
            .map(|p| p.text)
            .unwrap_or_default()
    );
    let (code, _, err) = squillion(&["presets", "social"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("known presets: social-graph, shopping-cart"),
        "{err}"
    );
}
