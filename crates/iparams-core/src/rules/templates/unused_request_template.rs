//! `unused-request-template`: a template that no code of the app invokes.

use crate::app::AppModel;
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::rules::helpers::invocations;
use crate::rules::templates::{invokes_computed_templates, request_app, request_templates};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "unused-request-template",
    severity: Severity::Info,
    area: Area::Templates,
    summary: "A request template is never invoked by the app's code",
    docs: r#"A template that no `invokeTemplate("name", …)` of the front end, the installation-page
callbacks or the serverless code calls is dead weight, and often the sign of a renamed template
whose old name is still invoked somewhere. Nothing is reported when some invocation names its
template with a variable (any template may be the one it calls) or when a script could not be
read."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {"requests": {"getUser": {}, "getOldUser": {}}}}}
=== config/iparams.json ===
{}
=== config/requests.json ===
{
  "getUser": {"schema": {"method": "GET", "host": "api.example.com"}},
  "getOldUser": {"schema": {"method": "GET", "host": "api.example.com"}}
}
=== app/scripts/app.js ===
client.request.invokeTemplate("getUser", {});
"#,
    good: request_app!(r#"{"schema": {"method": "GET", "host": "api.example.com"}}"#),
    examples: Examples::App,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    let unreadable = model
        .scripts()
        .any(|(_, _, facts)| !facts.syntax_errors.is_empty());
    if unreadable || invokes_computed_templates(model) {
        return;
    }
    let invoked: Vec<&str> = invocations(model)
        .filter_map(|(_, _, invocation)| invocation.template.as_ref())
        .map(|template| template.name.as_str())
        .collect();
    for (file, template) in request_templates(model) {
        if invoked.contains(&template.name.as_ref()) {
            continue;
        }
        let name = suggest::shortened(&template.name);
        cx.report(
            file,
            &RULE,
            template.name_span,
            format!("Template `{name}` is never invoked"),
        )
        .label("never invoked")
        .help(format!(
            "Invoke it with `client.request.invokeTemplate(\"{name}\", {{…}})` (front end) or `$request.invokeTemplate(\"{name}\", {{…}})` (serverless), or remove it from config/requests.json and manifest.json."
        ))
        .pointer(template.pointer());
    }
}
