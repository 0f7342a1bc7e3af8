//! `post_feed`: an author posts one item to all followers. Fan-out on read inserts one item
//! addressed to every follower (`to`); fan-out on write inserts one copy per follower;
//! bucketed fan-out counts the item on every follower (its bucket number) and appends it to
//! each follower's newest bucket (article 004).

use bson::{doc, Document};

use super::{param, CommandKind::*, Commands, Placement};
use crate::design::names::{relationship_collection_name, BUCKET_COUNT};
use crate::model::design::Strategy;
use crate::model::{Relationship, Step};

/// Appends the commands of a `post_feed` step.
pub(super) fn commands(p: &Placement, step: &Step, out: &mut Commands) {
    let Step::PostFeed { relationship } = step else {
        return;
    };
    let Some((r, s)) = p.relationship(relationship) else {
        return;
    };
    let coll = relationship_collection_name(r, s);
    match s {
        Strategy::FanOutOnRead => {
            let mut c = out.command(
                &coll,
                Insert,
                Document::new(),
                "one item with all followers in `to`",
            );
            c.insert_shape = Some("feed item".into());
            out.push(c);
        }
        Strategy::FanOutOnWrite => {
            let mut c = out.command(&coll, Insert, Document::new(), "one copy per follower");
            c.insert_shape = Some("feed copy".into());
            c.fan_out = Some(r.name.clone());
            out.push(c);
        }
        Strategy::BucketedFanOut { .. } => {
            // The article's scheme: each follower's item counter gives the number of the
            // bucket the item goes into (sequence = count / size), and the upsert on
            // { owner, sequence } opens the next bucket with its number set.
            let mut counter = out.command(
                &p.collection_for(&r.child),
                Update,
                doc! { "_id": param("follower._id") },
                "count the item on every follower (its bucket number)",
            );
            counter.update = Some(doc! { "$inc": { feed_counter(r): 1 } });
            counter.fan_out = Some(r.name.clone());
            out.push(counter);
            let mut c = out.command(
                &coll,
                Update,
                doc! { "owner": param("follower._id"), "sequence": param("follower.sequence") },
                "append to every follower's newest bucket",
            );
            c.update = Some(
                doc! { "$push": { "activities": param("item") }, "$inc": { BUCKET_COUNT: 1 } },
            );
            c.upsert = true;
            c.fan_out = Some(r.name.clone());
            out.push(c);
        }
        _ => {}
    }
}

/// Returns the follower field that counts a feed's items under bucketed fan-out
/// (`activityCount` for a feed of `activity`, as in the article).
fn feed_counter(r: &Relationship) -> String {
    format!("{}Count", r.feed.as_deref().unwrap_or("item"))
}
