//! Text the core says to people, as a message id and its values, rendered in any [`Lang`].
//!
//! A warning (and, in time, every validation problem and engine error) carries a [`Text`]:
//! the id of a message in the catalogues `locales/<code>/messages.ftl` (Project Fluent's
//! format, read by `fluent-bundle`) and the values that fill it. The values are kept apart
//! from the words so that the CLI (`--lang zh-CN`) and the page render the same finding in
//! either language, and a script reading `--json` gets the numbers without parsing English.
//!
//! Values are already formatted (`16 MiB`, `844,411`, `2027-03-04`): both languages group
//! digits and write sizes the same way, so a number reads alike in both. What differs per
//! language is done here: a list is joined with "and" or "和", and a nested [`Text`] (a
//! clause such as "at full scale 2% of … documents are over it") is rendered in the same
//! language first.

use fluent_bundle::FluentArgs;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;

use super::catalogue::Catalogue;
use super::Lang;

/// The English catalogue: the source text of every message.
const EN: &str = include_str!("../../locales/en/messages.ftl");

/// The core's messages in every language.
static MESSAGES: Catalogue = Catalogue::new(EN, |t| t.messages);

/// A message and the values that fill it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Text {
    /// The message's id in `locales/<code>/messages.ftl` (`doc-over-limit`).
    pub id: Cow<'static, str>,
    /// The values by name, as the message's placeables (`$size`) name them.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub args: BTreeMap<Cow<'static, str>, Arg>,
}

/// One value of a [`Text`]. In JSON: a string, an array of strings, a nested text
/// (`{"id": …, "args": …}`), `{"sentences": [texts]}`, `{"items": [texts]}` or
/// `{"clauses": [texts]}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Arg {
    /// A value shown as it is: a name, a path, a formatted number or size.
    Plain(String),
    /// Names joined as the language joins a list ("a and b", "a 和 b").
    List(Vec<String>),
    /// A clause rendered in the same language.
    Nested(Box<Text>),
    /// Sentences rendered in the same language and written one after another
    /// (`{"sentences": [texts]}`).
    Sentences {
        /// The sentences, in order.
        sentences: Vec<Text>,
    },
    /// Clauses rendered in the same language and listed ("a, b" or "a、b";
    /// `{"items": [texts]}`).
    Items {
        /// The clauses, in order.
        items: Vec<Text>,
    },
    /// Clauses of one sentence rendered in the same language and joined with "; " or "；"
    /// (`{"clauses": [texts]}`): a design's choices, each a clause with commas of its own.
    Clauses {
        /// The clauses, in order.
        clauses: Vec<Text>,
    },
}

impl Text {
    /// Returns the message `id` with no values yet.
    pub fn new(id: &'static str) -> Text {
        Text {
            id: Cow::Borrowed(id),
            args: BTreeMap::new(),
        }
    }

    /// Returns the text with `name` set to a plain value.
    pub fn arg(mut self, name: &'static str, value: impl ToString) -> Text {
        self.args
            .insert(Cow::Borrowed(name), Arg::Plain(value.to_string()));
        self
    }

    /// Returns the text with `name` set to a list of names.
    pub fn list(mut self, name: &'static str, items: &[impl AsRef<str>]) -> Text {
        let items = items.iter().map(|s| s.as_ref().to_string()).collect();
        self.args.insert(Cow::Borrowed(name), Arg::List(items));
        self
    }

    /// Returns the text with `name` set to a clause of its own.
    pub fn nested(mut self, name: &'static str, text: Text) -> Text {
        self.args
            .insert(Cow::Borrowed(name), Arg::Nested(Box::new(text)));
        self
    }

    /// Returns the text with `name` set to sentences written one after another.
    pub fn sentences(mut self, name: &'static str, texts: Vec<Text>) -> Text {
        self.args
            .insert(Cow::Borrowed(name), Arg::Sentences { sentences: texts });
        self
    }

    /// Returns the text with `name` set to clauses listed one after another.
    pub fn items(mut self, name: &'static str, texts: Vec<Text>) -> Text {
        self.args
            .insert(Cow::Borrowed(name), Arg::Items { items: texts });
        self
    }

    /// Returns the text with `name` set to clauses of one sentence ("a; b", "a；b").
    pub fn clauses(mut self, name: &'static str, texts: Vec<Text>) -> Text {
        self.args
            .insert(Cow::Borrowed(name), Arg::Clauses { clauses: texts });
        self
    }

    /// Returns the text in `lang`. A message the language's catalogue lacks falls back to
    /// English; one neither has (a bug the catalogue tests catch) is shown as its id.
    pub fn render(&self, lang: Lang) -> String {
        let mut args = FluentArgs::new();
        for (name, value) in &self.args {
            args.set(name.as_ref(), value.render(lang));
        }
        let out = [lang, Lang::En]
            .into_iter()
            .find_map(|l| MESSAGES.format(l, &self.id, &args));
        out.unwrap_or_else(|| self.id.to_string())
    }

    /// Returns whether `lang`'s own catalogue has this message and every nested one, each
    /// rendering without an error (no unknown value, no missing one): what the catalogue
    /// tests assert for every text the presets produce.
    pub fn is_translated(&self, lang: Lang) -> bool {
        let mut args = FluentArgs::new();
        for (name, value) in &self.args {
            args.set(name.as_ref(), value.render(lang));
        }
        MESSAGES.format(lang, &self.id, &args).is_some()
            && self.args.values().all(|a| match a {
                Arg::Plain(_) | Arg::List(_) => true,
                Arg::Nested(t) => t.is_translated(lang),
                Arg::Sentences { sentences: ts }
                | Arg::Items { items: ts }
                | Arg::Clauses { clauses: ts } => ts.iter().all(|t| t.is_translated(lang)),
            })
    }
}

impl std::fmt::Display for Text {
    /// Writes the text in English, the language of JSON and of text shown without a choice.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render(Lang::En))
    }
}

/// Serializes texts as their English: a report's notes stay the strings they were in JSON.
pub fn serialize_english<S: serde::Serializer>(
    texts: &[Text],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(texts.iter().map(|t| t.render(Lang::En)))
}

impl Arg {
    /// Returns the value as `lang` writes it.
    fn render(&self, lang: Lang) -> String {
        match self {
            Arg::Plain(s) => s.clone(),
            Arg::List(items) => join(lang, items),
            Arg::Nested(t) => t.render(lang),
            Arg::Sentences { sentences: ts } => {
                let parts: Vec<String> = ts.iter().map(|t| t.render(lang)).collect();
                match lang {
                    Lang::En => parts.join(" "),
                    // Chinese sentences end in "。" and follow each other without a space.
                    Lang::ZhCn => parts.concat(),
                }
            }
            Arg::Items { items: ts } => {
                let parts: Vec<String> = ts.iter().map(|t| t.render(lang)).collect();
                parts.join(match lang {
                    Lang::En => ", ",
                    Lang::ZhCn => "、",
                })
            }
            Arg::Clauses { clauses: ts } => {
                let parts: Vec<String> = ts.iter().map(|t| t.render(lang)).collect();
                parts.join(match lang {
                    Lang::En => "; ",
                    Lang::ZhCn => "；",
                })
            }
        }
    }
}

/// Returns `items` joined as `lang` joins a list: "a", "a and b", "a and b and c" (the
/// warnings' English), "a、b 和 c".
pub fn join(lang: Lang, items: &[String]) -> String {
    match lang {
        Lang::En => items.join(" and "),
        Lang::ZhCn => match items.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} 和 {last}", rest.join("、")),
            None => String::new(),
        },
    }
}

/// Returns every message id of `lang`'s catalogue and whether it parsed without an error
/// (for the catalogue tests).
pub fn catalogue_ids(lang: Lang) -> (Vec<String>, bool) {
    MESSAGES.ids(lang)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_join_per_language() {
        let items = ["a".to_string(), "b".to_string(), "c".to_string()];
        assert_eq!(join(Lang::En, &items), "a and b and c");
        assert_eq!(join(Lang::ZhCn, &items), "a、b 和 c");
        assert_eq!(join(Lang::ZhCn, &items[..1]), "a");
        assert_eq!(join(Lang::ZhCn, &[]), "");
    }

    #[test]
    fn unknown_ids_fall_back_to_the_id() {
        assert_eq!(
            Text::new("no-such-message").render(Lang::ZhCn),
            "no-such-message"
        );
        assert!(!Text::new("no-such-message").is_translated(Lang::En));
    }
}
