//! Checks of a relationship: its ends, cardinality distribution, growth and the keys a
//! reference may use.

use serde_json::Value;

use super::{Checker, EntityInfo, RelInfo};
use crate::lang::Text;

impl Checker {
    pub(super) fn relationship(
        &mut self,
        v: &Value,
        path: &str,
        entities: &[EntityInfo],
    ) -> Option<RelInfo> {
        let keys = &[
            "name",
            "parent",
            "child",
            "cardinality",
            "many_to_many",
            "parents_per_child",
            "growth_per_day",
            "field",
            "parent_field",
            "parent_key",
            "child_key",
            "feed",
        ];
        let m = self.object(v, path, keys, &["name", "parent", "child", "cardinality"])?;
        let name = self.string(m, "name", path).map(str::to_string);
        let mut ends = Vec::new();
        for end in ["parent", "child"] {
            if let Some(e) = self.string(m, end, path) {
                if !entities.iter().any(|x| x.name == e) {
                    self.err(
                        &format!("{path}.{end}"),
                        Text::new("unknown-entity").arg("name", e),
                    );
                }
                ends.push(e.to_string());
            }
        }
        if let Some(c) = m.get("cardinality") {
            self.distribution(c, &format!("{path}.cardinality"));
        }
        self.boolean(m, "many_to_many", path);
        let many_to_many = m.get("many_to_many").and_then(Value::as_bool) == Some(true);
        if let Some(d) = m.get("parents_per_child") {
            let dp = format!("{path}.parents_per_child");
            if many_to_many {
                self.distribution(d, &dp);
            } else {
                self.err(&dp, Text::new("parents-per-child-one-to-many"));
            }
        }
        if let Some(g) = m.get("growth_per_day") {
            let gp = format!("{path}.growth_per_day");
            if let Some(gm) = self.object(g, &gp, &["typical", "largest"], &["typical"]) {
                self.number(gm, "typical", &gp, true);
                self.number(gm, "largest", &gp, true);
            }
        }
        self.string(m, "field", path);
        let parent_field = self.string(m, "parent_field", path).map(str::to_string);
        let feed = self.string(m, "feed", path).map(str::to_string);
        if let Some(f) = &feed {
            if !entities.iter().any(|x| &x.name == f) {
                self.err(
                    &format!("{path}.feed"),
                    Text::new("unknown-entity").arg("name", f),
                );
            }
        }
        let (parent, child) = match ends.as_slice() {
            [p, c] => (p.clone(), c.clone()),
            _ => return None,
        };
        for (key, end) in [("parent_key", &parent), ("child_key", &child)] {
            let Some(k) = self.string(m, key, path) else {
                continue;
            };
            let Some(e) = entities.iter().find(|e| &e.name == end) else {
                continue;
            };
            if !e.fields.iter().any(|f| f == k) {
                self.err(
                    &format!("{path}.{key}"),
                    Text::new("no-such-field")
                        .arg("entity", end.as_str())
                        .arg("field", k),
                );
            } else if k != "_id" && !e.keys.iter().any(|f| f == k) {
                self.err(
                    &format!("{path}.{key}"),
                    Text::new("bad-key-type").arg("field", k),
                );
            }
        }
        Some(RelInfo {
            name: name?,
            parent_ref: parent_field.unwrap_or_else(|| format!("{parent}Id")),
            parent,
            child,
            feed: feed.is_some(),
            many_to_many,
            tree: false,
        })
    }
}
