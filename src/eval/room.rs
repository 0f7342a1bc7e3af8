//! Whether a continuation append finds room, at full scale: the sample cuts the celebrity's
//! `followers` at a few thousand ids, so only the arithmetic knows that the parent (and its
//! last continuation document) is full, and which of the plan's conditional commands run.

use bson::Bson;

use super::run::Ctx;
use crate::design::{Command, CommandKind, Strategy};

/// Returns whether the document a continuation room check targets has room at full scale, for
/// an update filtering `{_id: …, "<array>.<threshold − 1>": {$exists: false}}` on the parent's
/// collection (`None` for any other command). The subject parent holds `n` children at its
/// quantile: the parent is full once `n ≥ threshold`; its continuation documents number
/// ⌈n ÷ threshold⌉ − 1 and fill in order, so the last one has room unless
/// `n mod threshold = 0` (or there is none).
pub(super) fn at_full_scale(ctx: &Ctx, c: &Command, q: f64) -> Option<bool> {
    if c.kind != CommandKind::Update {
        return None;
    }
    ctx.model.relationships.iter().find_map(|r| {
        let Some(Strategy::Continuation { threshold }) = ctx.layout.strategy(&r.name) else {
            return None;
        };
        let t = *threshold;
        let key = room_key(r.array_field(), t);
        if t == 0 || c.collection != ctx.layout.collection_name(&r.parent) {
            return None;
        }
        c.filter.get(&key)?;
        if on_new_parent(c) {
            return None;
        }
        let n = r.cardinality.count_at(q);
        let on_parent = matches!(
            c.filter.get("_id"),
            Some(Bson::Document(p)) if p.get("$param") == Some(&Bson::String(format!("{}._id", r.parent)))
        );
        Some(if on_parent {
            n < t
        } else {
            n.div_ceil(t) > 1 && n % t != 0
        })
    })
}

/// Returns the full-scale bytes of the last continuation document after an append to it, for
/// a room check on a continuation document: `{_id, <array>: [n mod threshold + 1 ids]}`
/// (`None` for a check on the parent, or any other command).
pub(super) fn appended_bytes(ctx: &Ctx, c: &Command, q: f64) -> Option<u64> {
    use crate::arith::{array_size, element_size};
    ctx.model.relationships.iter().find_map(|r| {
        let Some(Strategy::Continuation { threshold }) = ctx.layout.strategy(&r.name) else {
            return None;
        };
        let t = *threshold;
        let own = Some(&Bson::Document(
            bson::doc! { "$param": format!("{}._id", r.parent) },
        ));
        if t == 0
            || c.collection != ctx.layout.collection_name(&r.parent)
            || c.filter.get(room_key(r.array_field(), t)).is_none()
            || c.filter.get("_id") == own
            || on_new_parent(c)
        {
            return None;
        }
        let ids = r.cardinality.count_at(q) % t + 1;
        let arr = element_size(r.array_field(), array_size(ids, 12));
        Some(4 + element_size("_id", 12) + arr + 1)
    })
}

/// Returns the field whose absence says an array of `threshold` slots has room
/// (`followers.99999`).
pub(super) fn room_key(array: &str, threshold: u64) -> String {
    format!("{array}.{}", threshold.saturating_sub(1))
}

/// Returns `filter` without its room clause: the document the check finds, full or not.
pub(super) fn without_room(filter: &bson::Document) -> bson::Document {
    filter
        .iter()
        .filter(|(_, v)| {
            !matches!(v, Bson::Document(d) if d.len() == 1 && d.get("$exists") == Some(&Bson::Boolean(false)))
        })
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// Returns whether a room check is on a reassign's new parent or its chain (`new_parent._id`,
/// `new_parent.tbc.at(-1)`): another parent than the subject, whose full-scale count the
/// subject's quantile does not give, so the sample's own documents decide.
fn on_new_parent(c: &Command) -> bool {
    matches!(
        c.filter.get("_id"),
        Some(Bson::Document(p)) if matches!(p.get("$param"), Some(Bson::String(s)) if s.starts_with("new_parent."))
    )
}
