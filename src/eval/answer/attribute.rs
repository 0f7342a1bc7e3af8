//! The logical answer of `find_by_attribute`: the documents that hold an attribute with the
//! step's key (any, when it names none) whose value is above its bound (any value, when it
//! names none). Each document's attributes are decoded from the form the design lays them
//! out in (a keyed sub-document, an array of `{k, v}`, one row per attribute), so a filter
//! that names too few keys, or matches the key in one element and the value in another,
//! returns another set of documents than this one.

use bson::{Bson, Document};

use super::{documents, Outcome};
use crate::design::plan::attribute_pattern;
use crate::design::Layout;
use crate::engine::compare::as_f64;
use crate::engine::Database;
use crate::model::design::AttributeForm;
use crate::model::Model;

/// The step being checked.
pub(super) struct Asked<'a> {
    pub entity: &'a str,
    pub field: &'a str,
    pub key: Option<&'a str>,
    pub above: Option<f64>,
}

/// Returns the attributes (key, value) document `d` holds in `field` under `form`.
fn attributes(
    d: &Document,
    field: &str,
    form: Option<AttributeForm>,
    kf: &str,
    vf: &str,
) -> Vec<(Bson, Bson)> {
    match form {
        Some(AttributeForm::Keyed) => match d.get(field) {
            Some(Bson::Document(sub)) => sub
                .iter()
                .map(|(k, v)| (Bson::String(k.clone()), v.clone()))
                .collect(),
            _ => Vec::new(),
        },
        Some(AttributeForm::Flattened) => match (d.get(kf), d.get(vf)) {
            (Some(k), Some(v)) => vec![(k.clone(), v.clone())],
            _ => Vec::new(),
        },
        Some(AttributeForm::KeyValue) | None => match d.get(field) {
            Some(Bson::Array(a)) => a
                .iter()
                .filter_map(|e| match e {
                    Bson::Document(e) => Some((e.get(kf)?.clone(), e.get(vf)?.clone())),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        },
    }
}

/// Checks a `find_by_attribute` step: the documents it returned (`returned`, the step's
/// top-level results) are exactly those of the entity's collection holding a matching
/// attribute.
pub(super) fn check(
    db: &Database,
    model: &Model,
    layout: &Layout,
    asked: &Asked,
    returned: &[Document],
) -> Option<Outcome> {
    let coll = layout.collection_of(asked.entity)?;
    let docs = documents(db, &coll.name);
    let pattern = attribute_pattern(model, asked.entity, asked.field);
    let form = pattern.as_ref().map(|(f, _, _)| *f);
    let (kf, vf) = pattern.map_or_else(
        || ("key".to_string(), "value".to_string()),
        |(_, k, v)| (k, v),
    );
    let matches = |(k, v): &(Bson, Bson)| {
        asked
            .key
            .is_none_or(|want| *k == Bson::String(want.to_string()))
            && asked.above.is_none_or(|a| as_f64(v).is_some_and(|x| x > a))
    };
    let expected: Vec<&Document> = docs
        .iter()
        .filter(|d| {
            attributes(d, asked.field, form, &kf, &vf)
                .iter()
                .any(matches)
        })
        .collect();
    let id = |d: &Document| d.get("_id").cloned();
    let got: Vec<Option<Bson>> = returned.iter().map(id).collect();
    let missing = expected.iter().filter(|d| !got.contains(&id(d))).count();
    let wanted: Vec<Option<Bson>> = expected.iter().map(|d| id(d)).collect();
    let extra = got.iter().filter(|g| !wanted.contains(g)).count();
    let what = match (asked.key, asked.above) {
        (Some(k), Some(a)) => format!("{} {k} above {a}", asked.field),
        (Some(k), None) => format!("{} {k}", asked.field),
        (None, Some(a)) => format!("any {} above {a}", asked.field),
        (None, None) => format!("any {}", asked.field),
    };
    let problem = match (missing, extra) {
        (0, 0) => None,
        (m, 0) => Some(format!(
            "{m} of the {} {} with {what} are not among what the plan returns",
            expected.len(),
            asked.entity
        )),
        (m, x) => Some(format!(
            "the plan returns {x} {} without {what} (and misses {m} of the {} with it)",
            asked.entity,
            expected.len()
        )),
    };
    Some(Outcome::Checked(problem))
}
