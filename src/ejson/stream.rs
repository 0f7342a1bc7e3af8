//! Many documents in one text: newline-delimited, one top-level array, or spread over lines,
//! with recovery after an unreadable document.

use bson::Bson;

use super::{type_alias, Parser, StreamItem};

/// Reads every document of `text`; see [`super::parse_stream`].
pub(super) fn parse_stream(text: &str) -> Vec<StreamItem> {
    let mut items = Vec::new();
    let mut lines = LineCounter::default();
    let mut pos = 0;
    let mut in_array = false;
    let mut first = true;
    loop {
        let line = lines.line_of(text, pos);
        let mut parser = Parser::at_known(text, pos, line, lines.column);
        match parser.is_at_end() {
            Ok(true) => {
                if in_array {
                    items.push(StreamItem {
                        line: lines.line_of(text, parser.offset()),
                        result: Err(
                            parser.error_here("expected ']' to close the array of documents")
                        ),
                    });
                }
                break;
            }
            Ok(false) => {}
            Err(e) => {
                items.push(StreamItem {
                    line: e.line,
                    result: Err(e),
                });
                break;
            }
        }
        let start = parser.offset();
        let start_line = lines.line_of(text, start);
        if first && parser.peek() == Some('[') {
            first = false;
            in_array = true;
            pos = start + 1;
            continue;
        }
        first = false;
        if in_array && parser.peek() == Some(']') {
            in_array = false;
            pos = start + 1;
            continue;
        }
        let value_offset = parser.offset();
        let value = parser.parse_value();
        let read_to = parser.offset();
        let (result, resume) = match value {
            Ok(Bson::Document(doc)) => match separator(&mut parser, in_array) {
                Ok(closed) => {
                    if closed {
                        in_array = false;
                    }
                    (Ok(doc), Some(parser.offset()))
                }
                // The document itself is fine: report the separator, resume after the document.
                Err(e) => (Err(e), Some(read_to)),
            },
            Ok(other) => {
                let error = parser.error_at(
                    value_offset,
                    format!("expected a document, found {}", type_alias(&other)),
                );
                if let Ok(true) = separator(&mut parser, in_array) {
                    in_array = false;
                }
                (Err(error), Some(parser.offset()))
            }
            Err(e) => (Err(e), resync(text, start)),
        };
        items.push(StreamItem {
            line: start_line,
            result,
        });
        match resume {
            Some(next) if next > start => pos = next,
            _ => break,
        }
    }
    items
}

/// After a document inside an array, consumes `,` (returns false) or `]` (returns true).
fn separator(parser: &mut Parser<'_>, in_array: bool) -> Result<bool, super::ParseError> {
    if !in_array {
        return Ok(false);
    }
    if parser.eat(',')? {
        return Ok(false);
    }
    if parser.eat(']')? {
        return Ok(true);
    }
    Err(parser.error_here("expected ',' or ']' after a document in the array"))
}

/// Returns where to resume after a document starting at `start` failed: the next line after
/// the document's first line that starts (after indentation no deeper than the failed
/// document's) with `{`.
fn resync(text: &str, start: usize) -> Option<usize> {
    let before = text.get(..start)?;
    let start_column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    let mut line_start = start + text.get(start..)?.find('\n')? + 1;
    loop {
        let line = text.get(line_start..)?;
        let indent = line.len() - line.trim_start_matches([' ', '\t']).len();
        let trimmed = line.get(indent..).unwrap_or("");
        if trimmed.starts_with('{') && indent < start_column {
            return Some(line_start + indent);
        }
        line_start += line.find('\n')? + 1;
    }
}

/// Counts lines and columns incrementally so that a stream of a million documents (or of
/// errors on one long line) stays linear.
#[derive(Default)]
struct LineCounter {
    offset: usize,
    line: usize,
    /// 1-based column (in characters) of `offset`.
    column: usize,
}

impl LineCounter {
    /// Returns the 1-based line of byte `pos` (positions must not go backwards), and keeps
    /// the column of that position.
    fn line_of(&mut self, text: &str, pos: usize) -> usize {
        if self.line == 0 {
            self.line = 1;
            self.column = 1;
        }
        if pos > self.offset {
            let chunk = text.get(self.offset..pos).unwrap_or("");
            self.line += chunk.bytes().filter(|&b| b == b'\n').count();
            match chunk.rfind('\n') {
                Some(i) => {
                    self.column = 1 + chunk.get(i + 1..).map_or(0, |s| s.chars().count());
                }
                None => self.column += chunk.chars().count(),
            }
            self.offset = pos;
        }
        self.line
    }
}
