//! `--lang`: the language of a command's human text (`en`, `zh-CN`), else the environment's
//! (`LC_ALL`, `LC_MESSAGES`, `LANG`). JSON output follows `--lang` only, never the
//! environment, so a script's output does not change with the locale of the shell it runs in.

use crate::lang::Lang;

/// Parses `--lang`: `en`, `zh-CN` and their other spellings (`zh`, `zh_CN.UTF-8`, `en-US`,
/// `C`); a language Squillion does not speak is a usage error (exit 2), not English.
pub fn parse(tag: &str) -> Result<Lang, String> {
    let lang = Lang::from_tag(tag);
    let lower = tag.trim().to_ascii_lowercase();
    let english = lower == "en"
        || lower.starts_with("en-")
        || lower.starts_with("en_")
        || lower.starts_with("en.")
        || lower == "c"
        || lower.starts_with("c.")
        || lower == "posix";
    if lang == Lang::En && !english {
        let known: Vec<&str> = Lang::ALL.iter().map(|l| l.code()).collect();
        return Err(format!(
            "unsupported language \"{tag}\"; supported: {}",
            known.join(", ")
        ));
    }
    Ok(lang)
}

/// Returns the language of human output: `--lang` when given, else the environment's.
pub fn or_env(flag: Option<Lang>) -> Lang {
    flag.unwrap_or_else(|| Lang::from_env(|k| std::env::var(k).ok()))
}
