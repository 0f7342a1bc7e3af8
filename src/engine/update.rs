//! Update documents: replacements and operator updates (`$set`, `$inc`, `$push`, ...), with
//! the positional `$`, `$[]` and `$[<id>]` (arrayFilters), applied as mongod applies them.
//!
//! Field operators live in `update/fields.rs`, array operators in `update/arrays.rs`; both are
//! reached through the one registry `match` in `apply_op`.

pub mod arrays;
pub mod fields;

use crate::engine::compare::shell;
use crate::engine::error::{EngineError, Result};
use crate::engine::path::array_index;
use crate::engine::query::Filter;
use bson::{Bson, Document};

/// A parsed update.
#[derive(Debug, Clone)]
pub enum UpdateSpec {
    /// A whole new document (keeps the old `_id`).
    Replacement(Document),
    /// Operators applied to fields, in mongod's order (paths sorted).
    Operators(Vec<UpdateOp>),
}

/// One operator applied to one path, e.g. `$inc` on `stats.views` with argument 1.
#[derive(Debug, Clone)]
pub struct UpdateOp {
    /// The operator, e.g. `$inc`.
    pub op: String,
    /// The dotted path, possibly with `$`, `$[]` or `$[id]` components.
    pub path: String,
    /// The operator's argument for this path.
    pub arg: Bson,
}

/// What an update needs besides the document: the query's positional match, the array
/// filters, the time `$currentDate` uses, and whether this is an upsert's insert.
#[derive(Debug, Clone, Default)]
pub struct UpdateContext {
    /// The index of the array element the query matched (for `$`).
    pub positional: Option<usize>,
    /// The array filters by identifier.
    pub array_filters: Vec<(String, Filter)>,
    /// Milliseconds since the epoch, for `$currentDate`.
    pub now_millis: i64,
    /// True when applying to the document an upsert inserts (`$setOnInsert` applies).
    pub inserting: bool,
}

const OPERATORS: &[&str] = &[
    "$set",
    "$unset",
    "$inc",
    "$mul",
    "$min",
    "$max",
    "$rename",
    "$setOnInsert",
    "$currentDate",
    "$push",
    "$addToSet",
    "$pop",
    "$pull",
    "$pullAll",
];

/// Returns true when `update` is a replacement (its first field is not an operator).
pub fn is_replacement(update: &Document) -> bool {
    !update.keys().next().is_some_and(|k| k.starts_with('$'))
}

impl UpdateSpec {
    /// Returns the parsed update, checking operators, arguments and conflicting paths.
    pub fn parse(update: &Document) -> Result<UpdateSpec> {
        if is_replacement(update) {
            if let Some(k) = update.keys().find(|k| k.starts_with('$')) {
                return Err(EngineError::bad_value(format!(
                    "The dollar ($) prefixed field '{k}' in '{k}' is not allowed in the context of an update's replacement document."
                )));
            }
            return Ok(UpdateSpec::Replacement(update.clone()));
        }
        let mut ops = Vec::new();
        for (op, arg) in update {
            if !OPERATORS.contains(&op.as_str()) {
                return Err(EngineError::failed_to_parse(format!(
                    "Unknown modifier: {op}. Expected a valid update modifier or pipeline-style update specified as an array"
                )));
            }
            let Bson::Document(fields) = arg else {
                return Err(EngineError::failed_to_parse(format!(
                    "Modifiers operate on fields but we found type {} instead. For example: {{$mod: {{<field>: ...}}}} not {{{op}: {}}}",
                    crate::engine::expr::type_name(Some(arg)),
                    shell(arg)
                )));
            };
            for (path, v) in fields {
                if path.is_empty() || path.split('.').any(|p| p.is_empty()) {
                    return Err(EngineError::new(
                        56,
                        "EmptyFieldName",
                        "An empty update path is not valid.",
                    ));
                }
                validate(op, path, v)?;
                ops.push(UpdateOp {
                    op: op.clone(),
                    path: path.clone(),
                    arg: v.clone(),
                });
            }
        }
        check_conflicts(&ops)?;
        ops.sort_by(|a, b| {
            let pa: Vec<&str> = a.path.split('.').collect();
            let pb: Vec<&str> = b.path.split('.').collect();
            pa.cmp(&pb)
        });
        Ok(UpdateSpec::Operators(ops))
    }
}

fn validate(op: &str, path: &str, v: &Bson) -> Result<()> {
    let num = crate::engine::compare::as_num(v).is_some();
    match op {
        "$inc" | "$mul" if !num => Err(EngineError::type_mismatch(format!(
            "Cannot {} with non-numeric argument: {{{path}: {}}}",
            if op == "$inc" { "increment" } else { "multiply" },
            shell(v)
        ))),
        "$rename" => match v {
            Bson::String(to) if !to.is_empty() && to != path => Ok(()),
            Bson::String(_) => Err(EngineError::bad_value(format!("The source and target field for $rename must differ: {path}"))),
            _ => Err(EngineError::bad_value(format!("The 'to' field for $rename must be a string: {path}: {}", shell(v)))),
        },
        "$pop" => match crate::engine::compare::as_f64(v) {
            Some(f) if f == 1.0 || f == -1.0 => Ok(()),
            _ => Err(EngineError::failed_to_parse(format!("Expected a number in: {path}: {}", shell(v)))),
        },
        "$pullAll" if !matches!(v, Bson::Array(_)) => {
            Err(EngineError::bad_value(format!("$pullAll requires an array argument but was given a {}", crate::engine::expr::type_name(Some(v)))))
        }
        "$currentDate" => match v {
            Bson::Boolean(_) => Ok(()),
            Bson::Document(d) if matches!(d.get("$type"), Some(Bson::String(t)) if t == "date" || t == "timestamp") && d.len() == 1 => Ok(()),
            _ => Err(EngineError::bad_value(format!(
                "{} is not valid type for $currentDate. Please use a boolean ('true') or a $type expression ({{$type: 'timestamp/date'}}).",
                crate::engine::expr::type_name(Some(v))
            ))),
        },
        _ => Ok(()),
    }
}

fn check_conflicts(ops: &[UpdateOp]) -> Result<()> {
    let mut paths: Vec<&str> = Vec::new();
    for o in ops {
        paths.push(&o.path);
        if o.op == "$rename" {
            if let Bson::String(to) = &o.arg {
                paths.push(to);
            }
        }
    }
    for (i, a) in paths.iter().enumerate() {
        for b in paths.iter().skip(i + 1) {
            let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
            if long == short || long.starts_with(&format!("{short}.")) {
                return Err(EngineError::conflict(b, a));
            }
        }
    }
    Ok(())
}

/// Returns the parsed array filters: each must name exactly one identifier.
pub fn parse_array_filters(filters: &[Document]) -> Result<Vec<(String, Filter)>> {
    let mut out: Vec<(String, Filter)> = Vec::new();
    for f in filters {
        let mut id: Option<String> = None;
        for k in f.keys() {
            let first = k.split('.').next().unwrap_or_default().to_string();
            if id.as_ref().is_some_and(|i| *i != first) {
                return Err(EngineError::failed_to_parse(format!(
                    "Error parsing array filter :: caused by :: Expected a single top-level field name, found '{}' and '{first}'",
                    id.unwrap_or_default()
                )));
            }
            id = Some(first);
        }
        let Some(id) = id else {
            return Err(EngineError::failed_to_parse(
                "Cannot use an expression without a top-level field name in arrayFilters",
            ));
        };
        if out.iter().any(|(i, _)| *i == id) {
            return Err(EngineError::failed_to_parse(format!(
                "Found multiple array filters with the same top-level field name {id}"
            )));
        }
        out.push((id, Filter::parse(f)?));
    }
    Ok(out)
}

/// Applies an operator update to `doc` in place.
pub fn apply(doc: &mut Document, ops: &[UpdateOp], ctx: &UpdateContext) -> Result<()> {
    for (id, _) in &ctx.array_filters {
        let marker = format!("$[{id}]");
        if !ops.iter().any(|o| o.path.split('.').any(|p| p == marker)) {
            return Err(EngineError::failed_to_parse(format!(
                "The array filter for identifier '{id}' was not used in the update {{ }}"
            )));
        }
    }
    let id_text = doc
        .get("_id")
        .map(|v| format!("{{_id: {}}}", shell(v)))
        .unwrap_or_else(|| "{}".into());
    for op in ops {
        if op.op == "$setOnInsert" && !ctx.inserting {
            continue;
        }
        let parts: Vec<String> = op.path.split('.').map(str::to_string).collect();
        for concrete in expand(doc, &parts, ctx)? {
            apply_op(doc, op, &concrete, ctx, &id_text)?;
        }
    }
    Ok(())
}

/// The operator registry: applies one operator at one concrete path.
fn apply_op(
    doc: &mut Document,
    op: &UpdateOp,
    path: &[String],
    ctx: &UpdateContext,
    id: &str,
) -> Result<()> {
    match op.op.as_str() {
        "$set" | "$setOnInsert" => fields::set(doc, path, op.arg.clone()),
        "$unset" => fields::unset(doc, path),
        "$inc" | "$mul" => fields::arithmetic(doc, path, &op.op, &op.arg, id),
        "$min" | "$max" => fields::min_max(doc, path, &op.op, &op.arg),
        "$rename" => fields::rename(doc, path, &op.arg),
        "$currentDate" => fields::current_date(doc, path, &op.arg, ctx.now_millis),
        "$push" => arrays::push(doc, path, &op.arg, id),
        "$addToSet" => arrays::add_to_set(doc, path, &op.arg, id),
        "$pop" => arrays::pop(doc, path, &op.arg),
        "$pull" | "$pullAll" => arrays::pull(doc, path, &op.op, &op.arg),
        other => Err(EngineError::failed_to_parse(format!(
            "Unknown modifier: {other}"
        ))),
    }
}

/// Returns the concrete paths a path with `$`, `$[]` or `$[id]` stands for in `doc`.
fn expand(doc: &Document, parts: &[String], ctx: &UpdateContext) -> Result<Vec<Vec<String>>> {
    let mut done: Vec<Vec<String>> = vec![Vec::new()];
    for (i, part) in parts.iter().enumerate() {
        if part == "$" {
            let Some(p) = ctx.positional else {
                return Err(EngineError::bad_value(
                    "The positional operator did not find the match needed from the query.",
                ));
            };
            for d in &mut done {
                d.push(p.to_string());
            }
            continue;
        }
        if let Some(inner) = part.strip_prefix("$[").and_then(|p| p.strip_suffix(']')) {
            let filter = if inner.is_empty() {
                None
            } else {
                match ctx.array_filters.iter().find(|(id, _)| id == inner) {
                    Some((_, f)) => Some(f),
                    None => {
                        return Err(EngineError::bad_value(format!(
                            "No array filter found for identifier '{inner}' in path '{}'",
                            parts.join(".")
                        )))
                    }
                }
            };
            let mut next = Vec::new();
            for d in &done {
                let refs: Vec<&str> = d.iter().map(String::as_str).collect();
                let Some(Bson::Array(arr)) = crate::engine::path::get(doc, &refs) else {
                    if ctx.inserting {
                        continue;
                    }
                    return Err(EngineError::bad_value(format!(
                        "The path '{}' must exist in the document in order to apply array updates.",
                        parts.get(..i).unwrap_or_default().join(".")
                    )));
                };
                for (j, e) in arr.iter().enumerate() {
                    let keep = match filter {
                        None => true,
                        Some(f) => {
                            let mut probe = Document::new();
                            probe.insert(inner, e.clone());
                            f.matches(&probe)
                        }
                    };
                    if keep {
                        let mut c = d.clone();
                        c.push(j.to_string());
                        next.push(c);
                    }
                }
            }
            done = next;
            continue;
        }
        for d in &mut done {
            d.push(part.clone());
        }
    }
    Ok(done)
}

/// The container that holds a path's last component.
pub enum Parent<'a> {
    /// A document field.
    Doc(&'a mut Document),
    /// An array element.
    Arr(&'a mut Vec<Bson>),
}

/// Returns the container of the last component of `parts`, creating missing documents on the
/// way when `create` (error 28 when a scalar is in the way); `None` if absent and not creating.
pub fn parent<'a>(
    doc: &'a mut Document,
    parts: &[String],
    create: bool,
) -> Result<Option<Parent<'a>>> {
    let Some((_, prefix)) = parts.split_last() else {
        return Ok(None);
    };
    let mut cur = Parent::Doc(doc);
    for (i, part) in prefix.iter().enumerate() {
        let next: &mut Bson = match cur {
            Parent::Doc(d) => {
                if !d.contains_key(part) {
                    if !create {
                        return Ok(None);
                    }
                    d.insert(part.clone(), Document::new());
                }
                match d.get_mut(part) {
                    Some(v) => v,
                    None => return Ok(None),
                }
            }
            Parent::Arr(a) => {
                let Some(idx) = array_index(part) else {
                    if !create {
                        return Ok(None);
                    }
                    return Err(EngineError::path_not_viable(format!(
                        "Cannot create field '{part}' in element {{{}: {}}}",
                        parts
                            .get(i.wrapping_sub(1))
                            .map(String::as_str)
                            .unwrap_or(""),
                        shell(&Bson::Array(a.clone()))
                    )));
                };
                if idx >= a.len() {
                    if !create {
                        return Ok(None);
                    }
                    check_backfill(a.len(), idx)?;
                    a.resize(idx, Bson::Null);
                    a.push(Bson::Document(Document::new()));
                }
                match a.get_mut(idx) {
                    Some(v) => v,
                    None => return Ok(None),
                }
            }
        };
        cur = match next {
            Bson::Document(d) => Parent::Doc(d),
            Bson::Array(a) => Parent::Arr(a),
            other => {
                if !create {
                    return Ok(None);
                }
                return Err(EngineError::path_not_viable(format!(
                    "Cannot create field '{}' in element {{{part}: {}}}",
                    parts.get(i + 1).map(String::as_str).unwrap_or(""),
                    shell(other)
                )));
            }
        };
    }
    Ok(Some(cur))
}

/// mongod refuses to pad an array with more than 1,500,000 nulls.
fn check_backfill(len: usize, index: usize) -> Result<()> {
    if index.saturating_sub(len) > 1_500_000 {
        return Err(EngineError::bad_value(
            "can't backfill more than 1500000 elements",
        ));
    }
    Ok(())
}

impl Parent<'_> {
    /// Returns the value at `key`.
    pub fn get(&self, key: &str) -> Option<&Bson> {
        match self {
            Parent::Doc(d) => d.get(key),
            Parent::Arr(a) => array_index(key).and_then(|i| a.get(i)),
        }
    }

    /// Returns the value at `key`, mutably.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Bson> {
        match self {
            Parent::Doc(d) => d.get_mut(key),
            Parent::Arr(a) => array_index(key).and_then(|i| a.get_mut(i)),
        }
    }

    /// Sets the value at `key` (arrays are padded with nulls).
    pub fn set(&mut self, key: &str, value: Bson) -> Result<()> {
        match self {
            Parent::Doc(d) => {
                d.insert(key, value);
                Ok(())
            }
            Parent::Arr(a) => {
                let Some(i) = array_index(key) else {
                    return Err(EngineError::path_not_viable(format!(
                        "Cannot create field '{key}' in element {}",
                        shell(&Bson::Array(a.to_vec()))
                    )));
                };
                if i >= a.len() {
                    check_backfill(a.len(), i)?;
                    a.resize(i, Bson::Null);
                    a.push(value);
                } else if let Some(slot) = a.get_mut(i) {
                    *slot = value;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    fn up(d: Document, u: Document) -> Result<Document> {
        let mut d = d;
        match UpdateSpec::parse(&u)? {
            UpdateSpec::Operators(ops) => apply(&mut d, &ops, &UpdateContext::default())?,
            UpdateSpec::Replacement(r) => d = r,
        }
        Ok(d)
    }

    #[test]
    fn set_creates_paths_in_sorted_order() {
        assert_eq!(
            up(doc! {"_id": 1}, doc! {"$set": {"b": 1, "a.c": 2}}).ok(),
            Some(doc! {"_id": 1, "a": {"c": 2}, "b": 1})
        );
        assert_eq!(
            up(doc! {"a": [1]}, doc! {"$set": {"a.3": 9}}).ok(),
            Some(doc! {"a": [1, null, null, 9]})
        );
        assert_eq!(
            up(doc! {"a": 1}, doc! {"$set": {"a.b": 1}})
                .err()
                .map(|e| e.code),
            Some(28)
        );
        assert_eq!(
            up(doc! {"a": []}, doc! {"$set": {"a.99999999": 1}})
                .err()
                .map(|e| e.code),
            Some(2)
        );
    }

    #[test]
    fn conflicts_and_type_errors() {
        assert_eq!(
            up(doc! {}, doc! {"$set": {"a": 1}, "$inc": {"a.b": 1}})
                .err()
                .map(|e| e.code),
            Some(40)
        );
        assert_eq!(
            up(doc! {"_id": 1, "a": "x"}, doc! {"$inc": {"a": 1}})
                .err()
                .map(|e| e.code),
            Some(14)
        );
        assert_eq!(
            up(doc! {}, doc! {"$bogus": {"a": 1}}).err().map(|e| e.code),
            Some(9)
        );
    }

    #[test]
    fn inc_promotes_and_creates() {
        assert_eq!(
            up(doc! {"a": i32::MAX}, doc! {"$inc": {"a": 1}}).ok(),
            Some(doc! {"a": i64::from(i32::MAX) + 1})
        );
        assert_eq!(
            up(doc! {}, doc! {"$inc": {"a": 2.5}}).ok(),
            Some(doc! {"a": 2.5})
        );
        assert_eq!(
            up(doc! {"a": 3}, doc! {"$mul": {"a": 2}, "$unset": {"b": ""}}).ok(),
            Some(doc! {"a": 6})
        );
    }

    #[test]
    fn all_positional_and_array_filters() {
        let mut d = doc! {"g": [1, 5, 9]};
        let ctx = UpdateContext {
            array_filters: parse_array_filters(&[doc! {"x": {"$gte": 5}}]).unwrap_or_default(),
            ..Default::default()
        };
        if let Ok(UpdateSpec::Operators(ops)) = UpdateSpec::parse(&doc! {"$inc": {"g.$[x]": 100}}) {
            assert!(apply(&mut d, &ops, &ctx).is_ok());
        }
        assert_eq!(d, doc! {"g": [1, 105, 109]});
        assert_eq!(
            up(
                doc! {"g": [{"v": 1}, {"v": 2}]},
                doc! {"$set": {"g.$[].v": 0}}
            )
            .ok(),
            Some(doc! {"g": [{"v": 0}, {"v": 0}]})
        );
    }
}
