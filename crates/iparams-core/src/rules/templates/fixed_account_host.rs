//! `fixed-account-host`: a request template's host is one account of a vendor product.

use crate::app::requests::has_placeholder_mark;
use crate::app::{AppModel, Place};
use crate::diagnostic::Severity;
use crate::model::IparamType;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::rules::templates::{freshdesk_app, is_shared_host, product_host, request_templates};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "fixed-account-host",
    severity: Severity::Warning,
    area: Area::Templates,
    summary: "A request template's `host` is one account of a vendor product (`acme.freshdesk.com`), not the installer's",
    docs: r#"Each account of the vendor's products has a host of its own: `<sub-domain>.freshdesk.com`,
`.freshservice.com`, `.freshsales.io`, `.freshchat.com`, `.freshcaller.com`, `.freshteam.com`,
`.myfreshworks.com` or `.freshworks.com`. A template whose host names one of them
(`"host": "acme.freshdesk.com"`) calls that account whoever installs the app: it works for the
account it was written with, and for every other installer it calls someone else's account (with
their own key, which that account rejects). The installer's account comes from an iparam: a `domain`
iparam of the product asks for the sub-domain, and the host is `<%= iparam.domain %>.freshdesk.com`.

Not reported: a host with a placeholder, a host every account shares (`api.freshchat.com` and its
regional `api.eu.freshchat.com`, `www.`, `developers.`, `support.`, `status.`, `cdn.` and other
sites and assets of the vendor), and hosts of other services."#,
    bad: freshdesk_app!(
        r#"{"schema": {"method": "GET", "host": "acme.freshdesk.com", "path": "/api/v2/tickets", "headers": {"Authorization": "Basic <%= encode(iparam.api_key) %>"}}}"#
    ),
    good: freshdesk_app!(
        r#"{"schema": {"method": "GET", "host": "<%= iparam.domain %>.freshdesk.com", "path": "/api/v2/tickets", "headers": {"Authorization": "Basic <%= encode(iparam.api_key) %>"}}}"#
    ),
    examples: Examples::App,
    vendor: "Not checked: `fdk validate` sees a valid host.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    for (file, template) in request_templates(model) {
        let Some(field) = template.field(&Place::Host) else {
            continue;
        };
        let Some(host) = field.as_str() else {
            continue;
        };
        let Some((product, account_host, account)) = product_host(host) else {
            continue;
        };
        if has_placeholder_mark(host) || is_shared_host(account) {
            continue;
        }
        let domain_iparam = model.declared.iter().find(|declared| {
            declared.ty == Some(IparamType::Domain)
                && declared.product.as_deref() == Some(product.name)
        });
        let suffix = account_host.suffix;
        let help = match domain_iparam {
            Some(declared) => format!(
                "Write `\"host\": \"<%= iparam.{key} %>{suffix}\"`: `{key}` ({at}) holds the sub-domain of the installer's account.",
                key = declared.key,
                at = model.defined_at(declared.key_span),
            ),
            None => format!(
                "Ask each installer for their account: declare a `domain` iparam with `\"type_attributes\": {{\"product\": \"{}\"}}` (it asks for the sub-domain) and write `\"host\": \"<%= iparam.domain %>{suffix}\"`.",
                product.name
            ),
        };
        cx.report(
            file,
            &RULE,
            field.span,
            format!(
                "`host` \"{}\" of template `{}` is one {} account's: the app calls that account whoever installs it",
                suggest::shortened(host),
                suggest::shortened(&template.name),
                product.title
            ),
        )
        .label("one account's host")
        .help(help)
        .pointer(field.pointer());
    }
}
