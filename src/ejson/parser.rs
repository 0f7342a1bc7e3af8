//! The reader: a hand-written recursive-descent parser over the user's text, positioned by
//! byte offsets, that other parsers (the mongosh command parser) reuse for argument literals.
//!
//! It stays one file: a recursive-descent parser is one set of mutually recursive methods of
//! [`Parser`] over one cursor.

use bson::{Bson, Document, Regex};

use super::{calls, wrapper, ParseError};

/// The deepest nesting of documents, arrays and call arguments the reader accepts.
///
/// Twice mongod's limit of 100 levels, so that too-deep documents can still be measured,
/// and small enough that the recursion cannot exhaust the stack (also in WebAssembly).
pub const MAX_PARSE_DEPTH: usize = 200;

/// Returns the 1-based line and 1-based column (in characters) of byte `offset` in `text`.
///
/// An offset past the end counts as the end; one inside a character counts as that
/// character.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut end = offset.min(text.len());
    while end > 0 && !text.is_char_boundary(end) {
        end -= 1;
    }
    let before = text.get(..end).unwrap_or("");
    let line = 1 + before.bytes().filter(|&b| b == b'\n').count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = 1 + before.get(line_start..).map_or(0, |s| s.chars().count());
    (line, column)
}

/// A reader positioned at a byte offset of a text: reads values, documents and the small
/// pieces (identifiers, punctuation) a command parser needs, and says where it stopped.
#[derive(Debug, Clone)]
pub struct Parser<'a> {
    text: &'a str,
    pos: usize,
    line_base: usize,
    depth: usize,
    /// A known position (byte offset, 1-based line and column), so that errors after it are
    /// located from there instead of from the start of the text: a stream of many small
    /// documents or errors on one long line stays linear.
    anchor: Option<(usize, usize, usize)>,
}

impl<'a> Parser<'a> {
    /// Returns a parser at the start of `text`.
    pub fn new(text: &'a str) -> Self {
        Parser {
            text,
            pos: 0,
            line_base: 0,
            depth: 0,
            anchor: None,
        }
    }

    /// Returns a parser at byte `offset` of `text` (clamped to the text, moved back to the
    /// start of a character if needed); error positions stay relative to the whole text.
    pub fn at(text: &'a str, offset: usize) -> Self {
        let mut parser = Parser::new(text);
        parser.set_offset(offset);
        parser
    }

    /// Returns a parser over the whole `text` at byte `offset`, which is at `line` and `column`
    /// (1-based, columns in characters): errors at or after it are located from there.
    pub(crate) fn at_known(text: &'a str, offset: usize, line: usize, column: usize) -> Self {
        let mut parser = Parser::at(text, offset);
        parser.anchor = Some((parser.pos, line, column));
        parser
    }

    /// Returns the whole text this parser reads.
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// Returns the current byte offset: where the next read starts, or where the last stopped.
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// Moves to byte `offset` (clamped to the text, moved back to a character start).
    pub fn set_offset(&mut self, offset: usize) {
        let mut pos = offset.min(self.text.len());
        while pos > 0 && !self.text.is_char_boundary(pos) {
            pos -= 1;
        }
        self.pos = pos;
    }

    /// Returns the rest of the text from the current offset.
    pub fn rest(&self) -> &'a str {
        self.text.get(self.pos..).unwrap_or("")
    }

    /// Returns the next character without consuming it.
    pub fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    /// Returns an error at byte `offset` with a line and column relative to the whole text.
    pub fn error_at(&self, offset: usize, message: impl Into<String>) -> ParseError {
        let (line, column) = match self.anchor {
            Some((at, line, column)) if offset >= at => {
                let (l, c) = line_column(self.text.get(at..).unwrap_or(""), offset - at);
                if l == 1 {
                    (line.saturating_sub(self.line_base), column + c - 1)
                } else {
                    (line.saturating_sub(self.line_base) + l - 1, c)
                }
            }
            _ => line_column(self.text, offset),
        };
        ParseError {
            line: line + self.line_base,
            column,
            message: message.into(),
        }
    }

    /// Returns an error at the current offset.
    pub fn error_here(&self, message: impl Into<String>) -> ParseError {
        self.error_at(self.pos, message)
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    /// Skips whitespace and `//` and `/* */` comments.
    pub fn skip_trivia(&mut self) -> Result<(), ParseError> {
        loop {
            // ASCII first, byte by byte: the common case in mongoexport text.
            match self.text.as_bytes().get(self.pos) {
                Some(b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c) => {
                    self.pos += 1;
                    continue;
                }
                Some(b) if b.is_ascii() && *b != b'/' => return Ok(()),
                None => return Ok(()),
                Some(_) => {}
            }
            let rest = self.rest();
            if let Some(c) = rest
                .chars()
                .next()
                .filter(|c| c.is_whitespace() || *c == '\u{feff}')
            {
                self.pos += c.len_utf8();
            } else if rest.starts_with("//") {
                self.pos += rest.find('\n').unwrap_or(rest.len());
            } else if rest.starts_with("/*") {
                match rest.get(2..).and_then(|r| r.find("*/")) {
                    Some(end) => self.pos += end + 4,
                    None => return Err(self.error_here("unterminated comment: '/*' without '*/'")),
                }
            } else {
                return Ok(());
            }
        }
    }

    /// Skips trivia and returns whether the text is used up.
    pub fn is_at_end(&mut self) -> Result<bool, ParseError> {
        self.skip_trivia()?;
        Ok(self.pos >= self.text.len())
    }

    /// Skips trivia and checks that nothing else follows.
    pub fn finish(&mut self) -> Result<(), ParseError> {
        if self.is_at_end()? {
            Ok(())
        } else {
            Err(self.error_here("unexpected text after the value"))
        }
    }

    /// Skips trivia and consumes `c` if it comes next; returns whether it did.
    pub fn eat(&mut self, c: char) -> Result<bool, ParseError> {
        self.skip_trivia()?;
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            Ok(true)
        } else {
            Ok(false)
        }
    }

    /// Skips trivia and consumes `c`, or fails with `message` at the current offset.
    pub fn expect(&mut self, c: char, message: &str) -> Result<(), ParseError> {
        if self.eat(c)? {
            Ok(())
        } else {
            Err(self.error_here(message))
        }
    }

    /// Skips trivia and reads a JavaScript identifier (letters, digits, `_`, `$`, not
    /// starting with a digit), or returns `None` without moving if none comes next.
    pub fn parse_identifier(&mut self) -> Result<Option<&'a str>, ParseError> {
        self.skip_trivia()?;
        let rest = self.rest();
        match rest.chars().next() {
            Some(c) if is_ident_start(c) => {}
            _ => return Ok(None),
        }
        let len = rest.find(|c: char| !is_ident_char(c)).unwrap_or(rest.len());
        self.pos += len;
        Ok(rest.get(..len))
    }

    /// Skips trivia and reads one document (`{…}`); an Extended JSON wrapper such as
    /// `{"$oid": …}` is not a document and is an error.
    pub fn parse_document(&mut self) -> Result<Document, ParseError> {
        self.skip_trivia()?;
        let start = self.pos;
        if self.peek() != Some('{') {
            return Err(self.error_here("expected a document starting with '{'"));
        }
        match self.parse_value()? {
            Bson::Document(doc) => Ok(doc),
            other => Err(self.error_at(
                start,
                format!("expected a document, found {}", super::type_alias(&other)),
            )),
        }
    }

    /// Skips trivia and reads one value of any type; stops right after it.
    pub fn parse_value(&mut self) -> Result<Bson, ParseError> {
        self.skip_trivia()?;
        let start = self.pos;
        match self.peek() {
            None => Err(self.error_here("expected a value, found the end of the text")),
            Some('{') => self.nested(Self::parse_object),
            Some('[') => self.nested(Self::parse_array),
            Some(q @ ('"' | '\'')) => {
                let _ = q;
                Ok(Bson::String(self.parse_string()?))
            }
            Some('/') => self.parse_regex(),
            Some(c) if c == '-' || c == '+' || c == '.' || c.is_ascii_digit() => {
                self.parse_number()
            }
            Some(c) if is_ident_start(c) => self.parse_word(),
            // Control characters (NUL, escape, …) are shown escaped, not sent to the terminal.
            Some(c) if c.is_control() => Err(self.error_at(
                start,
                format!("unexpected control character {}", c.escape_unicode()),
            )),
            Some(c) => Err(self.error_at(start, format!("unexpected character '{c}'"))),
        }
    }

    fn nested(
        &mut self,
        read: fn(&mut Self) -> Result<Bson, ParseError>,
    ) -> Result<Bson, ParseError> {
        if self.depth >= MAX_PARSE_DEPTH {
            return Err(self.error_here(format!(
                "nested more than {MAX_PARSE_DEPTH} levels deep (MongoDB allows 100)"
            )));
        }
        self.depth += 1;
        let result = read(self);
        self.depth -= 1;
        result
    }

    fn parse_object(&mut self) -> Result<Bson, ParseError> {
        let start = self.pos;
        if let Some(value) = self.parse_single_wrapper()? {
            return Ok(value);
        }
        self.pos = start + 1; // '{'
        let mut doc = Document::new();
        let mut spans = Vec::new();
        // Only an object with a `$` key can be an Extended JSON wrapper.
        let mut dollar = false;
        loop {
            self.skip_trivia()?;
            if self.eat('}')? {
                break;
            }
            let key_offset = self.pos;
            let key = self.parse_key()?;
            if doc.contains_key(&key) {
                return Err(self.error_at(
                    key_offset,
                    format!(
                        "duplicate field name '{key}' (MongoDB tools reject documents that \
                         repeat a field name)"
                    ),
                ));
            }
            self.expect(':', "expected ':' after the field name")?;
            self.skip_trivia()?;
            let value_offset = self.pos;
            let value = self.parse_value()?;
            dollar |= key.starts_with('$');
            doc.insert(key, value);
            spans.push((key_offset, value_offset));
            if self.eat(',')? {
                continue;
            }
            if self.eat('}')? {
                break;
            }
            return Err(self.error_here("expected ',' or '}' after a field value"));
        }
        if !dollar {
            return Ok(Bson::Document(doc));
        }
        wrapper::convert(self, start, doc, &spans)
    }

    /// Reads an object that is one Extended JSON wrapper of a single key (`{"$oid": …}`,
    /// `{"$numberInt": …}`, `{"$date": …}` …, most values of canonical mongoexport text)
    /// without building a document; returns `None`, having moved anywhere, for any other
    /// object, which [`Parser::parse_object`] then reads from its start. The value and its
    /// errors are those the general path gives the same text.
    fn parse_single_wrapper(&mut self) -> Result<Option<Bson>, ParseError> {
        self.pos += 1; // '{'
        self.skip_trivia()?;
        if !self.rest().starts_with("\"$") {
            return Ok(None);
        }
        let key = self.parse_key()?;
        let Some(kind) = wrapper::single_kind(&key) else {
            return Ok(None);
        };
        if !self.eat(':')? {
            return Ok(None);
        }
        self.skip_trivia()?;
        let value_offset = self.pos;
        let value = self.parse_value()?;
        if !self.eat('}')? {
            return Ok(None);
        }
        wrapper::single(self, kind, &value, value_offset).map(Some)
    }

    fn parse_key(&mut self) -> Result<String, ParseError> {
        let start = self.pos;
        let key = match self.peek() {
            Some('"' | '\'') => self.parse_string()?,
            Some(c) if is_ident_char(c) => {
                let rest = self.rest();
                let len = rest.find(|c: char| !is_ident_char(c)).unwrap_or(rest.len());
                self.pos += len;
                rest.get(..len).unwrap_or("").to_string()
            }
            _ => return Err(self.error_here("expected a field name or '}'")),
        };
        if key.contains('\0') {
            return Err(self.error_at(start, "field names cannot contain a NUL character"));
        }
        Ok(key)
    }

    fn parse_array(&mut self) -> Result<Bson, ParseError> {
        self.pos += 1; // '['
        let mut items = Vec::new();
        loop {
            self.skip_trivia()?;
            if self.eat(']')? {
                break;
            }
            if self.peek() == Some(',') {
                return Err(
                    self.error_here("expected a value or ']' (empty array slots are not allowed)")
                );
            }
            items.push(self.parse_value()?);
            if self.eat(',')? {
                continue;
            }
            if self.eat(']')? {
                break;
            }
            return Err(self.error_here("expected ',' or ']' after an array element"));
        }
        Ok(Bson::Array(items))
    }

    /// Reads a single- or double-quoted string with JavaScript escapes.
    pub(crate) fn parse_string(&mut self) -> Result<String, ParseError> {
        let start = self.pos;
        let quote = self.bump().unwrap_or('"');
        let mut out = String::new();
        loop {
            // The run up to the next quote, backslash or line end, copied at once (all four
            // are ASCII, so the run ends on a character boundary).
            let rest = self.rest();
            let run = rest
                .bytes()
                .position(|b| matches!(b, b'"' | b'\'' | b'\\' | b'\n' | b'\r'))
                .unwrap_or(rest.len());
            if run > 0 {
                out.push_str(rest.get(..run).unwrap_or(""));
                self.pos += run;
            }
            let c = match self.bump() {
                None | Some('\n') | Some('\r') => {
                    return Err(self.error_at(start, "unterminated string: missing closing quote"))
                }
                Some(c) => c,
            };
            if c == quote {
                return Ok(out);
            }
            if c != '\\' {
                out.push(c);
                continue;
            }
            let escape_offset = self.pos - 1;
            match self.bump() {
                None => {
                    return Err(self.error_at(start, "unterminated string: missing closing quote"))
                }
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('r') => out.push('\r'),
                Some('b') => out.push('\u{8}'),
                Some('f') => out.push('\u{c}'),
                Some('v') => out.push('\u{b}'),
                Some('0') if !self.peek().is_some_and(|c| c.is_ascii_digit()) => out.push('\0'),
                Some('\n') => {}
                Some('\r') => {
                    if self.peek() == Some('\n') {
                        self.pos += 1;
                    }
                }
                Some('x') => {
                    let code = self.hex_digits(2, escape_offset)?;
                    out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
                }
                Some('u') => out.push(self.unicode_escape(escape_offset)?),
                Some(other) => out.push(other),
            }
        }
    }

    fn hex_digits(&mut self, count: usize, escape_offset: usize) -> Result<u32, ParseError> {
        let digits = self
            .rest()
            .get(..count)
            .filter(|d| d.chars().all(|c| c.is_ascii_hexdigit()));
        match digits.and_then(|d| u32::from_str_radix(d, 16).ok()) {
            Some(code) => {
                self.pos += count;
                Ok(code)
            }
            None => Err(self.error_at(
                escape_offset,
                format!("invalid escape: expected {count} hex digits"),
            )),
        }
    }

    fn unicode_escape(&mut self, escape_offset: usize) -> Result<char, ParseError> {
        let code = if self.peek() == Some('{') {
            self.pos += 1;
            let rest = self.rest();
            let len = rest.find('}').unwrap_or(0);
            let code = rest
                .get(..len)
                .filter(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_hexdigit()))
                .and_then(|d| u32::from_str_radix(d, 16).ok())
                .ok_or_else(|| {
                    self.error_at(escape_offset, "invalid escape: expected \\u{hex digits}")
                })?;
            self.pos += len + 1;
            code
        } else {
            self.hex_digits(4, escape_offset)?
        };
        if (0xD800..0xDC00).contains(&code) && self.rest().starts_with("\\u") {
            let saved = self.pos;
            self.pos += 2;
            let low = self.hex_digits(4, escape_offset)?;
            if (0xDC00..0xE000).contains(&low) {
                let combined = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                if let Some(c) = char::from_u32(combined) {
                    return Ok(c);
                }
            }
            self.pos = saved;
        }
        char::from_u32(code).ok_or_else(|| {
            self.error_at(
                escape_offset,
                format!("lone surrogate \\u{code:04X} cannot be stored in a BSON string (UTF-8)"),
            )
        })
    }

    fn parse_number(&mut self) -> Result<Bson, ParseError> {
        let start = self.pos;
        let rest = self.rest();
        let bytes = rest.as_bytes();
        let mut i = 0;
        let negative = matches!(bytes.first(), Some(b'-'));
        if matches!(bytes.first(), Some(b'-' | b'+')) {
            i += 1;
        }
        let after_sign = rest.get(i..).unwrap_or("");
        for (word, value) in [("Infinity", f64::INFINITY), ("NaN", f64::NAN)] {
            if after_sign.starts_with(word)
                && !after_sign
                    .get(word.len()..)
                    .and_then(|r| r.chars().next())
                    .is_some_and(is_ident_char)
            {
                self.pos += i + word.len();
                return Ok(Bson::Double(if negative { -value } else { value }));
            }
        }
        let digits_start = i;
        while bytes.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        let int_digits = i - digits_start;
        let mut is_integer = true;
        if bytes.get(i) == Some(&b'.') {
            is_integer = false;
            i += 1;
            while bytes.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
        }
        if int_digits == 0 && i <= digits_start + 1 {
            return Err(self.error_at(start, "expected a number"));
        }
        if matches!(bytes.get(i), Some(b'e' | b'E')) {
            is_integer = false;
            i += 1;
            if matches!(bytes.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            let exp_start = i;
            while bytes.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            if i == exp_start {
                return Err(self.error_at(start, "expected digits after the exponent 'e'"));
            }
        }
        if int_digits > 1 && bytes.get(digits_start) == Some(&b'0') {
            return Err(self.error_at(start, "numbers cannot start with 0 followed by digits"));
        }
        if rest
            .get(i..)
            .and_then(|r| r.chars().next())
            .is_some_and(is_ident_char)
        {
            return Err(self.error_at(start + i, "unexpected character after a number"));
        }
        let literal = rest.get(..i).unwrap_or("");
        let literal = literal.strip_prefix('+').unwrap_or(literal);
        self.pos += i;
        if is_integer {
            if let Ok(v) = literal.parse::<i32>() {
                return Ok(Bson::Int32(v));
            }
            if let Ok(v) = literal.parse::<i64>() {
                return Ok(Bson::Int64(v));
            }
        }
        literal
            .parse::<f64>()
            .map(Bson::Double)
            .map_err(|_| self.error_at(start, format!("invalid number '{literal}'")))
    }

    fn parse_regex(&mut self) -> Result<Bson, ParseError> {
        let start = self.pos;
        let (pattern, flags) = lex_regex_literal(self.rest())
            .ok_or_else(|| self.error_at(start, "unterminated regular expression literal"))?;
        let flags_offset = start + pattern.len() + 2;
        self.pos += pattern.len() + 2 + flags.len();
        if pattern.contains('\0') {
            return Err(self.error_at(start, "a regular expression cannot contain a NUL character"));
        }
        let options = regex_options(flags).map_err(|m| self.error_at(flags_offset, m))?;
        make_regex(pattern, &options).map_err(|m| self.error_at(start, m))
    }

    fn parse_word(&mut self) -> Result<Bson, ParseError> {
        let start = self.pos;
        let word = self.parse_identifier()?.unwrap_or("");
        let simple = match word {
            "true" => Some(Bson::Boolean(true)),
            "false" => Some(Bson::Boolean(false)),
            "null" => Some(Bson::Null),
            "undefined" => Some(Bson::Undefined),
            "NaN" => Some(Bson::Double(f64::NAN)),
            "Infinity" => Some(Bson::Double(f64::INFINITY)),
            _ => None,
        };
        if let Some(value) = simple {
            return Ok(value);
        }
        let (name, name_offset, is_new) = if word == "new" {
            let name_offset = {
                self.skip_trivia()?;
                self.pos
            };
            match self.parse_identifier()? {
                Some(name) => (name, name_offset, true),
                None => return Err(self.error_here("expected a constructor name after 'new'")),
            }
        } else {
            (word, start, false)
        };
        self.skip_trivia()?;
        if self.peek() != Some('(') {
            return match name {
                "MinKey" => Ok(Bson::MinKey),
                "MaxKey" => Ok(Bson::MaxKey),
                _ if is_new => Err(self.error_here(format!("expected '(' after new {name}"))),
                _ => Err(self.error_at(
                    start,
                    format!("unexpected word '{name}' (strings need quotes)"),
                )),
            };
        }
        let args = self.nested_args()?;
        calls::call(self, name, name_offset, is_new, args)
    }

    fn nested_args(&mut self) -> Result<Vec<(Bson, usize)>, ParseError> {
        if self.depth >= MAX_PARSE_DEPTH {
            return Err(self.error_here(format!(
                "nested more than {MAX_PARSE_DEPTH} levels deep (MongoDB allows 100)"
            )));
        }
        self.depth += 1;
        let result = self.parse_args();
        self.depth -= 1;
        result
    }

    /// Reads a parenthesized, comma-separated argument list (trailing comma allowed) and
    /// returns each argument with the byte offset where it starts.
    pub fn parse_args(&mut self) -> Result<Vec<(Bson, usize)>, ParseError> {
        self.expect('(', "expected '('")?;
        let mut args = Vec::new();
        loop {
            if self.eat(')')? {
                break;
            }
            self.skip_trivia()?;
            let offset = self.pos;
            args.push((self.parse_value()?, offset));
            if self.eat(',')? {
                continue;
            }
            if self.eat(')')? {
                break;
            }
            return Err(self.error_here("expected ',' or ')' after an argument"));
        }
        Ok(args)
    }
}

/// Returns whether `c` may start a JavaScript identifier.
pub(crate) fn is_ident_start(c: char) -> bool {
    c == '_' || c == '$' || c.is_alphabetic()
}

/// Returns whether `c` may continue a JavaScript identifier.
pub(crate) fn is_ident_char(c: char) -> bool {
    c == '_' || c == '$' || c.is_alphanumeric()
}

/// Splits a regex literal at the start of `text` (`/pattern/flags`) into its pattern and
/// flags, or returns `None` if it is not terminated on its line.
pub(crate) fn lex_regex_literal(text: &str) -> Option<(&str, &str)> {
    let body = text.strip_prefix('/')?;
    let mut in_class = false;
    let mut escaped = false;
    let mut end = None;
    for (i, c) in body.char_indices() {
        match c {
            '\n' | '\r' => return None,
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '[' => in_class = true,
            ']' => in_class = false,
            '/' if !in_class => {
                end = Some(i);
                break;
            }
            _ => {}
        }
    }
    let end = end?;
    let pattern = body.get(..end)?;
    if pattern.is_empty() {
        return None;
    }
    let after = body.get(end + 1..)?;
    let flags_len = after
        .find(|c: char| !is_ident_char(c))
        .unwrap_or(after.len());
    Some((pattern, after.get(..flags_len)?))
}

/// Returns regex options sorted as BSON requires, or why `flags` are not acceptable.
pub(crate) fn regex_options(flags: &str) -> Result<String, String> {
    let mut chars: Vec<char> = Vec::new();
    for c in flags.chars() {
        if !"imsuxl".contains(c) {
            return Err(format!(
                "unsupported regular expression flag '{c}' (MongoDB knows i, m, s, u, x and l)"
            ));
        }
        if chars.contains(&c) {
            return Err(format!("regular expression flag '{c}' given twice"));
        }
        chars.push(c);
    }
    chars.sort();
    Ok(chars.into_iter().collect())
}

/// Returns a BSON regex, or why the pattern or options cannot be stored.
pub(crate) fn make_regex(pattern: &str, options: &str) -> Result<Bson, String> {
    let pattern = pattern
        .to_string()
        .try_into()
        .map_err(|_| "a regular expression cannot contain a NUL character".to_string())?;
    let options = options
        .to_string()
        .try_into()
        .map_err(|_| "regular expression options cannot contain a NUL character".to_string())?;
    Ok(Bson::RegularExpression(Regex { pattern, options }))
}
