//! `context-host-in-frontend`: the front end invokes a template whose host comes from
//! `context`.

use crate::app::{AppModel, Place, Script};
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::rules::helpers::invocations;
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "context-host-in-frontend",
    severity: Severity::Error,
    area: Area::Templates,
    summary: "The front end invokes a template whose `host` uses `<%= context.NAME %>`",
    docs: r#"A template's `host` may take its value from `context` only when serverless code or an
installation-page callback invokes it: the front end runs in the agent's browser, and letting it
choose the host would let any page script send the app's credentials anywhere. From the front end
such a call fails. Build the host from an iparam, or invoke the template from serverless code."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {"requests": {"getUser": {}}}}}
=== config/iparams.json ===
{}
=== config/requests.json ===
{"getUser": {"schema": {"method": "GET", "host": "<%= context.host %>", "path": "/users"}}}
=== app/scripts/app.js ===
client.request.invokeTemplate("getUser", {context: {host: "api.example.com"}});
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {"requests": {"getUser": {}}}}}
=== config/iparams.json ===
{}
=== config/requests.json ===
{"getUser": {"schema": {"method": "GET", "host": "<%= context.host %>", "path": "/users"}}}
=== server/server.js ===
exports = { onTicketCreateHandler: function () { $request.invokeTemplate("getUser", {context: {host: "api.example.com"}}); } };
"#,
    examples: Examples::App,
    vendor: "Not checked; the call fails when the front end makes it.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    let Some(requests) = &model.requests else {
        return;
    };
    for (file, script, invocation) in invocations(model) {
        if script != Script::Frontend {
            continue;
        }
        let Some(named) = &invocation.template else {
            continue;
        };
        let Some(template) = requests.requests.template(&named.name) else {
            continue;
        };
        let host_context = template
            .placeholders
            .iter()
            .find(|p| p.place == Place::Host && p.context_names().next().is_some());
        let Some(placeholder) = host_context else {
            continue;
        };
        let name = suggest::shortened(&template.name);
        cx.report(
            file,
            &RULE,
            named.span,
            format!("The front end invokes template `{name}`, whose `host` comes from `context`"),
        )
        .label("host from context, called from the browser")
        .help(format!(
            "Its host is `<%= {} %>` ({}): only serverless code and installation-page callbacks may choose a template's host. Build the host from an iparam, or invoke the template from serverless code.",
            placeholder.expression,
            model.position(requests.file, placeholder.span)
        ));
    }
}
