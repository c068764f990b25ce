//! `misplaced-placeholder`: a placeholder where the platform does not allow it: any in
//! `method` or `protocol`, a secure iparam or the OAuth token outside the headers.

use crate::app::{AppModel, Place, Reference};
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::rules::templates::request_templates;
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "misplaced-placeholder",
    severity: Severity::Error,
    area: Area::Templates,
    summary: "A request template uses a secure iparam or the OAuth token outside its headers",
    docs: r#"Where a template may use each placeholder:

| where | may use |
|---|---|
| `method`, `protocol` | no placeholder |
| `host` | non-secure iparams; `context` (see `context-host-in-frontend`) |
| `path`, `query` | non-secure iparams and `context` |
| `headers` | secure and non-secure iparams, `access_token`, `context` |

Secure iparams and the OAuth `access_token` are substituted in headers only: they are
credentials, and a URL ends up in logs, proxies and error messages. A service that takes its key
in the query string (`?api_key=`) must be sent it in a header it also accepts. (A placeholder in
`method` or `protocol` is reported by `request-method` and `request-protocol`.)"#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {"requests": {"getUser": {}}}}}
=== config/iparams.json ===
{"api_key": {"display_name": "API key", "type": "text", "secure": true, "required": true}}
=== config/requests.json ===
{"getUser": {"schema": {"method": "GET", "host": "api.example.com", "path": "/users", "query": {"key": "<%= iparam.api_key %>"}}}}
=== app/scripts/app.js ===
client.request.invokeTemplate("getUser", {});
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {"requests": {"getUser": {}}}}}
=== config/iparams.json ===
{"api_key": {"display_name": "API key", "type": "text", "secure": true, "required": true}}
=== config/requests.json ===
{"getUser": {"schema": {"method": "GET", "host": "api.example.com", "path": "/users", "headers": {"X-Api-Key": "<%= iparam.api_key %>"}}}}
=== app/scripts/app.js ===
client.request.invokeTemplate("getUser", {});
"#,
    examples: Examples::App,
    vendor: "Not checked by `fdk validate`; at run time the value is not substituted.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    for (file, template) in request_templates(model) {
        let name = suggest::shortened(&template.name);
        for placeholder in &template.placeholders {
            if matches!(
                placeholder.place,
                Place::Method
                    | Place::Protocol
                    | Place::Header(_)
                    | Place::OtherSchema(_)
                    | Place::Option(_)
            ) {
                continue;
            }
            for (reference, span) in placeholder.references() {
                let what = match reference {
                    Reference::Iparam(key) | Reference::DomainUrl(key)
                        if model.declared(key).is_some_and(|d| d.secure) =>
                    {
                        format!("the secure iparam `{key}`")
                    }
                    Reference::AccessToken => "the OAuth `access_token`".to_owned(),
                    _ => continue,
                };
                let place = placeholder.place.described();
                cx.report(
                    file,
                    &RULE,
                    span,
                    format!("{place} of template `{name}` uses {what}, which is substituted in headers only"),
                )
                .label("a credential outside the headers")
                .help("Send it in a header (`Authorization`, or the header the service reads its key from): secure values and tokens are substituted in `headers` only, and a URL ends up in logs.")
                .pointer(placeholder.pointer());
            }
        }
    }
}
