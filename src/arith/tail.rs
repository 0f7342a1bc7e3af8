//! The distribution of a document's size: every field's length, presence and array count
//! together, so that no average hides a document over 16 MiB.
//!
//! A document's size is `5 + Σ` its fields' elements. What varies:
//!
//! - **array counts**, all at the document's one quantile `u` (comonotonic, as the generator
//!   draws them: the big parent is big everywhere);
//! - **independently of `u`**: every string, binData, code and regex length (also inside array
//!   elements and sub-documents), every field's presence, and the counts of arrays marked
//!   [`Field::independent`] (each value at a quantile of its own).
//!
//! The quantiles are exact where a closed form exists: when nothing varies independently the
//! size is a monotone function of `u` alone (the quantile is the size at every count's
//! quantile); when one top-level field is the only thing that varies, the quantile is that
//! field's own. Otherwise they come from a fixed-seed simulation of [`DRAWS`] documents
//! (stratified over `u`), labelled an estimate, with a distribution-free 99% confidence
//! interval from the order statistics (the ranks `qK ± 2.576·√(K·q·(1−q))`). Arrays of more
//! than [`ELEMENT_DRAWS`] elements whose elements vary draw that many elements and scale their
//! deviation from the exact conditional mean by `√(n/m)` (the central limit theorem): the mean
//! stays exact, the spread is the sum's.
//!
//! The share of documents over a threshold (16 MiB, Compass's 10,000,000 bytes) is computed by
//! conditioning on the field that dominates the tail: for a string or binData field, the
//! exact tail of its length distribution given every simulated rest of the document
//! (conditional Monte Carlo, which sees a share of one in a million where a plain count of
//! draws would see none); for arrays, the quantile `u` at which the document with mean lengths
//! crosses the threshold.
//!
//! It stays one file: one estimate, the exact tails of each form of document and the stratified
//! draws they condition on, sharing their forms and strata.

use std::cell::Cell;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::{document_size_of, index_digits_sum, payload, value_size, At};
use crate::model::distribution::{round_count, Distribution};
use crate::model::field::{BsonType, Field, Fields};

/// Documents simulated per shape when no closed form exists.
pub const DRAWS: usize = 2048;

/// Elements drawn one by one per array (per simulated document); longer arrays scale their
/// deviation (see the module).
pub const ELEMENT_DRAWS: u64 = 16;

/// z such that a two-sided normal interval holds 99%: Φ(z) = 0.995.
const Z_995: f64 = 2.575_829_303_548_901;

/// The quantile of the largest parent with every length at its mean (`At::Quantile(1.0)` is
/// every length at its maximum too).
const ALMOST_ONE: f64 = 1.0 - 1e-12;

/// The simulation's fixed seed: the same model always gives the same figures, natively and
/// in the browser.
const SEED: u64 = 0x5351_5549_4c4c_494f;

/// A quantile of the document size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QuantileSize {
    /// Bytes (whole).
    pub bytes: u64,
    /// True when computed in closed form.
    pub exact: bool,
    /// For an estimate: the 99% confidence interval `[low, high]` of the simulated quantile.
    pub bounds: Option<[u64; 2]>,
}

/// How many documents of a shape are over a size threshold.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Exceedance {
    /// The threshold in bytes (documents larger than this).
    pub threshold: u64,
    /// Share of the shape's documents over it (0..=1).
    pub share: f64,
    /// Documents over it at full scale (`share × count`).
    pub documents: f64,
    /// True when the share is computed in closed form.
    pub exact: bool,
    /// True when the largest parent (which the model says exists: every count distribution
    /// has a hard maximum) is over the threshold with every length at its mean: at least one
    /// document certainly is. False when only lengths drawn at their longest together can
    /// pass it, and `documents` says how many are expected to.
    pub certain: bool,
    /// The top-level fields responsible: the fewest, largest first, that put a document of
    /// mean size over the threshold at their maximum.
    pub fields: Vec<String>,
}

/// Documents expected over a threshold at full scale from which passing it is certain enough
/// to be an error (DOC_OVER_LIMIT): half a document, i.e. at least one when rounded.
pub const EXPECTED_DOCUMENT: f64 = 0.5;

impl Exceedance {
    /// Returns true when at least one document is expected over the threshold: the largest
    /// parent is ([`Exceedance::certain`]), or `documents` rounds to one or more.
    pub fn expected(&self) -> bool {
        self.certain || self.documents >= EXPECTED_DOCUMENT
    }
}

/// The size distribution of one kind of document.
pub struct SizeSpread<'a> {
    fields: &'a Fields,
    form: Form,
}

/// How the quantiles are computed.
enum Form {
    /// Only array counts vary (monotone in `u`).
    Monotone,
    /// One top-level field varies independently, nothing else varies.
    Single(usize),
    /// Simulated document sizes, sorted.
    Simulated(Vec<u64>),
}

impl<'a> SizeSpread<'a> {
    /// Returns the size distribution of documents with `fields`.
    pub fn of(fields: &'a Fields) -> SizeSpread<'a> {
        let varying: Vec<usize> = fields
            .iter()
            .enumerate()
            .filter(|(_, (_, f))| varies(f))
            .map(|(i, _)| i)
            .collect();
        let form = match varying.as_slice() {
            [] => Form::Monotone,
            [i] if !counts_vary(fields) && fields.0.get(*i).is_some_and(|(_, f)| scalar(f)) => {
                Form::Single(*i)
            }
            _ => {
                let mut rng = ChaCha8Rng::seed_from_u64(SEED);
                let strata = Strata::new(fields, &mut rng);
                let drawn = Drawn::all(fields);
                let mut sizes: Vec<u64> = (0..DRAWS)
                    .map(|k| {
                        let u = (k as f64 + 0.5) / DRAWS as f64;
                        let size = draw_document(fields, &drawn, u, &mut rng, None, &strata, k);
                        round_count(size.ceil())
                    })
                    .collect();
                sizes.sort_unstable();
                Form::Simulated(sizes)
            }
        };
        SizeSpread { fields, form }
    }

    /// Returns the size at quantile `q` (0 < q < 1).
    pub fn quantile(&self, q: f64) -> QuantileSize {
        match &self.form {
            Form::Monotone => QuantileSize {
                bytes: document_size_of(self.fields, At::Quantile(q)).whole(),
                exact: true,
                bounds: None,
            },
            Form::Single(i) => {
                let Some((name, f)) = self.fields.0.get(*i) else {
                    return QuantileSize {
                        bytes: 0,
                        exact: false,
                        bounds: None,
                    };
                };
                let rest = document_size_of(&without(self.fields, *i), At::Quantile(q)).whole();
                let p = f.presence();
                let own = if q <= 1.0 - p {
                    0
                } else {
                    let r = if p >= 1.0 { q } else { (q - (1.0 - p)) / p };
                    (2 + name.len() as u64).saturating_add(single_value_at(f, r))
                };
                QuantileSize {
                    bytes: rest.saturating_add(own),
                    exact: true,
                    bounds: None,
                }
            }
            Form::Simulated(sizes) => {
                let k = sizes.len() as f64;
                let at = |rank: f64| {
                    let i = (rank.ceil() as usize).clamp(1, sizes.len()) - 1;
                    sizes.get(i).copied().unwrap_or(0)
                };
                let half = Z_995 * (k * q * (1.0 - q)).sqrt();
                QuantileSize {
                    bytes: at(q * k),
                    exact: false,
                    bounds: Some([at((q * k - half).floor()), at(q * k + half + 1.0)]),
                }
            }
        }
    }

    /// Returns the size of the largest document expected among `count` documents: the
    /// `(1 − 1/count)` quantile, the size one document in `count` passes (its expected
    /// number of documents over it is one, as [`SizeSpread::over`] counts them).
    ///
    /// - Closed forms ([`Form::Monotone`], [`Form::Single`]) give it exactly, at any count.
    /// - The simulation gives it as it gives p99 (an estimate with its 99% interval) while the
    ///   quantile is within its [`DRAWS`] documents; past its last document (more than
    ///   [`DRAWS`] documents), the tail is read as [`SizeSpread::over`] reads it: the size at
    ///   which one document of `count` is expected over it, with the field that dominates the
    ///   tail at its exact length distribution (conditional Monte Carlo) or, when arrays
    ///   dominate, the arrays at the quantile with mean lengths; never below the largest
    ///   simulated document. Its interval is then `[the simulation's lower bound at its last
    ///   quantile, the bound]`: nothing distribution-free bounds it closer from above.
    /// - Clamped to `[p99, the bound]`: with 100 documents or fewer (`1 − 1/count ≤ 0.99`,
    ///   a single document and none included) it is p99, so that the table reads p50 ≤ p99 ≤
    ///   largest expected ≤ bound, and a collection of one document is not promised its
    ///   median when the model allows it to be larger.
    pub fn largest_of(&self, count: f64) -> QuantileSize {
        let bound = document_size_of(self.fields, At::Quantile(1.0)).whole();
        let p99 = self.quantile(0.99);
        if count.is_nan() || count <= 100.0 {
            return p99;
        }
        let q = 1.0 - 1.0 / count;
        let at = match &self.form {
            Form::Simulated(sizes) if q * sizes.len() as f64 > (sizes.len() - 1) as f64 => {
                self.beyond_simulation(q, count, sizes, bound)
            }
            _ => self.quantile(q),
        };
        if at.bytes <= p99.bytes {
            return p99;
        }
        if at.bytes >= bound {
            return QuantileSize {
                bytes: bound,
                exact: at.exact,
                bounds: at.bounds.map(|[low, _]| [low.min(bound), bound]),
            };
        }
        at
    }

    /// Returns the `q` quantile (`q = 1 − 1/count`) past the simulation's last document (see
    /// [`SizeSpread::largest_of`]).
    fn beyond_simulation(&self, q: f64, count: f64, sizes: &[u64], bound: u64) -> QuantileSize {
        let top = sizes.last().copied().unwrap_or(0);
        let reach = self.quantile(1.0 - 1.0 / sizes.len() as f64);
        let low = reach.bounds.map_or(reach.bytes, |[low, _]| low);
        let tail = match heavy_scalar(self.fields) {
            Some(h) => self.heavy_quantile(h, 1.0 / count, bound),
            None => document_size_of(self.fields, At::Quantile(q)).whole(),
        };
        QuantileSize {
            bytes: tail.max(top).min(bound),
            exact: false,
            bounds: Some([low, bound]),
        }
    }

    /// Returns the smallest size `t` (at most `bound`) that a share of at most `share` of the
    /// documents pass, the top-level field `h` at its exact length distribution given each
    /// simulated rest of the document (the conditional Monte Carlo of [`SizeSpread::over`],
    /// with its draws).
    fn heavy_quantile(&self, h: usize, share: f64, bound: u64) -> u64 {
        let Some((name, f)) = self.fields.0.get(h) else {
            return bound;
        };
        let mut rng = ChaCha8Rng::seed_from_u64(SEED ^ 1);
        let strata = Strata::new(self.fields, &mut rng);
        let drawn = Drawn::all(self.fields);
        let rests: Vec<f64> = (0..DRAWS)
            .map(|k| {
                let u = (k as f64 + 0.5) / DRAWS as f64;
                draw_document(self.fields, &drawn, u, &mut rng, Some(h), &strata, k)
            })
            .collect();
        let over = |t: u64| {
            rests
                .iter()
                .map(|rest| element_tail(name, f, t as f64 - rest))
                .sum::<f64>()
                / DRAWS as f64
        };
        // The share over `t` falls as `t` grows: bisect for the first `t` with at most `share`.
        let (mut lo, mut hi) = (0u64, bound);
        if over(hi) > share {
            return bound;
        }
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if over(mid) <= share {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        hi
    }

    /// Returns how many documents of `count` are larger than `threshold` bytes (`None` when
    /// even the largest document is not).
    pub fn over(&self, threshold: u64, count: f64) -> Option<Exceedance> {
        let max = document_size_of(self.fields, At::Quantile(1.0)).whole();
        if max <= threshold {
            return None;
        }
        let t = threshold as f64;
        let (share, exact) = match (&self.form, heavy_scalar(self.fields)) {
            (Form::Single(i), _) => {
                let rest = document_size_of(&without(self.fields, *i), At::Quantile(0.5)).bytes;
                let share = self
                    .fields
                    .0
                    .get(*i)
                    .map_or(0.0, |(name, f)| element_tail(name, f, t - rest));
                (share, true)
            }
            (Form::Monotone, _) => (1.0 - crossing(self.fields, t), true),
            (Form::Simulated(_), Some(h)) => {
                // Conditional Monte Carlo: the rest of each simulated document, then the heavy
                // field's exact chance to carry it over.
                let mut rng = ChaCha8Rng::seed_from_u64(SEED ^ 1);
                let strata = Strata::new(self.fields, &mut rng);
                let drawn = Drawn::all(self.fields);
                let total: f64 = (0..DRAWS)
                    .map(|k| {
                        let u = (k as f64 + 0.5) / DRAWS as f64;
                        let rest =
                            draw_document(self.fields, &drawn, u, &mut rng, Some(h), &strata, k);
                        self.fields
                            .0
                            .get(h)
                            .map_or(0.0, |(name, f)| element_tail(name, f, t - rest))
                    })
                    .sum();
                (total / DRAWS as f64, false)
            }
            (Form::Simulated(_), None) => (1.0 - crossing(self.fields, t), false),
        };
        let share = share.clamp(0.0, 1.0);
        let certain = document_size_of(self.fields, At::Quantile(ALMOST_ONE)).bytes > t;
        let documents = share * count;
        Some(Exceedance {
            threshold,
            share,
            documents: if certain {
                documents.max(1.0)
            } else {
                documents
            },
            exact,
            certain,
            fields: responsible(self.fields, t),
        })
    }
}

/// Returns true when the field's size varies other than through array counts: its presence,
/// a length, or any of its sub-fields or elements does.
pub fn varies(f: &Field) -> bool {
    if f.presence() < 1.0 {
        return true;
    }
    if f.independent && f.count.as_ref().is_some_and(|c| !c.is_constant()) {
        return true;
    }
    if f.ty.fixed_size().is_some() {
        return false;
    }
    match f.ty {
        // A map's keys may vary in length, its values as any sub-document's.
        BsonType::Object if f.is_map() => {
            !f.length_distribution().is_constant() || f.fields.iter().any(|(_, s)| varies(s))
        }
        BsonType::Object => f.fields.iter().any(|(_, s)| varies(s)),
        BsonType::Array => varies(&f.element()),
        _ => {
            let (lo, hi) = length_range(f);
            lo != hi
        }
    }
}

/// Returns true when any array (at any depth) has a count that varies.
fn counts_vary(fields: &Fields) -> bool {
    fields.iter().any(|(_, f)| match f.ty {
        BsonType::Array => {
            f.count.as_ref().is_some_and(|c| !c.is_constant()) || counts_vary(&f.fields)
        }
        BsonType::Object if f.is_map() => {
            f.count.as_ref().is_some_and(|c| !c.is_constant()) || counts_vary(&f.fields)
        }
        BsonType::Object => counts_vary(&f.fields),
        _ => false,
    })
}

/// Returns the shortest and longest length a length-typed value can have.
fn length_range(f: &Field) -> (u64, u64) {
    if let Some(lens) = super::enum_lengths(f) {
        return (
            lens.iter().copied().min().unwrap_or(0),
            lens.iter().copied().max().unwrap_or(0),
        );
    }
    let d = f.length_distribution();
    match d {
        Distribution::Uniform { min, max } => super::uniform_whole(min, max),
        _ => (round_count(d.min()), super::longest(&d)),
    }
}

/// Returns `fields` without field `i`.
fn without(fields: &Fields, i: usize) -> Fields {
    Fields(
        fields
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .map(|(_, x)| x.clone())
            .collect(),
    )
}

/// Returns true for a field whose value is one scalar: its size is a monotone function of
/// one quantile (its length's), so its own quantile is the closed form.
fn scalar(f: &Field) -> bool {
    f.ty.has_length() || f.ty.fixed_size().is_some()
}

/// Returns the value bytes of a [`scalar`] field at quantile `r` of its length.
fn single_value_at(f: &Field, r: f64) -> u64 {
    match f.ty.fixed_size() {
        Some(s) => s,
        None => round_count(payload(f.ty, length_at(f, r) as f64)),
    }
}

/// Returns the length at quantile `r` of a length-typed value (the generator's draw).
fn length_at(f: &Field, r: f64) -> u64 {
    if let Some(mut lens) = super::enum_lengths(f) {
        lens.sort_unstable();
        let i = ((r * lens.len() as f64).ceil() as usize).clamp(1, lens.len().max(1)) - 1;
        return lens.get(i).copied().unwrap_or(0);
    }
    match f.length_distribution() {
        Distribution::Uniform { min, max } => {
            let (lo, hi) = super::uniform_whole(min, max);
            let n = (hi - lo).saturating_add(1);
            lo.saturating_add(((r * n as f64).ceil() as u64).clamp(1, n) - 1)
        }
        d if r >= 1.0 => super::longest(&d),
        d => d.count_at(r),
    }
}

/// Returns P(length > y) of a length-typed value, as the generator draws it.
fn length_tail(f: &Field, y: f64) -> f64 {
    if let Some(lens) = super::enum_lengths(f) {
        let over = lens.iter().filter(|&&l| l as f64 > y).count();
        return over as f64 / lens.len().max(1) as f64;
    }
    match f.length_distribution() {
        Distribution::Fixed { value } => {
            if round_count(value) as f64 > y {
                1.0
            } else {
                0.0
            }
        }
        Distribution::Uniform { min, max } => {
            let (lo, hi) = super::uniform_whole(min, max);
            let n = (hi - lo + 1) as f64;
            let above = hi as f64 - y.floor().max(lo as f64 - 1.0);
            (above / n).clamp(0.0, 1.0)
        }
        d => {
            // round(Q(r)) > y ⇔ Q(r) ≥ ⌊y⌋ + 0.5: find the first such r by bisection on the
            // monotone quantile function.
            let x = y.floor() + 0.5;
            if d.max() < x {
                return 0.0;
            }
            if d.quantile(0.0) >= x {
                return 1.0;
            }
            if let Some(p) = d.exceedance(x) {
                return p;
            }
            let (mut lo, mut hi) = (0.0f64, 1.0f64);
            for _ in 0..64 {
                let mid = 0.5 * (lo + hi);
                if d.quantile(mid) >= x {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            // The atom at max (the clamp) is included: quantile(1) = max ≥ x.
            1.0 - hi
        }
    }
}

/// Returns P(the field's element > x bytes) for a length-typed top-level field.
fn element_tail(name: &str, f: &Field, x: f64) -> f64 {
    let fixed = 2.0 + name.len() as f64 + payload(f.ty, 0.0);
    f.presence().clamp(0.0, 1.0) * length_tail(f, x - fixed)
}

/// Returns the top-level length-typed field that dominates the tail, if the field with the
/// widest range of sizes is one.
fn heavy_scalar(fields: &Fields) -> Option<usize> {
    let mut best: Option<(usize, u64, bool)> = None;
    for (i, (name, f)) in fields.iter().enumerate() {
        let max = element_max(name, f);
        let scalar = f.ty.has_length();
        if best.is_none_or(|(_, m, _)| max > m) {
            best = Some((i, max, scalar));
        }
    }
    best.filter(|(_, _, scalar)| *scalar).map(|(i, _, _)| i)
}

/// Returns the field's element size at its maximum (present, longest, every array full).
fn element_max(name: &str, f: &Field) -> u64 {
    // `value_size` is the value's alone: presence counts in its element, not here.
    let v = value_size(f, At::Quantile(1.0)).whole();
    (2 + name.len() as u64).saturating_add(v)
}

/// Returns the smallest quantile `u` at which the document with mean lengths is larger than
/// `t` bytes (1 when it never is).
fn crossing(fields: &Fields, t: f64) -> f64 {
    let size = |u: f64| document_size_of(fields, At::Quantile(u)).bytes;
    if size(ALMOST_ONE) <= t {
        return 1.0;
    }
    let (mut lo, mut hi) = (0.0f64, ALMOST_ONE);
    if size(lo) > t {
        return 0.0;
    }
    for _ in 0..64 {
        let mid = 0.5 * (lo + hi);
        if size(mid) > t {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

/// Returns the fewest top-level fields, largest first, that put a mean-sized document over
/// `t` bytes when they are at their maximum (every field that can grow when none suffice);
/// when the mean-sized document is over `t` already (a fixed 25,000,000-byte file), the
/// fewest, largest first, without which it would not be.
fn responsible(fields: &Fields, t: f64) -> Vec<String> {
    let mean = document_size_of(fields, At::Mean).bytes;
    if mean > t {
        let mut by_size: Vec<(f64, &str)> = fields
            .iter()
            .map(|(name, f)| {
                (
                    super::field_element_size(name, f, At::Mean).bytes,
                    name.as_str(),
                )
            })
            .collect();
        by_size.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut size = mean;
        let mut out = Vec::new();
        for (bytes, name) in by_size {
            out.push(name.to_string());
            size -= bytes;
            if size <= t {
                break;
            }
        }
        return out;
    }
    let mut growth: Vec<(f64, &str)> = fields
        .iter()
        .map(|(name, f)| {
            let mean = super::field_element_size(name, f, At::Mean).bytes;
            (element_max(name, f) as f64 - mean, name.as_str())
        })
        .filter(|(g, _)| *g > 0.0)
        .collect();
    growth.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut size = document_size_of(fields, At::Mean).bytes;
    let mut out = Vec::new();
    for (g, name) in &growth {
        size += g;
        out.push(name.to_string());
        if size > t {
            return out;
        }
    }
    out
}

/// Latin-hypercube strata of the top-level scalar fields: field `i` of draw `k` takes its own
/// quantile from a random permutation of the [`DRAWS`] strata, so that every stratum of every
/// such field (its presence and its length together) is drawn exactly once. A dominant
/// string or binData field then shapes the simulated tail as its distribution says, not as
/// 2,048 random draws happen to fall.
struct Strata {
    /// Per top-level field: its permutation of the strata (`None`: drawn at random).
    fields: Vec<Option<Vec<u32>>>,
}

impl Strata {
    fn new(fields: &Fields, rng: &mut ChaCha8Rng) -> Strata {
        let fields: Vec<Option<Vec<u32>>> = fields
            .iter()
            .map(|(_, f)| {
                (scalar(f) && varies(f)).then(|| {
                    let mut p: Vec<u32> = (0..DRAWS as u32).collect();
                    rand::seq::SliceRandom::shuffle(p.as_mut_slice(), rng);
                    p
                })
            })
            .collect();
        Strata { fields }
    }

    /// Returns the quantile of top-level field `i` in draw `k` (`None`: drawn at random).
    fn at(&self, i: usize, k: usize) -> Option<f64> {
        let s = self.fields.get(i)?.as_ref()?.get(k)?;
        Some((f64::from(*s) + 0.5) / DRAWS as f64)
    }
}

/// A field as the simulation draws it: what every draw would otherwise work out again (an
/// array's element as a field, a string's enum lengths, a length distribution, whether an
/// element varies), prepared once per simulation. An array of sub-documents in 2,048 drawn
/// documents draws its elements' fields tens of thousands of times, and building the element
/// (`Field::element`, a deep copy) at each draw was most of the simulation's time in the page.
/// The draws themselves, and so every figure, are the same.
struct Drawn {
    ty: BsonType,
    fixed: Option<u64>,
    presence: f64,
    map: bool,
    independent: bool,
    /// The count of an array or map (0 when not given), and whether it is constant.
    count: Distribution,
    count_constant: bool,
    /// An enum string's value lengths (drawn uniformly, as the generator does).
    lengths: Option<Vec<u64>>,
    /// The length of a string or binData, or of a map's keys.
    length: Distribution,
    /// A sub-document's or map value's fields: (name bytes, field).
    fields: Vec<(usize, Drawn)>,
    /// An array's element.
    element: Option<Box<DrawnElement>>,
    /// The count at the last document quantile asked: every element of a document's arrays
    /// draws at the document's one quantile, so the count repeats within a document.
    count_at_u: Cell<Option<(f64, u64)>>,
}

/// An array's element: as a field (its mean size at a quantile), whether its size varies, and
/// how it is drawn.
struct DrawnElement {
    field: Field,
    varies: bool,
    drawn: Drawn,
    /// The element's mean size at the last document quantile asked (see
    /// [`Drawn::count_at_u`]).
    mean_at_u: Cell<Option<(f64, f64)>>,
}

impl DrawnElement {
    /// Returns the element's mean size at document quantile `u`.
    fn mean_at(&self, u: f64) -> f64 {
        if let Some((at, mean)) = self.mean_at_u.get() {
            if at.to_bits() == u.to_bits() {
                return mean;
            }
        }
        let mean = value_size(&self.field, At::Quantile(u)).bytes;
        self.mean_at_u.set(Some((u, mean)));
        mean
    }
}

impl Drawn {
    fn of(f: &Field) -> Drawn {
        let count = f.count.clone().unwrap_or(Distribution::fixed(0.0));
        let element = (f.ty == BsonType::Array).then(|| {
            let field = f.element();
            Box::new(DrawnElement {
                varies: varies(&field),
                drawn: Drawn::of(&field),
                field,
                mean_at_u: Cell::new(None),
            })
        });
        Drawn {
            ty: f.ty,
            fixed: f.ty.fixed_size(),
            presence: f.presence(),
            map: f.is_map(),
            independent: f.independent,
            count_constant: count.is_constant(),
            count,
            lengths: super::enum_lengths(f),
            length: f.length_distribution(),
            fields: Drawn::all(&f.fields),
            element,
            count_at_u: Cell::new(None),
        }
    }

    fn all(fields: &Fields) -> Vec<(usize, Drawn)> {
        fields
            .iter()
            .map(|(name, f)| (name.len(), Drawn::of(f)))
            .collect()
    }
}

/// Draws document `k`'s size at array quantile `u`, every length and presence drawn from
/// `rng` unless `strata` gives a top-level field its quantile; without top-level field `skip`
/// when given. `drawn` is [`Drawn::all`] of `fields`.
fn draw_document(
    fields: &Fields,
    drawn: &[(usize, Drawn)],
    u: f64,
    rng: &mut ChaCha8Rng,
    skip: Option<usize>,
    strata: &Strata,
    k: usize,
) -> f64 {
    5.0 + fields
        .iter()
        .zip(drawn)
        .enumerate()
        .filter(|(i, _)| Some(*i) != skip)
        .map(|(i, ((name, f), (_, d)))| match strata.at(i, k) {
            Some(v) => stratified_element(name, f, v),
            None => draw_element(name.len(), d, u, rng),
        })
        .sum::<f64>()
}

/// Returns a scalar field's element size at quantile `v` of its own distribution (absent
/// below `1 − presence`).
fn stratified_element(name: &str, f: &Field, v: f64) -> f64 {
    let p = f.presence();
    if v <= 1.0 - p {
        return 0.0;
    }
    let r = if p >= 1.0 { v } else { (v - (1.0 - p)) / p };
    (2 + name.len() as u64).saturating_add(single_value_at(f, r)) as f64
}

/// Draws the bytes of a sub-document's fields (nothing stratified).
fn draw_fields(fields: &[(usize, Drawn)], u: f64, rng: &mut ChaCha8Rng) -> f64 {
    5.0 + fields
        .iter()
        .map(|(name, f)| draw_element(*name, f, u, rng))
        .sum::<f64>()
}

/// Draws the size of one field as an element of its document (0 when absent), its name
/// `name` bytes long.
fn draw_element(name: usize, f: &Drawn, u: f64, rng: &mut ChaCha8Rng) -> f64 {
    let p = f.presence;
    if p < 1.0 && !(p > 0.0 && rng.random::<f64>() < p) {
        return 0.0;
    }
    2.0 + name as f64 + draw_value(f, u, rng)
}

/// Draws the element count of an array or the entry count of a map: the median of a constant
/// count, a count of its own for an independent one, else the document's quantile `u`.
fn draw_count(f: &Drawn, u: f64, rng: &mut ChaCha8Rng) -> u64 {
    if f.count_constant {
        f.count.count_at(0.5)
    } else if f.independent {
        f.count.count_at(rng.random::<f64>())
    } else {
        if let Some((at, n)) = f.count_at_u.get() {
            if at.to_bits() == u.to_bits() {
                return n;
            }
        }
        let n = f.count.count_at(u);
        f.count_at_u.set(Some((u, n)));
        n
    }
}

/// Draws the bytes of one value.
fn draw_value(f: &Drawn, u: f64, rng: &mut ChaCha8Rng) -> f64 {
    if let Some(s) = f.fixed {
        return s as f64;
    }
    match f.ty {
        BsonType::Object if f.map => {
            // A map: each entry its key (a length drawn as the generator draws it), a type
            // byte, a NUL and its value.
            let n = draw_count(f, u, rng);
            let m = n.min(ELEMENT_DRAWS);
            let drawn: f64 = (0..m)
                .map(|_| {
                    2.0 + crate::arith::draw_whole(&f.length, rng) as f64
                        + draw_fields(&f.fields, u, rng)
                })
                .sum();
            let scaled = if m == 0 {
                0.0
            } else {
                drawn * n as f64 / m as f64
            };
            5.0 + scaled
        }
        BsonType::Object => draw_fields(&f.fields, u, rng),
        BsonType::Array => {
            let n = draw_count(f, u, rng);
            let keys = 5.0 + index_digits_sum(n) as f64 + 2.0 * n as f64;
            let Some(elem) = f.element.as_deref() else {
                return keys;
            };
            let mean = elem.mean_at(u);
            if !elem.varies {
                return keys + n as f64 * mean;
            }
            let m = n.min(ELEMENT_DRAWS);
            let drawn: f64 = (0..m).map(|_| draw_value(&elem.drawn, u, rng)).sum();
            if m == n {
                keys + drawn
            } else {
                let spread = (drawn - m as f64 * mean) * (n as f64 / m as f64).sqrt();
                keys + (n as f64 * mean + spread).max(0.0)
            }
        }
        ty => payload(ty, draw_length(f, rng) as f64),
    }
}

/// Draws a length as the generator does.
fn draw_length(f: &Drawn, rng: &mut ChaCha8Rng) -> u64 {
    if let Some(lens) = &f.lengths {
        let i = rng.random_range(0..lens.len().max(1));
        return lens.get(i).copied().unwrap_or(0);
    }
    super::draw_whole(&f.length, rng)
}
