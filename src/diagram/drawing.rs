//! What a diagram draws, in one language: boxes with a title, a tag and lines of text, and
//! the lines between them (a sub-document inside its document, a reference, a relationship).
//! Every format ([`super::mermaid`], [`super::dot`], [`super::svg`]) draws a [`Drawing`], so the
//! three say the same words.

use super::entities::ModelDiagram;
use super::shape::Entry;
use super::{CollectionBox, CollectionKind, Counts, Diagram};
use crate::design::Layout;
use crate::human::{binary_size, thousands};
use crate::lang::{Lang, Text};
use crate::model::field::BsonType;
use crate::model::Model;
use crate::stats::SizeFigure;

/// Boxes and the lines between them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Drawing {
    /// The diagram's title (the design's name, or the model's).
    pub title: String,
    /// The boxes.
    pub nodes: Vec<Node>,
    /// The lines between boxes.
    pub links: Vec<Link>,
}

/// One box.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// An identifier every format accepts as it is (`n0`, `n0_2`).
    pub id: String,
    /// The name shown on top (a collection, an entity, `post.comments`).
    pub title: String,
    /// What the box is (`collection`, `GridFS files`, `embedded`).
    pub tag: String,
    /// Its lines of text, in order.
    pub lines: Vec<String>,
    /// True when the box carries a size warning.
    pub warned: bool,
    /// What the box holds, without its figures: its fields, sub-documents, indexes and kinds
    /// of documents, one line each. Two designs' boxes of one title hold the same when these
    /// are equal ([`super::changes`]); figures are left out, since every design moves them.
    pub structure: Vec<String>,
    /// How the box differs from the design it is compared with, when it is
    /// ([`super::changes::mark`]).
    pub change: Option<Marking>,
}

/// How a box differs from the box of the same title in the design it is compared with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// The other design has no box of this title.
    Added,
    /// The other design's box of this title holds other fields, indexes or kinds of documents.
    Changed,
}

/// A box's change and the words that say it (`✚ not in normalized`).
#[derive(Debug, Clone, PartialEq)]
pub struct Marking {
    /// What changed.
    pub change: Change,
    /// The words drawn under the box's title.
    pub text: String,
}

/// What a line between two boxes means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkKind {
    /// The second box is nested in the first (a sub-document or an array of them).
    Nests,
    /// A field of the first box holds ids of the second's documents.
    Refers,
    /// A relationship of the model, parent to child.
    Relates,
}

/// One line between two boxes.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    /// The first box's id.
    pub from: String,
    /// The second box's id.
    pub to: String,
    /// What the line means.
    pub kind: LinkKind,
    /// Its label (the field, the relationship).
    pub label: String,
    /// How many of the first box stand at this line (empty: not said).
    pub from_end: String,
    /// How many of the second box stand at this line (empty: not said).
    pub to_end: String,
}

/// Returns a size as the diagram writes it (`2.1 KiB`, `≈ 15.9 MiB` for an estimate).
fn size(s: SizeFigure) -> String {
    let text = binary_size(s.bytes);
    if s.exact {
        text
    } else {
        format!("≈ {text}")
    }
}

/// Returns counts as one end of a line says them: `1`, or `0..200 (p50 3, p99 40)`.
pub fn counts_text(c: Option<Counts>, lang: Lang) -> String {
    match c {
        None => String::new(),
        Some(c) if c.is_fixed() => thousands(c.max),
        Some(c) => Text::new("diagram-range")
            .arg("min", thousands(c.min))
            .arg("max", thousands(c.max))
            .arg("p50", thousands(c.p50))
            .arg("p99", thousands(c.p99))
            .render(lang),
    }
}

/// Returns an array's element counts as its entry says them: `p50 3 · p99 40 · max 200`.
fn elements_text(c: Counts, lang: Lang) -> String {
    if c.is_fixed() {
        return thousands(c.max);
    }
    Text::new("diagram-counts")
        .arg("p50", thousands(c.p50))
        .arg("p99", thousands(c.p99))
        .arg("max", thousands(c.max))
        .render(lang)
}

/// Returns a BSON type as a diagram writes it (`objectId`, `[objectId]`, `{…}`).
fn type_text(e: &Entry) -> String {
    match (e.ty, e.items) {
        (BsonType::Array, Some(BsonType::Object)) => "[{…}]".to_string(),
        (BsonType::Array, Some(items)) => format!("[{}]", items.alias()),
        (BsonType::Object, _) if e.map => "{key: {…}}".to_string(),
        (BsonType::Object, _) => "{…}".to_string(),
        (ty, _) => ty.alias().to_string(),
    }
}

/// Builds a drawing box by box, numbering the boxes.
struct Builder {
    lang: Lang,
    drawing: Drawing,
}

impl Builder {
    /// Returns the line of `e` in its box (`comments: [{…}] p50 3 · p99 40 · max 200`,
    /// `authorName: string, copy of author.name`), with `unbounded` when its array grows
    /// without bound.
    fn entry_line(&self, e: &Entry, unbounded: bool) -> String {
        let mut line = format!("{}: {}", e.name, type_text(e));
        if let Some(c) = e.counts {
            line.push(' ');
            line.push_str(&elements_text(c, self.lang));
        }
        if let Some(source) = &e.copy_of {
            line.push_str(", ");
            line.push_str(
                &Text::new("diagram-copy-of")
                    .arg("source", source)
                    .render(self.lang),
            );
        }
        if unbounded {
            line.push_str(", ⚠ ");
            line.push_str(&Text::new("diagram-unbounded").render(self.lang));
        }
        line
    }

    /// Adds the lines of `entries` to box `id`, and a box nested in it for each sub-document
    /// among them (named `title.name`); `unbounded` lists the paths of unbounded arrays.
    fn entries(
        &mut self,
        id: &str,
        title: &str,
        entries: &[Entry],
        unbounded: &[&str],
    ) -> Vec<String> {
        let mut lines = Vec::new();
        for (k, e) in entries.iter().enumerate() {
            lines.push(self.entry_line(e, unbounded.contains(&e.path.as_str())));
            if !e.is_nested() {
                continue;
            }
            let child = format!("{id}_{k}");
            let child_title = format!("{title}.{}", e.name);
            // A box comes before the boxes nested in it.
            let at = self.drawing.nodes.len();
            let child_lines = self.entries(&child, &child_title, &e.entries, unbounded);
            self.drawing.nodes.insert(
                at,
                Node {
                    id: child.clone(),
                    title: child_title,
                    tag: Text::new("diagram-embedded").render(self.lang),
                    structure: child_lines.clone(),
                    lines: child_lines,
                    warned: false,
                    change: None,
                },
            );
            self.drawing.links.push(Link {
                from: id.to_string(),
                to: child,
                kind: LinkKind::Nests,
                label: e.name.clone(),
                from_end: String::new(),
                to_end: e
                    .counts
                    .map_or_else(|| "1".to_string(), |c| elements_text(c, self.lang)),
            });
        }
        lines
    }

    /// Adds the box of collection `c` as `id`.
    fn collection(&mut self, id: &str, c: &CollectionBox) {
        let lang = self.lang;
        let at = self.drawing.nodes.len();
        let unbounded: Vec<&str> = c
            .warnings
            .iter()
            .filter(|w| w.code == "UNBOUNDED_ARRAY")
            .map(|w| w.path.as_str())
            .collect();
        let mut lines = Vec::new();
        let mut structure = Vec::new();
        for (j, s) in c.shapes.iter().enumerate() {
            if c.shapes.len() > 1 {
                let label = Text::new("diagram-shape")
                    .arg("label", &s.label)
                    .render(lang);
                structure.push(label.clone());
                lines.push(label);
            }
            lines.push(
                Text::new("diagram-figures")
                    .arg("documents", thousands(s.figures.documents))
                    .arg("p99", size(s.figures.p99))
                    .arg("largest", size(s.figures.largest))
                    .render(lang),
            );
            // The first shape's sub-documents are named after the collection alone.
            let (nested_id, title) = if j == 0 {
                (id.to_string(), c.name.clone())
            } else {
                (format!("{id}s{j}"), format!("{} ({})", c.name, s.label))
            };
            let entry_lines = self.entries(&nested_id, &title, &s.entries, &unbounded);
            if j > 0 {
                // Sub-documents of a second shape hang from the collection's box.
                for l in self
                    .drawing
                    .links
                    .iter_mut()
                    .filter(|l| l.from == nested_id)
                {
                    l.from = id.to_string();
                }
            }
            structure.extend(entry_lines.iter().cloned());
            lines.extend(entry_lines);
        }
        for i in &c.indexes {
            let mut words = vec![Text::new("diagram-index").arg("keys", &i.keys).render(lang)];
            for (on, id) in [
                (i.unique, "diagram-unique"),
                (i.multikey, "diagram-multikey"),
                (i.partial, "diagram-partial"),
            ] {
                if on {
                    words.push(Text::new(id).render(lang));
                }
            }
            structure.push(words.join(", "));
            lines.push(words.join(", "));
        }
        for w in &c.warnings {
            if w.code != "UNBOUNDED_ARRAY" {
                lines.push(format!(
                    "⚠ {}",
                    Text::new("diagram-over-limit")
                        .arg("shape", shape_of_warning(c, &w.path))
                        .render(lang)
                ));
            }
        }
        let tag = match c.kind {
            CollectionKind::Documents => "diagram-collection",
            CollectionKind::GridfsFiles => "diagram-gridfs-files",
            CollectionKind::GridfsChunks => "diagram-gridfs-chunks",
            CollectionKind::TimeSeries => "diagram-time-series",
        };
        self.drawing.nodes.insert(
            at,
            Node {
                id: id.to_string(),
                title: c.name.clone(),
                tag: Text::new(tag).render(lang),
                lines,
                warned: !c.warnings.is_empty(),
                structure,
                change: None,
            },
        );
    }
}

/// Returns what a size warning on `path` of `c` concerns: the fields it names, else the
/// collection.
fn shape_of_warning(c: &CollectionBox, path: &str) -> String {
    if path.is_empty() {
        c.name.clone()
    } else {
        path.to_string()
    }
}

/// Returns the drawing of `layout`, the design called `name` of `model`, in `lang`: what
/// `squillion diagram --design` and the page's Diagram view draw.
pub fn of_layout(model: &Model, layout: &Layout, name: String, lang: Lang) -> Drawing {
    let mut diagram = Diagram::of_layout(model, layout);
    diagram.design = name;
    of_design(&diagram, lang)
}

/// Returns the drawing of `model` before any design, titled by its name (`model` when it has
/// none), in `lang`: what `squillion diagram MODEL` and the editor's Diagram tab draw.
pub fn of_entities(model: &Model, lang: Lang) -> Drawing {
    let title = model.name.as_deref().unwrap_or("model");
    of_model(&ModelDiagram::of(model), title, lang)
}

/// Returns the drawing of a design's diagram, in `lang`.
pub fn of_design(d: &Diagram, lang: Lang) -> Drawing {
    let mut b = Builder {
        lang,
        drawing: Drawing {
            title: d.design.clone(),
            ..Drawing::default()
        },
    };
    let id_of = |name: &str| {
        d.collections
            .iter()
            .position(|c| c.name == name)
            .map(|i| format!("n{i}"))
    };
    for (i, c) in d.collections.iter().enumerate() {
        b.collection(&format!("n{i}"), c);
    }
    for r in &d.references {
        if let (Some(from), Some(to)) = (id_of(&r.from), id_of(&r.to)) {
            b.drawing.links.push(Link {
                from,
                to,
                kind: LinkKind::Refers,
                label: r.field.clone(),
                from_end: counts_text(r.from_side, lang),
                to_end: counts_text(r.to_side, lang),
            });
        }
    }
    b.drawing
}

/// Returns the drawing of a model's entities and relationships, in `lang`.
pub fn of_model(m: &ModelDiagram, title: &str, lang: Lang) -> Drawing {
    let mut b = Builder {
        lang,
        drawing: Drawing {
            title: title.to_string(),
            ..Drawing::default()
        },
    };
    let id_of = |name: &str| {
        m.entities
            .iter()
            .position(|e| e.name == name)
            .map(|i| format!("n{i}"))
    };
    for (i, e) in m.entities.iter().enumerate() {
        let id = format!("n{i}");
        let mut lines = vec![Text::new("diagram-entity-count")
            .arg("count", thousands(e.count))
            .render(lang)];
        let entries = b.entries(&id, &e.name, &e.entries, &[]);
        lines.extend(entries.iter().cloned());
        b.drawing.nodes.push(Node {
            id,
            title: e.name.clone(),
            tag: Text::new("diagram-entity").render(lang),
            lines,
            warned: false,
            structure: entries,
            change: None,
        });
    }
    for r in &m.relationships {
        let (Some(from), Some(to)) = (id_of(&r.parent), id_of(&r.child)) else {
            continue;
        };
        let mut label = r.name.clone();
        if r.many_to_many {
            label.push_str(", ");
            label.push_str(&Text::new("diagram-many-to-many").render(lang));
        }
        if let Some([typical, largest]) = r.growth_per_day {
            label.push_str(", ");
            label.push_str(
                &Text::new("diagram-growth")
                    .arg("typical", typical)
                    .arg("largest", largest)
                    .render(lang),
            );
        }
        b.drawing.links.push(Link {
            from,
            to,
            kind: LinkKind::Relates,
            label,
            from_end: counts_text(Some(r.parents), lang),
            to_end: format!("{} {}", counts_text(Some(r.children), lang), r.shape),
        });
    }
    b.drawing
}
