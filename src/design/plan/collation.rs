//! A case-insensitive read by a string field (`read` with `case_insensitive`): with a
//! `case_insensitive_index` on the field, an equality under that index's collation (the find
//! and its derived index carry `{ locale: "en", strength: 2 }`); without one, what an
//! application writes instead: `$regex: /^value$/i`, which no index bounds (mongod examines
//! every key of an index on the field, or every document).

use bson::{doc, Document};

use super::{param, Command, CommandKind::Find, Commands, Placement};
use crate::design::command::param_case_insensitive;
use crate::model::design::FieldPattern;

/// The case-insensitive collation of a `case_insensitive_index`: English, strength 2 (case
/// ignored, accents kept), the one MongoDB's manual uses for it.
pub fn case_insensitive_collation() -> Document {
    doc! { "locale": "en", "strength": 2 }
}

/// Returns true when the design indexes `entity.field` with the case-insensitive collation.
pub fn has_case_insensitive_index(p: &Placement, entity: &str, field: &str) -> bool {
    p.model.design.fields.iter().any(|f| {
        matches!(f, FieldPattern::CaseInsensitiveIndex { entity: e, field: x } if e == entity && x == field)
    })
}

/// True when a command finds by a case-insensitive regex (a `read` with `case_insensitive`
/// and no `case_insensitive_index`): no index bounds it, so it examines every key or document.
pub fn matches_any_case(c: &Command) -> bool {
    c.filter.values().any(|v| {
        matches!(v, bson::Bson::Document(d) if d.contains_key(crate::design::command::CASE_INSENSITIVE_PARAM))
    })
}

/// Returns the find of one `entity` by `by` whatever its case, in collection `coll`.
pub(super) fn find(p: &Placement, out: &Commands, coll: &str, entity: &str, by: &str) -> Command {
    let name = format!("{entity}.{by}");
    if has_case_insensitive_index(p, entity, by) {
        let mut f = out.command(
            coll,
            Find,
            doc! { by: param(name) },
            format!("read {entity} by {by}, any case (collation: case-insensitive index)"),
        );
        f.collation = Some(case_insensitive_collation());
        f
    } else {
        out.command(
            coll,
            Find,
            doc! { by: param_case_insensitive(name) },
            format!("read {entity} by {by}, any case ($regex /^…$/i)"),
        )
    }
}
