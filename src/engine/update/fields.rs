//! `$set $unset $inc $mul $min $max $rename $currentDate` (and `$setOnInsert`, which is `$set`
//! on an upsert's insert).

use super::{parent, Parent};
use crate::engine::compare::{as_num, compare, shell};
use crate::engine::error::{EngineError, Result};
use crate::engine::expr::{arithmetic::combine, type_name};
use bson::{Bson, Document};

fn last(path: &[String]) -> &str {
    path.last().map(String::as_str).unwrap_or("")
}

/// `$set`: sets the value, creating documents on the way.
pub fn set(doc: &mut Document, path: &[String], value: Bson) -> Result<()> {
    match parent(doc, path, true)? {
        Some(mut p) => p.set(last(path), value),
        None => Ok(()),
    }
}

/// `$unset`: removes a field; an array element becomes null, as in mongod.
pub fn unset(doc: &mut Document, path: &[String]) -> Result<()> {
    match parent(doc, path, false)? {
        Some(Parent::Doc(d)) => {
            d.remove(last(path));
        }
        Some(Parent::Arr(a)) => {
            if let Some(slot) =
                crate::engine::path::array_index(last(path)).and_then(|i| a.get_mut(i))
            {
                *slot = Bson::Null;
            }
        }
        None => {}
    }
    Ok(())
}

/// `$inc` and `$mul`: numeric, with type promotion; a missing field becomes the increment (or a
/// zero of the multiplier's type); any other type is error 14.
pub fn arithmetic(
    doc: &mut Document,
    path: &[String],
    op: &str,
    arg: &Bson,
    id: &str,
) -> Result<()> {
    let Some(mut p) = parent(doc, path, true)? else {
        return Ok(());
    };
    let key = last(path);
    let new = match p.get(key) {
        None => {
            if op == "$inc" {
                arg.clone()
            } else {
                match arg {
                    Bson::Int32(_) => Bson::Int32(0),
                    Bson::Int64(_) => Bson::Int64(0),
                    Bson::Decimal128(_) => crate::engine::expr::arithmetic::decimal(0.0),
                    _ => Bson::Double(0.0),
                }
            }
        }
        Some(cur) if as_num(cur).is_some() => combine(cur, arg, if op == "$inc" { '+' } else { '*' }).unwrap_or(Bson::Null),
        Some(cur) => {
            return Err(EngineError::type_mismatch(format!(
                "Cannot apply {op} to a value of non-numeric type. {id} has the field '{key}' of non-numeric type {}",
                type_name(Some(cur))
            )))
        }
    };
    p.set(key, new)
}

/// `$min` and `$max`: replaces the value when the argument is smaller (larger) in BSON order.
pub fn min_max(doc: &mut Document, path: &[String], op: &str, arg: &Bson) -> Result<()> {
    let Some(mut p) = parent(doc, path, true)? else {
        return Ok(());
    };
    let key = last(path);
    let replace = match p.get(key) {
        None => true,
        Some(cur) => {
            let o = compare(arg, cur);
            if op == "$min" {
                o.is_lt()
            } else {
                o.is_gt()
            }
        }
    };
    if replace {
        p.set(key, arg.clone())?;
    }
    Ok(())
}

/// `$rename`: moves a value to another path (no-op when the source is missing).
pub fn rename(doc: &mut Document, path: &[String], to: &Bson) -> Result<()> {
    let Bson::String(to) = to else { return Ok(()) };
    let refs: Vec<&str> = path.iter().map(String::as_str).collect();
    let Some(value) = crate::engine::path::get(doc, &refs).cloned() else {
        return Ok(());
    };
    if let Some(Parent::Arr(_)) = parent(doc, path, false)? {
        return Err(EngineError::bad_value(format!(
            "The source field cannot be an array element, '{}' in doc with {}",
            path.join("."),
            shell(&value)
        )));
    }
    unset(doc, path)?;
    let target: Vec<String> = to.split('.').map(str::to_string).collect();
    set(doc, &target, value)
}

/// `$currentDate`: the command's time as a date or a timestamp.
pub fn current_date(
    doc: &mut Document,
    path: &[String],
    arg: &Bson,
    now_millis: i64,
) -> Result<()> {
    let timestamp = matches!(arg, Bson::Document(d) if matches!(d.get("$type"), Some(Bson::String(t)) if t == "timestamp"));
    let value = if timestamp {
        Bson::Timestamp(bson::Timestamp {
            time: (now_millis / 1000).clamp(0, i64::from(u32::MAX)) as u32,
            increment: 1,
        })
    } else {
        Bson::DateTime(bson::DateTime::from_millis(now_millis))
    };
    set(doc, path, value)
}
