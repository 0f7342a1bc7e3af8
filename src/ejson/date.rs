//! ISO-8601 dates to and from milliseconds since the Unix epoch, without a date library.

/// Returns the milliseconds since 1970-01-01T00:00:00Z of an ISO-8601 date such as
/// `2024-01-31`, `2024-01-31T12:00`, `2024-01-31T12:00:00.123Z` or
/// `2024-01-31 12:00:00+02:00`, or a message saying what is wrong.
///
/// A missing time zone means UTC (as mongosh's `ISODate` does); digits of a second beyond
/// milliseconds are truncated.
pub fn parse_iso_date(text: &str) -> Result<i64, String> {
    parse(text.trim()).ok_or_else(|| {
        format!("'{text}' is not an ISO-8601 date (expected e.g. '2024-01-31T12:00:00.000Z')")
    })
}

fn parse(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    let num = |from: usize, len: usize| -> Option<i64> {
        let part = s.get(from..from + len)?;
        part.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| part.parse().ok())?
    };
    let year = num(0, 4)?;
    if b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') {
        return None;
    }
    let month = num(5, 2)?;
    let day = num(8, 2)?;
    if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
        return None;
    }
    let mut millis = days_from_civil(year, month, day) * 86_400_000;
    let mut i = 10;
    if i == b.len() {
        return Some(millis);
    }
    if !matches!(b.get(i), Some(b'T' | b't' | b' ')) {
        return None;
    }
    let hour = num(i + 1, 2)?;
    if b.get(i + 3) != Some(&b':') {
        return None;
    }
    let minute = num(i + 4, 2)?;
    i += 6;
    let mut second = 0;
    let mut fraction = 0;
    if b.get(i) == Some(&b':') {
        second = num(i + 1, 2)?;
        i += 3;
        if matches!(b.get(i), Some(b'.' | b',')) {
            i += 1;
            let start = i;
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            if i == start {
                return None;
            }
            let digits = s.get(start..i)?;
            let ms: String = digits.chars().chain("00".chars()).take(3).collect();
            fraction = ms.parse().ok()?;
        }
    }
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    millis += ((hour * 60 + minute) * 60 + second) * 1000 + fraction;
    let offset_minutes = match b.get(i) {
        None => 0,
        Some(b'Z' | b'z') if i + 1 == b.len() => 0,
        Some(sign @ (b'+' | b'-')) => {
            let hours = num(i + 1, 2)?;
            let rest = s.get(i + 3..)?;
            let minutes = match rest.len() {
                0 => 0,
                2 => num(i + 3, 2)?,
                3 if rest.starts_with(':') => num(i + 4, 2)?,
                _ => return None,
            };
            if hours > 23 || minutes > 59 {
                return None;
            }
            let total = hours * 60 + minutes;
            if *sign == b'+' {
                total
            } else {
                -total
            }
        }
        _ => return None,
    };
    Some(millis - offset_minutes * 60_000)
}

/// Returns `millis` since the epoch as `YYYY-MM-DDTHH:MM:SS.mmmZ`, or `None` when the year
/// falls outside 0000–9999 (those dates are written as milliseconds instead).
pub fn format_iso_date(millis: i64) -> Option<String> {
    let days = millis.div_euclid(86_400_000);
    let in_day = millis.rem_euclid(86_400_000);
    let (year, month, day) = civil_from_days(days);
    if !(0..=9999).contains(&year) {
        return None;
    }
    let (h, m, s, ms) = (
        in_day / 3_600_000,
        in_day / 60_000 % 60,
        in_day / 1000 % 60,
        in_day % 1000,
    );
    Some(format!(
        "{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}.{ms:03}Z"
    ))
}

fn is_leap(year: i64) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The proleptic Gregorian date of a day count since 1970-01-01.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}
