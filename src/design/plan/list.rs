//! `list`: one page of an entity's documents, one sorted find: an optional equality on one
//! field (one of an array field's values, which a multikey index bounds to a point), page N
//! by range (after the last sort value seen) or by `skip`, projected to the listed fields.

use bson::{doc, Document};

use super::{param, CommandKind::Find, Commands, Placement};
use crate::model::{BsonType, Model, Paging, Step};

/// Appends the command of a `list` step.
pub(super) fn commands(p: &Placement, step: &Step, out: &mut Commands) {
    let Step::List {
        entity,
        by,
        sort,
        limit,
        fields,
        page,
        paging,
    } = step
    else {
        return;
    };
    let coll = p.collection_for(entity);
    let mut filter = Document::new();
    if let Some(b) = by {
        filter.insert(b.clone(), param(equality_param(p.model, entity, b)));
    }
    let later = *page > 1;
    let mut note = format!("page {page} of {limit} {entity}");
    let mut skip = None;
    let mut page_offset = None;
    match paging {
        Paging::Range if later => {
            let op = if sort.order < 0 { "$lt" } else { "$gt" };
            filter.insert(
                sort.field.clone(),
                doc! { op: param(format!("last.{}", sort.field)) },
            );
            note.push_str(&format!(", after the last {} seen", sort.field));
            page_offset = Some((page - 1).saturating_mul(*limit));
        }
        Paging::Skip if later => {
            skip = Some((page - 1).saturating_mul(*limit));
            note.push_str(", by skip");
        }
        _ => {}
    }
    let mut f = out.command(&coll, Find, filter, note);
    f.sort = Some(doc! { sort.field.as_str(): sort.order });
    f.limit = Some(*limit);
    f.skip = skip;
    f.page_offset = page_offset;
    if !fields.is_empty() {
        let mut projection = Document::new();
        for name in fields {
            projection.insert(name.clone(), 1);
        }
        if !fields.iter().any(|n| n == "_id") {
            projection.insert("_id", 0);
        }
        f.projection = Some(projection);
    }
    out.push(f);
}

/// Returns the parameter a `list` of `entity` by field `by` compares with: the subject's value
/// (`post.author`), or for an array field (a tag) one of its values (`post.tags.$first`),
/// which a multikey index bounds to a point, not the whole array.
pub fn equality_param(model: &Model, entity: &str, by: &str) -> String {
    let is_array = model
        .entity(entity)
        .and_then(|e| e.fields.get(by))
        .is_some_and(|f| f.ty == BsonType::Array);
    if is_array {
        format!("{entity}.{by}.$first")
    } else {
        format!("{entity}.{by}")
    }
}
