//! The presets' texts in every language: the English of each `presets/NAME.json` and its
//! translations, one file per preset and language under `locales/<code>/presets/NAME.json`,
//! embedded like the presets themselves (see docs/i18n.md for the format, the glossary and how
//! to add a language).
//!
//! A translation file holds the human text of the preset object and nothing else:
//! `{ "title", "lesson", "explanation", "scale_note", "design_labels": { design id → label },
//! "units": { operation name → label } }`.
//! Every key may be missing or empty: that field, or that design's label, falls back to the
//! English, so a partial translation never hides a lesson.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::lang::Lang;

/// The human text of one preset in one language (the translated part of `preset`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PresetText {
    /// The preset's title (`preset.title`).
    #[serde(default)]
    pub title: String,
    /// The one-line lesson (`preset.lesson`).
    #[serde(default)]
    pub lesson: String,
    /// The explanation: paragraphs separated by blank lines (`preset.explanation`).
    #[serde(default)]
    pub explanation: String,
    /// Which counts and rates were chosen and why (`preset.scale_note`).
    #[serde(default)]
    pub scale_note: String,
    /// The title of the published page the preset comes from (`preset.source.title`), when
    /// it comes from one rather than from a source article.
    #[serde(default)]
    pub source_title: String,
    /// Design id → the design's name for people (`preset.design_labels`; in a translation,
    /// one for every design the preset offers, since the English default is the id itself).
    #[serde(default)]
    pub design_labels: BTreeMap<String, String>,
    /// Workload operation name → its name for people in this language (a translation only:
    /// the English is the model's own name, which the JSON outputs, the golden files and the
    /// page's `data-unit` keep). Also the names a design's lifecycle patterns give the
    /// operations they add (`record a reading: readingCount (1 in 100 written)`).
    #[serde(default)]
    pub units: BTreeMap<String, String>,
}

/// Why a translation file could not be read.
#[derive(Debug, thiserror::Error)]
#[error("locales/{lang}/presets/{name}.json: {source}")]
pub struct TranslationError {
    /// The preset.
    pub name: String,
    /// The language of the file.
    pub lang: Lang,
    /// What serde_json said (with line and column).
    #[source]
    pub source: serde_json::Error,
}

impl PresetText {
    /// Returns the text of a translation file (`locales/<code>/presets/NAME.json`); unknown
    /// keys are an error, so a misspelt field cannot silently fall back to English.
    pub fn parse(text: &str) -> Result<PresetText, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// Returns the English text of a preset model file (its `preset` object; empty fields
    /// where it has none).
    pub fn english(model_text: &str) -> PresetText {
        let v: serde_json::Value = serde_json::from_str(model_text).unwrap_or_default();
        let meta = v.get("preset");
        let get = |k: &str| {
            meta.and_then(|p| p.get(k))
                .and_then(|x| x.as_str())
                .unwrap_or_default()
                .to_string()
        };
        let design_labels = meta
            .and_then(|p| p.get("design_labels"))
            .and_then(|l| l.as_object())
            .map(|l| {
                l.iter()
                    .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string())))
                    .collect()
            })
            .unwrap_or_default();
        PresetText {
            title: get("title"),
            lesson: get("lesson"),
            explanation: get("explanation"),
            scale_note: get("scale_note"),
            source_title: meta
                .and_then(|p| p.get("source"))
                .and_then(|s| s.get("title"))
                .and_then(|t| t.as_str())
                .unwrap_or_default()
                .to_string(),
            design_labels,
            units: BTreeMap::new(),
        }
    }

    /// Returns this text with every empty field (and every missing design label) taken from
    /// `fallback`.
    pub fn or(mut self, fallback: &PresetText) -> PresetText {
        for (mine, theirs) in [
            (&mut self.title, &fallback.title),
            (&mut self.lesson, &fallback.lesson),
            (&mut self.explanation, &fallback.explanation),
            (&mut self.scale_note, &fallback.scale_note),
            (&mut self.source_title, &fallback.source_title),
        ] {
            if mine.trim().is_empty() {
                mine.clone_from(theirs);
            }
        }
        self.design_labels.retain(|_, l| !l.trim().is_empty());
        self.units.retain(|_, l| !l.trim().is_empty());
        for (id, label) in &fallback.design_labels {
            self.design_labels
                .entry(id.clone())
                .or_insert_with(|| label.clone());
        }
        self
    }
}
