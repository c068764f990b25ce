//! `javascript-syntax-error`: app code the parser cannot read whole.

use crate::app::AppModel;
use crate::diagnostic::Severity;
use crate::rules::{AppContext, Area, Check, Examples, Rule};

pub static RULE: Rule = Rule {
    name: "javascript-syntax-error",
    severity: Severity::Warning,
    area: Area::App,
    summary: "A script of the app has a JavaScript syntax error",
    docs: r#"The app's scripts (config/assets/iparams.js, the front end and server/) are parsed
to find the callbacks and the iparams they read. A syntax error is reported with its position, and
the checks go on with what could be read; in config/assets/iparams.js it also breaks every
installation-page callback."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{
  "region": {"display_name": "Region", "type": "text", "events": [{"change": "onRegion"}]}
}
=== config/assets/iparams.js ===
function onRegion(value) {
  return value ? "" : "Enter a region";
}}
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{
  "region": {"display_name": "Region", "type": "text", "events": [{"change": "onRegion"}]}
}
=== config/assets/iparams.js ===
function onRegion(value) {
  return value ? "" : "Enter a region";
}
"#,
    examples: Examples::App,
    vendor: "Fails with the esprima parser's message when it reads config/assets/iparams.js.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    for (file, facts) in model.callbacks.iter().chain(model.readers()) {
        for error in &facts.syntax_errors {
            cx.report(
                *file,
                &RULE,
                error.span,
                format!(
                    "JavaScript syntax error: {}",
                    error.message.trim_end_matches('.')
                ),
            )
            .label("cannot be parsed")
            .help("The other checks of this file went on with what could be read.");
        }
    }
}
