//! The BSON comparison order mongod uses for sorting, range queries, index keys and equality.
//!
//! Types compare by canonical rank first (MinKey < Undefined < Null < numbers < strings <
//! objects < arrays < BinData < ObjectId < Boolean < Date < Timestamp < Regex < MaxKey), then
//! by value inside a rank; int, long, double and decimal compare by numeric value.

use bson::{Bson, Document};
use std::cmp::Ordering;

/// Returns the canonical type rank of a value, as mongod's `canonicalizeBSONType`.
///
/// Values of different ranks never compare equal; range queries only match within one rank.
pub fn rank(value: &Bson) -> u8 {
    match value {
        Bson::MinKey => 0,
        Bson::Undefined => 1,
        Bson::Null => 2,
        Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_) | Bson::Decimal128(_) => 3,
        Bson::String(_) | Bson::Symbol(_) => 4,
        Bson::Document(_) => 5,
        Bson::Array(_) => 6,
        Bson::Binary(_) => 7,
        Bson::ObjectId(_) => 8,
        Bson::Boolean(_) => 9,
        Bson::DateTime(_) => 10,
        Bson::Timestamp(_) => 11,
        Bson::RegularExpression(_) => 12,
        Bson::DbPointer(_) => 13,
        Bson::JavaScriptCode(_) => 14,
        Bson::JavaScriptCodeWithScope(_) => 15,
        Bson::MaxKey => 16,
    }
}

/// A number reduced to what comparison needs: exact integers or a double.
#[derive(Debug, Clone, Copy)]
pub enum Num {
    /// An int32 or int64.
    Int(i64),
    /// A double, or a decimal128 read as the nearest double.
    Float(f64),
}

/// Returns the numeric value of a number, `None` for any other type.
pub fn as_num(value: &Bson) -> Option<Num> {
    match value {
        Bson::Int32(i) => Some(Num::Int(i64::from(*i))),
        Bson::Int64(i) => Some(Num::Int(*i)),
        Bson::Double(f) => Some(Num::Float(*f)),
        Bson::Decimal128(d) => d.to_string().parse::<f64>().ok().map(Num::Float),
        _ => None,
    }
}

/// Returns the value of a number as a double (decimals approximated), `None` otherwise.
pub fn as_f64(value: &Bson) -> Option<f64> {
    match as_num(value)? {
        Num::Int(i) => Some(i as f64),
        Num::Float(f) => Some(f),
    }
}

fn cmp_int_float(i: i64, f: f64) -> Ordering {
    if f.is_nan() {
        return Ordering::Greater;
    }
    if f >= 9.3e18 {
        return Ordering::Less;
    }
    if f <= -9.3e18 {
        return Ordering::Greater;
    }
    let t = f.trunc();
    match (i as i128).cmp(&(t as i128)) {
        Ordering::Equal => {
            if f > t {
                Ordering::Less
            } else if f < t {
                Ordering::Greater
            } else {
                Ordering::Equal
            }
        }
        o => o,
    }
}

fn cmp_float(a: f64, b: f64) -> Ordering {
    // mongod: NaN equals NaN and sorts below every other number.
    match (a.is_nan(), b.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        _ => a.partial_cmp(&b).unwrap_or(Ordering::Equal),
    }
}

/// Returns the order of two numbers by value, exactly for int/long against double.
pub fn cmp_num(a: Num, b: Num) -> Ordering {
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => x.cmp(&y),
        (Num::Int(x), Num::Float(y)) => cmp_int_float(x, y),
        (Num::Float(x), Num::Int(y)) => cmp_int_float(y, x).reverse(),
        (Num::Float(x), Num::Float(y)) => cmp_float(x, y),
    }
}

/// Returns the mongod order of two values of any types.
pub fn compare(a: &Bson, b: &Bson) -> Ordering {
    let (ra, rb) = (rank(a), rank(b));
    if ra != rb {
        return ra.cmp(&rb);
    }
    match (a, b) {
        (Bson::String(x) | Bson::Symbol(x), Bson::String(y) | Bson::Symbol(y)) => {
            x.as_bytes().cmp(y.as_bytes())
        }
        (Bson::Document(x), Bson::Document(y)) => compare_docs(x, y),
        (Bson::Array(x), Bson::Array(y)) => {
            for (u, v) in x.iter().zip(y.iter()) {
                let o = rank(u).cmp(&rank(v)).then_with(|| compare(u, v));
                if o != Ordering::Equal {
                    return o;
                }
            }
            x.len().cmp(&y.len())
        }
        (Bson::Binary(x), Bson::Binary(y)) => x
            .bytes
            .len()
            .cmp(&y.bytes.len())
            .then_with(|| u8::from(x.subtype).cmp(&u8::from(y.subtype)))
            .then_with(|| x.bytes.cmp(&y.bytes)),
        (Bson::ObjectId(x), Bson::ObjectId(y)) => x.bytes().cmp(&y.bytes()),
        (Bson::Boolean(x), Bson::Boolean(y)) => x.cmp(y),
        (Bson::DateTime(x), Bson::DateTime(y)) => x.timestamp_millis().cmp(&y.timestamp_millis()),
        (Bson::Timestamp(x), Bson::Timestamp(y)) => {
            (x.time, x.increment).cmp(&(y.time, y.increment))
        }
        (Bson::RegularExpression(x), Bson::RegularExpression(y)) => x
            .pattern
            .as_str()
            .cmp(y.pattern.as_str())
            .then_with(|| x.options.as_str().cmp(y.options.as_str())),
        (Bson::JavaScriptCode(x), Bson::JavaScriptCode(y)) => x.cmp(y),
        (Bson::JavaScriptCodeWithScope(x), Bson::JavaScriptCodeWithScope(y)) => x
            .code
            .cmp(&y.code)
            .then_with(|| compare_docs(&x.scope, &y.scope)),
        _ => match (as_num(a), as_num(b)) {
            (Some(x), Some(y)) => cmp_num(x, y),
            _ => Ordering::Equal,
        },
    }
}

/// Returns the mongod order of two documents: per element, type rank, then name, then value.
pub fn compare_docs(x: &Document, y: &Document) -> Ordering {
    for ((ka, va), (kb, vb)) in x.iter().zip(y.iter()) {
        let o = rank(va)
            .cmp(&rank(vb))
            .then_with(|| ka.as_bytes().cmp(kb.as_bytes()))
            .then_with(|| compare(va, vb));
        if o != Ordering::Equal {
            return o;
        }
    }
    x.len().cmp(&y.len())
}

/// Returns true when two values are equal as mongod's `$eq` sees them (1 == 1.0).
pub fn equal(a: &Bson, b: &Bson) -> bool {
    compare(a, b) == Ordering::Equal
}

/// A value ordered by [`compare`], for ordered maps and sets (group keys, `$addToSet`).
#[derive(Debug, Clone)]
pub struct OrdBson(pub Bson);

impl PartialEq for OrdBson {
    fn eq(&self, other: &Self) -> bool {
        compare(&self.0, &other.0) == Ordering::Equal
    }
}
impl Eq for OrdBson {}
impl PartialOrd for OrdBson {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for OrdBson {
    fn cmp(&self, other: &Self) -> Ordering {
        compare(&self.0, &other.0)
    }
}

/// Returns a value in mongosh's shell notation (`{ a: 1, b: 'x' }`), for messages and plans.
pub fn shell(value: &Bson) -> String {
    match value {
        Bson::Document(d) => shell_doc(d),
        Bson::Array(a) => {
            if a.is_empty() {
                return "[]".into();
            }
            let parts: Vec<String> = a.iter().map(shell).collect();
            format!("[ {} ]", parts.join(", "))
        }
        Bson::String(s) => format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\"")),
        Bson::Int32(i) => i.to_string(),
        Bson::Int64(i) => i.to_string(),
        Bson::Double(f) => {
            if f.is_infinite() {
                if *f > 0.0 {
                    "inf.0".into()
                } else {
                    "-inf.0".into()
                }
            } else if f.is_nan() {
                "nan.0".into()
            } else if f.fract() == 0.0 && f.abs() < 1e15 {
                format!("{f:.1}")
            } else {
                f.to_string()
            }
        }
        Bson::ObjectId(o) => format!("ObjectId('{}')", o.to_hex()),
        Bson::MinKey => "MinKey".into(),
        Bson::MaxKey => "MaxKey".into(),
        Bson::Null => "null".into(),
        Bson::Undefined => "undefined".into(),
        Bson::Boolean(b) => b.to_string(),
        Bson::DateTime(d) => format!("new Date({})", d.timestamp_millis()),
        Bson::RegularExpression(r) => format!("/{}/{}", r.pattern.as_str(), r.options.as_str()),
        other => other.to_string(),
    }
}

/// Returns a document in mongosh's shell notation.
pub fn shell_doc(d: &Document) -> String {
    if d.is_empty() {
        return "{}".into();
    }
    let parts: Vec<String> = d
        .iter()
        .map(|(k, v)| format!("{k}: {}", shell(v)))
        .collect();
    format!("{{ {} }}", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::{doc, oid::ObjectId};

    #[test]
    fn canonical_type_order() {
        let ordered = [
            Bson::MinKey,
            Bson::Undefined,
            Bson::Null,
            Bson::Int32(1),
            Bson::String("a".into()),
            Bson::Document(doc! {}),
            Bson::Array(vec![]),
            Bson::ObjectId(ObjectId::from_bytes([0; 12])),
            Bson::Boolean(false),
            Bson::DateTime(bson::DateTime::from_millis(0)),
            Bson::MaxKey,
        ];
        for w in ordered.windows(2) {
            assert_eq!(
                compare(&w[0], &w[1]),
                Ordering::Less,
                "{:?} < {:?}",
                w[0],
                w[1]
            );
        }
    }

    #[test]
    fn numbers_compare_by_value() {
        assert!(equal(&Bson::Int32(1), &Bson::Double(1.0)));
        assert!(equal(&Bson::Int64(3), &Bson::Int32(3)));
        assert_eq!(
            compare(&Bson::Int64(i64::MAX), &Bson::Double(9.2e18)),
            Ordering::Greater
        );
        assert_eq!(
            compare(&Bson::Double(f64::NAN), &Bson::Int32(-5)),
            Ordering::Less
        );
        assert_eq!(
            compare(&Bson::Double(1.5), &Bson::Int32(1)),
            Ordering::Greater
        );
    }

    #[test]
    fn documents_compare_by_fields_in_order() {
        let a = Bson::Document(doc! {"a": 1, "b": 2});
        let b = Bson::Document(doc! {"b": 2, "a": 1});
        assert!(!equal(&a, &b));
        assert_eq!(
            compare(
                &Bson::Array(vec![1.into()]),
                &Bson::Array(vec![1.into(), 0.into()])
            ),
            Ordering::Less
        );
    }
}
