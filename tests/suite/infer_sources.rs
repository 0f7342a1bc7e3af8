//! `squillion infer` beyond mongoexport: mongodump `.bson` files (the same model as the same
//! documents as Extended JSON, truncated and corrupt files reported at their byte offsets,
//! `.metadata.json` indexes, dump directories) and SQL schemas (types, keys, nullable columns,
//! foreign keys, junction tables, parse errors), each resulting model valid and evaluated.
#![cfg(not(target_arch = "wasm32"))]

use std::path::Path;
use std::process::{Command, Output};

use bson::{doc, oid::ObjectId, Bson, DateTime, Document};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use squillion::model::{parse_model, BsonType, Distribution, Model, ValueKind};

use crate::common::dump_files;
use dump_files::{write_bson, write_json};

fn squillion(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_squillion"))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{e}"))
}

fn path(p: &Path) -> &str {
    p.to_str()
        .unwrap_or_else(|| panic!("not UTF-8: {}", p.display()))
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Runs `squillion infer ARGS --out model.json` (exit 0) and returns the model and stdout.
fn infer(args: &[&str], dir: &Path) -> (Model, String) {
    let out_path = dir.join("inferred.json");
    let mut all = vec!["infer"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--out", path(&out_path)]);
    let out = squillion(&all);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(&out_path).unwrap_or_else(|e| panic!("{e}"));
    let model = parse_model(&text).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    (model, stdout(&out))
}

/// Runs `squillion infer ARGS --json` (exit 0) and returns its report.
fn report(args: &[&str]) -> Value {
    let mut all = vec!["infer"];
    all.extend_from_slice(args);
    all.push("--json");
    let out = squillion(&all);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
    v["report"].clone()
}

/// Asserts `squillion eval MODEL` runs without error (exit 0: no error-severity warning).
fn evaluates(model_path: &Path) {
    let out = squillion(&["eval", path(model_path)]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
}

/// Returns `n` varied documents: several types per field, missing fields, nested objects,
/// arrays of values and of sub-documents.
fn documents(n: usize, seed: u64) -> Vec<Document> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n)
        .map(|i| {
            let mut id = [0u8; 12];
            rng.fill(&mut id);
            let mut d =
                doc! {"_id": ObjectId::from_bytes(id), "name": "x".repeat(rng.random_range(1..30))};
            if rng.random_bool(0.7) {
                d.insert("age", rng.random_range(0..99i32));
            } else if rng.random_bool(0.5) {
                d.insert("age", 1.5f64);
            }
            if rng.random_bool(0.5) {
                d.insert(
                    "at",
                    DateTime::from_millis(1_700_000_000_000 + i as i64 * 86_400_000),
                );
            }
            let tags: Vec<Bson> = (0..rng.random_range(0..5))
                .map(|t| Bson::String(format!("t{t}")))
                .collect();
            d.insert("tags", tags);
            d.insert(
                "address",
                doc! {"city": "Paris", "zip": rng.random_range(10000..99999i64)},
            );
            let items: Vec<Bson> = (0..rng.random_range(0..4))
                .map(|k| Bson::Document(doc! {"sku": format!("s{k}"), "qty": k}))
                .collect();
            d.insert("items", items);
            d
        })
        .collect()
}

#[test]
fn a_bson_dump_gives_the_model_of_the_same_documents_as_json() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let docs = documents(400, 7);
    let bson_file = dir.path().join("users.bson");
    let json_file = dir.path().join("users.json");
    write_bson(&bson_file, &docs);
    write_json(&json_file, &docs);
    let (from_bson, _) = infer(&[path(&bson_file)], dir.path());
    let (from_json, _) = infer(&[path(&json_file)], dir.path());
    assert_eq!(from_bson, from_json);
    assert_eq!(from_bson.entities[0].name, "users");
    assert!(
        from_bson.entities.iter().any(|e| e.name == "item"),
        "items moved out"
    );
    let a = report(&[path(&bson_file)]);
    let b = report(&[path(&json_file)]);
    assert_eq!(a["entities"], b["entities"]);
    assert_eq!(a["relationships"], b["relationships"]);
    assert_eq!(a["sources"][0]["documents"], 400);
    assert_eq!(a["sources"][0]["collection"], "users");
    let model_path = dir.path().join("inferred.json");
    evaluates(&model_path);
}

#[test]
fn a_truncated_or_corrupt_bson_file_is_reported_at_its_byte_offset() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let docs = documents(10, 8);
    let full = dir.path().join("full.bson");
    let sizes = write_bson(&full, &docs);
    let bytes = std::fs::read(&full).unwrap_or_else(|e| panic!("{e}"));
    let before: usize = sizes.iter().take(9).sum();
    let last = sizes[9];

    // Cut 20 bytes off the last document: nine read, the tenth reported where it starts.
    let cut = dir.path().join("cut.bson");
    std::fs::write(&cut, &bytes[..bytes.len() - 20]).unwrap_or_else(|e| panic!("{e}"));
    let out = squillion(&["infer", path(&cut)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let expected = format!(
        "cut.bson: byte {}: truncated document (declared {} bytes, {} left)",
        thousands(before),
        thousands(last),
        thousands(last - 20)
    );
    assert!(
        stderr(&out).contains(&expected),
        "{}\nexpected {expected}",
        stderr(&out)
    );
    let r = report(&[path(&cut)]);
    assert_eq!(r["sources"][0]["documents"], 9);
    assert_eq!(r["skipped_lines"], 1);
    assert_eq!(r["skipped"][0]["byte"], before);
    assert_eq!(r["skipped"][0]["line"], 10);

    // A length cut in two.
    let half = dir.path().join("half.bson");
    std::fs::write(&half, &bytes[..before + 2]).unwrap_or_else(|e| panic!("{e}"));
    let out = squillion(&["infer", path(&half)]);
    assert!(
        stderr(&out).contains(&format!(
            "half.bson: byte {}: truncated length (2 of 4 bytes left)",
            thousands(before)
        )),
        "{}",
        stderr(&out)
    );

    // An impossible length (below 5, above 16 MiB + 16 KiB) stops the file there.
    for bad in [3u32, 0x7fff_ffff] {
        let file = dir.path().join("bad.bson");
        let mut b = bytes[..before].to_vec();
        b.extend_from_slice(&bad.to_le_bytes());
        b.extend_from_slice(&[0; 64]);
        std::fs::write(&file, &b).unwrap_or_else(|e| panic!("{e}"));
        let out = squillion(&["infer", path(&file)]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(
            stderr(&out).contains(&format!(
                "bad.bson: byte {}: impossible document length",
                thousands(before)
            )),
            "{}",
            stderr(&out)
        );
        assert_eq!(report(&[path(&file)])["sources"][0]["documents"], 9);
    }

    // A document whose length is right but whose content is not BSON is skipped; the rest read.
    let corrupt = dir.path().join("corrupt.bson");
    let mut b = bytes.clone();
    b[sizes[0] + 4] = 0x7e; // the second document's first element type: no such type
    std::fs::write(&corrupt, &b).unwrap_or_else(|e| panic!("{e}"));
    let r = report(&[path(&corrupt)]);
    assert_eq!(r["sources"][0]["documents"], 9);
    assert_eq!(r["skipped"][0]["byte"], sizes[0]);
    assert!(r["skipped"][0]["message"]
        .as_str()
        .unwrap_or_default()
        .starts_with("not a valid BSON document"));

    // Nothing readable: exit 1, nothing written.
    let only = dir.path().join("only.bson");
    std::fs::write(&only, &bytes[..10]).unwrap_or_else(|e| panic!("{e}"));
    let out_path = dir.path().join("never.json");
    let out = squillion(&["infer", path(&only), "--out", path(&out_path)]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(!out_path.exists());
}

/// Returns `n` with thousands separators, as the CLI writes byte offsets.
fn thousands(n: usize) -> String {
    squillion::human::thousands(n as u64)
}

/// mongodump's metadata of a collection with three indexes (canonical Extended JSON).
const METADATA: &str = r#"{"indexes":[{"v":{"$numberInt":"2"},"key":{"_id":{"$numberInt":"1"}},"name":"_id_"},{"v":{"$numberInt":"2"},"key":{"name":{"$numberInt":"1"},"age":{"$numberDouble":"-1.0"}},"name":"name_1_age_-1","unique":true},{"v":{"$numberInt":"2"},"key":{"at":{"$numberInt":"1"}},"name":"at_1","expireAfterSeconds":{"$numberInt":"3600"},"sparse":true}],"uuid":"0f0e0d0c0b0a09080706050403020100","collectionName":"users","type":"collection"}"#;

#[test]
fn metadata_indexes_are_reported_and_a_dump_directory_is_read() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let db = dir.path().join("shop");
    std::fs::create_dir(&db).unwrap_or_else(|e| panic!("{e}"));
    write_bson(&db.join("users.bson"), &documents(50, 1));
    write_bson(&db.join("orders.bson"), &documents(30, 2));
    write_bson(&db.join("system.views.bson"), &documents(3, 3));
    std::fs::write(db.join("users.metadata.json"), METADATA).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(db.join("notes.txt"), "not a dump").unwrap_or_else(|e| panic!("{e}"));

    let r = report(&[path(&db)]);
    let names: Vec<&str> = r["entities"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|e| e["name"].as_str())
        .collect();
    assert_eq!(
        names,
        ["orders", "users"],
        "by file name, system.* left out"
    );
    let indexes = r["indexes"].as_array().cloned().unwrap_or_default();
    assert_eq!(indexes.len(), 3);
    assert_eq!(indexes[1]["name"], "name_1_age_-1");
    assert_eq!(indexes[1]["collection"], "users");
    assert_eq!(indexes[1]["unique"], true);
    assert_eq!(
        indexes[1]["key"][1],
        serde_json::json!({"field": "age", "kind": "-1"})
    );
    assert_eq!(indexes[2]["expire_after_seconds"], 3600.0);
    assert_eq!(indexes[2]["sparse"], true);

    let (model, summary) = infer(&[path(&db)], dir.path());
    assert!(
        summary.contains("index name_1_age_-1 on users {name: 1, age: -1} unique"),
        "{summary}"
    );
    assert_eq!(
        model.entities.iter().filter(|e| e.name == "users").count(),
        1
    );
    evaluates(&dir.path().join("inferred.json"));

    // One file with its metadata beside it; without the metadata, no indexes.
    let r = report(&[path(&db.join("users.bson"))]);
    assert_eq!(r["indexes"].as_array().map(Vec::len), Some(3));
    assert!(report(&[path(&db.join("orders.bson"))])
        .get("indexes")
        .is_none());

    // A directory named with :collection, a directory without .bson files, bad metadata.
    let out = squillion(&["infer", &format!("{}:x", path(&db))]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let out = squillion(&["infer", path(dir.path())]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("one directory per database"),
        "{}",
        stderr(&out)
    );
    std::fs::write(db.join("users.metadata.json"), r#"{"indexes": 3}"#)
        .unwrap_or_else(|e| panic!("{e}"));
    let out = squillion(&["infer", path(&db)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("\"indexes\" is not an array"),
        "{}",
        stderr(&out)
    );
}

/// A schema with every mapped type, nullable columns, a composite key, column and table
/// foreign keys, a junction table, an ALTER TABLE foreign key, an index, and statements to
/// skip.
const SCHEMA: &str = "-- a shop
CREATE TABLE users (
  id SERIAL PRIMARY KEY,
  email VARCHAR(255) NOT NULL UNIQUE,
  code CHAR(8) NOT NULL,
  bio TEXT,
  small SMALLINT NOT NULL,
  whole INTEGER NOT NULL,
  huge BIGINT NOT NULL,
  exact DECIMAL(10,2) NOT NULL,
  num NUMERIC NOT NULL,
  r REAL NOT NULL,
  f FLOAT NOT NULL,
  d DOUBLE PRECISION NOT NULL,
  ok BOOLEAN NOT NULL,
  born DATE NOT NULL,
  seen TIMESTAMP NOT NULL,
  picture BLOB NOT NULL,
  raw BYTEA NOT NULL,
  hash VARBINARY(32) NOT NULL,
  token UUID NOT NULL,
  prefs JSONB NOT NULL,
  nickname VARCHAR(40)
);
CREATE TABLE roles (id INT PRIMARY KEY, label VARCHAR(20) NOT NULL);
CREATE TABLE user_roles (
  user_id INT NOT NULL REFERENCES users (id),
  role_id INT NOT NULL,
  granted_at TIMESTAMP NOT NULL,
  PRIMARY KEY (user_id, role_id),
  FOREIGN KEY (role_id) REFERENCES roles (id)
);
CREATE TABLE orders (
  id BIGINT PRIMARY KEY,
  user_id INT NOT NULL,
  placed TIMESTAMP NOT NULL,
  total DECIMAL(12,2) NOT NULL,
  CONSTRAINT fk_user FOREIGN KEY (user_id) REFERENCES users (id)
);
CREATE TABLE order_lines (
  order_id BIGINT NOT NULL,
  line_no SMALLINT NOT NULL,
  qty INT NOT NULL,
  note VARCHAR(100),
  PRIMARY KEY (order_id, line_no)
);
CREATE TABLE favourites (
  user_id INT NOT NULL REFERENCES users (id),
  order_id BIGINT NOT NULL REFERENCES orders (id),
  rank INT NOT NULL,
  PRIMARY KEY (user_id, order_id)
);
ALTER TABLE order_lines ADD CONSTRAINT fk_order FOREIGN KEY (order_id) REFERENCES orders (id);
CREATE INDEX orders_placed ON orders (placed);
INSERT INTO roles VALUES (1, 'admin');
";

#[test]
fn a_sql_schema_becomes_entities_and_relationships() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let file = dir.path().join("shop.sql");
    std::fs::write(&file, SCHEMA).unwrap_or_else(|e| panic!("{e}"));
    let (model, summary) = infer(
        &[
            path(&file),
            "--count",
            "orders=5000",
            "--count",
            "user_roles=3000",
            "--count",
            "roles=1000",
        ],
        dir.path(),
    );
    // CREATE INDEX is skipped; the INSERT is a row of roles (its count without --count).
    assert!(summary.contains("1 statement skipped"), "{summary}");
    evaluates(&dir.path().join("inferred.json"));

    let names: Vec<&str> = model.entities.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(
        names,
        ["users", "roles", "orders", "order_lines"],
        "a junction is no entity, with data of its own (favourites' rank) or not"
    );
    let fav = model.relationships.iter().find(|r| r.name == "favourites");
    assert_eq!(
        fav.map(|r| (r.parent.as_str(), r.child.as_str(), r.many_to_many)),
        Some(("users", "orders", true)),
        "{:?}",
        model.relationships
    );
    assert!(
        summary.contains("  link attributes not carried into the model: rank\n"),
        "{summary}"
    );
    let users = &model.entities[0];
    assert_eq!(users.count, 1000.0, "the default count");
    assert_eq!(model.entities[2].count, 5000.0);
    let field = |name: &str| {
        users
            .fields
            .get(name)
            .unwrap_or_else(|| panic!("no {name}"))
    };
    // The integer primary key is _id, a sequence, first.
    assert_eq!(users.fields.0[0].0, "_id");
    assert_eq!(field("_id").ty, BsonType::Int);
    assert_eq!(field("_id").kind, Some(ValueKind::Sequence));
    assert!(users.fields.get("id").is_none());
    for (name, ty) in [
        ("email", BsonType::String),
        ("code", BsonType::String),
        ("bio", BsonType::String),
        ("small", BsonType::Int),
        ("whole", BsonType::Int),
        ("huge", BsonType::Long),
        ("exact", BsonType::Decimal),
        ("num", BsonType::Decimal),
        ("r", BsonType::Double),
        ("f", BsonType::Double),
        ("d", BsonType::Double),
        ("ok", BsonType::Bool),
        ("born", BsonType::Date),
        ("seen", BsonType::Date),
        ("picture", BsonType::BinData),
        ("raw", BsonType::BinData),
        ("hash", BsonType::BinData),
        ("token", BsonType::BinData),
        ("prefs", BsonType::Object),
        ("nickname", BsonType::String),
    ] {
        assert_eq!(field(name).ty, ty, "{name}");
    }
    assert_eq!(
        field("code").length,
        Some(Distribution::Fixed { value: 8.0 })
    );
    assert_eq!(
        field("token").length,
        Some(Distribution::Fixed { value: 16.0 })
    );
    assert_eq!(
        field("email").length,
        Some(Distribution::Lognormal {
            typical: 32.0,
            p99: 192.0,
            max: 255.0
        })
    );
    assert_eq!(
        field("bio").length,
        Some(Distribution::Lognormal {
            typical: 32.0,
            p99: 1024.0,
            max: 65535.0
        })
    );
    // Nullable columns are sometimes missing; NOT NULL ones always there.
    assert_eq!(field("bio").presence, Some(0.9));
    assert_eq!(field("nickname").presence, Some(0.9));
    assert_eq!(field("email").presence, None);

    // Foreign keys: one-to-many, the parent the referenced table, the key the reference.
    let rel = |name: &str| {
        model
            .relationships
            .iter()
            .find(|r| r.name == name)
            .unwrap_or_else(|| panic!("no {name}: {:?}", model.relationships))
    };
    let orders = rel("orders");
    assert_eq!(
        (orders.parent.as_str(), orders.child.as_str()),
        ("users", "orders")
    );
    assert_eq!(orders.parent_field.as_deref(), Some("user_id"));
    assert!(!orders.many_to_many);
    // 5,000 orders of 1,000 users: 5 per user, uniform 2 to 8.
    assert_eq!(
        orders.cardinality,
        Distribution::Uniform { min: 2.0, max: 8.0 }
    );
    assert!(
        model.entities[2].fields.get("user_id").is_none(),
        "the reference is the relationship's"
    );
    let lines = rel("order_lines");
    assert_eq!(
        (lines.parent.as_str(), lines.child.as_str()),
        ("orders", "order_lines")
    );
    // The composite key stays as fields; _id is an ObjectId.
    let ol = &model.entities[3];
    assert!(ol.fields.get("_id").is_none());
    assert_eq!(ol.fields.get("line_no").map(|f| f.ty), Some(BsonType::Int));
    // The junction: many-to-many between the tables it joins.
    let ur = rel("user_roles");
    assert!(ur.many_to_many);
    assert_eq!((ur.parent.as_str(), ur.child.as_str()), ("users", "roles"));
    assert_eq!(ur.cardinality, Distribution::Uniform { min: 1.0, max: 5.0 });
    assert_eq!(
        ur.parents_per_child,
        Some(Distribution::Uniform { min: 1.0, max: 5.0 })
    );

    let r = report(&[path(&file)]);
    assert_eq!(r["skipped_statements"], 1);
    let roles = r["tables"]
        .as_array()
        .and_then(|t| t.iter().find(|t| t["name"] == "roles"))
        .unwrap_or_else(|| panic!("no roles"));
    assert_eq!(
        (roles["rows"].as_u64(), roles["count"].as_f64()),
        (Some(1), Some(1.0))
    );
    assert_eq!(r["tables"][2]["became"], "many_to_many");
    assert_eq!(
        r["tables"][2]["link_attributes"],
        serde_json::json!(["granted_at"])
    );
    assert_eq!(r["tables"][4]["became"], "entity");
    assert_eq!(r["tables"][5]["became"], "many_to_many");
    assert_eq!(
        r["tables"][5]["link_attributes"],
        serde_json::json!(["rank"])
    );
    let indexes: Vec<&str> = r["indexes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|i| i["origin"].as_str())
        .collect();
    assert_eq!(
        indexes,
        ["primary key", "primary key", "primary key", "create index"]
    );
    assert_eq!(r["sources"][0]["dialect"], "generic");
    assert_eq!(r["tables"][0]["columns"][0]["field"], "_id");

    // compare runs every design on it.
    let out = squillion(&["compare", path(&dir.path().join("inferred.json"))]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
}

#[test]
fn sql_errors_say_where_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let file = dir.path().join("bad.sql");
    std::fs::write(
        &file,
        "CREATE TABLE a (\n  id INT PRIMARY KEY,\n  x VARCHAR(10) NOT NULL\n  y INT\n);\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let out_path = dir.path().join("never.json");
    let out = squillion(&["infer", path(&file), "--out", path(&out_path)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "bad.sql: line 4, column 3: Expected: ',' or ')' after column definition, found: y"
        ),
        "{}",
        stderr(&out)
    );
    assert!(!out_path.exists());

    // Nesting past the parser's limit is an error, not a stack overflow.
    let deep = dir.path().join("deep.sql");
    let text = format!(
        "CREATE TABLE t (c INT DEFAULT {}1{});",
        "(".repeat(5000),
        ")".repeat(5000)
    );
    std::fs::write(&deep, text).unwrap_or_else(|e| panic!("{e}"));
    let out = squillion(&["infer", path(&deep)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("deep.sql: recursion limit exceeded"),
        "{}",
        stderr(&out)
    );

    // No table: nothing inferred (exit 1); a count naming no table, an unknown dialect: 2.
    let empty = dir.path().join("empty.sql");
    std::fs::write(&empty, "-- nothing\nINSERT INTO a VALUES (1);\n")
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(squillion(&["infer", path(&empty)]).status.code(), Some(1));
    let ok = dir.path().join("ok.txt");
    std::fs::write(&ok, "CREATE TABLE a (id INT PRIMARY KEY);").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        squillion(&["infer", path(&ok), "--sql", "--count", "b=3"])
            .status
            .code(),
        Some(2)
    );
    let out = squillion(&["infer", path(&ok), "--sql", "--dialect", "klingon"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("unknown SQL dialect"),
        "{}",
        stderr(&out)
    );
    // SQL and documents are not mixed; --dialect is for SQL.
    let docs = dir.path().join("a.json");
    std::fs::write(&docs, "{\"a\": 1}\n").unwrap_or_else(|e| panic!("{e}"));
    let out = squillion(&["infer", path(&docs), "--dialect", "mysql"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--dialect applies to SQL"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        squillion(&["infer", path(&docs), path(&dir.path().join("x.sql"))])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn a_mysql_dump_parses_in_its_dialect() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let file = dir.path().join("my.sql");
    std::fs::write(
        &file,
        "CREATE TABLE `posts` (\n  `id` int unsigned NOT NULL AUTO_INCREMENT,\n  `flag` tinyint(1) NOT NULL,\n  \
         `kind` enum('draft','live') NOT NULL,\n  PRIMARY KEY (`id`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let (model, _) = infer(&[path(&file)], dir.path());
    let posts = &model.entities[0];
    assert_eq!(
        posts.fields.get("_id").map(|f| f.ty),
        Some(BsonType::Long),
        "int unsigned may exceed int32"
    );
    assert_eq!(posts.fields.get("flag").map(|f| f.ty), Some(BsonType::Bool));
    let kind = posts
        .fields
        .get("kind")
        .unwrap_or_else(|| panic!("no kind"));
    assert_eq!(kind.kind, Some(ValueKind::Enum));
    assert_eq!(kind.values, ["draft", "live"]);
    evaluates(&dir.path().join("inferred.json"));
}

#[test]
fn the_core_reads_sql_text_without_io() {
    use squillion::infer::sql::{infer_sql, SqlError, SqlInput};
    use std::collections::BTreeMap;
    // Two inputs are one schema: a foreign key may reference a table of another input.
    let a = "CREATE TABLE accounts (id UUID PRIMARY KEY, name VARCHAR(3) NOT NULL);";
    let b = "CREATE TABLE sessions (token CHAR(32) PRIMARY KEY, account UUID NOT NULL REFERENCES accounts (id));";
    let inputs = [
        SqlInput {
            source: "a.sql",
            text: a,
        },
        SqlInput {
            source: "b.sql",
            text: b,
        },
    ];
    let counts = BTreeMap::from([("sessions".to_string(), 250.0)]);
    let inferred =
        infer_sql(&inputs, Some("postgresql"), &counts).unwrap_or_else(|e| panic!("{e}"));
    let model = &inferred.model;
    let id = model.entities[0]
        .fields
        .get("_id")
        .unwrap_or_else(|| panic!("no _id"));
    assert_eq!(
        id.ty,
        BsonType::BinData,
        "a UUID key is _id of its own type"
    );
    assert_eq!(id.length, Some(Distribution::Fixed { value: 16.0 }));
    assert_eq!(id.kind, None);
    assert_eq!(
        model.entities[0]
            .fields
            .get("name")
            .and_then(|f| f.length.clone()),
        Some(Distribution::Uniform { min: 1.0, max: 3.0 })
    );
    let session_id = model.entities[1]
        .fields
        .get("_id")
        .unwrap_or_else(|| panic!("no _id"));
    assert_eq!(session_id.length, Some(Distribution::Fixed { value: 32.0 }));
    let rel = &model.relationships[0];
    assert_eq!(
        (rel.parent.as_str(), rel.child.as_str()),
        ("accounts", "sessions")
    );
    // 250 sessions of 1,000 accounts: 0.25 per account, uniform 0 to 1.
    assert_eq!(
        rel.cardinality,
        Distribution::Uniform { min: 0.0, max: 1.0 }
    );
    assert_eq!(inferred.report.sources[1].dialect, "postgresql");
    let json = serde_json::to_string(model).unwrap_or_else(|e| panic!("{e}"));
    assert!(parse_model(&json).is_ok(), "{json}");

    // A count of zero children: fixed 0; a duplicate table: an error naming the input.
    let zero = BTreeMap::from([("sessions".to_string(), 0.0)]);
    let m = infer_sql(&inputs, None, &zero).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        m.model.relationships[0].cardinality,
        Distribution::Fixed { value: 0.0 }
    );
    let twice = [
        SqlInput {
            source: "a.sql",
            text: a,
        },
        SqlInput {
            source: "c.sql",
            text: a,
        },
    ];
    match infer_sql(&twice, None, &BTreeMap::new()) {
        Err(e @ SqlError::DuplicateTable { .. }) => {
            assert_eq!(e.to_string(), "c.sql: table \"accounts\" is created twice")
        }
        other => panic!("{other:?}"),
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    /// Any bytes as a .bson file: no panic, every document read or skipped at an offset inside
    /// the file.
    #[test]
    fn any_bytes_as_bson_never_panic(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..600), cut in 0usize..600) {
        let mut inference = squillion::infer::Inference::new();
        // Real documents, then the arbitrary bytes, cut anywhere.
        let mut data = bson::serialize_to_vec(&doc! {"a": 1, "b": "x"}).unwrap_or_default();
        data.extend_from_slice(&bytes);
        data.truncate(cut.max(1).min(data.len()));
        let summary = inference.read_bson("c", "any.bson", data.as_slice());
        proptest::prop_assert!(summary.is_ok());
        let (skipped, _) = inference.skipped();
        for s in skipped {
            proptest::prop_assert!(s.byte.unwrap_or(u64::MAX) < data.len() as u64);
        }
    }

    /// Any text as SQL: a model or an error, no panic.
    #[test]
    fn any_text_as_sql_never_panics(text in "(CREATE TABLE t ?\\(|[a-z_]{1,8}|INT|VARCHAR\\(9\\)|PRIMARY KEY|REFERENCES t ?\\(a\\)|[(),; ]){0,40}") {
        let inputs = [squillion::infer::sql::SqlInput { source: "x.sql", text: &text }];
        let _ = squillion::infer::sql::infer_sql(&inputs, None, &Default::default());
    }
}
