//! The page's own words: labels, buttons, tooltips, statuses, in every [`Lang`].
//!
//! They live in `locales/<code>/page.ftl` (Project Fluent, like the warnings' `messages.ftl`,
//! rendered by the same `fluent-bundle`). The build script turns the English catalogue's ids
//! into [`Msg`], so a label the catalogue lacks is a compile error, not a blank on the page;
//! `tests/suite/catalogues.rs` checks that every language has the same ids with the same values.
//! Values come formatted (`1,000`, `16 MiB`), as for the warnings (docs/i18n.md).

use fluent_bundle::FluentArgs;

use super::catalogue::Catalogue;
use super::Lang;

include!(concat!(env!("OUT_DIR"), "/page_msg.rs"));

/// The English catalogue of the page: the source text of every label.
const EN: &str = include_str!("../../locales/en/page.ftl");

/// The page's words in every language.
static PAGE: Catalogue = Catalogue::new(EN, |t| t.page);

impl Msg {
    /// Returns the message in `lang`, for a message without values.
    pub fn text(self, lang: Lang) -> String {
        self.with(lang, &[])
    }

    /// Returns the message in `lang` with its values (`("count", "3")`). A message the
    /// language lacks falls back to English; one that does not render (a value missing: a
    /// bug the catalogue test catches) shows its id.
    pub fn with(self, lang: Lang, values: &[(&str, String)]) -> String {
        let mut args = FluentArgs::new();
        for (name, value) in values {
            args.set(*name, value.clone());
        }
        [lang, Lang::En]
            .into_iter()
            .find_map(|l| PAGE.format(l, self.id(), &args))
            .unwrap_or_else(|| self.id().to_string())
    }
}

/// Returns the source of `lang`'s page catalogue (for the catalogue tests; empty for a
/// translation not supplied yet).
pub fn catalogue(lang: Lang) -> &'static str {
    PAGE.source(lang).unwrap_or_default()
}

/// Returns every message id of `lang`'s page catalogue and whether it parsed without an
/// error (for the catalogue tests).
pub fn catalogue_ids(lang: Lang) -> (Vec<String>, bool) {
    PAGE.ids(lang)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_id_renders_in_both_languages() {
        for &m in Msg::ALL {
            for lang in Lang::ALL {
                assert_ne!(m.text(lang), "", "{m:?} in {lang}");
            }
        }
    }
}
