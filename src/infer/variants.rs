//! Polymorphic collections: documents of several kinds in one collection, told apart by a
//! discriminator, a top-level string field with few distinct values, present in nearly every
//! document, whose values select different field sets (`{type: "book", isbn, pages}` beside
//! `{type: "film", runtime, director}`).
//!
//! While the documents are read, each top-level string field (the first [`MAX_CANDIDATES`]
//! seen) keeps, per distinct value (up to [`MAX_VALUES`], each at most [`MAX_VALUE_LEN`]
//! bytes), the documents with it and how many of them hold each top-level field: bounded
//! memory, whatever the input's length. A field is a discriminator when it is in at least
//! [`MIN_PRESENCE`] of the documents, has 2 to [`MAX_VALUES`] values, and at least two values
//! have fields of their own: in at least [`OWN_IN`] of that value's documents and in at most
//! [`OWN_ELSEWHERE`] of the others'.

use serde::Serialize;

use super::stats::{Shape, Value};

/// Top-level string fields tracked as candidate discriminators.
pub const MAX_CANDIDATES: usize = 8;

/// Distinct values a discriminator may have (a field with more is not one).
pub const MAX_VALUES: usize = 16;

/// Longest value of a discriminator, in bytes (a longer one is a text, not a kind).
pub const MAX_VALUE_LEN: usize = 64;

/// Top-level field names tracked per value.
const MAX_NAMES: usize = 256;

/// Share of the documents a discriminator is in.
pub const MIN_PRESENCE: f64 = 0.95;

/// Share of a value's documents its own field is in.
pub const OWN_IN: f64 = 0.5;

/// Share of the other values' documents an own field may be in.
pub const OWN_ELSEWHERE: f64 = 0.05;

/// What one candidate's values select.
#[derive(Debug, Clone, Default)]
struct Candidate {
    /// The field's name.
    field: String,
    /// Documents where it is a string (tracked or not).
    documents: u64,
    /// Each value seen, in order of first appearance.
    values: Vec<Tally>,
    /// A value was not tracked (too many or too long): no discriminator.
    overflow: bool,
}

/// The documents with one value of a candidate.
#[derive(Debug, Clone, Default)]
struct Tally {
    value: String,
    documents: u64,
    /// Per top-level name (as [`Variants::names`]): the documents holding it.
    present: Vec<u64>,
}

/// What the documents of a collection tell of a discriminator, gathered as they are read.
#[derive(Debug, Clone, Default)]
pub struct Variants {
    /// Top-level field names, in order of first appearance.
    names: Vec<String>,
    candidates: Vec<Candidate>,
    /// Documents read.
    documents: u64,
}

/// A polymorphic collection as the report gives it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Polymorphic {
    /// The discriminator field.
    pub field: String,
    /// Its values, the most frequent first.
    pub variants: Vec<Variant>,
    /// Why the model keeps the collection as one entity, when it does (otherwise each kind
    /// is an entity of the design's `polymorphic` group: [`super::split`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kept_whole: Option<super::split::KeptWhole>,
}

/// One kind of document of a polymorphic collection.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Variant {
    /// The discriminator's value.
    pub value: String,
    /// Documents with it.
    pub documents: u64,
    /// Their share of the collection's documents read.
    pub share: f64,
    /// The fields only documents of this kind hold, in order of first appearance.
    pub fields: Vec<String>,
    /// The entity of the model that holds this kind's documents, when the collection was
    /// split into one entity per kind.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entity: Option<String>,
    /// Per top-level field name tracked, the share of this kind's documents holding it (the
    /// kind's own presences, where the collection's statistics mix the kinds).
    #[serde(skip)]
    pub presence: Vec<(String, f64)>,
    /// Every top-level name was tracked (fewer than the most [`Variants`] keeps), so a name
    /// missing from `presence` is in none of this kind's documents.
    #[serde(skip)]
    pub every_name: bool,
}

impl Variants {
    /// Records the top-level fields of one document.
    pub fn add<'v, V: Value<'v>>(&mut self, fields: impl Iterator<Item = (&'v str, V)>) {
        self.documents += 1;
        let mut present: Vec<usize> = Vec::new();
        let mut strings: Vec<(usize, &'v str)> = Vec::new();
        for (name, value) in fields {
            let i = match self.names.iter().position(|n| n == name) {
                Some(i) => i,
                None if self.names.len() < MAX_NAMES => {
                    self.names.push(name.to_string());
                    self.names.len() - 1
                }
                None => continue,
            };
            present.push(i);
            if let Shape::String(s) = value.shape() {
                strings.push((i, s));
            }
        }
        for (i, s) in strings {
            let Some(name) = self.names.get(i) else {
                continue;
            };
            let c = match self.candidates.iter().position(|c| &c.field == name) {
                Some(k) => self.candidates.get_mut(k),
                None if self.candidates.len() < MAX_CANDIDATES => {
                    self.candidates.push(Candidate {
                        field: name.clone(),
                        ..Candidate::default()
                    });
                    self.candidates.last_mut()
                }
                None => None,
            };
            let Some(c) = c else {
                continue;
            };
            c.documents += 1;
            if c.overflow {
                continue;
            }
            let t = match c.values.iter().position(|t| t.value == s) {
                Some(k) => c.values.get_mut(k),
                None if c.values.len() < MAX_VALUES && s.len() <= MAX_VALUE_LEN => {
                    c.values.push(Tally {
                        value: s.to_string(),
                        ..Tally::default()
                    });
                    c.values.last_mut()
                }
                None => {
                    c.overflow = true;
                    c.values.clear();
                    None
                }
            };
            if let Some(t) = t {
                t.documents += 1;
                for &p in &present {
                    if t.present.len() <= p {
                        t.present.resize(p + 1, 0);
                    }
                    if let Some(n) = t.present.get_mut(p) {
                        *n += 1;
                    }
                }
            }
        }
    }

    /// Returns the collection's discriminator and its kinds of documents, if it has one: of
    /// the candidates that qualify (module doc), the one whose values have the most fields of
    /// their own.
    pub fn polymorphic(&self) -> Option<Polymorphic> {
        self.candidates
            .iter()
            .filter(|c| {
                !c.overflow
                    && c.values.len() >= 2
                    && c.documents as f64 >= MIN_PRESENCE * self.documents as f64
            })
            .filter_map(|c| self.of(c))
            .max_by_key(|p| p.variants.iter().map(|v| v.fields.len()).sum::<usize>())
    }

    /// Returns the kinds `c` selects, when at least two of them have fields of their own.
    fn of(&self, c: &Candidate) -> Option<Polymorphic> {
        let total = self.documents.max(1) as f64;
        let mut variants: Vec<Variant> = c
            .values
            .iter()
            .map(|t| {
                let others = c.documents.saturating_sub(t.documents);
                let fields = self
                    .names
                    .iter()
                    .enumerate()
                    .filter(|(i, n)| {
                        let mine = t.present.get(*i).copied().unwrap_or(0);
                        let all: u64 = c
                            .values
                            .iter()
                            .map(|o| o.present.get(*i).copied().unwrap_or(0))
                            .sum();
                        let elsewhere = all.saturating_sub(mine);
                        **n != c.field
                            && mine as f64 >= OWN_IN * t.documents as f64
                            && elsewhere as f64 <= OWN_ELSEWHERE * others as f64
                    })
                    .map(|(_, n)| n.clone())
                    .collect();
                let kind = t.documents.max(1) as f64;
                let presence = self
                    .names
                    .iter()
                    .enumerate()
                    .filter_map(|(i, n)| {
                        let mine = t.present.get(i).copied().unwrap_or(0);
                        (mine > 0).then(|| (n.clone(), mine as f64 / kind))
                    })
                    .collect();
                Variant {
                    value: t.value.clone(),
                    documents: t.documents,
                    share: t.documents as f64 / total,
                    fields,
                    entity: None,
                    presence,
                    every_name: self.names.len() < MAX_NAMES,
                }
            })
            .collect();
        if variants.iter().filter(|v| !v.fields.is_empty()).count() < 2 {
            return None;
        }
        variants.sort_by_key(|v| std::cmp::Reverse(v.documents));
        Some(Polymorphic {
            field: c.field.clone(),
            variants,
            kept_whole: None,
        })
    }

    /// Adds what `other` gathered (of the same collection read elsewhere).
    pub fn merge(&mut self, other: &Variants) {
        // Rare (one collection in several inputs): replay its tallies name by name.
        self.documents += other.documents;
        for oc in &other.candidates {
            let at = match self.candidates.iter().position(|c| c.field == oc.field) {
                Some(k) => k,
                None if self.candidates.len() < MAX_CANDIDATES => {
                    self.candidates.push(Candidate {
                        field: oc.field.clone(),
                        ..Candidate::default()
                    });
                    self.candidates.len() - 1
                }
                None => continue,
            };
            let mut names: Vec<Option<usize>> = Vec::new();
            for n in &other.names {
                let i = match self.names.iter().position(|m| m == n) {
                    Some(i) => Some(i),
                    None if self.names.len() < MAX_NAMES => {
                        self.names.push(n.clone());
                        Some(self.names.len() - 1)
                    }
                    None => None,
                };
                names.push(i);
            }
            let Some(c) = self.candidates.get_mut(at) else {
                continue;
            };
            c.documents += oc.documents;
            c.overflow |= oc.overflow;
            if c.overflow {
                c.values.clear();
                continue;
            }
            for ot in &oc.values {
                let k = match c.values.iter().position(|t| t.value == ot.value) {
                    Some(k) => k,
                    None => {
                        c.values.push(Tally {
                            value: ot.value.clone(),
                            ..Tally::default()
                        });
                        c.values.len() - 1
                    }
                };
                let Some(t) = c.values.get_mut(k) else {
                    continue;
                };
                t.documents += ot.documents;
                for (j, n) in ot.present.iter().enumerate() {
                    if let Some(Some(i)) = names.get(j) {
                        if t.present.len() <= *i {
                            t.present.resize(i + 1, 0);
                        }
                        if let Some(m) = t.present.get_mut(*i) {
                            *m += n;
                        }
                    }
                }
            }
            if c.values.len() > MAX_VALUES {
                c.overflow = true;
                c.values.clear();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    fn add(v: &mut Variants, d: &bson::Document) {
        v.add(d.iter().map(|(n, x)| (n.as_str(), x)));
    }

    #[test]
    fn a_type_that_selects_fields_is_a_discriminator() {
        let mut v = Variants::default();
        for i in 0..30 {
            add(
                &mut v,
                &doc! {"type": "book", "title": "t", "isbn": "x", "pages": i},
            );
            if i % 3 == 0 {
                add(
                    &mut v,
                    &doc! {"type": "film", "title": "t", "runtime": i, "director": "d"},
                );
            }
        }
        let p = v.polymorphic().unwrap_or_else(|| panic!("not polymorphic"));
        assert_eq!(p.field, "type");
        let own: Vec<(&str, Vec<&str>)> = p
            .variants
            .iter()
            .map(|x| {
                (
                    x.value.as_str(),
                    x.fields.iter().map(String::as_str).collect(),
                )
            })
            .collect();
        assert_eq!(
            own,
            [
                ("book", vec!["isbn", "pages"]),
                ("film", vec!["runtime", "director"])
            ]
        );
        assert_eq!(p.variants.first().map(|x| x.documents), Some(30));
    }

    #[test]
    fn a_status_that_selects_nothing_is_not() {
        let mut v = Variants::default();
        for i in 0..40 {
            let status = ["new", "paid", "shipped"][i % 3];
            add(&mut v, &doc! {"status": status, "total": 1, "note": "n"});
        }
        assert_eq!(v.polymorphic(), None);
    }
}
