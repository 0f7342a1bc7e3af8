//! Encoding documents for storage: the bytes `RawDocumentBuf::try_from(&Document)` writes,
//! written directly. bson's encoder spells every array position as a new `String` (100,000
//! allocations for a follower list); this one writes the digits in place. Types other than
//! the common ones are encoded by bson itself (one element at a time), so the bytes are
//! bson's by construction.

use bson::{Bson, Document, RawDocumentBuf};

/// Returns `doc` encoded as raw BSON, `None` when bson would refuse it (a name with a NUL
/// byte, a document over the format's 2 GiB).
pub fn encode(doc: &Document) -> Option<RawDocumentBuf> {
    let mut out = Vec::with_capacity(64);
    write_document(doc.iter().map(|(k, v)| (k.as_str(), v)), &mut out)?;
    RawDocumentBuf::from_bytes(out).ok()
}

/// Writes a document of `elements`: its length, each element, the closing zero.
fn write_document<'a>(
    elements: impl Iterator<Item = (&'a str, &'a Bson)>,
    out: &mut Vec<u8>,
) -> Option<()> {
    let start = out.len();
    out.extend_from_slice(&[0; 4]);
    for (name, value) in elements {
        write_element(name.as_bytes(), value, out)?;
    }
    out.push(0);
    let len = i32::try_from(out.len() - start).ok()?.to_le_bytes();
    out.get_mut(start..start + 4)?.copy_from_slice(&len);
    Some(())
}

/// Writes an array: a document whose names are the positions.
fn write_array(items: &[Bson], out: &mut Vec<u8>) -> Option<()> {
    let start = out.len();
    out.extend_from_slice(&[0; 4]);
    let mut digits = itoa_buffer();
    for (i, value) in items.iter().enumerate() {
        write_element(spell(i, &mut digits), value, out)?;
    }
    out.push(0);
    let len = i32::try_from(out.len() - start).ok()?.to_le_bytes();
    out.get_mut(start..start + 4)?.copy_from_slice(&len);
    Some(())
}

/// A buffer for the digits of an array position.
fn itoa_buffer() -> [u8; 20] {
    [0; 20]
}

/// Returns the decimal digits of `n`, written at the end of `buf`.
fn spell(mut n: usize, buf: &mut [u8; 20]) -> &[u8] {
    let mut at = buf.len();
    loop {
        at -= 1;
        if let Some(d) = buf.get_mut(at) {
            *d = b'0' + (n % 10) as u8;
        }
        n /= 10;
        if n == 0 || at == 0 {
            break;
        }
    }
    buf.get(at..).unwrap_or(&[])
}

/// Writes a string's length (with its closing zero), bytes and zero.
fn write_string(s: &str, out: &mut Vec<u8>) -> Option<()> {
    let len = i32::try_from(s.len() + 1).ok()?;
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(s.as_bytes());
    out.push(0);
    Some(())
}

/// Writes one element: type, name, value.
fn write_element(name: &[u8], value: &Bson, out: &mut Vec<u8>) -> Option<()> {
    if name.contains(&0) {
        return None;
    }
    let head = |out: &mut Vec<u8>| {
        out.push(value.element_type() as u8);
        out.extend_from_slice(name);
        out.push(0);
    };
    match value {
        Bson::Double(f) => {
            head(out);
            out.extend_from_slice(&f.to_le_bytes());
        }
        Bson::String(s) => {
            head(out);
            write_string(s, out)?;
        }
        Bson::Document(d) => {
            head(out);
            write_document(d.iter().map(|(k, v)| (k.as_str(), v)), out)?;
        }
        Bson::Array(a) => {
            head(out);
            write_array(a, out)?;
        }
        Bson::Boolean(b) => {
            head(out);
            out.push(u8::from(*b));
        }
        Bson::Null | Bson::Undefined | Bson::MinKey | Bson::MaxKey => head(out),
        Bson::Int32(i) => {
            head(out);
            out.extend_from_slice(&i.to_le_bytes());
        }
        Bson::Int64(i) => {
            head(out);
            out.extend_from_slice(&i.to_le_bytes());
        }
        Bson::ObjectId(o) => {
            head(out);
            out.extend_from_slice(&o.bytes());
        }
        Bson::DateTime(d) => {
            head(out);
            out.extend_from_slice(&d.timestamp_millis().to_le_bytes());
        }
        other => {
            // Rarer types: bson encodes a one-element document; its element is copied.
            let name = std::str::from_utf8(name).ok()?;
            let mut one = Document::new();
            one.insert(name, other.clone());
            let raw = RawDocumentBuf::try_from(&one).ok()?;
            let bytes = raw.as_bytes();
            out.extend_from_slice(bytes.get(4..bytes.len().checked_sub(1)?)?);
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::encode;
    use bson::{doc, Bson, RawDocumentBuf};

    /// The bytes are bson's, for every type, nested documents and arrays, long arrays and
    /// names bson refuses.
    #[test]
    fn bytes_are_bsons() {
        let regex = || {
            Bson::RegularExpression(bson::Regex {
                pattern: "a.c".try_into().unwrap_or_else(|_| unreachable!()),
                options: "im".try_into().unwrap_or_else(|_| unreachable!()),
            })
        };
        let big: Vec<Bson> = (0..1234).map(|i| Bson::Int64(i * 3)).collect();
        let d = doc! {
            "d": -0.0, "nan": f64::NAN, "s": "héllo\u{0}x", "e": "",
            "doc": {"x": 1, "y": {"z": [1, {"w": null}]}},
            "arr": [1, [2, [3]], "x", {"k": true}],
            "big": big,
            "bin": Bson::Binary(bson::Binary { subtype: bson::spec::BinarySubtype::Generic, bytes: vec![1, 2, 3] }),
            "u": Bson::Undefined, "oid": bson::oid::ObjectId::from_bytes([3; 12]), "t": true, "f": false,
            "date": bson::DateTime::from_millis(-5), "n": null, "re": regex(),
            "js": Bson::JavaScriptCode("f()".into()), "sym": Bson::Symbol("s".into()),
            "i": -7, "ts": Bson::Timestamp(bson::Timestamp { time: 9, increment: 4 }),
            "l": 1_i64 << 40, "dec": Bson::Decimal128(bson::Decimal128::from_bytes([5; 16])),
            "min": Bson::MinKey, "max": Bson::MaxKey, "empty": {}, "none": [],
        };
        let theirs = RawDocumentBuf::try_from(&d)
            .map(RawDocumentBuf::into_bytes)
            .ok();
        let ours = encode(&d).map(RawDocumentBuf::into_bytes);
        assert!(ours.is_some());
        assert_eq!(ours, theirs);
        let bad = doc! {"a\u{0}b": 1};
        assert!(RawDocumentBuf::try_from(&bad).is_err());
        assert!(encode(&bad).is_none());
    }
}
