//! Diagrams: what a design looks like, as plain data any view can draw.
//!
//! [`Diagram::of_layout`] turns a [`Layout`] into one box per collection (its document shapes
//! with their nested sub-documents and arrays, its indexes, its figures and the size warnings
//! it raises) and one [`Reference`] per field that holds ids of another collection's
//! documents. [`ModelDiagram::of`] draws the model before any design: its entities and
//! relationships with their distributions and growth. Every number is read from where the
//! evaluation reads it ([`crate::stats::of_layout`], [`crate::warning::check_with_stats`]), never
//! computed a second way.
//!
//! The formats ([`mermaid`], [`dot`] and [`svg`]) draw a [`drawing::Drawing`], the
//! boxes and lines either diagram becomes in one language.

pub mod changes;
pub mod dot;
pub mod drawing;
pub mod entities;
pub mod mermaid;
pub mod reference;
pub mod shape;
pub mod svg;

use serde::Serialize;

use crate::design::command::shell;
use crate::design::names::{BUCKET_LABEL, CHUNKS, FILES};
use crate::design::{Collection, Layout, Strategy};
use crate::model::distribution::{round_count, Distribution};
use crate::model::Model;
use crate::stats::{CollectionStats, SizeFigure};
use crate::warning::Warning;

pub use entities::ModelDiagram;
pub use reference::Reference;
pub use shape::Entry;

/// The warning codes a collection's box shows: documents that can pass 16 MiB and arrays that
/// grow without bound (docs/warnings.md).
pub const FLAGGED: [&str; 3] = ["DOC_OVER_LIMIT", "DOC_CAN_EXCEED_LIMIT", "UNBOUNDED_ARRAY"];

/// The diagram of one design: its collections and the references between them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Diagram {
    /// The design's name, as the layout gives it.
    pub design: String,
    /// One box per collection, in the layout's order.
    pub collections: Vec<CollectionBox>,
    /// One line per field holding ids of another (or the same) collection's documents.
    pub references: Vec<Reference>,
}

/// One collection drawn as a box.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CollectionBox {
    /// The collection's name.
    pub name: String,
    /// What kind of collection it is.
    pub kind: CollectionKind,
    /// Its kinds of documents, each with its fields and figures.
    pub shapes: Vec<ShapeBox>,
    /// Its secondary indexes.
    pub indexes: Vec<IndexEntry>,
    /// The size warnings raised on it ([`FLAGGED`]).
    pub warnings: Vec<Warning>,
}

/// What a collection is, beyond a plain collection of documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CollectionKind {
    /// Documents of the design's entities, links, buckets or feed items.
    Documents,
    /// GridFS's files collection (`fs.files`).
    GridfsFiles,
    /// GridFS's chunks collection (`fs.chunks`).
    GridfsChunks,
    /// The buckets of a native time-series collection (`system.buckets.<child>`).
    TimeSeries,
}

/// One kind of document of a collection.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShapeBox {
    /// What these documents are (`post`, `followers continuation`, `link`).
    pub label: String,
    /// The entity they mainly hold.
    pub entity: Option<String>,
    /// The fields, sub-documents and arrays nested as the documents nest them.
    pub entries: Vec<Entry>,
    /// Their figures, as the evaluation computes them.
    pub figures: Figures,
}

/// The figures of one kind of document at full scale ([`crate::stats::collection_stats`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Figures {
    /// How many documents there are.
    pub documents: u64,
    /// The 99th-percentile document size.
    pub p99: SizeFigure,
    /// The largest document expected among them.
    pub largest: SizeFigure,
}

/// One secondary index of a collection.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IndexEntry {
    /// The key pattern in mongosh syntax (`{ postId: 1, date: -1 }`).
    pub keys: String,
    /// True for a unique index.
    pub unique: bool,
    /// True when a key runs through an array.
    pub multikey: bool,
    /// True when the index holds only the documents a filter matches.
    pub partial: bool,
}

/// Low, typical, 99th-percentile and highest counts of a distribution (children per parent,
/// elements of an array), rounded as the evaluation rounds counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// The smallest count.
    pub min: u64,
    /// The median.
    pub p50: u64,
    /// The 99th percentile.
    pub p99: u64,
    /// The largest count.
    pub max: u64,
}

impl Counts {
    /// Returns the counts of `d`.
    pub fn of(d: &Distribution) -> Counts {
        Counts {
            min: round_count(d.min()),
            p50: d.p50(),
            p99: d.p99(),
            max: d.max_count(),
        }
    }

    /// Returns exactly one, every time.
    pub fn one() -> Counts {
        Counts::of(&Distribution::fixed(1.0))
    }

    /// True when every count is the same.
    pub fn is_fixed(&self) -> bool {
        self.min == self.max
    }
}

impl Diagram {
    /// Returns the diagram of `layout`, a design of `model` (the model the layout was built
    /// from: an offer's own model, with its lifecycle patterns applied).
    pub fn of_layout(model: &Model, layout: &Layout) -> Diagram {
        let stats = crate::stats::of_layout(layout, &model.start_date);
        let warnings = crate::warning::check_with_stats(model, layout, &stats);
        let collections = layout
            .collections
            .iter()
            .zip(&stats)
            .map(|(c, st)| collection_box(layout, c, st, &warnings))
            .collect();
        Diagram {
            design: layout.design.clone(),
            collections,
            references: reference::of_layout(model, layout),
        }
    }

    /// Returns the box of the collection called `name`.
    pub fn collection(&self, name: &str) -> Option<&CollectionBox> {
        self.collections.iter().find(|c| c.name == name)
    }
}

/// Returns the box of collection `c` of `layout`, with its statistics `stats` and the
/// warnings among `warnings` that concern it.
fn collection_box(
    layout: &Layout,
    c: &Collection,
    stats: &CollectionStats,
    warnings: &[Warning],
) -> CollectionBox {
    let shapes = c
        .shapes
        .iter()
        .zip(&stats.shapes)
        .map(|(s, st)| ShapeBox {
            label: s.label.clone(),
            entity: s.entity.clone(),
            entries: shape::entries(&s.fields, &s.copied),
            figures: Figures {
                documents: round_count(st.count),
                p99: st.p99,
                largest: st.largest().0,
            },
        })
        .collect();
    let indexes = c
        .indexes
        .iter()
        .map(|i| IndexEntry {
            keys: shell(&bson::Bson::Document(i.keys.clone())),
            unique: i.unique(),
            multikey: i.multikey,
            partial: i.partial.is_some(),
        })
        .collect();
    CollectionBox {
        name: c.name.clone(),
        kind: kind_of(layout, c),
        shapes,
        indexes,
        warnings: warnings
            .iter()
            .filter(|w| w.collection == c.name && FLAGGED.contains(&w.code.as_ref()))
            .cloned()
            .collect(),
    }
}

/// Returns what kind of collection `c` is: GridFS's two collections by their names, a
/// time series' buckets by the strategy that made them.
fn kind_of(layout: &Layout, c: &Collection) -> CollectionKind {
    let time_series = layout
        .strategies
        .iter()
        .any(|(_, s)| matches!(s, Strategy::TimeSeries { .. }))
        && c.shapes.iter().any(|s| s.label == BUCKET_LABEL);
    match c.name.as_str() {
        FILES => CollectionKind::GridfsFiles,
        CHUNKS => CollectionKind::GridfsChunks,
        _ if time_series => CollectionKind::TimeSeries,
        _ => CollectionKind::Documents,
    }
}
