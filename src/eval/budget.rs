//! The memory budget of an evaluation, checked before anything is generated.
//!
//! An evaluation materializes its sample: every generated document is inserted into an engine
//! database, in the page's WebAssembly memory as much as in the CLI. Generation itself stops at
//! [`GenOptions::max_total_documents`] and [`GenOptions::max_total_bytes`] (and records what it
//! left out), but a sample that large means seconds of work, and a sample cut short gives
//! skewed measurements. So [`footprint`] estimates, from the model, the layout and the sample
//! options alone, the documents and bytes the sample would need — with the generator's own
//! accounting and caps (array elements per array and per document, bytes per document) — and
//! [`check`] refuses the evaluation with [`TooBig`] when either passes the budget, naming the
//! limit and the largest sample that fits. Full-scale numbers never need this: they are
//! computed, not materialized.

use crate::design::Layout;
use crate::generate::GenOptions;
use crate::human::thousands as group;
use crate::model::field::{BsonType, Field, Fields};
use crate::model::Model;

/// Memory counted per array element, sub-document field and document, as the generator
/// counts it ([`crate::generate`]).
const OVERHEAD: f64 = 64.0;

/// What a materialized sample would hold.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Footprint {
    /// Documents, all collections together.
    pub documents: u64,
    /// Estimated bytes: strings, binary data and regexes, plus 64 per array element, per
    /// sub-document field and per document.
    pub bytes: u64,
}

/// A sample too big to materialize.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error(
    "the sample is too big to evaluate: {what}. Lower the sample size (--scale N on the command line, or \
     \"sample\": {{\"max_documents\": …}} in the model){fits}; full-scale numbers are computed \
     from the model, not materialized, so a small sample loses nothing but measured detail"
)]
pub struct TooBig {
    /// Which limit, in words (`about 3,200,000 documents, over the limit of 200,000`).
    pub what: String,
    /// `: at most N documents per entity fit` when some sample size fits, else empty.
    pub fits: String,
    /// The estimate.
    pub footprint: Footprint,
}

/// Returns the estimated documents and bytes of the sample `model` (with its sample options
/// already applied) would materialize for `layout`.
pub fn footprint(model: &Model, layout: &Layout, opts: &GenOptions) -> Footprint {
    let mut documents = 0u64;
    let mut bytes = 0.0f64;
    for c in &layout.collections {
        for shape in &c.shapes {
            let n = model.sample.sample_count(shape.count);
            documents = documents.saturating_add(n);
            let (payload, elements) = fields_cost(&shape.fields, opts.max_elements as f64);
            let per_doc = payload.min(opts.max_document_bytes as f64)
                + OVERHEAD * (elements.min(opts.max_document_elements as f64) + 1.0);
            bytes += n as f64 * per_doc;
        }
    }
    Footprint {
        documents,
        bytes: if bytes.is_finite() {
            bytes.min(u64::MAX as f64) as u64
        } else {
            u64::MAX
        },
    }
}

/// Returns the expected payload bytes and counted elements of a document's fields.
fn fields_cost(fields: &Fields, max_elements: f64) -> (f64, f64) {
    fields.iter().fold((0.0, 0.0), |(b, e), (_, f)| {
        let (fb, fe) = value_cost(f, max_elements);
        let p = f.presence().clamp(0.0, 1.0);
        (b + p * fb, e + p * fe)
    })
}

/// Returns the expected payload bytes and counted elements of one value, with arrays cut at
/// `max_elements` as generation cuts them.
fn value_cost(f: &Field, max_elements: f64) -> (f64, f64) {
    let finite = |x: f64| if x.is_finite() { x.max(0.0) } else { 0.0 };
    match f.ty {
        BsonType::String | BsonType::JavaScript | BsonType::BinData | BsonType::Regex => {
            (finite(f.length_distribution().mean()), 0.0)
        }
        BsonType::Object if f.is_map() => {
            // As an array of its entries' values (each key a short string).
            let n = f
                .count
                .as_ref()
                .map_or(0.0, |c| finite(c.integrate(|x| x.min(max_elements))))
                .min(max_elements);
            let (b, e) = fields_cost(&f.fields, max_elements);
            let key = finite(f.length_distribution().mean());
            (n * (b + key), n * (1.0 + e + f.fields.0.len() as f64))
        }
        BsonType::Object => {
            let (b, e) = fields_cost(&f.fields, max_elements);
            (b, e + f.fields.0.len() as f64)
        }
        BsonType::Array => {
            // E[min(count, cap)]: what generation materializes over the sample's quantiles
            // (a heavy tail's mean would overstate it by orders of magnitude).
            let n = f
                .count
                .as_ref()
                .map_or(0.0, |c| finite(c.integrate(|x| x.min(max_elements))))
                .min(max_elements);
            let (b, e) = value_cost(&f.element(), max_elements);
            (n * b, n * (1.0 + e))
        }
        _ => (0.0, 0.0),
    }
}

/// Refuses a sample over the budget of `opts` (documents or bytes) with a message naming the
/// limit and the largest `max_documents` that fits; returns the estimate otherwise.
pub fn check(model: &Model, layout: &Layout, opts: &GenOptions) -> Result<Footprint, TooBig> {
    let f = footprint(model, layout, opts);
    let what = if f.documents > opts.max_total_documents {
        format!(
            "about {} documents, over the limit of {}",
            group(f.documents),
            group(opts.max_total_documents)
        )
    } else if f.bytes > opts.max_total_bytes {
        format!(
            "about {} MiB in memory, over the limit of {} MiB",
            group(f.bytes.div_ceil(1 << 20)),
            group(opts.max_total_bytes >> 20)
        )
    } else {
        return Ok(f);
    };
    let fits = match largest_fitting(model, layout, opts) {
        Some(n) => format!(": at most {} documents per entity fit", group(n)),
        None => String::new(),
    };
    Err(TooBig {
        what,
        fits,
        footprint: f,
    })
}

/// Applies the budget to `model` (its sample options already applied) before an evaluation:
/// a sample size the user asked for (`explicit`: `--scale` on the command line or the model's
/// `sample.max_documents`) is refused when it does not fit; the default size is lowered to the
/// largest that fits (an embedded one-to-squillions array makes every document megabytes), so
/// that every shipped design evaluates. Returns the footprint of the sample that will be made.
pub fn fit(
    model: &mut Model,
    layout: &Layout,
    opts: &GenOptions,
    explicit: bool,
) -> Result<Footprint, TooBig> {
    match check(model, layout, opts) {
        Ok(f) => Ok(f),
        Err(e) if explicit => Err(e),
        Err(e) => {
            let Some(n) = largest_fitting(model, layout, opts) else {
                return Err(e);
            };
            model.sample.max_documents = Some(n);
            Ok(footprint(model, layout, opts))
        }
    }
}

/// Returns the largest `sample.max_documents` whose sample fits the budget (binary search:
/// the footprint grows with it), or `None` when not even 1 fits. The page's sample control
/// clamps to it.
pub fn largest_fitting(model: &Model, layout: &Layout, opts: &GenOptions) -> Option<u64> {
    let fits = |n: u64| {
        let mut m = model.clone();
        m.sample.max_documents = Some(n);
        let f = footprint(&m, layout, opts);
        f.documents <= opts.max_total_documents && f.bytes <= opts.max_total_bytes
    };
    if !fits(1) {
        return None;
    }
    let (mut lo, mut hi) = (1u64, crate::model::Sample::MAX_MAX_DOCUMENTS);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    Some(lo)
}
