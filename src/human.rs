//! Numbers as people read them: thousands separators, adaptive percentages, binary units.
//! Shared by the CLI and the page so that both print the same figures.

/// Returns `n` with comma thousands separators: `16777216` → `"16,777,216"`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Returns `share` (0.0–1.0+) as a percentage with enough digits to be non-zero when the
/// share is: `0.5` → `"50%"`, `0.000123` → `"0.0123%"`.
pub fn percent(share: f64) -> String {
    if !share.is_finite() {
        return "–".to_string();
    }
    let pct = share * 100.0;
    if pct == 0.0 {
        return "0%".to_string();
    }
    let decimals = if pct >= 10.0 {
        1
    } else if pct >= 1.0 {
        2
    } else {
        // Three significant digits for small shares.
        let magnitude = (-pct.log10()).floor() as usize;
        (magnitude + 3).min(12)
    };
    let text = format!("{pct:.decimals$}");
    let text = if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    };
    format!("{text}%")
}

/// Returns `bytes` in the largest binary unit that keeps it ≥ 1: `"1.5 KiB"`, `"16 MiB"`.
pub fn binary_size(bytes: u64) -> String {
    const UNITS: [&str; 6] = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{} bytes", thousands(bytes))
    } else {
        let text = format!("{value:.2}");
        let text = text.trim_end_matches('0').trim_end_matches('.');
        format!("{text} {}", UNITS.get(unit).unwrap_or(&"bytes"))
    }
}

/// Returns `s` with its first letter in upper case: `round trips/s` → `Round trips/s`.
pub fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// Returns `n` and the noun in the number it takes: `1 index`, `3 indexes`, `0 indexes`.
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn count_takes_the_noun_in_the_number() {
        assert_eq!(count(1, "index", "indexes"), "1 index");
        assert_eq!(count(0, "index", "indexes"), "0 indexes");
        assert_eq!(count(1200, "document", "documents"), "1,200 documents");
    }

    #[test]
    fn thousands_groups_by_three() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(16_777_216), "16,777,216");
        assert_eq!(thousands(u64::MAX), "18,446,744,073,709,551,615");
    }

    #[test]
    fn percent_keeps_small_shares_visible() {
        assert_eq!(percent(0.5), "50%");
        assert_eq!(percent(1.0), "100%");
        assert_eq!(percent(0.8), "80%");
        assert_eq!(percent(0.012345), "1.23%");
        assert_eq!(percent(0.000123), "0.0123%");
        assert_eq!(percent(0.0), "0%");
        assert_eq!(percent(f64::NAN), "–");
    }

    #[test]
    fn binary_size_picks_the_unit() {
        assert_eq!(binary_size(5), "5 bytes");
        assert_eq!(binary_size(1536), "1.5 KiB");
        assert_eq!(binary_size(16_777_216), "16 MiB");
    }

    #[test]
    fn capitalize_changes_the_first_letter_only() {
        assert_eq!(capitalize("round trips/s"), "Round trips/s");
        assert_eq!(capitalize("ärger"), "Ärger");
        assert_eq!(capitalize(""), "");
    }
}
