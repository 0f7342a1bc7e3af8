//! Preset metadata: the optional top-level `preset` object that turns a model into a workshop
//! preset (title, one-line lesson, source article, explanation, the designs it offers).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::design::{DesignName, DesignSpec};

/// What a preset says about itself, next to its model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct PresetMeta {
    /// Title shown on the preset list ("Social graph: who follows whom").
    #[cfg_attr(not(target_arch = "wasm32"), schemars(length(min = 1)))]
    pub title: String,
    /// The lesson in one line.
    #[cfg_attr(
        not(target_arch = "wasm32"),
        schemars(length(min = 1), regex(pattern = r"^[^\n]*$"))
    )]
    pub lesson: String,
    /// Where the lesson comes from.
    pub source: PresetSource,
    /// What the scenario is, what the article recommends and why, which numbers show it
    /// (plain text, paragraphs separated by blank lines).
    #[cfg_attr(not(target_arch = "wasm32"), schemars(length(min = 1)))]
    pub explanation: String,
    /// Which counts and rates were chosen and why.
    #[cfg_attr(not(target_arch = "wasm32"), schemars(length(min = 1)))]
    pub scale_note: String,
    /// The designs the preset offers, in order: `normalized`, `denormalized`, `bucketed` or a
    /// name from `custom_designs`.
    #[cfg_attr(not(target_arch = "wasm32"), schemars(length(min = 1)))]
    pub designs: Vec<String>,
    /// Named per-relationship mixes (the article's recommended design when it is a mix).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub custom_designs: BTreeMap<String, DesignSpec>,
    /// Design name → the sharding that design uses instead of the model's (fan-out on read
    /// is sharded by author, fan-out on write by owner).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub design_sharding: BTreeMap<String, super::Sharding>,
    /// Design name → how the design bar, the comparison and the charts name it, where the id
    /// read as words would not do (`tbc` → "Continuation (tbc)", `gridfs` → "GridFS"); the
    /// other designs show their id capitalized, underscores as spaces.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub design_labels: BTreeMap<String, String>,
}

/// Where a preset's lesson comes from: one of the source articles (`article`, with its tips),
/// or a published page (`title` and `url`: a page of the MongoDB manual, an article of
/// MongoDB's "Building with Patterns" series). Validation asks for one or the other.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct PresetSource {
    /// Article id (`000` … `004`, the seed file's number).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub article: Option<String>,
    /// The published page's title, as its publisher gives it ("Model Tree Structures"); a
    /// translation file may give it in its language (`source_title`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The published page's address (`https://…`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Tip numbers within the article (article 001 numbers its tips), empty when it has none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tips: Vec<u32>,
}

impl PresetMeta {
    /// Returns the design called `name`: a named design (keeping `fields`, the model's field
    /// patterns) or one of `custom_designs`.
    pub fn design(&self, name: &str, fields: &DesignSpec) -> Option<DesignSpec> {
        if let Some(d) = self.custom_designs.get(name) {
            return Some(d.clone());
        }
        let base = DesignName::from_name(name)?;
        Some(DesignSpec::named(base, fields))
    }
}
