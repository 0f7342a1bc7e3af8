//! References between collections: a field whose values resolve to another collection's
//! `_id`s, or failing that to another collection's unique key ([`key_sets`]), grouped by the
//! value they name (children per parent, parents per child), and the creation times that give
//! growth per day.
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

/// The fewest distinct values a unique key other than `_id` must have to be resolved against:
/// a collection of a few documents (ten codes 1 to 10) would match any field of small values.
pub const MIN_KEY_VALUES: usize = 20;

/// The share of a collection's documents that must hold a field, every value once, for the
/// field to be unique in the data (99%: a few documents without it are tolerated).
pub const KEY_PRESENCE: f64 = 0.99;

/// Numbers below this are small (counts, ratings, quantities, positions): a numeric field whose
/// name relates neither to a key nor to its collection is only read as naming that key when
/// its values are at least this large, every one resolves, and it has [`MIN_KEY_VALUES`]
/// distinct values.
pub const SMALL_NUMBER: f64 = 1000.0;

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

/// One collection's `_id`s, or the values of one of its unique keys, for references to resolve
/// against.
#[derive(Debug, Clone, Copy)]
pub struct IdSet<'a> {
    /// The collection's (entity's) name.
    pub collection: &'a str,
    /// Its `_id` values (or the key's), hashed and counted.
    pub ids: &'a ValueCounts,
    /// The unique key field (top level) whose values these are; `None` for `_id`.
    pub key: Option<&'a str>,
    /// The key is unique by a unique index of the dump's metadata (else by the data).
    pub unique_index: bool,
}

impl<'a> IdSet<'a> {
    /// Returns the `_id`s of `collection`.
    pub fn ids(collection: &'a str, ids: &'a ValueCounts) -> Self {
        IdSet {
            collection,
            ids,
            key: None,
            unique_index: false,
        }
    }
}

/// The unique key of the referenced collection that a reference names, when not `_id`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KeyRef {
    /// The key field (top level in the referenced collection).
    pub field: String,
    /// Why it is unique: `index` (a unique index in the dump's metadata) or `data` (every
    /// value once, in nearly every document).
    pub unique: &'static str,
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
    /// The target's unique key the values name, when not its `_id`.
    pub key: Option<KeyRef>,
}

/// Returns the unique keys other than `_id` of every collection, for [`resolve`]: each top-level
/// field whose values may be ids (objectId, string, binData, int, long), all counted (no
/// sample), with at least [`MIN_KEY_VALUES`] distinct values, and unique either by a
/// single-field unique index without a partial filter (`unique_index`: collection and field)
/// or in the data: every value seen once and held by at least [`KEY_PRESENCE`] of the
/// collection's documents.
pub fn key_sets<'a>(
    collections: &'a [(String, ObjectStats)],
    unique_index: &dyn Fn(&str, &str) -> bool,
) -> Vec<IdSet<'a>> {
    let mut out = Vec::new();
    for (collection, obj) in collections {
        for (name, f) in &obj.fields {
            let Some(values) = f.values.as_deref() else {
                continue;
            };
            let dominant = f.ranked_types().first().map(|(t, _)| *t);
            if name == "_id"
                || !matches!(
                    dominant,
                    Some("objectId" | "string" | "binData" | "int" | "long")
                )
                || values.untracked > 0
                || values.counts.len() < MIN_KEY_VALUES
            {
                continue;
            }
            let indexed = unique_index(collection, name);
            let in_data = values.counts.values().all(|&n| n == 1)
                && values.seen as f64 >= KEY_PRESENCE * obj.seen as f64;
            if indexed || in_data {
                out.push(IdSet {
                    collection,
                    ids: values,
                    key: Some(name),
                    unique_index: indexed,
                });
            }
        }
    }
    out
}

/// Returns how strongly a field's name relates to a unique key of `collection`: 2 when it
/// names the collection (`accounts`, `account`, `accountId`, `account_id` for `accounts`),
/// 1 when it names the key (`account_id`, `account_ids`, `parent_account_id` for the key
/// `account_id`; a key of two letters or fewer, `id`, is named by nothing), 0 otherwise.
/// Names are compared without case, `_` or `-`.
pub fn relation(field: &str, key: &str, collection: &str) -> u8 {
    let norm = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let (f, k, t) = (norm(field), norm(key), norm(collection));
    let one = t.strip_suffix('s').filter(|s| s.len() >= 3).unwrap_or(&t);
    if f == t || (one.len() >= 3 && f.starts_with(one)) {
        return 2;
    }
    let f_one = f.strip_suffix('s').unwrap_or(&f);
    if k.len() > 2 && (f_one.ends_with(&k) || f.ends_with(&k)) {
        return 1;
    }
    0
}

/// Returns whether a field is its own collection's key rather than a reference: its name is
/// the collection's in the singular with a key suffix (`account_id`, `accountId`, `account_no`,
/// `accountCode` in `accounts`).
pub fn own_key(field: &str, collection: &str) -> bool {
    let norm = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let (f, t) = (norm(field), norm(collection));
    let one = t.strip_suffix('s').unwrap_or(&t);
    ["id", "no", "number", "code", "key"]
        .iter()
        .any(|end| f.strip_suffix(end) == Some(one))
}

/// Returns the reference that the values of field `name` of entity `holder` (`stats`: the
/// field's, or its array elements') make to one of `sets`, if at least [`REFERENCE_SHARE`] of
/// its non-null values resolve to that collection's `_id`s (the best-resolving collection when
/// several do). A number (int, long) is only taken for a reference when the field's name says
/// so (ends in `id`, `ids`, `ref` or `refs`, or names the collection): small numbers resolve to
/// sequence `_id`s by chance.
///
/// When no `_id`s resolve, the unique keys of `sets` ([`key_sets`]) are tried, under stricter
/// rules: not the field itself (its own collection's key, [`own_key`]); and either the name
/// relates to the key or its collection ([`relation`]), or every value resolves, the field
/// has [`MIN_KEY_VALUES`] distinct values and, numeric, none below [`SMALL_NUMBER`]. Of
/// several keys the one whose name relates best wins, then the best share, then a unique
/// index.
pub fn resolve(
    stats: &FieldStats,
    name: &str,
    holder: &str,
    sets: &[IdSet<'_>],
) -> Option<Reference> {
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
    // Share of the values resolving to one set, when enough do.
    let share_of = |set: &IdSet<'_>| -> Option<(f64, u64)> {
        let resolved: u64 = values
            .counts
            .iter()
            .filter(|(k, _)| set.ids.counts.contains_key(k))
            .map(|(_, &n)| u64::from(n))
            .sum();
        // A target whose values were not all kept can only resolve its kept share.
        let kept = if set.ids.seen == 0 {
            1.0
        } else {
            set.ids.tracked() as f64 / set.ids.seen as f64
        };
        let share = resolved as f64 / checked as f64;
        (resolved > 0 && share >= REFERENCE_SHARE * kept).then_some((share, resolved))
    };
    let mut best: Option<((u8, f64, bool), &IdSet<'_>, u64)> = None;
    for set in sets.iter().filter(|s| s.key.is_none()) {
        if numeric && !names_reference(name, set.collection) {
            continue;
        }
        let Some((share, resolved)) = share_of(set) else {
            continue;
        };
        if best.as_ref().is_some_and(|((_, s, _), _, _)| *s >= share) {
            continue;
        }
        best = Some(((0, share, false), set, resolved));
    }
    if best.is_none() && !own_key(name, holder) {
        let small = stats.numbers.is_some_and(|(lo, _)| lo < SMALL_NUMBER);
        for set in sets {
            let Some(key) = set.key else { continue };
            if set.collection == holder && key == name {
                continue;
            }
            let Some((share, resolved)) = share_of(set) else {
                continue;
            };
            let related = relation(name, key, set.collection);
            let by_share =
                resolved == checked && values.counts.len() >= MIN_KEY_VALUES && !(numeric && small);
            if related == 0 && !by_share {
                continue;
            }
            let rank = (related, share, set.unique_index);
            if best
                .as_ref()
                .is_some_and(|(r, _, _)| (r.0, r.1, r.2) >= (rank.0, rank.1, rank.2))
            {
                continue;
            }
            best = Some((rank, set, resolved));
        }
    }
    let (_, set, resolved) = best?;
    let (mut per, mut named) = (Sketch::default(), Sketch::default());
    for k in set.ids.counts.keys() {
        let n = values.counts.get(k).map_or(0, |&n| u64::from(n));
        per.add(n);
        if n > 0 {
            named.add(n);
        }
    }
    Some(Reference {
        target: set.collection.to_string(),
        values: checked,
        resolved,
        per_target: Observed::of(&per),
        per_named: Observed::of(&named),
        repeated: values.counts.values().any(|&n| n > 1),
        sampled: values.untracked > 0 || set.ids.untracked > 0,
        key: set.key.map(|k| KeyRef {
            field: k.to_string(),
            unique: if set.unique_index { "index" } else { "data" },
        }),
    })
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
        let set = [IdSet::ids("author", parents.values.as_deref().unwrap())];
        let r = resolve(&field, "author", "book", &set).unwrap();
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
        let set = [IdSet::ids("p", parents.values.as_deref().unwrap())];
        let with = |bad: usize| {
            let mut v: Vec<Bson> = (0..100 - bad).map(|i| oid((i % 10) as u8)).collect();
            v.extend((0..bad).map(|i| oid(200 + i as u8)));
            resolve(&ids_of(v), "pId", "c", &set)
        };
        assert!(with(1).is_some());
        assert!(with(2).is_none());
    }

    #[test]
    fn small_numbers_need_a_name_that_says_reference() {
        let parents = ids_of((0..100).map(Bson::Int32));
        let field = ids_of((1..8).map(Bson::Int32));
        let set = [IdSet::ids("order", parents.values.as_deref().unwrap())];
        assert!(resolve(&field, "qty", "line", &set).is_none());
        assert!(resolve(&field, "orderId", "line", &set).is_some());
        assert!(resolve(&field, "order", "line", &set).is_some());
        // An int and a long of the same number are the same id.
        assert!(resolve(&ids_of([Bson::Int64(3)]), "order_ref", "line", &set).is_some());
    }

    /// Returns collections of documents `{_id, <field>: value}` for [`key_sets`].
    fn collection(
        name: &str,
        field: &str,
        values: impl IntoIterator<Item = Bson>,
    ) -> (String, ObjectStats) {
        let mut obj = ObjectStats::default();
        for (i, v) in values.into_iter().enumerate() {
            obj.add(&doc! {"_id": oid(i as u8), field: v});
        }
        (name.to_string(), obj)
    }

    #[test]
    fn values_of_a_unique_key_are_a_reference_through_it() {
        let accounts = [collection(
            "accounts",
            "account_id",
            (0..40).map(|i| Bson::Int32(100_000 + i * 7)),
        )];
        let keys = key_sets(&accounts, &|_, _| false);
        assert_eq!(keys.len(), 1);
        // Named after the collection or the key: a reference, even for few values.
        let field = ids_of([Bson::Int32(100_007), Bson::Int32(100_014)]);
        for name in ["accounts", "account_id", "accountId"] {
            let r = resolve(&field, name, "customers", &keys).unwrap();
            assert_eq!((r.values, r.resolved), (2, 2));
            assert_eq!(
                r.key.as_ref().map(|k| (k.field.as_str(), k.unique)),
                Some(("account_id", "data"))
            );
        }
        // Not the key itself, nor a collection's own key named after it.
        let own = ids_of((0..40).map(|i| Bson::Int32(100_000 + i * 7)));
        assert!(resolve(&own, "account_id", "accounts", &keys).is_none());
        // Unrelated name, few values: not a reference.
        assert!(resolve(&field, "limit", "customers", &keys).is_none());
        // Unrelated name, large numbers, every one of 20 distinct values resolving: a reference.
        let many = ids_of((0..20).map(|i| Bson::Int32(100_000 + i * 7)));
        assert!(resolve(&many, "acct", "customers", &keys).is_some());
    }

    #[test]
    fn small_unique_numbers_and_tiny_collections_are_not_keys() {
        // Ten codes 1 to 10: too few values to be a key.
        let codes = [collection("codes", "code", (1..=10).map(Bson::Int32))];
        assert!(key_sets(&codes, &|_, _| false).is_empty());
        // Thirty levels 1 to 30 are a key, but ratings 1 to 5 do not name it.
        let levels = [collection("levels", "level", (1..=30).map(Bson::Int32))];
        let keys = key_sets(&levels, &|_, _| false);
        assert_eq!(keys.len(), 1);
        let ratings = ids_of((0..200).map(|i| Bson::Int32(1 + i % 5)));
        assert!(resolve(&ratings, "rating", "reviews", &keys).is_none());
        let quantities = ids_of((0..200).map(|i| Bson::Int32(1 + i % 30)));
        assert!(resolve(&quantities, "quantity", "lines", &keys).is_none());
        // A field whose name says so is one.
        assert!(resolve(&quantities, "level", "players", &keys).is_some());
        // Repeated values are no key; a unique index makes one.
        let dup = [collection(
            "tags",
            "name",
            (0..40).map(|i| Bson::String(format!("t{}", i % 30))),
        )];
        assert!(key_sets(&dup, &|_, _| false).is_empty());
        assert_eq!(key_sets(&dup, &|c, f| c == "tags" && f == "name").len(), 1);
    }

    #[test]
    fn an_id_is_preferred_to_a_unique_key() {
        let users = ids_of((0..30).map(|i| Bson::Int32(1000 + i)));
        let legacy = [collection(
            "legacy",
            "user_id",
            (0..30).map(|i| Bson::Int32(1000 + i)),
        )];
        let mut sets = vec![IdSet::ids("users", users.values.as_deref().unwrap())];
        sets.extend(key_sets(&legacy, &|_, _| false));
        let field = ids_of((0..30).map(|i| Bson::Int32(1000 + i)));
        let r = resolve(&field, "user_id", "orders", &sets).unwrap();
        assert_eq!((r.target.as_str(), r.key), ("users", None));
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
