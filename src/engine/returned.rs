//! A document a command returns: a copy of the stored bytes, or the document a stage made
//! (a projection, an aggregation), decoded only when a caller reads it as a [`Document`].
//!
//! The evaluation counts, sizes and passes results on far more often than it reads their
//! fields: a returned follower list of 100,000 ObjectIds costs one copy of its bytes, not a
//! tree of values, and its BSON size is its length. Clones share the bytes and the decoded
//! document.

use crate::engine::collection::decode;
use crate::engine::raw::{field as raw_field, to_bson as raw_to_bson};
use bson::{Bson, Document, RawDocument, RawDocumentBuf};
use std::fmt;
use std::ops::Deref;
use std::sync::{Arc, OnceLock};

/// A returned document, shared between clones and decoded at most once.
#[derive(Clone)]
pub struct Returned(Arc<Inner>);

/// What a [`Returned`] holds: the bytes (a stored document) and the decoded document.
struct Inner {
    raw: Option<RawDocumentBuf>,
    doc: OnceLock<Document>,
}

impl Returned {
    /// Returns a result holding a copy of a stored document's bytes, decoded on first read.
    pub fn from_raw(raw: &RawDocument) -> Returned {
        Returned(Arc::new(Inner {
            raw: Some(raw.to_owned()),
            doc: OnceLock::new(),
        }))
    }

    /// Returns a result holding these bytes (a projection of a stored document), decoded on
    /// first read.
    pub fn from_raw_buf(raw: RawDocumentBuf) -> Returned {
        Returned(Arc::new(Inner {
            raw: Some(raw),
            doc: OnceLock::new(),
        }))
    }

    /// Returns the BSON bytes held: a stored document, or the fields a projection kept of
    /// it (`None` for a document a stage made).
    pub fn raw(&self) -> Option<&RawDocument> {
        self.0.raw.as_deref()
    }

    /// Returns the document, decoding the stored bytes on the first call. Stored documents
    /// were encoded from documents, so decoding cannot fail but on corrupted memory (then
    /// the document reads as empty).
    pub fn document(&self) -> &Document {
        self.0.doc.get_or_init(|| {
            self.0
                .raw
                .as_deref()
                .and_then(|r| decode(r).ok())
                .unwrap_or_default()
        })
    }

    /// Returns the document's BSON size: the length of the stored bytes, or the exact size
    /// of a document a stage made.
    pub fn size(&self) -> u64 {
        match &self.0.raw {
            Some(r) => r.as_bytes().len() as u64,
            None => crate::size::document_size(self.document()),
        }
    }

    /// Returns the value of a top-level field, read from the bytes without decoding the
    /// rest of the document (`_id` of a large document, for example).
    pub fn field(&self, key: &str) -> Option<Bson> {
        match (&self.0.raw, self.0.doc.get()) {
            (_, Some(d)) => d.get(key).cloned(),
            (Some(r), None) => raw_field(r, key).and_then(raw_to_bson),
            (None, None) => None,
        }
    }

    /// Returns the document, owned: taken when this is the only holder, else a copy.
    pub fn into_document(self) -> Document {
        match Arc::try_unwrap(self.0) {
            Ok(inner) => match inner.doc.into_inner() {
                Some(d) => d,
                None => inner
                    .raw
                    .as_deref()
                    .and_then(|r| decode(r).ok())
                    .unwrap_or_default(),
            },
            Err(shared) => Returned(shared).document().clone(),
        }
    }
}

impl From<Document> for Returned {
    fn from(doc: Document) -> Returned {
        Returned(Arc::new(Inner {
            raw: None,
            doc: OnceLock::from(doc),
        }))
    }
}

impl Deref for Returned {
    type Target = Document;

    fn deref(&self) -> &Document {
        self.document()
    }
}

impl PartialEq for Returned {
    fn eq(&self, other: &Returned) -> bool {
        match (self.raw(), other.raw()) {
            (Some(a), Some(b)) => a.as_bytes() == b.as_bytes(),
            _ => self.document() == other.document(),
        }
    }
}

impl PartialEq<Document> for Returned {
    fn eq(&self, other: &Document) -> bool {
        self.document() == other
    }
}

impl fmt::Debug for Returned {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.document(), f)
    }
}

impl fmt::Display for Returned {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.document(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::Returned;
    use bson::{doc, RawDocumentBuf};

    /// A stored document's result reads as the document it holds, its size is its length,
    /// and a top-level field is read without decoding.
    #[test]
    fn a_stored_result_reads_as_its_document() {
        let d = doc! {"_id": 7, "a": [1, 2, {"b": "x"}], "c": 1.5};
        let raw = RawDocumentBuf::try_from(&d).unwrap();
        let r = Returned::from_raw(&raw);
        assert_eq!(r.size(), raw.as_bytes().len() as u64);
        assert_eq!(r.field("_id"), Some(bson::Bson::Int32(7)));
        assert_eq!(r.field("z"), None);
        assert_eq!(*r, d);
        let shared = r.clone();
        assert_eq!(shared.into_document(), d);
        assert_eq!(r.into_document(), d);
        let made = Returned::from(d.clone());
        assert_eq!(made.size(), raw.as_bytes().len() as u64);
        assert_eq!(made.field("c"), Some(bson::Bson::Double(1.5)));
        assert_eq!(made.raw(), None);
    }
}
