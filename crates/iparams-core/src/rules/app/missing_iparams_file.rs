//! `missing-iparams-file`: an app without an installation page.

use crate::app::AppModel;
use crate::app::config_has;
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};

pub static RULE: Rule = Rule {
    name: "missing-iparams-file",
    severity: Severity::Error,
    area: Area::App,
    summary: "config/ holds neither iparams.json nor iparams.html",
    docs: r#"Every app needs an installation page, even one without parameters:
config/iparams.json holding `{}` is enough."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/requests.json ===
{}
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{}
=== config/requests.json ===
{}
"#,
    examples: Examples::App,
    vendor: r#"Rejects: `iparams.json is mandatory.` (or `Mandatory folder(s) missing: config`
without config/)."#,
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    if config_has(model.config_entries, "iparams.json")
        || config_has(model.config_entries, "iparams.html")
    {
        return;
    }
    cx.report_entry(
        "iparams.json",
        &RULE,
        "config/ has no iparams.json or iparams.html",
    )
    .label("no installation page")
    .help("Add config/iparams.json; an app without installation parameters writes `{}` in it.");
}
