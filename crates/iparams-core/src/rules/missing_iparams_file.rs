//! `missing-iparams-file`: an app without an installation page.

use super::config_folder::has;
use super::{Check, Rule};
use crate::app::{AppContext, AppModel};
use crate::diagnostic::Severity;
use crate::span::Span;

pub static RULE: Rule = Rule {
    name: "missing-iparams-file",
    severity: Severity::Error,
    summary: "config/ holds neither iparams.json nor iparams.html",
    docs: "Every app needs an installation page, even one without parameters: config/iparams.json \
holding `{}` is enough.",
    bad: "=== manifest.json ===\n{\"platform-version\": \"2.3\", \"product\": {\"freshdesk\": {}}}\n=== config/requests.json ===\n{}\n",
    good: "=== manifest.json ===\n{\"platform-version\": \"2.3\", \"product\": {\"freshdesk\": {}}}\n=== config/iparams.json ===\n{}\n=== config/requests.json ===\n{}\n",
    vendor: "Rejects: `iparams.json is mandatory.` (or `Mandatory folder(s) missing: config` without config/).",
    fix: None,
    check: Check::App(check),
};

fn check(model: &AppModel<'_>, cx: &mut AppContext<'_>) {
    if has(model.config_entries, "iparams.json") || has(model.config_entries, "iparams.html") {
        return;
    }
    cx.report(
        model.config_folder,
        &RULE,
        Span::at(0),
        "config/ has no iparams.json or iparams.html",
    )
    .label("no installation page")
    .help("Add config/iparams.json; an app without installation parameters writes `{}` in it.");
}
