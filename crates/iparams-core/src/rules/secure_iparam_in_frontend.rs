//! `secure-iparam-in-frontend`: the front end asking for a secret it will never get.

use super::{Check, Rule};
use crate::app::{AppContext, AppModel};
use crate::diagnostic::Severity;

pub static RULE: Rule = Rule {
    name: "secure-iparam-in-frontend",
    severity: Severity::Error,
    summary: "Front-end code reads a secure iparam with `client.iparams.get`",
    docs: "Secure iparams are never given to the app's front end: `client.iparams.get()` leaves them \
out, and asking for one by name fails. They are used through the request method, in a request \
template (`<%= iparam.api_key %>` in config/requests.json), or by serverless code.",
    bad: "=== manifest.json ===\n{\"platform-version\": \"2.3\", \"product\": {\"freshdesk\": {}}}\n=== config/iparams.json ===\n{\n  \"api_key\": {\"display_name\": \"API key\", \"type\": \"text\", \"secure\": true}\n}\n=== app/scripts/app.js ===\nclient.iparams.get(\"api_key\").then(callApi);\n",
    good: "=== manifest.json ===\n{\"platform-version\": \"2.3\", \"product\": {\"freshdesk\": {}}}\n=== config/iparams.json ===\n{\n  \"api_key\": {\"display_name\": \"API key\", \"type\": \"text\", \"secure\": true}\n}\n=== config/requests.json ===\n{\"listTickets\": {\"schema\": {\"method\": \"GET\", \"host\": \"example.com\", \"path\": \"/tickets\", \"headers\": {\"Authorization\": \"Bearer <%= iparam.api_key %>\"}}}}\n=== app/scripts/app.js ===\nclient.request.invokeTemplate(\"listTickets\", {});\n",
    vendor: "Not checked; the call fails at run time.",
    fix: None,
    check: Check::App(check),
};

fn check(model: &AppModel<'_>, cx: &mut AppContext<'_>) {
    for (file, facts) in &model.frontend {
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
