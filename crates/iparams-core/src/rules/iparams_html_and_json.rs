//! `iparams-html-and-json`: two installation pages for one app.

use super::config_folder::has;
use super::{Check, Rule};
use crate::app::{AppContext, AppModel};
use crate::diagnostic::Severity;
use crate::span::Span;

pub static RULE: Rule = Rule {
    name: "iparams-html-and-json",
    severity: Severity::Error,
    summary: "config/ holds both iparams.json and iparams.html",
    docs: "An app's installation page is either generated from config/iparams.json or written by \
hand as config/iparams.html, never both: the platform does not know which to show.",
    bad: "=== manifest.json ===\n{\"platform-version\": \"2.3\", \"product\": {\"freshdesk\": {}}}\n=== config/iparams.json ===\n{}\n=== config/iparams.html ===\n<html></html>\n",
    good: "=== manifest.json ===\n{\"platform-version\": \"2.3\", \"product\": {\"freshdesk\": {}}}\n=== config/iparams.json ===\n{}\n",
    vendor: "Rejects: `Unsupported File(s). Specify either iparams.html or iparams.json`",
    fix: None,
    check: Check::App(check),
};

fn check(model: &AppModel<'_>, cx: &mut AppContext<'_>) {
    if !(has(model.config_entries, "iparams.json") && has(model.config_entries, "iparams.html")) {
        return;
    }
    let file = model.iparams_file.unwrap_or(model.config_folder);
    cx.report(file, &RULE, Span::at(0), "config/ holds both iparams.json and iparams.html")
        .label("one installation page too many")
        .help("The platform shows one installation page: keep iparams.json (a generated page) or iparams.html (a page of your own), and delete the other.");
}
