//! The GridFS commands of a step (stored as [`crate::design::gridfs`] lays them out): a read of an entity whose
//! field is stored through GridFS reads the file as a driver's download does (the files
//! document, then the chunks in order), a new entity uploads its file as a driver's upload
//! does (the chunks with `insertMany`, then the files document) before the entity is written,
//! and a deleted entity's file is deleted as `bucket.delete(id)` does (the files document,
//! then the chunks).

use bson::{doc, Document};

use super::{param, Command, CommandKind::*, Commands, Placement};
use crate::design::command::{FilePart, FileUse};
use crate::design::names::{file_id_field, gridfs_fields, CHUNKS, FILES};

/// Returns a command on the file of `entity.field`, its `part`.
fn on_file(
    out: &Commands,
    collection: &str,
    kind: super::CommandKind,
    filter: Document,
    (entity, field, part): (&str, &str, FilePart),
    note: String,
) -> Command {
    let mut c = out.command(collection, kind, filter, note);
    c.file = Some(FileUse {
        entity: entity.to_string(),
        field: field.to_string(),
        part,
    });
    c
}

/// Returns the parameter of the file id the subject `entity` holds for `field`.
fn file_id(entity: &str, field: &str) -> bson::Bson {
    param(format!("{entity}.{}", file_id_field(field)))
}

/// Appends the reads of the GridFS files of `entity` (one per GridFS field): `findOne` on
/// `fs.files` by the id the entity holds, then `find({files_id}).sort({n: 1})` on `fs.chunks`
/// (one round trip per cursor batch, counted by the evaluation).
pub(super) fn reads(p: &Placement, out: &mut Commands, entity: &str) {
    for field in gridfs_fields(&p.model.design.fields, entity) {
        let id = file_id(entity, field);
        let mut f = on_file(
            out,
            FILES,
            Find,
            doc! { "_id": id.clone() },
            (entity, field, FilePart::File),
            format!("{field}: the GridFS files document"),
        );
        f.limit = Some(1);
        out.push(f);
        let mut c = on_file(
            out,
            CHUNKS,
            Find,
            doc! { "files_id": id },
            (entity, field, FilePart::Chunks),
            format!("{field}: the file's chunks in order (a getMore per further 16 MiB batch)"),
        );
        c.sort = Some(doc! { "n": 1 });
        out.push(c);
    }
}

/// Appends the upload of the GridFS files of a new `entity`: its chunks (`insertMany`, one
/// round trip per driver batch, counted by the evaluation), then its files document.
pub(super) fn writes(p: &Placement, out: &mut Commands, entity: &str) {
    for field in gridfs_fields(&p.model.design.fields, entity) {
        let label = format!("{entity}.{field}");
        let mut c = on_file(
            out,
            CHUNKS,
            Insert,
            Document::new(),
            (entity, field, FilePart::Chunks),
            format!("{field}: upload the file's chunks"),
        );
        c.insert_shape = Some(format!("{label} last chunk"));
        out.push(c);
        let mut f = on_file(
            out,
            FILES,
            Insert,
            Document::new(),
            (entity, field, FilePart::File),
            format!("{field}: the GridFS files document"),
        );
        f.insert_shape = Some(format!("{label} file"));
        out.push(f);
    }
}

/// Appends the deletion of the GridFS files of a deleted `entity`, as `bucket.delete(id)`
/// does: its files document, then its chunks.
pub(super) fn deletes(p: &Placement, out: &mut Commands, entity: &str) {
    for field in gridfs_fields(&p.model.design.fields, entity) {
        let id = file_id(entity, field);
        out.push(on_file(
            out,
            FILES,
            Delete,
            doc! { "_id": id.clone() },
            (entity, field, FilePart::File),
            format!("{field}: delete the GridFS files document"),
        ));
        let mut c = on_file(
            out,
            CHUNKS,
            Delete,
            doc! { "files_id": id },
            (entity, field, FilePart::Chunks),
            format!("{field}: delete the file's chunks"),
        );
        c.multi = true;
        out.push(c);
    }
}
