//! Assembling the model once every input is read ([`super::Inference::finish`]): the
//! statistics of each collection become entities, report rows and relationships, stage after
//! stage, in an order each stage relies on:
//!
//! 1. [`check_counts`]: the `--count`s name collections read and are whole numbers;
//! 2. [`id_sets`]: the `_id`s (and unique keys) that references resolve against;
//! 3. [`Assembly::collections`]: an entity and a report per collection, its arrays of
//!    sub-documents moved out into embedded child entities;
//! 4. [`Assembly::gridfs_buckets`]: GridFS buckets become their owner's file field;
//! 5. [`Assembly::take_link_collections`]: collections of id pairs found, and dropped as
//!    entities (before the feeds, which must not see their references);
//! 6. [`Assembly::fan_out_on_read_feeds`]: feeds laid out as fan-out on read;
//! 7. [`Assembly::link_collections`]: the link collections' relationships;
//! 8. [`Assembly::references`]: every reference left, in the child or in the parent;
//! 9. [`Assembly::polymorphic_split`]: a polymorphic collection split by kind;
//! 10. [`Assembly::model`]: the model, its starter workload and its rounding.
//!
//! Why a module and a struct: every stage adds to or takes from the same lists (entities,
//! their reports, relationships, the relationships' reports, the design, the names taken),
//! so [`Assembly`] holds them and each stage is one method, short enough to read on its own;
//! `finish` reads as the list of stages. The relationships are pushed in the order above
//! (embedded, feeds, links, references), which the model's JSON keeps.

use std::collections::BTreeMap;

use super::build::{self, Child, Found};
use super::dump::IndexReport;
use super::feeds::{self, Feed};
use super::fit::fit;
use super::gridfs::{self, BucketStats, Recognized};
use super::links::{self, Link};
use super::refs::{self, IdSet};
use super::report::{EntityReport, RelationshipReport};
use super::sketch::Sketch;
use super::stats::{self, ObjectStats};
use super::{empty_model, split, starter, tidy, InferError};
use crate::model::design::{DesignSpec, FieldPattern, Strategy};
use crate::model::{Entity, Model, Relationship};

/// Checks `counts` (collection → full-scale count): each names a collection read and is a
/// whole number in range; and something was read at all.
pub(super) fn check_counts(
    collections: &[(String, ObjectStats)],
    counts: &BTreeMap<String, f64>,
) -> Result<(), InferError> {
    for (name, &n) in counts {
        if !collections.iter().any(|(c, _)| c == name) {
            return Err(InferError::UnknownCount(name.clone()));
        }
        if !(0.0..=crate::model::MAX_COUNT).contains(&n) || n.fract() != 0.0 {
            return Err(InferError::BadCount(name.clone()));
        }
    }
    if collections.iter().all(|(_, s)| s.seen == 0) {
        return Err(InferError::NothingInferred);
    }
    Ok(())
}

/// Returns the value sets a reference may resolve against: every collection's `_id`s, then
/// its unique keys (a unique, non-partial one-field index of the dump, or values unique in
/// the data: [`refs::key_sets`]).
pub(super) fn id_sets<'a>(
    collections: &'a [(String, ObjectStats)],
    indexes: &[IndexReport],
) -> Vec<IdSet<'a>> {
    let mut ids: Vec<IdSet<'a>> = collections
        .iter()
        .filter_map(|(n, s)| {
            let id = s.fields.iter().find(|(f, _)| f == "_id")?;
            let ids = id.1.values.as_deref()?;
            Some(IdSet::ids(n, ids))
        })
        .collect();
    let unique_index = |collection: &str, field: &str| {
        indexes.iter().any(|i| {
            i.unique
                && !i.partial
                && i.collection == collection
                && matches!(i.key.as_slice(), [k] if k.field == field)
        })
    };
    ids.extend(refs::key_sets(collections, &unique_index));
    ids
}

/// What is being assembled: the model's lists and their reports, and what the stages hand
/// on to each other.
#[derive(Debug, Default)]
pub(super) struct Assembly {
    /// The model's entities.
    pub entities: Vec<Entity>,
    /// A report per entity (collections only: children are reported in their parent's rows).
    pub reports: Vec<EntityReport>,
    /// The model's relationships.
    pub relationships: Vec<Relationship>,
    /// A report per relationship.
    pub moved: Vec<RelationshipReport>,
    /// The model's design: the data's layout.
    pub design: DesignSpec,
    /// Entity and relationship names taken.
    pub names: build::Names,
    /// Fields found to be references, not yet made relationships.
    found: Vec<Found>,
    /// The collections with arrays of sub-documents moved out.
    with_children: Vec<String>,
    /// Per embedded relationship, its children per parent among the parents holding them.
    held: BTreeMap<String, Sketch>,
}

impl Assembly {
    /// Returns an empty assembly, every collection's name taken.
    pub fn new(collections: &[(String, ObjectStats)]) -> Self {
        Assembly {
            names: build::Names {
                entities: collections.iter().map(|(n, _)| n.clone()).collect(),
                ..Default::default()
            },
            ..Default::default()
        }
    }

    /// Adds an entity and a report per collection, its count from `counts` or else the
    /// documents read, its arrays of sub-documents as embedded children; collects the
    /// references found against `ids`.
    pub fn collections(
        &mut self,
        collections: &[(String, ObjectStats)],
        counts: &BTreeMap<String, f64>,
        ids: &[IdSet<'_>],
    ) {
        for (name, stats) in collections {
            let count = counts.get(name).copied().unwrap_or(stats.seen as f64);
            // Full-scale documents per document read: every child entity scales the same way.
            let scale = if stats.seen == 0 {
                0.0
            } else {
                count / stats.seen as f64
            };
            let mut rows = Vec::new();
            let mut children = Vec::new();
            let fields = build::fields(
                stats,
                name,
                "",
                &mut build::Sink {
                    rows: &mut rows,
                    children: &mut children,
                    names: &mut self.names,
                    ids,
                    references: &mut self.found,
                },
            );
            self.entities.push(Entity {
                name: name.clone(),
                count,
                fields,
            });
            let created = refs::created(stats);
            self.reports.push(EntityReport {
                name: name.clone(),
                documents: stats.seen,
                count,
                fields: rows,
                untracked_names: untracked(stats),
                growth_per_day: created.as_ref().map(|c| count / c.days),
                created,
                polymorphic: stats.variants.polymorphic(),
            });
            if !children.is_empty() {
                self.with_children.push(name.clone());
            }
            for c in children {
                self.embedded_child(c, scale);
            }
        }
    }

    /// Adds an array of sub-documents moved out: its entity (counted at its root's `scale`),
    /// its relationship embedded (a map laid out as a map) and its report.
    fn embedded_child(&mut self, c: Child, scale: f64) {
        self.held.insert(c.relationship.clone(), c.held.clone());
        let child_count = (c.elements as f64 * scale).round();
        self.entities.push(Entity {
            name: c.entity.clone(),
            count: child_count,
            fields: c.fields,
        });
        self.relationships.push(Relationship {
            name: c.relationship.clone(),
            parent: c.parent.clone(),
            child: c.entity.clone(),
            cardinality: c.cardinality,
            many_to_many: false,
            parents_per_child: None,
            growth_per_day: c.growth.clone(),
            field: (c.field != c.relationship).then(|| c.field.clone()),
            parent_field: None,
            parent_key: None,
            child_key: None,
            feed: None,
        });
        self.design
            .relationships
            .insert(c.relationship.clone(), Strategy::Embed);
        // A map is laid out as the data has it: an object keyed by the entries' key.
        if let Some(m) = &c.map {
            self.design.fields.push(FieldPattern::Map {
                entity: c.parent.clone(),
                relationship: c.relationship.clone(),
                key: m.key_field.clone(),
            });
        }
        self.moved.push(RelationshipReport {
            name: c.relationship,
            parent: c.parent,
            child: c.entity,
            layout: "embed",
            field: c.field,
            many_to_many: false,
            children_read: c.elements,
            count: child_count,
            children_per_parent: c.observed,
            parents_per_child: None,
            without_array: Some(c.without_array),
            resolved: None,
            key: None,
            sampled: false,
            created: c.created,
            growth_per_day: c.growth,
            map: c.map,
        });
    }

    /// Makes every GridFS bucket an entity names by id that entity's file field: drops the
    /// bucket's collections and references, adds its design patterns; returns what was
    /// recognized (for the report).
    pub fn gridfs_buckets(
        &mut self,
        buckets: &[BucketStats],
        collections: &[(String, ObjectStats)],
    ) -> Recognized {
        let read = |name: &str| {
            collections
                .iter()
                .find(|(n, _)| n == name)
                .map_or(0, |(_, s)| s.seen)
        };
        let collection_names: Vec<String> = collections.iter().map(|(n, _)| n.clone()).collect();
        let mut recognized = gridfs::recognize(
            buckets,
            &mut self.found,
            &mut self.entities,
            &collection_names,
            read,
        );
        self.entities
            .retain(|e| !recognized.collections.contains(&e.name));
        self.reports
            .retain(|r| !recognized.collections.contains(&r.name));
        self.design
            .fields
            .extend(std::mem::take(&mut recognized.patterns));
        recognized
    }

    /// Finds the link collections (collections of id pairs) and drops them as entities, with
    /// their references; returns them for [`Assembly::link_collections`].
    pub fn take_link_collections(&mut self) -> Vec<Link> {
        let links = links::link_collections(
            &self.found,
            &self.entities,
            &self.relationships,
            &self.with_children,
        );
        for link in &links {
            self.entities.retain(|e| e.name != link.collection);
            self.reports.retain(|r| r.name != link.collection);
        }
        self.found
            .retain(|f| !links.iter().any(|l| l.collection == f.holder));
        links
    }

    /// Finds the feeds laid out as fan-out on read (an author reference and an array of
    /// recipients to the same collection) and adds each as a relationship of that collection
    /// to itself, its references taken out.
    pub fn fan_out_on_read_feeds(&mut self) {
        let feeds = feeds::fan_out_on_read(&self.found, &self.with_children);
        self.found.retain(|f| !feeds.iter().any(|d| d.holds(f)));
        for feed in feeds {
            self.feed(feed);
        }
    }

    /// Adds one fan-out-on-read feed: its relationship, strategy and report.
    fn feed(&mut self, feed: Feed) {
        let name = build::fresh(&self.names.relationships, "feed", &feed.users);
        self.names.relationships.insert(name.clone());
        feeds::note(&mut self.reports, &feed, &name);
        let child_count = self.count_of(&feed.users);
        self.relationships.push(Relationship {
            name: name.clone(),
            parent: feed.users.clone(),
            child: feed.users.clone(),
            cardinality: fit(&feed.per_item),
            many_to_many: true,
            parents_per_child: None,
            growth_per_day: None,
            field: None,
            parent_field: None,
            parent_key: None,
            child_key: None,
            feed: Some(feed.collection.clone()),
        });
        self.design
            .relationships
            .insert(name.clone(), Strategy::FanOutOnRead);
        self.moved.push(RelationshipReport {
            name,
            parent: feed.users.clone(),
            child: feed.users,
            layout: "fan_out_on_read",
            field: feed.collection,
            many_to_many: true,
            children_read: feed.recipients_read,
            count: child_count,
            children_per_parent: feed.per_item,
            parents_per_child: None,
            without_array: None,
            resolved: Some(feed.resolved),
            key: None,
            sampled: feed.sampled,
            created: feed.created,
            growth_per_day: None,
            map: None,
        });
    }

    /// Adds each link collection as a many-to-many relationship laid out as a link
    /// collection.
    pub fn link_collections(&mut self, links: Vec<Link>) {
        for link in links {
            let name = build::fresh(&self.names.relationships, &link.collection, &link.parent);
            self.names.relationships.insert(name.clone());
            let child_count = self.count_of(&link.child);
            self.relationships.push(Relationship {
                name: name.clone(),
                parent: link.parent.clone(),
                child: link.child.clone(),
                cardinality: fit(&link.per_parent),
                many_to_many: true,
                parents_per_child: Some(fit(&link.per_child)),
                growth_per_day: link.growth.clone(),
                field: None,
                parent_field: (link.parent_field != format!("{}Id", link.parent))
                    .then(|| link.parent_field.clone()),
                parent_key: None,
                child_key: None,
                feed: None,
            });
            self.design
                .relationships
                .insert(name.clone(), Strategy::LinkCollection);
            self.moved.push(RelationshipReport {
                name,
                parent: link.parent,
                child: link.child,
                layout: "link_collection",
                field: link.collection,
                many_to_many: true,
                children_read: link.links,
                count: child_count,
                children_per_parent: link.per_parent,
                parents_per_child: Some(link.per_child),
                without_array: None,
                resolved: Some(link.resolved),
                key: None,
                sampled: link.sampled,
                created: link.created,
                growth_per_day: link.growth,
                map: None,
            });
        }
    }

    /// Adds every reference left as a relationship: an array of ids a reference in the
    /// parent, one id a reference in the child.
    pub fn references(&mut self) {
        for f in std::mem::take(&mut self.found) {
            self.reference(f);
        }
    }

    /// Adds one reference: its relationship, strategy and report.
    fn reference(&mut self, f: Found) {
        let r = f.reference;
        let (parent, child) = if f.in_array {
            (f.holder.clone(), r.target.clone())
        } else {
            (r.target.clone(), f.holder.clone())
        };
        let child_count = self.count_of(&child);
        let wanted = if f.in_array {
            f.field.clone()
        } else {
            build::plural(&f.holder)
        };
        let name = build::fresh(&self.names.relationships, &wanted, &parent);
        self.names.relationships.insert(name.clone());
        let (per_parent, per_child, many_to_many, growth, strategy, layout) = if f.in_array {
            let per_parent = f
                .array_counts
                .clone()
                .unwrap_or_else(|| r.per_target.clone());
            let m2m = r.repeated;
            (
                per_parent,
                m2m.then(|| r.per_target.clone()),
                m2m,
                None,
                Strategy::ReferenceInParent,
                "reference_in_parent",
            )
        } else {
            let growth = f
                .created
                .as_ref()
                .map(|c| build::growth(r.resolved, r.per_target.values, r.per_target.max, c.days));
            // A collection whose documents name their parent among its own is a tree:
            // its cardinality is the fan-out of the nodes that have children.
            let per_parent = if f.holder == r.target {
                r.per_named.clone()
            } else {
                r.per_target.clone()
            };
            (
                per_parent,
                None,
                false,
                growth,
                Strategy::ReferenceInChild { copy: Vec::new() },
                "reference_in_child",
            )
        };
        self.relationships.push(Relationship {
            name: name.clone(),
            parent: parent.clone(),
            child: child.clone(),
            cardinality: fit(&per_parent),
            many_to_many,
            parents_per_child: per_child.as_ref().map(fit),
            growth_per_day: growth.clone(),
            field: (f.in_array && name != f.field).then(|| f.field.clone()),
            parent_field: (!f.in_array && f.field != format!("{parent}Id"))
                .then(|| f.field.clone()),
            // A reference through a unique key other than `_id` is laid out with the
            // key's type and values: the array's elements name the child's key, a
            // child's reference its parent's.
            parent_key: r
                .key
                .as_ref()
                .filter(|_| !f.in_array)
                .map(|k| k.field.clone()),
            child_key: r
                .key
                .as_ref()
                .filter(|_| f.in_array)
                .map(|k| k.field.clone()),
            feed: None,
        });
        self.design.relationships.insert(name.clone(), strategy);
        self.moved.push(RelationshipReport {
            name,
            parent,
            child,
            layout,
            field: f.field,
            many_to_many,
            children_read: r.resolved,
            count: child_count,
            children_per_parent: per_parent,
            parents_per_child: per_child,
            without_array: None,
            resolved: Some([r.values, r.resolved]),
            key: r.key.clone(),
            sampled: r.sampled,
            created: if f.in_array { None } else { f.created },
            growth_per_day: growth,
            map: None,
        });
    }

    /// Splits each polymorphic collection by kind where it can ([`split`]), or says in its
    /// report why it stays whole.
    pub fn polymorphic_split(&mut self) {
        for r in &mut self.reports {
            if let Some(p) = &mut r.polymorphic {
                split::split(
                    &r.name,
                    p,
                    split::Parts {
                        entities: &mut self.entities,
                        relationships: &mut self.relationships,
                        design: &mut self.design,
                        moved: &mut self.moved,
                        names: &mut self.names.entities,
                        held: &self.held,
                    },
                );
            }
        }
    }

    /// Returns the model of `documents` documents read, with its starter workload (from the
    /// dump's `indexes`) and its numbers rounded, and the workload's report; the entity and
    /// relationship reports stay in `self`.
    pub fn model(
        &mut self,
        documents: u64,
        indexes: &[IndexReport],
    ) -> (Model, Vec<starter::AssumedUnit>) {
        let mut model = Model {
            name: None,
            description: Some(format!(
                "Inferred by squillion infer from {documents} documents."
            )),
            entities: std::mem::take(&mut self.entities),
            relationships: std::mem::take(&mut self.relationships),
            design: std::mem::take(&mut self.design),
            ..empty_model()
        };
        // An index of a polymorphic collection laid out by kind serves the kinds that hold
        // its field (the starter skips the others).
        let groups = model.design.polymorphic.clone();
        let keyed: Vec<starter::IndexKeyed<'_>> = indexes
            .iter()
            .filter_map(|i| Some((i, i.key.first()?)))
            .flat_map(|(i, k)| {
                let entities: Vec<&str> = match groups.get(&i.collection) {
                    Some(kinds) => kinds.iter().map(String::as_str).collect(),
                    None => vec![i.collection.as_str()],
                };
                entities
                    .into_iter()
                    .map(move |collection| starter::IndexKeyed {
                        collection,
                        name: &i.name,
                        field: &k.field,
                        kind: &k.kind,
                    })
            })
            .collect();
        let workload = starter::with_starter_workload(&mut model, &keyed);
        tidy::round(&mut model);
        (model, workload)
    }

    /// Returns the count of the entity `name` (0 if there is none).
    fn count_of(&self, name: &str) -> f64 {
        self.entities
            .iter()
            .find(|e| e.name == name)
            .map_or(0.0, |e| e.count)
    }
}

/// Returns the field names dropped anywhere in `stats` for want of room.
fn untracked(stats: &ObjectStats) -> u64 {
    fn field(f: &stats::FieldStats) -> u64 {
        f.object.as_deref().map_or(0, untracked)
            + f.array.as_deref().map_or(0, |a| field(&a.elements))
    }
    stats.dropped_names + stats.fields.iter().map(|(_, f)| field(f)).sum::<u64>()
}
