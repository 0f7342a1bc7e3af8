//! The values of one document ([`Gen`]): each field drawn from its distribution (names,
//! e-mails, words and text of the requested length, numbers, dates, binary data, references,
//! maps and sub-documents), within the document's byte budget, with the paths of arrays cut
//! short.
//!
//! It stays one file: it is one `impl` of [`Gen`], each kind of value a method drawing from the
//! same random stream within the same byte budget, best read together.

use crate::model::distribution::Distribution;
use crate::model::field::{BsonType, Field, Fields, ValueKind};
use bson::{oid::ObjectId, Binary, Bson, DateTime, Document};
use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{entity_oid, key_value};

/// State of one document's generation.
pub(super) struct Gen<'a> {
    pub(super) rng: ChaCha8Rng,
    pub(super) q: f64,
    /// The document's place in its collection's insertion order: the value of its
    /// `sequence` fields.
    pub(super) index: u64,
    pub(super) max_elements: u64,
    pub(super) budget: u64,
    /// Bytes of strings, binary data and regexes this document may still hold.
    pub(super) bytes_left: u64,
    /// Bytes values were cut short by, for want of `bytes_left` or past 16 MiB.
    pub(super) shortened: u64,
    /// Fields of sub-documents made, for the dataset's memory budget.
    pub(super) fields_made: u64,
    pub(super) truncated: Vec<(String, u64, u64)>,
    /// References made that name a document the sample does not hold: (path, how many).
    pub(super) outside: Vec<(String, u64)>,
    /// References inside sub-documents ([`Refs::nested`]).
    pub(super) nested: &'a [(String, String, u64)],
    pub(super) seed: u64,
    /// The sub-documents being made, innermost last: each one's values (with their field's
    /// position) until its last field is drawn ([`Gen::object`]).
    pub(super) pending: Vec<(usize, Bson)>,
    /// Sub-documents of the field names made lately, every value null: a sub-document of the
    /// same names is a copy of one with its values put in ([`Gen::object`]).
    pub(super) skeletons: Vec<Document>,
}

/// Elements an array reserves room for at once: every element of the sample's arrays (at most
/// [`GenOptions::max_elements`] by default), so that an array of thousands is not copied as it
/// grows; a preview's unbounded counts grow past it.
pub(super) const ELEMENTS_RESERVED: u64 = 16_384;

/// Sub-document skeletons a document's generation keeps ([`Gen::skeletons`]): the few kinds of
/// sub-documents its arrays hold.
pub(super) const SKELETONS: usize = 8;

pub(super) const FIRST: &[&str] = &[
    "Kate", "Wil", "Bruce", "Diana", "Clark", "Ada", "Grace", "Alan", "Linus", "Barbara", "Ken",
    "Dennis", "Margaret", "Edsger", "Frances", "Donald", "Radia", "Tim", "Hedy", "John",
];
pub(super) const LAST: &[&str] = &[
    "Monster", "Wheaton", "Wayne", "Prince", "Kent", "Lovelace", "Hopper", "Turing", "Torvalds",
    "Liskov", "Thompson", "Ritchie", "Hamilton", "Dijkstra", "Allen", "Knuth", "Perlman",
    "Berners", "Lamarr", "Backus",
];
pub(super) const WORDS: &[&str] = &[
    "lorem",
    "ipsum",
    "dolor",
    "sit",
    "amet",
    "consectetur",
    "adipiscing",
    "elit",
    "sed",
    "do",
    "eiusmod",
    "tempor",
    "incididunt",
    "ut",
    "labore",
    "et",
    "dolore",
    "magna",
    "aliqua",
    "enim",
    "ad",
    "minim",
    "veniam",
    "quis",
    "nostrud",
    "exercitation",
    "ullamco",
    "laboris",
    "nisi",
    "aliquip",
    "ex",
    "ea",
    "commodo",
    "consequat",
    "grommet",
    "shifter",
];

impl Gen<'_> {
    /// Returns whether an optional field is present: always in the largest document
    /// (quantile 1), where every field is at its maximum.
    pub(super) fn present(&mut self, f: &Field) -> bool {
        let p = f.presence();
        p >= 1.0 || self.q >= 1.0 || (p > 0.0 && self.rng.random::<f64>() < p)
    }

    pub(super) fn pick<'a>(&mut self, list: &[&'a str]) -> &'a str {
        list.get(self.rng.random_range(0..list.len().max(1)))
            .copied()
            .unwrap_or("x")
    }

    /// Returns a whole count drawn from `d` (integers uniform for uniform shapes).
    /// Returns a whole length drawn from `d`, at most the BSON limit (a longer value could
    /// never be stored).
    /// Takes the length from the document's byte budget: a value that would pass it is cut
    /// short (and the document marked as shortened).
    /// The largest document (quantile 1) takes every length at its maximum.
    pub(super) fn draw_len(&mut self, d: &Distribution) -> u64 {
        let drawn = self.draw(d);
        let want = drawn.min(crate::size::MAX_BSON_SIZE);
        let got = want.min(self.bytes_left);
        self.shortened = self.shortened.saturating_add(drawn - got);
        self.bytes_left -= got;
        got
    }

    pub(super) fn draw(&mut self, d: &Distribution) -> u64 {
        if self.q >= 1.0 {
            return crate::arith::longest(d);
        }
        crate::arith::draw_whole(d, &mut self.rng)
    }

    pub(super) fn count(&mut self, f: &Field) -> u64 {
        let d = f.count.clone().unwrap_or(Distribution::fixed(0.0));
        if d.is_constant() {
            d.count_at(0.5)
        } else if f.independent && self.q < 1.0 {
            // Drawn on its own; the largest document (quantile 1) has every array full.
            d.count_at(self.rng.random::<f64>())
        } else {
            d.count_at(self.q)
        }
    }

    /// A reference, or an array of them. With `owned` (`[start, end)` of `children` generated
    /// ones), an array lists those children first, then children that were not generated
    /// (indexes from `children` on): a one-to-many parent never lists another's child.
    /// With `key` (its name and field), the references are the entity's values of that key
    /// ([`key_value`]), not ObjectIds.
    pub(super) fn reference(
        &mut self,
        f: &Field,
        entity: &str,
        count: u64,
        path: FieldPath<'_>,
        owned: Option<((u64, u64), u64)>,
        key: Option<(&str, &Field)>,
    ) -> Bson {
        let mut next_owned = owned.map(|((s, _), _)| s);
        // References past the sample's documents (a parent's children beyond its share of the
        // sampled ones, an entity with none sampled), by path: said in `outside`.
        let mut beyond: Vec<(String, u64)> = Vec::new();
        // Every element of an array notes the same path: compared as it is, rendered once.
        let mut note = |p: FieldPath<'_>| match beyond.iter_mut().find(|(q, _)| p.is(q)) {
            Some((_, n)) => *n += 1,
            None => beyond.push((p.render(), 1)),
        };
        let id = |seed: u64, i: u64| match key {
            Some((k, kf)) => key_value(seed, entity, k, kf, i),
            None => Bson::ObjectId(entity_oid(seed, entity, i)),
        };
        let pick = |g: &mut Gen,
                    next_owned: &mut Option<u64>,
                    at: FieldPath<'_>,
                    note: &mut dyn FnMut(FieldPath<'_>)| {
            if let (Some(k), Some(((_, end), children))) = (*next_owned, owned) {
                if k < end {
                    *next_owned = Some(k + 1);
                    return id(g.seed, k);
                }
                note(at);
                let i = children.saturating_add(g.rng.random_range(0..u32::MAX as u64));
                return id(g.seed, i);
            }
            let i = if count > 0 {
                g.rng.random_range(0..count)
            } else {
                note(at);
                g.rng.random_range(0..u32::MAX as u64)
            };
            id(g.seed, i)
        };
        let id_path = path.child("_id");
        let v = match f.ty {
            BsonType::ObjectId => pick(self, &mut next_owned, path, &mut note),
            ty if key.is_some() && ty != BsonType::Array => {
                pick(self, &mut next_owned, path, &mut note)
            }
            BsonType::Array => {
                let (n, m) = self.take_elements(f);
                let elem = f.element();
                let mut out = Vec::with_capacity(m.min(ELEMENTS_RESERVED) as usize);
                // One document names each entity once (a user follows another once, a product
                // lists a part once) while there are enough of them: a repeated id is drawn
                // again, a few times at most.
                // The elements are references: ObjectIds, or a key's values.
                let refs = elem.ty == BsonType::ObjectId || key.is_some();
                let distinct = owned.is_none() && count > 0 && refs;
                // Drawn without replacement (Floyd's algorithm, `rand::seq::index::sample`):
                // the entities a document names are distinct, up to the sample's `count` of
                // them; past that the rest repeat some (every id still names a document of the
                // sample, which an export read back by `squillion infer` needs to resolve).
                let mut chosen: Vec<u64> = if distinct {
                    let (n, k) = (
                        usize::try_from(count).unwrap_or(usize::MAX),
                        usize::try_from(m.min(count)).unwrap_or(usize::MAX),
                    );
                    let mut v: Vec<u64> = rand::seq::index::sample(&mut self.rng, n, k)
                        .into_iter()
                        .map(|i| i as u64)
                        .collect();
                    v.reverse();
                    v
                } else {
                    Vec::new()
                };
                for _ in 0..m {
                    if self.bytes_left == 0 {
                        break;
                    }
                    if refs {
                        let id = match chosen.pop() {
                            Some(i) => id(self.seed, i),
                            None => pick(self, &mut next_owned, path, &mut note),
                        };
                        out.push(id);
                    } else {
                        let mut v = self.value(&elem, path);
                        if let (Bson::Document(d), Some(BsonType::ObjectId)) =
                            (&mut v, elem.fields.get("_id").map(|x| x.ty))
                        {
                            if let Bson::ObjectId(o) =
                                pick(self, &mut next_owned, id_path, &mut note)
                            {
                                d.insert("_id", o);
                            }
                        }
                        out.push(v);
                    }
                }
                self.note_short_array(path, &mut out, m, n);
                Bson::Array(out)
            }
            _ => self.value(f, path),
        };
        self.outside.extend(beyond);
        v
    }

    pub(super) fn value(&mut self, f: &Field, path: FieldPath<'_>) -> Bson {
        match f.ty {
            BsonType::Double => Bson::Double(self.number(f)),
            BsonType::Decimal => {
                let v = self.number(f);
                Bson::Decimal128(
                    format!("{v:.2}")
                        .parse()
                        .unwrap_or_else(|_| bson::Decimal128::from_bytes([0; 16])),
                )
            }
            BsonType::Int => Bson::Int32(
                self.integer(f)
                    .clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32,
            ),
            BsonType::Long => Bson::Int64(self.integer(f)),
            BsonType::Bool => Bson::Boolean(self.rng.random()),
            BsonType::Date => Bson::DateTime(DateTime::from_millis(self.date(f))),
            BsonType::Timestamp => Bson::Timestamp(bson::Timestamp {
                time: (self.date(f) / 1000) as u32,
                increment: self.rng.random_range(1..1000),
            }),
            BsonType::ObjectId => {
                if let Some(id) = self.nested_reference(path) {
                    return id;
                }
                let mut b = [0u8; 12];
                self.rng.fill(&mut b);
                Bson::ObjectId(ObjectId::from_bytes(b))
            }
            BsonType::Null => Bson::Null,
            BsonType::MinKey => Bson::MinKey,
            BsonType::MaxKey => Bson::MaxKey,
            BsonType::String => Bson::String(self.string(f)),
            BsonType::JavaScript => Bson::JavaScriptCode(self.string(f)),
            BsonType::BinData => Bson::Binary(Binary {
                subtype: bson::spec::BinarySubtype::Generic,
                bytes: self.binary(f),
            }),
            BsonType::Regex => {
                let n = self.draw_len(&f.length_distribution()) as usize;
                let pattern = repeat_to("ab.c*".to_string(), n);
                match (
                    bson::raw::CString::try_from(pattern),
                    bson::raw::CString::try_from(""),
                ) {
                    (Ok(pattern), Ok(options)) => {
                        Bson::RegularExpression(bson::Regex { pattern, options })
                    }
                    _ => Bson::Null,
                }
            }
            BsonType::Object if f.is_map() => Bson::Document(self.map(f, path)),
            BsonType::Object => Bson::Document(self.object(&f.fields, path)),
            BsonType::Array => {
                let (n, m) = self.take_elements(f);
                let elem = f.element();
                let mut out = Vec::with_capacity(m.min(ELEMENTS_RESERVED) as usize);
                for _ in 0..m {
                    if self.bytes_left == 0 {
                        break;
                    }
                    out.push(self.value(&elem, path));
                }
                self.note_short_array(path, &mut out, m, n);
                Bson::Array(out)
            }
        }
    }

    /// Returns the id of a document of the sample when `path` is a reference inside a
    /// sub-document ([`Refs::nested`]): one of the entity's generated documents, drawn (or,
    /// when none was generated, an id past them, said in `outside`).
    pub(super) fn nested_reference(&mut self, path: FieldPath<'_>) -> Option<Bson> {
        if self.nested.is_empty() {
            return None;
        }
        let p = path.render();
        let (_, entity, count) = self.nested.iter().find(|(q, ..)| *q == p)?;
        let i = if *count > 0 {
            self.rng.random_range(0..*count)
        } else {
            match self.outside.iter_mut().find(|(q, _)| *q == p) {
                Some((_, n)) => *n += 1,
                None => self.outside.push((p, 1)),
            }
            self.rng.random_range(0..u32::MAX as u64)
        };
        Some(Bson::ObjectId(entity_oid(self.seed, entity, i)))
    }

    /// Returns how many elements the array (or map) `f` has at full scale (`n`) and how many
    /// this document makes (`m`: at most the sample's per-array and per-document limits),
    /// taking `m` from the document's elements budget ([`Self::note_short_array`] gives back
    /// what is not used).
    fn take_elements(&mut self, f: &Field) -> (u64, u64) {
        let n = self.count(f);
        let m = n.min(self.max_elements).min(self.budget);
        self.budget -= m;
        (n, m)
    }

    /// Records an array of `n` elements at `path` of which only `out.len()` (at most the `m`
    /// planned) were materialized, and gives back the elements budget it did not use.
    pub(super) fn note_short_array(
        &mut self,
        path: FieldPath<'_>,
        out: &mut [Bson],
        m: u64,
        n: u64,
    ) {
        let got = out.len() as u64;
        self.budget = self.budget.saturating_add(m.saturating_sub(got));
        if got < n {
            self.truncated.push((path.render(), got, n));
        }
    }

    /// A map ([`Field::map_of`]): as many entries as an array of its count would have
    /// elements, each named by a distinct key of a drawn length (the entry's number in hex,
    /// then random hex digits: ids, as maps keyed by data hold) and holding a sub-document of
    /// the map's fields.
    pub(super) fn map(&mut self, f: &Field, path: FieldPath<'_>) -> Document {
        let (n, m) = self.take_elements(f);
        let key_length = f.length_distribution();
        let mut d = Document::new();
        for i in 0..m {
            if self.bytes_left == 0 {
                break;
            }
            let len = usize::try_from(self.draw_len(&key_length)).unwrap_or(0);
            let mut key = format!("{i:x}");
            while key.len() < len {
                let digit = char::from_digit(self.rng.random_range(0..16), 16).unwrap_or('0');
                key.push(digit);
            }
            let v = self.object(&f.fields, path);
            d.insert(key, v);
        }
        let got = d.len() as u64;
        self.budget = self.budget.saturating_add(m.saturating_sub(got));
        if got < n {
            self.truncated.push((path.render(), got, n));
        }
        d
    }

    /// A sub-document of `fields`: each present field's value, in field order.
    ///
    /// The values are drawn first (in the same order as ever); the document is then a copy of a
    /// skeleton with the same field names ([`Gen::skeletons`]) with the values put in: the
    /// same document as inserting them one by one, without hashing every name of every
    /// element of an array of thousands of sub-documents (a host's 5,000 log messages).
    pub(super) fn object(&mut self, fields: &Fields, path: FieldPath<'_>) -> Document {
        let start = self.pending.len();
        for (i, (n, f)) in fields.iter().enumerate() {
            if self.present(f) {
                self.fields_made = self.fields_made.saturating_add(1);
                let v = self.value(f, path.child(n));
                self.pending.push((i, v));
            }
        }
        let names = || {
            self.pending
                .get(start..)
                .unwrap_or_default()
                .iter()
                .filter_map(|(i, _)| fields.0.get(*i).map(|(n, _)| n))
        };
        let same = |sk: &Document| sk.len() == self.pending.len() - start && sk.keys().eq(names());
        let mut d = match self.skeletons.iter().find(|sk| same(sk)).cloned() {
            Some(sk) => sk,
            None => {
                let sk: Document = names().map(|n| (n.clone(), Bson::Null)).collect();
                if sk.len() != self.pending.len() - start {
                    // A name given twice: its later value replaces the earlier in place.
                    return self
                        .pending
                        .drain(start..)
                        .filter_map(|(i, v)| fields.0.get(i).map(|(n, _)| (n.clone(), v)))
                        .collect();
                }
                if self.skeletons.len() >= SKELETONS {
                    self.skeletons.remove(0);
                }
                self.skeletons.push(sk.clone());
                sk
            }
        };
        for ((_, slot), (_, v)) in d.iter_mut().zip(self.pending.drain(start..)) {
            *slot = v;
        }
        d
    }

    pub(super) fn number(&mut self, f: &Field) -> f64 {
        let (lo, hi) = (
            f.min.unwrap_or(0.0),
            f.max.unwrap_or(if f.kind == Some(ValueKind::Price) {
                100.0
            } else {
                1000.0
            }),
        );
        match f.kind {
            Some(ValueKind::Counter) => 0.0,
            Some(ValueKind::Sequence) => self.index as f64,
            Some(ValueKind::Price) => {
                ((lo + self.rng.random::<f64>() * (hi - lo)) * 100.0).round() / 100.0
            }
            _ => lo + self.rng.random::<f64>() * (hi - lo),
        }
    }

    pub(super) fn integer(&mut self, f: &Field) -> i64 {
        match f.kind {
            Some(ValueKind::Counter) => 0,
            Some(ValueKind::Sequence) => self.index as i64,
            _ => {
                let lo = f.min.unwrap_or(0.0) as i64;
                let hi = f.max.unwrap_or(1000.0) as i64;
                if hi <= lo {
                    lo
                } else {
                    self.rng.random_range(lo..=hi)
                }
            }
        }
    }

    pub(super) fn date(&mut self, f: &Field) -> i64 {
        let (a, b) = date_span(f);
        if b <= a {
            a
        } else {
            self.rng.random_range(a..b)
        }
    }

    /// Returns the bytes of a `binData` value: with a textual `kind` ([`binary_is_text`]) the
    /// ASCII text a string of that kind would hold, which compresses as text does; otherwise
    /// seeded pseudo-random bytes, which do not compress, as real attachments (images, PDFs,
    /// archives: already compressed) barely do.
    pub(super) fn binary(&mut self, f: &Field) -> Vec<u8> {
        if binary_is_text(f) {
            return self.string(f).into_bytes();
        }
        let n = self.draw_len(&f.length_distribution());
        // The document's stream gives 64 bytes, as it always has (the values drawn after this
        // one stay the same); the first 32 seed a stream of the value's own, which fills any
        // length quickly (ChaCha8 runs at gigabytes a second).
        let (mut seed, mut unused) = ([0u8; 32], [0u8; 32]);
        self.rng.fill(&mut seed);
        self.rng.fill(&mut unused);
        let mut bytes = vec![0u8; usize::try_from(n).unwrap_or(0)];
        ChaCha8Rng::from_seed(seed).fill_bytes(&mut bytes);
        bytes
    }

    pub(super) fn string(&mut self, f: &Field) -> String {
        if !f.values.is_empty() {
            if self.q >= 1.0 {
                // The largest document holds the longest value.
                let longest = f.values.iter().max_by_key(|v| v.len());
                return longest.cloned().unwrap_or_default();
            }
            let i = self.rng.random_range(0..f.values.len());
            return f.values.get(i).cloned().unwrap_or_default();
        }
        let len = self.draw_len(&f.length_distribution()) as usize;
        let kind = f.kind.unwrap_or(ValueKind::Text);
        let s = match kind {
            ValueKind::Name => format!("{} {}", self.pick(FIRST), self.pick(LAST)),
            ValueKind::Username => format!(
                "{}{}",
                self.pick(FIRST).to_lowercase(),
                self.rng.random_range(1..999)
            ),
            ValueKind::Email => {
                let local = format!(
                    "{}.{}",
                    self.pick(FIRST).to_lowercase(),
                    self.pick(LAST).to_lowercase()
                );
                let domain = "@example.com";
                let room = len.saturating_sub(domain.len()).max(1);
                let local = fit(local, room, self);
                return fit(format!("{local}{domain}"), len, self);
            }
            ValueKind::Hostname => format!("{}.example.com", self.pick(WORDS)),
            ValueKind::Ip => format!(
                "10.{}.{}.{}",
                self.rng.random_range(0..256),
                self.rng.random_range(0..256),
                self.rng.random_range(0..256)
            ),
            ValueKind::Url => format!(
                "https://example.com/{}/{}",
                self.pick(WORDS),
                self.pick(WORDS)
            ),
            ValueKind::Code => format!(
                "{:03}-{}-{:03}",
                self.rng.random_range(0..1000),
                self.pick(&["aff", "bcd", "xyz"]),
                self.rng.random_range(0..1000)
            ),
            ValueKind::Word => self.pick(WORDS).to_string(),
            _ => {
                // Words up to 256 bytes; longer text repeats them (cheap for megabytes).
                // Room for the last word too, so the text is allocated once.
                let mut t = String::with_capacity(len.min(256) + 16);
                while t.len() < len.min(256) {
                    if !t.is_empty() {
                        t.push(' ');
                    }
                    t.push_str(self.pick(WORDS));
                }
                repeat_to(t, len)
            }
        };
        fit(s, len, self)
    }
}

/// Returns the range a date field's values are drawn from, in milliseconds since the epoch:
/// its `from` and `to` days, 2020-01-01 to 2025-01-01 when not given.
pub(super) fn date_span(f: &Field) -> (i64, i64) {
    let day =
        |s: &Option<String>, d: i64| s.as_deref().and_then(crate::date::parse_date).unwrap_or(d);
    let (a, b) = (day(&f.from, 18_262), day(&f.to, 20_089));
    (a.min(b) * 86_400_000, a.max(b) * 86_400_000)
}

/// Returns true when a `binData` field holds text: its `kind` is one that generates text
/// (`text`, `name`, `email`, `username`, `word`, `hostname`, `ip`, `url`, `code`, or `enum`
/// with its `values`). Without a kind, or with a numeric or date kind (meaningless for bytes),
/// the bytes are random (docs/metrics.md, "What the storage estimate assumes").
pub fn binary_is_text(f: &Field) -> bool {
    matches!(
        f.kind,
        Some(
            ValueKind::Text
                | ValueKind::Name
                | ValueKind::Email
                | ValueKind::Username
                | ValueKind::Word
                | ValueKind::Hostname
                | ValueKind::Ip
                | ValueKind::Url
                | ValueKind::Code
                | ValueKind::Enum
        )
    )
}

/// Returns `s` cut or padded (with lorem letters) to exactly `len` bytes (all ASCII).
pub(super) fn fit(mut s: String, len: usize, g: &mut Gen) -> String {
    if s.len() > len {
        s.truncate(len);
    }
    while s.len() < len.min(256) {
        let w = g.pick(WORDS);
        let room = len - s.len();
        s.push_str(w.get(..room.min(w.len())).unwrap_or("x"));
    }
    repeat_to(s, len)
}

/// Returns the ASCII text `s` repeated (or cut) to exactly `len` bytes; `s` empty gives `x`s.
pub(super) fn repeat_to(mut s: String, len: usize) -> String {
    // Long enough: cut in place, not copied (the copy below would hold the same bytes).
    if s.len() >= len && s.is_char_boundary(len) {
        s.truncate(len);
        return s;
    }
    let block = if s.is_empty() { "x".to_string() } else { s };
    let mut out = String::with_capacity(len);
    while out.len() < len {
        let room = len - out.len();
        out.push_str(block.get(..room.min(block.len())).unwrap_or("x"));
    }
    out
}

/// Returns one document with `fields`, every array at quantile `q` of its count distribution
/// (arrays with a fixed count get exactly that count), for tests and previews.
pub fn document_from_fields(fields: &Fields, q: f64, seed: u64) -> Document {
    let mut g = Gen {
        rng: ChaCha8Rng::seed_from_u64(seed),
        q,
        index: 0,
        max_elements: u64::MAX,
        budget: u64::MAX,
        bytes_left: u64::MAX,
        shortened: 0,
        fields_made: 0,
        truncated: vec![],
        outside: vec![],
        nested: &[],
        seed,
        pending: Vec::new(),
        skeletons: Vec::new(),
    };
    g.object(fields, FieldPath::root(""))
}

/// Where a generated value sits (`a.b.c`), spelled out only when an array is cut short
/// (writing it for every value cost a string per field of every generated document).
#[derive(Debug, Clone, Copy)]
pub(super) struct FieldPath<'a> {
    pub(super) parent: Option<&'a FieldPath<'a>>,
    pub(super) name: &'a str,
}

impl<'a> FieldPath<'a> {
    /// Returns a top-level path (`name` as is).
    pub(super) fn root(name: &'a str) -> FieldPath<'a> {
        FieldPath { parent: None, name }
    }

    /// Returns the path of field `name` under this one.
    pub(super) fn child(&'a self, name: &'a str) -> FieldPath<'a> {
        FieldPath {
            parent: Some(self),
            name,
        }
    }

    /// Returns the path as text: the parent's, a dot, the name.
    pub(super) fn render(&self) -> String {
        match self.parent {
            Some(p) => format!("{}.{}", p.render(), self.name),
            None => self.name.to_string(),
        }
    }

    /// True when the path as text ([`FieldPath::render`]) is `text`, found without rendering
    /// it (a reference array notes its path once per element).
    pub(super) fn is(&self, text: &str) -> bool {
        let Some(rest) = text.strip_suffix(self.name) else {
            return false;
        };
        match self.parent {
            Some(p) => rest.strip_suffix('.').is_some_and(|r| p.is(r)),
            None => rest.is_empty(),
        }
    }
}
