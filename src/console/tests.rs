use super::samples::{load_documents, sample_database};
use super::*;
use crate::ejson::to_shell_string;

fn db() -> Database {
    match sample_database() {
        Ok(db) => db,
        Err(e) => panic!("samples do not load: {e}"),
    }
}

fn run(db: &mut Database, text: &str) -> Outcome {
    match execute(db, text) {
        Ok(o) => o,
        Err(e) => panic!("{text}: {e}"),
    }
}

fn fail(db: &mut Database, text: &str) -> ConsoleError {
    match execute(db, text) {
        Ok(o) => panic!("{text} succeeded: {:?}", o.reply),
        Err(e) => e,
    }
}

fn ids(o: &Outcome) -> Vec<String> {
    o.documents()
        .iter()
        .map(|d| to_shell_string(d.get("_id").unwrap_or(&Bson::Null), false))
        .collect()
}

fn value(o: &Outcome) -> String {
    match &o.reply {
        Reply::Value(v) => to_shell_string(v, false),
        Reply::Documents(d) => format!("{} documents", d.len()),
    }
}

#[test]
fn samples_load_with_their_indexes() {
    let db = db();
    assert_eq!(db.collection_names(), ["movies", "orders", "users"]);
    let names: Vec<String> = db
        .list_indexes("users")
        .into_iter()
        .map(|i| i.name)
        .collect();
    assert_eq!(names, ["_id_", "followers_1"]);
}

#[test]
fn find_with_size_scans_the_collection() {
    let mut db = db();
    let o = run(&mut db, "db.users.find({ followers: { $size: 3 } })");
    assert_eq!(ids(&o), ["'alice'", "'carol'", "'frank'", "'celebrity-1'"]);
    assert_eq!(o.result.stats.exec.docs_examined, 12);
    assert_eq!(
        o.stats_line(),
        "nReturned: 4, keysExamined: 0, docsExamined: 12, COLLSCAN"
    );
}

#[test]
fn find_by_follower_uses_the_multikey_index() {
    let mut db = db();
    let o = run(
        &mut db,
        "db.users.find({ followers: 'grace' }, { name: 1 }).sort({ _id: 1 })",
    );
    assert_eq!(ids(&o), ["'celebrity'", "'frank'", "'heidi'"]);
    assert_eq!(o.result.stats.exec.keys_examined, 3);
    assert_eq!(o.result.stats.exec.docs_examined, 3);
    assert!(
        o.stats_line().ends_with("IXSCAN { followers: 1 }"),
        "{}",
        o.stats_line()
    );
    assert_eq!(o.documents()[0].keys().collect::<Vec<_>>(), ["_id", "name"]);
}

#[test]
fn cursor_modifiers_chain() {
    let mut db = db();
    let o = run(
        &mut db,
        "db.orders.find({}, { total: 1 }).sort({ total: -1 }).skip(1).limit(2).toArray()",
    );
    assert_eq!(ids(&o), ["1003", "1007"]);
    let o = run(&mut db, "db.orders.find({ status: 'shipped' }).count()");
    assert_eq!(value(&o), "5");
    let o = run(
        &mut db,
        "db.orders.find({}, {}, { limit: 3, sort: { _id: -1 } })",
    );
    assert_eq!(ids(&o), ["1008", "1007", "1006"]);
}

#[test]
fn explain_returns_the_explain_document() {
    let mut db = db();
    let o = run(
        &mut db,
        "db.movies.find({ 'prices.channel': 'web' }).explain('executionStats')",
    );
    assert!(o.explained);
    let Reply::Value(Bson::Document(e)) = &o.reply else {
        panic!("not a document: {:?}", o.reply)
    };
    let plan = e
        .get_document("queryPlanner")
        .and_then(|q| q.get_document("winningPlan"));
    let text = plan.map(|p| to_shell_string(&Bson::Document(p.clone()), false));
    let text = text.unwrap_or_default();
    assert!(
        text.contains("IXSCAN") && text.contains("isMultiKey: true"),
        "{text}"
    );
    assert_eq!(
        e.get_document("executionStats")
            .ok()
            .and_then(|s| s.get("nReturned"))
            .map(|n| to_shell_string(n, false)),
        Some("5".to_string())
    );
}

#[test]
fn find_one_and_count_documents() {
    let mut db = db();
    let o = run(&mut db, "db.users.findOne({ _id: 'nobody' })");
    assert_eq!(value(&o), "null");
    let o = run(
        &mut db,
        "db.users.findOne({ followerCount: { $gt: 4 } }, { _id: 1 })",
    );
    assert_eq!(value(&o), "{ _id: 'grace' }");
    let o = run(
        &mut db,
        "db.orders.countDocuments({ 'customer._id': 'alice' })",
    );
    assert_eq!(value(&o), "3");
    assert!(
        o.stats_line()
            .contains("IXSCAN { 'customer._id': 1, date: -1 }"),
        "{}",
        o.stats_line()
    );
}

#[test]
fn writes_answer_like_mongosh() {
    let mut db = db();
    let o = run(&mut db, "db.users.insertOne({ _id: 'zoe', followers: [] })");
    assert_eq!(value(&o), "{ acknowledged: true, insertedId: 'zoe' }");
    let o = run(&mut db, "db.t.insertMany([{ _id: 1 }, { _id: 2 }])");
    assert_eq!(
        value(&o),
        "{ acknowledged: true, insertedIds: { '0': 1, '1': 2 } }"
    );
    let o = run(
        &mut db,
        "db.users.updateOne({ _id: 'zoe' }, { $push: { followers: 'alice' }, $inc: { followerCount: 1 } })",
    );
    assert_eq!(
        value(&o),
        "{ acknowledged: true, insertedId: null, matchedCount: NumberLong(1), modifiedCount: NumberLong(1), upsertedCount: NumberLong(0) }"
    );
    let o = run(
        &mut db,
        "db.t.updateMany({ _id: { $gt: 5 } }, { $set: { a: 1 } }, { upsert: true })",
    );
    assert!(
        value(&o).contains("upsertedCount: NumberLong(1)"),
        "{}",
        value(&o)
    );
    let o = run(&mut db, "db.t.replaceOne({ _id: 1 }, { b: 2 })");
    assert!(value(&o).contains("modifiedCount: NumberLong(1)"));
    let o = run(&mut db, "db.t.deleteMany({})");
    assert_eq!(
        value(&o),
        "{ acknowledged: true, deletedCount: NumberLong(3) }"
    );
}

#[test]
fn array_filters_and_find_one_and_update() {
    let mut db = db();
    let o = run(
        &mut db,
        "db.movies.updateOne({ _id: 1 }, { $mul: { 'prices.$[p].price': 2 } }, { arrayFilters: [{ 'p.channel': 'web' }] })",
    );
    assert!(value(&o).contains("modifiedCount: NumberLong(1)"));
    let o = run(
        &mut db,
        "db.movies.findOne({ _id: 1 }, { _id: 0, 'prices.price': 1 })",
    );
    assert_eq!(
        value(&o),
        "{ prices: [ { price: 19.98 }, { price: 7.99 }, { price: 11.99 } ] }"
    );
    let o = run(
        &mut db,
        "db.users.findOneAndUpdate({ _id: 'ivan' }, { $inc: { followerCount: 1 } }, { returnDocument: 'after', projection: { followerCount: 1 } })",
    );
    assert_eq!(value(&o), "{ _id: 'ivan', followerCount: 2 }");
    let o = run(
        &mut db,
        "db.users.findOneAndUpdate({ _id: 'ivan' }, { $inc: { followerCount: 1 } }, { projection: { followerCount: 1 } })",
    );
    assert_eq!(value(&o), "{ _id: 'ivan', followerCount: 2 }");
}

#[test]
fn aggregate_and_its_explain() {
    let mut db = db();
    let o = run(
        &mut db,
        "db.orders.aggregate([{ $unwind: '$items' }, { $group: { _id: '$items.sku', qty: { $sum: '$items.qty' } } }, { $sort: { qty: -1 } }, { $limit: 1 }])",
    );
    assert_eq!(value(&o), "1 documents");
    assert_eq!(
        to_shell_string(&Bson::Document(o.documents()[0].clone()), false),
        "{ _id: 'P-100', qty: 14 }"
    );
    let o = run(
        &mut db,
        "db.orders.aggregate([{ $match: { status: 'pending' } }]).explain()",
    );
    assert!(o.explained);
}

#[test]
fn index_commands() {
    let mut db = db();
    let o = run(
        &mut db,
        "db.orders.createIndex({ status: 1 }, { name: 'by_status' })",
    );
    assert_eq!(value(&o), "'by_status'");
    let o = run(&mut db, "db.orders.getIndexes()");
    assert_eq!(o.documents().len(), 3);
    let o = run(&mut db, "db.orders.dropIndex({ status: 1 })");
    assert_eq!(value(&o), "{ nIndexesWas: 3, ok: 1 }");
    let o = run(&mut db, "db.orders.dropIndex('customer._id_1_date_-1')");
    assert_eq!(value(&o), "{ nIndexesWas: 2, ok: 1 }");
    let e = fail(&mut db, "db.orders.dropIndex('nope')");
    assert!(
        e.to_string().starts_with("MongoServerError[IndexNotFound]"),
        "{e}"
    );
}

#[test]
fn database_commands() {
    let mut db = db();
    let o = run(&mut db, "db.getCollectionNames()");
    assert_eq!(value(&o), "[ 'movies', 'orders', 'users' ]");
    let o = run(&mut db, "show collections;");
    assert_eq!(o.documents().len(), 3);
}

#[test]
fn unsupported_things_say_which_and_where() {
    let mut db = db();
    let e = fail(&mut db, "db.users.mapReduce({})");
    assert!(
        matches!(
            e,
            ConsoleError::Unsupported {
                line: 1,
                column: 10,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("mapReduce() is not supported"));
    let e = fail(&mut db, "db.users.updateOne(\n  { _id: 1 },\n  { $set: { a: 1 } },\n  { collation: { locale: 'fr' } })");
    assert!(
        matches!(
            e,
            ConsoleError::Unsupported {
                line: 4,
                column: 5,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(e
        .to_string()
        .contains("option 'collation' is not supported"));
    // A find takes a collation (locale and strength); the options the engine does not apply
    // are refused rather than ignored.
    let e = fail(
        &mut db,
        "db.users.find().collation({ locale: 'fr', alternate: 'shifted' })",
    );
    assert!(
        e.to_string()
            .contains("collation option 'alternate' is not supported by this engine"),
        "{e}"
    );
    let e = fail(&mut db, "db.users.find({ count: 1 }).count(true)");
    assert!(
        matches!(e, ConsoleError::Unsupported { column: 29, .. }),
        "{e:?}"
    );
    let e = fail(&mut db, "db.users.insertOne({ _id: 1 }).limit(1)");
    assert!(e.to_string().contains("applies to a cursor"), "{e}");
    let e = fail(&mut db, "db.users.find(5)");
    assert!(
        e.to_string()
            .contains("filter must be an object, not an int"),
        "{e}"
    );
    let e = fail(&mut db, "db.users.find().count().limit(2)");
    assert!(e.to_string().contains("cannot follow .count()"), "{e}");
    let e = fail(&mut db, "db.users.updateOne({}, [{ $set: { a: 1 } }])");
    assert!(e.to_string().contains("aggregation pipeline"), "{e}");
}

#[test]
fn syntax_and_server_errors() {
    let mut db = db();
    let e = fail(&mut db, "db.users.find({ a: })");
    assert!(
        matches!(e, ConsoleError::Syntax(ref p) if p.line == 1),
        "{e:?}"
    );
    let e = fail(&mut db, "db.users.insertOne({ _id: 'alice' })");
    match e {
        ConsoleError::Server(e) => assert_eq!((e.code, e.code_name), (11000, "DuplicateKey")),
        other => panic!("{other:?}"),
    }
    let e = fail(&mut db, "db.users.find({ $where: 'this.a > 1' })");
    assert!(e.to_string().starts_with("MongoServerError["), "{e}");
}

#[test]
fn load_errors_say_line_and_column() {
    let mut db = Database::new();
    let e = load_documents(&mut db, "c", "{\"_id\": 1}\n{\"_id\": }\n", "f.ndjson");
    assert_eq!(e.map_err(|e| (e.line, e.column)), Err((2, 9)));
    let e = load_documents(
        &mut db,
        "c",
        "{\"_id\": 1}\n{\"_id\": 2}\n{\"_id\": 1}\n",
        "f.ndjson",
    );
    let e = e
        .err()
        .map(|e| (e.line, e.message.contains("DuplicateKey")));
    assert_eq!(e, Some((3, true)));
}

// The console's output shapes against mongosh's documented ones.
//
// explain: https://www.mongodb.com/docs/manual/reference/explain-results/ (queryPlanner with
// namespace, winningPlan and rejectedPlans; executionStats with executionSuccess, nReturned,
// executionTimeMillis, totalKeysExamined, totalDocsExamined and the executionStages tree; the
// default verbosity of `cursor.explain()` is queryPlanner:
// https://www.mongodb.com/docs/manual/reference/method/cursor.explain/).
// countDocuments: https://www.mongodb.com/docs/manual/reference/method/db.collection.countDocuments/
// returns a number, which mongosh prints plain (`12`).
// Printing: mongosh formats results with Node's util.inspect (format-output.ts), whose layout
// `crate::ejson::inspect` reproduces (its tests compare with Node's own output).

/// Returns the explain document of `command`.
fn explain_of(db: &mut Database, command: &str) -> bson::Document {
    let o = run(db, command);
    assert!(o.explained, "{command}");
    match o.reply {
        Reply::Value(Bson::Document(e)) => e,
        other => panic!("not a document: {other:?}"),
    }
}

#[test]
fn explain_execution_stats_has_the_documented_sections() {
    let mut db = db();
    let e = explain_of(
        &mut db,
        "db.movies.find({ 'prices.channel': 'web' }).explain('executionStats')",
    );
    let keys: Vec<&str> = e.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        ["explainVersion", "queryPlanner", "executionStats", "ok"]
    );
    let qp = e.get_document("queryPlanner").unwrap();
    let qp_keys: Vec<&str> = qp.keys().map(String::as_str).collect();
    assert_eq!(qp_keys, ["namespace", "winningPlan", "rejectedPlans"]);
    assert_eq!(
        qp.get_str("namespace").unwrap(),
        format!("{}.movies", db.name)
    );
    let stats = e.get_document("executionStats").unwrap();
    let stat_keys: Vec<&str> = stats.keys().map(String::as_str).collect();
    // executionTimeMillis is left out on purpose (the engine's time is not mongod's).
    assert_eq!(
        stat_keys,
        [
            "executionSuccess",
            "nReturned",
            "totalKeysExamined",
            "totalDocsExamined",
            "executionStages"
        ]
    );
    // The engine's own counters of the same query (the multikey index holds one key per
    // channel, so more keys than documents are examined).
    let o = run(&mut db, "db.movies.find({ 'prices.channel': 'web' })");
    let x = &o.result.stats.exec;
    let int = |n: u64| Some(Bson::Int32(i32::try_from(n).unwrap()));
    assert_eq!(stats.get("nReturned").cloned(), int(x.n_returned));
    assert_eq!(stats.get("nReturned").cloned(), Some(Bson::Int32(5)));
    assert_eq!(
        stats.get("totalKeysExamined").cloned(),
        int(x.keys_examined)
    );
    assert_eq!(
        stats.get("totalDocsExamined").cloned(),
        int(x.docs_examined)
    );
    // The stage tree that ran: FETCH over the multikey IXSCAN, the same as the winning plan.
    let stages = stats.get_document("executionStages").unwrap();
    assert_eq!(stages.get_str("stage").unwrap(), "FETCH");
    let ixscan = stages.get_document("inputStage").unwrap();
    assert_eq!(ixscan.get_str("stage").unwrap(), "IXSCAN");
    assert!(ixscan.get_bool("isMultiKey").unwrap());
    assert_eq!(Some(stages), qp.get_document("winningPlan").ok());
}

#[test]
fn explain_defaults_to_query_planner() {
    let mut db = db();
    for command in [
        "db.movies.find({ 'prices.channel': 'web' }).explain()",
        "db.movies.find({ 'prices.channel': 'web' }).explain('queryPlanner')",
        "db.movies.find({ 'prices.channel': 'web' }).explain(false)",
    ] {
        let e = explain_of(&mut db, command);
        assert!(e.get("executionStats").is_none(), "{command}");
        assert!(e
            .get_document("queryPlanner")
            .unwrap()
            .get("winningPlan")
            .is_some());
    }
    let all = explain_of(
        &mut db,
        "db.movies.find({ 'prices.channel': 'web' }).explain(true)",
    );
    let stats = all.get_document("executionStats").unwrap();
    assert_eq!(stats.get_array("allPlansExecution").unwrap().len(), 0);
}

#[test]
fn aggregate_explain_execution_stats() {
    let mut db = db();
    let e = explain_of(
        &mut db,
        "db.orders.aggregate([{ $match: { status: 'pending' } }]).explain('executionStats')",
    );
    let stats = e.get_document("executionStats").unwrap();
    assert!(stats.get_document("executionStages").is_ok());
    assert!(matches!(stats.get("nReturned"), Some(Bson::Int32(_))));
}

/// True when an entry is followed by a comma and then the closing brace or bracket.
fn has_trailing_comma(text: &str) -> bool {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    lines
        .windows(2)
        .any(|w| w[0].ends_with(',') && (w[1].starts_with('}') || w[1].starts_with(']')))
        || text.contains(", }")
        || text.contains(", ]")
}

#[test]
fn explain_prints_as_mongosh_with_quoted_key_patterns_and_no_trailing_commas() {
    let mut db = db();
    let e = explain_of(
        &mut db,
        "db.orders.find({ 'customer._id': 'alice' }).sort({ date: -1 }).explain('executionStats')",
    );
    let text = crate::ejson::inspect_all(&Bson::Document(e));
    assert!(
        text.starts_with("{\n  explainVersion: '1',\n  queryPlanner: {\n"),
        "{text}"
    );
    assert!(
        text.contains("keyPattern: { 'customer._id': 1, date: -1 }"),
        "{text}"
    );
    assert!(text.contains("    totalDocsExamined: 3,\n"), "{text}");
    assert!(!has_trailing_comma(&text), "{text}");
    // The plan's Display is the same text as mongosh's winningPlan.
    let o = run(
        &mut db,
        "db.orders.find({ 'customer._id': 'alice' }).sort({ date: -1 })",
    );
    let plan = o.result.plan.unwrap().to_string();
    assert!(
        plan.contains("keyPattern: { 'customer._id': 1, date: -1 }"),
        "{plan}"
    );
    assert!(!has_trailing_comma(&plan), "{plan}");
}

#[test]
fn counts_are_plain_numbers() {
    let mut db = db();
    for command in [
        "db.users.countDocuments({})",
        "db.users.find({}).count()",
        "db.users.find({}).itcount()",
    ] {
        let o = run(&mut db, command);
        let Reply::Value(v) = &o.reply else {
            panic!("{command}")
        };
        assert_eq!(crate::ejson::inspect(v), "12", "{command}");
    }
}

#[test]
fn documents_print_as_mongosh_prints_them() {
    let mut db = db();
    let o = run(
        &mut db,
        "db.users.findOne({ _id: 'grace' }, { _id: 1, followers: 1 })",
    );
    let Reply::Value(v) = &o.reply else { panic!() };
    let text = crate::ejson::inspect(v);
    assert!(
        text.starts_with("{ _id: 'grace', followers: [") || text.starts_with("{\n  _id: 'grace',"),
        "{text}"
    );
}

#[test]
fn aggregate_ending_in_out_or_merge_writes_and_its_explain_does_not() {
    let mut db = db();
    let n = db.collection("orders").map(|c| c.len()).unwrap_or(0);
    let o = run(
        &mut db,
        "db.orders.aggregate([{ $match: {} }, { $out: 'orders_copy' }])",
    );
    assert_eq!(value(&o), "0 documents");
    assert_eq!(o.result.stats.write.n_inserted, n as u64);
    assert_eq!(db.collection("orders_copy").map(|c| c.len()), Some(n));
    let o = run(
        &mut db,
        "db.orders.aggregate([{ $set: { copied: true } }, { $merge: { into: 'orders_copy', whenMatched: 'merge' } }])",
    );
    assert_eq!(o.result.stats.write.n_modified, n as u64);
    let o = run(
        &mut db,
        "db.orders.aggregate([{ $merge: { into: 'never' } }]).explain('executionStats')",
    );
    assert!(o.explained);
    assert!(db.collection("never").is_none());
    let text = to_shell_string(&Bson::Document(o.documents()[0].clone()), false);
    assert!(text.contains("$merge"), "{text}");
    let e = fail(
        &mut db,
        "db.orders.aggregate([{ $out: 'x' }, { $match: {} }])",
    );
    assert!(e.to_string().contains("40601"), "{e}");
}
