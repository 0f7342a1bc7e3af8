//! The engine's one error type: MongoDB's numeric code, its codeName and mongod's message.

use std::fmt;

/// An error as mongod would report it: `{ ok: 0, code, codeName, errmsg }`.
///
/// Carries the numeric code and name so that users who know MongoDB recognise it, and, for an
/// ordered batch insert, how many documents were written before the failure.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct EngineError {
    /// MongoDB's numeric error code (e.g. 11000).
    pub code: i32,
    /// MongoDB's codeName (e.g. `DuplicateKey`).
    pub code_name: &'static str,
    /// The message mongod gives, as close to its wording as the engine can make it.
    pub message: String,
    /// For a batch insert: how many documents were inserted before the error stopped it.
    pub n_inserted: Option<u64>,
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (code {} {})",
            self.message, self.code, self.code_name
        )
    }
}

/// Shorthand for results of engine operations.
pub type Result<T> = std::result::Result<T, EngineError>;

impl EngineError {
    /// Returns an error with the given code, name and message.
    pub fn new(code: i32, code_name: &'static str, message: impl Into<String>) -> Self {
        EngineError {
            code,
            code_name,
            message: message.into(),
            n_inserted: None,
        }
    }

    /// Returns the codeName in words (`## Engine errors`: DuplicateKey → "Duplicate key",
    /// 重复键), for the views that lead mongod's own message with their language's words; a
    /// code without a name of its own (`Location17419`) is a server error.
    pub fn lead(&self) -> crate::lang::Text {
        crate::lang::Text::new(match self.code_name {
            "BadValue" => "engine-error-bad-value",
            "FailedToParse" => "engine-error-failed-to-parse",
            "TypeMismatch" => "engine-error-type-mismatch",
            "PathNotViable" => "engine-error-path-not-viable",
            "ConflictingUpdateOperators" => "engine-error-conflicting-update-operators",
            "ImmutableField" => "engine-error-immutable-field",
            "BSONObjectTooLarge" => "engine-error-bson-object-too-large",
            "Overflow" => "engine-error-overflow",
            "DuplicateKey" => "engine-error-duplicate-key",
            "CannotIndexParallelArrays" => "engine-error-cannot-index-parallel-arrays",
            "InvalidPipelineOperator" => "engine-error-invalid-pipeline-operator",
            "IndexNotFound" => "engine-error-index-not-found",
            "InternalError" => "engine-error-internal",
            _ => "engine-error-other",
        })
    }

    /// Returns code 2 BadValue: a malformed argument.
    pub fn bad_value(message: impl Into<String>) -> Self {
        Self::new(2, "BadValue", message)
    }

    /// Returns code 9 FailedToParse: a command or stage that cannot be read.
    pub fn failed_to_parse(message: impl Into<String>) -> Self {
        Self::new(9, "FailedToParse", message)
    }

    /// Returns code 14 TypeMismatch.
    pub fn type_mismatch(message: impl Into<String>) -> Self {
        Self::new(14, "TypeMismatch", message)
    }

    /// Returns code 28 PathNotViable: an update path runs through a scalar.
    pub fn path_not_viable(message: impl Into<String>) -> Self {
        Self::new(28, "PathNotViable", message)
    }

    /// Returns code 40 ConflictingUpdateOperators for two update paths that overlap.
    pub fn conflict(path: &str, conflict: &str) -> Self {
        Self::new(
            40,
            "ConflictingUpdateOperators",
            format!("Updating the path '{path}' would create a conflict at '{conflict}'"),
        )
    }

    /// Returns code 66 ImmutableField for an update that changes `_id`.
    pub fn immutable_id() -> Self {
        Self::new(
            66,
            "ImmutableField",
            "Performing an update on the path '_id' would modify the immutable field '_id'",
        )
    }

    /// Returns code 10334 BSONObjectTooLarge for a document over 16 MiB.
    pub fn too_large(size: u64) -> Self {
        Self::new(
            10334,
            "BSONObjectTooLarge",
            format!(
                "object to insert too large. size in bytes: {size}, max size: {}",
                crate::size::MAX_BSON_SIZE
            ),
        )
    }

    /// Returns code 17419 for an update whose resulting document exceeds 16 MiB.
    pub fn update_too_large(size: u64) -> Self {
        Self::new(
            17419,
            "Location17419",
            format!(
                "Resulting document after update is larger than {} (size: {size})",
                crate::size::MAX_BSON_SIZE
            ),
        )
    }

    /// Returns code 15 Overflow for a document nested deeper than the documented 100 levels.
    pub fn too_deep(depth: usize) -> Self {
        Self::new(
            15,
            "Overflow",
            format!(
                "cannot insert document because it exceeds 100 levels of nesting (depth {depth})"
            ),
        )
    }

    /// Returns code 11000 DuplicateKey with mongod's E11000 message.
    pub fn duplicate_key(namespace: &str, index: &str, key: &str) -> Self {
        Self::new(
            11000,
            "DuplicateKey",
            format!(
                "E11000 duplicate key error collection: {namespace} index: {index} dup key: {key}"
            ),
        )
    }

    /// Returns code 171 CannotIndexParallelArrays.
    pub fn parallel_arrays(a: &str, b: &str) -> Self {
        Self::new(
            171,
            "CannotIndexParallelArrays",
            format!("cannot index parallel arrays [{b}] [{a}]"),
        )
    }

    /// Returns the refusal for server-side JavaScript, which the playground never runs.
    pub fn no_javascript(what: &str) -> Self {
        Self::new(
            2,
            "BadValue",
            format!("{what} runs server-side JavaScript; the playground never runs user code"),
        )
    }

    /// Returns code 40324 for an aggregation stage the engine does not know.
    pub fn unknown_stage(name: &str) -> Self {
        Self::new(
            40324,
            "Location40324",
            format!("Unrecognized pipeline stage name: '{name}'"),
        )
    }

    /// Returns code 168 InvalidPipelineOperator for an unknown expression operator.
    pub fn unknown_expression(name: &str) -> Self {
        Self::new(
            168,
            "InvalidPipelineOperator",
            format!("Unrecognized expression '{name}'"),
        )
    }

    /// Returns code 31254 for a projection mixing exclusion into inclusion.
    pub fn projection_exclusion_in_inclusion(path: &str) -> Self {
        Self::new(
            31254,
            "Location31254",
            format!("Cannot do exclusion on field {path} in inclusion projection"),
        )
    }

    /// Returns code 31253 for a projection mixing inclusion into exclusion.
    pub fn projection_inclusion_in_exclusion(path: &str) -> Self {
        Self::new(
            31253,
            "Location31253",
            format!("Cannot do inclusion on field {path} in exclusion projection"),
        )
    }

    /// Returns code 27 IndexNotFound.
    pub fn index_not_found(name: &str) -> Self {
        Self::new(
            27,
            "IndexNotFound",
            format!("index not found with name [{name}]"),
        )
    }

    /// Returns a copy recording how many documents a batch inserted before this error.
    pub fn with_inserted(mut self, n: u64) -> Self {
        self.n_inserted = Some(n);
        self
    }
}
