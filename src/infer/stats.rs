//! What was seen of each field, accumulated document by document in bounded memory: type
//! counts, presence, length and count sketches, number and date ranges, sub-fields, the
//! values that may be ids (hashed, counted per value up to [`MAX_TRACKED_VALUES`]) and the
//! strings that may be an enum (up to [`MAX_ENUM_VALUES`] distinct) or of a recognizable kind.

use std::collections::{BTreeMap, HashMap};
use std::hash::{Hash, Hasher};

use bson::{Bson, Document};

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
    /// Position of each name in `fields`.
    index: HashMap<String, usize>,
    /// Names not tracked because the object already had [`MAX_FIELDS`] of them.
    pub dropped_names: u64,
}

impl ObjectStats {
    /// Records one document or embedded object.
    pub fn add(&mut self, doc: &Document) {
        self.seen += 1;
        for (name, value) in doc {
            let slot = match self.index.get(name) {
                Some(&i) => self.fields.get_mut(i),
                None if self.fields.len() < MAX_FIELDS => {
                    self.index.insert(name.clone(), self.fields.len());
                    self.fields.push((name.clone(), FieldStats::default()));
                    self.fields.last_mut()
                }
                None => {
                    self.dropped_names += 1;
                    None
                }
            };
            if let Some((_, stats)) = slot {
                stats.add(value);
            }
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
    /// Hash of a value → times seen, for the first [`MAX_TRACKED_VALUES`] distinct values.
    pub counts: HashMap<u64, u32>,
    /// Values seen (tracked or not).
    pub seen: u64,
    /// Values not tracked because the map was full.
    pub untracked: u64,
}

impl ValueCounts {
    /// Counts one value's hash.
    fn add(&mut self, hash: u64) {
        self.seen += 1;
        if let Some(n) = self.counts.get_mut(&hash) {
            *n = n.saturating_add(1);
        } else if self.counts.len() < MAX_TRACKED_VALUES {
            self.counts.insert(hash, 1);
        } else {
            self.untracked += 1;
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
    fn add(&mut self, s: &str) {
        self.seen += 1;
        if s.len() > MAX_ENUM_LENGTH {
            // Text, not a value picked from a list: and memory stays small.
            self.many = true;
            self.distinct.clear();
        }
        if !self.many {
            *self.distinct.entry(s.to_string()).or_insert(0) += 1;
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
    let parts: Vec<&str> = s.split('.').collect();
    parts.len() == 4
        && parts.iter().all(|p| {
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
    let mut h = std::collections::hash_map::DefaultHasher::new();
    match value {
        Bson::ObjectId(o) => {
            0u8.hash(&mut h);
            o.bytes().hash(&mut h);
        }
        Bson::Int32(n) => {
            1u8.hash(&mut h);
            i64::from(*n).hash(&mut h);
        }
        Bson::Int64(n) => {
            1u8.hash(&mut h);
            n.hash(&mut h);
        }
        Bson::String(s) if s.len() <= MAX_ID_STRING => {
            2u8.hash(&mut h);
            s.hash(&mut h);
        }
        Bson::Binary(b) if b.bytes.len() <= MAX_ID_STRING => {
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
        self.present += 1;
        *self.types.entry(type_alias(value)).or_insert(0) += 1;
        if let Some(hash) = id_hash(value) {
            self.values.get_or_insert_with(Default::default).add(hash);
        }
        if let Bson::ObjectId(o) = value {
            let t = o.timestamp().timestamp_millis() / 1000;
            let t = u32::try_from(t).unwrap_or(0);
            self.oid_times = Some(match self.oid_times {
                Some((lo, hi)) => (lo.min(t), hi.max(t)),
                None => (t, t),
            });
        }
        match value {
            Bson::String(s) => {
                self.lengths.add(s.len() as u64);
                self.strings.get_or_insert_with(Default::default).add(s);
            }
            Bson::Symbol(s) | Bson::JavaScriptCode(s) => self.lengths.add(s.len() as u64),
            Bson::JavaScriptCodeWithScope(c) => self.lengths.add(c.code.len() as u64),
            Bson::Binary(b) => self.lengths.add(b.bytes.len() as u64),
            Bson::RegularExpression(r) => self.lengths.add(r.pattern.len() as u64),
            Bson::Int32(n) => self.number(f64::from(*n)),
            Bson::Int64(n) => self.number(*n as f64),
            Bson::Double(n) if n.is_finite() => self.number(*n),
            Bson::Decimal128(d) => {
                if let Ok(n) = d.to_string().parse::<f64>() {
                    if n.is_finite() {
                        self.number(n);
                    }
                }
            }
            Bson::DateTime(d) => {
                let ms = d.timestamp_millis();
                self.dates = Some(match self.dates {
                    Some((lo, hi)) => (lo.min(ms), hi.max(ms)),
                    None => (ms, ms),
                });
            }
            Bson::Document(doc) => self.object.get_or_insert_with(Default::default).add(doc),
            Bson::Array(items) => {
                let array = self.array.get_or_insert_with(Default::default);
                array.counts.add(items.len() as u64);
                for item in items {
                    array.elements.add(item);
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
