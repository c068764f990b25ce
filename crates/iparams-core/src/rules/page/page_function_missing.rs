//! `page-function-missing`: a custom installation page without `postConfigs` or `getConfigs`.

use crate::app::AppModel;
use crate::app::page_functions::PageFunctionName;
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};
use crate::span::Span;

pub static RULE: Rule = Rule {
    name: "page-function-missing",
    severity: Severity::Error,
    area: Area::Page,
    summary: "config/iparams.html does not define `postConfigs` or `getConfigs`",
    docs: r#"The product calls two functions of a custom installation page: `postConfigs()`, whose
returned object is what is stored at INSTALL (one property per iparam), and `getConfigs(configs)`,
which fills the form from the stored values when the settings are edited. Without `postConfigs`
nothing is stored; without `getConfigs` the form comes back empty. They are looked for in the
page's inline scripts and in the local scripts it loads (`<script src="./assets/iparams.js">`).
The rule stays quiet when a script the page runs cannot be read."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.html ===
<html><head><script src="{{{appclient}}}"></script></head>
<body><input id="region">
<script>
function getConfigs(configs) { region.value = configs.region; }
</script></body></html>
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.html ===
<html><head><script src="{{{appclient}}}"></script></head>
<body><input id="region">
<script>
function getConfigs(configs) { region.value = configs.region; }
function postConfigs() { return { region: region.value }; }
</script></body></html>
"#,
    examples: Examples::App,
    vendor: "Rejects the page: getConfigs and postConfigs must be top-level function declarations.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    let Some(page) = super::page(model) else {
        return;
    };
    if !super::scripts_read(model, page) {
        return;
    }
    for name in [PageFunctionName::PostConfigs, PageFunctionName::GetConfigs] {
        if page.definitions.iter().any(|(_, f)| f.name() == name) {
            continue;
        }
        let function = name.name();
        let what = match name {
            PageFunctionName::PostConfigs => "so INSTALL stores nothing",
            _ => "so the form comes back empty when the settings are edited",
        };
        // At the end of the page's last inline script, where a function would go.
        let at = page
            .runs
            .iter()
            .rev()
            .find_map(|run| match run {
                crate::app::Run::Inline(code) => Some(Span::at(code.end)),
                _ => None,
            })
            .unwrap_or_default();
        let example = match name {
            PageFunctionName::PostConfigs => {
                "function postConfigs() { return { key: field.value }; }"
            }
            _ => "function getConfigs(configs) { field.value = configs.key; }",
        };
        cx.report(page.file, &RULE, at, format!("The installation page defines no `{function}` function, {what}"))
            .label("not defined in any script the page runs")
            .help(format!(
                "Declare it at the top level of a script the page runs (inline, or a local file it loads): `{example}`."
            ));
    }
}
