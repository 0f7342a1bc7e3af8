//! `$unwind`, `$addFields`/`$set`, `$unset`, `$count` and `$replaceRoot`.

use crate::engine::error::{EngineError, Result};
use crate::engine::expr::Expr;
use crate::engine::update::fields;
use bson::{Bson, Document};

/// A parsed `$unwind`.
#[derive(Debug, Clone)]
pub struct UnwindSpec {
    /// The array field (without `$`).
    pub path: String,
    /// Where to put the element's index, if asked.
    pub include_array_index: Option<String>,
    /// Keep documents whose field is missing, null or an empty array.
    pub preserve: bool,
}

impl UnwindSpec {
    /// Returns the parsed `$unwind` (a `"$path"` string or the document form).
    pub fn parse(arg: &Bson) -> Result<UnwindSpec> {
        let (path, index, preserve) = match arg {
            Bson::String(s) => (s.clone(), None, false),
            Bson::Document(d) => {
                let path = match d.get("path") {
                    Some(Bson::String(s)) => s.clone(),
                    _ => {
                        return Err(EngineError::new(
                            28812,
                            "Location28812",
                            "no path specified to $unwind stage",
                        ))
                    }
                };
                let index = match d.get("includeArrayIndex") {
                    None => None,
                    Some(Bson::String(s)) if !s.is_empty() && !s.starts_with('$') => Some(s.clone()),
                    Some(_) => return Err(EngineError::new(28810, "Location28810", "includeArrayIndex option to $unwind stage should be a non-empty string not starting with '$'")),
                };
                let preserve = match d.get("preserveNullAndEmptyArrays") {
                    None => false,
                    Some(Bson::Boolean(b)) => *b,
                    Some(_) => return Err(EngineError::new(28809, "Location28809", "expected a boolean for the preserveNullAndEmptyArrays option to $unwind stage")),
                };
                for k in d.keys() {
                    if !matches!(
                        k.as_str(),
                        "path" | "includeArrayIndex" | "preserveNullAndEmptyArrays"
                    ) {
                        return Err(EngineError::new(
                            28811,
                            "Location28811",
                            format!("unrecognized option to $unwind stage: {k}"),
                        ));
                    }
                }
                (path, index, preserve)
            }
            _ => {
                return Err(EngineError::new(
                    15981,
                    "Location15981",
                    "expected either a string or an object as specification for $unwind stage",
                ))
            }
        };
        let Some(path) = path.strip_prefix('$').filter(|p| !p.is_empty()) else {
            return Err(EngineError::new(
                28818,
                "Location28818",
                "path option to $unwind stage should be prefixed with a '$'",
            ));
        };
        Ok(UnwindSpec {
            path: path.to_string(),
            include_array_index: index,
            preserve,
        })
    }
}

fn parts(p: &str) -> Vec<String> {
    p.split('.').map(str::to_string).collect()
}

/// `$unwind`: one document per array element; a non-array value is a one-element array.
pub fn unwind(docs: Vec<Document>, u: &UnwindSpec) -> Vec<Document> {
    let path = parts(&u.path);
    let refs: Vec<&str> = u.path.split('.').collect();
    let mut out = Vec::new();
    for d in docs {
        let value = crate::engine::path::get(&d, &refs).cloned();
        let with_index = |mut doc: Document, i: Option<i64>| {
            if let Some(f) = &u.include_array_index {
                let _ = fields::set(
                    &mut doc,
                    &parts(f),
                    i.map(Bson::Int64).unwrap_or(Bson::Null),
                );
            }
            doc
        };
        match value {
            Some(Bson::Array(a)) if !a.is_empty() => {
                // Each output is the document with the element in the array's place: clone it
                // with the array set aside (a null in its place keeps the field's position),
                // so that unwinding n elements costs n small copies, not n copies of the
                // whole array.
                let mut base = d;
                let _ = fields::set(&mut base, &path, Bson::Null);
                for (i, e) in a.into_iter().enumerate() {
                    let mut doc = base.clone();
                    if fields::set(&mut doc, &path, e).is_ok() {
                        out.push(with_index(doc, Some(i as i64)));
                    }
                }
            }
            Some(Bson::Array(_)) | Some(Bson::Null) | None => {
                if u.preserve {
                    let mut doc = d.clone();
                    if matches!(value, Some(Bson::Array(_))) {
                        let _ = fields::unset(&mut doc, &path);
                    }
                    out.push(with_index(doc, None));
                }
            }
            Some(_) => out.push(with_index(d, None)),
        }
    }
    out
}

/// Returns `$addFields` entries with object expressions spelled as dotted leaves
/// (`{a: {e: 1}}` is `a.e: 1`), so they merge into embedded documents as in mongod.
pub fn flatten_fields(fields: Vec<(String, Expr)>) -> Vec<(String, Expr)> {
    let mut out = Vec::new();
    for (path, e) in fields {
        match e {
            Expr::Object(sub) if !sub.is_empty() => {
                let nested: Vec<(String, Expr)> = sub
                    .into_iter()
                    .map(|(k, v)| (format!("{path}.{k}"), v))
                    .collect();
                out.extend(flatten_fields(nested));
            }
            other => out.push((path, other)),
        }
    }
    out
}

/// Sets a value as `$addFields` does: through arrays, in every document element.
fn set_through_arrays(d: &mut Document, parts: &[&str], v: Bson) {
    let Some((first, rest)) = parts.split_first() else {
        return;
    };
    if rest.is_empty() {
        d.insert(*first, v);
        return;
    }
    match d.get_mut(*first) {
        Some(Bson::Document(sub)) => set_through_arrays(sub, rest, v),
        Some(Bson::Array(items)) => {
            for e in items.iter_mut() {
                if let Bson::Document(sub) = e {
                    set_through_arrays(sub, rest, v.clone());
                } else {
                    let mut sub = Document::new();
                    set_through_arrays(&mut sub, rest, v.clone());
                    *e = Bson::Document(sub);
                }
            }
        }
        _ => {
            let mut sub = Document::new();
            set_through_arrays(&mut sub, rest, v);
            d.insert(*first, sub);
        }
    }
}

/// `$addFields` / `$set`: sets computed fields (creating embedded documents, reaching into
/// arrays of documents); `$$REMOVE` removes the field.
pub fn add_fields(docs: Vec<Document>, f: &[(String, Expr)]) -> Result<Vec<Document>> {
    let mut out = Vec::with_capacity(docs.len());
    for d in docs {
        let mut doc = d.clone();
        for (path, e) in f {
            let refs: Vec<&str> = path.split('.').collect();
            match e.eval(&d)? {
                Some(v) => set_through_arrays(&mut doc, &refs, v),
                None => fields::unset(&mut doc, &parts(path))?,
            }
        }
        out.push(doc);
    }
    Ok(out)
}

/// `$unset`: removes fields.
pub fn unset(docs: Vec<Document>, paths: &[String]) -> Vec<Document> {
    docs.into_iter()
        .map(|mut d| {
            for p in paths {
                let _ = fields::unset(&mut d, &parts(p));
            }
            d
        })
        .collect()
}

/// `$count`: one document with the number of input documents (none when there are none).
pub fn count(docs: &[Document], name: &str) -> Vec<Document> {
    if docs.is_empty() {
        return Vec::new();
    }
    let mut d = Document::new();
    let n = docs.len();
    d.insert(
        name,
        i32::try_from(n)
            .map(Bson::Int32)
            .unwrap_or(Bson::Int64(n as i64)),
    );
    vec![d]
}

/// `$replaceRoot`: the expression's document becomes the document (error 40228 otherwise).
pub fn replace_root(docs: Vec<Document>, e: &Expr) -> Result<Vec<Document>> {
    docs.iter()
        .map(|d| match e.eval(d)? {
            Some(Bson::Document(n)) => Ok(n),
            other => Err(EngineError::new(
                40228,
                "Location40228",
                format!(
                    "'newRoot' expression must evaluate to an object, but resulting value was: {}. Type of resulting value: '{}'.",
                    other.as_ref().map(crate::engine::compare::shell).unwrap_or_else(|| "MISSING".into()),
                    crate::engine::expr::type_name(other.as_ref())
                ),
            )),
        })
        .collect()
}
