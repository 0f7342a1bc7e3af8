//! The undo log that puts the sample back after each run: every document an update or a
//! delete may change saved before it, every document an insert creates noted after it, and
//! all of it restored once the run is measured, so that the next run sees the materialized
//! sample again.

use bson::Bson;

use crate::engine::{self, Database, FindCommand, UpdateCommand};
use crate::eval::EvalError;

/// What a run changed, to put back afterwards.
#[derive(Default)]
pub(super) struct Undo {
    /// (collection, document before the write), in write order.
    pub(super) restore: Vec<(String, engine::Returned)>,
    /// (collection, `_id`) of documents the run inserted.
    pub(super) remove: Vec<(String, Bson)>,
}

impl Undo {
    /// Puts the database back: inserted documents removed, changed and deleted ones restored
    /// (in reverse order, so the oldest image wins).
    pub(super) fn apply(self, db: &mut Database) -> Result<(), EvalError> {
        for (coll, id) in self.remove.into_iter().rev() {
            db.run(
                &coll,
                engine::Command::Delete {
                    filter: bson::doc! { "_id": id },
                    multi: false,
                },
            )?;
        }
        for (coll, doc) in self.restore.into_iter().rev() {
            let Some(id) = doc.field("_id") else {
                continue;
            };
            let doc = doc.into_document();
            db.run(
                &coll,
                engine::Command::Update(UpdateCommand {
                    filter: bson::doc! { "_id": id },
                    update: doc,
                    upsert: true,
                    replace: true,
                    ..Default::default()
                }),
            )?;
        }
        Ok(())
    }
}

/// The database a run writes to, with its undo log.
pub(super) struct Target<'a> {
    pub(super) db: &'a mut Database,
    pub(super) undo: &'a mut Undo,
}

impl Target<'_> {
    /// Runs a command, first saving the documents an update or delete may change and then
    /// noting the documents it inserts.
    pub(super) fn run(
        &mut self,
        coll: &str,
        c: engine::Command,
    ) -> engine::error::Result<engine::CommandResult> {
        let filter = match &c {
            engine::Command::Update(u) => Some((u.filter.clone(), u.multi)),
            engine::Command::Delete { filter, multi } => Some((filter.clone(), *multi)),
            _ => None,
        };
        if let Some((filter, multi)) = filter {
            let found = self.db.find(
                coll,
                &FindCommand {
                    filter,
                    limit: (!multi).then_some(1),
                    ..Default::default()
                },
            )?;
            self.undo
                .restore
                .extend(found.documents.into_iter().map(|d| (coll.to_string(), d)));
        }
        let r = match c {
            engine::Command::Find(f) => self.db.find(coll, &f),
            engine::Command::Aggregate { pipeline } => self.db.aggregate(coll, &pipeline),
            other => self.db.run(coll, other),
        }?;
        self.undo.remove.extend(
            r.inserted_ids
                .iter()
                .map(|id| (coll.to_string(), id.clone())),
        );
        Ok(r)
    }
}
