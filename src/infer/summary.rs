//! What a person is shown of an inference: what was found, assumed and skipped, as texts in
//! the report's words that render in any language ([`Summary`]). The page's "Start from your
//! data" dialog shows it; it is built here, from the report, so that no entry point builds a
//! report of its own.

mod log;

use serde::{Deserialize, Serialize};

pub use log::{log_summary, LogSummary};

use super::sql::SqlInferred;
use super::Inferred;
use crate::lang::Text;

/// What the dialog shows of an inference: what was found and assumed, in the report's words,
/// as texts rendered in the reader's language (`## Infer summary` of the catalogues).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// True for a SQL schema (tables and statements), false for documents.
    pub sql: bool,
    /// Per input: its name, its collection and what was read of it.
    pub sources: Vec<Text>,
    /// Per entity (table): documents read, count, fields.
    pub entities: Vec<Text>,
    /// Per relationship: parent → child, its layout and its figures.
    pub relationships: Vec<Text>,
    /// What the model assumes where the data could not be written as seen.
    pub assumed: Vec<Text>,
    /// Indexes read (reported, not in the model).
    pub indexes: Vec<Text>,
    /// The model's starter workload, every unit assumed (a dump holds no operations).
    #[serde(default)]
    pub workload: Vec<Text>,
    /// Lines (statements, for SQL) skipped in all.
    pub skipped_count: u64,
    /// The first skipped lines, each with its input, line (or byte offset) and reason.
    pub skipped: Vec<Text>,
    /// Per junction table with more than its two keys: its other columns, link attributes
    /// not carried into the model (SQL only).
    pub link_attributes: Vec<Text>,
    /// What mongod logs read with the data held, and the workload they gave the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log: Option<LogSummary>,
}

/// Returns the summary of a model inferred from documents, in `squillion infer`'s words.
pub fn summary(inferred: &Inferred) -> Summary {
    let r = &inferred.report;
    let th = |n: f64| crate::human::thousands(n as u64);
    let counted = |n: u64, one: &'static str, many: &'static str| {
        Text::new(if n == 1 { one } else { many }).arg("count", crate::human::thousands(n))
    };
    let either = |on: bool, id: &'static str| Text::new(if on { id } else { "infer-empty" });
    let mut s = Summary {
        skipped_count: r.skipped_lines,
        ..Summary::default()
    };
    for src in &r.sources {
        s.sources.push(
            Text::new("infer-source")
                .arg("source", &src.source)
                .arg("collection", &src.collection)
                .nested(
                    "documents",
                    counted(src.documents, "infer-documents-one", "infer-documents-many"),
                )
                .nested(
                    "skipped",
                    counted(src.skipped, "infer-lines-one", "infer-lines-many"),
                ),
        );
    }
    for e in &r.entities {
        s.entities.push(
            Text::new("infer-entity")
                .arg("name", &e.name)
                .arg("documents", th(e.documents as f64))
                .arg("count", th(e.count))
                .arg("fields", e.fields.len()),
        );
        if let Some(p) = &e.polymorphic {
            s.entities.push(crate::infer::split::line(p));
        }
        for f in &e.fields {
            for a in &f.assumed {
                s.assumed.push(
                    Text::new("infer-field-note")
                        .arg("entity", &e.name)
                        .arg("path", &f.path)
                        .nested("note", a.clone()),
                );
            }
        }
    }
    for rel in &r.relationships {
        let c = &rel.children_per_parent;
        s.relationships.push(
            Text::new("infer-relationship")
                .arg("name", &rel.name)
                .arg("parent", &rel.parent)
                .arg("child", &rel.child)
                .nested(
                    "how",
                    crate::infer::how(rel.layout, &rel.field, rel.map.is_some()),
                )
                .nested("many", either(rel.many_to_many, "infer-many-to-many"))
                .arg("count", th(rel.count))
                .arg("min", c.min)
                .arg("median", c.median)
                .arg("p99", c.p99)
                .arg("max", c.max)
                .nested(
                    "resolved",
                    rel.resolved
                        .map_or(Text::new("infer-empty"), |[values, resolved]| {
                            match &rel.key {
                                Some(k) => Text::new("infer-resolved-key").arg("key", &k.field),
                                None => Text::new("infer-resolved"),
                            }
                            .arg("resolved", resolved)
                            .arg("values", values)
                        }),
                )
                .nested(
                    "without",
                    rel.without_array.map_or(Text::new("infer-empty"), |n| {
                        Text::new("infer-without-array").arg("count", n)
                    }),
                )
                .nested("sampled", either(rel.sampled, "infer-sampled")),
        );
    }
    s.relationships.extend(
        r.gridfs
            .iter()
            .map(|g| Text::new("infer-as-is").arg("text", g.describe())),
    );
    for i in &r.indexes {
        let keys: Vec<String> = i
            .key
            .iter()
            .map(|k| format!("{}: {}", k.field, k.kind))
            .collect();
        s.indexes.push(
            Text::new("infer-index")
                .arg("name", &i.name)
                .arg("collection", &i.collection)
                .arg("keys", keys.join(", "))
                .nested("unique", either(i.unique, "infer-unique")),
        );
    }
    s.workload = workload(&r.workload);
    for k in &r.skipped {
        s.skipped.push(match k.byte {
            Some(byte) => Text::new("infer-skipped-byte")
                .arg("source", &k.source)
                .arg("byte", crate::human::thousands(byte))
                .arg("message", &k.message),
            None => Text::new("infer-skipped-line")
                .arg("source", &k.source)
                .arg("line", k.line)
                .arg("message", &k.message),
        });
    }
    s
}

/// Returns the report's lines of the starter workload, in `squillion infer`'s words.
fn workload(units: &[crate::infer::starter::AssumedUnit]) -> Vec<Text> {
    units.iter().map(crate::infer::starter::line).collect()
}

/// Returns a line kept in English in every language (a SQL schema's summary, GridFS).
fn as_is(text: String) -> Text {
    Text::new("infer-as-is").arg("text", text)
}

/// Returns the summary of a model inferred from a SQL schema, in `squillion infer`'s words.
pub fn sql_summary(inferred: &SqlInferred) -> Summary {
    let r = &inferred.report;
    let mut s = Summary {
        sql: true,
        skipped_count: r.skipped_statements,
        ..Summary::default()
    };
    for src in &r.sources {
        s.sources.push(as_is(format!(
            "{}: {} ({} SQL), {} skipped",
            src.source,
            crate::human::count(src.tables, "table", "tables"),
            src.dialect,
            crate::human::count(src.skipped_statements, "statement", "statements")
        )));
    }
    for t in &r.tables {
        let became = if t.became == "entity" {
            "entity"
        } else {
            "junction table: a many-to-many relationship"
        };
        s.entities.push(as_is(format!(
            "{}: {became}, count {}, {} columns",
            t.name,
            crate::human::thousands(t.count as u64),
            t.columns.len()
        )));
        for c in &t.columns {
            for a in &c.assumed {
                s.assumed.push(as_is(format!("{}.{}: {a}", t.name, c.name)));
            }
        }
        for a in &t.assumed {
            s.assumed.push(as_is(format!("{}: {a}", t.name)));
        }
        if !t.link_attributes.is_empty() {
            s.link_attributes.push(
                Text::new("infer-link-attribute-columns")
                    .arg("table", &t.name)
                    .arg("columns", t.link_attributes.join(", ")),
            );
        }
    }
    for rel in &r.relationships {
        s.relationships.push(as_is(rel.describe()));
    }
    for i in &r.indexes {
        s.indexes.push(as_is(format!(
            "on {} ({}){}: {} (reported, not in the model)",
            i.table,
            i.columns.join(", "),
            if i.unique { " unique" } else { "" },
            i.origin
        )));
    }
    s.workload = workload(&r.workload);
    for k in &r.skipped {
        let text = match &k.error {
            Some(error) => Text::new("infer-skipped-statement-unread").arg("error", error),
            None => Text::new("infer-skipped-statement-other"),
        };
        s.skipped.push(
            text.arg("source", &k.source)
                .arg("line", k.line)
                .arg("statement", &k.statement),
        );
    }
    s
}
