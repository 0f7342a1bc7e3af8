//! One operation as a log or the profiler recorded it ([`Logged`], whatever the format),
//! and what it is for the model ([`classify`]): a CRUD operation on an application's
//! collection ([`Operation`], its filter, sort, projection and update reduced to shapes), or
//! a reason to leave it out ([`Skip`]).

use serde::Serialize;
use serde_json::{Map, Value};

use super::shape;

/// The figures mongod reports for an operation (each as the log or profiler has it).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Figures {
    /// Index keys examined (`keysExamined`; `nscanned` before 3.2).
    pub keys_examined: Option<u64>,
    /// Documents examined (`docsExamined`; `nscannedObjects` before 3.2).
    pub docs_examined: Option<u64>,
    /// Documents returned (`nreturned`).
    pub nreturned: Option<u64>,
    /// How long it took, in milliseconds (`durationMillis`, `millis`, the text's `…ms`).
    pub duration_ms: Option<u64>,
    /// The plan (`COLLSCAN`, `IXSCAN { email: 1 }`, `IDHACK`).
    pub plan_summary: Option<String>,
    /// A legacy query's `ntoreturn` (its limit; 0: none).
    pub ntoreturn: Option<u64>,
}

/// One logged operation, as read from a log line or a profiler document.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Logged {
    /// When it ended (milliseconds since the epoch; ctime lines without a year count from
    /// 2001-01-01), when the line says.
    pub time_ms: Option<i64>,
    /// Its namespace (`shop.orders`, `shop.$cmd`).
    pub namespace: String,
    /// The client connection that ran it (`conn12`: the JSON log's `ctx`, the text log's
    /// `[conn12]`), when the line says; the profiler's documents do not.
    pub connection: Option<String>,
    /// The operation type: `command`, `query`, `update`, `remove`, `insert`, `getmore`
    /// (the legacy text's word, the profiler's `op`, the JSON log's `attr.type`).
    pub op: String,
    /// The command's name when the line says it apart from the command (a legacy line's
    /// `command: find { … }`: the object may be mongod's `{ $msg: "query not recording (too
    /// large)" }` in its place).
    pub command_name: Option<String>,
    /// The command (`{find: "orders", filter: …}`), or an update or delete statement
    /// (`{q: …, u: …}`).
    pub command: Option<Value>,
    /// A legacy `query:` (`{ $query: …, $orderby: … }` or a plain filter).
    pub query: Option<Value>,
    /// A legacy `update:` (`updateobj` in old profiler documents).
    pub update: Option<Value>,
    /// mongod's figures.
    pub figures: Figures,
    /// The totals of many operations of one shape, when the input has them grouped already
    /// (a `$queryStats` entry); `figures` is then empty.
    pub totals: Option<Totals>,
}

/// The figures of many operations of one shape, summed (a `$queryStats` entry's `metrics`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Totals {
    /// Operations (`execCount`).
    pub count: u64,
    /// Σ keys examined (`keysExamined.sum`), when given.
    pub keys_examined: Option<u64>,
    /// Σ documents examined (`docsExamined.sum`).
    pub docs_examined: Option<u64>,
    /// Σ documents returned (`docsReturned.sum`).
    pub nreturned: Option<u64>,
    /// Execution time in microseconds: sum, min, max (`totalExecMicros`).
    pub micros: Option<(u64, u64, u64)>,
    /// When the first and the latest of them ran (`firstSeenTimestamp`,
    /// `latestSeenTimestamp`), milliseconds since the epoch.
    pub span_ms: Option<(i64, i64)>,
}

/// What one line of a log holds.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LineRead {
    /// Its time (milliseconds since the epoch; ctime without a year: since 2001-01-01).
    pub time_ms: Option<i64>,
    /// The operation it logs, if it logs one.
    pub logged: Option<Logged>,
}

/// The kind of a CRUD operation, named as the command is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Kind {
    /// `find` (or a legacy query).
    Find,
    /// `aggregate`.
    Aggregate,
    /// `count`.
    Count,
    /// `distinct`.
    Distinct,
    /// `insert`.
    Insert,
    /// `update` (one statement).
    Update,
    /// `delete` (one statement; `remove` in legacy logs).
    Delete,
    /// `findAndModify`.
    FindAndModify,
}

impl Kind {
    /// The command's name.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Find => "find",
            Kind::Aggregate => "aggregate",
            Kind::Count => "count",
            Kind::Distinct => "distinct",
            Kind::Insert => "insert",
            Kind::Update => "update",
            Kind::Delete => "delete",
            Kind::FindAndModify => "findAndModify",
        }
    }
}

/// A CRUD operation on an application's collection, reduced to its shape.
#[derive(Debug, Clone, PartialEq)]
pub struct Operation {
    /// The database.
    pub database: String,
    /// The collection.
    pub collection: String,
    /// What it does.
    pub kind: Kind,
    /// The filter's shape (`{}` when none).
    pub filter: Value,
    /// The sort specification, if any.
    pub sort: Option<Value>,
    /// The projection specification, if any.
    pub projection: Option<Value>,
    /// The update's shape (operators and fields), if any.
    pub update: Option<Value>,
    /// An aggregation's stage names, in order.
    pub pipeline: Option<Vec<String>>,
    /// Its limit, when it has one (a parameter, not part of the shape).
    pub limit: Option<u64>,
    /// An update or findAndModify with `upsert: true`.
    pub upsert: bool,
    /// A findAndModify with `remove: true`.
    pub remove: bool,
}

impl Operation {
    /// Returns a `kind` operation on `database.collection` with no filter, sort, projection,
    /// update, pipeline or limit.
    pub fn new(database: &str, collection: &str, kind: Kind) -> Operation {
        Operation {
            database: database.to_string(),
            collection: collection.to_string(),
            kind,
            filter: Value::Object(Default::default()),
            sort: None,
            projection: None,
            update: None,
            pipeline: None,
            limit: None,
            upsert: false,
            remove: false,
        }
    }
}

/// Why an operation is left out of the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SkipReason {
    /// On `admin`, `local` or `config`: the server's own data.
    InternalDatabase,
    /// On a `system.*` collection (`system.profile`, `system.indexes`, `system.sessions`).
    SystemCollection,
    /// A cursor's next batch (`getMore`) or its end (`killCursors`): its query is counted
    /// once, where it started.
    Cursor,
    /// A write command's envelope (`update`, `delete`, and `insert` on `<db>.$cmd` before
    /// 3.6): mongod logs its statements on their own, and those are counted.
    WriteBatch,
    /// A command the model has no operation for (`createIndexes`, `isMaster`, `count` …).
    NotExpressible,
}

impl SkipReason {
    /// Its name in the report (`internal_database` …).
    pub fn name(self) -> &'static str {
        match self {
            SkipReason::InternalDatabase => "internal_database",
            SkipReason::SystemCollection => "system_collection",
            SkipReason::Cursor => "cursor",
            SkipReason::WriteBatch => "write_batch",
            SkipReason::NotExpressible => "not_expressible",
        }
    }
}

/// An operation left out, with why.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Skip {
    /// Why.
    pub reason: SkipReason,
    /// Its namespace.
    pub namespace: String,
    /// Its command or operation type.
    pub command: String,
}

/// The databases that hold the server's own data.
const INTERNAL_DATABASES: [&str; 3] = ["admin", "local", "config"];

/// The commands that name their collection as their first value.
const CRUD_COMMANDS: [&str; 9] = [
    "find",
    "aggregate",
    "count",
    "distinct",
    "insert",
    "update",
    "delete",
    "findAndModify",
    "findandmodify",
];

/// Returns what `logged` is for the model: a CRUD operation reduced to its shape, or why it
/// is left out.
pub fn classify(logged: &Logged) -> Result<Operation, Skip> {
    let (database, collection) = logged
        .namespace
        .split_once('.')
        .map_or((logged.namespace.as_str(), ""), |(d, c)| (d, c));
    let command = command_doc(logged);
    let name = command_name(logged, command);
    let (collection, kind) = target(logged, database, collection, command, &name)?;
    let mut op = Operation::new(database, collection, kind);
    let field = |key: &str| command.and_then(|c| c.get(key));
    match kind {
        Kind::Find => find_shape(&mut op, logged, command),
        Kind::Aggregate => aggregate_shape(&mut op, field("pipeline")),
        Kind::Count | Kind::Distinct => {
            op.filter = field("query").map_or(op.filter, shape::of);
        }
        Kind::Insert => {}
        Kind::Update => {
            let q = field("q").or(logged.query.as_ref());
            op.filter = q.map_or(op.filter, shape::of);
            op.update = field("u").or(logged.update.as_ref()).map(update_shape);
            op.upsert = field("upsert").and_then(Value::as_bool).unwrap_or(false);
        }
        Kind::Delete => {
            let q = field("q").or(logged.query.as_ref());
            op.filter = q.map_or(op.filter, shape::of);
        }
        Kind::FindAndModify => {
            op.filter = field("query").map_or(op.filter, shape::of);
            op.sort = field("sort").map(shape::spec).filter(non_empty);
            op.update = field("update").map(update_shape);
            op.upsert = field("upsert").and_then(Value::as_bool).unwrap_or(false);
            op.remove = field("remove").and_then(Value::as_bool).unwrap_or(false);
        }
    }
    Ok(op)
}

/// The command document of `logged`: its command, or a 3.2 text line's `query` holding a
/// find command (`query <ns> query: { find: …, filter: … }`).
fn command_doc(logged: &Logged) -> Option<&Map<String, Value>> {
    logged
        .command
        .as_ref()
        .and_then(Value::as_object)
        .or_else(|| {
            logged
                .query
                .as_ref()
                .and_then(Value::as_object)
                .filter(|q| logged.op == "query" && q.contains_key("find"))
        })
}

/// The command's name: the first key of a command; the op of a statement.
fn command_name(logged: &Logged, command: Option<&Map<String, Value>>) -> String {
    let first_key = command
        .and_then(|c| c.keys().next())
        .map(String::as_str)
        .unwrap_or_default();
    match logged.op.as_str() {
        "command" => logged
            .command_name
            .clone()
            .unwrap_or_else(|| first_key.to_string()),
        "query" if first_key == "explain" => first_key.to_string(),
        "query" => "find".to_string(),
        "update" => "update".to_string(),
        "remove" => "delete".to_string(),
        "insert" => "insert".to_string(),
        "getmore" => "getMore".to_string(),
        other => other.to_string(),
    }
}

/// Returns the collection a command `name` of `logged` (on `database.collection`) acts on
/// and its kind, or why it is left out: write envelopes, internal databases, commands on a
/// database, system collections, cursors and commands the model has no operation for.
fn target<'a>(
    logged: &Logged,
    database: &str,
    mut collection: &'a str,
    command: Option<&'a Map<String, Value>>,
    name: &str,
) -> Result<(&'a str, Kind), Skip> {
    let skip = |reason: SkipReason, collection: &str| Skip {
        reason,
        namespace: format!("{database}.{collection}"),
        command: name.to_string(),
    };
    let is_statement = logged.op != "command";
    if collection == "$cmd" {
        // A CRUD command names its collection (`{find: "orders"}`); other commands' first
        // values are no collection (`{moveChunk: "test.docs"}`).
        if let Some(named) = command
            .filter(|_| CRUD_COMMANDS.contains(&name))
            .and_then(|c| c.get(name))
            .and_then(Value::as_str)
        {
            collection = named;
        }
        if !is_statement && name == "insert" {
            return Err(skip(SkipReason::WriteBatch, collection));
        }
    }
    // The `update` and `delete` commands' statements are logged (and counted) on their own,
    // whatever namespace the envelope names.
    if !is_statement && matches!(name, "update" | "delete") {
        return Err(skip(SkipReason::WriteBatch, collection));
    }
    if INTERNAL_DATABASES.contains(&database) {
        return Err(skip(SkipReason::InternalDatabase, collection));
    }
    if collection == "$cmd" || collection.is_empty() {
        // A command on the database, not on a collection (`isMaster`, `dropDatabase`).
        return Err(skip(SkipReason::NotExpressible, collection));
    }
    if collection.starts_with("system.") {
        return Err(skip(SkipReason::SystemCollection, collection));
    }
    let kind = match name {
        "find" => Kind::Find,
        "aggregate" => Kind::Aggregate,
        "count" => Kind::Count,
        "distinct" => Kind::Distinct,
        "insert" => Kind::Insert,
        "update" => Kind::Update,
        "delete" => Kind::Delete,
        "findAndModify" | "findandmodify" => Kind::FindAndModify,
        "getMore" | "killCursors" => return Err(skip(SkipReason::Cursor, collection)),
        _ => return Err(skip(SkipReason::NotExpressible, collection)),
    };
    Ok((collection, kind))
}

/// Returns a positive number (a limit).
fn positive(v: Option<&Value>) -> Option<u64> {
    v.and_then(Value::as_f64)
        .filter(|n| *n > 0.0)
        .map(|n| n as u64)
}

/// Fills a find's shapes: a find command's filter, sort, projection and limit, or a legacy
/// query's (a filter, or `{$query: …, $orderby: …}`, its limit the line's `ntoreturn`).
fn find_shape(op: &mut Operation, logged: &Logged, command: Option<&Map<String, Value>>) {
    if let Some(c) = command.filter(|c| c.contains_key("find")) {
        op.filter = c.get("filter").map_or(op.filter.take(), shape::of);
        op.sort = c.get("sort").map(shape::spec).filter(non_empty);
        op.projection = c.get("projection").map(shape::spec).filter(non_empty);
        op.limit = positive(c.get("limit"));
        return;
    }
    let query = logged.query.as_ref().or(logged.command.as_ref());
    let wrapped = query.and_then(Value::as_object).and_then(|q| {
        let filter = q.get("$query").or_else(|| {
            (q.contains_key("orderby") || q.contains_key("$orderby"))
                .then(|| q.get("query"))
                .flatten()
        })?;
        Some((filter, q.get("$orderby").or_else(|| q.get("orderby"))))
    });
    match wrapped {
        Some((filter, sort)) => {
            op.filter = shape::of(filter);
            op.sort = sort.map(shape::spec).filter(non_empty);
        }
        None => op.filter = query.map_or(op.filter.take(), shape::of),
    }
    op.limit = logged.figures.ntoreturn.filter(|n| *n > 0);
}

/// Fills an aggregation's shapes: its stages' names, the filter of its `$match` (before any
/// sort or limit), its first `$sort` and `$limit`.
fn aggregate_shape(op: &mut Operation, pipeline: Option<&Value>) {
    let stages: Vec<&Map<String, Value>> = pipeline
        .and_then(Value::as_array)
        .map(|p| p.iter().filter_map(Value::as_object).collect())
        .unwrap_or_default();
    op.pipeline = Some(
        stages
            .iter()
            .filter_map(|s| s.keys().next().cloned())
            .collect(),
    );
    for stage in &stages {
        if let Some(m) = stage.get("$match") {
            if op.sort.is_none() && op.limit.is_none() {
                op.filter = shape::of(m);
            }
        }
        if let Some(s) = stage.get("$sort") {
            op.sort.get_or_insert_with(|| shape::spec(s));
        }
        if let Some(l) = positive(stage.get("$limit")) {
            op.limit.get_or_insert(l);
        }
    }
}

/// Returns an update's shape: an update pipeline is `"?pipeline"` with its stages' names.
fn update_shape(u: &Value) -> Value {
    match u {
        Value::Array(stages) => Value::Array(
            stages
                .iter()
                .filter_map(|s| s.as_object()?.keys().next().cloned())
                .map(Value::String)
                .collect(),
        ),
        other => shape::of(other),
    }
}

/// True unless `v` is an empty object (`sort: {}` is no sort).
fn non_empty(v: &Value) -> bool {
    v.as_object().is_none_or(|m| !m.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn logged(ns: &str, op: &str, command: Value) -> Logged {
        Logged {
            namespace: ns.to_string(),
            op: op.to_string(),
            command: Some(command),
            ..Logged::default()
        }
    }

    #[test]
    fn a_find_command_gives_its_shapes_and_limit() {
        let l = logged(
            "shop.orders",
            "command",
            json!({"find": "orders", "filter": {"customer": "c1"}, "sort": {"date": -1.0},
                "limit": 20, "$db": "shop"}),
        );
        let op = classify(&l).unwrap();
        assert_eq!(op.kind, Kind::Find);
        assert_eq!(op.filter, json!({"customer": "?string"}));
        assert_eq!(op.sort, Some(json!({"date": -1})));
        assert_eq!(op.limit, Some(20));
    }

    #[test]
    fn internal_system_cursor_and_batch_commands_are_skipped() {
        let reason = |ns: &str, op: &str, c: Value| classify(&logged(ns, op, c)).unwrap_err();
        let r = reason("admin.$cmd", "command", json!({"isMaster": 1}));
        assert_eq!(r.reason, SkipReason::InternalDatabase);
        let r = reason(
            "shop.system.profile",
            "query",
            json!({"find": "system.profile"}),
        );
        assert_eq!(r.reason, SkipReason::SystemCollection);
        let r = reason(
            "shop.orders",
            "command",
            json!({"getMore": 1, "collection": "orders"}),
        );
        assert_eq!(r.reason, SkipReason::Cursor);
        let r = reason(
            "shop.$cmd",
            "command",
            json!({"update": "orders", "ordered": true}),
        );
        assert_eq!(
            (r.reason, r.namespace.as_str()),
            (SkipReason::WriteBatch, "shop.orders")
        );
        let r = reason("shop.$cmd", "command", json!({"createIndexes": "orders"}));
        assert_eq!(r.reason, SkipReason::NotExpressible);
    }

    #[test]
    fn a_legacy_query_unwraps_query_and_orderby() {
        let mut l = logged("t.c", "query", json!(null));
        l.command = None;
        l.query = Some(json!({"$query": {"g": {"$oid": "x"}}, "$orderby": {"name": 1}}));
        l.figures.ntoreturn = Some(20);
        let op = classify(&l).unwrap();
        assert_eq!(op.filter, json!({"g": "?objectId"}));
        assert_eq!(op.sort, Some(json!({"name": 1})));
        assert_eq!(op.limit, Some(20));
    }

    #[test]
    fn a_3_2_query_line_holding_a_find_command_is_that_find() {
        let mut l = logged("t.c", "query", json!(null));
        l.command = None;
        l.query = Some(json!({"find": "c", "filter": {"a": 1}, "sort": {"b": -1}}));
        let op = classify(&l).unwrap();
        assert_eq!(op.filter, json!({"a": "?number"}));
        assert_eq!(op.sort, Some(json!({"b": -1})));
    }
}
