//! The planner: the steps of a migration, phase by phase, each with its command and its cost.
//!
//! Per change of a relationship, the backfill runs at most six kinds of pipeline, in this
//! order, each reading what the one before it wrote:
//!
//! 1. **move out** (from `embed` or `bucket`): the parent's embedded children, or the buckets'
//!    children, unwound into a collection of their own (for the migration only, where the
//!    target embeds or buckets them too), each with its parent's id and a new `_id`;
//! 2. **link** (from parent arrays or a link collection, when the child does not keep its
//!    parent): the parent's id set on each child, the key every later step groups by;
//! 3. **rebuild** (to a parent array): the children grouped by parent, in the order the target
//!    keeps them (and cut to `k` for a subset), merged into the parent as `{field}_next`
//!    beside the array the application still reads (or as the field itself where the source
//!    has none);
//! 4. **buckets** (to `bucket`): each parent's children in insertion order, cut into buckets
//!    of `size` numbered from 0 with their count;
//! 5. **links** (to `link_collection`): one link document per child;
//! 6. **copies** (to `reference_in_child` with copies): the parent's fields copied into each
//!    child through a `$lookup`.
//!
//! The switch renames the rebuilt arrays; the clean-up unsets what only the source kept (the
//! parent's old array, the parent reference the target's children do not keep, old copies),
//! drops the child collection of an embedded target and the old link collection, and the
//! indexes the target has not.

use bson::{doc, Bson, Document};

use crate::design::names::{child_ref, parent_copy_field};
use crate::design::{Index, Layout, Strategy};
use crate::lang::Text;
use crate::model::{Model, Relationship};

use super::change::{child_copies, child_holds_parent, has_child_collection, Change, ParentArray};
use super::cost::{reference_bytes, update_bytes, Cost, Sizes};
use super::{Action, MigrateOptions, Phase, Side, Step};

/// One change with the names its steps use.
struct Rel<'a> {
    r: &'a Relationship,
    s: &'a Strategy,
    t: &'a Strategy,
    /// The parent's collection (the same in both designs).
    pc: String,
    /// The children's collection (the target's, else the source's, else, between `embed` and
    /// `bucket`, the migration's own, named after the child).
    cc: String,
    /// The parent's array field.
    arr: String,
    /// The child's parent reference.
    pref: String,
    /// The buckets' collection (`{relationship}_buckets`), under `bucket` on either side.
    buckets: String,
}

impl Rel<'_> {
    fn source_array(&self) -> ParentArray {
        ParentArray::of(self.s)
    }

    fn target_array(&self) -> ParentArray {
        ParentArray::of(self.t)
    }

    /// True when the target's parent array is built anew.
    fn rebuilds(&self) -> bool {
        let t = self.target_array();
        t != ParentArray::None && t != self.source_array()
    }

    /// True when the rebuilt array is written beside the old one (`{arr}_next`).
    fn staged(&self) -> bool {
        self.rebuilds() && self.source_array() != ParentArray::None
    }

    /// The field a rebuild writes.
    fn rebuilt_field(&self) -> String {
        if self.staged() {
            format!("{}_next", self.arr)
        } else {
            self.arr.clone()
        }
    }

    /// The target's bucket size, when the target buckets the children (and the source does
    /// not).
    fn bucket_size(&self) -> Option<u64> {
        match (self.s, self.t) {
            (Strategy::Bucket { .. }, _) => None,
            (_, Strategy::Bucket { size }) => Some(*size),
            _ => None,
        }
    }

    /// The copies the target's children keep that the source's do not.
    fn new_copies(&self) -> Vec<String> {
        let old = child_copies(self.s);
        child_copies(self.t)
            .iter()
            .filter(|c| !old.contains(c))
            .cloned()
            .collect()
    }

    /// True when a later step groups or matches the children by their parent reference, so
    /// the children must hold it during the backfill.
    fn needs_parent_ref(&self) -> bool {
        let rebuilt_from_children =
            (self.rebuilds() || self.bucket_size().is_some()) && has_child_collection(self.s);
        rebuilt_from_children
            || has_child_collection(self.t)
                && (self.rebuilds()
                    || matches!(self.t, Strategy::LinkCollection)
                    || !self.new_copies().is_empty()
                    || child_holds_parent(self.t))
    }

    /// True when the children hold the parent reference only for the migration's sake (the
    /// backfill set it and the target does not keep it).
    fn temporary_parent_ref(&self) -> bool {
        has_child_collection(self.t) && !child_holds_parent(self.t) && self.sets_parent_ref()
    }

    /// True when the clean-up removes the children's parent reference: they hold it (the
    /// source's, or the backfill's) and the target's do not.
    fn unsets_parent_ref(&self) -> bool {
        has_child_collection(self.t)
            && !child_holds_parent(self.t)
            && (child_holds_parent(self.s) || self.sets_parent_ref())
    }

    /// True when the backfill writes the parent reference on the children (they do not keep
    /// it in the source).
    ///
    /// Under `two_way` the children do keep it, but the parent's array is what lists them (a
    /// child and its parent may disagree after a failed write): it is set again from the
    /// arrays, so that the target holds what the source's reads return.
    fn sets_parent_ref(&self) -> bool {
        let kept = child_holds_parent(self.s) && !matches!(self.s, Strategy::TwoWay);
        !kept && (self.needs_parent_ref() || !has_child_collection(self.s))
    }
}

/// Builds the steps of one migration.
pub(super) struct Planner<'a> {
    from: Side<'a>,
    to: Side<'a>,
    changes: &'a [Change],
    opts: MigrateOptions,
    sizes: Sizes<'a>,
    steps: Vec<Step>,
    /// The indexes made for the batches only, dropped at the end.
    temporary: Vec<(String, Document)>,
}

impl<'a> Planner<'a> {
    pub(super) fn new(
        from: Side<'a>,
        to: Side<'a>,
        changes: &'a [Change],
        opts: MigrateOptions,
        sizes: Sizes<'a>,
    ) -> Planner<'a> {
        Planner {
            from,
            to,
            changes,
            opts,
            sizes,
            steps: Vec::new(),
            temporary: Vec::new(),
        }
    }

    fn model(&self) -> &'a Model {
        self.from.model
    }

    /// Returns every step, numbered, in the order they run.
    pub(super) fn steps(mut self) -> Vec<Step> {
        let rels: Vec<Rel> = self.changes.iter().filter_map(|c| self.rel(c)).collect();
        self.created_indexes();
        for x in &rels {
            self.batch_indexes(x);
        }
        for x in &rels {
            self.backfill(x);
        }
        for x in &rels {
            self.switch(x);
        }
        if !rels.is_empty() {
            self.push(
                Phase::Switch,
                None,
                Text::new("migrate-step-deploy").arg("design", self.to.name),
                Action::Application,
                Cost::default(),
            );
        }
        for x in &rels {
            self.clean_up(x);
        }
        self.dropped_indexes();
        // A temporary index on a collection the clean-up dropped went with it.
        let temporary = std::mem::take(&mut self.temporary);
        for (coll, keys) in temporary {
            if self.to.layout.collection(&coll).is_none() {
                continue;
            }
            self.push(
                Phase::CleanUp,
                None,
                Text::new("migrate-step-drop-temporary-index")
                    .arg("index", index_name(&keys))
                    .arg("collection", &coll),
                Action::DropIndex {
                    collection: coll,
                    keys,
                },
                Cost::default(),
            );
        }
        for (i, s) in self.steps.iter_mut().enumerate() {
            s.number = i + 1;
        }
        self.steps
    }

    fn rel(&self, c: &'a Change) -> Option<Rel<'a>> {
        let r = self.model().relationship(&c.relationship)?;
        let cc = if has_child_collection(&c.target) {
            self.to.layout.collection_name(&r.child)
        } else {
            self.from.layout.collection_name(&r.child)
        };
        Some(Rel {
            r,
            s: &c.source,
            t: &c.target,
            pc: self.from.layout.collection_name(&r.parent),
            cc,
            arr: r.array_field().to_string(),
            pref: r.parent_ref(),
            buckets: crate::design::names::relationship_collection_name(
                r,
                &Strategy::Bucket { size: 1 },
            ),
        })
    }

    fn push(
        &mut self,
        phase: Phase,
        relationship: Option<&str>,
        title: Text,
        action: Action,
        cost: Cost,
    ) {
        let command = super::script::command(&action);
        self.steps.push(Step {
            number: 0,
            phase,
            title: title.render(self.opts.lang),
            relationship: relationship.map(str::to_string),
            action,
            command,
            cost: cost.timed(self.opts.write_rate),
        });
    }

    /// Pushes a backfill over the children of each batch of parents (matched by their parent
    /// reference): a rebuild, buckets, links.
    fn over_children(&mut self, x: &Rel, title: Text, pipeline: Vec<Document>, cost: Cost) {
        let action = Action::Backfill {
            collection: x.cc.clone(),
            parents: x.pc.clone(),
            field: x.pref.clone(),
            pipeline,
        };
        self.push(Phase::Backfill, Some(&x.r.name), title, action, cost);
    }

    /// The target's indexes the source has not, created before any data moves.
    fn created_indexes(&mut self) {
        let to: Vec<Index> = self
            .to
            .layout
            .collections
            .iter()
            .flat_map(|c| c.indexes.clone())
            .collect();
        for i in to {
            if has_index(self.from.layout, &i) {
                continue;
            }
            // The keys of the documents already there: those the backfill writes later are
            // counted with its writes.
            let keys = self.sizes.docs(false, &i.collection);
            let cost = Cost {
                docs_read: self.sizes.docs(false, &i.collection),
                bytes_read: self.sizes.bytes(false, &i.collection),
                index_keys: keys,
                ..Cost::default()
            };
            self.push(
                Phase::Create,
                None,
                Text::new("migrate-step-create-index")
                    .arg("index", index_name(&i.keys))
                    .arg("collection", &i.collection)
                    .arg("reason", &i.reason),
                Action::CreateIndex {
                    collection: i.collection.clone(),
                    mongosh: i.mongosh(),
                },
                cost,
            );
        }
    }

    /// True when an index of `coll` in either design starts with `field`.
    fn indexed(&self, coll: &str, field: &str) -> bool {
        [self.from.layout, self.to.layout].iter().any(|l| {
            l.collection(coll).is_some_and(|c| {
                c.indexes.iter().any(|i| {
                    i.partial.is_none() && i.keys.keys().next().map(String::as_str) == Some(field)
                })
            })
        }) || self
            .temporary
            .iter()
            .any(|(c, k)| c == coll && k.keys().next().map(String::as_str) == Some(field))
    }

    /// A temporary `{field: 1}` index on `coll` where a backfill matches its batches on a
    /// field no index of either design starts with.
    fn batch_index(&mut self, r: &str, coll: &str, field: &str) {
        if field == "_id" || self.indexed(coll, field) {
            return;
        }
        let keys = doc! { field: 1 };
        let docs = self
            .sizes
            .docs(false, coll)
            .max(self.sizes.docs(true, coll));
        let cost = Cost {
            docs_read: docs,
            bytes_read: self.sizes.bytes(false, coll),
            index_keys: docs,
            ..Cost::default()
        };
        let mongosh = format!(
            "{}.createIndex({})",
            super::script::collection(coll),
            crate::design::command::shell(&Bson::Document(keys.clone()))
        );
        self.push(
            Phase::Create,
            Some(r),
            Text::new("migrate-step-batch-index")
                .arg("index", index_name(&keys))
                .arg("collection", coll),
            Action::CreateIndex {
                collection: coll.to_string(),
                mongosh,
            },
            cost,
        );
        self.temporary.push((coll.to_string(), keys));
    }

    fn batch_indexes(&mut self, x: &Rel) {
        let name = &x.r.name;
        if x.sets_parent_ref() && matches!(x.s, Strategy::LinkCollection) {
            self.batch_index(name, &x.r.name, &x.pref);
        }
        if matches!(x.s, Strategy::Bucket { .. }) {
            self.batch_index(name, &x.buckets, &x.pref);
        }
        if x.needs_parent_ref()
            && (x.rebuilds()
                || x.bucket_size().is_some()
                || matches!(x.t, Strategy::LinkCollection)
                || !x.new_copies().is_empty())
        {
            self.batch_index(name, &x.cc, &x.pref);
        }
    }

    fn backfill(&mut self, x: &Rel) {
        if !has_child_collection(x.s) {
            self.move_out(x);
        } else if x.sets_parent_ref() {
            self.link_children(x);
        }
        if x.rebuilds() {
            self.rebuild(x);
        }
        if let Some(size) = x.bucket_size() {
            self.write_buckets(x, size);
        }
        if matches!(x.t, Strategy::LinkCollection) && !matches!(x.s, Strategy::LinkCollection) {
            self.write_links(x);
        }
        // Moved out of an embedded array, the children take their copies with them.
        if !x.new_copies().is_empty() && !matches!(x.s, Strategy::Embed) {
            self.copy_parent_fields(x);
        }
    }

    /// From `embed` or `bucket`: each embedded or bucketed child becomes a document of the
    /// child's collection, with its parent's id and a new `_id`.
    fn move_out(&mut self, x: &Rel) {
        let m = self.model();
        let from_buckets = matches!(x.s, Strategy::Bucket { .. });
        let mut proj = doc! {};
        let declares_id = m
            .entity(&x.r.child)
            .is_some_and(|e| e.fields.get("_id").is_some());
        if declares_id {
            proj.insert("_id", format!("${}._id", x.arr));
        } else {
            proj.insert("_id", 0);
        }
        for f in own_fields(m, &x.r.child) {
            proj.insert(f.clone(), format!("${}.{f}", x.arr));
        }
        if from_buckets {
            proj.insert(x.pref.clone(), format!("${}", x.pref));
        } else {
            proj.insert(x.pref.clone(), "$_id");
            // An embedded child moved out takes the copies of its parent's fields with it.
            for c in x.new_copies() {
                proj.insert(parent_copy_field(x.r, &c), format!("${c}"));
            }
        }
        let mut pipeline = Vec::new();
        if from_buckets {
            pipeline.push(doc! { "$sort": { x.pref.clone(): 1, "sequence": 1 } });
        }
        pipeline.extend([
            doc! { "$unwind": format!("${}", x.arr) },
            doc! { "$project": proj },
            insert_into(&x.cc),
        ]);
        let source = if from_buckets {
            x.buckets.clone()
        } else {
            x.pc.clone()
        };
        let children = self.sizes.docs(false, &x.pc) * x.r.cardinality.mean();
        let child_bytes = match self.sizes.docs(true, &x.cc) {
            n if n > 0.0 => self.sizes.bytes(true, &x.cc) / n,
            _ => 0.0,
        };
        let cost = Cost {
            docs_read: self.sizes.docs(false, &source),
            bytes_read: self.sizes.bytes(false, &source),
            docs_written: children,
            bytes_written: children * (child_bytes.max(reference_bytes(&x.pref) + 17.0)),
            index_keys: children * self.sizes.indexes(&x.cc),
            ..Cost::default()
        };
        let (whence, field) = if from_buckets {
            (
                Text::new("migrate-whence-buckets").arg("buckets", &x.buckets),
                x.pref.clone(),
            )
        } else {
            (
                Text::new("migrate-whence-embedded")
                    .arg("parent", &x.r.parent)
                    .arg("array", &x.arr),
                "_id".to_string(),
            )
        };
        let why = Text::new(if has_child_collection(x.t) {
            "nothing"
        } else {
            "migrate-why-temporary-collection"
        });
        self.push(
            Phase::Backfill,
            Some(&x.r.name),
            Text::new("migrate-step-move-out")
                .nested("whence", whence)
                .arg("collection", &x.cc)
                .arg("child", &x.r.child)
                .arg("reference", &x.pref)
                .nested("why", why),
            Action::Backfill {
                collection: source,
                parents: x.pc.clone(),
                field,
                pipeline,
            },
            cost,
        );
    }

    /// To `bucket`: the children of each parent, in insertion order, cut into buckets of
    /// `size` numbered from 0 (`sequence`) with their `count`.
    fn write_buckets(&mut self, x: &Rel, size: u64) {
        // Numbered through their ids alone: a parent's children whole would make one group of
        // all of them, and mongod caps a `$push` at 100 MB a group (a host's 2,000,000 logs
        // are 320 MB, their ids 40 MB); each child is then read again by its `_id`.
        let mut elem = doc! {};
        for f in self.target_element_fields(x, &x.buckets, &x.r.child) {
            elem.insert(f.clone(), format!("$child.{f}"));
        }
        let arr = x.arr.clone();
        let pipeline = vec![
            doc! { "$sort": { x.pref.clone(): 1, "_id": 1 } },
            doc! { "$group": { "_id": format!("${}", x.pref), "ids": { "$push": "$_id" } } },
            doc! { "$unwind": { "path": "$ids", "includeArrayIndex": "i" } },
            doc! { "$lookup": { "from": x.cc.clone(), "localField": "ids", "foreignField": "_id", "as": "child" } },
            doc! { "$unwind": "$child" },
            doc! { "$group": {
                "_id": { "p": "$_id", "s": { "$toInt": { "$floor": { "$divide": ["$i", size as i64] } } } },
                arr.clone(): { "$push": elem },
            } },
            doc! { "$project": {
                "_id": 0,
                x.pref.clone(): "$_id.p",
                "sequence": "$_id.s",
                crate::design::names::BUCKET_COUNT: { "$size": format!("${arr}") },
                arr.clone(): format!("${arr}"),
            } },
            insert_into(&x.buckets),
        ];
        let buckets = self.sizes.docs(true, &x.buckets);
        let from_cc = has_child_collection(x.s);
        let children = self
            .sizes
            .docs(!from_cc, &x.cc)
            .max(self.sizes.docs(false, &x.pc) * x.r.cardinality.mean());
        let cost = Cost {
            docs_read: 2.0 * children,
            bytes_read: 2.0 * self.sizes.bytes(!from_cc, &x.cc),
            docs_written: buckets,
            bytes_written: self.sizes.bytes(true, &x.buckets),
            index_keys: buckets * self.sizes.indexes(&x.buckets),
            ..Cost::default()
        };
        self.over_children(
            x,
            Text::new("migrate-step-buckets")
                .arg("parent", &x.r.parent)
                .arg("array", &x.arr)
                .arg("size", size)
                .arg("buckets", &x.buckets),
            pipeline,
            cost,
        );
    }

    /// The parent's id set on every child, from the parent's array or the link collection.
    fn link_children(&mut self, x: &Rel) {
        let (collection, field, pipeline, read_docs, read_bytes) = match self.source_link(x) {
            Some(link) => (
                link.clone(),
                x.pref.clone(),
                vec![
                    doc! { "$project": { "_id": format!("${}", child_ref(x.r)), x.pref.clone(): 1 } },
                    merge_into(&x.cc),
                ],
                self.sizes.docs(false, &link),
                self.sizes.bytes(false, &link),
            ),
            None => {
                let id = match x.source_array() {
                    ParentArray::Ids => format!("${}", x.arr),
                    _ => format!("${}._id", x.arr),
                };
                (
                    x.pc.clone(),
                    "_id".to_string(),
                    vec![
                        doc! { "$unwind": format!("${}", x.arr) },
                        doc! { "$project": { "_id": id, x.pref.clone(): "$_id" } },
                        merge_into(&x.cc),
                    ],
                    self.sizes.docs(false, &x.pc),
                    self.sizes.bytes(false, &x.pc),
                )
            }
        };
        let children = self.sizes.docs(false, &x.cc);
        let cost = Cost {
            docs_read: read_docs,
            bytes_read: read_bytes,
            docs_written: children,
            bytes_written: children * update_bytes(reference_bytes(&x.pref)),
            index_keys: children * self.keys_on(&x.cc, &x.pref),
            ..Cost::default()
        };
        let from = if collection == x.pc {
            Text::new("migrate-link-from-array")
                .arg("parent", &x.r.parent)
                .arg("array", &x.arr)
        } else {
            Text::new("migrate-link-from-links").arg("collection", &collection)
        };
        let why = Text::new(if x.temporary_parent_ref() {
            "migrate-why-kept-reference"
        } else {
            "nothing"
        });
        self.push(
            Phase::Backfill,
            Some(&x.r.name),
            Text::new("migrate-step-link")
                .arg("reference", &x.pref)
                .arg("child", &x.r.child)
                .nested("source", from)
                .nested("why", why),
            Action::Backfill {
                collection,
                parents: x.pc.clone(),
                field,
                pipeline,
            },
            cost,
        );
    }

    fn source_link(&self, x: &Rel) -> Option<String> {
        matches!(x.s, Strategy::LinkCollection).then(|| x.r.name.clone())
    }

    /// The index keys written per document when `field` is set on `coll`: the indexes (of
    /// either design, or temporary) whose first key it is.
    fn keys_on(&self, coll: &str, field: &str) -> f64 {
        let n = self.to.layout.collection(coll).map_or(0, |c| {
            c.indexes
                .iter()
                .filter(|i| i.keys.contains_key(field))
                .count()
        }) + self
            .temporary
            .iter()
            .filter(|(c, k)| c == coll && k.contains_key(field))
            .count();
        n as f64
    }

    /// The target's parent array, built from the children grouped by parent in the order the
    /// target keeps it, and `[]` for the parents without children.
    fn rebuild(&mut self, x: &Rel) {
        let m = self.model();
        let field = x.rebuilt_field();
        let order = crate::design::plan::array_order(m, &x.r.name, x.t);
        let sort = match (&order, x.target_array()) {
            (Some(o), _) => doc! { o.field.clone(): o.order, "_id": 1 },
            (None, ParentArray::Subset(_)) => doc! { "_id": -1 },
            (None, _) => doc! { "_id": 1 },
        };
        let element: Bson = match x.target_array() {
            ParentArray::Ids => Bson::String("$_id".into()),
            ParentArray::Extended(copy) => {
                let mut d = doc! { "_id": "$_id" };
                for c in copy {
                    d.insert(c.clone(), format!("${c}"));
                }
                Bson::Document(d)
            }
            _ => {
                let mut d = doc! {};
                for f in self.target_element_fields(x, &x.pc, &x.r.parent) {
                    d.insert(f.clone(), format!("${f}"));
                }
                Bson::Document(d)
            }
        };
        let mut pipeline = vec![
            doc! { "$sort": sort },
            doc! { "$group": { "_id": format!("${}", x.pref), field.clone(): { "$push": element } } },
        ];
        if let ParentArray::Subset(k) = x.target_array() {
            pipeline.push(
                doc! { "$set": { field.clone(): { "$slice": [format!("${field}"), k as i64] } } },
            );
        }
        pipeline.push(merge_into(&x.pc));
        let parents = self.sizes.docs(false, &x.pc);
        let arr_bytes = self.sizes.array_bytes(true, &x.pc, &x.arr);
        let children_side = has_child_collection(x.s);
        let cost = Cost {
            docs_read: self.sizes.docs(!children_side, &x.cc),
            bytes_read: self.sizes.bytes(!children_side, &x.cc),
            docs_written: parents,
            bytes_written: parents * update_bytes(arr_bytes + 5.0),
            index_keys: 0.0,
            ..Cost::default()
        };
        let what = match x.target_array() {
            ParentArray::Ids => Text::new("migrate-array-ids"),
            ParentArray::Extended(c) => {
                Text::new("migrate-array-extended").arg("fields", c.join(", "))
            }
            ParentArray::Subset(k) => Text::new("migrate-array-subset").arg("k", k),
            _ => Text::new("migrate-array-embedded"),
        }
        .arg("array", &x.arr);
        let beside = if x.staged() {
            Text::new("migrate-beside").arg("array", &x.arr)
        } else {
            Text::new("nothing")
        };
        self.over_children(
            x,
            Text::new("migrate-step-rebuild")
                .arg("parent", &x.r.parent)
                .arg("field", &field)
                .nested("what", what)
                .nested("beside", beside),
            pipeline,
            cost,
        );
        let empty = parents * self.empty_share(x);
        self.push(
            Phase::Backfill,
            Some(&x.r.name),
            Text::new("migrate-step-empty-arrays")
                .arg("field", &field)
                .arg("parent", &x.r.parent)
                .arg("array", &x.arr),
            Action::Update {
                collection: x.pc.clone(),
                filter: doc! { field.clone(): { "$exists": false } },
                update: doc! { "$set": { field.clone(): [] } },
            },
            Cost {
                docs_read: parents,
                bytes_read: self.sizes.bytes(false, &x.pc),
                docs_written: empty,
                bytes_written: empty * update_bytes(field.len() as f64 + 7.0),
                ..Cost::default()
            },
        );
    }

    /// The share of parents with no children (the cardinality's probability of 0).
    fn empty_share(&self, x: &Rel) -> f64 {
        let d = &x.r.cardinality;
        if d.min() >= 1.0 {
            0.0
        } else {
            (1.0 - d.exceedance(0.5).unwrap_or(1.0)).clamp(0.0, 1.0)
        }
    }

    /// The fields of a child as array `x.arr` holds it in the documents of `entity` in the
    /// target's collection `coll` (a parent's embedded children, a bucket's), in order; the
    /// child's own fields where no such array is laid out.
    fn target_element_fields(&self, x: &Rel, coll: &str, entity: &str) -> Vec<String> {
        self.to
            .layout
            .collection(coll)
            .and_then(|c| {
                c.shapes
                    .iter()
                    .find(|s| s.entity.as_deref() == Some(entity))
            })
            .and_then(|s| s.fields.get(&x.arr))
            .map(|f| f.fields.iter().map(|(n, _)| n.clone()).collect())
            .unwrap_or_else(|| own_fields(self.model(), &x.r.child))
    }

    /// One link document per child.
    fn write_links(&mut self, x: &Rel) {
        let link = x.r.name.clone();
        let pipeline = vec![
            doc! { "$project": { "_id": 0, x.pref.clone(): 1, child_ref(x.r): "$_id" } },
            insert_into(&link),
        ];
        let links = self.sizes.docs(true, &link);
        let cost = Cost {
            docs_read: self.sizes.docs(true, &x.cc),
            bytes_read: self.sizes.bytes(true, &x.cc),
            docs_written: links,
            bytes_written: self.sizes.bytes(true, &link),
            index_keys: links * self.sizes.indexes(&link),
            ..Cost::default()
        };
        self.over_children(
            x,
            Text::new("migrate-step-links")
                .arg("collection", &link)
                .arg("child", &x.r.child),
            pipeline,
            cost,
        );
    }

    /// The parent's fields copied into each child.
    fn copy_parent_fields(&mut self, x: &Rel) {
        let copies = x.new_copies();
        let mut proj = doc! {};
        for c in &copies {
            proj.insert(parent_copy_field(x.r, c), format!("${c}"));
        }
        // From the parents, each cut to the copied fields first: a `$lookup` from the
        // children would bring each child its whole parent (with every array it holds).
        let mut kept = doc! { "_id": "$__children._id" };
        for c in &copies {
            kept.insert(parent_copy_field(x.r, c), 1);
        }
        let pipeline = vec![
            doc! { "$project": proj },
            doc! { "$lookup": { "from": x.cc.clone(), "localField": "_id", "foreignField": x.pref.clone(), "as": "__children" } },
            doc! { "$unwind": "$__children" },
            doc! { "$project": kept },
            merge_into(&x.cc),
        ];
        let children = self.sizes.docs(true, &x.cc);
        let parent_mean = self.sizes.bytes(false, &x.pc) / self.sizes.docs(false, &x.pc).max(1.0);
        let copy_bytes: f64 = copies
            .iter()
            .map(|c| 2.0 + parent_copy_field(x.r, c).len() as f64 + 16.0)
            .sum();
        let cost = Cost {
            docs_read: 2.0 * children,
            bytes_read: self.sizes.bytes(true, &x.cc) + children * parent_mean,
            docs_written: children,
            bytes_written: children * update_bytes(copy_bytes),
            ..Cost::default()
        };
        self.push(
            Phase::Backfill,
            Some(&x.r.name),
            Text::new("migrate-step-copy")
                .arg("fields", copies.join(", "))
                .arg("parent", &x.r.parent)
                .arg("child", &x.r.child),
            Action::Backfill {
                collection: x.pc.clone(),
                parents: x.pc.clone(),
                field: "_id".into(),
                pipeline,
            },
            cost,
        );
    }

    fn switch(&mut self, x: &Rel) {
        if !x.staged() {
            return;
        }
        let next = x.rebuilt_field();
        let parents = self.sizes.docs(false, &x.pc);
        let bytes = self.sizes.array_bytes(true, &x.pc, &x.arr);
        self.push(
            Phase::Switch,
            Some(&x.r.name),
            Text::new("migrate-step-switch")
                .arg("parent", &x.r.parent)
                .arg("array", &x.arr)
                .arg("next", &next),
            Action::Update {
                collection: x.pc.clone(),
                filter: doc! {},
                update: doc! { "$rename": { next.clone(): x.arr.clone() } },
            },
            Cost {
                docs_read: parents,
                bytes_read: self.sizes.bytes(false, &x.pc),
                docs_written: parents,
                bytes_written: parents * update_bytes(bytes),
                ..Cost::default()
            },
        );
    }

    fn clean_up(&mut self, x: &Rel) {
        let name = x.r.name.as_str();
        let parents = self.sizes.docs(false, &x.pc);
        if x.source_array() != ParentArray::None && x.target_array() == ParentArray::None {
            self.push(
                Phase::CleanUp,
                Some(name),
                Text::new("migrate-step-remove")
                    .arg("fields", &x.arr)
                    .arg("entity", &x.r.parent),
                Action::Update {
                    collection: x.pc.clone(),
                    filter: doc! {},
                    update: doc! { "$unset": { x.arr.clone(): "" } },
                },
                Cost {
                    docs_read: parents,
                    bytes_read: self.sizes.bytes(false, &x.pc),
                    docs_written: parents,
                    bytes_written: parents * update_bytes(x.arr.len() as f64),
                    ..Cost::default()
                },
            );
        }
        let children = self.sizes.docs(true, &x.cc);
        let mut unset: Vec<String> = Vec::new();
        if x.unsets_parent_ref() {
            unset.push(x.pref.clone());
        }
        if has_child_collection(x.t) {
            let keep = child_copies(x.t);
            for c in child_copies(x.s) {
                if !keep.contains(c) {
                    unset.push(parent_copy_field(x.r, c));
                }
            }
        }
        if !unset.is_empty() {
            let mut u = doc! {};
            for f in &unset {
                u.insert(f.clone(), "");
            }
            self.push(
                Phase::CleanUp,
                Some(name),
                Text::new("migrate-step-remove")
                    .arg("fields", unset.join(", "))
                    .arg("entity", &x.r.child),
                Action::Update {
                    collection: x.cc.clone(),
                    filter: doc! {},
                    update: doc! { "$unset": u },
                },
                Cost {
                    docs_read: children,
                    bytes_read: self.sizes.bytes(true, &x.cc),
                    docs_written: children,
                    bytes_written: children
                        * update_bytes(unset.iter().map(|f| f.len() as f64).sum()),
                    ..Cost::default()
                },
            );
        }
        if !has_child_collection(x.t) {
            let now = if matches!(x.t, Strategy::Bucket { .. }) {
                Text::new("migrate-now-buckets").arg("buckets", &x.buckets)
            } else {
                Text::new("migrate-now-parent").arg("parent", &x.r.parent)
            };
            self.push(
                Phase::CleanUp,
                Some(name),
                Text::new("migrate-step-drop")
                    .arg("collection", &x.cc)
                    .nested("now", now),
                Action::Drop(x.cc.clone()),
                Cost::default(),
            );
        }
        if matches!(x.s, Strategy::Bucket { .. }) && !matches!(x.t, Strategy::Bucket { .. }) {
            self.push(
                Phase::CleanUp,
                Some(name),
                Text::new("migrate-step-drop-buckets").arg("collection", &x.buckets),
                Action::Drop(x.buckets.clone()),
                Cost::default(),
            );
        }
        if matches!(x.s, Strategy::LinkCollection) && !matches!(x.t, Strategy::LinkCollection) {
            self.push(
                Phase::CleanUp,
                Some(name),
                Text::new("migrate-step-drop-links").arg("collection", &x.r.name),
                Action::Drop(x.r.name.clone()),
                Cost::default(),
            );
        }
    }

    /// The source's indexes the target has not, on collections the target keeps.
    fn dropped_indexes(&mut self) {
        let from: Vec<Index> = self
            .from
            .layout
            .collections
            .iter()
            .flat_map(|c| c.indexes.clone())
            .collect();
        for i in from {
            if has_index(self.to.layout, &i) || self.to.layout.collection(&i.collection).is_none() {
                continue;
            }
            self.push(
                Phase::CleanUp,
                None,
                Text::new("migrate-step-drop-index")
                    .arg("index", index_name(&i.keys))
                    .arg("collection", &i.collection),
                Action::DropIndex {
                    collection: i.collection.clone(),
                    keys: i.keys.clone(),
                },
                Cost::default(),
            );
        }
    }
}

/// Returns an index's default name (`ownerId_1`).
fn index_name(keys: &Document) -> String {
    crate::engine::index::default_name(keys)
}

/// True when `layout` has index `i` (the same collection, keys, filter and collation).
fn has_index(layout: &Layout, i: &Index) -> bool {
    layout.collection(&i.collection).is_some_and(|c| {
        c.indexes
            .iter()
            .any(|j| i.keys == j.keys && i.partial == j.partial && i.collation == j.collation)
    })
}

/// The `$merge` that inserts the pipeline's documents into `coll`, each with a new `_id`
/// where it has none (and fails on one it already holds).
fn insert_into(coll: &str) -> Document {
    doc! { "$merge": { "into": coll, "on": "_id", "whenMatched": "fail", "whenNotMatched": "insert" } }
}

/// The `$merge` that sets the pipeline's fields on the matching documents of `coll`.
fn merge_into(coll: &str) -> Document {
    doc! { "$merge": { "into": coll, "on": "_id", "whenMatched": "merge", "whenNotMatched": "discard" } }
}

/// The fields entity `name` declares, without `_id`.
fn own_fields(m: &Model, name: &str) -> Vec<String> {
    m.entity(name).map(|e| e.field_names()).unwrap_or_default()
}
