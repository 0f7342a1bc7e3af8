//! MongoDB's BSONColumn encoding: the binary (BinData subtype 7) each `data` field of a
//! compressed time-series bucket (bucket version 2, MongoDB 5.2+) is stored as.
//!
//! The format, as MongoDB's source describes it (`src/mongo/bson/column/README.md`,
//! `bsoncolumn_util.h`, `simple8b_helpers.h`, `simple8b_builder.inl`, `simple8b_type_util.cpp`):
//!
//! - A column is a sequence of *literals* and *Simple-8b blocks*, then a 0 byte (EOO).
//! - A literal is a BSON element with an empty name: its type byte (the control byte), a 0 (the
//!   empty name) and the value. The first value is always a literal, and so is every value whose
//!   type differs from the previous one or that cannot be encoded as a delta.
//! - Every other value is a number derived from the previous one, packed into 64-bit Simple-8b
//!   words written little-endian, up to 16 words after one control byte `0x80 | (words − 1)`
//!   (for doubles the high nibble says the scale: `0x90`, `0xA0`, `0xB0`, `0xC0`, `0xD0` for
//!   ×1, ×10, ×100, ×10⁴, ×10⁸; `0x80` when the double's bits are taken as an integer).
//! - The numbers: int32, int64 and booleans as the zig-zag *delta* from the previous value;
//!   dates, timestamps and ObjectIds (with the same 5 process bytes) as the zig-zag
//!   *delta-of-delta*; doubles as the delta of the value times the smallest power of ten (1, 10,
//!   100, 10⁴, 10⁸) that makes it an integer, else of its bits; strings of at most 16 bytes
//!   (not starting with a NUL), binary data of at most 16 bytes and decimals as the 128-bit delta
//!   of their bytes (strings reversed, so that their last bytes are the low ones). A value equal
//!   to the previous one of any other type is a 0 delta; a missing slot is a *skip*.
//! - A Simple-8b word is a 4-bit selector (low bits) and 60 bits of values: 60 of 1 bit, 30 of
//!   2, …, 1 of 60 (selectors 1–14); selectors 7 and 8 also have *extended* forms that store a
//!   count of trailing zeros beside each value (56 bits of values); selector 15 is a run
//!   (*RLE*) of 120 × (1–16) repeats of the last value of the previous word. A value's all-ones
//!   pattern is a skip, so a value takes the bits of value + 1.
//!
//! [`Simple8b`] follows `simple8b_builder.inl` (pending values, the four selector families,
//! words with no unused slot, RLE only at a word boundary). [`encode_column`] follows
//! `bsoncolumnbuilder.cpp` for scalar columns, with these approximations: objects and arrays
//! are literals (or 0 deltas when repeated), not MongoDB's *interleaved* mode; a double column
//! keeps the largest scale it has needed since its last literal (the server may rescale the
//! pending values into a smaller word count); the MongoDB 8.0 builder's other heuristics
//! (re-opening a column, choosing between literal and delta by size) are not modelled.
//!
//! It stays one file: one encoder (the Simple-8b packing, the deltas, the column's running
//! state), whose pieces mean nothing apart, and its tests.

use bson::spec::BinarySubtype;
use bson::{Bson, Document};

/// Bits of values in a word for each selector family: base, seven (extended), eight small,
/// eight large.
const DATA_BITS: [u32; 4] = [60, 56, 56, 56];
/// Bits of each slot that hold the trailing-zero count, per family.
const TRAILING_ZERO_BITS: [u32; 4] = [0, 4, 4, 5];
/// The most trailing zeros each family can record.
const TRAILING_ZEROS_MAX: [u32; 4] = [0, 15, 60, 124];
/// The smallest and one past the largest selector searched per family (the largest is the
/// fallback: one value a word).
const MIN_SELECTOR: [usize; 4] = [1, 1, 1, 8];
const MAX_SELECTOR: [usize; 4] = [14, 9, 7, 13];
/// The fewest bits a value takes in each family (the builder's `kMinDataBits`).
const MIN_DATA_BITS: [u32; 4] = [1, 2, 4, 4];
/// Values per word, by family and selector.
const INTS: [[u32; 16]; 4] = [
    [0, 60, 30, 20, 15, 12, 10, 8, 7, 6, 5, 4, 3, 2, 1, 0],
    [0, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0, 0, 0, 0],
    [0, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 6, 5, 4, 3, 2, 1, 0, 0],
];
/// Bits of each value (without its trailing-zero count), by family and selector.
const BITS: [[u32; 16]; 4] = [
    [64, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 20, 30, 60, 64],
    [64, 2, 3, 4, 5, 7, 10, 14, 24, 52, 64, 64, 64, 64, 64, 64],
    [64, 4, 5, 7, 10, 14, 24, 52, 0, 0, 64, 64, 64, 64, 64, 64],
    [64, 0, 0, 0, 0, 0, 0, 0, 4, 6, 9, 13, 23, 51, 64, 64],
];
/// The run-length selector and the repeats one run block stands for.
const RLE_SELECTOR: u64 = 15;
const RLE_BLOCK: u32 = 120;
const RLE_MAX_BLOCKS: u32 = 16;
/// Simple-8b words after one control byte, at most.
const WORDS_PER_CONTROL: u8 = 16;
/// The control byte of Simple-8b blocks by double scale index (the last: no scaling).
const CONTROL_FOR_SCALE: [u8; 6] = [0x90, 0xA0, 0xB0, 0xC0, 0xD0, 0x80];
/// The double scale index whose values are the double's bits.
const MEMORY_AS_INTEGER: usize = 5;
/// The scale multipliers of doubles.
const SCALES: [f64; 5] = [1.0, 10.0, 100.0, 10_000.0, 100_000_000.0];

/// One value waiting for its word: the value (`None` = skip), its bits per family and the
/// trailing zeros each family records.
#[derive(Debug, Clone, Copy)]
struct Pending {
    value: Option<u128>,
    bits: [u32; 4],
    zeros: [u32; 4],
}

/// Bits a value takes in a slot: its significant bits, one more when it is all ones (that
/// pattern is a skip).
fn bits_of(v: u128) -> u32 {
    if v >> 64 == 0 {
        128 - (v + 1).leading_zeros()
    } else {
        128 - v.leading_zeros()
    }
}

impl Pending {
    /// Returns the pending form of `v`, or `None` when no selector can hold it.
    fn of(v: u128) -> Option<Pending> {
        if v == u128::MAX {
            return None;
        }
        let tz = if v == 0 { 0 } else { v.trailing_zeros() };
        let bits = bits_of(v);
        let z7 = tz.min(TRAILING_ZEROS_MAX[1]);
        let z8s = tz.min(TRAILING_ZEROS_MAX[2]) / 4 * 4;
        let z8l = tz.min(TRAILING_ZEROS_MAX[3]) / 4 * 4;
        let mut m7 = bits.saturating_sub(z7);
        let mut m8s = bits.saturating_sub(z8s);
        let mut m8l = bits.saturating_sub(z8l);
        // A trailing-zero count of all ones would read as a skip: one more bit of value.
        if tz == TRAILING_ZEROS_MAX[1] {
            m7 = bits_of(v >> tz);
        } else if tz == TRAILING_ZEROS_MAX[2] {
            m8s = bits_of(v >> tz);
        }
        if tz == TRAILING_ZEROS_MAX[3] {
            m8l = bits_of(v >> tz);
        }
        let too_big = bits > DATA_BITS[0]
            && m7 + TRAILING_ZERO_BITS[1] > DATA_BITS[1]
            && m8s + TRAILING_ZERO_BITS[2] > DATA_BITS[2]
            && m8l + TRAILING_ZERO_BITS[3] > DATA_BITS[3];
        (!too_big).then_some(Pending {
            value: Some(v),
            bits: [bits, m7, m8s, m8l],
            zeros: [0, z7, z8s, z8l],
        })
    }

    fn skip() -> Pending {
        Pending {
            value: None,
            bits: [0; 4],
            zeros: [0; 4],
        }
    }
}

/// A Simple-8b encoder of unsigned values (up to 128 bits, as MongoDB's `Simple8bBuilder`):
/// it packs the values it is given into 64-bit words, each word as full as its selector
/// allows, and repeats of the last value of a word into RLE words.
#[derive(Debug, Clone)]
pub struct Simple8b {
    pending: Vec<Pending>,
    max_bits: [u32; 4],
    possible: [bool; 4],
    last_valid: usize,
    rle_count: u32,
    /// The last value of the previous word (`None`: a skip); 0 at first, as MongoDB's.
    last_in_prev_word: Option<u128>,
    words: Vec<u64>,
}

impl Default for Simple8b {
    fn default() -> Self {
        Simple8b {
            pending: Vec::new(),
            max_bits: MIN_DATA_BITS,
            possible: [true; 4],
            last_valid: 0,
            rle_count: 0,
            last_in_prev_word: Some(0),
            words: Vec::new(),
        }
    }
}

impl Simple8b {
    /// Returns an empty encoder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a value; `false` (and nothing added) when it is too large for any selector.
    pub fn append(&mut self, v: u128) -> bool {
        if self.rle_possible() {
            if self.last_in_prev_word == Some(v) {
                self.rle_count += 1;
                self.last_valid = 0;
                self.possible = [true; 4];
                return true;
            }
            self.end_rle();
        }
        self.append_value(v, true)
    }

    /// Adds a skip (a missing value).
    pub fn skip(&mut self) {
        if self.rle_possible() {
            if self.last_in_prev_word.is_none() {
                self.rle_count += 1;
                self.last_valid = 0;
                self.possible = [true; 4];
                return;
            }
            self.end_rle();
        }
        self.append_skip(true);
    }

    /// Writes every value still waiting and returns the words written since the last call.
    pub fn flush(&mut self) -> Vec<u64> {
        self.end_rle();
        while !self.pending.is_empty() {
            let w = self.encode_word(self.last_valid);
            self.words.push(w);
        }
        self.rle_count = 0;
        std::mem::take(&mut self.words)
    }

    fn rle_possible(&self) -> bool {
        self.pending.is_empty() || self.rle_count != 0
    }

    fn append_value(&mut self, v: u128, try_rle: bool) -> bool {
        let Some(p) = Pending::of(v) else {
            return false;
        };
        if self.fits(&p) {
            self.push(p);
            return true;
        }
        let last = self.pending.last().and_then(|q| q.value);
        loop {
            let w = self.encode_word(self.last_valid);
            self.words.push(w);
            if self.fits(&p) {
                break;
            }
        }
        if try_rle && self.pending.is_empty() && last == Some(v) {
            self.rle_count = 1;
            self.last_in_prev_word = last;
            self.last_valid = 0;
            self.possible = [true; 4];
        } else {
            self.push(p);
        }
        true
    }

    fn append_skip(&mut self, try_rle: bool) {
        if !self.pending.is_empty() {
            let last_is_skip = self.pending.last().is_some_and(|q| q.value.is_none());
            let probe = Pending {
                value: None,
                bits: MIN_DATA_BITS,
                zeros: [0; 4],
            };
            if !self.fits(&probe) {
                let w = self.encode_word(self.last_valid);
                self.words.push(w);
                self.last_valid = 0;
            }
            if self.pending.is_empty() && last_is_skip && try_rle {
                self.rle_count = 1;
                self.last_in_prev_word = None;
                return;
            }
        }
        self.pending.push(Pending::skip());
    }

    /// Writes the RLE words the run allows, then the rest of the run as plain values.
    fn end_rle(&mut self) {
        let mut blocks = self.rle_count / RLE_BLOCK;
        while blocks > 0 {
            let n = blocks.min(RLE_MAX_BLOCKS);
            self.words.push(RLE_SELECTOR | (u64::from(n - 1) << 4));
            self.rle_count -= n * RLE_BLOCK;
            blocks -= n;
        }
        while self.rle_count > 0 {
            match self.last_in_prev_word {
                None => self.append_skip(false),
                Some(v) => {
                    self.append_value(v, false);
                }
            }
            self.rle_count -= 1;
        }
        self.last_in_prev_word = Some(0);
        if self.pending.is_empty() {
            self.last_valid = 0;
            self.possible = [true; 4];
        }
    }

    fn push(&mut self, p: Pending) {
        for (m, b) in self.max_bits.iter_mut().zip(p.bits) {
            *m = (*m).max(b);
        }
        self.pending.push(p);
    }

    /// True when `p` joins the pending values in one word of some still possible family
    /// (remembering that family).
    fn fits(&mut self, p: &Pending) -> bool {
        let n = self.pending.len() as u32 + 1;
        for ext in 0..4 {
            let (Some(possible), Some(max), Some(b), Some(tz), Some(data)) = (
                self.possible.get(ext).copied(),
                self.max_bits.get(ext),
                p.bits.get(ext),
                TRAILING_ZERO_BITS.get(ext),
                DATA_BITS.get(ext),
            ) else {
                continue;
            };
            if !possible {
                continue;
            }
            if (max.max(b) + tz).saturating_mul(n) > *data {
                if let Some(slot) = self.possible.get_mut(ext) {
                    *slot = false;
                }
            } else {
                self.last_valid = ext;
                return true;
            }
        }
        false
    }

    /// Encodes the front pending values into one word of family `ext`: the selector with the
    /// most values that leaves no slot unused.
    fn encode_word(&mut self, ext: usize) -> u64 {
        let ints = INTS.get(ext).copied().unwrap_or([0; 16]);
        let bits = BITS.get(ext).copied().unwrap_or([64; 16]);
        let lo = MIN_SELECTOR.get(ext).copied().unwrap_or(1);
        let hi = MAX_SELECTOR.get(ext).copied().unwrap_or(14);
        let n = self.pending.len() as u32;
        let selector = (lo..hi)
            .find(|&s| ints.get(s).is_some_and(|&k| n >= k))
            .unwrap_or(hi);
        let count = ints.get(selector).copied().unwrap_or(1).max(1) as usize;
        let per = bits.get(selector).copied().unwrap_or(64);
        let tzb = TRAILING_ZERO_BITS.get(ext).copied().unwrap_or(0);
        let base: u64 = match ext {
            0 => selector as u64,
            1 => 7,
            _ => 8,
        };
        let shift_ext = if base == 7 || base == 8 { 4 } else { 0 };
        let width = per + tzb;
        let mask: u64 = if width >= 64 {
            u64::MAX
        } else {
            (1u64 << width) - 1
        };
        let mut word = base;
        for (i, p) in self.pending.iter().take(count).enumerate() {
            let slot = match p.value {
                None => mask,
                Some(v) => match ext {
                    0 => v as u64,
                    1 => {
                        let z = p.zeros.get(1).copied().unwrap_or(0);
                        (((v >> z) as u64) << tzb) | u64::from(z)
                    }
                    _ => {
                        let z = p.zeros.get(ext).copied().unwrap_or(0) / 4;
                        (((v >> (z * 4)) as u64) << tzb) | u64::from(z)
                    }
                },
            };
            let shift = width * i as u32 + 4 + shift_ext;
            if shift < 64 {
                word |= (slot & mask) << shift;
            }
        }
        if ext != 0 {
            word |= (selector as u64) << 4;
        }
        self.pending.drain(..count.min(self.pending.len()));
        self.max_bits = MIN_DATA_BITS;
        let rest: Vec<[u32; 4]> = self.pending.iter().map(|p| p.bits).collect();
        for b in rest {
            for (m, x) in self.max_bits.iter_mut().zip(b) {
                *m = (*m).max(x);
            }
        }
        self.possible = [true; 4];
        word
    }
}

/// Zig-zag encoding of a 64-bit delta (the sign moved to the low bit).
fn zigzag64(d: i64) -> u128 {
    u128::from(((d as u64) << 1) ^ ((d >> 63) as u64))
}

/// Zig-zag encoding of a 128-bit delta.
fn zigzag128(d: i128) -> u128 {
    ((d as u128) << 1) ^ ((d >> 127) as u128)
}

/// How a value becomes a number for deltas: the kind must match the previous value's for a
/// delta to be taken.
#[derive(Debug, Clone, PartialEq)]
enum Kind {
    /// int32, int64 or boolean (the BSON type byte): 64-bit delta.
    Delta64(u8),
    /// Date or timestamp (the BSON type byte): 64-bit delta-of-delta.
    DeltaOfDelta64(u8),
    /// ObjectId with these 5 process bytes: 64-bit delta-of-delta.
    ObjectId([u8; 5]),
    /// Double: delta of the scaled value.
    Double,
    /// String, decimal, or binary data of this subtype and length: 128-bit delta.
    Delta128(u8, Option<(u8, usize)>),
}

/// Returns a value's kind and its number (doubles are scaled later), or `None` when the type
/// is not encoded as numbers.
fn numeric(v: &Bson) -> Option<(Kind, i128)> {
    Some(match v {
        Bson::Int32(x) => (Kind::Delta64(0x10), i128::from(*x)),
        Bson::Int64(x) => (Kind::Delta64(0x12), i128::from(*x)),
        Bson::Boolean(b) => (Kind::Delta64(0x08), i128::from(*b)),
        Bson::DateTime(d) => (Kind::DeltaOfDelta64(0x09), i128::from(d.timestamp_millis())),
        Bson::Timestamp(t) => (
            Kind::DeltaOfDelta64(0x11),
            i128::from((u64::from(t.time) << 32) | u64::from(t.increment)),
        ),
        Bson::ObjectId(o) => {
            let b = o.bytes();
            let mut unique = [0u8; 5];
            unique.copy_from_slice(b.get(4..9)?);
            // Counter and timestamp bytes interleaved, the changing ones low (MongoDB's
            // `encodeObjectId`).
            let order = [11, 3, 10, 2, 9, 1, 0];
            let mut n: i128 = 0;
            for (i, &at) in order.iter().enumerate() {
                n |= i128::from(*b.get(at)?) << (8 * i);
            }
            (Kind::ObjectId(unique), n)
        }
        Bson::Double(_) => (Kind::Double, 0),
        Bson::String(s) => {
            if s.len() > 16 || s.as_bytes().first() == Some(&0) {
                return None;
            }
            let n = s.bytes().fold(0_u128, |acc, b| (acc << 8) | u128::from(b));
            (Kind::Delta128(0x02, None), n as i128)
        }
        Bson::Decimal128(d) => (Kind::Delta128(0x13, None), i128::from_le_bytes(d.bytes())),
        Bson::Binary(b) => {
            if b.bytes.len() > 16 {
                return None;
            }
            let mut arr = [0u8; 16];
            for (slot, x) in arr.iter_mut().zip(&b.bytes) {
                *slot = *x;
            }
            (
                Kind::Delta128(0x05, Some((u8::from(b.subtype), b.bytes.len()))),
                i128::from_le_bytes(arr),
            )
        }
        _ => return None,
    })
}

/// Returns the smallest scale index that makes `x` an integer exactly (MongoDB's
/// `calculateDecimalShiftMultiplier`), `None` when none does.
fn double_scale(x: f64) -> Option<usize> {
    if !x.is_finite() {
        return None;
    }
    SCALES.iter().position(|&m| {
        let t = x * m;
        (-9_007_199_254_740_992.0..=9_007_199_254_740_992.0).contains(&t)
            && (t.round() / m).to_bits() == x.to_bits()
    })
}

/// Returns `x` as the integer of scale `scale` (its bits for [`MEMORY_AS_INTEGER`]), `None`
/// when that scale does not give `x` back exactly.
fn double_at(x: f64, scale: usize) -> Option<i64> {
    if scale == MEMORY_AS_INTEGER {
        return Some(x.to_bits() as i64);
    }
    let m = *SCALES.get(scale)?;
    let t = x * m;
    let ok = (-9_007_199_254_740_992.0..=9_007_199_254_740_992.0).contains(&t)
        && (t.round() / m).to_bits() == x.to_bits();
    ok.then_some(t.round() as i64)
}

/// The literal bytes of a value: its type byte, an empty name and the value.
fn literal(v: &Bson) -> Vec<u8> {
    let mut d = Document::new();
    d.insert("", v.clone());
    match d.to_vec() {
        Ok(bytes) => bytes
            .get(4..bytes.len().saturating_sub(1))
            .map(<[u8]>::to_vec)
            .unwrap_or_default(),
        Err(_) => Vec::new(),
    }
}

/// The column being written: its bytes and the open control byte.
#[derive(Debug, Default)]
struct Out {
    bytes: Vec<u8>,
    /// The open control byte: its position, its scale index and its word count.
    control: Option<(usize, usize, u8)>,
}

impl Out {
    fn words(&mut self, words: Vec<u64>, scale: usize) {
        for w in words {
            let open = match self.control {
                Some((at, s, n)) if s == scale && n < WORDS_PER_CONTROL => Some((at, n)),
                _ => None,
            };
            let (at, n) = match open {
                Some(x) => x,
                None => {
                    let at = self.bytes.len();
                    self.bytes
                        .push(CONTROL_FOR_SCALE.get(scale).copied().unwrap_or(0x80));
                    (at, 0)
                }
            };
            self.bytes.extend_from_slice(&w.to_le_bytes());
            if let Some(c) = self.bytes.get_mut(at) {
                *c = (*c & 0xF0) | n;
            }
            self.control = Some((at, scale, n + 1));
        }
    }

    fn literal(&mut self, v: &Bson) {
        self.bytes.extend(literal(v));
        self.control = None;
    }
}

/// The previous value of a column: the value, its kind and number, its last delta and the
/// double scale in use.
struct Previous {
    value: Bson,
    kind: Option<Kind>,
    number: i128,
    delta: i128,
    scale: usize,
}

/// Returns the BSONColumn binary of a column's values in slot order (`None` = a missing slot).
pub fn encode_column(values: &[Option<&Bson>]) -> Vec<u8> {
    let mut out = Out::default();
    let mut s8 = Simple8b::new();
    let mut prev: Option<Previous> = None;
    for v in values.iter().copied() {
        let Some(v) = v else {
            s8.skip();
            continue;
        };
        let (kind, number) = match numeric(v) {
            Some((k, n)) => (Some(k), n),
            None => (None, 0),
        };
        if let Some(p) = prev.as_mut() {
            if kind.is_some() && kind == p.kind {
                if let Some(done) = append_number(&mut s8, &mut out, p, v, number) {
                    if done {
                        continue;
                    }
                }
            } else if kind.is_none() && p.kind.is_none() && p.value == *v && s8.append(0) {
                continue;
            }
        }
        let scale = prev.as_ref().map_or(MEMORY_AS_INTEGER, |p| p.scale);
        out.words(s8.flush(), scale);
        s8 = Simple8b::new();
        out.literal(v);
        let (number, scale) = match v {
            Bson::Double(x) => {
                let s = double_scale(*x).unwrap_or(MEMORY_AS_INTEGER);
                (double_at(*x, s).map_or(0, i128::from), s)
            }
            _ => (number, MEMORY_AS_INTEGER),
        };
        prev = Some(Previous {
            value: v.clone(),
            kind,
            number,
            delta: 0,
            scale,
        });
    }
    let scale = prev.as_ref().map_or(MEMORY_AS_INTEGER, |p| p.scale);
    out.words(s8.flush(), scale);
    out.bytes.push(0);
    out.bytes
}

/// Appends `v` (of the previous value's kind) as a delta or delta-of-delta; `Some(true)` when
/// it went into the Simple-8b words, `Some(false)`/`None` when it must be a literal. A double
/// that needs a larger scale ends the words of the smaller one.
fn append_number(
    s8: &mut Simple8b,
    out: &mut Out,
    p: &mut Previous,
    v: &Bson,
    number: i128,
) -> Option<bool> {
    let kind = p.kind.clone()?;
    let (value, encoded) = match (&kind, v) {
        (Kind::Double, Bson::Double(x)) => {
            let need = double_scale(*x).unwrap_or(MEMORY_AS_INTEGER);
            if need > p.scale {
                let Bson::Double(px) = p.value else {
                    return Some(false);
                };
                let target = need.max(p.scale);
                let re = double_at(px, target)?;
                out.words(s8.flush(), p.scale);
                *s8 = Simple8b::new();
                p.scale = target;
                p.number = i128::from(re);
            }
            let n = i128::from(double_at(*x, p.scale)?);
            let d = (n as i64).wrapping_sub(p.number as i64);
            (n, zigzag64(d))
        }
        (Kind::Delta64(_), _) => {
            let d = (number as i64).wrapping_sub(p.number as i64);
            (number, zigzag64(d))
        }
        (Kind::DeltaOfDelta64(_) | Kind::ObjectId(_), _) => {
            let d = (number as i64).wrapping_sub(p.number as i64);
            let dod = d.wrapping_sub(p.delta as i64);
            if !s8.append(zigzag64(dod)) {
                return Some(false);
            }
            p.number = number;
            p.delta = i128::from(d);
            p.value = v.clone();
            return Some(true);
        }
        (Kind::Delta128(..), _) => (number, zigzag128(number.wrapping_sub(p.number))),
        _ => return Some(false),
    };
    if !s8.append(encoded) {
        return Some(false);
    }
    p.number = value;
    p.value = v.clone();
    Some(true)
}

/// Returns a column as the BSON binary a version-2 bucket stores.
pub fn column_binary(values: &[Option<&Bson>]) -> Bson {
    Bson::Binary(bson::Binary {
        subtype: BinarySubtype::Column,
        bytes: encode_column(values),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::DateTime;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn a_single_value_is_its_literal_and_the_end() {
        let v = Bson::Int32(1);
        assert_eq!(hex(&encode_column(&[Some(&v)])), "10000100000000");
    }

    #[test]
    fn mongodb_basic_value_and_basic_skip() {
        // `BSONColumnTest.BasicValue` and `.BasicSkip` (src/mongo/bson/column/
        // bsoncolumn_test.cpp): int32 1 twice is the literal, control 0b1000 with one block
        // and a one-value word of delta 0 (selector 14), EOO; a skip is the same word with the
        // value all ones.
        let v = Bson::Int32(1);
        assert_eq!(
            hex(&encode_column(&[Some(&v), Some(&v)])),
            "100001000000800e0000000000000000"
        );
        assert_eq!(
            hex(&encode_column(&[Some(&v), None])),
            "10000100000080feffffffffffffff00"
        );
    }

    #[test]
    fn small_deltas_share_one_word() {
        // 1, 2, 3: the literal 1, then deltas 1 and 1 (zig-zag 2 and 2: 2 bits each, as 3 is
        // the skip pattern of 2 bits); two values fill selector 13 (2 × 30 bits).
        let vs = [Bson::Int32(1), Bson::Int32(2), Bson::Int32(3)];
        let refs: Vec<Option<&Bson>> = vs.iter().map(Some).collect();
        let col = encode_column(&refs);
        let word: u64 = 13 | (2 << 4) | (2 << 34);
        let mut want = vec![0x10, 0x00, 0x01, 0, 0, 0, 0x80];
        want.extend(word.to_le_bytes());
        want.push(0);
        assert_eq!(hex(&col), hex(&want));
    }

    #[test]
    fn regular_times_are_a_run() {
        // A reading every second: the delta-of-delta is 0 after the first delta, so 1,000
        // times are the literal, a word of the first delta and 4 zeros, an RLE word of 960
        // zeros and two words of the last 35.
        let vs: Vec<Bson> = (0..1000)
            .map(|i| Bson::DateTime(DateTime::from_millis(1_709_287_230_000 + 1_000 * i)))
            .collect();
        let refs: Vec<Option<&Bson>> = vs.iter().map(Some).collect();
        let col = encode_column(&refs);
        // Literal (10 bytes), control, at most a handful of words, EOO.
        assert_eq!(col.len(), 10 + 1 + 8 * 4 + 1);
        assert_eq!(col.first(), Some(&0x09));
    }

    #[test]
    fn rle_needs_a_full_word_of_the_value_first() {
        // 300 zeros after a literal: MongoDB starts with last = 0, so they are one RLE word of
        // two blocks (240) and 60 zeros in one 1-bit word.
        let mut s = Simple8b::new();
        for _ in 0..300 {
            assert!(s.append(0));
        }
        let words = s.flush();
        assert_eq!(words.first(), Some(&(15 | (1 << 4))));
        assert_eq!(words.get(1), Some(&1));
        assert_eq!(words.len(), 2);
    }

    #[test]
    fn doubles_take_their_decimal_scale() {
        assert_eq!(double_scale(3.0), Some(0));
        assert_eq!(double_scale(2.5), Some(1));
        assert_eq!(double_scale(0.25), Some(2));
        assert_eq!(double_scale(0.125), Some(3));
        assert_eq!(double_scale(1.0 / 3.0), None);
        let vs = [Bson::Double(1.5), Bson::Double(1.6), Bson::Double(1.7)];
        let refs: Vec<Option<&Bson>> = vs.iter().map(Some).collect();
        let col = encode_column(&refs);
        // Literal (10 bytes), one ×10 control byte and one word, EOO.
        assert_eq!(col.len(), 10 + 1 + 8 + 1);
        assert_eq!(col.get(10), Some(&0xA0));
    }

    #[test]
    fn long_strings_are_literals_unless_repeated() {
        let a = Bson::String("a".repeat(40));
        let b = Bson::String("b".repeat(40));
        let col = encode_column(&[Some(&a), Some(&a), Some(&b)]);
        // Literal a (2 + 4 + 41), a 0 delta (control + word), literal b, EOO.
        assert_eq!(col.len(), 47 + 9 + 47 + 1);
    }

    #[test]
    fn missing_slots_are_skips() {
        let v = Bson::Int32(5);
        let col = encode_column(&[Some(&v), None, Some(&v)]);
        // Literal (6), control, one word of two 30-bit slots (skip, 0 delta), EOO.
        assert_eq!(col.len(), 6 + 1 + 8 + 1);
    }
}
