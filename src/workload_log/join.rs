//! Application-level joins, seen in the logs: a read of one collection followed, on the same
//! client connection and within [`JOIN_WINDOW_MS`], by a read of another collection of the
//! same database (a user's page reads the user, then the user's orders by `customerId`). The
//! seeds' normalized designs read a parent with its children this way, one request after the
//! other on one connection; the workload step that says it is a `read` with `children`
//! (`operations` decides which pairs are one, with the model's relationships).
//!
//! Only operations with a connection and a time are followed (JSON and text logs; not the
//! profiler, whose documents name no connection, nor `$queryStats`, whose entries are
//! grouped). Writes between the two reads do not break a pair. Memory is bounded by the
//! connections open within the window ([`MAX_CONNECTIONS`]), never by the lines.

use std::collections::{BTreeMap, HashMap};

use super::group::Groups;

/// How soon after a read on a connection a read of another collection is its join: 1 s, a
/// request's time (a slow-query line is written when the operation ends, so the window
/// holds the second read's own duration too).
pub const JOIN_WINDOW_MS: i64 = 1_000;

/// The most connections followed at once; past it, those idle longer than the window are
/// forgotten (their next read pairs with nothing, as it would anyway).
pub const MAX_CONNECTIONS: usize = 10_000;

/// A read followed by a read of another collection on the same connection, counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Join {
    /// The first read's shape (an index into [`Groups::shapes`]).
    pub parent: usize,
    /// The read that followed it (an index into [`Groups::shapes`]).
    pub child: usize,
    /// How many times it followed within the window.
    pub count: u64,
}

/// The reads followed so far: each connection's latest read, and the pairs counted.
#[derive(Debug, Clone, Default)]
pub struct Joins {
    /// Connection → (time, shape) of its latest read.
    latest: HashMap<String, (i64, usize)>,
    /// (first read's shape, next read's shape) → times seen.
    pairs: BTreeMap<(usize, usize), u64>,
}

impl Joins {
    /// Forgets the connections of the input read before: a log's connection numbers are its
    /// own (mongod counts them again from 1 after a restart; two members' logs share them).
    pub fn next_input(&mut self) {
        self.latest.clear();
    }

    /// Follows the read of shape `shape` (of `groups`) on `connection` at `time_ms`: pairs
    /// it with the connection's latest read when that read another collection of the same
    /// database within [`JOIN_WINDOW_MS`] before it.
    pub fn read(&mut self, groups: &Groups, connection: &str, time_ms: i64, shape: usize) {
        if let Some(&(at, before)) = self.latest.get(connection) {
            let within = (0..=JOIN_WINDOW_MS).contains(&(time_ms - at));
            let ops = (groups.shapes.get(before), groups.shapes.get(shape));
            if let (true, (Some((_, first)), Some((_, next)))) = (within, ops) {
                let (first, next) = (&first.operation, &next.operation);
                if first.database == next.database && first.collection != next.collection {
                    *self.pairs.entry((before, shape)).or_insert(0) += 1;
                }
            }
        }
        if self.latest.len() >= MAX_CONNECTIONS && !self.latest.contains_key(connection) {
            self.latest
                .retain(|_, (at, _)| time_ms - *at <= JOIN_WINDOW_MS);
        }
        self.latest.insert(connection.to_string(), (time_ms, shape));
    }

    /// Returns the pairs counted, in the order of their shapes.
    pub fn finish(self) -> Vec<Join> {
        self.pairs
            .into_iter()
            .map(|((parent, child), count)| Join {
                parent,
                child,
                count,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use crate::workload_log::LogReading;

    /// A JSON "Slow query" find of `ns` (`db.collection`) on `conn` at `ms` after 10:00.
    fn find(ms: i64, conn: &str, ns: &str, field: &str) -> String {
        let (db, coll) = ns.split_once('.').unwrap();
        let t = crate::date::format_rfc3339(1_709_287_200_000 + ms).unwrap();
        serde_json::json!({"t": {"$date": t}, "s": "I", "c": "COMMAND", "id": 51803,
            "ctx": conn, "msg": "Slow query", "attr": {"type": "command", "ns": ns,
            "command": {"find": coll, "filter": {field: "x"}, "$db": db},
            "durationMillis": 100}})
        .to_string()
    }

    /// The pairs `(first read's collection, next read's collection, count)` of `inputs`.
    fn pairs(inputs: &[Vec<String>]) -> Vec<(String, String, u64)> {
        let mut reading = LogReading::new();
        for (i, lines) in inputs.iter().enumerate() {
            let text = lines.join("\n");
            reading.read(&format!("log{i}"), text.as_bytes()).unwrap();
        }
        let log = reading.finish();
        let name = |i: usize| log.groups.shapes[i].1.operation.collection.clone();
        log.joins
            .iter()
            .map(|j| (name(j.parent), name(j.child), j.count))
            .collect()
    }

    #[test]
    fn a_read_of_another_collection_within_the_window_on_the_connection_is_a_pair() {
        let lines = vec![
            find(0, "conn1", "shop.users", "email"),
            // On another connection: no pair with conn1's read.
            find(10, "conn2", "shop.orders", "customerId"),
            find(1_000, "conn1", "shop.orders", "customerId"),
            // 1,001 ms after conn1's last read: too late.
            find(2_001, "conn1", "shop.users", "email"),
            // The same collection again, then another database.
            find(2_100, "conn1", "shop.users", "email"),
            find(2_200, "conn1", "other.orders", "customerId"),
        ];
        let got = pairs(&[lines]);
        assert_eq!(got, [("users".to_string(), "orders".to_string(), 1)]);
    }

    #[test]
    fn connections_of_another_input_are_other_connections() {
        // conn1 of the second log is not conn1 of the first.
        let first = vec![find(0, "conn1", "shop.users", "email")];
        let second = vec![find(5, "conn1", "shop.orders", "customerId")];
        assert!(pairs(&[first, second]).is_empty());
    }

    #[test]
    fn writes_between_the_two_reads_do_not_break_the_pair() {
        let t = crate::date::format_rfc3339(1_709_287_200_003).unwrap();
        let update = serde_json::json!({"t": {"$date": t}, "s": "I", "c": "WRITE",
            "id": 51803, "ctx": "conn1", "msg": "Slow query", "attr": {"type": "update",
            "ns": "shop.users", "command": {"q": {"_id": 1}, "u": {"$set": {"seen": 1}}},
            "durationMillis": 100}})
        .to_string();
        let lines = vec![
            find(0, "conn1", "shop.users", "email"),
            update,
            find(6, "conn1", "shop.orders", "customerId"),
        ];
        assert_eq!(
            pairs(&[lines]),
            [("users".to_string(), "orders".to_string(), 1)]
        );
    }
}
