//! The figures of a GridFS command ([`crate::design::gridfs`]), counted from the length of the
//! subject's file rather than measured on the sample: the sample's files and chunks are
//! generated shape by shape and do not belong together, while the spec fixes every count and
//! every size from the length alone.
//!
//! The subject's file has the length at the subject's quantile of the field's length
//! distribution: the median file for the typical run, the largest (the distribution's `max`)
//! for the largest run. A run reads or writes the file of a subject that has one (`presence`
//! thins the collections, not the run).

use super::bind::{typical_index, Binder};
use super::run::Ctx;
use super::{CommandEval, Figure};
use crate::design::command::{FilePart, FileUse};
use crate::design::gridfs::{
    chunk_bytes, chunks, file_document_size, filename_bytes, read_round_trips, write_round_trips,
};
use crate::design::names::{file_id_field, FILES};
use crate::design::{Command, CommandKind};
use crate::generate::entity_oid;

/// Binds the file id a GridFS read or delete of `f` filters on when the subject holds none
/// (its field is absent: `presence` < 1): the id of a sample file of the field (the first for
/// the largest run, the typical one otherwise), so that the command is the one a subject with
/// a file sends.
pub(super) fn bind_file_id(ctx: &Ctx, b: &mut Binder, f: &FileUse) {
    let name = format!("{}.{}", f.entity, file_id_field(&f.field));
    if b.value(&name).is_some_and(|v| v != bson::Bson::Null) {
        return;
    }
    let key = format!("{FILES}/{}.{} file", f.entity, f.field);
    let n = ctx.data.collection(FILES).map_or(0, |c| c.documents.len());
    let i = if b.largest {
        0
    } else {
        typical_index(ctx.model.seed, &key, n)
    };
    let id = entity_oid(ctx.model.seed, &key, i as u64);
    b.fresh.insert(name, bson::Bson::ObjectId(id));
}

/// Returns the length of the subject's file of `f` at quantile `q`, if the model has the field.
pub(super) fn file_length(ctx: &Ctx, f: &FileUse, q: f64) -> Option<u64> {
    let field = ctx.model.entity(&f.entity)?.fields.get(&f.field)?;
    Some(field.length_distribution().count_at(q))
}

/// Sets the full-scale figures and the round trips of a GridFS command `c` on the file `f` of
/// the subject at quantile `q`: its files document (1 document) or its chunks
/// (⌈length / 261,120⌉ documents, their exact bytes), read, written or deleted, with the index
/// keys of every index of the collection; a chunk read costs one round trip per cursor batch,
/// a chunk upload one per `insertMany` batch.
pub(super) fn count(ctx: &Ctx, c: &Command, f: &FileUse, q: f64, ce: &mut CommandEval) {
    let Some(length) = file_length(ctx, f, q) else {
        return;
    };
    let (docs, bytes) = match f.part {
        FilePart::File => (1, file_document_size(filename_bytes(&f.field))),
        FilePart::Chunks => (chunks(length), chunk_bytes(length)),
    };
    let indexes = ctx
        .layout
        .collection(&c.collection)
        .map_or(0, |x| x.indexes.len() as u64)
        + 1;
    let (d, b) = (Figure::full(docs as f64), Figure::full(bytes as f64));
    let zero = Figure::full(0.0);
    let m = &mut ce.full;
    match c.kind {
        CommandKind::Find => {
            m.docs_examined = d;
            m.keys_examined = d;
            m.docs_returned = d;
            m.bytes_returned = b;
            ce.queries = match f.part {
                FilePart::File => 1,
                FilePart::Chunks => read_round_trips(docs),
            };
        }
        CommandKind::Insert => {
            m.docs_written = d;
            m.bytes_written = b;
            m.index_keys_written = Figure::full((docs * indexes) as f64);
            ce.queries = match f.part {
                FilePart::File => 1,
                FilePart::Chunks => write_round_trips(docs),
            };
        }
        CommandKind::Delete => {
            m.docs_examined = d;
            m.keys_examined = d;
            m.docs_returned = zero;
            m.bytes_returned = zero;
            m.docs_written = d;
            m.bytes_written = b;
            m.index_keys_written = Figure::full((docs * indexes) as f64);
        }
        CommandKind::Update | CommandKind::Aggregate => {}
    }
}
