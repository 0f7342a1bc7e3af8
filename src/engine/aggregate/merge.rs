//! `$merge`: the pipeline's output merged into a collection, as mongod 7/8 does it.
//!
//! Each output document is matched against the target by its `on` fields (default `_id`;
//! other fields need a unique index on exactly those fields, error 51183) and written through
//! the engine's ordinary write commands, so index maintenance, the 16 MiB and `_id` checks and
//! the write statistics are those of `update`/`replaceOne`/`insert`:
//!
//! | whenMatched | write (mongod's strategy) |
//! | --- | --- |
//! | `merge` (default) | `updateOne(on, { $set: doc })` |
//! | `replace` | `replaceOne(on, doc)` |
//! | `keepExisting` | `updateOne(on, { $setOnInsert: doc }, upsert)` |
//! | `fail` | `insertOne(doc)` (a match is a duplicate key) |
//! | a pipeline | the pipeline run on the matched document, which it replaces |
//!
//! `whenNotMatched` is `insert` (default: an upsert), `discard` or `fail` (code 13113 after the
//! documents before it were written). As in mongod, nothing is rolled back when a document
//! fails: the documents merged before it stay merged.
//!
//! The whenMatched pipeline's variables (`$$new` and `let`) are bound by substitution: before
//! the pipeline runs on a matched document, every `"$$name"` or `"$$name.path"` string in it is
//! replaced by `{ $literal: <value> }` (or `"$$REMOVE"` when the value is missing), so the
//! expression engine, which carries no variables of its own, evaluates them as constants.

use crate::engine::aggregate::out::{target_collection, wrong_type};
use crate::engine::aggregate::{apply, parse_stage};
use crate::engine::collection::Collection;
use crate::engine::error::{EngineError, Result};
use crate::engine::expr::{type_name, Expr};
use crate::engine::stats::{Stats, WriteStats};
use crate::engine::{Database, FindCommand, UpdateCommand};
use bson::{doc, Bson, Document};

/// What `$merge` does with an output document that matches a target document.
#[derive(Debug, Clone, PartialEq)]
pub enum WhenMatched {
    /// Replace the target document (its `_id` kept).
    Replace,
    /// Leave the target document as it is.
    KeepExisting,
    /// Set the output document's top-level fields on the target document (the default).
    Merge,
    /// Stop with a duplicate key error.
    Fail,
    /// Replace the target document with what this pipeline makes of it.
    Pipeline(Vec<Document>),
}

/// What `$merge` does with an output document that matches nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WhenNotMatched {
    /// Insert it (the default).
    Insert,
    /// Drop it.
    Discard,
    /// Stop with code 13113.
    Fail,
}

/// A parsed `$merge` stage.
#[derive(Debug, Clone)]
pub struct MergeSpec {
    /// The target collection.
    pub into: String,
    /// The fields that identify a document (`["_id"]` by default).
    pub on: Vec<String>,
    /// True when `on` was given (other fields than `_id` need a unique index).
    pub on_given: bool,
    /// The action on a match.
    pub when_matched: WhenMatched,
    /// The action without a match.
    pub when_not_matched: WhenNotMatched,
    /// The pipeline's variables: names and expressions evaluated on the output document.
    pub let_vars: Vec<(String, Expr)>,
}

const PIPELINE_STAGES: &[&str] = &[
    "$addFields",
    "$set",
    "$project",
    "$unset",
    "$replaceRoot",
    "$replaceWith",
];

fn mode_name(m: &WhenMatched) -> &'static str {
    match m {
        WhenMatched::Replace => "replace",
        WhenMatched::KeepExisting => "keepExisting",
        WhenMatched::Merge => "merge",
        WhenMatched::Fail => "fail",
        WhenMatched::Pipeline(_) => "pipeline",
    }
}

fn not_matched_name(m: WhenNotMatched) -> &'static str {
    match m {
        WhenNotMatched::Insert => "insert",
        WhenNotMatched::Discard => "discard",
        WhenNotMatched::Fail => "fail",
    }
}

fn enum_error(field: &str, v: &str) -> EngineError {
    EngineError::bad_value(format!(
        "Enumeration value '{v}' for field '{field}' is not a valid value."
    ))
}

/// Checks a `let` variable name as mongod's `validateNameForUserWrite` does.
fn check_var_name(name: &str) -> Result<()> {
    let Some(first) = name.chars().next() else {
        return Err(EngineError::new(
            16869,
            "Location16869",
            "empty variable names are not allowed",
        ));
    };
    if !first.is_ascii_lowercase() && first.is_ascii() {
        return Err(EngineError::new(
            16870,
            "Location16870",
            format!("'{name}' starts with an invalid character for a user variable name"),
        ));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || !c.is_ascii()))
    {
        return Err(EngineError::new(
            16871,
            "Location16871",
            format!("'{name}' contains an invalid character for a variable name: '{c}'"),
        ));
    }
    Ok(())
}

impl MergeSpec {
    /// Returns the parsed `$merge` argument (a collection name, or the options document).
    pub fn parse(arg: &Bson) -> Result<MergeSpec> {
        let d = match arg {
            Bson::String(_) => {
                return Ok(MergeSpec {
                    into: target_collection("$merge", "$merge", arg, false)?,
                    on: vec!["_id".into()],
                    on_given: false,
                    when_matched: WhenMatched::Merge,
                    when_not_matched: WhenNotMatched::Insert,
                    let_vars: Vec::new(),
                })
            }
            Bson::Document(d) => d,
            other => {
                return Err(EngineError::new(
                    51182,
                    "Location51182",
                    format!(
                        "$merge only supports a string or object argument, not {}",
                        type_name(Some(other))
                    ),
                ))
            }
        };
        for k in d.keys() {
            if !matches!(
                k.as_str(),
                "into" | "on" | "let" | "whenMatched" | "whenNotMatched"
            ) {
                return Err(EngineError::new(
                    40415,
                    "Location40415",
                    format!("BSON field '$merge.{k}' is an unknown field."),
                ));
            }
        }
        let into = match d.get("into") {
            None => {
                return Err(EngineError::new(
                    40414,
                    "Location40414",
                    "BSON field '$merge.into' is missing but a required field",
                ))
            }
            Some(v @ (Bson::String(_) | Bson::Document(_))) => {
                target_collection("$merge", "$merge.into", v, false)?
            }
            Some(other) => return Err(wrong_type("$merge.into", other, "[string, object]")),
        };
        let (on, on_given) = match d.get("on") {
            None => (vec!["_id".to_string()], false),
            Some(Bson::String(s)) => (vec![s.clone()], true),
            Some(Bson::Array(a)) => {
                if a.is_empty() {
                    return Err(EngineError::new(
                        51187,
                        "Location51187",
                        "If explicitly specifying $merge 'on', must include at least one field",
                    ));
                }
                let mut fields: Vec<String> = Vec::new();
                for v in a {
                    let Bson::String(s) = v else {
                        return Err(EngineError::new(
                            51134,
                            "Location51134",
                            format!(
                                "Array passed to $merge 'on' field must only contain strings, but found {}",
                                type_name(Some(v))
                            ),
                        ));
                    };
                    if fields.contains(s) {
                        return Err(EngineError::new(
                            31465,
                            "Location31465",
                            format!("Found a duplicate field '{s}'"),
                        ));
                    }
                    fields.push(s.clone());
                }
                (fields, true)
            }
            Some(other) => {
                return Err(EngineError::new(
                    51186,
                    "Location51186",
                    format!(
                        "$merge 'on' field must be either a string or an array of strings, but found {}",
                        type_name(Some(other))
                    ),
                ))
            }
        };
        for f in &on {
            if f.is_empty() || f.starts_with('$') || f.split('.').any(str::is_empty) {
                return Err(EngineError::bad_value(format!(
                    "$merge 'on' field '{f}' is not a valid field path"
                )));
            }
        }
        let when_matched = match d.get("whenMatched") {
            None => WhenMatched::Merge,
            Some(Bson::String(s)) => match s.as_str() {
                "replace" => WhenMatched::Replace,
                "keepExisting" => WhenMatched::KeepExisting,
                "merge" => WhenMatched::Merge,
                "fail" => WhenMatched::Fail,
                other => return Err(enum_error("whenMatched", other)),
            },
            Some(Bson::Array(stages)) => {
                let mut out = Vec::new();
                for s in stages {
                    let Bson::Document(s) = s else {
                        return Err(wrong_type("$merge.whenMatched", s, "object"));
                    };
                    let name = s.keys().next().map(String::as_str).unwrap_or("");
                    if s.len() == 1 && !PIPELINE_STAGES.contains(&name) {
                        return Err(EngineError::new(
                            72,
                            "InvalidOptions",
                            format!("{name} is not allowed to be used within an update"),
                        ));
                    }
                    out.push(s.clone());
                }
                WhenMatched::Pipeline(out)
            }
            Some(other) => return Err(wrong_type("$merge.whenMatched", other, "[string, array]")),
        };
        let when_not_matched = match d.get("whenNotMatched") {
            None => WhenNotMatched::Insert,
            Some(Bson::String(s)) => match s.as_str() {
                "insert" => WhenNotMatched::Insert,
                "discard" => WhenNotMatched::Discard,
                "fail" => WhenNotMatched::Fail,
                other => return Err(enum_error("whenNotMatched", other)),
            },
            Some(other) => return Err(wrong_type("$merge.whenNotMatched", other, "string")),
        };
        let supported = !matches!(
            (&when_matched, when_not_matched),
            (
                WhenMatched::KeepExisting | WhenMatched::Fail,
                WhenNotMatched::Discard | WhenNotMatched::Fail
            )
        );
        if !supported {
            return Err(EngineError::new(
                51181,
                "Location51181",
                format!(
                    "Combination of $merge modes 'whenMatched: {}' and 'whenNotMatched: {}' is not supported",
                    mode_name(&when_matched),
                    not_matched_name(when_not_matched)
                ),
            ));
        }
        let mut let_vars = Vec::new();
        match (d.get("let"), &when_matched) {
            (None, _) => {}
            (Some(_), m) if !matches!(m, WhenMatched::Pipeline(_)) => {
                return Err(EngineError::new(
                    51199,
                    "Location51199",
                    format!(
                        "Cannot use 'let' variables with 'whenMatched: {}' mode",
                        mode_name(m)
                    ),
                ))
            }
            (Some(Bson::Document(vars)), _) => {
                for (k, v) in vars {
                    check_var_name(k)?;
                    if k == "new" && v.as_str() != Some("$$ROOT") {
                        return Err(EngineError::new(
                            51273,
                            "Location51273",
                            "'let' may not define a value for the reserved 'new' variable other than '$$ROOT'",
                        ));
                    }
                    let_vars.push((k.clone(), Expr::parse(v)?));
                }
            }
            (Some(other), _) => return Err(wrong_type("$merge.let", other, "object")),
        }
        if let WhenMatched::Pipeline(stages) = &when_matched {
            // mongod defaults `let` to `{ new: "$$ROOT" }`, and adds `new` when the pipeline
            // may insert the document.
            let has_new = let_vars.iter().any(|(k, _)| k == "new");
            if !has_new && (d.get("let").is_none() || when_not_matched == WhenNotMatched::Insert) {
                let_vars.push(("new".into(), Expr::Var("ROOT".into(), String::new())));
            }
            // The pipeline is checked now, with every variable bound, as mongod parses it
            // before anything runs.
            let probe: Vec<(String, Option<Bson>)> = let_vars
                .iter()
                .map(|(k, _)| (k.clone(), Some(Bson::Null)))
                .collect();
            for s in stages {
                parse_stage(&bind_stage(s, &probe))?;
            }
        }
        Ok(MergeSpec {
            into,
            on,
            on_given,
            when_matched,
            when_not_matched,
            let_vars,
        })
    }
}

/// Returns a pipeline stage with its variables replaced by their values (`$unset` names
/// fields, never variables, and is left as it is).
fn bind_stage(stage: &Document, vars: &[(String, Option<Bson>)]) -> Document {
    if stage.contains_key("$unset") {
        return stage.clone();
    }
    match bind(&Bson::Document(stage.clone()), vars) {
        Bson::Document(d) => d,
        _ => stage.clone(),
    }
}

/// Returns `v` with every `"$$name[.path]"` of a bound variable replaced by its value as a
/// `$literal` (`"$$REMOVE"` when missing); `$literal` arguments are left as they are.
fn bind(v: &Bson, vars: &[(String, Option<Bson>)]) -> Bson {
    match v {
        Bson::String(s) if s.starts_with("$$") => {
            let body = &s[2..];
            let (name, rest) = body.split_once('.').unwrap_or((body, ""));
            let Some((_, value)) = vars.iter().find(|(k, _)| k == name) else {
                return v.clone();
            };
            let value = match (value, rest) {
                (value, "") => value.clone(),
                (Some(Bson::Document(d)), path) => crate::engine::expr::field_path(d, path),
                _ => None,
            };
            match value {
                Some(x) => Bson::Document(doc! {"$literal": x}),
                None => Bson::String("$$REMOVE".into()),
            }
        }
        Bson::Document(d) if d.len() == 1 && d.contains_key("$literal") => v.clone(),
        Bson::Document(d) => {
            Bson::Document(d.iter().map(|(k, x)| (k.clone(), bind(x, vars))).collect())
        }
        Bson::Array(a) => Bson::Array(a.iter().map(|x| bind(x, vars)).collect()),
        other => other.clone(),
    }
}

/// Returns the value of an `on` field of an output document (through embedded documents),
/// refusing arrays (51185) and missing or null values (51132) as mongod does.
fn on_value(doc: &Document, field: &str) -> Result<Bson> {
    let mut cur: Option<&Bson> = None;
    let mut here = Some(doc);
    for part in field.split('.') {
        cur = here.and_then(|d| d.get(part));
        here = match cur {
            Some(Bson::Document(d)) => Some(d),
            _ => None,
        };
        if matches!(cur, Some(Bson::Array(_))) {
            break;
        }
    }
    match cur {
        Some(Bson::Array(_)) => Err(EngineError::new(
            51185,
            "Location51185",
            format!("$merge write error: 'on' field '{field}' is an array"),
        )),
        None | Some(Bson::Null) | Some(Bson::Undefined) => Err(EngineError::new(
            51132,
            "Location51132",
            format!(
                "$merge write error: 'on' field '{field}' cannot be missing, null, undefined or an array"
            ),
        )),
        Some(v) => Ok(v.clone()),
    }
}

/// Returns the name of a unique, non-partial, simple-collation index of `target` on exactly
/// the `on` fields (in any order and direction), as mongod requires for `on` (51183).
fn supporting_index(target: Option<&Collection>, on: &[String]) -> Option<String> {
    if on == ["_id"] {
        return Some("_id_".into());
    }
    target?
        .indexes()
        .iter()
        .find(|i| {
            i.spec.unique
                && i.spec.partial_filter_expression.is_none()
                && i.spec.collation.is_none()
                && i.spec.fields.len() == on.len()
                && on.iter().all(|f| i.spec.fields.iter().any(|(n, _)| n == f))
        })
        .map(|i| i.spec.name.clone())
}

/// Adds one command's write statistics to the stage's (an upsert counts as an insert).
fn add(total: &mut WriteStats, w: &WriteStats) {
    total.n_matched += w.n_matched;
    total.n_modified += w.n_modified;
    total.n_inserted += w.n_inserted + w.n_upserted;
    total.n_deleted += w.n_deleted;
    total.docs_written += w.docs_written;
    total.bytes_written += w.bytes_written;
    total.index_keys_written += w.index_keys_written;
}

fn no_match() -> EngineError {
    EngineError::new(
        13113,
        "MergeStageNoMatchingDocument",
        "$merge could not find a matching document in the target collection for at least one document in the source collection",
    )
}

/// Returns mongod's wording for a write error inside `$merge` (its context, then the cause).
fn with_context(e: EngineError, spec: &MergeSpec, on_index: Option<&str>) -> EngineError {
    let context = match e.code {
        66 => "$merge failed to update the matching document, did you attempt to modify the _id or the shard key?",
        11000
            if spec.when_matched == WhenMatched::Fail
                && on_index.is_some_and(|i| e.message.contains(&format!("index: {i} "))) =>
        {
            "$merge with whenMatched: fail found an existing document with the same values for the 'on' fields"
        }
        11000 => "$merge failed due to a DuplicateKey error",
        _ => return e,
    };
    EngineError {
        message: format!("{context} :: caused by :: {}", e.message),
        n_inserted: None,
        ..e
    }
}

impl MergeSpec {
    /// Returns the name of the target's index that makes `on` unique (`_id_` for `_id`), or
    /// mongod's 51183 when `on` names other fields and no unique index covers exactly them.
    pub fn check_target(&self, target: Option<&Collection>) -> Result<Option<String>> {
        let on_index = supporting_index(target, &self.on);
        if self.on_given && on_index.is_none() {
            return Err(EngineError::new(
                51183,
                "Location51183",
                "Cannot find index to verify that join fields will be unique",
            ));
        }
        Ok(on_index)
    }
}

impl Database {
    /// Merges `docs` into `spec.into` document by document; returns the write statistics.
    pub fn write_merge(&mut self, spec: &MergeSpec, docs: Vec<Document>) -> Result<WriteStats> {
        let on_index = spec.check_target(self.collections.get(&spec.into))?;
        let mut total = WriteStats::default();
        for doc in docs {
            self.merge_one(spec, doc, &mut total)
                .map_err(|e| with_context(e, spec, on_index.as_deref()))?;
        }
        Ok(total)
    }

    fn merge_one(&mut self, spec: &MergeSpec, doc: Document, total: &mut WriteStats) -> Result<()> {
        // An `_id` is generated first when `on` includes it and the document has none.
        let doc = if spec.on.iter().any(|f| f == "_id") && !doc.contains_key("_id") {
            let mut d = doc! {"_id": self.next_object_id()};
            d.extend(doc);
            d
        } else {
            doc
        };
        let mut filter = Document::new();
        for f in &spec.on {
            filter.insert(f.clone(), doc! {"$eq": on_value(&doc, f)?});
        }
        let insert = spec.when_not_matched == WhenNotMatched::Insert;
        let update = |update: Document, replace: bool, upsert: bool| UpdateCommand {
            filter: filter.clone(),
            update,
            upsert,
            replace,
            ..Default::default()
        };
        let command = match &spec.when_matched {
            WhenMatched::Fail => {
                let r = self.insert_many(&spec.into, vec![doc], true)?;
                add(total, &r.stats.write);
                return Ok(());
            }
            WhenMatched::Pipeline(stages) => {
                return self.merge_pipeline(spec, stages, filter, doc, total)
            }
            WhenMatched::Replace => update(doc, true, insert),
            WhenMatched::Merge => update(doc! {"$set": doc}, false, insert),
            WhenMatched::KeepExisting => update(doc! {"$setOnInsert": doc}, false, true),
        };
        let r = self.update(&spec.into, &command)?;
        add(total, &r.stats.write);
        if r.stats.write.n_matched == 0 && spec.when_not_matched == WhenNotMatched::Fail {
            return Err(no_match());
        }
        Ok(())
    }

    /// whenMatched as a pipeline: the matched document replaced by what the pipeline makes
    /// of it (with `$$new` and the `let` variables bound); else insert, discard or fail.
    fn merge_pipeline(
        &mut self,
        spec: &MergeSpec,
        stages: &[Document],
        filter: Document,
        doc: Document,
        total: &mut WriteStats,
    ) -> Result<()> {
        let found = self.find(
            &spec.into,
            &FindCommand {
                filter: filter.clone(),
                limit: Some(1),
                ..Default::default()
            },
        )?;
        let Some(target) = found.documents.into_iter().next() else {
            return match spec.when_not_matched {
                WhenNotMatched::Insert => {
                    let r = self.insert_many(&spec.into, vec![doc], true)?;
                    add(total, &r.stats.write);
                    Ok(())
                }
                WhenNotMatched::Discard => Ok(()),
                WhenNotMatched::Fail => Err(no_match()),
            };
        };
        let target = target.into_document();
        let vars: Vec<(String, Option<Bson>)> = spec
            .let_vars
            .iter()
            .map(|(k, e)| Ok((k.clone(), e.eval(&doc)?)))
            .collect::<Result<_>>()?;
        let mut docs = vec![target.clone()];
        let mut stats = Stats::default();
        for s in stages {
            let (_, stage) = parse_stage(&bind_stage(s, &vars))?;
            docs = apply(&stage, docs, &self.collections, &mut stats)?;
        }
        let new = docs.into_iter().next().unwrap_or_default();
        let id = target.get("_id").cloned().unwrap_or(Bson::Null);
        let r = self.update(
            &spec.into,
            &UpdateCommand {
                filter: doc! {"_id": {"$eq": id}},
                update: new,
                replace: true,
                ..Default::default()
            },
        )?;
        add(total, &r.stats.write);
        Ok(())
    }
}

#[cfg(test)]
mod tests;
