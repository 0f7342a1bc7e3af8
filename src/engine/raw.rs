//! Stored documents read from their raw BSON bytes: one field's value, one element's bytes,
//! an array's elements, a document decoded, without bson's per-name checks (they cost three
//! quarters of a collection scan). The path rules of [`super::path`] walk stored documents
//! through this reader.

use bson::{Bson, Document, RawArray, RawBsonRef, RawDocument, RawDocumentBuf};

/// Returns the size in bytes of the value of an element of type `tag` starting at `at`
/// (`None` for bytes that do not parse).
fn value_size(tag: u8, bytes: &[u8], at: usize) -> Option<usize> {
    let len = |at: usize| -> Option<usize> {
        let b: [u8; 4] = bytes.get(at..at.checked_add(4)?)?.try_into().ok()?;
        usize::try_from(i32::from_le_bytes(b)).ok()
    };
    let cstring =
        |at: usize| -> Option<usize> { Some(bytes.get(at..)?.iter().position(|b| *b == 0)? + 1) };
    Some(match tag {
        0x06 | 0x0A | 0xFF | 0x7F => 0,
        0x08 => 1,
        0x10 => 4,
        0x01 | 0x09 | 0x11 | 0x12 => 8,
        0x07 => 12,
        0x13 => 16,
        0x02 | 0x0D | 0x0E => 4 + len(at)?,
        0x03 | 0x04 | 0x0F => len(at)?,
        0x05 => 4 + 1 + len(at)?,
        0x0C => 4 + len(at)? + 12,
        0x0B => {
            let pattern = cstring(at)?;
            pattern + cstring(at + pattern)?
        }
        _ => return None,
    })
}

/// Returns the value of an element of type `tag` whose `size` bytes start at `at`, read
/// directly for the common types; `None` for the others, which are read through bson's own
/// parser.
fn simple_value(tag: u8, bytes: &[u8], at: usize, size: usize) -> Option<RawBsonRef<'_>> {
    let slice = bytes.get(at..at.checked_add(size)?)?;
    let eight = || -> Option<[u8; 8]> { slice.get(..8)?.try_into().ok() };
    Some(match tag {
        0x01 => RawBsonRef::Double(f64::from_le_bytes(eight()?)),
        0x02 => RawBsonRef::String(std::str::from_utf8(slice.get(4..size.checked_sub(1)?)?).ok()?),
        0x03 => RawBsonRef::Document(RawDocument::from_bytes(slice).ok()?),
        0x04 => RawBsonRef::Array(array_view(slice)?),
        0x06 => RawBsonRef::Undefined,
        0x07 => RawBsonRef::ObjectId(bson::oid::ObjectId::from_bytes(
            slice.get(..12)?.try_into().ok()?,
        )),
        0x08 => RawBsonRef::Boolean(*slice.first()? != 0),
        0x09 => RawBsonRef::DateTime(bson::DateTime::from_millis(i64::from_le_bytes(eight()?))),
        0x0A => RawBsonRef::Null,
        0x10 => RawBsonRef::Int32(i32::from_le_bytes(slice.get(..4)?.try_into().ok()?)),
        0x11 => {
            let b = eight()?;
            let [i0, i1, i2, i3, t0, t1, t2, t3] = b;
            RawBsonRef::Timestamp(bson::Timestamp {
                increment: u32::from_le_bytes([i0, i1, i2, i3]),
                time: u32::from_le_bytes([t0, t1, t2, t3]),
            })
        }
        0x12 => RawBsonRef::Int64(i64::from_le_bytes(eight()?)),
        0x13 => RawBsonRef::Decimal128(bson::Decimal128::from_bytes(
            slice.get(..16)?.try_into().ok()?,
        )),
        0xFF => RawBsonRef::MinKey,
        0x7F => RawBsonRef::MaxKey,
        _ => return None,
    })
}

/// Returns the bytes of an array as a `RawArray`. bson has no public constructor for
/// one; its serde support views generic binary bytes as an array (a header check, no copy),
/// which is used here.
fn array_view(bytes: &[u8]) -> Option<&RawArray> {
    use serde::Deserialize;
    let bytes = serde::de::value::BorrowedBytesDeserializer::<serde::de::value::Error>::new(bytes);
    <&RawArray>::deserialize(bytes).ok()
}

/// One element of a raw document as the scanner sees it: the name's bytes, the type and
/// where its value lies.
struct Element<'a> {
    name: &'a [u8],
    tag: u8,
    at: usize,
    size: usize,
}

/// Returns the element starting at byte `at` of `bytes` (`None` at the end or on bytes that
/// do not parse).
fn element_at(bytes: &[u8], at: usize) -> Option<Element<'_>> {
    let tag = *bytes.get(at)?;
    if tag == 0 {
        return None;
    }
    let name_start = at + 1;
    let name_len = bytes.get(name_start..)?.iter().position(|b| *b == 0)?;
    let value_at = name_start + name_len + 1;
    Some(Element {
        name: bytes.get(name_start..value_at - 1)?,
        tag,
        at: value_at,
        size: value_size(tag, bytes, value_at)?,
    })
}

/// Returns the value of field `key` in `doc` (the first field of that name). The names
/// before it are compared as bytes and their values skipped by their sizes, without the
/// checks bson's iterator makes on every name (they cost three quarters of a scan); the
/// value found is read directly for the common types and through bson otherwise. A stored
/// document is valid BSON; bytes that do not parse end the search.
pub fn field<'a>(doc: &'a RawDocument, key: &str) -> Option<RawBsonRef<'a>> {
    let bytes = doc.as_bytes();
    let mut at = 4;
    while let Some(e) = element_at(bytes, at) {
        if e.name == key.as_bytes() {
            return simple_value(e.tag, bytes, e.at, e.size)
                .or_else(|| doc.get(key).ok().flatten());
        }
        at = e.at + e.size;
    }
    None
}

/// Returns the encoded bytes (type, name and value) of the top-level element `key` of `doc`:
/// `Some(None)` when the document has no such field, `None` when its bytes stop parsing
/// before the field is found. Two documents whose elements `key` are the same bytes hold the
/// same value there, and so the same value at every path under `key`.
pub fn element_bytes<'a>(doc: &'a RawDocument, key: &str) -> Option<Option<&'a [u8]>> {
    let bytes = doc.as_bytes();
    let mut at = 4;
    loop {
        if *bytes.get(at)? == 0 {
            return Some(None);
        }
        let e = element_at(bytes, at)?;
        let end = e.at.checked_add(e.size)?;
        if e.name == key.as_bytes() {
            return Some(Some(bytes.get(at..end)?));
        }
        at = end;
    }
}

/// Returns the document made of the top-level elements of `doc` whose name `keep` accepts,
/// in their order, their bytes copied as they are (the encoding of the document those
/// fields make); `None` for bytes that do not parse.
pub fn select_fields(doc: &RawDocument, keep: impl Fn(&str) -> bool) -> Option<RawDocumentBuf> {
    let bytes = doc.as_bytes();
    let mut out = vec![0u8; 4];
    let mut at = 4;
    while let Some(e) = element_at(bytes, at) {
        let end = e.at.checked_add(e.size)?;
        if keep(std::str::from_utf8(e.name).ok()?) {
            out.extend_from_slice(bytes.get(at..end)?);
        }
        at = end;
    }
    out.push(0);
    let len = i32::try_from(out.len()).ok()?.to_le_bytes();
    out.get_mut(..4)?.copy_from_slice(&len);
    RawDocumentBuf::from_bytes(out).ok()
}

/// Returns the bytes of the array field `key` of `doc` (`None`: missing, not an array, or bytes
/// that do not parse).
fn array_bytes<'a>(doc: &'a RawDocument, key: &str) -> Option<&'a [u8]> {
    let bytes = doc.as_bytes();
    let mut at = 4;
    while let Some(e) = element_at(bytes, at) {
        if e.name == key.as_bytes() {
            return (e.tag == 0x04).then(|| bytes.get(e.at..e.at.checked_add(e.size)?))?;
        }
        at = e.at + e.size;
    }
    None
}

/// Returns the element headers of a raw array's (or document's) bytes, in order.
fn element_headers(bytes: &[u8]) -> impl Iterator<Item = Element<'_>> {
    let mut at = 4;
    std::iter::from_fn(move || {
        let e = element_at(bytes, at)?;
        at = e.at + e.size;
        Some(e)
    })
}

/// Returns the 12 bytes of each element of the array field `key` of `doc` when it is a
/// non-empty array of ObjectIds only (a follower list), read straight from the bytes;
/// `None` for anything else (missing, not an array, empty, another type met).
pub fn object_id_array(doc: &RawDocument, key: &str) -> Option<Vec<[u8; 12]>> {
    let array = array_bytes(doc, key)?;
    let mut ids = Vec::with_capacity(array.len() / 14);
    for x in element_headers(array) {
        if x.tag != 0x07 {
            return None;
        }
        ids.push(<[u8; 12]>::try_from(array.get(x.at..x.at + x.size)?).ok()?);
    }
    (!ids.is_empty()).then_some(ids)
}

/// Returns the number of elements of a raw document or array (its element headers walked,
/// no value read), so a decoded list is allocated once at its size.
pub fn count_elements(bytes: &[u8]) -> usize {
    element_headers(bytes).count()
}

/// Returns the size of each element's value in the array field `key` of `doc` (what
/// `size::value_size` returns for the element decoded: no type byte, no name), read from the
/// element headers without decoding; `None` when the field is missing or not an array.
pub fn array_value_sizes(doc: &RawDocument, key: &str) -> Option<Vec<u64>> {
    let array = array_bytes(doc, key)?;
    Some(element_headers(array).map(|x| x.size as u64).collect())
}

/// The elements of a raw array, read as [`field`] reads a document's values.
struct Elements<'a> {
    array: &'a RawArray,
    at: usize,
    index: usize,
}

impl<'a> Iterator for Elements<'a> {
    type Item = RawBsonRef<'a>;

    fn next(&mut self) -> Option<RawBsonRef<'a>> {
        let bytes = self.array.as_bytes();
        let e = element_at(bytes, self.at)?;
        self.at = e.at + e.size;
        let index = self.index;
        self.index += 1;
        simple_value(e.tag, bytes, e.at, e.size).or_else(|| self.array.get(index).ok().flatten())
    }
}

/// Returns the elements of a raw array (a stored array is valid BSON).
pub fn elements(array: &RawArray) -> impl Iterator<Item = RawBsonRef<'_>> {
    Elements {
        array,
        at: 4,
        index: 0,
    }
}

/// Returns the value of element `e` of `parent` decoded.
fn decode_value(parent: &RawDocument, e: &Element<'_>) -> Option<Bson> {
    let bytes = parent.as_bytes();
    let slice = || bytes.get(e.at..e.at.checked_add(e.size)?);
    match e.tag {
        0x03 => Some(Bson::Document(decode(
            RawDocument::from_bytes(slice()?).ok()?,
        )?)),
        0x04 => {
            let array = RawDocument::from_bytes(slice()?).ok()?;
            let mut out = Vec::with_capacity(count_elements(array.as_bytes()));
            let mut like = Like::default();
            let mut at = 4;
            while let Some(item) = element_at(array.as_bytes(), at) {
                let v = if item.tag == 0x03 {
                    let bytes = array
                        .as_bytes()
                        .get(item.at..item.at.checked_add(item.size)?);
                    Bson::Document(like.decode(RawDocument::from_bytes(bytes?).ok()?)?)
                } else {
                    decode_value(array, &item)?
                };
                out.push(v);
                at = item.at + item.size;
            }
            Some(Bson::Array(out))
        }
        tag => match simple_value(tag, bytes, e.at, e.size) {
            Some(v) => scalar_to_bson(v),
            None => {
                let name = std::str::from_utf8(e.name).ok()?;
                Bson::try_from(parent.get(name).ok()??).ok()
            }
        },
    }
}

/// Returns a raw value decoded into a `Bson` (sub-documents and arrays read by the scanner
/// of [`field`]); `None` for bytes that do not parse.
pub fn to_bson(value: RawBsonRef<'_>) -> Option<Bson> {
    match value {
        RawBsonRef::Document(d) => decode(d).map(Bson::Document),
        RawBsonRef::Array(a) => {
            let mut out = Vec::with_capacity(count_elements(a.as_bytes()));
            for e in elements(a) {
                out.push(to_bson(e)?);
            }
            Some(Bson::Array(out))
        }
        other => scalar_to_bson(other),
    }
}

/// Returns a raw value that is not a document or an array decoded: the common scalars built
/// directly, the rest through bson.
fn scalar_to_bson(value: RawBsonRef<'_>) -> Option<Bson> {
    Some(match value {
        RawBsonRef::Double(f) => Bson::Double(f),
        RawBsonRef::String(s) => Bson::String(s.to_string()),
        RawBsonRef::Boolean(b) => Bson::Boolean(b),
        RawBsonRef::Null => Bson::Null,
        RawBsonRef::Int32(i) => Bson::Int32(i),
        RawBsonRef::Int64(i) => Bson::Int64(i),
        RawBsonRef::ObjectId(o) => Bson::ObjectId(o),
        RawBsonRef::DateTime(d) => Bson::DateTime(d),
        other => return Bson::try_from(other).ok(),
    })
}

/// Returns a raw document decoded into a `Document` (what `Document::try_from` returns,
/// read by the scanner of [`field`]); `None` for bytes that do not parse.
pub fn decode(doc: &RawDocument) -> Option<Document> {
    let bytes = doc.as_bytes();
    let mut out = Document::new();
    let mut at = 4;
    while let Some(e) = element_at(bytes, at) {
        out.insert(std::str::from_utf8(e.name).ok()?, decode_value(doc, &e)?);
        at = e.at + e.size;
    }
    Some(out)
}

/// Decodes the sub-documents of one array, which mostly have the same field names (a host's
/// embedded log messages): each one is a copy of the last one's names with its own values put
/// in, the same document [`decode`] makes without hashing every name of every element.
#[derive(Default)]
struct Like<'a> {
    /// The last sub-document's field names, every value null.
    skeleton: Option<Document>,
    /// The sub-document being decoded: its names and values.
    fields: Vec<(&'a str, Bson)>,
}

impl<'a> Like<'a> {
    /// Returns `doc` decoded, as [`decode`] returns it.
    fn decode(&mut self, doc: &'a RawDocument) -> Option<Document> {
        self.fields.clear();
        let bytes = doc.as_bytes();
        let mut at = 4;
        while let Some(e) = element_at(bytes, at) {
            let name = std::str::from_utf8(e.name).ok()?;
            self.fields.push((name, decode_value(doc, &e)?));
            at = e.at + e.size;
        }
        let same = |sk: &Document| {
            sk.len() == self.fields.len() && sk.keys().map(String::as_str).eq(self.names())
        };
        if !self.skeleton.as_ref().is_some_and(same) {
            let sk: Document = self.names().map(|n| (n.to_string(), Bson::Null)).collect();
            if sk.len() != self.fields.len() {
                // A name given twice: its later value replaces the earlier in place.
                return Some(
                    self.fields
                        .drain(..)
                        .map(|(n, v)| (n.to_string(), v))
                        .collect(),
                );
            }
            self.skeleton = Some(sk);
        }
        let mut out = self.skeleton.clone()?;
        for ((_, slot), (_, v)) in out.iter_mut().zip(self.fields.drain(..)) {
            *slot = v;
        }
        Some(out)
    }

    /// The names of the sub-document being decoded, in order.
    fn names(&self) -> impl Iterator<Item = &'a str> + '_ {
        self.fields.iter().map(|(n, _)| *n)
    }
}

#[cfg(test)]
mod tests {
    use super::{array_value_sizes, elements, field};
    use bson::{doc, Bson, RawDocumentBuf};

    /// Asserts that `raw` decodes, and to what bson's own decoder makes of it.
    fn assert_decodes_as_bson(raw: &RawDocumentBuf) {
        let decoded = super::decode(raw).map(|d| format!("{d:?}"));
        let by_bson = bson::Document::try_from(raw.as_ref())
            .ok()
            .map(|d| format!("{d:?}"));
        assert!(decoded.is_some());
        assert_eq!(decoded, by_bson);
    }

    /// The element sizes read from the bytes are `size::value_size` of the decoded elements.
    #[test]
    fn array_element_sizes_are_the_value_sizes() {
        let d = doc! {
            "a": [1, "xyz", {"b": [1, 2]}, [3.5], null, bson::oid::ObjectId::from_bytes([1; 12]), 1_i64 << 40],
            "s": "not an array",
        };
        let Ok(raw) = RawDocumentBuf::try_from(&d) else {
            panic!("encodes");
        };
        let want: Vec<u64> = d
            .get_array("a")
            .map(|a| a.iter().map(crate::size::value_size).collect())
            .unwrap_or_default();
        assert_eq!(array_value_sizes(&raw, "a"), Some(want));
        assert_eq!(array_value_sizes(&raw, "s"), None);
        assert_eq!(array_value_sizes(&raw, "z"), None);
    }

    /// The scanner reads every BSON type as bson's own parser does, as fields and as array
    /// elements.
    #[test]
    fn scanner_reads_what_bson_reads() {
        let values: Vec<Bson> = vec![
            Bson::Double(-0.0),
            Bson::Double(f64::NAN),
            Bson::String("héllo".into()),
            Bson::String(String::new()),
            Bson::Document(doc! {"x": 1}),
            Bson::Array(vec![Bson::Int32(1), Bson::Array(vec![Bson::Null])]),
            Bson::Binary(bson::Binary {
                subtype: bson::spec::BinarySubtype::Generic,
                bytes: vec![1, 2, 3],
            }),
            Bson::Undefined,
            Bson::ObjectId(bson::oid::ObjectId::from_bytes([3; 12])),
            Bson::Boolean(true),
            Bson::DateTime(bson::DateTime::from_millis(-5)),
            Bson::Null,
            Bson::RegularExpression(bson::Regex {
                pattern: "a.c".try_into().unwrap_or_else(|_| unreachable!()),
                options: "im".try_into().unwrap_or_else(|_| unreachable!()),
            }),
            Bson::JavaScriptCode("f()".into()),
            Bson::Symbol("s".into()),
            Bson::Int32(-7),
            Bson::Timestamp(bson::Timestamp {
                time: 9,
                increment: 4,
            }),
            Bson::Int64(1 << 40),
            Bson::Decimal128(bson::Decimal128::from_bytes([5; 16])),
            Bson::MinKey,
            Bson::MaxKey,
        ];
        let mut d = bson::Document::new();
        for (i, v) in values.iter().enumerate() {
            d.insert(format!("k{i}"), v.clone());
        }
        d.insert("all", Bson::Array(values.clone()));
        let Ok(raw) = RawDocumentBuf::try_from(&d) else {
            panic!("encodes");
        };
        for (k, _) in &d {
            let ours = field(&raw, k).map(|v| format!("{v:?}"));
            let theirs = raw.get(k).ok().flatten().map(|v| format!("{v:?}"));
            assert_eq!(ours, theirs, "{k}");
        }
        assert_eq!(field(&raw, "absent").map(|_| ()), None);
        let Ok(Some(bson::RawBsonRef::Array(all))) = raw.get("all") else {
            panic!("array");
        };
        let ours: Vec<String> = elements(all).map(|v| format!("{v:?}")).collect();
        let theirs: Vec<String> = all
            .into_iter()
            .filter_map(Result::ok)
            .map(|v| format!("{v:?}"))
            .collect();
        assert_eq!(ours.len(), values.len());
        assert_eq!(ours, theirs);
        assert_decodes_as_bson(&raw);
    }

    /// An array's sub-documents decode as bson decodes them, whether they share their names
    /// (each a copy of the last one's names), differ, or give a name twice (its later value in
    /// the earlier place).
    #[test]
    fn array_sub_documents_decode_as_bson_decodes_them() {
        let mut twice = RawDocumentBuf::new();
        twice.append(bson::raw::cstr!("a"), 1);
        twice.append(bson::raw::cstr!("b"), "x");
        twice.append(bson::raw::cstr!("a"), 2);
        let mut items = bson::RawArrayBuf::new();
        for d in [
            doc! {"t": 1, "m": "one"},
            doc! {"t": 2, "m": "two"},
            doc! {"m": "three", "t": 3},
            doc! {"t": 4},
            doc! {"t": 5, "m": {"deep": [{"x": 1}, {"x": 2, "y": [1]}]}},
            doc! {},
        ] {
            let Ok(raw) = RawDocumentBuf::try_from(&d) else {
                panic!("encodes");
            };
            items.push(raw);
        }
        items.push(twice.clone());
        items.push(twice);
        items.push(1);
        let mut raw = RawDocumentBuf::new();
        raw.append(bson::raw::cstr!("all"), items);
        assert_decodes_as_bson(&raw);
    }
}
