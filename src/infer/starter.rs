//! A starter workload for an inferred model: a dump holds data, not the application's
//! operations, so the inference proposes some, every one of them an assumption the report
//! lists ([`AssumedUnit`]) for the user to edit or delete:
//!
//! - one read by each index of the dump's metadata (the equality query on its first key the
//!   index serves), when that key is a top-level field of the entity (an index on a field that
//!   became a reference serves the parent's read with its children, proposed below);
//! - one read of each parent by `_id` with the children of every relationship it has;
//! - one insert of a child into each relationship.
//!
//! Rates are fixed defaults ([`READ_RATE`], [`INSERT_RATE`]), not measured: nothing in a dump
//! says how often the application runs a query.

use serde::Serialize;

use crate::model::workload::{ChildRead, Step, Unit};
use crate::model::Model;

/// Default rate of a proposed read, per second.
pub const READ_RATE: f64 = 10.0;

/// Default rate of a proposed insert, per second.
pub const INSERT_RATE: f64 = 1.0;

/// An index the starter workload may read by: its collection, name and first key.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexKeyed<'a> {
    /// The collection (entity) it indexes.
    pub collection: &'a str,
    /// Its name (`email_1`).
    pub name: &'a str,
    /// Its first key's field.
    pub field: &'a str,
    /// Its first key's kind (`1`, `-1`, `hashed`, `text` …).
    pub kind: &'a str,
}

/// Why the inference proposed a unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// The query an index of the dump's metadata serves.
    Index,
    /// A parent read with its children.
    ParentWithChildren,
    /// A child added to a relationship.
    InsertChild,
}

/// One unit of the starter workload, as the report lists it: every one is assumed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AssumedUnit {
    /// The unit's name in the model's workload.
    pub unit: String,
    /// Why it was proposed.
    pub reason: Reason,
    /// Its default rate per second (edit it in the model).
    pub rate_per_sec: f64,
    /// The entity read, or the child entity inserted.
    pub entity: String,
    /// For [`Reason::Index`]: the index's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<String>,
    /// For [`Reason::Index`]: the field read by (the index's first key).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// For [`Reason::InsertChild`]: the relationship the child joins.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relationship: Option<String>,
}

/// Returns the starter workload of `model` (whose `workload` is ignored) and its report rows,
/// in the order: index reads, parent reads, child inserts.
pub fn starter_workload(
    model: &Model,
    indexes: &[IndexKeyed<'_>],
) -> (Vec<Unit>, Vec<AssumedUnit>) {
    let mut units: Vec<Unit> = Vec::new();
    let mut rows = Vec::new();
    let mut push = |units: &mut Vec<Unit>, unit: Unit, row: AssumedUnit| {
        if units.iter().any(|u| u.name == unit.name) {
            return;
        }
        rows.push(AssumedUnit {
            unit: unit.name.clone(),
            rate_per_sec: unit.rate_per_sec,
            ..row
        });
        units.push(unit);
    };
    let row = |reason, entity: &str| AssumedUnit {
        unit: String::new(),
        reason,
        rate_per_sec: 0.0,
        entity: entity.to_string(),
        index: None,
        field: None,
        relationship: None,
    };
    for i in indexes {
        // `_id_` is the parent reads' own; text, geo and wildcard indexes serve no equality.
        if i.field == "_id" || !matches!(i.kind, "1" | "-1" | "hashed") {
            continue;
        }
        let Some(e) = model.entities.iter().find(|e| e.name == i.collection) else {
            continue;
        };
        if e.fields.get(i.field).is_none() {
            continue;
        }
        let unit = Unit {
            name: format!("read {} by {}", e.name, i.field),
            rate_per_sec: READ_RATE,
            steps: vec![Step::Read {
                entity: e.name.clone(),
                by: i.field.to_string(),
                children: Vec::new(),
                case_insensitive: false,
            }],
        };
        let r = AssumedUnit {
            index: Some(i.name.to_string()),
            field: Some(i.field.to_string()),
            ..row(Reason::Index, &e.name)
        };
        push(&mut units, unit, r);
    }
    let usable = |r: &&crate::model::Relationship| r.feed.is_none();
    for e in &model.entities {
        let children: Vec<ChildRead> = model
            .relationships
            .iter()
            .filter(usable)
            .filter(|r| r.parent == e.name)
            .map(|r| ChildRead {
                relationship: r.name.clone(),
                limit: None,
                sort: None,
                fields: Vec::new(),
            })
            .collect();
        if children.is_empty() {
            continue;
        }
        let unit = Unit {
            name: format!("read {} with its children", e.name),
            rate_per_sec: READ_RATE,
            steps: vec![Step::Read {
                entity: e.name.clone(),
                by: "_id".to_string(),
                children,
                case_insensitive: false,
            }],
        };
        push(&mut units, unit, row(Reason::ParentWithChildren, &e.name));
    }
    for r in model.relationships.iter().filter(usable) {
        let unit = Unit {
            name: format!("insert {} ({})", r.child, r.name),
            rate_per_sec: INSERT_RATE,
            steps: vec![Step::InsertChild {
                relationship: r.name.clone(),
            }],
        };
        let row = AssumedUnit {
            relationship: Some(r.name.clone()),
            ..row(Reason::InsertChild, &r.child)
        };
        push(&mut units, unit, row);
    }
    (units, rows)
}

/// Gives `model` its starter workload and says so in its description; returns the report's
/// rows.
pub fn with_starter_workload(model: &mut Model, indexes: &[IndexKeyed<'_>]) -> Vec<AssumedUnit> {
    let (units, rows) = starter_workload(model, indexes);
    if !units.is_empty() {
        let note = format!(
            " Its workload ({} units) is assumed, not read from the data: a read by each \
             index of the dump, a read of each parent with its children and an insert of each \
             child, at default rates to edit.",
            units.len()
        );
        model.description = Some(model.description.take().unwrap_or_default() + &note);
    }
    model.workload = units;
    rows
}

/// Returns the report's line of `u` in the page's or the summary's language: what it does
/// (its unit name in English), its rate and why it was proposed.
pub fn line(u: &AssumedUnit) -> crate::lang::Text {
    let what = match u.reason {
        Reason::Index => crate::lang::Text::new("infer-workload-read-by")
            .arg("field", u.field.as_deref().unwrap_or_default()),
        Reason::ParentWithChildren => crate::lang::Text::new("infer-workload-read-children"),
        Reason::InsertChild => crate::lang::Text::new("infer-workload-insert").arg(
            "relationship",
            u.relationship.as_deref().unwrap_or_default(),
        ),
    }
    .arg("entity", &u.entity);
    crate::lang::Text::new("infer-cli-workload")
        .nested("what", what)
        .arg("rate", u.rate_per_sec)
        .nested("why", why(u))
}

/// Returns why the inference proposed `u`, as the report says it.
pub fn why(u: &AssumedUnit) -> crate::lang::Text {
    match u.reason {
        Reason::Index => crate::lang::Text::new("infer-workload-why-index")
            .arg("index", u.index.as_deref().unwrap_or_default()),
        Reason::ParentWithChildren => crate::lang::Text::new("infer-workload-why-parent"),
        Reason::InsertChild => crate::lang::Text::new("infer-workload-why-insert"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A preset's model (its own workload is ignored by the starter).
    fn preset(text: &str) -> Model {
        crate::model::parse_model(text).unwrap()
    }

    /// blog: author → post → comment, two one-to-many relationships.
    fn blog() -> Model {
        preset(include_str!("../../presets/blog.json"))
    }

    fn index<'a>(
        collection: &'a str,
        name: &'a str,
        field: &'a str,
        kind: &'a str,
    ) -> IndexKeyed<'a> {
        IndexKeyed {
            collection,
            name,
            field,
            kind,
        }
    }

    #[test]
    fn every_relationship_is_read_with_its_parent_and_inserted_but_feeds() {
        let model = blog();
        let (units, rows) = starter_workload(&model, &[]);
        let names: Vec<&str> = units.iter().map(|u| u.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "read author with its children",
                "read post with its children",
                "insert post (posts)",
                "insert comment (comments)",
            ]
        );
        assert_eq!(rows.len(), units.len());
        assert!(matches!(
            units[0].steps.first(),
            Some(Step::Read { entity, by, children, .. })
                if entity == "author" && by == "_id" && children.len() == 1
                    && children[0].relationship == "posts"
        ));
        // social-feed's one relationship is a feed: nothing to propose.
        let feed = preset(include_str!("../../presets/social-feed.json"));
        assert!(feed.relationships.iter().all(|r| r.feed.is_some()));
        assert_eq!(starter_workload(&feed, &[]).0, Vec::new());
    }

    #[test]
    fn only_equality_indexes_on_a_field_of_the_entity_give_a_read() {
        let model = blog();
        let entity = &model.entities[0];
        let field = entity
            .fields
            .iter()
            .map(|(n, _)| n.as_str())
            .find(|n| *n != "_id")
            .unwrap();
        let indexes = [
            index(&entity.name, "_id_", "_id", "1"),
            index(&entity.name, "text", field, "text"),
            index(&entity.name, "geo", field, "2dsphere"),
            index(&entity.name, "gone", "no_such_field", "1"),
            index("no_such_collection", "x_1", field, "1"),
            index(&entity.name, "a", field, "-1"),
            // The same query twice (another index on the same first key): one unit.
            index(&entity.name, "b", field, "hashed"),
        ];
        let (units, rows) = starter_workload(&model, &indexes);
        let by_index: Vec<(&str, Option<&str>)> = rows
            .iter()
            .filter(|r| r.reason == Reason::Index)
            .map(|r| (r.unit.as_str(), r.index.as_deref()))
            .collect();
        let name = format!("read {} by {field}", entity.name);
        assert_eq!(by_index, [(name.as_str(), Some("a"))]);
        assert!(matches!(
            units.first().and_then(|u| u.steps.first()),
            Some(Step::Read { by, children, .. }) if by == field && children.is_empty()
        ));
    }

    #[test]
    fn the_description_says_the_workload_is_assumed() {
        let mut model = blog();
        model.description = Some("Inferred.".to_string());
        let rows = with_starter_workload(&mut model, &[]);
        assert_eq!(rows.len(), 4);
        assert_eq!(model.workload.len(), 4);
        let d = model.description.unwrap_or_default();
        assert!(
            d.starts_with("Inferred. Its workload (4 units) is assumed"),
            "{d}"
        );
        // Nothing to propose: the description stays as it was.
        let mut feed = preset(include_str!("../../presets/social-feed.json"));
        feed.description = Some("Inferred.".to_string());
        assert!(with_starter_workload(&mut feed, &[]).is_empty());
        assert_eq!(feed.description.as_deref(), Some("Inferred."));
    }
}
