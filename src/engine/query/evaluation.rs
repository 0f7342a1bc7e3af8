//! `$regex`, `$mod`, `$expr`; `$where` and other server-side JavaScript are refused.

use super::{Filter, PathOp};
use crate::engine::compare::as_f64;
use crate::engine::error::{EngineError, Result};
use crate::engine::path::Item;
use bson::{Bson, Regex};

/// Returns the parsed evaluation operator, or the refusal for JavaScript.
pub fn parse(name: &str, arg: &Bson) -> Result<PathOp> {
    match name {
        "$mod" => {
            let Bson::Array(a) = arg else {
                return Err(EngineError::bad_value(
                    "malformed mod, needs to be an array",
                ));
            };
            if a.len() != 2 {
                return Err(EngineError::bad_value(if a.len() < 2 {
                    "malformed mod, not enough elements"
                } else {
                    "malformed mod, too many elements"
                }));
            }
            let (Some(d), Some(r)) = (a.first().and_then(as_f64), a.get(1).and_then(as_f64)) else {
                return Err(EngineError::bad_value(
                    "malformed mod, divisor and remainder must be numbers",
                ));
            };
            if d as i64 == 0 {
                return Err(EngineError::bad_value("divisor cannot be 0"));
            }
            Ok(PathOp::Mod(d as i64, r as i64))
        }
        "$where" => Err(EngineError::no_javascript("$where")),
        _ => Err(EngineError::bad_value(format!(
            "{name} is not supported by the playground engine"
        ))),
    }
}

/// Returns `$expr` as a filter.
pub fn parse_expr(arg: &Bson) -> Result<Filter> {
    Ok(Filter::Expr(crate::engine::expr::Expr::parse(arg)?))
}

/// Returns true when a numeric item, truncated, has the given remainder.
pub fn matches_mod(d: i64, r: i64, item: Item<'_>) -> bool {
    let Item::Value(v) = item else { return false };
    let Some(f) = as_f64(v) else { return false };
    if !f.is_finite() {
        return false;
    }
    (f.trunc() as i64).checked_rem(d) == Some(r)
}

/// A compiled `$regex`, keeping the pattern and options mongod reports.
#[derive(Debug, Clone)]
pub struct RegexOp {
    /// The pattern as given.
    pub pattern: String,
    /// The options as given (`i`, `m`, `s`, `x`).
    pub options: String,
    re: regex_lite::Regex,
}

impl RegexOp {
    /// Returns the compiled regex; error 51091 when the pattern is invalid or uses PCRE
    /// features (look-around, back-references, Unicode classes `\p{..}`) the engine does not
    /// have. `\w`, `\d`, `\s`, `\b` are ASCII as in MongoDB; `i` folds ASCII letters only
    /// (regex-lite keeps the page small: docs/size.md).
    pub fn new(pattern: &str, options: &str) -> Result<RegexOp> {
        let mut flags = String::new();
        for c in options.chars() {
            match c {
                'i' | 'm' | 's' | 'x' => flags.push(c),
                'u' => {}
                other => {
                    return Err(EngineError::new(
                        51108,
                        "Location51108",
                        format!("invalid flag in regex options: {other}"),
                    ))
                }
            }
        }
        let full = if flags.is_empty() {
            pattern.to_string()
        } else {
            format!("(?{flags}){pattern}")
        };
        let re = regex_lite::Regex::new(&full).map_err(|e| {
            EngineError::new(
                51091,
                "Location51091",
                format!("Regular expression is invalid: {e}"),
            )
        })?;
        Ok(RegexOp {
            pattern: pattern.to_string(),
            options: options.to_string(),
            re,
        })
    }

    /// Returns the operator for `$regex` with an optional `$options`.
    pub fn parse(arg: &Bson, options: Option<&Bson>) -> Result<RegexOp> {
        let opts = match options {
            Some(Bson::String(s)) => s.clone(),
            Some(_) => return Err(EngineError::bad_value("$options has to be a string")),
            None => String::new(),
        };
        match arg {
            Bson::String(p) => RegexOp::new(p, &opts),
            Bson::RegularExpression(r) => {
                let o = if opts.is_empty() {
                    r.options.as_str().to_string()
                } else {
                    opts
                };
                RegexOp::new(r.pattern.as_str(), &o)
            }
            _ => Err(EngineError::bad_value("$regex has to be a string")),
        }
    }

    /// Returns true when a string (or symbol) item matches, or a regex item is this regex.
    pub fn matches_item(&self, item: Item<'_>) -> bool {
        match item {
            Item::Value(Bson::String(s)) | Item::Value(Bson::Symbol(s)) => self.re.is_match(s),
            Item::Value(Bson::RegularExpression(r)) => {
                r.pattern.as_str() == self.pattern && r.options.as_str() == self.options
            }
            _ => false,
        }
    }

    /// Returns true when the string matches.
    pub fn is_match(&self, s: &str) -> bool {
        self.re.is_match(s)
    }

    /// Returns the pattern and options as a BSON regex (a string if the pattern has a NUL).
    pub fn to_bson(&self) -> Bson {
        let mut opts: Vec<char> = self.options.chars().collect();
        opts.sort();
        let options: String = opts.into_iter().collect();
        match (self.pattern.clone().try_into(), options.try_into()) {
            (Ok(pattern), Ok(options)) => Bson::RegularExpression(Regex { pattern, options }),
            _ => Bson::String(self.pattern.clone()),
        }
    }
}

/// Returns true when a `PathOp` is a regex (for `$not: /x/`).
pub fn is_regex(op: &PathOp) -> bool {
    matches!(op, PathOp::Regex(_))
}

#[cfg(test)]
mod tests {
    use crate::engine::query::Filter;
    use bson::{doc, Document};

    fn m(f: Document, d: Document) -> bool {
        Filter::parse(&f).map(|f| f.matches(&d)).unwrap_or(false)
    }

    #[test]
    fn regex_mod_expr() {
        assert!(m(
            doc! {"s": {"$regex": "^ab", "$options": "i"}},
            doc! {"s": "ABc"}
        ));
        assert!(m(doc! {"s": {"$not": {"$regex": "^ab"}}}, doc! {"s": 1}));
        assert!(m(doc! {"n": {"$mod": [3, -1]}}, doc! {"n": -4}));
        assert!(!m(doc! {"n": {"$mod": [3, 1]}}, doc! {"n": "4"}));
        assert_eq!(
            Filter::parse(&doc! {"n": {"$mod": [0, 1]}})
                .err()
                .map(|e| e.code),
            Some(2)
        );
        assert_eq!(
            Filter::parse(&doc! {"s": {"$regex": "(?<=a)b"}})
                .err()
                .map(|e| e.code),
            Some(51091)
        );
        assert!(m(
            doc! {"$expr": {"$lt": ["$a", "$b"]}},
            doc! {"a": 1, "b": 2}
        ));
    }

    /// The regex engine is regex-lite (docs/size.md): classes are ASCII as in MongoDB's PCRE,
    /// options i, m, s, x work, Unicode classes are refused rather than misread.
    #[test]
    fn regex_flags_and_ascii_classes() {
        let s =
            |p: &str, o: &str, v: &str| m(doc! {"s": {"$regex": p, "$options": o}}, doc! {"s": v});
        assert!(s("^b$", "m", "a\nb\nc"));
        assert!(!s("^b$", "", "a\nb\nc"));
        assert!(s("a.c", "s", "a\nc"));
        assert!(!s("a.c", "", "a\nc"));
        assert!(s("a b # comment", "x", "ab"));
        assert!(s("^\\w+$", "", "abc_1"));
        assert!(!s("^\\w+$", "", "été"));
        assert!(!s("^\\d$", "", "٣"));
        assert!(s("^.$", "", "é"));
        assert!(s("ÉTÉ", "", "ÉTÉ"));
        assert!(s("straße", "i", "STRAßE"));
        assert_eq!(
            Filter::parse(&doc! {"s": {"$regex": "\\p{L}"}})
                .err()
                .map(|e| e.code),
            Some(51091)
        );
        assert_eq!(
            Filter::parse(&doc! {"s": {"$regex": "a", "$options": "q"}})
                .err()
                .map(|e| e.code),
            Some(51108)
        );
    }
}
