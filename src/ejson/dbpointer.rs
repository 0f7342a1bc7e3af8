//! The deprecated DBPointer type. bson 3 keeps `DbPointer`'s namespace and id private, so
//! the only public way in and out is through the BSON bytes of one tiny document
//! `{"": <dbpointer>}`: a few dozen bytes, for a type nobody should still be writing.

use bson::{oid::ObjectId, Bson, DbPointer, Document};

/// Returns a DBPointer value to namespace `ns` and `id`, or `None` if `ns` holds a NUL.
pub fn db_pointer(ns: &str, id: ObjectId) -> Option<Bson> {
    if ns.contains('\0') {
        return None;
    }
    let ns_len = i32::try_from(ns.len() + 1).ok()?;
    let total = i32::try_from(4 + 1 + 1 + 4 + ns.len() + 1 + 12 + 1).ok()?;
    let mut bytes = Vec::with_capacity(usize::try_from(total).ok()?);
    bytes.extend_from_slice(&total.to_le_bytes());
    bytes.push(0x0C);
    bytes.push(0);
    bytes.extend_from_slice(&ns_len.to_le_bytes());
    bytes.extend_from_slice(ns.as_bytes());
    bytes.push(0);
    bytes.extend_from_slice(&id.bytes());
    bytes.push(0);
    let mut doc = Document::from_reader(bytes.as_slice()).ok()?;
    doc.remove("")
}

/// Returns the namespace and id of a DBPointer.
pub fn db_pointer_parts(pointer: &DbPointer) -> Option<(String, ObjectId)> {
    let mut doc = Document::new();
    doc.insert("", Bson::DbPointer(pointer.clone()));
    let bytes = doc.to_vec().ok()?;
    // 4 bytes document length, type byte, empty key's NUL, then the namespace string.
    let len_bytes: [u8; 4] = bytes.get(6..10)?.try_into().ok()?;
    let ns_len = usize::try_from(i32::from_le_bytes(len_bytes)).ok()?;
    let ns = bytes.get(10..10 + ns_len.checked_sub(1)?)?;
    let id: [u8; 12] = bytes.get(10 + ns_len..10 + ns_len + 12)?.try_into().ok()?;
    Some((
        String::from_utf8(ns.to_vec()).ok()?,
        ObjectId::from_bytes(id),
    ))
}
