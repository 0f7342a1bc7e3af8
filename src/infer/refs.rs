//! References between collections: a field whose values resolve to another collection's
//! `_id`s, grouped by the id they name (children per parent, parents per child), and the
//! creation times that give growth per day.
//!
//! Everything here works on hashes counted while reading ([`super::stats::ValueCounts`]), so
//! the inputs may come in any order: the `_id`s and the references are matched once all are
//! read, in [`super::Inference::finish`].

use serde::Serialize;

use super::fit::Observed;
use super::sketch::Sketch;
use super::stats::{FieldStats, ObjectStats, ValueCounts};

/// The share of a field's non-null values that must resolve to the `_id`s of one collection
/// for the field to be a reference (99%: a few dangling ids, deleted parents, are tolerated).
pub const REFERENCE_SHARE: f64 = 0.99;

/// The shortest span of creation times (in days) that growth per day is estimated from: data
/// created within one day (a bulk load, generated ids) says nothing about growth.
pub const MIN_GROWTH_SPAN_DAYS: f64 = 1.0;

/// Date fields read as a document's creation time when its `_id` is not an ObjectId spread
/// over days (compared without case, `_` ignored).
pub const CREATION_FIELDS: [&str; 12] = [
    "createdat",
    "created",
    "creationdate",
    "createdon",
    "insertedat",
    "date",
    "at",
    "ts",
    "timestamp",
    "time",
    "posted",
    "postedat",
];

/// One collection's `_id`s, for references to resolve against.
#[derive(Debug, Clone, Copy)]
pub struct IdSet<'a> {
    /// The collection's (entity's) name.
    pub collection: &'a str,
    /// Its `_id` values, hashed and counted.
    pub ids: &'a ValueCounts,
}

/// A field found to be a reference to another collection's `_id`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reference {
    /// The collection whose `_id`s the values are.
    pub target: String,
    /// Values checked (non-null values, or array elements, tracked).
    pub values: u64,
    /// Of them, the values found among the target's `_id`s.
    pub resolved: u64,
    /// Per target document, how many values name it (0 for a document no value names):
    /// children per parent for a scalar reference, parents per child for an array of ids.
    pub per_target: Observed,
    /// Values per target document that at least one value names: a tree's fan-out (a
    /// collection whose documents name their parent among its own, the children of a node that
    /// has children, as [`crate::model::Relationship`] counts a tree's cardinality).
    pub per_named: Observed,
    /// Some id is named more than once (for an array of ids: by several parents, so the
    /// relationship is many-to-many).
    pub repeated: bool,
    /// The figures come from a sample: the field or the target's `_id`s had more distinct
    /// values than are counted ([`super::stats::MAX_TRACKED_VALUES`]).
    pub sampled: bool,
}

/// Returns the reference that the values of field `name` (`stats`: the field's, or its array
/// elements') make to one of `ids`, if at least [`REFERENCE_SHARE`] of its non-null values
/// resolve to that collection's `_id`s (the best-resolving collection when several do). A
/// number (int, long) is only taken for a reference when the field's name says so (ends in
/// `id`, `ids`, `ref` or `refs`, or names the collection): small numbers resolve to
/// sequence `_id`s by chance.
pub fn resolve(stats: &FieldStats, name: &str, ids: &[IdSet<'_>]) -> Option<Reference> {
    let values = stats.values.as_deref()?;
    let dominant = stats.ranked_types().first().map(|(t, _)| *t)?;
    let numeric = matches!(dominant, "int" | "long");
    if !matches!(dominant, "objectId" | "string" | "binData") && !numeric {
        return None;
    }
    let nulls = stats.types.get("null").copied().unwrap_or(0);
    // Non-null values that cannot be ids (a double in an id field) count as unresolved.
    let others = stats.present.saturating_sub(nulls + values.seen);
    let checked = values.tracked() + others;
    if checked == 0 {
        return None;
    }
    let mut best: Option<(f64, Reference)> = None;
    for set in ids {
        if numeric && !names_reference(name, set.collection) {
            continue;
        }
        let resolved: u64 = values
            .counts
            .iter()
            .filter(|(k, _)| set.ids.counts.contains_key(k))
            .map(|(_, &n)| u64::from(n))
            .sum();
        // A target whose `_id`s were not all kept can only resolve its kept share.
        let kept = if set.ids.seen == 0 {
            1.0
        } else {
            set.ids.tracked() as f64 / set.ids.seen as f64
        };
        let share = resolved as f64 / checked as f64;
        if resolved == 0 || share < REFERENCE_SHARE * kept {
            continue;
        }
        if best.as_ref().is_some_and(|(s, _)| *s >= share) {
            continue;
        }
        let (mut per, mut named) = (Sketch::default(), Sketch::default());
        for k in set.ids.counts.keys() {
            let n = values.counts.get(k).map_or(0, |&n| u64::from(n));
            per.add(n);
            if n > 0 {
                named.add(n);
            }
        }
        best = Some((
            share,
            Reference {
                target: set.collection.to_string(),
                values: checked,
                resolved,
                per_target: Observed::of(&per),
                per_named: Observed::of(&named),
                repeated: values.counts.values().any(|&n| n > 1),
                sampled: values.untracked > 0 || set.ids.untracked > 0,
            },
        ));
    }
    best.map(|(_, r)| r)
}

/// Returns whether a numeric field's name says it refers to `collection`: it ends in `id`,
/// `ids`, `ref` or `refs` (any case), or it is the collection's name.
pub fn names_reference(name: &str, collection: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    ["id", "ids", "ref", "refs"]
        .iter()
        .any(|end| lower.ends_with(end))
        || lower == collection.to_ascii_lowercase()
}

/// Where the creation times of a set of documents came from, and the days they span.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Created {
    /// `_id` (ObjectId timestamps) or the date field's name.
    pub from: String,
    /// Days between the earliest and the latest creation time.
    pub days: f64,
}

/// Returns the creation times of the documents (or sub-documents) `obj`: the timestamps of
/// their ObjectId `_id`s when spread over at least [`MIN_GROWTH_SPAN_DAYS`], else the first
/// date field named as a creation time ([`CREATION_FIELDS`]) present in every document and
/// spread over that long; `None` when neither is.
pub fn created(obj: &ObjectStats) -> Option<Created> {
    let field = |name: &str| obj.fields.iter().find(|(n, _)| n == name).map(|(_, f)| f);
    if let Some((lo, hi)) = field("_id").and_then(|f| f.oid_times) {
        let days = f64::from(hi.saturating_sub(lo)) / 86_400.0;
        if days >= MIN_GROWTH_SPAN_DAYS {
            return Some(Created {
                from: "_id".to_string(),
                days,
            });
        }
    }
    obj.fields.iter().find_map(|(name, f)| {
        let key = name.to_ascii_lowercase().replace('_', "");
        if !CREATION_FIELDS.contains(&key.as_str()) || f.present < obj.seen {
            return None;
        }
        let (lo, hi) = f.dates?;
        let days = (hi - lo) as f64 / 86_400_000.0;
        (days >= MIN_GROWTH_SPAN_DAYS).then(|| Created {
            from: name.clone(),
            days,
        })
    })
}

#[cfg(test)]
mod tests {
    use bson::{doc, oid::ObjectId, Bson};

    use super::*;

    fn ids_of(values: impl IntoIterator<Item = Bson>) -> FieldStats {
        let mut f = FieldStats::default();
        values.into_iter().for_each(|v| f.add(&v));
        f
    }

    fn oid(n: u8) -> Bson {
        Bson::ObjectId(ObjectId::from_bytes([n; 12]))
    }

    #[test]
    fn values_that_all_resolve_are_a_reference_grouped_per_parent() {
        let parents = ids_of((0..4).map(oid));
        // Parent 0 has 3 children, parent 1 one, parents 2 and 3 none.
        let field = ids_of([oid(0), oid(0), oid(0), oid(1)]);
        let set = [IdSet {
            collection: "author",
            ids: parents.values.as_deref().unwrap(),
        }];
        let r = resolve(&field, "author", &set).unwrap();
        assert_eq!(r.target, "author");
        assert_eq!((r.values, r.resolved), (4, 4));
        assert_eq!(
            (r.per_target.values, r.per_target.min, r.per_target.max),
            (4, 0, 3)
        );
        assert!((r.per_target.mean - 1.0).abs() < 1e-9);
        assert!(r.repeated && !r.sampled);
    }

    #[test]
    fn one_dangling_value_in_a_hundred_is_tolerated_two_are_not() {
        let parents = ids_of((0..10).map(oid));
        let set = [IdSet {
            collection: "p",
            ids: parents.values.as_deref().unwrap(),
        }];
        let with = |bad: usize| {
            let mut v: Vec<Bson> = (0..100 - bad).map(|i| oid((i % 10) as u8)).collect();
            v.extend((0..bad).map(|i| oid(200 + i as u8)));
            resolve(&ids_of(v), "pId", &set)
        };
        assert!(with(1).is_some());
        assert!(with(2).is_none());
    }

    #[test]
    fn small_numbers_need_a_name_that_says_reference() {
        let parents = ids_of((0..100).map(Bson::Int32));
        let field = ids_of((1..8).map(Bson::Int32));
        let set = [IdSet {
            collection: "order",
            ids: parents.values.as_deref().unwrap(),
        }];
        assert!(resolve(&field, "qty", &set).is_none());
        assert!(resolve(&field, "orderId", &set).is_some());
        assert!(resolve(&field, "order", &set).is_some());
        // An int and a long of the same number are the same id.
        assert!(resolve(&ids_of([Bson::Int64(3)]), "order_ref", &set).is_some());
    }

    #[test]
    fn creation_times_come_from_object_ids_else_a_creation_date() {
        let mut obj = ObjectStats::default();
        let at = |secs: u32| {
            let mut b = [0u8; 12];
            b[..4].copy_from_slice(&secs.to_be_bytes());
            Bson::ObjectId(ObjectId::from_bytes(b))
        };
        obj.add(&doc! {"_id": at(1_700_000_000), "date": bson::DateTime::from_millis(0)});
        obj.add(&doc! {"_id": at(1_700_000_000 + 10 * 86_400), "date": bson::DateTime::from_millis(86_400_000 * 30)});
        assert_eq!(
            created(&obj),
            Some(Created {
                from: "_id".to_string(),
                days: 10.0
            })
        );
        // Ids made in the same second (a bulk load): the date field.
        let mut same = ObjectStats::default();
        same.add(&doc! {"_id": at(5), "createdAt": bson::DateTime::from_millis(0)});
        same.add(&doc! {"_id": at(5), "createdAt": bson::DateTime::from_millis(86_400_000 * 30)});
        assert_eq!(
            created(&same).map(|c| (c.from, c.days)),
            Some(("createdAt".to_string(), 30.0))
        );
        // A birth date is not a creation time.
        let mut born = ObjectStats::default();
        born.add(&doc! {"birthday": bson::DateTime::from_millis(0)});
        born.add(&doc! {"birthday": bson::DateTime::from_millis(86_400_000 * 30)});
        assert_eq!(created(&born), None);
    }
}
