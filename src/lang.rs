//! The languages Squillion speaks: English (the source text) and 简体中文.
//!
//! A [`Lang`] is read from a BCP 47 tag (`zh-CN`, `zh-Hans`, `en-US`, what `navigator.language`
//! gives) or a POSIX locale (`zh_CN.UTF-8`, what `LANG` holds): every form of Simplified
//! Chinese is [`Lang::ZhCn`], anything else is English, the language every text is written in
//! first. Translations are data under `locales/<code>/` (see docs/i18n.md, which also says how
//! to add a language).

use std::fmt;

mod catalogue;
pub mod page;
pub mod text;
pub mod translations;

pub use page::Msg;
pub use text::{Arg, Text};
pub use translations::{is_available, supply, SupplyError};

/// A language of the interface and of the preset texts; in JSON its code (`"zh-CN"`).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Default,
    serde::Serialize,
    serde::Deserialize,
)]
pub enum Lang {
    /// English: the language every text is written in first, and the fallback of every other.
    #[default]
    #[serde(rename = "en")]
    En,
    /// Simplified Chinese (简体中文), translated under `locales/zh-CN/`.
    #[serde(rename = "zh-CN")]
    ZhCn,
}

impl Lang {
    /// Every language, English first.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::ZhCn];

    /// Returns the language's BCP 47 code, also the name of its folder under `locales/`
    /// (`en`, `zh-CN`).
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::ZhCn => "zh-CN",
        }
    }

    /// Returns the language's name in itself, for a language switch (`English`, `简体中文`).
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::ZhCn => "简体中文",
        }
    }

    /// Returns the language a tag or locale names: `zh`, `zh-CN`, `zh-SG`, `zh-Hans…` and
    /// `zh_CN.UTF-8` are Simplified Chinese; everything else (`en`, `en_US.UTF-8`, `C`,
    /// `POSIX`, `zh-TW`, `zh-Hant`, `fr`, empty) is English, so an unknown locale never fails.
    pub fn from_tag(tag: &str) -> Lang {
        // A POSIX locale: language[_territory][.codeset][@modifier].
        let base = tag.split(['.', '@']).next().unwrap_or_default();
        let lower = base.trim().replace('_', "-").to_ascii_lowercase();
        let mut parts = lower.split('-');
        if parts.next() != Some("zh") {
            return Lang::En;
        }
        match parts.next() {
            None | Some("cn" | "sg" | "hans" | "my") => Lang::ZhCn,
            // Traditional Chinese (zh-TW, zh-HK, zh-MO, zh-Hant): no translation yet.
            Some(_) => Lang::En,
        }
    }

    /// Returns the language of a POSIX environment: the first non-empty of `LC_ALL`,
    /// `LC_MESSAGES` and `LANG` (their order of precedence), English when all are unset.
    /// `get` reads one variable (`std::env::var` natively; a test passes its own).
    pub fn from_env(get: impl Fn(&str) -> Option<String>) -> Lang {
        ["LC_ALL", "LC_MESSAGES", "LANG"]
            .iter()
            .filter_map(|k| get(k))
            .find(|v| !v.trim().is_empty())
            .map_or(Lang::En, |v| Lang::from_tag(&v))
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

#[cfg(test)]
mod tests {
    use super::Lang;

    #[test]
    fn tags_and_locales() {
        for t in [
            "zh-CN",
            "zh",
            "zh_CN.UTF-8",
            "zh_CN.utf8@pinyin",
            "ZH-cn",
            "zh-Hans",
            "zh-Hans-CN",
            "zh_SG",
        ] {
            assert_eq!(Lang::from_tag(t), Lang::ZhCn, "{t}");
        }
        for t in [
            "en",
            "en-US",
            "en_GB.UTF-8",
            "C",
            "POSIX",
            "C.UTF-8",
            "",
            "fr_FR",
            "zh-TW",
            "zh_HK",
            "zh-Hant",
            "zhx",
        ] {
            assert_eq!(Lang::from_tag(t), Lang::En, "{t}");
        }
    }

    #[test]
    fn environment_precedence() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert_eq!(Lang::from_env(env(&[])), Lang::En);
        assert_eq!(Lang::from_env(env(&[("LANG", "zh_CN.UTF-8")])), Lang::ZhCn);
        assert_eq!(
            Lang::from_env(env(&[("LANG", "zh_CN.UTF-8"), ("LC_ALL", "C")])),
            Lang::En
        );
        assert_eq!(
            Lang::from_env(env(&[("LANG", "en_US.UTF-8"), ("LC_MESSAGES", "zh_CN")])),
            Lang::ZhCn
        );
        assert_eq!(
            Lang::from_env(env(&[("LANG", "zh_CN.UTF-8"), ("LC_ALL", "")])),
            Lang::ZhCn
        );
    }
}
