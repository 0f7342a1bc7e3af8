//! Every name a layout gives: the collections a relationship strategy creates, the fields
//! that hold references, discriminators and tree links, the time-series bucket fields and the
//! GridFS bucket. The placing of collections, the plan, the indexes, the generator and the
//! evaluation all read these rules from here, so that a name is spelled once.

use crate::model::design::{FieldPattern, Strategy};
use crate::model::Relationship;

// References and relationship collections (link, bucket, feed, continuation).

/// Returns the child reference field of a link collection (`{child}Id`, or `childId` when the
/// relationship links an entity to itself).
pub fn child_ref(r: &Relationship) -> String {
    let c = format!("{}Id", r.child);
    if c == r.parent_ref() {
        "childId".to_string()
    } else {
        c
    }
}

/// Returns the parent's field a child's parent reference holds under strategy `s`: the
/// relationship's `parent_key` where the child holds the reference itself
/// (`reference_in_child`, `two_way`), `_id` everywhere else (every other strategy keeps `_id`
/// references, so a design that moves the relationship elsewhere still resolves).
pub fn parent_key<'a>(r: &'a Relationship, s: &Strategy) -> &'a str {
    match (r.parent_key.as_deref(), s) {
        (Some(k), Strategy::ReferenceInChild { .. } | Strategy::TwoWay) => k,
        _ => "_id",
    }
}

/// Returns the child's field the parent's array of child references holds under strategy
/// `s`: the relationship's `child_key` under `reference_in_parent` and `two_way`, `_id`
/// everywhere else.
pub fn child_key<'a>(r: &'a Relationship, s: &Strategy) -> &'a str {
    match (r.child_key.as_deref(), s) {
        (Some(k), Strategy::ReferenceInParent | Strategy::TwoWay) => k,
        _ => "_id",
    }
}

/// Returns the field in which a child keeps its copy of its parent's `field` under
/// `reference_in_child` with `copy` (`host_ipaddr`).
pub fn parent_copy_field(r: &Relationship, field: &str) -> String {
    format!("{}_{field}", r.parent)
}

/// Returns the name of the collection a relationship strategy creates (link, bucket, feed).
pub fn relationship_collection_name(r: &Relationship, s: &Strategy) -> String {
    match s {
        Strategy::Bucket { .. } => format!("{}_buckets", r.name),
        Strategy::TimeSeries { .. } => buckets_collection_name(r),
        Strategy::FanOutOnRead | Strategy::FanOutOnWrite => {
            r.feed.clone().unwrap_or_else(|| r.name.clone())
        }
        Strategy::BucketedFanOut { .. } => format!(
            "{}_buckets",
            r.feed.clone().unwrap_or_else(|| r.name.clone())
        ),
        _ => r.name.clone(),
    }
}

/// The field of a parent under the continuation strategy that lists its continuation
/// documents (which share the parents' collection), oldest first.
pub const CONTINUATION_FIELD: &str = "tbc";

/// The counter of a bucket (one-to-many or a bucketed feed): the elements the bucket holds,
/// which an append increments and the open bucket is found by (`count < size`).
pub const BUCKET_COUNT: &str = "count";

// The single-collection and polymorphic patterns.

/// The discriminator field every document of a single collection holds: its entity's name
/// (MongoDB's course names it `docType`; `type` is the common spelling).
pub const TYPE_FIELD: &str = "type";

/// Returns the shared key of a single-collection relationship: the child's parent reference
/// (`productId`), which the parent holds too, equal to its `_id`.
pub fn shared_key(r: &Relationship) -> String {
    r.parent_ref()
}

// The native time-series strategy.

/// The label of the bucket documents' shape.
pub const BUCKET_LABEL: &str = "time-series bucket";

/// The field of a bucket that holds the parent's id (the server's name for the `metaField`).
pub const META: &str = "meta";

/// Returns the name of the collection the server stores a time series' buckets in
/// (`system.buckets.<child>`; the application reads and writes the view `<child>`).
pub fn buckets_collection_name(r: &Relationship) -> String {
    format!("system.buckets.{}", r.child)
}

// The tree strategies (the MongoDB manual's "Model Tree Structures").

/// The name of the field holding a node's parent id under every tree strategy but child
/// references.
pub const PARENT: &str = "parent";

/// The field of a node's child ids (child references).
pub const CHILDREN: &str = "children";

/// The field of a node's ancestor ids, root first (array of ancestors).
pub const ANCESTORS: &str = "ancestors";

/// The field of a node's materialized path (`,root,…,parent,`; none on the root).
pub const PATH: &str = "path";

/// The nested-set number a depth-first walk gives a node when it enters it.
pub const LEFT: &str = "left";

/// The nested-set number a depth-first walk gives a node when it leaves it.
pub const RIGHT: &str = "right";

// GridFS and object storage (the `gridfs` and `object_storage` field patterns).

/// The files collection of the default bucket.
pub const FILES: &str = "fs.files";

/// The chunks collection of the default bucket.
pub const CHUNKS: &str = "fs.chunks";

/// Returns the field holding the file's id in the entity's documents (`attachmentFileId`).
pub fn file_id_field(field: &str) -> String {
    format!("{field}FileId")
}

/// Returns the field holding the object's URL in the entity's documents (`attachmentUrl`).
pub fn url_field(field: &str) -> String {
    format!("{field}Url")
}

/// Returns the fields of `entity` that the design's patterns store through GridFS.
pub fn gridfs_fields<'a>(patterns: &'a [FieldPattern], entity: &str) -> Vec<&'a str> {
    patterns
        .iter()
        .filter_map(|p| match p {
            FieldPattern::Gridfs { entity: e, field } if e == entity => Some(field.as_str()),
            _ => None,
        })
        .collect()
}

/// True for the index drivers create unique on a bucket: `fs.chunks {files_id: 1, n: 1}`.
pub fn is_unique_index(collection: &str, keys: &bson::Document) -> bool {
    collection == CHUNKS && keys.iter().eq(bson::doc! { "files_id": 1, "n": 1 }.iter())
}
