//! `deprecated-test-data`: config/iparam_test_data.json.

use crate::app::AppModel;
use crate::app::config_has;
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};

pub static RULE: Rule = Rule {
    name: "deprecated-test-data",
    severity: Severity::Warning,
    area: Area::App,
    summary: "config/iparam_test_data.json is deprecated",
    docs: r#"Older tools read test values for iparams from config/iparam_test_data.json. Today
`fdk run` serves the installation page at `http://localhost:10001/custom_configs`, where test values
are entered instead. Until the file is removed, `iparams-lint values` checks it against
iparams.json."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{}
=== config/iparam_test_data.json ===
{}
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{}
"#,
    examples: Examples::App,
    vendor: r#"Warns that the file is deprecated and points to
http://localhost:10001/custom_configs."#,
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    if config_has(model.config_entries, "iparam_test_data.json") {
        cx.report_entry("iparam_test_data.json", &RULE, "config/iparam_test_data.json is deprecated")
            .label("deprecated")
            .help("Enter test values on the installation page that `fdk run` serves at http://localhost:10001/custom_configs, and delete the file.");
    }
}
