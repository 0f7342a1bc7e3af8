//! What the named designs choose for a relationship, and the strategies the picker offers.

use super::{DesignName, Granularity, Strategy, DEFAULT_BUCKET};
use crate::model::{Model, Relationship, Step};

/// The count at and above which an array counts as unbounded (MongoDB Compass's threshold).
pub const UNBOUNDED_ARRAY: f64 = 250.0;

/// Returns every strategy the relationship called `relationship` may take under validation's
/// rule (the feed strategies for a feed, the tree strategies for a tree relationship and
/// none of them for a relationship that cannot be a tree, every other one otherwise;
/// `time_series` only for a measurement, [`time_series_fits`], at the granularity
/// [`Granularity::fitting`] its rate), each with the default
/// parameters of [`Strategy::ALL`], an extended reference copying the child fields the
/// workload reads (as the denormalized design does). Empty for a relationship the model does
/// not have. The page's strategy picker offers these.
pub fn strategies_for(model: &Model, relationship: &str) -> Vec<Strategy> {
    let Some(r) = model.relationship(relationship) else {
        return Vec::new();
    };
    let feed = r.feed.is_some();
    let tree = super::tree::is_tree_relationship(model, r);
    let may_tree = super::tree::can_be_tree(r);
    Strategy::ALL
        .into_iter()
        .filter(|s| s.is_feed() == feed)
        .filter(|s| {
            if tree {
                s.is_tree()
            } else {
                !s.is_tree() || may_tree
            }
        })
        .filter_map(|s| match s {
            // A series that fills a bucket at some granularity, offered at the finest such.
            Strategy::TimeSeries { .. } => time_series_fits(model, r)
                .then(|| Granularity::fitting(r.growth_typical()))
                .flatten()
                .map(|granularity| Strategy::TimeSeries { granularity }),
            // Parent and children in one collection: a one-to-many between two entities.
            Strategy::SingleCollection => {
                single_collection_fits(r).then_some(Strategy::SingleCollection)
            }
            other => Some(other),
        })
        .filter(|s| !leaves_without_collection(s, r) || read_by_itself(r, model).is_none())
        .map(|s| match s {
            Strategy::ExtendedReference { .. } => Strategy::ExtendedReference {
                copy: child_fields_read(r, model),
            },
            other => other,
        })
        .collect()
}

/// Returns true when strategy `s` of `r` keeps the child only inside other documents (an
/// embedded array, a one-to-many bucket's array): it has no collection of its own.
pub fn leaves_without_collection(s: &Strategy, r: &Relationship) -> bool {
    match s {
        Strategy::Embed => true,
        Strategy::Bucket { .. } => !r.many_to_many,
        _ => false,
    }
}

/// Returns the first workload step that reads the child of `r` by itself (`read`, `list` or
/// `find_by_attribute` of the child entity), with its unit: such a child needs a collection of
/// its own, so neither embedding nor a one-to-many bucket can answer that step (its plan would
/// read a collection that does not exist).
pub fn read_by_itself<'m>(r: &Relationship, model: &'m Model) -> Option<(&'m str, &'m Step)> {
    model.workload.iter().find_map(|u| {
        u.steps
            .iter()
            .find(|s| match s {
                Step::Read { entity, .. }
                | Step::List { entity, .. }
                | Step::FindByAttribute { entity, .. } => *entity == r.child,
                _ => false,
            })
            .map(|s| (u.name.as_str(), s))
    })
}

/// Returns true when relationship `r` may take the single-collection strategy: a one-to-many
/// between two different entities (not a feed), so that each child has one parent whose id
/// the shared key holds.
pub fn single_collection_fits(r: &Relationship) -> bool {
    r.parent != r.child && !r.many_to_many && r.feed.is_none()
}

/// Returns true when relationship `r` may be a native time series: a one-to-many between two
/// entities whose child has a date field (the `timeField`, as validation requires) and is a
/// measurement: in no other relationship, and reached by the workload only through `r`'s
/// inserts and reads of children (no step reads, updates, deletes or moves one by itself: the
/// buckets hold it by column, not as a document).
pub fn time_series_fits(model: &Model, r: &Relationship) -> bool {
    let alone = model
        .relationships
        .iter()
        .filter(|o| o.parent == r.child || o.child == r.child)
        .all(|o| o.name == r.name);
    let untouched = model.workload.iter().flat_map(|u| &u.steps).all(|s| {
        let v = serde_json::to_value(s).unwrap_or_default();
        let on_child = v.get("entity").and_then(|e| e.as_str()) == Some(r.child.as_str());
        let moves = matches!(s, Step::Reassign { relationship } | Step::FindParents { relationship, .. } if *relationship == r.name);
        !on_child && !moves
    });
    !r.many_to_many && r.parent != r.child && time_field(model, r).is_some() && alone && untouched
}

/// Returns the `timeField` of a time series over relationship `r`: the child's first date field.
pub fn time_field(model: &Model, r: &Relationship) -> Option<String> {
    model.entity(&r.child).and_then(|c| {
        c.fields
            .iter()
            .find(|(_, f)| f.ty == crate::model::field::BsonType::Date)
            .map(|(n, _)| n.clone())
    })
}

/// Returns true when a relationship's children are unbounded: the largest parent has at least
/// [`UNBOUNDED_ARRAY`] children, or children keep arriving.
pub fn is_unbounded(r: &Relationship) -> bool {
    r.cardinality.max() >= UNBOUNDED_ARRAY || r.growth_typical() > 0.0 || r.growth_largest() > 0.0
}

/// Returns the strategy a named design gives a relationship (before overrides).
///
/// - normalized: reference in child (1:n), link collection (m:n), fan-out on read (feeds);
/// - denormalized: embed when bounded and 1:n; extended reference (ids plus the child fields
///   the workload reads) when m:n; reference in child with copies of the parent's lookup
///   fields when unbounded 1:n (one-to-squillions never goes into the parent); fan-out on
///   write (feeds);
/// - bucketed: bucket of [`DEFAULT_BUCKET`] when unbounded or growing, else as normalized;
///   bucketed fan-out (feeds).
/// - a tree relationship (see `model::design::tree`): parent references when normalized or
///   bucketed, an array of ancestors when denormalized.
///
/// A child that has a life of its own (see [`stands_alone`]) is never moved inside its parent
/// by a named design: embedding or bucketing it would leave the workload's own reads of it
/// without a collection. MongoDB's guidance is the same: embed what is only reached through
/// its parent.
pub fn named_strategy(name: DesignName, r: &Relationship, model: &Model) -> Strategy {
    if r.feed.is_some() {
        return match name {
            DesignName::Normalized => Strategy::FanOutOnRead,
            DesignName::Denormalized => Strategy::FanOutOnWrite,
            DesignName::Bucketed => Strategy::BucketedFanOut {
                size: DEFAULT_BUCKET,
            },
        };
    }
    if super::tree::is_tree_relationship(model, r) {
        // A tree: the manual's simplest form normalized, the one that reads a subtree and the
        // ancestors in one query each denormalized.
        return match name {
            DesignName::Normalized | DesignName::Bucketed => Strategy::ParentReferences,
            DesignName::Denormalized => Strategy::ArrayOfAncestors,
        };
    }
    let normalized = if r.many_to_many {
        Strategy::LinkCollection
    } else {
        Strategy::ReferenceInChild { copy: vec![] }
    };
    match name {
        DesignName::Normalized => normalized,
        DesignName::Bucketed => {
            if is_unbounded(r) && !stands_alone(r, model, true) {
                Strategy::Bucket {
                    size: DEFAULT_BUCKET,
                }
            } else {
                normalized
            }
        }
        DesignName::Denormalized => {
            if r.many_to_many {
                Strategy::ExtendedReference {
                    copy: child_fields_read(r, model),
                }
            } else if is_unbounded(r) || stands_alone(r, model, false) {
                Strategy::ReferenceInChild {
                    copy: parent_lookup_fields(r, model),
                }
            } else {
                Strategy::Embed
            }
        }
    }
}

/// Returns true when the child of `r` is reached other than through `r`'s parent: it is the
/// parent of another relationship or the child of a second one, or a workload step reads,
/// lists, searches, inserts or deletes it on its own, or (`updates_count`) updates it. Such a
/// child needs its own collection. An embedded child can still be updated in place
/// (`{ "arr.$.field": … }`), so embedding passes `updates_count = false`.
pub fn stands_alone(r: &Relationship, model: &Model, updates_count: bool) -> bool {
    let child = r.child.as_str();
    let related = model
        .relationships
        .iter()
        .any(|o| o.name != r.name && (o.parent == child || o.child == child));
    related
        || model
            .workload
            .iter()
            .flat_map(|u| &u.steps)
            .any(|s| match s {
                Step::Read { entity, .. }
                | Step::List { entity, .. }
                | Step::FindByAttribute { entity, .. }
                | Step::Insert { entity }
                | Step::Delete { entity } => entity == child,
                Step::Update { entity, .. } => updates_count && entity == child,
                _ => false,
            })
}

/// Returns the child fields the workload reads through `r` (the copies an extended reference
/// keeps).
fn child_fields_read(r: &Relationship, model: &Model) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for u in &model.workload {
        for s in &u.steps {
            if let Step::Read { children, .. } = s {
                for c in children.iter().filter(|c| c.relationship == r.name) {
                    for f in &c.fields {
                        if f != "_id" && !out.contains(f) {
                            out.push(f.clone());
                        }
                    }
                }
            }
        }
    }
    out
}

/// Returns the parent fields the workload looks parents up by (other than `_id`).
fn parent_lookup_fields(r: &Relationship, model: &Model) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for u in &model.workload {
        for s in &u.steps {
            if let Step::Read {
                entity,
                by,
                children,
                ..
            } = s
            {
                if entity == &r.parent
                    && by != "_id"
                    && children.iter().any(|c| c.relationship == r.name)
                    && !out.contains(by)
                {
                    out.push(by.clone());
                }
            }
        }
    }
    out
}
