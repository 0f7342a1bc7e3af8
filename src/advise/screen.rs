//! Screening: a design's three objectives and its feasibility from the layout, the plan and
//! the full-scale arithmetic alone, with no engine run (what makes searching thousands of
//! designs fast). Each figure says how far the engine may differ from it.

use bson::Bson;
use serde::{Deserialize, Serialize};

use crate::arith::{document_size_of, At};
use crate::design::{Collection, Command, CommandKind, DocShape, Layout, Strategy};
use crate::model::Model;
use crate::size::MAX_BSON_SIZE;
use crate::stats::{array_stats, ArrayStats};
use crate::warning::{fields_depth, MAX_DEPTH, MAX_INDEXES};

pub mod index;

/// The quantiles around the typical subject's (0.5) whose counts bound a fan-out's documents:
/// the evaluation's typical subject is the sample document closest to the median, within a
/// few hundredths of it for any sample of 50 documents or more.
pub const TYPICAL_BAND: (f64, f64) = (0.45, 0.55);

/// A design's screened figures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Screen {
    /// Read round trips per second (`find` and `aggregate` commands of the typical subject,
    /// by rate): the read cost.
    pub reads: f64,
    /// Documents written per second (typical subject, by rate): the write cost with
    /// `index_keys_written`.
    pub writes: f64,
    /// Index keys inserted plus deleted per second (typical subject, by rate; `_id_`
    /// included, one per array element of a multikey index): the evaluation's
    /// `index_keys_written`, added to the write cost.
    #[serde(default)]
    pub index_keys_written: f64,
    /// Data bytes of every collection at full scale: the storage cost with `index_bytes`
    /// (exact arithmetic, the very figure the evaluation reports).
    pub storage: f64,
    /// Bytes of every index at full scale (keys × (mean key bytes + 8)): the evaluation's
    /// `index_bytes`, added to the storage cost.
    #[serde(default)]
    pub index_bytes: f64,
    /// Write round trips per second (`insert`, `update`, `delete`), shown beside the cost.
    pub write_round_trips: f64,
    /// The largest document of any collection at full scale, in bytes.
    pub largest_document: u64,
    /// How far the engine's figures may be from these (see [`Tolerance`]).
    pub tolerance: Tolerance,
    /// Why the design is infeasible; empty when it is feasible.
    pub infeasible: Vec<Breach>,
}

impl Screen {
    /// Returns true when no document breaks a limit within the horizon.
    pub fn feasible(&self) -> bool {
        self.infeasible.is_empty()
    }

    /// Returns the three objectives: read cost (round trips/s), write cost (documents plus
    /// index keys written/s), storage (data plus index bytes).
    pub fn objectives(&self) -> [f64; 3] {
        [self.reads, self.write_cost(), self.storage_cost()]
    }

    /// Returns the write cost: documents plus index keys written per second.
    pub fn write_cost(&self) -> f64 {
        self.writes + self.index_keys_written
    }

    /// Returns the storage cost: data plus index bytes.
    pub fn storage_cost(&self) -> f64 {
        self.storage + self.index_bytes
    }
}

/// How far the engine's figure may be from a screened one, as absolute amounts per second:
/// the engine's is within `[screened − below, screened + above]`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Tolerance {
    /// Read round trips per second the engine may not send: finds over a list of ids (`$in`)
    /// that is empty for some subjects, later pages, GridFS chunk batches.
    pub reads_below: f64,
    /// Documents written per second below the screened figure (a fan-out's followers at the
    /// low end of [`TYPICAL_BAND`]; a continuation push for a parent already full, which the
    /// engine runs as an update that matches nothing).
    pub writes_below: f64,
    /// Documents written per second above it (the high end of [`TYPICAL_BAND`]).
    pub writes_above: f64,
    /// Index keys written per second the engine may not write: a value set to the one there,
    /// a capped push that leaves its array as it was, an inserted document with fewer array
    /// elements than the mean, a fan-out at the low end of [`TYPICAL_BAND`].
    #[serde(default)]
    pub index_keys_below: f64,
    /// Index keys written per second above the screened figure: a capped push that drops the
    /// oldest element, an inserted document with more elements than the mean, an upsert that
    /// inserts, a conditional write the screen does not charge.
    #[serde(default)]
    pub index_keys_above: f64,
    /// Index bytes the engine's estimate may leave out on top of
    /// [`super::verify::INDEX_BYTES_SHARE`]: the keys past each document's first in multikey
    /// indexes over arrays its sample cuts short (more than 10,000 elements at their largest).
    #[serde(default)]
    pub index_bytes_below: f64,
    /// Commands whose documents the screen cannot count without the engine (a multi-document
    /// update or delete, a GridFS file's chunks): the write figure of such a design is
    /// verified on the engine, not screened.
    pub engine_only: Vec<String>,
}

/// One reason a design is infeasible.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Breach {
    /// `ARRAY_BREAK_POINT` (already past the limit), `BREAKS_WITHIN_HORIZON`, or the code of
    /// another error-severity warning (`DOC_OVER_LIMIT`, `INDEX_LIMIT`, `DEPTH_OVER_LIMIT`).
    pub code: String,
    /// The collection.
    pub collection: String,
    /// The array or field.
    pub path: String,
    /// The relationship whose array breaks, when one does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relationship: Option<String>,
    /// The element count at which the array first breaks 16 MiB.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub break_point: Option<u64>,
    /// The largest parent's count now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub largest: Option<u64>,
    /// The day the largest parent reaches the break point, when it is not past it yet.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// Days until then.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub days: Option<u64>,
    /// What happens, for a person.
    pub message: String,
}

/// Returns the screened figures of `layout` (a layout of `model`), judging feasibility over
/// `horizon_days` of the model's growth from its start date.
pub fn screen(model: &Model, layout: &Layout, horizon_days: u64) -> Screen {
    screen_with(model, layout, horizon_days, &mut |c| {
        collection_figures(c, &model.start_date)
    })
}

/// What the screen needs of one document shape: the figures of
/// [`crate::stats::shape_stats`] that need no size simulation (the simulation of
/// p50 and p99 costs milliseconds a shape), computed by the same functions.
#[derive(Debug, Clone, PartialEq)]
pub struct ShapeFigures {
    /// The shape's label.
    pub label: String,
    /// Its documents × their mean size: the evaluation's `total_bytes`, exactly.
    pub total_bytes: f64,
    /// Its largest document.
    pub max: u64,
    /// Its relationship arrays, with break points and dates.
    pub arrays: Vec<ArrayStats>,
}

/// Returns the figures of every shape of collection `c`, break dates counted from `start`.
pub fn collection_figures(c: &Collection, start: &str) -> Vec<ShapeFigures> {
    c.shapes.iter().map(|s| shape_figures(s, start)).collect()
}

/// Returns the figures of one shape.
fn shape_figures(s: &DocShape, start: &str) -> ShapeFigures {
    ShapeFigures {
        label: s.label.clone(),
        total_bytes: s.count * document_size_of(&s.fields, At::Mean).bytes,
        max: document_size_of(&s.fields, At::Quantile(1.0)).whole(),
        arrays: array_stats(s, start),
    }
}

/// [`screen`], with each collection's figures from `figures` (a search keeps them: most
/// candidates share most collections).
pub fn screen_with(
    model: &Model,
    layout: &Layout,
    horizon_days: u64,
    figures: &mut dyn FnMut(&Collection) -> Vec<ShapeFigures>,
) -> Screen {
    let stats: Vec<Vec<ShapeFigures>> = layout.collections.iter().map(figures).collect();
    let storage = stats.iter().flatten().map(|s| s.total_bytes).sum();
    let largest_document = stats.iter().flatten().map(|s| s.max).max().unwrap_or(0);
    let mut reads = 0.0;
    let mut writes = 0.0;
    let mut write_round_trips = 0.0;
    let mut tol = Tolerance::default();
    let mut keys = 0.0;
    // The documents per entity the evaluation materializes (`squillion eval`'s sample).
    let sample = model
        .sample
        .max_documents
        .unwrap_or(crate::model::Sample::DEFAULT_MAX_DOCUMENTS) as f64;
    let ixb: Vec<index::IndexBytes> = layout
        .collections
        .iter()
        .map(|c| index::index_bytes(c, sample))
        .collect();
    let index_bytes = ixb.iter().map(|b| b.bytes).sum();
    tol.index_bytes_below = ixb.iter().map(|b| b.sample_may_miss).sum();
    for u in &layout.plan.units {
        let rate = u.rate_per_sec;
        for c in &u.commands {
            let coll = layout.collection(&c.collection);
            if c.when.is_some() {
                // A fallback (a continuation append's, past a full parent): its one document
                // is charged on the check that fails, below; its index keys may be written.
                if let Some(coll) = coll {
                    tol.index_keys_above += rate * index::written(coll, c).high;
                }
                continue;
            }
            match c.kind {
                CommandKind::Find | CommandKind::Aggregate => match read_sent(model, layout, c) {
                    Sent::Yes => reads += rate,
                    Sent::No => {}
                    Sent::Maybe => {
                        reads += rate;
                        tol.reads_below += rate;
                    }
                },
                CommandKind::Insert | CommandKind::Update | CommandKind::Delete => {
                    write_round_trips += rate;
                    let (mid, mut low, high) = written(model, c, &mut tol.engine_only, &u.unit);
                    if full_continuation(model, layout, c) || capped_push(c) {
                        low = 0.0;
                    }
                    writes += rate * mid;
                    tol.writes_below += rate * (mid - low);
                    tol.writes_above += rate * (high - mid);
                    // Index keys: per document written, times the documents (a fan-out's
                    // band at its ends).
                    let per = coll.map(|x| index::written(x, c)).unwrap_or_default();
                    let k = index::KeyBand {
                        mid: per.mid * mid,
                        low: if low == 0.0 { 0.0 } else { per.low * low },
                        high: per.high * high,
                    };
                    keys += rate * k.mid;
                    tol.index_keys_below += rate * (k.mid - k.low).max(0.0);
                    tol.index_keys_above += rate * (k.high - k.mid).max(0.0);
                }
            }
        }
    }
    Screen {
        reads,
        writes,
        index_keys_written: keys,
        storage,
        index_bytes,
        write_round_trips,
        largest_document,
        tolerance: tol,
        infeasible: {
            let mut b = breaches(layout, &stats, horizon_days);
            b.extend(open_keys_indexed(model, layout));
            b
        },
    }
}

/// Returns a breach per collection that keys a sub-document by a field whose values are open
/// ([`crate::model::Field::values_open`]: sales channels, a game's items) and indexes each key
/// (`{"prices.gewala": 1}`, … as [`crate::design::indexes`] derives them): every new value
/// needs a `createIndex` in production and the indexes pass MongoDB's 64 a collection in time,
/// the maintenance article 003 rejects ("几十个" channels). A fixed key set (six abilities) is
/// not one.
fn open_keys_indexed(model: &Model, layout: &Layout) -> Vec<Breach> {
    let mut out = Vec::new();
    for e in &model.entities {
        for (name, f) in e.fields.iter() {
            for (key, k) in f.fields.iter().filter(|(_, k)| k.values_open) {
                let paths: Vec<String> = k.values.iter().map(|v| format!("{name}.{v}")).collect();
                for c in &layout.collections {
                    let per_key = c
                        .indexes
                        .iter()
                        .filter(|i| i.keys.len() == 1 && i.keys.keys().any(|p| paths.contains(p)))
                        .count();
                    if per_key == 0 {
                        continue;
                    }
                    out.push(Breach {
                        code: "OPEN_KEYS_INDEXED".into(),
                        collection: c.name.clone(),
                        path: name.clone(),
                        relationship: None,
                        break_point: None,
                        largest: None,
                        date: None,
                        days: None,
                        message: format!(
                            "{}.{name} is keyed by {key}, whose values keep coming: {per_key} indexes today, one more createIndex for every new {key}, past 64 in time",
                            c.name
                        ),
                    });
                }
            }
        }
    }
    out
}

/// Whether `c` pushes with `$slice` (an embedded subset's newest k): a new element that
/// sorts outside the kept k leaves the document byte-identical, which the engine counts as
/// matched, not written, so the engine may write 0 where the screen charges 1.
fn capped_push(c: &Command) -> bool {
    let Some(push) = c.update.as_ref().and_then(|u| u.get_document("$push").ok()) else {
        return false;
    };
    push.values()
        .any(|v| matches!(v, bson::Bson::Document(d) if d.contains_key("$slice")))
}

/// Whether a read command is sent for the typical subject.
enum Sent {
    /// Always.
    Yes,
    /// Not for the typical subject (a continuation fetch of a parent under the threshold).
    No,
    /// Depends on the subject: counted as sent, within the tolerance.
    Maybe,
}

/// Returns whether read `c` is sent for the typical subject.
fn read_sent(model: &Model, layout: &Layout, c: &Command) -> Sent {
    if c.file.is_some() || c.page_offset.is_some() || c.skip.is_some() {
        return Sent::Maybe;
    }
    let Some(param) = in_param(c) else {
        return Sent::Yes;
    };
    // `{_id: {$in: user.tbc}}`: continuation documents exist only past the threshold.
    if let Some(entity) = param.strip_suffix(".tbc") {
        for r in model.relationships.iter().filter(|r| r.parent == entity) {
            if let Some(Strategy::Continuation { threshold }) = layout.strategy(&r.name) {
                return if r.cardinality.count_at(0.5) > *threshold {
                    Sent::Yes
                } else {
                    Sent::No
                };
            }
        }
    }
    Sent::Maybe
}

/// Returns the parameter of a filter `{field: {$in: {$param}}}`, if the command has one.
fn in_param(c: &Command) -> Option<&str> {
    c.filter.iter().find_map(|(_, v)| match v {
        Bson::Document(d) => match d.get("$in") {
            Some(Bson::Document(p)) => match p.get("$param") {
                Some(Bson::String(s)) => Some(s.as_str()),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    })
}

/// True when `c` is a continuation push (`{_id, "ids.999": {$exists: false}}`) the typical
/// parent is already full for: the update matches nothing and a conditional fallback writes
/// the child into a continuation document (the screen charges that one here, skipping the
/// fallbacks).
fn full_continuation(model: &Model, layout: &Layout, c: &Command) -> bool {
    if c.kind != CommandKind::Update {
        return false;
    }
    c.filter.iter().any(|(k, v)| {
        let Some((field, slot)) = k.rsplit_once('.') else {
            return false;
        };
        let exists_false = matches!(v, Bson::Document(d) if d.get("$exists") == Some(&Bson::Boolean(false)));
        exists_false
            && slot.parse::<u64>().is_ok()
            && model.relationships.iter().any(|r| {
                r.array_field() == field
                    && matches!(layout.strategy(&r.name), Some(Strategy::Continuation { threshold }) if r.cardinality.count_at(0.5) >= *threshold)
            })
    })
}

/// Returns the documents write `c` writes for the typical subject, with the low and high
/// ends of its band; notes in `engine_only` a command the screen cannot count.
fn written(
    model: &Model,
    c: &Command,
    engine_only: &mut Vec<String>,
    unit: &str,
) -> (f64, f64, f64) {
    // A tree move's bulk write rewrites the subtree: as many documents as the engine finds.
    if c.file.is_some() || c.multi || c.note.ends_with(crate::design::plan::tree::BULK) {
        engine_only.push(format!("{unit}: {}", c.mongosh()));
        return (1.0, 1.0, 1.0);
    }
    if let Some(rel) = &c.fan_out {
        if let Some(r) = model.relationship(rel) {
            let at = |q: f64| r.cardinality.count_at(q) as f64;
            return (at(0.5), at(TYPICAL_BAND.0), at(TYPICAL_BAND.1));
        }
    }
    (1.0, 1.0, 1.0)
}

/// Returns why the layout is infeasible: arrays already past 16 MiB, arrays whose largest
/// parent reaches the limit within `horizon_days`, a largest document over 16 MiB
/// (`LARGEST_OVER_LIMIT`: stricter than `DOC_OVER_LIMIT`, which asks the size simulation
/// whether one such document is expected; the advisor never recommends a design mongod could
/// refuse a document of), and the error-severity warnings `INDEX_LIMIT` and
/// `DEPTH_OVER_LIMIT` of [`crate::warning::check`] by the same conditions. A test checks that
/// every design the warnings call infeasible the screen calls infeasible too.
fn breaches(layout: &Layout, stats: &[Vec<ShapeFigures>], horizon_days: u64) -> Vec<Breach> {
    let mut out = Vec::new();
    for (c, st) in layout.collections.iter().zip(stats) {
        for a in st.iter().flat_map(|s| &s.arrays) {
            let Some(bp) = a.break_point else { continue };
            let base = Breach {
                code: String::new(),
                collection: c.name.clone(),
                path: a.field.clone(),
                relationship: Some(a.relationship.clone()),
                break_point: Some(bp.count),
                largest: Some(a.max_count),
                date: None,
                days: None,
                message: String::new(),
            };
            let n = crate::human::thousands;
            if a.max_count >= bp.count {
                out.push(Breach {
                    code: "ARRAY_BREAK_POINT".into(),
                    message: format!(
                        "{}.{} breaks 16 MiB at {} elements; the largest parent already has {}",
                        c.name,
                        a.field,
                        n(bp.count),
                        n(a.max_count)
                    ),
                    ..base
                });
            } else if let Some(d) = a
                .largest_reaches
                .as_ref()
                .filter(|d| d.days <= horizon_days)
            {
                out.push(Breach {
                    code: "BREAKS_WITHIN_HORIZON".into(),
                    message: format!(
                        "{}.{} breaks 16 MiB at {} elements; the largest parent ({} now) reaches it {d}",
                        c.name,
                        a.field,
                        n(bp.count),
                        n(a.max_count)
                    ),
                    date: d.date.clone(),
                    days: Some(d.days),
                    ..base
                });
            }
        }
    }
    for (c, st) in layout.collections.iter().zip(stats) {
        let mut other = |code: &str, path: String, message: String| {
            out.push(Breach {
                code: code.to_string(),
                collection: c.name.clone(),
                path,
                relationship: None,
                break_point: None,
                largest: None,
                date: None,
                days: None,
                message,
            });
        };
        for (shape, ss) in c.shapes.iter().zip(st) {
            let max = ss.max;
            if max > MAX_BSON_SIZE {
                other(
                    "LARGEST_OVER_LIMIT",
                    String::new(),
                    format!(
                        "the largest {} document the model allows would be {} bytes, over the 16 MiB limit",
                        shape.label,
                        crate::human::thousands(max)
                    ),
                );
            }
            let depth = fields_depth(&shape.fields) + 1;
            if depth > MAX_DEPTH {
                other(
                    "DEPTH_OVER_LIMIT",
                    String::new(),
                    format!("{} documents nest {depth} levels deep", shape.label),
                );
            }
        }
        if c.indexes.len() > MAX_INDEXES {
            other(
                "INDEX_LIMIT",
                String::new(),
                format!(
                    "{} indexes: a collection can have at most 64",
                    c.indexes.len()
                ),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::warning::{check, Severity};

    #[test]
    fn every_design_the_warnings_call_infeasible_the_screen_calls_infeasible() {
        for p in crate::presets::all() {
            let m = p.model().unwrap();
            let days = crate::date::days_in_years(&m.start_date, 5).unwrap();
            for o in crate::eval::offer::offers(&m) {
                let layout = o.layout().unwrap();
                let errors: Vec<String> = check(&o.model, &layout)
                    .into_iter()
                    .filter(|w| w.severity == Severity::Error)
                    .map(|w| w.code.to_string())
                    .collect();
                let s = screen(&o.model, &layout, days);
                if !errors.is_empty() {
                    assert!(!s.feasible(), "{} {}: {errors:?}", p.name, o.id);
                }
                // Storage is the evaluation's figure, exactly.
                let stats: f64 = layout
                    .collections
                    .iter()
                    .map(|c| crate::stats::collection_stats(c, &o.model.start_date).total_bytes)
                    .sum();
                assert_eq!(s.storage, stats, "{} {}", p.name, o.id);
            }
        }
    }
}
