//! `CASE_INSENSITIVE_WITHOUT_INDEX`: a `read` by a string field whatever its case, run as a
//! `$regex` `/^value$/i` because no index on the field has a case-insensitive collation. No
//! index bounds such a regex: mongod examines every key of an index on the field (or every
//! document), which the message gives at full scale. The fix is MongoDB's: an index with the
//! collation `{ locale: "en", strength: 2 }` and the query under the same collation (the
//! `case_insensitive_index` field pattern). Source: MongoDB's anti-pattern "Case-Insensitive
//! Queries Without Case-Insensitive Indexes".

use super::warning;
use crate::eval::OperationEval;
use crate::human::thousands;
use crate::lang::Text;
use crate::model::design::FieldPattern;
use crate::model::{Model, Step};
use crate::warning::Warning;

/// Returns the warning for every case-insensitive read of `o`'s unit that no
/// case-insensitive index serves.
pub(super) fn case_insensitive(model: &Model, o: &OperationEval, out: &mut Vec<Warning>) {
    let Some(unit) = model.workload.iter().find(|u| u.name == o.unit) else {
        return;
    };
    for (i, step) in unit.steps.iter().enumerate() {
        let Step::Read {
            entity,
            by,
            case_insensitive: true,
            ..
        } = step
        else {
            continue;
        };
        let indexed = model.design.fields.iter().any(|f| {
            matches!(f, FieldPattern::CaseInsensitiveIndex { entity: e, field } if e == entity && field == by)
        });
        if indexed {
            continue;
        }
        let collation = crate::design::plan::shell(&bson::Bson::Document(
            crate::design::plan::case_insensitive_collation(),
        ));
        // The step's find: its first command.
        let Some(c) = o.typical.commands.iter().find(|c| c.step == i) else {
            continue;
        };
        let scanned = if c.plan == "COLLSCAN" {
            Text::new("case-insensitive-collscan")
                .arg("examined", thousands(c.full.docs_examined.value as u64))
        } else {
            Text::new("case-insensitive-ixscan")
                .arg("index", &c.plan)
                .arg("keys", thousands(c.full.keys_examined.value as u64))
        };
        out.push(warning(
            "CASE_INSENSITIVE_WITHOUT_INDEX",
            &c.collection,
            by,
            Text::new("case-insensitive-without-index")
                .arg("unit", &o.unit)
                .arg("command", &c.mongosh)
                .nested("scanned", scanned),
            Text::new("case-insensitive-without-index-fix")
                .arg(
                    "create",
                    format!(
                        "db.{}.createIndex({{ {by}: 1 }}, {{ collation: {collation} }})",
                        c.collection
                    ),
                )
                .arg("query", format!(".collation({collation})"))
                .arg("pattern", format!("case_insensitive_index ({entity}.{by})")),
        ));
    }
}
