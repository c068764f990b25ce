//! `deprecated-test-data`: config/iparam_test_data.json.

use super::config_folder::has;
use super::{Check, Rule};
use crate::app::{AppContext, AppModel};
use crate::diagnostic::Severity;
use crate::span::Span;

pub static RULE: Rule = Rule {
    name: "deprecated-test-data",
    severity: Severity::Warning,
    summary: "config/iparam_test_data.json is deprecated",
    docs: "Older tools read test values for iparams from config/iparam_test_data.json. Today `fdk run` \
serves the installation page at `http://localhost:10001/custom_configs`, where test values are \
entered instead. Until the file is removed, `iparams-lint values` checks it against iparams.json.",
    bad: "=== manifest.json ===\n{\"platform-version\": \"2.3\", \"product\": {\"freshdesk\": {}}}\n=== config/iparams.json ===\n{}\n=== config/iparam_test_data.json ===\n{}\n",
    good: "=== manifest.json ===\n{\"platform-version\": \"2.3\", \"product\": {\"freshdesk\": {}}}\n=== config/iparams.json ===\n{}\n",
    vendor: "Warns that the file is deprecated and points to http://localhost:10001/custom_configs.",
    fix: None,
    check: Check::App(check),
};

fn check(model: &AppModel<'_>, cx: &mut AppContext<'_>) {
    if has(model.config_entries, "iparam_test_data.json") {
        cx.report(model.config_folder, &RULE, Span::at(0), "config/iparam_test_data.json is deprecated")
            .label("deprecated")
            .help("Enter test values on the installation page that `fdk run` serves at http://localhost:10001/custom_configs, and delete the file.");
    }
}
