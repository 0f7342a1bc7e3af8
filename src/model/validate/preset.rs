//! Checks of a model's preset metadata: its texts, its source (an article, or a published page
//! with its title and address), and every offered design (named, or defined in
//! `custom_designs`).

use serde_json::Value;

use super::{describe, design_names, Checker, EntityInfo, RelInfo};
use crate::lang::Text;
use crate::model::design::DesignName;

impl Checker {
    /// Checks the preset metadata: required texts, the source, and that every offered design
    /// is a named one or defined in `custom_designs` (each checked like `design`).
    pub(super) fn preset(&mut self, v: &Value, entities: &[EntityInfo], rels: &[RelInfo]) {
        // The preset's keys, the first ones (`REQUIRED`) required.
        const KEYS: &[&str] = &[
            "title",
            "lesson",
            "source",
            "explanation",
            "scale_note",
            "designs",
            "custom_designs",
            "design_sharding",
            "design_labels",
        ];
        const REQUIRED: &[&str] = KEYS.split_at(6).0;
        let Some(m) = self.object(v, "$.preset", KEYS, REQUIRED) else {
            return;
        };
        for k in ["title", "lesson", "explanation", "scale_note"] {
            if self
                .string(m, k, "$.preset")
                .is_some_and(|s| s.trim().is_empty())
            {
                self.err(&format!("$.preset.{k}"), Text::new("empty"));
            }
        }
        if let Some(lesson) = m.get("lesson").and_then(Value::as_str) {
            if lesson.contains('\n') {
                self.err("$.preset.lesson", Text::new("lesson-multiline"));
            }
        }
        if let Some(s) = m.get("source") {
            self.source(s);
        }
        let custom = match m.get("custom_designs") {
            Some(c) => self.custom_designs(c, entities, rels),
            None => Vec::new(),
        };
        let offered: Vec<String> = m
            .get("designs")
            .and_then(Value::as_array)
            .map(|l| {
                l.iter()
                    .filter_map(|d| d.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        if let Some(ds) = m.get("design_sharding") {
            self.design_sharding(ds, &offered);
        }
        if let Some(dl) = m.get("design_labels") {
            self.design_labels(dl, &offered);
        }
        if let Some(list) = self.array(m, "designs", "$.preset") {
            self.offered_designs(list, &custom);
        }
    }

    /// Checks the preset's source: an article of the seeds (with the numbers of its tips), or
    /// a published page with its title and address.
    fn source(&mut self, s: &Value) {
        // An article of the seeds, or a published page with its title and address.
        let required: &[&str] = if s.get("title").is_some() && s.get("article").is_none() {
            &["title", "url"]
        } else {
            &["article"]
        };
        let allowed = ["article", "tips", "title", "url"];
        if let Some(sm) = self.object(s, "$.preset.source", &allowed, required) {
            for k in ["article", "title", "url"] {
                self.string(sm, k, "$.preset.source");
            }
            if let Some(tips) = self.array(sm, "tips", "$.preset.source") {
                for (i, t) in tips.iter().enumerate() {
                    if t.as_u64().is_none() {
                        self.err(
                            &format!("$.preset.source.tips[{i}]"),
                            Text::new("expected-tip-number").nested("found", describe(t)),
                        );
                    }
                }
            }
        }
    }

    /// Checks `custom_designs` (each checked like `design`, under a name that is not a named
    /// design's nor reserved) and returns their names.
    fn custom_designs(
        &mut self,
        c: &Value,
        entities: &[EntityInfo],
        rels: &[RelInfo],
    ) -> Vec<String> {
        let mut custom: Vec<String> = Vec::new();
        match c.as_object() {
            Some(cm) => {
                for (name, d) in cm {
                    if DesignName::from_name(name).is_some() {
                        self.err(
                            &format!("$.preset.custom_designs.{name}"),
                            Text::new("custom-design-named").arg("name", name),
                        );
                    }
                    if ["custom", "model"].contains(&name.as_str()) {
                        self.err(
                            &format!("$.preset.custom_designs.{name}"),
                            Text::new("custom-design-reserved").arg("name", name),
                        );
                    }
                    self.design_at(
                        d,
                        &format!("$.preset.custom_designs.{name}"),
                        entities,
                        rels,
                    );
                    custom.push(name.clone());
                }
            }
            None => self.err(
                "$.preset.custom_designs",
                Text::new("expected-object").nested("found", describe(c)),
            ),
        }
        custom
    }

    /// Checks `design_sharding`: a sharding for designs the preset offers (`offered`).
    fn design_sharding(&mut self, ds: &Value, offered: &[String]) {
        match ds.as_object() {
            Some(dm) => {
                for (name, sh) in dm {
                    let p = format!("$.preset.design_sharding.{name}");
                    if !offered.contains(name) {
                        self.err(&p, Text::new("not-offered-design").arg("name", name));
                    }
                    self.sharding(sh, &p);
                }
            }
            None => self.err(
                "$.preset.design_sharding",
                Text::new("expected-object").nested("found", describe(ds)),
            ),
        }
    }

    /// Checks the offered `designs`: at least one, each a named design or one of `custom`.
    fn offered_designs(&mut self, list: &[Value], custom: &[String]) {
        if list.is_empty() {
            self.err("$.preset.designs", Text::new("no-designs"));
        }
        for (i, d) in list.iter().enumerate() {
            let p = format!("$.preset.designs[{i}]");
            match d.as_str() {
                Some(n) if DesignName::from_name(n).is_some() || custom.iter().any(|c| c == n) => {}
                Some(n) => self.err(
                    &p,
                    Text::new("unknown-design").arg("name", n).arg(
                        "expected",
                        design_names()
                            .map(str::to_string)
                            .chain(custom.iter().cloned())
                            .collect::<Vec<_>>()
                            .join(", "),
                    ),
                ),
                None => self.err(
                    &p,
                    Text::new("expected-design-name").nested("found", describe(d)),
                ),
            }
        }
    }
}
