//! `legacy-request-api`: the request API of platforms before 2.3 on a later platform, or, before
//! 2.3, a URL outside the manifest's `whitelisted-domains`.

use crate::app::{AppModel, Platform};
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "legacy-request-api",
    severity: Severity::Error,
    area: Area::Templates,
    summary: "`client.request.get(url)` and `$request.get(url)` on platform 2.3 or later, or a URL outside `whitelisted-domains` before it",
    docs: r#"From platform 2.3 on, apps reach outside services only through request templates
(config/requests.json, `invokeTemplate`): `client.request.get/post/put/delete/patch(url, …)` and
`$request.get/…(url, …)` fail with "get is no longer supported in Request API". Move each call to a
template: host and path from the URL, headers from the options, and the body given at the
invocation.

Before 2.3 those calls are the way, and every URL must match an origin of the manifest's
`whitelisted-domains` (`https://*.example.com` matches every sub-domain); other calls are blocked.
Only URLs written as string literals are checked."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{}
=== app/scripts/app.js ===
client.request.get("https://api.example.com/users", {headers: {Accept: "application/json"}});
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {"requests": {"getUsers": {}}}}}
=== config/iparams.json ===
{}
=== config/requests.json ===
{"getUsers": {"schema": {"method": "GET", "host": "api.example.com", "path": "/users", "headers": {"Accept": "application/json"}}}}
=== app/scripts/app.js ===
client.request.invokeTemplate("getUsers", {});
"#,
    examples: Examples::App,
    vendor: "Not checked by `fdk validate`; the call fails at run time.",
    fix: None,
    checks: &[Check::App(check)],
};

const TEMPLATES_FROM: Platform = Platform { major: 2, minor: 3 };

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    let manifest = &model.manifest.manifest;
    let Some(platform) = manifest.platform else {
        return;
    };
    for (file, _, facts) in model.scripts() {
        for call in &facts.legacy_requests {
            let method = &call.method.name;
            if platform >= TEMPLATES_FROM {
                cx.report(
                    file,
                    &RULE,
                    call.method.span,
                    format!("`{method}` is no longer supported in Request API on platform {platform}"),
                )
                .label("removed in 2.3")
                .help("Define a request template in config/requests.json (host, path, headers), declare it in manifest.json, and call `client.request.invokeTemplate(\"name\", {context, body})` (or `$request.invokeTemplate` in serverless code).");
                continue;
            }
            let Some(url) = &call.url else { continue };
            let Some(origin) = origin(&url.name) else {
                continue;
            };
            let whitelisted = manifest.whitelisted_domains.as_deref().unwrap_or_default();
            if whitelisted
                .iter()
                .any(|allowed| matches(&allowed.name, &origin))
            {
                continue;
            }
            let listed = if whitelisted.is_empty() {
                "manifest.json has no `whitelisted-domains`".to_owned()
            } else {
                format!(
                    "`whitelisted-domains` lists {}",
                    suggest::quoted_list(whitelisted.iter().map(|w| w.name.as_str()))
                )
            };
            cx.report(
                file,
                &RULE,
                url.span,
                format!("`{origin}` is not in the manifest's `whitelisted-domains`, so this call is blocked"),
            )
            .label("not whitelisted")
            .help(format!(
                "Add \"{origin}\" to `whitelisted-domains` in manifest.json; {listed}."
            ));
        }
    }
}

/// `https://api.example.com` of `https://api.example.com/users?x=1`; `None` when the URL is not
/// absolute or its host is built from placeholders.
fn origin(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    if host.is_empty() || host.contains("<%") || !matches!(scheme, "http" | "https") {
        return None;
    }
    Some(format!("{scheme}://{}", host.to_ascii_lowercase()))
}

/// Whether `origin` matches the whitelisted `pattern`, where `*` stands for any sub-domain.
fn matches(pattern: &str, origin: &str) -> bool {
    let pattern = pattern.trim_end_matches('/').to_ascii_lowercase();
    match pattern.split_once('*') {
        None => pattern == origin,
        Some((before, after)) => {
            origin.len() > before.len() + after.len()
                && origin.starts_with(before)
                && origin.ends_with(after)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{matches, origin};

    #[test]
    fn origins_and_whitelisted_patterns() {
        assert_eq!(
            origin("https://API.example.com/v1?x=1").as_deref(),
            Some("https://api.example.com")
        );
        assert_eq!(origin("/relative"), None);
        assert_eq!(origin("https://<%= iparam.domain %>.example.com/x"), None);
        assert!(matches("https://*.example.com", "https://api.example.com"));
        assert!(matches(
            "https://api.example.com/",
            "https://api.example.com"
        ));
        assert!(!matches("https://*.example.com", "https://example.org"));
        assert!(!matches(
            "https://api.example.com",
            "http://api.example.com"
        ));
    }
}
