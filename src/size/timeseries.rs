//! Native time-series buckets as the server stores them in `system.buckets.<coll>` (bucket
//! version 1, uncompressed): their exact size, and the same bucket once the server compresses
//! its columns (bucket version 2, MongoDB 5.2+) before the block compressor.

use std::cmp::Ordering;

use bson::oid::ObjectId;
use bson::{Bson, DateTime, Document};

use super::document_size;

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

/// Returns the bucket version 2 (MongoDB 5.2+ compresses a bucket column by column) of a
/// version-1 `bucket`: `control.version` 2 and `control.count` (int32, the slots), each `data`
/// field one BSONColumn binary (BinData subtype 7, [`super::bsoncolumn`]) of its values in slot
/// order (missing slots as skips), `_id` and `meta` as they are. `None` when `bucket` has no
/// `data` document of columns.
pub fn compressed_bucket(bucket: &Document) -> Option<Document> {
    let Some(Bson::Document(data)) = bucket.get("data") else {
        return None;
    };
    let mut count: usize = 0;
    for (_, column) in data {
        let Bson::Document(column) = column else {
            return None;
        };
        for slot in column.keys() {
            let i: usize = slot.parse().ok()?;
            count = count.max(i.saturating_add(1));
        }
    }
    let mut columns = Document::new();
    for (field, column) in data {
        let Bson::Document(column) = column else {
            return None;
        };
        let values: Vec<Option<&Bson>> = (0..count).map(|i| column.get(i.to_string())).collect();
        columns.insert(field.clone(), super::bsoncolumn::column_binary(&values));
    }
    let mut out = Document::new();
    for (k, v) in bucket {
        match (k.as_str(), v) {
            ("control", Bson::Document(c)) => {
                let mut control = c.clone();
                control.insert("version", 2_i32);
                control.insert("count", i32::try_from(count).unwrap_or(i32::MAX));
                out.insert(k.clone(), control);
            }
            ("data", _) => {
                out.insert(k.clone(), std::mem::take(&mut columns));
            }
            _ => {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    Some(out)
}

/// Returns the BSON bytes of [`compressed_bucket`] (the bucket's own size when it is not a
/// bucket of columns).
pub fn compressed_size(bucket: &Document) -> u64 {
    compressed_bucket(bucket).map_or_else(|| document_size(bucket), |b| document_size(&b))
}
