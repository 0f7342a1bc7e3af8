//! References to the reference documentation in the page's words ("How: docs/advisor.md") as
//! links to the documents rendered into the site (`scripts/docs-site.mjs` writes
//! `docs/advisor.html` at every build), which the offline service worker precaches: a
//! reference opens, in a new tab, even without a network.

use leptos::either::Either;
use leptos::prelude::*;

/// The page every reference in the words opens (a document of the site).
const SITE_PREFIX: &str = "docs/";
/// The repository's file ending a reference names, and the page's that replaces it.
const SOURCE_EXT: &str = ".md";
const PAGE_EXT: &str = ".html";

/// Splits `text` into words and references: `(text, None)` for words, `(reference, Some(href))`
/// for `docs/NAME.md` (NAME of ASCII letters, digits, `_` and `-`).
fn pieces(text: &str) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(SITE_PREFIX) {
        let after = rest.get(at + SITE_PREFIX.len()..).unwrap_or_default();
        let name_len = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
            .unwrap_or(after.len());
        let name = after.get(..name_len).unwrap_or_default();
        let is_doc = !name.is_empty()
            && after
                .get(name_len..)
                .is_some_and(|tail| tail.starts_with(SOURCE_EXT));
        let end = at + SITE_PREFIX.len() + name_len + if is_doc { SOURCE_EXT.len() } else { 0 };
        let (before, reference) = (
            rest.get(..at).unwrap_or_default(),
            rest.get(at..end).unwrap_or_default(),
        );
        if !before.is_empty() {
            out.push((before.to_string(), None));
        }
        let href = is_doc.then(|| format!("{SITE_PREFIX}{name}{PAGE_EXT}"));
        out.push((reference.to_string(), href));
        rest = rest.get(end..).unwrap_or_default();
    }
    if !rest.is_empty() {
        out.push((rest.to_string(), None));
    }
    out
}

/// `text` with each `docs/NAME.md` it names as a link to that document in the site.
#[component]
pub fn WithDocLinks(
    /// The words, in the page's language.
    #[prop(into)]
    text: Signal<String>,
) -> impl IntoView {
    move || {
        pieces(&text.get())
            .into_iter()
            .map(|(shown, href)| match href {
                Some(href) => Either::Left(view! {
                    <a class="doc-link" href=href target="_blank" rel="noopener">{shown}</a>
                }),
                None => Either::Right(shown),
            })
            .collect_view()
    }
}
