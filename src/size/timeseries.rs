//! Native time-series buckets as the server stores them in `system.buckets.<coll>` (bucket
//! version 1, uncompressed): their exact size, and an estimate of their size once the server
//! compresses the columns (bucket version 2, MongoDB 5.2+) before the block compressor.

use std::cmp::Ordering;

use bson::oid::ObjectId;
use bson::{Bson, DateTime, Document};

use super::{document_size, element_size};

/// Returns the bucket document the server keeps for `measurements` (one meta value, in
/// insertion order): `_id` (an ObjectId whose timestamp is the rounded minimum time, the other
/// 8 bytes zero here: the server's are unique but as long), `control: {version: 1, min, max}`
/// over every data field (`min` of the time field rounded down to `rounding_seconds`), `meta`
/// (the measurements' `meta_field`) and `data: {field: {"0": v, "1": v, …}}` column by column,
/// fields in order of first appearance. `None` without measurements or when one has no date in
/// `time_field`.
pub fn bucket_document(
    measurements: &[Document],
    time_field: &str,
    meta_field: &str,
    rounding_seconds: u64,
) -> Option<Document> {
    let mut columns: Vec<(String, Document)> = Vec::new();
    let mut min = Document::new();
    let mut max = Document::new();
    for (i, m) in measurements.iter().enumerate() {
        m.get_datetime(time_field).ok()?;
        for (k, v) in m {
            if k == meta_field {
                continue;
            }
            let slot = i.to_string();
            match columns.iter_mut().find(|(n, _)| n == k) {
                Some((_, col)) => {
                    col.insert(slot, v.clone());
                }
                None => {
                    let mut col = Document::new();
                    col.insert(slot, v.clone());
                    columns.push((k.clone(), col));
                }
            }
            let lower = min.get(k).is_none_or(|x| order(v, x) == Ordering::Less);
            if lower {
                min.insert(k.clone(), v.clone());
            }
            let higher = max.get(k).is_none_or(|x| order(v, x) == Ordering::Greater);
            if higher {
                max.insert(k.clone(), v.clone());
            }
        }
    }
    let first = min.get_datetime(time_field).ok()?.timestamp_millis();
    let step = i64::try_from(rounding_seconds.max(1))
        .ok()?
        .saturating_mul(1_000);
    let rounded = first.div_euclid(step).saturating_mul(step);
    min.insert(time_field, DateTime::from_millis(rounded));
    let mut id = [0u8; 12];
    let secs = u32::try_from(rounded.div_euclid(1_000)).unwrap_or(0);
    for (slot, b) in id.iter_mut().zip(secs.to_be_bytes()) {
        *slot = b;
    }
    let mut data = Document::new();
    for (k, col) in columns {
        data.insert(k, col);
    }
    let mut bucket = Document::new();
    bucket.insert("_id", ObjectId::from_bytes(id));
    bucket.insert(
        "control",
        bson::doc! { "version": 1_i32, "min": min, "max": max },
    );
    if let Some(meta) = measurements.first().and_then(|m| m.get(meta_field)) {
        bucket.insert("meta", meta.clone());
    }
    bucket.insert("data", data);
    Some(bucket)
}

/// Returns the exact size of the bucket [`bucket_document`] makes, in bytes.
pub fn bucket_size(
    measurements: &[Document],
    time_field: &str,
    meta_field: &str,
    rounding_seconds: u64,
) -> Option<u64> {
    bucket_document(measurements, time_field, meta_field, rounding_seconds)
        .map(|b| document_size(&b))
}

/// Orders two values of one column for `control.min`/`control.max`: numbers by value, dates,
/// strings (bytes), ObjectIds and booleans within their type; values of different types keep
/// the first one seen (the server orders them by BSON type; a model's column has one type).
fn order(a: &Bson, b: &Bson) -> Ordering {
    let num = |v: &Bson| match v {
        Bson::Int32(x) => Some(f64::from(*x)),
        Bson::Int64(x) => Some(*x as f64),
        Bson::Double(x) => Some(*x),
        _ => None,
    };
    match (a, b) {
        (Bson::DateTime(x), Bson::DateTime(y)) => x.cmp(y),
        (Bson::String(x), Bson::String(y)) => x.as_bytes().cmp(y.as_bytes()),
        (Bson::ObjectId(x), Bson::ObjectId(y)) => x.bytes().cmp(&y.bytes()),
        (Bson::Boolean(x), Bson::Boolean(y)) => x.cmp(y),
        _ => match (num(a), num(b)) {
            (Some(x), Some(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
            _ => Ordering::Equal,
        },
    }
}

/// Returns an estimate of a bucket's size once its columns are compressed (bucket version 2,
/// MongoDB 5.2+: each `data` field becomes one BSONColumn binary), before the collection's
/// block compressor. The method: the bucket's `_id`, `control` and `meta` as they are (plus
/// `control.count`, 7 bytes), each column a binary of 4 + 1 bytes header, its first value as a
/// literal element and every next value as 1 byte when it repeats the previous one, as the
/// bits of its zig-zag delta packed 60 to a 64-bit Simple-8b word (dates, numbers, ObjectIds,
/// strings of at most 16 bytes), or as a literal element otherwise (longer strings and other
/// types), then 1 end byte.
pub fn compressed_estimate(bucket: &Document) -> u64 {
    let mut total = 5 + 7;
    for (k, v) in bucket {
        match (k.as_str(), v) {
            ("data", Bson::Document(data)) => {
                let mut cols = 5;
                for (name, col) in data {
                    let values: Vec<&Bson> = match col {
                        Bson::Document(d) => d.values().collect(),
                        _ => Vec::new(),
                    };
                    cols += 2 + name.len() as u64 + column_estimate(&values);
                }
                total += 2 + k.len() as u64 + cols;
            }
            _ => total += element_size(k.len(), v),
        }
    }
    total
}

/// Returns the estimated BSONColumn binary size of one column's values (see
/// [`compressed_estimate`]).
fn column_estimate(values: &[&Bson]) -> u64 {
    let mut bits = 0.0_f64;
    let mut bytes = 4 + 1 + 1;
    let mut prev: Option<&Bson> = None;
    for v in values {
        match (prev, delta_bits(prev, v)) {
            (None, _) => bytes += element_size(0, v),
            (Some(p), _) if p == *v => bits += 8.0,
            (Some(_), Some(b)) => bits += f64::from(b),
            (Some(_), None) => bytes += element_size(0, v),
        }
        prev = Some(v);
    }
    // 60 payload bits in each 8-byte word.
    bytes + (bits / 60.0 * 8.0).ceil() as u64
}

/// Returns the bits of the zig-zag delta from `prev` to `v` when BSONColumn delta-encodes
/// this type, else `None`.
fn delta_bits(prev: Option<&Bson>, v: &Bson) -> Option<u32> {
    let as_int = |x: &Bson| -> Option<i128> {
        match x {
            Bson::Int32(n) => Some(i128::from(*n)),
            Bson::Int64(n) => Some(i128::from(*n)),
            Bson::DateTime(d) => Some(i128::from(d.timestamp_millis())),
            Bson::Double(f) => Some(i128::from(f.to_bits())),
            Bson::Boolean(b) => Some(i128::from(*b)),
            Bson::ObjectId(o) => Some(
                o.bytes()
                    .iter()
                    .fold(0_i128, |acc, b| acc.wrapping_shl(8) | i128::from(*b)),
            ),
            Bson::String(s) if s.len() <= 16 => Some(
                s.bytes()
                    .fold(0_i128, |acc, b| acc.wrapping_shl(8) | i128::from(b)),
            ),
            _ => None,
        }
    };
    let d = as_int(v)?.wrapping_sub(as_int(prev?)?);
    let zig = (d.wrapping_shl(1) ^ (d >> 127)) as u128;
    Some((128 - zig.leading_zeros()).max(1))
}
