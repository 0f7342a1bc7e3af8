//! The references of a layout: every field that holds ids of documents of another (or the
//! same) collection, with how many documents stand on each side.
//!
//! Which field refers to what follows from each relationship's strategy and the layout's
//! naming rules ([`crate::design::names`]); a reference is listed only when the layout holds
//! both collections and the field is one of the referring collection's fields.

use serde::Serialize;

use super::Counts;
use crate::design::names::{
    buckets_collection_name, child_ref, file_id_field, relationship_collection_name, ANCESTORS,
    CHILDREN, CHUNKS, CONTINUATION_FIELD, FILES, META, PARENT,
};
use crate::design::{FieldPattern, Layout, Strategy};
use crate::model::distribution::Distribution;
use crate::model::{Model, Relationship};

/// A field holding ids of another collection's documents.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reference {
    /// The collection whose documents hold the field.
    pub from: String,
    /// The field (`postId`, `comments`, `activities.author`).
    pub field: String,
    /// The collection whose documents it names.
    pub to: String,
    /// The relationship it stores; none for GridFS's own references.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relationship: Option<String>,
    /// How many `from` documents name one `to` document (none: as many as the data holds,
    /// which the model does not bound).
    pub from_side: Option<Counts>,
    /// How many `to` documents one `from` document names.
    pub to_side: Option<Counts>,
}

/// Returns every reference of `layout`, a design of `model`: relationship by relationship in
/// model order, then GridFS's.
pub fn of_layout(model: &Model, layout: &Layout) -> Vec<Reference> {
    let mut out = Vec::new();
    for r in &model.relationships {
        if let Some(s) = layout.strategy(&r.name) {
            out.extend(of_relationship(model, layout, r, s));
        }
    }
    out.extend(gridfs(model, layout));
    out.retain(|x| holds(layout, &x.from, &x.field) && layout.collection(&x.to).is_some());
    out
}

/// True when collection `from` of `layout` has a document shape with the top-level field
/// `field` starts with.
fn holds(layout: &Layout, from: &str, field: &str) -> bool {
    let top = field.split('.').next().unwrap_or(field);
    layout
        .collection(from)
        .is_some_and(|c| c.shapes.iter().any(|s| s.fields.get(top).is_some()))
}

/// The two sides of relationship `r`: children per parent, and parents per child (one, or a
/// many-to-many relationship's distribution).
struct Sides {
    children: Counts,
    parents: Counts,
}

impl Sides {
    fn of(model: &Model, r: &Relationship) -> Sides {
        let count = |e: &str| model.entity(e).map_or(0.0, |e| e.count);
        let parents = if r.many_to_many {
            Counts::of(&r.parents_per_child(count(&r.parent), count(&r.child)).0)
        } else {
            Counts::one()
        };
        Sides {
            children: Counts::of(&r.cardinality),
            parents,
        }
    }
}

/// Returns a reference from `from`'s `field` to `to`.
fn line(
    r: &Relationship,
    from: String,
    field: impl Into<String>,
    to: String,
    from_side: Option<Counts>,
    to_side: Option<Counts>,
) -> Reference {
    Reference {
        from,
        field: field.into(),
        to,
        relationship: Some(r.name.clone()),
        from_side,
        to_side,
    }
}

/// Returns the references relationship `r` makes under strategy `s`.
fn of_relationship(
    model: &Model,
    layout: &Layout,
    r: &Relationship,
    s: &Strategy,
) -> Vec<Reference> {
    let sides = Sides::of(model, r);
    let parent = layout.collection_name(&r.parent);
    let child = layout.collection_name(&r.child);
    let own = relationship_collection_name(r, s);
    let one = Some(Counts::one());
    // The child names its parent; the parent lists its children.
    let to_parent = |field: String| {
        line(
            r,
            child.clone(),
            field,
            parent.clone(),
            Some(sides.children),
            Some(sides.parents),
        )
    };
    let to_children = |field: &str| {
        line(
            r,
            parent.clone(),
            field,
            child.clone(),
            Some(sides.parents),
            Some(sides.children),
        )
    };
    match s {
        Strategy::Embed => Vec::new(),
        Strategy::ReferenceInChild { .. }
        | Strategy::EmbedSubset { .. }
        | Strategy::SingleCollection => vec![to_parent(r.parent_ref())],
        Strategy::ReferenceInParent | Strategy::ExtendedReference { .. } => {
            vec![to_children(r.array_field())]
        }
        Strategy::TwoWay => vec![to_parent(r.parent_ref()), to_children(r.array_field())],
        Strategy::LinkCollection => vec![
            line(
                r,
                own.clone(),
                r.parent_ref(),
                parent.clone(),
                Some(sides.children),
                one,
            ),
            line(r, own, child_ref(r), child, Some(sides.parents), one),
        ],
        Strategy::Bucket { size } => buckets(r, own, parent, child, &sides, *size as f64),
        Strategy::Continuation { threshold } => {
            let continuations = Distribution::Chunks {
                of: Box::new(r.cardinality.clone()),
                size: *threshold as f64,
                less: 1.0,
            };
            vec![
                line(
                    r,
                    parent.clone(),
                    CONTINUATION_FIELD,
                    parent.clone(),
                    one,
                    Some(Counts::of(&continuations)),
                ),
                to_children(r.array_field()),
            ]
        }
        Strategy::TimeSeries { .. } => {
            vec![line(r, buckets_collection_name(r), META, parent, None, one)]
        }
        Strategy::FanOutOnRead => vec![
            line(r, own.clone(), "author", parent, None, one),
            line(r, own, "to", child, None, Some(sides.children)),
        ],
        Strategy::FanOutOnWrite => vec![
            line(r, own.clone(), "owner", child, None, one),
            line(r, own, "author", parent, None, one),
        ],
        Strategy::BucketedFanOut { .. } => vec![
            line(r, own.clone(), "owner", child, None, one),
            line(r, own, "activities.author", parent, None, one),
        ],
        Strategy::ParentReferences | Strategy::MaterializedPaths | Strategy::NestedSets => {
            vec![to_parent(PARENT.to_string())]
        }
        Strategy::ChildReferences => vec![to_children(CHILDREN)],
        Strategy::ArrayOfAncestors => vec![
            to_parent(PARENT.to_string()),
            line(r, child.clone(), ANCESTORS, parent, None, None),
        ],
    }
}

/// Returns the references of relationship `r` in buckets of `size` children (collection
/// `own`): each bucket names its parent (a parent has as many buckets as its children fill),
/// and, many-to-many, lists its `size` children.
fn buckets(
    r: &Relationship,
    own: String,
    parent: String,
    child: String,
    sides: &Sides,
    size: f64,
) -> Vec<Reference> {
    let one = Some(Counts::one());
    let buckets = Distribution::Chunks {
        of: Box::new(r.cardinality.clone()),
        size,
        less: 0.0,
    };
    let mut out = vec![line(
        r,
        own.clone(),
        r.parent_ref(),
        parent,
        Some(Counts::of(&buckets)),
        one,
    )];
    if r.many_to_many {
        let full = Counts::of(&Distribution::fixed(size));
        out.push(line(
            r,
            own,
            r.array_field(),
            child,
            Some(sides.parents),
            Some(full),
        ));
    }
    out
}

/// Returns GridFS's references: each stored field's file id to `fs.files`, and every chunk's
/// `files_id` to its file.
fn gridfs(model: &Model, layout: &Layout) -> Vec<Reference> {
    let mut out = Vec::new();
    for p in &model.design.fields {
        if let FieldPattern::Gridfs { entity, field } = p {
            out.push(Reference {
                from: layout.collection_name(entity),
                field: file_id_field(field),
                to: FILES.to_string(),
                relationship: None,
                from_side: Some(Counts::one()),
                to_side: Some(Counts::one()),
            });
        }
    }
    if layout.collection(CHUNKS).is_some() {
        out.push(Reference {
            from: CHUNKS.to_string(),
            field: "files_id".to_string(),
            to: FILES.to_string(),
            relationship: None,
            from_side: None,
            to_side: Some(Counts::one()),
        });
    }
    out
}
