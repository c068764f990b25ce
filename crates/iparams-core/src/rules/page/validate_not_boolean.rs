//! `validate-not-boolean`: a page's `validate` that does not answer true or false.

use crate::app::AppModel;
use crate::app::page_functions::{Body, PageFunctionName};
use crate::diagnostic::Severity;
use crate::rules::framework::{AppContext, Area, Check, Examples, Rule};

pub static RULE: Rule = Rule {
    name: "validate-not-boolean",
    severity: Severity::Error,
    area: Area::Page,
    summary: "the page's `validate` returns something other than a boolean",
    docs: r#"Before INSTALL stores anything, the product calls the page's `validate()` and goes on
only when it returns `true` (or a Promise of `true`, from an `async function`). A function that
returns nothing, a message string or an object is read as a failed validation (or, for a string,
a passed one, whatever it says): return `true` or `false`, and show the page's own message
before returning `false`. Values that are not literals (a variable, a call) are not judged."#,
    bad: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.html ===
<html><head><script src="{{{appclient}}}"></script></head>
<body><input id="region">
<script>
function postConfigs() { return { region: region.value }; }
function getConfigs(configs) { region.value = configs.region; }
function validate() { if (!region.value) { return "Enter a region"; } }
</script></body></html>
"#,
    good: r#"=== manifest.json ===
{"platform-version": "2.3", "product": {"freshdesk": {}}}
=== config/iparams.html ===
<html><head><script src="{{{appclient}}}"></script></head>
<body><input id="region"><p id="error"></p>
<script>
function postConfigs() { return { region: region.value }; }
function getConfigs(configs) { region.value = configs.region; }
function validate() {
  if (!region.value) { error.textContent = "Enter a region"; return false; }
  return true;
}
</script></body></html>
"#,
    examples: Examples::App,
    vendor: "Not checked.",
    fix: None,
    checks: &[Check::App(check)],
};

fn check(model: &AppModel<'_>, cx: &mut AppContext) {
    let Some(page) = super::page(model) else {
        return;
    };
    let Some((file, function)) = page.function(PageFunctionName::Validate) else {
        return;
    };
    let Body::Validate(validated) = &function.body else {
        return;
    };
    let promise = if validated.is_async {
        "a Promise of `true` or `false`"
    } else {
        "`true` or `false` (or a Promise of one)"
    };
    if validated.never_returns {
        cx.report(
            file,
            &RULE,
            function.span,
            "`validate` never returns a value, so INSTALL never goes on",
        )
        .label("returns undefined")
        .help(format!(
            "Return {promise}: `true` lets INSTALL store the values, `false` stops it."
        ));
    }
    for (span, what) in &validated.not_boolean {
        cx.report(file, &RULE, *span, format!("`validate` returns {what} here, not a boolean"))
            .label(format!("{what}, not true or false"))
            .help(format!(
                "Return {promise}; to tell the installer what is wrong, show it on the page before returning `false`."
            ));
    }
}
