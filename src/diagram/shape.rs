//! A document shape as a diagram nests it: every field an [`Entry`], sub-documents, arrays of
//! sub-documents and maps holding their own entries, arrays with their element counts, and
//! the fields a strategy copied from another entity marked with where they come from.

use serde::Serialize;

use super::Counts;
use crate::design::CopiedField;
use crate::model::field::{BsonType, Field, Fields};

/// One field of a document shape.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Entry {
    /// The field's name.
    pub name: String,
    /// Its path from the document's top (`comments.author`), array levels left out as
    /// MongoDB's dotted paths leave them out.
    pub path: String,
    /// Its BSON type.
    #[serde(rename = "type")]
    pub ty: BsonType,
    /// For an array: its elements' type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub items: Option<BsonType>,
    /// For an array: its elements per document; for a map: its entries per document.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counts: Option<Counts>,
    /// True for a map: an object keyed by the children's key (the `map` field pattern).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub map: bool,
    /// For a field copied from another entity: `entity.field` it copies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub copy_of: Option<String>,
    /// For a sub-document, an array of sub-documents or a map: the fields of each one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub entries: Vec<Entry>,
}

impl Entry {
    /// True when the entry nests a document of its own: a sub-document, an array of
    /// sub-documents or a map (what a diagram draws as a box inside its parent's).
    pub fn is_nested(&self) -> bool {
        self.ty == BsonType::Object || self.items == Some(BsonType::Object)
    }
}

/// Returns the entries of `fields`, marking those `copied` lists as copies.
pub fn entries(fields: &Fields, copied: &[CopiedField]) -> Vec<Entry> {
    entries_under("", fields, copied)
}

/// Returns the entries of `fields` found at `prefix` (`""` at the top, `comments.` below).
fn entries_under(prefix: &str, fields: &Fields, copied: &[CopiedField]) -> Vec<Entry> {
    fields
        .iter()
        .map(|(name, f)| entry(prefix, name, f, copied))
        .collect()
}

/// Returns the entry of field `name` of type `f` at `prefix`.
fn entry(prefix: &str, name: &str, f: &Field, copied: &[CopiedField]) -> Entry {
    let path = format!("{prefix}{name}");
    let copy_of = copied
        .iter()
        .find(|c| c.path == path)
        .map(|c| format!("{}.{}", c.entity, c.source));
    let nested = f.ty == BsonType::Object || f.items == Some(BsonType::Object);
    Entry {
        name: name.to_string(),
        entries: if nested {
            entries_under(&format!("{path}."), &f.fields, copied)
        } else {
            Vec::new()
        },
        path,
        ty: f.ty,
        items: (f.ty == BsonType::Array).then(|| f.items.unwrap_or(BsonType::Null)),
        counts: f.count.as_ref().map(Counts::of),
        map: f.is_map(),
        copy_of,
    }
}
