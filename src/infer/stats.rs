//! What was seen of each field, accumulated document by document in bounded memory: type
//! counts, presence, length and count sketches, number and date ranges, sub-fields, the
//! values that may be ids (hashed, counted per value up to [`MAX_TRACKED_VALUES`]) and the
//! strings that may be an enum (up to [`MAX_ENUM_VALUES`] distinct) or of a recognizable kind.

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};

use bson::oid::ObjectId;
use bson::{Bson, Document};

use rustc_hash::FxHashMap;

use super::sketch::Sketch;
use crate::ejson::type_alias;
use crate::model::validate::MAX_FIELDS;

/// The sub-fields seen in documents (or in the objects of one field), in first-seen order.
#[derive(Debug, Clone, Default)]
pub struct ObjectStats {
    /// Objects seen (the denominator of each field's presence).
    pub seen: u64,
    /// Field name → what was seen of it, in the order names first appeared.
    pub fields: Vec<(String, FieldStats)>,
    /// Position of each name in `fields` (a fast hash: names are few and not adversarial, and
    /// no figure depends on the map's order).
    index: FxHashMap<String, usize>,
    /// Names not tracked because the object already had [`MAX_FIELDS`] of them.
    pub dropped_names: u64,
    /// Fields per object (tracked or not): a map's entries per parent ([`super::maps`]).
    pub names: Sketch,
    /// Of a collection's documents (not of embedded objects): what a discriminator would
    /// select ([`super::variants`]).
    pub variants: super::variants::Variants,
}

impl ObjectStats {
    /// Records one document or embedded object.
    pub fn add(&mut self, doc: &Document) {
        self.add_fields(doc.iter().map(|(name, value)| (name.as_str(), value)));
    }

    /// Records one object given as its fields in order (of a [`Document`], or read straight
    /// from text by [`super::line`]).
    pub fn add_fields<'v, V: Value<'v>>(&mut self, fields: impl Iterator<Item = (&'v str, V)>) {
        self.seen += 1;
        let mut names = 0u64;
        for (name, value) in fields {
            names += 1;
            let slot = match self.index.get(name) {
                Some(&i) => self.fields.get_mut(i),
                None if self.fields.len() < MAX_FIELDS => {
                    self.index.insert(name.to_string(), self.fields.len());
                    self.fields.push((name.to_string(), FieldStats::default()));
                    self.fields.last_mut()
                }
                None => {
                    self.dropped_names += 1;
                    None
                }
            };
            if let Some((_, stats)) = slot {
                stats.add_value(value);
            }
        }
        self.names.add(names);
    }

    /// Adds what was seen of `other`'s objects, field by field (a name beyond [`MAX_FIELDS`]
    /// counted as dropped).
    pub fn merge(&mut self, other: &ObjectStats) {
        self.variants.merge(&other.variants);
        self.seen += other.seen;
        self.dropped_names += other.dropped_names;
        self.names.merge(&other.names);
        for (name, f) in &other.fields {
            match self.index.get(name.as_str()) {
                Some(&i) => {
                    if let Some((_, mine)) = self.fields.get_mut(i) {
                        mine.merge(f);
                    }
                }
                None if self.fields.len() < MAX_FIELDS => {
                    self.index.insert(name.clone(), self.fields.len());
                    self.fields.push((name.clone(), f.clone()));
                }
                None => self.dropped_names += f.present,
            }
        }
    }
}

/// One value as the statistics read it: a [`Bson`] value, or one read straight from
/// mongoexport text ([`super::line`]) without building one.
pub trait Value<'v>: Copy {
    /// The fields of an object, in order.
    type Fields: Iterator<Item = (&'v str, Self)>;
    /// The elements of an array, in order.
    type Elements: ExactSizeIterator<Item = Self>;

    /// Returns the value's type and what the statistics read of it.
    fn shape(self) -> Shape<'v, Self::Fields, Self::Elements>;
}

/// A value's type and payload as the statistics read them.
pub enum Shape<'v, F, E> {
    /// An ObjectId.
    ObjectId(ObjectId),
    /// A string.
    String(&'v str),
    /// A 32-bit integer.
    Int32(i32),
    /// A 64-bit integer.
    Int64(i64),
    /// A double.
    Double(f64),
    /// A date, in milliseconds since the epoch.
    Date(i64),
    /// A boolean.
    Bool,
    /// Null.
    Null,
    /// An object's fields.
    Object(F),
    /// An array's elements.
    Array(E),
    /// Any other type, as BSON.
    Other(&'v Bson),
}

impl<'v, F, E> Shape<'v, F, E> {
    /// Returns the MongoDB `$type` alias of the value.
    fn alias(&self) -> &'static str {
        match self {
            Shape::ObjectId(_) => "objectId",
            Shape::String(_) => "string",
            Shape::Int32(_) => "int",
            Shape::Int64(_) => "long",
            Shape::Double(_) => "double",
            Shape::Date(_) => "date",
            Shape::Bool => "bool",
            Shape::Null => "null",
            Shape::Object(_) => "object",
            Shape::Array(_) => "array",
            Shape::Other(b) => type_alias(b),
        }
    }
}

/// The fields of a [`Document`] as the statistics read them.
type DocFields<'v> =
    std::iter::Map<bson::document::Iter<'v>, fn((&'v String, &'v Bson)) -> (&'v str, &'v Bson)>;

impl<'v> Value<'v> for &'v Bson {
    type Fields = DocFields<'v>;
    type Elements = std::slice::Iter<'v, Bson>;

    fn shape(self) -> Shape<'v, Self::Fields, Self::Elements> {
        match self {
            Bson::ObjectId(o) => Shape::ObjectId(*o),
            Bson::String(s) => Shape::String(s),
            Bson::Int32(n) => Shape::Int32(*n),
            Bson::Int64(n) => Shape::Int64(*n),
            Bson::Double(n) => Shape::Double(*n),
            Bson::DateTime(d) => Shape::Date(d.timestamp_millis()),
            Bson::Boolean(_) => Shape::Bool,
            Bson::Null => Shape::Null,
            Bson::Document(doc) => {
                let pair: fn((&'v String, &'v Bson)) -> (&'v str, &'v Bson) =
                    |(name, value)| (name.as_str(), value);
                Shape::Object(doc.iter().map(pair))
            }
            Bson::Array(items) => Shape::Array(items.iter()),
            other => Shape::Other(other),
        }
    }
}

/// What was seen of one field (or of the elements of one array).
#[derive(Debug, Clone, Default)]
pub struct FieldStats {
    /// Values seen (documents holding the field, or array elements).
    pub present: u64,
    /// `$type` alias → values of that type.
    pub types: BTreeMap<&'static str, u64>,
    /// Payload lengths of strings, binData, regex patterns and code.
    pub lengths: Sketch,
    /// Smallest and largest number seen.
    pub numbers: Option<(f64, f64)>,
    /// Earliest and latest date seen (milliseconds since the epoch).
    pub dates: Option<(i64, i64)>,
    /// Sub-fields of the objects seen.
    pub object: Option<Box<ObjectStats>>,
    /// Element counts and elements of the arrays seen.
    pub array: Option<Box<ArrayStats>>,
    /// Values that may be ids (objectId, int, long, short strings), counted per value.
    pub values: Option<Box<ValueCounts>>,
    /// Distinct strings while few, and how many strings look like an email, a URL or an IP.
    pub strings: Option<Box<StringStats>>,
    /// Earliest and latest ObjectId timestamp seen (seconds since the epoch).
    pub oid_times: Option<(u32, u32)>,
}

/// The most distinct values counted per field (about 24 MB of hash map at most): a field
/// with more is counted on the first ones and its figures come from that sample.
pub const MAX_TRACKED_VALUES: usize = 1 << 20;

/// The longest string tracked as a possible id (a UUID is 36 characters, a slug rarely more).
pub const MAX_ID_STRING: usize = 64;

/// The most distinct strings an enum may have.
pub const MAX_ENUM_VALUES: usize = 20;

/// The longest string an enum value may be (longer strings are text, and are not kept).
pub const MAX_ENUM_LENGTH: usize = 256;

/// Values that may be ids, each as a 64-bit hash of its type and bytes, with how often it was
/// seen: the `_id`s a reference resolves to, and the references grouped by the id they name.
#[derive(Debug, Clone, Default)]
pub struct ValueCounts {
    /// Hash of a value → times seen, for the first [`MAX_TRACKED_VALUES`] distinct values
    /// (the keys are hashes already: a fast hash of them; no figure depends on the map's
    /// order).
    pub counts: FxHashMap<u64, u32>,
    /// Values seen (tracked or not).
    pub seen: u64,
    /// Values not tracked because the map was full.
    pub untracked: u64,
}

impl ValueCounts {
    /// Counts one value's hash.
    pub fn add(&mut self, hash: u64) {
        self.seen += 1;
        if let Some(n) = self.counts.get_mut(&hash) {
            *n = n.saturating_add(1);
        } else if self.counts.len() < MAX_TRACKED_VALUES {
            self.counts.insert(hash, 1);
        } else {
            self.untracked += 1;
        }
    }

    /// Adds the counts of `other` (values beyond [`MAX_TRACKED_VALUES`] distinct not tracked).
    pub fn merge(&mut self, other: &ValueCounts) {
        self.seen += other.seen;
        self.untracked += other.untracked;
        for (&k, &n) in &other.counts {
            if let Some(m) = self.counts.get_mut(&k) {
                *m = m.saturating_add(n);
            } else if self.counts.len() < MAX_TRACKED_VALUES {
                self.counts.insert(k, n);
            } else {
                self.untracked += u64::from(n);
            }
        }
    }

    /// Returns the values tracked (seen less those not tracked).
    pub fn tracked(&self) -> u64 {
        self.seen - self.untracked
    }
}

/// What was seen of a field's strings: its distinct values while there are at most
/// [`MAX_ENUM_VALUES`], and how many looked like each recognizable kind.
#[derive(Debug, Clone, Default)]
pub struct StringStats {
    /// Distinct value → times seen; emptied once there are more than [`MAX_ENUM_VALUES`].
    pub distinct: BTreeMap<String, u64>,
    /// More than [`MAX_ENUM_VALUES`] distinct values were seen.
    pub many: bool,
    /// Strings seen.
    pub seen: u64,
    /// Strings that look like an email address (`local@domain.tld`, no spaces).
    pub emails: u64,
    /// Strings that look like a URL (`http://` or `https://`, no spaces).
    pub urls: u64,
    /// Strings that look like an IPv4 address (four numbers 0–255).
    pub ips: u64,
}

impl StringStats {
    /// Records one string.
    pub fn add(&mut self, s: &str) {
        self.seen += 1;
        if s.len() > MAX_ENUM_LENGTH {
            // Text, not a value picked from a list: and memory stays small.
            self.many = true;
            self.distinct.clear();
        }
        if !self.many {
            // A value already seen is counted without copying it.
            match self.distinct.get_mut(s) {
                Some(n) => *n += 1,
                None => {
                    self.distinct.insert(s.to_string(), 1);
                }
            }
            if self.distinct.len() > MAX_ENUM_VALUES {
                self.many = true;
                self.distinct.clear();
            }
        }
        self.emails += u64::from(is_email(s));
        self.urls += u64::from(is_url(s));
        self.ips += u64::from(is_ip(s));
    }
}

impl StringStats {
    /// Adds what was seen of `other`'s strings.
    pub fn merge(&mut self, other: &StringStats) {
        self.seen += other.seen;
        self.emails += other.emails;
        self.urls += other.urls;
        self.ips += other.ips;
        self.many |= other.many;
        if !self.many {
            for (v, &n) in &other.distinct {
                *self.distinct.entry(v.clone()).or_insert(0) += n;
            }
            if self.distinct.len() > MAX_ENUM_VALUES {
                self.many = true;
            }
        }
        if self.many {
            self.distinct.clear();
        }
    }
}

/// Returns whether `s` looks like an email address: one `@` with text before it and a dotted
/// domain after it, no spaces.
pub fn is_email(s: &str) -> bool {
    let Some((local, domain)) = s.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && !s.contains(char::is_whitespace)
        && !domain.contains('@')
        && domain
            .split_once('.')
            .is_some_and(|(a, b)| !a.is_empty() && !b.is_empty())
}

/// Returns whether `s` looks like a URL: `http://` or `https://` and a host, no spaces.
pub fn is_url(s: &str) -> bool {
    let rest = s
        .strip_prefix("https://")
        .or_else(|| s.strip_prefix("http://"));
    rest.is_some_and(|r| !r.is_empty()) && !s.contains(char::is_whitespace)
}

/// Returns whether `s` is a dotted IPv4 address.
pub fn is_ip(s: &str) -> bool {
    // At most 15 characters: the longest address, "255.255.255.255".
    s.len() <= 15
        && s.split('.').count() == 4
        && s.split('.').all(|p| {
            !p.is_empty()
                && p.len() <= 3
                && p.bytes().all(|b| b.is_ascii_digit())
                && p.parse::<u16>().is_ok_and(|n| n <= 255)
        })
}

/// Returns the hash of a value that may be an id (its type and bytes), or `None` for a value
/// that cannot be one (a double, a long string, an object …). Equal ids hash equally whatever
/// document holds them; an int and a long of the same number hash equally (drivers mix them).
pub fn id_hash(value: &Bson) -> Option<u64> {
    shape_id_hash(&value.shape())
}

/// Returns the hash of [`id_hash`] from a value's shape.
fn shape_id_hash<F, E>(shape: &Shape<'_, F, E>) -> Option<u64> {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    match shape {
        Shape::ObjectId(o) => {
            0u8.hash(&mut h);
            o.bytes().hash(&mut h);
        }
        Shape::Int32(n) => {
            1u8.hash(&mut h);
            i64::from(*n).hash(&mut h);
        }
        Shape::Int64(n) => {
            1u8.hash(&mut h);
            n.hash(&mut h);
        }
        Shape::String(s) if s.len() <= MAX_ID_STRING => {
            2u8.hash(&mut h);
            s.hash(&mut h);
        }
        Shape::Other(Bson::Binary(b)) if b.bytes.len() <= MAX_ID_STRING => {
            3u8.hash(&mut h);
            b.bytes.hash(&mut h);
        }
        _ => return None,
    }
    Some(h.finish())
}

/// The arrays of one field: how many elements each had, and the elements themselves.
#[derive(Debug, Clone, Default)]
pub struct ArrayStats {
    /// Elements per array.
    pub counts: Sketch,
    /// Every element, as one field.
    pub elements: FieldStats,
}

impl FieldStats {
    /// Records one value.
    pub fn add(&mut self, value: &Bson) {
        self.add_value(value);
    }

    /// Records one value, of a [`Bson`] value or read straight from text.
    pub fn add_value<'v, V: Value<'v>>(&mut self, value: V) {
        self.present += 1;
        let shape = value.shape();
        *self.types.entry(shape.alias()).or_insert(0) += 1;
        if let Some(hash) = shape_id_hash(&shape) {
            self.values.get_or_insert_with(Default::default).add(hash);
        }
        match shape {
            Shape::ObjectId(o) => {
                let t = o.timestamp().timestamp_millis() / 1000;
                let t = u32::try_from(t).unwrap_or(0);
                self.oid_times = Some(match self.oid_times {
                    Some((lo, hi)) => (lo.min(t), hi.max(t)),
                    None => (t, t),
                });
            }
            Shape::String(s) => {
                self.lengths.add(s.len() as u64);
                self.strings.get_or_insert_with(Default::default).add(s);
            }
            Shape::Int32(n) => self.number(f64::from(n)),
            Shape::Int64(n) => self.number(n as f64),
            Shape::Double(n) if n.is_finite() => self.number(n),
            Shape::Double(_) | Shape::Bool | Shape::Null => {}
            Shape::Date(ms) => {
                self.dates = Some(match self.dates {
                    Some((lo, hi)) => (lo.min(ms), hi.max(ms)),
                    None => (ms, ms),
                });
            }
            Shape::Object(fields) => self
                .object
                .get_or_insert_with(Default::default)
                .add_fields(fields),
            Shape::Array(items) => {
                let array = self.array.get_or_insert_with(Default::default);
                array.counts.add(items.len() as u64);
                for item in items {
                    array.elements.add_value(item);
                }
            }
            Shape::Other(other) => self.add_other(other),
        }
    }

    /// Adds what was seen of `other`'s values (the values of every key of a map, as one).
    pub fn merge(&mut self, other: &FieldStats) {
        fn range<T: PartialOrd + Copy>(a: Option<(T, T)>, b: Option<(T, T)>) -> Option<(T, T)> {
            match (a, b) {
                (Some((alo, ahi)), Some((blo, bhi))) => Some((
                    if blo < alo { blo } else { alo },
                    if bhi > ahi { bhi } else { ahi },
                )),
                (a, None) => a,
                (None, b) => b,
            }
        }
        self.present += other.present;
        for (&t, &n) in &other.types {
            *self.types.entry(t).or_insert(0) += n;
        }
        self.lengths.merge(&other.lengths);
        self.numbers = range(self.numbers, other.numbers);
        self.dates = range(self.dates, other.dates);
        self.oid_times = range(self.oid_times, other.oid_times);
        if let Some(o) = other.object.as_deref() {
            self.object.get_or_insert_with(Default::default).merge(o);
        }
        if let Some(a) = other.array.as_deref() {
            let mine = self.array.get_or_insert_with(Default::default);
            mine.counts.merge(&a.counts);
            mine.elements.merge(&a.elements);
        }
        if let Some(v) = other.values.as_deref() {
            self.values.get_or_insert_with(Default::default).merge(v);
        }
        if let Some(st) = other.strings.as_deref() {
            self.strings.get_or_insert_with(Default::default).merge(st);
        }
    }

    /// Records the payload of a value of a type text read straight never holds.
    fn add_other(&mut self, value: &Bson) {
        match value {
            Bson::Symbol(s) | Bson::JavaScriptCode(s) => self.lengths.add(s.len() as u64),
            Bson::JavaScriptCodeWithScope(c) => self.lengths.add(c.code.len() as u64),
            Bson::Binary(b) => self.lengths.add(b.bytes.len() as u64),
            Bson::RegularExpression(r) => self.lengths.add(r.pattern.len() as u64),
            Bson::Decimal128(d) => {
                if let Ok(n) = d.to_string().parse::<f64>() {
                    if n.is_finite() {
                        self.number(n);
                    }
                }
            }
            _ => {}
        }
    }

    /// Records a number.
    fn number(&mut self, n: f64) {
        self.numbers = Some(match self.numbers {
            Some((lo, hi)) => (lo.min(n), hi.max(n)),
            None => (n, n),
        });
    }

    /// Returns the types seen, the most frequent first (ties by name), with their counts.
    pub fn ranked_types(&self) -> Vec<(&'static str, u64)> {
        let mut v: Vec<_> = self.types.iter().map(|(&t, &n)| (t, n)).collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        v
    }
}
