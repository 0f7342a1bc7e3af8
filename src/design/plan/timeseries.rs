//! The commands of a native time-series collection (the `time_series` strategy) on its bucket
//! documents: an insert goes into the open bucket of its parent (one write, a new bucket when
//! the count, size or span rule closes it); a read of a parent's measurements reads the
//! buckets of that `meta`, newest first when the read sorts by the time field.

use bson::doc;

use super::{param, Command, CommandKind::*, Commands, Placement};
use crate::design::names::{buckets_collection_name, META};
use crate::design::shape::bucket_capacity;
use crate::model::design::time_field;
use crate::model::{ChildRead, Relationship};

/// Returns the measurements in a full bucket of `r` (1 when the layout has none).
fn capacity(p: &Placement, r: &Relationship) -> u64 {
    bucket_capacity(p.collections, r).unwrap_or(1).max(1)
}

/// The slot of a data column that a measurement's insert writes, in the update's field paths
/// (`data.<field>.<SLOT>`): the number of measurements the open bucket already holds, known
/// only when the command runs (the server's bucket catalog counts them); the evaluation puts
/// the number in its place ([`at_slot`]) before the command is sent or shown.
pub const SLOT: &str = "<slot>";

/// Returns `update` with every [`SLOT`] in its field paths replaced by `slot`, keeping only the
/// fields whose value `keep` accepts (the evaluation leaves out the fields a measurement lacks).
pub fn at_slot(
    update: &bson::Document,
    slot: u64,
    keep: impl Fn(&bson::Bson) -> bool,
) -> bson::Document {
    let slot = slot.to_string();
    update
        .iter()
        .map(|(op, v)| match v {
            bson::Bson::Document(fields) => (
                op.clone(),
                bson::Bson::Document(
                    fields
                        .iter()
                        .filter(|(_, v)| keep(v))
                        .map(|(k, v)| (k.replace(SLOT, &slot), v.clone()))
                        .collect(),
                ),
            ),
            _ => (op.clone(), v.clone()),
        })
        .collect()
}

/// Returns whether `c` writes a measurement into a bucket's next slot (its update holds
/// [`SLOT`] paths).
pub fn writes_slot(c: &Command) -> bool {
    c.update.as_ref().is_some_and(|u| {
        u.values().any(|v| match v {
            bson::Bson::Document(fields) => fields.keys().any(|k| k.contains(SLOT)),
            _ => false,
        })
    })
}

/// Returns the insert of one measurement as the server applies it to its bucket: the open
/// bucket of the parent (`meta`) is the one whose last column slot is still free; the
/// measurement's fields go into the next slot of their columns (`$set` of
/// `data.<field>.<slot>`), and `control.min` and `control.max` follow it (`$min`/`$max` of
/// every data field); when no bucket is open the upsert opens the next one. The server finds
/// the open bucket in its in-memory bucket catalog; the engine finds it by its `meta` on the
/// time-series index.
pub(super) fn insert(p: &Placement, out: &Commands, r: &Relationship) -> Command {
    let n = capacity(p, r);
    let pid = param(format!("{}._id", r.parent));
    let last = format!("data._id.{}", n.saturating_sub(1));
    let mut c = out.command(
        &buckets_collection_name(r),
        Update,
        doc! { META: pid, last.as_str(): { "$exists": false } },
        "the server appends to the parent's open bucket (a new bucket when the count, size or span rule closes it)",
    );
    let mut set = bson::Document::new();
    let mut min = bson::Document::new();
    let mut max = bson::Document::new();
    for f in measurement_columns(p, r) {
        set.insert(format!("data.{f}.{SLOT}"), param(format!("child.{f}")));
        min.insert(format!("control.min.{f}"), param(format!("child.{f}")));
        max.insert(format!("control.max.{f}"), param(format!("child.{f}")));
    }
    c.update = Some(doc! { "$set": set, "$min": min, "$max": max });
    c.upsert = true;
    c
}

/// Returns the names of the data columns of `r`'s buckets (`_id` and the child's fields).
fn measurement_columns(p: &Placement, r: &Relationship) -> Vec<String> {
    bucket_capacity(p.collections, r)
        .and_then(|_| {
            let c = p
                .collections
                .iter()
                .find(|c| c.name == buckets_collection_name(r))?;
            let data = c
                .shape(crate::design::names::BUCKET_LABEL)?
                .fields
                .get("data")?;
            Some(data.fields.iter().map(|(n, _)| n.clone()).collect())
        })
        .unwrap_or_default()
}

/// Returns the find of a parent's measurements: the buckets of its `meta`; a read sorted by the
/// time field with a limit reads the newest (or oldest) ⌈limit ÷ bucket⌉ + 1 buckets, as a
/// range of time overlaps one more bucket than it fills.
pub(super) fn read(
    p: &Placement,
    out: &Commands,
    r: &Relationship,
    entity: &str,
    c: &ChildRead,
) -> Command {
    let n = capacity(p, r);
    let mut f = out.command(
        &buckets_collection_name(r),
        Find,
        doc! { META: param(format!("{entity}._id")) },
        format!("{}: the buckets of this meta", r.name),
    );
    let time = time_field(p.model, r);
    let by_time = c.sort.as_ref().filter(|s| Some(&s.field) == time.as_ref());
    if let Some(s) = by_time {
        f.sort = Some(doc! { format!("control.min.{}", s.field): s.order });
        f.limit = c.limit.map(|l| l.div_ceil(n).saturating_add(1));
    }
    f.projection = super::project(&c.fields, "data.");
    f
}
