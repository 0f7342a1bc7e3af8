//! A workload read from mongod's logs or the profiler: each logged operation reduced to its
//! shape ([`shape`]), grouped ([`group`]) and counted over the logs' time span, then mapped to
//! the model's workload steps ([`operations`]) with the rates measured.
//!
//! Inputs, one line at a time, told apart line by line (a file may mix them):
//!
//! - mongod's text log before 4.4 ([`legacy`]);
//! - mongod's structured JSON log, 4.4 on, whose `"Slow query"` entries are operations
//!   ([`structured`]);
//! - `system.profile` exported with mongoexport, one document a line ([`structured`]);
//! - `$queryStats` entries, one a line or a JSON array on one line ([`query_stats`]): each
//!   many operations already grouped, with their own span;
//!
//! each gzipped or not (told by its first two bytes). Memory is bounded by the shapes, not
//! the lines: a line longer than [`MAX_LINE_BYTES`] is skipped, each shape keeps sums and a
//! quantile sketch of durations, and at most [`MAX_REPORTED_LINES`] bad lines are kept with
//! their reasons (all are counted).
//!
//! Rates count what was logged: mongod logs an operation when it is slower than `slowms`
//! (100 ms by default), and only a `sampleRate` share of those (1 by default); the profiler
//! at level 2 records every operation. A log of every operation needs `slowms` below 0
//! (`db.setProfilingLevel(0, {slowms: -1})`), so the report says how many operations were
//! read and over how long, and that the rates are those of the operations logged.

pub mod entry;
pub mod group;
pub mod join;
pub mod legacy;
pub mod loose;
pub mod model;
pub mod operations;
pub mod query_stats;
pub mod shape;
pub mod structured;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};

use serde::Serialize;

use entry::{classify, SkipReason};
use group::Groups;

/// The longest line read (16 MiB: mongod truncates its own lines far below this); a longer
/// line is skipped and reported.
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// How many bad lines the report keeps with their reasons (all are counted).
pub const MAX_REPORTED_LINES: usize = 100;

/// The most distinct (reason, namespace, command) rows of skipped operations kept; the
/// others are added to the last row's count of their reason.
pub const MAX_SKIPPED_ROWS: usize = 1_000;

/// Why reading a log stopped.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    /// The input could not be read.
    #[error("{source_name}: cannot read line {line}")]
    Read {
        /// The input's name.
        source_name: String,
        /// 1-based line being read.
        line: u64,
        /// The I/O error.
        #[source]
        error: std::io::Error,
    },
}

/// The format of a line (a source's formats are the formats of its lines).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// mongod's text log (before 4.4).
    Text,
    /// mongod's structured JSON log (4.4 on).
    Json,
    /// A `system.profile` document.
    Profile,
    /// A `$queryStats` entry (one a line, or a JSON array of them on one line).
    QueryStats,
}

impl Format {
    /// Its name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Json => "json",
            Format::Profile => "profile",
            Format::QueryStats => "query_stats",
        }
    }
}

/// One input read.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LogSource {
    /// Its name (the file's path).
    pub source: String,
    /// Whether it was gzipped.
    pub gzip: bool,
    /// The formats of its lines.
    pub formats: Vec<Format>,
    /// Lines read.
    pub lines: u64,
    /// Operations logged in it (counted, skipped or not).
    pub operations: u64,
    /// Bad lines (reported, not read).
    pub bad_lines: u64,
    /// The times of its first and last timestamped lines (milliseconds since the epoch; a
    /// ctime log, which has no year, counts from 2001-01-01).
    #[serde(skip)]
    pub span_ms: Option<(i64, i64)>,
    /// Its first time, ISO-8601.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first: Option<String>,
    /// Its last time, ISO-8601.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last: Option<String>,
}

/// A line not read, with why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BadLine {
    /// The input.
    pub source: String,
    /// 1-based line number.
    pub line: u64,
    /// Why.
    pub reason: String,
}

/// Operations left out of the model, counted by reason, namespace and command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SkippedOperations {
    /// Why.
    pub reason: SkipReason,
    /// Their namespace.
    pub namespace: String,
    /// Their command.
    pub command: String,
    /// How many.
    pub count: u64,
}

/// Reading under way: feed it inputs ([`LogReading::read`]), then [`LogReading::finish`].
#[derive(Debug, Default)]
pub struct LogReading {
    /// The shapes counted.
    groups: Groups,
    /// Each input read.
    sources: Vec<LogSource>,
    /// The first bad lines.
    bad: Vec<BadLine>,
    /// Bad lines in all.
    bad_lines: u64,
    /// Skipped operations by (reason, namespace, command).
    skipped: BTreeMap<(SkipReason, String, String), u64>,
    /// Reads followed by reads of another collection on their connection.
    joins: join::Joins,
}

/// A JSON value read over several lines, until its brackets close ([`LogReading::gather`]).
struct SpreadValue {
    /// The line it opens on.
    first_line: u64,
    /// Its lines so far, each ended by a newline; emptied once it passes [`MAX_LINE_BYTES`].
    text: String,
    /// Its `{`/`[` nesting at the end of the last line, counted outside strings as the
    /// inference's documents over lines are ([`crate::infer::gather::depth_of`]).
    depth: i64,
    /// True once it passed [`MAX_LINE_BYTES`] (and was reported): the rest of it is followed
    /// to its end without being kept.
    too_long: bool,
}

impl SpreadValue {
    /// Adds a line, following the brackets it opens and closes.
    fn push(&mut self, line: &str) {
        self.depth += crate::infer::gather::depth_of(line);
        if !self.too_long {
            self.text.push_str(line.trim_end_matches(['\r', '\n']));
            self.text.push('\n');
        }
    }

    /// True once every bracket it opened is closed.
    fn closed(&self) -> bool {
        self.depth <= 0
    }
}

impl LogReading {
    /// Returns an empty reading.
    pub fn new() -> Self {
        Self::default()
    }

    /// Reads every line of `reader` (named `source` in messages), gunzipping it when it
    /// starts with gzip's magic bytes; a bad line is reported and skipped.
    pub fn read(&mut self, source: &str, reader: impl Read) -> Result<LogSource, LogError> {
        let mut buffered = BufReader::new(reader);
        let gzip = buffered
            .fill_buf()
            .map(|b| b.starts_with(&[0x1f, 0x8b]))
            .map_err(|error| LogError::Read {
                source_name: source.to_string(),
                line: 1,
                error,
            })?;
        if gzip {
            let decoder = flate2::bufread::MultiGzDecoder::new(buffered);
            self.read_lines(source, true, BufReader::new(decoder))
        } else {
            self.read_lines(source, false, buffered)
        }
    }

    /// Reads the lines of a decompressed input.
    fn read_lines(
        &mut self,
        source: &str,
        gzip: bool,
        mut reader: impl BufRead,
    ) -> Result<LogSource, LogError> {
        let mut summary = LogSource {
            source: source.to_string(),
            gzip,
            formats: Vec::new(),
            lines: 0,
            operations: 0,
            bad_lines: 0,
            span_ms: None,
            first: None,
            last: None,
        };
        self.joins.next_input();
        let mut buf = Vec::new();
        let mut line_no = 0u64;
        let mut spread: Option<SpreadValue> = None;
        loop {
            buf.clear();
            line_no += 1;
            let n = match crate::infer::read_line(&mut reader, &mut buf, MAX_LINE_BYTES) {
                Ok(Some(n)) => n,
                Ok(None) => break,
                Err(e) if gzip && crate::infer::dump::decompression_error(&e) => {
                    let reason = format!("cannot decompress ({e}): the rest is not read");
                    self.bad_line(&mut summary, line_no, reason);
                    break;
                }
                Err(error) => {
                    return Err(LogError::Read {
                        source_name: source.to_string(),
                        line: line_no,
                        error,
                    })
                }
            };
            summary.lines += 1;
            if n > MAX_LINE_BYTES {
                let reason = format!("line longer than {MAX_LINE_BYTES} bytes");
                self.bad_line(&mut summary, line_no, reason);
                continue;
            }
            match std::str::from_utf8(&buf) {
                Ok(line) => self.gather(&mut summary, &mut spread, line_no, line),
                Err(_) => self.bad_line(&mut summary, line_no, "not UTF-8".to_string()),
            }
        }
        if let Some(open) = spread {
            let reason = "a JSON value opened on this line is never closed".to_string();
            self.bad_line(&mut summary, open.first_line, reason);
        }
        if let Some((a, b)) = summary.span_ms {
            summary.first = crate::date::format_rfc3339(a);
            summary.last = crate::date::format_rfc3339(b);
        }
        summary.formats.sort();
        self.sources.push(summary.clone());
        Ok(summary)
    }

    /// Reads one line of `summary`'s input, or gathers it into the JSON value `spread` over
    /// lines: pretty-printed output (`$queryStats` printed with indentation, an exported
    /// array) opens with a line that is only `[` or `{`, and is read as one line, numbered by
    /// its first, once its brackets close. Only such a line opens a value, so that a JSON log
    /// line cut short stays one bad line and the lines after it are read.
    fn gather(
        &mut self,
        summary: &mut LogSource,
        spread: &mut Option<SpreadValue>,
        line_no: u64,
        line: &str,
    ) {
        if let Some(open) = spread {
            open.push(line);
            if !open.too_long && open.text.len() > MAX_LINE_BYTES {
                let reason = format!("a JSON value longer than {MAX_LINE_BYTES} bytes");
                self.bad_line(summary, open.first_line, reason);
                open.too_long = true;
                open.text = String::new();
            }
            if open.closed() {
                if let Some(value) = spread.take().filter(|v| !v.too_long) {
                    self.line(summary, value.first_line, value.text.trim_end());
                }
            }
            return;
        }
        if matches!(line.trim(), "[" | "{") {
            let mut open = SpreadValue {
                first_line: line_no,
                text: String::new(),
                depth: 0,
                too_long: false,
            };
            open.push(line);
            *spread = Some(open);
            return;
        }
        self.line(summary, line_no, line.trim_end());
    }

    /// Reads one line (its end trimmed) of `summary`'s input: its time, and the operations
    /// it logs counted.
    fn line(&mut self, summary: &mut LogSource, line_no: u64, line: &str) {
        if line.trim_start().is_empty() {
            return;
        }
        let read = if line.starts_with('[') {
            query_stats::read_array(line).map(|r| (Format::QueryStats, r))
        } else if line.starts_with('{') {
            structured::read(line).map(|(f, r)| (f, vec![r]))
        } else {
            legacy::read(line).map(|r| (Format::Text, vec![r]))
        };
        let (format, reads) = match read {
            Ok(r) => r,
            Err(reason) => return self.bad_line(summary, line_no, reason),
        };
        if !summary.formats.contains(&format) {
            summary.formats.push(format);
        }
        for read in reads {
            if let Some(t) = read.time_ms {
                // From the first line's time to the last's, as mloginfo says a log's start
                // and end: a line whose clock went astray in between changes nothing.
                summary.span_ms = Some(summary.span_ms.map_or((t, t), |(a, _)| (a, t)));
            }
            let Some(logged) = read.logged else { continue };
            if let Some((a, b)) = logged.totals.as_ref().and_then(|t| t.span_ms) {
                // Grouped operations (`$queryStats`) in no order: from the first seen to
                // the latest.
                let (first, last) = summary.span_ms.unwrap_or((a, b));
                summary.span_ms = Some((first.min(a), last.max(b)));
            }
            summary.operations += logged.totals.as_ref().map_or(1, |t| t.count);
            self.count(&logged, &summary.source, line_no);
        }
    }

    /// Counts a logged operation (or a `$queryStats` entry's operations) in its shape, or
    /// among the skipped ones.
    fn count(&mut self, logged: &entry::Logged, source: &str, line_no: u64) {
        match classify(logged) {
            Ok(op) => match &logged.totals {
                Some(totals) => self.groups.add_totals(op, totals, source, line_no),
                None => {
                    let read = matches!(op.kind, entry::Kind::Find | entry::Kind::Aggregate);
                    let shape = self.groups.add(op, &logged.figures, source, line_no);
                    if let (true, Some(shape), Some(conn), Some(t)) =
                        (read, shape, &logged.connection, logged.time_ms)
                    {
                        self.joins.read(&self.groups, conn, t, shape);
                    }
                }
            },
            Err(skip) => {
                let n = logged.totals.as_ref().map_or(1, |t| t.count);
                let key = (skip.reason, skip.namespace, skip.command);
                if self.skipped.len() < MAX_SKIPPED_ROWS || self.skipped.contains_key(&key) {
                    *self.skipped.entry(key).or_insert(0) += n;
                } else {
                    let other = (key.0, "…".to_string(), "…".to_string());
                    *self.skipped.entry(other).or_insert(0) += n;
                }
            }
        }
    }

    /// The first bad lines read so far ([`MAX_REPORTED_LINES`]), with why.
    pub fn bad(&self) -> &[BadLine] {
        &self.bad
    }

    /// Counts a bad line and keeps the first ones.
    fn bad_line(&mut self, summary: &mut LogSource, line: u64, reason: String) {
        summary.bad_lines += 1;
        self.bad_lines += 1;
        if self.bad.len() < MAX_REPORTED_LINES {
            self.bad.push(BadLine {
                source: summary.source.clone(),
                line,
                reason,
            });
        }
    }

    /// Returns the shapes with their rates, and what was skipped.
    pub fn finish(self) -> LogWorkload {
        let spans: Vec<(i64, i64)> = self
            .sources
            .iter()
            .filter_map(|s| s.span_ms)
            .filter(|(a, b)| a <= b)
            .collect();
        let span_ms = union_length(&spans);
        // A log of one instant counts its operations over one second.
        let seconds = (span_ms as f64 / 1000.0).max(1.0);
        let skipped = self
            .skipped
            .into_iter()
            .map(|((reason, namespace, command), count)| SkippedOperations {
                reason,
                namespace,
                command,
                count,
            })
            .collect();
        LogWorkload {
            sources: self.sources,
            span_seconds: span_ms as f64 / 1000.0,
            rate_seconds: seconds,
            groups: self.groups,
            joins: self.joins.finish(),
            skipped,
            bad_lines: self.bad_lines,
            bad: self.bad,
        }
    }
}

/// What the logs hold: the shapes with their statistics, the time they cover, what was
/// left out.
#[derive(Debug, Clone)]
pub struct LogWorkload {
    /// Each input read.
    pub sources: Vec<LogSource>,
    /// The time the logs cover, in seconds: the union of each input's first-to-last span
    /// (logs of the same time, from several members or shards, overlap and count once; a
    /// log rotated into several files adds up).
    pub span_seconds: f64,
    /// The seconds rates are counted over: the span, at least one.
    pub rate_seconds: f64,
    /// The shapes counted.
    pub groups: Groups,
    /// Reads followed on their connection by reads of another collection ([`join`]).
    pub joins: Vec<join::Join>,
    /// Operations left out, by reason.
    pub skipped: Vec<SkippedOperations>,
    /// Bad lines in all.
    pub bad_lines: u64,
    /// The first [`MAX_REPORTED_LINES`] bad lines.
    pub bad: Vec<BadLine>,
}

/// How many bytes of an input's start [`is_log`] needs: a few lines of any log.
pub const SNIFF_BYTES: usize = 64 * 1024;

/// How many non-blank lines [`is_log`] weighs.
const SNIFF_LINES: usize = 8;

/// Returns true when `head`, the first bytes of an input (gzipped or not, up to
/// [`SNIFF_BYTES`] of it), is a mongod log or a `system.profile` export rather than
/// documents: of its first non-blank lines, at least as many read as log lines (with a time
/// or an operation, by [`legacy`] or [`structured`]) as do not, and one does. A banner
/// (`***** SERVER RESTARTED *****`) weighs nothing either way; a line cut by the end of
/// `head` counts against. Pretty-printed JSON (a first line that is only `[` or `{`, as
/// [`LogReading::read`] reads it) is weighed by its first value: an array's first element,
/// read once its brackets close within `head` (`$queryStats` printed with indentation).
pub fn is_log(head: &[u8]) -> bool {
    let plain;
    let text = if head.starts_with(&[0x1f, 0x8b]) {
        plain = gunzip_head(head);
        &plain
    } else {
        head
    };
    if let Some(first) = first_spread_value(&String::from_utf8_lossy(text)) {
        return structured::read(&first)
            .is_ok_and(|(_, r)| r.time_ms.is_some() || r.logged.is_some());
    }
    let (mut log, mut other) = (0usize, 0usize);
    let lines = text
        .split(|b| *b == b'\n')
        .map(|l| String::from_utf8_lossy(l).trim().to_string())
        .filter(|l| !l.is_empty())
        .take(SNIFF_LINES);
    for line in lines {
        let read = if line.starts_with('[') {
            // `$queryStats` as one JSON array on one line.
            query_stats::read_array(&line).map(|reads| reads.into_iter().next().unwrap_or_default())
        } else if line.starts_with('{') {
            structured::read(&line).map(|(_, r)| r)
        } else {
            legacy::read(&line)
        };
        match read {
            Ok(r) if r.time_ms.is_some() || r.logged.is_some() => log += 1,
            Ok(_) => {}
            Err(_) => other += 1,
        }
    }
    log > 0 && log >= other
}

/// Returns the first JSON object of pretty-printed `text` on one line, when its first
/// non-blank line is only `{`, or only `[` and its next is only `{` (an array's first
/// element); none when `text` is not pretty-printed JSON or the object does not close in it.
fn first_spread_value(text: &str) -> Option<String> {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let mut first = lines.next()?;
    if first.trim() == "[" {
        first = lines.next()?;
    }
    if first.trim() != "{" {
        return None;
    }
    let mut value = first.trim().to_string();
    let mut depth = crate::infer::gather::depth_of(first);
    for line in lines {
        depth += crate::infer::gather::depth_of(line);
        value.push(' ');
        // An array's next element may follow the object's close on its line (`},`).
        value.push_str(if depth <= 0 {
            line.trim().trim_end_matches(',')
        } else {
            line.trim()
        });
        if depth <= 0 {
            return Some(value);
        }
    }
    None
}

/// Returns as much of gzipped `head` as decompresses (it may end mid-stream).
fn gunzip_head(head: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut decoder = flate2::read::MultiGzDecoder::new(head);
    let mut buf = [0u8; 8192];
    while out.len() < SNIFF_BYTES {
        match decoder.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => out.extend_from_slice(buf.get(..n).unwrap_or_default()),
        }
    }
    out
}

/// Returns the length of the union of the intervals `spans` (milliseconds).
fn union_length(spans: &[(i64, i64)]) -> i64 {
    let mut sorted = spans.to_vec();
    sorted.sort();
    let mut total = 0i64;
    let mut current: Option<(i64, i64)> = None;
    for (a, b) in sorted {
        current = match current {
            Some((ca, cb)) if a <= cb => Some((ca, cb.max(b))),
            Some((ca, cb)) => {
                total = total.saturating_add(cb - ca);
                Some((a, b))
            }
            None => Some((a, b)),
        };
    }
    if let Some((a, b)) = current {
        total = total.saturating_add(b - a);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlapping_spans_count_once_and_consecutive_ones_add_up() {
        assert_eq!(union_length(&[(0, 10), (5, 20)]), 20);
        assert_eq!(union_length(&[(0, 10), (30, 40)]), 20);
        assert_eq!(union_length(&[]), 0);
    }

    #[test]
    fn pretty_printed_json_is_read_as_the_one_line_output_is() {
        fn shapes(w: &LogWorkload) -> Vec<(String, u64)> {
            w.groups
                .shapes
                .iter()
                .map(|(shape, stats)| (format!("{shape:?}"), stats.count))
                .collect()
        }
        let one_line = include_str!("../tests/fixtures/mongod-logs/query-stats-array.json");
        let value: serde_json::Value = serde_json::from_str(one_line).unwrap();
        let pretty = serde_json::to_string_pretty(&value).unwrap();
        assert!(pretty.lines().count() > 20, "{pretty}");
        let read = |text: &str| {
            let mut reading = LogReading::new();
            let source = reading.read("stats.json", text.as_bytes()).unwrap();
            (source.formats, reading.finish())
        };
        let (formats, expected) = read(one_line);
        let (pretty_formats, got) = read(&pretty);
        assert_eq!(pretty_formats, formats);
        assert!(got.bad.is_empty(), "{:?}", got.bad);
        assert!(!shapes(&expected).is_empty());
        assert_eq!(shapes(&got), shapes(&expected));
        assert_eq!(got.span_seconds, expected.span_seconds);
        // Objects one after another, each over lines, as `mongoexport --pretty` writes them.
        let objects: String = value
            .as_array()
            .unwrap()
            .iter()
            .map(|e| serde_json::to_string_pretty(e).unwrap() + "\n")
            .collect();
        assert_eq!(shapes(&read(&objects).1), shapes(&expected));
    }

    #[test]
    fn a_json_value_over_the_longest_line_is_one_bad_line_and_what_follows_is_read() {
        // Three lines, each within the longest line, together past it.
        let long = "x".repeat(MAX_LINE_BYTES / 2);
        let log = format!(
            "[\n{{\"key\": \"{long}\"}},\n{{\"key\": \"{long}\"}},\n{{\"key\": \"{long}\"}}\n]\n\
             2014-04-09T23:25:32.500+0000 [conn1] query shop.users query: {{ email: \"a\" }} planSummary: IXSCAN {{ email: 1 }} nreturned:1 1ms\n"
        );
        let mut reading = LogReading::new();
        reading.read("x.log", log.as_bytes()).unwrap();
        let w = reading.finish();
        let lines: Vec<u64> = w.bad.iter().map(|b| b.line).collect();
        assert_eq!(lines, [1]);
        assert!(w.bad[0].reason.contains("longer than"), "{:?}", w.bad);
        assert_eq!(w.groups.shapes.len(), 1);
        assert_eq!(w.groups.shapes[0].1.count, 1);
    }

    #[test]
    fn a_json_value_never_closed_is_one_bad_line_and_what_came_before_is_read() {
        let log = "2014-04-09T23:25:32.500+0000 [conn1] query shop.users query: { email: \"a\" } planSummary: IXSCAN { email: 1 } nreturned:1 1ms\n\
                   [\n\
                   {\"key\": {\"queryShape\": \n";
        let mut reading = LogReading::new();
        reading.read("x.log", log.as_bytes()).unwrap();
        let w = reading.finish();
        let lines: Vec<u64> = w.bad.iter().map(|b| b.line).collect();
        assert_eq!(lines, [2]);
        assert!(w.bad[0].reason.contains("never closed"), "{:?}", w.bad);
        assert_eq!(w.groups.shapes.len(), 1);
    }

    #[test]
    fn bad_lines_are_reported_by_line_and_the_rest_is_read() {
        let log = "2014-04-09T23:25:32.500+0000 [conn1] query shop.users query: { email: \"a\" } planSummary: IXSCAN { email: 1 } nreturned:1 1ms\n\
                   this is not a mongod line\n\
                   {\"t\":{\"$date\":\"2014-04-09T23:25:33.500Z\"},\"msg\":\"Slow qu\n\
                   2014-04-09T23:25:34.500+0000 [conn1] query shop.users query: { email: \"b\" } planSummary: IXSCAN { email: 1 } nreturned:1 3ms\n";
        let mut reading = LogReading::new();
        reading.read("x.log", log.as_bytes()).unwrap();
        let w = reading.finish();
        let lines: Vec<u64> = w.bad.iter().map(|b| b.line).collect();
        assert_eq!(lines, [2, 3]);
        assert_eq!(w.groups.shapes.len(), 1);
        assert_eq!(w.groups.shapes[0].1.count, 2);
        assert_eq!(w.span_seconds, 2.0);
    }

    #[test]
    fn logs_are_told_from_documents_by_their_lines_gzipped_or_not() {
        use std::io::Write;
        let json_log = r#"{"t":{"$date":"2024-03-01T10:00:00.000Z"},"s":"I","c":"NETWORK","id":23016,"msg":"Waiting for connections"}"#;
        let text_log = "***** SERVER RESTARTED *****\n2014-04-09T23:25:32.500+0000 [initandlisten] db version v2.6.0";
        let profile =
            r#"{"op":"query","ns":"shop.users","millis":3,"ts":{"$date":"2024-03-01T10:00:00Z"}}"#;
        for head in [json_log, text_log, profile] {
            assert!(is_log(head.as_bytes()), "{head}");
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            e.write_all(head.as_bytes()).unwrap();
            let zipped = e.finish().unwrap();
            assert!(is_log(&zipped), "gzipped {head}");
        }
        // The first bytes of a large gzipped log end mid-stream.
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        for i in 0..20_000 {
            let n = i * 7_919 % 100_003;
            writeln!(
                e,
                r#"{{"t":{{"$date":"2024-03-01T10:00:00.000Z"}},"id":{i},"msg":"m{n}"}}"#
            )
            .unwrap();
        }
        let zipped = e.finish().unwrap();
        assert!(is_log(&zipped[..SNIFF_BYTES.min(zipped.len() / 2)]));
        for head in [
            "{\"_id\": 1, \"email\": \"a@example.com\"}\n{\"_id\": 2}",
            "[{\"a\": 1}]",
            "{ _id: ObjectId('65e1a0c2f1d2c3b4a5968700'), t: 1 }",
            "CREATE TABLE users (id int);",
            "",
            "***** SERVER RESTARTED *****",
        ] {
            assert!(!is_log(head.as_bytes()), "{head}");
        }
        // `$queryStats` as one array on a line, and pretty-printed (an entry alone, an
        // array): a log; documents pretty-printed (mongoexport --pretty, --jsonArray): not.
        let stats = include_str!("../tests/fixtures/mongod-logs/query-stats-array.json");
        assert!(is_log(stats.as_bytes()));
        let value: serde_json::Value = serde_json::from_str(stats.trim()).unwrap();
        let pretty = serde_json::to_string_pretty(&value).unwrap();
        assert!(is_log(pretty.as_bytes()), "{pretty}");
        let entry = serde_json::to_string_pretty(&value[0]).unwrap();
        assert!(is_log(entry.as_bytes()), "{entry}");
        let documents = serde_json::json!([{"_id": 1, "email": "a@example.com"}, {"_id": 2}]);
        let pretty_documents = serde_json::to_string_pretty(&documents).unwrap();
        assert!(!is_log(pretty_documents.as_bytes()), "{pretty_documents}");
        let one = serde_json::to_string_pretty(&documents[0]).unwrap();
        assert!(!is_log(one.as_bytes()), "{one}");
        // One bad line among log lines is still a log (a log's bad lines are reported).
        assert!(is_log(
            format!("{json_log}\n{{\"t\":\n{json_log}").as_bytes()
        ));
    }

    #[test]
    fn every_fixture_log_is_told_a_log_and_documents_are_not() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let head = |path: &str| {
            let bytes = std::fs::read(dir.join(path)).unwrap();
            bytes.get(..SNIFF_BYTES.min(bytes.len())).unwrap().to_vec()
        };
        for log in [
            "mongod-logs/mongod_225.log",
            "mongod-logs/mongod_26_corrupt.log",
            "mongod-logs/mongod_4.0.10_allowdiskuse.log",
            "mongod-logs/mongod-7.0-slow-queries.log",
            "mongod-logs/system.profile.json",
        ] {
            assert!(is_log(&head(log)), "{log}");
        }
        for documents in ["infer/shop/users.json", "infer/shop/orders.json"] {
            assert!(!is_log(&head(documents)), "{documents}");
        }
    }
}
