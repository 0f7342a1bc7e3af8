//! What `squillion infer schema.sql` reports beside the model: each input, table, column,
//! relationship and index, and the statements skipped.

use serde::Serialize;

use crate::infer::build::ValueShare;
use crate::infer::fit::Observed;
use crate::model::BsonType;

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
    /// The first [`super::MAX_REPORTED_STATEMENTS`] of them: `{source, statement}` (its first words).
    pub skipped: Vec<SkippedStatement>,
    /// The model's workload, every unit of it assumed ([`crate::infer::starter`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub workload: Vec<crate::infer::starter::AssumedUnit>,
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
    /// The 1-based line it starts on.
    pub line: u64,
    /// Its first words (`INSERT INTO users`, `CREATE INDEX users_email`).
    pub statement: String,
    /// Why it could not be read (a parser message, an unterminated string); `None` for a
    /// statement read but not a table (a view, a trigger, a `SET`, a client command).
    pub error: Option<String>,
}

/// One table and what it became.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableReport {
    /// The table's name (without its schema).
    pub name: String,
    /// `entity`, or `many_to_many` for a junction table (no entity of its own).
    pub became: &'static str,
    /// Its count: `--count`, else its rows in the dump, else [`super::DEFAULT_COUNT`].
    pub count: f64,
    /// The rows the dump holds for it (`INSERT … VALUES`, `COPY … FROM stdin`), when any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rows: Option<u64>,
    /// Each column.
    pub columns: Vec<ColumnReport>,
    /// What was assumed of the table as a whole (a composite key, dropped columns).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub assumed: Vec<String>,
    /// A junction table's columns besides its two keys: link attributes not carried into the
    /// model (a many-to-many relationship has no fields).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub link_attributes: Vec<String>,
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
    /// The field's presence: with rows, the share of rows with a value (not NULL); without,
    /// 1, or [`super::NULLABLE_PRESENCE`] when the column may be NULL.
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
    /// The byte lengths of its strings in the rows (a text or binary column with rows).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub length: Option<Observed>,
    /// An enum found in the rows: its values, the most frequent first, with their shares.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<ValueShare>,
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
    /// Mean children per parent: with rows, their mean (`per_parent`); without, the child's
    /// count (or the junction's) over the parent's.
    pub children_per_parent: f64,
    /// Many-to-many: mean parents per child (with rows, `per_child`'s mean; without, the
    /// junction's count over the child's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parents_per_child: Option<f64>,
    /// With rows: children (links) per parent row as observed, a parent no row names
    /// counted as 0; the cardinality is fitted to it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub per_parent: Option<Observed>,
    /// With rows, many-to-many: links per child row as observed, a child no link names
    /// counted as 0; `parents_per_child` is fitted to it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub per_child: Option<Observed>,
}

impl SqlRelationshipReport {
    /// Returns the relationship in one line, as the CLI's summary and the page's dialog both
    /// print it: `orders: users → orders (one-to-many, via orders.user_id), 3.00 children per
    /// parent`, with the parents per child of a many-to-many, and with rows what they showed
    /// (`rows: 0 to 13, median 3`).
    pub fn describe(&self) -> String {
        let kind = if self.many_to_many {
            "many-to-many"
        } else {
            "one-to-many"
        };
        let mut line = format!(
            "{}: {} → {} ({kind}, via {}), {:.2} children per parent",
            self.name, self.parent, self.child, self.via, self.children_per_parent
        );
        if let Some(o) = &self.per_parent {
            line.push_str(&format!(
                " (rows: {} to {}, median {})",
                o.min, o.max, o.median
            ));
        }
        if let Some(p) = self.parents_per_child {
            line.push_str(&format!(", {p:.2} parents per child"));
        }
        if let Some(o) = &self.per_child {
            line.push_str(&format!(
                " (rows: {} to {}, median {})",
                o.min, o.max, o.median
            ));
        }
        line
    }
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
