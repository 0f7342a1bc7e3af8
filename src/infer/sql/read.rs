//! Reading SQL text into tables: parsing (in the dialect given, or the first of
//! [`AUTO_DIALECTS`] that reads it), then each `CREATE TABLE` with its columns and
//! constraints, `ALTER TABLE … ADD CONSTRAINT`, `CREATE INDEX`, and the statements skipped.

use sqlparser::ast::{
    AlterTableOperation, ColumnOption, CreateTable, Expr, ObjectName, ObjectNamePart, Statement,
    TableConstraint,
};
use sqlparser::dialect::{dialect_from_str, Dialect};
use sqlparser::parser::Parser;

use super::report::{SkippedStatement, SqlIndexReport, SqlSource};
use super::split::{Escapes, PieceKind};
use super::{SqlError, SqlInput, AUTO_DIALECTS, MAX_REPORTED_STATEMENTS};

/// The tables of every input, and what else was read.
#[derive(Debug, Clone)]
pub struct Schema {
    /// The tables, in the order created.
    pub tables: Vec<Table>,
    /// Composite primary keys, `UNIQUE` constraints, `CREATE INDEX` statements.
    pub indexes: Vec<SqlIndexReport>,
    /// Per input: the dialect that read it, tables, statements skipped.
    pub sources: Vec<SqlSource>,
    /// The first statements skipped.
    pub skipped: Vec<SkippedStatement>,
    /// Statements skipped in all.
    pub skipped_statements: u64,
    /// Per input, in order: how its strings escape (by its dialect), for its rows to be read
    /// the same way ([`super::rows::read`]).
    pub escapes: Vec<Escapes>,
}

/// Returns the tables created in `inputs` (and what else they held).
pub fn schema(inputs: &[SqlInput<'_>], dialect: Option<&str>) -> Result<Schema, SqlError> {
    let mut tables: Vec<Table> = Vec::new();
    let mut indexes = Vec::new();
    let mut sources = Vec::new();
    let mut skipped = Vec::new();
    let mut skipped_statements = 0u64;
    let mut first_failure = None;
    let mut escapes = Vec::new();
    for input in inputs {
        escapes.push(Escapes::of(dialect.or_else(|| detect(input.text))));
        let Split {
            dialect: name,
            parsed: statements,
            unread,
            failures,
        } = parse(input, dialect)?;
        if first_failure.is_none() {
            first_failure = failures.into_iter().next();
        }
        let mut summary = SqlSource {
            source: input.source.to_string(),
            dialect: name,
            tables: 0,
            skipped_statements: unread.len() as u64,
        };
        skipped_statements += unread.len() as u64;
        // This input's skipped statements, reported in the order of their lines.
        let mut reported = unread;
        for (line, statement) in statements {
            match statement {
                // SQLite's own tables (`sqlite_sequence` in `.schema`): not the user's.
                Statement::CreateTable(ct)
                    if last_name(&ct.name)
                        .to_ascii_lowercase()
                        .starts_with("sqlite_") =>
                {
                    summary.skipped_statements += 1;
                    skipped_statements += 1;
                    reported.push(SkippedStatement {
                        source: input.source.to_string(),
                        line,
                        statement: first_words(&format!("CREATE TABLE {}", ct.name)),
                        error: None,
                    });
                }
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
                    reported.push(SkippedStatement {
                        source: input.source.to_string(),
                        line,
                        statement: first_words(&other.to_string()),
                        error: None,
                    });
                }
            }
        }
        reported.sort_by_key(|s| s.line);
        let room = MAX_REPORTED_STATEMENTS.saturating_sub(skipped.len());
        skipped.extend(reported.into_iter().take(room));
        sources.push(summary);
    }
    if tables.is_empty() {
        if let Some(e) = first_failure {
            return Err(e);
        }
    }
    Ok(Schema {
        tables,
        indexes,
        sources,
        skipped,
        skipped_statements,
        escapes,
    })
}

/// A table as declared.
#[derive(Debug, Clone)]
pub struct Table {
    /// Its name, without its schema.
    pub name: String,
    /// Its columns, in order.
    pub columns: Vec<Column>,
    /// The primary key's columns (none without one).
    pub primary_key: Vec<String>,
    /// Foreign keys: (columns, referenced table).
    pub foreign_keys: Vec<(Vec<String>, String)>,
}

/// A column as declared.
#[derive(Debug, Clone)]
pub struct Column {
    /// Its name.
    pub name: String,
    /// Its SQL type.
    pub ty: sqlparser::ast::DataType,
    /// Declared `NOT NULL`.
    pub not_null: bool,
    /// Declared `UNIQUE` (alone).
    pub unique: bool,
}

/// Returns "line L, column C: " of a parse error, or nothing when the parser gave no position
/// (its recursion limit).
pub fn at(line: u64, column: u64) -> String {
    if line == 0 {
        String::new()
    } else {
        format!("line {line}, column {column}: ")
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

/// One input read statement by statement.
struct Split {
    /// The dialect that read it.
    dialect: String,
    /// The statements parsed, each with its line.
    parsed: Vec<(u64, Statement)>,
    /// What was not parsed, with its line and why.
    unread: Vec<SkippedStatement>,
    /// The parser's errors, in order (the first is the error when no table is read).
    failures: Vec<SqlError>,
}

/// Splits one input by its dialect's rules ([`super::split`]) and parses each statement in
/// `dialect`, else in the dialect the text shows ([`detect`]), else in the first of
/// [`AUTO_DIALECTS`] that reads it. Returns the dialect's name, the statements parsed and the
/// pieces not parsed (client commands, `COPY` rows, statements no dialect reads, each with
/// its line and why), so that one bad statement never ends the file.
fn parse(input: &SqlInput<'_>, dialect: Option<&str>) -> Result<Split, SqlError> {
    parse_pieces(input, dialect, false)
}

/// [`parse`], of one SQL Server batch when `batch` (its statements split as
/// [`super::split::split_statements`] splits them).
fn parse_pieces(
    input: &SqlInput<'_>,
    dialect: Option<&str>,
    batch: bool,
) -> Result<Split, SqlError> {
    if let Some(d) = dialect {
        if dialect_from_str(d).is_none() {
            return Err(SqlError::UnknownDialect(d.to_string()));
        }
    }
    let chosen = dialect.or_else(|| detect(input.text));
    let names: Vec<&str> = match chosen {
        Some(d) => vec![d],
        None => AUTO_DIALECTS.to_vec(),
    };
    let dialects: Vec<(&str, Box<dyn Dialect>)> = names
        .iter()
        .filter_map(|n| dialect_from_str(n).map(|d| (*n, d)))
        .collect();
    let mut used: Option<&str> = chosen;
    let mut parsed = Vec::new();
    let mut unread = Vec::new();
    let mut failures = Vec::new();
    let skip = |line: u64, text: &str, error: Option<String>| SkippedStatement {
        source: input.source.to_string(),
        line,
        statement: first_words(text),
        error,
    };
    let escapes = Escapes::of(chosen);
    let pieces = if batch {
        super::split::split_statements(input.text, escapes)
    } else {
        super::split::split(input.text, escapes)
    };
    // A SQL Server script's batches hold several statements, with or without `;`.
    let go_script = !batch && super::split::has_go_line(input.text);
    for piece in pieces {
        match piece.kind {
            PieceKind::Statement
                if go_script
                    && !super::split::is_routine(&piece.text)
                    && super::split::split_statements(&piece.text, escapes)
                        .nth(1)
                        .is_some() =>
            {
                let batch = SqlInput {
                    source: input.source,
                    text: &piece.text,
                };
                if let Ok(inner) = parse_pieces(&batch, used.or(chosen), true) {
                    used = used.or(dialects
                        .iter()
                        .map(|(n, _)| *n)
                        .find(|n| *n == inner.dialect));
                    let shift = piece.line - 1;
                    parsed.extend(inner.parsed.into_iter().map(|(l, st)| (l + shift, st)));
                    unread.extend(inner.unread.into_iter().map(|mut u| {
                        u.line += shift;
                        u
                    }));
                    failures.extend(inner.failures);
                }
            }
            PieceKind::Command => unread.push(skip(piece.line, &piece.text, None)),
            // The rows are read by `super::rows::read`, once every table is known.
            PieceKind::CopyData { rows: n, .. } => match super::rows::copy_head(&piece.text) {
                Some(_) => {}
                None => unread.push(skip(
                    piece.line,
                    &format!("{} ({n} rows)", first_words(&piece.text)),
                    None,
                )),
            },
            PieceKind::Unterminated(what) => unread.push(skip(
                piece.line,
                &piece.text,
                Some(format!("{what} is never closed")),
            )),
            PieceKind::Statement if super::rows::is_insert(&piece.text) => {
                if super::rows::insert_rows(&piece.text, escapes).is_empty() {
                    unread.push(skip(piece.line, &piece.text, None));
                }
            }
            PieceKind::Statement if !defines_tables(&piece.text) => {
                unread.push(skip(piece.line, &piece.text, None));
            }
            PieceKind::Statement => {
                match parse_statement(&dialects, input.source, piece.line, &piece.text) {
                    Ok((name, statements)) => {
                        used.get_or_insert(name);
                        parsed.extend(statements.into_iter().map(|s| (piece.line, s)));
                    }
                    Err(Some(e)) => {
                        let why = match &e {
                            SqlError::Parse {
                                line,
                                column,
                                message,
                                ..
                            } => format!("{}{message}", at(*line, *column)),
                            other => other.to_string(),
                        };
                        unread.push(skip(piece.line, &piece.text, Some(why)));
                        failures.push(e);
                    }
                    Err(None) => {}
                }
            }
        }
    }
    Ok(Split {
        dialect: used.unwrap_or(AUTO_DIALECTS[0]).to_string(),
        parsed,
        unread,
        failures,
    })
}

/// Parses one statement that defines tables (its first line `line` in `source`) in the first
/// of `dialects` that reads it, as written and then without the column and table options the
/// parser does not know ([`relax`]). Returns the dialect's name and the statements, or the
/// first dialect's error on the input's own line (`None` without dialects).
fn parse_statement<'d>(
    dialects: &'d [(&'d str, Box<dyn Dialect>)],
    source: &str,
    line: u64,
    text: &str,
) -> Result<(&'d str, Vec<Statement>), Option<SqlError>> {
    let mut first_error: Option<SqlError> = None;
    for (name, d) in dialects {
        match Parser::parse_sql(d.as_ref(), text) {
            Ok(statements) => return Ok((name, statements)),
            Err(e) => {
                first_error.get_or_insert_with(|| match parse_error(source, &e.to_string()) {
                    SqlError::Parse {
                        input,
                        line: at,
                        column,
                        message,
                    } => SqlError::Parse {
                        input,
                        line: if at > 0 { line + at - 1 } else { 0 },
                        column,
                        message,
                    },
                    other => other,
                });
            }
        }
    }
    if let Some(relaxed) = relax(text) {
        for (name, d) in dialects {
            if let Ok(statements) = Parser::parse_sql(d.as_ref(), &relaxed) {
                return Ok((name, statements));
            }
        }
    }
    Err(first_error)
}

/// Returns a table definition without what real schemas write and the parser does not read,
/// or `None` when it holds none of them: MySQL's `BINARY` after a character type
/// (`VARCHAR(40) BINARY`: a binary collation), Firebird's `SUB_TYPE TEXT` after `BLOB` (kept
/// as a type name by SQLite), and SQL Server's storage clauses (`ON [PRIMARY]`,
/// `TEXTIMAGE_ON [PRIMARY]`, an index's `WITH (PAD_INDEX = OFF, …)`, `WITH CHECK ADD`,
/// `NONCLUSTERED INDEX`). None of them changes a
/// column's type, key or reference.
fn relax(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let upper_word = |s: &str| {
            s.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .next()
                .unwrap_or("")
                .to_ascii_uppercase()
        };
        if c == '\'' {
            let end = rest
                .char_indices()
                .skip(1)
                .find(|&(_, ch)| ch == '\'')
                .map_or(rest.len(), |(i, _)| i + 1);
            out.push_str(rest.get(..end).unwrap_or(rest));
            rest = rest.get(end..).unwrap_or("");
            continue;
        }
        let at_word = !out
            .chars()
            .last()
            .is_some_and(|p| p.is_ascii_alphanumeric() || p == '_');
        if at_word && c.is_ascii_alphabetic() {
            let word = upper_word(rest);
            let after = rest.get(word.len()..).unwrap_or("");
            let next = after.trim_start();
            let prev = out.trim_end().chars().last();
            let skip = match word.as_str() {
                // `VARCHAR(40) BINARY`, `TEXT BINARY`, but not the type `BINARY(16)`.
                "BINARY"
                    if prev == Some(')')
                        || out.trim_end().to_ascii_uppercase().ends_with("TEXT") =>
                {
                    (!next.starts_with('(')).then_some(word.len())
                }
                "SUB_TYPE" => {
                    let operand = upper_word(next);
                    (!operand.is_empty()).then(|| rest.len() - next.len() + operand.len())
                }
                // A filegroup (`ON [PRIMARY]`), not a table (`ON [dbo].[orders]`).
                "ON" | "TEXTIMAGE_ON" if next.starts_with('[') => next
                    .find(']')
                    .filter(|&e| !next.get(e + 1..).is_some_and(|a| a.starts_with('.')))
                    .map(|e| rest.len() - next.len() + e + 1),
                // `ALTER TABLE t WITH CHECK ADD CONSTRAINT …` (SQL Server).
                "WITH" if matches!(upper_word(next).as_str(), "CHECK" | "NOCHECK") => {
                    Some(rest.len() - next.len() + upper_word(next).len())
                }
                // `CREATE NONCLUSTERED INDEX` (SQL Server).
                "CLUSTERED" | "NONCLUSTERED" if upper_word(next) == "INDEX" => Some(word.len()),
                "WITH" if prev == Some(')') && next.starts_with('(') => next
                    .find(')')
                    .filter(|&e| next.get(..e).is_some_and(|inner| inner.contains('=')))
                    .map(|e| rest.len() - next.len() + e + 1),
                _ => None,
            };
            if let Some(n) = skip {
                changed = true;
                rest = rest.get(n..).unwrap_or("");
                continue;
            }
            out.push_str(rest.get(..word.len()).unwrap_or(""));
            rest = after;
            continue;
        }
        out.push(c);
        rest = rest.get(c.len_utf8()..).unwrap_or("");
    }
    changed.then_some(out)
}

/// Returns whether a statement may define tables, keys or indexes (`CREATE [OR REPLACE]
/// [TEMPORARY|UNLOGGED] TABLE`, `ALTER TABLE`, `CREATE [UNIQUE] [NON]CLUSTERED INDEX`), or is a
/// SQL Server batch that may hold one; anything else (views, triggers, procedures, `SET`,
/// `LOCK TABLES`, `DROP`) is skipped without parsing, as its dialect's syntax is no concern.
pub fn defines_tables(text: &str) -> bool {
    let words: Vec<String> = text
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .take(6)
        .map(str::to_ascii_uppercase)
        .collect();
    let skip = [
        "OR",
        "REPLACE",
        "TEMP",
        "TEMPORARY",
        "GLOBAL",
        "LOCAL",
        "UNLOGGED",
        "UNIQUE",
        "CLUSTERED",
        "NONCLUSTERED",
        "IF",
        "NOT",
        "EXISTS",
    ];
    let mut rest = words.iter().map(String::as_str);
    match rest.next() {
        Some("CREATE") => rest
            .find(|w| !skip.contains(w))
            .is_some_and(|w| w == "TABLE" || w == "INDEX"),
        // Only an ALTER TABLE that adds (a key): not mysqldump's `DISABLE KEYS` or pg_dump's
        // `OWNER TO`.
        Some("ALTER") => {
            rest.next() == Some("TABLE")
                && text
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .any(|w| w.eq_ignore_ascii_case("add"))
        }
        _ => false,
    }
}

/// Returns the dialect a dump shows by the marks its tool leaves (mysqldump's backquotes and
/// version comments, pg_dump's `COPY … FROM stdin` and `SET search_path`, PostgreSQL's escape
/// strings `E'…'`, SQL Server's `GO`
/// lines and `[dbo]`, sqlite3's `PRAGMA`), or `None` when it shows none.
pub fn detect(text: &str) -> Option<&'static str> {
    let head: String = text.chars().take(1 << 16).collect();
    let has = |s: &str| head.contains(s);
    let go_line = head.lines().any(|l| l.trim().eq_ignore_ascii_case("go"));
    if has("/*!") || has("ENGINE=") || has("AUTO_INCREMENT") || has("\nDELIMITER ") {
        Some("mysql")
    } else if has("FROM stdin;")
        || has("SET search_path")
        || has("\\connect")
        || has("$$")
        || has_escape_string(&head)
    {
        Some("postgresql")
    } else if go_line || has("[dbo].") {
        Some("mssql")
    } else if has("PRAGMA ") || has("AUTOINCREMENT") {
        Some("sqlite")
    } else {
        None
    }
}

/// Returns whether `text` holds a PostgreSQL escape string (`E'…'`, `e'…'`) after a space,
/// `(`, `,` or `=`: no other dialect writes a string so.
fn has_escape_string(text: &str) -> bool {
    text.as_bytes()
        .windows(3)
        .any(|w| matches!(w, [b' ' | b'(' | b',' | b'=' | b'\t', b'E' | b'e', b'\'']))
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
