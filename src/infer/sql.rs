//! A model from a relational schema: `CREATE TABLE` statements (and `ALTER TABLE … ADD
//! CONSTRAINT`) parsed by the `sqlparser` crate, one entity per table, SQL types mapped to BSON
//! types (`sql/types.rs`), foreign keys to one-to-many relationships (parent: the referenced
//! table) and junction tables (a primary key of exactly two foreign keys, whatever else they
//! hold) to many-to-many relationships. Counts come from `--count`, else the table's rows in
//! the dump (`INSERT … VALUES`, `COPY … FROM stdin`), else [`DEFAULT_COUNT`].
//!
//! A table with rows gets its figures from them, as document inference gets them from
//! documents ([`mod@super::fit`]): each foreign key's children per parent (the rows per parent
//! value, a parent row no child names counted as 0), each column's presence (a NULL is a
//! missing field), text lengths, enums and string kinds, numeric ranges. Without rows,
//! children per parent are the ratio of the counts, spread as [`spread`] says, and presence
//! is [`NULLABLE_PRESENCE`]. `--count` sets the counts (full scale) either way; the
//! distributions stay those of the rows, as in document inference.
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
use rows::{ColumnRows, TableRows};

use super::build::{enum_values, string_kind};
use super::fit::{fit, Observed};
use super::sketch::Sketch;
use super::stats::ValueCounts;
use crate::model::{BsonType, Distribution, Entity, Field, Fields, Model, Relationship, ValueKind};

/// The count of a table without `--count`.
pub const DEFAULT_COUNT: f64 = 1000.0;

/// The presence of a column that may be NULL (no `NOT NULL`, not in the primary key) in a
/// table without rows: a NULL is written as a missing field. With rows, the presence is the
/// share of rows with a value.
pub const NULLABLE_PRESENCE: f64 = 0.9;

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
        escapes,
    } = read::schema(inputs, dialect)?;
    if tables.is_empty() {
        return Err(SqlError::NoTables);
    }
    check_counts(&tables, counts)?;
    let known: BTreeSet<&str> = tables.iter().map(|t| t.name.as_str()).collect();
    // A one-column foreign key to a table of the schema: its rows are counted per value.
    let keyed = |t: &Table, column: &str| reference(t, column, &known).is_some();
    let rows = rows::read(inputs, &escapes, &tables, &keyed);
    let mut assembly = Assembly {
        known: &known,
        counts,
        rows: &rows,
        entities: Vec::new(),
        relationships: Vec::new(),
        table_reports: Vec::new(),
        rel_reports: Vec::new(),
        taken: BTreeSet::new(),
    };
    for table in &tables {
        match junction(table, &known) {
            Some(keys) => assembly.add_junction(table, keys),
            None => assembly.add_entity(table),
        }
    }
    let Assembly {
        entities,
        relationships,
        table_reports,
        rel_reports,
        ..
    } = assembly;
    let mut model = Model {
        description: Some(format!(
            "Inferred by squillion infer from a relational schema of {} tables.",
            tables.len()
        )),
        entities,
        relationships,
        ..super::empty_model()
    };
    let keyed: Vec<super::starter::IndexKeyed<'_>> = indexes
        .iter()
        .filter_map(|i| {
            Some(super::starter::IndexKeyed {
                collection: &i.table,
                name: i.name.as_deref().unwrap_or(i.origin),
                field: i.columns.first()?,
                kind: "1",
            })
        })
        .collect();
    let workload = super::starter::with_starter_workload(&mut model, &keyed);
    super::tidy::round(&mut model);
    Ok(SqlInferred {
        model,
        report: SqlReport {
            sources,
            tables: table_reports,
            relationships: rel_reports,
            indexes,
            skipped_statements,
            skipped,
            workload,
        },
    })
}

/// Checks that each count given names a table of the schema and is a whole number of
/// documents the model allows.
fn check_counts(tables: &[Table], counts: &BTreeMap<String, f64>) -> Result<(), SqlError> {
    for (name, &n) in counts {
        if !tables.iter().any(|t| &t.name == name) {
            return Err(SqlError::UnknownCount(name.clone()));
        }
        if !(0.0..=crate::model::MAX_COUNT).contains(&n) || n.fract() != 0.0 {
            return Err(SqlError::BadCount(name.clone()));
        }
    }
    Ok(())
}

/// The model and its report in the making, one table at a time: a junction table becomes a
/// many-to-many relationship, every other table an entity with a relationship per foreign key.
struct Assembly<'a> {
    /// The tables of the schema, by name.
    known: &'a BTreeSet<&'a str>,
    /// The counts given, by table.
    counts: &'a BTreeMap<String, f64>,
    /// What the dump's rows showed, by table.
    rows: &'a BTreeMap<String, TableRows>,
    entities: Vec<Entity>,
    relationships: Vec<Relationship>,
    table_reports: Vec<TableReport>,
    rel_reports: Vec<SqlRelationshipReport>,
    /// The relationship names given so far.
    taken: BTreeSet<String>,
}

impl Assembly<'_> {
    /// Returns the rows the dump holds of table `t`, when it holds them.
    fn rows_of(&self, t: &str) -> Option<u64> {
        self.rows.get(t).map(|r| r.rows)
    }

    /// Returns table `t`'s document count: the one given, else its rows, else the default.
    fn count_of(&self, t: &str) -> f64 {
        self.counts
            .get(t)
            .copied()
            .or_else(|| self.rows_of(t).map(|n| n as f64))
            .unwrap_or(DEFAULT_COUNT)
    }

    /// Adds junction table `table` (keys `a` and `b`, other columns `extra`) as a
    /// many-to-many relationship between the tables its keys reference.
    fn add_junction(&mut self, table: &Table, (a, b, extra): (Key, Key, Vec<String>)) {
        let count = self.count_of(&table.name);
        let table_rows = self.rows.get(&table.name);
        let mut report = columns_report(table, self.known);
        for c in &mut report {
            c.field = None;
        }
        // Its other columns are reported as `link_attributes`, not as an assumption.
        let assumed = Vec::new();
        // With rows: links per value of each key, a parent row no link names counted 0.
        let observed = |key: &str, parent: &str| {
            column_rows(table, table_rows, key)
                .and_then(|c| c.per_value.as_ref())
                .map(|per| per_parent(per, self.rows_of(parent)))
        };
        let (seen_a, seen_b) = (observed(&a.0, &a.1), observed(&b.0, &b.1));
        let (pa, pb) = (self.count_of(&a.1), self.count_of(&b.1));
        let per_parent_mean = seen_a.as_ref().map_or(ratio(count, pa), |o| o.mean);
        let per_child_mean = seen_b.as_ref().map_or(ratio(count, pb), |o| o.mean);
        let name = fresh(&table.name, &mut self.taken);
        self.relationships.push(Relationship {
            name: name.clone(),
            parent: a.1.clone(),
            child: b.1.clone(),
            cardinality: seen_a.as_ref().map_or_else(|| spread(per_parent_mean), fit),
            many_to_many: true,
            parents_per_child: Some(seen_b.as_ref().map_or_else(|| spread(per_child_mean), fit)),
            growth_per_day: None,
            field: None,
            parent_field: Some(a.0.clone()),
            parent_key: None,
            child_key: None,
            feed: None,
        });
        self.rel_reports.push(SqlRelationshipReport {
            name,
            parent: a.1,
            child: b.1,
            many_to_many: true,
            via: table.name.clone(),
            children_per_parent: per_parent_mean,
            parents_per_child: Some(per_child_mean),
            per_parent: seen_a,
            per_child: seen_b,
        });
        self.table_reports.push(TableReport {
            name: table.name.clone(),
            became: "many_to_many",
            count,
            rows: self.rows_of(&table.name),
            columns: report,
            assumed,
            link_attributes: extra,
        });
    }

    /// Adds `table` as an entity: its primary key the `_id`, a relationship per foreign key
    /// to a table of the schema, a field per other column.
    fn add_entity(&mut self, table: &Table) {
        let count = self.count_of(&table.name);
        let table_rows = self.rows.get(&table.name);
        let mut report = columns_report(table, self.known);
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
            let reference = reference(table, &column.name, self.known);
            let is_key = single_key == Some(column.name.as_str());
            let seen = column_rows(table, table_rows, &column.name);
            if let (Some(parent), false) = (reference, is_key) {
                self.add_reference(table, &column.name, parent, count);
                reference_row(row, seen, table_rows);
                continue;
            }
            let mut field = types::map(&column.ty).field;
            if is_key {
                key_field(&mut field, row);
                fields.insert(0, ("_id".to_string(), field));
                continue;
            }
            if let (Some(c), Some(t)) = (seen, table_rows) {
                from_rows(&mut field, row, c, t.rows);
            }
            if row.presence < 1.0 {
                field.presence = Some(row.presence);
            }
            fields.push((row.field.clone().unwrap_or_default(), field));
        }
        self.entities.push(Entity {
            name: table.name.clone(),
            count,
            fields: Fields(fields),
        });
        self.table_reports.push(TableReport {
            name: table.name.clone(),
            became: "entity",
            count,
            rows: self.rows_of(&table.name),
            columns: report,
            assumed,
            link_attributes: Vec::new(),
        });
    }

    /// Adds the one-to-many relationship of foreign key `column` of `table` (`count` rows) to
    /// table `parent`: named after the table when it is its only key to that parent.
    fn add_reference(&mut self, table: &Table, column: &str, parent: &String, count: f64) {
        let only = table
            .foreign_keys
            .iter()
            .filter(|(_, p)| p == parent)
            .count()
            == 1;
        let name = if only && !self.taken.contains(&table.name) {
            fresh(&table.name, &mut self.taken)
        } else {
            fresh(&format!("{}_by_{}", table.name, column), &mut self.taken)
        };
        // With rows: children per parent value, a parent row no child names as 0.
        let seen = column_rows(table, self.rows.get(&table.name), column);
        let observed = seen
            .and_then(|c| c.per_value.as_ref())
            .map(|per| per_parent(per, self.rows_of(parent)));
        let mean = observed
            .as_ref()
            .map_or_else(|| ratio(count, self.count_of(parent)), |o| o.mean);
        self.relationships.push(Relationship {
            name: name.clone(),
            parent: parent.clone(),
            child: table.name.clone(),
            cardinality: observed.as_ref().map_or_else(|| spread(mean), fit),
            many_to_many: false,
            parents_per_child: None,
            growth_per_day: None,
            field: None,
            parent_field: Some(column.to_string()),
            parent_key: None,
            child_key: None,
            feed: None,
        });
        self.rel_reports.push(SqlRelationshipReport {
            name,
            parent: parent.clone(),
            child: table.name.clone(),
            many_to_many: false,
            via: format!("{}.{}", table.name, column),
            children_per_parent: mean,
            parents_per_child: None,
            per_parent: observed,
            per_child: None,
        });
    }
}

/// Reports a foreign-key column as the relationship it became (no field): its presence from
/// the rows when the dump holds them, and that a nullable reference still gives every child a
/// parent.
fn reference_row(
    row: &mut ColumnReport,
    seen: Option<&ColumnRows>,
    table_rows: Option<&TableRows>,
) {
    row.field = None;
    if let (Some(c), Some(t)) = (seen, table_rows.filter(|t| t.rows > 0)) {
        row.presence = c.values as f64 / t.rows as f64;
        row.assumed.retain(|a| !a.starts_with("nullable: presence"));
    }
    if row.presence < 1.0 {
        row.assumed.push(
            "nullable reference: every child is given a parent (the relationship has no \
             presence)"
                .to_string(),
        );
    }
}

/// Makes the single-column primary key's `field` the `_id` (an integer key a sequence) and
/// reports it so.
fn key_field(field: &mut Field, row: &mut ColumnReport) {
    if matches!(field.ty, BsonType::Int | BsonType::Long) {
        field.kind = Some(ValueKind::Sequence);
        field.length = None;
        row.assumed
            .push("the integer primary key: _id, a sequence".to_string());
    } else {
        row.assumed.push("the primary key: _id".to_string());
    }
    row.field = Some("_id".to_string());
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
/// other columns (its link attributes, which the model's many-to-many relationship cannot
/// carry), when its primary key is exactly two columns, each a one-column foreign key to a
/// table of the schema.
fn junction(table: &Table, known: &BTreeSet<&str>) -> Option<(Key, Key, Vec<String>)> {
    let [a, b] = table.primary_key.as_slice() else {
        return None;
    };
    let target = |col: &String| reference(table, col, known).map(|p| (col.clone(), p.clone()));
    let (ta, tb) = (target(a)?, target(b)?);
    let extra: Vec<String> = table
        .columns
        .iter()
        .filter(|c| &c.name != a && &c.name != b)
        .map(|c| c.name.clone())
        .collect();
    Some((ta, tb, extra))
}

/// Returns the table a column references when it is a one-column foreign key to a table of
/// the schema.
fn reference<'t>(table: &'t Table, column: &str, known: &BTreeSet<&str>) -> Option<&'t String> {
    table
        .foreign_keys
        .iter()
        .find(|(cols, parent)| {
            matches!(cols.as_slice(), [only] if only == column) && known.contains(parent.as_str())
        })
        .map(|(_, parent)| parent)
}

/// Returns what the rows showed of a column of `table`, when the dump holds its rows.
fn column_rows<'r>(
    table: &Table,
    rows: Option<&'r TableRows>,
    column: &str,
) -> Option<&'r ColumnRows> {
    let at = table.columns.iter().position(|c| c.name == column)?;
    rows?.columns.get(at)
}

/// Returns children per parent as a foreign key's rows show them: the rows of each value,
/// and a 0 for each parent row no child names (`parents`: the parent table's rows, when the
/// dump holds them; else parents without children are not known and none is counted).
///
/// Past [`super::stats::MAX_TRACKED_VALUES`] distinct values the later values are not counted
/// per value: the distribution is that of the parents tracked, and the parents not tracked
/// are estimated (the untracked rows over the tracked parents' mean) so as not to count them
/// as childless.
pub fn per_parent(per: &ValueCounts, parents: Option<u64>) -> Observed {
    let mut s = Sketch::default();
    for &n in per.counts.values() {
        s.add(u64::from(n));
    }
    let named = per.counts.len() as u64;
    let untracked_parents = if per.untracked > 0 && named > 0 {
        let mean = per.tracked() as f64 / named as f64;
        (per.untracked as f64 / mean).round() as u64
    } else {
        0
    };
    if let Some(p) = parents {
        s.add_many(0, p.saturating_sub(named + untracked_parents));
    }
    Observed::of(&s)
}

/// Sets on a column's field and report row what its `rows` rows showed: its presence (a NULL,
/// or a row that does not name the column, is a missing field), its lengths fitted as
/// document inference fits them (replacing the length the SQL type assumed), an enum (few
/// distinct strings, each repeated) or a string kind, a number's range, and a date's range
/// of days.
fn from_rows(field: &mut Field, row: &mut ColumnReport, c: &ColumnRows, rows: u64) {
    if rows == 0 {
        return;
    }
    row.presence = c.values as f64 / rows as f64;
    row.assumed.retain(|a| !a.starts_with("nullable: presence"));
    if field.ty.has_length() && c.lengths.count() > 0 {
        let o = Observed::of(&c.lengths);
        field.length = Some(fit(&o));
        row.assumed.retain(|a| !a.contains("length lognormal"));
        row.length = Some(o);
    }
    match field.ty {
        BsonType::String if field.kind != Some(ValueKind::Enum) => {
            if let Some(values) = enum_values(&c.strings) {
                field.kind = Some(ValueKind::Enum);
                field.values = values.iter().map(|v| v.value.clone()).collect();
                row.values = values;
            } else if let Some(kind) = string_kind(&c.strings) {
                field.kind = Some(kind);
            }
        }
        BsonType::Int | BsonType::Long | BsonType::Double | BsonType::Decimal => {
            if let Some((lo, hi)) = c.numbers {
                field.min = Some(lo);
                field.max = Some(hi);
            }
        }
        BsonType::Date => {
            if let Some((lo, hi)) = c.days {
                field.kind = Some(ValueKind::DateRange);
                field.from = Some(String::from_utf8_lossy(&lo).into_owned());
                field.to = Some(String::from_utf8_lossy(&hi).into_owned());
            }
        }
        _ => {}
    }
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
                length: None,
                values: Vec::new(),
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
