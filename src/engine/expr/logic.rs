//! `$eq $ne $gt $gte $lt $lte $cmp` (full BSON order, no type bracketing, as in aggregation),
//! `$and $or $not`, `$cond` and `$ifNull`.

use super::{truthy, Expr};
use crate::engine::compare::compare;
use crate::engine::error::{EngineError, Result};
use bson::{Bson, Document};
use std::cmp::Ordering;

/// Evaluates the operators that must not evaluate every argument first.
pub fn eval_lazy(name: &str, args: &[Expr], root: &Document) -> Result<Option<Bson>> {
    match name {
        "$and" => {
            for a in args {
                if !truthy(a.eval(root)?.as_ref()) {
                    return Ok(Some(Bson::Boolean(false)));
                }
            }
            Ok(Some(Bson::Boolean(true)))
        }
        "$or" => {
            for a in args {
                if truthy(a.eval(root)?.as_ref()) {
                    return Ok(Some(Bson::Boolean(true)));
                }
            }
            Ok(Some(Bson::Boolean(false)))
        }
        "$cond" => {
            let [c, t, e] = args else {
                return Err(EngineError::new(
                    16020,
                    "Location16020",
                    "Expression $cond takes exactly 3 arguments.",
                ));
            };
            if truthy(c.eval(root)?.as_ref()) {
                t.eval(root)
            } else {
                e.eval(root)
            }
        }
        _ => {
            // $ifNull: the first argument that is neither null nor missing, else the last.
            let Some((last, firsts)) = args.split_last() else {
                return Err(EngineError::new(
                    1257300,
                    "Location1257300",
                    "$ifNull needs at least two arguments",
                ));
            };
            for a in firsts {
                match a.eval(root)? {
                    None | Some(Bson::Null) | Some(Bson::Undefined) => {}
                    v => return Ok(v),
                }
            }
            last.eval(root)
        }
    }
}

/// Evaluates a comparison or `$not` on evaluated arguments; missing compares below null.
pub fn eval(name: &str, args: &[Option<Bson>]) -> Result<Option<Bson>> {
    if name == "$not" {
        let v = args.first().cloned().flatten();
        return Ok(Some(Bson::Boolean(!truthy(v.as_ref()))));
    }
    super::arity(name, args, 2)?;
    let a = args.first().cloned().flatten().unwrap_or(Bson::Undefined);
    let b = args.get(1).cloned().flatten().unwrap_or(Bson::Undefined);
    let o = compare(&a, &b);
    Ok(Some(match name {
        "$cmp" => Bson::Int32(match o {
            Ordering::Less => -1,
            Ordering::Equal => 0,
            Ordering::Greater => 1,
        }),
        "$eq" => Bson::Boolean(o.is_eq()),
        "$ne" => Bson::Boolean(!o.is_eq()),
        "$gt" => Bson::Boolean(o.is_gt()),
        "$gte" => Bson::Boolean(o.is_ge()),
        "$lt" => Bson::Boolean(o.is_lt()),
        _ => Bson::Boolean(o.is_le()),
    }))
}
