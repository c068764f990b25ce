//! `undeclared-request-template`: a template of config/requests.json that manifest.json does
//! not declare.

use crate::app::AppModel;
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::rules::templates::{request_app, request_templates};
use crate::suggest;

pub static RULE: Rule = Rule {
    name: "undeclared-request-template",
    severity: Severity::Error,
    area: Area::Templates,
    summary: "A request template is not declared in manifest.json",
    docs: r#"Every template of config/requests.json is declared in manifest.json too, by name:
`product.<product>.requests.<name>` on platform 2.3, `modules.common.requests.<name>` on 3.x
(the value is an empty object). An undeclared template cannot be invoked: the call fails with
"Request template not found"."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{}
=== config/requests.json ===
{"getUser": {"schema": {"method": "GET", "host": "api.example.com"}}}
=== app/scripts/app.js ===
client.request.invokeTemplate("getUser", {});
"#,
    good: request_app!(r#"{"schema": {"method": "GET", "host": "api.example.com"}}"#),
    examples: Examples::App,
    vendor: "`fdk validate` says: Request template 'X' is not defined in manifest.json.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    let reading = model.manifest;
    let manifest = &reading.manifest;
    let Some(platform) = manifest.platform else {
        return;
    };
    if !reading.syntax_errors.is_empty() || manifest.foreign.is_some() {
        return;
    }
    let declare_in = if platform.is_modular() {
        "`modules.common.requests`".to_owned()
    } else {
        match manifest.products.first() {
            Some(product) => format!("`product.{}.requests`", product.name),
            None => "`product.<product>.requests`".to_owned(),
        }
    };
    for (file, template) in request_templates(model) {
        if manifest.declares_request(&template.name) {
            continue;
        }
        let name = suggest::shortened(&template.name);
        cx.report(
            file,
            &RULE,
            template.name_span,
            format!("Request template `{name}` is not declared in manifest.json"),
        )
        .label("not in manifest.json")
        .help(format!(
            "Add `\"{name}\": {{}}` to {declare_in} in manifest.json: a template it does not declare cannot be invoked."
        ))
        .pointer(template.pointer());
    }
}
