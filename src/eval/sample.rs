//! Each collection's sample documents as the results show them: a *typical* one and the
//! *largest* one, each with its exact BSON size and where its bytes go.
//!
//! - **Typical**: the sampled document nearest in size to the p50 the collection's table shows
//!   (the full-scale median of its most numerous shape, [`crate::stats::ShapeStats::p50`]),
//!   among that shape's documents, by full-scale size (the first in sample order on ties), so
//!   that the card's typical document is the table's p50 document; [`SampleDocs::p50`] says
//!   which figure it was chosen by. Without statistics (or a shape with no document in the
//!   sample) it is the sample's median by exact BSON size (the lower median).
//! - **Largest**: the sampled document with the most bytes at full scale (its size with every
//!   element of the arrays the sample cut short, [`Dataset::full_size`]; then its sampled size,
//!   then the first in sample order).
//!
//! The text is bounded so that an evaluation stays small whatever the documents: the document
//! as typed Extended JSON ([`crate::ejson::to_typed_ejson_value`], which reads back to the very
//! same BSON), pretty-printed ([`crate::ejson::pretty_json`]), shows at most
//! [`SHOWN_ELEMENTS`] elements of an array, strings of at most [`SHOWN_STRING_CHARS`]
//! characters, and about [`SHOWN_CHARS`] characters of values in all. What is left out is
//! said where it was: an array ends with the string `"… 9,980 more elements"` (with the
//! full-scale count when the sample cut the array short), a document with the field
//! `"…": "3 more fields"`, a string with `… (1,200 more characters)`. The sizes and the
//! breakdown are always of the whole document: [`crate::size`], exact.
//!
//! A shown document's references that name no document of the sample (a parent lists all its
//! children, the sample holds only a share of them) are counted in
//! [`SampleDocument::outside`], by field: every other reference resolves to a document of the
//! sample ([`crate::generate::GeneratedCollection::outside`]).

use bson::{Bson, Document};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::generate::{Dataset, GeneratedCollection};
use crate::human::thousands;
use crate::size::{analyze_with_limits, document_size, Analysis};
use crate::stats::{CollectionStats, SizeFigure};

/// Elements of an array the text shows at most.
pub const SHOWN_ELEMENTS: usize = 10;

/// Characters of a string the text shows at most.
pub const SHOWN_STRING_CHARS: usize = 200;

/// Characters of keys and values (on one line) the text shows about at most; pretty-printed,
/// the text is about twice that.
pub const SHOWN_CHARS: usize = 4_000;

/// Rows of the breakdown kept.
pub const BREAKDOWN_ROWS: usize = 80;

/// Elements of each array the breakdown lists (the array's own row counts them all).
pub const BREAKDOWN_ELEMENTS: usize = 3;

/// A collection's typical and largest sample documents.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SampleDocs {
    /// The sampled document nearest the table's p50 ([`SampleDocs::p50`]); without it, the
    /// median document of the sample by size.
    pub typical: SampleDocument,
    /// The sampled document with the most bytes at full scale.
    pub largest: SampleDocument,
    /// The p50 the typical document was chosen by: the shape's and its full-scale figure.
    /// Absent in JSON written before the typical document was chosen by it (then it is the
    /// sample's median).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p50: Option<TypicalOf>,
}

/// The full-scale p50 a typical sample document is the nearest to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TypicalOf {
    /// The label of the shape (the collection's most numerous at full scale).
    pub shape: String,
    /// Its p50 at full scale, as the collection's table shows it.
    pub p50: SizeFigure,
}

/// References of a sample document that name no document of the sample.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutsideRefs {
    /// Dotted path of the references, without array indexes (`tasks`, `activities.author`).
    pub field: String,
    /// References there that point outside the sample.
    pub count: u64,
}

/// One sample document as shown.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SampleDocument {
    /// Its index in the collection's sample (0 is the first generated).
    pub document: usize,
    /// Exact BSON size of the document as sampled (what `Object.bsonsize()` says of it).
    pub bytes: u64,
    /// Its size at full scale: `bytes` plus the elements of the arrays the sample cut short
    /// (exact when the sampled elements all have the same size); `bytes`, exact, otherwise.
    pub full_bytes: SizeFigure,
    /// The document as typed Extended JSON, pretty-printed, bounded (see the module).
    pub ejson: String,
    /// True when the text leaves something out (elements, fields, characters).
    pub truncated: bool,
    /// Array elements and document fields the text leaves out.
    pub omitted: u64,
    /// Where the bytes go: the whole document's exact analysis, its rows limited to
    /// [`BREAKDOWN_ROWS`] and [`BREAKDOWN_ELEMENTS`] per array.
    pub breakdown: Analysis,
    /// Its references that point outside the sample, by field (the sample holds a share of
    /// the documents they name); every other reference is the `_id` of a sample document.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outside: Vec<OutsideRefs>,
}

/// Returns the typical and largest documents of collection `name` of `data` (`None` when the
/// sample holds none); `stats` (the collection's full-scale statistics) give the p50 the
/// typical document is chosen by.
pub fn samples(data: &Dataset, name: &str, stats: Option<&CollectionStats>) -> Option<SampleDocs> {
    let c = data.collection(name)?;
    let sizes: Vec<u64> = c.documents.iter().map(document_size).collect();
    // Only documents with an array cut short differ at full scale (a few: each holds 10,000
    // elements); the others need no second pass.
    let cut: std::collections::BTreeSet<usize> = c
        .truncated
        .iter()
        .map(|t| t.document)
        .chain(c.shortened.iter().map(|s| s.document))
        .collect();
    // Each document's full-scale size, worked out once: the typical document is chosen by it
    // and the largest is the largest by it.
    let fulls: Vec<SizeFigure> = (0..sizes.len())
        .map(|i| {
            if cut.contains(&i) {
                full_size(data, c, i)
            } else {
                SizeFigure {
                    bytes: sizes.get(i).copied().unwrap_or(0),
                    exact: true,
                }
            }
        })
        .collect();
    let full = |i: usize| {
        fulls.get(i).copied().unwrap_or(SizeFigure {
            bytes: 0,
            exact: true,
        })
    };
    let mut by_size: Vec<usize> = (0..sizes.len()).collect();
    by_size.sort_by_key(|&i| (sizes.get(i).copied().unwrap_or(0), i));
    let median = *by_size.get(by_size.len().checked_sub(1)? / 2)?;
    // The table's p50: of the shape with the most documents at full scale (the first on
    // ties), whose sampled documents the typical one is chosen among.
    let target = stats.and_then(|s| {
        let shape = s
            .shapes
            .iter()
            .rev()
            .max_by(|a, b| a.count.total_cmp(&b.count))?;
        let span = c.shapes.iter().find(|sp| sp.label == shape.label)?;
        (span.count > 0).then(|| {
            (
                TypicalOf {
                    shape: shape.label.clone(),
                    p50: shape.p50,
                },
                span.first..span.first + span.count,
            )
        })
    });
    let (typical, p50) = match target {
        Some((of, range)) => {
            let nearest = range
                .min_by_key(|&i| (full(i).bytes.abs_diff(of.p50.bytes), i))
                .unwrap_or(median);
            (nearest, Some(of))
        }
        None => (median, None),
    };
    let mut largest = 0;
    let mut best = (0, 0);
    for (i, &bytes) in sizes.iter().enumerate() {
        let key = (full(i).bytes, bytes);
        if i == 0 || key > best {
            (largest, best) = (i, key);
        }
    }
    Some(SampleDocs {
        typical: document(c, typical, full(typical))?,
        largest: document(c, largest, full(largest))?,
        p50,
    })
}

/// Returns the full-scale size of document `i` (see [`SampleDocument::full_bytes`]).
fn full_size(data: &Dataset, c: &GeneratedCollection, i: usize) -> SizeFigure {
    let (bytes, exact) = data.full_size(&c.name, i).unwrap_or((0, false));
    SizeFigure { bytes, exact }
}

fn document(c: &GeneratedCollection, i: usize, full_bytes: SizeFigure) -> Option<SampleDocument> {
    let doc = c.documents.get(i)?;
    let cut: Vec<(&str, u64)> = c
        .truncated
        .iter()
        .filter(|t| t.document == i)
        .map(|t| (t.field.as_str(), t.full_count))
        .collect();
    let mut p = Preview {
        left: SHOWN_CHARS,
        truncated: false,
        omitted: 0,
        cut: &cut,
    };
    let value = Value::Object(p.document(doc, true));
    Some(SampleDocument {
        document: i,
        bytes: document_size(doc),
        full_bytes,
        ejson: crate::ejson::pretty_json(&value),
        truncated: p.truncated,
        omitted: p.omitted,
        breakdown: analyze_with_limits(doc, BREAKDOWN_ROWS, BREAKDOWN_ELEMENTS),
        outside: c
            .outside
            .iter()
            .filter(|o| o.document == i)
            .map(|o| OutsideRefs {
                field: o.field.clone(),
                count: o.count,
            })
            .collect(),
    })
}

/// Returns the text shown for `doc`, with the same bounds as [`SampleDocument::ejson`]:
/// the pretty typed Extended JSON and the number of elements and fields left out.
pub fn preview(doc: &Document) -> (String, u64) {
    let mut p = Preview {
        left: SHOWN_CHARS,
        truncated: false,
        omitted: 0,
        cut: &[],
    };
    let value = Value::Object(p.document(doc, true));
    (crate::ejson::pretty_json(&value), p.omitted)
}

/// The bounded walk that builds the text's value.
struct Preview<'a> {
    /// Characters still allowed.
    left: usize,
    truncated: bool,
    omitted: u64,
    /// Top-level arrays the sample cut short, with their full-scale element counts.
    cut: &'a [(&'a str, u64)],
}

impl Preview<'_> {
    fn document(&mut self, doc: &Document, top: bool) -> Map<String, Value> {
        let mut out = Map::new();
        for (n, (key, v)) in doc.iter().enumerate() {
            let full_count = if top {
                self.cut.iter().find(|(f, _)| f == key).map(|(_, c)| *c)
            } else {
                None
            };
            match self.value(v, key.len() + 4, full_count) {
                Some(j) => {
                    out.insert(key.clone(), j);
                }
                None => {
                    let rest = (doc.len() - n) as u64;
                    self.cut_short(rest);
                    out.insert(
                        "…".to_string(),
                        Value::String(more(rest, "field", "fields")),
                    );
                    break;
                }
            }
        }
        out
    }

    fn array(&mut self, items: &[Bson], full_count: Option<u64>) -> Vec<Value> {
        let mut out = Vec::new();
        for (n, v) in items.iter().enumerate() {
            let shown = if n < SHOWN_ELEMENTS {
                self.value(v, 2, None)
            } else {
                None
            };
            match shown {
                Some(j) => out.push(j),
                None => {
                    let rest = (items.len() - n) as u64;
                    self.cut_short(rest);
                    let mut marker = format!("… {}", more(rest, "element", "elements"));
                    if let Some(full) = full_count {
                        marker.push_str(&format!(" ({} at full scale)", thousands(full)));
                    }
                    out.push(Value::String(marker));
                    return out;
                }
            }
        }
        if let Some(full) = full_count.filter(|&f| f > items.len() as u64) {
            // Every sampled element shown, yet the array is longer at full scale.
            self.truncated = true;
            out.push(Value::String(format!(
                "… {} at full scale",
                more(full - items.len() as u64, "element", "elements")
            )));
        }
        out
    }

    /// Returns the text of `v` (costing `overhead` more characters: its key), or `None`
    /// when it does not fit what is left.
    fn value(&mut self, v: &Bson, overhead: usize, full_count: Option<u64>) -> Option<Value> {
        match v {
            Bson::Document(d) => {
                self.take(overhead + 4)?;
                Some(Value::Object(self.document(d, false)))
            }
            Bson::Array(items) => {
                self.take(overhead + 2)?;
                Some(Value::Array(self.array(items, full_count)))
            }
            Bson::String(s) if s.chars().count() > SHOWN_STRING_CHARS => {
                let head: String = s.chars().take(SHOWN_STRING_CHARS).collect();
                let rest = s.chars().count() - SHOWN_STRING_CHARS;
                let text = format!("{head}… ({} more characters)", thousands(rest as u64));
                self.take(overhead + text.len() + 2)?;
                self.truncated = true;
                Some(Value::String(text))
            }
            other => {
                // A value whose bytes alone exceed what is left (a large binary) is not
                // written out to find out.
                if crate::size::value_size(other) > self.left as u64 {
                    return None;
                }
                let j = crate::ejson::to_typed_ejson_value(other);
                self.take(overhead + j.to_string().len())?;
                Some(j)
            }
        }
    }

    /// Takes `n` characters from what is left, or says there is not enough.
    fn take(&mut self, n: usize) -> Option<()> {
        self.left = self.left.checked_sub(n)?;
        Some(())
    }

    fn cut_short(&mut self, rest: u64) {
        self.truncated = true;
        self.omitted += rest;
    }
}

/// Returns "1 more field" or "9,980 more fields".
fn more(n: u64, one: &str, many: &str) -> String {
    format!("{} more {}", thousands(n), if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{evaluate_offered, EvalOptions};
    use bson::doc;

    #[test]
    fn a_short_document_is_shown_whole_and_reads_back_to_the_same_bytes() {
        let d = doc! {
            "_id": bson::oid::ObjectId::parse_str("66d21b961b2e738600000024").unwrap(),
            "n": 5_i64, "x": 5.0, "i": 7, "at": bson::DateTime::from_millis(1_717_171_717_000),
            "tags": ["a", "b"], "nested": { "deep": [1, 2, 3] }
        };
        let (text, omitted) = preview(&d);
        assert_eq!(omitted, 0);
        let back = crate::ejson::parse_document(&text).unwrap();
        assert_eq!(back, d);
        assert_eq!(document_size(&back), d.to_vec().unwrap().len() as u64);
        assert!(text.contains("\"$numberLong\": \"5\""), "{text}");
        assert!(
            text.contains("\"$date\": \"2024-05-31T16:08:37.000Z\""),
            "{text}"
        );
    }

    #[test]
    fn a_celebrity_array_is_cut_with_a_marker_and_the_text_stays_small() {
        let followers: Vec<Bson> = (0..1_000_000)
            .map(|i| Bson::ObjectId(crate::generate::entity_oid(1, "user", i)))
            .collect();
        let d = doc! { "_id": 1, "followers": followers, "name": "celebrity" };
        let (text, omitted) = preview(&d);
        assert!(text.contains("\"… 999,990 more elements\""), "{text}");
        assert!(text.contains("\"name\": \"celebrity\""), "{text}");
        assert_eq!(omitted, 999_990);
        assert!(text.len() < 2 * SHOWN_CHARS, "{} chars", text.len());
        // Still JSON that an Extended JSON reader takes (the marker is a string element).
        assert!(crate::ejson::parse_document(&text).is_ok());
    }

    #[test]
    fn the_text_budget_cuts_fields_and_strings() {
        let mut d = Document::new();
        for i in 0..500 {
            d.insert(format!("field{i}"), "x".repeat(50));
        }
        d.insert("long", "y".repeat(1_000));
        let (text, omitted) = preview(&d);
        assert!(omitted > 0 && omitted < 500, "{omitted}");
        assert!(
            text.contains(&format!("\"…\": \"{} more fields\"", omitted)),
            "{text}"
        );
        assert!(text.len() < 2 * SHOWN_CHARS, "{} chars", text.len());
        let (text, omitted) = preview(&doc! { "long": "y".repeat(1_000) });
        assert_eq!(omitted, 0);
        assert!(text.contains("… (800 more characters)"), "{text}");
    }

    #[test]
    fn every_collection_shows_its_p50_document_and_its_largest_with_exact_sizes() {
        let m = crate::presets::find("social-feed")
            .unwrap()
            .model()
            .unwrap();
        for name in crate::eval::offer::compared(&m).into_iter().map(|o| o.id) {
            let opts = EvalOptions {
                max_documents: Some(60),
                ..EvalOptions::default()
            };
            let e = evaluate_offered(&m, &name, &opts).unwrap();
            let offered = crate::eval::offered_layout(&m, &name).unwrap();
            let model = crate::eval::fitted_sample(&offered.model, &offered.layout, &opts).unwrap();
            let data = crate::generate::generate(&model, &offered.layout);
            for c in &e.collections {
                let s = c.samples.as_ref().expect("every collection has a sample");
                let docs = &data.collection(&c.name).unwrap().documents;
                for shown in [&s.typical, &s.largest] {
                    let d = &docs[shown.document];
                    // The sizes shown are the core's, and bson's encoder agrees.
                    assert_eq!(shown.bytes, document_size(d));
                    assert_eq!(shown.bytes, d.to_vec().unwrap().len() as u64);
                    assert_eq!(shown.breakdown.size, shown.bytes);
                    assert!(shown.breakdown.fields.len() <= BREAKDOWN_ROWS);
                    assert!(shown.full_bytes.bytes >= shown.bytes);
                    if !shown.truncated {
                        assert_eq!(&crate::ejson::parse_document(&shown.ejson).unwrap(), d);
                    }
                }
                // The typical one is the nearest to the table's p50 among its shape's
                // documents (one shape each here); the largest is the largest.
                let of = s.p50.as_ref().expect("chosen by the table's p50");
                let shape = c
                    .stats
                    .shapes
                    .iter()
                    .find(|sh| sh.label == of.shape)
                    .unwrap();
                assert_eq!(of.p50, shape.p50, "{}", c.name);
                let gap = |i: usize| data.full_size(&c.name, i).unwrap().0.abs_diff(of.p50.bytes);
                let nearest = (0..docs.len()).map(gap).min().unwrap();
                assert_eq!(
                    s.typical.full_bytes.bytes.abs_diff(of.p50.bytes),
                    nearest,
                    "{}",
                    c.name
                );
                assert_eq!(gap(s.typical.document), nearest, "{}", c.name);

                for i in 0..docs.len() {
                    let (full, _) = data.full_size(&c.name, i).unwrap();
                    assert!(s.largest.full_bytes.bytes >= full, "{} {i}", c.name);
                }
                assert!(
                    s.largest.bytes >= s.typical.bytes
                        || s.largest.full_bytes.bytes > s.typical.full_bytes.bytes
                );
            }
        }
    }

    #[test]
    fn an_array_cut_short_by_the_sample_says_its_full_scale_count() {
        // celebrity-fanout style: an array the generator materializes only in part.
        let m = crate::presets::find("social-feed")
            .unwrap()
            .model()
            .unwrap();
        let opts = EvalOptions {
            max_documents: Some(40),
            ..EvalOptions::default()
        };
        let found = crate::eval::offer::compared(&m)
            .into_iter()
            .map(|o| o.id)
            .any(|name| {
                let e = evaluate_offered(&m, &name, &opts).unwrap();
                e.collections
                    .iter()
                    .filter_map(|c| c.samples.as_ref())
                    .any(|s| {
                        s.largest.full_bytes.bytes > s.largest.bytes
                            && s.largest.ejson.contains("at full scale")
                    })
            });
        assert!(found, "no design of social-feed cuts an array short");
    }
}
