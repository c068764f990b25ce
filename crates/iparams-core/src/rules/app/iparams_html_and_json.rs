//! `iparams-html-and-json`: two installation pages for one app.

use crate::app::AppModel;
use crate::app::config_has;
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::span::Span;

pub static RULE: Rule = Rule {
    name: "iparams-html-and-json",
    severity: Severity::Error,
    area: Area::App,
    summary: "config/ holds both iparams.json and iparams.html",
    docs: r#"An app's installation page is either generated from config/iparams.json or written
by hand as config/iparams.html, never both: the platform does not know which to show."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{}
=== config/iparams.html ===
<html></html>
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{}
"#,
    examples: Examples::App,
    vendor: "Rejects: `Unsupported File(s). Specify either iparams.html or iparams.json`",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    if !(config_has(model.config_entries, "iparams.json")
        && config_has(model.config_entries, "iparams.html"))
    {
        return;
    }
    let message = "config/ holds both iparams.json and iparams.html";
    match model.iparams_file {
        Some(file) => cx.report(file, &RULE, Span::at(0), message),
        None => cx.report_entry("iparams.html", &RULE, message),
    }
    .label("one installation page too many")
        .help("The platform shows one installation page: keep iparams.json (a generated page) or iparams.html (a page of your own), and delete the other.");
}
