//! `key-not-usable-in-templates`: a key that a request template cannot name.

use crate::app::AppModel;
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::rules::helpers::{as_identifier, is_identifier};

pub static RULE: Rule = Rule {
    name: "key-not-usable-in-templates",
    severity: Severity::Warning,
    area: Area::App,
    summary: "An iparam key that a request template cannot name (`<%= iparam.api-key %>`)",
    docs: r#"Request templates read iparams as `<%= iparam.key %>`, a JavaScript property access,
so a key with a dash, a dot or a space (`api-key`) reads something else (`iparam.api` minus `key`).
Secure iparams can only be used through templates, so for them, and in apps that have request
templates, such a key is reported on its definition."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{
  "api-key": {"display_name": "API key", "type": "text", "secure": true}
}
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{
  "api_key": {"display_name": "API key", "type": "text", "secure": true}
}
"#,
    examples: Examples::App,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    let Some(file) = model.iparams_file else {
        return;
    };
    let has_templates = !model.templates.is_empty();
    for declared in model
        .declared
        .iter()
        .filter(|d| (d.secure || has_templates) && !d.key.is_empty() && !is_identifier(&d.key))
    {
        let suggestion = as_identifier(&declared.key);
        let why = if declared.secure {
            "It is secure, so templates are the only way to use it"
        } else {
            "The app uses request templates"
        };
        cx.report(file, &RULE, declared.key_span, format!("`{}` cannot be written in a request template", declared.key))
            .label("not a JavaScript name")
            .help(format!(
                "`<%= iparam.{} %>` is read as JavaScript, which does not take this name. {why}: rename it, for example to `{suggestion}`.",
                declared.key
            ))
            .pointer(declared.pointer());
    }
}
