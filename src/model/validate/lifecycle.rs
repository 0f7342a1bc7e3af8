//! Checks of the lifecycle field patterns: `approximate` (a counter and `every` ≥ 2),
//! `archive` (a date field, `after_days` ≥ 1, `old_share` in 0–1) and `document_versioning`
//! (a revision field's name) and `measurements` (a series field, a date field, counts, names
//! no entity has).

use serde_json::{Map, Value};

use super::{Checker, EntityInfo};
use crate::lang::Text;

/// True when `m[key]` is a string.
fn key_is_string(m: &Map<String, Value>, key: &str) -> bool {
    m.get(key).is_some_and(Value::is_string)
}

impl Checker {
    /// Checks the keys of a lifecycle pattern `p` of `entity` at `path`.
    pub(super) fn lifecycle(
        &mut self,
        p: &str,
        m: &Map<String, Value>,
        path: &str,
        entities: &[EntityInfo],
        entity: Option<&str>,
    ) {
        match p {
            "approximate" => {
                if let Some(e) = entity {
                    self.field_ref(m, "field", path, entities, e);
                }
                self.integer(m, "every", path, 2);
            }
            "archive" => {
                let info = entity.and_then(|e| entities.iter().find(|x| x.name == e));
                if let (Some(f), Some(e)) = (self.string(m, "field", path), info) {
                    if !e.dates.iter().any(|d| d == f) {
                        self.err(
                            &format!("{path}.field"),
                            Text::new("archive-needs-date")
                                .arg("entity", &e.name)
                                .arg("field", f),
                        );
                    }
                }
                self.integer(m, "after_days", path, 1);
                if let Some(s) = self.number(m, "old_share", path, true) {
                    if s > 1.0 {
                        self.err(
                            &format!("{path}.old_share"),
                            Text::new("read-share-range").arg("value", s),
                        );
                    }
                }
            }
            "schema_versioning" => self.schema_versioning(m, path, entities, entity),
            "measurements" => self.measurements(m, path, entities, entity),
            _ => {
                self.string(m, "field", path);
            }
        }
    }

    /// Checks a `measurements` pattern: the series field of the entity, a date field for the
    /// measurements' time, `series` and `window_seconds` ≥ 1, a known granularity, and the
    /// two entities it makes (`meta`, `measurement`) named as no entity is.
    fn measurements(
        &mut self,
        m: &Map<String, Value>,
        path: &str,
        entities: &[EntityInfo],
        entity: Option<&str>,
    ) {
        if let Some(e) = entity {
            self.field_ref(m, "meta", path, entities, e);
            let info = entities.iter().find(|x| x.name == e);
            if info.is_some_and(|x| x.dates.is_empty()) {
                self.err(
                    &format!("{path}.entity"),
                    Text::new("measurements-needs-date").arg("entity", e),
                );
            }
        }
        self.integer(m, "series", path, 1);
        self.integer(m, "window_seconds", path, 1);
        for key in ["meta", "measurement"] {
            if let Some(n) = m.get(key).and_then(Value::as_str) {
                if entities.iter().any(|x| x.name == n) {
                    self.err(
                        &format!("{path}.{key}"),
                        Text::new("measurements-name-taken").arg("name", n),
                    );
                }
            }
        }
        if key_is_string(m, "measurement") && m.get("meta") == m.get("measurement") {
            self.err(
                &format!("{path}.measurement"),
                Text::new("measurements-same-names"),
            );
        }
        if let Some(g) = m.get("granularity") {
            let known = g
                .as_str()
                .and_then(crate::model::design::Granularity::from_name)
                .is_some();
            if !known {
                self.err(
                    &format!("{path}.granularity"),
                    Text::new("measurements-granularity").nested(
                        "expected",
                        super::or_list(crate::model::design::Granularity::ALL.map(|g| g.name())),
                    ),
                );
            }
        }
    }

    /// Checks a `schema_versioning` pattern: two different versions, a share, the fields the
    /// new version adds (as an entity's) and removes (the entity's).
    fn schema_versioning(
        &mut self,
        m: &Map<String, Value>,
        path: &str,
        entities: &[EntityInfo],
        entity: Option<&str>,
    ) {
        let info = entity.and_then(|e| entities.iter().find(|x| x.name == e));
        if let (Some(f), Some(e)) = (self.string(m, "field", path), info) {
            if e.fields.iter().any(|x| x == f) {
                self.err(
                    &format!("{path}.field"),
                    Text::new("schema-version-field-taken")
                        .arg("entity", &e.name)
                        .arg("field", f),
                );
            }
        }
        let from = self.integer(m, "from", path, 0);
        let to = self.integer(m, "to", path, 0);
        if let (Some(a), Some(b)) = (from, to) {
            if a == b {
                self.err(
                    &format!("{path}.to"),
                    Text::new("migration-same-version").arg("version", a),
                );
            }
        }
        if let Some(s) = self.number(m, "migrated_share", path, true) {
            if s > 1.0 {
                self.err(
                    &format!("{path}.migrated_share"),
                    Text::new("document-share-range").arg("value", s),
                );
            }
        }
        if let Some(v) = m.get("added") {
            self.fields(v, &format!("{path}.added"), 0);
        }
        if let Some(v) = m.get("removed") {
            let Some(list) = v.as_array() else {
                self.err(
                    &format!("{path}.removed"),
                    Text::new("expected-field-names-plain"),
                );
                return;
            };
            for (i, f) in list.iter().enumerate() {
                let known = f
                    .as_str()
                    .is_some_and(|n| info.is_none_or(|e| e.fields.iter().any(|x| x == n)));
                if !known {
                    self.err(
                        &format!("{path}.removed[{i}]"),
                        Text::new("expected-entity-field")
                            .arg("entity", entity.unwrap_or_default()),
                    );
                }
            }
        }
    }
}
