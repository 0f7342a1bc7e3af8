//! `$push` (with `$each $position $slice $sort`), `$addToSet` (with `$each`), `$pop`, `$pull`
//! and `$pullAll`.

use super::parent;
use crate::engine::compare::{as_f64, equal, shell};
use crate::engine::error::{EngineError, Result};
use crate::engine::expr::type_name;
use crate::engine::query::{parse_operators, Filter};
use crate::engine::sort::SortSpec;
use bson::{Bson, Document};

fn last(path: &[String]) -> &str {
    path.last().map(String::as_str).unwrap_or("")
}

fn not_array(field: &str, v: &Bson, id: &str) -> EngineError {
    EngineError::bad_value(format!(
        "The field '{field}' must be an array but is of type {} in document {id}",
        type_name(Some(v))
    ))
}

/// Returns the existing array at the path (created empty when missing).
fn array_at<'a>(
    doc: &'a mut Document,
    path: &[String],
    id: &str,
) -> Result<Option<&'a mut Vec<Bson>>> {
    let Some(mut p) = parent(doc, path, true)? else {
        return Ok(None);
    };
    let key = last(path).to_string();
    match p.get(&key) {
        None => p.set(&key, Bson::Array(Vec::new()))?,
        Some(Bson::Array(_)) => {}
        Some(other) => return Err(not_array(&key, other, id)),
    }
    match p {
        super::Parent::Doc(d) => Ok(d.get_mut(&key).and_then(Bson::as_array_mut)),
        super::Parent::Arr(a) => Ok(crate::engine::path::array_index(&key)
            .and_then(|i| a.get_mut(i))
            .and_then(Bson::as_array_mut)),
    }
}

/// `$push`: appends one value, or `$each` values at `$position`, then `$sort`s and `$slice`s.
pub fn push(doc: &mut Document, path: &[String], arg: &Bson, id: &str) -> Result<()> {
    let (values, position, slice, sort) = match arg {
        Bson::Document(d) if d.contains_key("$each") => {
            let Some(Bson::Array(each)) = d.get("$each") else {
                return Err(EngineError::bad_value(format!(
                    "The argument to $each in $push must be an array but it was of type: {}",
                    type_name(d.get("$each"))
                )));
            };
            for k in d.keys() {
                if !matches!(k.as_str(), "$each" | "$position" | "$slice" | "$sort") {
                    return Err(EngineError::bad_value(format!(
                        "Unrecognized clause in $push: {k}"
                    )));
                }
            }
            let int = |k: &str| -> Result<Option<i64>> {
                match d.get(k) {
                    None => Ok(None),
                    Some(v) => as_f64(v)
                        .filter(|f| f.fract() == 0.0)
                        .map(|f| Some(f as i64))
                        .ok_or_else(|| {
                            EngineError::bad_value(format!(
                                "The value for {k} must be an integer value but was given type: {}",
                                type_name(Some(v))
                            ))
                        }),
                }
            };
            let sort = match d.get("$sort") {
                None => None,
                Some(Bson::Document(s)) => Some(SortSpec::parse(s)?),
                Some(v) if as_f64(v) == Some(1.0) || as_f64(v) == Some(-1.0) => Some(SortSpec::whole(as_f64(v).unwrap_or(1.0) < 0.0)),
                Some(v) => return Err(EngineError::bad_value(format!("The $sort is invalid: use 1/-1 to sort the whole element, or {{field:1/-1}} to sort embedded fields: {}", shell(v)))),
            };
            (each.clone(), int("$position")?, int("$slice")?, sort)
        }
        v => (vec![v.clone()], None, None, None),
    };
    let Some(arr) = array_at(doc, path, id)? else {
        return Ok(());
    };
    let len = arr.len() as i64;
    let at = match position {
        None => len,
        Some(p) if p < 0 => (len + p).max(0),
        Some(p) => p.min(len),
    } as usize;
    let tail = arr.split_off(at.min(arr.len()));
    arr.extend(values);
    arr.extend(tail);
    if let Some(s) = sort {
        s.sort_values(arr);
    }
    if let Some(n) = slice {
        if n >= 0 {
            arr.truncate(n as usize);
        } else {
            let keep = usize::try_from(n.saturating_neg()).unwrap_or(usize::MAX);
            if arr.len() > keep {
                let drop = arr.len() - keep;
                arr.drain(..drop);
            }
        }
    }
    Ok(())
}

/// `$addToSet`: appends each value not already present (BSON equality).
pub fn add_to_set(doc: &mut Document, path: &[String], arg: &Bson, id: &str) -> Result<()> {
    let values = match arg {
        Bson::Document(d) if d.contains_key("$each") => match d.get("$each") {
            Some(Bson::Array(a)) => a.clone(),
            other => {
                return Err(EngineError::type_mismatch(format!(
                    "The argument to $each in $addToSet must be an array but it was of type {}",
                    type_name(other)
                )))
            }
        },
        v => vec![v.clone()],
    };
    let Some(arr) = array_at(doc, path, id).map_err(|e| {
        if e.code == 2 {
            EngineError::bad_value(format!(
                "Cannot apply $addToSet to non-array field. Field named '{}' has non-array type",
                last(path)
            ))
        } else {
            e
        }
    })?
    else {
        return Ok(());
    };
    for v in values {
        if !arr.iter().any(|x| equal(x, &v)) {
            arr.push(v);
        }
    }
    Ok(())
}

/// `$pop`: removes the last (1) or first (-1) element.
pub fn pop(doc: &mut Document, path: &[String], arg: &Bson) -> Result<()> {
    let Some(mut p) = parent(doc, path, false)? else {
        return Ok(());
    };
    match p.get_mut(last(path)) {
        None => Ok(()),
        Some(Bson::Array(a)) => {
            if as_f64(arg).is_some_and(|f| f < 0.0) {
                if !a.is_empty() {
                    a.remove(0);
                }
            } else {
                a.pop();
            }
            Ok(())
        }
        Some(other) => Err(EngineError::type_mismatch(format!(
            "Path '{}' contains an element of non-array type '{}'",
            path.join("."),
            type_name(Some(other))
        ))),
    }
}

/// `$pull` (values equal to, or matching, a condition) and `$pullAll` (values equal to any).
pub fn pull(doc: &mut Document, path: &[String], op: &str, arg: &Bson) -> Result<()> {
    enum Cond {
        Values(Vec<Bson>),
        Ops(Vec<crate::engine::query::PathOp>),
        Doc(Filter),
    }
    let cond = match (op, arg) {
        ("$pullAll", Bson::Array(a)) => Cond::Values(a.clone()),
        (_, Bson::Document(d))
            if d.keys().next().is_some_and(|k| {
                k.starts_with('$') && !matches!(k.as_str(), "$and" | "$or" | "$nor")
            }) =>
        {
            Cond::Ops(parse_operators(d)?)
        }
        (_, Bson::Document(d)) => Cond::Doc(Filter::parse(d)?),
        (_, v) => Cond::Values(vec![v.clone()]),
    };
    let Some(mut p) = parent(doc, path, false)? else {
        return Ok(());
    };
    match p.get_mut(last(path)) {
        None => Ok(()),
        Some(Bson::Array(a)) => {
            a.retain(|e| {
                let hit = match &cond {
                    Cond::Values(vs) => vs.iter().any(|v| equal(v, e)),
                    Cond::Ops(ops) => ops.iter().all(|o| o.matches_value(e)),
                    Cond::Doc(f) => matches!(e, Bson::Document(d) if f.matches(d)),
                };
                !hit
            });
            Ok(())
        }
        Some(_) => Err(EngineError::bad_value(
            "Cannot apply $pull to a non-array value",
        )),
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::update::{apply, UpdateContext, UpdateSpec};
    use bson::{doc, Document};

    fn up(d: Document, u: Document) -> Option<Document> {
        let mut d = d;
        let Ok(UpdateSpec::Operators(ops)) = UpdateSpec::parse(&u) else {
            return None;
        };
        apply(&mut d, &ops, &UpdateContext::default()).ok()?;
        Some(d)
    }

    #[test]
    fn push_each_sort_slice() {
        let d = doc! {"a": [{"s": 3}, {"s": 1}]};
        let u = doc! {"$push": {"a": {"$each": [{"s": 2}], "$sort": {"s": -1}, "$slice": 2}}};
        assert_eq!(up(d, u), Some(doc! {"a": [{"s": 3}, {"s": 2}]}));
        assert_eq!(up(doc! {}, doc! {"$push": {"a": 1}}), Some(doc! {"a": [1]}));
        assert_eq!(
            up(
                doc! {"a": [1, 2]},
                doc! {"$push": {"a": {"$each": [9], "$position": 0}}}
            ),
            Some(doc! {"a": [9, 1, 2]})
        );
    }

    #[test]
    fn add_to_set_pop_pull() {
        assert_eq!(
            up(
                doc! {"a": [1, 2]},
                doc! {"$addToSet": {"a": {"$each": [2, 3, 3]}}}
            ),
            Some(doc! {"a": [1, 2, 3]})
        );
        assert_eq!(
            up(doc! {"a": [1, 2, 3]}, doc! {"$pop": {"a": -1}}),
            Some(doc! {"a": [2, 3]})
        );
        assert_eq!(
            up(doc! {"a": [1, 5, 8]}, doc! {"$pull": {"a": {"$gte": 5}}}),
            Some(doc! {"a": [1]})
        );
        assert_eq!(
            up(
                doc! {"a": [{"x": 1}, {"x": 2}]},
                doc! {"$pull": {"a": {"x": 2}}}
            ),
            Some(doc! {"a": [{"x": 1}]})
        );
        assert_eq!(
            up(doc! {"a": [1, 2, 1]}, doc! {"$pullAll": {"a": [1]}}),
            Some(doc! {"a": [2]})
        );
    }
}
