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
        IparamType::Domain => Some("the sub-domain alone, such as `acme`"),
        _ => None,
    }
}

/// The longest label a host name may hold (RFC 1035).
const MAX_LABEL: usize = 63;

/// What the installation page stores of what is typed into a `domain` field: it stands between
/// a fixed `https://` and the product's domain, so a full URL or host name is cut to its
/// sub-domain (the scheme, then anything from the first `/`, `?` or `#`, then anything from the
/// first dot).
pub fn sub_domain(value: &str) -> &str {
    let value = value.trim();
    let after_scheme = value.find("://").map_or(value, |at| &value[at + 3..]);
    let host = after_scheme
        .split(['/', '?', '#'])
        .next()
        .unwrap_or(after_scheme);
    host.split('.').next().unwrap_or(host)
}

/// Why `value` is not what a `domain` iparam stores, a bare sub-domain (one host label:
/// letters, digits and dashes, neither first nor last, at most 63), or `None` when it is. A
/// value the page would cut says what it keeps; a secret value (`reveal` false) gets only the
/// general reason.
pub fn domain_error(value: &str, reveal: bool) -> Option<String> {
    let kept = sub_domain(value);
    match label_error(kept) {
        None if kept == value => None,
        None if !reveal => Some("is not a bare sub-domain".into()),
        None if value.contains("://") => Some(format!(
            "is a full URL; the installation page cuts it to its sub-domain `{kept}` and stores \
             that"
        )),
        None => Some(format!(
            "is more than a sub-domain; the installation page cuts it to `{kept}` and stores that"
        )),
        Some(_) if !reveal => Some("is not a valid sub-domain".into()),
        Some(reason) => Some(format!("is not a sub-domain: {reason}")),
    }
}

/// Why `label` cannot be one label of a host name, or `None`.
fn label_error(label: &str) -> Option<String> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || c == '-';
    let mut bad: Vec<char> = Vec::new();
    for c in label.chars().filter(|&c| !allowed(c)) {
        if !bad.contains(&c) {
            bad.push(c);
        }
    }
    if !bad.is_empty() {
        let listed: Vec<String> = bad
            .iter()
            .map(|c| match c {
                ' ' => "a space".to_owned(),
                c if c.is_whitespace() => format!("{c:?}"),
                c => format!("`{c}`"),
            })
            .collect();
        let listed = match listed.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => listed.concat(),
        };
        return Some(format!(
            "it holds {listed}, which a host name cannot; letters, digits and dashes only"
        ));
    }
    if label.is_empty() {
        return Some("it is empty".into());
    }
    if label.starts_with('-') || label.ends_with('-') {
        return Some("it starts or ends with a dash, which a host name cannot".into());
    }
    (label.len() > MAX_LABEL).then(|| {
        format!(
            "it has {} characters; a host name's label has at most {MAX_LABEL}",
            label.len()
        )
    })
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

/// Whether `host` is an IP address in any spelling a URL parser reads as one: dotted, one
/// decimal number (`2130706433`), hex or octal parts (`0x7f.1`, `0177.0.0.1`), IPv6 (`::1`,
/// `[fe80::1]`), link-local and the like. As browsers decide, a host whose last label is a
/// number is an IPv4 address; no top-level domain is one. The vendor takes none as a request
/// template's host: the `request-host` rule reports it and the preview does not call it.
pub fn is_ip_host(host: &str) -> bool {
    let host = host.trim().trim_end_matches('.');
    if host.contains(':') || host.starts_with('[') {
        return true;
    }
    let last = host.rsplit('.').next().unwrap_or("");
    let hex = last
        .strip_prefix("0x")
        .or_else(|| last.strip_prefix("0X"))
        .is_some_and(|digits| digits.bytes().all(|b| b.is_ascii_hexdigit()));
    hex || (!last.is_empty() && last.bytes().all(|b| b.is_ascii_digit()))
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

    #[test]
    fn domains_are_bare_sub_domains_as_the_page_stores_them() {
        assert_eq!(sub_domain("https://acme.freshteam.com/path?q"), "acme");
        assert_eq!(sub_domain("acme.freshteam.com"), "acme");
        assert_eq!(sub_domain(" acme "), "acme");
        assert_eq!(domain_error("acme", true), None);
        assert_eq!(domain_error("acme-hr-2", true), None);
        let cut = domain_error("https://acme.freshteam.com", true).unwrap();
        assert!(cut.contains("full URL") && cut.contains("`acme`"), "{cut}");
        let host = domain_error("acme.freshteam.com", true).unwrap();
        assert!(host.contains("cuts it to `acme`"), "{host}");
        let spaced = domain_error("acme corp!", true).unwrap();
        assert!(spaced.contains("a space and `!`"), "{spaced}");
        assert!(domain_error("-acme", true).unwrap().contains("dash"));
        assert!(
            domain_error(&"a".repeat(64), true)
                .unwrap()
                .contains("64 characters")
        );
        // A URL whose sub-domain cannot be a host label is reported for that label.
        assert!(
            domain_error("https://ac me.freshteam.com", true)
                .unwrap()
                .contains("a space")
        );
        assert_eq!(
            domain_error("https://acme.freshteam.com", false).as_deref(),
            Some("is not a bare sub-domain")
        );
        assert_eq!(
            domain_error("a b", false).as_deref(),
            Some("is not a valid sub-domain")
        );
    }
}
