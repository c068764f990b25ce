//! Calls to other hosts, which only `values --verify` and the preview make: the agent each call
//! goes through, and what a URL that is given a key may be (no plain HTTP off this machine) and
//! shows (never its user name and password).

use std::borrow::Cow;
use std::net::IpAddr;
use std::time::Duration;

/// An agent for calls whose every answer is the caller's to read (no status is an error) and
/// that follow no redirect (a key must not go to another host), with a time limit.
pub fn agent(timeout: Duration) -> ureq::Agent {
    ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
        .http_status_as_error(false)
        .max_redirects(0)
        .build()
        .into()
}

/// The parts of a URL that decide where a key goes: its scheme, the user name and password
/// before `@` (if any) and the host (brackets kept off an IPv6 address).
struct Authority<'a> {
    scheme: &'a str,
    userinfo: Option<&'a str>,
    host: &'a str,
}

fn authority(url: &str) -> Option<Authority<'_>> {
    let (scheme, rest) = url.trim().split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let (userinfo, host_port) = match authority.rsplit_once('@') {
        Some((userinfo, host_port)) => (Some(userinfo), host_port),
        None => (None, authority),
    };
    let host = match host_port.strip_prefix('[') {
        Some(bracketed) => bracketed.split(']').next().unwrap_or(""),
        None => host_port.split(':').next().unwrap_or(""),
    };
    Some(Authority {
        scheme,
        userinfo,
        host,
    })
}

/// `text` (a URL, or a message that quotes one) with the user name and password of `url`
/// masked: `http://user:pass@host/` is shown `http://***@host/`.
pub fn mask_userinfo<'t>(text: &'t str, url: &str) -> Cow<'t, str> {
    match authority(url).and_then(|a| a.userinfo) {
        Some(userinfo) if !userinfo.is_empty() && text.contains(userinfo) => Cow::Owned(
            text.replace(&format!("{userinfo}@"), "***@")
                .replace(userinfo, "***"),
        ),
        _ => Cow::Borrowed(text),
    }
}

/// Whether `host` is this machine: a name of it, 127.0.0.0/8 or ::1.
fn is_loopback(host: &str) -> bool {
    names_this_machine(host)
        || host
            .trim_end_matches('.')
            .parse::<IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// Whether `host` is a name the resolver keeps for this machine (RFC 6761: `localhost` and the
/// names under it, and the old `localhost.localdomain`).
pub fn names_this_machine(host: &str) -> bool {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    host == "localhost" || host.ends_with(".localhost") || host == "localhost.localdomain"
}

/// Why a key may not be sent to `url`: plain HTTP to a host other than this machine, where
/// anyone on the way reads it, unless `allow_http`. `None` when it may.
pub fn refuse_plain_http(url: &str, allow_http: bool) -> Option<String> {
    let parts = authority(url)?;
    if allow_http || !parts.scheme.eq_ignore_ascii_case("http") || is_loopback(parts.host) {
        return None;
    }
    Some(format!(
        "{}: plain HTTP would send the API key unencrypted to {}, which is not this machine; \
         use https://, or pass --allow-http to send it anyway",
        mask_userinfo(url, url),
        parts.host
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_http_goes_to_this_machine_only() {
        for url in [
            "http://127.0.0.1:8080",
            "http://127.9.9.9/x",
            "http://localhost:1",
            "HTTP://LOCALHOST.",
            "http://[::1]:9/",
            "https://example.test",
            "https://user:pw@example.test",
        ] {
            assert_eq!(refuse_plain_http(url, false), None, "{url}");
        }
        for url in [
            "http://example.test",
            "http://10.0.0.1:80",
            "http://127.0.0.1.example.test/",
            "http://localhost@evil.test/",
            "http://[::2]/",
        ] {
            assert!(refuse_plain_http(url, false).is_some(), "{url}");
            assert_eq!(refuse_plain_http(url, true), None, "{url}");
        }
        let refusal = refuse_plain_http("http://me:s3cret@example.test/x", false).unwrap();
        assert!(
            refusal.starts_with("http://***@example.test/x: plain HTTP"),
            "{refusal}"
        );
    }

    #[test]
    fn user_names_and_passwords_are_masked() {
        let url = "http://me:s3cret@127.0.0.1:9";
        assert_eq!(mask_userinfo(url, url), "http://***@127.0.0.1:9");
        assert_eq!(
            mask_userinfo("connect to me:s3cret failed", url),
            "connect to *** failed"
        );
        assert_eq!(mask_userinfo("http://h/", "http://h/"), "http://h/");
    }
}
