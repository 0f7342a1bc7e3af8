//! mongosh commands as plain data: `db.<collection>.<method>(args…)` with chained cursor
//! methods (`.sort(…)`, `.limit(n)`, …), read with the [`crate::ejson`] reader for the
//! argument literals. Executing them is the engine's job.
//!
//! Accepted forms: `db.users.find({…}, {…})`, `db.getCollection("name").find(…)`,
//! `db["odd-name"].find(…)`, dotted collection names (`db.system.profile.find()`: as in
//! mongosh, every segment but the last before `(` belongs to the collection name), any
//! top-level method name (the engine decides which it supports), chained cursor methods from
//! [`CURSOR_METHODS`], an optional final `;`, comments and line breaks anywhere between
//! tokens.

use std::fmt;

use bson::Bson;

use crate::ejson::{to_shell_string, ParseError, Parser};

/// The chained cursor methods a command may end with.
pub const CURSOR_METHODS: [&str; 14] = [
    "sort",
    "limit",
    "skip",
    "project",
    "projection",
    "explain",
    "toArray",
    "count",
    "hint",
    "batchSize",
    "pretty",
    "itcount",
    "maxTimeMS",
    "collation",
];

/// One mongosh command: `db.<collection>.<method>(args…).<chain>(…)…`.
#[derive(Debug, Clone, PartialEq)]
pub struct ShellCommand {
    /// The collection name (`users` in `db.users.find()`).
    pub collection: String,
    /// The collection method (`find`, `insertOne`, `aggregate`, …).
    pub method: String,
    /// The method's arguments, in order.
    pub args: Vec<Bson>,
    /// The chained cursor methods with their arguments, in order.
    pub chain: Vec<(String, Vec<Bson>)>,
}

/// Returns the one mongosh command in `text`, or where and why it cannot be read.
pub fn parse_command(text: &str) -> Result<ShellCommand, ParseError> {
    let mut parser = Parser::new(text);
    let command = read_command(&mut parser)?;
    parser.eat(';')?;
    if !parser.is_at_end()? {
        return Err(parser.error_here("unexpected text after the command"));
    }
    Ok(command)
}

/// Reads one command starting at the parser's offset and stops right after it (before any
/// `;`), so that a script of several commands can be read one by one.
pub fn read_command(parser: &mut Parser<'_>) -> Result<ShellCommand, ParseError> {
    parser.skip_trivia()?;
    let start = parser.offset();
    if parser.parse_identifier()? != Some("db") {
        return Err(parser.error_at(start, "expected a command starting with 'db.'"));
    }
    let collection = read_collection(parser)?;
    let (method, args) = match read_call(parser)? {
        Some(call) => call,
        None => {
            let message = match collection.rsplit_once('.') {
                Some((_, last)) => format!("expected '(' after .{last}"),
                None => "expected '.<method>(…)' after the collection".to_string(),
            };
            return Err(parser.error_here(message));
        }
    };
    let mut chain = Vec::new();
    loop {
        let before = parser.offset();
        let Some((name, args)) = read_call(parser)? else {
            break;
        };
        if !CURSOR_METHODS.contains(&name.as_str()) {
            parser.set_offset(before);
            parser.eat('.')?;
            parser.skip_trivia()?;
            return Err(parser.error_here(format!(
                "unknown cursor method .{name}(…) (known: {})",
                CURSOR_METHODS.join(", ")
            )));
        }
        chain.push((name, args));
    }
    Ok(ShellCommand {
        collection,
        method,
        args,
        chain,
    })
}

/// Reads the collection after `db`: `.name`, `.a.b` (dotted), `["name"]` or
/// `.getCollection("name")`, leaving the parser before the method's `.`.
fn read_collection(parser: &mut Parser<'_>) -> Result<String, ParseError> {
    if parser.eat('[')? {
        parser.skip_trivia()?;
        let at = parser.offset();
        let name = match parser.parse_value()? {
            Bson::String(name) => name,
            _ => return Err(parser.error_at(at, "expected a collection name in quotes")),
        };
        parser.expect(']', "expected ']' after the collection name")?;
        return check_name(parser, at, name);
    }
    parser.expect('.', "expected '.' after 'db'")?;
    parser.skip_trivia()?;
    let at = parser.offset();
    let Some(first) = parser.parse_identifier()? else {
        return Err(parser.error_here("expected a collection name after 'db.'"));
    };
    if first == "getCollection" && peek_is(parser, '(')? {
        let args = parser.parse_args()?;
        return match args.as_slice() {
            [(Bson::String(name), offset)] => check_name(parser, *offset, name.clone()),
            _ => Err(parser.error_at(at, "getCollection expects one collection name in quotes")),
        };
    }
    if peek_is(parser, '(')? {
        return Err(parser.error_at(
            at,
            format!("db.{first}(…) is a database method: expected db.<collection>.<method>(…)"),
        ));
    }
    let mut segments = vec![first.to_string()];
    // Every further segment not followed by '(' belongs to the (dotted) collection name.
    loop {
        let before = parser.offset();
        if !parser.eat('.')? {
            break;
        }
        match parser.parse_identifier()? {
            Some(name) if !peek_is(parser, '(')? => segments.push(name.to_string()),
            _ => {
                parser.set_offset(before);
                break;
            }
        }
    }
    check_name(parser, at, segments.join("."))
}

fn check_name(parser: &Parser<'_>, at: usize, name: String) -> Result<String, ParseError> {
    if name.is_empty() || name.contains('\0') || name.contains('$') {
        return Err(parser.error_at(at, format!("'{name}' is not a valid collection name")));
    }
    Ok(name)
}

/// Reads `.name(args…)`, or returns `None` (without moving) if no `.` comes next.
fn read_call(parser: &mut Parser<'_>) -> Result<Option<(String, Vec<Bson>)>, ParseError> {
    if !parser.eat('.')? {
        return Ok(None);
    }
    parser.skip_trivia()?;
    let Some(name) = parser.parse_identifier()? else {
        return Err(parser.error_here("expected a method name after '.'"));
    };
    if !peek_is(parser, '(')? {
        return Err(parser.error_here(format!("expected '(' after .{name}")));
    }
    let args = parser
        .parse_args()?
        .into_iter()
        .map(|(value, _)| value)
        .collect();
    Ok(Some((name.to_string(), args)))
}

fn peek_is(parser: &mut Parser<'_>, c: char) -> Result<bool, ParseError> {
    parser.skip_trivia()?;
    Ok(parser.peek() == Some(c))
}

impl fmt::Display for ShellCommand {
    /// Writes the command in mongosh syntax, e.g. `db.users.find({ a: 1 }).limit(5)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let simple = {
            let mut chars = self.collection.chars();
            chars
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
                && !self.collection.ends_with('.')
                && !self.collection.contains("..")
                && self.collection != "getCollection"
        };
        if simple {
            write!(f, "db.{}", self.collection)?;
        } else {
            write!(
                f,
                "db.getCollection({})",
                to_shell_string(&Bson::String(self.collection.clone()), false)
            )?;
        }
        write_call(f, &self.method, &self.args)?;
        for (name, args) in &self.chain {
            write_call(f, name, args)?;
        }
        Ok(())
    }
}

fn write_call(f: &mut fmt::Formatter<'_>, name: &str, args: &[Bson]) -> fmt::Result {
    write!(f, ".{name}(")?;
    for (i, arg) in args.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        f.write_str(&to_shell_string(arg, false))?;
    }
    f.write_str(")")
}

#[cfg(test)]
mod tests;
