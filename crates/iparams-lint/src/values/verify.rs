//! `iparams-lint values --verify`: the installation page's credential check. Each `domain`
//! iparam is paired with the `api_key` iparam of the same product; for product `freshteam` the
//! HR service is asked `GET /api/branches` with `Authorization: Bearer <key>`, at
//! `https://<domain>.freshteam.com` or at `--hr-url`. Other products are reported as not
//! verified. The key is never printed: findings name the iparam, and its value is masked.
//!
//! These are the only network calls the command makes, and only with `--verify`.

use std::io::Write;
use std::time::Duration;

use iparams_core::app::hr_service::{PRODUCT, credential_check_url};
use iparams_core::app::{Outline, credential_pairs};
use iparams_core::rules::VERIFY_CREDENTIALS;
use iparams_core::syntax::parse_value;
use iparams_core::{
    Diagnostic, FileReport, RuleSettings, Severity, SourceText, Span, finish, pointer,
};

use crate::net;

/// The rule the findings carry, registered in the core (its docs, its level in the
/// configuration, SARIF's rule table) though only this module reports it.
const RULE: &str = VERIFY_CREDENTIALS.name;

const TIMEOUT: Duration = Duration::from_secs(10);

/// One pair of the values to check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pair {
    pub product: String,
    pub domain_key: String,
    pub api_key_key: String,
    /// The sub-domain as the page keeps it (a full URL cut to it), if a string was given.
    pub domain: Option<String>,
    pub api_key: Option<String>,
    /// Where the api_key's value is (or the domain's, or the file start).
    pub span: Span,
    pub domain_span: Option<Span>,
}

/// What the service answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Status {
        status: u16,
        /// `x-ratelimit-total`, `x-ratelimit-remaining`, `retry-after`, when sent.
        limits: Vec<(String, String)>,
    },
    NoAnswer(String),
}

/// The pairs of domain/api_key iparams of `definitions` (as the core pairs them) with their
/// values in `values`.
pub fn pairs(definitions: &str, values: &str) -> Vec<Pair> {
    let outline = Outline::of(definitions);
    let (Some(vals), _) = parse_value(values) else {
        return Vec::new();
    };
    let given = |key: &str| {
        vals.as_object()
            .and_then(|members| members.iter().rev().find(|m| m.key.text == key))
            .map(|m| (&m.value, m.value.span))
    };
    let mut pairs = Vec::new();
    for (domain, api_key) in credential_pairs(&outline.iparams) {
        let domain_value = given(&domain.key);
        let key_value = given(&api_key.key);
        let span = key_value
            .map(|(_, span)| span)
            .or(domain_value.map(|(_, span)| span))
            .unwrap_or(Span::at(0));
        pairs.push(Pair {
            product: domain.product.clone().unwrap_or_default(),
            domain_key: domain.key.clone(),
            api_key_key: api_key.key.clone(),
            domain: domain_value.and_then(|(v, _)| v.as_str()).map(sub_domain),
            api_key: key_value.and_then(|(v, _)| v.as_str()).map(str::to_owned),
            span,
            domain_span: domain_value.map(|(_, span)| span),
        });
    }
    pairs
}

/// The sub-domain the page keeps of what was typed: `https://acme.freshteam.com/x` → `acme`.
fn sub_domain(text: &str) -> String {
    let text = text.trim();
    let text = text.split_once("://").map_or(text, |(_, rest)| rest);
    let host = text.split(['/', '?', '#']).next().unwrap_or("");
    host.split('.').next().unwrap_or("").to_owned()
}

/// Whether `domain` can be put in a host name as it is.
fn is_sub_domain(domain: &str) -> bool {
    !domain.is_empty()
        && domain.len() <= 63
        && domain
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// Asks the service; the key goes only into the Authorization header.
pub fn ask(url: &str, key: &str) -> Outcome {
    let answer = net::agent(TIMEOUT)
        .get(url)
        .header("Authorization", &format!("Bearer {key}"))
        .header("Accept", "application/json")
        .call();
    match answer {
        Ok(response) => {
            let limits = [
                "x-ratelimit-total",
                "x-ratelimit-remaining",
                "x-ratelimit-used-currentrequest",
                "retry-after",
            ]
            .iter()
            .filter_map(|name| {
                let value = response.headers().get(*name)?.to_str().ok()?;
                Some(((*name).to_owned(), value.to_owned()))
            })
            .collect();
            Outcome::Status {
                status: response.status().as_u16(),
                limits,
            }
        }
        Err(error) => Outcome::NoAnswer(masked(&error.to_string(), key)),
    }
}

/// `text` with the key, if it appears, replaced.
fn masked(text: &str, key: &str) -> String {
    if key.len() >= 4 {
        text.replace(key, "****")
    } else {
        text.to_owned()
    }
}

/// The finding for a pair's outcome; `None` when it passed.
pub fn finding(pair: &Pair, url: &str, outcome: &Outcome) -> Option<Diagnostic> {
    let names = format!("`{}`/`{}`", pair.domain_key, pair.api_key_key);
    let (severity, message, label, help) = match outcome {
        Outcome::Status { status: 200, .. } => return None,
        Outcome::Status { status: 401, .. } => (
            Severity::Error,
            "Domain or API key is not matching".to_owned(),
            "rejected (401)",
            format!(
                "GET {url} with this key answered 401 Unauthenticated: the key is not one of this \
                 account's. The installation page marks {names} with this message and does not install."
            ),
        ),
        Outcome::Status { status: 403, .. } => (
            Severity::Error,
            "The API key works, but its role may not read branches".to_owned(),
            "forbidden (403)",
            format!(
                "GET {url} answered 403 Forbidden: the key is valid, but its user's role may not read \
                 branches, so the installation page's check fails with \"Domain or API key is not \
                 matching\". Use the key of an HR Partner, Admin or Account Admin."
            ),
        ),
        Outcome::Status {
            status: 429,
            limits,
        } => {
            let shown = limits
                .iter()
                .map(|(name, value)| format!("{name}: {value}"))
                .collect::<Vec<_>>()
                .join(", ");
            (
                Severity::Warning,
                "Could not check the credentials: the account's rate limit is used up".to_owned(),
                "not checked (429)",
                format!(
                    "GET {url} answered 429 Too Many Requests ({}). Try again after the minute.",
                    if shown.is_empty() {
                        "no limit headers".to_owned()
                    } else {
                        shown
                    }
                ),
            )
        }
        Outcome::Status { status, .. } => (
            Severity::Error,
            "Domain or API key is not matching".to_owned(),
            "not accepted",
            format!(
                "GET {url} answered HTTP {status}; the installation page accepts only 200 and marks \
                 {names} with this message."
            ),
        ),
        Outcome::NoAnswer(reason) => (
            Severity::Error,
            format!("No answer from the HR service at {url}"),
            "not checked",
            format!(
                "{reason}. Check the domain `{}` (or --hr-url) and the network.",
                pair.domain.as_deref().unwrap_or("")
            ),
        ),
    };
    let mut diagnostic = Diagnostic::new(RULE, severity, pair.span, message);
    diagnostic
        .label(label)
        .help(help)
        .pointer(pointer::of_key(&pair.api_key_key));
    Some(diagnostic)
}

/// Runs the check for every pair of the values, adding findings to `report` (and masking each
/// key's value); passes and skips are noted on `stderr`.
pub fn verify(
    definitions: &SourceText<'_>,
    values: &SourceText<'_>,
    hr_url: Option<&str>,
    settings: &RuleSettings,
    report: &mut FileReport,
    stderr: &mut dyn Write,
) {
    if !settings.is_enabled(VERIFY_CREDENTIALS) {
        let _ = writeln!(
            stderr,
            "iparams-lint: --verify: the rule verify-credentials is off; nothing verified"
        );
        return;
    }
    let first = report.diagnostics.len();
    let pairs = pairs(definitions.text(), values.text());
    if pairs.is_empty() {
        let _ = writeln!(
            stderr,
            "iparams-lint: --verify: no domain/api_key pair of one product in the iparams; nothing to check"
        );
    }
    for pair in &pairs {
        if pair.api_key.is_some() && pair.span.end > pair.span.start {
            report.redactions.push(pair.span);
        }
        if pair.product != PRODUCT {
            let mut diagnostic = Diagnostic::new(
                RULE,
                Severity::Info,
                pair.span,
                format!(
                    "The `{}` credentials ({}) are not verified: only product {PRODUCT} is",
                    pair.product, pair.api_key_key
                ),
            );
            diagnostic
                .label("not verified")
                .pointer(pointer::of_key(&pair.api_key_key));
            report.diagnostics.push(diagnostic);
            continue;
        }
        let (Some(domain), Some(key)) = (&pair.domain, &pair.api_key) else {
            let _ = writeln!(
                stderr,
                "iparams-lint: --verify: `{}`/`{}` not checked: a value is missing",
                pair.domain_key, pair.api_key_key
            );
            continue;
        };
        if key.trim().is_empty() || (hr_url.is_none() && !is_sub_domain(domain)) {
            let mut diagnostic = Diagnostic::new(
                RULE,
                Severity::Error,
                pair.domain_span.unwrap_or(pair.span),
                "Domain or API key is not matching",
            );
            diagnostic
                .label("not checked")
                .help(format!(
                    "`{}` must be the account's sub-domain (letters, digits, hyphens) and `{}` a key",
                    pair.domain_key, pair.api_key_key
                ))
                .pointer(pointer::of_key(&pair.domain_key));
            report.diagnostics.push(diagnostic);
            continue;
        }
        let url = credential_check_url(hr_url, domain);
        let outcome = match ask(&url, key) {
            Outcome::NoAnswer(reason) => {
                Outcome::NoAnswer(net::mask_userinfo(&reason, &url).into_owned())
            }
            answered => answered,
        };
        // Shown without the URL's user name and password, as every message shows it.
        let url = net::mask_userinfo(&url, &url);
        match finding(pair, &url, &outcome) {
            Some(diagnostic) => report.diagnostics.push(diagnostic),
            None => {
                let _ = writeln!(
                    stderr,
                    "iparams-lint: --verify: `{}`/`{}` verified: GET {url} answered 200",
                    pair.domain_key, pair.api_key_key
                );
            }
        }
    }
    // Settled as the core settles its own rules' findings: the level configured for the rule
    // at each finding's pointer.
    let mut verified = finish(report.diagnostics.split_off(first), settings);
    report.diagnostics.append(&mut verified);
    report
        .diagnostics
        .sort_by_key(|d| (d.span.start, d.span.end));
    report.redactions.sort_unstable();
    report.redactions.dedup();
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEFINITIONS: &str = r#"{
      "hr_domain": {"type": "domain", "type_attributes": {"product": "freshteam"}},
      "hr_key": {"type": "api_key", "type_attributes": {"product": "freshteam"}},
      "desk_domain": {"type": "domain", "type_attributes": {"product": "freshdesk"}},
      "desk_key": {"type": "api_key", "type_attributes": {"product": "freshdesk"}},
      "lonely": {"type": "domain", "type_attributes": {"product": "freshsales"}}
    }"#;

    #[test]
    fn domains_pair_with_the_key_of_their_product() {
        let values =
            r#"{"hr_domain": "https://acme.freshteam.com/", "hr_key": "k1", "desk_key": "k2"}"#;
        let found = pairs(DEFINITIONS, values);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].domain.as_deref(), Some("acme"));
        assert_eq!(found[0].api_key.as_deref(), Some("k1"));
        assert_eq!(&values[found[0].span.start..found[0].span.end], "\"k1\"");
        assert_eq!(found[1].product, "freshdesk");
        assert_eq!(found[1].domain, None);
    }

    #[test]
    fn findings_never_carry_the_key() {
        let values = r#"{"hr_domain": "acme", "hr_key": "secret-key-123"}"#;
        let pair = &pairs(DEFINITIONS, values)[0];
        for status in [401, 403, 429, 500] {
            let outcome = Outcome::Status {
                status,
                limits: vec![("x-ratelimit-total".into(), "10".into())],
            };
            let d = finding(pair, "http://127.0.0.1:1/api/branches", &outcome).expect("a finding");
            assert!(!format!("{d:?}").contains("secret-key-123"));
        }
        assert!(
            finding(
                pair,
                "u",
                &Outcome::Status {
                    status: 200,
                    limits: vec![]
                }
            )
            .is_none()
        );
        assert_eq!(
            masked("bad secret-key-123 here", "secret-key-123"),
            "bad **** here"
        );
    }
}
