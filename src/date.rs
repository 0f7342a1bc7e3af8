//! The one calendar, on the `time` crate: the model's `YYYY-MM-DD` days (its start date,
//! generated date ranges, the day a growing array breaks) and the ISO-8601 instants of
//! Extended JSON and mongosh's `ISODate`.
//!
//! A bottom layer: it depends on nothing of the crate's. Days are counted from 1970-01-01 and
//! instants in milliseconds since 1970-01-01T00:00:00Z, as BSON dates are. The calendar and
//! the clock are `time`'s (proleptic Gregorian); the text is read and written here with std's
//! parsing and formatting, because `time`'s format descriptions cost 15 KB of the page's
//! gzipped wasm for the three fixed shapes below (docs/size.md), and because `ISODate` reads
//! spellings `time`'s ISO-8601 parser does not.

use time::{Date, Month, OffsetDateTime, Time, UtcOffset};

/// 1970-01-01, day 0.
const EPOCH: Date = OffsetDateTime::UNIX_EPOCH.date();

/// Returns the days since 1970-01-01 of a `YYYY-MM-DD` date (four digits of year, two of
/// month and day), or `None` when it is not one or no such day exists (`2023-02-29`).
pub fn parse_date(s: &str) -> Option<i64> {
    if s.len() != 10 {
        return None;
    }
    let day = read_day(s)?;
    Some(i64::from(day.to_julian_day()) - i64::from(EPOCH.to_julian_day()))
}

/// Returns `YYYY-MM-DD` for `days` since 1970-01-01, or `None` when that day is beyond the
/// years 0000–9999 a `YYYY-MM-DD` date can say.
pub fn format_date(days: i64) -> Option<String> {
    let julian = days.checked_add(i64::from(EPOCH.to_julian_day()))?;
    let day = Date::from_julian_day(i32::try_from(julian).ok()?).ok()?;
    (0..=9999).contains(&day.year()).then(|| {
        let (year, month, day) = day.to_calendar_date();
        format!("{year:04}-{:02}-{day:02}", u8::from(month))
    })
}

/// Returns the day `days` after `start` (`YYYY-MM-DD`) as `YYYY-MM-DD`, or `None` when `start`
/// cannot be read or the day falls after 9999-12-31.
pub fn add_days(start: &str, days: u64) -> Option<String> {
    format_date(parse_date(start)?.checked_add(i64::try_from(days).ok()?)?)
}

/// Returns the days from `start` (`YYYY-MM-DD`) to the same day `years` later (February 29
/// to February 28 in a common year), or `None` when `start` cannot be read or that year is
/// beyond what the calendar holds.
pub fn days_in_years(start: &str, years: u16) -> Option<u64> {
    let from = read_day(start)?;
    let year = from.year().checked_add(i32::from(years))?;
    let to = Date::from_calendar_date(year, from.month(), from.day())
        .or_else(|_| Date::from_calendar_date(year, from.month(), from.day().saturating_sub(1)))
        .ok()?;
    u64::try_from(to.to_julian_day().checked_sub(from.to_julian_day())?).ok()
}

/// Returns the `len` ASCII digits of `s` at `from` as a number.
fn digits(s: &str, from: usize, len: usize) -> Option<u16> {
    let part = s.get(from..from + len)?;
    part.bytes()
        .all(|c| c.is_ascii_digit())
        .then(|| part.parse().ok())?
}

/// Returns the day `YYYY-MM-DD` that `s` starts with, when there is such a day.
fn read_day(s: &str) -> Option<Date> {
    let b = s.as_bytes();
    if b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') {
        return None;
    }
    let month = Month::try_from(u8::try_from(digits(s, 5, 2)?).ok()?).ok()?;
    let day = u8::try_from(digits(s, 8, 2)?).ok()?;
    Date::from_calendar_date(i32::from(digits(s, 0, 4)?), month, day).ok()
}

/// Returns the milliseconds since 1970-01-01T00:00:00Z of an ISO-8601 date such as
/// `2024-01-31`, `2024-01-31T12:00`, `2024-01-31T12:00:00.123Z` or
/// `2024-01-31 12:00:00+02:00`, or a message saying what is wrong.
///
/// A missing time zone means UTC (as mongosh's `ISODate` does); digits of a second beyond
/// milliseconds are truncated.
pub fn parse_iso_date(text: &str) -> Result<i64, String> {
    parse_instant(text.trim()).ok_or_else(|| {
        format!("'{text}' is not an ISO-8601 date (expected e.g. '2024-01-31T12:00:00.000Z')")
    })
}

/// Reads the spellings `ISODate` accepts (which `time`'s ISO-8601 parser does not all
/// accept: a space or a lower-case `t` before the time, no seconds, no time zone, any number
/// of digits of a second); the calendar and the clock are `time`'s.
fn parse_instant(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    let num = |from: usize, len: usize| digits(s, from, len);
    let day = read_day(s)?;
    let mut i = 10;
    if i == b.len() {
        return millis(day, Time::MIDNIGHT, UtcOffset::UTC);
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
    let mut milli = 0;
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
            milli = ms.parse().ok()?;
        }
    }
    let clock = Time::from_hms_milli(
        u8::try_from(hour).ok()?,
        u8::try_from(minute).ok()?,
        u8::try_from(second).ok()?,
        milli,
    )
    .ok()?;
    let offset = match b.get(i) {
        None => UtcOffset::UTC,
        Some(b'Z' | b'z') if i + 1 == b.len() => UtcOffset::UTC,
        Some(sign @ (b'+' | b'-')) => {
            let hours = num(i + 1, 2)?;
            let rest = s.get(i + 3..)?;
            let minutes = match rest.len() {
                0 => 0,
                2 => num(i + 3, 2)?,
                3 if rest.starts_with(':') => num(i + 4, 2)?,
                _ => return None,
            };
            // `time` holds offsets up to 25 hours; ISO-8601's end at 23:59.
            if hours > 23 {
                return None;
            }
            let (hours, minutes) = (i8::try_from(hours).ok()?, i8::try_from(minutes).ok()?);
            let sign = if *sign == b'+' { 1 } else { -1 };
            UtcOffset::from_hms(sign * hours, sign * minutes, 0).ok()?
        }
        _ => return None,
    };
    millis(day, clock, offset)
}

/// Returns the milliseconds since the epoch of `day` at `clock` in time zone `offset`.
fn millis(day: Date, clock: Time, offset: UtcOffset) -> Option<i64> {
    let nanos = OffsetDateTime::new_in_offset(day, clock, offset).unix_timestamp_nanos();
    i64::try_from(nanos / 1_000_000).ok()
}

/// Returns the instant `millis` since the epoch in UTC, when it is in years 0000–9999.
fn instant(millis: i64) -> Option<OffsetDateTime> {
    let at = OffsetDateTime::from_unix_timestamp_nanos(i128::from(millis) * 1_000_000).ok()?;
    (0..=9999).contains(&at.year()).then_some(at)
}

/// Returns `millis` since the epoch as `YYYY-MM-DDTHH:MM:SS.mmmZ`, or `None` when the year
/// falls outside 0000–9999 (those dates are written as milliseconds instead).
pub fn format_iso_date(millis: i64) -> Option<String> {
    let at = instant(millis)?;
    Some(format!("{}.{:03}Z", seconds(at), at.millisecond()))
}

/// Returns `millis` since the epoch as RFC 3339 writes it (`2024-01-02T03:04:05Z`,
/// `…:05.5Z`: the fraction of a second only when there is one, without trailing zeros), or
/// `None` when the year falls outside 0000–9999. This is bson's relaxed Extended JSON date
/// (`time`'s RFC 3339 format).
pub fn format_rfc3339(millis: i64) -> Option<String> {
    let at = instant(millis)?;
    let fraction = format!("{:03}", at.millisecond());
    let fraction = fraction.trim_end_matches('0');
    Some(if fraction.is_empty() {
        format!("{}Z", seconds(at))
    } else {
        format!("{}.{fraction}Z", seconds(at))
    })
}

/// Returns `YYYY-MM-DDTHH:MM:SS` of `at`.
fn seconds(at: OffsetDateTime) -> String {
    let (year, month, day) = at.to_calendar_date();
    let (hour, minute, second) = at.to_hms();
    format!(
        "{year:04}-{:02}-{day:02}T{hour:02}:{minute:02}:{second:02}",
        u8::from(month)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_round_trip() {
        let d = parse_date("2024-02-29").unwrap_or_default();
        assert_eq!(format_date(d).as_deref(), Some("2024-02-29"));
        assert_eq!(parse_date("1970-01-01"), Some(0));
        assert_eq!(parse_date("2023-02-29"), None);
        assert_eq!(format_date(d + 1).as_deref(), Some("2024-03-01"));
        assert_eq!(add_days("2024-02-28", 2).as_deref(), Some("2024-03-01"));
        assert_eq!(add_days("2025-01-01", 0).as_deref(), Some("2025-01-01"));
        // 100 years hold 24 leap days (2100 is none); from a leap day, the anniversary in a
        // common year is February 28.
        assert_eq!(days_in_years("2025-01-01", 100), Some(36_524));
        assert_eq!(days_in_years("2000-01-01", 100), Some(36_525));
        assert_eq!(days_in_years("2024-02-29", 1), Some(365));
        assert_eq!(days_in_years("2025-1-1", 100), None);
    }

    #[test]
    fn a_day_is_four_digits_two_and_two() {
        for bad in [
            "+2024-01-01",
            "-2024-01-01",
            "2024-1-01",
            "2024-01-1",
            "24-01-01",
            "2024-01-01T00:00",
            "2024/01/01",
            "",
        ] {
            assert_eq!(parse_date(bad), None, "{bad}");
        }
        assert_eq!(parse_date("0000-01-01"), Some(-719_528));
        assert_eq!(parse_date("9999-12-31"), Some(2_932_896));
        assert_eq!(parse_date("2024-02-30"), None);
        assert_eq!(parse_date("2024-13-01"), None);
    }

    #[test]
    fn days_beyond_the_calendar_have_no_date() {
        assert_eq!(format_date(2_932_896).as_deref(), Some("9999-12-31"));
        assert_eq!(format_date(2_932_897), None);
        assert_eq!(format_date(i64::MAX), None);
        assert_eq!(format_date(i64::MIN), None);
        assert_eq!(format_date(-719_529), None);
        assert_eq!(add_days("9999-12-31", 1), None);
        assert_eq!(add_days("2025-01-01", u64::MAX), None);
    }

    #[test]
    fn rfc3339_drops_a_zero_fraction() {
        assert_eq!(
            format_rfc3339(1_704_164_645_000).as_deref(),
            Some("2024-01-02T03:04:05Z")
        );
        assert_eq!(
            format_rfc3339(1_704_164_645_500).as_deref(),
            Some("2024-01-02T03:04:05.5Z")
        );
        assert_eq!(format_rfc3339(253_402_300_800_000), None);
        assert_eq!(format_rfc3339(-62_167_219_200_001), None);
    }
}
