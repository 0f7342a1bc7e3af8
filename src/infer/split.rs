//! A polymorphic collection ([`super::variants`]) laid out as the data has it: one entity per
//! kind of document, the kinds grouped by the design's polymorphic pattern into the one
//! collection they came from (docs/model.md, `polymorphic`), so each kind's documents are
//! sized with their own fields at their own presences instead of the union of every kind's.
//!
//! A kind's entity holds the collection's top-level fields its documents hold, each optional by
//! its presence among that kind's documents; its count is the collection's, times the kind's
//! share of the documents with a discriminator. The field values' statistics stay the
//! collection's (bounded memory keeps one set per field, not one per kind): a field only one
//! kind holds has that kind's statistics; a field every kind holds has the statistics of all.
//!
//! The pattern tags each document with its entity's name in `type`
//! ([`crate::design::names::TYPE_FIELD`]): a discriminator named `type` is that tag (its values
//! become the entities' names); another discriminator stays a field of each kind, its one
//! value, beside the tag.
//!
//! The collection stays one entity when a relationship cannot say which kind it belongs to:
//! another collection references its documents (or a link or feed collection does, or the
//! collection is a tree of its own documents), a field pattern other than a map applies to it,
//! or the field that holds a relationship (an embedded array, an array of references, a
//! reference to a parent) is in documents of several kinds. The report says why
//! ([`KeptWhole`]).

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::build::fresh;
use super::fit::{fit, Observed};
use super::sketch::Sketch;
use super::variants::{Polymorphic, Variant};
use super::RelationshipReport;
use crate::design::names::TYPE_FIELD;
use crate::model::design::{DesignSpec, FieldPattern, Strategy};
use crate::model::field::{BsonType, Field, Fields, ValueKind};
use crate::model::{Entity, Relationship};

/// Why a polymorphic collection stays one entity in the inferred model.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum KeptWhole {
    /// The relationship points at the collection's documents from outside them (a reference
    /// or link to them, a feed of them, a tree of them): whatever their kind.
    Referenced {
        /// The relationship.
        relationship: String,
    },
    /// The field holding the relationship is in documents of several kinds (or of none
    /// tracked).
    SharedField {
        /// The relationship.
        relationship: String,
        /// The collection's field that holds it.
        field: String,
    },
    /// A field pattern applies to the collection's entity as a whole.
    Pattern {
        /// The pattern's name (`attribute`, `computed` …).
        pattern: String,
    },
}

/// The parts of the model being inferred that a split rewrites.
#[derive(Debug)]
pub struct Parts<'a> {
    /// Every entity (the collection's among them).
    pub entities: &'a mut Vec<Entity>,
    /// Every relationship.
    pub relationships: &'a mut Vec<Relationship>,
    /// The model's design (strategies, field patterns, the polymorphic groups).
    pub design: &'a mut DesignSpec,
    /// The report's relationships.
    pub moved: &'a mut Vec<RelationshipReport>,
    /// Entity names taken.
    pub names: &'a mut BTreeSet<String>,
    /// Per embedded relationship, its children per parent among the documents holding them.
    pub held: &'a BTreeMap<String, Sketch>,
}

/// Which kind a relationship of the collection belongs to, and on which side.
struct Owned {
    /// Index in `relationships`.
    relationship: usize,
    /// The collection is the relationship's parent (else its child).
    parent: bool,
    /// Index of the kind in the polymorphic collection's variants.
    kind: usize,
    /// The collection's field that holds the relationship.
    field: String,
}

/// Splits `collection` into one entity per kind of `p`, grouped by the design's polymorphic
/// pattern under the collection's name, and records in `p` each kind's entity; or leaves the
/// model as it is and records in `p` why ([`KeptWhole`]).
pub fn split(collection: &str, p: &mut Polymorphic, parts: Parts<'_>) {
    let Some(at) = parts.entities.iter().position(|e| e.name == collection) else {
        return;
    };
    let owned = match owners(collection, p, parts.relationships, parts.design) {
        Ok(o) => o,
        Err(why) => {
            p.kept_whole = Some(why);
            return;
        }
    };
    let Some(whole) = parts.entities.get(at).cloned() else {
        return;
    };
    let with_discriminator: u64 = p.variants.iter().map(|v| v.documents).sum();
    let mut kinds = Vec::new();
    for v in &mut p.variants {
        let name = fresh(parts.names, &v.value, collection);
        parts.names.insert(name.clone());
        kinds.push(Entity {
            name: name.clone(),
            count: (whole.count * v.documents as f64 / with_discriminator.max(1) as f64).round(),
            fields: kind_fields(&whole.fields, &p.field, v),
        });
        v.entity = Some(name);
    }
    let names: Vec<String> = kinds.iter().map(|k| k.name.clone()).collect();
    parts.entities.splice(at..=at, kinds);
    for o in owned {
        let (Some(r), Some(kind)) = (
            parts.relationships.get_mut(o.relationship),
            names.get(o.kind),
        ) else {
            continue;
        };
        // An embedded relationship's children per parent were counted over every kind's
        // documents, those of the other kinds as 0: counted again over this kind's alone.
        let refit = parts
            .held
            .get(&r.name)
            .zip(p.variants.get(o.kind))
            .map(|(h, v)| {
                let holding = presence_of(v, o.field.as_str()).unwrap_or(1.0);
                let without = (v.documents as f64 * (1.0 - holding)).round() as u64;
                let mut counts = h.clone();
                counts.add_many(0, without);
                (Observed::of(&counts), without)
            });
        if let Some((observed, _)) = &refit {
            r.cardinality = fit(observed);
        }
        for m in parts.moved.iter_mut().filter(|m| m.name == r.name) {
            if o.parent {
                m.parent = kind.clone();
            } else {
                m.child = kind.clone();
            }
            if let Some((observed, without)) = &refit {
                m.children_per_parent = observed.clone();
                m.without_array = Some(*without);
            }
        }
        for f in &mut parts.design.fields {
            if let FieldPattern::Map {
                entity,
                relationship,
                ..
            } = f
            {
                if *relationship == r.name {
                    *entity = kind.clone();
                }
            }
        }
        if o.parent {
            r.parent = kind.clone();
        } else {
            r.child = kind.clone();
        }
    }
    parts
        .design
        .polymorphic
        .insert(collection.to_string(), names);
}

/// Returns the kind each relationship of `collection` belongs to, or why one belongs to none
/// alone.
fn owners(
    collection: &str,
    p: &Polymorphic,
    relationships: &[Relationship],
    design: &DesignSpec,
) -> Result<Vec<Owned>, KeptWhole> {
    if let Some(f) = design
        .fields
        .iter()
        .find(|f| f.entity() == collection && !matches!(f, FieldPattern::Map { .. }))
    {
        return Err(KeptWhole::Pattern {
            pattern: f.name().to_string(),
        });
    }
    let mut owned = Vec::new();
    for (i, r) in relationships.iter().enumerate() {
        let (parent, child) = (r.parent == collection, r.child == collection);
        if !parent && !child {
            continue;
        }
        let referenced = || KeptWhole::Referenced {
            relationship: r.name.clone(),
        };
        let strategy = design.relationships.get(&r.name);
        let field = match (parent, child, strategy) {
            _ if r.feed.is_some() || (parent && child) => return Err(referenced()),
            (true, _, Some(Strategy::Embed | Strategy::ReferenceInParent)) => {
                r.field.clone().unwrap_or_else(|| r.name.clone())
            }
            (_, true, Some(Strategy::ReferenceInChild { .. })) => r
                .parent_field
                .clone()
                .unwrap_or_else(|| format!("{}Id", r.parent)),
            _ => return Err(referenced()),
        };
        let holders: Vec<usize> = p
            .variants
            .iter()
            .enumerate()
            .filter(|(_, v)| presence_of(v, &field) != Some(0.0))
            .map(|(k, _)| k)
            .collect();
        match holders.as_slice() {
            [kind] => owned.push(Owned {
                relationship: i,
                parent,
                kind: *kind,
                field,
            }),
            _ => {
                return Err(KeptWhole::SharedField {
                    relationship: r.name.clone(),
                    field,
                })
            }
        }
    }
    Ok(owned)
}

/// Returns the share of `v`'s documents holding the top-level field `name`: 0 when it is in
/// none of them, `None` when the name was not tracked.
fn presence_of(v: &Variant, name: &str) -> Option<f64> {
    match v.presence.iter().find(|(n, _)| n == name) {
        Some((_, x)) => Some(*x),
        None if v.every_name => Some(0.0),
        None => None,
    }
}

/// Returns the fields of kind `v`: the collection's top-level fields its documents hold, each
/// at its presence among them; the discriminator `type` left to the pattern's tag, another
/// discriminator kept with the kind's one value.
fn kind_fields(whole: &Fields, discriminator: &str, v: &Variant) -> Fields {
    let mut fields = Fields::default();
    for (name, f) in whole.iter() {
        if name == discriminator {
            if name != TYPE_FIELD {
                fields.push(
                    name.clone(),
                    Field {
                        kind: Some(ValueKind::Enum),
                        values: vec![v.value.clone()],
                        ..Field::of(BsonType::String)
                    },
                );
            }
            continue;
        }
        let mut f = f.clone();
        if name != "_id" {
            match presence_of(v, name) {
                Some(x) if x <= 0.0 => continue,
                // Rounded as inference writes presences: what matters, not the sampling noise.
                Some(x) if x < 1.0 => f.presence = Some((x * 1e4).round() / 1e4),
                Some(_) => f.presence = None,
                None => {}
            }
        }
        fields.push(name.clone(), f);
    }
    fields
}

/// Returns the report's line of a polymorphic collection, in the summary's or the page's
/// language: its discriminator, each kind's share and own fields, and how the model lays it
/// out (an entity per kind, or one entity and why).
pub fn line(p: &Polymorphic) -> crate::lang::Text {
    use crate::lang::Text;
    // `book 60.0% (isbn, pages); film 40.0% (runtime, director)`
    let variants: Vec<String> = p
        .variants
        .iter()
        .map(|v| {
            format!(
                "{} {:.1}% ({})",
                v.value,
                v.share * 100.0,
                v.fields.join(", ")
            )
        })
        .collect();
    let layout = match &p.kept_whole {
        None => {
            let entities: Vec<&str> = p
                .variants
                .iter()
                .filter_map(|v| v.entity.as_deref())
                .collect();
            Text::new("infer-polymorphic-split").arg("entities", entities.join(", "))
        }
        Some(KeptWhole::Referenced { relationship }) => {
            Text::new("infer-polymorphic-kept-referenced").arg("relationship", relationship)
        }
        Some(KeptWhole::SharedField {
            relationship,
            field,
        }) => Text::new("infer-polymorphic-kept-shared")
            .arg("relationship", relationship)
            .arg("field", field),
        Some(KeptWhole::Pattern { pattern }) => {
            Text::new("infer-polymorphic-kept-pattern").arg("pattern", pattern)
        }
    };
    Text::new("infer-polymorphic")
        .arg("field", &p.field)
        .arg("variants", variants.join("; "))
        .nested("layout", layout)
}
