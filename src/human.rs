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

/// Returns `bytes` in the largest binary unit that keeps it ≥ 1, with up to two decimals:
/// `"5 B"`, `"1.5 KiB"`, `"16 MiB"`, `"2.94 TiB"`. Every view that shows a byte count to a
/// person (the page, the CLI's text, warning messages) uses it; the exact figure is
/// [`exact_bytes`] (the page puts it in a hover title).
///
/// A value that rounds to a whole number of a unit while not being one (16,777,300 bytes is
/// 16.00008 MiB) keeps the decimals that show it is not (`"16.00008 MiB"`, at most six), so
/// that a document over the 16 MiB limit never reads as "16 MiB".
pub fn binary_size(n: u64) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut unit = 0;
    let mut scale = 1u64;
    while unit + 1 < UNITS.len() && n / scale >= 1024 {
        scale = scale.saturating_mul(1024);
        unit += 1;
    }
    let name = UNITS.get(unit).copied().unwrap_or("B");
    if unit == 0 {
        return format!("{n} {name}");
    }
    let value = n as f64 / scale as f64;
    let exact = n.is_multiple_of(scale);
    let mut decimals = 2;
    let mut text = format!("{value:.decimals$}");
    // Add decimals until the text stops looking exact when the value is not.
    while !exact && decimals < 6 && text.trim_end_matches('0').ends_with('.') {
        decimals += 1;
        text = format!("{value:.decimals$}");
    }
    let text = if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.')
    } else {
        &text
    };
    format!("{text} {name}")
}

/// Returns a byte count as an exact figure for people: `"3,232,053,343,560 bytes"` (the
/// hover title of every [`binary_size`] figure on the page).
pub fn exact_bytes(n: u64) -> String {
    count(n, "byte", "bytes")
}

/// Returns a byte count given as a float (a scaled or estimated figure) in [`binary_size`]' units,
/// negative and non-finite values read as 0.
pub fn binary_size_f64(v: f64) -> String {
    binary_size(whole_bytes(v))
}

/// Returns a float byte figure rounded to whole bytes (negative and non-finite → 0).
pub fn whole_bytes(v: f64) -> u64 {
    if v.is_finite() && v > 0.0 {
        v.round() as u64
    } else {
        0
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

/// Returns a rate per second with as many decimals as it needs (three significant digits
/// below 100): `120`, `2.50`, `0.0300`; the figures of `squillion infer --log`'s shapes.
pub fn rate(r: f64) -> String {
    if r >= 100.0 {
        format!("{r:.0}")
    } else if r >= 1.0 {
        format!("{r:.2}")
    } else {
        format!("{r:.4}")
    }
}

/// Returns `seconds` as people read a duration: `45 s`, `12 min`, `3 h 20 min`, `2 d 4 h`.
pub fn duration(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3_600 => format!("{} min", s.div_ceil(60)),
        3_600..86_400 => format!("{} h {} min", s / 3_600, (s % 3_600) / 60),
        _ => format!("{} d {} h", s / 86_400, (s % 86_400) / 3_600),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_in_the_largest_units() {
        assert_eq!(duration(0.4), "0 s");
        assert_eq!(duration(45.0), "45 s");
        assert_eq!(duration(200.0), "4 min");
        assert_eq!(duration(12_000.0), "3 h 20 min");
        assert_eq!(duration(187_200.0), "2 d 4 h");
    }

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
        assert_eq!(binary_size(0), "0 B");
        assert_eq!(binary_size(5), "5 B");
        assert_eq!(binary_size(1023), "1023 B");
        assert_eq!(binary_size(1024), "1 KiB");
        assert_eq!(binary_size(1536), "1.5 KiB");
        assert_eq!(binary_size(16_777_216), "16 MiB");
        assert_eq!(binary_size(10_000_000), "9.54 MiB");
        // The working set of issue #16: ≈3,232,053,343,560 bytes.
        assert_eq!(binary_size(3_232_053_343_560), "2.94 TiB");
        assert_eq!(binary_size(u64::MAX), "16384 PiB");
        assert_eq!(binary_size_f64(-3.0), "0 B");
        assert_eq!(binary_size_f64(f64::NAN), "0 B");
    }

    #[test]
    fn binary_size_never_looks_whole_when_it_is_not() {
        // One document 84 bytes over the limit is not "16 MiB".
        assert_eq!(binary_size(16_777_300), "16.0001 MiB");
        assert_eq!(binary_size(16_777_217), "16.000001 MiB");
        assert_eq!(binary_size(2048), "2 KiB");
        assert_eq!(binary_size(2049), "2.001 KiB");
    }

    #[test]
    fn exact_bytes_has_every_digit() {
        assert_eq!(exact_bytes(3_232_053_343_560), "3,232,053,343,560 bytes");
        assert_eq!(exact_bytes(1), "1 byte");
    }

    #[test]
    fn capitalize_changes_the_first_letter_only() {
        assert_eq!(capitalize("round trips/s"), "Round trips/s");
        assert_eq!(capitalize("ärger"), "Ärger");
        assert_eq!(capitalize(""), "");
    }
}
