//! The fast path of [`super::Inference::read`]: one line of mongoexport text read straight
//! into a flat list of borrowed values that the statistics read ([`super::stats::Value`]),
//! without building a BSON document (no map, no string copied).
//!
//! It reads only what mongoexport writes, in strict JSON: double-quoted keys and strings
//! without escapes, plain numbers, `true`, `false`, `null`, objects and arrays, and the
//! one-key Extended JSON wrappers `$oid`, `$numberInt`, `$numberLong`, `$numberDouble` and
//! `$date` (canonical or relaxed). Anything else (an escape, another wrapper, a `$` key, a
//! repeated name, a comment, an error …) returns `None`, and the line is read by the general
//! reader ([`crate::ejson::parse_document`]) as before, so a line read here gives the
//! statistics exactly the values that reader would give them (`tests/suite/infer.rs` and the
//! unit tests below compare the two).

use bson::oid::ObjectId;

use super::stats::{Shape, Value};
use crate::ejson::{is_integer_text, parse_double_text};

/// Nesting deeper than this is left to the general reader (which has its own limit).
const MAX_DEPTH: usize = 100;

/// Sibling names compared for repeats; an object with more fields is left to the general
/// reader.
const MAX_NAMES: usize = 64;

/// One value read: its field name (empty for an array element) and what it is.
#[derive(Debug, Clone, Copy)]
pub struct Item {
    /// Byte range of the field name in the line (between its quotes).
    key: (usize, usize),
    /// The value.
    value: Scalar,
}

/// A value read, its strings as byte ranges of the line; objects and arrays followed by their
/// fields or elements, up to `end`.
#[derive(Debug, Clone, Copy)]
enum Scalar {
    Null,
    Bool,
    Int32(i32),
    Int64(i64),
    Double(f64),
    String(usize, usize),
    ObjectId([u8; 12]),
    Date(i64),
    /// An object; its fields are the items up to `end` (exclusive).
    Object {
        end: usize,
    },
    /// An array of `len` elements: the items up to `end` (exclusive).
    Array {
        end: usize,
        len: usize,
    },
}

/// The one-key Extended JSON wrappers read here.
#[derive(Debug, Clone, Copy)]
enum Wrapper {
    Date,
    ObjectId,
    Int,
    Long,
    Double,
}

/// A line read: the document is `items[0]`.
#[derive(Debug, Clone, Copy)]
pub struct Line<'v> {
    /// The line's text.
    text: &'v str,
    /// Every value, a parent before its children.
    items: &'v [Item],
}

impl<'v> Line<'v> {
    /// Returns the document's fields, in order.
    pub fn fields(self) -> Children<'v> {
        let end = match self.items.first() {
            Some(Item {
                value: Scalar::Object { end },
                ..
            }) => *end,
            _ => 0,
        };
        Children {
            line: self,
            at: 1,
            end,
            left: None,
        }
    }
}

/// One value of a [`Line`].
#[derive(Debug, Clone, Copy)]
pub struct Node<'v> {
    line: Line<'v>,
    at: usize,
}

/// The fields of an object or the elements of an array of a [`Line`].
#[derive(Debug, Clone)]
pub struct Children<'v> {
    line: Line<'v>,
    at: usize,
    end: usize,
    /// Elements left, for an array.
    left: Option<usize>,
}

impl<'v> Iterator for Children<'v> {
    type Item = (&'v str, Node<'v>);

    fn next(&mut self) -> Option<Self::Item> {
        if self.at >= self.end {
            return None;
        }
        let item = self.line.items.get(self.at)?;
        let key = self.line.text.get(item.key.0..item.key.1).unwrap_or("");
        let node = Node {
            line: self.line,
            at: self.at,
        };
        self.at = match item.value {
            Scalar::Object { end } | Scalar::Array { end, .. } => end,
            _ => self.at + 1,
        };
        self.left = self.left.map(|n| n.saturating_sub(1));
        Some((key, node))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self.left {
            Some(n) => (n, Some(n)),
            None => (0, None),
        }
    }
}

/// The elements of an array of a [`Line`].
#[derive(Debug, Clone)]
pub struct Elements<'v>(Children<'v>);

impl<'v> Iterator for Elements<'v> {
    type Item = Node<'v>;

    fn next(&mut self) -> Option<Node<'v>> {
        self.0.next().map(|(_, node)| node)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl ExactSizeIterator for Elements<'_> {}

impl<'v> Value<'v> for Node<'v> {
    type Fields = Children<'v>;
    type Elements = Elements<'v>;

    fn shape(self) -> Shape<'v, Children<'v>, Elements<'v>> {
        let Some(item) = self.line.items.get(self.at) else {
            return Shape::Null;
        };
        let children = |end, left: Option<usize>| Children {
            line: self.line,
            at: self.at + 1,
            end,
            left,
        };
        match item.value {
            Scalar::Null => Shape::Null,
            Scalar::Bool => Shape::Bool,
            Scalar::Int32(n) => Shape::Int32(n),
            Scalar::Int64(n) => Shape::Int64(n),
            Scalar::Double(n) => Shape::Double(n),
            Scalar::String(a, b) => Shape::String(self.line.text.get(a..b).unwrap_or("")),
            Scalar::ObjectId(bytes) => Shape::ObjectId(ObjectId::from_bytes(bytes)),
            Scalar::Date(ms) => Shape::Date(ms),
            Scalar::Object { end } => Shape::Object(children(end, None)),
            Scalar::Array { end, len } => Shape::Array(Elements(children(end, Some(len)))),
        }
    }
}

/// Reads one line holding one document (surrounding whitespace allowed) into `items`
/// (cleared first); returns `None` for anything this fast path leaves to the general reader.
pub fn read<'v>(text: &'v str, items: &'v mut Vec<Item>) -> Option<Line<'v>> {
    items.clear();
    let mut reader = Reader {
        bytes: text.as_bytes(),
        text,
        pos: 0,
        items,
    };
    reader.space();
    if reader.peek() != Some(b'{') {
        return None;
    }
    reader.value(0)?;
    reader.space();
    // A wrapper is no document: the general reader reports it.
    let document = matches!(
        reader.items.first(),
        Some(Item {
            value: Scalar::Object { .. },
            ..
        })
    );
    if reader.pos != reader.bytes.len() || !document {
        return None;
    }
    let Reader { items, .. } = reader;
    Some(Line { text, items })
}

/// The reader's position in a line and the values read so far.
struct Reader<'v, 'i> {
    bytes: &'v [u8],
    text: &'v str,
    pos: usize,
    items: &'i mut Vec<Item>,
}

impl Reader<'_, '_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// Skips JSON whitespace.
    fn space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    /// Consumes `b` after whitespace, or returns `None`.
    fn eat(&mut self, b: u8) -> Option<()> {
        self.space();
        (self.peek() == Some(b)).then(|| self.pos += 1)
    }

    /// Reads a string without escapes or control characters; returns its byte range.
    fn string(&mut self) -> Option<(usize, usize)> {
        if self.peek() != Some(b'"') {
            return None;
        }
        let start = self.pos + 1;
        let len = self
            .bytes
            .get(start..)?
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
        let end = start + len;
        if self.bytes.get(end) != Some(&b'"') {
            return None;
        }
        self.pos = end + 1;
        Some((start, end))
    }

    fn slice(&self, (a, b): (usize, usize)) -> &str {
        self.text.get(a..b).unwrap_or("")
    }

    /// Returns whether the value just read is followed by what may follow a value.
    fn delimited(&self) -> bool {
        matches!(
            self.peek(),
            None | Some(b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')
        )
    }

    /// Reads one value (after whitespace) as the item(s) at the end of `items`, with the
    /// field name `key`.
    fn value_keyed(&mut self, key: (usize, usize), depth: usize) -> Option<()> {
        self.space();
        let value = match self.peek()? {
            b'{' => return self.object(key, depth),
            b'[' => return self.array(key, depth),
            b'"' => {
                let (a, b) = self.string()?;
                Scalar::String(a, b)
            }
            b't' => self.word("true", Scalar::Bool)?,
            b'f' => self.word("false", Scalar::Bool)?,
            b'n' => self.word("null", Scalar::Null)?,
            b'-' | b'0'..=b'9' => self.number()?,
            _ => return None,
        };
        self.items.push(Item { key, value });
        Some(())
    }

    fn value(&mut self, depth: usize) -> Option<()> {
        self.value_keyed((0, 0), depth)
    }

    fn word(&mut self, word: &str, value: Scalar) -> Option<Scalar> {
        if !self.bytes.get(self.pos..)?.starts_with(word.as_bytes()) {
            return None;
        }
        self.pos += word.len();
        self.delimited().then_some(value)
    }

    /// Reads a JSON number as the general reader does: an integer is an int when it fits 32
    /// bits, a long when it fits 64, else a double; a fraction or exponent makes a double.
    fn number(&mut self) -> Option<Scalar> {
        let start = self.pos;
        let digit = |r: &Self, i: usize| r.bytes.get(i).is_some_and(u8::is_ascii_digit);
        let mut i = start;
        if self.bytes.get(i) == Some(&b'-') {
            i += 1;
        }
        let int_start = i;
        while digit(self, i) {
            i += 1;
        }
        let int_digits = i - int_start;
        if int_digits == 0 || (int_digits > 1 && self.bytes.get(int_start) == Some(&b'0')) {
            return None;
        }
        let mut integer = true;
        if self.bytes.get(i) == Some(&b'.') {
            integer = false;
            i += 1;
            let frac = i;
            while digit(self, i) {
                i += 1;
            }
            if i == frac {
                return None;
            }
        }
        if matches!(self.bytes.get(i), Some(b'e' | b'E')) {
            integer = false;
            i += 1;
            if matches!(self.bytes.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            let exp = i;
            while digit(self, i) {
                i += 1;
            }
            if i == exp {
                return None;
            }
        }
        self.pos = i;
        if !self.delimited() {
            return None;
        }
        let literal = self.text.get(start..i)?;
        if integer {
            if let Ok(v) = literal.parse::<i32>() {
                return Some(Scalar::Int32(v));
            }
            if let Ok(v) = literal.parse::<i64>() {
                return Some(Scalar::Int64(v));
            }
        }
        literal.parse::<f64>().ok().map(Scalar::Double)
    }

    /// Reads an object: a one-key wrapper as its value, else a document.
    fn object(&mut self, key: (usize, usize), depth: usize) -> Option<()> {
        if depth >= MAX_DEPTH {
            return None;
        }
        self.pos += 1; // '{'
        self.space();
        if self.bytes.get(self.pos..)?.starts_with(b"\"$") {
            let value = self.wrapper()?;
            self.items.push(Item { key, value });
            return Some(());
        }
        let at = self.items.len();
        self.items.push(Item {
            key,
            value: Scalar::Object { end: 0 },
        });
        let mut names = 0;
        if self.eat(b'}').is_none() {
            loop {
                self.space();
                let name = self.string()?;
                let text = self.slice(name);
                if text.starts_with('$') || names >= MAX_NAMES {
                    return None;
                }
                // A repeated name is the general reader's error to report.
                let mut sibling = at + 1;
                while let Some(item) = self.items.get(sibling) {
                    if self.slice(item.key) == text {
                        return None;
                    }
                    sibling = match item.value {
                        Scalar::Object { end } | Scalar::Array { end, .. } => end,
                        _ => sibling + 1,
                    };
                }
                names += 1;
                self.eat(b':')?;
                self.value_keyed(name, depth + 1)?;
                if self.eat(b',').is_some() {
                    continue;
                }
                self.eat(b'}')?;
                break;
            }
        }
        let end = self.items.len();
        if let Some(item) = self.items.get_mut(at) {
            item.value = Scalar::Object { end };
        }
        Some(())
    }

    /// Reads an array.
    fn array(&mut self, key: (usize, usize), depth: usize) -> Option<()> {
        if depth >= MAX_DEPTH {
            return None;
        }
        self.pos += 1; // '['
        let at = self.items.len();
        self.items.push(Item {
            key,
            value: Scalar::Array { end: 0, len: 0 },
        });
        let mut len = 0;
        if self.eat(b']').is_none() {
            loop {
                self.value(depth + 1)?;
                len += 1;
                if self.eat(b',').is_some() {
                    continue;
                }
                self.eat(b']')?;
                break;
            }
        }
        let end = self.items.len();
        if let Some(item) = self.items.get_mut(at) {
            item.value = Scalar::Array { end, len };
        }
        Some(())
    }

    /// Reads the rest of a one-key wrapper from its key to its closing brace.
    fn wrapper(&mut self) -> Option<Scalar> {
        let kind = self.string()?;
        let kind = match self.slice(kind) {
            "$date" => Wrapper::Date,
            "$oid" => Wrapper::ObjectId,
            "$numberInt" => Wrapper::Int,
            "$numberLong" => Wrapper::Long,
            "$numberDouble" => Wrapper::Double,
            _ => return None,
        };
        self.eat(b':')?;
        self.space();
        let value = match kind {
            Wrapper::Date => match self.peek()? {
                b'{' => {
                    self.pos += 1;
                    self.space();
                    match self.wrapper()? {
                        Scalar::Int64(ms) => Scalar::Date(ms),
                        Scalar::Int32(ms) => Scalar::Date(i64::from(ms)),
                        _ => return None,
                    }
                }
                b'"' => {
                    let text = self.string()?;
                    Scalar::Date(crate::date::parse_iso_date(self.slice(text)).ok()?)
                }
                _ => match self.number()? {
                    Scalar::Int64(ms) => Scalar::Date(ms),
                    Scalar::Int32(ms) => Scalar::Date(i64::from(ms)),
                    _ => return None,
                },
            },
            _ => {
                let text = self.string()?;
                let text = self.slice(text);
                match kind {
                    Wrapper::ObjectId => Scalar::ObjectId(ObjectId::parse_str(text).ok()?.bytes()),
                    Wrapper::Int if is_integer_text(text) => Scalar::Int32(text.parse().ok()?),
                    Wrapper::Long if is_integer_text(text) => Scalar::Int64(text.parse().ok()?),
                    Wrapper::Double => Scalar::Double(parse_double_text(text)?),
                    _ => return None,
                }
            }
        };
        self.eat(b'}')?;
        Some(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::infer::stats::ObjectStats;
    use bson::{Bson, Document};

    /// Returns the document the fast path read, rebuilt as BSON (for comparison).
    fn rebuild(line: Line<'_>) -> Document {
        fn value(node: Node<'_>) -> Bson {
            match node.shape() {
                Shape::ObjectId(o) => Bson::ObjectId(o),
                Shape::String(s) => Bson::String(s.to_string()),
                Shape::Int32(n) => Bson::Int32(n),
                Shape::Int64(n) => Bson::Int64(n),
                Shape::Double(n) => Bson::Double(n),
                Shape::Date(ms) => Bson::DateTime(bson::DateTime::from_millis(ms)),
                Shape::Bool => Bson::Boolean(true),
                Shape::Null => Bson::Null,
                Shape::Object(fields) => {
                    Bson::Document(fields.map(|(k, v)| (k.to_string(), value(v))).collect())
                }
                Shape::Array(items) => Bson::Array(items.map(value).collect()),
                Shape::Other(b) => b.clone(),
            }
        }
        line.fields()
            .map(|(k, v)| (k.to_string(), value(v)))
            .collect()
    }

    /// Returns the line's document with every boolean set to true (the fast path does not
    /// keep a boolean's value: the statistics only count its type).
    fn booleans_true(doc: &Document) -> Document {
        fn value(v: &Bson) -> Bson {
            match v {
                Bson::Boolean(_) => Bson::Boolean(true),
                Bson::Document(d) => Bson::Document(booleans_true(d)),
                Bson::Array(a) => Bson::Array(a.iter().map(value).collect()),
                other => other.clone(),
            }
        }
        doc.iter().map(|(k, v)| (k.clone(), value(v))).collect()
    }

    #[test]
    fn reads_what_the_general_reader_reads() {
        let lines = [
            r#"{"_id":{"$oid":"6553f1000000000000000000"},"name":"xx","n":{"$numberDouble":"0.5262760161422193"},"big":{"$numberLong":"803780793212"},"flag":false,"at":{"$date":{"$numberLong":"1701412721429"}},"tags":["t0","t1",{"$numberInt":"2"}],"meta":{"a":{"$numberInt":"6"},"b":"bee","inner":{"c":false}}}"#,
            r#"{"_id":1,"a":-2147483648,"b":2147483648,"c":-9223372036854775808,"d":9223372036854775808,"e":1.0,"f":-0.0,"g":1e300,"h":2E-3,"i":null,"j":true,"k":[],"l":{},"m":[[1,[2]],{"x":[]}]}"#,
            r#"  { "a" : { "$date" : "2024-01-31T12:00:00Z" } , "b" : { "$date" : 86400000 } , "c" : "é ☃ 😀" }  "#,
            r#"{"d":{"$numberDouble":"Infinity"},"e":{"$numberDouble":"-Infinity"},"f":{"$numberDouble":"NaN"},"g":{"$numberLong":"-5"}}"#,
        ];
        for text in lines {
            let mut items = Vec::new();
            let Some(line) = read(text, &mut items) else {
                panic!("not read: {text}");
            };
            let general = crate::ejson::parse_document(text.trim()).unwrap();
            // NaN is not equal to itself: compare the debug forms.
            assert_eq!(
                format!("{:?}", rebuild(line)),
                format!("{:?}", booleans_true(&general)),
                "{text}"
            );
        }
    }

    #[test]
    fn leaves_everything_else_to_the_general_reader() {
        let lines = [
            r#"{"a":"x\"y"}"#,
            r#"{"a":1,"a":2}"#,
            r#"{"$oid":"6553f1000000000000000000"}"#,
            r#"{"a":{"$oid":"6553f1000000000000000000","b":1}}"#,
            r#"{"a":{"$oid":"nope"}}"#,
            r#"{"a":{"$numberInt":"2147483648"}}"#,
            r#"{"a":{"$numberDecimal":"1.5"}}"#,
            r#"{"a":{"$binary":{"base64":"AQ==","subType":"00"}}}"#,
            r#"{"a":{"$date":1.5}}"#,
            r#"{"a":{"$date":"yesterday"}}"#,
            r#"{"a":{"$ref":"c","$id":1}}"#,
            r#"{a:1}"#,
            r#"{'a':1}"#,
            r#"{"a":01}"#,
            r#"{"a":+1}"#,
            r#"{"a":.5}"#,
            r#"{"a":1.}"#,
            r#"{"a":1x}"#,
            r#"{"a":truex}"#,
            r#"{"a":NaN}"#,
            r#"{"a":[1,]}"#,
            r#"{"a":1,}"#,
            r#"{"a":1} // c"#,
            r#"{"a":1} {"b":2}"#,
            "{\"a\":\"tab\there\"}",
            r#"[{"a":1}]"#,
            r#"{"a":ObjectId("6553f1000000000000000000")}"#,
        ];
        for text in lines {
            let mut items = Vec::new();
            assert!(read(text, &mut items).is_none(), "read: {text}");
        }
    }

    #[test]
    fn infers_what_the_documents_infer() {
        // Lines of every kind the fast path reads, and some it leaves to the general reader
        // (an escape, a decimal, shell forms), mixed in one input.
        let mut text = String::new();
        for i in 0..300u32 {
            let extra = match i % 7 {
                0 => r#","s":"with \"escape\"""#.to_string(),
                1 => r#","d":{"$numberDecimal":"1.5"}"#.to_string(),
                2 => format!(r#","n":{}"#, i64::from(i) * 10_000_000_000),
                3 => {
                    format!(r#","e":"user{i}@example.com","tags":["a","b",{{"$numberInt":"{i}"}}]"#)
                }
                4 => format!(
                    r#","at":{{"$date":"2024-01-{:02}T00:00:00Z"}},"x":null"#,
                    1 + i % 28
                ),
                5 => format!(
                    r#","items":[{{"sku":"s{i}","qty":{{"$numberInt":"{}"}}}},{{"sku":"t","p":1.5}}]"#,
                    i % 4
                ),
                _ => ",flag: true".to_string(),
            };
            text.push_str(&format!(
                r#"{{"_id":{{"$oid":"6553f1{i:018x}"}},"name":"{}","v":{{"$numberDouble":"{}.25"}}{extra}}}"#,
                "x".repeat(1 + (i as usize % 9)),
                i
            ));
            text.push('\n');
        }
        let mut fast = crate::infer::Inference::new();
        fast.read("c", "c.json", text.as_bytes()).unwrap();
        let mut general = crate::infer::Inference::new();
        for line in text.lines() {
            general.add("c", &crate::ejson::parse_document(line).unwrap());
        }
        let counts = Default::default();
        let (fast, general) = (
            fast.finish(&counts).unwrap(),
            general.finish(&counts).unwrap(),
        );
        assert_eq!(fast.model, general.model);
        assert_eq!(fast.report.entities, general.report.entities);
        assert_eq!(fast.report.relationships, general.report.relationships);
        assert_eq!(fast.report.sources[0].documents, 300);
    }

    #[test]
    fn gives_the_statistics_what_documents_give_them() {
        let text = r#"{"_id":{"$oid":"6553f1000000000000000000"},"s":"a@b.io","n":[1,{"$numberLong":"2"},2.5,"x",null,true,{"k":[{"$date":{"$numberLong":"5"}}]}]}"#;
        let mut items = Vec::new();
        let line = read(text, &mut items).unwrap();
        let mut fast = ObjectStats::default();
        fast.add_fields(line.fields());
        let mut general = ObjectStats::default();
        general.add(&crate::ejson::parse_document(text).unwrap());
        assert_eq!(format!("{fast:?}"), format!("{general:?}"));
    }
}
