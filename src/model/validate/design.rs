//! Checks of the design: base, strategy overrides and field patterns.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::{describe, design_names, or_list, Checker, EntityInfo, RelInfo};
use crate::lang::Text;
use crate::model::design::{
    AttributeForm, DesignName, FieldPattern, Granularity, Joins, Strategy, MAX_SUBFIELDS,
};

impl Checker {
    pub(super) fn design(&mut self, v: &Value, entities: &[EntityInfo], rels: &[RelInfo]) {
        self.design_at(v, "$.design", entities, rels);
    }

    /// Checks a design (base, overrides, field patterns) found at `at`.
    pub(super) fn design_at(
        &mut self,
        v: &Value,
        at: &str,
        entities: &[EntityInfo],
        rels: &[RelInfo],
    ) {
        let Some(m) = self.object(
            v,
            at,
            &["base", "relationships", "fields", "joins", "polymorphic"],
            &[],
        ) else {
            return;
        };
        if let Some(p) = m.get("polymorphic") {
            self.polymorphic(p, &format!("{at}.polymorphic"), entities);
        }
        if let Some(j) = self.string(m, "joins", at) {
            if !Joins::ALL.iter().any(|x| x.as_str() == j) {
                self.err(
                    &format!("{at}.joins"),
                    Text::new("unknown-joins").arg("joins", j).nested(
                        "expected",
                        or_list(Joins::ALL.into_iter().map(Joins::as_str)),
                    ),
                );
            }
        }
        if let Some(b) = self.string(m, "base", at) {
            if DesignName::from_name(b).is_none() {
                self.err(
                    &format!("{at}.base"),
                    Text::new("unknown-design")
                        .arg("name", b)
                        .nested("expected", or_list(design_names())),
                );
            }
        }
        if let Some(r) = m.get("relationships") {
            let Some(rm) = r.as_object() else {
                self.err(
                    &format!("{at}.relationships"),
                    Text::new("expected-object").nested("found", describe(r)),
                );
                return;
            };
            for (name, s) in rm {
                let p = format!("{at}.relationships.{name}");
                let rel = rels.iter().find(|r| &r.name == name);
                if rel.is_none() {
                    self.err(&p, Text::new("unknown-relationship").arg("name", name));
                }
                self.strategy(s, &p, rel, entities);
            }
        }
        if let Some(list) = self.array(m, "fields", at) {
            let mut seen = HashSet::new();
            for (i, f) in list.iter().enumerate() {
                let p = format!("{at}.fields[{i}]");
                self.pattern(f, &p, entities, rels);
                if let Some(fm) = f.as_object() {
                    let key = (fm.get("entity").cloned(), fm.get("field").cloned());
                    if !seen.insert(format!("{key:?}")) {
                        self.err(&p, Text::new("duplicate-pattern"));
                    }
                }
            }
        }
    }

    fn strategy(&mut self, v: &Value, path: &str, rel: Option<&RelInfo>, entities: &[EntityInfo]) {
        let Some(m) = v.as_object() else {
            self.err(
                path,
                Text::new("expected-strategy-object").nested("found", describe(v)),
            );
            return;
        };
        let Some(s) = self.string(m, "strategy", path) else {
            if !m.contains_key("strategy") {
                self.err(
                    &format!("{path}.strategy"),
                    Text::new("missing-key").arg("key", "strategy"),
                );
            }
            return;
        };
        let Some(known) = Strategy::from_name(s) else {
            self.err(
                &format!("{path}.strategy"),
                Text::new("unknown-strategy")
                    .arg("strategy", s)
                    .arg("expected", Strategy::names().collect::<Vec<_>>().join(", ")),
            );
            return;
        };
        // `strategy`, then the number parameter (required) or the copied fields (optional).
        let mut req = vec!["strategy"];
        req.extend(known.parameter().map(|(key, _)| key));
        let mut keys = req.clone();
        keys.extend(known.copy().map(|_| "copy"));
        keys.extend(known.option_keys());
        self.object(v, path, &keys, &req);
        self.integer(m, "k", path, 1);
        self.integer(m, "size", path, 1);
        self.integer(m, "threshold", path, 1);
        if let Some(rel) = rel {
            let feed_strategy = known.is_feed();
            if feed_strategy && !rel.feed {
                self.err(
                    &format!("{path}.strategy"),
                    Text::new("feed-strategy-needs-feed").arg("strategy", s),
                );
            }
            if !feed_strategy && rel.feed {
                self.err(
                    &format!("{path}.strategy"),
                    Text::new("feed-needs-feed-strategy").arg("relationship", &rel.name),
                );
            }
            if matches!(known, Strategy::TimeSeries { .. }) {
                self.time_series(m, path, rel, entities);
            }
            if rel.tree && !known.is_tree() {
                self.err(
                    &format!("{path}.strategy"),
                    Text::new("tree-needs-tree-strategy").arg("relationship", &rel.name),
                );
            }
            if matches!(known, Strategy::SingleCollection)
                && (rel.parent == rel.child || rel.feed || rel.many_to_many)
            {
                self.err(
                    &format!("{path}.strategy"),
                    Text::new("single-collection-one-to-many")
                        .arg("strategy", s)
                        .arg("relationship", &rel.name),
                );
            }
            if known.is_tree() && (rel.parent != rel.child || rel.feed || rel.many_to_many) {
                self.err(
                    &format!("{path}.strategy"),
                    Text::new("tree-strategy-not-tree")
                        .arg("strategy", s)
                        .arg("relationship", &rel.name),
                );
            }
            if let Some(list) = self.array(m, "copy", path) {
                let from = if known.copies_from() == Some("child") {
                    &rel.child
                } else {
                    &rel.parent
                };
                for (i, f) in list.iter().enumerate() {
                    let ok = f.as_str().is_some_and(|n| {
                        entities
                            .iter()
                            .any(|e| &e.name == from && e.fields.iter().any(|x| x == n))
                    });
                    if !ok {
                        self.err(
                            &format!("{path}.copy[{i}]"),
                            Text::new("no-copy-field")
                                .arg("entity", from)
                                .arg("field", f),
                        );
                    }
                }
            }
        }
    }

    /// Checks a `time_series` strategy: a known granularity, and a one-to-many whose child is
    /// a measurement (another entity, with a date field for the `timeField`).
    fn time_series(
        &mut self,
        m: &serde_json::Map<String, Value>,
        path: &str,
        rel: &RelInfo,
        entities: &[EntityInfo],
    ) {
        if let Some(g) = self.string(m, "granularity", path) {
            if Granularity::from_name(g).is_none() {
                let names: Vec<&str> = Granularity::ALL.iter().map(|g| g.name()).collect();
                self.err(
                    &format!("{path}.granularity"),
                    Text::new("unknown-granularity")
                        .arg("granularity", g)
                        .nested("expected", or_list(names)),
                );
            }
        }
        if rel.many_to_many || rel.parent == rel.child {
            self.err(
                &format!("{path}.strategy"),
                Text::new("time-series-one-to-many").arg("relationship", &rel.name),
            );
        }
        let dated = entities
            .iter()
            .find(|e| e.name == rel.child)
            .is_none_or(|e| !e.dates.is_empty());
        if !dated {
            self.err(
                &format!("{path}.strategy"),
                Text::new("time-series-needs-date").arg("entity", &rel.child),
            );
        }
    }

    /// Returns the child entity of the pattern's `relationship`, checking that the pattern's
    /// `entity` is its parent (a computed total and a map both belong to the parent).
    fn child_of_own(
        &mut self,
        m: &Map<String, Value>,
        path: &str,
        rels: &[RelInfo],
        entity: Option<&str>,
    ) -> Option<String> {
        let r = self.rel_ref(m, "relationship", path, rels)?;
        if entity.is_some_and(|e| e != r.parent) {
            self.err(
                &format!("{path}.relationship"),
                Text::new("computed-other-parent")
                    .arg("relationship", &r.name)
                    .arg("parent", &r.parent),
            );
        }
        Some(r.child.clone())
    }

    fn pattern(&mut self, v: &Value, path: &str, entities: &[EntityInfo], rels: &[RelInfo]) {
        let Some(m) = v.as_object() else {
            self.err(
                path,
                Text::new("expected-pattern-object").nested("found", describe(v)),
            );
            return;
        };
        let Some(p) = self.string(m, "pattern", path) else {
            if !m.contains_key("pattern") {
                self.err(
                    &format!("{path}.pattern"),
                    Text::new("missing-key").arg("key", "pattern"),
                );
            }
            return;
        };
        let Some((keys, req)) = FieldPattern::keys(p) else {
            self.err(
                &format!("{path}.pattern"),
                Text::new("unknown-pattern")
                    .arg("pattern", p)
                    .nested("expected", or_list(FieldPattern::NAMES)),
            );
            return;
        };
        self.object(v, path, keys, req);
        let entity = self
            .entity_ref(m, "entity", path, entities)
            .map(|e| e.name.clone());
        match p {
            "attribute" => {
                if let Some(e) = &entity {
                    self.field_ref(m, "field", path, entities, e);
                }
                if let Some(f) = self.string(m, "form", path) {
                    let forms = || AttributeForm::ALL.into_iter().map(AttributeForm::as_str);
                    if !forms().any(|x| x == f) {
                        self.err(
                            &format!("{path}.form"),
                            Text::new("unknown-form").nested("expected", or_list(forms())),
                        );
                    }
                }
                self.string(m, "key", path);
                self.string(m, "value", path);
            }
            "computed" => {
                self.string(m, "field", path);
                if let Some(child) = self.child_of_own(m, path, rels, entity.as_deref()) {
                    self.field_ref(m, "sum", path, entities, &child);
                }
            }
            "map" => {
                if let Some(child) = self.child_of_own(m, path, rels, entity.as_deref()) {
                    self.field_ref(m, "key", path, entities, &child);
                    let named = self.string(m, "key", path);
                    if let (Some(k), Some(e)) = (named, entities.iter().find(|e| e.name == child)) {
                        if e.fields.iter().any(|x| x == k) && !e.strings.iter().any(|x| x == k) {
                            self.err(
                                &format!("{path}.key"),
                                Text::new("map-key-not-string")
                                    .arg("entity", &child)
                                    .arg("field", k),
                            );
                        }
                    }
                }
            }
            "case_insensitive_index" => {
                if let Some(e) = &entity {
                    self.field_ref(m, "field", path, entities, e);
                }
            }
            "gridfs" | "object_storage" => {
                let Some(e) = entity.and_then(|e| entities.iter().find(|x| x.name == e)) else {
                    self.string(m, "field", path);
                    return;
                };
                if let Some(f) = self.string(m, "field", path) {
                    if !e.files.iter().any(|x| x == f) {
                        self.err(
                            &format!("{path}.field"),
                            Text::new("no-file-field")
                                .arg("entity", &e.name)
                                .arg("field", f),
                        );
                    }
                }
            }
            "approximate"
            | "archive"
            | "document_versioning"
            | "schema_versioning"
            | "measurements" => {
                self.lifecycle(p, m, path, entities, entity.as_deref());
            }
            _ => {
                self.string(m, "field", path);
                if let Some(n) = self.integer(m, "slots", path, 1) {
                    let max = MAX_SUBFIELDS;
                    if n > max {
                        self.err(
                            &format!("{path}.slots"),
                            Text::new("too-many-slots").arg("max", max).arg("value", n),
                        );
                    }
                }
            }
        }
    }
}

impl Checker {
    /// Checks the polymorphic groups: each a collection name naming at least two distinct
    /// entities, no entity in two groups, and no group named after an entity outside it.
    fn polymorphic(&mut self, v: &Value, path: &str, entities: &[EntityInfo]) {
        let Some(groups) = v.as_object() else {
            self.err(
                path,
                Text::new("expected-object").nested("found", describe(v)),
            );
            return;
        };
        let mut seen: HashSet<&str> = HashSet::new();
        for (name, list) in groups {
            let at = format!("{path}.{name}");
            let Some(list) = list.as_array() else {
                self.err(
                    &at,
                    Text::new("expected-entity-names").nested("found", describe(list)),
                );
                continue;
            };
            let names: Vec<&str> = list.iter().filter_map(Value::as_str).collect();
            if names.len() != list.len() {
                self.err(&at, Text::new("expected-entity-names-plain"));
                continue;
            }
            let distinct: HashSet<&str> = names.iter().copied().collect();
            if distinct.len() < 2 || distinct.len() != names.len() {
                self.err(&at, Text::new("polymorphic-too-few"));
            }
            for (i, n) in names.iter().enumerate() {
                if !entities.iter().any(|e| e.name == *n) {
                    self.err(
                        &format!("{at}[{i}]"),
                        Text::new("unknown-entity").arg("name", n),
                    );
                } else if !seen.insert(n) {
                    self.err(
                        &format!("{at}[{i}]"),
                        Text::new("polymorphic-twice").arg("entity", n),
                    );
                }
            }
            if entities.iter().any(|e| e.name == *name) && !names.contains(&name.as_str()) {
                self.err(
                    &at,
                    Text::new("polymorphic-name-taken").arg("collection", name),
                );
            }
        }
    }
}
