//! `insert`: one entity that is nobody's child, one `insertOne` into its collection.

use bson::Document;

use super::{CommandKind::Insert, Commands, Placement};
use crate::model::Step;

/// Appends the command of an `insert` step.
pub(super) fn commands(p: &Placement, step: &Step, out: &mut Commands) {
    let Step::Insert { entity } = step else {
        return;
    };
    super::files::writes(p, out, entity);
    let mut c = out.command(
        &p.collection_for(entity),
        Insert,
        Document::new(),
        format!("insert {entity}"),
    );
    c.insert_shape = Some(entity.clone());
    out.push(c);
}
