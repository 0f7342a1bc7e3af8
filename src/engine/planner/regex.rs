//! Index bounds of an anchored prefix regex, as mongod computes them
//! (`IndexBoundsBuilder::simpleRegex` and `translateRegex`): `/^,Books,Programming,/` scans
//! `[",Books,Programming,", ",Books,Programming-")` (the prefix with its last character
//! incremented) plus the point `[/^,Books,Programming,/, /^,Books,Programming,/]` (a stored
//! regex equal to the query's matches too). The bounds are exact (no re-check) when the regex
//! is nothing but the literal prefix; otherwise the fetched documents are re-checked.
//!
//! Not simple, as in mongod: a case-insensitive regex (`i`), an alternation (`|`
//! anywhere), a regex that is not anchored with `^` or `\A`, a `^` anchor under the `m` flag.
//! Those scan the whole string range of the index (`["", {})`, [`all_strings`]), as mongod's do.

use super::Interval;
use crate::engine::query::evaluation::RegexOp;
use bson::Bson;

/// Returns the literal prefix an anchored regex starts with and whether the regex is that
/// prefix and nothing else; `None` when the regex is not a simple prefix regex.
pub fn simple_prefix(pattern: &str, options: &str) -> Option<(String, bool)> {
    if pattern.contains('|') || options.contains('i') {
        return None;
    }
    let (rest, multiline_ok) = if let Some(r) = pattern.strip_prefix("\\A") {
        (r, true)
    } else if let Some(r) = pattern.strip_prefix('^') {
        (r, false)
    } else {
        return None;
    };
    if options.contains('m') && !multiline_ok {
        return None;
    }
    let extended = options.contains('x');
    let mut prefix = String::new();
    let mut chars = rest.chars().peekable();
    let mut whole = true;
    while let Some(c) = chars.next() {
        match c {
            '*' | '?' => {
                // The character before is optional: it is not part of the prefix.
                prefix.pop();
                whole = false;
                break;
            }
            '\\' => match chars.next() {
                Some('Q') => {
                    // A quoted literal, up to `\E`.
                    let mut quoted = String::new();
                    let mut closed = false;
                    while let Some(q) = chars.next() {
                        if q == '\\' && chars.peek() == Some(&'E') {
                            chars.next();
                            closed = true;
                            break;
                        }
                        quoted.push(q);
                    }
                    prefix.push_str(&quoted);
                    if !closed {
                        break;
                    }
                }
                Some(e) if e.is_ascii_alphanumeric() => {
                    // A class or an anchor (`\d`, `\b`): the prefix ends here.
                    whole = false;
                    break;
                }
                Some(e) => prefix.push(e),
                None => {
                    whole = false;
                    break;
                }
            },
            '^' | '$' | '.' | '[' | '(' | ')' | '+' | '{' => {
                whole = false;
                break;
            }
            '#' if extended => {
                // A comment, to the end of the line.
                for n in chars.by_ref() {
                    if n == '\n' {
                        break;
                    }
                }
            }
            c if extended && c.is_whitespace() => {}
            c => prefix.push(c),
        }
    }
    if prefix.is_empty() {
        return None;
    }
    Some((prefix, whole))
}

/// Returns the intervals of a regex predicate and whether they are exact: the prefix range
/// and the regex point, for a simple prefix regex; `None` for any other regex.
pub fn intervals(r: &RegexOp) -> Option<(Vec<Interval>, bool)> {
    let Some((prefix, whole)) = simple_prefix(&r.pattern, &r.options) else {
        return Some(all_strings(r));
    };
    let mut end: Vec<char> = prefix.chars().collect();
    let last = end.pop()?;
    let next = (u32::from(last) + 1..=0x10_FFFF).find_map(char::from_u32)?;
    end.push(next);
    let range = Interval {
        lo: Bson::String(prefix),
        lo_inc: true,
        hi: Bson::String(end.into_iter().collect()),
        hi_inc: false,
    };
    Some((vec![range, Interval::point(r.to_bson())], whole))
}

/// Returns the bounds of a regex that is no simple prefix (a case-insensitive `/^bob$/i`, an
/// unanchored `/bob/`), as mongod's `IndexBoundsBuilder` gives them: every string key
/// (`["", {})`) and the regex point, inexact: the scan examines every string key of the index,
/// then the regex is checked on what it found.
pub fn all_strings(r: &RegexOp) -> (Vec<Interval>, bool) {
    let strings = Interval {
        lo: Bson::String(String::new()),
        lo_inc: true,
        hi: Bson::Document(bson::Document::new()),
        hi_inc: false,
    };
    (vec![strings, Interval::point(r.to_bson())], false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_anchored_literal_is_an_exact_prefix() {
        assert_eq!(
            simple_prefix("^,Books,Programming,", ""),
            Some((",Books,Programming,".into(), true))
        );
        assert_eq!(simple_prefix("\\Aabc", "m"), Some(("abc".into(), true)));
        assert_eq!(simple_prefix("^a\\.b", ""), Some(("a.b".into(), true)));
        assert_eq!(simple_prefix("^\\Qa.b\\E", ""), Some(("a.b".into(), true)));
    }

    #[test]
    fn what_follows_the_prefix_makes_it_inexact() {
        assert_eq!(simple_prefix("^abc.*", ""), Some(("abc".into(), false)));
        assert_eq!(simple_prefix("^abc?", ""), Some(("ab".into(), false)));
        assert_eq!(simple_prefix("^ab\\d", ""), Some(("ab".into(), false)));
        assert_eq!(simple_prefix("^a b", "x"), Some(("ab".into(), true)));
    }

    #[test]
    fn unanchored_case_insensitive_and_alternations_are_not_simple() {
        assert_eq!(simple_prefix("abc", ""), None);
        assert_eq!(simple_prefix("^abc", "i"), None);
        assert_eq!(simple_prefix("^abc", "m"), None);
        assert_eq!(simple_prefix("^a|^b", ""), None);
        assert_eq!(simple_prefix("^.*", ""), None);
    }

    #[test]
    fn bounds_run_from_the_prefix_to_its_successor() {
        let op = RegexOp::parse(&Bson::String("^,a,b,".into()), None).unwrap();
        let (iv, exact) = intervals(&op).unwrap();
        assert!(exact);
        assert_eq!(iv[0].lo, Bson::String(",a,b,".into()));
        assert_eq!(iv[0].hi, Bson::String(",a,b-".into()));
        assert!(iv[0].lo_inc && !iv[0].hi_inc);
        assert!(matches!(iv[1].lo, Bson::RegularExpression(_)));
    }
}
