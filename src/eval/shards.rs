//! Shard routing: which shards a command reaches, from the bound filter and the collection's
//! shard key (targeted, several shards, or scatter-gather).

use bson::{Bson, Document};
use serde::{Deserialize, Serialize};

use crate::design::{CommandKind, Layout};
use crate::model::Model;

/// How a command reaches the shards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Routing {
    /// The cluster or the collection is not sharded: one shard (the primary).
    Unsharded,
    /// Equality on the shard key (or its prefix for ranged keys): one shard.
    Targeted,
    /// Several shards, each targeted (`$in` on the shard key, one write per follower).
    Multi,
    /// No shard key in the filter: every shard, and the router waits for the slowest.
    ScatterGather,
}

/// Which shards a command reaches.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShardRouting {
    /// How.
    pub routing: Routing,
    /// Shards reached.
    pub touched: u32,
    /// Shards in the cluster (1 when not sharded).
    pub shards: u32,
    /// The collection's shard key, if sharded.
    pub shard_key: Option<serde_json::Value>,
}

/// Returns true when `v` (a filter value) is an equality.
fn is_equality(v: &Bson) -> bool {
    match v {
        Bson::Document(d) => {
            d.keys().all(|k| !k.starts_with('$')) || (d.len() == 1 && d.contains_key("$eq"))
        }
        Bson::Null => false,
        _ => true,
    }
}

/// Returns how a command with `filter` (bound) on `collection` reaches the shards; `writes`
/// is the number of documents a fan-out writes (one routing each).
pub(super) fn route(
    model: &Model,
    layout: &Layout,
    collection: &str,
    kind: CommandKind,
    filter: &Document,
    writes: Option<u64>,
) -> ShardRouting {
    let shards = model.sharding.as_ref().map_or(1, |s| s.shards.max(1));
    let key = layout
        .collection(collection)
        .and_then(|c| c.shard_key.clone());
    let Some(key) = key.filter(|_| shards > 1) else {
        return ShardRouting {
            routing: Routing::Unsharded,
            touched: 1,
            shards,
            shard_key: None,
        };
    };
    let out = |routing, touched: u32| ShardRouting {
        routing,
        touched: touched.clamp(1, shards),
        shards,
        shard_key: Some(crate::design::plan::doc_to_json(&key)),
    };
    if let Some(n) = writes {
        let t = u32::try_from(n.min(u64::from(shards))).unwrap_or(shards);
        return out(
            if t > 1 {
                Routing::Multi
            } else {
                Routing::Targeted
            },
            t,
        );
    }
    if kind == CommandKind::Insert {
        return out(Routing::Targeted, 1);
    }
    let hashed = key.values().any(|v| v.as_str() == Some("hashed"));
    let fields: Vec<&String> = key.keys().collect();
    let eq = |f: &str| filter.get(f).is_some_and(is_equality);
    let targeted = if hashed {
        fields.iter().all(|f| eq(f))
    } else {
        fields.first().is_some_and(|f| eq(f))
    };
    if targeted {
        return out(Routing::Targeted, 1);
    }
    if let Some(Bson::Document(d)) = fields.first().and_then(|f| filter.get(f.as_str())) {
        if let Some(Bson::Array(a)) = d.get("$in") {
            let t = u32::try_from(a.len()).unwrap_or(u32::MAX).min(shards);
            return out(
                if t >= shards {
                    Routing::ScatterGather
                } else {
                    Routing::Multi
                },
                t,
            );
        }
    }
    out(Routing::ScatterGather, shards)
}
