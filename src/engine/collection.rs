//! A collection: documents in natural (insertion) order plus its indexes, kept in step on
//! every write; a write that would break a unique index changes nothing.
//!
//! Each document is stored as raw BSON (one `RawDocumentBuf`, its bytes as a driver would
//! send them): a scan reads contiguous bytes instead of a tree of heap blocks, and a stored
//! document's BSON size is its length.

use crate::engine::columns::ColumnCache;
use crate::engine::error::{EngineError, Result};
use crate::engine::index::{Index, IndexKey, IndexOptions, RecordId};
use bson::{doc, Document, RawDocument, RawDocumentBuf};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The most indexes mongod allows on one collection.
pub const MAX_INDEXES: usize = 64;

/// A named collection of documents and its indexes (the first is always the unique `_id_`).
#[derive(Debug, Clone)]
pub struct Collection {
    /// The collection name.
    pub name: String,
    /// The namespace used in messages (`test.<name>`).
    pub namespace: String,
    /// The stored documents, shared: a copy of the database (the sample every run of the
    /// advisor starts from) shares every document's bytes until a write replaces them (`Arc`,
    /// not `Rc`: the page keeps a database in a reactive store, which asks for `Send`).
    pub(crate) docs: BTreeMap<RecordId, Arc<RawDocumentBuf>>,
    pub(crate) indexes: Vec<Index>,
    /// Columns for scans, dropped on every change to `docs`.
    pub(crate) columns: ColumnCache,
    next_rid: RecordId,
}

/// Returns the keys of `old` not in `new` and the keys of `new` not in `old` (each once, in
/// key order): what an update removes from and adds to an index. Sorted lists merged, so a
/// document whose 100,000 keys did not change costs two sorts and a walk, not two trees.
fn key_changes(mut old: Vec<IndexKey>, mut new: Vec<IndexKey>) -> (Vec<IndexKey>, Vec<IndexKey>) {
    old.sort();
    old.dedup();
    new.sort();
    new.dedup();
    let (mut gone, mut added) = (Vec::new(), Vec::new());
    let mut old = old.into_iter().peekable();
    let mut new = new.into_iter().peekable();
    loop {
        let order = match (old.peek(), new.peek()) {
            (Some(o), Some(n)) => o.cmp(n),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => break,
        };
        match order {
            std::cmp::Ordering::Less => gone.extend(old.next()),
            std::cmp::Ordering::Greater => added.extend(new.next()),
            std::cmp::Ordering::Equal => {
                old.next();
                new.next();
            }
        }
    }
    (gone, added)
}

/// Returns the document a stored (raw) document holds. Stored documents were encoded from
/// documents, so decoding fails only on corrupted memory: reported as error 1.
pub fn decode(raw: &RawDocument) -> Result<Document> {
    if let Some(d) = crate::engine::raw::decode(raw) {
        return Ok(d);
    }
    Document::try_from(raw).map_err(|e| {
        EngineError::new(
            1,
            "InternalError",
            format!("stored document unreadable: {e}"),
        )
    })
}

/// Returns a document encoded for storage (error 1 when it cannot be encoded: a checked
/// document always can).
pub fn encode(doc: &Document) -> Result<RawDocumentBuf> {
    if let Some(raw) = crate::engine::encode::encode(doc) {
        return Ok(raw);
    }
    RawDocumentBuf::try_from(doc)
        .map_err(|e| EngineError::new(1, "InternalError", format!("document not encodable: {e}")))
}

impl Collection {
    /// Returns an empty collection with its `_id_` index.
    pub fn new(db: &str, name: &str) -> Collection {
        let opts = IndexOptions {
            name: Some("_id_".into()),
            unique: true,
            ..Default::default()
        };
        let id_index = Index::new(&doc! {"_id": 1}, &opts).ok();
        Collection {
            name: name.to_string(),
            namespace: format!("{db}.{name}"),
            docs: BTreeMap::new(),
            indexes: id_index.into_iter().collect(),
            columns: ColumnCache::default(),
            next_rid: 1,
        }
    }

    /// Returns the number of documents.
    pub fn len(&self) -> usize {
        self.docs.len()
    }

    /// Returns true when the collection holds no document.
    pub fn is_empty(&self) -> bool {
        self.docs.is_empty()
    }

    /// Returns the stored (raw BSON) documents in natural order.
    pub fn documents(&self) -> impl Iterator<Item = &RawDocument> {
        self.docs.values().map(|d| d.as_ref().as_ref())
    }

    /// Returns the documents in natural order, decoded (a copy of each).
    pub fn decoded_documents(&self) -> Vec<Document> {
        self.docs.values().filter_map(|d| decode(d).ok()).collect()
    }

    /// Returns the indexes, `_id_` first.
    pub fn indexes(&self) -> &[Index] {
        &self.indexes
    }

    /// Returns the index with this name.
    pub fn index(&self, name: &str) -> Option<&Index> {
        self.indexes.iter().find(|i| i.spec.name == name)
    }

    /// Builds an index over the existing documents; returns its name and the keys written.
    /// An existing identical index is a no-op; nothing is created when a document violates it.
    pub fn create_index(
        &mut self,
        key: &Document,
        options: &IndexOptions,
    ) -> Result<(String, u64)> {
        let mut index = Index::new(key, options)?;
        for existing in &self.indexes {
            // Key patterns are ordered (`{a: 1, b: 1}` is not `{b: 1, a: 1}`); a document's
            // own equality ignores the order of its fields.
            let same_key = existing.spec.key.iter().eq(key.iter());
            if existing.spec.name == index.spec.name {
                if same_key
                    && existing.spec.unique == index.spec.unique
                    && existing.spec.sparse == index.spec.sparse
                    && existing.spec.collation == index.spec.collation
                {
                    return Ok((existing.spec.name.clone(), 0));
                }
                return Err(EngineError::new(
                    86,
                    "IndexKeySpecsConflict",
                    format!("An existing index has the same name as the requested index but different options: {}", index.spec.name),
                ));
            }
            // The same key pattern twice needs another partial filter or another collation.
            if same_key
                && existing.spec.partial_filter_expression == index.spec.partial_filter_expression
                && existing.spec.collation == index.spec.collation
            {
                return Err(EngineError::new(
                    85,
                    "IndexOptionsConflict",
                    format!(
                        "Index already exists with a different name: {}",
                        existing.spec.name
                    ),
                ));
            }
        }
        if self.indexes.len() >= MAX_INDEXES {
            return Err(EngineError::new(
                67,
                "CannotCreateIndex",
                format!(
                    "add index fails, too many indexes for {} key:{}",
                    self.namespace,
                    crate::engine::compare::shell_doc(key)
                ),
            ));
        }
        let mut written = 0;
        for (rid, d) in &self.docs {
            let (keys, arrays) = index.keys_for_raw(d)?;
            if let Some(k) = index.duplicate(&keys, *rid) {
                return Err(EngineError::duplicate_key(
                    &self.namespace,
                    &index.spec.name,
                    &index.describe_key(k),
                ));
            }
            index.multikey_paths.extend(arrays);
            for k in keys {
                if index.entries.insert((k, *rid)) {
                    written += 1;
                }
            }
        }
        let name = index.spec.name.clone();
        self.indexes.push(index);
        Ok((name, written))
    }

    /// Drops an index by name (`_id_` cannot be dropped).
    pub fn drop_index(&mut self, name: &str) -> Result<()> {
        if name == "_id_" {
            return Err(EngineError::new(
                72,
                "InvalidOptions",
                "cannot drop _id index",
            ));
        }
        let before = self.indexes.len();
        self.indexes.retain(|i| i.spec.name != name);
        if self.indexes.len() == before {
            return Err(EngineError::index_not_found(name));
        }
        Ok(())
    }

    fn all_keys(&self, doc: &Document) -> Result<Vec<(Vec<IndexKey>, Vec<String>)>> {
        self.indexes.iter().map(|i| i.keys_for(doc)).collect()
    }

    fn check_unique(&self, keys: &[(Vec<IndexKey>, Vec<String>)], rid: RecordId) -> Result<()> {
        for (index, (k, _)) in self.indexes.iter().zip(keys.iter()) {
            if let Some(dup) = index.duplicate(k, rid) {
                return Err(EngineError::duplicate_key(
                    &self.namespace,
                    &index.spec.name,
                    &index.describe_key(dup),
                ));
            }
        }
        Ok(())
    }

    /// Stores a new document (already checked for `_id`, size and depth), with its bytes
    /// when the caller encoded it; returns its record id and the index keys written. Nothing
    /// changes on a duplicate key.
    pub(crate) fn insert_doc(
        &mut self,
        doc: &Document,
        raw: Option<RawDocumentBuf>,
    ) -> Result<(RecordId, u64)> {
        let rid = self.next_rid;
        let keys = self.all_keys(doc)?;
        self.check_unique(&keys, rid)?;
        let raw = match raw {
            Some(raw) => raw,
            None => encode(doc)?,
        };
        let mut written = 0;
        for (index, (k, arrays)) in self.indexes.iter_mut().zip(keys) {
            index.multikey_paths.extend(arrays);
            for key in k {
                if index.entries.insert((key, rid)) {
                    written += 1;
                }
            }
        }
        self.docs.insert(rid, Arc::new(raw));
        self.columns.clear();
        self.next_rid += 1;
        Ok((rid, written))
    }

    /// Replaces a stored document (with its bytes when the caller encoded it); returns the
    /// index keys written (added plus removed).
    ///
    /// An index none of whose fields changed (see [`Index::keys_may_differ`]) is left as it
    /// is: its old and new keys are the same, so none would be removed, added, refused as a
    /// duplicate or marked multikey. Only the other indexes' keys are computed, for the old
    /// and the new document.
    pub(crate) fn replace_doc(
        &mut self,
        rid: RecordId,
        new: &Document,
        raw: Option<RawDocumentBuf>,
    ) -> Result<u64> {
        let Some(old) = self.docs.get(&rid) else {
            return Ok(0);
        };
        // Per index: `None` when its keys cannot have changed, else its old keys, its new
        // keys and the new array paths. Bytes the caller could not encode are not compared.
        let changes = self
            .indexes
            .iter()
            .map(|index| {
                if raw.as_ref().is_some_and(|r| !index.keys_may_differ(old, r)) {
                    return Ok(None);
                }
                let (old_keys, _) = index.keys_for_raw(old)?;
                let (new_keys, arrays) = index.keys_for(new)?;
                Ok(Some((old_keys, new_keys, arrays)))
            })
            .collect::<Result<Vec<_>>>()?;
        for (index, change) in self.indexes.iter().zip(&changes) {
            if let Some(dup) = change
                .as_ref()
                .and_then(|(_, new_keys, _)| index.duplicate(new_keys, rid))
            {
                return Err(EngineError::duplicate_key(
                    &self.namespace,
                    &index.spec.name,
                    &index.describe_key(dup),
                ));
            }
        }
        let raw = match raw {
            Some(raw) => raw,
            None => encode(new)?,
        };
        let mut written = 0;
        for (index, change) in self.indexes.iter_mut().zip(changes) {
            let Some((ok, nk, arrays)) = change else {
                continue;
            };
            let (gone, added) = key_changes(ok, nk);
            for k in gone {
                if index.entries.remove(&(k, rid)) {
                    written += 1;
                }
            }
            for k in added {
                if index.entries.insert((k, rid)) {
                    written += 1;
                }
            }
            index.multikey_paths.extend(arrays);
        }
        self.docs.insert(rid, Arc::new(raw));
        self.columns.clear();
        Ok(written)
    }

    /// Deletes a stored document; returns the index keys removed.
    pub(crate) fn delete_doc(&mut self, rid: RecordId) -> u64 {
        let Some(old) = self.docs.remove(&rid) else {
            return 0;
        };
        self.columns.clear();
        let mut written = 0;
        for index in &mut self.indexes {
            if let Ok((keys, _)) = index.keys_for_raw(&old) {
                for k in keys {
                    if index.entries.remove(&(k, rid)) {
                        written += 1;
                    }
                }
            }
        }
        written
    }
}

#[cfg(test)]
mod tests {
    use super::key_changes;
    use crate::engine::index::{IndexKey, KeyPart};
    use bson::Bson;

    fn keys(values: &[i32]) -> Vec<IndexKey> {
        values
            .iter()
            .map(|v| {
                vec![KeyPart {
                    value: Bson::Int32(*v),
                    desc: false,
                }]
            })
            .collect()
    }

    /// An update removes the keys only the old document had and adds those only the new has,
    /// each once, whatever order and repeats the lists come in.
    #[test]
    fn key_changes_are_the_two_differences() {
        let (gone, added) = key_changes(keys(&[3, 1, 2, 2]), keys(&[4, 2, 4, 5]));
        assert_eq!(gone, keys(&[1, 3]));
        assert_eq!(added, keys(&[4, 5]));
        let (gone, added) = key_changes(keys(&[1, 2]), keys(&[2, 1]));
        assert!(gone.is_empty() && added.is_empty());
    }

    /// The (key, record) entries of each index of a collection, by index name.
    fn entries(c: &super::Collection) -> Vec<(String, Vec<(IndexKey, u64)>)> {
        c.indexes()
            .iter()
            .map(|i| (i.spec.name.clone(), i.entries.iter().cloned().collect()))
            .collect()
    }

    /// A replaced document leaves each index as it would be had the new document been
    /// inserted in its place, and the keys written are exactly the entries that changed:
    /// an update touching only unindexed fields (or an unindexed field beside an indexed one
    /// under the same top-level field) writes none; one changing an indexed field, a partial
    /// filter's field or making a field an array updates that index (and marks it multikey).
    #[test]
    fn replacing_updates_exactly_the_indexes_whose_fields_changed() {
        use crate::engine::index::IndexOptions;
        use bson::{doc, Document};
        let with_indexes = || {
            let mut c = super::Collection::new("test", "c");
            let partial = IndexOptions {
                name: Some("partial".into()),
                partial_filter_expression: Some(doc! {"p": {"$gt": 0}}),
                ..Default::default()
            };
            let unique = IndexOptions {
                unique: true,
                ..Default::default()
            };
            for (key, opts) in [
                (doc! {"a": 1}, unique),
                (doc! {"b.c": 1, "a": -1}, IndexOptions::default()),
                (doc! {"q": 1}, partial),
            ] {
                assert!(c.create_index(&key, &opts).is_ok(), "{key}");
            }
            c
        };
        let first = doc! {"_id": 1, "a": 1, "b": {"c": 2, "d": 3}, "p": 1, "q": 4, "z": 0};
        let other = doc! {"_id": 2, "a": 7, "b": {"c": 5}, "p": 1, "q": 5};
        // (the document's next version, the index keys that replacing writes)
        let steps: Vec<(Document, u64)> = vec![
            (
                doc! {"_id": 1, "a": 1, "b": {"c": 2, "d": 3}, "p": 1, "q": 4, "z": 1},
                0,
            ),
            (
                doc! {"_id": 1, "a": 1, "b": {"c": 2, "d": 9}, "p": 1, "q": 4, "z": 1},
                0,
            ),
            (
                doc! {"_id": 1, "a": 2, "b": {"c": 2, "d": 9}, "p": 1, "q": 4, "z": 1},
                4,
            ),
            (
                doc! {"_id": 1, "a": 2, "b": {"c": 3, "d": 9}, "p": 1, "q": 4, "z": 1},
                2,
            ),
            (
                doc! {"_id": 1, "a": 2, "b": {"c": 3, "d": 9}, "p": 0, "q": 4, "z": 1},
                1,
            ),
            (
                doc! {"_id": 1, "a": 2, "b": {"c": 3, "d": 9}, "p": 2, "q": 4, "z": 1},
                1,
            ),
            (
                doc! {"_id": 1, "a": 2, "b": [{"c": 3}, {"c": 8}], "p": 2, "q": 4},
                1,
            ),
        ];
        let mut c = with_indexes();
        let inserted = c.insert_doc(&first, None).map(|(rid, _)| rid);
        assert_eq!(inserted.ok(), Some(1));
        assert!(c.insert_doc(&other, None).is_ok());
        for (next, want_written) in steps {
            let raw = super::encode(&next).ok();
            let written = c.replace_doc(1, &next, raw).map_err(|e| e.code);
            assert_eq!(written, Ok(want_written), "{next}");
            // The same documents inserted afresh (the first keeps its record id 1).
            let mut fresh = with_indexes();
            assert!(fresh.insert_doc(&next, None).is_ok());
            assert!(fresh.insert_doc(&other, None).is_ok());
            assert_eq!(entries(&c), entries(&fresh), "{next}");
        }
        assert!(c.index("b.c_1_a_-1").is_some_and(|i| i.is_multikey()));
        // A change to a unique field that collides is still refused, and changes nothing.
        let clash = doc! {"_id": 1, "a": 7};
        let before = entries(&c);
        let refused = c.replace_doc(1, &clash, super::encode(&clash).ok());
        assert_eq!(refused.map_err(|e| e.code), Err(11000));
        assert_eq!(entries(&c), before);
    }

    /// Key patterns are ordered, as mongod reads them: `{a: 1, b: 1}` and `{b: 1, a: 1}` are two
    /// indexes (a document's equality would call them one and refuse the second with 85); the
    /// same pattern again under its own name is refused.
    #[test]
    fn key_patterns_in_another_order_are_other_indexes() {
        let mut db = crate::engine::Database::new();
        let opts = crate::engine::index::IndexOptions::default;
        let first = db.create_index("c", bson::doc! { "a": 1, "b": 1 }, opts());
        let other = db.create_index("c", bson::doc! { "b": 1, "a": 1 }, opts());
        assert!(first.is_ok() && other.is_ok(), "{first:?} {other:?}");
        let again = db.create_index(
            "c",
            bson::doc! { "a": 1, "b": 1 },
            crate::engine::index::IndexOptions {
                name: Some("ab".into()),
                ..opts()
            },
        );
        assert_eq!(again.map_err(|e| e.code), Err(85));
    }
}
