//! `hr-authorization`: the `Authorization` header of a template that reaches the HR service is
//! not `Bearer` and a token from a secure iparam.

use crate::app::AppModel;
use crate::app::requests::placeholders;
use crate::app::requests::single_iparam;
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::rules::hr::{hr_app, hr_templates};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "hr-authorization",
    severity: Severity::Error,
    area: Area::Hr,
    summary: "A template calling the HR service does not send `Authorization: Bearer <token>` with the token of a secure iparam",
    docs: r#"The HR service authenticates every request with an OAuth 2.0 bearer access token:
`Authorization: Bearer <token>`, where the token is the API key the account shows under the
profile menu, API Settings. It identifies the caller and the caller's roles (listing, reading,
creating and updating employees takes HR Partner, Admin or Account Admin; approving a time-off
also Reporting Manager; else 403). A request without valid credentials gets 401, so:
- no `Authorization` header, `Basic …` credentials, `Token token=…`, or the key alone without
  `Bearer ` are errors;
- `Bearer <%= encode(…) %>` sends the key base64-encoded, which is not the token;
- the token must come from a secure iparam (`"secure": true`): one from an iparam that is not
  secure can be read by the app's front end (a token written in the template is a committed
  secret, which `credential-in-template` reports).

`<%= access_token %>` (an OAuth template) and `<%= context.… %>` are taken as they are."#,
    bad: hr_app!(
        "listEmployees",
        r#"{"schema": {"method": "GET", "host": "<%= iparam.hr_domain %>.freshteam.com", "path": "/api/employees", "headers": {"Authorization": "Basic <%= encode(iparam.hr_api_key) %>", "Accept": "application/json"}}}"#
    ),
    good: hr_app!(
        "listEmployees",
        r#"{"schema": {"method": "GET", "host": "<%= iparam.hr_domain %>.freshteam.com", "path": "/api/employees", "headers": {"Authorization": "Bearer <%= iparam.hr_api_key %>", "Accept": "application/json"}}}"#
    ),
    examples: Examples::App,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::App(check)],
};

const BEARER_HELP: &str = "Write `\"Authorization\": \"Bearer <%= iparam.KEY %>\"`, where KEY is a secure iparam holding the API key (profile menu, API Settings of the HR account).";

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    for hr in hr_templates(model) {
        let name = &hr.name;
        // Who the token must belong to, where the document says (for a finding's help only).
        let roles = || {
            hr.operation()
                .and_then(|operation| {
                    operation.roles.map(|roles| {
                        format!(
                            " The token is the caller's: `{} {}` is for {roles} (403 otherwise).",
                            operation.method, operation.path
                        )
                    })
                })
                .unwrap_or_default()
        };
        let Some(field) = hr.header("Authorization") else {
            let (at, pointer) = hr.headers_at();
            cx.report(
                hr.file,
                &RULE,
                at,
                format!("Template `{name}` sends no `Authorization` header: the HR service answers 401 Unauthenticated"),
            )
            .label("no credentials")
            .help(format!("Add it to `headers`. {BEARER_HELP}{}", roles()))
            .pointer(pointer);
            continue;
        };
        let Some(value) = field.as_str() else {
            continue;
        };
        let value = value.trim();
        let mut found = placeholders(value);
        let only = match (found.next(), found.next()) {
            (Some((expression, _, _)), None) => Some(expression),
            _ => None,
        };
        let whole_placeholder = only.is_some() && value.starts_with("<%=") && value.ends_with("%>");
        // Never quoted: the value may be a credential.
        let (problem, label, help) = if value.is_empty() {
            ("is empty".to_owned(), "no token", BEARER_HELP.to_owned())
        } else if whole_placeholder && let Some(expression) = only {
            // A context value may hold the whole header.
            if expression.starts_with("context.") {
                continue;
            }
            (
                format!(
                    "is the token alone (`<%= {} %>`), without `Bearer `",
                    suggest::shortened(expression)
                ),
                "no scheme",
                format!(
                    "Write `\"Bearer <%= {} %>\"`.",
                    suggest::shortened(expression)
                ),
            )
        } else {
            let (scheme, rest) = value
                .split_once(char::is_whitespace)
                .map_or((value, ""), |(scheme, rest)| (scheme, rest.trim()));
            if scheme.eq_ignore_ascii_case("bearer") {
                match bearer_problem(model, rest) {
                    Some(found) => found,
                    None => continue,
                }
            } else if scheme.eq_ignore_ascii_case("basic") {
                (
                    "sends Basic credentials".to_owned(),
                    "not Bearer",
                    format!(
                        "The HR service takes a bearer token, not a user and password. {BEARER_HELP}"
                    ),
                )
            } else if scheme.eq_ignore_ascii_case("token") {
                (
                    "uses the `Token token=` scheme".to_owned(),
                    "not Bearer",
                    BEARER_HELP.to_owned(),
                )
            } else if rest.is_empty() {
                (
                    "has no `Bearer ` before the token".to_owned(),
                    "no scheme",
                    BEARER_HELP.to_owned(),
                )
            } else {
                (
                    format!(
                        "uses the scheme `{}`, not `Bearer`",
                        suggest::shortened(scheme)
                    ),
                    "not Bearer",
                    BEARER_HELP.to_owned(),
                )
            }
        };
        cx.report(
            hr.file,
            &RULE,
            field.span,
            if label == "not a secure iparam" {
                format!("Header `Authorization` of template `{name}` {problem}")
            } else {
                format!("Header `Authorization` of template `{name}` {problem}: the HR service answers 401 Unauthenticated")
            },
        )
        .label(label)
        .help(format!("{help}{}", roles()))
        .pointer(field.pointer());
    }
}

/// What is wrong with the token after `Bearer `, if anything.
fn bearer_problem(model: &AppModel<'_>, token: &str) -> Option<(String, &'static str, String)> {
    if token.is_empty() {
        return Some((
            "has no token after `Bearer`".to_owned(),
            "no token",
            BEARER_HELP.to_owned(),
        ));
    }
    // A token written out is a committed secret, which `credential-in-template` reports.
    placeholders(token).next()?;
    for (expression, _, _) in placeholders(token) {
        if expression.starts_with("encode(") {
            return Some((
                "encodes the token with `encode()`".to_owned(),
                "base64 of the token",
                "A bearer token is sent as it is: write `Bearer <%= iparam.KEY %>` without `encode()` (which is for Basic credentials).".to_owned(),
            ));
        }
        if let Some(key) = single_iparam(expression)
            && let Some(declared) = model.declared(key)
            && !declared.secure
        {
            return Some((
                format!("takes the token from iparam `{key}`, which is not secure"),
                "not a secure iparam",
                format!(
                    "Mark `{key}` `\"secure\": true` ({}): the value of an iparam that is not secure can be read by the app's front end.",
                    model.defined_at(declared.key_span)
                ),
            ));
        }
    }
    None
}
