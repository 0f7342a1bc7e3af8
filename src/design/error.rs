//! Why a design cannot be laid out.

/// Why a design cannot be laid out.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DesignError {
    /// A strategy that cannot apply to this relationship.
    #[error("relationship \"{relationship}\": {message}")]
    Unsupported {
        /// The relationship.
        relationship: String,
        /// Why.
        message: String,
    },
    /// A field pattern that would give one document more sub-fields than
    /// [`crate::model::design::MAX_SUBFIELDS`] (pre-allocated slots, or a keyed sub-document of that many attributes).
    #[error("entity \"{entity}\", field \"{field}\": {count} sub-fields is more than the {max} a layout may hold", max = crate::model::design::MAX_SUBFIELDS)]
    TooManyFields {
        /// The entity.
        entity: String,
        /// The field the pattern applies to.
        field: String,
        /// How many sub-fields it would make.
        count: u64,
    },
    /// A name the model does not define (models from [`crate::model::parse_model`] never have
    /// these).
    #[error("unknown {what} \"{name}\"")]
    Unknown {
        /// "entity", "relationship" or "field".
        what: &'static str,
        /// The name.
        name: String,
    },
}
