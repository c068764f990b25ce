//! Rules about request templates (config/requests.json) and the code that invokes them, and
//! what they share: the templates of an app, how a finding about a field reads, the example app
//! of a rule.

pub(super) mod access_token_without_oauth;
pub(super) mod context_host_in_frontend;
pub(super) mod credential_in_template;
pub(super) mod credential_iparam_not_secure;
pub(super) mod fixed_account_host;
pub(super) mod ignored_invoke_option;
pub(super) mod invalid_request_template;
pub(super) mod legacy_request_api;
pub(super) mod misplaced_placeholder;
pub(super) mod missing_template_context;
pub(super) mod product_auth_scheme;
pub(super) mod query_string_in_path;
pub(super) mod request_host;
pub(super) mod request_method;
pub(super) mod request_option_value;
pub(super) mod request_path;
pub(super) mod request_protocol;
pub(super) mod undeclared_request_template;
pub(super) mod unknown_request_option;
pub(super) mod unknown_request_template;
pub(super) mod unsubstituted_placeholder;
pub(super) mod unused_request_template;

use std::borrow::Cow;

use crate::app::requests::Field;
use crate::app::{AppModel, FileId, Place, Reference, Template};
use crate::diagnostic::Diagnostic;
use crate::products::{self, AccountHost, PRODUCTS, Product};
use crate::rules::framework::{AppContext, Rule};
use crate::rules::helpers::invocations;

/// The request templates of config/requests.json, with the file they are in.
pub(crate) fn request_templates<'m>(
    model: &'m AppModel<'_>,
) -> impl Iterator<Item = (FileId, &'m Template<'m>)> {
    model.requests.iter().flat_map(|requests| {
        requests
            .requests
            .templates
            .iter()
            .map(move |template| (requests.file, template))
    })
}

/// Whether some invocation names its template with a computed value, so that any template
/// may be the one it calls.
pub(crate) fn invokes_computed_templates(model: &AppModel<'_>) -> bool {
    invocations(model).any(|(_, _, invocation)| invocation.template.is_none())
}

/// Reports that `field` (`what`: `method`, `host`…) of the template called `name` is not a
/// string; the rule gives the finding its label and help.
pub(crate) fn report_not_a_string<'c>(
    cx: &'c mut AppContext,
    file: FileId,
    rule: &Rule,
    name: &str,
    field: &Field,
    what: &str,
) -> &'c mut Diagnostic {
    cx.report(
        file,
        rule,
        field.span,
        format!(
            "`{what}` of template `{name}` is {}, not a string",
            field.kind.described()
        ),
    )
    .pointer(field.pointer())
}

/// `text` with each `<%= … %>` placeholder replaced by `x`, for checks of what is written
/// around the placeholders (a host's shape, a path's query string).
pub(crate) fn without_placeholders(text: &str) -> Cow<'_, str> {
    crate::app::requests::placeholders_replaced(text, 'x')
}

/// First labels of the hosts a product serves the same for every account: its shared API
/// (`api.freshchat.com`, and regional ones such as `api.eu.freshchat.com`), its sites and
/// its assets.
const SHARED_HOST_LABELS: [&str; 13] = [
    "api",
    "www",
    "developers",
    "developer",
    "support",
    "crmsupport",
    "status",
    "marketplace",
    "cdn",
    "assets",
    "static",
    "wchat",
    "msdk",
];

/// A template's `host` as a product's: the product, the host of its accounts it is, and what
/// stands before that host's domain (an account's sub-domain, a placeholder, or a host shared
/// by every account), when the host ends with a product's domain.
pub(crate) fn product_host(host: &str) -> Option<(&'static Product, &'static AccountHost, &str)> {
    PRODUCTS.iter().find_map(|product| {
        product.hosts.iter().find_map(|account_host| {
            let split = host.len().checked_sub(account_host.suffix.len())?;
            let (before, suffix) = (host.get(..split)?, host.get(split..)?);
            (!before.is_empty() && suffix.eq_ignore_ascii_case(account_host.suffix)).then_some((
                product,
                account_host,
                before,
            ))
        })
    })
}

/// The product whose API a template calls, and the host of its accounts, when its host says
/// so: a host that ends with a product's domain (`<%= iparam.domain %>.freshdesk.com`), or the
/// product's own host, `<%= current_host.endpoint_urls.PRODUCT %>` (its first domain's).
pub(crate) fn template_product(
    template: &Template<'_>,
) -> Option<(&'static Product, &'static AccountHost)> {
    let host = template.field(&Place::Host)?.as_str()?.trim();
    if let Some((product, account_host, _)) = product_host(host) {
        return Some((product, account_host));
    }
    let mut in_host = template
        .placeholders
        .iter()
        .filter(|placeholder| placeholder.place == Place::Host);
    let (Some(only), None) = (in_host.next(), in_host.next()) else {
        return None;
    };
    let whole = host.starts_with("<%=") && host.ends_with("%>");
    let mut references = only.references();
    match (whole, references.next(), references.next()) {
        (true, Some((Reference::EndpointUrl(name), _)), None) => {
            let product = products::product(name)?;
            Some((product, product.hosts.first()?))
        }
        _ => None,
    }
}

/// Whether what stands before a product's domain in a host names a host that every account
/// shares (`api` of `api.freshchat.com`) rather than one account.
pub(crate) fn is_shared_host(before_domain: &str) -> bool {
    let first = before_domain.split('.').next().unwrap_or_default();
    SHARED_HOST_LABELS
        .iter()
        .any(|label| first.eq_ignore_ascii_case(label))
}

/// A whole app for a rule's examples: a 2.3 app with one request template `getUser` (declared in
/// the manifest and invoked from the front end) whose value is `$template`.
macro_rules! request_app {
    ($template:literal) => {
        concat!(
            "=== manifest.json ===\n",
            r#"{"platform-version": "2.3", "product": {"freshdesk": {"requests": {"getUser": {}}}}}"#,
            "\n=== config/iparams.json ===\n{}\n=== config/requests.json ===\n{\"getUser\": ",
            $template,
            "}\n=== app/scripts/app.js ===\n",
            r#"client.request.invokeTemplate("getUser", {});"#,
            "\n"
        )
    };
}
pub(crate) use request_app;

/// A whole app for a rule's examples: a 2.3 app whose iparams.json is `$iparams` and whose one
/// request template `getUser`, `$template`, its serverless code invokes at installation.
macro_rules! serverless_request_app {
    ($iparams:literal, $template:literal) => {
        concat!(
            "=== manifest.json ===\n",
            r#"{"platform-version": "2.3", "product": {"freshdesk": {"requests": {"getUser": {}}}}}"#,
            "\n=== config/iparams.json ===\n",
            $iparams,
            "\n=== config/requests.json ===\n{\"getUser\": ",
            $template,
            "}\n=== server/server.js ===\n",
            r#"exports = { onAppInstallHandler: async function () { await $request.invokeTemplate("getUser", {}); } };"#,
            "\n"
        )
    };
}
pub(crate) use serverless_request_app;

/// A whole app for a rule's examples: a 2.3 Freshdesk app whose `domain` and `api_key` iparams
/// are the installer's account, with one request template `listTickets` (declared in the
/// manifest and invoked from the front end) whose value is `$template`.
macro_rules! freshdesk_app {
    ($template:literal) => {
        concat!(
            "=== manifest.json ===\n",
            r#"{"platform-version": "2.3", "product": {"freshdesk": {"requests": {"listTickets": {}}}}}"#,
            "\n=== config/iparams.json ===\n{\n",
            r#"  "domain": {"display_name": "Freshdesk domain", "type": "domain", "type_attributes": {"product": "freshdesk"}, "required": true},"#,
            "\n",
            r#"  "api_key": {"display_name": "Freshdesk API key", "type": "api_key", "type_attributes": {"product": "freshdesk"}, "secure": true, "required": true}"#,
            "\n}\n=== config/requests.json ===\n{\"listTickets\": ",
            $template,
            "}\n=== app/scripts/app.js ===\n",
            r#"client.request.invokeTemplate("listTickets", {});"#,
            "\n"
        )
    };
}
pub(crate) use freshdesk_app;
