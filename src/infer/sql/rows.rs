//! The rows of a dump, counted per table without the SQL parser: `INSERT … VALUES` statements
//! (one row per parenthesized tuple; several statements in one SQL Server batch) and the data
//! of `COPY … FROM stdin` (counted by the splitter). A dump's rows are most of its bytes, and
//! parsing each into a syntax tree only to count it costs memory for nothing.

/// One token of a statement at the level the row counter needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token<'a> {
    /// A bare word (a keyword or a name).
    Word(&'a str),
    /// A quoted name (`"a"`, `` `a` ``, `[a]`), without its quotes.
    Name(&'a str),
    /// A string literal.
    Text,
    /// `(`.
    Open,
    /// `)`.
    Close,
    /// `.`.
    Dot,
    /// Anything else (a number, an operator, `,`).
    Other,
}

/// Returns the tokens of `text` (comments were removed by the splitter).
fn tokens(text: &str) -> Vec<Token<'_>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&c) = bytes.get(i) {
        match c {
            b'\'' => {
                i = close(bytes, i + 1, b'\'', true);
                out.push(Token::Text);
            }
            b'"' | b'`' | b'[' => {
                let end_quote = if c == b'[' { b']' } else { c };
                let end = close(bytes, i + 1, end_quote, false);
                let inner = text.get(i + 1..end.saturating_sub(1)).unwrap_or("");
                out.push(Token::Name(inner));
                i = end;
            }
            b'(' => {
                out.push(Token::Open);
                i += 1;
            }
            b')' => {
                out.push(Token::Close);
                i += 1;
            }
            b'.' => {
                out.push(Token::Dot);
                i += 1;
            }
            c if c.is_ascii_alphabetic() || c == b'_' || c >= 0x80 => {
                let start = i;
                while bytes.get(i).is_some_and(|b| {
                    b.is_ascii_alphanumeric() || *b == b'_' || *b == b'$' || *b >= 0x80
                }) {
                    i += 1;
                }
                out.push(Token::Word(text.get(start..i).unwrap_or("")));
            }
            c if c.is_ascii_whitespace() => i += 1,
            _ => {
                out.push(Token::Other);
                i += 1;
            }
        }
    }
    out
}

/// Returns the index past the closing `quote` of text opened before `i`: a doubled quote is
/// one quote; with `escapes`, a backslash escapes the next byte (MySQL strings).
fn close(bytes: &[u8], mut i: usize, quote: u8, escapes: bool) -> usize {
    while let Some(&c) = bytes.get(i) {
        if escapes && c == b'\\' {
            i += 2;
            continue;
        }
        if c == quote {
            if bytes.get(i + 1) == Some(&quote) {
                i += 2;
                continue;
            }
            return i + 1;
        }
        i += 1;
    }
    bytes.len()
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

/// Returns, for each `INSERT … VALUES` in `text`, its table (without its schema) and how many
/// rows it holds; an `INSERT … SELECT` gives no rows and is left out.
pub fn insert_rows(text: &str) -> Vec<(String, u64)> {
    let toks = tokens(text);
    let mut out: Vec<(String, u64)> = Vec::new();
    let mut depth = 0usize;
    let mut k = 0;
    // The table of the INSERT being read, and whether its VALUES list has begun.
    let mut current: Option<(String, bool, u64)> = None;
    while let Some(&t) = toks.get(k) {
        k += 1;
        match t {
            Token::Open => {
                if depth == 0 {
                    if let Some((_, true, rows)) = current.as_mut() {
                        *rows += 1;
                    }
                }
                depth += 1;
            }
            Token::Close => depth = depth.saturating_sub(1),
            Token::Word(w) if depth == 0 => {
                if w.eq_ignore_ascii_case("insert")
                    || (w.eq_ignore_ascii_case("replace") && current.is_none())
                {
                    if let Some((table, true, rows)) = current.take() {
                        out.push((table, rows));
                    }
                    let (name, next) = table_name(&toks, k);
                    k = next;
                    current = name.map(|n| (n, false, 0));
                } else if w.eq_ignore_ascii_case("values") || w.eq_ignore_ascii_case("value") {
                    if let Some(c) = current.as_mut() {
                        c.1 = true;
                    }
                } else if w.eq_ignore_ascii_case("select") && current.as_ref().is_some_and(|c| !c.1)
                {
                    current = None;
                }
            }
            _ => {}
        }
    }
    if let Some((table, true, rows)) = current {
        out.push((table, rows));
    }
    out
}

/// Returns the table named from token `k` on (after an `INSERT`'s own words; a qualified name's
/// last part) and the index past it.
fn table_name(toks: &[Token<'_>], mut k: usize) -> (Option<String>, usize) {
    while let Some(Token::Word(w)) = toks.get(k) {
        if INSERT_WORDS.iter().any(|i| w.eq_ignore_ascii_case(i)) {
            k += 1;
        } else {
            break;
        }
    }
    let mut name = None;
    loop {
        match toks.get(k) {
            Some(Token::Word(w)) | Some(Token::Name(w)) => {
                name = Some(w.to_string());
                k += 1;
                if toks.get(k) == Some(&Token::Dot) {
                    k += 1;
                    continue;
                }
                return (name, k);
            }
            _ => return (name, k),
        }
    }
}

/// Returns the table of a `COPY name (columns) FROM stdin` statement, without its schema.
pub fn copy_table(text: &str) -> Option<String> {
    let toks = tokens(text);
    match toks.first() {
        Some(Token::Word(w)) if w.eq_ignore_ascii_case("copy") => table_name(&toks, 1).0,
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_the_rows_of_each_dialects_inserts() {
        let mysql = "INSERT INTO `customers` VALUES (1,'a (b)','x\\'y',NULL),\n(2,'c','d',NULL)";
        assert_eq!(insert_rows(mysql), [("customers".to_string(), 2)]);
        let sqlite = "INSERT INTO orders VALUES(1,2,'2024-03-01 05:00:00','paid',NULL)";
        assert_eq!(insert_rows(sqlite), [("orders".to_string(), 1)]);
        let mssql = "INSERT [dbo].[actor] ([actor_id], [first_name]) VALUES (1, N'First1')\nINSERT [dbo].[actor] ([actor_id], [first_name]) VALUES (2, CAST(N'x' AS nvarchar(9)))";
        assert_eq!(
            insert_rows(mssql),
            [("actor".to_string(), 1), ("actor".to_string(), 1)]
        );
        let pg = "INSERT INTO public.film (film_id, title) VALUES (1, 'Film ''1''')";
        assert_eq!(insert_rows(pg), [("film".to_string(), 1)]);
        assert!(insert_rows("INSERT INTO a SELECT * FROM b").is_empty());
        assert!(is_insert("  insert into a values (1)") && !is_insert("SELECT 1"));
        assert_eq!(
            copy_table("COPY public.actor (actor_id, first_name) FROM stdin"),
            Some("actor".to_string())
        );
    }
}
