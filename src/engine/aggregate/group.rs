//! `$group` with the accumulators `$sum $avg $min $max $push $addToSet $first $last $count`.

use crate::engine::compare::{equal, OrdBson};
use crate::engine::error::{EngineError, Result};
use crate::engine::expr::{arithmetic::fold, Expr};
use bson::{Bson, Document};
use std::collections::BTreeMap;

/// A parsed `$group`.
#[derive(Debug, Clone)]
pub struct GroupSpec {
    /// The group key expression.
    pub id: Expr,
    /// Output field, accumulator name and its expression.
    pub accumulators: Vec<(String, String, Expr)>,
}

impl GroupSpec {
    /// Returns the parsed `$group` (`_id` required; unknown accumulators are error 15952).
    pub fn parse(spec: &Document) -> Result<GroupSpec> {
        let id = match spec.get("_id") {
            Some(v) => Expr::parse(v)?,
            None => {
                return Err(EngineError::new(
                    15955,
                    "Location15955",
                    "a group specification must include an _id",
                ))
            }
        };
        let mut accumulators = Vec::new();
        for (field, v) in spec {
            if field == "_id" {
                continue;
            }
            if field.contains('.') {
                return Err(EngineError::new(
                    40235,
                    "Location40235",
                    format!("The field name '{field}' cannot contain '.'"),
                ));
            }
            let Bson::Document(d) = v else {
                return Err(EngineError::new(
                    40234,
                    "Location40234",
                    format!("The field '{field}' must be an accumulator object"),
                ));
            };
            let Some((name, arg)) = d.iter().next().filter(|_| d.len() == 1) else {
                return Err(EngineError::new(
                    40238,
                    "Location40238",
                    format!("The field '{field}' must specify one accumulator"),
                ));
            };
            match name.as_str() {
                "$sum" | "$avg" | "$min" | "$max" | "$push" | "$addToSet" | "$first" | "$last" => {}
                "$count" => {}
                "$accumulator" | "$function" => return Err(EngineError::no_javascript(name)),
                other => {
                    return Err(EngineError::new(
                        15952,
                        "Location15952",
                        format!("unknown group operator '{other}'"),
                    ))
                }
            }
            let expr = if name == "$count" {
                Expr::Literal(Bson::Int32(1))
            } else {
                Expr::parse(arg)?
            };
            accumulators.push((field.clone(), name.clone(), expr));
        }
        Ok(GroupSpec { id, accumulators })
    }

    /// Returns one document per distinct key, in order of first appearance.
    pub fn run(&self, docs: &[Document]) -> Result<Vec<Document>> {
        let mut index: BTreeMap<OrdBson, usize> = BTreeMap::new();
        let mut groups: Vec<(Bson, Vec<Vec<Option<Bson>>>)> = Vec::new();
        for d in docs {
            let key = self.id.eval(d)?.unwrap_or(Bson::Null);
            let slot = match index.get(&OrdBson(key.clone())) {
                Some(i) => *i,
                None => {
                    index.insert(OrdBson(key.clone()), groups.len());
                    groups.push((key, vec![Vec::new(); self.accumulators.len()]));
                    groups.len() - 1
                }
            };
            let Some((_, values)) = groups.get_mut(slot) else {
                continue;
            };
            for ((_, _, e), list) in self.accumulators.iter().zip(values.iter_mut()) {
                list.push(e.eval(d)?);
            }
        }
        let mut out = Vec::new();
        for (key, values) in groups {
            let mut doc = Document::new();
            doc.insert("_id", key);
            for ((field, name, _), list) in self.accumulators.iter().zip(values) {
                doc.insert(field.clone(), accumulate(name, list));
            }
            out.push(doc);
        }
        Ok(out)
    }
}

fn accumulate(name: &str, list: Vec<Option<Bson>>) -> Bson {
    match name {
        "$first" => list.into_iter().next().flatten().unwrap_or(Bson::Null),
        "$last" => list.into_iter().last().flatten().unwrap_or(Bson::Null),
        "$push" => Bson::Array(list.into_iter().flatten().collect()),
        "$addToSet" => {
            let mut set: Vec<Bson> = Vec::new();
            for v in list.into_iter().flatten() {
                if !set.iter().any(|x| equal(x, &v)) {
                    set.push(v);
                }
            }
            Bson::Array(set)
        }
        "$count" => fold("$sum", &list.into_iter().flatten().collect::<Vec<_>>()),
        other => fold(other, &list.into_iter().flatten().collect::<Vec<_>>()),
    }
}
