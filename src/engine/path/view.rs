//! The two forms a document takes in the engine, as the path rules read them: decoded
//! (`&Document`, what updates, aggregation stages and inserted documents are) and stored
//! (`&RawDocument`, what a collection holds and scans). The rules of [`super`] are written
//! once over [`View`]; each form supplies its field lookup and its array elements.

use crate::engine::raw;
use bson::{Bson, Document, RawBsonRef, RawDocument};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// A document as the path rules read it.
pub trait View<'a>: Copy {
    /// A value in this form: `&Bson` or `RawBsonRef`.
    type Value: Copy;

    /// Returns the value of field `key` (the first field of that name).
    fn field(self, key: &str) -> Option<Self::Value>;

    /// Returns the value of field `key`, trying the position `guess` first and updating it
    /// when the field is found elsewhere (see [`super::CompiledPath`]); forms whose lookup does
    /// not gain from it look the field up as [`View::field`] does.
    fn field_guessed(self, key: &str, guess: &AtomicUsize) -> Option<Self::Value> {
        let _ = guess;
        self.field(key)
    }

    /// Returns the value as a document, when it is one.
    fn as_document(value: Self::Value) -> Option<Self>;

    /// Returns the elements of the value, when it is an array.
    fn elements(value: Self::Value) -> Option<impl Iterator<Item = Self::Value>>;

    /// Returns true when the value is an array.
    fn is_array(value: Self::Value) -> bool {
        Self::elements(value).is_some()
    }

    /// Returns element `i` of the value, when it is an array that long.
    fn element(value: Self::Value, i: usize) -> Option<Self::Value> {
        Self::elements(value)?.nth(i)
    }

    /// Returns the number of elements of the value, when it is an array (how much room its
    /// keys take).
    fn element_count(value: Self::Value) -> usize;

    /// Returns the value decoded (null for bytes that do not decode: stored documents do).
    fn to_bson(value: Self::Value) -> Bson;
}

impl<'a> View<'a> for &'a Document {
    type Value = &'a Bson;

    /// Small documents are searched in order, which is faster than hashing the key (the
    /// collection-scan hot path of decoded documents).
    fn field(self, key: &str) -> Option<&'a Bson> {
        if self.len() <= 16 {
            self.iter().find(|(k, _)| k.as_str() == key).map(|(_, v)| v)
        } else {
            self.get(key)
        }
    }

    fn field_guessed(self, key: &str, guess: &AtomicUsize) -> Option<&'a Bson> {
        if let Some((k, v)) = self.iter().nth(guess.load(Relaxed)) {
            if k.as_str() == key {
                return Some(v);
            }
        }
        if self.len() > 16 {
            return self.get(key);
        }
        let (i, v) = self
            .iter()
            .enumerate()
            .find_map(|(i, (k, v))| (k.as_str() == key).then_some((i, v)))?;
        guess.store(i, Relaxed);
        Some(v)
    }

    fn as_document(value: &'a Bson) -> Option<Self> {
        match value {
            Bson::Document(d) => Some(d),
            _ => None,
        }
    }

    fn elements(value: &'a Bson) -> Option<impl Iterator<Item = &'a Bson>> {
        match value {
            Bson::Array(a) => Some(a.iter()),
            _ => None,
        }
    }

    fn element(value: &'a Bson, i: usize) -> Option<&'a Bson> {
        match value {
            Bson::Array(a) => a.get(i),
            _ => None,
        }
    }

    fn element_count(value: &'a Bson) -> usize {
        match value {
            Bson::Array(a) => a.len(),
            _ => 0,
        }
    }

    fn to_bson(value: &'a Bson) -> Bson {
        value.clone()
    }
}

impl<'a> View<'a> for &'a RawDocument {
    type Value = RawBsonRef<'a>;

    fn field(self, key: &str) -> Option<RawBsonRef<'a>> {
        raw::field(self, key)
    }

    fn as_document(value: RawBsonRef<'a>) -> Option<Self> {
        match value {
            RawBsonRef::Document(d) => Some(d),
            _ => None,
        }
    }

    fn elements(value: RawBsonRef<'a>) -> Option<impl Iterator<Item = RawBsonRef<'a>>> {
        match value {
            RawBsonRef::Array(a) => Some(raw::elements(a)),
            _ => None,
        }
    }

    fn element_count(value: RawBsonRef<'a>) -> usize {
        match value {
            RawBsonRef::Array(a) => raw::count_elements(a.as_bytes()),
            _ => 0,
        }
    }

    fn to_bson(value: RawBsonRef<'a>) -> Bson {
        Bson::try_from(value).unwrap_or(Bson::Null)
    }
}
