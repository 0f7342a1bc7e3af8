//! A model from a relational schema: `CREATE TABLE` statements (and `ALTER TABLE … ADD
//! CONSTRAINT`) parsed by the `sqlparser` crate, one entity per table, SQL types mapped to BSON
//! types (`sql/types.rs`), foreign keys to one-to-many relationships (parent: the referenced
//! table) and junction tables (a primary key of exactly two foreign keys, little else) to
//! many-to-many relationships. Counts come from `--count`, else [`DEFAULT_COUNT`] per table;
//! children per parent are the ratio of the counts, spread as [`spread`] says.
//!
//! Takes the text, does no I/O: `squillion infer schema.sql` (`cli/infer.rs`) reads the files.

pub mod types;

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use sqlparser::ast::{
    AlterTableOperation, ColumnOption, CreateTable, Expr, ObjectName, ObjectNamePart, Statement,
    TableConstraint,
};
use sqlparser::dialect::{dialect_from_str, Dialect};
use sqlparser::parser::Parser;

use crate::model::{BsonType, Distribution, Entity, Fields, Model, Relationship, ValueKind};

/// The count of a table without `--count`.
pub const DEFAULT_COUNT: f64 = 1000.0;

/// The presence of a column that may be NULL (no `NOT NULL`, not in the primary key): a
/// NULL is written as a missing field.
pub const NULLABLE_PRESENCE: f64 = 0.9;

/// The most columns besides its two keys a junction table may have, each a date or time
/// stamp (`created_at`, `updated_at`): they are dropped, as a many-to-many relationship
/// carries no fields, and said so. A table with other columns (an order line's `qty` and
/// `price`) stays an entity, the child of both tables it references.
pub const JUNCTION_EXTRA_COLUMNS: usize = 2;

/// The dialects tried, in order, when none is given.
pub const AUTO_DIALECTS: [&str; 3] = ["generic", "postgresql", "mysql"];

/// How many skipped statements the report keeps (all are counted).
pub const MAX_REPORTED_STATEMENTS: usize = 100;

/// One SQL text to read.
#[derive(Debug, Clone, Copy)]
pub struct SqlInput<'a> {
    /// Its name in messages (the file name).
    pub source: &'a str,
    /// The statements.
    pub text: &'a str,
}

/// Why a schema could not be inferred.
#[derive(Debug, thiserror::Error)]
pub enum SqlError {
    /// The text is not SQL the parser reads.
    #[error("{input}: {}{message}", at(*line, *column))]
    Parse {
        /// The input's name.
        input: String,
        /// 1-based line (0: no position, past the parser's nesting limit).
        line: u64,
        /// 1-based column.
        column: u64,
        /// The parser's message.
        message: String,
    },
    /// `--dialect` names no dialect the parser knows.
    #[error("unknown SQL dialect \"{0}\" (generic, postgresql, mysql, sqlite, mssql, ansi …)")]
    UnknownDialect(String),
    /// The same table is created twice.
    #[error("{input}: table \"{table}\" is created twice")]
    DuplicateTable {
        /// The input's name.
        input: String,
        /// The table.
        table: String,
    },
    /// `--count` named a table the schema does not create.
    #[error("--count names \"{0}\", which is not one of the tables created")]
    UnknownCount(String),
    /// A count is negative, not a number, or too large.
    #[error("the count of \"{0}\" must be a whole number between 0 and 10^15")]
    BadCount(String),
    /// No `CREATE TABLE` anywhere.
    #[error("no CREATE TABLE statement: nothing to infer")]
    NoTables,
}

/// A model inferred from a relational schema, with its report.
#[derive(Debug, Clone, PartialEq)]
pub struct SqlInferred {
    /// One entity per table (junction tables excepted), a relationship per foreign key and
    /// per junction table, the default (normalized) design.
    pub model: Model,
    /// What was found and assumed.
    pub report: SqlReport,
}

/// What was read of a schema and what each part became.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SqlReport {
    /// Per input: its name, the dialect that parsed it, tables created, statements skipped.
    pub sources: Vec<SqlSource>,
    /// Each table, in the order created.
    pub tables: Vec<TableReport>,
    /// Each relationship written.
    pub relationships: Vec<SqlRelationshipReport>,
    /// Primary keys of more than one column, `UNIQUE` constraints and `CREATE INDEX`
    /// statements (reported, not in the model: the design derives its indexes).
    pub indexes: Vec<SqlIndexReport>,
    /// Statements other than `CREATE TABLE` and `ALTER TABLE … ADD CONSTRAINT`, in all.
    pub skipped_statements: u64,
    /// The first [`MAX_REPORTED_STATEMENTS`] of them: `{source, statement}` (its first words).
    pub skipped: Vec<SkippedStatement>,
}

/// One SQL input read.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SqlSource {
    /// The input's name.
    pub source: String,
    /// The dialect that parsed it.
    pub dialect: String,
    /// `CREATE TABLE` statements read.
    pub tables: u64,
    /// Other statements skipped.
    pub skipped_statements: u64,
}

/// A statement that was not a table definition.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkippedStatement {
    /// The input's name.
    pub source: String,
    /// Its first words (`INSERT INTO users`, `CREATE INDEX users_email`).
    pub statement: String,
}

/// One table and what it became.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableReport {
    /// The table's name (without its schema).
    pub name: String,
    /// `entity`, or `many_to_many` for a junction table (no entity of its own).
    pub became: &'static str,
    /// Its count: `--count`, else [`DEFAULT_COUNT`].
    pub count: f64,
    /// Each column.
    pub columns: Vec<ColumnReport>,
    /// What was assumed of the table as a whole (a composite key, dropped columns).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub assumed: Vec<String>,
}

/// One column and the field it became.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ColumnReport {
    /// The column's name.
    pub name: String,
    /// Its SQL type as written (normalized by the parser).
    pub sql_type: String,
    /// The field it became (`_id` for the primary key), none when it became a reference
    /// (a relationship's `parent_field`) or was dropped.
    pub field: Option<String>,
    /// The field's BSON type.
    #[serde(rename = "type")]
    pub ty: BsonType,
    /// The field's presence: 1, or [`NULLABLE_PRESENCE`] when the column may be NULL.
    pub presence: f64,
    /// Part of the primary key.
    pub primary_key: bool,
    /// `UNIQUE` (alone).
    pub unique: bool,
    /// The table it references, when it is a foreign key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub references: Option<String>,
    /// What was assumed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub assumed: Vec<String>,
}

/// A relationship made from a foreign key or a junction table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SqlRelationshipReport {
    /// The relationship's name.
    pub name: String,
    /// The referenced table.
    pub parent: String,
    /// The referencing table (for a junction: the second key's table).
    pub child: String,
    /// Made from a junction table.
    pub many_to_many: bool,
    /// The foreign-key column (`orders.user_id`) or the junction table.
    pub via: String,
    /// Mean children per parent: the child's count (or the junction's) over the parent's.
    pub children_per_parent: f64,
    /// Many-to-many: mean parents per child (the junction's count over the child's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parents_per_child: Option<f64>,
}

/// An index the schema declares.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SqlIndexReport {
    /// The table.
    pub table: String,
    /// Its name, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Its columns, in order.
    pub columns: Vec<String>,
    /// Unique.
    pub unique: bool,
    /// `primary key`, `unique` or `create index`.
    pub origin: &'static str,
}

/// A table as declared.
#[derive(Debug, Clone)]
struct Table {
    name: String,
    columns: Vec<Column>,
    primary_key: Vec<String>,
    /// Foreign keys: (columns, referenced table).
    foreign_keys: Vec<(Vec<String>, String)>,
}

/// A column as declared.
#[derive(Debug, Clone)]
struct Column {
    name: String,
    ty: sqlparser::ast::DataType,
    not_null: bool,
    unique: bool,
}

/// Returns the model of the tables created in `inputs`, parsed in `dialect` (a name
/// `sqlparser` knows) or else in the first of [`AUTO_DIALECTS`] that reads each input.
pub fn infer_sql(
    inputs: &[SqlInput<'_>],
    dialect: Option<&str>,
    counts: &BTreeMap<String, f64>,
) -> Result<SqlInferred, SqlError> {
    let mut tables: Vec<Table> = Vec::new();
    let mut indexes = Vec::new();
    let mut sources = Vec::new();
    let mut skipped = Vec::new();
    let mut skipped_statements = 0u64;
    for input in inputs {
        let (name, statements) = parse(input, dialect)?;
        let mut summary = SqlSource {
            source: input.source.to_string(),
            dialect: name,
            tables: 0,
            skipped_statements: 0,
        };
        for statement in statements {
            match statement {
                Statement::CreateTable(ct) if !ct.columns.is_empty() => {
                    let table = read_table(&ct, &mut indexes);
                    if tables.iter().any(|t| t.name == table.name) {
                        return Err(SqlError::DuplicateTable {
                            input: input.source.to_string(),
                            table: table.name,
                        });
                    }
                    tables.push(table);
                    summary.tables += 1;
                }
                Statement::AlterTable(at)
                    if at
                        .operations
                        .iter()
                        .all(|op| matches!(op, AlterTableOperation::AddConstraint { .. }))
                        && tables.iter().any(|t| t.name == last_name(&at.name)) =>
                {
                    let name = last_name(&at.name);
                    if let Some(table) = tables.iter_mut().find(|t| t.name == name) {
                        for op in &at.operations {
                            if let AlterTableOperation::AddConstraint { constraint, .. } = op {
                                add_constraint(table, constraint, &mut indexes);
                            }
                        }
                    }
                }
                other => {
                    if let Statement::CreateIndex(ci) = &other {
                        indexes.push(SqlIndexReport {
                            table: last_name(&ci.table_name),
                            name: ci.name.as_ref().map(last_name),
                            columns: ci
                                .columns
                                .iter()
                                .map(|c| expr_name(&c.column.expr))
                                .collect(),
                            unique: ci.unique,
                            origin: "create index",
                        });
                    }
                    summary.skipped_statements += 1;
                    skipped_statements += 1;
                    if skipped.len() < MAX_REPORTED_STATEMENTS {
                        skipped.push(SkippedStatement {
                            source: input.source.to_string(),
                            statement: first_words(&other.to_string()),
                        });
                    }
                }
            }
        }
        sources.push(summary);
    }
    if tables.is_empty() {
        return Err(SqlError::NoTables);
    }
    for (name, &n) in counts {
        if !tables.iter().any(|t| &t.name == name) {
            return Err(SqlError::UnknownCount(name.clone()));
        }
        if !(0.0..=crate::model::validate::MAX_COUNT).contains(&n) || n.fract() != 0.0 {
            return Err(SqlError::BadCount(name.clone()));
        }
    }
    let count_of = |t: &str| counts.get(t).copied().unwrap_or(DEFAULT_COUNT);
    let known: BTreeSet<&str> = tables.iter().map(|t| t.name.as_str()).collect();
    let mut entities = Vec::new();
    let mut relationships = Vec::new();
    let mut table_reports = Vec::new();
    let mut rel_reports = Vec::new();
    let mut taken = BTreeSet::new();
    for table in &tables {
        let count = count_of(&table.name);
        if let Some((a, b, extra)) = junction(table, &known) {
            let mut report = columns_report(table, &known);
            for c in &mut report {
                c.field = None;
            }
            let mut assumed = Vec::new();
            if !extra.is_empty() {
                assumed.push(format!(
                    "columns {} dropped: a many-to-many relationship carries no fields",
                    extra.join(", ")
                ));
            }
            let (pa, pb) = (count_of(&a.1), count_of(&b.1));
            let per_parent = ratio(count, pa);
            let per_child = ratio(count, pb);
            let name = fresh(&table.name, &mut taken);
            relationships.push(Relationship {
                name: name.clone(),
                parent: a.1.clone(),
                child: b.1.clone(),
                cardinality: spread(per_parent),
                many_to_many: true,
                parents_per_child: Some(spread(per_child)),
                growth_per_day: None,
                field: None,
                parent_field: Some(a.0.clone()),
                feed: None,
            });
            rel_reports.push(SqlRelationshipReport {
                name,
                parent: a.1,
                child: b.1,
                many_to_many: true,
                via: table.name.clone(),
                children_per_parent: per_parent,
                parents_per_child: Some(per_child),
            });
            table_reports.push(TableReport {
                name: table.name.clone(),
                became: "many_to_many",
                count,
                columns: report,
                assumed,
            });
            continue;
        }
        let mut report = columns_report(table, &known);
        let mut fields = Vec::new();
        let mut assumed = Vec::new();
        let single_key = match table.primary_key.as_slice() {
            [k] => Some(k.as_str()),
            _ => None,
        };
        if table.primary_key.len() > 1 {
            assumed.push(format!(
                "composite primary key ({}): kept as fields, _id an ObjectId (a unique index on \
                 the key would keep it unique)",
                table.primary_key.join(", ")
            ));
        }
        for (column, row) in table.columns.iter().zip(report.iter_mut()) {
            let reference = table.foreign_keys.iter().find(|(cols, parent)| {
                cols.as_slice() == std::slice::from_ref(&column.name)
                    && known.contains(parent.as_str())
            });
            let is_key = single_key == Some(column.name.as_str());
            if let (Some((_, parent)), false) = (reference, is_key) {
                let name = if table
                    .foreign_keys
                    .iter()
                    .filter(|(_, p)| p == parent)
                    .count()
                    == 1
                    && !taken.contains(&table.name)
                {
                    fresh(&table.name, &mut taken)
                } else {
                    fresh(&format!("{}_by_{}", table.name, column.name), &mut taken)
                };
                let per_parent = ratio(count, count_of(parent));
                relationships.push(Relationship {
                    name: name.clone(),
                    parent: parent.clone(),
                    child: table.name.clone(),
                    cardinality: spread(per_parent),
                    many_to_many: false,
                    parents_per_child: None,
                    growth_per_day: None,
                    field: None,
                    parent_field: Some(column.name.clone()),
                    feed: None,
                });
                rel_reports.push(SqlRelationshipReport {
                    name,
                    parent: parent.clone(),
                    child: table.name.clone(),
                    many_to_many: false,
                    via: format!("{}.{}", table.name, column.name),
                    children_per_parent: per_parent,
                    parents_per_child: None,
                });
                row.field = None;
                if row.presence < 1.0 {
                    row.assumed.push(
                        "nullable reference: every child is given a parent (the relationship \
                         has no presence)"
                            .to_string(),
                    );
                }
                continue;
            }
            let mut field = types::map(&column.ty).field;
            if is_key {
                if matches!(field.ty, BsonType::Int | BsonType::Long) {
                    field.kind = Some(ValueKind::Sequence);
                    field.length = None;
                    row.assumed
                        .push("the integer primary key: _id, a sequence".to_string());
                } else {
                    row.assumed.push("the primary key: _id".to_string());
                }
                row.field = Some("_id".to_string());
                fields.insert(0, ("_id".to_string(), field));
                continue;
            }
            if row.presence < 1.0 {
                field.presence = Some(row.presence);
            }
            fields.push((row.field.clone().unwrap_or_default(), field));
        }
        entities.push(Entity {
            name: table.name.clone(),
            count,
            fields: Fields(fields),
        });
        table_reports.push(TableReport {
            name: table.name.clone(),
            became: "entity",
            count,
            columns: report,
            assumed,
        });
    }
    let model = Model {
        description: Some(format!(
            "Inferred by squillion infer from a relational schema of {} tables.",
            tables.len()
        )),
        entities,
        relationships,
        ..super::empty_model()
    };
    Ok(SqlInferred {
        model,
        report: SqlReport {
            sources,
            tables: table_reports,
            relationships: rel_reports,
            indexes,
            skipped_statements,
            skipped,
        },
    })
}

/// Returns "line L, column C: " of a parse error, or nothing when the parser gave no position
/// (its recursion limit).
fn at(line: u64, column: u64) -> String {
    if line == 0 {
        String::new()
    } else {
        format!("line {line}, column {column}: ")
    }
}

/// Returns the children-per-parent distribution of a mean `r`: uniform from ⌊r/2⌋ to
/// ⌈3r/2⌉ (mean ≈ r, each parent within ±50%), or fixed 0 when `r` is 0.
pub fn spread(r: f64) -> Distribution {
    if r <= 0.0 {
        return Distribution::Fixed { value: 0.0 };
    }
    Distribution::Uniform {
        min: (r / 2.0).floor(),
        max: (r * 1.5).ceil(),
    }
}

/// Returns `a / b`, 0 when `b` is 0.
fn ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 {
        a / b
    } else {
        0.0
    }
}

/// Returns `name`, or `name_2`, `name_3` … when taken, and takes it.
fn fresh(name: &str, taken: &mut BTreeSet<String>) -> String {
    let mut candidate = name.to_string();
    let mut n = 2;
    while taken.contains(&candidate) {
        candidate = format!("{name}_{n}");
        n += 1;
    }
    taken.insert(candidate.clone());
    candidate
}

/// A one-column foreign key: (its column, the table it references).
type Key = (String, String);

/// Returns the two keys of a junction table — (column, referenced table) each — and its
/// other columns, when its primary key is exactly two columns, each a one-column foreign key
/// to a table of the schema, and it has at most [`JUNCTION_EXTRA_COLUMNS`] other columns,
/// all dates.
fn junction(table: &Table, known: &BTreeSet<&str>) -> Option<(Key, Key, Vec<String>)> {
    let [a, b] = table.primary_key.as_slice() else {
        return None;
    };
    let target = |col: &String| {
        table
            .foreign_keys
            .iter()
            .find(|(cols, parent)| {
                cols.as_slice() == std::slice::from_ref(col) && known.contains(parent.as_str())
            })
            .map(|(_, parent)| (col.clone(), parent.clone()))
    };
    let (ta, tb) = (target(a)?, target(b)?);
    let extra: Vec<String> = table
        .columns
        .iter()
        .filter(|c| &c.name != a && &c.name != b)
        .map(|c| c.name.clone())
        .collect();
    let stamps_only = table
        .columns
        .iter()
        .filter(|c| extra.contains(&c.name))
        .all(|c| types::map(&c.ty).field.ty == BsonType::Date);
    (extra.len() <= JUNCTION_EXTRA_COLUMNS && stamps_only).then_some((ta, tb, extra))
}

/// Returns the report rows of a table's columns, each with the field it becomes by default
/// (its own name, made a valid field name) and its mapped type.
fn columns_report(table: &Table, known: &BTreeSet<&str>) -> Vec<ColumnReport> {
    table
        .columns
        .iter()
        .map(|c| {
            let mapped = types::map(&c.ty);
            let in_key = table.primary_key.contains(&c.name);
            let nullable = !c.not_null && !in_key;
            let references = table
                .foreign_keys
                .iter()
                .find(|(cols, _)| cols.contains(&c.name))
                .map(|(cols, parent)| {
                    if cols.len() > 1 {
                        format!("{parent} (a composite foreign key: not a relationship)")
                    } else if !known.contains(parent.as_str()) {
                        format!("{parent} (not created in the schema: kept as a field)")
                    } else {
                        parent.clone()
                    }
                });
            let mut assumed = mapped.assumed;
            if nullable {
                assumed.push(format!("nullable: presence {NULLABLE_PRESENCE}"));
            }
            ColumnReport {
                name: c.name.clone(),
                sql_type: c.ty.to_string(),
                field: Some(field_name(&c.name)),
                ty: mapped.field.ty,
                presence: if nullable { NULLABLE_PRESENCE } else { 1.0 },
                primary_key: in_key,
                unique: c.unique,
                references,
                assumed,
            }
        })
        .collect()
}

/// Returns a column name as a valid field name: `.` and a leading `$` become `_`.
fn field_name(name: &str) -> String {
    let name = name.replace(['.', '\0'], "_");
    match name.strip_prefix('$') {
        Some(rest) => format!("_{rest}"),
        None if name.is_empty() => "_".to_string(),
        None => name,
    }
}

/// Reads a `CREATE TABLE`: its columns with their inline constraints, and its table
/// constraints.
fn read_table(ct: &CreateTable, indexes: &mut Vec<SqlIndexReport>) -> Table {
    let mut table = Table {
        name: last_name(&ct.name),
        columns: Vec::new(),
        primary_key: Vec::new(),
        foreign_keys: Vec::new(),
    };
    for c in &ct.columns {
        let mut column = Column {
            name: c.name.value.clone(),
            ty: c.data_type.clone(),
            not_null: false,
            unique: false,
        };
        for o in &c.options {
            match &o.option {
                ColumnOption::NotNull => column.not_null = true,
                ColumnOption::PrimaryKey(_) => table.primary_key = vec![column.name.clone()],
                ColumnOption::Unique(_) => column.unique = true,
                ColumnOption::ForeignKey(fk) => table
                    .foreign_keys
                    .push((vec![column.name.clone()], last_name(&fk.foreign_table))),
                _ => {}
            }
        }
        table.columns.push(column);
    }
    for constraint in &ct.constraints {
        add_constraint(&mut table, constraint, indexes);
    }
    table
}

/// Adds a table constraint: a primary key, a foreign key, or a unique constraint (one column:
/// the column is unique; several: reported as an index).
fn add_constraint(
    table: &mut Table,
    constraint: &TableConstraint,
    indexes: &mut Vec<SqlIndexReport>,
) {
    match constraint {
        TableConstraint::PrimaryKey(pk) => {
            table.primary_key = pk
                .columns
                .iter()
                .map(|c| expr_name(&c.column.expr))
                .collect();
            if table.primary_key.len() > 1 {
                indexes.push(SqlIndexReport {
                    table: table.name.clone(),
                    name: pk.name.as_ref().map(|n| n.value.clone()),
                    columns: table.primary_key.clone(),
                    unique: true,
                    origin: "primary key",
                });
            }
        }
        TableConstraint::ForeignKey(fk) => table.foreign_keys.push((
            fk.columns.iter().map(|c| c.value.clone()).collect(),
            last_name(&fk.foreign_table),
        )),
        TableConstraint::Unique(u) => {
            let columns: Vec<String> = u
                .columns
                .iter()
                .map(|c| expr_name(&c.column.expr))
                .collect();
            if let [only] = columns.as_slice() {
                if let Some(c) = table.columns.iter_mut().find(|c| &c.name == only) {
                    c.unique = true;
                }
            } else {
                indexes.push(SqlIndexReport {
                    table: table.name.clone(),
                    name: u.name.as_ref().map(|n| n.value.clone()),
                    columns,
                    unique: true,
                    origin: "unique",
                });
            }
        }
        _ => {}
    }
}

/// Returns the last part of a possibly qualified name (`public.users` → `users`).
fn last_name(name: &ObjectName) -> String {
    match name.0.last() {
        Some(ObjectNamePart::Identifier(i)) => i.value.clone(),
        Some(other) => other.to_string(),
        None => String::new(),
    }
}

/// Returns the column an index expression names (an identifier), or its text.
fn expr_name(e: &Expr) -> String {
    match e {
        Expr::Identifier(i) => i.value.clone(),
        Expr::CompoundIdentifier(parts) => {
            parts.last().map_or_else(String::new, |i| i.value.clone())
        }
        other => other.to_string(),
    }
}

/// Returns the first words of a statement (at most four, at most 60 characters).
fn first_words(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().take(4).collect();
    words.join(" ").chars().take(60).collect()
}

/// Parses one input in `dialect`, or in the first of [`AUTO_DIALECTS`] that reads it; on
/// failure, the error that got furthest into the text.
fn parse(
    input: &SqlInput<'_>,
    dialect: Option<&str>,
) -> Result<(String, Vec<Statement>), SqlError> {
    let names: Vec<&str> = match dialect {
        Some(d) => vec![d],
        None => AUTO_DIALECTS.to_vec(),
    };
    let mut furthest: Option<SqlError> = None;
    for name in names {
        let Some(d) = dialect_from_str(name) else {
            return Err(SqlError::UnknownDialect(name.to_string()));
        };
        let d: &dyn Dialect = d.as_ref();
        match Parser::parse_sql(d, input.text) {
            Ok(statements) => return Ok((name.to_string(), statements)),
            Err(e) => {
                let e = parse_error(input.source, &e.to_string());
                let further = match (&furthest, &e) {
                    (
                        Some(SqlError::Parse {
                            line: l0,
                            column: c0,
                            ..
                        }),
                        SqlError::Parse { line, column, .. },
                    ) => (line, column) > (l0, c0),
                    _ => true,
                };
                if further {
                    furthest = Some(e);
                }
            }
        }
    }
    Err(furthest.unwrap_or(SqlError::NoTables))
}

/// Returns a parser message (`sql parser error: Expected: …, found: x at Line: 3, Column: 5`)
/// as an error at its line and column.
fn parse_error(source: &str, message: &str) -> SqlError {
    let message = message
        .strip_prefix("sql parser error: ")
        .unwrap_or(message);
    let (text, line, column) = match message.rsplit_once(" at Line: ") {
        Some((text, at)) => {
            let (l, c) = at.split_once(", Column: ").unwrap_or((at, "0"));
            (
                text,
                l.trim().parse().unwrap_or(0),
                c.trim()
                    .trim_end_matches(|ch: char| !ch.is_ascii_digit())
                    .parse()
                    .unwrap_or(0),
            )
        }
        None => (message, 0, 0),
    };
    SqlError::Parse {
        input: source.to_string(),
        line,
        column,
        message: text.to_string(),
    }
}
