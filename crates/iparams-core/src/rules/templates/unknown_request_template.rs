//! `unknown-request-template`: code invokes a template that config/requests.json does not
//! define, or manifest.json declares one it does not define.

use crate::app::AppModel;
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::rules::helpers::invocations;
use crate::rules::templates::request_app;
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "unknown-request-template",
    severity: Severity::Error,
    area: Area::Templates,
    summary: "The app invokes (or manifest.json declares) a request template that config/requests.json does not define",
    docs: r#"`client.request.invokeTemplate("name", …)` and `$request.invokeTemplate("name", …)` call
the template of config/requests.json with that name; a name it does not define fails at run time
with "Request template not found". manifest.json declares the same names, and a declared name
without a template is a mistake too. The help names the closest template."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {"requests": {"getUser": {}}}}}
=== config/iparams.json ===
{}
=== config/requests.json ===
{"getUser": {"schema": {"method": "GET", "host": "api.example.com"}}}
=== app/scripts/app.js ===
client.request.invokeTemplate("getUsers", {});
"#,
    good: request_app!(r#"{"schema": {"method": "GET", "host": "api.example.com"}}"#),
    examples: Examples::App,
    vendor: "`fdk validate` says: Request template 'X' is not defined in manifest.json (for the manifest side only).",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    let defined: Vec<&str> = model
        .requests
        .iter()
        .flat_map(|requests| &requests.requests.templates)
        .map(|template| template.name.as_ref())
        .collect();
    // A file read only in part may define more than was read.
    if model
        .requests
        .as_ref()
        .is_some_and(|r| !r.requests.complete)
    {
        return;
    }
    let hint = |name: &str| match suggest::closest(name, defined.iter().copied()) {
        Some(meant) => format!("Did you mean `{meant}`?"),
        None if defined.is_empty() && model.requests.is_none() => {
            "The app has no config/requests.json: define the template there.".to_owned()
        }
        None if defined.is_empty() => "config/requests.json defines no template.".to_owned(),
        None => format!(
            "config/requests.json defines {}.",
            suggest::list(defined.iter().copied())
        ),
    };
    for (file, _, invocation) in invocations(model) {
        let Some(template) = &invocation.template else {
            continue;
        };
        if defined.contains(&template.name.as_str()) {
            continue;
        }
        let name = suggest::shortened(&template.name);
        cx.report(
            file,
            &RULE,
            template.span,
            format!(
                "Template `{name}` is invoked here, but config/requests.json does not define it"
            ),
        )
        .label("no such template")
        .help(format!(
            "{} The call fails with \"Request template not found\".",
            hint(&template.name)
        ));
    }
    if model.manifest.syntax_errors.is_empty() && model.requests.is_some() {
        for declared in &model.manifest.manifest.requests {
            if defined.contains(&declared.name.as_str()) {
                continue;
            }
            let name = suggest::shortened(&declared.name);
            cx.report(
                model.manifest_file,
                &RULE,
                declared.span,
                format!("manifest.json declares request template `{name}`, but config/requests.json does not define it"),
            )
            .label("declared, not defined")
            .help(format!(
                "{} Define it in config/requests.json, or remove the declaration.",
                hint(&declared.name)
            ));
        }
    }
}
