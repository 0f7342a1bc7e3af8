//! `$lookup` by equality (`localField`/`foreignField`): each input document queries the
//! foreign collection with `{ foreignField: { $in: <local values> } }` through the planner, so
//! an index on the foreign field is used when one exists, and its cost is reported.

use crate::engine::collection::Collection;
use crate::engine::error::{EngineError, Result};
use crate::engine::exec;
use crate::engine::path::{self, Item};
use crate::engine::planner::{self, Query};
use crate::engine::query::{Filter, PathOp};
use crate::engine::stats::LookupStats;
use crate::engine::update::fields;
use bson::{Bson, Document};
use std::collections::BTreeMap;

/// A parsed equality `$lookup`.
#[derive(Debug, Clone)]
pub struct LookupSpec {
    /// The foreign collection.
    pub from: String,
    /// The local field path.
    pub local_field: String,
    /// The foreign field path.
    pub foreign_field: String,
    /// The output array field.
    pub as_field: String,
}

impl LookupSpec {
    /// Returns the parsed stage; the pipeline form (`let`/`pipeline`) is refused.
    pub fn parse(d: &Document) -> Result<LookupSpec> {
        if d.contains_key("pipeline") || d.contains_key("let") {
            return Err(EngineError::new(40324, "Location40324", "$lookup with 'pipeline' is not supported by the playground engine; use localField/foreignField"));
        }
        let get = |k: &str| match d.get(k) {
            Some(Bson::String(s)) => Ok(s.clone()),
            _ => Err(EngineError::failed_to_parse(format!(
                "$lookup argument '{k}' must be a string"
            ))),
        };
        Ok(LookupSpec {
            from: get("from")?,
            local_field: get("localField")?,
            foreign_field: get("foreignField")?,
            as_field: get("as")?,
        })
    }

    fn query(&self, doc: &Document) -> Query {
        let mut values = Vec::new();
        for item in path::items(doc, &path::split(&self.local_field), true) {
            match item {
                Item::Missing => values.push(Bson::Null),
                Item::Value(Bson::Array(_)) => {}
                Item::Value(v) => values.push(v.clone()),
            }
        }
        if values.is_empty() {
            // An array field (possibly empty) contributes its elements; `[]` alone matches null.
            if let Some(Bson::Array(a)) = path::get(doc, &path::split(&self.local_field)) {
                if a.is_empty() {
                    values.push(Bson::Null);
                }
            }
        }
        let op = if values.len() == 1 {
            PathOp::Eq(values.remove(0))
        } else {
            PathOp::In(crate::engine::query::comparison::InList::new(values))
        };
        Query::filter(Filter::path(self.foreign_field.clone(), op))
    }

    /// Returns the input documents with the matching foreign documents attached, and the cost.
    pub fn run(
        &self,
        colls: &BTreeMap<String, Collection>,
        docs: Vec<Document>,
    ) -> Result<(Vec<Document>, LookupStats)> {
        let foreign = colls.get(&self.from);
        let mut stats = LookupStats {
            from: self.from.clone(),
            index_name: "COLLSCAN".into(),
            ..Default::default()
        };
        let mut out = Vec::with_capacity(docs.len());
        let target: Vec<String> = self.as_field.split('.').map(str::to_string).collect();
        for mut d in docs {
            let q = self.query(&d);
            let plan = planner::plan(foreign, &q)?;
            if let Some(name) = plan.index_name() {
                stats.index_name = name.to_string();
            }
            let (found, s) = exec::execute(colls, &self.from, &plan)?;
            stats.n_queries += 1;
            stats.keys_examined += s.exec.keys_examined;
            stats.docs_examined += s.exec.docs_examined;
            fields::set(
                &mut d,
                &target,
                Bson::Array(found.into_iter().map(|(_, f)| Bson::Document(f)).collect()),
            )?;
            out.push(d);
        }
        Ok((out, stats))
    }

    /// Returns the index the foreign field's equality would scan (an indexed loop join), if
    /// any: what the plan's `$lookup` stage shows.
    pub fn foreign_index(&self, colls: &BTreeMap<String, Collection>) -> Option<String> {
        let probe = Query::filter(Filter::path(
            self.foreign_field.clone(),
            PathOp::Eq(Bson::Int32(0)),
        ));
        planner::plan(colls.get(&self.from), &probe)
            .ok()
            .and_then(|p| p.index_name().map(str::to_string))
    }
}
