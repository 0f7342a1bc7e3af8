//! Which joins the logs show ([`crate::workload_log::join`]) are a parent read with its
//! children: the first read becomes a `read` step, and the read that follows it finds
//! children of one of the model's relationships between the two collections, by their
//! reference to the parent (`orders.find({customerId: …})`, the child's `parent_field` or its
//! default `<parent>Id`) or by the ids the parent holds (`parts.find({_id: {$in: …}})`, or the
//! relationship's `child_key`). The pair must be what the two reads mostly do: more than half
//! of the parent's finds are followed by it, and more than half of the child's follow the
//! parent ([`MOST`]); an occasional pair is two units, as it is two reads. Both halves
//! matter on a pooled connection, which serves one request after another: two unrelated
//! reads follow each other as often as their shares of the reads say, and two shares cannot
//! both pass a half. A relationship of an entity with itself (followers) is not seen this
//! way: both reads are of one collection.
//!
//! The children read is `{relationship, limit, sort, fields}` from the child's find: its
//! largest limit (none: every child), its first sort key, its projection's fields.

use serde_json::{json, Value};

use super::{top, Mapping};
use crate::model::Model;
use crate::workload_log::join::{Join, JOIN_WINDOW_MS};
use crate::workload_log::LogWorkload;

/// The share of each side's operations the pair must pass to be one unit.
pub const MOST: f64 = 0.5;

/// A join kept: the child shape's read is the parent shape's children.
#[derive(Debug, Clone, PartialEq)]
pub struct Kept {
    /// The parent read's shape (index into the log's shapes).
    pub parent: usize,
    /// The child read's shape.
    pub child: usize,
    /// How many of the child's reads followed the parent's.
    pub joined: u64,
    /// The children read of the parent's step (`{relationship, limit, sort, fields}`).
    pub children: Value,
    /// What the parent's row says of it.
    pub parent_note: String,
    /// What the child's row says of it.
    pub child_note: String,
}

/// Returns the joins of `log` that are parent reads with their children, given each shape's
/// step (`steps`, in the order of the log's shapes) and the model's relationships. A child
/// shape is kept with one parent at most: the one it follows most.
pub fn kept(log: &LogWorkload, model: Option<&Model>, steps: &[Mapping]) -> Vec<Kept> {
    let Some(model) = model else {
        return Vec::new();
    };
    let mut joins: Vec<&Join> = log.joins.iter().collect();
    joins.sort_by_key(|j| std::cmp::Reverse(j.count));
    let mut out: Vec<Kept> = Vec::new();
    for join in joins {
        if out
            .iter()
            .any(|k| k.child == join.child || k.parent == join.child || k.child == join.parent)
        {
            continue;
        }
        if let Some(k) = keep(log, model, steps, join) {
            out.push(k);
        }
    }
    out
}

/// Returns `join` as a parent read with its children, if it is one.
fn keep(log: &LogWorkload, model: &Model, steps: &[Mapping], join: &Join) -> Option<Kept> {
    let (_, parent) = log.groups.shapes.get(join.parent)?;
    let (_, child) = log.groups.shapes.get(join.child)?;
    let is_read = |step: &Mapping| {
        step.as_ref()
            .is_ok_and(|(s, _)| s.get("op").and_then(Value::as_str) == Some("read"))
    };
    if !steps.get(join.parent).is_some_and(is_read) {
        return None;
    }
    let most = |n: u64| join.count as f64 > MOST * n as f64;
    if !most(parent.count) || !most(child.count) {
        return None;
    }
    let (p, c) = (&parent.operation, &child.operation);
    let filter = c.filter.as_object()?;
    let fields: Vec<&str> = filter
        .keys()
        .filter(|k| !k.starts_with('$'))
        .map(|k| top(k))
        .collect();
    let (relationship, by) = model
        .relationships
        .iter()
        .filter(|r| r.parent == p.collection && r.child == c.collection && r.feed.is_none())
        .find_map(|r| {
            let by_ids = r.child_key.clone().unwrap_or_else(|| "_id".to_string());
            fields
                .iter()
                .find(|f| **f == r.parent_ref() || **f == by_ids)
                .map(|f| (r, f.to_string()))
        })?;
    let mut children = json!({"relationship": relationship.name});
    if let (Some(limit), Some(m)) = (c.limit.filter(|l| *l > 0), children.as_object_mut()) {
        m.insert("limit".to_string(), json!(limit));
    }
    let sort = c.sort.as_ref().and_then(Value::as_object);
    if let (Some((field, order)), Some(m)) =
        (sort.and_then(|s| s.iter().next()), children.as_object_mut())
    {
        let order = if order.as_f64().is_some_and(|x| x < 0.0) {
            -1
        } else {
            1
        };
        m.insert(
            "sort".to_string(),
            json!({"field": top(field), "order": order}),
        );
    }
    let fields = super::projected(c.projection.as_ref());
    if let (false, Some(m)) = (fields.is_empty(), children.as_object_mut()) {
        m.insert("fields".to_string(), Value::Array(fields));
    }
    let window = format!("on the same connection within {} s", JOIN_WINDOW_MS / 1000);
    let parent_note = format!(
        "read with its {} children: {} of its {} finds were followed {window} by a find of \
         {}.{} by {by} (an application-level join)",
        relationship.name, join.count, parent.count, c.database, c.collection
    );
    let mut child_note = format!(
        "read as the {} children of a {} read: {} of its {} finds followed a find of {}.{} \
         {window}",
        relationship.name, p.collection, join.count, child.count, p.database, p.collection
    );
    if child.count > join.count {
        child_note.push_str(&format!(
            "; the other {} are not in the model",
            child.count - join.count
        ));
    }
    Some(Kept {
        parent: join.parent,
        child: join.child,
        joined: join.count,
        children,
        parent_note,
        child_note,
    })
}

#[cfg(test)]
mod tests {
    use crate::workload_log::model::with_logged_workload;
    use crate::workload_log::LogReading;

    /// A JSON "Slow query" find on `conn` at `ms`.
    fn find(ms: i64, conn: &str, coll: &str, filter: serde_json::Value) -> String {
        let t = crate::date::format_rfc3339(1_709_287_200_000 + ms).unwrap();
        serde_json::json!({"t": {"$date": t}, "s": "I", "c": "COMMAND", "id": 51803,
            "ctx": conn, "msg": "Slow query", "attr": {"type": "command",
            "ns": format!("shop.{coll}"), "command": {"find": coll, "filter": filter},
            "durationMillis": 100}})
        .to_string()
    }

    /// The workload's unit names for `lines`, read into a model of users and their orders.
    fn units(lines: &[String]) -> Vec<String> {
        let mut model = crate::model::parse_model(
            r#"{"entities": [
                {"name": "users", "count": 100, "fields": {"email": {"type": "string"}}},
                {"name": "orders", "count": 300, "fields": {"date": {"type": "date"}}}],
              "relationships": [{"name": "orders", "parent": "users", "child": "orders",
                "parent_field": "customerId", "cardinality": {"shape": "fixed", "value": 3}}]}"#,
        )
        .unwrap();
        let mut reading = LogReading::new();
        reading.read("log", lines.join("\n").as_bytes()).unwrap();
        with_logged_workload(&mut model, &reading.finish()).unwrap();
        model.workload.iter().map(|u| u.name.clone()).collect()
    }

    #[test]
    fn a_pair_is_one_read_with_children_only_when_it_is_most_of_both_reads() {
        let user = |ms, conn| find(ms, conn, "users", serde_json::json!({"email": "a"}));
        let orders = |ms, conn| find(ms, conn, "orders", serde_json::json!({"customerId": 1}));
        let mut lines = Vec::new();
        for i in 0..4 {
            lines.push(user(i * 5_000, "conn1"));
            lines.push(orders(i * 5_000 + 5, "conn1"));
        }
        assert_eq!(units(&lines), ["read users by email with orders"]);
        // As many orders' finds again, alone: half of them follow a user's read, not more.
        for i in 0..4 {
            lines.push(orders(i * 5_000 + 2_500, "conn2"));
        }
        // (The orders' find becomes a read of an order by customerId, which the model
        // refuses: customerId is the reference, not a field of orders.)
        assert_eq!(units(&lines), ["read users by email"]);
    }
}
