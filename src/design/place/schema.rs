//! The schema versioning pattern during a migration: one collection, two document shapes.
//! The documents already migrated (`migrated_share` of them) have the new version's fields
//! and keep the entity's label (an insert writes the new version); the others are the shape
//! `<entity> v<from>`, the entity's fields as the model declares them. Both hold the version
//! number in the pattern's field, so the application reads either with one query and
//! branches on it.

use super::{CopiedField, DocShape, GrowingArray};
use crate::model::design::FieldPattern;
use crate::model::{BsonType, Entity, Field, Fields};

/// A migration of an entity from one schema version to another.
#[derive(Debug, Clone, Copy)]
pub(super) struct Versions<'a> {
    field: &'a str,
    from: u32,
    to: u32,
    migrated_share: f64,
    added: &'a Fields,
    removed: &'a [String],
}

/// Returns the label of the documents not yet migrated (`product v1`).
pub fn old_label(entity: &str, from: u32) -> String {
    format!("{entity} v{from}")
}

/// Returns the version field with the value `v` in every document (an `int`).
fn version(v: u32) -> Field {
    let mut f = Field::of(BsonType::Int);
    f.min = Some(f64::from(v));
    f.max = Some(f64::from(v));
    f
}

impl<'a> Versions<'a> {
    /// Returns the migration a pattern describes, when it is a `schema_versioning` one.
    pub(super) fn of(p: &'a FieldPattern) -> Option<Versions<'a>> {
        match p {
            FieldPattern::SchemaVersioning {
                field,
                from,
                to,
                migrated_share,
                added,
                removed,
                ..
            } => Some(Versions {
                field,
                from: *from,
                to: *to,
                migrated_share: migrated_share.clamp(0.0, 1.0),
                added,
                removed,
            }),
            _ => None,
        }
    }

    /// Returns the two shapes of `e`'s documents, the migrated first, from the fields the
    /// layout gave the entity (`fields`: `_id`, its own, the references).
    pub(super) fn shapes(
        &self,
        e: &Entity,
        fields: Fields,
        growing: Vec<GrowingArray>,
        copied: Vec<CopiedField>,
    ) -> [DocShape; 2] {
        let with_version = |fields: &Fields, v: u32| {
            let mut out = Fields::default();
            for (n, f) in fields.iter() {
                out.push(n.clone(), f.clone());
                if n == "_id" {
                    out.push(self.field, version(v));
                }
            }
            out
        };
        let mut new = Fields(
            fields
                .0
                .iter()
                .filter(|(n, _)| !self.removed.iter().any(|r| r == n))
                .cloned()
                .collect(),
        );
        for (n, f) in self.added.iter() {
            new.push(n.clone(), f.clone());
        }
        let kept = |g: &GrowingArray| !self.removed.contains(&g.field);
        [
            DocShape {
                label: e.name.clone(),
                entity: Some(e.name.clone()),
                count: e.count * self.migrated_share,
                fields: with_version(&new, self.to),
                growing: growing.iter().filter(|g| kept(g)).cloned().collect(),
                copied: copied.clone(),
            },
            DocShape {
                label: old_label(&e.name, self.from),
                entity: Some(e.name.clone()),
                count: e.count * (1.0 - self.migrated_share),
                fields: with_version(&fields, self.from),
                growing,
                copied,
            },
        ]
    }
}
