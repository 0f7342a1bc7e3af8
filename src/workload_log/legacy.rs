//! mongod's text log lines, before 4.4: `<time> [S COMPONENT] [context] <op> <ns> … <N>ms`.
//!
//! The time is ISO-8601 with an offset (`2014-04-09T23:25:32.500+0000`, 2.6 on) or ctime
//! without a year (`Mon Aug  5 20:21:43.123`, 2.4 and before); 3.0 added a severity letter
//! and a component (`I COMMAND`). An operation line names its type (`query`, `getmore`,
//! `insert`, `update`, `remove`, `command`) and namespace, then labelled values: objects
//! (`query: { … }`, `command: find { … }`, `update: { … }`), the plan
//! (`planSummary: IXSCAN { cid: 1 }`), figures (`keysExamined:0`, `nscanned:1`,
//! `nreturned:51`), and its duration last (`0ms`). Every other line of mongod is read for its
//! time only.

use super::entry::{Figures, LineRead, Logged};
use super::loose;

/// What opens an object in a line (`query: { … }`, `IXSCAN { a: 1 }`).
const OPEN: char = '{';

/// The operation types a legacy line starts with.
const OPERATION_TYPES: [&str; 6] = ["query", "getmore", "insert", "update", "remove", "command"];

/// Reads one text line of a mongod log; an error says why it is not one (or is broken).
pub fn read(line: &str) -> Result<LineRead, String> {
    if line.starts_with("*****") {
        // "***** SERVER RESTARTED *****": mongod's own banner.
        return Ok(LineRead::default());
    }
    let (time_ms, rest) = timestamp(line).ok_or_else(|| {
        "not a mongod log line (no ISO-8601 or ctime timestamp at its start)".to_string()
    })?;
    let mut out = LineRead {
        time_ms: Some(time_ms),
        logged: None,
    };
    // The context (`[conn12]`) closes the prefix; the severity and component come before it.
    let Some(open) = rest.find('[') else {
        return Ok(out);
    };
    let after = rest.get(open..).unwrap_or_default();
    let Some(close) = after.find(']') else {
        return Ok(out);
    };
    let context = after.get(1..close).unwrap_or_default();
    let body = after.get(close + 1..).unwrap_or_default().trim_start();
    if body.starts_with("warning: log line attempted") {
        // mongod cut the line (past its 10 KB of a log line) and kept its beginning and end.
        return Err(
            "mongod truncated this line (longer than its log line limit): its \
                    operation is not read"
                .to_string(),
        );
    }
    let mut words = body.splitn(3, ' ');
    let (Some(op), Some(ns)) = (words.next(), words.next()) else {
        return Ok(out);
    };
    let tail = words.next().unwrap_or_default();
    let duration = body
        .rsplit(' ')
        .next()
        .and_then(|w| w.strip_suffix("ms"))
        .and_then(|n| n.parse::<u64>().ok());
    if !OPERATION_TYPES.contains(&op) || !ns.contains('.') || duration.is_none() {
        return Ok(out);
    }
    let mut logged = Logged {
        time_ms: Some(time_ms),
        namespace: ns.to_string(),
        connection: context.starts_with("conn").then(|| context.to_string()),
        op: op.to_string(),
        figures: Figures {
            duration_ms: duration,
            ..Figures::default()
        },
        ..Logged::default()
    };
    labels(tail, &mut logged)?;
    out.logged = Some(logged);
    Ok(out)
}

/// Reads the labelled values of an operation line into `logged`.
fn labels(mut s: &str, logged: &mut Logged) -> Result<(), String> {
    loop {
        s = s.trim_start();
        let Some(token) = s.split_whitespace().next() else {
            return Ok(());
        };
        let Some((label, value)) = token.split_once(':') else {
            s = s.get(token.len()..).unwrap_or_default();
            continue;
        };
        if !value.is_empty() && !value.starts_with(OPEN) {
            // `nreturned:51`.
            figure(label, value, &mut logged.figures);
            s = s.get(token.len()..).unwrap_or_default();
            continue;
        }
        let after = s.get(label.len() + 1..).unwrap_or_default().trim_start();
        s = labelled_value(label, after, logged)?;
    }
}

/// Reads a figure (`nreturned:51`, `nscanned:3`) into `figures`.
fn figure(label: &str, value: &str, f: &mut Figures) {
    let n = value.parse::<u64>().ok();
    match label {
        "keysExamined" | "nscanned" => f.keys_examined = n,
        "docsExamined" | "nscannedObjects" => f.docs_examined = n,
        "nreturned" => f.nreturned = n,
        "ntoreturn" => f.ntoreturn = n,
        _ => {}
    }
}

/// Reads the value after `label:` (`s` starts at it) into `logged`: the plan, the command,
/// query or update object, or an object or string skipped whole; returns the rest.
fn labelled_value<'a>(label: &str, mut s: &'a str, logged: &mut Logged) -> Result<&'a str, String> {
    let object = |s: &str| {
        loose::object(s).map_err(|e| format!("{label}: cannot read its object (truncated?): {e}"))
    };
    match label {
        "planSummary" => {
            let (plan, used) = plan_summary(s);
            logged.figures.plan_summary = Some(plan);
            s = s.get(used..).unwrap_or_default();
        }
        "command" | "query" | "update" | "originatingCommand" => {
            // `command: find { … }` (3.2 on) or `command: { … }`.
            if !s.starts_with(OPEN) {
                let name_end = s.find(' ').unwrap_or(s.len());
                if label == "command" {
                    logged.command_name = s.get(..name_end).map(str::to_string);
                }
                s = s.get(name_end..).unwrap_or_default().trim_start();
            }
            if !s.starts_with(OPEN) {
                return Ok(s);
            }
            let (value, used) = object(s)?;
            match label {
                "command" => logged.command = Some(value),
                "query" => logged.query = Some(value),
                "update" => logged.update = Some(value),
                _ => {}
            }
            s = s.get(used..).unwrap_or_default();
        }
        _ if s.starts_with(OPEN) => {
            // `locks:{ … }`, `storage:{ … }`: skipped whole.
            let (_, used) = object(s)?;
            s = s.get(used..).unwrap_or_default();
        }
        _ if s.starts_with('"') => {
            // `appName: "MongoDB Shell"`.
            let end = s
                .get(1..)
                .and_then(|r| r.find('"'))
                .map_or(s.len(), |i| i + 2);
            s = s.get(end..).unwrap_or_default();
        }
        _ => {}
    }
    Ok(s)
}

/// Reads a plan summary (`IXSCAN { a: 1 }, IXSCAN { b: 1 }`); returns it and the bytes read.
fn plan_summary(s: &str) -> (String, usize) {
    let mut at = 0;
    let mut plan = String::new();
    loop {
        let rest = s.get(at..).unwrap_or_default();
        let word_len = rest
            .find(|c: char| c.is_whitespace() || c == ',')
            .unwrap_or(rest.len());
        plan.push_str(rest.get(..word_len).unwrap_or_default());
        at += word_len;
        let rest = s.get(at..).unwrap_or_default();
        let trimmed = rest.trim_start();
        if trimmed.starts_with(OPEN) {
            let start = at + (rest.len() - trimmed.len());
            match loose::object(trimmed) {
                Ok((_, used)) => {
                    plan.push(' ');
                    plan.push_str(s.get(start..start + used).unwrap_or_default());
                    at = start + used;
                }
                Err(_) => return (plan, at),
            }
        }
        let rest = s.get(at..).unwrap_or_default();
        match rest.strip_prefix(", ") {
            Some(next) if next.starts_with(|c: char| c.is_ascii_uppercase()) => {
                plan.push_str(", ");
                at += 2;
            }
            _ => return (plan, at),
        }
    }
}

/// The month abbreviations of ctime.
const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// Days before each month in a year that is not a leap year.
const DAYS_BEFORE: [i64; 12] = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];

/// Milliseconds since the epoch of 2001-01-01T00:00:00Z, where ctime times are counted from.
const CTIME_YEAR_START_MS: i64 = 978_307_200_000;

/// Reads the timestamp at the start of `line`; returns it and the rest of the line.
fn timestamp(line: &str) -> Option<(i64, &str)> {
    let first = line.split(' ').next()?;
    if first.len() >= 19 && first.as_bytes().get(4) == Some(&b'-') {
        let ms = crate::date::parse_iso_date(first).ok()?;
        return Some((ms, line.get(first.len()..)?));
    }
    // ctime: `Mon Aug  5 20:21:43.123` (the day padded with a space).
    let mut words = line.split_whitespace();
    let _weekday = words.next().filter(|w| w.len() == 3)?;
    let month = words.next()?;
    let month = MONTHS.iter().position(|m| *m == month)?;
    let day: i64 = words.next()?.parse().ok()?;
    let clock = words.next()?;
    let (hms, fraction) = clock.split_once('.').unwrap_or((clock, "0"));
    let mut parts = hms.split(':').map(|p| p.parse::<i64>().ok());
    let (h, m, s) = (parts.next()??, parts.next()??, parts.next()??);
    let millis: i64 = format!("{fraction:0<3}").get(..3)?.parse().ok()?;
    let days = DAYS_BEFORE.get(month)? + day - 1;
    let ms = CTIME_YEAR_START_MS + ((days * 24 + h) * 60 + m) * 60_000 + s * 1000 + millis;
    let end = line.find(clock)? + clock.len();
    Some((ms, line.get(end..)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_a_2_6_query_line() {
        let line = "2014-04-09T23:25:32.504+0000 [conn4492] query toothsome.dimgray.gooseberry \
            query: { $query: { groupId: ObjectId('51c44d167fe227e9f18ce94a'), active: true }, \
            $orderby: { name: 1 } } planSummary: IXSCAN { groupId: 1, name: 1 } ntoreturn:20 \
            ntoskip:0 keyUpdates:0 numYields:0 locks(micros) r:1353 nreturned:1 reslen:1125 1ms";
        let read = read(line).unwrap();
        let l = read.logged.unwrap();
        assert_eq!(l.namespace, "toothsome.dimgray.gooseberry");
        assert_eq!(l.op, "query");
        assert_eq!(l.query.unwrap()["$orderby"], json!({"name": 1}));
        assert_eq!(
            l.figures.plan_summary.as_deref(),
            Some("IXSCAN { groupId: 1, name: 1 }")
        );
        assert_eq!(l.figures.ntoreturn, Some(20));
        assert_eq!(l.figures.nreturned, Some(1));
        assert_eq!(l.figures.duration_ms, Some(1));
        assert_eq!(
            read.time_ms,
            crate::date::parse_iso_date("2014-04-09T23:25:32.504Z").ok()
        );
    }

    #[test]
    fn reads_a_4_0_command_line() {
        let line = "2019-06-18T12:05:44.754+0100 I COMMAND  [conn2] command local.myCollection \
            appName: \"MongoDB Shell\" command: find { find: \"myCollection\", filter: {}, \
            $db: \"local\" } planSummary: COLLSCAN keysExamined:0 allowDiskUse: True \
            docsExamined:1 cursorExhausted:1 numYields:0 nreturned:1 reslen:159 locks:{ Global: \
            { acquireCount: { r: 1 } } } storage:{} protocol:op_msg 0ms";
        let l = read(line).unwrap().logged.unwrap();
        assert_eq!(l.command.unwrap()["find"], "myCollection");
        assert_eq!(l.figures.plan_summary.as_deref(), Some("COLLSCAN"));
        assert_eq!(l.figures.docs_examined, Some(1));
        assert_eq!(l.figures.keys_examined, Some(0));
    }

    #[test]
    fn ctime_lines_and_other_messages() {
        let a = read("Mon Aug  5 20:21:43 [conn4] insert test.docs keyUpdates:0 288ms").unwrap();
        let b = read("Mon Aug  5 20:22:43.500 [conn4] end connection 127.0.0.1:5000").unwrap();
        assert_eq!(b.time_ms.unwrap() - a.time_ms.unwrap(), 60_500);
        assert_eq!(a.logged.unwrap().op, "insert");
        assert!(b.logged.is_none());
        assert!(read("127.0.0.1 - - [10/Oct/2000:13:55:36] \"GET / HTTP/1.0\" 200").is_err());
        let truncated =
            "2014-04-09T23:25:32.504+0000 [conn1] query a.b query: { x: { $in: [ 1, 2 0ms";
        assert!(read(truncated).unwrap_err().contains("truncated"));
    }

    #[test]
    fn a_4_0_update_statement_and_a_line_mongod_truncated() {
        let line = "2019-06-18T12:13:26.796+0100 I WRITE    [conn2] update shop.users appName: \
            \"MongoDB Shell\" command: { q: { name: \"ASD\" }, u: { $set: { key: \"aaa\" } }, \
            multi: false, upsert: false } planSummary: COLLSCAN keysExamined:0 docsExamined:1 \
            nMatched:1 nModified:1 numYields:0 locks:{ Global: { acquireCount: { r: 1, w: 1 } } } \
            storage:{} 2ms";
        let l = read(line).unwrap().logged.unwrap();
        let op = crate::workload_log::entry::classify(&l).unwrap();
        assert_eq!(op.filter, json!({"name": "?string"}));
        assert_eq!(op.update, Some(json!({"$set": {"key": "?string"}})));
        assert_eq!(l.figures.docs_examined, Some(1));
        let cut = "2014-04-09T23:25:32.504+0000 [conn1] warning: log line attempted (25k) over \
            max size (10k), printing beginning and end ... query shop.users query: { a: 1 .......... 3ms";
        assert!(read(cut).unwrap_err().contains("truncated"));
    }
}
