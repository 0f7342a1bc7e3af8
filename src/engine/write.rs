//! Inserts, updates (with upsert), findOneAndUpdate and deletes: mongod's checks (generated
//! `_id`, `$`-prefixed names, nesting depth, the 16 MiB limit, immutable `_id`, unique keys)
//! before anything changes, and the write statistics.

use super::{CommandResult, Database, FindCommand, UpdateCommand};
use crate::engine::compare::{compare, shell};
use crate::engine::error::{EngineError, Result};
use crate::engine::planner::{self, Query};
use crate::engine::query::{positional_match, Filter, PathOp};
use crate::engine::returned::Returned;
use crate::engine::stats::Stats;
use crate::engine::update::{self, UpdateContext, UpdateSpec};
use crate::engine::{exec, index::RecordId};
use crate::size::{document_size, MAX_BSON_SIZE};
use bson::{Bson, Document, RawDocumentBuf};
use std::borrow::Cow;

/// The records a write's query matched, its read statistics and its plan.
type Matched = (Vec<(RecordId, Returned)>, Stats, crate::engine::PlanStage);

/// The documented nesting limit the engine enforces (the top-level document is level 1).
pub const MAX_DEPTH: usize = 100;

/// Returns the nesting depth of a document (1 for a flat document).
pub fn depth(d: &Document) -> usize {
    1 + d.values().map(value_depth).max().unwrap_or(0)
}

fn value_depth(v: &Bson) -> usize {
    match v {
        Bson::Document(d) => depth(d),
        Bson::Array(a) => 1 + a.iter().map(value_depth).max().unwrap_or(0),
        _ => 0,
    }
}

fn check_id(v: &Bson) -> Result<()> {
    match v {
        Bson::Array(_) => Err(EngineError::new(
            53,
            "InvalidIdField",
            "can't use an array for _id",
        )),
        Bson::RegularExpression(_) => Err(EngineError::new(
            53,
            "InvalidIdField",
            "can't use a regex for _id",
        )),
        Bson::Undefined => Err(EngineError::new(
            53,
            "InvalidIdField",
            "can't use a undefined for _id",
        )),
        Bson::Document(d) if d.keys().any(|k| k.starts_with('$')) => Err(EngineError::new(
            53,
            "InvalidIdField",
            "_id fields may not contain '$'-prefixed fields",
        )),
        _ => Ok(()),
    }
}

/// Checks a document about to be stored: depth, size (`update`: code 17419, else 10334).
fn check_stored(d: &Document, update: bool) -> Result<u64> {
    let dep = depth(d);
    if dep > MAX_DEPTH {
        return Err(EngineError::too_deep(dep));
    }
    let size = document_size(d);
    if size > MAX_BSON_SIZE {
        return Err(if update {
            EngineError::update_too_large(size)
        } else {
            EngineError::too_large(size)
        });
    }
    Ok(size)
}

/// Returns a document checked and encoded for storage, with its size: the depth checked
/// first, then the size read from the encoded bytes (the same figure and error as
/// [`check_stored`] without measuring the document a second time). A document that cannot
/// be encoded (a name with a NUL byte) is checked as before and returned without bytes, so
/// the write fails where and as it failed when the collection encoded it.
fn stored_form(d: &Document, update: bool) -> Result<(Option<RawDocumentBuf>, u64)> {
    let dep = depth(d);
    if dep > MAX_DEPTH {
        return Err(EngineError::too_deep(dep));
    }
    let Ok(raw) = crate::engine::collection::encode(d) else {
        return Ok((None, check_stored(d, update)?));
    };
    let size = raw.as_bytes().len() as u64;
    if size > MAX_BSON_SIZE {
        return Err(if update {
            EngineError::update_too_large(size)
        } else {
            EngineError::too_large(size)
        });
    }
    Ok((Some(raw), size))
}

/// Returns true when two documents encode to the same bytes (an update that changes nothing
/// is matched, not modified), compared field by field without encoding either. A name with a
/// NUL byte cannot be encoded: such documents are never the same, as when they were encoded.
fn same_bytes(a: &Document, b: &Document) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b.iter())
            .all(|((ka, va), (kb, vb))| ka == kb && !ka.contains('\0') && same_value_bytes(va, vb))
}

/// Returns true when two values encode to the same bytes: the same type and the same value
/// bit for bit (a double by its bits: `-0.0` differs from `0.0`, NaN equals the same NaN).
fn same_value_bytes(a: &Bson, b: &Bson) -> bool {
    match (a, b) {
        (Bson::Double(x), Bson::Double(y)) => x.to_bits() == y.to_bits(),
        (Bson::Document(x), Bson::Document(y)) => same_bytes(x, y),
        (Bson::Array(x), Bson::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_value_bytes(p, q))
        }
        (Bson::JavaScriptCodeWithScope(x), Bson::JavaScriptCodeWithScope(y)) => {
            x.code == y.code && same_bytes(&x.scope, &y.scope)
        }
        _ => a.element_type() == b.element_type() && a == b,
    }
}

/// Returns true when an update left the stored document byte for byte as it was (matched,
/// not modified): the stored bytes compared with the new ones when both exist, else the
/// documents field by field.
fn unchanged(old: &Returned, new: &Document, new_raw: Option<&RawDocumentBuf>) -> bool {
    match (old.raw(), new_raw) {
        (Some(a), Some(b)) => a.as_bytes() == b.as_bytes(),
        _ => same_bytes(old, new),
    }
}

impl Database {
    /// Prepares a document for insertion as mongod does: `_id` first (generated when
    /// missing), no `$`-prefixed top-level names, within depth and size limits.
    fn prepare_insert<'d>(
        &mut self,
        doc: Cow<'d, Document>,
    ) -> Result<(Cow<'d, Document>, Option<RawDocumentBuf>, u64)> {
        if let Some(k) = doc.keys().find(|k| k.starts_with('$')) {
            return Err(EngineError::bad_value(format!(
                "Document can't have $ prefixed field names: {k}"
            )));
        }
        if let Some((_, id)) = doc.iter().next().filter(|(k, _)| *k == "_id") {
            // `_id` first already: the document is stored as it is.
            check_id(id)?;
            let (raw, size) = stored_form(&doc, false)?;
            return Ok((doc, raw, size));
        }
        let id = match doc.get("_id") {
            Some(v) => {
                check_id(v)?;
                v.clone()
            }
            None => Bson::ObjectId(self.next_object_id()),
        };
        let mut out = Document::new();
        out.insert("_id", id);
        for (k, v) in doc.into_owned() {
            if k != "_id" {
                out.insert(k, v);
            }
        }
        let (raw, size) = stored_form(&out, false)?;
        Ok((Cow::Owned(out), raw, size))
    }

    /// `insertMany`: ordered stops at the first error (the error tells how many were
    /// inserted); unordered inserts the rest and reports the first error.
    pub fn insert_many(
        &mut self,
        collection: &str,
        docs: Vec<Document>,
        ordered: bool,
    ) -> Result<CommandResult> {
        self.insert_each(collection, docs.into_iter().map(Cow::Owned), ordered)
    }

    /// `insertMany` of borrowed documents, as [`Database::insert_many`] inserts them: a
    /// document that already has `_id` first is encoded where it is, not copied (the
    /// evaluation inserts its whole sample this way).
    pub fn insert_many_borrowed(
        &mut self,
        collection: &str,
        docs: &[Document],
        ordered: bool,
    ) -> Result<CommandResult> {
        self.insert_each(collection, docs.iter().map(Cow::Borrowed), ordered)
    }

    fn insert_each<'d>(
        &mut self,
        collection: &str,
        docs: impl Iterator<Item = Cow<'d, Document>>,
        ordered: bool,
    ) -> Result<CommandResult> {
        let mut r = CommandResult::default();
        let mut first_error: Option<EngineError> = None;
        for doc in docs {
            let result = self.prepare_insert(doc).and_then(|(d, raw, size)| {
                let id = d.get("_id").cloned().unwrap_or(Bson::Null);
                let (_, keys) = self.collection_mut(collection).insert_doc(&d, raw)?;
                Ok((id, size, keys))
            });
            match result {
                Ok((id, size, keys)) => {
                    r.inserted_ids.push(id);
                    r.stats.write.n_inserted += 1;
                    r.stats.write.docs_written += 1;
                    r.stats.write.bytes_written += size;
                    r.stats.write.index_keys_written += keys;
                }
                Err(e) => {
                    if ordered {
                        return Err(e.with_inserted(r.stats.write.n_inserted));
                    }
                    first_error.get_or_insert(e);
                }
            }
        }
        match first_error {
            Some(e) => Err(e.with_inserted(r.stats.write.n_inserted)),
            None => Ok(r),
        }
    }

    /// Plans a write's query and runs the plan under its projection (a write projects the one
    /// document it returns itself): the stored documents that match, the statistics, the plan.
    fn matching(&self, collection: &str, q: &Query) -> Result<Matched> {
        let plan = planner::plan(self.collections.get(collection), q)?;
        let (found, mut stats) =
            exec::execute_shared(&self.collections, collection, plan.unprojected())?;
        stats.exec.execution_stages = Some(plan.clone());
        let found = found
            .into_iter()
            .filter_map(|(rid, d)| Some((rid?, d)))
            .collect();
        Ok((found, stats, plan))
    }

    /// Returns the new version of `old` under the update, checked (`_id` unchanged, limits),
    /// with its bytes for storage (see [`stored_form`]) and its size.
    fn updated(
        &self,
        old: &Returned,
        spec: &UpdateSpec,
        filter: &Filter,
        ctx: &UpdateContext,
    ) -> Result<(Document, Option<RawDocumentBuf>, u64)> {
        let old_id = old.field("_id");
        let new = match spec {
            UpdateSpec::Replacement(r) => {
                let mut n = Document::new();
                if let Some(id) = &old_id {
                    n.insert("_id", id.clone());
                }
                for (k, v) in r {
                    if k == "_id" {
                        if old_id.as_ref().is_some_and(|o| compare(o, v).is_ne()) {
                            return Err(EngineError::immutable_id());
                        }
                        continue;
                    }
                    n.insert(k.clone(), v.clone());
                }
                n
            }
            UpdateSpec::Operators(ops) => {
                // A fresh decode of the stored bytes (one copy, where decoding the result
                // and cloning it made two); until the operators run it is the old document.
                let mut n = match old.raw() {
                    Some(raw) => crate::engine::collection::decode(raw)?,
                    None => old.document().clone(),
                };
                let ctx = UpdateContext {
                    positional: positional_match(filter, &n),
                    ..ctx.clone()
                };
                update::apply(&mut n, ops, &ctx)?;
                match (old_id.as_ref(), n.get("_id")) {
                    (Some(a), Some(b))
                        if compare(a, b).is_eq()
                            && crate::engine::compare::rank(a)
                                == crate::engine::compare::rank(b) => {}
                    (None, _) => {}
                    _ => return Err(EngineError::immutable_id()),
                }
                n
            }
        };
        let (raw, size) = stored_form(&new, true)?;
        Ok((new, raw, size))
    }

    /// Returns the document an upsert inserts: the filter's equality fields, then the update.
    fn upsert_doc(
        &mut self,
        filter: &Filter,
        spec: &UpdateSpec,
        ctx: &UpdateContext,
    ) -> Result<Document> {
        let mut base = Document::new();
        for c in filter.conjuncts() {
            if let Filter::Path {
                path,
                op: PathOp::Eq(v),
                ..
            } = c
            {
                if path.split('.').any(|p| p.starts_with('$')) {
                    continue;
                }
                let parts: Vec<String> = path.split('.').map(str::to_string).collect();
                update::fields::set(&mut base, &parts, v.clone())?;
            }
        }
        let mut doc = match spec {
            UpdateSpec::Replacement(r) => {
                let mut d = Document::new();
                if let Some(id) = base.get("_id") {
                    d.insert("_id", id.clone());
                }
                d.extend(r.clone());
                d
            }
            UpdateSpec::Operators(ops) => {
                let ctx = UpdateContext {
                    inserting: true,
                    positional: None,
                    ..ctx.clone()
                };
                update::apply(&mut base, ops, &ctx)?;
                base
            }
        };
        let id = match doc.get("_id") {
            Some(id) => {
                check_id(id)?;
                id.clone()
            }
            None => Bson::ObjectId(self.next_object_id()),
        };
        // mongod stores _id first.
        let mut d = Document::new();
        d.insert("_id", id);
        doc.remove("_id");
        d.extend(doc);
        doc = d;
        Ok(doc)
    }

    fn parse_update(u: &UpdateCommand) -> Result<(UpdateSpec, UpdateContext)> {
        let spec = UpdateSpec::parse(&u.update)?;
        match (&spec, u.replace) {
            (UpdateSpec::Replacement(_), false) if u.multi => {
                return Err(EngineError::failed_to_parse(
                    "multi update is not supported for replacement-style update",
                ))
            }
            (UpdateSpec::Operators(_), true) => {
                return Err(EngineError::failed_to_parse(
                    "Replacement document must not contain atomic operators",
                ))
            }
            _ => {}
        }
        let ctx = UpdateContext {
            array_filters: update::parse_array_filters(&u.array_filters)?,
            ..Default::default()
        };
        Ok((spec, ctx))
    }

    /// `updateOne` / `updateMany` / `replaceOne`, with upsert.
    pub fn update(&mut self, collection: &str, u: &UpdateCommand) -> Result<CommandResult> {
        let (spec, mut ctx) = Self::parse_update(u)?;
        ctx.now_millis = self.now();
        let mut q = Query::filter(Filter::parse(&u.filter)?);
        q.hint = u.hint.clone();
        if !u.multi {
            q.limit = Some(1);
        }
        let (found, mut stats, plan) = self.matching(collection, &q)?;
        let mut r = CommandResult {
            plan: Some(plan),
            ..Default::default()
        };
        for (rid, old) in found {
            stats.write.n_matched += 1;
            let (new, raw, size) = self.updated(&old, &spec, &q.filter, &ctx)?;
            if unchanged(&old, &new, raw.as_ref()) {
                continue;
            }
            let keys = self
                .collection_mut(collection)
                .replace_doc(rid, &new, raw)?;
            stats.write.n_modified += 1;
            stats.write.docs_written += 1;
            stats.write.bytes_written += size;
            stats.write.index_keys_written += keys;
        }
        if stats.write.n_matched == 0 && u.upsert {
            let doc = self.upsert_doc(&q.filter, &spec, &ctx)?;
            let (raw, size) = stored_form(&doc, true)?;
            let id = doc.get("_id").cloned().unwrap_or(Bson::Null);
            let (_, keys) = self.collection_mut(collection).insert_doc(&doc, raw)?;
            r.inserted_ids.push(id);
            stats.write.n_upserted = 1;
            stats.write.docs_written += 1;
            stats.write.bytes_written += size;
            stats.write.index_keys_written += keys;
        }
        r.stats = stats;
        Ok(r)
    }

    /// `deleteOne` / `deleteMany`.
    pub fn delete(
        &mut self,
        collection: &str,
        filter: &Document,
        multi: bool,
    ) -> Result<CommandResult> {
        let mut q = Query::filter(Filter::parse(filter)?);
        if !multi {
            q.limit = Some(1);
        }
        let (found, mut stats, plan) = self.matching(collection, &q)?;
        if let Some(c) = self.collections.get_mut(collection) {
            for (rid, _) in found {
                stats.write.index_keys_written += c.delete_doc(rid);
                stats.write.n_deleted += 1;
                stats.write.docs_written += 1;
            }
        }
        Ok(CommandResult {
            stats,
            plan: Some(plan),
            ..Default::default()
        })
    }

    /// `findOneAndUpdate`: updates the first document in sort order and returns it as it was
    /// before (default) or after the update, projected.
    pub fn find_one_and_update(
        &mut self,
        collection: &str,
        find: &FindCommand,
        u: &UpdateCommand,
        return_new: bool,
    ) -> Result<CommandResult> {
        let (spec, mut ctx) = Self::parse_update(u)?;
        ctx.now_millis = self.now();
        let mut q = Self::parse_query(&FindCommand {
            limit: Some(1),
            ..find.clone()
        })?;
        if !u.filter.is_empty() && find.filter.is_empty() {
            q.filter = Filter::parse(&u.filter)?;
        }
        let (found, mut stats, plan) = self.matching(collection, &q)?;
        let mut r = CommandResult {
            plan: Some(plan),
            ..Default::default()
        };
        // The reply is projected before anything is written: a projection that fails on the
        // document leaves the collection as it was (a failed command changes nothing).
        let projection = q.projection.clone();
        let project = |d: Document| -> Result<Returned> {
            Ok(Returned::from(match &projection {
                Some(p) => p.apply(&d)?,
                None => d,
            }))
        };
        let reply = match found.into_iter().next() {
            Some((rid, old)) => {
                stats.write.n_matched = 1;
                let (new, raw, size) = self.updated(&old, &spec, &q.filter, &ctx)?;
                let same = unchanged(&old, &new, raw.as_ref());
                let reply = project(if return_new {
                    new.clone()
                } else {
                    old.into_document()
                })?;
                if !same {
                    let keys = self
                        .collection_mut(collection)
                        .replace_doc(rid, &new, raw)?;
                    stats.write.n_modified = 1;
                    stats.write.docs_written = 1;
                    stats.write.bytes_written = size;
                    stats.write.index_keys_written = keys;
                }
                Some(reply)
            }
            None if u.upsert => {
                let doc = self.upsert_doc(&q.filter, &spec, &ctx)?;
                let (raw, size) = stored_form(&doc, true)?;
                let reply = if return_new {
                    Some(project(doc.clone())?)
                } else {
                    None
                };
                r.inserted_ids
                    .push(doc.get("_id").cloned().unwrap_or(Bson::Null));
                let (_, keys) = self.collection_mut(collection).insert_doc(&doc, raw)?;
                stats.write.n_upserted = 1;
                stats.write.docs_written = 1;
                stats.write.bytes_written = size;
                stats.write.index_keys_written = keys;
                reply
            }
            None => None,
        };
        r.documents.extend(reply);
        stats.exec.n_returned = r.documents.len() as u64;
        r.stats = stats;
        Ok(r)
    }
}

/// Returns a short description of a document's `_id` for messages.
pub fn describe_id(d: &Document) -> String {
    d.get("_id").map(shell).unwrap_or_else(|| "null".into())
}

#[cfg(test)]
mod tests {
    use super::same_bytes;
    use bson::{doc, Document};

    /// The field-by-field comparison agrees with comparing the encoded bytes.
    #[test]
    fn same_bytes_agrees_with_the_encoding() {
        let cases: Vec<(Document, Document)> = vec![
            (
                doc! {"a": 1, "b": [1, {"c": "x"}]},
                doc! {"a": 1, "b": [1, {"c": "x"}]},
            ),
            (doc! {"a": 1, "b": 2}, doc! {"b": 2, "a": 1}),
            (doc! {"a": 1}, doc! {"a": 1_i64}),
            (doc! {"a": 1}, doc! {"a": 1.0}),
            (doc! {"a": 0.0}, doc! {"a": -0.0}),
            (doc! {"a": f64::NAN}, doc! {"a": f64::NAN}),
            (doc! {"a": [1, 2]}, doc! {"a": [1, 2, 3]}),
            (
                doc! {"a": {"b": null}},
                doc! {"a": {"b": bson::Bson::Undefined}},
            ),
            (doc! {"a": "x"}, doc! {"a": "x", "b": 1}),
        ];
        for (a, b) in cases {
            let encoded = a.to_vec().ok() == b.to_vec().ok();
            assert_eq!(same_bytes(&a, &b), encoded, "{a} vs {b}");
        }
    }
}
