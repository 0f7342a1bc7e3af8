//! Each workshop preset's lesson as numbers the engine measures: every preset design is run
//! with `eval::evaluate` (what `squillion eval --preset NAME --design D` and the page run), and
//! the figures the article's argument rests on are asserted: round trips, documents and keys
//! examined, documents and bytes written, plans and multikey scans, shards reached.
//! (tests/suite/presets.rs checks the same presets' plans, sizes and warnings without the engine.)
#![cfg(not(target_arch = "wasm32"))]

use squillion::design::CommandKind;
use squillion::eval::{evaluate, CommandEval, Design, EvalOptions, Evaluation, OperationEval};
use squillion::presets;

/// Evaluates a preset under one of the designs it offers, as `squillion eval --preset` does.
fn eval(preset: &str, design: &str) -> Evaluation {
    let p = presets::find(preset).unwrap_or_else(|e| panic!("{e}"));
    let m = p.model().unwrap_or_else(|e| panic!("{e}"));
    let (name, model) = squillion::eval::offer::offer(&m, design)
        .map(|o| (o.id, o.model))
        .unwrap_or_else(|| panic!("{preset} offers no design {design}"));
    let mut e = evaluate(&model, &Design::Model, &EvalOptions::default())
        .unwrap_or_else(|e| panic!("{preset}/{design}: {e}"));
    e.design = name;
    e
}

fn op<'a>(e: &'a Evaluation, unit: &str) -> &'a OperationEval {
    e.operations
        .iter()
        .find(|o| o.unit == unit)
        .unwrap_or_else(|| panic!("{}: no unit {unit}", e.design))
}

/// The typical subject's commands of a unit.
fn cmds<'a>(e: &'a Evaluation, unit: &str) -> &'a [CommandEval] {
    &op(e, unit).typical.commands
}

/// Full-scale totals of a unit for the typical (`false`) or largest (`true`) subject.
fn total(e: &Evaluation, unit: &str, largest: bool, metric: &str) -> f64 {
    let o = op(e, unit);
    let run = if largest { &o.largest } else { &o.typical };
    let m = &run.total;
    match metric {
        "docs_examined" => m.docs_examined.value,
        "keys_examined" => m.keys_examined.value,
        "docs_returned" => m.docs_returned.value,
        "bytes_returned" => m.bytes_returned.value,
        "docs_written" => m.docs_written.value,
        "bytes_written" => m.bytes_written.value,
        other => panic!("unknown metric {other}"),
    }
}

/// True when the command's winning plan scans a multikey index.
fn multikey(c: &CommandEval) -> bool {
    serde_json::to_string(&c.plan_tree)
        .map(|s| s.contains("\"isMultiKey\":true"))
        .unwrap_or(false)
}

fn collections(e: &Evaluation, unit: &str) -> Vec<String> {
    let mut out: Vec<String> = cmds(e, unit)
        .iter()
        .filter(|c| c.kind != CommandKind::Find)
        .map(|c| c.collection.clone())
        .collect();
    out.dedup();
    out
}

#[test]
fn social_graph_notify_and_follow() {
    let notify = "notify all followers";
    // Followers in the producer: 1 query, 1 document, even for the celebrity...
    let followers = eval("social-graph", "followers");
    assert_eq!(op(&followers, notify).queries, 1);
    assert_eq!(total(&followers, notify, true, "docs_examined"), 1.0);
    // ...whose document is far over 16 MiB: the write that grows it is refused at full scale.
    let follow = op(&followers, "follow someone");
    assert!(follow.largest.commands.iter().any(|c| c.error.is_some()));
    // Following in the subscriber: notifying the celebrity's 50,000,000 followers walks an
    // index key for each of them.
    let following = eval("social-graph", "following");
    assert_eq!(
        total(&following, notify, true, "keys_examined"),
        50_000_001.0
    );
    assert!(multikey(&cmds(&following, notify)[1]));
    // Continuation documents: the parent and ⌈50,000,000 ÷ 100,000⌉ − 1 = 499 continuation
    // documents, each under 16 MiB; a typical user (51 followers) is 1 document.
    let tbc = eval("social-graph", "tbc");
    assert_eq!(total(&tbc, notify, true, "docs_examined"), 500.0);
    assert_eq!(total(&tbc, notify, false, "docs_examined"), 1.0);
    assert!(op(&tbc, "follow someone")
        .largest
        .commands
        .iter()
        .all(|c| c.error.is_none()));
    // "Activities of the users I follow", first half: whom I follow. The model states how
    // many users one user follows (parents_per_child: median 200, at most 7,500), so a
    // typical user finds about 200 (the user, then them) and the largest 7,500, at full
    // scale, on the subscriber side as on the producer side (a multikey search).
    let whom = "whom I follow (for the activities of the users I follow)";
    for (design, e) in [("followers", &followers), ("following", &following)] {
        let typical = total(e, whom, false, "docs_returned");
        assert!((150.0..250.0).contains(&typical), "{design}: {typical}");
        assert_eq!(total(e, whom, true, "docs_returned"), 7_501.0, "{design}");
    }
    assert!(multikey(&cmds(&followers, whom)[1]));
    // The subscriber's own document carries that tail: a typical user's `following` holds
    // about 200 ids, the largest 7,500 (p50 < p99 < largest), where it was the mean for all.
    let users = following
        .collections
        .iter()
        .find(|c| c.name == "user")
        .unwrap_or_else(|| panic!("no user collection"));
    let shape = &users.stats.shapes[0];
    assert!(shape.p50.bytes < 5_000, "{}", shape.p50.bytes);
    assert!(shape.p50.bytes < shape.p99.bytes && shape.p99.bytes < shape.max.bytes);
    // 7,500 ids of 12 bytes, each element costing 1 + digits(i) + 1 + 12 bytes.
    assert!(shape.max.bytes > 7_500 * 14, "{}", shape.max.bytes);
}

#[test]
fn shopping_cart_snapshots_are_untouched_by_a_sale() {
    let n = eval("shopping-cart", "normalized");
    let s = eval("shopping-cart", "snapshot");
    assert_eq!(op(&n, "order page").queries, 2);
    assert_eq!(op(&s, "order page").queries, 1);
    // A sale rewrites the product only: 1 document, never an order.
    for unit in ["product on sale (-20%)", "customer moves house"] {
        assert_eq!(total(&s, unit, true, "docs_written"), 1.0, "{unit}");
        assert!(
            cmds(&s, unit).iter().all(|c| c.collection != "order"),
            "{unit}"
        );
    }
}

#[test]
fn blog_post_page_in_one_query_and_a_projected_home_page() {
    let one = eval("blog", "one-query");
    let n = eval("blog", "normalized");
    assert_eq!(op(&one, "post page").queries, 1);
    assert_eq!(op(&n, "post page").queries, 2);
    // The home page: 10 documents through the date index, projected to a few fields.
    let home = "home page: 10 newest posts";
    assert_eq!(total(&one, home, false, "docs_examined"), 10.0);
    let per_post = total(&one, home, false, "bytes_returned") / 10.0;
    assert!(per_post < 500.0, "{per_post}");
    // A tag page: 20 index keys on the multikey { tags, date } index, no in-memory sort.
    let tag = "tag page: 20 newest posts with a tag";
    assert_eq!(total(&one, tag, false, "keys_examined"), 20.0);
    assert!(multikey(&cmds(&one, tag)[0]));
    // Comments as unbounded growth: each comment rewrites the whole post document.
    assert!(
        total(&one, "comment", false, "bytes_written")
            > total(&n, "comment", false, "bytes_written")
    );
}

#[test]
fn image_board_skip_examines_every_earlier_page() {
    let e = eval("image-board", "normalized");
    // The largest thread has 1,000 images: page 50 by skip walks 1,000 keys, by range 20.
    assert_eq!(
        total(&e, "thread page 50 by skip", true, "keys_examined"),
        1_000.0
    );
    assert_eq!(
        total(&e, "thread page 50 by date range", true, "keys_examined"),
        20.0
    );
}

#[test]
fn page_analytics_inc_never_grows_a_preallocated_document() {
    let pre = eval("page-analytics", "preallocated");
    let lazy = eval("page-analytics", "on-demand");
    let hit = "count a hit (minute, hour, total)";
    let chart = "chart of a page's 6 hours";
    // One updateOne with three $inc (minute, hour, total).
    assert_eq!(op(&pre, hit).queries, 1);
    assert!(cmds(&pre, hit)[0]
        .mongosh
        .contains("\"minutes.180\": 1, \"hours.3\": 1, total: 1"));
    // Pre-allocated: the document written is exactly the document read (it did not grow).
    assert_eq!(
        total(&pre, hit, false, "bytes_written"),
        total(&pre, chart, false, "bytes_returned")
    );
    // On demand: the hit creates its minute and hour counters, so the document grows.
    assert!(
        total(&lazy, hit, false, "bytes_written") > total(&lazy, chart, false, "bytes_returned")
    );
}

#[test]
fn game_inventory_array_query_is_one_multikey_scan() {
    let array = eval("game-inventory", "array");
    let keyed = eval("game-inventory", "keyed");
    let weapons = "weapons with damage > 20";
    let a = &cmds(&array, weapons)[0];
    assert_eq!(a.plan, "items.damage_1");
    assert!(multikey(a));
    // Keyed: one index and one $or branch per item name.
    let k = &cmds(&keyed, weapons)[0];
    assert!(k.plan.starts_with("OR("), "{}", k.plan);
    assert!(k.mongosh.matches("$gt: 20").count() >= 10, "{}", k.mongosh);
    // A player's sword: an index scan on the array, a collection scan on the keyed form.
    assert_eq!(cmds(&keyed, "a player's sword")[0].plan, "COLLSCAN");
    assert_eq!(cmds(&array, "a player's sword")[0].plan, "items.id_1");
}

/// Case-insensitive sign-in: a `/^name$/i` regex examines every key of `{ username: 1 }` (the
/// whole collection at full scale) and raises CASE_INSENSITIVE_WITHOUT_INDEX; the index with
/// the collation `{ locale: "en", strength: 2 }` and the same collation on the find examine one.
#[test]
fn game_inventory_case_insensitive_sign_in_needs_a_collation_index() {
    let regex = eval("game-inventory", "array");
    let collation = eval("game-inventory", "case_insensitive");
    let sign_in = "sign in (username in any case)";
    let r = &cmds(&regex, sign_in)[0];
    assert!(r.mongosh.contains("/i"), "{}", r.mongosh);
    assert_eq!(r.plan, "username_1");
    assert_eq!(total(&regex, sign_in, false, "keys_examined"), 2_000_000.0);
    assert_eq!(total(&regex, sign_in, false, "docs_examined"), 2_000_000.0);
    assert!(regex
        .warnings
        .iter()
        .any(|w| w.code == "CASE_INSENSITIVE_WITHOUT_INDEX" && w.message.contains("2,000,000")));
    let c = &cmds(&collation, sign_in)[0];
    assert!(
        c.mongosh
            .contains(".collation({ locale: \"en\", strength: 2 })"),
        "{}",
        c.mongosh
    );
    assert_eq!(c.plan, "username_1_ci");
    assert_eq!(total(&collation, sign_in, false, "keys_examined"), 1.0);
    assert_eq!(total(&collation, sign_in, false, "docs_examined"), 1.0);
    assert!(!collation
        .warnings
        .iter()
        .any(|w| w.code == "CASE_INSENSITIVE_WITHOUT_INDEX"));
}

#[test]
fn fruit_totals_stored_total_is_one_document() {
    let stored = eval("fruit-totals", "stored-total");
    let computed = eval("fruit-totals", "computed-at-read");
    let show = "show the total";
    assert_eq!(op(&stored, show).queries, 1);
    assert_eq!(total(&stored, show, false, "docs_examined"), 1.0);
    assert!(total(&computed, show, false, "docs_examined") > 1.0);
    assert!(cmds(&stored, "add fruit")[0]
        .mongosh
        .contains("$inc: { total: "));
}

#[test]
fn person_addresses_embedded_is_one_query() {
    let d = eval("person-addresses", "denormalized");
    let n = eval("person-addresses", "normalized");
    let show = "show person with addresses";
    assert_eq!(op(&d, show).queries, 1);
    assert_eq!(total(&d, show, true, "docs_examined"), 1.0);
    assert_eq!(op(&n, show).queries, 2);
}

#[test]
fn product_parts_join_and_denormalized_names() {
    let ids = eval("product-parts", "part-ids");
    let names = eval("product-parts", "part-names");
    let page = "product page with part names";
    // Application-level join: the product, then its parts with $in.
    assert_eq!(op(&ids, page).queries, 2);
    assert!(cmds(&ids, page)[1].mongosh.contains("_id: { $in: ["));
    // The same join done by the server: 1 round trip with 1 $lookup, the same documents
    // examined (the round trip is saved, not the work).
    let lookup = eval("product-parts", "part-ids-lookup");
    assert_eq!(op(&lookup, page).queries, 1);
    assert_eq!(op(&lookup, page).lookups, 1);
    assert!(cmds(&lookup, page)[0]
        .mongosh
        .contains("$lookup: { from: \"part\", localField: \"parts\", foreignField: \"_id\""));
    assert_eq!(
        total(&lookup, page, false, "docs_examined"),
        total(&ids, page, false, "docs_examined")
    );
    assert_eq!(cmds(&lookup, page)[0].plan, "catalog_number_1");
    // Part names copied into the product: 1 query, but renaming a part rewrites every
    // product that lists it (a live copy), through the multikey { parts._id } index.
    assert_eq!(op(&names, page).queries, 1);
    let rename = "rename part";
    assert_eq!(op(&names, rename).queries, 2);
    assert!(total(&names, rename, false, "docs_written") > 1.0);
    assert_eq!(total(&ids, rename, false, "docs_written"), 1.0);
    assert!(multikey(&cmds(&names, rename)[1]));
}

#[test]
fn host_logs_newest_thousand_stay_bounded() {
    let all = eval("host-logs", "embed-all");
    let newest = eval("host-logs", "newest-1000");
    let log = "log a message";
    // Embedding every log: one $push at full scale writes a document over 16 MiB for the
    // busiest host, which mongod refuses.
    assert!(op(&all, log)
        .largest
        .commands
        .iter()
        .any(|c| c.error.is_some()));
    // The newest 1000 on the host ($push/$each/$sort/$slice), the rest in their own
    // collection: 2 writes, no error, and the host document written stays the same size for
    // the busiest host as for a typical one (bounded).
    let push = &cmds(&newest, log)[1];
    assert!(push.mongosh.contains("$slice: -1000") || push.mongosh.contains("$slice: 1000"));
    assert!(op(&newest, log)
        .largest
        .commands
        .iter()
        .all(|c| c.error.is_none()));
    let typical = total(&newest, log, false, "bytes_written");
    let largest = total(&newest, log, true, "bytes_written");
    assert!(
        (largest - typical).abs() / typical < 0.05,
        "{typical} {largest}"
    );
    assert_eq!(op(&newest, "host dashboard: newest 1000").queries, 1);
}

#[test]
fn host_logs_time_series_buckets_like_the_hand_made_bucket_without_the_search() {
    let hand = eval("host-logs", "bucket-200");
    let ts = eval("host-logs", "time-series");
    let coll = |e: &Evaluation, name: &str| {
        e.collections
            .iter()
            .find(|c| c.name == name)
            .map(|c| (c.stats.count, c.stats.total_bytes))
            .unwrap_or_else(|| panic!("{}: no collection {name}", e.design))
    };
    let (hand_docs, hand_bytes) = coll(&hand, "logs_buckets");
    let (ts_docs, ts_bytes) = coll(&ts, "system.buckets.logmsg");
    // Document count: 200 messages a hand-made bucket; the server closes a seconds bucket at
    // the hour, 208 messages of a typical host logging 5,000 a day: a few % fewer buckets.
    assert!(
        ts_docs < hand_docs && ts_docs > 0.9 * hand_docs,
        "{ts_docs} {hand_docs}"
    );
    // Size: the server's bucket repeats every field name once (columns) but keys every value
    // and keeps control.min/max: within 5% of the hand-made bucket, a little larger.
    assert!(
        ts_bytes > hand_bytes && ts_bytes < 1.05 * hand_bytes,
        "{ts_bytes} {hand_bytes}"
    );
    // Writes per insert: one bucket document either way.
    let log = "log a message";
    assert_eq!(op(&ts, log).queries, 1);
    assert_eq!(op(&hand, log).queries, 1);
    assert_eq!(total(&ts, log, false, "docs_written"), 1.0);
    assert_eq!(total(&hand, log, false, "docs_written"), 1.0);
    // Finding the open bucket: the application's `count: {$lt: 200}` scans the host's
    // buckets; the server's bucket catalog holds the open one.
    assert_eq!(total(&ts, log, false, "docs_examined"), 1.0);
    assert!(total(&hand, log, false, "docs_examined") > 200.0);
    // Reads of a range (the newest 1000 and 5000): the buckets that overlap it, ⌈n ÷ bucket⌉
    // + 1, in 2 round trips, against 1,001 and 5,001 documents normalized.
    for (unit, buckets) in [
        ("host dashboard: newest 1000", 6.0),
        ("newest 5000 of a host", 26.0),
    ] {
        assert_eq!(op(&ts, unit).queries, 2);
        assert_eq!(total(&ts, unit, false, "docs_examined"), 1.0 + buckets);
        assert_eq!(total(&hand, unit, false, "docs_examined"), 1.0 + buckets);
    }
    assert_eq!(
        cmds(&ts, "host dashboard: newest 1000")[1].collection,
        "system.buckets.logmsg"
    );
}

#[test]
fn person_tasks_reassignment_writes_both_sides() {
    let two = eval("person-tasks", "two-way");
    let n = eval("person-tasks", "normalized");
    // Both lookups are 1 query on one document.
    for unit in ["a person's task ids", "a task with its owner id"] {
        assert_eq!(op(&two, unit).queries, 1, "{unit}");
        assert_eq!(total(&two, unit, false, "docs_examined"), 1.0, "{unit}");
    }
    // Reassigning: the task and the persons, separate writes that no single atomic update
    // covers; under a reference in the child it is 1 write.
    let reassign = "reassign a task";
    assert_eq!(op(&two, reassign).queries, 3);
    assert_eq!(collections(&two, reassign), ["task", "person"]);
    // Both sides of the sample agree (the task is in its owner's array), so all 3 write.
    assert_eq!(total(&two, reassign, false, "docs_written"), 3.0);
    assert_eq!(op(&n, reassign).queries, 1);
    assert_eq!(total(&n, reassign, false, "docs_written"), 1.0);
    assert_eq!(op(&two, "add task").queries, 2);
}

#[test]
fn movie_prices_array_of_pairs_is_one_multikey_index() {
    let keyed = eval("movie-prices", "keyed");
    let array = eval("movie-prices", "array");
    let flat = eval("movie-prices", "flattened");
    let sold = "showings sold on a channel";
    assert_eq!(cmds(&keyed, sold)[0].plan, "COLLSCAN");
    let a = &cmds(&array, sold)[0];
    assert_eq!(a.plan, "provider.channel_1");
    assert!(multikey(a));
    assert!(!multikey(&cmds(&flat, sold)[0]));
    assert!(keyed.warnings.iter().any(|w| w.code == "TOO_MANY_INDEXES"));
}

#[test]
fn social_feed_reads_shards_and_writes() {
    let read = eval("social-feed", "normalized");
    let write = eval("social-feed", "denormalized");
    let bucket = eval("social-feed", "bucketed");
    let page = "read a page of 20";
    // Fan-out on read: every shard; on write and bucketed: one.
    assert_eq!(cmds(&read, page)[0].shards.touched, 8);
    assert_eq!(cmds(&write, page)[0].shards.touched, 1);
    assert!(cmds(&bucket, "read 50 activities")
        .iter()
        .all(|c| c.shards.touched == 1));
    // Posting: 1 document on read; one per follower on write (the celebrity: 1,000,000).
    assert_eq!(total(&read, "post", false, "docs_written"), 1.0);
    assert_eq!(total(&write, "post", true, "docs_written"), 1_000_000.0);
    // Bucketed: 50 activities in 2 queries of 1 document each; a post writes each
    // follower's counter and bucket.
    let fifty = op(&bucket, "read 50 activities");
    assert_eq!(fifty.queries, 2);
    assert_eq!(
        total(&bucket, "read 50 activities", false, "docs_examined"),
        2.0
    );
    assert_eq!(
        total(&bucket, "post", true, "docs_written"),
        2.0 * total(&write, "post", true, "docs_written")
    );
}

/// The largest `message` document a design's evaluation reports (full-scale arithmetic).
fn largest_message(e: &Evaluation) -> u64 {
    e.collections
        .iter()
        .find(|c| c.name == "message")
        .and_then(|c| c.stats.shapes.first())
        .map(|s| s.max.bytes)
        .unwrap_or_else(|| panic!("{}: no message collection", e.design))
}

#[test]
fn message_attachments_leave_the_document() {
    let embedded = eval("message-attachments", "embedded");
    let gridfs = eval("message-attachments", "gridfs");
    let object = eval("message-attachments", "object_storage");
    // GridFS and object storage keep every message document small; embedded, the attachment
    // is in it.
    assert!(
        largest_message(&gridfs) < 1_000,
        "{}",
        largest_message(&gridfs)
    );
    assert!(
        largest_message(&object) < 1_000,
        "{}",
        largest_message(&object)
    );
    assert!(largest_message(&embedded) > 100 * largest_message(&gridfs));
    // Embedded, the largest message holds the largest attachment (25,000,000 bytes): over
    // 16 MiB, an error that names the field, counts the messages over it and offers GridFS.
    assert!(largest_message(&embedded) > 16_777_216);
    let over = embedded
        .warnings
        .iter()
        .find(|w| w.code == "DOC_OVER_LIMIT")
        .unwrap_or_else(|| panic!("{:?}", embedded.warnings));
    assert_eq!(over.severity, squillion::warning::Severity::Error);
    assert_eq!(over.path, "attachment");
    assert!(over.fix.contains("GridFS"), "{}", over.fix);
    for e in [&gridfs, &object] {
        assert!(!e.warnings.iter().any(|w| w.code.starts_with("DOC_")));
    }
    // A page of a conversation drags the attachments along only when they are embedded.
    let page = "read a conversation page";
    let bytes = |e: &Evaluation| total(e, page, false, "bytes_returned");
    assert!(bytes(&embedded) > 100.0 * bytes(&gridfs));
    assert_eq!(op(&gridfs, page).queries, 1);
    // Opening an attachment: 1 round trip embedded or by URL; GridFS reads the files document
    // and the chunks (3), the largest file's 96 chunks in 2 cursor batches.
    let open = "open a message with its attachment";
    assert_eq!(op(&embedded, open).queries, 1);
    assert_eq!(op(&object, open).queries, 1);
    assert_eq!(op(&gridfs, open).queries, 3);
    let chunks = &op(&gridfs, open).largest.commands[2];
    assert_eq!(
        (chunks.collection.as_str(), chunks.queries),
        ("fs.chunks", 2)
    );
    assert_eq!(
        total(&gridfs, open, true, "docs_returned"),
        1.0 + 1.0 + 96.0
    );
    // Posting with a file uploads it first: chunks, files document, message.
    assert_eq!(
        collections(&gridfs, "post a message"),
        ["fs.chunks", "fs.files", "message"]
    );
    assert!(gridfs.collections.iter().any(|c| c.name == "fs.chunks"));
    assert!(!object.collections.iter().any(|c| c.name.starts_with("fs.")));
}

#[test]
fn category_tree_paths_read_in_one_query_nested_sets_insert_and_ancestors_move() {
    let subtree = "everything under a category (the subtree)";
    let crumbs = "breadcrumbs (the ancestors)";
    let insert = "add a category";
    let mv = "move a category with its subtree";
    let nodes = 4681.0;
    let parents = eval("category-tree", "parent-references");
    let children = eval("category-tree", "child-references");
    let ancestors = eval("category-tree", "array-of-ancestors");
    let paths = eval("category-tree", "materialized-paths");
    let nested = eval("category-tree", "nested-sets");
    // The typical category is in the middle of level 2 of a fan-out-8 tree of depth 4: 8 + 64
    // categories under it, 2 above it. Every design returns them all.
    for e in [&parents, &children, &ancestors, &paths, &nested] {
        assert_eq!(
            total(e, subtree, false, "docs_returned"),
            72.0,
            "{}",
            e.design
        );
        assert_eq!(
            total(e, crumbs, false, "docs_returned"),
            2.0,
            "{}",
            e.design
        );
        // The root's subtree is the whole tree but the root.
        assert_eq!(
            total(e, subtree, true, "docs_returned"),
            nodes - 1.0,
            "{}",
            e.design
        );
    }
    // Materialized paths: one anchored prefix regex, on the path index, examining only the
    // subtree (and the one key past it).
    let c = &cmds(&paths, subtree)[0];
    assert_eq!(op(&paths, subtree).queries, 1);
    assert_eq!(c.plan, "path_1");
    assert!(c.mongosh.contains("path: /^,"), "{}", c.mongosh);
    assert_eq!(total(&paths, subtree, false, "docs_examined"), 72.0);
    assert_eq!(total(&paths, subtree, false, "keys_examined"), 73.0);
    // Parent references walk it a level per round trip (and one that finds no more); child
    // references a level per round trip too.
    assert_eq!(op(&parents, subtree).queries, 3);
    assert_eq!(op(&parents, subtree).largest.queries, 5);
    assert_eq!(op(&children, subtree).queries, 2);
    // The ancestors: one round trip per level up with parent references, one query otherwise.
    assert_eq!(op(&parents, crumbs).queries, 2);
    assert_eq!(op(&parents, crumbs).largest.queries, 4);
    for e in [&ancestors, &paths, &nested] {
        assert_eq!(op(e, crumbs).queries, 1, "{}", e.design);
    }
    // Nested sets: a range query, but an insert renumbers everything after the new node:
    // about half the tree for the typical category, nearly all of it for the first leaf.
    let typical = total(&nested, insert, false, "docs_written");
    assert!(typical > nodes / 2.0 * 1.5, "{typical}");
    assert!(total(&nested, insert, true, "docs_written") > nodes * 1.9);
    for e in [&parents, &ancestors, &paths] {
        assert_eq!(total(e, insert, false, "docs_written"), 1.0, "{}", e.design);
    }
    assert_eq!(total(&children, insert, false, "docs_written"), 2.0);
    // A move: one write with parent references, the node and its 72 descendants with an array
    // of ancestors or materialized paths (one bulk write after reading the subtree), and with
    // nested sets everything between the old place and the new one.
    assert_eq!(total(&parents, mv, false, "docs_written"), 1.0);
    assert_eq!(total(&children, mv, false, "docs_written"), 2.0);
    for e in [&ancestors, &paths] {
        assert_eq!(total(e, mv, false, "docs_written"), 73.0, "{}", e.design);
        assert_eq!(op(e, mv).queries, 2, "{}", e.design);
    }
    assert!(total(&nested, mv, false, "docs_written") > nodes);
}

#[test]
fn product_catalog_single_collection_reads_a_product_page_in_one_query() {
    let page = "product page with its reviews";
    let newest = "newest reviews of a product";
    let add = "add review";
    let normalized = eval("product-catalog", "normalized");
    let single = eval("product-catalog", "single-collection");
    // Normalized: the product, then its reviews by their parent reference: 2 round trips.
    assert_eq!(op(&normalized, page).queries, 2);
    assert_eq!(op(&normalized, page).largest.queries, 2);
    // Single collection: one find on the shared key returns the product and its reviews, on
    // the one compound index, examining nothing else.
    assert_eq!(op(&single, page).queries, 1);
    assert_eq!(op(&single, page).largest.queries, 1);
    let c = &cmds(&single, page)[0];
    assert_eq!(c.collection, "product");
    assert!(c.mongosh.contains("find({ productId: "), "{}", c.mongosh);
    assert_eq!(c.plan, "productId_1_type_1_date_-1");
    // The same documents as the two reads of normalized: the product and its reviews (the
    // typical product has 8, the largest 2,000), and no more examined than returned.
    for largest in [false, true] {
        let returned = total(&single, page, largest, "docs_returned");
        assert_eq!(returned, total(&normalized, page, largest, "docs_returned"));
        assert_eq!(
            total(&single, page, largest, "docs_examined"),
            returned,
            "{largest}"
        );
    }
    assert_eq!(total(&single, page, false, "docs_returned"), 9.0);
    assert_eq!(total(&single, page, true, "docs_returned"), 2001.0);
    // The reviews alone add the type to the shared key: the same index, reviews only.
    assert_eq!(op(&single, newest).queries, 2);
    let c = &cmds(&single, newest)[1];
    assert!(c.mongosh.contains("type: \"review\""), "{}", c.mongosh);
    assert_eq!(c.plan, "productId_1_type_1_date_-1");
    assert_eq!(total(&single, newest, true, "docs_returned"), 11.0);
    // A review is one insert in both designs, into the product collection here.
    assert_eq!(total(&single, add, false, "docs_written"), 1.0);
    assert_eq!(collections(&single, add), vec!["product".to_string()]);
    // One collection holding both shapes (200,000 products, 2,400,000 reviews), with one
    // secondary index instead of normalized's one on review.
    assert_eq!(single.collections.len(), 1);
    let product = &single.collections[0];
    assert_eq!(product.stats.count, 2_600_000.0);
    assert_eq!(product.index_count, 2);
}

#[test]
fn sensor_readings_approximate_archive_and_history() {
    let exact = eval("sensor-readings", "exact");
    let record = "record a reading";
    let counter = |e: &Evaluation| -> f64 {
        e.operations
            .iter()
            .flat_map(|o| o.typical.commands.iter().map(move |c| (o, c)))
            .filter(|(_, c)| c.collection == "sensor" && c.kind == CommandKind::Update)
            .filter(|(_, c)| c.mongosh.contains("readingCount"))
            .map(|(o, c)| o.rate_per_sec * c.full.docs_written.value)
            .sum()
    };
    // Approximation: the counter is written once every 100 readings, by 100.
    let approx = eval("sensor-readings", "approximate");
    assert_eq!(counter(&exact), 1000.0);
    assert_eq!(counter(&approx), 10.0);
    let written = op(&approx, "record a reading: readingCount (1 in 100 written)");
    assert!(written.typical.commands[0]
        .mongosh
        .contains("$inc: { readingCount: 100 }"));
    assert_eq!(op(&approx, record).queries, 1);
    assert!(approx
        .warnings
        .iter()
        .any(|w| w.code == "APPROXIMATE_COUNTER" && w.message.contains("at most 99 increments")));
    // Archive: the live collection and its index keep 30 of 365 days.
    let archive = eval("sensor-readings", "archive");
    let coll = |e: &Evaluation, n: &str| {
        e.collections
            .iter()
            .find(|c| c.name == n)
            .cloned()
            .unwrap_or_else(|| panic!("{}: no collection {n}", e.design))
    };
    let (all, live, old) = (
        coll(&exact, "reading"),
        coll(&archive, "reading"),
        coll(&archive, "reading_archive"),
    );
    assert_eq!(live.stats.count, 2_592_000_000.0);
    assert_eq!(live.stats.count + old.stats.count, all.stats.count);
    let share = live.index_bytes.value / all.index_bytes.value;
    assert!((share - 30.0 / 365.0).abs() < 0.001, "{share}");
    assert!(live.stats.total_bytes < all.stats.total_bytes / 12.0);
    // A read of old data costs one more query, on the archive.
    let dash = "dashboard: a sensor with its newest 60 readings";
    assert_eq!(op(&archive, dash).queries, op(&exact, dash).queries);
    let old_read = op(&archive, &format!("{dash} (old data)"));
    assert_eq!(old_read.queries, op(&exact, dash).queries + 1);
    assert_eq!(old_read.typical.commands[2].collection, "reading_archive");
    assert!((old_read.rate_per_sec - 1.0).abs() < 1e-9);
    // The move: an insert into the archive and a delete here, at the rate readings arrive.
    let mv = op(&archive, "archive reading older than 30 days");
    assert_eq!(mv.rate_per_sec, 1000.0);
    assert_eq!(
        total(
            &archive,
            "archive reading older than 30 days",
            false,
            "docs_written"
        ),
        2.0
    );
    // Document versioning: a recalibration writes 2 documents, and the history grows by
    // 0.5 × 86,400 documents a day.
    let versioned = eval("sensor-readings", "versioned");
    let recal = "recalibrate a sensor";
    assert_eq!(total(&exact, recal, false, "docs_written"), 1.0);
    assert_eq!(total(&versioned, recal, false, "docs_written"), 2.0);
    assert_eq!(collections(&versioned, recal), ["sensor_history", "sensor"]);
    let history = coll(&versioned, "sensor_history");
    assert_eq!(history.stats.count / 365.0, 43_200.0);
    assert!(versioned
        .warnings
        .iter()
        .any(|w| w.code == "HISTORY_GROWTH" && w.message.contains("43,200 documents")));
    // Reads of the current version are unchanged.
    assert_eq!(
        total(&versioned, dash, false, "docs_examined"),
        total(&exact, dash, false, "docs_examined")
    );
    // Schema versioning: both versions in one collection, each sized; one query reads either.
    let migrating = eval("sensor-readings", "migrating");
    let sensor = coll(&migrating, "sensor");
    let shapes: Vec<(&str, f64)> = sensor
        .stats
        .shapes
        .iter()
        .map(|s| (s.label.as_str(), s.count))
        .collect();
    assert_eq!(shapes, [("sensor", 4_000.0), ("sensor v1", 6_000.0)]);
    assert!(sensor.stats.shapes[0].max.bytes > sensor.stats.shapes[1].max.bytes);
    assert_eq!(op(&migrating, dash).queries, op(&exact, dash).queries);
    assert_eq!(
        total(&migrating, dash, false, "docs_examined"),
        total(&exact, dash, false, "docs_examined")
    );
}
