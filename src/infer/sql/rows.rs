//! The rows of a dump, read without the SQL parser and never kept: `INSERT … VALUES`
//! statements (each parenthesized tuple a row; MySQL's multi-row `INSERT`s; several statements
//! in one SQL Server batch; the columns named or, if not, the table's in their `CREATE TABLE`
//! order) and the tab-separated data of `COPY … FROM stdin`. Each value goes into its column's
//! accumulator ([`ColumnRows`]): NULLs, text lengths, distinct strings while few, numeric
//! range, and for a foreign-key column the rows per value. A dump's rows are most of its
//! bytes: parsing each into a syntax tree, or keeping it, would cost memory for nothing.
//!
//! It stays one file: one streaming pass over a dump's data (the tokenizer, the `INSERT` and
//! `COPY` readers and the accumulators they feed), and its tests.

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};

use super::read::Table;
use super::split::{
    close_quote, has_go_line, is_routine, split, split_statements, Escapes, PieceKind,
};
use super::{types, SqlInput};
use crate::infer::sketch::Sketch;
use crate::infer::stats::{StringStats, ValueCounts};
use crate::model::BsonType;

/// One token of a statement at the level the row reader needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token<'a> {
    /// A bare word (a keyword, a name, `NULL`, a string's prefix such as `N` or `_utf8mb4`).
    Word(&'a str),
    /// A quoted name (`"a"`, `` `a` ``, `[a]`), without its quotes.
    Name(&'a str),
    /// A string literal's text between its quotes, escapes not yet read.
    Text(&'a str),
    /// The raw text of a PostgreSQL escape string (`E'it\'s'`), between its quotes.
    Escaped(&'a str),
    /// A number as written (`42`, `4.99`, `1e-3`), without its sign.
    Number(&'a str),
    /// `-`.
    Minus,
    /// `(`.
    Open,
    /// `)`.
    Close,
    /// `,`.
    Comma,
    /// `.`.
    Dot,
    /// Anything else (an operator, `;`).
    Other,
}

/// The tokens of a statement, read one at a time (comments were removed by the splitter).
struct Tokens<'a> {
    /// The statement.
    text: &'a str,
    /// The next byte to read.
    i: usize,
    /// How its strings escape.
    escapes: Escapes,
}

impl<'a> Tokens<'a> {
    /// Returns the tokens of `text`.
    fn new(text: &'a str, escapes: Escapes) -> Self {
        Tokens {
            text,
            i: 0,
            escapes,
        }
    }

    /// Returns the text from `start` to `end` ("" off a character boundary, which the
    /// ASCII bytes the reader stops at never are).
    fn slice(&self, start: usize, end: usize) -> &'a str {
        self.text.get(start..end).unwrap_or("")
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        let bytes = self.text.as_bytes();
        while bytes.get(self.i).is_some_and(u8::is_ascii_whitespace) {
            self.i += 1;
        }
        let start = self.i;
        let c = *bytes.get(start)?;
        let one = |t: Token<'a>, i: &mut usize| {
            *i += 1;
            Some(t)
        };
        match c {
            b'\'' => {
                // A string never closed runs to the end of the statement.
                let end = close_quote(bytes, start, b'\'', self.escapes);
                self.i = end.unwrap_or(bytes.len());
                let inner_end = end.map_or(bytes.len(), |e| e - 1);
                Some(Token::Text(self.slice(start + 1, inner_end)))
            }
            b'"' | b'`' | b'[' => {
                let quote = if c == b'[' { b']' } else { c };
                let end = close_quote(bytes, start, quote, Escapes::Doubled);
                self.i = end.unwrap_or(bytes.len());
                let inner_end = end.map_or(bytes.len(), |e| e - 1);
                Some(Token::Name(self.slice(start + 1, inner_end)))
            }
            b'(' => one(Token::Open, &mut self.i),
            b')' => one(Token::Close, &mut self.i),
            b',' => one(Token::Comma, &mut self.i),
            b'-' => one(Token::Minus, &mut self.i),
            b'.' if !bytes.get(start + 1).is_some_and(u8::is_ascii_digit) => {
                one(Token::Dot, &mut self.i)
            }
            c if c.is_ascii_digit() || c == b'.' => {
                self.i += 1;
                while let Some(&b) = bytes.get(self.i) {
                    let exponent_sign = (b == b'-' || b == b'+')
                        && bytes
                            .get(self.i - 1)
                            .is_some_and(|p| *p == b'e' || *p == b'E');
                    if b.is_ascii_alphanumeric() || b == b'.' || exponent_sign {
                        self.i += 1;
                    } else {
                        break;
                    }
                }
                Some(Token::Number(self.slice(start, self.i)))
            }
            // `E'…'`: PostgreSQL's escape string, whose backslashes escape whatever the
            // dialect's standard strings do.
            b'E' | b'e' if bytes.get(start + 1) == Some(&b'\'') => {
                let end = close_quote(bytes, start + 1, b'\'', Escapes::Backslash);
                self.i = end.unwrap_or(bytes.len());
                let inner_end = end.map_or(bytes.len(), |e| e - 1);
                Some(Token::Escaped(self.slice(start + 2, inner_end)))
            }
            c if c.is_ascii_alphabetic() || c == b'_' || c >= 0x80 => {
                while bytes.get(self.i).is_some_and(|b| {
                    b.is_ascii_alphanumeric() || *b == b'_' || *b == b'$' || *b >= 0x80
                }) {
                    self.i += 1;
                }
                Some(Token::Word(self.slice(start, self.i)))
            }
            _ => one(Token::Other, &mut self.i),
        }
    }
}

/// Words between `INSERT` and the table's name.
const INSERT_WORDS: [&str; 7] = [
    "into",
    "ignore",
    "low_priority",
    "delayed",
    "high_priority",
    "or",
    "replace",
];

/// Returns whether a statement's first word makes it rows (`INSERT`, MySQL's `REPLACE`).
pub fn is_insert(text: &str) -> bool {
    let first = text
        .trim_start()
        .split(|c: char| !c.is_ascii_alphabetic())
        .next()
        .unwrap_or("");
    first.eq_ignore_ascii_case("insert") || first.eq_ignore_ascii_case("replace")
}

/// One value of a row as read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Cell<'a> {
    /// `NULL` (`\N` in `COPY` data).
    Null,
    /// A number: its text (with its sign) and its value.
    Number(&'a str, f64),
    /// A string, its escapes read.
    Text(&'a str),
    /// Anything else (`TRUE`, `DEFAULT`, a function call): present, not measured.
    Other,
}

/// What reading an `INSERT` finds, in order.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Event<'a> {
    /// An `INSERT … VALUES` into `table` (without its schema) begins, naming `columns`
    /// (none: every column, in the table's order).
    Insert {
        /// The table.
        table: &'a str,
        /// The columns named.
        columns: &'a [&'a str],
    },
    /// The value at position `at` of the current row.
    Value {
        /// Its position in the tuple.
        at: usize,
        /// The value.
        cell: Cell<'a>,
    },
    /// The current row ended.
    RowEnd,
}

/// The first literal of one value of a tuple, as its tokens come.
#[derive(Debug, Clone, Copy, Default)]
struct Partial<'a> {
    /// The literal, once seen: a number (with a `-` before it), a string, `NULL`.
    literal: Option<Literal<'a>>,
    /// A `-` came before any literal.
    minus: bool,
}

/// A literal of a tuple.
#[derive(Debug, Clone, Copy)]
enum Literal<'a> {
    /// `NULL`.
    Null,
    /// A number as written, and whether a `-` preceded it.
    Number(&'a str, bool),
    /// A string's raw text.
    Text(&'a str),
    /// An escape string's raw text.
    Escaped(&'a str),
}

impl<'a> Partial<'a> {
    /// Reads one token of the value: the first literal is the value (`N'x'`, `CAST(N'x' AS
    /// date)`, `_utf8mb4'x'` are the string `x`).
    fn feed(&mut self, t: Token<'a>) {
        if self.literal.is_some() {
            return;
        }
        self.literal = match t {
            Token::Word(w) if w.eq_ignore_ascii_case("null") => Some(Literal::Null),
            Token::Text(raw) => Some(Literal::Text(raw)),
            Token::Escaped(raw) => Some(Literal::Escaped(raw)),
            Token::Number(n) => Some(Literal::Number(n, self.minus)),
            Token::Minus => {
                self.minus = !self.minus;
                None
            }
            _ => None,
        };
    }
}

/// Reads the `INSERT … VALUES` statements of `text` and tells `sink` what it finds; an
/// `INSERT … SELECT` gives no rows and is left out. The statement is read token by token,
/// so memory does not grow with its rows.
fn scan_insert(text: &str, escapes: Escapes, sink: &mut dyn FnMut(Event<'_>)) {
    let mut toks = Tokens::new(text, escapes).peekable();
    let mut depth = 0usize;
    // Inside an INSERT's head (before VALUES), or its VALUES list.
    let mut head: Option<(String, Vec<&str>)> = None;
    let mut values = false;
    // The position and first literal of the value being read in a row.
    let mut at = 0usize;
    let mut cell = Partial::default();
    let mut buffer = String::new();
    let mut emit = |at: usize, cell: Partial<'_>, sink: &mut dyn FnMut(Event<'_>)| {
        let c = match cell.literal {
            None => Cell::Other,
            Some(Literal::Null) => Cell::Null,
            Some(Literal::Number(n, minus)) => {
                buffer.clear();
                if minus {
                    buffer.push('-');
                }
                buffer.push_str(n);
                let v = buffer.parse::<f64>().unwrap_or(f64::NAN);
                Cell::Number(&buffer, v)
            }
            Some(Literal::Text(raw)) => Cell::Text(unquote(raw, escapes, &mut buffer)),
            Some(Literal::Escaped(raw)) => Cell::Text(escape_string(raw, &mut buffer)),
        };
        sink(Event::Value { at, cell: c });
    };
    while let Some(t) = toks.next() {
        match t {
            Token::Open => {
                if depth == 0 && values {
                    at = 0;
                    cell = Partial::default();
                } else if depth > 0 && values {
                    cell.feed(t);
                }
                depth += 1;
            }
            Token::Close => {
                depth = depth.saturating_sub(1);
                if depth == 0 && values {
                    emit(at, cell, sink);
                    sink(Event::RowEnd);
                }
            }
            Token::Comma if depth == 1 && values => {
                emit(at, cell, sink);
                at += 1;
                cell = Partial::default();
            }
            Token::Word(w)
                if depth == 0
                    && (w.eq_ignore_ascii_case("insert")
                        || (w.eq_ignore_ascii_case("replace") && head.is_none() && !values)) =>
            {
                values = false;
                while let Some(Token::Word(w)) = toks.peek() {
                    if INSERT_WORDS.iter().any(|i| w.eq_ignore_ascii_case(i)) {
                        toks.next();
                    } else {
                        break;
                    }
                }
                let (name, columns) = target(&mut toks);
                head = name.map(|n| (n.to_string(), columns));
            }
            Token::Word(w) if depth == 0 && head.is_some() && !values => {
                if w.eq_ignore_ascii_case("values") || w.eq_ignore_ascii_case("value") {
                    values = true;
                    if let Some((table, columns)) = &head {
                        sink(Event::Insert { table, columns });
                    }
                } else if w.eq_ignore_ascii_case("select") {
                    head = None;
                }
            }
            // What follows the rows (`ON DUPLICATE KEY UPDATE`, `RETURNING`) is no row.
            Token::Word(_) if depth == 0 && values => {
                values = false;
                head = None;
            }
            t if depth > 0 && values => cell.feed(t),
            _ => {}
        }
    }
}

/// Returns, for each `INSERT … VALUES` in `text`, its table (without its schema) and how many
/// rows it holds; an `INSERT … SELECT` gives no rows and is left out.
pub fn insert_rows(text: &str, escapes: Escapes) -> Vec<(String, u64)> {
    let mut out: Vec<(String, u64)> = Vec::new();
    scan_insert(text, escapes, &mut |e| match e {
        Event::Insert { table, .. } => out.push((table.to_string(), 0)),
        Event::RowEnd => {
            if let Some(last) = out.last_mut() {
                last.1 += 1;
            }
        }
        Event::Value { .. } => {}
    });
    out
}

/// Returns a string literal's value: a doubled quote is one quote; with
/// [`Escapes::Backslash`], MySQL's escapes (`\n`, `\t`, `\r`, `\0`, `\b`, `\Z`; `\%` and `\_`
/// keep their backslash; any other `\x` is `x`). Written into `out`, which is returned.
fn unquote<'b>(raw: &str, escapes: Escapes, out: &'b mut String) -> &'b str {
    out.clear();
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                // The second quote of a doubled one.
                out.push('\'');
                chars.next();
            }
            '\\' if escapes == Escapes::Backslash => match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('r') => out.push('\r'),
                Some('0') => out.push('\0'),
                Some('b') => out.push('\u{8}'),
                Some('Z') => out.push('\u{1a}'),
                Some(k @ ('%' | '_')) => {
                    out.push('\\');
                    out.push(k);
                }
                Some(k) => out.push(k),
                None => out.push('\\'),
            },
            c => out.push(c),
        }
    }
    out
}

/// Returns a value of `COPY`'s text format: `\N` is NULL; `\b`, `\f`, `\n`, `\r`, `\t`, `\v`,
/// octal `\ddd` and hex `\xhh` are their bytes; any other `\x` is `x`. Written into `out`.
fn copy_value<'b>(field: &str, out: &'b mut String) -> Option<&'b str> {
    if field == "\\N" {
        return None;
    }
    out.clear();
    out.push_str(&String::from_utf8_lossy(&unbackslash(field, false)));
    Some(out)
}

/// Returns the value of a PostgreSQL escape string `E'…'` from its raw text: as
/// [`copy_value`] reads backslashes, plus `''` for a quote and `\uXXXX`, `\UXXXXXXXX` for a
/// character. Written into `out`.
fn escape_string<'b>(raw: &str, out: &'b mut String) -> &'b str {
    out.clear();
    out.push_str(&String::from_utf8_lossy(&unbackslash(raw, true)));
    out
}

/// Returns the bytes `field` stands for, its backslash escapes read: `\b`, `\f`, `\n`,
/// `\r`, `\t`, octal `\ddd`, hex `\xhh`, any other `\x` is `x`; `COPY`'s text format also
/// has `\v`, an escape string (`escape`) `''`, `\uXXXX` and `\UXXXXXXXX` instead.
fn unbackslash(field: &str, escape: bool) -> Vec<u8> {
    let bytes = field.as_bytes();
    let mut raw: Vec<u8> = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&c) = bytes.get(i) {
        i += 1;
        if escape && c == b'\'' && bytes.get(i) == Some(&b'\'') {
            raw.push(c);
            i += 1;
            continue;
        }
        if c != b'\\' {
            raw.push(c);
            continue;
        }
        let Some(&k) = bytes.get(i) else {
            raw.push(b'\\');
            break;
        };
        i += 1;
        match k {
            b'b' => raw.push(8),
            b'f' => raw.push(12),
            b'n' => raw.push(b'\n'),
            b'r' => raw.push(b'\r'),
            b't' => raw.push(b'\t'),
            b'v' if !escape => raw.push(11),
            b'u' | b'U' if escape => {
                let digits = if k == b'u' { 4 } else { 8 };
                let hex = field.get(i..i + digits).unwrap_or("");
                match u32::from_str_radix(hex, 16).ok().and_then(char::from_u32) {
                    Some(ch) if hex.len() == digits => {
                        let mut utf8 = [0u8; 4];
                        raw.extend_from_slice(ch.encode_utf8(&mut utf8).as_bytes());
                        i += digits;
                    }
                    _ => raw.push(k),
                }
            }
            b'0'..=b'7' => {
                let mut v = u32::from(k - b'0');
                for _ in 0..2 {
                    match bytes.get(i) {
                        Some(&d @ b'0'..=b'7') => {
                            v = v * 8 + u32::from(d - b'0');
                            i += 1;
                        }
                        _ => break,
                    }
                }
                raw.push((v & 0xff) as u8);
            }
            b'x' if bytes.get(i).is_some_and(u8::is_ascii_hexdigit) => {
                let mut v = 0u32;
                for _ in 0..2 {
                    match bytes.get(i).and_then(|d| (*d as char).to_digit(16)) {
                        Some(d) => {
                            v = v * 16 + d;
                            i += 1;
                        }
                        None => break,
                    }
                }
                raw.push(v as u8);
            }
            other => raw.push(other),
        }
    }
    raw
}

/// Returns the table of a `COPY name (columns) FROM stdin` statement (without its schema)
/// and the columns it names (none: every column, in the table's order).
pub fn copy_head(text: &str) -> Option<(String, Vec<String>)> {
    let mut toks = Tokens::new(text, Escapes::Doubled).peekable();
    match toks.next() {
        Some(Token::Word(w)) if w.eq_ignore_ascii_case("copy") => {}
        _ => return None,
    }
    let (name, columns) = target(&mut toks);
    name.filter(|n| !n.eq_ignore_ascii_case("from")).map(|n| {
        (
            n.to_string(),
            columns.iter().map(|c| c.to_string()).collect(),
        )
    })
}

/// Reads the target of an `INSERT INTO` or a `COPY`: the table's name (its last part, without
/// the schema: `public.film` is `film`) and the column list after it, if any (none: every
/// column, in the table's order).
fn target<'a>(toks: &mut std::iter::Peekable<Tokens<'a>>) -> (Option<&'a str>, Vec<&'a str>) {
    let mut name = None;
    while let Some(Token::Word(n) | Token::Name(n)) = toks.peek().copied() {
        name = Some(n);
        toks.next();
        if toks.peek() == Some(&Token::Dot) {
            toks.next();
        } else {
            break;
        }
    }
    let mut columns = Vec::new();
    if toks.peek() == Some(&Token::Open) {
        toks.next();
        for t in toks.by_ref() {
            match t {
                Token::Word(c) | Token::Name(c) => columns.push(c),
                Token::Close => break,
                _ => {}
            }
        }
    }
    (name, columns)
}

/// What the values of one column showed.
#[derive(Debug, Clone, Default)]
pub struct ColumnRows {
    /// Values other than NULL.
    pub values: u64,
    /// NULLs (a column a row's `INSERT` does not name is neither: it is missing too).
    pub nulls: u64,
    /// Byte lengths of its strings (a text or binary column).
    pub lengths: Sketch,
    /// Its strings while few (an enum), and how many look like an email, a URL or an IP.
    pub strings: StringStats,
    /// The smallest and largest number (a numeric column).
    pub numbers: Option<(f64, f64)>,
    /// The earliest and latest day (`YYYY-MM-DD`, the start of a date or timestamp value: a
    /// date column).
    pub days: Option<([u8; 10], [u8; 10])>,
    /// For a one-column foreign key: rows per value, each value hashed, for the first
    /// [`crate::infer::stats::MAX_TRACKED_VALUES`] distinct values (past them a value is
    /// counted in `untracked` only, and the children-per-parent distribution comes from the
    /// parents tracked; see [`super::per_parent`]).
    pub per_value: Option<ValueCounts>,
}

/// What the rows of one table showed.
#[derive(Debug, Clone, Default)]
pub struct TableRows {
    /// Rows read.
    pub rows: u64,
    /// Per column of the table, in its `CREATE TABLE` order.
    pub columns: Vec<ColumnRows>,
}

/// A table's columns as the reader needs them.
#[derive(Debug, Clone)]
struct Layout {
    /// Column names, in order.
    names: Vec<String>,
    /// Their mapped types (a `COPY` value is a number in a numeric column, else text).
    types: Vec<BsonType>,
}

impl TableRows {
    /// Records the value of column `column` (an index into the table's columns).
    fn add(&mut self, layout: &Layout, column: usize, cell: Cell<'_>) {
        let Some(c) = self.columns.get_mut(column) else {
            return;
        };
        let ty = layout
            .types
            .get(column)
            .copied()
            .unwrap_or(BsonType::String);
        let text = match cell {
            Cell::Null => {
                c.nulls += 1;
                return;
            }
            Cell::Other => {
                c.values += 1;
                return;
            }
            Cell::Number(t, v) => {
                if v.is_finite() {
                    c.numbers = Some(match c.numbers {
                        Some((lo, hi)) => (lo.min(v), hi.max(v)),
                        None => (v, v),
                    });
                }
                t
            }
            Cell::Text(t) => {
                if ty.has_length() {
                    c.lengths.add(t.len() as u64);
                }
                if ty == BsonType::String {
                    c.strings.add(t);
                }
                if let (BsonType::Date, Some(d)) = (ty, day(t)) {
                    c.days = Some(match c.days {
                        Some((lo, hi)) => (lo.min(d), hi.max(d)),
                        None => (d, d),
                    });
                }
                t
            }
        };
        c.values += 1;
        if let Some(per) = c.per_value.as_mut() {
            per.add(value_hash(text));
        }
    }
}

/// Returns the day a date or timestamp value starts with (`2024-03-01 05:00:00`,
/// `2024-03-01T05:00:00.0000000`), if it starts with one.
fn day(text: &str) -> Option<[u8; 10]> {
    let d: [u8; 10] = text.as_bytes().get(..10)?.try_into().ok()?;
    let digits = [0, 1, 2, 3, 5, 6, 8, 9];
    (digits
        .iter()
        .all(|&i| d.get(i).is_some_and(u8::is_ascii_digit))
        && d.get(4) == Some(&b'-')
        && d.get(7) == Some(&b'-'))
    .then_some(d)
}

/// Returns the hash a foreign key's value is counted under: its text (`1` and `'1'` are the
/// same parent, as a column holds one type).
fn value_hash(text: &str) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

/// Returns the rows of every table of `tables` that `inputs` hold (`escapes`: each input's
/// rule, in order), read value by value into per-column accumulators; `keyed(table, column)`
/// says whether a column is a one-column foreign key, whose rows are counted per value.
pub fn read(
    inputs: &[SqlInput<'_>],
    escapes: &[Escapes],
    tables: &[Table],
    keyed: &dyn Fn(&Table, &str) -> bool,
) -> BTreeMap<String, TableRows> {
    let mut layouts: BTreeMap<&str, Layout> = BTreeMap::new();
    let mut out: BTreeMap<String, TableRows> = BTreeMap::new();
    for t in tables {
        layouts.insert(
            &t.name,
            Layout {
                names: t.columns.iter().map(|c| c.name.clone()).collect(),
                types: t
                    .columns
                    .iter()
                    .map(|c| types::map(&c.ty).field.ty)
                    .collect(),
            },
        );
        let columns = t
            .columns
            .iter()
            .map(|c| ColumnRows {
                per_value: keyed(t, &c.name).then(ValueCounts::default),
                ..ColumnRows::default()
            })
            .collect();
        out.insert(t.name.clone(), TableRows { rows: 0, columns });
    }
    for (input, &esc) in inputs.iter().zip(escapes) {
        let batches = has_go_line(input.text);
        for piece in split(input.text, esc) {
            match piece.kind {
                PieceKind::CopyData { data, .. } => {
                    let Some((table, named)) = copy_head(&piece.text) else {
                        continue;
                    };
                    let (Some(layout), Some(rows)) =
                        (layouts.get(table.as_str()), out.get_mut(&table))
                    else {
                        continue;
                    };
                    let order = positions(layout, &named);
                    let text = input.text.get(data).unwrap_or("");
                    let mut buffer = String::new();
                    for line in text.lines() {
                        for (k, field) in line.split('\t').enumerate() {
                            let Some(Some(column)) = order.get(k).copied() else {
                                continue;
                            };
                            let cell = match copy_value(field, &mut buffer) {
                                None => Cell::Null,
                                Some(v) => match layout.types.get(column) {
                                    Some(
                                        BsonType::Int
                                        | BsonType::Long
                                        | BsonType::Double
                                        | BsonType::Decimal,
                                    ) => Cell::Number(v, v.parse().unwrap_or(f64::NAN)),
                                    _ => Cell::Text(v),
                                },
                            };
                            rows.add(layout, column, cell);
                        }
                        rows.rows += 1;
                    }
                }
                // A SQL Server batch: its INSERTs among its other statements, with or without
                // `;` (not a procedure's or trigger's body, whose INSERTs are no rows).
                PieceKind::Statement if batches && !is_routine(&piece.text) => {
                    for part in split_statements(&piece.text, esc) {
                        if part.kind == PieceKind::Statement && is_insert(&part.text) {
                            read_inserts(&part.text, esc, &layouts, &mut out);
                        }
                    }
                }
                PieceKind::Statement if is_insert(&piece.text) => {
                    read_inserts(&piece.text, esc, &layouts, &mut out);
                }
                _ => {}
            }
        }
    }
    out.retain(|_, t| t.rows > 0);
    out
}

/// Reads the rows of the `INSERT`s of one statement into `out`.
fn read_inserts(
    text: &str,
    escapes: Escapes,
    layouts: &BTreeMap<&str, Layout>,
    out: &mut BTreeMap<String, TableRows>,
) {
    // The table being inserted into, and the column of each position of its tuples.
    let mut current: Option<(String, Vec<Option<usize>>)> = None;
    scan_insert(text, escapes, &mut |e| match e {
        Event::Insert { table, columns } => {
            current = layouts
                .get(table)
                .map(|layout| (table.to_string(), positions(layout, columns)));
        }
        Event::Value { at, cell } => {
            if let Some((table, order)) = current.as_ref() {
                let column = order.get(at).copied().flatten();
                if let (Some(column), Some(layout), Some(rows)) =
                    (column, layouts.get(table.as_str()), out.get_mut(table))
                {
                    rows.add(layout, column, cell);
                }
            }
        }
        Event::RowEnd => {
            if let Some(rows) = current.as_ref().and_then(|(t, _)| out.get_mut(t)) {
                rows.rows += 1;
            }
        }
    });
}

/// Returns the column of each position of a row: the columns `named` (by name, any case), or
/// every column in order when none is named.
fn positions<S: AsRef<str>>(layout: &Layout, named: &[S]) -> Vec<Option<usize>> {
    if named.is_empty() {
        return (0..layout.names.len()).map(Some).collect();
    }
    named
        .iter()
        .map(|n| {
            let n = n.as_ref();
            layout
                .names
                .iter()
                .position(|c| c == n)
                .or_else(|| layout.names.iter().position(|c| c.eq_ignore_ascii_case(n)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_the_rows_of_each_dialects_inserts() {
        let b = Escapes::Backslash;
        let mysql = "INSERT INTO `customers` VALUES (1,'a (b)','x\\'y',NULL),\n(2,'c','d',NULL)";
        assert_eq!(insert_rows(mysql, b), [("customers".to_string(), 2)]);
        let sqlite = "INSERT INTO orders VALUES(1,2,'2024-03-01 05:00:00','paid',NULL)";
        assert_eq!(insert_rows(sqlite, b), [("orders".to_string(), 1)]);
        let mssql = "INSERT [dbo].[actor] ([actor_id], [first_name]) VALUES (1, N'First1')\nINSERT [dbo].[actor] ([actor_id], [first_name]) VALUES (2, CAST(N'x' AS nvarchar(9)))";
        assert_eq!(
            insert_rows(mssql, Escapes::Doubled),
            [("actor".to_string(), 1), ("actor".to_string(), 1)]
        );
        let pg = "INSERT INTO public.film (film_id, title) VALUES (1, 'Film ''1''')";
        assert_eq!(insert_rows(pg, b), [("film".to_string(), 1)]);
        assert!(insert_rows("INSERT INTO a SELECT * FROM b", b).is_empty());
        let upsert = "INSERT INTO a VALUES (1) ON DUPLICATE KEY UPDATE b = VALUES(b)";
        assert_eq!(insert_rows(upsert, b), [("a".to_string(), 1)]);
        assert!(is_insert("  insert into a values (1)") && !is_insert("SELECT 1"));
        assert_eq!(
            copy_head("COPY public.actor (actor_id, first_name) FROM stdin"),
            Some((
                "actor".to_string(),
                vec!["actor_id".to_string(), "first_name".to_string()]
            ))
        );
    }

    /// Returns the values `scan_insert` reads, as text.
    fn cells(text: &str, escapes: Escapes) -> Vec<String> {
        let mut out = Vec::new();
        scan_insert(text, escapes, &mut |e| match e {
            Event::Value { at, cell } => out.push(format!("{at}:{cell:?}")),
            Event::RowEnd => out.push("|".to_string()),
            Event::Insert { table, columns } => out.push(format!("{table}{columns:?}")),
        });
        out
    }

    #[test]
    fn reads_each_value_with_its_dialects_escapes() {
        let got = cells(
            "INSERT INTO t (a, `b`) VALUES (-1.5,'it''s \\n'),(NULL, N'x')",
            Escapes::Backslash,
        );
        assert_eq!(
            got,
            [
                "t[\"a\", \"b\"]",
                "0:Number(\"-1.5\", -1.5)",
                "1:Text(\"it's \\n\")",
                "|",
                "0:Null",
                "1:Text(\"x\")",
                "|"
            ]
        );
        // PostgreSQL's standard strings: a backslash is itself.
        let got = cells(
            "INSERT INTO t VALUES ('C:\\', CAST(N'd' AS date), now())",
            Escapes::Doubled,
        );
        assert_eq!(
            got,
            ["t[]", "0:Text(\"C:\\\\\")", "1:Text(\"d\")", "2:Other", "|"]
        );
        let mut buffer = String::new();
        assert_eq!(copy_value("\\N", &mut buffer), None);
        assert_eq!(copy_value("a\\tb\\\\c\\101", &mut buffer), Some("a\tb\\cA"));
        assert_eq!(
            escape_string("it\\'s ''q'' a\\nb \\x41\\101\\u00e9 \\\\", &mut buffer),
            "it's 'q' a\nb AAé \\"
        );
    }
}
