//! Checks of the workload: units, steps and the names they refer to.

use serde_json::{Map, Value};

use super::{describe, or_list, Checker, EntityInfo, RelInfo};
use crate::lang::Text;
use crate::model::{Copies, Op, Paging};

impl Checker {
    pub(super) fn unit(
        &mut self,
        v: &Value,
        path: &str,
        entities: &[EntityInfo],
        rels: &[RelInfo],
    ) {
        let Some(m) = self.object(
            v,
            path,
            &["name", "rate_per_sec", "steps"],
            &["name", "rate_per_sec", "steps"],
        ) else {
            return;
        };
        self.string(m, "name", path);
        self.number(m, "rate_per_sec", path, true);
        if let Some(steps) = self.array(m, "steps", path) {
            for (i, s) in steps.iter().enumerate() {
                self.step(s, &format!("{path}.steps[{i}]"), entities, rels);
            }
        }
    }

    pub(super) fn entity_ref<'a>(
        &mut self,
        m: &Map<String, Value>,
        key: &str,
        path: &str,
        entities: &'a [EntityInfo],
    ) -> Option<&'a EntityInfo> {
        let name = self.string(m, key, path)?;
        let found = entities.iter().find(|e| e.name == name);
        if found.is_none() {
            self.err(
                &format!("{path}.{key}"),
                Text::new("unknown-entity").arg("name", name),
            );
        }
        found
    }

    pub(super) fn rel_ref<'a>(
        &mut self,
        m: &Map<String, Value>,
        key: &str,
        path: &str,
        rels: &'a [RelInfo],
    ) -> Option<&'a RelInfo> {
        let name = self.string(m, key, path)?;
        let found = rels.iter().find(|r| r.name == name);
        if found.is_none() {
            self.err(
                &format!("{path}.{key}"),
                Text::new("unknown-relationship").arg("name", name),
            );
        }
        found
    }

    pub(super) fn field_ref(
        &mut self,
        m: &Map<String, Value>,
        key: &str,
        path: &str,
        entities: &[EntityInfo],
        entity: &str,
    ) {
        let Some(f) = self.string(m, key, path) else {
            return;
        };
        if let Some(e) = entities.iter().find(|e| e.name == entity) {
            let top = f.split('.').next().unwrap_or(f);
            if !e.fields.iter().any(|x| x == top) {
                self.err(
                    &format!("{path}.{key}"),
                    Text::new("no-such-field")
                        .arg("entity", entity)
                        .arg("field", f),
                );
            }
        }
    }

    /// Checks an array of field names of `entity` (an update's `also`).
    fn field_list(&mut self, v: &Value, path: &str, entities: &[EntityInfo], entity: &str) {
        let Some(list) = v.as_array() else {
            self.err(
                path,
                Text::new("expected-field-names").nested("found", describe(v)),
            );
            return;
        };
        let Some(e) = entities.iter().find(|e| e.name == entity) else {
            return;
        };
        for (i, f) in list.iter().enumerate() {
            match f.as_str() {
                Some(name) if e.fields.iter().any(|x| x == name) => {}
                Some(name) => self.err(
                    &format!("{path}[{i}]"),
                    Text::new("no-such-field")
                        .arg("entity", entity)
                        .arg("field", name),
                ),
                None => self.err(
                    &format!("{path}[{i}]"),
                    Text::new("expected-field-name").nested("found", describe(f)),
                ),
            }
        }
    }

    fn step(&mut self, v: &Value, path: &str, entities: &[EntityInfo], rels: &[RelInfo]) {
        let Some(m) = v.as_object() else {
            self.err(
                path,
                Text::new("expected-step-object").nested("found", describe(v)),
            );
            return;
        };
        let Some(name) = self.string(m, "op", path) else {
            if !m.contains_key("op") {
                self.err(
                    &format!("{path}.op"),
                    Text::new("missing-key").arg("key", "op"),
                );
            }
            return;
        };
        let Some(op) = Op::from_name(name) else {
            self.err(
                &format!("{path}.op"),
                Text::new("unknown-op")
                    .arg("op", name)
                    .nested("expected", or_list(Op::ALL.into_iter().map(Op::name))),
            );
            return;
        };
        let (keys, req) = op.keys();
        self.object(v, path, keys, req);
        match op {
            Op::Read => self.read(m, path, entities, rels),
            Op::FindParents => {
                if let Some(r) = self.rel_ref(m, "relationship", path, rels) {
                    self.field_ref(m, "by", path, entities, &r.child.clone());
                }
            }
            Op::InsertChild => {
                self.rel_ref(m, "relationship", path, rels);
            }
            Op::Reassign => {
                if let Some(r) = self.rel_ref(m, "relationship", path, rels) {
                    if r.feed || r.many_to_many {
                        self.err(
                            &format!("{path}.relationship"),
                            Text::new("reassign-one-to-many").arg("relationship", &r.name),
                        );
                    }
                }
            }
            Op::ReadSubtree
            | Op::ReadAncestors
            | Op::ReadChildren
            | Op::InsertNode
            | Op::MoveSubtree => self.tree_step(m, name, path, rels),
            Op::PostFeed | Op::ReadFeed => {
                if let Some(r) = self.rel_ref(m, "relationship", path, rels) {
                    if !r.feed {
                        self.err(
                            &format!("{path}.relationship"),
                            Text::new("not-a-feed").arg("relationship", &r.name),
                        );
                    }
                }
                self.integer(m, "page_size", path, 1);
            }
            Op::Insert | Op::Delete => {
                self.entity_ref(m, "entity", path, entities);
            }
            Op::List => self.list(m, path, entities, rels),
            Op::FindByAttribute => {
                if let Some(e) = self.entity_ref(m, "entity", path, entities) {
                    let name = e.name.clone();
                    self.field_ref(m, "field", path, entities, &name);
                }
                self.string(m, "key", path);
                self.number(m, "above", path, false);
            }
            Op::Update => self.update(m, path, entities),
        }
    }

    /// Checks a tree step (`op` is its name): its relationship must be a tree, an entity's
    /// one-to-many relationship with itself.
    fn tree_step(&mut self, m: &Map<String, Value>, op: &str, path: &str, rels: &[RelInfo]) {
        if let Some(r) = self.rel_ref(m, "relationship", path, rels) {
            if r.parent != r.child || r.feed || r.many_to_many {
                self.err(
                    &format!("{path}.relationship"),
                    Text::new("tree-step-not-tree")
                        .arg("op", op)
                        .arg("relationship", &r.name),
                );
            }
        }
    }

    /// Checks an `update` step: the entity, the field and the `also` fields, the `copies`
    /// policy and the `increment` flag.
    fn update(&mut self, m: &Map<String, Value>, path: &str, entities: &[EntityInfo]) {
        if let Some(e) = self.entity_ref(m, "entity", path, entities) {
            let name = e.name.clone();
            self.field_ref(m, "field", path, entities, &name);
            if let Some(also) = m.get("also") {
                self.field_list(also, &format!("{path}.also"), entities, &name);
            }
        }
        if let Some(c) = self.string(m, "copies", path) {
            let all = || Copies::ALL.into_iter().map(Copies::as_str);
            if !all().any(|x| x == c) {
                let quoted: Vec<String> = all().map(quoted).collect();
                self.err(
                    &format!("{path}.copies"),
                    Text::new("unknown-copies")
                        .nested("expected", or_list(quoted.iter().map(String::as_str))),
                );
            }
        }
        self.boolean(m, "increment", path);
    }

    /// Checks a `read` step: the entity, `by`, and each child read.
    fn read(
        &mut self,
        m: &Map<String, Value>,
        path: &str,
        entities: &[EntityInfo],
        rels: &[RelInfo],
    ) {
        let e = self
            .entity_ref(m, "entity", path, entities)
            .map(|e| e.name.clone());
        if let Some(e) = &e {
            self.field_ref(m, "by", path, entities, e);
        }
        self.case_insensitive(m, path);
        if let Some(children) = self.array(m, "children", path) {
            for (i, c) in children.iter().enumerate() {
                self.child_read(
                    c,
                    &format!("{path}.children[{i}]"),
                    e.as_deref(),
                    entities,
                    rels,
                );
            }
        }
    }

    /// Checks one child read `c` at `cp` of a `read` of entity `e`: its relationship (one of
    /// `e`'s), its limit, its sort by a child field and its child fields.
    fn child_read(
        &mut self,
        c: &Value,
        cp: &str,
        e: Option<&str>,
        entities: &[EntityInfo],
        rels: &[RelInfo],
    ) {
        let Some(cm) = self.object(
            c,
            cp,
            &["relationship", "limit", "sort", "fields"],
            &["relationship"],
        ) else {
            return;
        };
        let r = self.rel_ref(cm, "relationship", cp, rels);
        if let (Some(r), Some(e)) = (r, e) {
            if r.parent != e {
                self.err(
                    &format!("{cp}.relationship"),
                    Text::new("child-of-other-parent")
                        .arg("relationship", &r.name)
                        .arg("parent", &r.parent)
                        .arg("entity", e),
                );
            }
        }
        self.integer(cm, "limit", cp, 1);
        if let Some(s) = cm.get("sort") {
            let sp = format!("{cp}.sort");
            if let Some(sm) = self.object(s, &sp, &["field", "order"], &["field", "order"]) {
                if let Some(r) = r {
                    self.field_ref(sm, "field", &sp, entities, &r.child);
                }
                if let Some(o) = sm.get("order") {
                    if o.as_i64() != Some(1) && o.as_i64() != Some(-1) {
                        self.err(&format!("{sp}.order"), Text::new("sort-order"));
                    }
                }
            }
        }
        let Some(fs) = self.array(cm, "fields", cp) else {
            return;
        };
        for (j, f) in fs.iter().enumerate() {
            match (f.as_str(), r) {
                (Some(name), Some(r)) => {
                    let ok = entities
                        .iter()
                        .any(|x| x.name == r.child && x.fields.iter().any(|n| n == name));
                    if !ok {
                        self.err(
                            &format!("{cp}.fields[{j}]"),
                            Text::new("no-such-field")
                                .arg("entity", &r.child)
                                .arg("field", name),
                        );
                    }
                }
                (None, _) => self.err(
                    &format!("{cp}.fields[{j}]"),
                    Text::new("expected-field-name-plain"),
                ),
                _ => {}
            }
        }
    }

    /// Checks a `list` step: the entity, `by` (a field or a parent reference the entity holds),
    /// the sort, the page size, the projected fields, the page number and the paging method.
    fn list(
        &mut self,
        m: &Map<String, Value>,
        path: &str,
        entities: &[EntityInfo],
        rels: &[RelInfo],
    ) {
        let Some(e) = self
            .entity_ref(m, "entity", path, entities)
            .map(|e| e.name.clone())
        else {
            return;
        };
        if let Some(by) = m.get("by").and_then(Value::as_str) {
            let is_ref = rels.iter().any(|r| r.child == e && r.parent_ref == by);
            if !is_ref {
                self.field_ref(m, "by", path, entities, &e);
            }
        } else if m.contains_key("by") {
            self.string(m, "by", path);
        }
        if let Some(s) = m.get("sort") {
            let sp = format!("{path}.sort");
            if let Some(sm) = self.object(s, &sp, &["field", "order"], &["field", "order"]) {
                self.field_ref(sm, "field", &sp, entities, &e);
                if let Some(o) = sm.get("order") {
                    if o.as_i64() != Some(1) && o.as_i64() != Some(-1) {
                        self.err(&format!("{sp}.order"), Text::new("sort-order"));
                    }
                }
            }
        }
        self.integer(m, "limit", path, 1);
        self.integer(m, "page", path, 1);
        if let Some(fs) = self.array(m, "fields", path) {
            for (j, f) in fs.iter().enumerate() {
                match f.as_str() {
                    Some(name) => {
                        let ok = name == "_id"
                            || entities
                                .iter()
                                .any(|x| x.name == e && x.fields.iter().any(|n| n == name));
                        if !ok {
                            self.err(
                                &format!("{path}.fields[{j}]"),
                                Text::new("no-such-field")
                                    .arg("entity", &e)
                                    .arg("field", name),
                            );
                        }
                    }
                    None => self.err(
                        &format!("{path}.fields[{j}]"),
                        Text::new("expected-field-name-plain"),
                    ),
                }
            }
        }
        if let Some(p) = self.string(m, "paging", path) {
            let all = || Paging::ALL.into_iter().map(Paging::as_str);
            if !all().any(|x| x == p) {
                let quoted: Vec<String> = all().map(quoted).collect();
                self.err(
                    &format!("{path}.paging"),
                    Text::new("unknown-paging")
                        .nested("expected", or_list(quoted.iter().map(String::as_str))),
                );
            }
        }
    }
}

/// Returns `name` in double quotes, as messages quote a value to write.
fn quoted(name: &str) -> String {
    format!("\"{name}\"")
}
