//! The workshop presets: one model file per scenario of the source articles, embedded in the
//! binary (and the page) from `presets/*.json`. The engine knows none of them by name: each is
//! plain model data with a `preset` object (title, lesson, source, explanation, designs).
//!
//! Their human text also exists in 简体中文: `locales/zh-CN/presets/NAME.json`, one file per
//! preset (every preset must have one: the build fails without it), compiled into the CLI and
//! fetched by the page with the rest of its language ([`crate::lang::translations`]), and read
//! through [`Preset::text`] with English as the fallback of every field ([`locale`];
//! docs/i18n.md says how to add a language).

pub mod locale;

use crate::lang::Lang;
use crate::model::{parse_model, Model, ModelErrors};

pub use locale::{PresetText, TranslationError};

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
        /// Every compiled-in translation file (name, language, text): one per preset and
        /// language but English, in the order of [`FILES`]. The page supplies its own at run
        /// time instead ([`crate::lang::translations`]).
        #[cfg(not(feature = "supplied-translations"))]
        const TRANSLATIONS: &[(&str, Lang, &str)] = &[
            $(($name, Lang::ZhCn, include_str!(concat!("../locales/zh-CN/presets/", $name, ".json"))),)*
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
    "category-tree",
    "product-catalog",
    "sensor-readings",
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

/// Returns the translation files there are now as (preset name, language, file text), for the
/// tests that check them.
pub fn translation_files() -> Vec<(&'static str, Lang, &'static str)> {
    Lang::ALL
        .into_iter()
        .filter_map(|lang| Some((lang, crate::lang::translations::translation(lang)?)))
        .flat_map(|(lang, t)| {
            t.presets
                .iter()
                .map(move |&(name, text)| (name, lang, text))
        })
        .collect()
}

/// Returns the compiled-in translation files of `lang` as (preset name, file text), what
/// [`crate::lang::translations`] holds for it.
#[cfg(not(feature = "supplied-translations"))]
pub(crate) fn compiled_translations(lang: Lang) -> Vec<(&'static str, &'static str)> {
    TRANSLATIONS
        .iter()
        .filter(|&&(_, l, _)| l == lang)
        .map(|&(name, _, text)| (name, text))
        .collect()
}

/// Returns the translation of `name` into `lang` as written (not completed from the English):
/// `None` for English, a preset without a file or a translation not supplied yet, an error for
/// a file that does not parse.
pub fn translation(name: &str, lang: Lang) -> Option<Result<PresetText, TranslationError>> {
    let text = crate::lang::translations::translation(lang)?.preset(name)?;
    Some(PresetText::parse(text).map_err(|source| TranslationError {
        name: name.to_string(),
        lang,
        source,
    }))
}

/// Every preset's text in one language, completed from the English, parsed once per language
/// (and not before the language's translation is there: the page supplies it at run time).
static TEXTS: [std::sync::OnceLock<Vec<(&'static str, PresetText)>>; 2] =
    [std::sync::OnceLock::new(), std::sync::OnceLock::new()];

/// Returns every preset's text in `lang`, or in English while `lang`'s translation is missing.
fn texts(lang: Lang) -> &'static [(&'static str, PresetText)] {
    let lang = if crate::lang::is_available(lang) {
        lang
    } else {
        Lang::En
    };
    let cell = match lang {
        Lang::En => &TEXTS[0],
        Lang::ZhCn => &TEXTS[1],
    };
    cell.get_or_init(|| {
        FILES
            .iter()
            .map(|&(name, text)| {
                let en = PresetText::english(text);
                let t = match translation(name, lang) {
                    // A file that does not parse is English (tests/suite/preset_locales.rs fails
                    // on it; the page must not).
                    Some(Ok(t)) => t.or(&en),
                    Some(Err(_)) | None => en,
                };
                (name, t)
            })
            .collect()
    })
}

impl Preset {
    /// Returns the preset's model (with its `preset` metadata).
    pub fn model(&self) -> Result<Model, ModelErrors> {
        parse_model(self.text)
    }

    /// Returns the preset's title, lesson, explanation, scale note and design labels in
    /// `lang`, each field in English where the translation has none. Design labels hold the
    /// translated label of every design that has one and the preset's English labels
    /// otherwise; [`Preset::design_label`] adds the id-as-words default.
    pub fn text(&self, lang: Lang) -> &'static PresetText {
        static EMPTY: PresetText = PresetText {
            title: String::new(),
            lesson: String::new(),
            explanation: String::new(),
            scale_note: String::new(),
            source_title: String::new(),
            design_labels: std::collections::BTreeMap::new(),
            units: std::collections::BTreeMap::new(),
        };
        texts(lang)
            .iter()
            .find(|(n, _)| *n == self.name)
            .map_or(&EMPTY, |(_, t)| t)
    }

    /// Returns how `lang` names the preset's workload operation `unit`: its translated label,
    /// else the name itself (a name the user gave, or English).
    pub fn unit_label(&self, unit: &str, lang: Lang) -> String {
        self.text(lang)
            .units
            .get(unit)
            .cloned()
            .unwrap_or_else(|| unit.to_string())
    }

    /// Returns how `lang` names the preset's design `id`: its translated label, else the
    /// preset's English label, else the id as words (`one-query` → `One-query`).
    pub fn design_label(&self, id: &str, lang: Lang) -> String {
        self.text(lang)
            .design_labels
            .get(id)
            .cloned()
            .unwrap_or_else(|| crate::eval::offer::label(id))
    }
}
