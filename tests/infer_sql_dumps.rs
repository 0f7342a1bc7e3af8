//! SQL dumps made by the real tools (tests/fixtures/sql/README.md says how): each is read with
//! no failure and gives its tables, primary and foreign keys, its rows as counts, and the
//! statements that are not tables skipped and reported at their lines.

use std::collections::BTreeMap;

use squillion::infer::sql::{infer_sql, SqlInferred, SqlInput};

/// Returns the model and report of one fixture, read without `--dialect` or `--count`.
fn read(name: &str) -> SqlInferred {
    let path = format!("{}/tests/fixtures/sql/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let input = [SqlInput {
        source: name,
        text: &text,
    }];
    infer_sql(&input, None, &BTreeMap::new()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Returns each table's count, by name.
fn counts(s: &SqlInferred) -> BTreeMap<&str, f64> {
    s.report
        .tables
        .iter()
        .map(|t| (t.name.as_str(), t.count))
        .collect()
}

/// Asserts that a statement starting at `line` and naming `word` was skipped, read and not
/// a table (no error).
fn skipped_at(s: &SqlInferred, line: u64, word: &str) {
    let found = s
        .report
        .skipped
        .iter()
        .any(|k| k.line == line && k.statement.contains(word) && k.error.is_none());
    assert!(
        found,
        "no {word} skipped at line {line}: {:#?}",
        s.report.skipped
    );
}

/// Asserts that no statement failed to parse.
fn nothing_unread(s: &SqlInferred) {
    let unread: Vec<_> = s
        .report
        .skipped
        .iter()
        .filter(|k| k.error.is_some())
        .collect();
    assert!(unread.is_empty(), "{unread:#?}");
}

/// Asserts the store's tables, keys and relationships (`with_products`: the products table
/// and its key, absent from the SQL Server script).
fn store_schema(s: &SqlInferred, with_products: bool) {
    let mut names: Vec<&str> = s.report.tables.iter().map(|t| t.name.as_str()).collect();
    names.sort_unstable();
    let mut want = vec!["actor", "customers", "film", "film_actor", "orders"];
    if with_products {
        want.extend(["order_items", "products"]);
    }
    want.sort_unstable();
    assert_eq!(names, want);
    for entity in ["customers", "orders", "actor", "film"] {
        let e = s
            .model
            .entities
            .iter()
            .find(|e| e.name == entity)
            .unwrap_or_else(|| panic!("no entity {entity}"));
        assert!(e.fields.get("_id").is_some(), "{entity}: its key is _id");
    }
    let rel = |parent: &str, child: &str, many: bool| {
        s.report
            .relationships
            .iter()
            .any(|r| r.parent == parent && r.child == child && r.many_to_many == many)
    };
    assert!(
        rel("customers", "orders", false),
        "{:#?}",
        s.report.relationships
    );
    assert!(rel("actor", "film", true), "film_actor: a junction table");
    let composite = |table: &str| {
        s.report
            .indexes
            .iter()
            .any(|i| i.table == table && i.origin == "primary key" && i.columns.len() == 2)
    };
    assert!(composite("film_actor"));
    if with_products {
        assert!(rel("orders", "order_items", false));
        assert!(rel("products", "order_items", false));
        assert!(composite("order_items"));
    }
}

/// The rows of the store in every tool's dump.
const STORE_ROWS: [(&str, f64); 7] = [
    ("actor", 30.0),
    ("customers", 60.0),
    ("film", 40.0),
    ("film_actor", 150.0),
    ("order_items", 475.0),
    ("orders", 200.0),
    ("products", 20.0),
];

#[test]
fn pg_dump_plain_with_copy_rows() {
    let s = read("postgresql-store.sql");
    nothing_unread(&s);
    store_schema(&s, true);
    assert_eq!(counts(&s), BTreeMap::from(STORE_ROWS));
    assert_eq!(s.report.sources[0].dialect, "postgresql");
    skipped_at(&s, 5, "\\restrict");
    skipped_at(&s, 25, "CREATE FUNCTION");
    skipped_at(&s, 115, "CREATE VIEW");
    skipped_at(&s, 1241, "CREATE TRIGGER");
}

#[test]
fn mysqldump_with_delimiters_version_comments_and_routines() {
    let s = read("mariadb-store.sql");
    nothing_unread(&s);
    store_schema(&s, true);
    assert_eq!(counts(&s), BTreeMap::from(STORE_ROWS));
    assert_eq!(s.report.sources[0].dialect, "mysql");
    skipped_at(&s, 918, "CREATE VIEW");
    skipped_at(&s, 1160, "TRIGGER");
    skipped_at(&s, 1230, "FUNCTION");
    skipped_at(&s, 1251, "PROCEDURE");
}

#[test]
fn a_mysql_schema_file_with_binary_columns_and_a_delimiter() {
    let s = read("mariadb-store-schema.sql");
    nothing_unread(&s);
    store_schema(&s, true);
    let products = s.model.entities.iter().find(|e| e.name == "products");
    assert!(
        products.is_some_and(|p| p.fields.get("sku").is_some()),
        "VARCHAR(40) BINARY is a string column"
    );
    skipped_at(&s, 70, "CREATE VIEW");
    skipped_at(&s, 74, "CREATE TRIGGER");
    skipped_at(&s, 77, "CREATE PROCEDURE");
    skipped_at(&s, 81, "CREATE FUNCTION");
}

#[test]
fn sqlite3_dump_and_schema() {
    let s = read("sqlite-store.dump.sql");
    nothing_unread(&s);
    store_schema(&s, true);
    assert_eq!(counts(&s), BTreeMap::from(STORE_ROWS));
    skipped_at(&s, 1027, "CREATE VIEW");
    skipped_at(&s, 1029, "CREATE TRIGGER");
    let products = s.model.entities.iter().find(|e| e.name == "products");
    assert!(
        products.is_some_and(|p| p.fields.get("description").is_some()),
        "BLOB SUB_TYPE TEXT is a column"
    );

    let s = read("sqlite-store.schema.sql");
    nothing_unread(&s);
    store_schema(&s, true);
    assert!(counts(&s)
        .values()
        .all(|&c| c == squillion::infer::sql::DEFAULT_COUNT));
    skipped_at(&s, 49, "CREATE VIEW");
    skipped_at(&s, 52, "CREATE TRIGGER");
}

#[test]
fn a_sql_server_script_with_go_batches() {
    let s = read("mssql-store.sql");
    nothing_unread(&s);
    store_schema(&s, false);
    assert_eq!(s.report.sources[0].dialect, "mssql");
    let c = counts(&s);
    assert_eq!(
        (c.get("customers"), c.get("orders"), c.get("film_actor")),
        (Some(&3.0), Some(&4.0), Some(&3.0))
    );
    skipped_at(&s, 61, "CREATE PROCEDURE");
    skipped_at(&s, 68, "CREATE VIEW");
    assert!(s
        .report
        .indexes
        .iter()
        .any(|i| i.name.as_deref() == Some("orders_by_customer")));
}
