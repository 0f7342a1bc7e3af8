//! The workshop presets: one model file per scenario of the source articles, embedded in the
//! binary (and the page) from `presets/*.json`. The engine knows none of them by name: each is
//! plain model data with a `preset` object (title, lesson, source, explanation, designs).

use crate::model::{parse_model, Model, ModelErrors};

/// One preset: its name, title, lesson and the text of its model file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preset {
    /// File name without `.json` (`social-graph`).
    pub name: &'static str,
    /// Title (`preset.title`; the name when the file has none).
    pub title: String,
    /// The one-line lesson (`preset.lesson`; empty when the file has none).
    pub lesson: String,
    /// The model file's text (JSON, with a `preset` object).
    pub text: &'static str,
}

/// Why a preset name was not found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown preset \"{name}\"; known presets: {}", known_names().join(", "))]
pub struct UnknownPreset {
    /// The name asked for.
    pub name: String,
}

macro_rules! files {
    ($($name:literal),* $(,)?) => {
        /// Every preset file (name, text), in workshop order (the articles' order).
        const FILES: &[(&str, &str)] = &[
            $(($name, include_str!(concat!("../presets/", $name, ".json"))),)*
        ];
    };
}

files![
    "social-graph",
    "shopping-cart",
    "blog",
    "image-board",
    "page-analytics",
    "game-inventory",
    "fruit-totals",
    "person-addresses",
    "product-parts",
    "host-logs",
    "person-tasks",
    "movie-prices",
    "social-feed",
    "message-attachments",
];

static PRESETS: std::sync::OnceLock<Vec<Preset>> = std::sync::OnceLock::new();

/// Returns every preset, in workshop order.
pub fn all() -> &'static [Preset] {
    PRESETS.get_or_init(|| {
        FILES
            .iter()
            .map(|&(name, text)| {
                let v: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
                let meta = |k: &str| {
                    v.get("preset")
                        .and_then(|p| p.get(k))
                        .and_then(|x| x.as_str())
                        .map(str::to_string)
                };
                Preset {
                    name,
                    title: meta("title").unwrap_or_else(|| name.to_string()),
                    lesson: meta("lesson").unwrap_or_default(),
                    text,
                }
            })
            .collect()
    })
}

/// Returns the preset called `name`.
pub fn get(name: &str) -> Option<&'static Preset> {
    all().iter().find(|p| p.name == name)
}

/// Returns the preset called `name`, or an error listing the known names.
pub fn find(name: &str) -> Result<&'static Preset, UnknownPreset> {
    get(name).ok_or_else(|| UnknownPreset {
        name: name.to_string(),
    })
}

/// Returns the names of every preset, in workshop order.
pub fn known_names() -> Vec<&'static str> {
    FILES.iter().map(|&(n, _)| n).collect()
}

impl Preset {
    /// Returns the preset's model (with its `preset` metadata).
    pub fn model(&self) -> Result<Model, ModelErrors> {
        parse_model(self.text)
    }
}
