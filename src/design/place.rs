//! Placing the collections, the second stage of [`super::Layout::build`]: which collections
//! and documents exist under the resolved strategies (with which fields, which embedded arrays
//! and their count distributions, which copied fields) and their shard keys. The plan reads
//! what this makes; the indexes come after the plan.
//!
//! Where each strategy puts its documents: an entity's own collection and what it holds as a
//! parent or a child here, the collections a relationship creates of its own in
//! `place/relationship.rs`, the single-collection and polymorphic patterns in [`single`], time
//! series in `place/timeseries.rs`, tree fields in [`tree`], schema versioning in
//! `place/schema.rs`, GridFS's `fs.files`/`fs.chunks` in [`super::gridfs`].

mod relationship;
mod schema;
pub mod single;
mod timeseries;

pub use timeseries::{measurements_per_bucket, unpack_bucket, BUCKET_MAX_COUNT, BUCKET_MAX_SIZE};
pub mod tree;

use super::command::json_to_doc;
use super::error::DesignError;
use super::names::{child_key, parent_key, CONTINUATION_FIELD};
use super::shape::{strategy_in, Collection, CopiedField, DocShape, GrowingArray};
use crate::model::design::{AttributeForm, DesignSpec, FieldPattern, Strategy, MAX_SUBFIELDS};
use crate::model::distribution::Distribution;
use crate::model::field::{BsonType, Field, Fields, ValueKind};
use crate::model::{Entity, Model, Relationship};

fn oid() -> Field {
    Field::of(BsonType::ObjectId)
}

/// Returns the field a reference to `entity` through its field `key` is: an ObjectId for
/// `_id` (as every reference of a model without keys), else the key field itself (its type,
/// length and range), always present; as an array of `count` of them when `count` is given.
fn reference_field(entity: &Entity, key: &str, count: Option<Distribution>) -> Field {
    let key_field = (key != "_id")
        .then(|| entity.fields.get(key))
        .flatten()
        .filter(|f| f.ty != BsonType::Array && f.ty != BsonType::Object);
    match (key_field, count) {
        (None, None) => oid(),
        (None, Some(c)) => Field::array_of(BsonType::ObjectId, c),
        (Some(k), None) => Field {
            presence: None,
            ..k.clone()
        },
        (Some(k), Some(c)) => Field {
            ty: BsonType::Array,
            items: Some(k.ty),
            count: Some(c),
            presence: None,
            independent: false,
            ..k.clone()
        },
    }
}

fn int_field(kind: ValueKind) -> Field {
    Field {
        kind: Some(kind),
        ..Field::of(BsonType::Int)
    }
}

/// Returns the collections of `model` under `spec` with their document shapes and shard
/// keys: what the plan reads (their indexes come from the plan).
pub(super) fn collections(
    model: &Model,
    spec: &DesignSpec,
    strategies: &[(String, Strategy)],
) -> Result<Vec<Collection>, DesignError> {
    let b = Builder {
        model,
        spec,
        strategies,
    };
    let mut collections = Vec::new();
    for e in &model.entities {
        if !b.has_own_collection(e) {
            continue;
        }
        collections.push(b.entity_collection(e)?);
    }
    b.single_collections(&mut collections)?;
    b.polymorphic_collections(&mut collections);
    for r in &model.relationships {
        let s = b.strategy(&r.name);
        if let Some(c) = b.relationship_collection(r, s)? {
            collections.push(c);
        }
    }
    collections.extend(super::gridfs::collections(model, &spec.fields));
    if let Some(sh) = &model.sharding {
        for c in &mut collections {
            if let Some(k) = sh.keys.get(&c.name) {
                c.shard_key = Some(json_to_doc(k));
            }
        }
    }
    Ok(collections)
}

/// What an entity gets as a parent: extra fields, the arrays among them, copied fields.
type ParentAdditions = (Vec<(String, Field)>, Vec<GrowingArray>, Vec<CopiedField>);

struct Builder<'a> {
    model: &'a Model,
    spec: &'a DesignSpec,
    strategies: &'a [(String, Strategy)],
}

impl Builder<'_> {
    fn strategy(&self, rel: &str) -> &Strategy {
        strategy_in(self.strategies, rel).unwrap_or(&Strategy::LinkCollection)
    }

    fn entity(&self, name: &str) -> Result<&Entity, DesignError> {
        self.model.entity(name).ok_or_else(|| DesignError::Unknown {
            what: "entity",
            name: name.to_string(),
        })
    }

    /// An entity has no collection of its own when every relationship that holds it as a
    /// child embeds it (embed, bucket) or when it is posted through a feed.
    fn has_own_collection(&self, e: &Entity) -> bool {
        let feeds = self
            .model
            .relationships
            .iter()
            .any(|r| r.feed.as_deref() == Some(e.name.as_str()));
        if feeds || self.in_parent_collection(&e.name) {
            return false;
        }
        let as_child: Vec<_> = self
            .model
            .relationships
            .iter()
            .filter(|r| r.child == e.name && r.feed.is_none())
            .collect();
        // Self-references (follows) and many-to-many buckets hold ids of documents that must
        // exist elsewhere.
        as_child.is_empty()
            || !as_child.iter().all(|r| {
                r.parent != r.child
                    && match self.strategy(&r.name) {
                        Strategy::Embed => true,
                        Strategy::Bucket { .. } => !r.many_to_many,
                        Strategy::TimeSeries { .. } => true,
                        _ => false,
                    }
            })
    }

    fn patterns_for<'s>(&'s self, entity: &'s str) -> impl Iterator<Item = &'s FieldPattern> + 's {
        self.spec
            .fields
            .iter()
            .filter(move |p| p.entity() == entity)
    }

    /// Returns the entity's own fields with field patterns applied (no `_id` added).
    fn own_fields(&self, e: &Entity) -> Result<Fields, DesignError> {
        let mut fields = e.fields.clone();
        for p in self.patterns_for(&e.name) {
            match p {
                FieldPattern::Attribute {
                    field,
                    form: AttributeForm::Keyed,
                    key,
                    value,
                    ..
                } => {
                    if let Some(f) = e.fields.get(field) {
                        fields.push(field.clone(), keyed(&e.name, field, f, key, value)?);
                    }
                }
                // The lifecycle patterns act on the model before it is laid out
                // (`model::lifecycle`).
                FieldPattern::Attribute { .. }
                | FieldPattern::Gridfs { .. }
                | FieldPattern::ObjectStorage { .. }
                | FieldPattern::Approximate { .. }
                | FieldPattern::Archive { .. }
                | FieldPattern::DocumentVersioning { .. }
                | FieldPattern::SchemaVersioning { .. }
                | FieldPattern::CaseInsensitiveIndex { .. }
                | FieldPattern::Measurements { .. }
                | FieldPattern::Map { .. } => {}
                FieldPattern::Computed {
                    field,
                    relationship,
                    sum,
                    ..
                } => {
                    let ty = sum
                        .as_ref()
                        .and_then(|_| {
                            self.model
                                .relationship(relationship)
                                .and_then(|r| self.model.entity(&r.child))
                        })
                        .and_then(|c| sum.as_ref().and_then(|s| c.fields.get(s)))
                        .map_or(BsonType::Int, |f| f.ty);
                    let mut f = Field::of(ty);
                    f.kind = Some(ValueKind::Counter);
                    fields.push(field.clone(), f);
                }
                FieldPattern::Preallocated { field, slots, .. } => {
                    too_many_fields(&e.name, field, *slots)?;
                    // The names "0" … are distinct: no need for `push`'s search.
                    let sub = Fields(
                        (0..*slots)
                            .map(|i| (i.to_string(), int_field(ValueKind::Counter)))
                            .collect(),
                    );
                    fields.push(
                        field.clone(),
                        Field {
                            fields: sub,
                            ..Field::of(BsonType::Object)
                        },
                    );
                }
            }
        }
        super::gridfs::replace_stored_fields(&mut fields, &self.spec.fields, &e.name);
        Ok(fields)
    }

    /// Returns the fields, arrays and copies an entity gets as a parent (used at top level and
    /// when the entity is itself embedded). `visiting` prevents cycles.
    fn parent_additions(
        &self,
        e: &Entity,
        visiting: &mut Vec<String>,
    ) -> Result<ParentAdditions, DesignError> {
        let mut fields = Vec::new();
        let mut growing = Vec::new();
        let mut copied = Vec::new();
        visiting.push(e.name.clone());
        for r in self
            .model
            .relationships
            .iter()
            .filter(|r| r.parent == e.name)
        {
            let s = self.strategy(&r.name);
            let child = self.entity(&r.child)?;
            let name = r.array_field().to_string();
            let grow = |count: Distribution, capped: bool| GrowingArray {
                field: name.clone(),
                relationship: r.name.clone(),
                count,
                growth_typical: r.growth_typical(),
                growth_largest: r.growth_largest(),
                capped,
            };
            let card = r.cardinality.clone();
            match s {
                Strategy::Embed | Strategy::EmbedSubset { .. } => {
                    let (laid_out, count) =
                        self.embedded_children(e, r, s, child, visiting, &mut copied)?;
                    fields.push((name.clone(), laid_out));
                    growing.push(grow(count, matches!(s, Strategy::EmbedSubset { .. })));
                }
                Strategy::ExtendedReference { copy } => {
                    let mut elem = Fields::default();
                    elem.push("_id", oid());
                    for c in copy {
                        let f = copied_field(child, c)?;
                        elem.push(c.clone(), f);
                        copied.push(CopiedField {
                            path: format!("{name}.{c}"),
                            entity: child.name.clone(),
                            source: c.clone(),
                            relationship: r.name.clone(),
                        });
                    }
                    fields.push((name.clone(), Field::array_of_objects(elem, card.clone())));
                    growing.push(grow(card, false));
                }
                Strategy::ReferenceInParent | Strategy::TwoWay => {
                    fields.push((
                        name.clone(),
                        reference_field(child, child_key(r, s), Some(card.clone())),
                    ));
                    growing.push(grow(card, false));
                }
                Strategy::Continuation { threshold } => {
                    let t = *threshold as f64;
                    let tbc = Distribution::Chunks {
                        of: Box::new(card.clone()),
                        size: t,
                        less: 1.0,
                    };
                    fields.push((
                        CONTINUATION_FIELD.to_string(),
                        Field::array_of(BsonType::ObjectId, tbc),
                    ));
                    let kept = Distribution::Capped {
                        of: Box::new(card),
                        cap: t,
                    };
                    fields.push((
                        name.clone(),
                        Field::array_of(BsonType::ObjectId, kept.clone()),
                    ));
                    growing.push(grow(kept, true));
                }
                _ => {}
            }
        }
        visiting.pop();
        Ok((fields, growing, copied))
    }

    /// Returns the field of parent `e` holding its embedded children `child` (relationship `r`
    /// under `embed` or `embedSubset`: an array of them, or a map keyed by their key under the
    /// `map` pattern) and how many it holds; a subset's copied fields go to `copied`.
    fn embedded_children(
        &self,
        e: &Entity,
        r: &Relationship,
        s: &Strategy,
        child: &Entity,
        visiting: &mut Vec<String>,
        copied: &mut Vec<CopiedField>,
    ) -> Result<(Field, Distribution), DesignError> {
        let name = r.array_field();
        let card = r.cardinality.clone();
        let count = match s {
            Strategy::EmbedSubset { k } => Distribution::Capped {
                of: Box::new(card),
                cap: *k as f64,
            },
            _ => card,
        };
        let mut elem = self.embedded_fields(child, visiting)?;
        // A subset's copy keeps the `_id` of the child it copies (the subset
        // pattern's `review_id`): what finds it again to update, move or delete.
        if matches!(s, Strategy::EmbedSubset { .. }) && elem.get("_id").is_none() {
            let mut with_id = Fields::default();
            with_id.push("_id", oid());
            for (n, f) in elem.iter() {
                with_id.push(n.clone(), f.clone());
            }
            elem = with_id;
        }
        // Each of the child's fields the subset holds is a copy: live updates of
        // it follow into the subset as into an extended reference.
        if matches!(s, Strategy::EmbedSubset { .. }) {
            for (f, _) in child.fields.iter() {
                copied.push(CopiedField {
                    path: format!("{name}.{f}"),
                    entity: child.name.clone(),
                    source: f.clone(),
                    relationship: r.name.clone(),
                });
            }
        }
        // The `map` pattern: the embedded children as one object keyed by their
        // key field, the entry's other fields its value.
        let map_key = self.spec.fields.iter().find_map(|p| match p {
            FieldPattern::Map {
                entity,
                relationship,
                key,
            } if *entity == e.name && *relationship == r.name && matches!(s, Strategy::Embed) => {
                Some(key)
            }
            _ => None,
        });
        let laid_out = match map_key.and_then(|k| elem.get(k).map(|f| (k, f))) {
            Some((k, key_field)) => {
                let value = Fields(elem.iter().filter(|(n, _)| n != k).cloned().collect());
                Field::map_of(value, count.clone(), key_field.length_distribution())
            }
            None => Field::array_of_objects(elem, count.clone()),
        };
        Ok((laid_out, count))
    }

    /// Returns the fields of `e` when embedded in another document: its own fields plus what it
    /// holds as a parent (no `_id` unless declared, no parent reference).
    fn embedded_fields(
        &self,
        e: &Entity,
        visiting: &mut Vec<String>,
    ) -> Result<Fields, DesignError> {
        let mut fields = self.own_fields(e)?;
        if visiting.contains(&e.name) {
            return Ok(fields);
        }
        let (extra, _, _) = self.parent_additions(e, visiting)?;
        for (n, f) in extra {
            fields.push(n, f);
        }
        Ok(fields)
    }

    fn entity_collection(&self, e: &Entity) -> Result<Collection, DesignError> {
        let mut fields = Fields::default();
        if e.fields.get("_id").is_none() {
            fields.push("_id", oid());
        }
        for (n, f) in self.own_fields(e)?.iter() {
            fields.push(n.clone(), f.clone());
        }
        let mut visiting = Vec::new();
        let (extra, growing, mut copied) = self.parent_additions(e, &mut visiting)?;
        for (n, f) in extra {
            fields.push(n, f);
        }
        for (n, f) in self.tree_fields(e) {
            fields.push(n, f);
        }
        self.child_additions(e, &mut fields, &mut copied)?;
        let mut shapes = Vec::new();
        // The flattened attribute pattern turns each entity into one row per attribute.
        let flattened = self.patterns_for(&e.name).find_map(|p| match p {
            FieldPattern::Attribute {
                field,
                form: AttributeForm::Flattened,
                ..
            } => Some(field.clone()),
            _ => None,
        });
        if let Some(attr) = flattened {
            let f = e
                .fields
                .get(&attr)
                .cloned()
                .unwrap_or_else(|| Field::of(BsonType::Null));
            let per = f.count.clone().map_or(1.0, |c| c.mean());
            let mut rows = Fields(fields.0.into_iter().filter(|(n, _)| *n != attr).collect());
            for (n, sub) in f.fields.iter() {
                rows.push(n.clone(), sub.clone());
            }
            shapes.push(DocShape {
                label: e.name.clone(),
                entity: Some(e.name.clone()),
                count: e.count * per,
                fields: rows,
                growing,
                copied,
            });
        } else if let Some(v) = self.patterns_for(&e.name).find_map(schema::Versions::of) {
            // A migration in progress: the migrated documents keep the entity's label (new
            // documents are written at the new version), the others are a shape of their own.
            shapes.extend(v.shapes(e, fields, growing, copied));
        } else {
            shapes.push(DocShape {
                label: e.name.clone(),
                entity: Some(e.name.clone()),
                count: e.count,
                fields,
                growing,
                copied: copied.clone(),
            });
        }
        // Continuation documents live in the parent's collection.
        shapes.extend(self.continuation_shapes(e));
        Ok(Collection {
            name: e.name.clone(),
            shapes,
            indexes: vec![],
            shard_key: None,
        })
    }

    /// Adds to the fields of child `e` what its parents' strategies keep in it: the
    /// references to its parents (all of them for a many-to-many relationship) and the copies
    /// of parent fields (listed in `copied`).
    fn child_additions(
        &self,
        e: &Entity,
        fields: &mut Fields,
        copied: &mut Vec<CopiedField>,
    ) -> Result<(), DesignError> {
        for r in self
            .model
            .relationships
            .iter()
            .filter(|r| r.child == e.name && r.feed.is_none())
        {
            let s = self.strategy(&r.name);
            let adds_ref = matches!(
                s,
                Strategy::ReferenceInChild { .. } | Strategy::TwoWay | Strategy::EmbedSubset { .. }
            );
            if !adds_ref {
                continue;
            }
            let parent = self.entity(&r.parent)?;
            let pref = r.parent_ref();
            if r.many_to_many {
                // Each child keeps the ids of all its parents: as many as the model's
                // parents_per_child says, else every child at the mean (the tail assumed,
                // which `warning::many_to_many` notes).
                // A child names each parent once: never more parents than there are.
                let (per_child, _) = r.parents_per_child(parent.count, e.count);
                let per_child = if per_child.max() > parent.count {
                    Distribution::Capped {
                        of: Box::new(per_child),
                        cap: parent.count.floor(),
                    }
                } else {
                    per_child
                };
                fields.push(
                    pref,
                    reference_field(parent, parent_key(r, s), Some(per_child)),
                );
            } else {
                fields.push(pref, reference_field(parent, parent_key(r, s), None));
            }
            if let Strategy::ReferenceInChild { copy } = s {
                for c in copy {
                    let f = copied_field(parent, c)?;
                    let path = crate::design::names::parent_copy_field(r, c);
                    fields.push(path.clone(), f);
                    copied.push(CopiedField {
                        path,
                        entity: parent.name.clone(),
                        source: c.clone(),
                        relationship: r.name.clone(),
                    });
                }
            }
        }
        Ok(())
    }

    /// Returns the shapes of the continuation documents of parent `e`'s relationships under
    /// `continuation`: each holds the next `threshold` child ids.
    fn continuation_shapes(&self, e: &Entity) -> Vec<DocShape> {
        let mut out = Vec::new();
        for r in self
            .model
            .relationships
            .iter()
            .filter(|r| r.parent == e.name)
        {
            if let Strategy::Continuation { threshold } = self.strategy(&r.name) {
                let per = Distribution::Chunks {
                    of: Box::new(r.cardinality.clone()),
                    size: *threshold as f64,
                    less: 1.0,
                };
                let mut f = Fields::default();
                f.push("_id", oid());
                let full = Distribution::fixed(*threshold as f64);
                f.push(
                    r.array_field(),
                    Field::array_of(BsonType::ObjectId, full.clone()),
                );
                out.push(DocShape {
                    label: format!("{} continuation", r.name),
                    entity: Some(e.name.clone()),
                    count: e.count * per.mean(),
                    fields: f,
                    growing: vec![GrowingArray::full(r.array_field(), &r.name, full)],
                    copied: vec![],
                });
            }
        }
        out
    }
}

/// Returns the keyed-sub-document form of an attribute array: one sub-field per attribute name
/// (the key field's enum values, or `attr0…` for as many as the largest count).
fn keyed(
    entity: &str,
    name: &str,
    f: &Field,
    key: &str,
    value: &str,
) -> Result<Field, DesignError> {
    let names: Vec<String> = match f.fields.get(key) {
        Some(k) if !k.values.is_empty() => k.values.clone(),
        _ => {
            let n = f.count.as_ref().map_or(0, |c| c.max_count());
            too_many_fields(entity, name, n)?;
            (0..n).map(|i| format!("attr{i}")).collect()
        }
    };
    let vf = f
        .fields
        .get(value)
        .cloned()
        .unwrap_or_else(|| Field::of(BsonType::Null));
    let mut sub = Fields::default();
    for n in names {
        sub.push(n, vf.clone());
    }
    Ok(Field {
        fields: sub,
        presence: f.presence,
        ..Field::of(BsonType::Object)
    })
}

/// Refuses a field pattern that would lay out `count` sub-fields, more than
/// [`MAX_SUBFIELDS`].
fn too_many_fields(entity: &str, field: &str, count: u64) -> Result<(), DesignError> {
    if count > MAX_SUBFIELDS {
        return Err(DesignError::TooManyFields {
            entity: entity.to_string(),
            field: field.to_string(),
            count,
        });
    }
    Ok(())
}

/// Returns the field `name` of `e` that a design copies into another entity's documents, or
/// an error naming it when `e` has no such field.
fn copied_field(e: &Entity, name: &str) -> Result<Field, DesignError> {
    e.fields
        .get(name)
        .cloned()
        .ok_or_else(|| DesignError::Unknown {
            what: "field",
            name: name.to_string(),
        })
}
