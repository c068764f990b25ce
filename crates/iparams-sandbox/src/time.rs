//! Dates and timestamps in the document's formats, without a calendar crate: `YYYY-MM-DD` and
//! `YYYY-MM-DDTHH:MM:SS.sssZ` (UTC), over the proleptic Gregorian calendar.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Where the sandbox reads the time: the system clock, or one a test moves by hand so that the
/// rate-limit window passes without sleeping.
pub trait Clock: Send + Sync + std::fmt::Debug {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    fn now_ms(&self) -> u64;
}

/// The system's clock.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_ms(&self) -> u64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
    }
}

/// A clock that only moves when told to.
#[derive(Debug, Default, Clone)]
pub struct ManualClock(Arc<AtomicU64>);

impl ManualClock {
    pub fn at(ms: u64) -> Self {
        Self(Arc::new(AtomicU64::new(ms)))
    }

    pub fn advance(&self, ms: u64) {
        self.0.fetch_add(ms, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }
}

/// Days since 1970-01-01 of a civil date (H. Hinnant's algorithm).
pub fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(month);
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil date of a day count since 1970-01-01.
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = u32::try_from(doy - (153 * mp + 2) / 5 + 1).unwrap_or(1);
    let month = u32::try_from(if mp < 10 { mp + 3 } else { mp - 9 }).unwrap_or(1);
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        _ => 31,
    }
}

fn digits(text: &str) -> Option<u32> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// A `YYYY-MM-DD` date that exists, as days since 1970-01-01.
pub fn parse_date(text: &str) -> Option<i64> {
    let bytes = text.as_bytes();
    if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
        return None;
    }
    let year = i64::from(digits(text.get(0..4)?)?);
    let month = digits(text.get(5..7)?)?;
    let day = digits(text.get(8..10)?)?;
    if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return None;
    }
    Some(days_from_civil(year, month, day))
}

pub fn format_date(days: i64) -> String {
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02}")
}

/// `YYYY-MM-DDTHH:MM:SS.sssZ`.
pub fn format_timestamp(ms: u64) -> String {
    let ms = i64::try_from(ms).unwrap_or(i64::MAX);
    let days = ms.div_euclid(86_400_000);
    let rest = ms.rem_euclid(86_400_000);
    let (h, min, s, milli) = (
        rest / 3_600_000,
        rest / 60_000 % 60,
        rest / 1000 % 60,
        rest % 1000,
    );
    format!("{}T{h:02}:{min:02}:{s:02}.{milli:03}Z", format_date(days))
}

/// A date-time in UTC: `YYYY-MM-DD`, or that with `THH:MM`, `:SS`, `.fraction` and `Z` or
/// `+00:00`; as milliseconds since 1970.
pub fn parse_timestamp(text: &str) -> Option<u64> {
    let date = parse_date(text.get(0..10)?)?;
    let mut rest = text.get(10..)?;
    let mut ms = date * 86_400_000;
    if !rest.is_empty() {
        rest = rest.strip_prefix('T').or_else(|| rest.strip_prefix(' '))?;
        rest = rest
            .strip_suffix('Z')
            .or_else(|| rest.strip_suffix("+00:00"))
            .unwrap_or(rest);
        let (clock, fraction) = match rest.split_once('.') {
            Some((clock, fraction)) => (clock, Some(fraction)),
            None => (rest, None),
        };
        let mut parts = clock.split(':');
        let h = digits(parts.next()?)?;
        let m = digits(parts.next()?)?;
        let s = parts.next().map_or(Some(0), digits)?;
        if parts.next().is_some() || h > 23 || m > 59 || s > 59 {
            return None;
        }
        ms += i64::from(h * 3_600_000 + m * 60_000 + s * 1000);
        if let Some(fraction) = fraction {
            let first = fraction.get(0..fraction.len().min(3))?;
            digits(fraction)?;
            let padded = format!("{first:0<3}");
            ms += i64::from(digits(&padded)?);
        }
    }
    u64::try_from(ms).ok()
}

/// Monday to Friday between two dates, both included.
pub fn weekdays_between(start: i64, end: i64) -> i64 {
    (start..=end)
        .filter(|day| {
            // 1970-01-01 was a Thursday (index 3 with Monday = 0).
            (day + 3).rem_euclid(7) < 5
        })
        .count()
        .try_into()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_round_trip_and_check_the_calendar() {
        assert_eq!(parse_date("1970-01-01"), Some(0));
        assert_eq!(format_date(parse_date("2024-02-29").unwrap()), "2024-02-29");
        assert_eq!(parse_date("2023-02-29"), None);
        assert_eq!(parse_date("2023-13-01"), None);
        assert_eq!(parse_date("2023-1-01"), None);
        assert_eq!(format_timestamp(0), "1970-01-01T00:00:00.000Z");
        let t = parse_timestamp("2026-11-23T08:53:57.123Z").unwrap();
        assert_eq!(format_timestamp(t), "2026-11-23T08:53:57.123Z");
        assert_eq!(parse_timestamp("2026-11-23"), Some(t - t % 86_400_000));
        assert_eq!(parse_timestamp("2026-11-23T25:00:00Z"), None);
        // 2026-11-23 is a Monday.
        let monday = parse_date("2026-11-23").unwrap();
        assert_eq!(weekdays_between(monday, monday + 6), 5);
    }
}
