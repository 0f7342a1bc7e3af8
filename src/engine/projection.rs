//! Find projections: inclusion or exclusion (never mixed, except `_id`), dotted paths through
//! embedded documents and arrays, `$slice`, `$elemMatch` and computed fields.

use crate::engine::error::{EngineError, Result};
use crate::engine::expr::Expr;
use crate::engine::query::Filter;
use crate::engine::raw;
use bson::{Bson, Document, RawBsonRef, RawDocument, RawDocumentBuf};

/// What a projection does to one field.
#[derive(Debug, Clone)]
pub enum Node {
    /// Keep the field.
    Include,
    /// Drop the field.
    Exclude,
    /// Keep part of an array: `(skip, limit)`; a negative skip counts from the end.
    Slice(i64, i64),
    /// Keep only the first array element matching the filter.
    ElemMatch(Filter),
    /// Set the field to a computed value.
    Computed(Expr),
    /// Project sub-fields (a dotted path).
    Children(Vec<(String, Node)>),
}

/// A parsed projection.
#[derive(Debug, Clone)]
pub struct Projection {
    /// True for an inclusion projection (only listed fields kept).
    pub inclusion: bool,
    /// The projected fields in the order given.
    pub fields: Vec<(String, Node)>,
    /// The projection as given, for plans.
    pub spec: Document,
}

impl Projection {
    /// Returns the parsed find projection; mixing inclusion and exclusion is error 31254/31253.
    pub fn parse(spec: &Document) -> Result<Projection> {
        Self::parse_with(spec, true)
    }

    /// Returns the parsed `$project` stage: like a find projection, but `$slice` and
    /// `$elemMatch` are aggregation expressions there.
    pub fn parse_aggregation(spec: &Document) -> Result<Projection> {
        Self::parse_with(spec, false)
    }

    fn parse_with(spec: &Document, find: bool) -> Result<Projection> {
        let mut fields: Vec<(String, Node)> = Vec::new();
        let mut mode: Option<bool> = None;
        let mut id_node: Option<Node> = None;
        for (path, value) in &flatten(spec, "")? {
            let (path, value) = (path.as_str(), value);
            if path.is_empty() || path.starts_with('$') || path.ends_with(".$") {
                return Err(EngineError::bad_value(format!(
                    "projection path '{path}' is not supported (positional projection is not implemented)"
                )));
            }
            let node = match value {
                Bson::Boolean(b) => {
                    if *b {
                        Node::Include
                    } else {
                        Node::Exclude
                    }
                }
                Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_) | Bson::Decimal128(_) => {
                    if crate::engine::compare::as_f64(value).is_some_and(|f| f != 0.0) {
                        Node::Include
                    } else {
                        Node::Exclude
                    }
                }
                Bson::Document(d) if find && d.contains_key("$slice") && d.len() == 1 => {
                    parse_slice(d.get("$slice"))?
                }
                Bson::Document(d) if find && d.contains_key("$elemMatch") && d.len() == 1 => {
                    if path.contains('.') {
                        return Err(EngineError::bad_value(
                            "Cannot use $elemMatch projection on a nested field.",
                        ));
                    }
                    match d.get("$elemMatch") {
                        Some(Bson::Document(f)) => Node::ElemMatch(Filter::parse(f)?),
                        _ => {
                            return Err(EngineError::bad_value(
                                "elemMatch: Invalid argument, object required.",
                            ))
                        }
                    }
                }
                other => Node::Computed(Expr::parse(other)?),
            };
            if path == "_id" {
                id_node = Some(node);
                continue;
            }
            let incl = match node {
                Node::Include | Node::Computed(_) | Node::ElemMatch(_) => Some(true),
                Node::Exclude => Some(false),
                _ => None,
            };
            if let Some(i) = incl {
                match mode {
                    Some(true) if !i => {
                        return Err(EngineError::projection_exclusion_in_inclusion(path))
                    }
                    Some(false) if i => {
                        return Err(EngineError::projection_inclusion_in_exclusion(path))
                    }
                    _ => mode = Some(i),
                }
            }
            insert(
                &mut fields,
                path,
                &path.split('.').collect::<Vec<_>>(),
                node,
            )?;
        }
        let inclusion = match (mode, &id_node) {
            (Some(m), _) => m,
            (None, Some(Node::Include | Node::Computed(_))) => true,
            _ => false,
        };
        match id_node {
            Some(Node::Exclude) if inclusion => fields.push(("_id".into(), Node::Exclude)),
            Some(Node::Exclude) => fields.insert(0, ("_id".into(), Node::Exclude)),
            Some(n) if inclusion => fields.insert(0, ("_id".into(), n)),
            Some(Node::Include) | None if inclusion => {
                fields.insert(0, ("_id".into(), Node::Include))
            }
            _ => {}
        }
        Ok(Projection {
            inclusion,
            fields,
            spec: spec.clone(),
        })
    }

    /// Returns true when the projection only keeps or drops top-level fields
    /// (mongod's PROJECTION_SIMPLE).
    pub fn is_simple(&self) -> bool {
        self.fields
            .iter()
            .all(|(_, n)| matches!(n, Node::Include | Node::Exclude))
    }

    /// Returns true when an inclusion projection keeps the field at `path` (as a whole).
    pub fn includes(&self, path: &str) -> bool {
        let mut fields = &self.fields;
        let parts: Vec<&str> = path.split('.').collect();
        for (i, p) in parts.iter().enumerate() {
            match fields.iter().find(|(k, _)| k == p) {
                Some((_, Node::Include)) => return i + 1 == parts.len(),
                Some((_, Node::Children(c))) => fields = c,
                _ => return false,
            }
        }
        false
    }

    /// Returns the projected document.
    pub fn apply(&self, doc: &Document) -> Result<Document> {
        if self.inclusion {
            include(doc, &self.fields, doc)
        } else {
            Ok(excluded(doc, &self.fields))
        }
    }
}

impl Projection {
    /// Returns [`Projection::apply`] of a stored (raw) document as bytes, without decoding
    /// anything, when the projection only keeps top-level fields (`{a: 1, b: 1}`, `_id`
    /// kept or not): the kept elements' bytes in document order, which is what `apply`
    /// returns encoded. `None` for any other projection.
    pub fn apply_raw_bytes(&self, raw: &RawDocument) -> Option<RawDocumentBuf> {
        let plain = self.inclusion
            && self
                .fields
                .iter()
                .all(|(_, n)| matches!(n, Node::Include | Node::Exclude));
        if !plain {
            return None;
        }
        raw::select_fields(raw, |key| {
            self.fields
                .iter()
                .find(|(f, _)| f == key)
                .is_some_and(|(_, n)| matches!(n, Node::Include))
        })
    }

    /// Returns [`Projection::apply`] of a stored (raw) document, decoding only what the
    /// result keeps: an excluded field is skipped unread, a `$slice` decodes the elements it
    /// keeps, and an inclusion without computed fields decodes only the fields it lists.
    pub fn apply_raw(&self, raw: &RawDocument) -> Result<Document> {
        let unreadable = || EngineError::new(1, "InternalError", "stored document unreadable");
        if self.inclusion {
            if has_computed(&self.fields) {
                let doc = raw::decode(raw).ok_or_else(unreadable)?;
                return self.apply(&doc);
            }
            // `include` reads only the listed top-level fields (nothing computed reads the
            // root), so the document of those fields gives the same result.
            let mut listed = Document::new();
            for element in raw.iter_elements() {
                let element = element.map_err(|_| unreadable())?;
                let key = element.key().as_str();
                if self.fields.iter().any(|(f, _)| f == key) {
                    let value = element.value().map_err(|_| unreadable())?;
                    listed.insert(key, raw::to_bson(value).ok_or_else(unreadable)?);
                }
            }
            return include(&listed, &self.fields, &listed);
        }
        let mut out = Document::new();
        for element in raw.iter_elements() {
            let element = element.map_err(|_| unreadable())?;
            let key = element.key().as_str();
            let node = self.fields.iter().find(|(f, _)| f == key).map(|(_, n)| n);
            if matches!(node, Some(Node::Exclude)) {
                continue;
            }
            let value = element.value().map_err(|_| unreadable())?;
            let kept = match (node, value) {
                (Some(Node::Slice(s, n)), RawBsonRef::Array(a)) => {
                    let len = raw::elements(a).count() as i64;
                    let (start, take) = slice_range(len, *s, *n);
                    let mut kept = Vec::new();
                    for e in raw::elements(a).skip(start).take(take) {
                        kept.push(raw::to_bson(e).ok_or_else(unreadable)?);
                    }
                    Bson::Array(kept)
                }
                (node, value) => {
                    let v = raw::to_bson(value).ok_or_else(unreadable)?;
                    match node {
                        Some(Node::Slice(s, n)) => slice(&v, *s, *n),
                        Some(Node::Children(c)) => match v {
                            Bson::Document(d) => Bson::Document(excluded(&d, c)),
                            Bson::Array(mut a) => {
                                exclude_array(&mut a, c);
                                Bson::Array(a)
                            }
                            other => other,
                        },
                        _ => v,
                    }
                }
            };
            out.insert(key, kept);
        }
        Ok(out)
    }
}

/// Returns the projection with nested sub-projections (`{a: {b: 1}}`) spelled as dotted
/// paths (`a.b`), as mongod reads them; operator documents (`{$slice: 2}`) stay values.
fn flatten(spec: &Document, prefix: &str) -> Result<Vec<(String, Bson)>> {
    let mut out = Vec::new();
    for (k, v) in spec {
        let path = if prefix.is_empty() {
            k.clone()
        } else {
            format!("{prefix}.{k}")
        };
        match v {
            Bson::Document(d) if d.is_empty() => {
                return Err(EngineError::new(
                    51270,
                    "Location51270",
                    format!("An empty sub-projection is not a valid value. Found empty object at path {path}"),
                ))
            }
            Bson::Document(d) if !d.keys().any(|x| x.starts_with('$')) => out.extend(flatten(d, &path)?),
            other => out.push((path, other.clone())),
        }
    }
    Ok(out)
}

fn parse_slice(arg: Option<&Bson>) -> Result<Node> {
    let num = |v: Option<&Bson>| v.and_then(crate::engine::compare::as_f64).map(|f| f as i64);
    match arg {
        Some(Bson::Array(a)) if a.len() == 2 => {
            let (Some(s), Some(n)) = (num(a.first()), num(a.get(1))) else {
                return Err(EngineError::bad_value("$slice only supports numbers"));
            };
            if n <= 0 {
                return Err(EngineError::bad_value("$slice limit must be positive"));
            }
            Ok(Node::Slice(s, n))
        }
        other => match num(other) {
            Some(n) if n < 0 => Ok(Node::Slice(n, n.saturating_neg())),
            Some(n) => Ok(Node::Slice(0, n)),
            None => Err(EngineError::bad_value(
                "$slice only supports numbers and [skip, limit] arrays",
            )),
        },
    }
}

fn insert(fields: &mut Vec<(String, Node)>, full: &str, parts: &[&str], node: Node) -> Result<()> {
    let collision =
        || EngineError::new(31250, "Location31250", format!("Path collision at {full}"));
    let Some((first, rest)) = parts.split_first() else {
        return Ok(());
    };
    let pos = fields.iter().position(|(k, _)| k == first);
    if rest.is_empty() {
        if pos.is_some() {
            return Err(collision());
        }
        fields.push((first.to_string(), node));
        return Ok(());
    }
    let idx = match pos {
        Some(i) => i,
        None => {
            fields.push((first.to_string(), Node::Children(Vec::new())));
            fields.len() - 1
        }
    };
    match fields.get_mut(idx) {
        Some((_, Node::Children(c))) => insert(c, full, rest, node),
        _ => Err(collision()),
    }
}

/// Returns the elements `$slice: [skip, limit]` keeps of an array of `len`: where they
/// start and how many.
fn slice_range(len: i64, skip: i64, limit: i64) -> (usize, usize) {
    let start = if skip < 0 {
        (len + skip).max(0)
    } else {
        skip.min(len)
    };
    (start as usize, limit.max(0) as usize)
}

fn slice(v: &Bson, skip: i64, limit: i64) -> Bson {
    let Bson::Array(a) = v else { return v.clone() };
    let (start, take) = slice_range(a.len() as i64, skip, limit);
    Bson::Array(a.iter().skip(start).take(take).cloned().collect())
}

fn include(doc: &Document, fields: &[(String, Node)], root: &Document) -> Result<Document> {
    let mut out = Document::new();
    for (k, v) in doc {
        let Some((_, node)) = fields.iter().find(|(f, _)| f == k) else {
            continue;
        };
        match node {
            Node::Include => {
                out.insert(k.clone(), v.clone());
            }
            Node::Slice(s, n) => {
                out.insert(k.clone(), slice(v, *s, *n));
            }
            Node::ElemMatch(f) => {
                if let Bson::Array(a) = v {
                    if let Some(e) = a
                        .iter()
                        .find(|e| matches!(e, Bson::Document(d) if f.matches(d)))
                    {
                        out.insert(k.clone(), Bson::Array(vec![e.clone()]));
                    }
                }
            }
            Node::Children(c) => match v {
                Bson::Document(d) => {
                    out.insert(k.clone(), Bson::Document(include(d, c, root)?));
                }
                Bson::Array(a) => {
                    out.insert(k.clone(), Bson::Array(include_array(a, c, root)?));
                }
                _ => {}
            },
            Node::Exclude | Node::Computed(_) => {}
        }
    }
    for (k, node) in fields {
        match node {
            Node::Computed(e) => {
                if let Some(v) = e.eval(root)? {
                    out.insert(k.clone(), v);
                }
            }
            Node::Children(c) if !doc.contains_key(k) && has_computed(c) => {
                out.insert(
                    k.clone(),
                    Bson::Document(include(&Document::new(), c, root)?),
                );
            }
            _ => {}
        }
    }
    Ok(out)
}

fn has_computed(fields: &[(String, Node)]) -> bool {
    fields.iter().any(|(_, n)| match n {
        Node::Computed(_) => true,
        Node::Children(c) => has_computed(c),
        _ => false,
    })
}

fn include_array(a: &[Bson], fields: &[(String, Node)], root: &Document) -> Result<Vec<Bson>> {
    let mut out = Vec::new();
    for e in a {
        match e {
            Bson::Document(d) => out.push(Bson::Document(include(d, fields, root)?)),
            Bson::Array(inner) => out.push(Bson::Array(include_array(inner, fields, root)?)),
            _ => {}
        }
    }
    Ok(out)
}

/// Returns `doc` without the excluded fields, copying only what is kept (an excluded array
/// of 100,000 elements is skipped, not cloned and dropped). Same result as cloning `doc` and
/// applying [`exclude`].
fn excluded(doc: &Document, fields: &[(String, Node)]) -> Document {
    let mut out = Document::new();
    for (k, v) in doc {
        match fields.iter().find(|(f, _)| f == k).map(|(_, n)| n) {
            Some(Node::Exclude) => {}
            Some(Node::Slice(s, n)) => {
                out.insert(k.clone(), slice(v, *s, *n));
            }
            Some(Node::Children(c)) => match v {
                Bson::Document(d) => {
                    out.insert(k.clone(), Bson::Document(excluded(d, c)));
                }
                Bson::Array(a) => {
                    let mut a = a.clone();
                    exclude_array(&mut a, c);
                    out.insert(k.clone(), Bson::Array(a));
                }
                other => {
                    out.insert(k.clone(), other.clone());
                }
            },
            _ => {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    out
}

fn exclude(doc: &mut Document, fields: &[(String, Node)]) {
    for (k, node) in fields {
        match node {
            Node::Exclude => {
                doc.remove(k);
            }
            Node::Slice(s, n) => {
                if let Some(v) = doc.get_mut(k) {
                    *v = slice(v, *s, *n);
                }
            }
            Node::Children(c) => match doc.get_mut(k) {
                Some(Bson::Document(d)) => exclude(d, c),
                Some(Bson::Array(a)) => exclude_array(a, c),
                _ => {}
            },
            _ => {}
        }
    }
}

fn exclude_array(a: &mut [Bson], fields: &[(String, Node)]) {
    for e in a {
        match e {
            Bson::Document(d) => exclude(d, fields),
            Bson::Array(inner) => exclude_array(inner, fields),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    fn p(spec: Document, d: Document) -> Result<Document> {
        Projection::parse(&spec)?.apply(&d)
    }

    /// A projection of a stored (raw) document gives what it gives on the document decoded,
    /// for inclusions, exclusions, `$slice`, `$elemMatch`, dotted and computed fields.
    #[test]
    fn raw_projection_is_the_document_projection() {
        let docs = [
            doc! {"_id": 1, "a": [1, 2, 3, 4, 5], "b": {"c": 1, "d": [{"e": 1, "f": 2}, 3]}, "g": "x"},
            doc! {"_id": 2, "a": 7, "b": [{"c": 2}, {"d": 1}], "h": null},
            doc! {"a": [], "g": [{"x": 1}, {"x": 2}]},
        ];
        let specs = [
            doc! {"a": 1},
            doc! {"a": 0},
            doc! {"_id": 0, "b.c": 1},
            doc! {"b.d.e": 0, "g": 0},
            doc! {"a": {"$slice": 2}},
            doc! {"a": {"$slice": [-3, 2]}, "g": 0},
            doc! {"a": {"$slice": [1, 10]}, "g": 1},
            doc! {"g": {"$elemMatch": {"x": 2}}},
            doc! {"g": 1, "z": {"$add": [1, 2]}},
            doc! {"b": {"c": 1}, "s": "$g"},
        ];
        for spec in &specs {
            let Ok(p) = Projection::parse(spec) else {
                panic!("{spec} does not parse");
            };
            for d in &docs {
                let Ok(raw) = bson::RawDocumentBuf::try_from(d) else {
                    panic!("{d} does not encode");
                };
                let want = p.apply(d).map_err(|e| e.code);
                assert_eq!(p.apply_raw(&raw).map_err(|e| e.code), want, "{spec} on {d}");
            }
        }
    }

    /// A projection that keeps top-level fields gives, as bytes, the encoding of what it
    /// gives on the document; any other projection gives no bytes.
    #[test]
    fn kept_fields_as_bytes_are_the_projection_encoded() {
        let docs = [
            doc! {"_id": 1, "a": [1, 2, 3], "b": {"c": 1}, "g": "x"},
            doc! {"g": [{"x": 1}], "_id": 2, "a": 7},
            doc! {"b": null},
        ];
        let plain = [
            doc! {"a": 1},
            doc! {"_id": 0, "a": 1, "g": 1},
            doc! {"g": 1, "a": true},
            doc! {"z": 1},
        ];
        let other = [
            doc! {"a": 0},
            doc! {"b.c": 1},
            doc! {"a": {"$slice": 2}},
            doc! {"g": 1, "z": {"$add": [1, 2]}},
        ];
        for d in &docs {
            let Ok(raw) = bson::RawDocumentBuf::try_from(d) else {
                panic!("{d} does not encode");
            };
            for spec in &plain {
                let Ok(p) = Projection::parse(spec) else {
                    panic!("{spec} does not parse");
                };
                let want = p.apply(d).ok().and_then(|x| x.to_vec().ok());
                let got = p.apply_raw_bytes(&raw).map(|b| b.as_bytes().to_vec());
                assert_eq!(got, want, "{spec} on {d}");
            }
            for spec in &other {
                let Ok(p) = Projection::parse(spec) else {
                    panic!("{spec} does not parse");
                };
                assert!(p.apply_raw_bytes(&raw).is_none(), "{spec}");
            }
        }
    }

    #[test]
    fn inclusion_keeps_document_order_and_id() {
        let d = doc! {"_id": 1, "a": 1, "b": {"c": 1, "d": 2}, "e": [{"c": 1, "x": 0}, 5]};
        assert_eq!(
            p(doc! {"b.c": 1, "a": 1}, d.clone()).ok(),
            Some(doc! {"_id": 1, "a": 1, "b": {"c": 1}})
        );
        assert_eq!(
            p(doc! {"e.c": 1, "_id": 0}, d.clone()).ok(),
            Some(doc! {"e": [{"c": 1}]})
        );
        assert_eq!(
            p(doc! {"b": 0, "e": 0}, d).ok(),
            Some(doc! {"_id": 1, "a": 1})
        );
    }

    #[test]
    fn mixing_is_an_error() {
        assert_eq!(
            p(doc! {"a": 1, "b": 0}, doc! {}).err().map(|e| e.code),
            Some(31254)
        );
        assert_eq!(
            p(doc! {"a": 0, "b": 1}, doc! {}).err().map(|e| e.code),
            Some(31253)
        );
        assert!(p(doc! {"a": 1, "_id": 0}, doc! {}).is_ok());
    }

    #[test]
    fn slice_and_elem_match() {
        let d = doc! {"_id": 1, "a": [1, 2, 3, 4], "b": [{"x": 1}, {"x": 2}]};
        assert_eq!(
            p(doc! {"a": {"$slice": -2}}, d.clone()).ok(),
            Some(doc! {"_id": 1, "a": [3, 4], "b": [{"x": 1}, {"x": 2}]})
        );
        assert_eq!(
            p(doc! {"a": {"$slice": [1, 2]}, "b": 1}, d.clone()).ok(),
            Some(doc! {"_id": 1, "a": [2, 3], "b": [{"x": 1}, {"x": 2}]})
        );
        assert_eq!(
            p(doc! {"b": {"$elemMatch": {"x": 2}}}, d).ok(),
            Some(doc! {"_id": 1, "b": [{"x": 2}]})
        );
    }
}
