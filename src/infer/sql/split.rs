//! Splitting a dump into statements by its dialect's own rules, before any parsing: a
//! statement ends at the current delimiter (`;`, or what MySQL's `DELIMITER` set) outside
//! strings, quoted names, comments and PostgreSQL dollar quotes, or at a SQL Server `GO` line;
//! psql meta-commands (`\connect`) are pieces of their own; `COPY … FROM stdin` data up to `\.`
//! is counted, not parsed; MySQL version comments (`/*!50503 … */`) are unwrapped. Splitting
//! first means one bad statement is reported and skipped, never the end of the file.

/// What a piece of the text is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PieceKind {
    /// A statement for the parser (without its delimiter).
    Statement,
    /// A client command (`DELIMITER`, `GO`, `\connect`, `source`): nothing to parse.
    Command,
    /// The rows of a `COPY … FROM stdin` up to `\.`.
    CopyData {
        /// Data lines read.
        rows: u64,
        /// Where the data lines are in the text split (the `\.` line left out), for their
        /// values to be read (`rows.rs`) without keeping them.
        data: std::ops::Range<usize>,
    },
    /// Text left open at the end of the input (a string, dollar quote or comment never
    /// closed), and what was left open.
    Unterminated(&'static str),
}

/// One statement, command or block of rows, with the 1-based line it starts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    /// The line it starts on.
    pub line: u64,
    /// What it is.
    pub kind: PieceKind,
    /// Its text (for [`PieceKind::CopyData`], the `COPY` statement's).
    pub text: String,
}

/// How a quoted string escapes: a doubled quote is one quote in every dialect; MySQL (and a
/// dump whose dialect is not known) also reads a backslash as escaping the next byte, which
/// PostgreSQL (standard strings), SQLite and SQL Server do not (`'C:\'` is a whole string).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Escapes {
    /// `''` only.
    Doubled,
    /// `''` and `\'` (MySQL).
    Backslash,
}

impl Escapes {
    /// Returns the escape rule of a dialect's strings (`None`: not known, MySQL's, the most
    /// lenient).
    pub fn of(dialect: Option<&str>) -> Self {
        match dialect.map(str::to_ascii_lowercase).as_deref() {
            Some("postgresql" | "postgres" | "sqlite" | "mssql" | "ansi") => Escapes::Doubled,
            _ => Escapes::Backslash,
        }
    }
}

/// Returns the pieces of `text`, in order, one at a time (a dump's statements are never all
/// kept). A text with a `GO` line is a SQL Server script: its batches end only at `GO`
/// lines, as `sqlcmd` reads them (a procedure's body holds `;`), and [`split_statements`]
/// splits a batch that does not parse whole.
pub fn split(text: &str, escapes: Escapes) -> Pieces<'_> {
    Pieces::new(text, has_go_line(text), escapes)
}

/// Returns the pieces of `text` split at `;` (and `DELIMITER`'s), ignoring `GO` batches: the
/// statements of one SQL Server batch. T-SQL needs no `;` between statements (SQL Server
/// Management Studio's scripts have none: `SET IDENTITY_INSERT … ON`, then one `INSERT` a
/// line), so a statement also ends before a line that starts another ([`starts_statement`]),
/// outside parentheses, unless it is a routine's body ([`is_routine`]), which runs to the end
/// of its batch.
pub fn split_statements(text: &str, escapes: Escapes) -> Pieces<'_> {
    let mut pieces = Pieces::new(text, false, escapes);
    pieces.keywords = true;
    pieces
}

/// The first words of the T-SQL statements a batch holds one after another without `;`, as
/// generated scripts write them: a line starting with one of them starts a statement.
const STATEMENT_WORDS: &[&str] = &[
    "CREATE", "ALTER", "INSERT", "SET", "USE", "DROP", "GRANT", "DENY", "REVOKE", "EXEC",
    "EXECUTE", "PRINT", "TRUNCATE", "DELETE", "UPDATE",
];

/// Returns the first word of `text` (letters, digits, `_`), upper-cased.
fn first_word(text: &str) -> String {
    text.trim_start()
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .next()
        .unwrap_or("")
        .to_ascii_uppercase()
}

/// Returns whether the line starting `line` starts a new statement after `so_far` (a
/// statement read so far in a batch, outside parentheses): both begin with one of
/// [`STATEMENT_WORDS`], `so_far` is no routine, and the line is not the `SET` clause of an
/// `UPDATE` (one that has none yet).
fn starts_statement(so_far: &str, line: &str) -> bool {
    let (current, next) = (first_word(so_far), first_word(line));
    STATEMENT_WORDS.contains(&current.as_str())
        && STATEMENT_WORDS.contains(&next.as_str())
        && !(current == "UPDATE"
            && next == "SET"
            && !so_far
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .any(|w| w.eq_ignore_ascii_case("set")))
        && !is_routine(so_far)
}

/// Returns whether `text` creates or alters a procedure, function, trigger, view or schema:
/// its body (statements of its own, each on its line) runs to the end of its batch.
pub fn is_routine(text: &str) -> bool {
    let mut words = text
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_uppercase);
    if !words.next().is_some_and(|w| w == "CREATE" || w == "ALTER") {
        return false;
    }
    words
        .find(|w| !matches!(w.as_str(), "OR" | "ALTER" | "REPLACE"))
        .is_some_and(|w| {
            matches!(
                w.as_str(),
                "PROCEDURE" | "PROC" | "FUNCTION" | "TRIGGER" | "VIEW" | "SCHEMA"
            )
        })
}

/// Returns whether a line of `text` is a `GO` batch separator (a SQL Server script).
pub fn has_go_line(text: &str) -> bool {
    text.lines().any(|l| is_go(l.trim()))
}

/// Returns whether a (trimmed) line is `GO` or `GO n`.
fn is_go(line: &str) -> bool {
    let mut w = line.split_whitespace();
    w.next().is_some_and(|g| g.eq_ignore_ascii_case("go"))
        && w.all(|n| n.chars().all(|c| c.is_ascii_digit()))
}

/// The pieces of a text, read one at a time: with `batches`, statements end only at `GO`
/// lines.
#[derive(Debug, Clone)]
pub struct Pieces<'a> {
    /// The whole text (for the offsets of `COPY` data).
    text: &'a str,
    /// What is left to read.
    rest: &'a str,
    /// The current delimiter (empty: only `GO` lines end statements).
    delimiter: String,
    /// The 1-based line `rest` starts on.
    line: u64,
    /// A `COPY … FROM stdin` statement just ended: its data follows.
    copy_pending: Option<(u64, String)>,
    /// How strings escape.
    escapes: Escapes,
    /// Statements of a SQL Server batch: one also ends before a line that starts another
    /// ([`split_statements`]).
    keywords: bool,
}

impl<'a> Pieces<'a> {
    /// Returns the reader of `text`.
    fn new(text: &'a str, batches: bool, escapes: Escapes) -> Self {
        Pieces {
            text,
            rest: text,
            delimiter: String::from(if batches { "" } else { ";" }),
            line: 1,
            copy_pending: None,
            escapes,
            keywords: false,
        }
    }

    /// Returns the data of a `COPY … FROM stdin` that just ended, up to `\.`.
    fn copy_data(&mut self, at: u64, statement: String) -> Piece {
        // The data starts on the line after the statement.
        if let Some(nl) = self.rest.find('\n') {
            if self.rest[..nl].trim().is_empty() {
                self.rest = &self.rest[nl + 1..];
                self.line += 1;
            }
        }
        let start = self.text.len() - self.rest.len();
        let mut end = start;
        let mut rows = 0;
        while !self.rest.is_empty() {
            let (row, next) = match self.rest.find('\n') {
                Some(nl) => (&self.rest[..nl], &self.rest[nl + 1..]),
                None => (self.rest, ""),
            };
            self.rest = next;
            self.line += 1;
            if row.trim_end_matches('\r') == "\\." {
                break;
            }
            end = self.text.len() - self.rest.len();
            rows += 1;
        }
        Piece {
            line: at,
            kind: PieceKind::CopyData {
                rows,
                data: start..end,
            },
            text: statement,
        }
    }
}

impl Iterator for Pieces<'_> {
    type Item = Piece;

    fn next(&mut self) -> Option<Piece> {
        loop {
            if let Some((at, statement)) = self.copy_pending.take() {
                return Some(self.copy_data(at, statement));
            }
            // Skip blank space and `--` comment lines, counting lines, so that a client
            // command after a comment (pg_dump's `\restrict` under its header) is seen at its
            // own line.
            loop {
                let trimmed = self.rest.trim_start();
                self.line += self.rest[..self.rest.len() - trimmed.len()]
                    .matches('\n')
                    .count() as u64;
                self.rest = trimmed;
                if !self.rest.starts_with("--") {
                    break;
                }
                self.rest = self.rest.find('\n').map_or("", |nl| &self.rest[nl..]);
            }
            if self.rest.is_empty() {
                return None;
            }
            let rest = self.rest;
            let first_line = rest.split('\n').next().unwrap_or("").trim_end_matches('\r');
            if let Some(command) = command(first_line, &mut self.delimiter) {
                self.rest = &rest[first_line.len()..];
                return Some(Piece {
                    line: self.line,
                    kind: PieceKind::Command,
                    text: command,
                });
            }
            let (piece, used) = statement(
                rest,
                &self.delimiter,
                self.line,
                self.escapes,
                self.keywords,
            );
            self.line += rest[..used].matches('\n').count() as u64;
            self.rest = &rest[used..];
            if let Some(piece) = piece {
                if piece.kind == PieceKind::Statement && is_copy_from_stdin(&piece.text) {
                    self.copy_pending = Some((piece.line, piece.text));
                } else {
                    return Some(piece);
                }
            }
        }
    }
}

/// Returns the line as a client command if it is one (setting a new `DELIMITER`).
fn command(first_line: &str, delimiter: &mut String) -> Option<String> {
    let t = first_line.trim();
    if t.starts_with('\\') {
        return Some(t.to_string());
    }
    let mut words = t.split_whitespace();
    let head = words.next()?.to_ascii_lowercase();
    match head.as_str() {
        "delimiter" => {
            if let Some(d) = words.next() {
                *delimiter = d.to_string();
            }
            Some(t.to_string())
        }
        "go" if is_go(t) => Some(t.to_string()),
        // `source file.dump` (mysql client), with or without `;`.
        "source" => Some(t.to_string()),
        _ => None,
    }
}

/// Returns whether a statement is `COPY … FROM stdin` (its rows follow it).
fn is_copy_from_stdin(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    lower.trim_start().starts_with("copy ") && lower.contains("from stdin")
}

/// Returns the statement at the start of `rest` and the bytes it used (its delimiter
/// included); `None` for an empty statement. An empty `delimiter` ends statements only at `GO`
/// lines. A `;` inside the `BEGIN … END` body of a `CREATE TRIGGER` (SQLite's form, with no
/// `DELIMITER`) does not end it: only a `;` after its `END` does, as `sqlite3` reads it. With
/// `keywords`, a line that starts another statement ends it too ([`split_statements`]).
fn statement(
    rest: &str,
    delimiter: &str,
    line: u64,
    escapes: Escapes,
    keywords: bool,
) -> (Option<Piece>, usize) {
    let bytes = rest.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    // Parentheses open outside strings and comments.
    let mut depth = 0usize;
    let mut version_comments = 0usize;
    let mut at_line_start = false;
    let done = |out: String, kind: PieceKind| {
        let text = out.trim().to_string();
        (!text.is_empty() || kind != PieceKind::Statement).then_some(Piece { line, kind, text })
    };
    while let Some(&c) = bytes.get(i) {
        // A `GO` line ends the batch (SQL Server).
        if at_line_start && is_go(rest[i..].split('\n').next().unwrap_or("").trim()) {
            return (done(out, PieceKind::Statement), i);
        }
        if at_line_start
            && keywords
            && depth == 0
            && starts_statement(&out, rest[i..].split('\n').next().unwrap_or(""))
        {
            return (done(out, PieceKind::Statement), i);
        }
        at_line_start = false;
        if !delimiter.is_empty() && rest[i..].starts_with(delimiter) {
            if delimiter == ";" && inside_trigger_body(&out) {
                out.push(';');
                i += 1;
                continue;
            }
            return (done(out, PieceKind::Statement), i + delimiter.len());
        }
        match c {
            b'\n' => {
                at_line_start = true;
                out.push('\n');
                i += 1;
            }
            b'\'' | b'"' | b'`' => match close_quote(bytes, i, c, quote_escapes(bytes, i, escapes))
            {
                Some(end) => {
                    out.push_str(&rest[i..end]);
                    i = end;
                }
                None => {
                    return (
                        done(out, PieceKind::Unterminated("a quoted string")),
                        rest.len(),
                    )
                }
            },
            b'-' if bytes.get(i + 1) == Some(&b'-') => {
                let end = rest[i..].find('\n').map_or(rest.len(), |n| i + n);
                i = end;
            }
            b'#' if out.trim().is_empty() => {
                // A MySQL comment line before a statement.
                let end = rest[i..].find('\n').map_or(rest.len(), |n| i + n);
                i = end;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                match block_comment(rest, i, &mut out, &mut version_comments) {
                    Some(end) => i = end,
                    None => {
                        return (
                            done(out, PieceKind::Unterminated("a /* comment")),
                            rest.len(),
                        )
                    }
                }
            }
            b'*' if version_comments > 0 && bytes.get(i + 1) == Some(&b'/') => {
                version_comments -= 1;
                out.push(' ');
                i += 2;
            }
            b'$' if dollar_tag(rest, i).is_some() && !ident_before(bytes, i) => {
                let tag = dollar_tag(rest, i).unwrap_or("$$");
                match rest[i + tag.len()..].find(tag) {
                    Some(n) => {
                        let end = i + tag.len() + n + tag.len();
                        out.push_str(&rest[i..end]);
                        i = end;
                    }
                    None => {
                        return (
                            done(out, PieceKind::Unterminated("a dollar quote")),
                            rest.len(),
                        )
                    }
                }
            }
            _ => {
                let ch = rest[i..].chars().next().unwrap_or(' ');
                match ch {
                    '(' => depth += 1,
                    ')' => depth = depth.saturating_sub(1),
                    _ => {}
                }
                out.push(ch);
                i += ch.len_utf8();
            }
        }
    }
    (done(out, PieceKind::Statement), rest.len())
}

/// Reads the `/*` comment at byte `i` of `rest` into `out`. A MySQL version comment
/// (`/*!50503 …`) holds SQL for MySQL: only its head is skipped and `version_comments` counts
/// it open (its `*/` is skipped where it comes). Any other comment becomes a space and its
/// newlines, so the line count holds. Returns where reading goes on, or `None` when the
/// comment is never closed.
fn block_comment(
    rest: &str,
    i: usize,
    out: &mut String,
    version_comments: &mut usize,
) -> Option<usize> {
    let bytes = rest.as_bytes();
    if bytes.get(i + 2) == Some(&b'!') {
        let mut end = i + 3;
        while bytes.get(end).is_some_and(u8::is_ascii_digit) {
            end += 1;
        }
        *version_comments += 1;
        return Some(end);
    }
    let n = rest[i + 2..].find("*/")?;
    let body = &rest[i..i + 2 + n + 2];
    out.push(' ');
    out.extend(std::iter::repeat_n('\n', body.matches('\n').count()));
    Some(i + 2 + n + 2)
}

/// Returns whether `text` (a statement read so far, comments removed) is a `CREATE [TEMP]
/// TRIGGER` with a `BEGIN` whose `END` has not come yet.
fn inside_trigger_body(text: &str) -> bool {
    let mut words = text
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty());
    if !words
        .next()
        .is_some_and(|w| w.eq_ignore_ascii_case("create"))
    {
        return false;
    }
    let mut kind = words.next();
    if kind.is_some_and(|w| w.eq_ignore_ascii_case("temp") || w.eq_ignore_ascii_case("temporary")) {
        kind = words.next();
    }
    if !kind.is_some_and(|w| w.eq_ignore_ascii_case("trigger")) {
        return false;
    }
    let mut begun = false;
    let mut last = "";
    for w in words {
        begun |= w.eq_ignore_ascii_case("begin");
        last = w;
    }
    begun && !last.eq_ignore_ascii_case("end")
}

/// Returns how the quoted text opened at `i` escapes: a backquoted name never by backslash,
/// a PostgreSQL escape string (`E'it\'s'`) always, any other string or double-quoted text by
/// the dialect's rule.
fn quote_escapes(bytes: &[u8], i: usize, escapes: Escapes) -> Escapes {
    let quote = bytes.get(i).copied().unwrap_or(b'\'');
    let escape_string = quote == b'\''
        && i.checked_sub(1)
            .and_then(|j| bytes.get(j))
            .is_some_and(|b| *b == b'E' || *b == b'e')
        && !ident_before(bytes, i - 1);
    if quote == b'`' {
        Escapes::Doubled
    } else if escape_string {
        Escapes::Backslash
    } else {
        escapes
    }
}

/// Returns the end (past the closing quote) of the quoted text opened at `start`, or `None`
/// when it is never closed: a doubled quote is one quote; with [`Escapes::Backslash`], a
/// backslash escapes the next byte. The one rule of quoting for the splitter and the row
/// reader (`rows.rs`).
pub fn close_quote(bytes: &[u8], start: usize, quote: u8, escapes: Escapes) -> Option<usize> {
    let mut i = start + 1;
    while let Some(&c) = bytes.get(i) {
        if c == b'\\' && escapes == Escapes::Backslash {
            i += 2;
            continue;
        }
        if c == quote {
            if bytes.get(i + 1) == Some(&quote) {
                i += 2;
                continue;
            }
            return Some(i + 1);
        }
        i += 1;
    }
    None
}

/// Returns the dollar-quote tag (`$$`, `$body$`) opening at `i`, if one does.
fn dollar_tag(rest: &str, i: usize) -> Option<&str> {
    let after = &rest[i + 1..];
    let n = after
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
        .count();
    if after.as_bytes().get(n) == Some(&b'$')
        && !after.as_bytes().first().is_some_and(|b| b.is_ascii_digit())
    {
        Some(&rest[i..i + n + 2])
    } else {
        None
    }
}

/// Returns whether the byte before `i` belongs to a name (`a$b` is no dollar quote).
fn ident_before(bytes: &[u8], i: usize) -> bool {
    i.checked_sub(1)
        .and_then(|j| bytes.get(j))
        .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(u64, PieceKind, String)> {
        split(text, Escapes::Backslash)
            .map(|p| (p.line, p.kind, p.text))
            .collect()
    }

    #[test]
    fn splits_by_each_dialects_rules() {
        let mysql = "/*!40101 SET NAMES utf8 */;\nDELIMITER ;;\nCREATE TRIGGER t BEFORE INSERT ON a FOR EACH ROW BEGIN SET x = 1; END ;;\nDELIMITER ;\nCREATE TABLE a (b VARCHAR(40) BINARY) /*!50503 DEFAULT CHARSET=utf8mb4 */;\n";
        let p = kinds(mysql);
        assert_eq!(p.len(), 5, "{p:?}");
        assert_eq!(p[0].2, "SET NAMES utf8");
        assert_eq!(p[2].0, 3);
        assert!(p[2].2.ends_with("END"), "{p:?}");
        assert_eq!(p[4].0, 5);
        assert!(p[4].2.contains("DEFAULT CHARSET=utf8mb4"));
        let pg = "CREATE FUNCTION f() RETURNS int AS $body$ SELECT 1; $body$ LANGUAGE sql;\n\\connect db\nCOPY public.a (id, b) FROM stdin;\n1\tx;y\n2\t\\N\n\\.\nSELECT 1;";
        let p = kinds(pg);
        assert_eq!(p[0].1, PieceKind::Statement);
        assert!(p[0].2.contains("SELECT 1; $body$"));
        assert_eq!(p[1], (2, PieceKind::Command, "\\connect db".into()));
        assert!(
            matches!(&p[2].1, PieceKind::CopyData { rows: 2, data } if &pg[data.clone()] == "1\tx;y\n2\t\\N\n"),
            "{p:?}"
        );
        assert_eq!(p[3].0, 7);
        let header = "--\n-- dump\n--\n\n\\restrict abc\n\nSET a = 0;\n";
        let p = kinds(header);
        assert_eq!(p[0], (5, PieceKind::Command, "\\restrict abc".into()));
        assert_eq!(p[1], (7, PieceKind::Statement, "SET a = 0".into()));
        let mssql = "CREATE TABLE [a] (id INT)\nGO\nCREATE VIEW v AS SELECT 1\ngo 2\n";
        let p = kinds(mssql);
        assert_eq!(p.len(), 4, "{p:?}");
        assert_eq!(p[2].0, 3);
        // A `;` inside a GO batch (a procedure's body) does not end it.
        let batch = "CREATE PROCEDURE p AS\nBEGIN\n  SET NOCOUNT ON;\n  SELECT 1;\nEND\nGO\nCREATE TABLE b (id INT); CREATE TABLE c (id INT)\nGO\n";
        let p = kinds(batch);
        assert_eq!(p.len(), 4, "{p:?}");
        assert!(p[0].2.contains("SELECT 1;\nEND"), "{p:?}");
        assert_eq!((p[2].0, p[2].1.clone()), (7, PieceKind::Statement));
        let parts: Vec<Piece> = split_statements(&p[2].2, Escapes::Backslash).collect();
        assert_eq!(parts.len(), 2, "{parts:?}");
        assert_eq!(parts[1].text, "CREATE TABLE c (id INT)");
    }

    #[test]
    fn a_batch_splits_at_lines_that_start_statements() {
        let batch = "SET IDENTITY_INSERT [a] ON\n\nINSERT [a] ([id]) VALUES (1)\nINSERT [a] ([id], [s]) VALUES (2, N'x\nINSERT y')\nCREATE TABLE [b](\n\t[id] INT\n)\nUPDATE [a]\nSET [id] = 3\nSET IDENTITY_INSERT [a] OFF";
        let p: Vec<(u64, String)> = split_statements(batch, Escapes::Doubled)
            .map(|p| (p.line, p.text))
            .collect();
        let lines: Vec<u64> = p.iter().map(|(l, _)| *l).collect();
        assert_eq!(lines, [1, 3, 4, 6, 9, 11], "{p:?}");
        assert!(p[2].1.ends_with("INSERT y')"), "{p:?}");
        assert!(p[4].1.ends_with("SET [id] = 3"), "{p:?}");
        // A routine's body runs to the end of its batch.
        let proc = "CREATE PROCEDURE p AS\nBEGIN\nSET NOCOUNT ON\nINSERT a VALUES (1)\nEND";
        assert_eq!(split_statements(proc, Escapes::Doubled).count(), 1);
        // Outside a batch, only the delimiter ends a statement.
        assert_eq!(
            split(
                "CREATE TABLE a (id INT)\nCREATE TABLE b (id INT);",
                Escapes::Doubled
            )
            .count(),
            1
        );
    }

    #[test]
    fn a_sqlite_trigger_body_keeps_its_semicolons() {
        let text = "CREATE TABLE a (id INTEGER);\nCREATE TRIGGER t AFTER UPDATE ON a FOR EACH ROW\nBEGIN\n  UPDATE a SET id = 1;\n  DELETE FROM a;\nEND;\nCREATE TEMP TRIGGER u AFTER DELETE ON a BEGIN SELECT 1; END;\nCREATE TRIGGER v BEFORE INSERT ON a FOR EACH ROW SET NEW.id = 2;\nSELECT 3;";
        let p = kinds(text);
        assert_eq!(p.len(), 5, "{p:?}");
        assert_eq!(p[1].0, 2);
        assert!(p[1].2.ends_with("DELETE FROM a;\nEND"), "{p:?}");
        assert_eq!(p[2].0, 7);
        assert_eq!(
            p[3].2,
            "CREATE TRIGGER v BEFORE INSERT ON a FOR EACH ROW SET NEW.id = 2"
        );
        assert_eq!((p[4].0, p[4].2.as_str()), (9, "SELECT 3"));
    }

    #[test]
    fn hostile_text_ends_with_a_piece_not_a_panic() {
        let p = kinds("CREATE TABLE a (b INT);\nINSERT INTO a VALUES ('never closed);\n");
        assert_eq!(p[1].1, PieceKind::Unterminated("a quoted string"));
        assert_eq!(p[1].0, 2);
        let p = kinds("SELECT $x$ open;");
        assert_eq!(p[0].1, PieceKind::Unterminated("a dollar quote"));
        let p = kinds("DELIMITER\nSELECT 1; /* open");
        assert_eq!(p[0].1, PieceKind::Command);
        assert_eq!(p[1].2, "SELECT 1");
        assert_eq!(p[2].1, PieceKind::Unterminated("a /* comment"));
    }
}
