//! `product-auth-scheme`: a template calls a vendor product's API with an authorization the
//! product does not take.

use crate::app::requests::placeholders;
use crate::app::{AppModel, Field, Place, Reference, Template};
use crate::diagnostic::Severity;
use crate::products::ApiAuth;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::rules::templates::{freshdesk_app, request_templates, template_product};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "product-auth-scheme",
    severity: Severity::Warning,
    area: Area::Templates,
    summary: "A template sends a vendor product an authorization it does not take (`Bearer` to Freshdesk, an encoded token to Freshchat)",
    docs: r#"Each of the vendor's products takes an account's API key in one way, the way the
installation page itself checks a key when INSTALL is pressed (docs/preview.md) and the product's API
documentation gives:

| Product (host) | Authorization |
|---|---|
| Freshdesk (`*.freshdesk.com`), Freshservice (`*.freshservice.com`) | `Basic` with the key as user name and any password, base64-encoded: `Basic <%= encode(iparam.KEY + ':X') %>` ([developers.freshdesk.com/api/#authentication](https://developers.freshdesk.com/api/#authentication), [api.freshservice.com/#authentication](https://api.freshservice.com/#authentication)) |
| Freshsales (`*.freshsales.io`), Freshworks CRM (`*.myfreshworks.com/crm/…`) | `Token token=<key>`, the key as it is ([developers.freshworks.com/crm/api](https://developers.freshworks.com/crm/api/)) |
| Freshchat (`*.freshchat.com`) | `Bearer <key>`, the key as it is ([developers.freshchat.com/api](https://developers.freshchat.com/api/)) |
| Freshcaller (`*.freshcaller.com`) | the key alone in `X-Api-Auth` ([developers.freshcaller.com/api](https://developers.freshcaller.com/api/)) |

A template whose host is one of these products (`<%= iparam.domain %>.freshdesk.com`, or
`<%= current_host.endpoint_urls.PRODUCT %>`) and whose `Authorization` names another scheme, or
encodes (`encode(…)`) a token the product wants as it is, is answered 401 on every call.

Not reported: an `Authorization` whose scheme is not written (`<%= context.auth %>`), an OAuth
template's `<%= access_token %>`, a `Basic` whose key is not encoded in the template (the iparam
may hold it encoded), hosts of other services, and the HR service (`*.freshteam.com`), which
`hr-authorization` checks."#,
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
        // A scheme not written out (a placeholder, a key alone) is not judged.
        let Some(sent) = ApiAuth::of_scheme(scheme) else {
            continue;
        };
        let expressions = || placeholders(credentials).map(|(expression, _, _)| expression);
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

/// The header `name` of a template (the last one, as `JSON.parse` keeps), in any case.
fn header<'t, 's>(template: &'t Template<'s>, name: &str) -> Option<&'t Field<'s>> {
    template
        .headers()
        .filter(|(header, _)| header.eq_ignore_ascii_case(name))
        .map(|(_, field)| field)
        .last()
}
