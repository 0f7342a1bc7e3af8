//! Warnings about a layout: documents at or heading for the 16 MiB limit, unbounded arrays,
//! index and collection counts, nesting depth, live copies that cost more than they save,
//! queries without a supporting index, scatter-gather queries, pre-allocation tricks that
//! only paid off on MMAPv1, reads that separate data accessed together and hot `$lookup`s.
//! Every code, threshold and its source is in `docs/warnings.md`.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::arith::tail::Exceedance;
use crate::design::{AttributeForm, CommandKind, DocShape, FieldPattern, Index, Layout};
use crate::human::{binary_size, thousands};
use crate::lang::{Lang, Text};
use crate::model::field::{BsonType, Fields};
use crate::model::{Copies, Model, Step};
use crate::size::MAX_BSON_SIZE;
use crate::stats::{self, ArrayStats, CollectionStats, ShapeStats, SizeFigure};

pub mod lifecycle;
pub mod lookups;
pub mod many_to_many;
pub mod separated;
pub mod timeseries;

/// Documents at or above this size are "within 20% of the limit": ⌈0.8 × 16 MiB⌉.
pub const NEAR_LIMIT: u64 = 13_421_773;
/// Compass's "bloated document" threshold (the size statistics count the documents over it).
pub const BLOATED: u64 = stats::BLOATED_BYTES;
/// Compass's unbounded-array threshold (elements of objects, ids or strings).
pub const UNBOUNDED_ELEMENTS: u64 = 250;
/// Compass's "too many indexes" threshold.
pub const MANY_INDEXES: usize = 10;
/// MongoDB's hard limit of indexes per collection.
pub const MAX_INDEXES: usize = 64;
/// Compass's "too many collections" threshold.
pub const MANY_COLLECTIONS: usize = 10_000;
/// MongoDB's documented nesting limit.
pub const MAX_DEPTH: usize = 100;

/// How serious a warning is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Worth knowing.
    Info,
    /// Will hurt at scale.
    Warning,
    /// mongod will refuse it.
    Error,
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Warning {
    /// Stable code (`DOC_OVER_LIMIT`), documented in `docs/warnings.md` (owned only when read
    /// back from an evaluation's JSON, as the page does).
    pub code: Cow<'static, str>,
    /// How serious.
    pub severity: Severity,
    /// The collection concerned (empty for layout-wide findings).
    pub collection: String,
    /// The field path concerned (empty when the whole document is).
    pub path: String,
    /// What is wrong, with the numbers.
    pub message: String,
    /// What to do about it.
    pub fix: String,
    /// The same message and fix as message ids and values, to render in any language
    /// ([`Warning::message_in`]); absent on a warning not yet in the catalogues, which then
    /// reads in English everywhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<WarningText>,
}

/// A warning's message and fix in the language-neutral form of `locales/*/messages.ftl`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WarningText {
    /// What is wrong.
    pub message: Text,
    /// What to do about it.
    pub fix: Text,
}

impl Warning {
    /// Returns a finding with a stable `code` (documented in `docs/warnings.md`) whose
    /// message and fix come from the catalogues: `message` and `fix` hold their English,
    /// `text` the ids and values every language renders.
    pub fn localized(
        code: &'static str,
        severity: Severity,
        collection: &str,
        path: &str,
        message: Text,
        fix: Text,
    ) -> Warning {
        Warning {
            code: Cow::Borrowed(code),
            severity,
            collection: collection.to_string(),
            path: path.to_string(),
            message: message.render(Lang::En),
            fix: fix.render(Lang::En),
            text: Some(WarningText { message, fix }),
        }
    }

    /// Returns what is wrong, in `lang` (English where the warning has no [`WarningText`]).
    pub fn message_in(&self, lang: Lang) -> String {
        match (&self.text, lang) {
            (Some(t), Lang::ZhCn) => t.message.render(lang),
            _ => self.message.clone(),
        }
    }

    /// Returns what to do about it, in `lang` (English where the warning has no
    /// [`WarningText`]).
    pub fn fix_in(&self, lang: Lang) -> String {
        match (&self.text, lang) {
            (Some(t), Lang::ZhCn) => t.fix.render(lang),
            _ => self.fix.clone(),
        }
    }
}

/// Returns the clause saying whether a size is exact or an estimate.
fn label(exact: bool) -> Text {
    Text::new(if exact { "exact" } else { "estimate" })
}

/// Returns which largest document of a shape passes `threshold` bytes, and its size: the
/// largest expected among the shape's documents at full scale when it does ("the largest post
/// expected among 1,000,000"), else the model's bound (every field at its longest, every array
/// full), which a size finding is raised on.
fn which_largest(ss: &ShapeStats, shape: &str, threshold: u64) -> (Text, SizeFigure) {
    let (expected, _) = ss.largest();
    if expected.bytes > threshold {
        let count = crate::model::distribution::round_count(ss.count);
        (
            Text::new("largest-expected-figure")
                .arg("shape", shape)
                .arg("count", thousands(count)),
            expected,
        )
    } else {
        (
            Text::new("largest-bound-figure").arg("shape", shape),
            ss.max,
        )
    }
}

/// Returns when a growing array reaches its break point: "on 2025-02-17 (in 47 days)", or
/// "not within 100 years" past the horizon (as [`crate::arith::BreakDate`] displays it).
fn break_date(d: &crate::arith::BreakDate) -> Text {
    match (&d.date, d.beyond_years) {
        (Some(date), None) => Text::new("break-on")
            .arg("date", date)
            .arg("days", thousands(d.days)),
        (_, years) => {
            Text::new("break-beyond").arg("years", years.unwrap_or(crate::arith::HORIZON_YEARS))
        }
    }
}

/// Returns every warning for `layout` of `model`, using the layout's own indexes (and
/// computing the statistics of its collections: a caller that has them calls
/// [`check_with_stats`]).
pub fn check(model: &Model, layout: &Layout) -> Vec<Warning> {
    check_with_stats(model, layout, &stats::of_layout(layout, &model.start_date))
}

/// [`check`] with the statistics of the layout's collections already computed (`stats`, in
/// layout order: [`stats::of_layout`]).
pub fn check_with_stats(model: &Model, layout: &Layout, stats: &[CollectionStats]) -> Vec<Warning> {
    let indexes: Vec<Index> = layout
        .collections
        .iter()
        .flat_map(|c| c.indexes.clone())
        .collect();
    check_all(model, layout, &indexes, stats)
}

/// Returns every warning for `layout` of `model`, judging queries against `indexes` (the
/// indexes that actually exist, which the user may have edited).
pub fn check_with_indexes(model: &Model, layout: &Layout, indexes: &[Index]) -> Vec<Warning> {
    check_all(
        model,
        layout,
        indexes,
        &stats::of_layout(layout, &model.start_date),
    )
}

/// Returns every warning for `layout` of `model`, judging queries against `indexes`, with
/// `stats` the statistics of the layout's collections in layout order.
fn check_all(
    model: &Model,
    layout: &Layout,
    indexes: &[Index],
    stats: &[CollectionStats],
) -> Vec<Warning> {
    let mut out = Vec::new();
    for (c, st) in layout.collections.iter().zip(stats) {
        for (shape, ss) in c.shapes.iter().zip(&st.shapes) {
            size_warnings(&mut out, &c.name, shape, ss);
            for a in &ss.arrays {
                array_warnings(&mut out, &c.name, shape, a);
            }
            declared_array_warnings(&mut out, &c.name, shape);
            let depth = fields_depth(&shape.fields) + 1;
            if depth > MAX_DEPTH {
                out.push(Warning::localized(
                    "DEPTH_OVER_LIMIT",
                    Severity::Error,
                    &c.name,
                    "",
                    Text::new("depth-over-limit").arg("depth", depth),
                    Text::new("depth-over-limit-fix"),
                ));
            }
        }
        if c.indexes.len() > MAX_INDEXES {
            out.push(Warning::localized(
                "INDEX_LIMIT",
                Severity::Error,
                &c.name,
                "",
                Text::new("index-limit").arg("count", c.indexes.len()),
                Text::new("index-limit-fix"),
            ));
        } else if c.indexes.len() > MANY_INDEXES {
            out.push(Warning::localized(
                "TOO_MANY_INDEXES",
                Severity::Warning,
                &c.name,
                "",
                Text::new("too-many-indexes").arg("count", c.indexes.len()),
                Text::new("too-many-indexes-fix"),
            ));
        }
    }
    if layout.collections.len() > MANY_COLLECTIONS {
        out.push(Warning::localized(
            "TOO_MANY_COLLECTIONS",
            Severity::Warning,
            "",
            "",
            Text::new("too-many-collections").arg("count", layout.collections.len()),
            Text::new("too-many-collections-fix"),
        ));
    }
    patterns(model, layout, &mut out);
    live_copies(model, layout, &mut out);
    queries(model, layout, indexes, &mut out);
    out.extend(many_to_many::check(model, layout));
    out.extend(separated::check(model, layout));
    out.extend(lookups::check(layout));
    out.extend(timeseries::check(model, layout));
    out.extend(lifecycle::check(model, layout, stats));
    out
}

/// Pushes a shape's size warnings: over (or able to pass) the 16 MiB limit, else near it;
/// and bloated (over [`BLOATED`]), each said of the figure that passes the threshold.
fn size_warnings(out: &mut Vec<Warning>, collection: &str, shape: &DocShape, ss: &ShapeStats) {
    let max = ss.max.bytes;
    let figure = |threshold: u64| which_largest(ss, &shape.label, threshold);
    if let Some(over) = ss.over_limit.as_ref().filter(|_| max > MAX_BSON_SIZE) {
        let fix = fix_for(&shape.fields, &over.fields);
        let path = over.fields.join(", ");
        let (code, severity, message) = if over.expected() {
            let (which, size) = figure(MAX_BSON_SIZE);
            let message = Text::new("doc-over-limit")
                .nested("figure", which)
                .arg("size", binary_size(size.bytes))
                .nested("exactness", label(size.exact))
                .arg(
                    "over",
                    binary_size(size.bytes.saturating_sub(MAX_BSON_SIZE)),
                )
                .nested("how_many", how_many(over, &shape.label));
            ("DOC_OVER_LIMIT", Severity::Error, message)
        } else {
            let message = Text::new("doc-can-exceed-limit")
                .arg("shape", &shape.label)
                .arg("size", binary_size(max))
                .arg("over", binary_size(max - MAX_BSON_SIZE))
                .nested("how_many", how_many(over, &shape.label));
            ("DOC_CAN_EXCEED_LIMIT", Severity::Warning, message)
        };
        out.push(Warning::localized(
            code, severity, collection, &path, message, fix,
        ));
    } else if max >= NEAR_LIMIT {
        let (which, size) = figure(NEAR_LIMIT - 1);
        out.push(Warning::localized(
            "DOC_NEAR_LIMIT",
            Severity::Warning,
            collection,
            "",
            Text::new("doc-near-limit")
                .nested("figure", which)
                .arg("size", binary_size(size.bytes))
                .nested("exactness", label(size.exact))
                .arg("near", binary_size(NEAR_LIMIT)),
            Text::new("doc-near-limit-fix"),
        ));
    }
    if let Some(b) = ss.bloated.as_ref().filter(|_| max > BLOATED) {
        let (which, size) = figure(BLOATED);
        let message = Text::new("bloated-document")
            .nested("figure", which)
            .arg("size", binary_size(size.bytes))
            .nested("exactness", label(size.exact))
            .arg("threshold", binary_size(BLOATED))
            .nested("how_many", how_many(b, &shape.label));
        let fix =
            Text::new("bloated-document-fix").nested("fix", fix_for(&shape.fields, &b.fields));
        out.push(Warning::localized(
            "BLOATED_DOCUMENT",
            Severity::Warning,
            collection,
            &b.fields.join(", "),
            message,
            fix,
        ));
    }
}

/// Pushes a relationship array's warnings: its break point (an error when the largest
/// document already has it), and unbounded when it holds heavy elements or still grows.
fn array_warnings(out: &mut Vec<Warning>, collection: &str, shape: &DocShape, a: &ArrayStats) {
    let g = shape.growing.iter().find(|g| g.field == a.field);
    let growth = g.map_or(0.0, |g| g.growth_largest);
    if let Some(bp) = a.break_point {
        let already = a.max_count >= bp.count;
        let tail = if already {
            Text::new("already-has").arg("count", thousands(a.max_count))
        } else {
            match (&a.largest_reaches, &a.typical_reaches) {
                (Some(l), Some(t)) => Text::new("reaches-both")
                    .arg("growth", growth)
                    .nested("largest", break_date(l))
                    .nested("typical", break_date(t)),
                (Some(l), None) => Text::new("reaches-largest")
                    .arg("growth", growth)
                    .nested("largest", break_date(l)),
                _ => Text::new("nothing"),
            }
        };
        out.push(Warning::localized(
            "ARRAY_BREAK_POINT",
            if already {
                Severity::Error
            } else {
                Severity::Info
            },
            collection,
            &a.field,
            Text::new("array-break-point")
                .arg("collection", collection)
                .arg("field", &a.field)
                .arg("count", thousands(bp.count))
                .nested("exactness", label(bp.exact))
                .arg("element", binary_size(a.element_bytes.bytes))
                .nested("tail", tail),
            Text::new("array-break-point-fix"),
        ));
    }
    let elem_ty = shape.fields.get(&a.field).and_then(|f| f.items);
    let heavy = matches!(
        elem_ty,
        Some(BsonType::Object | BsonType::ObjectId | BsonType::String)
    );
    if !a.capped && ((heavy && a.max_count >= UNBOUNDED_ELEMENTS) || growth > 0.0) {
        let growing = if growth > 0.0 {
            Text::new("still-growing").arg("growth", growth)
        } else {
            Text::new("nothing")
        };
        out.push(Warning::localized(
            "UNBOUNDED_ARRAY",
            Severity::Warning,
            collection,
            &a.field,
            Text::new("unbounded-array")
                .arg("collection", collection)
                .arg("field", &a.field)
                .arg("count", thousands(a.max_count))
                .nested("growing", growing),
            Text::new("unbounded-array-fix"),
        ));
    }
}

/// Pushes the unbounded-array warning of each declared array (not a relationship's) of a
/// shape that holds many heavy elements.
fn declared_array_warnings(out: &mut Vec<Warning>, collection: &str, shape: &DocShape) {
    // Declared arrays (not a relationship's) can be unbounded too.
    for (name, f) in shape.fields.iter() {
        if f.ty != BsonType::Array || shape.growing.iter().any(|g| &g.field == name) {
            continue;
        }
        let heavy = matches!(
            f.items,
            Some(BsonType::Object | BsonType::ObjectId | BsonType::String)
        );
        let max = f.count.as_ref().map_or(0, |c| c.max_count());
        if heavy && max >= UNBOUNDED_ELEMENTS {
            out.push(Warning::localized(
                "UNBOUNDED_ARRAY",
                Severity::Warning,
                collection,
                name,
                Text::new("unbounded-array")
                    .arg("collection", collection)
                    .arg("field", name)
                    .arg("count", thousands(max))
                    .nested("growing", Text::new("nothing")),
                Text::new("unbounded-declared-array-fix"),
            ));
        }
    }
}

/// Returns "at full scale ≈ 0.021% of message documents (≈ 41) are over it, because of
/// attachment": how many documents of a shape pass a threshold at full scale, and which
/// fields put them there.
fn how_many(e: &Exceedance, shape: &str) -> Text {
    let about = if e.exact { "" } else { "≈ " };
    let text = if e.fields.is_empty() {
        Text::new("how-many")
    } else {
        Text::new("how-many-because").list("fields", &e.fields)
    };
    text.arg("about", about)
        .arg("share", crate::human::percent(e.share))
        .arg("shape", shape)
        .arg(
            "documents",
            thousands(crate::model::distribution::round_count(e.documents)),
        )
}

/// Returns the fix that fits what makes a document too big: an array is capped, bucketed or
/// continued; a string or binary value goes to GridFS or object storage; a sub-document moves
/// out.
fn fix_for(fields: &Fields, responsible: &[String]) -> Text {
    let of = |ty: &dyn Fn(BsonType) -> bool| -> Vec<&str> {
        responsible
            .iter()
            .filter(|n| fields.get(n).is_some_and(|f| ty(f.ty)))
            .map(String::as_str)
            .collect()
    };
    let arrays = of(&|t| t == BsonType::Array);
    let values = of(&|t| t.has_length());
    let objects = of(&|t| t == BsonType::Object);
    let mut out = Vec::new();
    if !values.is_empty() {
        out.push(Text::new("fix-store-outside").list("fields", &values));
    }
    if !arrays.is_empty() {
        out.push(Text::new("fix-cap-arrays").list("fields", &arrays));
    }
    if !objects.is_empty() {
        out.push(Text::new("fix-move-objects").list("fields", &objects));
    }
    if out.is_empty() {
        out.push(Text::new("fix-cap-array"));
    }
    Text::new("fix-sentences").sentences("sentences", out)
}

/// Returns how deep objects and arrays nest below a document with `fields` (0 when flat).
pub fn fields_depth(fields: &Fields) -> usize {
    fields
        .iter()
        .map(|(_, f)| match f.ty {
            BsonType::Object => 1 + fields_depth(&f.fields),
            BsonType::Array => {
                1 + if f.items == Some(BsonType::Object) {
                    1 + fields_depth(&f.fields)
                } else {
                    0
                }
            }
            _ => 0,
        })
        .max()
        .unwrap_or(0)
}

fn patterns(model: &Model, layout: &Layout, out: &mut Vec<Warning>) {
    for p in &model.design.fields {
        match p {
            FieldPattern::Preallocated {
                entity,
                field,
                slots,
            } => {
                let coll = layout.collection_name(entity);
                out.push(Warning::localized(
                    "MMAPV1_PREALLOCATION",
                    Severity::Info,
                    &coll,
                    field,
                    Text::new("mmapv1-preallocation")
                        .arg("field", field)
                        .arg("slots", slots),
                    Text::new("mmapv1-preallocation-fix"),
                ));
            }
            FieldPattern::Attribute {
                entity,
                field,
                form: AttributeForm::Keyed,
                ..
            } => {
                let coll = layout.collection_name(entity);
                let keys = layout
                    .collection_of(entity)
                    .and_then(|c| c.shapes.first())
                    .and_then(|s| s.fields.get(field))
                    .map_or(0, |f| f.fields.0.len());
                out.push(Warning::localized(
                    "KEYED_ATTRIBUTES",
                    Severity::Warning,
                    &coll,
                    field,
                    Text::new("keyed-attributes")
                        .arg("field", field)
                        .arg("keys", keys),
                    Text::new("keyed-attributes-fix"),
                ));
            }
            _ => {}
        }
    }
}

/// Live copies: a write to the source rewrites every copy. Warned when the copies' write rate
/// exceeds the rate of reads they save.
fn live_copies(model: &Model, layout: &Layout, out: &mut Vec<Warning>) {
    for c in &layout.collections {
        for s in &c.shapes {
            for cf in &s.copied {
                let Some(r) = model.relationship(&cf.relationship) else {
                    continue;
                };
                let mut writes = 0.0;
                for u in &model.workload {
                    for st in &u.steps {
                        if let Step::Update {
                            entity,
                            field,
                            copies: Copies::Live,
                            ..
                        } = st
                        {
                            if entity == &cf.entity && field == &cf.source {
                                writes += u.rate_per_sec;
                            }
                        }
                    }
                }
                if writes == 0.0 {
                    continue;
                }
                // Documents holding one source value's copy.
                let per_write = if r.child == cf.entity {
                    let (p, ch) = (
                        model.entity(&r.parent).map_or(0.0, |e| e.count),
                        model.entity(&r.child).map_or(1.0, |e| e.count),
                    );
                    if r.many_to_many && ch > 0.0 {
                        p * r.cardinality.mean() / ch
                    } else {
                        1.0
                    }
                } else {
                    r.cardinality.mean()
                };
                let reads: f64 = model
                    .workload
                    .iter()
                    .filter(|u| u.steps.iter().any(|st| matches!(st, Step::Read { children, .. } if children.iter().any(|ch| ch.relationship == r.name)) || matches!(st, Step::FindParents { relationship, .. } if relationship == &r.name)))
                    .map(|u| u.rate_per_sec)
                    .sum();
                let copy_writes = writes * per_write;
                if copy_writes > reads {
                    let ratio = if copy_writes > 0.0 {
                        reads / copy_writes
                    } else {
                        0.0
                    };
                    out.push(Warning::localized(
                        "LIVE_COPY_AMPLIFICATION",
                        Severity::Warning,
                        &c.name,
                        &cf.path,
                        Text::new("live-copy-amplification")
                            .arg("path", &cf.path)
                            .arg("entity", &cf.entity)
                            .arg("source", &cf.source)
                            .arg("writes", writes)
                            .arg("per_write", format!("{per_write:.1}"))
                            .arg("copy_writes", format!("{copy_writes:.1}"))
                            .arg("reads", reads)
                            .arg("ratio", format!("{ratio:.2}")),
                        Text::new("live-copy-amplification-fix"),
                    ));
                }
            }
        }
    }
}

/// Queries without a supporting index, and scatter-gather queries on sharded collections.
fn queries(model: &Model, layout: &Layout, indexes: &[Index], out: &mut Vec<Warning>) {
    let shards = model.sharding.as_ref().map_or(1, |s| s.shards);
    for u in &layout.plan.units {
        for cmd in &u.commands {
            if matches!(cmd.kind, CommandKind::Insert | CommandKind::Aggregate) {
                continue;
            }
            if let Some(keys) = crate::design::indexes::key_for(&cmd.filter, None) {
                let supported = indexes.iter().any(|ix| {
                    ix.collection == cmd.collection
                        && keys
                            .keys()
                            .next()
                            .is_some_and(|k| ix.keys.keys().next() == Some(k))
                });
                if !supported {
                    out.push(Warning::localized(
                        "UNINDEXED_QUERY",
                        Severity::Warning,
                        &cmd.collection,
                        "",
                        Text::new("unindexed-query")
                            .arg("unit", &u.unit)
                            .arg("command", cmd.mongosh())
                            .arg("keys", keys.keys().cloned().collect::<Vec<_>>().join(", ")),
                        Text::new("unindexed-query-fix"),
                    ));
                }
            }
            if shards > 1 {
                if let Some(sk) = layout
                    .collection(&cmd.collection)
                    .and_then(|c| c.shard_key.as_ref())
                {
                    let first = sk.keys().next();
                    let targeted = first.is_some_and(|k| cmd.filter.contains_key(k));
                    if !targeted {
                        out.push(Warning::localized(
                            "SCATTER_GATHER",
                            Severity::Warning,
                            &cmd.collection,
                            "",
                            Text::new("scatter-gather")
                                .arg("unit", &u.unit)
                                .arg("command", cmd.mongosh())
                                .arg(
                                    "shard_key",
                                    crate::design::plan::shell(&bson::Bson::Document(sk.clone())),
                                )
                                .arg("shards", shards),
                            Text::new("scatter-gather-fix"),
                        ));
                    }
                }
            }
        }
    }
}
