//! Documents spread over several lines, for [`super::Inference::read`]: a pretty-printed
//! document or array (`mongoexport --pretty`, `--jsonArray --pretty`), mongosh's `find()`
//! output, pasted text.
//!
//! A line whose brackets do not balance opens a document: the lines after it are gathered
//! until its `{`/`[` depth (counted outside strings, escapes understood) is back to zero, and
//! the gathered text is then read as one piece. Memory stays bounded: a document gathered past
//! the reader's longest line is reported and the rest of it passed over without being kept.
//!
//! A line that starts with `{` at no more indentation than the open document's first line
//! ends that document (it was missing a closing bracket: it is read, and reported, as it
//! stands), so one broken document does not swallow the ones after it; this is the recovery
//! [`crate::ejson::parse_stream`] uses.
//!
//! Not counted: brackets inside regex literals (`/a{2}/`) or comments.

/// Returns how much `line` opens (positive) or closes (negative) `{`/`[` nesting, brackets
/// inside single- or double-quoted strings not counted. A string left open at the end of the
/// line ends there (JSON strings do not span lines).
pub fn depth_of(line: &str) -> i64 {
    let mut depth = 0i64;
    let mut quote: Option<u8> = None;
    let mut escaped = false;
    for &b in line.as_bytes() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if b == b'\\' {
                    escaped = true;
                } else if b == q {
                    quote = None;
                }
            }
            None => match b {
                b'"' | b'\'' => quote = Some(b),
                b'{' | b'[' => depth += 1,
                b'}' | b']' => depth -= 1,
                _ => {}
            },
        }
    }
    depth
}

/// Returns the indentation of `line`: its leading spaces and tabs, in bytes.
pub fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches([' ', '\t']).len()
}

/// A gathered document (or several, when one closes and the next opens on the same line), to
/// be read as one text.
#[derive(Debug, Clone, PartialEq)]
pub struct Chunk {
    /// The gathered lines, joined by `\n`: the first from where its document starts, the
    /// others whole (so that their columns are the input's).
    pub text: String,
    /// The input's 1-based line of the first line.
    pub line: u64,
    /// Characters of the first line before where `text` starts.
    pub before: usize,
}

/// What a line did to the document being gathered.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// The document is still open.
    More,
    /// The document closed on this line: read it.
    Closed(Chunk),
    /// The document just grew past the longest line read: report it (at `line`, its first
    /// line); the rest of it is passed over.
    TooLong {
        /// The input's 1-based line where the document starts.
        line: u64,
    },
    /// A document passed over for its length closed on this line.
    Passed,
    /// This line starts a new document before the open one closed: read the open one (if it
    /// was kept), then read this line afresh.
    Broken(Option<Chunk>),
}

/// The document being gathered, if any.
#[derive(Debug, Default)]
pub struct Gather {
    /// A document is open.
    active: bool,
    /// The open document grew too long: it was reported and is passed over to its end.
    passing: bool,
    /// Its text so far.
    text: String,
    /// The input's line where it starts.
    line: u64,
    /// Characters of its first line before its text.
    before: usize,
    /// Indentation of its first line.
    indent: usize,
    /// Its `{`/`[` depth at the end of the last line gathered.
    depth: i64,
}

impl Gather {
    /// Returns whether a document is open.
    pub fn is_active(&self) -> bool {
        self.active
    }

    /// Opens a document whose first line is `text` (cut `before` characters into line `line`,
    /// that line indented by `indent`), with its depth at the line's end `depth`.
    pub fn start(&mut self, text: &str, line: u64, before: usize, indent: usize, depth: i64) {
        self.active = true;
        self.passing = false;
        self.text.clear();
        self.text.push_str(text);
        self.line = line;
        self.before = before;
        self.indent = indent;
        self.depth = depth;
    }

    /// Adds the next line of the open document, keeping at most `max` bytes of it.
    pub fn push(&mut self, line: &str, max: usize) -> Step {
        let trimmed = line.trim_start_matches([' ', '\t']);
        if trimmed.starts_with('{') && indent_of(line) <= self.indent {
            let kept = !self.passing;
            self.active = false;
            return Step::Broken(kept.then(|| self.take()));
        }
        self.depth += depth_of(line);
        if !self.passing {
            if self.text.len().saturating_add(line.len()).saturating_add(1) > max {
                self.passing = true;
                // Give the memory back: nothing more of this document is kept.
                self.text = String::new();
                if self.depth <= 0 {
                    self.active = false;
                }
                return Step::TooLong { line: self.line };
            }
            self.text.push('\n');
            self.text.push_str(line);
        }
        if self.depth > 0 {
            return Step::More;
        }
        self.active = false;
        if self.passing {
            Step::Passed
        } else {
            Step::Closed(self.take())
        }
    }

    /// Ends the open document at the end of the input: returns it unless it was passed over.
    pub fn finish(&mut self) -> Option<Chunk> {
        let kept = self.active && !self.passing;
        self.active = false;
        kept.then(|| self.take())
    }

    /// Passes over the rest of the open document (a line of it is too long or not text, so
    /// its brackets go uncounted): returns its first line unless it was already reported, or
    /// `None` when no document is open.
    pub fn pass_over(&mut self) -> Option<u64> {
        let report = self.active && !self.passing;
        if report {
            self.passing = true;
            self.text = String::new();
        }
        report.then_some(self.line)
    }

    /// Returns the gathered document, leaving room for the next.
    fn take(&mut self) -> Chunk {
        Chunk {
            text: std::mem::take(&mut self.text),
            line: self.line,
            before: self.before,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_skips_strings_and_escapes() {
        assert_eq!(depth_of(r#"{"a": ["#), 2);
        assert_eq!(depth_of(r#""{[", "x\"}]", '}', "\\"}"#), -1);
        assert_eq!(depth_of(r#"{ "s": "a \\\" ] }" }"#), 0);
        assert_eq!(depth_of("}]"), -2);
        assert_eq!(depth_of(r#"{"open": "never closed { ["#), 1);
    }

    #[test]
    fn gathers_to_the_closing_line() {
        let mut g = Gather::default();
        g.start("{", 3, 0, 0, 1);
        assert_eq!(g.push("  \"a\": [1,", 100), Step::More);
        assert_eq!(g.push("    2]", 100), Step::More);
        let Step::Closed(c) = g.push("}", 100) else {
            panic!("not closed")
        };
        assert_eq!(c.text, "{\n  \"a\": [1,\n    2]\n}");
        assert_eq!(c.line, 3);
        assert!(!g.is_active());
    }

    #[test]
    fn too_long_is_passed_over_to_its_end() {
        let mut g = Gather::default();
        g.start("{", 1, 0, 0, 1);
        assert_eq!(
            g.push("  \"a\": \"xxxxxxxxxx\",", 10),
            Step::TooLong { line: 1 }
        );
        assert_eq!(g.push("  \"b\": [", 10), Step::More);
        assert_eq!(g.push("  ]", 10), Step::More);
        assert_eq!(g.push("}", 10), Step::Passed);
        assert!(!g.is_active());
        assert_eq!(g.finish(), None);
    }

    #[test]
    fn a_new_document_at_the_same_indentation_breaks_the_open_one() {
        let mut g = Gather::default();
        g.start("{", 1, 2, 2, 1);
        assert_eq!(g.push("    \"a\": {", 100), Step::More);
        assert_eq!(g.push("      {", 100), Step::More);
        let Step::Broken(Some(c)) = g.push("  {", 100) else {
            panic!("not broken")
        };
        assert_eq!(c.line, 1);
        assert!(!g.is_active());
    }
}
