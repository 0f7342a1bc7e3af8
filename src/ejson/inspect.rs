//! Values as mongosh prints them: Node's `util.inspect` with mongosh's options and its BSON
//! printers, so that the console shows what a user of mongosh 2.x sees.
//!
//! mongosh formats every result with `util.inspect` (`packages/cli-repl/src/format-output.ts`
//! in mongodb-js/mongosh): Node's defaults `breakLength: 80` and `compact: 3`, `depth: 6`
//! (explain output: unlimited). So a container is written on one line when it holds at most
//! three levels of nesting and its entries fit in 80 columns with the indentation; otherwise
//! one entry per line, indented by two spaces. Arrays of more than six short entries are laid
//! out in aligned columns. Keys that are identifiers stay bare, others are quoted
//! (`{ 'customer._id': 1 }`); strings take single quotes unless they hold one.
//!
//! BSON values print as mongosh's printers make them (`packages/shell-bson/src/printable-bson.ts`):
//! `ObjectId('…')`, `Long('12')` (mongosh reads 64-bit integers as `Long`), 32-bit integers and
//! doubles as plain numbers (the driver returns them as JavaScript numbers: `12`, `1.5`),
//! `Decimal128('…')`, `ISODate('…')`, `UUID('…')`, `Binary.createFromBase64('…', 0)`,
//! `Timestamp({ t: 1, i: 2 })`, regular expressions as literals. Unlike
//! [`super::to_shell_string`], the text is for reading, not for reading back (a double `1.0`
//! prints `1`, as in mongosh).

use std::fmt::Write as _;

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;
use bson::{spec::BinarySubtype, Bson};

use crate::date::format_iso_date;

/// Columns a line may take before a container breaks (Node's default `breakLength`).
pub const BREAK_LENGTH: usize = 80;
/// Levels of nesting a container may hold and still be written on one line (`compact: 3`).
const COMPACT: usize = 3;
/// Levels mongosh prints before it writes `[Object]` (its `depth` option for results).
pub const DEPTH: usize = 6;

/// Returns `value` as mongosh prints a result (nested deeper than [`DEPTH`] levels shows as
/// `[Object]`/`[Array]`).
pub fn inspect(value: &Bson) -> String {
    Inspector::new(Some(DEPTH)).value(value, 0)
}

/// Returns `value` as mongosh prints an explain result: every level (`depth: Infinity`).
pub fn inspect_all(value: &Bson) -> String {
    Inspector::new(None).value(value, 0)
}

/// The state `util.inspect` keeps while it walks a value.
struct Inspector {
    /// The deepest level printed, `None` for all.
    depth: Option<usize>,
    /// Spaces of indentation of the entry being written.
    indentation: usize,
    /// The level of the container entered last (Node's `ctx.currentDepth`).
    current_depth: usize,
}

impl Inspector {
    fn new(depth: Option<usize>) -> Inspector {
        Inspector {
            depth,
            indentation: 0,
            current_depth: 0,
        }
    }

    /// Returns `value` at nesting `level` (0 for the top).
    fn value(&mut self, value: &Bson, level: usize) -> String {
        match value {
            Bson::Document(doc) => {
                let entries: Vec<(Option<&str>, &Bson)> =
                    doc.iter().map(|(k, v)| (Some(k.as_str()), v)).collect();
                self.container(&entries, ('{', '}'), level, false)
            }
            Bson::Array(items) => {
                let entries: Vec<(Option<&str>, &Bson)> = items.iter().map(|v| (None, v)).collect();
                let numbers = items
                    .iter()
                    .all(|v| matches!(v, Bson::Int32(_) | Bson::Double(_)));
                self.container(&entries, ('[', ']'), level, numbers)
            }
            Bson::String(s) => self.string(s),
            Bson::JavaScriptCodeWithScope(c) => {
                let scope = self.value(&Bson::Document(c.scope.clone()), level);
                format!("Code({}, {scope})", quote(&c.code))
            }
            other => scalar(other),
        }
    }

    /// Writes a document or an array the way `formatRaw` and `reduceToSingleString` do.
    fn container(
        &mut self,
        entries: &[(Option<&str>, &Bson)],
        (open, close): (char, char),
        level: usize,
        numbers: bool,
    ) -> String {
        if entries.is_empty() {
            return format!("{open}{close}");
        }
        if self.depth.is_some_and(|d| level > d) {
            return if open == '[' { "[Array]" } else { "[Object]" }.to_string();
        }
        let own = level + 1;
        self.current_depth = own;
        let mut output = Vec::with_capacity(entries.len());
        for (key, v) in entries {
            self.indentation += 2;
            let shown = self.value(v, own);
            self.indentation -= 2;
            output.push(match key {
                Some(k) => format!("{}: {shown}", key_text(k)),
                None => shown,
            });
        }
        let count = output.len();
        if open == '[' && count > 6 {
            output = self.group(output, numbers);
        }
        if self.current_depth - own < COMPACT && count == output.len() {
            let start = output.len() + self.indentation + 1 + 10;
            if self.below_break_length(&output, start) {
                let joined = output.join(", ");
                if !joined.contains('\n') {
                    return format!("{open} {joined} {close}");
                }
            }
        }
        let pad = format!("\n{}", " ".repeat(self.indentation));
        format!(
            "{open}{pad}  {}{pad}{close}",
            output.join(&format!(",{pad}  "))
        )
    }

    /// Node's `isBelowBreakLength`: the entries, their separators and `start` fit the line.
    fn below_break_length(&self, output: &[String], start: usize) -> bool {
        let mut total = output.len() + start;
        if total + output.len() > BREAK_LENGTH {
            return false;
        }
        for o in output {
            total += width(o);
            if total > BREAK_LENGTH {
                return false;
            }
        }
        true
    }

    /// Node's `groupArrayElements`: more than six short entries laid out in aligned columns
    /// (numbers right-aligned, anything else left-aligned).
    fn group(&self, output: Vec<String>, numbers: bool) -> Vec<String> {
        const SEPARATOR: usize = 2;
        if output.iter().any(|o| o.contains('\n')) {
            return output;
        }
        let lengths: Vec<usize> = output.iter().map(|o| width(o)).collect();
        let total: usize = lengths.iter().map(|l| l + SEPARATOR).sum();
        let max = lengths.iter().copied().max().unwrap_or(0);
        let actual_max = max + SEPARATOR;
        let fits = actual_max * 3 + self.indentation < BREAK_LENGTH;
        if !(fits && (total as f64 / actual_max as f64 > 5.0 || max <= 6)) {
            return output;
        }
        let average_bias = (actual_max as f64 - total as f64 / output.len() as f64).sqrt();
        let biased_max = (actual_max as f64 - 3.0 - average_bias).max(1.0);
        let columns = ((2.5 * biased_max * output.len() as f64).sqrt() / biased_max)
            .round()
            .min(((BREAK_LENGTH - self.indentation) / actual_max) as f64)
            .min((COMPACT * 4) as f64)
            .min(15.0) as usize;
        if columns <= 1 {
            return output;
        }
        let column_width: Vec<usize> = (0..columns)
            .map(|c| {
                lengths
                    .iter()
                    .skip(c)
                    .step_by(columns)
                    .copied()
                    .max()
                    .unwrap_or(0)
                    + SEPARATOR
            })
            .collect();
        output
            .chunks(columns)
            .map(|row| {
                let mut line = String::new();
                let last = row.len().saturating_sub(1);
                for (j, entry) in row.iter().enumerate() {
                    let w = column_width.get(j).copied().unwrap_or(0);
                    let pad = |used: usize, target: usize| " ".repeat(target.saturating_sub(used));
                    if j < last {
                        let cell = format!("{entry}, ");
                        if numbers {
                            line.push_str(&pad(width(&cell), w));
                            line.push_str(&cell);
                        } else {
                            line.push_str(&cell);
                            line.push_str(&pad(width(&cell), w));
                        }
                    } else if numbers {
                        line.push_str(&pad(width(entry), w.saturating_sub(SEPARATOR)));
                        line.push_str(entry);
                    } else {
                        line.push_str(entry);
                    }
                }
                line
            })
            .collect()
    }

    /// A string as Node quotes it; a long string with line breaks is split after each break
    /// into quoted pieces joined by ` +` (as `formatPrimitive` does in multi-line output).
    fn string(&self, s: &str) -> String {
        let long = s.chars().count() > 16
            && s.chars().count() > BREAK_LENGTH.saturating_sub(self.indentation + 4);
        if long && s.trim_end_matches('\n').contains('\n') {
            let pieces: Vec<String> = s.split_inclusive('\n').map(quote).collect();
            return pieces.join(&format!(" +\n{}", " ".repeat(self.indentation + 2)));
        }
        quote(s)
    }
}

/// The printed width of `s` (characters; no colours here).
fn width(s: &str) -> usize {
    s.chars().count()
}

/// A key bare when it is an identifier (`/^[a-zA-Z_][a-zA-Z_0-9]*$/`), else quoted.
fn key_text(key: &str) -> String {
    let mut chars = key.chars();
    let bare = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if bare {
        key.to_string()
    } else {
        quote(key)
    }
}

/// Returns `s` quoted as Node's `strEscape` does: single quotes, or double quotes when the
/// text holds a single quote and no double quote, or backticks when it holds both.
fn quote(s: &str) -> String {
    let q = if !s.contains('\'') {
        '\''
    } else if !s.contains('"') {
        '"'
    } else if !s.contains('`') && !s.contains("${") {
        '`'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(q);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\\' => out.push_str("\\\\"),
            c if c == q => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                let _ = write!(out, "\\x{:02X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push(q);
    out
}

/// Returns a JavaScript number as `String(n)` writes it: `12`, `1.5`, `-0`, `1e+21`.
fn js_number(v: f64) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    if v == 0.0 {
        return if v.is_sign_negative() { "-0" } else { "0" }.into();
    }
    let a = v.abs();
    if (1e-7..1e21).contains(&a) {
        return format!("{v}");
    }
    // Exponent form: Rust writes `1e21`, JavaScript `1e+21`.
    let text = format!("{v:e}");
    match text.split_once('e') {
        Some((m, e)) if !e.starts_with('-') => format!("{m}e+{e}"),
        _ => text,
    }
}

/// A value that is not a container or a string.
fn scalar(value: &Bson) -> String {
    match value {
        Bson::Double(v) => js_number(*v),
        Bson::Int32(v) => v.to_string(),
        Bson::Int64(v) => format!("Long('{v}')"),
        Bson::Boolean(b) => b.to_string(),
        Bson::Null => "null".into(),
        Bson::Undefined => "undefined".into(),
        Bson::Decimal128(d) => format!("Decimal128('{d}')"),
        Bson::ObjectId(id) => format!("ObjectId('{}')", id.to_hex()),
        Bson::DateTime(dt) => match format_iso_date(dt.timestamp_millis()) {
            Some(iso) => format!("ISODate('{iso}')"),
            None => "Invalid Date".into(),
        },
        Bson::RegularExpression(re) => format!("/{}/{}", re.pattern, re.options),
        Bson::Binary(bin) => match (bin.subtype, uuid::Uuid::from_slice(&bin.bytes)) {
            (BinarySubtype::Uuid, Ok(u)) => format!("UUID('{}')", u.hyphenated()),
            _ => format!(
                "Binary.createFromBase64('{}', {})",
                BASE64.encode(&bin.bytes),
                u8::from(bin.subtype)
            ),
        },
        Bson::Timestamp(ts) => format!("Timestamp({{ t: {}, i: {} }})", ts.time, ts.increment),
        Bson::MinKey => "MinKey()".into(),
        Bson::MaxKey => "MaxKey()".into(),
        Bson::JavaScriptCode(code) => format!("Code({})", quote(code)),
        Bson::Symbol(s) => format!("BSONSymbol({})", quote(s)),
        Bson::DbPointer(_) => "DBPointer()".into(),
        Bson::String(s) => quote(s),
        Bson::Document(_) | Bson::Array(_) | Bson::JavaScriptCodeWithScope(_) => String::new(),
    }
}

#[cfg(test)]
mod tests;
