//! `product-auth-scheme`: a template calls a vendor product's API with an authorization the
//! product does not take.

use crate::app::requests::placeholders;
use crate::app::{AppModel, Field, Place, Reference, Template};
use crate::diagnostic::Severity;
use crate::model::IparamType;
use crate::products::ApiAuth;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::rules::templates::{freshdesk_app, request_templates, template_product};
use crate::secrets::{self, Sensitivity};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "product-auth-scheme",
    severity: Severity::Warning,
    area: Area::Templates,
    summary: "A template sends a vendor product an authorization it does not take (`Bearer` to Freshdesk, `Token` without `token=` to the CRM)",
    docs: r#"Each of the vendor's products takes an account's API key in one way, the way the
installation page itself checks a key when INSTALL is pressed (see `iparams-lint preview`) and the product's API
documentation gives:

| Product (host) | Authorization |
|---|---|
| Freshdesk (`*.freshdesk.com`), Freshservice (`*.freshservice.com`) | `Basic` with the key as user name and any password, base64-encoded: `Basic <%= encode(iparam.KEY + ':X') %>` ([developers.freshdesk.com/api/#authentication](https://developers.freshdesk.com/api/#authentication), [api.freshservice.com/#authentication](https://api.freshservice.com/#authentication)) |
| Freshsales (`*.freshsales.io`), Freshworks CRM (`*.myfreshworks.com/crm/…`) | `Token token=<key>`, the key as it is ([developers.freshworks.com/crm/api](https://developers.freshworks.com/crm/api/)) |
| Freshchat (`*.freshchat.com`) | `Bearer <key>`, the key as it is ([developers.freshchat.com/api](https://developers.freshchat.com/api/)) |
| Freshcaller (`*.freshcaller.com`) | the key alone in `X-Api-Auth` ([developers.freshcaller.com/api](https://developers.freshcaller.com/api/)) |

A template whose host is one of these products (`<%= iparam.domain %>.freshdesk.com`, or
`<%= current_host.endpoint_urls.PRODUCT %>`) is answered 401 on every call when its
`Authorization`:

- names another scheme (`Bearer` to Freshdesk);
- encodes (`encode(…)`) a token the product wants as it is;
- sends the CRM `Token <key>` without the `token=` it reads the key from;
- sends a `Basic` product the key alone, with no scheme (`<%= iparam.api_key %>`), or after
  `Basic` without `encode(…)` (`Basic <%= iparam.api_key %>`): the product decodes base64 of
  `key:X`. Judged only for an `api_key` iparam or one named for a key or token: another
  (`desk_auth`, "encoded credentials") may hold the whole credential, encoded.

Not reported: an `Authorization` whose scheme is not written and whose value is not an iparam
(`<%= context.auth %>`), an OAuth template's `<%= access_token %>`, hosts of other services, and
the HR service (`*.freshteam.com`), which `hr-authorization` checks."#,
    bad: freshdesk_app!(
        r#"{"schema": {"method": "GET", "host": "<%= iparam.domain %>.freshdesk.com", "path": "/api/v2/tickets", "headers": {"Authorization": "Bearer <%= encode(iparam.api_key) %>"}}}"#
    ),
    good: freshdesk_app!(
        r#"{"schema": {"method": "GET", "host": "<%= iparam.domain %>.freshdesk.com", "path": "/api/v2/tickets", "headers": {"Authorization": "Basic <%= encode(iparam.api_key + ':X') %>"}}}"#
    ),
    examples: Examples::App,
    vendor: "Not checked: the call fails with 401 once the app is installed.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    for (file, template) in request_templates(model) {
        let Some((product, account_host)) = template_product(template) else {
            continue;
        };
        let Some((wanted, under)) = account_host.auth else {
            continue;
        };
        let path = template
            .field(&Place::Path)
            .and_then(Field::as_str)
            .unwrap_or("/");
        if !path.starts_with(under) {
            continue;
        }
        let Some(field) = header(template, "Authorization") else {
            continue;
        };
        let Some(value) = field.as_str().map(str::trim) else {
            continue;
        };
        let (scheme, credentials) = value
            .split_once(char::is_whitespace)
            .map_or((value, ""), |(scheme, rest)| (scheme, rest.trim()));
        let expressions = || placeholders(credentials).map(|(expression, _, _)| expression);
        let Some(sent) = ApiAuth::of_scheme(scheme) else {
            // Without a scheme, only a lone iparam is judged: a key where a scheme is wanted.
            if wanted != ApiAuth::KeyHeader
                && lone_iparam(value).is_some_and(|key| holds_plain_key(model, key))
            {
                let title = product.title;
                cx.report(
                    file,
                    &RULE,
                    field.span,
                    format!(
                        "`Authorization` of template `{}` sends the key alone, but {title} takes `{}` credentials: every call is answered 401",
                        suggest::shortened(&template.name),
                        wanted.scheme().unwrap_or_default()
                    ),
                )
                .label("no scheme")
                .help(format!(
                    "Write `{}`, where KEY is the secure iparam that holds the {title} API key.",
                    wanted.written()
                ))
                .pointer(field.pointer());
            }
            continue;
        };
        // An OAuth template's token is a bearer token whatever the product.
        let oauth = template.placeholders.iter().any(|placeholder| {
            placeholder.span.start >= field.span.start
                && placeholder.span.end <= field.span.end
                && placeholder
                    .references()
                    .any(|(reference, _)| reference == Reference::AccessToken)
        });
        if oauth {
            continue;
        }
        let title = product.title;
        let name = suggest::shortened(&template.name);
        // Never quoted: the value may hold a credential.
        let (problem, label) = match wanted {
            ApiAuth::KeyHeader if header(template, ApiAuth::X_API_AUTH).is_none() => (
                format!(
                    "sends the key in `Authorization` ({scheme}), but {title} reads it from `{}`",
                    ApiAuth::X_API_AUTH
                ),
                format!("not `{}`", ApiAuth::X_API_AUTH),
            ),
            ApiAuth::KeyHeader => continue,
            _ if sent != wanted => (
                format!(
                    "sends `{scheme}` credentials to {title}, whose API takes `{}`",
                    wanted.scheme().unwrap_or_default()
                ),
                format!("not {}", wanted.scheme().unwrap_or_default()),
            ),
            ApiAuth::Bearer | ApiAuth::Token
                if expressions().any(|expression| expression.starts_with("encode(")) =>
            {
                (
                    format!("encodes the key (`encode(…)`), but {title} takes it as it is"),
                    "encoded".to_owned(),
                )
            }
            ApiAuth::Token if !credentials.starts_with("token=") => (
                format!("sends `Token` without `token=`, from which {title} reads the key"),
                "no `token=`".to_owned(),
            ),
            ApiAuth::Basic
                if expressions().any(|expression| {
                    expression
                        .strip_prefix("iparam.")
                        .is_some_and(|key| holds_plain_key(model, key))
                }) && !expressions().any(|expression| expression.starts_with("encode(")) =>
            {
                (
                    format!(
                        "sends `Basic` with the key not encoded, but {title} decodes base64 of `key:X`"
                    ),
                    "not encoded".to_owned(),
                )
            }
            _ => continue,
        };
        cx.report(
            file,
            &RULE,
            field.span,
            format!("`Authorization` of template `{name}` {problem}: every call is answered 401"),
        )
        .label(label)
        .help(format!(
            "Write `{}`, where KEY is the secure iparam that holds the {title} API key.",
            wanted.written()
        ))
        .pointer(field.pointer());
    }
}

/// The iparam an `Authorization` value is, when it is one placeholder of an iparam with
/// nothing around it: `<%= iparam.api_key %>`.
fn lone_iparam(value: &str) -> Option<&str> {
    let mut found = placeholders(value);
    match (found.next(), found.next()) {
        (Some((expression, _, _)), None) if value.starts_with("<%=") && value.ends_with("%>") => {
            expression.strip_prefix("iparam.")
        }
        _ => None,
    }
}

/// Whether the iparam `key` holds an API key as the installer copied it: an `api_key` iparam,
/// or one named for a key or token. Another (`desk_auth`, labelled "encoded credentials") may
/// hold the whole credential, encoded, and is not judged.
fn holds_plain_key(model: &AppModel<'_>, key: &str) -> bool {
    let api_key = model
        .declared(key)
        .is_some_and(|declared| declared.ty == Some(IparamType::ApiKey));
    api_key
        || matches!(
            secrets::key_sensitivity(key),
            Sensitivity::Word("key" | "keys" | "token" | "tokens" | "apikey" | "apitoken")
        )
}

/// The header `name` of a template (the last one, as `JSON.parse` keeps), in any case.
fn header<'t, 's>(template: &'t Template<'s>, name: &str) -> Option<&'t Field<'s>> {
    template
        .headers()
        .filter(|(header, _)| header.eq_ignore_ascii_case(name))
        .map(|(_, field)| field)
        .last()
}
