//! Checks of the entities and their fields: names, counts, types, nesting, and each field's
//! value distribution.

use serde_json::{Map, Value};

use super::{describe, or_list, Checker, EntityInfo, FIELD_KEYS, KEY_TYPES, MAX_FIELDS};
use crate::lang::Text;
use crate::model::distribution::Shape;
use crate::model::field::{BsonType, ValueKind};
use crate::model::MAX_COUNT;

impl Checker {
    pub(super) fn entity(&mut self, v: &Value, path: &str) -> Option<EntityInfo> {
        let m = self.object(v, path, &["name", "count", "fields"], &["name", "count"])?;
        let name = self.string(m, "name", path).map(str::to_string);
        if let Some(x) = self.number(m, "count", path, true) {
            self.at_most(x, MAX_COUNT, &format!("{path}.count"));
        }
        let mut fields = vec!["_id".to_string()];
        if let Some(f) = m.get("fields") {
            fields.extend(self.fields(f, &format!("{path}.fields"), 1));
        }
        let of_types = |types: &[&str]| -> Vec<String> {
            m.get("fields")
                .and_then(Value::as_object)
                .map(|o| {
                    o.iter()
                        .filter(|(_, f)| {
                            f.get("type")
                                .and_then(Value::as_str)
                                .is_some_and(|t| types.contains(&t))
                        })
                        .map(|(k, _)| k.clone())
                        .collect()
                })
                .unwrap_or_default()
        };
        let files = of_types(&["binData", "string"]);
        let dates = of_types(&["date"]);
        let keys = of_types(&KEY_TYPES);
        let strings = of_types(&["string"]);
        Some(EntityInfo {
            name: name?,
            fields,
            files,
            dates,
            keys,
            strings,
        })
    }

    /// Checks a `fields` object and returns the field names.
    pub(super) fn fields(&mut self, v: &Value, path: &str, depth: usize) -> Vec<String> {
        let Some(m) = v.as_object() else {
            self.err(
                path,
                Text::new("expected-fields-object").nested("found", describe(v)),
            );
            return Vec::new();
        };
        if m.len() > MAX_FIELDS {
            self.err(
                path,
                Text::new("too-many-fields")
                    .arg("max", MAX_FIELDS)
                    .arg("count", m.len()),
            );
            return Vec::new();
        }
        for (name, f) in m {
            if name.is_empty() {
                self.err(path, Text::new("empty-field-name"));
            } else if name.starts_with('$') || name.contains('.') || name.contains('\0') {
                self.err(&format!("{path}.{name}"), Text::new("bad-field-name"));
            }
            self.field(f, &format!("{path}.{name}"), depth);
        }
        m.keys().cloned().collect()
    }

    pub(super) fn field(&mut self, v: &Value, path: &str, depth: usize) {
        let Some(m) = self.object(v, path, FIELD_KEYS, &["type"]) else {
            return;
        };
        let ty = self.bson_type(m, "type", path);
        let items = self.bson_type(m, "items", path);
        if let Some(k) = self.string(m, "kind", path) {
            if ValueKind::from_name(k).is_none() {
                let all: Vec<_> = ValueKind::ALL.into_iter().map(ValueKind::name).collect();
                self.err(
                    &format!("{path}.kind"),
                    Text::new("unknown-kind")
                        .arg("kind", k)
                        .arg("expected", all.join(", ")),
                );
            }
            if k == "enum" && !m.contains_key("values") {
                self.err(&format!("{path}.values"), Text::new("enum-needs-values"));
            }
        }
        if let Some(vals) = self.array(m, "values", path) {
            if vals.is_empty() {
                self.err(&format!("{path}.values"), Text::new("empty"));
            }
            for (i, x) in vals.iter().enumerate() {
                if !x.is_string() {
                    self.err(
                        &format!("{path}.values[{i}]"),
                        Text::new("expected-string").nested("found", describe(x)),
                    );
                }
            }
        }
        if let Some(p) = self.number(m, "presence", path, true) {
            if p > 1.0 {
                self.err(
                    &format!("{path}.presence"),
                    Text::new("probability-range").arg("value", p),
                );
            }
        }
        let lo = self.number(m, "min", path, false);
        let hi = self.number(m, "max", path, false);
        if let (Some(lo), Some(hi)) = (lo, hi) {
            if lo > hi {
                self.err(
                    &format!("{path}.min"),
                    Text::new("min-over-max").arg("min", lo).arg("max", hi),
                );
            }
        }
        self.date(m, "from", path);
        self.date(m, "to", path);
        self.boolean(m, "independent", path);
        self.boolean(m, "values_open", path);
        let elem = if ty == Some(BsonType::Array) {
            items
        } else {
            ty
        };
        if let Some(l) = m.get("length") {
            self.distribution(l, &format!("{path}.length"));
            if let Some(t) = elem {
                if !t.has_length() {
                    self.err(
                        &format!("{path}.length"),
                        Text::new("no-length").arg("type", t.alias()),
                    );
                }
            }
        }
        match ty {
            Some(BsonType::Array) => {
                match items {
                    None if !m.contains_key("items") => {
                        self.err(&format!("{path}.items"), Text::new("array-needs-items"))
                    }
                    Some(BsonType::Array) => {
                        self.err(&format!("{path}.items"), Text::new("nested-arrays"))
                    }
                    _ => {}
                }
                match m.get("count") {
                    Some(c) => self.distribution(c, &format!("{path}.count")),
                    None => self.err(&format!("{path}.count"), Text::new("array-needs-count")),
                }
            }
            Some(_) if m.contains_key("count") => {
                self.err(&format!("{path}.count"), Text::new("count-on-non-array"));
            }
            _ => {}
        }
        if elem == Some(BsonType::Object) {
            match m.get("fields") {
                Some(f) => {
                    self.fields(f, &format!("{path}.fields"), depth + 1);
                }
                None => self.err(&format!("{path}.fields"), Text::new("object-needs-fields")),
            }
        } else if m.contains_key("fields") && elem.is_some() {
            self.err(&format!("{path}.fields"), Text::new("fields-on-non-object"));
        }
    }

    pub(super) fn bson_type(
        &mut self,
        m: &Map<String, Value>,
        key: &str,
        path: &str,
    ) -> Option<BsonType> {
        let s = self.string(m, key, path)?;
        let t = BsonType::from_alias(s);
        if t.is_none() {
            let all: Vec<_> = BsonType::ALL.iter().map(|t| t.alias()).collect();
            self.err(
                &format!("{path}.{key}"),
                Text::new("unknown-bson-type")
                    .arg("type", s)
                    .arg("expected", all.join(", ")),
            );
        }
        t
    }

    pub(super) fn distribution(&mut self, v: &Value, path: &str) {
        let Some(m) = v.as_object() else {
            self.err(
                path,
                Text::new("expected-distribution").nested("found", describe(v)),
            );
            return;
        };
        let shapes = || Shape::ALL.into_iter().map(Shape::name);
        let Some(shape) = self.string(m, "shape", path) else {
            if !m.contains_key("shape") {
                self.err(
                    &format!("{path}.shape"),
                    Text::new("missing-shape")
                        .arg("expected", shapes().collect::<Vec<_>>().join(", ")),
                );
            }
            return;
        };
        let Some(known) = Shape::from_name(shape) else {
            self.err(
                &format!("{path}.shape"),
                Text::new("unknown-shape")
                    .arg("shape", shape)
                    .nested("expected", or_list(shapes())),
            );
            return;
        };
        let keys: Vec<&str> = std::iter::once("shape")
            .chain(known.keys().iter().copied())
            .collect();
        let keys = keys.as_slice();
        self.object(v, path, keys, keys);
        let n = |c: &mut Self, k: &str| {
            let x = c.number(m, k, path, k != "mean")?;
            c.at_most(x, MAX_COUNT, &format!("{path}.{k}"))
        };
        let min = if keys.contains(&"min") {
            n(self, "min")
        } else {
            Some(0.0)
        };
        let max = if keys.contains(&"max") {
            n(self, "max")
        } else {
            None
        };
        let typical = if keys.contains(&"typical") {
            n(self, "typical")
        } else {
            None
        };
        let p99 = if keys.contains(&"p99") {
            n(self, "p99")
        } else {
            None
        };
        if shape == "fixed" {
            n(self, "value");
        }
        if shape == "normal" {
            n(self, "mean");
            n(self, "sd");
        }
        if let (Some(lo), Some(hi)) = (min, max) {
            if lo > hi {
                self.err(
                    &format!("{path}.min"),
                    Text::new("min-over-max").arg("min", lo).arg("max", hi),
                );
            }
        }
        if let (Some(p), Some(hi)) = (p99, max) {
            if p > hi {
                self.err(
                    &format!("{path}.p99"),
                    Text::new("p99-over-max").arg("p99", p).arg("max", hi),
                );
            }
        }
        if let (Some(t), Some(p)) = (typical, p99) {
            if t > p {
                self.err(
                    &format!("{path}.typical"),
                    Text::new("typical-over-p99")
                        .arg("typical", t)
                        .arg("p99", p),
                );
            }
        }
        if let Some(t) = typical {
            if t <= 0.0 {
                self.err(
                    &format!("{path}.typical"),
                    Text::new("typical-not-positive"),
                );
            }
            if let (Some(lo), true) = (min, shape == "zipf") {
                if lo > t {
                    self.err(
                        &format!("{path}.min"),
                        Text::new("min-over-typical")
                            .arg("min", lo)
                            .arg("typical", t),
                    );
                }
            }
        }
    }
}
