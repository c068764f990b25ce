//! `iparams-api-on-install-page`: `client.iparams` called by a script of the installation page.

use crate::app::AppModel;
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};

pub static RULE: Rule = Rule {
    name: "iparams-api-on-install-page",
    severity: Severity::Warning,
    area: Area::App,
    summary: "A script of the installation page calls `client.iparams`, which that page's client lacks",
    docs: r#"On the installation page (the page the platform builds from iparams.json, with the
callbacks of config/assets/iparams.js, or a custom config/iparams.html and the scripts it loads)
`app.initialized()` gives a client with `request` and `context`, but no `iparams`: the values are
being entered there, not stored yet. `client.iparams.get(…)` throws a `TypeError`, and whatever
the callback meant to do with the value never happens. Read what the installer has entered with
`utils.get("key")` in a callback of a generated page, or from the page's own fields in a custom
one."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{"region": {"display_name": "Region", "type": "text", "events": [{"change": "regionChanged"}]}}
=== config/assets/iparams.js ===
function regionChanged() {
  app.initialized().then(function (client) {
    return client.iparams.get("region");
  });
}
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.json ===
{"region": {"display_name": "Region", "type": "text", "events": [{"change": "regionChanged"}]}}
=== config/assets/iparams.js ===
function regionChanged() {
  return utils.get("region");
}
"#,
    examples: Examples::App,
    vendor: "Not checked: the page fails when the callback runs.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    for (file, facts) in model.callbacks.iter().chain(&model.install_scripts) {
        for &span in &facts.iparams_api_calls {
            cx.report(
                *file,
                &RULE,
                span,
                "`client.iparams` does not exist on the installation page",
            )
            .label("no iparams on this page's client")
            .help(
                "The installation page's client has `request` and `context` only: the values are \
                 being entered, not stored. Read an entered value with `utils.get(\"key\")` in a \
                 callback of a generated page, or from the page's own field in a custom one.",
            );
        }
    }
}
