//! A Project Fluent catalogue in every language: its English source (compiled in) and its
//! translations ([`super::translations`]: compiled in, or supplied at run time in the page),
//! each parsed once on first use, rendered with `fluent-bundle`. The core's messages ([`super::text`]) and the
//! page's words ([`super::page`]) are two catalogues of this one kind.

use std::sync::OnceLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource};

use super::translations::{translation, Translation};
use super::Lang;

/// One catalogue: its English source, which part of a translation is its source in the
/// other languages, and the bundles parsed from them.
pub(super) struct Catalogue {
    /// The English source: the text every other language falls back to.
    en: &'static str,
    /// This catalogue's part of a language's translation (its page words, its messages).
    part: fn(&Translation) -> &'static str,
    /// The parsed bundles, English first, each made on first use.
    parsed: [OnceLock<FluentBundle<FluentResource>>; 2],
}

impl Catalogue {
    /// Returns the catalogue of these sources, parsed when first asked.
    pub(super) const fn new(en: &'static str, part: fn(&Translation) -> &'static str) -> Self {
        Catalogue {
            en,
            part,
            parsed: [OnceLock::new(), OnceLock::new()],
        }
    }

    /// Returns the source of `lang`: `None` for a translation the page has not fetched yet.
    pub(super) fn source(&self, lang: Lang) -> Option<&'static str> {
        match lang {
            Lang::En => Some(self.en),
            _ => translation(lang).map(self.part),
        }
    }

    /// Returns the bundle of `lang`, parsed once (and not before its source is there, so that
    /// a translation supplied later is the one parsed).
    fn bundle(&self, lang: Lang) -> Option<&FluentBundle<FluentResource>> {
        let cell = match lang {
            Lang::En => self.parsed.first(),
            Lang::ZhCn => self.parsed.get(1),
        }?;
        if let Some(bundle) = cell.get() {
            return Some(bundle);
        }
        let source = self.source(lang)?;
        Some(cell.get_or_init(|| load(lang, source)))
    }

    /// Returns message `id` in `lang` filled with `args`, or `None` when `lang`'s catalogue
    /// lacks it or rendering reported an error (a value missing or misnamed).
    pub(super) fn format(&self, lang: Lang, id: &str, args: &FluentArgs) -> Option<String> {
        let bundle = self.bundle(lang)?;
        let pattern = bundle.get_message(id)?.value()?;
        let mut errors = Vec::new();
        let out = bundle.format_pattern(pattern, Some(args), &mut errors);
        errors.is_empty().then(|| out.into_owned())
    }

    /// Returns every message id of `lang`'s source and whether it parsed without an error.
    pub(super) fn ids(&self, lang: Lang) -> (Vec<String>, bool) {
        let source = self.source(lang).unwrap_or_default();
        let (resource, ok) = match FluentResource::try_new(source.to_string()) {
            Ok(r) => (r, true),
            Err((r, _)) => (r, false),
        };
        let ids = resource
            .entries()
            .filter_map(|e| match e {
                fluent_syntax::ast::Entry::Message(m) => Some(m.id.name.to_string()),
                _ => None,
            })
            .collect();
        (ids, ok)
    }
}

/// Parses a catalogue. A syntax error drops only the broken message (Fluent recovers at the
/// next one), which the catalogue tests catch; it never stops the program.
fn load(lang: Lang, source: &'static str) -> FluentBundle<FluentResource> {
    let id = lang
        .code()
        .parse::<unic_langid::LanguageIdentifier>()
        .unwrap_or_default();
    let mut bundle = FluentBundle::new_concurrent(vec![id]);
    // No Unicode isolation marks around values: the text goes to terminals, JSON and HTML
    // that never mix writing directions.
    bundle.set_use_isolating(false);
    let resource = FluentResource::try_new(source.to_string()).unwrap_or_else(|(r, _)| r);
    // Duplicate ids keep the first; the catalogue tests catch them.
    let _ = bundle.add_resource(resource);
    bundle
}
