//! `read_feed`: a follower reads one page of a feed. Fan-out on read finds the items
//! addressed to the reader (`to`), fan-out on write the reader's own copies; bucketed fan-out
//! reads the newest bucket, then as many older ones as the page needs (article 004's two
//! reads). Fan-out on read leaves the item's `to` list out: the reader needs the item, not
//! everyone it was addressed to.

use bson::doc;

use super::{param, CommandKind::Find, Commands, Placement};
use crate::design::names::relationship_collection_name;
use crate::model::design::Strategy;
use crate::model::{BsonType, Model, Relationship, Step};

/// Appends the commands of a `read_feed` step.
pub(super) fn commands(p: &Placement, step: &Step, out: &mut Commands) {
    let Step::ReadFeed {
        relationship,
        page_size,
    } = step
    else {
        return;
    };
    let Some((r, s)) = p.relationship(relationship) else {
        return;
    };
    let coll = relationship_collection_name(r, s);
    let date = order_field(p.model, r);
    let me = param("me._id");
    match s {
        Strategy::FanOutOnRead | Strategy::FanOutOnWrite => {
            let mut c = if matches!(s, Strategy::FanOutOnRead) {
                // The reader wants the items, not the list of everyone they were addressed to.
                let mut c = out.command(&coll, Find, doc! { "to": me }, "items addressed to me");
                c.projection = Some(doc! { "to": 0 });
                c
            } else {
                out.command(&coll, Find, doc! { "owner": me }, "my copies")
            };
            c.sort = Some(doc! { date: -1 });
            c.limit = Some(*page_size);
            out.push(c);
        }
        Strategy::BucketedFanOut { size } => {
            let mut newest = out.command(&coll, Find, doc! { "owner": me }, "my newest bucket");
            newest.sort = Some(doc! { "sequence": -1 });
            newest.limit = Some(1);
            out.push(newest);
            let mut older = out.command(
                &coll,
                Find,
                doc! { "owner": param("me._id"), "sequence": { "$lt": param("newest.first.sequence") } },
                "the buckets before it, to fill the page",
            );
            older.sort = Some(doc! { "sequence": -1 });
            older.limit = Some(page_size.div_ceil(*size).max(1));
            out.push(older);
        }
        _ => {}
    }
}

/// Returns the field a feed's page is ordered by, newest first: the item's first date field,
/// else `_id` (an ObjectId grows with time).
pub fn order_field(model: &Model, r: &Relationship) -> String {
    model
        .entity(r.feed.as_deref().unwrap_or_default())
        .and_then(|e| {
            e.fields
                .iter()
                .find(|(_, f)| f.ty == BsonType::Date)
                .map(|(n, _)| n.clone())
        })
        .unwrap_or_else(|| "_id".into())
}
