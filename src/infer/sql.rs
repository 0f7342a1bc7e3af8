//! A model from a relational schema: `CREATE TABLE` statements (and `ALTER TABLE … ADD
//! CONSTRAINT`) parsed by the `sqlparser` crate, one entity per table, SQL types mapped to BSON
//! types (`sql/types.rs`), foreign keys to one-to-many relationships (parent: the referenced
//! table) and junction tables (a primary key of exactly two foreign keys, little else) to
//! many-to-many relationships. Counts come from `--count`, else the table's rows in the dump
//! (`INSERT … VALUES`, `COPY … FROM stdin`), else [`DEFAULT_COUNT`];
//! children per parent are the ratio of the counts, spread as [`spread`] says.
//!
//! Takes the text, does no I/O: `squillion infer schema.sql` (`cli/infer.rs`) reads the files.

mod read;
pub mod report;
mod rows;
pub mod split;
pub mod types;

use std::collections::{BTreeMap, BTreeSet};

use read::{Schema, Table};
pub use report::{
    ColumnReport, SkippedStatement, SqlIndexReport, SqlRelationshipReport, SqlReport, SqlSource,
    TableReport,
};

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
pub const MAX_REPORTED_STATEMENTS: usize = 1000;

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
    #[error("{input}: {}{message}", read::at(*line, *column))]
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

/// Returns the model of the tables created in `inputs`, parsed in `dialect` (a name
/// `sqlparser` knows) or else in the first of [`AUTO_DIALECTS`] that reads each input.
pub fn infer_sql(
    inputs: &[SqlInput<'_>],
    dialect: Option<&str>,
    counts: &BTreeMap<String, f64>,
) -> Result<SqlInferred, SqlError> {
    let Schema {
        tables,
        indexes,
        sources,
        skipped,
        skipped_statements,
        rows,
    } = read::schema(inputs, dialect)?;
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
    let rows_of = |t: &str| rows.get(t).copied();
    let count_of = |t: &str| {
        counts
            .get(t)
            .copied()
            .or_else(|| rows_of(t).map(|n| n as f64))
            .unwrap_or(DEFAULT_COUNT)
    };
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
                rows: rows_of(&table.name),
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
            rows: rows_of(&table.name),
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
