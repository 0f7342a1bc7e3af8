//! What a command cost, as explain("executionStats") and the write results report it.

use crate::engine::plan::PlanStage;
use serde::Serialize;

/// Read statistics: what the winning plan examined and returned.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExecStats {
    /// Documents returned to the client (after skip, limit and projection).
    pub n_returned: u64,
    /// Index keys read, including keys outside the bounds that the scan had to look at.
    pub keys_examined: u64,
    /// Documents loaded (by a COLLSCAN or a FETCH).
    pub docs_examined: u64,
    /// The plan that produced these numbers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub execution_stages: Option<PlanStage>,
}

/// Write statistics: what an insert, update or delete changed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WriteStats {
    /// Documents the update's filter matched.
    pub n_matched: u64,
    /// Documents actually changed.
    pub n_modified: u64,
    /// Documents inserted by an upsert.
    pub n_upserted: u64,
    /// Documents deleted.
    pub n_deleted: u64,
    /// Documents inserted.
    pub n_inserted: u64,
    /// Documents written: inserted, changed, upserted or deleted.
    pub docs_written: u64,
    /// The encoded sizes of the documents inserted, updated or replaced, as written.
    pub bytes_written: u64,
    /// Index keys inserted plus index keys deleted, over all indexes (including `_id_`).
    pub index_keys_written: u64,
}

/// The cost of one `$lookup`: how the foreign collection was searched.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LookupStats {
    /// The foreign collection.
    pub from: String,
    /// The foreign index used, or `COLLSCAN`.
    pub index_name: String,
    /// Searches made (one per input document).
    pub n_queries: u64,
    /// Foreign index keys examined.
    pub keys_examined: u64,
    /// Foreign documents examined.
    pub docs_examined: u64,
}

/// Everything a command reports.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Stats {
    /// Read statistics of the command's query part.
    #[serde(flatten)]
    pub exec: ExecStats,
    /// Write statistics.
    #[serde(flatten)]
    pub write: WriteStats,
    /// One entry per `$lookup` stage.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lookups: Vec<LookupStats>,
}
