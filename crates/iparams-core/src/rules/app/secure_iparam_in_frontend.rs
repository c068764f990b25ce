//! `secure-iparam-in-frontend`: the front end asking for a secret it will never get.

use crate::app::AppModel;
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};

pub static RULE: Rule = Rule {
    name: "secure-iparam-in-frontend",
    severity: Severity::Error,
    area: Area::App,
    summary: "Front-end code reads a secure iparam with `client.iparams.get`",
    docs: r#"Secure iparams are never given to the app's front end: `client.iparams.get()` leaves
them out, and asking for one by name fails. They are used through the request method, in a request
template (`<%= iparam.api_key %>` in config/requests.json), or by serverless code. The
installation page's own scripts run in the browser too (config/assets/, the inline scripts of a
custom config/iparams.html), and a secure key is one that iparams.json marks `"secure": true` or
that a custom page's `postConfigs` lists in `__meta.secure`."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{
  "api_key": {"display_name": "API key", "type": "text", "secure": true}
}
=== app/scripts/app.js ===
client.iparams.get("api_key").then(callApi);
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {"requests": {"listTickets": {}}}}}
=== config/iparams.json ===
{
  "api_key": {"display_name": "API key", "type": "text", "secure": true}
}
=== config/requests.json ===
{"listTickets": {"schema": {"method": "GET", "host": "example.com", "path": "/tickets", "headers": {"Authorization": "Bearer <%= iparam.api_key %>"}}}}
=== app/scripts/app.js ===
client.request.invokeTemplate("listTickets", {});
"#,
    examples: Examples::App,
    vendor: "Not checked; the call fails at run time.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    // The app's pages and scripts, and its installation page's: both run in the browser.
    for (file, facts) in model.frontend.iter().chain(model.install_page()) {
        for read in &facts.reads {
            let Some(declared) = model.declared(&read.key).filter(|d| d.secure) else {
                continue;
            };
            cx.report(*file, &RULE, read.span, format!("`{}` is secure, so `client.iparams.get` never returns it", read.key))
                .label("secure iparam")
                .help(format!(
                    "Use it through the request method: a template in config/requests.json with `<%= iparam.{} %>`, called with `client.request.invokeTemplate`. (`{}` is defined at {}.)",
                    read.key,
                    read.key,
                    model.defined_at(declared.key_span)
                ));
        }
    }
}
