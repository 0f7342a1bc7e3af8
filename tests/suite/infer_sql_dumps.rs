//! SQL dumps made by the real tools (tests/fixtures/sql/README.md says how): each is read with
//! no failure and gives its tables, primary and foreign keys, its rows as counts, and the
//! statements that are not tables skipped and reported at their lines; the rows give each
//! relationship's distribution, each column's presence, lengths and enums. Hand-built SQL
//! checks junction tables with attributes and hostile rows.

use std::collections::BTreeMap;

use squillion::infer::sql::{infer_sql, ColumnReport, SqlInferred, SqlInput};
use squillion::model::{Distribution, Field, ValueKind};

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

#[test]
fn a_sql_server_script_whose_batches_have_no_semicolons() {
    let s = read("mssql-store-batches.sql");
    nothing_unread(&s);
    store_schema(&s, false);
    assert_eq!(s.report.sources[0].dialect, "mssql");
    // The rows between SET IDENTITY_INSERT … ON and OFF, one INSERT a line; an INSERT after
    // the tables of its batch; not the INSERT of the procedure's body, nor a line of a string
    // that starts with INSERT.
    let c = counts(&s);
    assert_eq!(
        (
            c.get("customers"),
            c.get("orders"),
            c.get("actor"),
            c.get("film"),
            c.get("film_actor")
        ),
        (Some(&3.0), Some(&4.0), Some(&2.0), Some(&2.0), Some(&3.0))
    );
    // Each statement skipped at its own line inside its batch.
    skipped_at(&s, 8, "SET ANSI_NULLS");
    skipped_at(&s, 9, "SET QUOTED_IDENTIFIER");
    skipped_at(&s, 60, "ALTER TABLE");
    skipped_at(&s, 70, "CREATE PROCEDURE");
    skipped_at(&s, 78, "SET IDENTITY_INSERT");
    assert!(s
        .report
        .indexes
        .iter()
        .any(|i| i.name.as_deref() == Some("orders_by_customer")));
}

#[test]
fn postgresql_escape_strings_are_read_unescaped() {
    let s = read("postgresql-escapes.sql");
    nothing_unread(&s);
    assert_eq!(s.report.sources[0].dialect, "postgresql");
    assert_eq!(counts(&s).get("notes"), Some(&4.0));
    // The byte lengths PostgreSQL 15 gave (`octet_length`, tests/fixtures/sql/README.md):
    // titles 4, 11 and 3 (`E'it\'s'`, `E'semi;colon\\'`, the standard `'C:\'`), bodies 3,
    // 12, 20 and 1 (`E'a\nb'`; `\t`, `\x41`, `\101` and `\u00e9` one, one, one and two
    // bytes; `\r\n` and two `\'`; `E'\\'`), tags 5 and 3 (`E'q''s'`).
    let lengths = |c: &str| {
        let l = column(&s, "notes", c)
            .length
            .clone()
            .unwrap_or_else(|| panic!("no lengths of {c}"));
        (l.values, l.min, l.max)
    };
    assert_eq!(lengths("title"), (3, 3, 11));
    assert_eq!(lengths("body"), (4, 1, 20));
    assert_eq!(lengths("tag"), (2, 3, 5));
    let body = column(&s, "notes", "body").length.clone();
    assert_eq!(body.map(|l| l.mean), Some(9.0));
}

/// Returns the relationship report named `name`.
fn relationship<'a>(
    s: &'a SqlInferred,
    name: &str,
) -> &'a squillion::infer::sql::SqlRelationshipReport {
    s.report
        .relationships
        .iter()
        .find(|r| r.name == name)
        .unwrap_or_else(|| panic!("no relationship {name}: {:#?}", s.report.relationships))
}

/// Returns the report of column `column` of table `table`.
fn column<'a>(s: &'a SqlInferred, table: &str, column: &str) -> &'a ColumnReport {
    s.report
        .tables
        .iter()
        .find(|t| t.name == table)
        .and_then(|t| t.columns.iter().find(|c| c.name == column))
        .unwrap_or_else(|| panic!("no column {table}.{column}"))
}

/// Returns the model field `field` of entity `entity`.
fn field<'a>(s: &'a SqlInferred, entity: &str, field: &str) -> &'a Field {
    s.model
        .entities
        .iter()
        .find(|e| e.name == entity)
        .and_then(|e| e.fields.get(field))
        .unwrap_or_else(|| panic!("no field {entity}.{field}"))
}

/// The figures the store's rows give, the same in the dumps of pg_dump, mysqldump and
/// sqlite3. Expected values computed from the fixture, not from squillion: an awk over
/// `postgresql-store.sql`'s COPY data, e.g. for orders per customer
/// `awk -F'\t' '{n[$2]++} END{for(k in n) c[n[k]]++; for(v in c) print v, c[v]}'` on the
/// rows of `COPY public.orders` prints `3 45` and `13 5`: 50 customers named, so 10 of the
/// 60 with none; 45·3 + 5·13 = 200 orders; sorted, the 30th value (median) is 3 and the
/// 60th (p99: rank ⌈0.99·60⌉) is 13. The same over film_actor: every actor has 5 films;
/// films have 1 actor (2 films), 2 (8), 3 (6), 4 (6), 5 (18): 150 links over 40 films, 3.75.
/// NULLs (`\N`): customers.phone 15 of 60, film.release_year 8 of 40, orders.note 180 of
/// 200; orders.status is new, paid, returned, shipped, 50 each; orders.ordered_at's days run
/// from 2024-03-01 to 2024-04-11 (`substr($3,1,10)`, sorted).
#[test]
fn rows_give_cardinalities_presences_lengths_and_enums() {
    for name in [
        "postgresql-store.sql",
        "mariadb-store.sql",
        "sqlite-store.dump.sql",
    ] {
        let s = read(name);
        let orders = relationship(&s, "orders");
        let o = orders.per_parent.as_ref().expect("orders from rows");
        assert_eq!(
            (o.values, o.min, o.median, o.p99, o.max),
            (60, 0, 3, 13, 13),
            "{name}"
        );
        assert!((o.mean - 200.0 / 60.0).abs() < 1e-9, "{name}: {o:?}");
        assert!((orders.children_per_parent - 200.0 / 60.0).abs() < 1e-9);
        let fitted = &s
            .model
            .relationships
            .iter()
            .find(|r| r.name == "orders")
            .expect("orders")
            .cardinality;
        assert_eq!(
            (fitted.min(), fitted.max()),
            (0.0, 13.0),
            "{name}: {fitted:?}"
        );
        assert!(
            (fitted.mean() - 200.0 / 60.0).abs() < 0.2 * 200.0 / 60.0,
            "{name}: {fitted:?} mean {}",
            fitted.mean()
        );

        let fa = relationship(&s, "film_actor");
        assert!(fa.many_to_many, "{name}");
        let per_actor = fa.per_parent.as_ref().expect("links per actor");
        assert_eq!((per_actor.values, per_actor.min, per_actor.max), (30, 5, 5));
        let per_film = fa.per_child.as_ref().expect("links per film");
        assert_eq!((per_film.values, per_film.min, per_film.max), (40, 1, 5));
        assert!((per_film.mean - 3.75).abs() < 1e-9, "{name}: {per_film:?}");
        let model_fa = s
            .model
            .relationships
            .iter()
            .find(|r| r.name == "film_actor")
            .expect("film_actor");
        assert_eq!(model_fa.cardinality, Distribution::fixed(5.0), "{name}");
        let ppc = model_fa
            .parents_per_child
            .as_ref()
            .expect("parents per child");
        assert_eq!(ppc.max(), 5.0, "{name}: {ppc:?}");
        assert!((ppc.mean() - 3.75).abs() < 0.1 * 3.75, "{name}: {ppc:?}");
        let film_actor = s.report.tables.iter().find(|t| t.name == "film_actor");
        assert_eq!(
            film_actor.map(|t| t.link_attributes.clone()),
            Some(vec!["last_update".to_string()]),
            "{name}"
        );

        let items = relationship(&s, "order_items");
        let per_order = items.per_parent.as_ref().expect("items per order");
        assert_eq!(
            (per_order.values, per_order.min, per_order.max),
            (200, 1, 4)
        );
        assert!((per_order.mean - 475.0 / 200.0).abs() < 1e-9);

        // NULLs make optional fields; a nullable column always set stays required.
        for (table, col, presence) in [
            ("customers", "phone", 0.75),
            ("film", "release_year", 0.8),
            ("orders", "note", 0.1),
        ] {
            assert!(
                (column(&s, table, col).presence - presence).abs() < 1e-9,
                "{name}: {table}.{col}"
            );
            assert_eq!(field(&s, table, col).presence, Some(presence), "{name}");
        }
        assert_eq!(field(&s, "customers", "email").presence, None, "{name}");
        // Lengths from the values: every phone is 11 bytes (`+1-555-0001`).
        let phone = column(&s, "customers", "phone");
        let length = phone.length.as_ref().expect("phone lengths");
        assert_eq!((length.values, length.min, length.max), (45, 11, 11));
        assert_eq!(
            field(&s, "customers", "phone").length,
            Some(Distribution::fixed(11.0))
        );
        let ordered = field(&s, "orders", "ordered_at");
        assert_eq!(
            (ordered.kind, ordered.from.as_deref(), ordered.to.as_deref()),
            (
                Some(ValueKind::DateRange),
                Some("2024-03-01"),
                Some("2024-04-11")
            ),
            "{name}"
        );
        let status = field(&s, "orders", "status");
        assert_eq!(status.kind, Some(ValueKind::Enum), "{name}");
        let mut values = status.values.clone();
        values.sort();
        assert_eq!(values, ["new", "paid", "returned", "shipped"], "{name}");
    }
}

/// Returns the model and report of SQL text read in `dialect` with `counts`.
fn infer_text(text: &str, dialect: Option<&str>, counts: &[(&str, f64)]) -> SqlInferred {
    let counts: BTreeMap<String, f64> = counts.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    infer_sql(
        &[SqlInput {
            source: "test.sql",
            text,
        }],
        dialect,
        &counts,
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_junction_table_with_attributes_is_many_to_many_from_its_rows() {
    // Three students, two courses; enrollments (1,1), (1,2), (2,1): per student 2, 1, 0; per
    // course 2, 1. The grade and credits are link attributes the model cannot carry.
    let text = "CREATE TABLE student (id INT PRIMARY KEY, name VARCHAR(20), nick VARCHAR(20));
CREATE TABLE course (id INT PRIMARY KEY, title VARCHAR(40) NOT NULL);
CREATE TABLE enrollment (
  student_id INT NOT NULL REFERENCES student(id),
  course_id INT NOT NULL REFERENCES course(id),
  grade CHAR(2),
  credits INT NOT NULL,
  PRIMARY KEY (student_id, course_id)
);
INSERT INTO student VALUES (1, 'Ann', NULL), (2, 'Bo', 'b');
INSERT INTO student (id, nick) VALUES (3, 'c');
INSERT INTO course VALUES (1, 'Algebra'), (2, 'Botany');
INSERT INTO enrollment (course_id, student_id, grade, credits) VALUES (1, 1, 'A', 5), (2, 1, NULL, 3), (1, 2, 'B+', 5);
";
    let s = infer_text(text, None, &[]);
    let r = relationship(&s, "enrollment");
    assert!(r.many_to_many);
    assert_eq!((r.parent.as_str(), r.child.as_str()), ("student", "course"));
    let per_student = r.per_parent.as_ref().expect("from rows");
    assert_eq!(
        (per_student.values, per_student.min, per_student.max),
        (3, 0, 2)
    );
    assert!((per_student.mean - 1.0).abs() < 1e-9);
    let per_course = r.per_child.as_ref().expect("from rows");
    assert_eq!(
        (per_course.values, per_course.min, per_course.max),
        (2, 1, 2)
    );
    assert_eq!(r.parents_per_child, Some(1.5));
    assert!(!s.model.entities.iter().any(|e| e.name == "enrollment"));
    let t = s.report.tables.iter().find(|t| t.name == "enrollment");
    assert_eq!(
        t.map(|t| (t.became, t.link_attributes.clone())),
        Some((
            "many_to_many",
            vec!["grade".to_string(), "credits".to_string()]
        ))
    );
    // The columns an INSERT does not name, and NULLs, are missing: name 2 of 3, nick 2 of 3
    // (at the three significant digits a computed parameter keeps).
    let name = field(&s, "student", "name");
    assert_eq!(name.presence, Some(0.667), "{name:?}");
    let nick = field(&s, "student", "nick");
    assert_eq!(nick.presence, Some(0.667), "{nick:?}");
    assert_eq!(field(&s, "course", "title").presence, None);

    // `--count` sets the counts; the distribution stays the rows'.
    let scaled = infer_text(text, None, &[("student", 3000.0), ("enrollment", 3000.0)]);
    let e = scaled.model.entities.iter().find(|e| e.name == "student");
    assert_eq!(e.map(|e| e.count), Some(3000.0));
    assert_eq!(relationship(&scaled, "enrollment").per_parent, r.per_parent);
}

#[test]
fn hostile_rows_end_with_a_report_in_bounded_memory() {
    // 200,000 child rows, one INSERT each (as sqlite3 writes them) and in MySQL's multi-row
    // form: 1,000 parents with 200 children each, by construction.
    let mut text =
        String::from("CREATE TABLE p (id INT PRIMARY KEY);\nCREATE TABLE c (id INT PRIMARY KEY, p_id INT REFERENCES p(id), t VARCHAR(9));\n");
    for i in 1..=1000 {
        text.push_str(&format!("INSERT INTO p VALUES({i});\n"));
    }
    for i in 0..200_000u32 {
        text.push_str(&format!(
            "INSERT INTO c VALUES({i},{},'x''{}');\n",
            i % 1000 + 1,
            i % 7
        ));
    }
    let s = infer_text(&text, Some("sqlite"), &[]);
    let counts = counts(&s);
    assert_eq!(
        (counts.get("p"), counts.get("c")),
        (Some(&1000.0), Some(&200_000.0))
    );
    let r = relationship(&s, "c");
    let o = r.per_parent.as_ref().expect("from rows");
    assert_eq!((o.values, o.min, o.max), (1000, 200, 200));
    let fitted = &s
        .model
        .relationships
        .iter()
        .find(|r| r.name == "c")
        .expect("c")
        .cardinality;
    assert_eq!(fitted, &Distribution::fixed(200.0));
    // `'x''3'` is 3 bytes: x, a quote, a digit.
    assert_eq!(field(&s, "c", "t").length, Some(Distribution::fixed(3.0)));

    let mut multi = String::from("CREATE TABLE `p` (`id` int NOT NULL, PRIMARY KEY (`id`)) ENGINE=InnoDB;\nCREATE TABLE `c` (`id` int NOT NULL, `p_id` int, `t` text, PRIMARY KEY (`id`), CONSTRAINT `fk` FOREIGN KEY (`p_id`) REFERENCES `p` (`id`)) ENGINE=InnoDB;\nINSERT INTO `p` VALUES ");
    multi.push_str(
        &(1..=10)
            .map(|i| format!("({i})"))
            .collect::<Vec<_>>()
            .join(","),
    );
    multi.push_str(";\n");
    for chunk in 0..200 {
        multi.push_str("INSERT INTO `c` VALUES ");
        let rows: Vec<String> = (0..1000)
            .map(|k| {
                let i = chunk * 1000 + k;
                let p = if i % 10 == 0 {
                    "NULL".to_string()
                } else {
                    (i % 9 + 1).to_string()
                };
                format!("({i},{p},'it\\'s (\\\\) {k}')")
            })
            .collect();
        multi.push_str(&rows.join(","));
        multi.push_str(";\n");
    }
    // A string never closed: reported at its line, the rows before it kept.
    multi.push_str("INSERT INTO `c` VALUES (999999,1,'never closed);\n");
    let s = infer_text(&multi, None, &[]);
    assert_eq!(counts_of(&s, "c"), Some(200_000.0));
    let r = relationship(&s, "c");
    let o = r.per_parent.as_ref().expect("from rows");
    // 180,000 non-NULL references over parents 1–9 (i % 9 + 1 for i not a multiple of 10):
    // 20,000 each; parent 10 none.
    assert_eq!((o.values, o.min, o.max), (10, 0, 20_000), "{o:?}");
    assert!((o.mean - 18_000.0).abs() < 1e-9, "{o:?}");
    // A NULL reference is a child without a parent: 1 in 10.
    assert!((column(&s, "c", "p_id").presence - 0.9).abs() < 1e-9);
    let unread: Vec<_> = s
        .report
        .skipped
        .iter()
        .filter(|k| k.error.is_some())
        .collect();
    assert_eq!(unread.len(), 1, "{unread:?}");
    assert_eq!(unread[0].line, 204);
    // `'it\'s (\\) 7'` is `it's (\) 7`: 10 bytes for k < 10.
    let t = column(&s, "c", "t").length.clone().expect("lengths");
    assert_eq!((t.min, t.max), (10, 12));
}

/// Returns the count of table `table`.
fn counts_of(s: &SqlInferred, table: &str) -> Option<f64> {
    counts(s).get(table).copied()
}

#[test]
fn inserts_inside_a_routine_are_no_rows() {
    let mysql = "CREATE TABLE a (id INT PRIMARY KEY) ENGINE=InnoDB;\nINSERT INTO a VALUES (1),(2);\nDELIMITER ;;\nCREATE PROCEDURE p() BEGIN\n  SET @x = 1;\n  INSERT INTO a VALUES (3);\nEND ;;\nDELIMITER ;\n";
    assert_eq!(counts_of(&infer_text(mysql, None, &[]), "a"), Some(2.0));
    // A batch that creates a table and inserts its row, then a procedure's batch.
    let mssql = "CREATE TABLE [dbo].[a] ([id] INT PRIMARY KEY);\nINSERT [dbo].[a] ([id]) VALUES (1);\nGO\nCREATE PROCEDURE p AS\nBEGIN\n  SET NOCOUNT ON;\n  INSERT INTO a VALUES (3);\nEND\nGO\n";
    assert_eq!(counts_of(&infer_text(mssql, None, &[]), "a"), Some(1.0));
}
