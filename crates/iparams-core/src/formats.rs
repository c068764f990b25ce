//! The installation page's built-in checks for typed values, shared by default values and
//! installation values.
//!
//! Where the vendor's own check is buggy (an unanchored URL pattern, dates without a calendar)
//! these do what the installation page should do; the rule docs say where they differ.

use crate::model::IparamType;

/// Why `value` is not valid for `ty`, or `None` when it is (or when the type has no format).
/// The precise reasons quote parts of the value (a domain, a character), so a secret value
/// (`reveal` false) gets only the general one.
pub fn format_error(ty: IparamType, value: &str, reveal: bool) -> Option<String> {
    let reason = match ty {
        IparamType::Email => email_error(value),
        IparamType::Url => url_error(value),
        IparamType::PhoneNumber => phone_error(value),
        IparamType::Date => date_error(value),
        IparamType::Number => number_error(value),
        _ => None,
    }?;
    Some(if reveal {
        reason
    } else {
        format!("is not a valid {}", ty.name())
    })
}

/// What a valid value of `ty` looks like, for help texts.
pub fn format_example(ty: IparamType) -> Option<&'static str> {
    match ty {
        IparamType::Email => Some("an address such as `support@example.com`"),
        IparamType::Url => Some("an https URL such as `https://example.com/path`"),
        IparamType::PhoneNumber => Some("10 digits, as `9876543210` or `987-654-3210`"),
        IparamType::Date => Some("a calendar date written `YYYY-MM-DD`, such as `2024-02-29`"),
        IparamType::Number => Some("an integer of at most 10 digits, such as `30` or `-5`"),
        _ => None,
    }
}

/// The browser's rule for `<input type=email>` (WHATWG), which the installation page, a web
/// form, applies (stricter RFC 5322 forms such as quoted local parts are not accepted there), and
/// the page's own rule that the domain has a dot.
fn email_error(value: &str) -> Option<String> {
    let Some((local, domain)) = value.split_once('@') else {
        return Some("has no `@`".into());
    };
    if domain.contains('@') {
        return Some("has more than one `@`".into());
    }
    if local.is_empty() {
        return Some("has nothing before the `@`".into());
    }
    if let Some(bad) = local
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || ".!#$%&'*+/=?^_`{|}~-".contains(*c)))
    {
        return Some(format!(
            "has `{bad}` before the `@`, which an e-mail address cannot contain"
        ));
    }
    if domain.is_empty() {
        return Some("has no domain after the `@`".into());
    }
    let label_ok = |label: &str| {
        !label.is_empty()
            && label.len() <= 63
            && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            && !label.starts_with('-')
            && !label.ends_with('-')
    };
    if !domain.split('.').all(label_ok) {
        return Some(format!(
            "has `{domain}` after the `@`, which is not a valid domain"
        ));
    }
    // The browser allows a domain of one label; the installation page does not.
    if !domain.contains('.') {
        return Some(format!(
            "has `{domain}` after the `@`, a domain without a dot, which the installation page rejects"
        ));
    }
    None
}

/// Valid, absolute and `https://`: the installation page accepts nothing else. Unlike the
/// vendor's unanchored pattern, text around the URL is not accepted.
fn url_error(value: &str) -> Option<String> {
    if value.chars().any(char::is_whitespace) {
        return Some("contains spaces".into());
    }
    if !value.starts_with("https://") {
        return Some(if value.to_ascii_lowercase().starts_with("http://") {
            "uses http; the installation page accepts only https URLs".into()
        } else if value.to_ascii_lowercase().starts_with("https://") {
            "must start with `https://` in lower case".into()
        } else if value.contains("://") {
            "is not an https URL".into()
        } else {
            "has no `https://` scheme".into()
        });
    }
    match url::Url::parse(value) {
        Err(error) => Some(format!("is not a valid URL ({error})")),
        Ok(url) if url.host_str().is_none_or(str::is_empty) => Some("has no host".into()),
        Ok(_) => None,
    }
}

/// The vendor's phone check: ten digits, bare or grouped 3-3-4 with dashes.
fn phone_error(value: &str) -> Option<String> {
    let digits = |part: &str, n: usize| part.len() == n && part.bytes().all(|b| b.is_ascii_digit());
    let grouped = value.split('-').collect::<Vec<_>>();
    let ok = digits(value, 10)
        || (grouped.len() == 3
            && digits(grouped[0], 3)
            && digits(grouped[1], 3)
            && digits(grouped[2], 4));
    (!ok).then(|| "is not 10 digits, bare or as 3-3-4 with dashes".into())
}

/// `YYYY-MM-DD` and a real day of the calendar (the vendor's check lets `2014-02-31` through).
fn date_error(value: &str) -> Option<String> {
    let parts: Vec<&str> = value.split('-').collect();
    let number = |part: &str, len: usize| {
        (part.len() == len && part.bytes().all(|b| b.is_ascii_digit()))
            .then(|| part.parse::<u32>().ok())
            .flatten()
    };
    let (Some(year), Some(month), Some(day)) = (
        parts.first().and_then(|p| number(p, 4)),
        parts.get(1).and_then(|p| number(p, 2)),
        parts.get(2).and_then(|p| number(p, 2)),
    ) else {
        return Some("is not written `YYYY-MM-DD`".into());
    };
    if parts.len() != 3 {
        return Some("is not written `YYYY-MM-DD`".into());
    }
    if !(1..=12).contains(&month) {
        return Some(format!("has month {month:02}; months run from 01 to 12"));
    }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    if day == 0 || day > days {
        let month_name = MONTHS[month as usize - 1];
        return Some(format!(
            "is not a real date: {month_name} {year} has {days} days"
        ));
    }
    None
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// The maximum number of digits the installation page's number field takes.
pub const MAX_NUMBER_DIGITS: usize = 10;

/// An integer of at most ten digits, optionally negative.
fn number_error(value: &str) -> Option<String> {
    let digits = value.strip_prefix('-').unwrap_or(value);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Some("is not an integer".into());
    }
    (digits.len() > MAX_NUMBER_DIGITS).then(|| {
        format!(
            "has {} digits; the field takes at most {MAX_NUMBER_DIGITS}",
            digits.len()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(ty: IparamType, value: &str) -> bool {
        format_error(ty, value, true).is_none()
    }

    #[test]
    fn emails() {
        assert!(ok(IparamType::Email, "support@example.com"));
        assert!(ok(IparamType::Email, "a.b+c@sub.example.co"));
        assert!(!ok(IparamType::Email, "support.example.com"));
        assert!(!ok(IparamType::Email, "a@b@c"));
        assert!(!ok(IparamType::Email, "a b@example.com"));
        assert!(!ok(IparamType::Email, "a@-example.com"));
        // The installation page rejects a domain without a dot.
        assert!(!ok(IparamType::Email, "user@localhost"));
        assert!(!ok(IparamType::Email, "a@b"));
    }

    #[test]
    fn urls_must_be_https_and_whole() {
        assert!(ok(IparamType::Url, "https://example.com/api?x=1"));
        assert!(!ok(IparamType::Url, "http://example.com"));
        assert!(!ok(IparamType::Url, "see https://www.example.com"));
        assert!(!ok(IparamType::Url, "HTTPS://example.com"));
        assert!(!ok(IparamType::Url, "https://"));
        assert!(!ok(IparamType::Url, "example.com"));
    }

    #[test]
    fn phone_numbers_as_the_vendor_accepts_them() {
        assert!(ok(IparamType::PhoneNumber, "9876545677"));
        assert!(ok(IparamType::PhoneNumber, "987-654-5677"));
        assert!(!ok(IparamType::PhoneNumber, "987-832654-5677"));
        assert!(!ok(IparamType::PhoneNumber, "+1 987 654 5677"));
    }

    #[test]
    fn secret_values_get_reasons_that_quote_nothing() {
        let value = "bob@hidden_domain.example";
        let precise = format_error(IparamType::Email, value, true).unwrap();
        assert!(precise.contains("hidden_domain"), "{precise}");
        assert_eq!(
            format_error(IparamType::Email, value, false).as_deref(),
            Some("is not a valid email")
        );
        assert_eq!(format_error(IparamType::Email, "a@b.example", false), None);
    }

    #[test]
    fn dates_follow_the_calendar() {
        assert!(ok(IparamType::Date, "2024-02-29"));
        assert!(ok(IparamType::Date, "2000-02-29"));
        assert_eq!(
            format_error(IparamType::Date, "2014-02-31", true).as_deref(),
            Some("is not a real date: February 2014 has 28 days")
        );
        assert!(!ok(IparamType::Date, "1900-02-29"));
        assert!(!ok(IparamType::Date, "2024-13-01"));
        assert!(!ok(IparamType::Date, "24-01-01"));
        assert!(!ok(IparamType::Date, "2024/01/01"));
    }

    #[test]
    fn numbers_are_integers_of_ten_digits_at_most() {
        assert!(ok(IparamType::Number, "30"));
        assert!(ok(IparamType::Number, "-5"));
        assert!(ok(IparamType::Number, "9999999999"));
        assert!(!ok(IparamType::Number, "12345678901"));
        assert!(!ok(IparamType::Number, "-987.5677"));
        assert!(!ok(IparamType::Number, "ten"));
        assert!(!ok(IparamType::Number, ""));
    }
}
