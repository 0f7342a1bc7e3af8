//! The translations of every language but English: compiled in, or supplied at run time.
//!
//! The command-line tool and the tests carry every translation in the binary (`include_str!`
//! of `locales/<code>/`). The page does not: an English visitor would download the Chinese
//! catalogues (about 47 KB gzip of a module whose bytes decide the first paint) and never read
//! them. Built with the `supplied-translations` feature (index.html), the page's modules carry
//! English only, and the page fetches `<code>.json` (written by `scripts/translations.mjs` at
//! build time) when the language is first chosen, then hands it over with [`supply`]; the
//! service worker keeps it for offline use (docs/size.md, "Modules by when they are needed").
//!
//! English is never a translation: it is the source text and every language's fallback, so it
//! is always there.

use super::Lang;

/// One language's translated texts, as its `locales/<code>/` folder holds them.
#[derive(Debug)]
pub struct Translation {
    /// The page's words (`page.ftl`).
    pub page: &'static str,
    /// The core's messages (`messages.ftl`).
    pub messages: &'static str,
    /// Each preset's texts (`presets/NAME.json`), by preset name.
    pub presets: Vec<(&'static str, &'static str)>,
}

impl Translation {
    /// Returns the translation file of preset `name`, if the language has one.
    pub fn preset(&self, name: &str) -> Option<&'static str> {
        self.presets
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, text)| text)
    }
}

/// Returns `lang`'s translation when the program has it (always natively; in the page once
/// supplied), `None` for English and for a language not supplied yet.
pub fn translation(lang: Lang) -> Option<&'static Translation> {
    store::get(lang)
}

/// Whether every text of `lang` can be rendered now: English always, another language when
/// its translation is compiled in or was supplied.
pub fn is_available(lang: Lang) -> bool {
    lang == Lang::En || translation(lang).is_some()
}

/// Why a supplied translation file was not taken.
#[derive(Debug, thiserror::Error)]
pub enum SupplyError {
    /// The file is not the JSON `scripts/translations.mjs` writes.
    #[error("the translation file is not valid: {0}")]
    Invalid(#[from] serde_json::Error),
    /// The file names a language Squillion does not know, or English.
    #[error("the translation file is for \"{0}\", which is not a translated language")]
    Language(String),
}

/// The JSON of a translation file: `{"lang": "zh-CN", "page": "…", "messages": "…",
/// "presets": {"blog": "<the file's text>", …}}`.
#[derive(serde::Deserialize)]
struct File {
    lang: String,
    page: String,
    messages: String,
    #[serde(default)]
    presets: std::collections::BTreeMap<String, String>,
}

/// Takes a translation file (what the page fetched) and returns its language; from now on
/// every text of that language renders. A second file for a language already there is ignored
/// (the first stays: texts already parsed from it are kept), as is every file natively.
pub fn supply(json: &str) -> Result<Lang, SupplyError> {
    let file: File = serde_json::from_str(json)?;
    let lang = Lang::ALL
        .into_iter()
        .find(|l| *l != Lang::En && l.code() == file.lang)
        .ok_or(SupplyError::Language(file.lang.clone()))?;
    // Leaked once per language: the catalogues and presets hand out `&'static` text, as they
    // do for the compiled-in sources.
    let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
    store::put(
        lang,
        Translation {
            page: leak(file.page),
            messages: leak(file.messages),
            presets: file
                .presets
                .into_iter()
                .map(|(name, text)| (leak(name), leak(text)))
                .collect(),
        },
    );
    Ok(lang)
}

/// The compiled-in translations (the CLI, the tests).
#[cfg(not(feature = "supplied-translations"))]
mod store {
    use std::sync::OnceLock;

    use super::{Lang, Translation};

    pub(super) fn get(lang: Lang) -> Option<&'static Translation> {
        static ZH_CN: OnceLock<Translation> = OnceLock::new();
        match lang {
            Lang::En => None,
            Lang::ZhCn => Some(ZH_CN.get_or_init(|| Translation {
                page: include_str!("../../locales/zh-CN/page.ftl"),
                messages: include_str!("../../locales/zh-CN/messages.ftl"),
                presets: crate::presets::compiled_translations(lang),
            })),
        }
    }

    /// Every translation is compiled in: a supplied one changes nothing.
    pub(super) fn put(_: Lang, _: Translation) {}
}

/// The translations supplied at run time (the page).
#[cfg(feature = "supplied-translations")]
mod store {
    use std::sync::OnceLock;

    use super::{Lang, Translation};

    static ZH_CN: OnceLock<Translation> = OnceLock::new();

    pub(super) fn get(lang: Lang) -> Option<&'static Translation> {
        match lang {
            Lang::En => None,
            Lang::ZhCn => ZH_CN.get(),
        }
    }

    pub(super) fn put(lang: Lang, translation: Translation) {
        match lang {
            Lang::En => {}
            Lang::ZhCn => {
                let _ = ZH_CN.set(translation);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chinese_is_compiled_in_and_english_is_never_a_translation() {
        assert!(is_available(Lang::En));
        assert!(translation(Lang::En).is_none());
        let zh = translation(Lang::ZhCn).expect("compiled in");
        assert!(!zh.page.is_empty() && !zh.messages.is_empty());
        assert!(zh.preset("blog").is_some());
        assert_eq!(zh.presets.len(), crate::presets::known_names().len());
    }

    #[test]
    fn a_file_for_an_unknown_language_or_not_json_is_refused() {
        let en = r#"{"lang": "en", "page": "", "messages": ""}"#;
        assert!(matches!(supply(en), Err(SupplyError::Language(l)) if l == "en"));
        let fr = r#"{"lang": "fr", "page": "", "messages": ""}"#;
        assert!(matches!(supply(fr), Err(SupplyError::Language(l)) if l == "fr"));
        assert!(matches!(supply("{"), Err(SupplyError::Invalid(_))));
        let zh = r#"{"lang": "zh-CN", "page": "", "messages": ""}"#;
        assert_eq!(supply(zh).unwrap(), Lang::ZhCn);
        // Compiled in, the supplied (empty) file changes nothing.
        assert!(translation(Lang::ZhCn).unwrap().preset("blog").is_some());
    }
}
