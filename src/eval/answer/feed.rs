//! The logical answer of the feed steps. A reader's feed is decoded from the design's own
//! documents (the items addressed to the reader, the reader's copies, the elements of the
//! reader's buckets); `read_feed` must return the newest page of it, and `post_feed` must put
//! the new item in the feed of every follower the run writes to, in the newest bucket where
//! the design buckets it (the bucket the next read opens first).

use bson::{Bson, Document};

use super::{documents, missing_in_window, Outcome, Pool};
use crate::design::names::relationship_collection_name;
use crate::design::plan::feed_order_field;
use crate::design::{Layout, Strategy};
use crate::engine::{compare::compare, Database};
use crate::model::{Model, Relationship};

/// One item of a reader's feed, with the bucket that holds it and its place there (bucketed
/// fan-out).
struct Item {
    doc: Document,
    bucket: Option<Bson>,
    position: usize,
}

/// Returns the feed of every reader under `r`, reader by reader, as the design stores it, or
/// `None` where `r` is not laid out as a feed.
fn feeds(db: &Database, layout: &Layout, r: &Relationship) -> Option<Vec<(Bson, Item)>> {
    let s = layout.strategy(&r.name)?;
    let docs = documents(db, &relationship_collection_name(r, s));
    let mut out = Vec::new();
    match s {
        Strategy::FanOutOnRead => {
            for d in docs {
                let Some(Bson::Array(to)) = d.get("to") else {
                    continue;
                };
                let mut item = d.clone();
                item.remove("to");
                for reader in to {
                    let doc = item.clone();
                    let i = Item {
                        doc,
                        bucket: None,
                        position: 0,
                    };
                    out.push((reader.clone(), i));
                }
            }
        }
        Strategy::FanOutOnWrite => {
            for d in docs {
                if let Some(reader) = d.get("owner").cloned() {
                    let i = Item {
                        doc: d,
                        bucket: None,
                        position: 0,
                    };
                    out.push((reader, i));
                }
            }
        }
        Strategy::BucketedFanOut { .. } => {
            for d in docs {
                let (Some(reader), Some(Bson::Array(items))) =
                    (d.get("owner"), d.get("activities"))
                else {
                    continue;
                };
                for (position, e) in items.iter().enumerate() {
                    if let Bson::Document(doc) = e {
                        out.push((
                            reader.clone(),
                            Item {
                                doc: doc.clone(),
                                bucket: d.get("sequence").cloned(),
                                position,
                            },
                        ));
                    }
                }
            }
        }
        _ => return None,
    }
    Some(out)
}

/// Checks a `read_feed` step of `page_size` items for reader `me`: the newest `page_size`
/// items of the reader's feed are among what the plan returned (`pool`).
pub(super) fn check_read(
    db: &Database,
    model: &Model,
    layout: &Layout,
    r: &Relationship,
    me: &Bson,
    page_size: u64,
    pool: &Pool,
) -> Option<Outcome> {
    let mut mine: Vec<Item> = feeds(db, layout, r)?
        .into_iter()
        .filter(|(reader, _)| reader == me)
        .map(|(_, i)| i)
        .collect();
    if mine.is_empty() {
        return Some(Outcome::Unchecked(format!(
            "{}: the reader's feed is empty in the sample",
            r.name
        )));
    }
    let mut wanted: Vec<String> = vec!["_id".into(), "author".into()];
    if let Some(e) = r.feed.as_deref().and_then(|f| model.entity(f)) {
        wanted.extend(e.fields.iter().map(|(n, _)| n.clone()));
    }
    let n = usize::try_from(page_size).unwrap_or(usize::MAX);
    if mine.iter().any(|i| i.bucket.is_some()) {
        // Buckets fill as items are posted: the newest are the last of the newest bucket,
        // whatever dates the sample drew for them.
        mine.sort_by(|a, b| {
            compare(
                b.bucket.as_ref().unwrap_or(&Bson::Null),
                a.bucket.as_ref().unwrap_or(&Bson::Null),
            )
            .then(b.position.cmp(&a.position))
        });
        let missing = mine
            .iter()
            .take(n)
            .position(|i| !pool.holds(&i.doc, &wanted));
        return Some(Outcome::Checked(missing.map(|k| {
            format!(
                "{}: item #{} of the newest {n} (in the order the buckets were filled) is not among what the plan returns",
                r.name,
                k + 1
            )
        })));
    }
    let field = feed_order_field(model, r);
    let key = |d: &Document| d.get(&field).cloned().unwrap_or(Bson::Null);
    let mut rows: Vec<&Document> = mine.iter().map(|i| &i.doc).collect();
    rows.sort_by(|a, b| compare(&key(b), &key(a)));
    Some(Outcome::Checked(
        missing_in_window(&rows, 0, n, &key, pool, &wanted)
            .map(|p| format!("{}: the newest {n} items of the feed: {p}", r.name)),
    ))
}

/// Checks a `post_feed` step that posted `item` and should reach `readers` followers (the
/// sample's share of the author's followers): as many readers' feeds hold it afterwards, each
/// in its newest bucket where the design buckets the feed.
pub(super) fn check_post(
    db: &Database,
    layout: &Layout,
    r: &Relationship,
    item: &Document,
    readers: usize,
) -> Option<Outcome> {
    let all = feeds(db, layout, r)?;
    // A copy carries the item's fields under its own `_id` and `owner`.
    let fields: Vec<&String> = item.keys().filter(|k| k.as_str() != "_id").collect();
    if fields.is_empty() {
        return Some(Outcome::Unchecked(format!(
            "{}: the posted item has no field to recognise it by",
            r.name
        )));
    }
    let is_it = |d: &Document| {
        let shared: Vec<&&String> = fields
            .iter()
            .filter(|f| d.contains_key(f.as_str()))
            .collect();
        !shared.is_empty()
            && shared
                .iter()
                .all(|f| d.get(f.as_str()) == item.get(f.as_str()))
    };
    let mut holding: Vec<&Bson> = all
        .iter()
        .filter(|(_, i)| is_it(&i.doc))
        .map(|(reader, _)| reader)
        .collect();
    holding.sort_by(|a, b| compare(a, b));
    holding.dedup();
    if holding.len() != readers {
        return Some(Outcome::Checked(Some(format!(
            "{}: the posted item is in {} readers' feeds, {readers} expected",
            r.name,
            holding.len()
        ))));
    }
    // Bucketed: in each reader's newest bucket.
    for reader in holding {
        let newest = all
            .iter()
            .filter(|(x, _)| x == reader)
            .filter_map(|(_, i)| i.bucket.as_ref())
            .max_by(|a, b| compare(a, b));
        let Some(newest) = newest else {
            continue;
        };
        let in_newest = all
            .iter()
            .any(|(x, i)| x == reader && i.bucket.as_ref() == Some(newest) && is_it(&i.doc));
        if !in_newest {
            return Some(Outcome::Checked(Some(format!(
                "{}: the posted item is not in the reader's newest bucket (sequence {newest})",
                r.name
            ))));
        }
    }
    Some(Outcome::Checked(None))
}
