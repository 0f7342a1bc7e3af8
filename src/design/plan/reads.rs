//! Reads: an entity with its children, parents by a child value, a feed page.

use bson::{doc, Document};

use super::collection_for;
use crate::design::command::{param, Command, CommandKind};
use crate::design::layout::{child_ref, relationship_collection_name, Layout};
use crate::model::design::{AttributeForm, FieldPattern, Joins, Strategy};
use crate::model::{Model, Paging, Step};

/// Returns the application-level joins of a read (`later`, the finds after the parent's) as
/// equality `$lookup` stages, or `None` when one of them sorts, limits or projects (which an
/// equality `$lookup` cannot) or has a shape this does not know.
fn lookup_stages(model: &Model, entity: &str, later: &[Command]) -> Option<Vec<Document>> {
    let mut stages = Vec::new();
    for c in later {
        if c.sort.is_some()
            || c.limit.is_some()
            || c.projection.is_some()
            || c.kind != CommandKind::Find
        {
            return None;
        }
        let r = model.relationship(c.note.split(':').next().unwrap_or_default())?;
        let arr = r.array_field();
        let (key, value) = c.filter.iter().next().filter(|_| c.filter.len() == 1)?;
        let name = |v: &bson::Bson| -> Option<String> {
            match v {
                bson::Bson::Document(d) => match d.get("$param") {
                    Some(bson::Bson::String(s)) => Some(s.clone()),
                    _ => None,
                },
                _ => None,
            }
        };
        let links_as = format!("{arr}_links");
        let (local, foreign, as_field) = match value {
            bson::Bson::Document(d) if d.contains_key("$in") => {
                let p = name(d.get("$in")?)?;
                let local = if let Some(field) = p.strip_prefix(&format!("{entity}.")) {
                    field.to_string()
                } else if let Some(field) = p.strip_prefix("links.") {
                    format!("{links_as}.{field}")
                } else {
                    return None;
                };
                let as_field = if local == "tbc" {
                    "tbc".to_string()
                } else {
                    arr.to_string()
                };
                (local, key.clone(), as_field)
            }
            v if name(v)? == format!("{entity}._id") => {
                let as_field = if c.collection == r.name {
                    links_as.clone()
                } else {
                    arr.to_string()
                };
                ("_id".to_string(), key.clone(), as_field)
            }
            _ => return None,
        };
        stages.push(doc! { "$lookup": { "from": c.collection.clone(), "localField": local, "foreignField": foreign, "as": as_field } });
    }
    Some(stages)
}

/// Appends the commands of `step` (step number `i`) to `out`.
pub(super) fn commands(
    model: &Model,
    layout: &Layout,
    i: usize,
    step: &Step,
    out: &mut Vec<Command>,
) {
    use CommandKind::*;
    match step {
        Step::Read {
            entity,
            by,
            children,
        } => {
            let coll = collection_for(layout, entity);
            let mut find = Command::new(
                i,
                &coll,
                Find,
                doc! { by.as_str(): param(format!("{entity}.{by}")) },
                format!("read {entity} by {by}"),
            );
            find.limit = Some(1);
            let mut projection = Document::new();
            let mut later = Vec::new();
            for c in children {
                let Some(r) = model.relationship(&c.relationship) else {
                    continue;
                };
                let Some(s) = layout.strategy(&r.name) else {
                    continue;
                };
                let arr = r.array_field().to_string();
                let child_coll = collection_for(layout, &r.child);
                let sort = c.sort.as_ref().map(|s| doc! { s.field.as_str(): s.order });
                let ids = param(format!("{entity}.{arr}"));
                let by_ids = |note: &str| {
                    let mut f = Command::new(
                        i,
                        &child_coll,
                        Find,
                        doc! { "_id": { "$in": ids.clone() } },
                        note.to_string(),
                    );
                    f.sort = sort.clone();
                    f.limit = c.limit;
                    f
                };
                match s {
                    Strategy::Embed => {
                        if let Some(l) = c.limit {
                            projection.insert(arr.clone(), doc! { "$slice": l as i64 });
                        }
                    }
                    Strategy::EmbedSubset { k } => {
                        if c.limit.is_some_and(|l| l <= *k) {
                            projection.insert(
                                arr.clone(),
                                doc! { "$slice": c.limit.unwrap_or(*k) as i64 },
                            );
                        } else {
                            let mut f = Command::new(
                                i,
                                &child_coll,
                                Find,
                                doc! { r.parent_ref(): param(format!("{entity}._id")) },
                                format!("{}: beyond the newest {k}", r.name),
                            );
                            f.sort = sort.clone();
                            f.limit = c.limit;
                            later.push(f);
                        }
                    }
                    Strategy::ExtendedReference { copy } => {
                        let covered = !c.fields.is_empty()
                            && c.fields.iter().all(|f| f == "_id" || copy.contains(f));
                        if !covered {
                            later.push(by_ids(&format!(
                                "{}: fields not copied into the parent",
                                r.name
                            )));
                        }
                    }
                    Strategy::ReferenceInParent | Strategy::TwoWay => {
                        if let Some(l) = c.limit {
                            projection.insert(arr.clone(), doc! { "$slice": l as i64 });
                        }
                        if !ids_only(&c.fields) {
                            later.push(by_ids(&format!("{}: application-level join", r.name)));
                        }
                    }
                    Strategy::ReferenceInChild { .. } => {
                        let mut f = Command::new(
                            i,
                            &child_coll,
                            Find,
                            doc! { r.parent_ref(): param(format!("{entity}._id")) },
                            format!("{}: children by parent reference", r.name),
                        );
                        f.sort = sort.clone();
                        f.limit = c.limit;
                        later.push(f);
                    }
                    Strategy::LinkCollection => {
                        let mut l = Command::new(
                            i,
                            &r.name,
                            Find,
                            doc! { r.parent_ref(): param(format!("{entity}._id")) },
                            format!("{}: links", r.name),
                        );
                        l.limit = c.limit;
                        later.push(l);
                        if ids_only(&c.fields) {
                            continue;
                        }
                        let cref = child_ref(r);
                        let mut f = Command::new(
                            i,
                            &child_coll,
                            Find,
                            doc! { "_id": { "$in": param(format!("links.{cref}")) } },
                            format!("{}: children of the links", r.name),
                        );
                        f.sort = sort.clone();
                        f.limit = c.limit;
                        later.push(f);
                    }
                    Strategy::Bucket { size } => {
                        let mut f = Command::new(
                            i,
                            &relationship_collection_name(r, s),
                            Find,
                            doc! { r.parent_ref(): param(format!("{entity}._id")) },
                            format!("{}: newest buckets", r.name),
                        );
                        f.sort = Some(doc! { "sequence": -1 });
                        f.limit = Some(
                            c.limit
                                .map_or(1, |l| l.div_ceil(*size).max(1).saturating_add(1)),
                        );
                        later.push(f);
                    }
                    Strategy::Continuation { threshold } => {
                        if let Some(l) = c.limit {
                            projection.insert(arr.clone(), doc! { "$slice": l as i64 });
                        }
                        if !(c.fields.is_empty() || c.fields.iter().all(|f| f == "_id")) {
                            later.push(by_ids(&format!("{}: application-level join", r.name)));
                        }
                        if c.limit.is_none_or(|l| l > *threshold) {
                            let f = Command::new(
                                i,
                                &coll,
                                Find,
                                doc! { "_id": { "$in": param(format!("{entity}.tbc")) } },
                                format!("{}: continuation documents", r.name),
                            );
                            later.push(f);
                        }
                    }
                    _ => {}
                }
            }
            if layout.joins == Joins::Lookup && !later.is_empty() && projection.is_empty() {
                if let Some(stages) = lookup_stages(model, entity, &later) {
                    let mut pipeline =
                        vec![doc! { "$match": find.filter.clone() }, doc! { "$limit": 1 }];
                    pipeline.extend(stages);
                    // The filter is the `$match` (what the derived indexes serve).
                    let mut a = Command::new(
                        i,
                        &coll,
                        Aggregate,
                        find.filter.clone(),
                        format!("read {entity} by {by} with its children ($lookup)"),
                    );
                    a.pipeline = pipeline;
                    out.push(a);
                    return;
                }
            }
            if !projection.is_empty() {
                find.projection = Some(projection);
            }
            out.push(find);
            out.extend(later);
        }
        Step::FindParents { relationship, by } => {
            let Some(r) = model.relationship(relationship) else {
                return;
            };
            let Some(s) = layout.strategy(&r.name) else {
                return;
            };
            let pcoll = collection_for(layout, &r.parent);
            let ccoll = collection_for(layout, &r.child);
            let arr = r.array_field();
            let value = param(format!("{}.{by}", r.child));
            let note = format!("{}: parents by child {by}", r.name);
            let child_lookup = Command::new(
                i,
                &ccoll,
                Find,
                doc! { by.as_str(): value.clone() },
                format!("{}: children with that {by}", r.name),
            );
            match s {
                Strategy::Embed | Strategy::EmbedSubset { .. } => {
                    out.push(Command::new(
                        i,
                        &pcoll,
                        Find,
                        doc! { format!("{arr}.{by}"): value },
                        note,
                    ));
                }
                Strategy::ExtendedReference { copy } if copy.contains(by) => {
                    out.push(Command::new(
                        i,
                        &pcoll,
                        Find,
                        doc! { format!("{arr}.{by}"): value },
                        note,
                    ));
                }
                Strategy::ExtendedReference { .. } => {
                    out.push(child_lookup);
                    out.push(Command::new(
                        i,
                        &pcoll,
                        Find,
                        doc! { format!("{arr}._id"): { "$in": param("children._id") } },
                        note,
                    ));
                }
                Strategy::ReferenceInParent | Strategy::Continuation { .. } => {
                    out.push(child_lookup);
                    out.push(Command::new(
                        i,
                        &pcoll,
                        Find,
                        doc! { arr: { "$in": param("children._id") } },
                        note,
                    ));
                }
                Strategy::ReferenceInChild { .. } | Strategy::TwoWay => {
                    out.push(child_lookup);
                    out.push(Command::new(
                        i,
                        &pcoll,
                        Find,
                        doc! { "_id": { "$in": param(format!("children.{}", r.parent_ref())) } },
                        note,
                    ));
                }
                Strategy::LinkCollection => {
                    out.push(child_lookup);
                    out.push(Command::new(
                        i,
                        &r.name,
                        Find,
                        doc! { child_ref(r): { "$in": param("children._id") } },
                        format!("{}: links of those children", r.name),
                    ));
                    out.push(Command::new(
                        i,
                        &pcoll,
                        Find,
                        doc! { "_id": { "$in": param(format!("links.{}", r.parent_ref())) } },
                        note,
                    ));
                }
                Strategy::Bucket { .. } => {
                    let bcoll = relationship_collection_name(r, s);
                    let f = if r.many_to_many {
                        doc! { arr: { "$in": param("children._id") } }
                    } else {
                        doc! { format!("{arr}.{by}"): value }
                    };
                    if r.many_to_many {
                        out.push(child_lookup);
                    }
                    out.push(Command::new(
                        i,
                        &bcoll,
                        Find,
                        f,
                        format!("{}: buckets holding them", r.name),
                    ));
                    out.push(Command::new(
                        i,
                        &pcoll,
                        Find,
                        doc! { "_id": { "$in": param(format!("buckets.{}", r.parent_ref())) } },
                        note,
                    ));
                }
                _ => {}
            }
        }
        Step::ReadFeed {
            relationship,
            page_size,
        } => {
            let Some(r) = model.relationship(relationship) else {
                return;
            };
            let Some(s) = layout.strategy(&r.name) else {
                return;
            };
            let coll = relationship_collection_name(r, s);
            let date = model
                .entity(r.feed.as_deref().unwrap_or_default())
                .and_then(|e| {
                    e.fields
                        .iter()
                        .find(|(_, f)| f.ty == crate::model::BsonType::Date)
                        .map(|(n, _)| n.clone())
                })
                .unwrap_or_else(|| "_id".into());
            let me = param("me._id");
            let mut c = match s {
                Strategy::FanOutOnRead => {
                    Command::new(i, &coll, Find, doc! { "to": me }, "items addressed to me")
                }
                Strategy::FanOutOnWrite => {
                    Command::new(i, &coll, Find, doc! { "owner": me }, "my copies")
                }
                Strategy::BucketedFanOut { .. } => {
                    Command::new(i, &coll, Find, doc! { "owner": me }, "my newest bucket")
                }
                _ => return,
            };
            if let Strategy::BucketedFanOut { size } = s {
                // The article's two reads: the newest bucket (partly filled), then as many
                // older ones as the page needs.
                c.sort = Some(doc! { "sequence": -1 });
                c.limit = Some(1);
                out.push(c);
                let mut older = Command::new(
                    i,
                    &coll,
                    Find,
                    doc! { "owner": param("me._id"), "sequence": { "$lt": param("newest.first.sequence") } },
                    "the buckets before it, to fill the page",
                );
                older.sort = Some(doc! { "sequence": -1 });
                older.limit = Some(page_size.div_ceil(*size).max(1));
                out.push(older);
                return;
            } else {
                c.sort = Some(doc! { date: -1 });
                c.limit = Some(*page_size);
            }
            out.push(c);
        }
        Step::FindByAttribute {
            entity,
            field,
            key,
            above,
        } => {
            let coll = collection_for(layout, entity);
            let pattern = model.design.fields.iter().find_map(|p| match p {
                FieldPattern::Attribute {
                    entity: e,
                    field: f,
                    form,
                    key,
                    value,
                } if e == entity && f == field => Some((*form, key.clone(), value.clone())),
                _ => None,
            });
            let cond = |above: Option<f64>| -> bson::Bson {
                match above {
                    Some(a) => doc! { "$gt": a }.into(),
                    None => doc! { "$exists": true }.into(),
                }
            };
            let (filter, note) = match pattern {
                Some((AttributeForm::Keyed, kf, _)) => {
                    let keys = model
                        .entity(entity)
                        .and_then(|e| e.fields.get(field))
                        .and_then(|f| f.fields.get(&kf))
                        .map(|k| k.values.clone())
                        .unwrap_or_default();
                    match key {
                        Some(k) => (
                            doc! { format!("{field}.{k}"): cond(*above) },
                            format!("{field}.{k}: the key is part of the path"),
                        ),
                        None => {
                            let clauses: Vec<bson::Bson> = keys
                                .iter()
                                .map(|k| doc! { format!("{field}.{k}"): cond(*above) }.into())
                                .collect();
                            (
                                doc! { "$or": clauses },
                                format!("any key of {field}: every key named ({})", keys.len()),
                            )
                        }
                    }
                }
                Some((AttributeForm::Flattened, kf, vf)) => {
                    let mut f = Document::new();
                    if let Some(k) = key {
                        f.insert(kf, k.clone());
                    }
                    if above.is_some() || key.is_none() {
                        f.insert(vf, cond(*above));
                    }
                    (f, format!("one row per {field} element"))
                }
                form => {
                    let (kf, vf) = form.map_or_else(
                        || ("key".to_string(), "value".to_string()),
                        |(_, k, v)| (k, v),
                    );
                    let f = match (key, above) {
                        (Some(k), Some(a)) => {
                            doc! { field.as_str(): { "$elemMatch": { kf: k.clone(), vf: { "$gt": a } } } }
                        }
                        (Some(k), None) => doc! { format!("{field}.{kf}"): k.clone() },
                        (None, a) => doc! { format!("{field}.{vf}"): cond(*a) },
                    };
                    (f, format!("{field} as an array: one multikey index"))
                }
            };
            out.push(Command::new(i, &coll, Find, filter, note));
        }
        Step::List {
            entity,
            by,
            sort,
            limit,
            fields,
            page,
            paging,
        } => {
            let coll = collection_for(layout, entity);
            let mut filter = Document::new();
            if let Some(b) = by {
                // By an array field (a tag): one of its values, which a multikey index
                // bounds to a point, not the whole array.
                let is_array = model
                    .entity(entity)
                    .and_then(|e| e.fields.get(b))
                    .is_some_and(|f| f.ty == crate::model::BsonType::Array);
                let name = if is_array {
                    format!("{entity}.{b}.$first")
                } else {
                    format!("{entity}.{b}")
                };
                filter.insert(b.clone(), param(name));
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
            let mut f = Command::new(i, &coll, Find, filter, note);
            f.sort = Some(doc! { sort.field.as_str(): sort.order });
            f.limit = Some(*limit);
            f.skip = skip;
            f.page_offset = page_offset;
            if !fields.is_empty() {
                let mut p = Document::new();
                for name in fields {
                    p.insert(name.clone(), 1);
                }
                if !fields.iter().any(|n| n == "_id") {
                    p.insert("_id", 0);
                }
                f.projection = Some(p);
            }
            out.push(f);
        }
        _ => {}
    }
}

/// Returns true when a child read needs nothing but the children's ids (`fields: ["_id"]`),
/// which references already hold.
fn ids_only(fields: &[String]) -> bool {
    !fields.is_empty() && fields.iter().all(|f| f == "_id")
}
