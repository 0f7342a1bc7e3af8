//! Maps: an object whose keys are data, not names (`tier_and_details: {<32-hex id>: {tier, id,
//! active, benefits}, …}`, counts per day keyed by date), which would otherwise become one
//! optional field per distinct key (2,289 fields for 500 documents, the largest document
//! sized with every one of them). A map becomes a child entity of its own, one per entry, the
//! key in a field `key` beside the value's fields, its entries per parent fitted as an array's
//! elements are ([`super::build`]).

use super::sketch::Sketch;
use super::stats::{FieldStats, ObjectStats};

/// The fewest distinct keys (across all documents) an object must have to be a map.
pub const MIN_MAP_KEYS: usize = 20;

/// The largest share of the objects that the median key may be in, for an object of
/// [`MIN_MAP_KEYS`] keys or more to be a map: the keys of a record (`address.city`) are in
/// nearly every object, a map's each in a few.
pub const MAX_KEY_SHARE: f64 = 0.10;

/// The fewest distinct keys a map whose keys look like data ([`data_key`]) must have.
pub const MIN_DATA_KEYS: usize = 5;

/// The largest share of the objects the median key may be in, for an object whose keys look
/// like data ([`data_key`]) to be a map.
pub const MAX_DATA_KEY_SHARE: f64 = 0.5;

/// The share of a map's values that must have its values' type (one type: sub-documents of
/// one kind, or numbers, or strings).
pub const VALUE_TYPE_SHARE: f64 = 0.95;

/// A map found: its values read as one field, the lengths of its keys and its entries per
/// parent.
#[derive(Debug, Clone)]
pub struct Map {
    /// Distinct keys seen (tracked, and a lower bound when names were dropped).
    pub keys: usize,
    /// Share of the objects holding the median key.
    pub median_share: f64,
    /// Every key's values, as one field.
    pub values: FieldStats,
    /// The keys' lengths in bytes, each key counted once per object holding it.
    pub key_lengths: Sketch,
    /// Entries per parent (a parent without the object counted as 0).
    pub entries: Sketch,
    /// Parents without the object (missing, null or another type).
    pub without: u64,
    /// Entries per parent among the parents holding the object.
    pub held: Sketch,
    /// Keys were dropped for want of room: the values are read on the keys kept.
    pub sampled: bool,
}

/// Returns the map that field `stats` (of `parents` documents) is, if its values are mostly
/// objects whose keys are data: at least [`MIN_MAP_KEYS`] distinct keys with the median key
/// in at most [`MAX_KEY_SHARE`] of the objects, or, when 90% of the keys look like data
/// ([`data_key`]: numbers, hexadecimal ids, UUIDs, dates), at least [`MIN_DATA_KEYS`] keys
/// with the median in at most [`MAX_DATA_KEY_SHARE`]; and [`VALUE_TYPE_SHARE`] of the values of
/// one type.
pub fn detect(stats: &FieldStats, parents: u64) -> Option<Map> {
    if stats.ranked_types().first().map(|(t, _)| *t) != Some("object") {
        return None;
    }
    let obj: &ObjectStats = stats.object.as_deref()?;
    let keys = obj.fields.len();
    if keys < MIN_DATA_KEYS || obj.seen == 0 {
        return None;
    }
    let mut shares: Vec<f64> = obj
        .fields
        .iter()
        .map(|(_, f)| f.present as f64 / obj.seen as f64)
        .collect();
    shares.sort_by(f64::total_cmp);
    let median_share = shares.get(shares.len() / 2).copied().unwrap_or(1.0);
    let data_keys = obj.fields.iter().filter(|(k, _)| data_key(k)).count();
    let looks_like_data = data_keys * 10 >= keys * 9;
    let is_map = (keys >= MIN_MAP_KEYS && median_share <= MAX_KEY_SHARE)
        || (looks_like_data && median_share <= MAX_DATA_KEY_SHARE);
    if !is_map {
        return None;
    }
    let mut values = FieldStats::default();
    let mut key_lengths = Sketch::default();
    for (k, f) in &obj.fields {
        values.merge(f);
        key_lengths.add_many(k.len() as u64, f.present);
    }
    let top = values.ranked_types().first().map(|(_, n)| *n).unwrap_or(0);
    if (top as f64) < VALUE_TYPE_SHARE * values.present as f64 {
        return None;
    }
    let held = obj.names.clone();
    let mut entries = held.clone();
    let without = parents.saturating_sub(obj.seen);
    entries.add_many(0, without);
    Some(Map {
        keys,
        median_share,
        values,
        key_lengths,
        entries,
        without,
        held,
        sampled: obj.dropped_names > 0,
    })
}

/// Returns whether a key looks like data rather than a name: a number (`"2024"`, `"17"`), a
/// hexadecimal id of 8 digits or more (an ObjectId's 24, an MD5's 32), a UUID, or a date
/// (`2024-05-01…`).
pub fn data_key(k: &str) -> bool {
    let b = k.as_bytes();
    let digits = !b.is_empty() && b.iter().all(u8::is_ascii_digit);
    let hex = b.len() >= 8 && b.iter().all(u8::is_ascii_hexdigit);
    let uuid = b.len() == 36
        && b.iter().enumerate().all(|(i, c)| {
            matches!(i, 8 | 13 | 18 | 23) == (*c == b'-') && (*c == b'-' || c.is_ascii_hexdigit())
        });
    let date = b.len() >= 10
        && b.iter().take(10).enumerate().all(|(i, c)| {
            if i == 4 || i == 7 {
                *c == b'-'
            } else {
                c.is_ascii_digit()
            }
        });
    digits || hex || uuid || date
}

#[cfg(test)]
mod tests {
    use bson::{doc, Bson, Document};

    use super::*;

    fn field(objects: impl IntoIterator<Item = Document>) -> FieldStats {
        let mut f = FieldStats::default();
        objects.into_iter().for_each(|d| f.add(&Bson::Document(d)));
        f
    }

    #[test]
    fn keys_that_are_data_make_a_map_names_do_not() {
        // 30 parents, each with 0 to 3 entries keyed by its own ids.
        let maps = field((0..30).map(|i| {
            let mut d = Document::new();
            for j in 0..i % 4 {
                d.insert(
                    format!("{:032x}", i * 10 + j),
                    doc! {"tier": "Gold", "n": j},
                );
            }
            d
        }));
        let m = detect(&maps, 40).unwrap();
        assert_eq!(m.keys, 43);
        assert_eq!((m.entries.count(), m.entries.max(), m.without), (40, 3, 10));
        assert_eq!((m.key_lengths.min(), m.key_lengths.max()), (32, 32));
        assert_eq!(m.values.present, 43);
        assert!(m.values.object.is_some());
        // A record: the same few names in every object.
        let records = field((0..30).map(|i| doc! {"city": "Paris", "zip": i}));
        assert!(detect(&records, 30).is_none());
        // Pre-allocated counters "0" … "59", all in every object: not a map.
        let counters = field((0..30).map(|_| {
            (0..60)
                .map(|k| (k.to_string(), Bson::Int32(0)))
                .collect::<Document>()
        }));
        assert!(detect(&counters, 30).is_none());
        // Dates as keys: a map with few keys.
        let days = field((0..20).map(|i| {
            doc! {format!("2024-05-{:02}", i % 6 + 1): 3, format!("2024-06-{:02}", i % 6 + 1): 4}
        }));
        assert!(detect(&days, 20).is_some());
        // Values of mixed types are no map.
        let mixed = field((0..30).map(|i| {
            let v = if i % 2 == 0 {
                Bson::Int32(1)
            } else {
                Bson::String("x".into())
            };
            doc! {format!("{:024x}", i): v}
        }));
        assert!(detect(&mixed, 30).is_none());
    }

    #[test]
    fn data_keys() {
        assert!(data_key("2024"));
        assert!(data_key("0df078f33aa74a2e9696e0520c1a828a"));
        assert!(data_key("123e4567-e89b-12d3-a456-426614174000"));
        assert!(data_key("2024-05-01"));
        assert!(!data_key("city"));
        assert!(!data_key("deadbee"));
        assert!(!data_key(""));
    }
}
