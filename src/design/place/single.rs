//! The single-collection pattern: a relationship's children moved into their parent's
//! collection, every document of both marked by its entity's name in a discriminator field
//! ([`TYPE_FIELD`]) and holding a shared key (the child's parent reference, which the parent
//! holds as its own `_id`), so that one query on the shared key reads a parent with its
//! children and a query on the key and the type reads the children alone. And the
//! polymorphic pattern: the documents of several entities in one collection, each tagged with
//! its type.

use super::{oid, Builder, Collection, DocShape};
use crate::design::error::DesignError;
use crate::design::names::{shared_key, TYPE_FIELD};
use crate::model::design::Strategy;
use crate::model::field::{BsonType, Field, ValueKind};
use crate::model::Relationship;

/// Returns the fields of `shape` whose value is the document's own `_id`: the shared key of
/// every single-collection relationship whose parent the shape's documents are (a product's
/// `productId`). What generation and a new parent's insert fill in.
pub fn own_id_keys(
    relationships: &[Relationship],
    strategies: &[(String, Strategy)],
    shape: &DocShape,
) -> Vec<String> {
    let Some(entity) = shape.entity.as_deref().filter(|e| *e == shape.label) else {
        return Vec::new();
    };
    let mut keys = Vec::new();
    for r in relationships.iter().filter(|r| r.parent == entity) {
        let single = super::strategy_in(strategies, &r.name)
            .is_some_and(|s| matches!(s, Strategy::SingleCollection));
        let key = shared_key(r);
        if single && !keys.contains(&key) {
            keys.push(key);
        }
    }
    keys
}

/// Returns the discriminator field of documents of `entity`: a string that is always the
/// entity's name.
fn type_field(entity: &str) -> Field {
    Field {
        kind: Some(ValueKind::Enum),
        values: vec![entity.to_string()],
        ..Field::of(BsonType::String)
    }
}

/// Puts the discriminator (when missing) and `key` (when given and missing) right after the
/// `_id` of `shape`'s documents.
fn tag(shape: &mut DocShape, entity: &str, key: Option<&str>) {
    let mut at = shape
        .fields
        .0
        .iter()
        .position(|(n, _)| n == "_id")
        .map_or(0, |i| i + 1);
    if shape.fields.get(TYPE_FIELD).is_none() {
        shape
            .fields
            .0
            .insert(at, (TYPE_FIELD.to_string(), type_field(entity)));
        at += 1;
    }
    if let Some(k) = key.filter(|k| shape.fields.get(k).is_none()) {
        shape.fields.0.insert(at, (k.to_string(), oid()));
    }
}

impl Builder<'_> {
    /// Returns true when a single-collection relationship holds `entity` as its child: the
    /// entity then lives in its parent's collection, not in one of its own.
    pub(super) fn in_parent_collection(&self, entity: &str) -> bool {
        self.model.relationships.iter().any(|r| {
            r.child == entity && matches!(self.strategy(&r.name), Strategy::SingleCollection)
        })
    }

    /// Moves the children of every single-collection relationship into their parent's
    /// collection (the parent's shape and theirs tagged with the discriminator and the shared
    /// key). A child whose parent has no collection of its own (embedded elsewhere) keeps a
    /// collection of its own, tagged the same.
    pub(super) fn single_collections(
        &self,
        collections: &mut Vec<Collection>,
    ) -> Result<(), DesignError> {
        for r in &self.model.relationships {
            if !matches!(self.strategy(&r.name), Strategy::SingleCollection)
                || r.parent == r.child
                || r.many_to_many
            {
                continue;
            }
            let key = shared_key(r);
            let child = self.entity(&r.child)?;
            let mut own = self.entity_collection(child)?;
            for s in &mut own.shapes {
                tag(s, &r.child, Some(&key));
            }
            let parent = collections.iter_mut().find(|c| {
                c.shapes
                    .iter()
                    .any(|s| s.entity.as_deref() == Some(&r.parent) && s.label == r.parent)
            });
            match parent {
                Some(c) => {
                    for s in c.shapes.iter_mut().filter(|s| s.label == r.parent) {
                        tag(s, &r.parent, Some(&key));
                    }
                    c.shapes.append(&mut own.shapes);
                }
                None => collections.push(own),
            }
        }
        Ok(())
    }

    /// Merges the collections of each polymorphic group's entities into one collection named
    /// after the group, every document tagged with its entity's name. An entity with no
    /// collection of its own (embedded elsewhere) stays where it is.
    pub(super) fn polymorphic_collections(&self, collections: &mut Vec<Collection>) {
        for (name, members) in &self.spec.polymorphic {
            let mut shapes = Vec::new();
            let mut at = None;
            for m in members {
                let Some(i) = collections.iter().position(|c| c.name == *m) else {
                    continue;
                };
                at = Some(at.map_or(i, |a: usize| a.min(i)));
                if let Some(c) = collections.get_mut(i) {
                    for s in &mut c.shapes {
                        if let Some(e) = s.entity.clone().filter(|e| *e == s.label) {
                            tag(s, &e, None);
                        }
                    }
                    shapes.append(&mut c.shapes);
                }
            }
            let Some(at) = at else { continue };
            collections.retain(|c| !c.shapes.is_empty());
            let merged = Collection {
                name: name.clone(),
                shapes,
                indexes: vec![],
                shard_key: None,
            };
            collections.insert(at.min(collections.len()), merged);
        }
    }
}
