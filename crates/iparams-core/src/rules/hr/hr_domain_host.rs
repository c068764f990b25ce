//! `hr-domain-host`: the host of a template that reaches the HR service is built from a
//! `domain` iparam the wrong way.

use crate::app::hr_calls::{is_service_domain, only_iparam};
use crate::app::hr_service::{HOST_SUFFIX, PRODUCT};
use crate::app::requests::single_iparam;
use crate::app::{AppModel, Place};
use crate::diagnostic::Severity;
use crate::model::IparamType;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::rules::hr::{hr_app, hr_templates};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "hr-domain-host",
    severity: Severity::Error,
    area: Area::Hr,
    summary: "The host of a template calling the HR service is a `domain` iparam alone, its full URL, or a domain of another product",
    docs: r#"A template reaches the HR service when its `host` is `<sub-domain>.freshteam.com`. The
installation page asks a `domain` iparam of product `freshteam` for the sub-domain only (`acme`
of `acme.freshteam.com`), so the host is `<%= iparam.D %>.freshteam.com`:
- `"host": "<%= iparam.D %>"` alone sends the request to `acme`, which is no host;
- `<%= iparam.$D.url %>` is the full URL kept after the installation check
  (`https://acme.freshteam.com`): a protocol is not part of a host;
- a `domain` iparam of another product (`freshdesk`) before `.freshteam.com` holds that
  product's sub-domain, which is not the HR account's, and the installation page checks it
  against that product.

The HR service answers every request with `Authorization: Bearer <token>` from its own
account's API settings; the wrong host reaches no account at all, or another one."#,
    bad: hr_app!(
        "listEmployees",
        r#"{"schema": {"method": "GET", "host": "<%= iparam.hr_domain %>", "path": "/api/employees", "headers": {"Authorization": "Bearer <%= iparam.hr_api_key %>", "Accept": "application/json"}}}"#
    ),
    good: hr_app!(
        "listEmployees",
        r#"{"schema": {"method": "GET", "host": "<%= iparam.hr_domain %>.freshteam.com", "path": "/api/employees", "headers": {"Authorization": "Bearer <%= iparam.hr_api_key %>", "Accept": "application/json"}}}"#
    ),
    examples: Examples::App,
    vendor: "Not checked: `fdk validate` sees a domain name pattern either way.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    for hr in hr_templates(model) {
        let Some(field) = hr.template.field(&Place::Host) else {
            continue;
        };
        let Some(host) = field.as_str() else {
            continue;
        };
        let name = &hr.name;
        let quoted = suggest::shortened(host);
        if let Some(key) = only_iparam(host) {
            let url = host.contains(".url");
            let (problem, label) = if url {
                (
                    format!(
                        "is the full URL of the `domain` iparam `{key}` (`https://…{HOST_SUFFIX}`), not a host"
                    ),
                    "a URL, not a host",
                )
            } else {
                (
                    format!("is only the sub-domain the `domain` iparam `{key}` holds"),
                    "the sub-domain only",
                )
            };
            cx.report(
                hr.file,
                &RULE,
                field.span,
                format!("`host` \"{quoted}\" of template `{name}` {problem}"),
            )
            .label(label)
            .help(format!(
                "Write `\"host\": \"<%= iparam.{key} %>{HOST_SUFFIX}\"`: a `domain` iparam of {PRODUCT} holds the sub-domain (`acme` of `acme{HOST_SUFFIX}`)."
            ))
            .pointer(field.pointer());
            continue;
        }
        for placeholder in hr
            .template
            .placeholders
            .iter()
            .filter(|p| p.place == Place::Host)
        {
            let Some(key) = single_iparam(&placeholder.expression) else {
                continue;
            };
            let Some(declared) = model.declared(key) else {
                continue;
            };
            if declared.ty != Some(IparamType::Domain) {
                continue;
            }
            if placeholder.expression.contains('$') {
                cx.report(
                    hr.file,
                    &RULE,
                    placeholder.span,
                    format!("`host` \"{quoted}\" of template `{name}` puts the full URL of the `domain` iparam `{key}` (`https://…`) in a host"),
                )
                .label("a URL, not a sub-domain")
                .help(format!(
                    "Write `<%= iparam.{key} %>`: it is the sub-domain alone, as `host` needs it."
                ))
                .pointer(field.pointer());
                continue;
            }
            if is_service_domain(model, declared) {
                continue;
            }
            let product = match declared.product.as_deref() {
                Some(product) => format!("of product `{}`", suggest::shortened(product)),
                None => "with no product".to_owned(),
            };
            cx.report(
                hr.file,
                &RULE,
                placeholder.span,
                format!(
                    "`host` \"{quoted}\" of template `{name}` puts the `domain` iparam `{key}` {product} before `{HOST_SUFFIX}`"
                ),
            )
            .label(format!("not a {PRODUCT} domain"))
            .help(format!(
                "`{key}` ({}) holds a sub-domain of its own product, and the installation page checks it there. Read the HR sub-domain from a `domain` iparam with `\"type_attributes\": {{\"product\": \"{PRODUCT}\"}}`.",
                model.defined_at(declared.key_span)
            ))
            .pointer(field.pointer());
        }
    }
}
