//! Collations (`{ locale: "en", strength: 2 }`) on a find and on an index: strings compared
//! case-insensitively (strength 2) or also accent-insensitively (strength 1).
//!
//! mongod compares strings under a collation with ICU's collation keys. ICU's data is tens of
//! megabytes, too big for the page's WebAssembly, so this engine folds instead: a string's
//! collation key is its simple lowercase (`char::to_lowercase`), and at strength 1 the accented
//! Latin-1 letters also lose their accent (`é` → `e`). Equality under strength 1 or 2 agrees
//! with ICU for the letters of the Latin, Greek and Cyrillic scripts; the order of folded
//! strings is their binary order, not the locale's (ICU puts `a` before `B` at every strength),
//! so a range on strings under a collation may include or leave out other strings than mongod's
//! (docs/engine.md lists the limits). Strength 3 and above compare as the simple binary
//! collation does (case-sensitive): no folding.

use crate::engine::error::{EngineError, Result};
use bson::{Bson, Document};

/// A collation's options that this engine applies: the locale (kept for explain and for
/// matching an index's collation with a query's) and the strength.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Collation {
    /// The ICU locale, e.g. `en`.
    pub locale: String,
    /// 1: base letters only; 2: also accents; 3 (the default): also case; 4, 5: finer still.
    pub strength: u8,
}

impl Collation {
    /// Returns the collation a `collation` document gives: `locale` required, `strength`
    /// 1–5 (default 3); any other option is refused, so that no query silently ignores one.
    pub fn parse(d: &Document) -> Result<Collation> {
        let locale = match d.get("locale") {
            Some(Bson::String(s)) => s.clone(),
            Some(_) => {
                return Err(EngineError::type_mismatch(
                    "collation locale must be a string",
                ))
            }
            None => {
                return Err(EngineError::new(
                    40414,
                    "Location40414",
                    "BSON field 'locale' is missing but a required field",
                ))
            }
        };
        let strength = match d.get("strength") {
            None => 3,
            Some(v) => match crate::engine::compare::as_f64(v) {
                Some(n) if (1.0..=5.0).contains(&n) && n.fract() == 0.0 => n as u8,
                _ => {
                    return Err(EngineError::bad_value(
                        "collation strength must be an integer from 1 to 5",
                    ))
                }
            },
        };
        if let Some(other) = d.keys().find(|k| *k != "locale" && *k != "strength") {
            return Err(EngineError::bad_value(format!(
                "collation option '{other}' is not supported by this engine (locale and strength are)"
            )));
        }
        Ok(Collation { locale, strength })
    }

    /// Returns the collation as mongosh writes it (`{ locale: 'en', strength: 2 }`).
    pub fn to_document(&self) -> Document {
        bson::doc! { "locale": self.locale.as_str(), "strength": i32::from(self.strength) }
    }

    /// True when the collation changes how strings compare (strength 1 or 2).
    pub fn folds(&self) -> bool {
        self.strength <= 2
    }

    /// Returns a string's collation key: its lowercase, and at strength 1 without the accents
    /// of Latin-1 letters; the string itself at strength 3 and above.
    pub fn fold_str(&self, s: &str) -> String {
        if !self.folds() {
            return s.to_string();
        }
        let lower = s.chars().flat_map(char::to_lowercase);
        if self.strength == 1 {
            lower.map(base_letter).collect()
        } else {
            lower.collect()
        }
    }

    /// Returns a value with every string in it (in arrays and sub-documents too) replaced by
    /// its collation key: what the index stores and what a query compares under the collation.
    pub fn fold(&self, v: &Bson) -> Bson {
        if !self.folds() {
            return v.clone();
        }
        match v {
            Bson::String(s) => Bson::String(self.fold_str(s)),
            Bson::Array(a) => Bson::Array(a.iter().map(|x| self.fold(x)).collect()),
            Bson::Document(d) => Bson::Document(
                d.iter()
                    .map(|(k, x)| (k.clone(), self.fold(x)))
                    .collect::<Document>(),
            ),
            other => other.clone(),
        }
    }
}

/// Returns the unaccented letter of an accented lowercase Latin-1 letter (`é` → `e`), the
/// letter itself otherwise.
fn base_letter(c: char) -> char {
    match c {
        'à'..='å' => 'a',
        'ç' => 'c',
        'è'..='ë' => 'e',
        'ì'..='ï' => 'i',
        'ñ' => 'n',
        'ò'..='ö' | 'ø' => 'o',
        'ù'..='ü' => 'u',
        'ý' | 'ÿ' => 'y',
        other => other,
    }
}

/// Returns the collation of an optional `collation` document (`None` when absent).
pub fn parse_opt(d: Option<&Document>) -> Result<Option<Collation>> {
    d.map(Collation::parse).transpose()
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    fn c(strength: i32) -> Collation {
        Collation::parse(&doc! { "locale": "en", "strength": strength }).unwrap()
    }

    #[test]
    fn strength_two_ignores_case_and_keeps_accents() {
        assert_eq!(c(2).fold_str("Ünïcode USER"), "ünïcode user");
        assert_ne!(c(2).fold_str("resume"), c(2).fold_str("Résumé"));
    }

    #[test]
    fn strength_one_also_ignores_accents() {
        assert_eq!(c(1).fold_str("Résumé"), c(1).fold_str("RESUME"));
    }

    #[test]
    fn strength_three_is_binary() {
        assert_eq!(c(3).fold_str("ABC"), "ABC");
        assert!(!c(3).folds());
    }

    #[test]
    fn folds_nested_strings_only() {
        let v = Bson::Document(doc! { "a": ["X", 1], "b": { "c": "Y" } });
        assert_eq!(
            c(2).fold(&v),
            Bson::Document(doc! { "a": ["x", 1], "b": { "c": "y" } })
        );
    }

    #[test]
    fn refuses_what_it_does_not_apply() {
        assert!(Collation::parse(&doc! { "strength": 2 }).is_err());
        assert!(Collation::parse(&doc! { "locale": "en", "strength": 7 }).is_err());
        assert!(Collation::parse(&doc! { "locale": "en", "caseLevel": true }).is_err());
    }
}
