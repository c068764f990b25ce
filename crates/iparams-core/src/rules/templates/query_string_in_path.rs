//! `query-string-in-path`: a request template's `path` holds a query string.

use crate::app::{AppModel, Place};
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::rules::templates::{request_templates, without_placeholders};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "query-string-in-path",
    severity: Severity::Warning,
    area: Area::Templates,
    summary: "A request template's `path` holds a query string (`/users?page=2`)",
    docs: r#"The platform's documentation asks for the query parameters of a template in
`schema.query`, never after a `?` in `path`. Public apps do write them in the path; whether the
platform passes them on as written is not documented, so this is a warning. In `query`, each
parameter is a name of its own that rules (and readers) can check."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {"requests": {"listUsers": {}}}}}
=== config/iparams.json ===
{}
=== config/requests.json ===
{"listUsers": {"schema": {"method": "GET", "host": "api.example.com", "path": "/users?page=2"}}}
=== app/scripts/app.js ===
client.request.invokeTemplate("listUsers", {});
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {"requests": {"listUsers": {}}}}}
=== config/iparams.json ===
{}
=== config/requests.json ===
{"listUsers": {"schema": {"method": "GET", "host": "api.example.com", "path": "/users", "query": {"page": "2"}}}}
=== app/scripts/app.js ===
client.request.invokeTemplate("listUsers", {});
"#,
    examples: Examples::App,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    for (file, template) in request_templates(model) {
        let Some(field) = template.field(&Place::Path) else {
            continue;
        };
        let Some(path) = field.as_str() else {
            continue;
        };
        let shape = without_placeholders(path);
        let Some((_, query)) = shape.split_once('?') else {
            continue;
        };
        let name = suggest::shortened(&template.name);
        // Only the path before `?`: the values after it may be keys (`?apikey=…`).
        let before = path.split_once('?').map_or(path, |(before, _)| before);
        let quoted = suggest::shortened(before);
        let names: Vec<&str> = query
            .split('&')
            .filter_map(|pair| pair.split('=').next())
            .filter(|name| !name.is_empty() && *name != "x")
            .collect();
        let listed = if names.is_empty() {
            String::new()
        } else {
            format!(" ({})", suggest::list(names))
        };
        cx.report(file, &RULE, field.span, format!("`path` \"{quoted}?…\" of template `{name}` holds a query string"))
            .label("query string in the path")
            .help(format!(
                "Move the parameters{listed} to `\"query\": {{...}}` of the schema, one member each, and keep only the path before `?`."
            ))
            .pointer(field.pointer());
    }
}
