//! Binding `{"$param": "user._id"}` placeholders to values from the materialized sample: the
//! subject documents, earlier commands' results (`children`, `links`) and fresh documents for
//! inserts (`child`, `item`).

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use bson::{Bson, Document};

use crate::design::{Layout, Strategy};
use crate::generate::{document_from_fields, document_quantile, entity_oid, mix, Dataset};
use crate::model::{Model, Step};

/// The values a unit's commands are bound to, for one subject (typical or largest).
pub(super) struct Binder<'a> {
    pub model: &'a Model,
    pub layout: &'a Layout,
    pub data: &'a Dataset,
    pub largest: bool,
    /// Results of earlier commands: `children`, `links`.
    pub results: BTreeMap<String, Vec<crate::engine::Returned>>,
    /// The full-scale documents each of those earlier commands returns (`links` → 1,000 for
    /// a product whose sample holds none of its links): a list bound empty from a result
    /// that is not empty at full scale is a small sample's, not the subject's.
    pub full_counts: BTreeMap<String, f64>,
    /// Fresh values of the current step (`child`, `item`, `follower`).
    pub fresh: BTreeMap<String, Bson>,
    /// Subjects already found, by entity (a subject can be a large document: found once).
    pub cache: RefCell<BTreeMap<String, Option<Rc<Found<'a>>>>>,
    /// When set, every document each sent command returned, with its step: what the logical
    /// answer check ([`super::answer`]) reads of a run.
    pub returned: Option<Vec<(usize, Vec<Document>)>>,
}

/// A subject document, its index in its collection and its quantile.
pub(super) type Found<'a> = (Cow<'a, Document>, usize, f64);

/// Returns the index of the typical document (quantile closest to 0.5) among `n` documents
/// of `key` (`collection/label`); document 0 is the largest.
pub(super) fn typical_index(seed: u64, key: &str, n: usize) -> usize {
    if n <= 2 {
        return n.saturating_sub(1);
    }
    (2..n)
        .min_by(|&a, &b| {
            let qa = (document_quantile(seed, key, a as u64) - 0.5).abs();
            let qb = (document_quantile(seed, key, b as u64) - 0.5).abs();
            qa.total_cmp(&qb)
        })
        .unwrap_or(0)
}

/// Returns the value at a dotted path, arrays of sub-documents flattened (`items.sku`).
pub(super) fn get_path(d: &Document, path: &str) -> Option<Bson> {
    let (head, rest) = match path.split_once('.') {
        Some((h, r)) => (h, Some(r)),
        None => (path, None),
    };
    let v = d.get(head)?;
    match (rest, v) {
        (None, v) => Some(v.clone()),
        (Some("$first"), Bson::Array(a)) => a.first().cloned(),
        (Some(crate::design::plan::LAST), Bson::Array(a)) => a.last().cloned(),
        (Some(r), Bson::Document(sub)) => get_path(sub, r),
        (Some(r), Bson::Array(a)) => Some(Bson::Array(
            a.iter()
                .filter_map(|e| match e {
                    Bson::Document(s) => get_path(s, r),
                    _ => None,
                })
                .collect(),
        )),
        _ => None,
    }
}

impl<'a> Binder<'a> {
    /// Returns the subject document of an entity and its index and quantile: the largest or
    /// the typical document of its collection, or an element embedded in its parent's.
    pub fn subject(&self, entity: &str) -> Option<Rc<Found<'a>>> {
        if let Some(hit) = self.cache.borrow().get(entity) {
            return hit.clone();
        }
        let found = self.find_subject(entity).map(Rc::new);
        self.cache
            .borrow_mut()
            .insert(entity.to_string(), found.clone());
        found
    }

    /// Returns the `_id` of the typical (or the largest) sample document of `entity`'s own
    /// collection other than `not`: an existing child that a many-to-many step links (the
    /// user who follows), as typical or as large as the run's subject.
    pub fn existing(&self, entity: &str, not: Option<&Bson>) -> Option<Bson> {
        let c = self.layout.collection_of(entity)?;
        let g = self.data.collection(&c.name)?;
        let key = format!("{}/{entity}", c.name);
        let (start, n) = self.shape_range(c, entity, g.documents.len());
        let mut order: Vec<usize> = (0..n).collect();
        if !self.largest {
            // As `typical_index`: the quantile closest to 0.5, after the largest and the p99.
            let off = |i: usize| -> f64 {
                if i < 2 {
                    f64::INFINITY
                } else {
                    (document_quantile(self.model.seed, &key, i as u64) - 0.5).abs()
                }
            };
            order.sort_by(|&a, &b| off(a).total_cmp(&off(b)));
        }
        order
            .into_iter()
            .filter_map(|i| g.documents.get(start + i).and_then(|d| d.get("_id")))
            .find(|id| Some(*id) != not)
            .cloned()
    }

    /// Returns where the sample documents of `entity`'s shape begin among those of its
    /// collection `c` (after the documents of the shapes before it: a single collection holds
    /// the parents, then the children) and how many there are, at most `len` in all.
    fn shape_range(
        &self,
        c: &crate::design::Collection,
        entity: &str,
        len: usize,
    ) -> (usize, usize) {
        let count = |s: &crate::design::DocShape| self.model.sample.sample_count(s.count) as usize;
        let before: usize = c
            .shapes
            .iter()
            .take_while(|s| s.label != entity)
            .map(count)
            .sum();
        let start = before.min(len);
        let n = c
            .shape(entity)
            .map_or(len, count)
            .min(len.saturating_sub(start));
        (start, n)
    }

    fn find_subject(&self, entity: &str) -> Option<Found<'a>> {
        if let Some(c) = self.layout.collection_of(entity) {
            let g = self.data.collection(&c.name)?;
            let (start, n) = self.shape_range(c, entity, g.documents.len());
            let key = format!("{}/{entity}", c.name);
            let i = if self.largest {
                0
            } else {
                typical_index(self.model.seed, &key, n)
            };
            let q = document_quantile(self.model.seed, &key, i as u64);
            return g.documents.get(start + i).map(|d| (Cow::Borrowed(d), i, q));
        }
        // Embedded: the first element of the array in the parent's subject.
        let r = self.model.relationships.iter().find(|r| {
            r.child == entity
                && matches!(
                    self.layout.strategy(&r.name),
                    Some(Strategy::Embed | Strategy::Bucket { .. })
                )
        })?;
        let in_parent = matches!(self.layout.strategy(&r.name), Some(Strategy::Embed));
        let (p, i, q) = in_parent
            .then(|| {
                self.subject(&r.parent)
                    .map(|f| (Cow::clone(&f.0), f.1, f.2))
            })
            .flatten()
            .or_else(|| {
                let bucket = crate::design::names::relationship_collection_name(
                    r,
                    self.layout.strategy(&r.name)?,
                );
                let g = self.data.collection(&bucket)?;
                let i = if self.largest {
                    0
                } else {
                    g.documents.len() / 2
                };
                g.documents.get(i).map(|d| (Cow::Borrowed(d), i, 0.5))
            })?;
        match p.get(r.array_field()) {
            Some(Bson::Array(a)) => a.iter().find_map(|e| match e {
                Bson::Document(d) => Some((Cow::Owned(d.clone()), i, q)),
                _ => None,
            }),
            _ => None,
        }
    }

    /// Returns the value of parameter `name`, or `None` when nothing in the sample binds it.
    pub fn value(&self, name: &str) -> Option<Bson> {
        // `user.followers.concat(more.followers)`: both lists, one after the other (a
        // continuation chain's ids: the parent's, then its continuation documents').
        if let Some((a, b)) = name
            .strip_suffix(')')
            .and_then(|n| n.split_once(".concat("))
        {
            let list = |v: Option<Bson>| match v {
                Some(Bson::Array(a)) => a,
                Some(Bson::Null) | None => Vec::new(),
                Some(v) => vec![v],
            };
            let mut out = list(self.value(a));
            out.extend(list(self.value(b)));
            return Some(Bson::Array(out));
        }
        if let Some(v) = self.fresh.get(name) {
            return Some(v.clone());
        }
        let (head, rest) = name.split_once('.').unwrap_or((name, ""));
        if let Some(v) = self.fresh.get(head) {
            return match v {
                Bson::Document(d) if !rest.is_empty() => get_path(d, rest),
                other => Some(other.clone()),
            };
        }
        if let Some(docs) = self.results.get(head) {
            // `newest.first.sequence`: one value of the first result, not an array of all.
            if let Some(path) = rest.strip_prefix("first.") {
                return docs.first().and_then(|d| get_path(d, path));
            }
            let mut out = Vec::new();
            for d in docs {
                match get_path(d, rest) {
                    Some(Bson::Array(a)) => out.extend(a),
                    Some(v) => out.push(v),
                    None => {}
                }
            }
            return Some(Bson::Array(out));
        }
        match head {
            "new" => return self.new_value(rest),
            "old" => return self.old_value(rest),
            "next_sequence" => return Some(Bson::Int32(1_000_000)),
            "me" => {
                let e = self
                    .model
                    .relationships
                    .iter()
                    .find(|r| r.feed.is_some())
                    .map(|r| r.child.clone())?;
                return self.subject(&e).and_then(|f| get_path(&f.0, rest));
            }
            _ => {}
        }
        let f = self.subject(head)?;
        if rest.is_empty() {
            Some(Bson::Document(f.0.clone().into_owned()))
        } else {
            get_path(&f.0, rest)
        }
    }

    /// A new value for `entity.field` in an update: the same field of another document, so
    /// that the update really modifies.
    fn new_value(&self, field: &str) -> Option<Bson> {
        let entity = self.update_entity(field)?;
        let cur = self.subject(&entity)?;
        let old = get_path(&cur.0, field);
        let mut fields = self.model.entity(&entity)?.fields.clone();
        fields.0.retain(|(n, _)| n == field);
        for k in 0..8u64 {
            let d = document_from_fields(&fields, 0.5, mix(self.model.seed, &format!("new/{k}")));
            if let Some(v) = d.get(field) {
                if Some(v) != old.as_ref() {
                    return Some(v.clone());
                }
            }
        }
        Some(Bson::String("updated".into()))
    }

    /// The old value of an embedded entity's field (the element the update targets).
    fn old_value(&self, field: &str) -> Option<Bson> {
        let entity = self.update_entity(field)?;
        let d = self.subject(&entity)?;
        get_path(&d.0, field)
    }

    /// The entity an update step of the current unit changes, for `field`.
    fn update_entity(&self, field: &str) -> Option<String> {
        self.model.workload.iter().find_map(|u| {
            u.steps.iter().find_map(|s| match s {
                Step::Update {
                    entity,
                    field: f,
                    also,
                    ..
                } if f == field || also.iter().any(|a| a == field) => Some(entity.clone()),
                _ => None,
            })
        })
    }

    /// Returns a new document of `fields` with a fresh `_id` (deterministic).
    pub fn new_document(&self, fields: &crate::model::Fields, label: &str, n: u64) -> Document {
        let seed = mix(self.model.seed, &format!("new/{label}/{n}"));
        let mut d = document_from_fields(fields, 0.5, seed);
        if fields.get("_id").is_some() || d.contains_key("_id") {
            d.insert(
                "_id",
                Bson::ObjectId(entity_oid(self.model.seed, &format!("new/{label}"), n)),
            );
        }
        d
    }
}

/// Replaces every `{"$param": name}` in `v` with its bound value (unbound ones stay null).
pub(super) fn bind(v: &Bson, b: &Binder) -> Bson {
    match v {
        Bson::Document(d) => {
            if let (1, Some(Bson::String(p))) = (d.len(), d.get("$param")) {
                return b.value(p).unwrap_or(Bson::Null);
            }
            if let (1, Some(Bson::String(p))) = (
                d.len(),
                d.get(crate::design::command::CASE_INSENSITIVE_PARAM),
            ) {
                return match b.value(p) {
                    // A string holding NUL is no regex: it matches nothing, as null.
                    Some(Bson::String(s)) => {
                        match (
                            format!("^{}$", regex_lite::escape(&s)).try_into(),
                            "i".try_into(),
                        ) {
                            (Ok(pattern), Ok(options)) => {
                                Bson::RegularExpression(bson::Regex { pattern, options })
                            }
                            _ => Bson::Null,
                        }
                    }
                    Some(other) => other,
                    None => Bson::Null,
                };
            }
            Bson::Document(
                d.iter()
                    .map(|(k, v)| {
                        let k = &bind_key(k, b);
                        let x = bind(v, b);
                        // An unbound list is an empty one (nothing found earlier).
                        let x = if k == "$in" && x == Bson::Null {
                            Bson::Array(vec![])
                        } else {
                            x
                        };
                        (k.clone(), x)
                    })
                    .collect(),
            )
        }
        Bson::Array(a) => Bson::Array(a.iter().map(|x| bind(x, b)).collect()),
        other => other.clone(),
    }
}

/// Binds a document.
pub(super) fn bind_doc(d: &Document, b: &Binder) -> Document {
    d.iter()
        .map(|(k, v)| (bind_key(k, b), bind(v, b)))
        .collect()
}

/// Fills in a field name that names a parameter (`tier_and_details.${map_key}`: a new map
/// entry's key) with the parameter's string value; any other name as it is.
fn bind_key(k: &str, b: &Binder) -> String {
    let Some((head, rest)) = k.split_once("${") else {
        return k.to_string();
    };
    let Some((name, tail)) = rest.split_once('}') else {
        return k.to_string();
    };
    match b.value(name) {
        Some(Bson::String(s)) => format!("{head}{s}{tail}"),
        _ => k.to_string(),
    }
}
