//! `request-path`: a request template's `path` is not a string starting with `/`.

use crate::app::{AppModel, Place};
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::rules::templates::{report_not_a_string, request_templates};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "request-path",
    severity: Severity::Error,
    area: Area::Templates,
    summary: "A request template's `path` does not start with `/`",
    docs: r#"`schema.path` (default `/`) is a string that starts with `/` (or with a placeholder
that holds the whole path); the validator rejects anything else."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {"requests": {"listUsers": {}}}}}
=== config/iparams.json ===
{}
=== config/requests.json ===
{"listUsers": {"schema": {"method": "GET", "host": "api.example.com", "path": "users"}}}
=== app/scripts/app.js ===
client.request.invokeTemplate("listUsers", {});
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {"requests": {"listUsers": {}}}}}
=== config/iparams.json ===
{}
=== config/requests.json ===
{"listUsers": {"schema": {"method": "GET", "host": "api.example.com", "path": "/users"}}}
=== app/scripts/app.js ===
client.request.invokeTemplate("listUsers", {});
"#,
    examples: Examples::App,
    vendor: "Rejects a path without its slash: `Request template 'X' schema/path must start with '/'`.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    for (file, template) in request_templates(model) {
        let Some(field) = template.field(&Place::Path) else {
            continue;
        };
        let name = suggest::shortened(&template.name);
        let Some(path) = field.as_str() else {
            report_not_a_string(cx, file, &RULE, &name, field, "path")
                .label("not a path")
                .help("Write the path in double quotes, starting with `/`: \"/api/users\".");
            continue;
        };
        let quoted = suggest::shortened(path);
        // A placeholder may hold the whole path, slash included.
        if !path.starts_with('/') && !path.starts_with("<%=") {
            cx.report(file, &RULE, field.span, format!("`path` \"{quoted}\" of template `{name}` does not start with `/`"))
                .label("no leading `/`")
                .help(format!("Write \"/{quoted}\". The validator says \"Request template '{name}' schema/path must start with '/'\"."))
                .pointer(field.pointer());
        }
    }
}
