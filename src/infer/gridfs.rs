//! GridFS buckets recognized for what they are: a `<bucket>.files` collection (with its
//! `<bucket>.chunks`) whose files an entity names by id is that entity's file field stored
//! under the `gridfs` field pattern, not two collections of their own.
//!
//! The owner's id field (`attachmentFileId`) becomes the file field (`attachment`, `binData`),
//! its length fitted to the `length`s of the bucket's files, its presence the files per owner
//! read; the design gets a `gridfs` field pattern for it, so the layout writes the id back and
//! lays out `fs.files` and `fs.chunks` from the lengths (chunks of 255 KiB), at the owner's
//! full-scale count. The bucket's references (the owner's ids, `files_id` of the chunks) are
//! then no relationships.

use serde::Serialize;

use super::build::Found;
use super::fit::{fit, Observed};
use super::sketch::Sketch;
use crate::model::design::FieldPattern;
use crate::model::field::{BsonType, Field};
use crate::model::Entity;

/// The suffix of a bucket's files collection.
pub const FILES_SUFFIX: &str = ".files";

/// The suffix of a bucket's chunks collection.
pub const CHUNKS_SUFFIX: &str = ".chunks";

/// The suffix an owner's id field carries (`attachmentFileId` holds the `attachment` file).
pub const ID_SUFFIX: &str = "FileId";

/// What was read of one GridFS bucket while reading its files collection.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BucketStats {
    /// The files collection's name (`fs.files`).
    pub files: String,
    /// The files' `length`s in bytes.
    pub lengths: Sketch,
}

impl BucketStats {
    /// Records one document of the files collection.
    pub fn add(&mut self, doc: &bson::Document) {
        let length = match doc.get("length") {
            Some(bson::Bson::Int64(n)) => u64::try_from(*n).ok(),
            Some(bson::Bson::Int32(n)) => u64::try_from(*n).ok(),
            Some(bson::Bson::Double(x)) if x.is_finite() && *x >= 0.0 => Some(*x as u64),
            _ => None,
        };
        if let Some(n) = length {
            self.lengths.add(n);
        }
    }
}

/// A GridFS file field recognized.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GridfsReport {
    /// The entity whose documents name the files.
    pub entity: String,
    /// The file field written in the model (stored under the `gridfs` pattern).
    pub field: String,
    /// The id field read (`<field>FileId`).
    pub id_field: String,
    /// The bucket's files collection.
    pub files: String,
    /// Its chunks collection, when it was read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chunks: Option<String>,
    /// Files read (of this owner's share of the bucket).
    pub files_read: u64,
    /// The field's presence: files per owner document read.
    pub presence: f64,
    /// The files' lengths as observed.
    pub length: Observed,
}

impl GridfsReport {
    /// Returns the report's one line, as `squillion infer` prints it and the page lists it
    /// among the relationships found.
    pub fn describe(&self) -> String {
        let l = &self.length;
        format!(
            "{}.{}: a binData file stored in GridFS ({}: {} files{}, named by {}), present \
             {:.1}%, length min {} median {} p99 {} max {}",
            self.entity,
            self.field,
            self.files,
            self.files_read,
            self.chunks
                .as_ref()
                .map_or(String::new(), |c| format!(", chunks in {c}")),
            self.id_field,
            self.presence * 100.0,
            l.min,
            l.median,
            l.p99,
            l.max
        )
    }
}

/// What [`recognize`] changes in the model being built.
#[derive(Debug, Default)]
pub struct Recognized {
    /// The field patterns to add to the design.
    pub patterns: Vec<FieldPattern>,
    /// The collections that are buckets, no entities of their own.
    pub collections: Vec<String>,
    /// What was recognized.
    pub reports: Vec<GridfsReport>,
}

/// Recognizes every bucket of `buckets` that an entity's id field refers to: adds the file
/// field to that entity, removes the bucket's references from `found`, and returns the design
/// patterns and the collections to drop. `read` is an entity's documents read.
pub fn recognize(
    buckets: &[BucketStats],
    found: &mut Vec<Found>,
    entities: &mut [Entity],
    collections: &[String],
    read: impl Fn(&str) -> u64,
) -> Recognized {
    let mut out = Recognized::default();
    for bucket in buckets {
        let Some(prefix) = bucket.files.strip_suffix(FILES_SUFFIX) else {
            continue;
        };
        let chunks = format!("{prefix}{CHUNKS_SUFFIX}");
        let owners: Vec<&Found> = found
            .iter()
            .filter(|f| !f.in_array && f.reference.target == bucket.files && f.holder != chunks)
            .collect();
        let named: u64 = owners.iter().map(|f| f.reference.resolved).sum();
        if owners.is_empty() || named == 0 || bucket.lengths.count() == 0 {
            continue;
        }
        let files_read = bucket.lengths.count();
        let observed = Observed::of(&bucket.lengths);
        for owner in &owners {
            let field = owner
                .field
                .strip_suffix(ID_SUFFIX)
                .filter(|f| !f.is_empty())
                .unwrap_or(&owner.field)
                .to_string();
            // The owner's share of the bucket's files, per owner document read.
            let files = files_read as f64 * owner.reference.resolved as f64 / named as f64;
            let presence = (files / read(&owner.holder).max(1) as f64).min(1.0);
            if let Some(e) = entities.iter_mut().find(|e| e.name == owner.holder) {
                let mut f = Field::of(BsonType::BinData);
                f.length = Some(fit(&observed));
                f.presence = (presence < 1.0).then_some(presence);
                e.fields.0.push((field.clone(), f));
            }
            out.patterns.push(FieldPattern::Gridfs {
                entity: owner.holder.clone(),
                field: field.clone(),
            });
            out.reports.push(GridfsReport {
                entity: owner.holder.clone(),
                field,
                id_field: owner.field.clone(),
                files: bucket.files.clone(),
                chunks: collections.contains(&chunks).then(|| chunks.clone()),
                files_read: files.round() as u64,
                presence,
                length: observed.clone(),
            });
        }
        found.retain(|f| f.reference.target != bucket.files && f.holder != bucket.files);
        out.collections.push(bucket.files.clone());
        if collections.contains(&chunks) {
            found.retain(|f| f.holder != chunks && f.reference.target != chunks);
            out.collections.push(chunks);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use bson::{doc, oid::ObjectId};

    use crate::infer::Inference;
    use crate::model::design::FieldPattern;
    use crate::model::field::BsonType;

    /// Reads 10 messages, 4 of them naming one of 4 files, the files and their chunks.
    fn inference(with_owner: bool) -> Inference {
        let mut inference = Inference::new();
        let files: Vec<ObjectId> = (0..4u8)
            .map(|i| ObjectId::from_bytes([i + 1; 12]))
            .collect();
        for i in 0..10usize {
            let mut m = doc! { "_id": ObjectId::from_bytes([100 + i as u8; 12]), "text": "hi" };
            if let (true, Some(f)) = (with_owner, files.get(i / 2).filter(|_| i % 2 == 0)) {
                m.insert("attachmentFileId", *f);
            }
            inference.add("message", &m);
        }
        for (i, f) in files.iter().enumerate() {
            let length = 100_000 * (i as i64 + 1);
            inference.add(
                "fs.files",
                &doc! { "_id": *f, "length": length, "chunkSize": 261_120, "filename": "a.bin" },
            );
            inference.add(
                "fs.chunks",
                &doc! { "_id": ObjectId::from_bytes([200 + i as u8; 12]), "files_id": *f, "n": 0 },
            );
        }
        inference
    }

    #[test]
    fn a_bucket_named_by_an_entity_becomes_its_file_field() {
        let inferred = inference(true).finish(&BTreeMap::new()).unwrap();
        let m = &inferred.model;
        let names: Vec<&str> = m.entities.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["message"]);
        assert!(m.relationships.is_empty(), "{:?}", m.relationships);
        assert_eq!(
            m.design.fields,
            [FieldPattern::Gridfs {
                entity: "message".into(),
                field: "attachment".into()
            }]
        );
        let f = m.entities[0].fields.get("attachment").unwrap();
        assert_eq!(f.ty, BsonType::BinData);
        assert_eq!(f.presence, Some(0.4));
        let length = f.length.as_ref().unwrap();
        assert_eq!((length.min(), length.max()), (100_000.0, 400_000.0));
        let g = &inferred.report.gridfs[0];
        assert_eq!((g.files_read, g.chunks.as_deref()), (4, Some("fs.chunks")));
        // Laid out, the bucket comes back: one file per message holding one.
        let layout = crate::design::layout_model(m).unwrap();
        let files = layout.collections.iter().find(|c| c.name == "fs.files");
        let count = files.map(|c| crate::stats::collection_stats(c, &m.start_date).count);
        assert_eq!(count, Some(4.0));
    }

    #[test]
    fn a_bucket_no_entity_names_stays_as_read() {
        let inferred = inference(false).finish(&BTreeMap::new()).unwrap();
        let names: Vec<&str> = inferred
            .model
            .entities
            .iter()
            .map(|e| e.name.as_str())
            .collect();
        assert_eq!(names, ["message", "fs.files", "fs.chunks"]);
        assert!(inferred.model.design.fields.is_empty());
        assert!(inferred.report.gridfs.is_empty());
    }
}
